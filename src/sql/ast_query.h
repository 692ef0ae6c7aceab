// The syntax tree of queries (see ast.h for what the tree is): type names,
// expressions, SELECT, and the DML statements INSERT, UPDATE and DELETE.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cc/row_lock.h"

namespace paceline::sql {

// ---------------------------------------------------------------- types

// A type as written: `numeric(12,2)`, `varchar(16)`, `int`. The name is
// normalized the way PostgreSQL does (`int` → "int4", `integer` → "int4",
// `bigint` → "int8", `smallint` → "int2", `real` → "float4",
// `double precision` / `float` → "float8", `decimal` → "numeric",
// `char(n)` / `character(n)` → "bpchar", `character varying` → "varchar",
// `boolean` → "bool", `timestamp without time zone` → "timestamp",
// `timestamp with time zone` → "timestamptz"); other names (a domain, an
// unknown type) are kept lower-cased as written.
struct TypeName {
  std::string name;
  std::vector<int32_t> modifiers;  // (12,2) → {12, 2}; empty when none
  bool is_array = false;           // `int[]` (and `int[][]`, the same type in PostgreSQL)
  int location = -1;
};

// ---------------------------------------------------------------- expressions

enum class ExprKind {
  kLiteral,     // 5, 1.5, 'abc', true, NULL
  kParameter,   // $1
  kColumnRef,   // c, t.c
  kStar,        // * or t.* in a select list, or count(*)
  kUnary,       // -x, +x, NOT x
  kBinary,      // x + y, x = y, x AND y, x || y, x LIKE y
  kFunction,    // count(x), sum(DISTINCT x), now(), coalesce(a, b)
  kCast,        // x::int, CAST(x AS int), int '5'
  kIsNull,      // x IS [NOT] NULL
  kIn,          // x [NOT] IN (a, b, c)
  kBetween,     // x [NOT] BETWEEN a AND b
  kCase,        // CASE [x] WHEN .. THEN .. ELSE .. END
  kIsBool,      // x IS [NOT] TRUE / FALSE / UNKNOWN
  kSubquery,    // (SELECT ..), EXISTS (..), x [NOT] IN (SELECT ..), x op ANY/ALL (SELECT ..), ARRAY(SELECT ..)
  kArray,       // ARRAY[a, b, ..]: elements in `list`
  kSubscript,   // left[right] (1-based)
  kArrayCompare,  // left op ANY|ALL (right), right an array: binary_op, subquery_kind kAny/kAll
  kRow,         // ROW(a, b, ..) or (a, b, ..): fields in `list`, their names in `field_names`
  kFieldSelect, // (left).column: a field of a record
};

// What a kSubquery expression asks of its query's rows.
enum class SubqueryKind {
  kScalar,  // (SELECT x ..): the one value of at most one row
  kExists,  // EXISTS (SELECT ..)
  kAny,     // left op ANY (SELECT ..); IN is = ANY
  kAll,     // left op ALL (SELECT ..); NOT IN is NOT (= ANY), as PostgreSQL parses it
  kArray,   // ARRAY(SELECT x ..): the one column's values as an array
};

enum class LiteralKind { kInteger, kNumeric, kString, kBool, kNull };

enum class UnaryOp { kMinus, kPlus, kNot };

enum class BinaryOp {
  kAdd, kSub, kMul, kDiv, kMod,
  kBitAnd, kBitOr, kBitXor, kShiftLeft, kShiftRight,  // & | # << >> on integers
  kEq, kNe, kLt, kLe, kGt, kGe,
  kAnd, kOr,
  kConcat,            // ||
  kLike, kNotLike, kILike, kNotILike,
  kIsDistinctFrom, kIsNotDistinctFrom,
  kJsonGet, kJsonGetText, kJsonPath, kJsonPathText, kContains, kContainedBy, kJsonExists,  // -> ->> #> #>> @> <@ ?
  kJsonExistsAny, kJsonExistsAll, kJsonDeletePath,  // ?| ?& #- (jsonb - x is kSub)
};

enum class BoolTest { kTrue, kNotTrue, kFalse, kNotFalse, kUnknown, kNotUnknown };

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;
struct SelectStmt;
struct WindowDefinition;

struct CaseWhen {
  ExprPtr condition;
  ExprPtr result;
};

struct OrderItem {
  ExprPtr expr;           // may be a kLiteral integer: ORDER BY 2 (position)
  bool descending = false;
  std::optional<bool> nulls_first;  // unset: PostgreSQL default (NULLS LAST for ASC)
};

struct Expr {
  ExprKind kind;
  int location = -1;  // byte offset into the whole string given to Parse, -1 when unknown

  // kLiteral: `text` holds the source text of numbers ("1.50", "9223372036854775808")
  // and the value of strings (quotes removed, escapes applied); `int_value`
  // holds a kInteger that fits in int64; `bool_value` a kBool.
  LiteralKind literal_kind = LiteralKind::kNull;
  std::string text;
  int64_t int_value = 0;
  bool bool_value = false;

  // kParameter: 1-based number ($1 → 1).
  int param_index = 0;

  // kColumnRef / kStar: qualifier is the table name or alias ("" when absent).
  // `column` is the column name for kColumnRef (lower-cased unless quoted).
  std::string qualifier;
  std::string column;

  // kUnary / kBinary / kIsNull / kIsBool / kIn / kBetween / kCast / kCase:
  UnaryOp unary_op = UnaryOp::kMinus;
  BinaryOp binary_op = BinaryOp::kEq;
  BoolTest bool_test = BoolTest::kTrue;
  bool negated = false;        // IS NOT NULL, NOT IN, NOT BETWEEN
  ExprPtr left;                // operand of unary/is-null/in/between/cast; left of binary; CASE operand (may be null)
  ExprPtr right;               // right of binary
  std::vector<ExprPtr> list;   // IN list; BETWEEN {low, high}; function arguments
  std::vector<CaseWhen> whens; // CASE
  ExprPtr else_result;         // CASE ELSE (may be null)
  TypeName cast_type;          // kCast
  // kRow: its fields' names; empty for a row written in SQL (f1, f2, ..).
  std::vector<std::string> field_names;

  // kFunction: lower-cased name without schema ("pg_catalog.now" → "now").
  std::string function_name;
  bool distinct = false;       // count(DISTINCT x)
  bool star = false;           // count(*)
  // A window function call `f(..) OVER (..)` or `OVER w`; null otherwise.
  std::shared_ptr<const WindowDefinition> over;
  std::vector<OrderItem> agg_order;  // array_agg(x ORDER BY y)

  // kSubquery: the query, what is asked of it, and for kAny/kAll the
  // comparison (binary_op) with `left`.
  SubqueryKind subquery_kind = SubqueryKind::kScalar;
  std::shared_ptr<const SelectStmt> subquery;
};

// ---------------------------------------------------------------- SELECT

struct TableRef {
  std::string name;   // lower-cased unless quoted, without its schema
  std::string schema; // "public" of "public.t"; "" when unqualified (the search path)
  std::string alias;  // "" when none
  int location = -1;
};

enum class JoinKind { kInner, kLeft, kRight, kFull, kCross };

// One item of FROM: a table (or a WITH query or view of that name), a
// subquery, or a join of two items.
struct FromItem {
  bool is_join = false;
  TableRef table;                      // when !is_join and !subquery (alias: table.alias)
  // A subquery in FROM: `(SELECT ..) AS alias [(column aliases)]`, LATERAL
  // when it may read columns of the items before it.
  std::shared_ptr<const SelectStmt> subquery;
  // A function in FROM (`generate_series(1, 3) AS g (n)`): the call, as an
  // expression of kind kFunction.
  ExprPtr function;
  // ROWS FROM (f(..), g(..)): each function an item of its own (its
  // `function` set), their rows zipped (the shorter ones NULL-padded);
  // `function` is then null. Also how a select list's set-returning calls
  // run (Transformer::MoveSetReturningTargets).
  std::vector<std::unique_ptr<FromItem>> rows_from;
  bool lateral = false;
  bool ordinality = false;  // a function in FROM .. WITH ORDINALITY
  std::vector<std::string> column_aliases;  // FROM t AS x (a, b): renames the first columns
  JoinKind join_kind = JoinKind::kInner;
  std::unique_ptr<FromItem> left;      // when is_join
  std::unique_ptr<FromItem> right;
  ExprPtr on;                          // ON condition; null for CROSS / comma joins
  std::vector<std::string> using_columns;  // JOIN .. USING (a, b)
  bool natural = false;
  int location = -1;
};

struct SelectItem {
  ExprPtr expr;
  std::string alias;  // "" when none (AS x)
};

enum class SetOperation { kNone, kUnion, kIntersect, kExcept };

// A window: OVER (..) of a window function call, or WINDOW name AS (..).
// `frame_options` holds PostgreSQL's FRAMEOPTION_* bits as the parser gives
// them (kFrame* below); the offsets are set for n PRECEDING/FOLLOWING.
struct WindowDefinition {
  static constexpr int kFrameNonDefault = 0x1, kFrameRange = 0x2, kFrameRows = 0x4, kFrameGroups = 0x8,
                       kFrameStartUnboundedPreceding = 0x20, kFrameEndUnboundedFollowing = 0x100,
                       kFrameStartCurrentRow = 0x200, kFrameEndCurrentRow = 0x400,
                       kFrameStartOffsetPreceding = 0x800, kFrameEndOffsetPreceding = 0x1000,
                       kFrameStartOffsetFollowing = 0x2000, kFrameEndOffsetFollowing = 0x4000,
                       kFrameExclusions = 0x8000 | 0x10000 | 0x20000;
  std::string name;     // WINDOW name AS (..); "" in OVER (..)
  std::string refname;  // OVER w, OVER (w ORDER BY ..): the named window it copies
  std::vector<ExprPtr> partition_by;
  std::vector<OrderItem> order_by;
  int frame_options = 0;
  ExprPtr start_offset;
  ExprPtr end_offset;
  int location = -1;
};

struct InsertStmt;
struct UpdateStmt;
struct DeleteStmt;

// WITH name [(columns)] AS (query): a named query of one statement. A
// data-modifying one holds an INSERT, UPDATE or DELETE instead of `query`.
struct CommonTableExpr {
  std::string name;
  std::vector<std::string> column_aliases;
  std::shared_ptr<const SelectStmt> query;
  std::shared_ptr<const InsertStmt> insert;
  std::shared_ptr<const UpdateStmt> update;
  std::shared_ptr<const DeleteStmt> del;
  bool recursive = false;  // in a WITH RECURSIVE: it may name itself (query UNION [ALL] query)
  int location = -1;
};

// A row-locking clause: FOR UPDATE | NO KEY UPDATE | SHARE | KEY SHARE
// [OF name, ..] [NOWAIT | SKIP LOCKED].
enum class LockStrength { kKeyShare, kShare, kNoKeyUpdate, kUpdate };
// "FOR UPDATE", "FOR SHARE", ... (as PostgreSQL names them in errors).
inline const char* LockStrengthName(LockStrength strength) {
  switch (strength) {
    case LockStrength::kKeyShare: return "FOR KEY SHARE";
    case LockStrength::kShare: return "FOR SHARE";
    case LockStrength::kNoKeyUpdate: return "FOR NO KEY UPDATE";
    case LockStrength::kUpdate: return "FOR UPDATE";
  }
  return "FOR UPDATE";
}
struct LockingClause {
  LockStrength strength = LockStrength::kUpdate;
  cc::RowLock lock;  // exclusive for the two UPDATE strengths
  // OF: FROM items by name (alias if given), each with its location; empty
  // for every table of the FROM clause.
  std::vector<std::pair<std::string, int>> of;
};

struct SelectStmt {
  // WITH queries visible to this statement (and its subqueries).
  std::vector<CommonTableExpr> with;
  // A set operation `left op [ALL] right`: when set_op != kNone only `with`,
  // order_by, limit, offset and these are used (ORDER BY/LIMIT apply to the
  // combined rows).
  SetOperation set_op = SetOperation::kNone;
  bool set_all = false;
  std::unique_ptr<SelectStmt> set_left;
  std::unique_ptr<SelectStmt> set_right;

  bool distinct = false;
  std::vector<SelectItem> targets;
  std::vector<std::unique_ptr<FromItem>> from;  // comma-separated items
  ExprPtr where;
  std::vector<ExprPtr> group_by;
  ExprPtr having;
  std::vector<OrderItem> order_by;
  std::vector<std::shared_ptr<const WindowDefinition>> windows;  // WINDOW w AS (..), ..
  ExprPtr limit;          // null when absent; LIMIT ALL → null
  ExprPtr offset;
  std::vector<LockingClause> locking;
  bool for_update() const { return !locking.empty(); }  // any locking clause
  // VALUES (..), (..) used as a query (the source of an INSERT): each row a
  // list of expressions, null where DEFAULT is written; when non-empty every
  // other field is empty.
  std::vector<std::vector<ExprPtr>> values;
};

// ---------------------------------------------------------------- DML

// INSERT's OVERRIDING clause, for identity columns.
enum class Overriding { kNone, kSystemValue, kUserValue };

struct SetClause {
  std::string column;
  ExprPtr value;  // null means DEFAULT
  int location = -1;
};

// INSERT's ON CONFLICT clause. The conflict target is the inferred columns
// (with an optional index predicate), a constraint's name, or nothing
// (DO NOTHING only: every unique index).
struct OnConflictClause {
  bool update = false;                    // DO UPDATE; false: DO NOTHING
  std::vector<std::string> columns;       // ON CONFLICT (a, b)
  ExprPtr index_where;                    // ON CONFLICT (a) WHERE ..; null when absent
  std::string constraint;                 // ON CONFLICT ON CONSTRAINT name
  std::vector<SetClause> set;             // DO UPDATE SET ..
  ExprPtr where;                          // DO UPDATE .. WHERE; null when absent
  int location = -1;
};

struct InsertStmt {
  TableRef table;                     // its alias: INSERT INTO t AS alias
  Overriding overriding = Overriding::kNone;
  std::vector<std::string> columns;   // empty: all columns in order
  std::unique_ptr<SelectStmt> source; // VALUES rows or a SELECT; null with DEFAULT VALUES
  std::unique_ptr<OnConflictClause> on_conflict;  // null when absent
  std::vector<SelectItem> returning;
};

struct UpdateStmt {
  std::vector<CommonTableExpr> with;  // WITH .. UPDATE
  TableRef table;
  std::vector<SetClause> set;
  std::vector<std::unique_ptr<FromItem>> from;  // UPDATE .. FROM
  ExprPtr where;
  std::vector<SelectItem> returning;
};

struct DeleteStmt {
  std::vector<CommonTableExpr> with;  // WITH .. DELETE
  TableRef table;
  std::vector<std::unique_ptr<FromItem>> using_items;  // DELETE .. USING
  ExprPtr where;
  std::vector<SelectItem> returning;
};

}  // namespace paceline::sql
