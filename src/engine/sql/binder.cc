// Binder: name resolution, type inference and plan construction for DML
// (see binder.h). Organised as: contexts and helpers; expressions; SELECT;
// INSERT / UPDATE / DELETE; parameter finalization.
#include "engine/sql/binder.h"

#include <algorithm>
#include <functional>
#include <tuple>

#include "common/datetime.h"
#include "common/stack_depth.h"
#include "common/utf8.h"
#include "engine/sql/access_path_planner.h"
#include "engine/sql/expression_evaluator.h"

namespace paceline::sql {

struct Binder::ScopeEntry {
  std::string name;  // alias, or table name
  storage::Table* table;
  int source;
  bool left_joined;
};

struct Binder::Context {
  std::vector<ScopeEntry> scope;
  SelectPlan* agg_plan = nullptr;  // aggregates allowed and registered here
  bool in_aggregate = false;
  const char* clause = "this context";
};

namespace {

bool IsUnknown(const BoundExpr& e) { return e.type.id == TypeId::kUnknown; }

// The type without its modifiers (varchar(3) → varchar, numeric(12,2) →
// numeric): what PostgreSQL resolves an untyped literal or parameter to when
// it meets a column in an operator, since operators take unmodified types.
// Only assignment to a column applies the column's length or scale.
Type OperandType(const Type& t) { return Type(t.id); }

std::string TypeText(const Type& t) { return t.id == TypeId::kUnknown ? "unknown" : Type(t.id).ToString(); }

// Ranks numeric types for promotion: int2 < int4 < int8 < numeric < float4 < float8.
int NumericRank(TypeId id) {
  switch (id) {
    case TypeId::kInt16: return 1;
    case TypeId::kInt32: return 2;
    case TypeId::kInt64: return 3;
    case TypeId::kNumeric: return 4;
    case TypeId::kFloat32: return 5;
    case TypeId::kFloat64: return 6;
    default: return 0;
  }
}

Type PromoteNumbers(const Type& a, const Type& b) {
  TypeId hi = NumericRank(a.id) >= NumericRank(b.id) ? a.id : b.id;
  // float4 with an integer or numeric gives float8, as in PostgreSQL.
  if (hi == TypeId::kFloat32 && (a.id != TypeId::kFloat32 || b.id != TypeId::kFloat32)) hi = TypeId::kFloat64;
  return Type(hi);
}

// Whether values of the two types can be compared with =, <, ...
bool Comparable(const Type& a, const Type& b) {
  if (a.IsNumber() && b.IsNumber()) return true;
  if (a.IsString() && b.IsString()) return true;
  if (a.IsTemporal() && b.IsTemporal()) return true;
  return a.id == b.id;
}

bool CanCast(TypeId from, TypeId to) {
  if (from == to || from == TypeId::kUnknown) return true;
  Type f(from), t(to);
  if (f.IsString() || t.IsString()) return true;
  if (f.IsNumber() && t.IsNumber()) return true;
  if (f.IsTemporal() && t.IsTemporal()) return true;
  if ((from == TypeId::kBool && to == TypeId::kInt32) || (from == TypeId::kInt32 && to == TypeId::kBool)) return true;
  return false;
}

std::string OperatorText(BinaryOp op) {
  switch (op) {
    case BinaryOp::kAdd: return "+";
    case BinaryOp::kSub: return "-";
    case BinaryOp::kMul: return "*";
    case BinaryOp::kDiv: return "/";
    case BinaryOp::kMod: return "%";
    case BinaryOp::kEq: return "=";
    case BinaryOp::kNe: return "<>";
    case BinaryOp::kLt: return "<";
    case BinaryOp::kLe: return "<=";
    case BinaryOp::kGt: return ">";
    case BinaryOp::kGe: return ">=";
    case BinaryOp::kConcat: return "||";
    case BinaryOp::kLike: return "~~";
    case BinaryOp::kNotLike: return "!~~";
    case BinaryOp::kILike: return "~~*";
    case BinaryOp::kNotILike: return "!~~*";
    case BinaryOp::kIsDistinctFrom: return "IS DISTINCT FROM";
    case BinaryOp::kIsNotDistinctFrom: return "IS NOT DISTINCT FROM";
    case BinaryOp::kAnd: return "AND";
    case BinaryOp::kOr: return "OR";
  }
  return "?";
}


// PostgreSQL's exprLocation: where a whole expression starts, i.e. the
// leftmost of an operator's own position and its first operand's.
int LeftmostLocation(const Expr& e) {
  int location = e.location;
  if (e.left) {
    int left = LeftmostLocation(*e.left);
    if (left >= 0 && (location < 0 || left < location)) location = left;
  }
  return location;
}

BoundExprPtr MakeNode(BoundKind kind, Type type, int location) {
  auto e = std::make_unique<BoundExpr>();
  e->kind = kind;
  e->type = type;
  e->location = location;
  return e;
}

// The output column name PostgreSQL gives an unaliased select item.
std::string DefaultName(const Expr& e) {
  switch (e.kind) {
    case ExprKind::kColumnRef: return e.column;
    case ExprKind::kFunction: return e.function_name;
    case ExprKind::kCast:
      if (e.left && (e.left->kind == ExprKind::kColumnRef || e.left->kind == ExprKind::kFunction)) return DefaultName(*e.left);
      return e.cast_type.name;
    case ExprKind::kCase: return "case";
    default: return "?column?";
  }
}

// Splits the AND tree of a `clause` condition into its conjuncts.
template <typename Conjunct>
void SplitConjuncts(const Expr* e, const char* clause, std::vector<Conjunct>* out, bool and_operand = false) {
  if (e == nullptr) return;
  if (e->kind == ExprKind::kBinary && e->binary_op == BinaryOp::kAnd) {
    SplitConjuncts(e->left.get(), clause, out, true);
    SplitConjuncts(e->right.get(), clause, out, true);
    return;
  }
  out->push_back({e, clause, and_operand});
}

// Highest source a bound expression reads (-1 when none).
int MaxSource(const BoundExpr& e) {
  int m = e.kind == BoundKind::kColumn ? e.source : -1;
  for (const auto& c : e.children) m = std::max(m, MaxSource(*c));
  return m;
}

bool UsesSource(const BoundExpr& e, const std::vector<bool>& which) {
  if (e.kind == BoundKind::kColumn && which[e.source]) return true;
  for (const auto& c : e.children) {
    if (UsesSource(*c, which)) return true;
  }
  return false;
}

// The number of nodes of `e`, counted up to `limit`.
size_t CountNodes(const BoundExpr& e, size_t limit) {
  size_t n = 1;
  for (const auto& c : e.children) {
    if (n >= limit) break;
    n += CountNodes(*c, limit - n);
  }
  return n;
}

// The largest left operand of BETWEEN (which is evaluated twice).
constexpr size_t kMaxBetweenOperandNodes = 1000;

bool ContainsColumn(const BoundExpr& e) {
  if (e.kind == BoundKind::kColumn) return true;
  for (const auto& c : e.children) {
    if (ContainsColumn(*c)) return true;
  }
  return false;
}

struct FunctionInfo {
  const char* name;
  ScalarFunction function;
  int min_args;
  int max_args;
};

constexpr FunctionInfo kFunctions[] = {
    {"now", ScalarFunction::kNow, 0, 0},
    {"current_timestamp", ScalarFunction::kNow, 0, 0},
    {"localtimestamp", ScalarFunction::kNow, 0, 0},
    {"transaction_timestamp", ScalarFunction::kNow, 0, 0},
    {"statement_timestamp", ScalarFunction::kNow, 0, 0},
    {"current_date", ScalarFunction::kCurrentDate, 0, 0},
    {"coalesce", ScalarFunction::kCoalesce, 1, 100},
    {"nullif", ScalarFunction::kNullIf, 2, 2},
    {"greatest", ScalarFunction::kGreatest, 1, 100},
    {"least", ScalarFunction::kLeast, 1, 100},
    {"abs", ScalarFunction::kAbs, 1, 1},
    {"round", ScalarFunction::kRound, 1, 2},
    {"trunc", ScalarFunction::kTrunc, 1, 2},
    {"floor", ScalarFunction::kFloor, 1, 1},
    {"ceil", ScalarFunction::kCeil, 1, 1},
    {"ceiling", ScalarFunction::kCeil, 1, 1},
    {"lower", ScalarFunction::kLower, 1, 1},
    {"upper", ScalarFunction::kUpper, 1, 1},
    {"length", ScalarFunction::kLength, 1, 1},
    {"char_length", ScalarFunction::kLength, 1, 1},
    {"character_length", ScalarFunction::kLength, 1, 1},
    {"octet_length", ScalarFunction::kOctetLength, 1, 1},
    {"substr", ScalarFunction::kSubstr, 2, 3},
    {"substring", ScalarFunction::kSubstr, 2, 3},
    {"btrim", ScalarFunction::kTrim, 1, 2},
    {"ltrim", ScalarFunction::kLtrim, 1, 2},
    {"rtrim", ScalarFunction::kRtrim, 1, 2},
    {"power", ScalarFunction::kPower, 2, 2},
    {"pow", ScalarFunction::kPower, 2, 2},
    {"sqrt", ScalarFunction::kSqrt, 1, 1},
    {"mod", ScalarFunction::kMod, 2, 2},
    {"random", ScalarFunction::kRandom, 0, 0},
};

// Whether a one-table SELECT's access path returns rows already in ORDER BY
// order: ascending keys (NULLS LAST, as the index stores them) that follow
// the index columns after the equality-bound prefix (prefix columns are
// constant and may appear anywhere), or a point lookup (at most one row).
bool OrderedByIndex(const SelectPlan& plan) {
  if (plan.order_by.empty() || plan.sources.size() != 1 || plan.aggregate || plan.distinct) return false;
  const AccessPath& path = plan.sources[0].access;
  if (path.kind == AccessKind::kIndexPoint && path.in_list.empty()) return true;
  if (path.kind != AccessKind::kIndexRange || !path.in_list.empty() || !path.index->ordered()) return false;
  const std::vector<int>& columns = path.index->schema().columns;
  const size_t bound = path.equal.size();
  size_t next = bound;
  for (const SortKey& key : plan.order_by) {
    const BoundExpr& e = *key.expr;
    if (e.kind != BoundKind::kColumn || e.source != 0 || key.descending || key.nulls_first) return false;
    if (std::find(columns.begin(), columns.begin() + bound, e.index) != columns.begin() + bound) continue;
    if (next >= columns.size() || columns[next] != e.index) return false;
    ++next;
  }
  return true;
}

}  // namespace

Binder::Binder(const catalog::Catalog* catalog) : catalog_(catalog) {}

int Binder::Pos(int location) const {
  if (location < 0) return 0;
  return source_ ? Utf8CharPosition(*source_, location) : location + 1;
}

void Binder::DeclareParameterTypes(std::vector<Type> types) { param_types_ = std::move(types); }

std::vector<Type> Binder::ParameterTypes() const {
  std::vector<Type> out = param_types_;
  for (Type& t : out) {
    if (t.id == TypeId::kUnknown) t = Type(TypeId::kText);
  }
  return out;
}

Status Binder::ResolveType(const TypeName& name, Type* type, std::string* domain) const {
  domain->clear();
  if (name.is_array) return NotSupported("array type " + name.name + "[]");
  if (const catalog::DomainSchema* d = catalog_->FindDomain(name.name)) {
    *type = d->type;
    *domain = d->name;
    return Status::OK();
  }
  Status s = ResolveBuiltinType(name.name, name.modifiers, type);
  return s.WithPosition(Pos(name.location));
}

Status Binder::LookupTable(const TableRef& ref, std::shared_ptr<storage::Table>* out) const {
  *out = catalog_->FindTable(ref.name);
  if (!*out) {
    return Status(sqlstate::kUndefinedTable, "relation \"" + ref.name + "\" does not exist", Pos(ref.location));
  }
  tables_used_.push_back((*out)->id());
  return Status::OK();
}

std::vector<uint32_t> Binder::TablesUsed() const {
  std::vector<uint32_t> tables = tables_used_;
  std::sort(tables.begin(), tables.end());
  tables.erase(std::unique(tables.begin(), tables.end()), tables.end());
  return tables;
}

BoundExprPtr Binder::MakeParameter(int index, int location) {
  if (static_cast<int>(param_types_.size()) <= index) param_types_.resize(index + 1);
  auto e = MakeNode(BoundKind::kParameter, param_types_[index], location);
  e->index = index;
  return e;
}

// ---------------------------------------------------------------- coercion

Status Binder::Coerce(BoundExprPtr* e, const Type& target, bool explicit_cast, int location) {
  BoundExpr& x = **e;
  if (target.id == TypeId::kUnknown) return Status::OK();
  if (x.kind == BoundKind::kParameter && x.type.id == TypeId::kUnknown) {
    Type& declared = param_types_[x.index];
    if (declared.id == TypeId::kUnknown) declared = target;
    x.type = declared;
    if (x.type == target) return Status::OK();
  }
  if (x.type == target) return Status::OK();
  if (x.kind == BoundKind::kConstant) {
    Value v;
    Status s = CastValue(x.constant, target, explicit_cast, &v);
    // A literal that does not convert is reported where it is written.
    if (!s.ok()) return s.WithPosition(Pos(x.location >= 0 ? x.location : location));
    x.constant = std::move(v);
    x.type = target;
    return Status::OK();
  }
  if (!CanCast(x.type.id, target.id)) {
    return Status("42846", "cannot cast type " + TypeText(x.type) + " to " + target.ToString(),
                  Pos(location >= 0 ? location : x.location));
  }
  auto cast = MakeNode(BoundKind::kCast, target, x.location);
  cast->explicit_cast = explicit_cast;
  cast->children.push_back(std::move(*e));
  *e = std::move(cast);
  return Status::OK();
}

Status Binder::CoerceForAssignment(BoundExprPtr* e, const catalog::ColumnSchema& column, int location) {
  const Type& from = (*e)->type;
  if (from.id != TypeId::kUnknown && !CanAssign(from.id, column.type.id)) {
    return Status(sqlstate::kDatatypeMismatch,
                  "column \"" + column.name + "\" is of type " + TypeText(column.type) +
                      " but expression is of type " + TypeText(from),
                  Pos(location >= 0 ? location : (*e)->location));
  }
  return Coerce(e, column.type, false, location);
}

Status Binder::UnifyUnknown(BoundExprPtr* a, BoundExprPtr* b, int location) {
  if (IsUnknown(**a) && !IsUnknown(**b)) return Coerce(a, OperandType((*b)->type), false, location);
  if (IsUnknown(**b) && !IsUnknown(**a)) return Coerce(b, OperandType((*a)->type), false, location);
  if (IsUnknown(**a) && IsUnknown(**b)) {
    PL_RETURN_IF_ERROR(Coerce(a, Type(TypeId::kText), false, location));
    return Coerce(b, Type(TypeId::kText), false, location);
  }
  return Status::OK();
}

Status Binder::CommonType(const std::vector<const BoundExpr*>& exprs, const char* context, int location, Type* out) {
  Type result;
  for (const BoundExpr* e : exprs) {
    const Type& t = e->type;
    if (t.id == TypeId::kUnknown) continue;
    if (result.id == TypeId::kUnknown) {
      result = t;
    } else if (result.IsNumber() && t.IsNumber()) {
      result = PromoteNumbers(result, t);
    } else if (result.IsString() && t.IsString()) {
      if (!(result == t)) result = Type(TypeId::kText);
    } else if (result.IsTemporal() && t.IsTemporal()) {
      if (result.id == TypeId::kDate) result = t;
    } else if (result.id != t.id) {
      return Status(sqlstate::kDatatypeMismatch,
                    std::string(context) + " types " + TypeText(result) + " and " + TypeText(t) + " cannot be matched",
                    Pos(e->location >= 0 ? e->location : location));
    }
  }
  if (result.id == TypeId::kUnknown) result = Type(TypeId::kText);
  // A mix of NUMERIC scales or CHAR lengths keeps no modifier.
  if (result.id == TypeId::kNumeric) result = Type(TypeId::kNumeric);
  *out = result;
  return Status::OK();
}

// ---------------------------------------------------------------- expressions

Status Binder::BindExpr(const Expr& e, Context& ctx, BoundExprPtr* out) {
  PL_RETURN_IF_ERROR(CheckStackDepth());
  switch (e.kind) {
    case ExprKind::kLiteral: {
      switch (e.literal_kind) {
        case LiteralKind::kInteger:
          if (e.int_value >= INT32_MIN && e.int_value <= INT32_MAX) {
            *out = BoundExpr::Constant(Value::Int32(static_cast<int32_t>(e.int_value)), Type(TypeId::kInt32));
          } else {
            *out = BoundExpr::Constant(Value::Int64(e.int_value), Type(TypeId::kInt64));
          }
          break;
        case LiteralKind::kNumeric: {
          Decimal d;
          Status s = Decimal::Parse(e.text, &d);
          if (!s.ok()) return s.WithPosition(Pos(e.location));
          *out = BoundExpr::Constant(Value::Numeric(d), Type(TypeId::kNumeric));
          break;
        }
        case LiteralKind::kString:
          *out = BoundExpr::Constant(Value::String(TypeId::kUnknown, e.text), Type(TypeId::kUnknown));
          break;
        case LiteralKind::kBool:
          *out = BoundExpr::Constant(Value::Bool(e.bool_value), Type(TypeId::kBool));
          break;
        case LiteralKind::kNull:
          *out = BoundExpr::Constant(Value::Null(), Type(TypeId::kUnknown));
          break;
      }
      (*out)->location = e.location;
      return Status::OK();
    }
    case ExprKind::kParameter:
      if (e.param_index < 1 || e.param_index > 65535) {
        return Status(sqlstate::kUndefinedParameter, "there is no parameter $" + std::to_string(e.param_index),
                      Pos(e.location));
      }
      *out = MakeParameter(e.param_index - 1, e.location);
      return Status::OK();
    case ExprKind::kColumnRef:
      return BindColumnRef(e, ctx, out);
    case ExprKind::kStar:
      return SyntaxError("\"*\" is not allowed here", Pos(e.location));
    case ExprKind::kUnary: {
      BoundExprPtr child;
      PL_RETURN_IF_ERROR(BindExpr(*e.left, ctx, &child));
      if (e.unary_op == UnaryOp::kNot) {
        if (IsUnknown(*child)) PL_RETURN_IF_ERROR(Coerce(&child, Type(TypeId::kBool), false, e.location));
        if (child->type.id != TypeId::kBool) {
          return Status(sqlstate::kDatatypeMismatch,
                        "argument of NOT must be type boolean, not type " + TypeText(child->type), Pos(e.location));
        }
        *out = MakeNode(BoundKind::kNot, Type(TypeId::kBool), e.location);
        (*out)->children.push_back(std::move(child));
        return Status::OK();
      }
      if (IsUnknown(*child)) PL_RETURN_IF_ERROR(Coerce(&child, Type(TypeId::kNumeric), false, e.location));
      if (!child->type.IsNumber()) {
        return Status(sqlstate::kUndefinedFunction,
                      "operator does not exist: " + std::string(e.unary_op == UnaryOp::kMinus ? "-" : "+") + " " +
                          TypeText(child->type),
                      Pos(e.location));
      }
      if (e.unary_op == UnaryOp::kPlus) {
        *out = std::move(child);
        return Status::OK();
      }
      // The one integer of each type whose negation leaves the type: as a
      // literal it widens, -(-2147483648) being PostgreSQL's bigint literal
      // 2147483648 and -(-9223372036854775808) a numeric one; otherwise (a
      // cast constant) it is left to fail when it runs, like int2um/int4um.
      const bool at_edge =
          child->kind == BoundKind::kConstant && !child->constant.is_null() && child->type.IsInteger() &&
          child->constant.int_value() == (child->type.id == TypeId::kInt16   ? INT16_MIN
                                          : child->type.id == TypeId::kInt32 ? INT32_MIN
                                                                             : INT64_MIN);
      if (at_edge && e.left->kind == ExprKind::kLiteral) {
        const int64_t v = child->constant.int_value();
        *out = v == INT64_MIN ? BoundExpr::Constant(Value::Numeric(Decimal::FromInt(v).Negate()), Type(TypeId::kNumeric))
                              : BoundExpr::Constant(Value::Int64(-v), Type(TypeId::kInt64));
        (*out)->location = e.location;
        return Status::OK();
      }
      if (child->kind == BoundKind::kConstant && !child->constant.is_null() && !at_edge) {
        // Fold -literal, widening at the edge (-(2147483648) is an int8 literal).
        const Value& v = child->constant;
        if (child->type.IsInteger()) {
          *out = BoundExpr::Constant(Value::Int64(-v.int_value()), child->type);
          if (child->type.id == TypeId::kInt32) (*out)->constant = Value::Int32(static_cast<int32_t>(-v.int_value()));
          if (child->type.id == TypeId::kInt16) (*out)->constant = Value::Int16(static_cast<int16_t>(-v.int_value()));
        } else if (child->type.IsFloat()) {
          *out = BoundExpr::Constant(child->type.id == TypeId::kFloat32 ? Value::Float32(static_cast<float>(-v.float_value()))
                                                                        : Value::Float64(-v.float_value()),
                                     child->type);
        } else {
          *out = BoundExpr::Constant(Value::Numeric(v.numeric_value().Negate()), child->type);
        }
        (*out)->location = e.location;
        return Status::OK();
      }
      *out = MakeNode(BoundKind::kNegate, child->type, e.location);
      (*out)->children.push_back(std::move(child));
      return Status::OK();
    }
    case ExprKind::kBinary:
      return BindBinary(e, ctx, out);
    case ExprKind::kFunction:
      return BindFunction(e, ctx, out);
    case ExprKind::kCast: {
      Type target;
      std::string domain;
      PL_RETURN_IF_ERROR(ResolveType(e.cast_type, &target, &domain));
      BoundExprPtr child;
      PL_RETURN_IF_ERROR(BindExpr(*e.left, ctx, &child));
      if (child->kind == BoundKind::kParameter && IsUnknown(*child)) {
        // $1::int declares the parameter's type.
        PL_RETURN_IF_ERROR(Coerce(&child, target, true, e.location));
        *out = std::move(child);
        return Status::OK();
      }
      if (child->kind != BoundKind::kConstant && !CanCast(child->type.id, target.id)) {
        return Status("42846", "cannot cast type " + TypeText(child->type) + " to " + target.ToString(), Pos(e.location));
      }
      if (child->kind == BoundKind::kConstant) {
        PL_RETURN_IF_ERROR(Coerce(&child, target, true, e.location));
        *out = std::move(child);
        return Status::OK();
      }
      if (child->type == target) {
        *out = std::move(child);
        return Status::OK();
      }
      *out = MakeNode(BoundKind::kCast, target, e.location);
      (*out)->explicit_cast = true;
      (*out)->children.push_back(std::move(child));
      return Status::OK();
    }
    case ExprKind::kIsNull: {
      BoundExprPtr child;
      PL_RETURN_IF_ERROR(BindExpr(*e.left, ctx, &child));
      // `$1 IS NULL` says nothing about $1's type: another use may decide it
      // (`$1 IS NULL OR k = $1`); otherwise it ends up text.
      if (IsUnknown(*child) && child->kind != BoundKind::kParameter) {
        PL_RETURN_IF_ERROR(Coerce(&child, Type(TypeId::kText), false, e.location));
      }
      *out = MakeNode(BoundKind::kIsNull, Type(TypeId::kBool), e.location);
      (*out)->negated = e.negated;
      (*out)->children.push_back(std::move(child));
      return Status::OK();
    }
    case ExprKind::kIsBool: {
      BoundExprPtr child;
      PL_RETURN_IF_ERROR(BindExpr(*e.left, ctx, &child));
      PL_RETURN_IF_ERROR(Coerce(&child, Type(TypeId::kBool), false, e.location));
      *out = MakeNode(BoundKind::kIsBool, Type(TypeId::kBool), e.location);
      (*out)->test = e.bool_test;
      (*out)->children.push_back(std::move(child));
      return Status::OK();
    }
    case ExprKind::kIn: {
      BoundExprPtr left;
      PL_RETURN_IF_ERROR(BindExpr(*e.left, ctx, &left));
      std::vector<BoundExprPtr> items;
      for (const auto& item : e.list) {
        BoundExprPtr b;
        PL_RETURN_IF_ERROR(BindExpr(*item, ctx, &b));
        items.push_back(std::move(b));
      }
      if (IsUnknown(*left)) {
        std::vector<const BoundExpr*> all;
        for (const auto& i : items) all.push_back(i.get());
        Type t;
        PL_RETURN_IF_ERROR(CommonType(all, "IN", e.location, &t));
        PL_RETURN_IF_ERROR(Coerce(&left, OperandType(t), false, e.location));
      }
      for (auto& item : items) {
        if (IsUnknown(*item)) PL_RETURN_IF_ERROR(Coerce(&item, OperandType(left->type), false, item->location));
        if (!Comparable(left->type, item->type)) {
          return Status(sqlstate::kUndefinedFunction,
                        "operator does not exist: " + TypeText(left->type) + " = " + TypeText(item->type),
                        Pos(e.location));
        }
      }
      *out = MakeNode(BoundKind::kIn, Type(TypeId::kBool), e.location);
      (*out)->negated = e.negated;
      (*out)->children.push_back(std::move(left));
      for (auto& item : items) (*out)->children.push_back(std::move(item));
      return Status::OK();
    }
    case ExprKind::kBetween: {
      // x BETWEEN a AND b  ≡  x >= a AND x <= b. x is bound once and copied;
      // since a BETWEEN inside x doubles with each level of nesting, a large
      // x is refused rather than copied.
      BoundExprPtr x1, x2, lo, hi, ge, le;
      PL_RETURN_IF_ERROR(BindExpr(*e.left, ctx, &x1));
      if (CountNodes(*x1, kMaxBetweenOperandNodes + 1) > kMaxBetweenOperandNodes) {
        return Status(sqlstate::kProgramLimitExceeded, "BETWEEN operand is too complex", Pos(e.location));
      }
      x2 = x1->Clone();
      PL_RETURN_IF_ERROR(BindExpr(*e.list[0], ctx, &lo));
      PL_RETURN_IF_ERROR(BindExpr(*e.list[1], ctx, &hi));
      PL_RETURN_IF_ERROR(BindCompare(BinaryOp::kGe, std::move(x1), std::move(lo), e.location, &ge));
      PL_RETURN_IF_ERROR(BindCompare(BinaryOp::kLe, std::move(x2), std::move(hi), e.location, &le));
      auto both = MakeNode(BoundKind::kAnd, Type(TypeId::kBool), e.location);
      both->children.push_back(std::move(ge));
      both->children.push_back(std::move(le));
      if (!e.negated) {
        *out = std::move(both);
      } else {
        *out = MakeNode(BoundKind::kNot, Type(TypeId::kBool), e.location);
        (*out)->children.push_back(std::move(both));
      }
      return Status::OK();
    }
    case ExprKind::kCase:
      return BindCase(e, ctx, out);
  }
  return InternalError("unknown expression kind");
}

Status Binder::MissingFromEntry(const Context& ctx, const std::string& qualifier, int location) const {
  for (const auto& entry : ctx.scope) {
    if (entry.table->name() == qualifier) {  // the table is there, under an alias
      return Status(sqlstate::kUndefinedTable,
                    "invalid reference to FROM-clause entry for table \"" + qualifier + "\"", Pos(location));
    }
  }
  return Status(sqlstate::kUndefinedTable, "missing FROM-clause entry for table \"" + qualifier + "\"",
                Pos(location));
}

Status Binder::BindColumnRef(const Expr& e, Context& ctx, BoundExprPtr* out) {
  const ScopeEntry* found = nullptr;
  int column = -1;
  if (!e.qualifier.empty()) {
    for (const auto& entry : ctx.scope) {
      if (entry.name == e.qualifier) {
        found = &entry;
        break;
      }
    }
    if (found == nullptr) return MissingFromEntry(ctx, e.qualifier, e.location);
    column = found->table->schema().FindColumn(e.column);
    if (column < 0) {
      return Status(sqlstate::kUndefinedColumn, "column " + e.qualifier + "." + e.column + " does not exist",
                    Pos(e.location));
    }
  } else {
    for (const auto& entry : ctx.scope) {
      int c = entry.table->schema().FindColumn(e.column);
      if (c < 0) continue;
      if (found != nullptr) {
        return Status(sqlstate::kAmbiguousColumn, "column reference \"" + e.column + "\" is ambiguous",
                      Pos(e.location));
      }
      found = &entry;
      column = c;
    }
    if (found == nullptr) {
      return Status(sqlstate::kUndefinedColumn, "column \"" + e.column + "\" does not exist", Pos(e.location));
    }
  }
  *out = BoundExpr::Column(found->source, column, found->table->schema().columns[column].type);
  (*out)->location = e.location;
  return Status::OK();
}

Status Binder::BindCompare(BinaryOp op, BoundExprPtr left, BoundExprPtr right, int location, BoundExprPtr* out) {
  PL_RETURN_IF_ERROR(UnifyUnknown(&left, &right, location));
  if (!Comparable(left->type, right->type)) {
    return Status(sqlstate::kUndefinedFunction,
                  "operator does not exist: " + TypeText(left->type) + " " + OperatorText(op) + " " +
                      TypeText(right->type),
                  Pos(location));
  }
  *out = MakeNode(BoundKind::kCompare, Type(TypeId::kBool), location);
  (*out)->op = op;
  (*out)->children.push_back(std::move(left));
  (*out)->children.push_back(std::move(right));
  return Status::OK();
}

Status Binder::BindBinary(const Expr& e, Context& ctx, BoundExprPtr* out) {
  BoundExprPtr left, right;
  const BinaryOp op = e.binary_op;
  if (op == BinaryOp::kAnd || op == BinaryOp::kOr) {
    // Each operand is bound and checked before the next, as PostgreSQL does
    // (the parser folds a long chain into a balanced tree).
    const char* name = op == BinaryOp::kAnd ? "AND" : "OR";
    for (auto [side, ast] : {std::pair{&left, e.left.get()}, std::pair{&right, e.right.get()}}) {
      PL_RETURN_IF_ERROR(BindExpr(*ast, ctx, side));
      if (IsUnknown(**side)) PL_RETURN_IF_ERROR(Coerce(side, Type(TypeId::kBool), false, e.location));
      if ((*side)->type.id != TypeId::kBool) {
        return Status(sqlstate::kDatatypeMismatch,
                      std::string("argument of ") + name + " must be type boolean, not type " +
                          TypeText((*side)->type),
                      Pos(LeftmostLocation(*ast)));
      }
    }
    BoundKind kind = op == BinaryOp::kAnd ? BoundKind::kAnd : BoundKind::kOr;
    *out = MakeNode(kind, Type(TypeId::kBool), e.location);
    for (BoundExprPtr* side : {&left, &right}) {
      if ((*side)->kind == kind) {
        for (auto& c : (*side)->children) (*out)->children.push_back(std::move(c));
      } else {
        (*out)->children.push_back(std::move(*side));
      }
    }
    return Status::OK();
  }
  PL_RETURN_IF_ERROR(BindExpr(*e.left, ctx, &left));
  PL_RETURN_IF_ERROR(BindExpr(*e.right, ctx, &right));
  switch (op) {
    case BinaryOp::kEq: case BinaryOp::kNe: case BinaryOp::kLt: case BinaryOp::kLe: case BinaryOp::kGt:
    case BinaryOp::kGe: case BinaryOp::kIsDistinctFrom: case BinaryOp::kIsNotDistinctFrom:
      return BindCompare(op, std::move(left), std::move(right), e.location, out);
    case BinaryOp::kConcat: {
      // bytea || bytea joins the bytes (an untyped literal beside a bytea is
      // bytea); any other mix is text concatenation, bytea shown in hex.
      const bool left_bytea = left->type.id == TypeId::kBytea, right_bytea = right->type.id == TypeId::kBytea;
      if ((left_bytea || right_bytea) && (left_bytea || IsUnknown(*left)) && (right_bytea || IsUnknown(*right))) {
        PL_RETURN_IF_ERROR(UnifyUnknown(&left, &right, e.location));
        *out = MakeNode(BoundKind::kConcat, Type(TypeId::kBytea), e.location);
        (*out)->children.push_back(std::move(left));
        (*out)->children.push_back(std::move(right));
        return Status::OK();
      }
      if (IsUnknown(*left)) PL_RETURN_IF_ERROR(Coerce(&left, Type(TypeId::kText), false, e.location));
      if (IsUnknown(*right)) PL_RETURN_IF_ERROR(Coerce(&right, Type(TypeId::kText), false, e.location));
      *out = MakeNode(BoundKind::kConcat, Type(TypeId::kText), e.location);
      (*out)->children.push_back(std::move(left));
      (*out)->children.push_back(std::move(right));
      return Status::OK();
    }
    case BinaryOp::kLike: case BinaryOp::kNotLike: case BinaryOp::kILike: case BinaryOp::kNotILike: {
      if ((!IsUnknown(*left) && !left->type.IsString()) || (!IsUnknown(*right) && !right->type.IsString())) {
        return Status(sqlstate::kUndefinedFunction,
                      "operator does not exist: " + TypeText(left->type) + " " + OperatorText(op) + " " +
                          TypeText(right->type),
                      Pos(e.location));
      }
      if (IsUnknown(*left)) PL_RETURN_IF_ERROR(Coerce(&left, Type(TypeId::kText), false, e.location));
      if (IsUnknown(*right)) PL_RETURN_IF_ERROR(Coerce(&right, Type(TypeId::kText), false, e.location));
      *out = MakeNode(BoundKind::kLike, Type(TypeId::kBool), e.location);
      (*out)->op = op;
      (*out)->children.push_back(std::move(left));
      (*out)->children.push_back(std::move(right));
      return Status::OK();
    }
    default:
      break;
  }
  // Arithmetic.
  if (IsUnknown(*left) && IsUnknown(*right)) {
    PL_RETURN_IF_ERROR(Coerce(&left, Type(TypeId::kNumeric), false, e.location));
    PL_RETURN_IF_ERROR(Coerce(&right, Type(TypeId::kNumeric), false, e.location));
  } else if (IsUnknown(*left)) {
    Type t = right->type.id == TypeId::kDate ? Type(TypeId::kInt32) : OperandType(right->type);
    if (right->type.id == TypeId::kDate && op == BinaryOp::kSub) t = Type(TypeId::kDate);
    PL_RETURN_IF_ERROR(Coerce(&left, t, false, e.location));
  } else if (IsUnknown(*right)) {
    Type t = left->type.id == TypeId::kDate ? Type(TypeId::kInt32) : OperandType(left->type);
    PL_RETURN_IF_ERROR(Coerce(&right, t, false, e.location));
  }
  const Type& a = left->type;
  const Type& b = right->type;
  Type result;
  if (a.IsNumber() && b.IsNumber()) {
    result = PromoteNumbers(a, b);
  } else if (a.id == TypeId::kDate && b.IsInteger() && (op == BinaryOp::kAdd || op == BinaryOp::kSub)) {
    result = Type(TypeId::kDate);
  } else if (a.IsInteger() && b.id == TypeId::kDate && op == BinaryOp::kAdd) {
    result = Type(TypeId::kDate);
  } else if (a.id == TypeId::kDate && b.id == TypeId::kDate && op == BinaryOp::kSub) {
    result = Type(TypeId::kInt32);
  } else {
    return Status(sqlstate::kUndefinedFunction,
                  "operator does not exist: " + TypeText(a) + " " + OperatorText(op) + " " + TypeText(b),
                  Pos(e.location));
  }
  auto node = MakeNode(BoundKind::kArithmetic, result, e.location);
  node->op = op;
  node->children.push_back(std::move(left));
  node->children.push_back(std::move(right));
  // Fold constant arithmetic so `abalance + -2415` style literals cost nothing.
  if (node->children[0]->kind == BoundKind::kConstant && node->children[1]->kind == BoundKind::kConstant) {
    Value v;
    EvalContext none;
    // Constant folding errors (1/0) are reported at execution, as PostgreSQL does.
    if (Evaluate(*node, none, &v).ok()) {
      *out = BoundExpr::Constant(std::move(v), result);
      (*out)->location = e.location;
      return Status::OK();
    }
  }
  *out = std::move(node);
  return Status::OK();
}

Status Binder::BindCase(const Expr& e, Context& ctx, BoundExprPtr* out) {
  auto node = MakeNode(BoundKind::kCase, Type(), e.location);
  BoundExprPtr operand;
  if (e.left) {
    PL_RETURN_IF_ERROR(BindExpr(*e.left, ctx, &operand));
    node->has_operand = true;
  }
  std::vector<BoundExprPtr> conditions, results;
  for (const auto& w : e.whens) {
    BoundExprPtr c, r;
    PL_RETURN_IF_ERROR(BindExpr(*w.condition, ctx, &c));
    PL_RETURN_IF_ERROR(BindExpr(*w.result, ctx, &r));
    if (operand) {
      PL_RETURN_IF_ERROR(UnifyUnknown(&operand, &c, e.location));
      if (!Comparable(operand->type, c->type)) {
        return Status(sqlstate::kUndefinedFunction,
                      "operator does not exist: " + TypeText(operand->type) + " = " + TypeText(c->type),
                      Pos(w.condition->location));
      }
    } else {
      if (IsUnknown(*c)) PL_RETURN_IF_ERROR(Coerce(&c, Type(TypeId::kBool), false, w.condition->location));
      if (c->type.id != TypeId::kBool) {
        return Status(sqlstate::kDatatypeMismatch,
                      "argument of CASE/WHEN must be type boolean, not type " + TypeText(c->type),
                      Pos(LeftmostLocation(*w.condition)));
      }
    }
    conditions.push_back(std::move(c));
    results.push_back(std::move(r));
  }
  BoundExprPtr else_result;
  if (e.else_result) PL_RETURN_IF_ERROR(BindExpr(*e.else_result, ctx, &else_result));
  // The ELSE result comes first, as PostgreSQL considers it (and names it
  // first when the types do not match).
  std::vector<const BoundExpr*> all;
  if (else_result) all.push_back(else_result.get());
  for (const auto& r : results) all.push_back(r.get());
  Type type;
  PL_RETURN_IF_ERROR(CommonType(all, "CASE", e.location, &type));
  for (auto& r : results) PL_RETURN_IF_ERROR(Coerce(&r, type, false, r->location));
  if (else_result) PL_RETURN_IF_ERROR(Coerce(&else_result, type, false, else_result->location));
  node->type = type;
  if (operand) node->children.push_back(std::move(operand));
  for (size_t i = 0; i < conditions.size(); ++i) {
    node->children.push_back(std::move(conditions[i]));
    node->children.push_back(std::move(results[i]));
  }
  if (else_result) {
    node->has_else = true;
    node->children.push_back(std::move(else_result));
  }
  *out = std::move(node);
  return Status::OK();
}

Status Binder::BindAggregate(const Expr& e, Context& ctx, BoundExprPtr* out) {
  if (ctx.agg_plan == nullptr) {
    return Status(sqlstate::kGroupingError, std::string("aggregate functions are not allowed in ") + ctx.clause,
                  Pos(e.location));
  }
  if (ctx.in_aggregate) {
    return Status(sqlstate::kGroupingError, "aggregate function calls cannot be nested", Pos(e.location));
  }
  AggregateSpec spec;
  spec.distinct = e.distinct;
  const std::string& name = e.function_name;
  if (e.star) {
    if (name != "count") return SyntaxError(name + "(*) is not allowed; only count(*)", Pos(e.location));
    spec.kind = AggregateKind::kCountStar;
    spec.type = Type(TypeId::kInt64);
  } else {
    if (e.list.size() != 1) {
      return Status(sqlstate::kUndefinedFunction,
                    "function " + name + " with " + std::to_string(e.list.size()) + " arguments does not exist",
                    Pos(e.location));
    }
    ctx.in_aggregate = true;
    Status s = BindExpr(*e.list[0], ctx, &spec.arg);
    ctx.in_aggregate = false;
    PL_RETURN_IF_ERROR(s);
    const Type& t = spec.arg->type;
    if (name == "count") {
      spec.kind = AggregateKind::kCount;
      spec.type = Type(TypeId::kInt64);
      if (IsUnknown(*spec.arg)) PL_RETURN_IF_ERROR(Coerce(&spec.arg, Type(TypeId::kText), false, e.location));
    } else if (name == "min" || name == "max") {
      spec.kind = name == "min" ? AggregateKind::kMin : AggregateKind::kMax;
      if (IsUnknown(*spec.arg)) PL_RETURN_IF_ERROR(Coerce(&spec.arg, Type(TypeId::kText), false, e.location));
      if (spec.arg->type.id == TypeId::kBool) {  // PostgreSQL has bool_and/bool_or instead
        return Status(sqlstate::kUndefinedFunction, "function " + name + "(boolean) does not exist", Pos(e.location));
      }
      spec.type = spec.arg->type;
    } else {
      spec.kind = name == "sum" ? AggregateKind::kSum : AggregateKind::kAvg;
      if (IsUnknown(*spec.arg)) PL_RETURN_IF_ERROR(Coerce(&spec.arg, Type(TypeId::kNumeric), false, e.location));
      if (!spec.arg->type.IsNumber()) {
        return Status(sqlstate::kUndefinedFunction,
                      "function " + name + "(" + TypeText(spec.arg->type) + ") does not exist", Pos(e.location));
      }
      if (spec.kind == AggregateKind::kSum) {
        if (t.id == TypeId::kInt16 || t.id == TypeId::kInt32) spec.type = Type(TypeId::kInt64);
        else if (t.id == TypeId::kInt64 || t.id == TypeId::kNumeric) spec.type = Type(TypeId::kNumeric);
        else spec.type = Type(spec.arg->type.id);
      } else {
        spec.type = spec.arg->type.IsFloat() ? Type(TypeId::kFloat64) : Type(TypeId::kNumeric);
      }
    }
  }
  int slot = static_cast<int>(ctx.agg_plan->group_by.size() + ctx.agg_plan->aggregates.size());
  // Reuse an identical aggregate (SELECT sum(x) ... HAVING sum(x) > 0).
  for (size_t i = 0; i < ctx.agg_plan->aggregates.size(); ++i) {
    const AggregateSpec& other = ctx.agg_plan->aggregates[i];
    if (other.kind == spec.kind && other.distinct == spec.distinct &&
        ((!other.arg && !spec.arg) || (other.arg && spec.arg && other.arg->Equals(*spec.arg)))) {
      slot = static_cast<int>(ctx.agg_plan->group_by.size() + i);
      *out = BoundExpr::Slot(slot, other.type);
      return Status::OK();
    }
  }
  *out = BoundExpr::Slot(slot, spec.type);
  (*out)->location = e.location;
  ctx.agg_plan->aggregates.push_back(std::move(spec));
  ctx.agg_plan->aggregate = true;
  return Status::OK();
}

Status Binder::BindFunction(const Expr& e, Context& ctx, BoundExprPtr* out) {
  const std::string& name = e.function_name;
  if (name == "count" || name == "sum" || name == "min" || name == "max" || name == "avg") {
    return BindAggregate(e, ctx, out);
  }
  if (e.distinct || e.star) {
    return SyntaxError("DISTINCT or * specified, but " + name + " is not an aggregate function", Pos(e.location));
  }
  std::vector<BoundExprPtr> args;
  for (const auto& a : e.list) {
    BoundExprPtr b;
    PL_RETURN_IF_ERROR(BindExpr(*a, ctx, &b));
    args.push_back(std::move(b));
  }
  const FunctionInfo* info = nullptr;
  for (const auto& f : kFunctions) {
    if (name == f.name && static_cast<int>(args.size()) >= f.min_args && static_cast<int>(args.size()) <= f.max_args) {
      info = &f;
    }
  }
  if (info == nullptr) {
    std::string sig;
    for (const auto& a : args) sig += (sig.empty() ? "" : ", ") + TypeText(a->type);
    return Status(sqlstate::kUndefinedFunction, "function " + name + "(" + sig + ") does not exist", Pos(e.location));
  }
  auto node = MakeNode(BoundKind::kFunction, Type(), e.location);
  node->function = info->function;
  auto require_number = [&](BoundExprPtr& a) -> Status {
    if (IsUnknown(*a)) PL_RETURN_IF_ERROR(Coerce(&a, Type(TypeId::kNumeric), false, e.location));
    if (!a->type.IsNumber()) {
      return Status(sqlstate::kUndefinedFunction, "function " + name + "(" + TypeText(a->type) + ") does not exist",
                    Pos(e.location));
    }
    return Status::OK();
  };
  auto require_text = [&](BoundExprPtr& a) -> Status {
    if (IsUnknown(*a)) return Coerce(&a, Type(TypeId::kText), false, e.location);
    if (!a->type.IsString()) {
      std::string sig;
      for (const auto& x : args) sig += (sig.empty() ? "" : ", ") + TypeText(x->type);
      return Status(sqlstate::kUndefinedFunction, "function " + name + "(" + sig + ") does not exist", Pos(e.location));
    }
    return Status::OK();
  };
  switch (info->function) {
    case ScalarFunction::kNow:
      node->type = Type(name == "localtimestamp" ? TypeId::kTimestamp : TypeId::kTimestampTz);
      break;
    case ScalarFunction::kCurrentDate:
      node->type = Type(TypeId::kDate);
      break;
    case ScalarFunction::kRandom:
      node->type = Type(TypeId::kFloat64);
      break;
    case ScalarFunction::kCoalesce: case ScalarFunction::kGreatest: case ScalarFunction::kLeast:
    case ScalarFunction::kNullIf: {
      std::vector<const BoundExpr*> all;
      for (const auto& a : args) all.push_back(a.get());
      if (info->function == ScalarFunction::kNullIf) all.resize(1);
      const char* context = info->function == ScalarFunction::kCoalesce ? "COALESCE"
                            : info->function == ScalarFunction::kGreatest ? "GREATEST"
                            : info->function == ScalarFunction::kLeast    ? "LEAST"
                                                                          : "NULLIF";
      PL_RETURN_IF_ERROR(CommonType(all, context, e.location, &node->type));
      for (auto& a : args) PL_RETURN_IF_ERROR(Coerce(&a, node->type, false, e.location));
      break;
    }
    case ScalarFunction::kAbs: case ScalarFunction::kFloor: case ScalarFunction::kCeil:
      PL_RETURN_IF_ERROR(require_number(args[0]));
      node->type = info->function == ScalarFunction::kAbs ? Type(args[0]->type.id)
                   : args[0]->type.IsFloat()              ? Type(TypeId::kFloat64)
                                                          : Type(TypeId::kNumeric);
      break;
    case ScalarFunction::kRound: case ScalarFunction::kTrunc:
      PL_RETURN_IF_ERROR(require_number(args[0]));
      if (args.size() > 1) PL_RETURN_IF_ERROR(Coerce(&args[1], Type(TypeId::kInt32), false, e.location));
      node->type = (args[0]->type.IsFloat() && args.size() == 1) ? Type(TypeId::kFloat64) : Type(TypeId::kNumeric);
      if (args[0]->type.IsFloat() && args.size() > 1) PL_RETURN_IF_ERROR(Coerce(&args[0], Type(TypeId::kNumeric), false, e.location));
      break;
    case ScalarFunction::kLower: case ScalarFunction::kUpper: case ScalarFunction::kTrim: case ScalarFunction::kLtrim:
    case ScalarFunction::kRtrim:
      for (auto& a : args) PL_RETURN_IF_ERROR(require_text(a));
      node->type = Type(TypeId::kText);
      break;
    case ScalarFunction::kLength: case ScalarFunction::kOctetLength:
      // length(bytea) counts bytes, as octet_length of either does;
      // char_length is for text only.
      if (args[0]->type.id == TypeId::kBytea && name != "char_length" && name != "character_length") {
        node->function = ScalarFunction::kOctetLength;
      } else {
        PL_RETURN_IF_ERROR(require_text(args[0]));
      }
      node->type = Type(TypeId::kInt32);
      break;
    case ScalarFunction::kSubstr:
      PL_RETURN_IF_ERROR(require_text(args[0]));
      for (size_t i = 1; i < args.size(); ++i) PL_RETURN_IF_ERROR(Coerce(&args[i], Type(TypeId::kInt32), false, e.location));
      node->type = Type(TypeId::kText);
      break;
    case ScalarFunction::kPower: case ScalarFunction::kSqrt:
      for (auto& a : args) PL_RETURN_IF_ERROR(require_number(a));
      node->type = Type(TypeId::kFloat64);
      break;
    case ScalarFunction::kMod:
      for (auto& a : args) PL_RETURN_IF_ERROR(require_number(a));
      node->type = PromoteNumbers(args[0]->type, args[1]->type);
      break;
  }
  node->children = std::move(args);
  *out = std::move(node);
  return Status::OK();
}

Status Binder::BindPredicate(const Expr& e, Context& ctx, const char* clause, BoundExprPtr* out, bool and_operand) {
  const char* saved = ctx.clause;
  ctx.clause = clause;
  Status s = BindExpr(e, ctx, out);
  ctx.clause = saved;
  PL_RETURN_IF_ERROR(s);
  if (IsUnknown(**out)) PL_RETURN_IF_ERROR(Coerce(out, Type(TypeId::kBool), false, e.location));
  if ((*out)->type.id != TypeId::kBool) {
    return Status(sqlstate::kDatatypeMismatch,
                  std::string("argument of ") + (and_operand ? "AND" : clause) + " must be type boolean, not type " +
                      TypeText((*out)->type),
                  Pos(LeftmostLocation(e)));
  }
  return Status::OK();
}

Status Binder::BindDefault(const Expr& expr, const Type& type, std::optional<Value>* constant, bool* is_now) {
  Context ctx;
  ctx.clause = "DEFAULT expressions";
  BoundExprPtr e;
  PL_RETURN_IF_ERROR(BindExpr(expr, ctx, &e));
  *is_now = false;
  constant->reset();
  if (e->kind == BoundKind::kFunction &&
      (e->function == ScalarFunction::kNow || e->function == ScalarFunction::kCurrentDate)) {
    *is_now = true;
    return Status::OK();
  }
  if (!e->IsColumnFree() || e->kind == BoundKind::kParameter) {
    return NotSupported("a DEFAULT that is not a constant or now()");
  }
  PL_RETURN_IF_ERROR(Coerce(&e, type, false, expr.location));
  Value v;
  EvalContext none;
  PL_RETURN_IF_ERROR(Evaluate(*e, none, &v));
  *constant = std::move(v);
  return Status::OK();
}

// ---------------------------------------------------------------- SELECT

Status Binder::BindFrom(const SelectStmt& stmt, Context& ctx, SelectPlan* plan, std::vector<ExprPtr>*,
                        std::vector<Conjunct>* where_conjuncts,
                        std::vector<std::pair<int, Conjunct>>* on_conjuncts) {
  // Flattens FROM items (comma lists, inner/cross/left joins) into sources
  // in order; ON conditions of inner joins join the WHERE conjuncts, those of
  // left joins stay with their source.
  std::function<Status(const FromItem&)> add = [&](const FromItem& item) -> Status {
    PL_RETURN_IF_ERROR(CheckStackDepth());
    if (!item.is_join) {
      std::shared_ptr<storage::Table> table;
      PL_RETURN_IF_ERROR(LookupTable(item.table, &table));
      std::string name = item.table.alias.empty() ? item.table.name : item.table.alias;
      for (const auto& entry : ctx.scope) {
        if (entry.name == name) {
          return Status("42712", "table name \"" + name + "\" specified more than once",
                        Pos(item.table.location));
        }
      }
      int source = static_cast<int>(plan->sources.size());
      ctx.scope.push_back({name, table.get(), source, false});
      SourcePlan sp;
      sp.table = table;
      sp.alias = name;
      plan->sources.push_back(std::move(sp));
      return Status::OK();
    }
    if (item.natural || !item.using_columns.empty()) return NotSupported("JOIN with USING or NATURAL");
    if (item.join_kind == JoinKind::kRight || item.join_kind == JoinKind::kFull) {
      return NotSupported(std::string(item.join_kind == JoinKind::kRight ? "RIGHT" : "FULL") + " JOIN");
    }
    PL_RETURN_IF_ERROR(add(*item.left));
    size_t first_right = plan->sources.size();
    PL_RETURN_IF_ERROR(add(*item.right));
    if (item.join_kind == JoinKind::kLeft) {
      if (plan->sources.size() != first_right + 1) return NotSupported("LEFT JOIN of a nested join");
      plan->sources.back().left_join = true;
      ctx.scope.back().left_joined = true;
      std::vector<Conjunct> on;
      SplitConjuncts(item.on.get(), "JOIN/ON", &on);
      for (const Conjunct& c : on) on_conjuncts->push_back({static_cast<int>(first_right), c});
    } else {
      SplitConjuncts(item.on.get(), "JOIN/ON", where_conjuncts);
    }
    return Status::OK();
  };
  for (const auto& item : stmt.from) PL_RETURN_IF_ERROR(add(*item));
  SplitConjuncts(stmt.where.get(), "WHERE", where_conjuncts);
  return Status::OK();
}

Status Binder::BindSelectList(const std::vector<SelectItem>& items, Context& ctx, std::vector<BoundExprPtr>* exprs,
                              std::vector<engine::ResultColumn>* columns) {
  for (const auto& item : items) {
    if (item.expr->kind == ExprKind::kStar) {
      bool matched = false;
      for (const auto& entry : ctx.scope) {
        if (!item.expr->qualifier.empty() && entry.name != item.expr->qualifier) continue;
        matched = true;
        const auto& cols = entry.table->schema().columns;
        for (size_t c = 0; c < cols.size(); ++c) {
          exprs->push_back(BoundExpr::Column(entry.source, static_cast<int>(c), cols[c].type));
          columns->push_back({cols[c].name, cols[c].type});
        }
      }
      if (!matched) {
        if (item.expr->qualifier.empty()) {
          return SyntaxError("SELECT * with no tables specified is not valid", Pos(item.expr->location));
        }
        return MissingFromEntry(ctx, item.expr->qualifier, item.expr->location);
      }
      continue;
    }
    BoundExprPtr e;
    PL_RETURN_IF_ERROR(BindExpr(*item.expr, ctx, &e));
    if (IsUnknown(*e) && !insert_source_) {
      PL_RETURN_IF_ERROR(Coerce(&e, Type(TypeId::kText), false, item.expr->location));
    }
    columns->push_back({item.alias.empty() ? DefaultName(*item.expr) : item.alias, e->type});
    exprs->push_back(std::move(e));
  }
  return Status::OK();
}

Status Binder::ApplyGrouping(BoundExprPtr* e, const SelectPlan& plan, int location) {
  for (size_t g = 0; g < plan.group_by.size(); ++g) {
    if ((*e)->Equals(*plan.group_by[g])) {
      *e = BoundExpr::Slot(static_cast<int>(g), (*e)->type);
      return Status::OK();
    }
  }
  if ((*e)->kind == BoundKind::kColumn) {
    const SourcePlan& s = plan.sources[(*e)->source];
    return Status(sqlstate::kGroupingError,
                  "column \"" + s.alias + "." + s.table->schema().columns[(*e)->index].name +
                      "\" must appear in the GROUP BY clause or be used in an aggregate function",
                  Pos((*e)->location >= 0 ? (*e)->location : location));
  }
  for (auto& c : (*e)->children) PL_RETURN_IF_ERROR(ApplyGrouping(&c, plan, location));
  return Status::OK();
}

Status Binder::BindSelect(const SelectStmt& stmt, std::unique_ptr<SelectPlan>* out) {
  auto plan = std::make_unique<SelectPlan>();
  Context ctx;
  if (!stmt.values.empty()) return NotSupported("VALUES as a query outside INSERT");

  std::vector<ExprPtr> owned;
  std::vector<Conjunct> where_conjuncts;
  std::vector<std::pair<int, Conjunct>> on_conjuncts;
  PL_RETURN_IF_ERROR(BindFrom(stmt, ctx, plan.get(), &owned, &where_conjuncts, &on_conjuncts));

  // WHERE / ON conjuncts, each placed at the level of the last source it reads.
  const int n = static_cast<int>(plan->sources.size());
  std::vector<bool> left_joined(n, false);
  for (int i = 0; i < n; ++i) left_joined[i] = plan->sources[i].left_join;
  std::vector<std::vector<BoundExprPtr>> level(std::max(n, 1));
  for (const Conjunct& c : where_conjuncts) {
    BoundExprPtr b;
    PL_RETURN_IF_ERROR(BindPredicate(*c.expr, ctx, c.clause, &b, c.and_operand));
    if (UsesSource(*b, left_joined)) {
      plan->post_filters.push_back(std::move(b));
    } else {
      level[std::max(0, MaxSource(*b))].push_back(std::move(b));
    }
  }
  for (const auto& [source, c] : on_conjuncts) {
    BoundExprPtr b;
    PL_RETURN_IF_ERROR(BindPredicate(*c.expr, ctx, c.clause, &b, c.and_operand));
    if (MaxSource(*b) > source) return NotSupported("a LEFT JOIN condition that reads a later table");
    level[source].push_back(std::move(b));
  }
  if (n == 0) {
    for (auto& b : level[0]) plan->post_filters.push_back(std::move(b));
  }
  for (int i = 0; i < n; ++i) {
    ChooseAccessPath(i, level[i], &plan->sources[i]);
    plan->sources[i].filters = std::move(level[i]);
  }

  // GROUP BY (positions and output names allowed), then the select list.
  for (const auto& g : stmt.group_by) {
    BoundExprPtr b;
    if (g->kind == ExprKind::kLiteral && g->literal_kind == LiteralKind::kInteger) {
      int pos = static_cast<int>(g->int_value);
      if (pos < 1 || pos > static_cast<int>(stmt.targets.size()) || stmt.targets[pos - 1].expr->kind == ExprKind::kStar) {
        return Status(sqlstate::kInvalidColumnReference, "GROUP BY position " + std::to_string(pos) +
                      " is not in select list", Pos(g->location));
      }
      PL_RETURN_IF_ERROR(BindExpr(*stmt.targets[pos - 1].expr, ctx, &b));
    } else {
      ctx.clause = "GROUP BY";
      Status s = BindExpr(*g, ctx, &b);
      if (!s.ok() && s.Is(sqlstate::kUndefinedColumn) && g->kind == ExprKind::kColumnRef && g->qualifier.empty()) {
        const SelectItem* match = nullptr;
        for (const auto& t : stmt.targets) {
          if (t.alias == g->column) match = &t;
        }
        if (match == nullptr) return s;
        PL_RETURN_IF_ERROR(BindExpr(*match->expr, ctx, &b));
      } else {
        PL_RETURN_IF_ERROR(s);
      }
    }
    plan->group_by.push_back(std::move(b));
  }
  if (!plan->group_by.empty()) plan->aggregate = true;

  ctx.agg_plan = plan.get();
  ctx.clause = "this context";
  PL_RETURN_IF_ERROR(BindSelectList(stmt.targets, ctx, &plan->outputs, &plan->columns));
  if (stmt.having) {
    PL_RETURN_IF_ERROR(BindPredicate(*stmt.having, ctx, "HAVING", &plan->having));
    plan->aggregate = true;
  }

  // ORDER BY: an output position, an output name, or an expression.
  for (const auto& o : stmt.order_by) {
    SortKey key;
    key.descending = o.descending;
    key.nulls_first = o.nulls_first.value_or(o.descending);
    const Expr& x = *o.expr;
    if (x.kind == ExprKind::kLiteral && x.literal_kind == LiteralKind::kInteger) {
      int pos = static_cast<int>(x.int_value);
      if (pos < 1 || pos > static_cast<int>(plan->outputs.size())) {
        return Status(sqlstate::kInvalidColumnReference,
                      "ORDER BY position " + std::to_string(pos) + " is not in select list", Pos(x.location));
      }
      key.expr = BoundExpr::Slot(-pos, plan->outputs[pos - 1]->type);  // resolved below
    } else {
      if (x.kind == ExprKind::kColumnRef && x.qualifier.empty()) {
        // An output alias (ORDER BY total) refers to that output.
        int output = 0;
        for (const auto& t : stmt.targets) {
          if (t.expr->kind == ExprKind::kStar) {
            output = -1;  // positions no longer line up with targets
            break;
          }
          if (t.alias == x.column) {
            key.expr = BoundExpr::Slot(-output - 1, plan->outputs[output]->type);
            break;
          }
          ++output;
        }
      }
      if (!key.expr) {
        ctx.clause = "ORDER BY";
        PL_RETURN_IF_ERROR(BindExpr(x, ctx, &key.expr));
      }
    }
    plan->order_by.push_back(std::move(key));
  }
  // Output references in ORDER BY (negative slots) become copies of outputs.
  for (auto& key : plan->order_by) {
    if (key.expr->kind == BoundKind::kSlot && key.expr->index < 0) key.expr = plan->outputs[-key.expr->index - 1]->Clone();
  }
  // DISTINCT rows are sorted by what they show only.
  if (stmt.distinct) {
    for (size_t k = 0; k < plan->order_by.size(); ++k) {
      const BoundExpr& key = *plan->order_by[k].expr;
      bool shown = std::any_of(plan->outputs.begin(), plan->outputs.end(),
                               [&](const BoundExprPtr& output) { return output->Equals(key); });
      if (!shown) {
        return Status(sqlstate::kInvalidColumnReference,
                      "for SELECT DISTINCT, ORDER BY expressions must appear in select list",
                      Pos(LeftmostLocation(*stmt.order_by[k].expr)));
      }
    }
  }

  if (plan->aggregate) {
    for (auto& e : plan->outputs) PL_RETURN_IF_ERROR(ApplyGrouping(&e, *plan, -1));
    if (plan->having) PL_RETURN_IF_ERROR(ApplyGrouping(&plan->having, *plan, -1));
    for (auto& key : plan->order_by) PL_RETURN_IF_ERROR(ApplyGrouping(&key.expr, *plan, -1));
  }
  for (const auto& f : plan->post_filters) {
    if (!f->IsColumnFree() && n == 0) return InternalError("column in a FROM-less filter");
  }

  plan->distinct = stmt.distinct;
  plan->ordered_by_index = OrderedByIndex(*plan);
  plan->for_update = stmt.for_update;
  if (plan->for_update) {
    // PostgreSQL locks base-table rows only; it names the first obstacle.
    const char* obstacle = plan->distinct              ? "DISTINCT clause"
                           : !plan->group_by.empty()   ? "GROUP BY clause"
                           : plan->having              ? "HAVING clause"
                           : plan->aggregate           ? "aggregate functions"
                                                       : nullptr;
    if (obstacle != nullptr) {
      return Status(sqlstate::kFeatureNotSupported, std::string("FOR UPDATE is not allowed with ") + obstacle);
    }
  }
  // LIMIT and OFFSET see the FROM names only to reject them, as PostgreSQL does.
  Context counts;
  counts.scope = ctx.scope;
  for (auto [expr, bound, clause] : {std::tuple{stmt.limit.get(), &plan->limit, "LIMIT"},
                                     std::tuple{stmt.offset.get(), &plan->offset, "OFFSET"}}) {
    if (expr == nullptr) continue;
    counts.clause = clause;
    PL_RETURN_IF_ERROR(BindExpr(*expr, counts, bound));
    if (ContainsColumn(**bound)) {
      return Status(sqlstate::kInvalidColumnReference,
                    std::string("argument of ") + clause + " must not contain variables", Pos(expr->location));
    }
    PL_RETURN_IF_ERROR(Coerce(bound, Type(TypeId::kInt64), false, expr->location));
  }
  if (!insert_source_) FinalizeParameters(plan.get());  // else the INSERT types them first
  *out = std::move(plan);
  return Status::OK();
}

// ---------------------------------------------------------------- INSERT / UPDATE / DELETE

BoundExprPtr Binder::DefaultValue(const catalog::ColumnSchema& column) const {
  if (column.default_is_now) {
    auto e = MakeNode(BoundKind::kFunction, Type(TypeId::kTimestampTz), -1);
    e->function = ScalarFunction::kNow;
    if (column.type.id == TypeId::kTimestampTz) return e;
    auto cast = MakeNode(BoundKind::kCast, column.type, -1);
    cast->children.push_back(std::move(e));
    return cast;
  }
  if (column.default_value) return BoundExpr::Constant(*column.default_value, column.type);
  return BoundExpr::Constant(Value::Null(column.type.id), column.type);
}

Status Binder::BindReturning(const std::vector<SelectItem>& items, storage::Table* table,
                             std::vector<BoundExprPtr>* exprs, std::vector<engine::ResultColumn>* columns) {
  if (items.empty()) return Status::OK();
  Context ctx;
  ctx.clause = "RETURNING";
  ctx.scope.push_back({table->name(), table, 0, false});
  return BindSelectList(items, ctx, exprs, columns);
}

Status Binder::BindInsert(const InsertStmt& stmt, std::unique_ptr<InsertPlan>* out) {
  auto plan = std::make_unique<InsertPlan>();
  PL_RETURN_IF_ERROR(LookupTable(stmt.table, &plan->table));
  const catalog::TableSchema& schema = plan->table->schema();
  if (stmt.columns.empty()) {
    for (size_t i = 0; i < schema.columns.size(); ++i) plan->target_columns.push_back(static_cast<int>(i));
  } else {
    for (const auto& name : stmt.columns) {
      int c = schema.FindColumn(name);
      if (c < 0) {
        return Status(sqlstate::kUndefinedColumn,
                      "column \"" + name + "\" of relation \"" + schema.name + "\" does not exist");
      }
      if (std::find(plan->target_columns.begin(), plan->target_columns.end(), c) != plan->target_columns.end()) {
        return Status(sqlstate::kDuplicateColumn, "column \"" + name + "\" specified more than once");
      }
      plan->target_columns.push_back(c);
    }
  }
  for (const auto& column : schema.columns) plan->column_defaults.push_back(DefaultValue(column));

  if (stmt.source == nullptr) {
    plan->target_columns.clear();  // DEFAULT VALUES
    plan->rows.emplace_back();
  } else if (!stmt.source->values.empty()) {
    Context ctx;
    ctx.clause = "VALUES";
    auto location = [](const ExprPtr& item) { return item ? item->location : -1; };
    for (const auto& row : stmt.source->values) {
      if (row.size() > plan->target_columns.size()) {
        return SyntaxError("INSERT has more expressions than target columns",
                           Pos(location(row[plan->target_columns.size()])));
      }
      if (row.size() < plan->target_columns.size()) {
        return SyntaxError("INSERT has more target columns than expressions", Pos(row.empty() ? -1 : location(row.back())));
      }
      std::vector<BoundExprPtr> bound;
      for (size_t i = 0; i < row.size(); ++i) {
        const catalog::ColumnSchema& column = schema.columns[plan->target_columns[i]];
        BoundExprPtr e;
        if (row[i] == nullptr) {  // DEFAULT
          e = DefaultValue(column);
        } else {
          PL_RETURN_IF_ERROR(BindExpr(*row[i], ctx, &e));
          PL_RETURN_IF_ERROR(CoerceForAssignment(&e, column, row[i]->location));
          FinalizeParameters(e.get());
        }
        bound.push_back(std::move(e));
      }
      plan->rows.push_back(std::move(bound));
    }
  } else {
    // Untyped literals and parameters in the select list take the types of
    // the target columns, as in PostgreSQL (INSERT INTO t SELECT '5', $1).
    insert_source_ = true;
    Status s = BindSelect(*stmt.source, &plan->query);
    insert_source_ = false;
    PL_RETURN_IF_ERROR(s);
    if (plan->query->outputs.size() > plan->target_columns.size()) {
      return SyntaxError("INSERT has more expressions than target columns");
    }
    if (plan->query->outputs.size() < plan->target_columns.size()) {
      return SyntaxError("INSERT has more target columns than expressions");
    }
    for (size_t i = 0; i < plan->query->outputs.size(); ++i) {
      PL_RETURN_IF_ERROR(CoerceForAssignment(&plan->query->outputs[i], schema.columns[plan->target_columns[i]], -1));
      plan->query->columns[i].type = plan->query->outputs[i]->type;
    }
  }
  PL_RETURN_IF_ERROR(BindReturning(stmt.returning, plan->table.get(), &plan->returning, &plan->returning_columns));
  for (auto& e : plan->returning) FinalizeParameters(e.get());
  if (plan->query) FinalizeParameters(plan->query.get());
  *out = std::move(plan);
  return Status::OK();
}

Status Binder::BindTargetScan(const TableRef& ref, const Expr* where, SourcePlan* target, Context& ctx) {
  PL_RETURN_IF_ERROR(LookupTable(ref, &target->table));
  target->alias = ref.alias.empty() ? ref.name : ref.alias;
  ctx.scope.push_back({target->alias, target->table.get(), 0, false});
  std::vector<Conjunct> conjuncts;
  SplitConjuncts(where, "WHERE", &conjuncts);
  std::vector<BoundExprPtr> filters;
  for (const Conjunct& c : conjuncts) {
    BoundExprPtr b;
    PL_RETURN_IF_ERROR(BindPredicate(*c.expr, ctx, c.clause, &b, c.and_operand));
    filters.push_back(std::move(b));
  }
  ChooseAccessPath(0, filters, target);
  target->filters = std::move(filters);
  return Status::OK();
}

Status Binder::BindUpdate(const UpdateStmt& stmt, std::unique_ptr<UpdatePlan>* out) {
  auto plan = std::make_unique<UpdatePlan>();
  Context ctx;
  PL_RETURN_IF_ERROR(BindTargetScan(stmt.table, stmt.where.get(), &plan->target, ctx));
  const catalog::TableSchema& schema = plan->target.table->schema();
  ctx.clause = "UPDATE";
  for (const auto& set : stmt.set) {
    int c = schema.FindColumn(set.column);
    if (c < 0) {
      return Status(sqlstate::kUndefinedColumn,
                    "column \"" + set.column + "\" of relation \"" + schema.name + "\" does not exist",
                    Pos(set.location));
    }
    if (std::find(plan->set_columns.begin(), plan->set_columns.end(), c) != plan->set_columns.end()) {
      return SyntaxError("multiple assignments to same column \"" + set.column + "\"", Pos(set.location));
    }
    BoundExprPtr e;
    if (set.value == nullptr) {
      e = DefaultValue(schema.columns[c]);
    } else {
      PL_RETURN_IF_ERROR(BindExpr(*set.value, ctx, &e));
      PL_RETURN_IF_ERROR(CoerceForAssignment(&e, schema.columns[c], set.value->location));
    }
    plan->set_columns.push_back(c);
    plan->set_values.push_back(std::move(e));
  }
  PL_RETURN_IF_ERROR(BindReturning(stmt.returning, plan->target.table.get(), &plan->returning, &plan->returning_columns));
  FinalizeParameters(&plan->target);
  for (auto& e : plan->set_values) FinalizeParameters(e.get());
  for (auto& e : plan->returning) FinalizeParameters(e.get());
  *out = std::move(plan);
  return Status::OK();
}

Status Binder::BindDelete(const DeleteStmt& stmt, std::unique_ptr<DeletePlan>* out) {
  auto plan = std::make_unique<DeletePlan>();
  Context ctx;
  PL_RETURN_IF_ERROR(BindTargetScan(stmt.table, stmt.where.get(), &plan->target, ctx));
  PL_RETURN_IF_ERROR(BindReturning(stmt.returning, plan->target.table.get(), &plan->returning, &plan->returning_columns));
  FinalizeParameters(&plan->target);
  for (auto& e : plan->returning) FinalizeParameters(e.get());
  *out = std::move(plan);
  return Status::OK();
}

// ---------------------------------------------------------------- parameters

void Binder::FinalizeParameters(BoundExpr* e) const {
  if (e == nullptr) return;
  if (e->kind == BoundKind::kParameter) {
    Type t = e->index < static_cast<int>(param_types_.size()) ? param_types_[e->index] : Type();
    e->type = t.id == TypeId::kUnknown ? Type(TypeId::kText) : t;
  }
  for (auto& c : e->children) FinalizeParameters(c.get());
}

void Binder::FinalizeParameters(SourcePlan* plan) const {
  for (auto& f : plan->filters) FinalizeParameters(f.get());
  for (auto& k : plan->access.equal) FinalizeParameters(k.get());
  for (auto& k : plan->access.in_list) FinalizeParameters(k.get());
  FinalizeParameters(plan->access.lower.get());
  FinalizeParameters(plan->access.upper.get());
}

void Binder::FinalizeParameters(SelectPlan* plan) const {
  for (auto& s : plan->sources) FinalizeParameters(&s);
  for (auto& f : plan->post_filters) FinalizeParameters(f.get());
  for (auto& g : plan->group_by) FinalizeParameters(g.get());
  for (auto& a : plan->aggregates) FinalizeParameters(a.arg.get());
  FinalizeParameters(plan->having.get());
  for (auto& o : plan->outputs) FinalizeParameters(o.get());
  for (auto& k : plan->order_by) FinalizeParameters(k.expr.get());
  FinalizeParameters(plan->limit.get());
  FinalizeParameters(plan->offset.get());
}

}  // namespace paceline::sql
