// Transformer: PostgreSQL's raw parse tree (libpg_query's protobuf form) →
// Paceline's AST (ast.h). Internal to the parser: only parser.cc and the
// transform_*.cc files include it, so libpg_query's headers stay confined to
// src/sql's parser files.
//
// One Transform* method per node kind, in one file per statement family:
//   transformer.cc           helpers, errors, the statement dispatch table
//   transform_select.cc      SELECT, VALUES, FROM items, ORDER BY, locking
//   transform_modify.cc      INSERT, UPDATE, DELETE
//   transform_ddl.cc         CREATE/DROP/ALTER/TRUNCATE, constraints, types
//   transform_sequence.cc    CREATE/ALTER SEQUENCE and their options
//   transform_utility.cc     transactions, SET, COPY
//   transform_expression.cc  expressions
// A statement kind the dispatch does not know becomes
// StatementKind::kUnsupported; an unsupported construct inside a known
// statement is a 0A000 Status naming it, with its position.
//
// Thread-safety: a Transformer walks one parse result on one thread.
#pragma once

#include <pg_query.h>
#include <pg_query/pg_query.pb-c.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "sql/ast.h"

namespace paceline::sql::transform {

using Node = PgQuery__Node;

// ---------------------------------------------------------------- helpers
// (defined in transformer.cc)

std::string Str(const char* s);
std::string Lower(std::string s);
std::string Upper(std::string s);
bool Is(const Node* node, PgQuery__Node__NodeCase node_case);
const char* StringOf(const Node* node);
std::string LastName(Node* const* names, size_t n);
std::string SnakeToWords(std::string_view name);
std::string CamelToWords(std::string_view name);
std::string NodeFieldName(const Node* node);
std::string EnumName(const ProtobufCEnumDescriptor& descriptor, int value);
std::string ObjectTypeName(PgQuery__ObjectType type);
std::string_view Trim(std::string_view s);
size_t FindTopLevel(std::string_view text, std::string_view token);
std::string StatementName(const Node& node);
std::string ExpressionName(const Node& node);
int ExpressionLocation(const Node& node);
std::optional<BinaryOp> BinaryOpFromName(std::string_view name);
ExprPtr MakeExpr(ExprKind kind, int location);
ExprPtr MakeBinary(BinaryOp op, ExprPtr left, ExprPtr right, int location);
bool ParseInt64(std::string_view text, int64_t* value);
std::string DeparseExpression(const Node& expression);

// ---------------------------------------------------------------- transformer

// Walks one parse result. Holds the input text only to turn byte offsets into
// the 1-based character positions of error Statuses.
class Transformer {
 public:
  explicit Transformer(std::string_view text) : text_(text) {}

  Status TransformRawStmt(const PgQuery__RawStmt& raw, std::unique_ptr<Statement>* out);

 private:
  // Errors.
  int CharPosition(int byte_offset) const;
  Status Unsupported(std::string what, int location) const;
  Status UnsupportedExpression(const Node& node) const;
  // 42601 with the position of `location`.
  Status SyntaxError(std::string message, int location) const;

  // Statements.
  Status TransformStatement(const Node& node, Statement* stmt);
  Status TransformSelect(const PgQuery__SelectStmt& s, std::unique_ptr<SelectStmt>* out);
  // ORDER BY, LIMIT/OFFSET and FOR UPDATE of a SELECT or set operation.
  Status TransformOrderLimitLocking(const PgQuery__SelectStmt& s, SelectStmt* select);
  Status TransformValues(const PgQuery__SelectStmt& s, SelectStmt* out);
  Status TransformInsert(const PgQuery__InsertStmt& s, std::unique_ptr<InsertStmt>* out);
  Status TransformOnConflict(const PgQuery__OnConflictClause& c, OnConflictClause* out);
  // UPDATE's SET list, and ON CONFLICT DO UPDATE's.
  Status TransformSetList(Node* const* items, size_t count, std::vector<SetClause>* out);
  Status TransformUpdate(const PgQuery__UpdateStmt& s, std::unique_ptr<UpdateStmt>* out);
  Status TransformDelete(const PgQuery__DeleteStmt& s, std::unique_ptr<DeleteStmt>* out);
  Status TransformCreateTable(const PgQuery__CreateStmt& s, std::unique_ptr<CreateTableStmt>* out);
  Status TransformCreateDomain(const PgQuery__CreateDomainStmt& s, std::unique_ptr<CreateDomainStmt>* out);
  Status TransformCreateView(const PgQuery__ViewStmt& s, std::unique_ptr<CreateViewStmt>* out);
  Status TransformCreateIndex(const PgQuery__IndexStmt& s, std::unique_ptr<CreateIndexStmt>* out);
  Status TransformDrop(const PgQuery__DropStmt& s, std::unique_ptr<DropStmt>* out);
  Status TransformTruncate(const PgQuery__TruncateStmt& s, std::unique_ptr<TruncateStmt>* out);
  Status TransformAlterTable(const PgQuery__AlterTableStmt& s, std::unique_ptr<AlterTableStmt>* out);
  // ALTER TABLE t RENAME TO / RENAME [COLUMN] / RENAME CONSTRAINT, as a
  // one-command ALTER TABLE.
  Status TransformRename(const PgQuery__RenameStmt& s, std::unique_ptr<AlterTableStmt>* out);
  Status TransformAlterTableCmd(const PgQuery__AlterTableCmd& c, AlterTableCmd* out);
  Status TransformCreateSequence(const PgQuery__CreateSeqStmt& s, std::unique_ptr<CreateSequenceStmt>* out);
  Status TransformAlterSequence(const PgQuery__AlterSeqStmt& s, std::unique_ptr<AlterSequenceStmt>* out);
  Status TransformSequenceOptions(Node* const* items, size_t n, std::vector<SequenceOption>* out);
  Status TransformTransaction(const PgQuery__TransactionStmt& s, std::unique_ptr<TransactionStmt>* out);
  // A COPY or EXPLAIN option's value as text (a word, string or number):
  // false, with "" in *value, when it has none.
  bool OptionValue(const PgQuery__DefElem& option, std::string* value);
  // A Boolean option, as PostgreSQL's defGetBoolean: on/off, true/false,
  // yes/no, 1/0, or none (on); anything else is 42601 naming `name`.
  Status OptionBoolean(const PgQuery__DefElem& option, const std::string& name, bool* out);
  // EXPLAIN: its options, and the statement explained into stmt->explain.
  Status TransformExplain(const PgQuery__ExplainStmt& s, Statement* stmt);
  Status TransformVariableSet(const PgQuery__VariableSetStmt& s, std::unique_ptr<SetStmt>* out);
  Status TransformSetValue(const Node* node, std::string* out);
  Status TransformCopy(const PgQuery__CopyStmt& s, std::unique_ptr<CopyStmt>* out);

  // Parts of statements.
  Status TransformTargetList(Node* const* items, size_t n, std::vector<SelectItem>* out);
  // FROM items (of SELECT, UPDATE .. FROM, DELETE .. USING).
  Status TransformFromList(Node* const* items, size_t n, std::vector<std::unique_ptr<FromItem>>* out);
  Status TransformFromItem(const Node& node, std::unique_ptr<FromItem>* out);
  Status TransformRangeVar(const PgQuery__RangeVar& rv, TableRef* out);
  Status TransformRangeSubselect(const PgQuery__RangeSubselect& r, std::unique_ptr<FromItem>* out);
  Status TransformWith(const PgQuery__WithClause& w, std::vector<CommonTableExpr>* out);
  // A select list's set-returning calls (unnest(..) AS x, ..) become a
  // LATERAL ROWS FROM item at the end of FROM whose columns the list reads.
  Status MoveSetReturningTargets(SelectStmt* select);
  Status TransformRangeFunction(const PgQuery__RangeFunction& r, std::unique_ptr<FromItem>* out);
  Status TransformAlias(const PgQuery__Alias& a, std::string* name, std::vector<std::string>* columns);
  Status TransformJoinExpr(const PgQuery__JoinExpr& j, std::unique_ptr<FromItem>* out);
  Status TransformSortBy(const PgQuery__SortBy& s, OrderItem* out);
  Status TransformWindowDef(const PgQuery__WindowDef& w, std::shared_ptr<const WindowDefinition>* out);
  Status TransformLockingClause(const PgQuery__LockingClause& l, SelectStmt* out);
  Status TransformColumnDef(const PgQuery__ColumnDef& c, ColumnDef* out);
  // Sets *keep to false for a constraint attribute (DEFERRABLE, INITIALLY
  // DEFERRED, ..: a column's are applied by ApplyConstraintAttribute).
  Status TransformConstraint(const PgQuery__Constraint& c, ConstraintDef* out, bool* keep);
  // A column constraint's attribute (DEFERRABLE, NOT DEFERRABLE, INITIALLY
  // DEFERRED/IMMEDIATE) applied to the constraint before it, as PostgreSQL:
  // 42601 when that cannot be deferred or the attributes contradict.
  Status ApplyConstraintAttribute(const PgQuery__Constraint& c, std::vector<ConstraintDef>* constraints);
  Status TransformNameList(Node* const* items, size_t n, int location, std::vector<std::string>* out);
  Status TransformTypeName(const PgQuery__TypeName& t, TypeName* out);

  // Expressions.
  Status TransformExpr(const Node* node, ExprPtr* out);
  Status TransformExprList(Node* const* items, size_t n, std::vector<ExprPtr>* out);
  Status TransformAConst(const PgQuery__AConst& c, ExprPtr* out);
  Status TransformColumnRef(const PgQuery__ColumnRef& c, ExprPtr* out);
  Status TransformParamRef(const PgQuery__ParamRef& p, ExprPtr* out);
  Status TransformAExpr(const PgQuery__AExpr& a, ExprPtr* out);
  Status TransformOperator(const PgQuery__AExpr& a, const std::string& op, ExprPtr* out);
  Status TransformIn(const PgQuery__AExpr& a, const std::string& op, ExprPtr* out);
  Status TransformBetween(const PgQuery__AExpr& a, ExprPtr* out);
  Status TransformBoolExpr(const PgQuery__BoolExpr& b, ExprPtr* out);
  Status TransformNullTest(const PgQuery__NullTest& n, ExprPtr* out);
  Status TransformBooleanTest(const PgQuery__BooleanTest& b, ExprPtr* out);
  Status TransformFuncCall(const PgQuery__FuncCall& f, ExprPtr* out);
  Status TransformTypeCast(const PgQuery__TypeCast& t, ExprPtr* out);
  Status TransformSqlValueFunction(const PgQuery__SQLValueFunction& f, ExprPtr* out);
  Status TransformCaseExpr(const PgQuery__CaseExpr& c, ExprPtr* out);
  Status TransformCoalesceExpr(const PgQuery__CoalesceExpr& c, ExprPtr* out);
  Status TransformMinMaxExpr(const PgQuery__MinMaxExpr& m, ExprPtr* out);
  // Arrays: ARRAY[..], a[i], x op ANY/ALL (array), and the array operators
  // @>, <@, && as the functions PostgreSQL names them by.
  Status TransformArrayExpr(const PgQuery__AArrayExpr& a, ExprPtr* out);
  Status TransformIndirection(const PgQuery__AIndirection& a, ExprPtr* out);
  Status TransformArrayCompare(const PgQuery__AExpr& a, const std::string& op, ExprPtr* out);
  static const char* ArrayOperatorFunction(const std::string& op);
  Status TransformSubLink(const Node& node, ExprPtr* out);
  Status TransformNullIfExpr(const PgQuery__NullIfExpr& n, ExprPtr* out);
  Status MakeFunction(std::string name, Node* const* args, size_t n_args, int location, ExprPtr* out);

  std::string_view text_;
};

}  // namespace paceline::sql::transform
