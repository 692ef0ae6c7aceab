// ReferenceSlotExtractor: the reference slots of a bound plan
// (see reference_slot_extractor.h).
#include "sql/reference_slot_extractor.h"

#include <algorithm>
#include <memory>

#include "storage/catalog/canonical_domain.h"
#include "sql/prepared_statement.h"
#include "storage/index.h"

namespace paceline::sql {

namespace {

const BoundExpr& StripCasts(const BoundExpr& e) {
  const BoundExpr* x = &e;
  while (x->kind == BoundKind::kCast && !x->children.empty()) x = x->children[0].get();
  return *x;
}

bool IsValue(const BoundExpr& e) {
  return e.kind == BoundKind::kParameter || (e.kind == BoundKind::kConstant && !e.constant.is_null());
}

bool ToReferenceOp(BinaryOp op, ReferenceOp* out) {
  switch (op) {
    case BinaryOp::kEq: *out = ReferenceOp::kEq; return true;
    case BinaryOp::kNe: *out = ReferenceOp::kNe; return true;
    case BinaryOp::kLt: *out = ReferenceOp::kLt; return true;
    case BinaryOp::kLe: *out = ReferenceOp::kLe; return true;
    case BinaryOp::kGt: *out = ReferenceOp::kGt; return true;
    case BinaryOp::kGe: *out = ReferenceOp::kGe; return true;
    default: return false;
  }
}

// `a op b` as `b op' a`.
ReferenceOp Mirror(ReferenceOp op) {
  switch (op) {
    case ReferenceOp::kLt: return ReferenceOp::kGt;
    case ReferenceOp::kLe: return ReferenceOp::kGe;
    case ReferenceOp::kGt: return ReferenceOp::kLt;
    case ReferenceOp::kGe: return ReferenceOp::kLe;
    default: return op;
  }
}

}  // namespace

void ReferenceSlotExtractor::Extract(const PreparedStatement& statement, std::vector<ReferenceSlot>* out) {
  out_ = out;
  clause_ = 0;
  clause_start_ = out->size();
  // Data-modifying WITH queries are written first.
  for (const auto& cte : statement.modifying_ctes) ExtractModify(cte->insert.get(), cte->update.get(), cte->del.get());
  if (statement.select) {
    ExtractSelect(*statement.select);
  } else {
    ExtractModify(statement.insert.get(), statement.update.get(), statement.del.get());
  }
  out_ = nullptr;
}

void ReferenceSlotExtractor::ExtractModify(const InsertPlan* insert, const UpdatePlan* update, const DeletePlan* del) {
  if (update) {
    const UpdatePlan& plan = *update;
    for (size_t i = 0; i < plan.set_columns.size(); ++i) {
      AddAssignment(*plan.target.table, plan.set_columns[i], plan.set_values[i].get(), /*inserted=*/false);
    }
    EndClause();
    std::vector<const BoundExpr*> where;
    for (const auto& f : plan.target.filters) where.push_back(f.get());
    AddCondition(std::span(&plan.target, 1), std::move(where));
    if (plan.join) ExtractSelect(*plan.join);  // UPDATE .. FROM: the join's conditions
    for (const auto& v : plan.set_values) {
      if (v) ExtractSubqueries(*v);
    }
    for (const auto& f : plan.target.filters) ExtractSubqueries(*f);
  } else if (del) {
    const DeletePlan& plan = *del;
    std::vector<const BoundExpr*> where;
    for (const auto& f : plan.target.filters) where.push_back(f.get());
    AddCondition(std::span(&plan.target, 1), std::move(where));
    if (plan.join) ExtractSelect(*plan.join);  // DELETE .. USING
    for (const auto& f : plan.target.filters) ExtractSubqueries(*f);
  } else if (insert) {
    const InsertPlan& plan = *insert;
    for (const auto& row : plan.rows) {
      for (size_t i = 0; i < row.size() && i < plan.target_columns.size(); ++i) {
        AddAssignment(*plan.table, plan.target_columns[i], row[i].get(), /*inserted=*/true);
      }
      EndClause();
    }
    if (plan.query) {
      for (size_t i = 0; i < plan.query->outputs.size() && i < plan.target_columns.size(); ++i) {
        AddAssignment(*plan.table, plan.target_columns[i], plan.query->outputs[i].get(), /*inserted=*/true);
      }
      EndClause();
      ExtractSelect(*plan.query);
    }
    if (plan.on_conflict) {  // DO UPDATE's subqueries (its row is the inserted key's)
      for (const auto& v : plan.on_conflict->set_values) {
        if (v) ExtractSubqueries(*v);
      }
      if (plan.on_conflict->where) ExtractSubqueries(*plan.on_conflict->where);
    }
  }
}

void ReferenceSlotExtractor::ExtractSelect(const SelectPlan& plan) {
  // The consumers of a SKIP LOCKED query take different rows by design:
  // its conditions (`status = 'ready'`) are no reference, since placing
  // its transactions together would serialise what the pattern spreads.
  for (const SourcePlan& source : plan.sources) {
    if (source.lock && source.lock->wait == cc::LockWait::kSkip) return;
  }
  const std::span<const SourcePlan> sources(plan.sources);
  std::vector<const BoundExpr*> where;
  for (size_t i = 0; i < plan.sources.size(); ++i) {
    const SourcePlan& source = plan.sources[i];
    if (source.left_join) {
      // Every filter of an outer-joined group is of its ON condition (a
      // WHERE conjunct that reads the group is a post filter).
      std::vector<const BoundExpr*> on;
      for (int g = static_cast<int>(i); g <= source.group_end; ++g) {
        for (const auto& f : plan.sources[g].filters) on.push_back(f.get());
        for (const auto& f : plan.sources[g].group_filters) on.push_back(f.get());
      }
      AddCondition(sources, std::move(on));
      i = static_cast<size_t>(source.group_end);
    } else {
      for (const auto& f : source.filters) where.push_back(f.get());
    }
  }
  for (const auto& f : plan.post_filters) where.push_back(f.get());
  AddCondition(sources, std::move(where));
  // Then the queries inside it: derived sources in FROM order, then the
  // subqueries of its conditions and outputs.
  for (const SourcePlan& source : plan.sources) {
    if (source.derived) ExtractDerived(*source.derived);
  }
  for (const SourcePlan& source : plan.sources) {
    for (const auto& f : source.filters) ExtractSubqueries(*f);
    for (const auto& f : source.group_filters) ExtractSubqueries(*f);
  }
  for (const auto& f : plan.post_filters) ExtractSubqueries(*f);
  for (const auto& o : plan.outputs) ExtractSubqueries(*o);
}

void ReferenceSlotExtractor::ExtractDerived(const DerivedPlan& derived) {
  if (derived.query) ExtractSelect(*derived.query);
  if (derived.left) ExtractDerived(*derived.left);
  if (derived.right) ExtractDerived(*derived.right);
}

void ReferenceSlotExtractor::ExtractSubqueries(const BoundExpr& e) {
  if (e.kind == BoundKind::kSubquery) ExtractSelect(*e.subquery->plan);
  for (const auto& c : e.children) ExtractSubqueries(*c);
}

void ReferenceSlotExtractor::AddCondition(std::span<const SourcePlan> sources,
                                          std::vector<const BoundExpr*> conjuncts) {
  std::stable_sort(conjuncts.begin(), conjuncts.end(),
                   [](const BoundExpr* a, const BoundExpr* b) { return a->location < b->location; });
  std::vector<ConditionSlot> added;
  for (const BoundExpr* c : conjuncts) AddComparison(sources, *c, &added);
  MarkKeyEqualities(sources, added);
  EndClause();
}

void ReferenceSlotExtractor::MarkKeyEqualities(std::span<const SourcePlan> sources,
                                               const std::vector<ConditionSlot>& added) {
  // Whether `column` of source `source` has an equality in this condition.
  const auto equal = [&](int source, int column) {
    for (const ConditionSlot& a : added) {
      if (a.source == source && a.column == column && (*out_)[a.slot].op == ReferenceOp::kEq) return true;
    }
    return false;
  };
  for (const ConditionSlot& a : added) {
    ReferenceSlot& slot = (*out_)[a.slot];
    if (slot.op != ReferenceOp::kEq) continue;
    for (const std::unique_ptr<storage::Index>& index : sources[a.source].table->indexes()) {
      const catalog::IndexSchema& key = index->schema();
      const auto at = std::find(key.columns.begin(), key.columns.end(), a.column);
      if (at == key.columns.end()) continue;
      // An ordered index is searched by any prefix of its key; a hash index
      // only by the whole key.
      const auto needed_end = key.method == catalog::IndexMethod::kHash ? key.columns.end() : at;
      if (std::all_of(key.columns.begin(), needed_end, [&](int c) { return c == a.column || equal(a.source, c); })) {
        slot.by_key = true;
        break;
      }
    }
  }
}

void ReferenceSlotExtractor::AddComparison(std::span<const SourcePlan> sources, const BoundExpr& conjunct,
                                           std::vector<ConditionSlot>* added) {
  ReferenceOp op;
  if (conjunct.kind != BoundKind::kCompare || conjunct.children.size() != 2 || !ToReferenceOp(conjunct.op, &op)) {
    return;
  }
  const BoundExpr* column = &StripCasts(*conjunct.children[0]);
  const BoundExpr* value = &StripCasts(*conjunct.children[1]);
  if (column->kind != BoundKind::kColumn) {
    std::swap(column, value);
    op = Mirror(op);
  }
  if (column->kind != BoundKind::kColumn || !IsValue(*value)) return;
  if (column->source < 0 || static_cast<size_t>(column->source) >= sources.size()) return;
  if (sources[column->source].table == nullptr) return;  // a derived source's column is no stored row
  if (AddSlot(*sources[column->source].table, column->index, op, *value, /*from_where=*/true)) {
    added->push_back(ConditionSlot{.slot = out_->size() - 1, .source = column->source, .column = column->index});
  }
}

void ReferenceSlotExtractor::AddAssignment(const storage::Table& table, int column, const BoundExpr* value,
                                           bool inserted) {
  if (value == nullptr) return;
  const BoundExpr& v = StripCasts(*value);
  if (!IsValue(v) || !AddSlot(table, column, ReferenceOp::kEq, v, /*from_where=*/false) || !inserted) return;
  const storage::Index* primary = table.primary_index();
  if (primary == nullptr) return;
  const std::vector<int>& key = primary->schema().columns;
  ReferenceSlot& slot = out_->back();
  slot.by_key = std::find(key.begin(), key.end(), column) != key.end();
  slot.key_part = key.size() > 1;
}

bool ReferenceSlotExtractor::AddSlot(const storage::Table& table, int column, ReferenceOp op,
                                     const BoundExpr& value, bool from_where) {
  if (column < 0 || static_cast<size_t>(column) >= table.schema().columns.size()) return false;
  ReferenceSlot slot = SubjectOf(table, column).fields;
  slot.op = op;
  if (value.kind == BoundKind::kParameter) {
    slot.parameter = value.index;
  } else {
    Value scratch;
    const Value* v = nullptr;
    if (!ReferenceValue(value.constant, slot.column_type, &scratch, &v)) return false;
    slot.constant = *v;
    slot.constant_hash = slot.constant.Hash();
  }
  slot.clause = clause_;
  slot.from_where = from_where;
  out_->push_back(std::move(slot));
  return true;
}

void ReferenceSlotExtractor::EndClause() {
  if (out_->size() > clause_start_) ++clause_;
  clause_start_ = out_->size();
}

bool ReferenceSlotExtractor::ColumnNameShared(const std::string& column) const {
  int tables = 0;
  for (const std::string& name : catalog_->TableNames()) {
    std::shared_ptr<storage::Table> table = catalog_->FindTable(name);
    if (table == nullptr) continue;
    for (const catalog::ColumnSchema& c : table->schema().columns) {
      if (c.name == column && ++tables > 1) return true;
    }
  }
  return false;
}

const ReferenceSlotExtractor::Subject& ReferenceSlotExtractor::SubjectOf(const storage::Table& table, int column) {
  for (const Subject& s : subjects_) {
    if (s.table == &table && s.column == column) return s;
  }
  const catalog::TableSchema& schema = table.schema();
  const catalog::ColumnSchema& c = schema.columns[column];
  Subject s{&table, column, ReferenceSlot{}};
  s.fields.literal_id = ReferenceNameHash(schema.name + "." + c.name);
  // Shown by the column's name alone (s_w_id) unless other tables have a
  // column of that name (pgbench's bid): then qualified, so that distinct
  // references never look alike.
  s.fields.literal_name = ColumnNameShared(c.name) ? schema.name + "." + c.name : c.name;
  const catalog::CanonicalDomain domain = catalog::CanonicalDomain::Resolve(*catalog_, schema.name, c.name);
  const std::string qualified = domain.QualifiedName();
  s.fields.canonical_id = domain.is_domain() ? ReferenceDomainHash(domain.domain) : ReferenceNameHash(qualified);
  s.fields.canonical_name = !domain.is_domain() && ColumnNameShared(domain.column) ? qualified : domain.Name();
  s.fields.canonical_name_hash = ReferenceNameHash(domain.Name());
  s.fields.canonical_qualified_hash = ReferenceNameHash(qualified);
  s.fields.column_type = c.type;
  s.fields.table_id = table.id();
  subjects_.push_back(std::move(s));
  return subjects_.back();
}

}  // namespace paceline::sql
