// BoundExpr: a typed, name-resolved expression, produced by the Binder from an
// AST Expr and evaluated by the ExpressionEvaluator.
//
// Column references are resolved to (source, column) — the position of the
// table in the statement's FROM list and of the column in that table — or,
// above an aggregation, to a slot of the materialized group row. Parameters
// are 0-based indexes into the statement's bound parameter values. Every node
// has its result type; constants are already cast to the type they are used
// at. Trees are immutable after binding and shared by all executions of a
// prepared statement (thread-safe to read).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "common/types.h"
#include "common/value.h"
#include "sql/ast.h"

namespace paceline::sql {

enum class BoundKind {
  kConstant,
  kParameter,   // index = parameter number - 1
  kColumn,      // source = FROM position, index = column position
  kSlot,        // index = position in the materialized row (groups, aggregates)
  kNegate,      // -child
  kNot,         // NOT child (three-valued)
  kArithmetic,  // op ∈ {kAdd, kSub, kMul, kDiv, kMod}
  kCompare,     // op ∈ {kEq .. kGe, kIsDistinctFrom, kIsNotDistinctFrom}
  kAnd,         // n-ary
  kOr,          // n-ary
  kConcat,
  kLike,        // op ∈ {kLike, kNotLike, kILike, kNotILike}
  kIsNull,      // negated: IS NOT NULL
  kIsBool,      // test
  kIn,          // children[0] IN (children[1..]); negated: NOT IN
  kCase,        // see has_operand / has_else
  kCast,        // child to `type`
  kFunction,    // scalar function `function`
  kOuterColumn, // a column of an enclosing query (correlation): `depth` levels out, (source, index)
  kSubquery,    // `subquery` run as its kind asks; kAny/kAll compare children[0] with `op`
  kArray,       // ARRAY[children..] of type.element
  kSubscript,   // children[0][children[1]] (1-based; out of range → NULL)
  kArrayCompare,  // children[0] op ANY (children[1]), an array; negated: op ALL
  kRow,         // ROW(children..): a record of type.fields
  kFieldSelect, // field `index` of children[0], a record
  kRowCompare,  // ROW(x1, .., xn) op ROW(y1, .., yn), op one of < <= > >=: children x1, y1, x2, y2, ..
};

enum class ScalarFunction {
  kNow, kCurrentDate, kCoalesce, kNullIf, kGreatest, kLeast, kAbs, kRound, kTrunc, kFloor, kCeil,
  kLower, kUpper, kLength, kOctetLength, kSubstr, kTrim, kLtrim, kRtrim, kPower, kSqrt, kMod, kRandom,
  kClockTimestamp, kDateTrunc, kExtract, kDatePart,
  // Arrays (bind_array.cc, evaluate_array.cc), kCardinality to kArrayOverlap in one run:
  kCardinality, kArrayLength, kArrayUpper, kArrayLower, kArrayNdims, kArrayPosition, kArrayAppend,
  kArrayPrepend, kArrayCat, kArrayRemove, kArrayToString, kStringToArray, kArrayContains, kArrayContained,
  kArrayOverlap,
  kGenRandomUuid,
  // json/jsonb operators and functions (bind_json.cc, evaluate_json.cc); the
  // result type tells json from jsonb where it matters.
  kJsonGet, kJsonGetText, kJsonPath, kJsonPathText, kJsonContains, kJsonExists, kJsonConcat,
  kJsonBuildObject, kJsonBuildArray, kJsonSet, kToJson, kJsonTypeof, kJsonArrayLength, kJsonPretty,
  kJsonExistsAny, kJsonExistsAll,  // jsonb ?| text[], jsonb ?& text[]
  kJsonDelete,      // jsonb - text, jsonb - int, jsonb - text[] (told apart by children[1]'s type)
  kJsonDeletePath,  // jsonb #- text[]
  // Intervals and sleeping (bind_interval.cc, evaluate_interval.cc).
  kJustifyDays, kJustifyHours, kJustifyInterval, kPgSleep, kPgSleepFor,
  // Sequences (bind_sequence.cc, evaluate_sequence.cc): children[0] the
  // name (none for lastval), index 0 when it is the catalog's name already,
  // -1 when it is regclass text to read at run time.
  kNextval, kCurrval, kSetval, kLastval,
  // pg_notify(channel, payload): void, a notification sent at commit.
  kPgNotify,
  // Advisory locks (bind_advisory_lock.cc, evaluate_advisory_lock.cc):
  // children the key (one bigint, or two integers: index 1), void or bool.
  kAdvisoryLock, kAdvisoryLockShared, kAdvisoryXactLock, kAdvisoryXactLockShared, kTryAdvisoryLock,
  kTryAdvisoryLockShared, kTryAdvisoryXactLock, kTryAdvisoryXactLockShared, kAdvisoryUnlock, kAdvisoryUnlockShared,
  kAdvisoryUnlockAll,
  // The system catalogs' functions and the session's (bind_catalog_function.cc,
  // evaluate_catalog_function.cc), kVersion to kRegprocOut in one run:
  // they read ctx.system, so they are never folded at bind time.
  kVersion, kCurrentDatabase, kCurrentSchema, kCurrentSchemas, kCurrentUser, kBackendPid,
  kClientAddr, kClientPort, kServerAddr, kServerPort,  // inet_{client,server}_{addr,port}(): NULL when embedded
  kTransactionId,                                      // txid_current(): the transaction's timestamp
  kCancelBackend, kTerminateBackend,                   // pg_cancel_backend(pid), pg_terminate_backend(pid [, timeout])
  kFormatType,
  kGetUserById, kTableIsVisible, kGetExpr, kGetIndexdef, kGetConstraintdef, kGetViewdef, kNullText, kTrue, kFalse,
  kObjDescription,  // obj_description(oid [, catalog]): only the public schema has a comment
  kAclDefault,  // acldefault("char", owner oid): the object kind's default privileges
  kEncodingToChar, kQuoteIdent, kQuoteLiteral, kQuoteNullable, kCurrentSetting, kSetConfig, kPartitionAncestor,
  kSerialSequence,  // pg_get_serial_sequence(text, text) of names known at run time
  // Sizes in bytes of what Paceline keeps in memory (evaluate_relation_size.cc):
  // pg_relation_size / pg_table_size, pg_total_relation_size,
  // pg_indexes_size, pg_database_size, pg_tablespace_size; pg_size_pretty;
  // pg_tablespace_location.
  kRelationSize, kTotalRelationSize, kIndexesSize, kDatabaseSize, kTablespaceSize, kSizePretty, kTablespaceLocation,
  kDatabaseEncoding,  // getdatabaseencoding(): UTF8
  // A built-in function's texts (pg_proc's rows, builtin_functions.h): pg_get_function_result,
  // pg_get_function_arguments, pg_get_function_identity_arguments; pg_function_is_visible.
  kFunctionResult, kFunctionArguments, kFunctionIdentityArguments, kFunctionIsVisible,
  kFunctionDef,      // pg_get_functiondef(oid): CREATE OR REPLACE FUNCTION ..; 42809 for an aggregate
  kFunctionSqlBody,  // pg_get_function_sqlbody(oid): a LANGUAGE sql function's body
  kRegprocIn, kRegprocedureIn,  // text → oid: a built-in function's name, or name(types)
  kRegoperIn, kRegoperatorIn,   // text → oid: pg_operator lists no operator, so none is found
  kRegoperOut,                  // oid → text: its digits (pg_operator lists none)
  kRegclassIn,      // text → oid: a relation's name (or digits) as regclass input reads it
  kRegclassOut,     // oid → text: the relation's name, as regclass output prints it
  kRegtypeIn, kRegtypeOut, kRegnamespaceIn, kRegnamespaceOut,
  kRegprocedureOut,  // oid → text: a built-in function's name and argument types, "lower(text)"
  kRegprocOut,  // oid → text: a function's name (a built-in one's, or an access method handler's)
  // Regular expressions (evaluate_regex.cc): text ~ pattern, ~*, !~, !~*
  // (negated), on RE2.
  kRegexMatch, kRegexMatchCi,
  // Strings (bind_string_function.cc, evaluate_string_function.cc), kConcat
  // to kRegexpReplace in one run (regexp_replace in evaluate_regex.cc).
  kConcat, kConcatWs, kReplace, kStrpos, kLpad, kRpad, kRepeat, kReverse, kSplitPart, kLeft, kRight, kInitcap, kMd5,
  kChr, kAscii, kStartsWith, kTranslate, kFormat, kEncode, kDecode, kRegexpReplace,
};

// kVersion .. kRegprocOut.
bool IsCatalogFunction(ScalarFunction function);

// The comparison that reads `a op b` as `b op' a` (< and >, <= and >=
// swap; the others stay).
BinaryOp Commuted(BinaryOp op);

// The advisory lock functions, kAdvisoryLock .. kAdvisoryUnlockAll.
bool IsAdvisoryLockFunction(ScalarFunction function);

// Volatile functions: a new value (or effect) at every call (random,
// clock_timestamp, gen_random_uuid, pg_sleep, the sequence and advisory
// lock functions).
// Never folded into a constant, never evaluated once as an index key.
bool IsVolatile(ScalarFunction function);
// Immutable functions: the same value for the same arguments, always (not
// volatile, and not now() or current_date, which are stable within a
// transaction only). Only these may be stored in an index predicate.
bool IsImmutable(ScalarFunction function);

// A set-returning function in FROM (DerivedPlan::function): what its rows are.
enum class TableFunctionKind {
  kNone,
  kGenerateSeries,  // (start, stop[, step]): start, start + step, .. up to stop
  kUnnest,          // (array): its elements
  kExpandArray,     // information_schema._pg_expandarray(array): (x element, n its 1-based position)
  kGenerateSubscripts,  // (array, dim[, reverse]): the subscripts of dimension dim
  kWorkingTable,        // WITH RECURSIVE: the rows the recursive term reads (the last step's new rows)
  kSequenceRelation,    // a sequence named in FROM: its one row (last_value, log_cnt, is_called)
  kOptionsToTable,      // pg_options_to_table(text[]): each "name=value" as (option_name, option_value)
  // json[b]_array_elements[_text], json[b]_each[_text], json[b]_object_keys
  // (one json or jsonb argument; its type tells the twins apart).
  kJsonArrayElements, kJsonArrayElementsText, kJsonEach, kJsonEachText, kJsonObjectKeys,
  kSystemRelation,        // a system catalog table (system_catalog/system_relation.h): no arguments
  kPartitionAncestors,    // pg_partition_ancestors(regclass): the relation itself (no partitions here)
};

struct BoundExpr;
using BoundExprPtr = std::unique_ptr<BoundExpr>;
struct SelectPlan;

// A subquery expression's query, what is asked of its rows, and the sources
// of the query containing it that it reads (empty: it runs once per
// statement unless it reads queries further out; plan->correlated says).
struct BoundSubquery {
  std::shared_ptr<const SelectPlan> plan;
  SubqueryKind kind = SubqueryKind::kScalar;
  std::vector<int> outer_sources;
  std::vector<std::pair<int, int>> outer_columns;  // the (source, column)s of those it reads
};

struct BoundExpr {
  BoundKind kind = BoundKind::kConstant;
  Type type;
  int location = -1;
  // (Fields are ordered to leave no padding: Value is 16-byte aligned, and
  // a plan holds many of these.)
  int index = 0;             // kParameter, kColumn, kSlot, kOuterColumn, kFieldSelect
  int source = 0;            // kColumn, kOuterColumn

  Value constant;            // kConstant
  BinaryOp op = BinaryOp::kEq;
  BoolTest test = BoolTest::kTrue;
  bool negated = false;
  bool explicit_cast = false;  // kCast: CAST/:: (truncates strings) vs assignment
  ScalarFunction function = ScalarFunction::kNow;
  // kCase: [operand] (condition, result)* [else]
  bool has_operand = false;
  bool has_else = false;
  int depth = 0;             // kOuterColumn: queries out (1: the one containing this subquery)
  std::vector<BoundExprPtr> children;

  // kSubquery: shared by clones; immutable after binding.
  std::shared_ptr<const BoundSubquery> subquery;

  static BoundExprPtr Constant(Value v, Type type);
  static BoundExprPtr Column(int source, int column, Type type);
  static BoundExprPtr Slot(int slot, Type type);

  BoundExprPtr Clone() const;
  // Structural equality (used to match SELECT expressions to GROUP BY ones).
  bool Equals(const BoundExpr& other) const;
  // Whether this tree calls a volatile function (IsVolatile).
  bool ContainsVolatile() const;
  // True when the expression reads no column of a source ≥ `source_limit`
  // and no slot (it can be evaluated once sources [0, limit) are bound). A
  // column of an enclosing query counts as bound; a subquery reads the
  // sources in its outer_sources.
  bool OnlyUses(int source_limit) const;
  // True when it reads no column at all (parameters and constants only).
  bool IsColumnFree() const { return OnlyUses(0); }
};

}  // namespace paceline::sql
