// Binder: turns an AST statement into a typed, executable plan (plan.h).
//
// It resolves table and column names against the catalog, infers the type of
// every expression and of each $n parameter from its context (`col = $1`
// gives $1 col's type; `SET col = $1` likewise; `LIMIT $1` bigint; what stays
// undetermined becomes text), folds and casts literals at bind time (so a
// bad literal fails here with 22P02), binds aggregates and GROUP BY, and
// chooses each table's access path (AccessPathPlanner). Errors carry
// PostgreSQL's SQLSTATE and wording and, where known, the position.
//
// Thread-safety: a Binder binds one statement on one thread; it only reads the
// catalog (the caller keeps the catalog stable meanwhile).
#pragma once

#include <memory>
#include <optional>
#include <set>
#include <tuple>
#include <vector>

#include "common/status.h"
#include "storage/catalog/catalog.h"
#include "sql/ast.h"
#include "sql/plan.h"

namespace paceline::sql {

struct SystemRelation;

class Binder {
 public:
  explicit Binder(const catalog::Catalog* catalog);

  // Types the caller declares for $1..$n (wire-protocol Parse); an entry of
  // TypeId::kUnknown leaves that parameter to inference.
  void DeclareParameterTypes(std::vector<Type> types);
  // The text the AST's locations point into (Statement::source), so error
  // positions count characters, not bytes. Without it, bytes are reported.
  void SetSource(std::shared_ptr<const std::string> source) { source_ = std::move(source); }

  Status BindSelect(const SelectStmt& stmt, std::unique_ptr<SelectPlan>* out);
  Status BindInsert(const InsertStmt& stmt, std::unique_ptr<InsertPlan>* out);
  Status BindUpdate(const UpdateStmt& stmt, std::unique_ptr<UpdatePlan>* out);
  Status BindDelete(const DeleteStmt& stmt, std::unique_ptr<DeletePlan>* out);

  // A column DEFAULT (`def`, kDefault) for `column`: any expression without
  // column references, parameters or subqueries that PostgreSQL would take,
  // of a type assignable to the column's; folded to `out->constant` when it
  // is one. `out->sequences` receives the sequences it names.
  Status BindDefault(const ConstraintDef& def, const catalog::ColumnSchema& column, catalog::ColumnDefault* out);
  // A CHECK condition over `table`'s columns (source 0): 42804 when not
  // boolean, 0A000 for a subquery, 42803/42P20 for an aggregate or window
  // function, 42P02 for a parameter.
  Status BindCheckCondition(const Expr& condition, storage::Table* table, BoundExprPtr* out);
  // A partial index's condition over `table`'s columns (source 0, named
  // `alias`), as PostgreSQL binds CREATE INDEX .. WHERE (`stored`) and
  // ON CONFLICT (..) WHERE: 42804 when not boolean, 0A000 for a subquery,
  // 42803/42P20 for an aggregate or window function; and when `stored`,
  // 42P17 for a function that is not immutable (now(), random()).
  Status BindIndexPredicate(const Expr& condition, storage::Table* table, const std::string& alias, bool stored,
                            BoundExprPtr* out);

  // Resolves a type name, domains included; `domain` receives the domain
  // name when the type is one ("" otherwise).
  Status ResolveType(const TypeName& name, Type* type, std::string* domain) const;

  // Parameter types after binding ($1 first); undetermined ones are text.
  std::vector<Type> ParameterTypes() const;
  // The ids of the tables the bound statements name, ascending, each once
  // (the tables read through views included).
  std::vector<TableId> TablesUsed() const;
  // The names of the tables and views the bound statements name directly,
  // each once (what a view made of them depends on).
  std::vector<std::string> RelationsNamed() const;
  // The data-modifying WITH queries of the bound statement, in written
  // order: each runs once, before the statement.
  const std::vector<std::shared_ptr<const DerivedPlan>>& ModifyingCtes() const { return modifying_ctes_; }
  // The first sequence-changing function the statement calls ("nextval()",
  // "setval()"), or null.
  const char* SequenceWrite() const { return sequence_write_; }

  // The column's DEFAULT (NULL when it has none), bound for one statement.
  Status DefaultValue(const catalog::ColumnSchema& column, BoundExprPtr* out);
  // Every CHECK constraint of `table`, bound for one statement that writes it.
  Status BindChecks(storage::Table* table, std::vector<CheckPlan>* out);
  // How a statement writes a table, for BindForeignKeys.
  enum class WriteKind { kInsert, kUpdate, kDelete };
  // The foreign keys a statement that writes `table` enforces
  // (bind_foreign_keys.cc): for kInsert the table's own; for kUpdate those
  // whose key columns `set_columns` include, on either side; for kDelete
  // those that reference it. The tables they read and write, and those
  // their referential actions reach in turn, count as used (TablesUsed).
  void BindForeignKeys(const storage::Table& table, WriteKind kind, const std::vector<int>& set_columns,
                       ForeignKeyRules* out);

  // The name a scalar function is called by ("lower", "array_length",
  // "pg_get_indexdef"; the first of its names), "" for one that is an
  // operator's (->, ||, ~) or has none.
  static std::string_view FunctionName(ScalarFunction function);
  static std::string_view ArrayFunctionName(ScalarFunction function);    // bind_array.cc
  static std::string_view CatalogFunctionName(ScalarFunction function);  // bind_catalog_function.cc
  // count, sum, ..., array_agg: an aggregate's name.
  static bool IsAggregateName(const std::string& name);
  // Every name a built-in function is called by — scalar, aggregate,
  // window and set-returning — sorted, each once (pg_proc lists them).
  static std::vector<std::string_view> BuiltinFunctionNames();

 private:
  struct ScopeEntry;
  struct Context;

  // A SELECT (or set operation) in `ctx`, whose `outer` is set for a nested
  // query; parameters are not finalized (BindSelect and the DML binders do
  // that once for the whole statement).
  Status BindQuery(const SelectStmt& stmt, Context& ctx, std::unique_ptr<SelectPlan>* out);
  Status BindOrderBy(const SelectStmt& stmt, Context& ctx, SelectPlan* plan);
  Status BindLimitOffset(const SelectStmt& stmt, const Context& ctx, SelectPlan* plan);

  // Nested queries (bind_subquery.cc). BindNested binds `stmt` in `inner`
  // within `outer`; `keep_unknown` leaves untyped outputs untyped (set
  // operation arms, INSERT sources: their types come from outside).
  Status BindNested(const SelectStmt& stmt, Context& outer, bool keep_unknown, Context* inner,
                    std::unique_ptr<SelectPlan>* out);
  Status BindSubquery(const Expr& e, Context& ctx, BoundExprPtr* out);
  // A subquery in FROM or a WITH query, its columns renamed by `aliases`.
  // `cte_name`: the WITH query's name (for errors), empty for a FROM item.
  Status BindDerived(const SelectStmt& stmt, Context& ctx, const std::vector<std::string>& aliases,
                     std::shared_ptr<const DerivedPlan>* out, const std::string& cte_name = "");
  Status BindWith(const std::vector<CommonTableExpr>& with, Context& ctx);
  // A WITH RECURSIVE query that names itself: `non-recursive UNION [ALL]
  // recursive` (out stays null when it does not name itself).
  Status BindRecursiveCte(const CommonTableExpr& cte, Context& ctx, std::shared_ptr<const DerivedPlan>* out);
  // WITH name AS (INSERT/UPDATE/DELETE ..): the statement, bound seeing the
  // WITH queries of `ctx` before it; only in the top-level statement.
  Status BindModifyingCte(const CommonTableExpr& cte, const Context& ctx, std::shared_ptr<const DerivedPlan>* out);
  // A view named in FROM: its stored query, bound on its own (it sees no
  // name of the query naming it), renamed by its and then `aliases`.
  Status BindView(const catalog::ViewSchema& view, const std::vector<std::string>& aliases,
                  std::shared_ptr<const DerivedPlan>* out);
  // A set-returning function in FROM (bind_table_function.cc): generate_series,
  // unnest, the json functions that return rows. Each kind's binder takes
  // the Context its arguments bind in and fills the function's arguments
  // and columns; BindFunctionSource adds WITH ORDINALITY and the aliases.
  Status BindFunctionSource(const FromItem& item, Context& ctx, std::shared_ptr<const DerivedPlan>* out);
  // BindFunctionSource's end: WITH ORDINALITY, the column aliases, the layout.
  Status FinishFunctionSource(const FromItem& item, std::shared_ptr<DerivedPlan> derived,
                              std::shared_ptr<const DerivedPlan>* out);
  Status BindSubscriptsSource(const FromItem& item, Context& inner, DerivedPlan* derived);
  Status BindSeriesSource(const FromItem& item, Context& inner, DerivedPlan* derived);
  Status BindUnnestSource(const FromItem& item, Context& inner, DerivedPlan* derived);  // bind_array.cc
  // Whether `e` reads a system catalog's column that PostgreSQL types
  // `name` (subscripted from 0, as a name is). bind_array.cc.
  bool IsNameColumn(const BoundExpr& e, const Context& ctx) const;
  Status BindJsonSource(const FromItem& item, Context& inner, DerivedPlan* derived);
  // Whether `name` is one of those (in the select list they are 0A000).
  static bool IsTableFunctionName(const std::string& name);
  // The system relation a FROM item's table names (bind_system_relation.cc),
  // or null when it names none: pg_catalog's for an unqualified name, as
  // PostgreSQL's search path; a schema Paceline has not, or a pg_catalog or
  // information_schema name that is none of them, is 42P01.
  Status FindSystemRelationFor(const TableRef& ref, const SystemRelation** out) const;
  // A system relation in FROM: a table's rows computed when scanned, or a
  // view's query bound as BindView binds a user's view.
  Status BindSystemRelation(const SystemRelation& relation, const std::vector<std::string>& aliases,
                            std::shared_ptr<const DerivedPlan>* out);
  // The WITH query `name` visible in ctx (nearest first), or null.
  std::shared_ptr<const DerivedPlan> FindCte(const Context& ctx, const std::string& name) const;
  Status BindSetOperation(const SelectStmt& stmt, Context& ctx, std::shared_ptr<DerivedPlan>* out);
  Status BindSetArm(const SelectStmt& stmt, Context& ctx, std::shared_ptr<DerivedPlan>* out);
  // Converts `arm`'s columns to `types` (a set operation's arm; a nested
  // set operation through a projection).
  Status ConvertArm(const std::vector<ResultColumn>& types, std::shared_ptr<DerivedPlan>* arm);
  Status BindSetOperationQuery(const SelectStmt& stmt, Context& ctx, std::unique_ptr<SelectPlan>* out);
  Status BindValuesQuery(const SelectStmt& stmt, Context& ctx, std::unique_ptr<SelectPlan>* out);
  // A query over the rows of `derived`: all its columns, with the
  // statement's ORDER BY, LIMIT and OFFSET.
  Status BindDerivedQuery(const SelectStmt& stmt, std::shared_ptr<const DerivedPlan> derived, Context& ctx,
                          std::unique_ptr<SelectPlan>* out);

  Status BindExpr(const Expr& e, Context& ctx, BoundExprPtr* out);
  Status BindColumnRef(const Expr& e, Context& ctx, BoundExprPtr* out);
  // 42P01 for `qualifier`.column when no FROM item is named `qualifier`.
  Status MissingFromEntry(const Context& ctx, const std::string& qualifier, int location) const;
  Status BindBinary(const Expr& e, Context& ctx, BoundExprPtr* out);
  Status BindFunction(const Expr& e, Context& ctx, BoundExprPtr* out);
  Status BindAggregate(const Expr& e, Context& ctx, BoundExprPtr* out);
  // An aggregate call's kind, arguments and type; `over` for an aggregate
  // used as a window function (its arguments may then hold aggregates).
  Status BindAggregateSpec(const Expr& e, Context& ctx, bool over, AggregateSpec* spec);
  static bool IsScalarFunctionName(const std::string& name);

  // Window functions (bind_window.cc): `f(..) OVER ..` registers a
  // WindowSpec in ctx.window_plan and becomes a placeholder slot; after the
  // query is bound, FinishWindows gives the window stage its inputs and the
  // placeholders their slots.
  Status BindWindowFunction(const Expr& e, Context& ctx, BoundExprPtr* out);
  Status BindWindowDefinition(const WindowDefinition& def, Context& ctx, WindowSpec* spec);
  Status FinishWindows(SelectPlan* plan);
  // The row locks of `stmt`'s locking clauses, on the sources they name.
  Status BindLocking(const SelectStmt& stmt, SelectPlan* plan);
  Status BindCase(const Expr& e, Context& ctx, BoundExprPtr* out);
  // Arrays (bind_array.cc). `cast_to`: the array type ARRAY[..] is cast to
  // (ARRAY[]::int[]), or null.
  Status BindArrayConstructor(const Expr& e, Context& ctx, const Type* cast_to, BoundExprPtr* out);
  Status BindSubscript(const Expr& e, Context& ctx, BoundExprPtr* out);
  Status BindArrayCompare(const Expr& e, Context& ctx, BoundExprPtr* out);
  static bool IsArrayFunction(const std::string& name);
  Status BindArrayFunction(const Expr& e, Context& ctx, BoundExprPtr* out);
  // concat, replace, lpad, split_part, left, md5, regexp_replace & co.
  // (bind_string_function.cc).
  static bool IsStringFunction(const std::string& name);
  // Binds a built-in function's arguments by their kinds ('o' oid, 'r'
  // regclass, 'i' int4, 't' text, 'b' bool, 'y' bytea, '*' any; past the end of `kinds` the last
  // repeats), coercing untyped literals and integers as PostgreSQL
  // resolves them; 42883 "function f(types) does not exist" when they do
  // not fit or their number is outside [min_args, max_args]
  // (bind_catalog_function.cc).
  Status BindArguments(const Expr& e, Context& ctx, std::string_view kinds, int min_args, int max_args,
                       std::vector<BoundExprPtr>* args);
  Status BindStringFunction(const Expr& e, Context& ctx, BoundExprPtr* out);
  // `left || right` where one side is an array.
  Status BindArrayConcat(BoundExprPtr left, BoundExprPtr right, int location, BoundExprPtr* out);
  Status BindCompare(BinaryOp op, BoundExprPtr left, BoundExprPtr right, int location, BoundExprPtr* out);
  // Records (bind_record.cc): ROW(..), (x).field, and ROW(..) op ROW(..)
  // compared field by field.
  Status BindRow(const Expr& e, Context& ctx, BoundExprPtr* out);
  Status BindFieldSelect(const Expr& e, Context& ctx, BoundExprPtr* out);
  // ROW(..) [NOT] IN (ROW(..), ..): row comparisons, so NULL fields give
  // NULL as PostgreSQL's.
  Status BindRowIn(const Expr& e, Context& ctx, BoundExprPtr* out);
  // `a op b` for the fields of two row constructors.
  Status BindRowCompare(const std::vector<ExprPtr>& a, const std::vector<ExprPtr>& b, BinaryOp op, int location,
                        Context& ctx, BoundExprPtr* out);
  // json/jsonb operators (-> ->> #> #>> @> <@ ?, jsonb || jsonb) and the
  // arguments and result type of a json function node (bind_json.cc).
  Status BindJsonOperator(BinaryOp op, BoundExprPtr left, BoundExprPtr right, int location, BoundExprPtr* out);
  Status BindJsonFunction(const std::string& name, std::vector<BoundExprPtr>& args, BoundExpr* node, int location);
  // Interval arithmetic (bind_interval.cc): whether `left op right` is
  // interval or timestamp-difference arithmetic, and binding it; the
  // argument and result type of justify_* and pg_sleep[_for].
  static bool IsIntervalArithmetic(BinaryOp op, const BoundExpr& left, const BoundExpr& right);
  Status BindIntervalArithmetic(BinaryOp op, BoundExprPtr left, BoundExprPtr right, int location, BoundExprPtr* out);
  Status BindIntervalFunction(const std::string& name, std::vector<BoundExprPtr>& args, BoundExpr* node, int location);
  // pg_advisory_lock & co. (bind_advisory_lock.cc).
  Status BindAdvisoryLockFunction(const std::string& name, std::vector<BoundExprPtr>& args, BoundExpr* node,
                                  int location);
  // nextval/currval/setval/lastval (`function`, taking min..max
  // arguments; bind_sequence.cc): a constant name (text, or
  // text::regclass) is resolved now (42P01 / 42809) and kept as the
  // catalog's name with index 0; any other name argument is text, resolved
  // at run time (index -1).
  // pg_get_serial_sequence('table', 'column'): the name ('public.t_id_seq')
  // of the sequence the column owns (serial, identity, OWNED BY), NULL when
  // none; resolved while binding (constant arguments only, else 0A000).
  Status BindSerialSequence(const Expr& e, Context& ctx, BoundExprPtr* out);
  // The system catalogs' and the session's functions, and the regular
  // expression operators (bind_catalog_function.cc).
  static bool IsCatalogFunctionName(const std::string& name);
  Status BindCatalogFunction(const Expr& e, Context& ctx, BoundExprPtr* out);
  // `x::regclass` and the other reg* types (IsRegTypeName).
  static bool IsRegTypeName(const std::string& name);
  Status BindRegCast(const Expr& e, Context& ctx, BoundExprPtr* out);
  Status BindSequenceFunction(const Expr& e, Context& ctx, ScalarFunction function, size_t min_args, size_t max_args,
                              BoundExprPtr* out);
  // Binds a boolean condition of `clause`; a non-boolean one is 42804
  // "argument of <clause> must be type boolean" (of AND when `and_operand`).
  // `argument_of` names the clause in 42804's "argument of X must be type
  // boolean" when it differs from `clause` (CHECK: "check constraints").
  Status BindPredicate(const Expr& e, Context& ctx, const char* clause, BoundExprPtr* out, bool and_operand = false,
                       const char* argument_of = nullptr);

  // Converts `e` to `target`: a parameter of unknown type adopts it, a
  // constant is cast now, anything else gets a cast node. `assignment`
  // selects PostgreSQL's assignment rules and wording (column "x" is of
  // type ...); `column` names the target for that message.
  Status Coerce(BoundExprPtr* e, const Type& target, bool explicit_cast, int location);
  Status CoerceForAssignment(BoundExprPtr* e, const catalog::ColumnSchema& column, int location);
  // Resolves an unknown-typed side against the other side's type.
  Status UnifyUnknown(BoundExprPtr* a, BoundExprPtr* b, int location);
  // The type that values of `exprs` are converted to in `context` ("CASE",
  // "COALESCE", ...): 42804 "<context> types x and y cannot be matched".
  Status CommonType(const std::vector<const BoundExpr*>& exprs, const char* context, int location, Type* out);

  // One conjunct of a WHERE or ON condition ("WHERE" / "JOIN/ON"); when it
  // was an operand of AND, a non-boolean conjunct is reported as AND's.
  struct Conjunct {
    const Expr* expr;
    const char* clause;
    bool and_operand;
  };
  // JOIN .. USING / NATURAL between the sources [first_left, first_right)
  // and those after: the equalities (kept alive in `owned`) into `on`.
  Status BindUsing(const FromItem& item, Context& ctx, size_t first_left, size_t first_right,
                   std::vector<ExprPtr>* owned, std::vector<Conjunct>* on);
  // Binds WHERE and ON conjuncts, each at the level of the last source it
  // reads (LEFT JOIN sources' WHERE conjuncts after the join), and chooses
  // every stored source's access path.
  Status PlaceConditions(Context& ctx, const std::vector<Conjunct>& where_conjuncts,
                         const std::vector<std::pair<int, Conjunct>>& on_conjuncts, SelectPlan* plan);
  // The target of UPDATE / DELETE: read through `target` alone, or, with
  // FROM / USING items, as source 0 of `join` (`target` then names it only).
  Status BindTarget(const TableRef& ref, const std::vector<std::unique_ptr<FromItem>>& from, const Expr* where,
                    Context& ctx, SourcePlan* target, std::unique_ptr<SelectPlan>* join);
  Status BindFrom(const std::vector<std::unique_ptr<FromItem>>& from, const Expr* where, Context& ctx,
                  SelectPlan* plan, std::vector<ExprPtr>* owned,
                  std::vector<Conjunct>* where_conjuncts, std::vector<std::pair<int, Conjunct>>* on_conjuncts);
  Status BindSelectList(const std::vector<SelectItem>& items, Context& ctx, std::vector<BoundExprPtr>* exprs,
                        std::vector<ResultColumn>* columns);
  // RETURNING over the target row, named `alias` (UPDATE t AS a .. RETURNING a.x).
  Status BindReturning(const std::vector<SelectItem>& items, storage::Table* table, const std::string& alias,
                       std::vector<BoundExprPtr>* exprs, std::vector<ResultColumn>* columns);
  // RETURNING of UPDATE/DELETE, in the statement's context: over the target
  // (source 0) and, with FROM/USING, the joined sources (`*` is all of them).
  // 42803 when a subquery in `e` (above the grouping of `plan`) reads an
  // ungrouped column of `plan`'s sources; sets plan->keeps_group_rows when
  // one reads any.
  Status CheckGroupedOuterColumns(const BoundExpr& e, SelectPlan* plan);
  Status BindModifyReturning(const std::vector<SelectItem>& items, Context& ctx, std::vector<BoundExprPtr>* exprs,
                             std::vector<ResultColumn>* columns);
  Status BindTargetScan(const TableRef& ref, const Expr* where, SourcePlan* target, Context& ctx);
  // PostgreSQL's identity rules for INSERT's target columns: 428C9 for a
  // value other than DEFAULT given to a GENERATED ALWAYS column (unless
  // OVERRIDING SYSTEM VALUE); OVERRIDING USER VALUE fills
  // plan->overridden_columns.
  Status CheckIdentityTargets(const InsertStmt& stmt, InsertPlan* plan) const;
  // UPDATE's SET list (and ON CONFLICT DO UPDATE's) over `schema`'s columns,
  // in `ctx`: 42703, 42601 for a column set twice, 428C9 for a GENERATED
  // ALWAYS column given a value; a null value (DEFAULT) is the column's default.
  Status BindSetList(const std::vector<SetClause>& set, const catalog::TableSchema& schema, Context& ctx,
                     std::vector<int>* columns, std::vector<BoundExprPtr>* values);
  // INSERT's ON CONFLICT clause into plan->on_conflict; `alias` names the
  // target row in DO UPDATE (the table's name when INSERT gives no alias).
  Status BindOnConflict(const OnConflictClause& clause, const std::string& alias, InsertPlan* plan);
  // The arbiter indexes of the conflict target: the constraint named (42704),
  // the unique indexes on exactly the columns named (42P10 when none), or
  // every unique index (DO NOTHING without a target; 42601 for DO UPDATE).
  Status BindArbiters(const OnConflictClause& clause, const std::string& alias, InsertPlan* plan);
  // What an expression stored in the catalog (a DEFAULT, a CHECK) may not
  // hold: a subquery (0A000 "cannot use subquery in <what>") or a parameter
  // (42P02).
  Status CheckStoredExpression(const BoundExpr& e, const char* what, int location) const;
  Status LookupTable(const TableRef& ref, std::shared_ptr<storage::Table>* out) const;
  // Replaces GROUP BY expressions by slots; a remaining column is 42803.
  Status ApplyGrouping(BoundExprPtr* e, const SelectPlan& plan, int location);

  BoundExprPtr MakeParameter(int index, int location);
  // Gives every parameter node in `e` its final type.
  void FinalizeParameters(BoundExpr* e) const;
  void FinalizeParameters(SelectPlan* plan) const;
  void FinalizeParameters(SourcePlan* plan) const;
  void FinalizeParameters(DerivedPlan* plan) const;
  void FinalizeParameters(WindowSpec* w) const;

  // 1-based character position of a byte location (0: none).
  int Pos(int location) const;
  // 42883 `operator does not exist: <left> <op> <right>` at `location`: the
  // one text of a missing binary operator.
  Status NoSuchOperator(const Type& left, std::string_view op, const Type& right, int location) const;

  const catalog::Catalog* catalog_;
  std::shared_ptr<const std::string> source_;
  std::vector<Type> param_types_;  // index 0 = $1; kUnknown until inferred
  bool insert_source_ = false;     // binding the SELECT of INSERT .. SELECT
  bool keep_unknown_outputs_ = false;  // untyped outputs stay untyped (see BindNested)
  mutable std::vector<TableId> tables_used_;  // as LookupTable found them
  // BindForeignKeys: adds the tables `kind` of a write to `table` reaches
  // through foreign keys and their actions to tables_used_; `seen` holds the
  // writes already followed.
  void UseForeignKeyTables(const storage::Table& table, WriteKind kind, const std::vector<int>& set_columns,
                           std::set<std::tuple<TableId, WriteKind, std::vector<int>>>* seen);
  mutable std::vector<std::string> relations_named_;  // tables, views and sequences the statement names
  const char* sequence_write_ = nullptr;
  int working_table_refs_ = 0;  // FROM items naming a WITH RECURSIVE query inside its recursive term
  int view_depth_ = 0;  // views being bound around this binder's statement
  // While a data-modifying WITH query binds: the context whose WITH queries
  // (those before it) it sees, as a statement of its own.
  const Context* cte_scope_ = nullptr;
  std::vector<std::shared_ptr<const DerivedPlan>> modifying_ctes_;
};

namespace bind {
// An operator as PostgreSQL names it ("+", "~~", "IS DISTINCT FROM"): its
// error messages and EXPLAIN's expressions (binder_helpers.cc).
std::string OperatorText(BinaryOp op);
}  // namespace bind

}  // namespace paceline::sql
