// Helpers shared by the binder's files (see binder_internal.h).
#include "sql/binder_internal.h"

#include <algorithm>

#include "sql/expression_evaluator.h"

namespace paceline::sql::bind {

bool IsUnknown(const BoundExpr& e) { return e.type.id == TypeId::kUnknown; }

// The type without its modifiers (varchar(3) → varchar, numeric(12,2) →
// numeric): what PostgreSQL resolves an untyped literal or parameter to when
// it meets a column in an operator, since operators take unmodified types.
// Only assignment to a column applies the column's length or scale.
Type OperandType(const Type& t) { return t.IsArray() ? Type::Array(Type(t.element)) : Type(t.id); }

std::string TypeText(const Type& t) { return t.id == TypeId::kUnknown ? "unknown" : OperandType(t).ToString(); }

// Ranks numeric types for promotion: int2 < int4 < oid < int8 < numeric <
// float4 < float8 (an oid meets an integer literal as oid, a bigint as bigint).
int NumericRank(TypeId id) {
  switch (id) {
    case TypeId::kInt16: return 1;
    case TypeId::kInt32: return 2;
    case TypeId::kOid: return 3;
    case TypeId::kInt64: return 4;
    case TypeId::kNumeric: return 5;
    case TypeId::kFloat32: return 6;
    case TypeId::kFloat64: return 7;
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
  if (a.id == TypeId::kJson || b.id == TypeId::kJson) return false;  // json has no operators (jsonb has)
  if (a.IsNumber() && b.IsNumber()) return true;
  if (a.IsString() && b.IsString()) return true;
  if (a.IsTemporal() && b.IsTemporal()) return true;
  if (a.IsArray() && b.IsArray()) return Comparable(a.ElementType(), b.ElementType());
  if (a.IsRecord() && b.IsRecord()) {
    // Field by field; a record whose fields are not known compares with
    // nothing (its values' fields could be of any types).
    if (a.fields == nullptr || b.fields == nullptr || a.fields->size() != b.fields->size()) return false;
    for (size_t i = 0; i < a.fields->size(); ++i) {
      if (!Comparable((*a.fields)[i].type, (*b.fields)[i].type)) return false;
    }
  }
  return a.id == b.id;
}

bool CanCast(TypeId from, TypeId to) {
  if (from == to || from == TypeId::kUnknown) return true;
  Type f(from), t(to);
  if (f.IsString() || t.IsString()) return true;
  if (f.IsNumber() && t.IsNumber()) return true;
  if (f.IsTemporal() && t.IsTemporal()) return true;
  if ((from == TypeId::kBool && to == TypeId::kInt32) || (from == TypeId::kInt32 && to == TypeId::kBool)) return true;
  if (f.IsJson() && t.IsJson()) return true;
  return from == TypeId::kJsonb && (t.IsNumber() || to == TypeId::kBool);
}

std::string OperatorText(BinaryOp op) {
  switch (op) {
    case BinaryOp::kAdd: return "+";
    case BinaryOp::kSub: return "-";
    case BinaryOp::kMul: return "*";
    case BinaryOp::kDiv: return "/";
    case BinaryOp::kMod: return "%";
    case BinaryOp::kBitAnd: return "&";
    case BinaryOp::kBitOr: return "|";
    case BinaryOp::kBitXor: return "#";
    case BinaryOp::kShiftLeft: return "<<";
    case BinaryOp::kShiftRight: return ">>";
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
    case BinaryOp::kJsonGet: return "->";
    case BinaryOp::kJsonGetText: return "->>";
    case BinaryOp::kJsonPath: return "#>";
    case BinaryOp::kJsonPathText: return "#>>";
    case BinaryOp::kContains: return "@>";
    case BinaryOp::kContainedBy: return "<@";
    case BinaryOp::kJsonExists: return "?";
    case BinaryOp::kJsonExistsAny: return "?|";
    case BinaryOp::kJsonExistsAll: return "?&";
    case BinaryOp::kJsonDeletePath: return "#-";
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

BoundExprPtr FoldConstant(BoundExprPtr node) {
  if (node->kind == BoundKind::kFunction && (IsVolatile(node->function) || IsCatalogFunction(node->function))) {
    return node;
  }
  for (const auto& c : node->children) {
    if (c->kind != BoundKind::kConstant) return node;
  }
  Value v;
  EvalContext none;
  // A folding error (1/0) is reported at execution, as PostgreSQL does.
  if (!Evaluate(*node, none, &v).ok()) return node;
  BoundExprPtr folded = BoundExpr::Constant(std::move(v), node->type);
  folded->location = node->location;
  return folded;
}

// The output column name PostgreSQL gives an unaliased select item.
std::string DefaultName(const Expr& e) {
  switch (e.kind) {
    case ExprKind::kColumnRef: return e.column;
    case ExprKind::kFunction:
      // @>, <@ and && arrive as these functions; an operator's column is "?column?".
      if (e.function_name == "arraycontains" || e.function_name == "arraycontained" ||
          e.function_name == "arrayoverlap") {
        return "?column?";
      }
      return e.function_name;
    case ExprKind::kArray: return "array";
    case ExprKind::kSubscript: return DefaultName(*e.left);
    case ExprKind::kSubquery: return e.subquery_kind == SubqueryKind::kArray ? "array" : "?column?";
    case ExprKind::kCast:
      if (e.left && (e.left->kind == ExprKind::kColumnRef || e.left->kind == ExprKind::kFunction)) return DefaultName(*e.left);
      return e.cast_type.name;
    case ExprKind::kCase: return "case";
    case ExprKind::kRow: return "row";
    case ExprKind::kFieldSelect: return e.column;
    default: return "?column?";
  }
}

// Highest source a bound expression reads (-1 when none).
int MaxSource(const BoundExpr& e) {
  int m = e.kind == BoundKind::kColumn ? e.source : -1;
  if (e.kind == BoundKind::kSubquery) {  // a correlated subquery reads its outer sources
    for (int s : e.subquery->outer_sources) m = std::max(m, s);
  }
  for (const auto& c : e.children) m = std::max(m, MaxSource(*c));
  return m;
}

bool UsesSource(const BoundExpr& e, const std::vector<bool>& which) {
  if (e.kind == BoundKind::kColumn && which[e.source]) return true;
  if (e.kind == BoundKind::kSubquery) {
    for (int s : e.subquery->outer_sources) {
      if (which[s]) return true;
    }
  }
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





void BuildLayout(DerivedPlan* derived) {
  std::vector<Type> types;
  for (const auto& c : derived->columns) types.push_back(c.type);
  derived->layout = std::make_unique<storage::TupleLayout>(std::move(types));
}

}  // namespace paceline::sql::bind

namespace paceline::sql {

int Binder::ScopeEntry::ColumnCount() const {
  return table ? static_cast<int>(table->schema().columns.size()) : static_cast<int>(derived->columns.size());
}

const std::string& Binder::ScopeEntry::ColumnName(int c) const {
  return table ? table->schema().columns[c].name : derived->columns[c].name;
}

const Type& Binder::ScopeEntry::ColumnType(int c) const {
  return table ? table->schema().columns[c].type : derived->columns[c].type;
}

int Binder::ScopeEntry::FindColumn(const std::string& name) const {
  if (table) return table->schema().FindColumn(name);
  for (size_t c = 0; c < derived->columns.size(); ++c) {
    if (derived->columns[c].name == name) return static_cast<int>(c);
  }
  return -1;
}

bool Binder::ScopeEntry::MergedAway(const std::string& name) const {
  return std::find(merged_away.begin(), merged_away.end(), name) != merged_away.end();
}

}  // namespace paceline::sql
