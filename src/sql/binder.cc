// Binder: parameters, type resolution, coercion and table lookup (see
// binder.h; binder_internal.h lists the files the rest of the binder is in).
#include "sql/binder_internal.h"

#include <algorithm>
#include <functional>
#include <tuple>

#include "common/datetime.h"
#include "common/stack_depth.h"
#include "common/utf8.h"
#include "sql/access_path_planner.h"
#include "sql/expression_evaluator.h"
#include "sql/system_catalog/system_relation.h"

namespace paceline::sql {

using namespace bind;  // NOLINT: the binder's own helpers

Binder::Binder(const catalog::Catalog* catalog) : catalog_(catalog) {}

int Binder::Pos(int location) const {
  if (location < 0) return 0;
  return source_ ? Utf8CharPosition(*source_, location) : location + 1;
}

Status Binder::NoSuchOperator(const Type& left, std::string_view op, const Type& right, int location) const {
  return Status(sqlstate::kUndefinedFunction,
                "operator does not exist: " + bind::TypeText(left) + " " + std::string(op) + " " + bind::TypeText(right),
                Pos(location));
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
  if (const catalog::DomainSchema* d = catalog_->FindDomain(name.name)) {
    *type = d->type;
    *domain = d->name;
  } else {
    Status s = ResolveBuiltinType(name.name, name.modifiers, type);
    if (!s.ok()) return s.WithPosition(Pos(name.location));
  }
  if (name.is_array) {  // int[] (and int[][], which PostgreSQL takes as the same type)
    if (type->IsArray()) return NotSupported("arrays of arrays");
    if (type->id == TypeId::kUnknown) return NotSupported("arrays of type unknown");
    *type = Type::Array(*type);
    domain->clear();
  }
  return Status::OK();
}

Status Binder::LookupTable(const TableRef& ref, std::shared_ptr<storage::Table>* out) const {
  const SystemRelation* system = nullptr;
  PL_RETURN_IF_ERROR(FindSystemRelationFor(ref, &system));
  if (system != nullptr) {
    return Status(sqlstate::kFeatureNotSupported,
                  "system catalog relation \"" + std::string(system->schema) + "." + std::string(system->name) +
                      "\" cannot be changed: Paceline computes the system catalogs from its own catalog",
                  Pos(ref.location));
  }
  *out = catalog_->FindTable(ref.name);
  if (!*out) {
    return Status(sqlstate::kUndefinedTable, "relation \"" + ref.name + "\" does not exist", Pos(ref.location));
  }
  tables_used_.push_back((*out)->id());
  relations_named_.push_back(ref.name);
  return Status::OK();
}

std::vector<std::string> Binder::RelationsNamed() const {
  std::vector<std::string> names = relations_named_;
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

std::vector<TableId> Binder::TablesUsed() const {
  std::vector<TableId> tables = tables_used_;
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
    return Status(sqlstate::kCannotCoerce, "cannot cast type " + TypeText(x.type) + " to " + target.ToString(),
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
    } else if (result.IsArray() && t.IsArray() && Comparable(result, t)) {
      if (!(result == t)) {  // int4[] and int8[] → int8[]; varchar[] and text[] → text[]
        const Type a = result.ElementType(), b = t.ElementType();
        result = Type::Array(a.IsNumber() && b.IsNumber()   ? PromoteNumbers(a, b)
                             : a.IsString() && b.IsString() ? Type(TypeId::kText)
                                                            : Type(a.id));
      }
    } else if (result.IsRecord() && t.IsRecord()) {
      // Rows met in CASE, COALESCE, UNION, ..: an anonymous record, whose
      // fields are not known ((x).f is 42703), as PostgreSQL's record.
      result = Type(TypeId::kRecord);
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

void Binder::FinalizeParameters(BoundExpr* e) const {
  if (e == nullptr) return;
  if (e->kind == BoundKind::kParameter) {
    Type t = e->index < static_cast<int>(param_types_.size()) ? param_types_[e->index] : Type();
    e->type = t.id == TypeId::kUnknown ? Type(TypeId::kText) : t;
  }
  for (auto& c : e->children) FinalizeParameters(c.get());
  // The binder still owns a subquery's plan while it binds the statement.
  if (e->subquery) FinalizeParameters(const_cast<SelectPlan*>(e->subquery->plan.get()));
}

void Binder::FinalizeParameters(SourcePlan* plan) const {
  if (plan->derived) FinalizeParameters(const_cast<DerivedPlan*>(plan->derived.get()));
  for (auto& f : plan->filters) FinalizeParameters(f.get());
  for (auto& f : plan->group_filters) FinalizeParameters(f.get());
  for (auto& k : plan->access.equal) FinalizeParameters(k.get());
  for (auto& k : plan->access.in_list) FinalizeParameters(k.get());
  FinalizeParameters(plan->access.lower.get());
  FinalizeParameters(plan->access.upper.get());
  for (auto& k : plan->hash_build) FinalizeParameters(k.get());
  for (auto& k : plan->hash_probe) FinalizeParameters(k.get());
}

void Binder::FinalizeParameters(DerivedPlan* plan) const {
  // A WITH query named twice is finalized twice: harmless, types are final.
  if (plan->query) FinalizeParameters(plan->query.get());
  for (auto& row : plan->values) {
    for (auto& e : row) FinalizeParameters(e.get());
  }
  for (auto& e : plan->function.args) FinalizeParameters(e.get());
  for (auto& member : plan->rows_from) FinalizeParameters(const_cast<DerivedPlan*>(member.get()));
  if (plan->left) FinalizeParameters(const_cast<DerivedPlan*>(plan->left.get()));
  if (plan->right) FinalizeParameters(const_cast<DerivedPlan*>(plan->right.get()));
}

void Binder::FinalizeParameters(SelectPlan* plan) const {
  for (auto& s : plan->sources) FinalizeParameters(&s);
  for (auto& f : plan->post_filters) FinalizeParameters(f.get());
  for (auto& g : plan->group_by) FinalizeParameters(g.get());
  for (auto& a : plan->aggregates) {
    FinalizeParameters(a.arg.get());
    FinalizeParameters(a.separator.get());
    for (auto& k : a.order) FinalizeParameters(k.expr.get());
  }
  FinalizeParameters(plan->having.get());
  for (auto& w : plan->windows) FinalizeParameters(&w);
  for (auto& i : plan->window_inputs) FinalizeParameters(i.get());
  for (auto& o : plan->outputs) FinalizeParameters(o.get());
  for (auto& k : plan->order_by) FinalizeParameters(k.expr.get());
  FinalizeParameters(plan->limit.get());
  FinalizeParameters(plan->offset.get());
}

}  // namespace paceline::sql
