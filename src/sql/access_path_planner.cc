// AccessPathPlanner: index selection for one source (see access_path_planner.h).
#include "sql/access_path_planner.h"

#include "sql/binder_internal.h"
#include "sql/partial_index_condition.h"
#include "sql/predicate_implication.h"

namespace paceline::sql {

namespace {

// A usable conjunct: `column(source) op value`, normalized so the column is
// on the left; or `column IN (values)` (op kEq, `in` set).
struct KeyCondition {
  int column;
  BinaryOp op;
  const BoundExpr* value;
  const BoundExpr* in = nullptr;  // the kIn node
  int conjunct = -1;              // the conjunct it is, when it is a whole one
  bool proves = false;            // key equality is the comparison's equality
};

// Whether `index` may serve source `source` whose conditions are
// `conjuncts`: a partial index only when they prove its condition (else a
// row the query wants may be missing from it).
bool Serves(const storage::Index& index, int source, const std::vector<BoundExprPtr>& conjuncts) {
  const BoundExpr* condition = PartialIndexCondition::Of(index);
  if (condition == nullptr) return true;
  std::vector<const BoundExpr*> facts;
  for (const auto& c : conjuncts) facts.push_back(c.get());
  return PredicateImplied(facts, source, *condition);
}

bool HasPartialIndex(const storage::Table& table) {
  for (const auto& index : table.indexes()) {
    if (index->partial()) return true;
  }
  return false;
}

// Whether a value of type `value` can probe a key column of type `column`
// with the same equality the comparison operator would use.
bool KeyCompatible(const Type& column, const Type& value) {
  if (column.IsInteger()) return value.IsInteger();
  if (column.id == TypeId::kNumeric) {
    return value.IsInteger() || (value.id == TypeId::kNumeric && value.scale >= 0 && value.scale <= column.scale);
  }
  if (column.IsFloat()) return value.IsNumber();
  if (column.IsString()) return value.IsString() && (column.id == TypeId::kChar) == (value.id == TypeId::kChar);
  if (column.id == TypeId::kTimestamp || column.id == TypeId::kTimestampTz) return value.id == column.id;
  return column.id == value.id;
}

// Whether an index entry whose key column (of type `column`) encodes
// equal to an exact probe of a value of type `value` (KeyCompatible) holds
// a value the comparison `column = value` finds equal, and only such
// entries: integers, strings of one family (CHAR's trailing blanks are
// dropped by both), numerics of a declared scale (rescaled exactly), and
// types equal by their bytes. Floats are left to the filter (-0, NaN, float4 against float8).
bool KeyProvesEquality(const Type& column, const Type& value) {
  if (!KeyCompatible(column, value)) return false;
  if (column.IsInteger() || column.IsString()) return true;
  // A NUMERIC without a scale is keyed rounded to an integer (key_encoder.h):
  // 1.5 and 2 share a key, so only the filter tells them apart.
  if (column.id == TypeId::kNumeric) return column.scale >= 0;
  switch (column.id) {
    case TypeId::kBool: case TypeId::kDate: case TypeId::kTimestamp: case TypeId::kTimestampTz: case TypeId::kUuid:
      return value.id == column.id;
    default:
      return false;
  }
}

// Whether equal values of types `a` and `b` (Value::Compare == 0) always
// hash alike (Value::Hash), so a hash table can find them.
bool HashJoinable(const Type& a, const Type& b) {
  if (a.IsInteger()) return b.IsInteger();
  if (a.IsString()) return b.IsString() && (a.id == TypeId::kChar) == (b.id == TypeId::kChar);
  switch (a.id) {
    case TypeId::kBool: case TypeId::kNumeric: case TypeId::kDate: case TypeId::kTimestamp:
    case TypeId::kTimestampTz: case TypeId::kUuid: case TypeId::kBytea:
      return b.id == a.id;
    default:
      return false;  // floats (-0 and 0), jsonb, arrays, intervals: no hash join
  }
}

// `conjunct`: e's index among the source's conjuncts (-1: a part of one).
void Collect(int source, const BoundExpr& e, const storage::TupleLayout& layout, int conjunct,
             std::vector<KeyCondition>* out) {
  if (e.kind == BoundKind::kAnd) {
    for (const auto& c : e.children) Collect(source, *c, layout, -1, out);
    return;
  }
  if (e.kind == BoundKind::kIn && !e.negated) {
    const BoundExpr& col = *e.children[0];
    if (col.kind != BoundKind::kColumn || col.source != source) return;
    for (size_t i = 1; i < e.children.size(); ++i) {
      if (!e.children[i]->OnlyUses(source) || e.children[i]->ContainsVolatile() ||
          !KeyCompatible(layout.type(col.index), e.children[i]->type)) {
        return;
      }
    }
    out->push_back({col.index, BinaryOp::kEq, nullptr, &e});
    return;
  }
  if (e.kind != BoundKind::kCompare) return;
  switch (e.op) {
    case BinaryOp::kEq: case BinaryOp::kLt: case BinaryOp::kLe: case BinaryOp::kGt: case BinaryOp::kGe: break;
    default: return;
  }
  for (int side = 0; side < 2; ++side) {
    const BoundExpr& col = *e.children[side];
    const BoundExpr& val = *e.children[1 - side];
    // A volatile value (nextval, random) is one per row compared, never
    // one key for the whole scan.
    if (col.kind != BoundKind::kColumn || col.source != source || !val.OnlyUses(source) || val.ContainsVolatile()) {
      continue;
    }
    if (!KeyCompatible(layout.type(col.index), val.type)) continue;
    out->push_back({col.index, side == 0 ? e.op : Commuted(e.op), &val, nullptr, conjunct,
                    e.op == BinaryOp::kEq && KeyProvesEquality(layout.type(col.index), val.type)});
    return;
  }
}

}  // namespace

void ChooseAccessPath(int source, const std::vector<BoundExprPtr>& conjuncts, SourcePlan* plan) {
  std::vector<KeyCondition> conditions;
  for (size_t c = 0; c < conjuncts.size(); ++c) {
    Collect(source, *conjuncts[c], plan->table->layout(), static_cast<int>(c), &conditions);
  }
  if (conditions.empty() && !HasPartialIndex(*plan->table)) return;

  // A plain condition on `column` with `op` (IN lists excluded).
  auto find = [&](int column, BinaryOp op) -> const KeyCondition* {
    for (const auto& k : conditions) {
      if (k.column == column && k.op == op && k.in == nullptr) return &k;
    }
    return nullptr;
  };
  auto find_in = [&](int column) -> const KeyCondition* {
    for (const auto& k : conditions) {
      if (k.column == column && k.in != nullptr) return &k;
    }
    return nullptr;
  };

  int best_score = 0;
  storage::Index* best = nullptr;
  int best_prefix = 0;
  bool best_in = false;
  for (const auto& index_ptr : plan->table->indexes()) {
    storage::Index* index = index_ptr.get();
    if (!Serves(*index, source, conjuncts)) continue;
    const auto& columns = index->schema().columns;
    const int n = static_cast<int>(columns.size());
    int prefix = 0;
    while (prefix < n && find(columns[prefix], BinaryOp::kEq)) ++prefix;
    // An IN list on the next column: point lookups when it completes a
    // unique key, else one prefix scan per value.
    const bool in = prefix < n && find_in(columns[prefix]) != nullptr &&
                    ((prefix + 1 == n && index->unique()) || index->ordered());
    int score = 0;
    if (prefix == n && index->unique()) {
      score = 1000;  // a point lookup beats everything
    } else if (in) {
      score = (prefix + 1 == n && index->unique()) ? 900 : (prefix + 1) * 4;
    } else if (index->ordered()) {
      bool range = prefix < static_cast<int>(columns.size()) &&
                   (find(columns[prefix], BinaryOp::kLt) || find(columns[prefix], BinaryOp::kLe) ||
                    find(columns[prefix], BinaryOp::kGt) || find(columns[prefix], BinaryOp::kGe));
      score = prefix * 4 + (range ? 2 : 0);
      // Prefer the index whose key is fully bound (fewer entries to skip),
      // and a partial index, which holds only rows the query may want (so
      // its whole scan beats the table's: a queue's `WHERE NOT done`) —
      // for the first source only: a later one is read once per row of
      // those before it, where a whole scan each time loses to reading
      // the table once into a hash join.
      if (prefix == static_cast<int>(columns.size())) score += 1;
      if (index->partial() && (score > 0 || source == 0)) score += 1;
    }
    if (score > best_score) {
      best_score = score;
      best = index;
      best_prefix = prefix;
      best_in = in && score != 1000;
    }
  }
  if (best == nullptr) return;

  AccessPath& path = plan->access;
  path.index = best;
  const auto& columns = best->schema().columns;
  // Every row the path yields has the probe's key (the executor checks the
  // row's current key against it), so equalities that are whole conjuncts
  // and prove by key need no second evaluation.
  for (int i = 0; i < best_prefix; ++i) {
    const KeyCondition* k = find(columns[i], BinaryOp::kEq);
    path.equal.push_back(k->value->Clone());
    if (k->conjunct < 0 || !k->proves) continue;
    plan->proved_by_key.resize(conjuncts.size());
    plan->proved_by_key[k->conjunct] = true;
  }
  if (best_score >= 1000) {
    path.kind = AccessKind::kIndexPoint;
    return;
  }
  if (best_in) {
    const BoundExpr& in = *find_in(columns[best_prefix])->in;
    for (size_t i = 1; i < in.children.size(); ++i) path.in_list.push_back(in.children[i]->Clone());
    const bool completes_unique = best_prefix + 1 == static_cast<int>(columns.size()) && best->unique();
    path.kind = completes_unique ? AccessKind::kIndexPoint : AccessKind::kIndexRange;
    return;
  }
  path.kind = AccessKind::kIndexRange;
  if (best_prefix < static_cast<int>(columns.size())) {
    int next = columns[best_prefix];
    if (const KeyCondition* k = find(next, BinaryOp::kGe)) {
      path.lower = k->value->Clone();
    } else if ((k = find(next, BinaryOp::kGt))) {
      path.lower = k->value->Clone();
      path.lower_inclusive = false;
    }
    if (const KeyCondition* k = find(next, BinaryOp::kLe)) {
      path.upper = k->value->Clone();
    } else if ((k = find(next, BinaryOp::kLt))) {
      path.upper = k->value->Clone();
      path.upper_inclusive = false;
    }
  }
}

void ChooseHashJoin(int source, SourcePlan* plan) {
  if (plan->access.kind != AccessKind::kFullScan) return;
  if (plan->derived && plan->derived->correlated) return;
  std::vector<bool> earlier(source + 1, false), self(source + 1, false);
  for (int i = 0; i < source; ++i) earlier[i] = true;
  self[source] = true;
  // What the hash table holds may read this source, parameters and
  // constants only, so it is the same for every row of the earlier sources
  // and of enclosing queries. A key is matched with values of those rows.
  auto local = [&](const BoundExpr& e) { return !bind::UsesSource(e, earlier) && !bind::ReadsEnclosingQuery(e); };
  auto own = [&](const BoundExpr& e) { return e.OnlyUses(source + 1) && bind::UsesSource(e, self) && local(e); };
  auto before = [&](const BoundExpr& e) {
    return e.OnlyUses(source) && (bind::UsesSource(e, earlier) || bind::ReadsEnclosingQuery(e));
  };
  std::vector<BoundExprPtr> build, probe;
  for (size_t f = 0; f < plan->filters.size(); ++f) {
    const BoundExpr& e = *plan->filters[f];
    if (local(e)) plan->local_filters.push_back(static_cast<int>(f));
    if (e.kind != BoundKind::kCompare || e.op != BinaryOp::kEq) continue;
    for (int side = 0; side < 2; ++side) {
      const BoundExpr& mine = *e.children[side];
      const BoundExpr& theirs = *e.children[1 - side];
      if (!own(mine) || !before(theirs) || !HashJoinable(mine.type, theirs.type)) continue;
      build.push_back(mine.Clone());
      probe.push_back(theirs.Clone());
      break;
    }
  }
  if (build.empty()) {
    plan->local_filters.clear();
    return;
  }
  plan->hash_build = std::move(build);
  plan->hash_probe = std::move(probe);
}

void ChooseOrderedScan(const std::vector<SortKey>& order_by, SourcePlan* plan) {
  if (plan->access.kind != AccessKind::kFullScan || !plan->table || !plan->hash_build.empty() || order_by.empty()) {
    return;
  }
  for (const auto& index_ptr : plan->table->indexes()) {
    storage::Index* index = index_ptr.get();
    const auto& columns = index->schema().columns;
    if (!index->ordered() || columns.size() < order_by.size() || !Serves(*index, 0, plan->filters)) continue;
    bool follows = true;
    for (size_t k = 0; k < order_by.size() && follows; ++k) {
      const SortKey& key = order_by[k];
      const BoundExpr& e = *key.expr;
      follows = e.kind == BoundKind::kColumn && e.source == 0 && !key.descending && !key.nulls_first &&
                e.index == columns[k];
    }
    if (!follows) continue;
    plan->access.kind = AccessKind::kIndexRange;  // no bound: the whole index
    plan->access.index = index;
    return;
  }
}

}  // namespace paceline::sql
