// AggregateState: see aggregate_state.h.
#include "sql/aggregate_state.h"

#include <algorithm>

#include "common/array_value.h"
#include "sql/expression_evaluator.h"

namespace paceline::sql {

// `separator`: string_agg's separator for this row.
Status Accumulate(const AggregateSpec& spec, const Value& v, const Value& separator, AggregateState* st) {
  if (spec.kind == AggregateKind::kCountStar) {
    ++st->count;
    return Status::OK();
  }
  if (v.is_null() && spec.kind != AggregateKind::kArrayAgg) return Status::OK();  // array_agg keeps NULLs
  if (spec.distinct) {
    if (!st->seen) st->seen = std::make_unique<std::unordered_set<Value, ValueHash>>();
    if (!st->seen->insert(v).second) return Status::OK();
  }
  ++st->count;
  switch (spec.kind) {
    case AggregateKind::kCount: case AggregateKind::kCountStar:
      return Status::OK();
    case AggregateKind::kMin: case AggregateKind::kMax:
      if (st->acc.is_null() || (Value::Compare(v, st->acc) < 0) == (spec.kind == AggregateKind::kMin)) {
        if (st->acc.is_null() || Value::Compare(v, st->acc) != 0) st->acc = v;
      }
      return Status::OK();
    case AggregateKind::kStringAgg:
      if (st->acc.is_null()) {
        st->acc = Value::String(TypeId::kText, std::string(v.string_value()));
      } else {
        std::string joined(st->acc.string_value());
        if (!separator.is_null()) joined += separator.string_value();
        joined += v.string_value();
        st->acc = Value::String(TypeId::kText, std::move(joined));
      }
      return Status::OK();
    case AggregateKind::kArrayAgg:
      st->items.push_back(v);
      return Status::OK();
    case AggregateKind::kBoolAnd: case AggregateKind::kBoolOr:
      if (st->acc.is_null() || v.bool_value() == (spec.kind == AggregateKind::kBoolOr)) st->acc = v;
      return Status::OK();
    case AggregateKind::kSum: case AggregateKind::kAvg: {
      if (st->acc.is_null()) {
        return CastValue(v, spec.type.id == TypeId::kNumeric ? Type(TypeId::kNumeric) : spec.type, false, &st->acc);
      }
      Value sum;
      PL_RETURN_IF_ERROR(Arithmetic(BinaryOp::kAdd, st->acc, v, spec.type, &sum));
      st->acc = std::move(sum);
      return Status::OK();
    }
  }
  return Status::OK();
}

Status Finish(const AggregateSpec& spec, AggregateState& st, Value* out) {
  if (!spec.order.empty()) {
    // Sort the gathered rows by their keys (stably: ties keep input order)
    // and accumulate them in that order.
    const size_t keys = spec.order.size();
    std::stable_sort(st.ordered.begin(), st.ordered.end(), [&](const auto& a, const auto& b) {
      for (size_t k = 0; k < keys; ++k) {
        const SortKey& key = spec.order[k];
        if (a[k].is_null() || b[k].is_null()) {
          if (a[k].is_null() == b[k].is_null()) continue;
          return a[k].is_null() == key.nulls_first;
        }
        const int c = Value::Compare(a[k], b[k]);
        if (c != 0) return key.descending ? c > 0 : c < 0;
      }
      return false;
    });
    AggregateSpec plain;
    plain.kind = spec.kind;
    plain.distinct = spec.distinct;
    plain.type = spec.type;
    AggregateState in_order;
    for (const auto& row : st.ordered) PL_RETURN_IF_ERROR(Accumulate(plain, row[keys], row[keys + 1], &in_order));
    return Finish(plain, in_order, out);
  }
  switch (spec.kind) {
    case AggregateKind::kArrayAgg:
      *out = st.items.empty() ? Value::Null(TypeId::kArray) : MakeArray(spec.type.element, st.items);
      return Status::OK();
    case AggregateKind::kCount: case AggregateKind::kCountStar:
      *out = Value::Int64(st.count);
      return Status::OK();
    case AggregateKind::kAvg:
      if (st.count == 0) {
        *out = Value::Null(spec.type.id);
        return Status::OK();
      }
      return Arithmetic(BinaryOp::kDiv, st.acc, Value::Int64(st.count), spec.type, out);
    default:
      *out = st.acc.is_null() ? Value::Null(spec.type.id) : st.acc;
      return Status::OK();
  }
}

}  // namespace paceline::sql
