// Executor: the window stage (see executor.h, plan.h's WindowSpec).
//
// Each window function is computed over all rows that remain after
// grouping and HAVING, one function at a time: its partition keys, order
// keys and arguments are evaluated for every row; the rows are sorted by
// partition, then by the window's ORDER BY (stable, so ties keep their
// order); each partition is walked once. Ranking functions read the row's
// position and its ORDER BY peers; lag/lead read the row `offset` away;
// first/last/nth_value and aggregates read the row's frame. An aggregate
// whose frame starts at the partition's first row is accumulated as the
// frame's end moves forward (O(rows)); another frame is accumulated anew
// for each row (O(rows × frame)).
#include <algorithm>
#include <numeric>

#include "sql/aggregate_state.h"
#include "sql/executor.h"
#include "sql/executor_internal.h"

namespace paceline::sql {

namespace {

// One row's inputs to a window function.
struct WindowInputs {
  std::vector<Value> partition;
  std::vector<Value> order;
  std::vector<Value> args;
};

// The frame offsets, evaluated once per statement (-1 when unused).
Status FrameOffset(const BoundExpr* e, const EvalContext& ctx, const char* which, int64_t* out) {
  *out = -1;
  if (e == nullptr) return Status::OK();
  Value v;
  PL_RETURN_IF_ERROR(Evaluate(*e, ctx, &v));
  if (v.is_null()) {
    return Status(sqlstate::kNullValueNotAllowed, std::string("frame ") + which + " offset must not be null");
  }
  if (v.int_value() < 0) {
    return Status(sqlstate::kInvalidPrecedingOrFollowingSize,
                  std::string("frame ") + which + " offset must not be negative");
  }
  *out = v.int_value();
  return Status::OK();
}

// Computes one window function over one partition: `order[0..m)` are the
// partition's rows (indexes into `in` and `out`) in window order.
class PartitionWalk {
 public:
  PartitionWalk(const WindowSpec& w, const std::vector<WindowInputs>& in, const size_t* order, size_t m,
                int64_t start_offset, int64_t end_offset)
      : w_(w), in_(in), order_(order), m_(m), start_offset_(start_offset), end_offset_(end_offset) {
    // Peers: rows equal on every ORDER BY key (all rows without ORDER BY).
    peer_start_.resize(m);
    peer_end_.resize(m);
    size_t first = 0;
    for (size_t j = 1; j <= m; ++j) {
      if (j == m || !Peers(j - 1, j)) {
        for (size_t k = first; k < j; ++k) {
          peer_start_[k] = first;
          peer_end_[k] = j - 1;
        }
        first = j;
      }
    }
  }

  Status Run(std::vector<Value>* out) {
    switch (w_.kind) {
      case WindowFunctionKind::kRowNumber:
        for (size_t j = 0; j < m_; ++j) Set(out, j, Value::Int64(static_cast<int64_t>(j) + 1));
        return Status::OK();
      case WindowFunctionKind::kRank:
        for (size_t j = 0; j < m_; ++j) Set(out, j, Value::Int64(static_cast<int64_t>(peer_start_[j]) + 1));
        return Status::OK();
      case WindowFunctionKind::kDenseRank: {
        int64_t rank = 0;
        for (size_t j = 0; j < m_; ++j) {
          if (peer_start_[j] == j) ++rank;
          Set(out, j, Value::Int64(rank));
        }
        return Status::OK();
      }
      case WindowFunctionKind::kPercentRank:
        for (size_t j = 0; j < m_; ++j) {
          double r = m_ > 1 ? static_cast<double>(peer_start_[j]) / static_cast<double>(m_ - 1) : 0.0;
          Set(out, j, Value::Float64(r));
        }
        return Status::OK();
      case WindowFunctionKind::kCumeDist:
        for (size_t j = 0; j < m_; ++j) {
          Set(out, j, Value::Float64(static_cast<double>(peer_end_[j] + 1) / static_cast<double>(m_)));
        }
        return Status::OK();
      case WindowFunctionKind::kNtile:
        return Ntile(out);
      case WindowFunctionKind::kLag: case WindowFunctionKind::kLead:
        return LagLead(out);
      case WindowFunctionKind::kFirstValue: case WindowFunctionKind::kLastValue:
      case WindowFunctionKind::kNthValue:
        return FrameValue(out);
      case WindowFunctionKind::kAggregate:
        return Aggregate(out);
    }
    return Status::OK();
  }

 private:
  const WindowInputs& Row(size_t j) const { return in_[order_[j]]; }
  void Set(std::vector<Value>* out, size_t j, Value v) const { (*out)[order_[j]] = std::move(v); }

  bool Peers(size_t a, size_t b) const {
    for (size_t k = 0; k < w_.order_by.size(); ++k) {
      if (CompareForSort(Row(a).order[k], Row(b).order[k], w_.order_by[k]) != 0) return false;
    }
    return true;
  }

  // The frame of row j as [first, last] positions; empty when first > last.
  void FrameOf(size_t j, int64_t* first, int64_t* last) const {
    const auto at = [&](FrameBound bound, int64_t offset, bool start) -> int64_t {
      switch (bound) {
        case FrameBound::kUnboundedPreceding: return 0;
        case FrameBound::kUnboundedFollowing: return static_cast<int64_t>(m_) - 1;
        case FrameBound::kPreceding: return static_cast<int64_t>(j) - offset;
        case FrameBound::kFollowing: return static_cast<int64_t>(j) + offset;
        case FrameBound::kCurrentRow:
          if (w_.rows_frame) return static_cast<int64_t>(j);
          return static_cast<int64_t>(start ? peer_start_[j] : peer_end_[j]);
      }
      return 0;
    };
    *first = std::max<int64_t>(at(w_.start, start_offset_, true), 0);
    *last = std::min<int64_t>(at(w_.end, end_offset_, false), static_cast<int64_t>(m_) - 1);
  }

  Status Ntile(std::vector<Value>* out) const {
    if (m_ == 0) return Status::OK();
    const Value& n = Row(0).args[0];
    if (n.is_null()) {
      for (size_t j = 0; j < m_; ++j) Set(out, j, Value::Null(TypeId::kInt32));
      return Status::OK();
    }
    if (n.int_value() <= 0) {
      return Status(sqlstate::kInvalidArgumentForNtile, "argument of ntile must be greater than zero");
    }
    // m rows into n buckets: the first (m mod n) buckets get one row more.
    const size_t buckets = static_cast<size_t>(n.int_value());
    const size_t per = m_ / buckets, extra = m_ % buckets;
    size_t j = 0;
    for (size_t b = 0; b < buckets && j < m_; ++b) {
      size_t size = per + (b < extra ? 1 : 0);
      for (size_t k = 0; k < size && j < m_; ++k, ++j) Set(out, j, Value::Int32(static_cast<int32_t>(b + 1)));
    }
    return Status::OK();
  }

  Status LagLead(std::vector<Value>* out) const {
    for (size_t j = 0; j < m_; ++j) {
      const WindowInputs& row = Row(j);
      int64_t offset = 1;
      if (row.args.size() > 1) {
        if (row.args[1].is_null()) {
          Set(out, j, Value::Null(w_.type.id));
          continue;
        }
        offset = row.args[1].int_value();
      }
      int64_t target = static_cast<int64_t>(j) + (w_.kind == WindowFunctionKind::kLag ? -offset : offset);
      if (target >= 0 && target < static_cast<int64_t>(m_)) {
        Set(out, j, Row(static_cast<size_t>(target)).args[0]);
      } else {
        Set(out, j, row.args.size() > 2 ? row.args[2] : Value::Null(w_.type.id));
      }
    }
    return Status::OK();
  }

  Status FrameValue(std::vector<Value>* out) const {
    for (size_t j = 0; j < m_; ++j) {
      int64_t first = 0, last = 0;
      FrameOf(j, &first, &last);
      int64_t pick = w_.kind == WindowFunctionKind::kFirstValue ? first : last;
      if (w_.kind == WindowFunctionKind::kNthValue) {
        const Value& n = Row(j).args[1];
        if (n.is_null()) {
          Set(out, j, Value::Null(w_.type.id));
          continue;
        }
        if (n.int_value() <= 0) {
          return Status(sqlstate::kInvalidArgumentForNthValue, "argument of nth_value must be greater than zero");
        }
        pick = first + n.int_value() - 1;
      }
      bool inside = first <= last && pick >= first && pick <= last;
      Set(out, j, inside ? Row(static_cast<size_t>(pick)).args[0] : Value::Null(w_.type.id));
    }
    return Status::OK();
  }

  Status Add(size_t j, AggregateState* state) const {
    const AggregateSpec& spec = w_.aggregate;
    static const Value kNoSeparator;
    const WindowInputs& row = Row(j);
    return Accumulate(spec, spec.arg ? row.args[0] : kNoSeparator, spec.separator ? row.args[1] : kNoSeparator,
                      state);
  }

  Status Aggregate(std::vector<Value>* out) const {
    const bool running = w_.start == FrameBound::kUnboundedPreceding;
    AggregateState running_state;
    int64_t added = -1;  // the last position in running_state
    for (size_t j = 0; j < m_; ++j) {
      int64_t first = 0, last = 0;
      FrameOf(j, &first, &last);
      Value v;
      if (running) {
        while (added < last) PL_RETURN_IF_ERROR(Add(static_cast<size_t>(++added), &running_state));
        PL_RETURN_IF_ERROR(Finish(w_.aggregate, running_state, &v));
      } else {
        AggregateState state;
        for (int64_t k = first; k <= last; ++k) PL_RETURN_IF_ERROR(Add(static_cast<size_t>(k), &state));
        PL_RETURN_IF_ERROR(Finish(w_.aggregate, state, &v));
      }
      Set(out, j, std::move(v));
    }
    return Status::OK();
  }

  const WindowSpec& w_;
  const std::vector<WindowInputs>& in_;
  const size_t* order_;
  size_t m_;
  int64_t start_offset_;
  int64_t end_offset_;
  std::vector<size_t> peer_start_;
  std::vector<size_t> peer_end_;
};

}  // namespace

Status Executor::ComputeWindows(const SelectPlan& plan, std::vector<std::vector<Value>>* rows) {
  const size_t n = rows->size();
  const SortKey partition_order;  // partitions: ascending, NULLs together last
  for (const WindowSpec& w : plan.windows) {
    std::vector<WindowInputs> in(n);
    for (size_t i = 0; i < n; ++i) {
      PL_RETURN_IF_ERROR(Tick());
      ctx_.slots = (*rows)[i].data();
      WindowInputs& x = in[i];
      x.partition.resize(w.partition_by.size());
      x.order.resize(w.order_by.size());
      for (size_t k = 0; k < w.partition_by.size(); ++k) {
        PL_RETURN_IF_ERROR(Evaluate(*w.partition_by[k], ctx_, &x.partition[k]));
      }
      for (size_t k = 0; k < w.order_by.size(); ++k) PL_RETURN_IF_ERROR(Evaluate(*w.order_by[k].expr, ctx_, &x.order[k]));
      if (w.kind == WindowFunctionKind::kAggregate) {
        x.args.resize(2);
        if (w.aggregate.arg) PL_RETURN_IF_ERROR(Evaluate(*w.aggregate.arg, ctx_, &x.args[0]));
        if (w.aggregate.separator) PL_RETURN_IF_ERROR(Evaluate(*w.aggregate.separator, ctx_, &x.args[1]));
      } else {
        x.args.resize(w.args.size());
        for (size_t k = 0; k < w.args.size(); ++k) PL_RETURN_IF_ERROR(Evaluate(*w.args[k], ctx_, &x.args[k]));
      }
    }
    ctx_.slots = nullptr;
    int64_t start_offset = -1, end_offset = -1;
    PL_RETURN_IF_ERROR(FrameOffset(w.start_offset.get(), ctx_, "starting", &start_offset));
    PL_RETURN_IF_ERROR(FrameOffset(w.end_offset.get(), ctx_, "ending", &end_offset));

    auto partition_compare = [&](size_t a, size_t b) {
      for (size_t k = 0; k < w.partition_by.size(); ++k) {
        int c = CompareForSort(in[a].partition[k], in[b].partition[k], partition_order);
        if (c != 0) return c;
      }
      return 0;
    };
    std::vector<size_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      if (int c = partition_compare(a, b); c != 0) return c < 0;
      for (size_t k = 0; k < w.order_by.size(); ++k) {
        int c = CompareForSort(in[a].order[k], in[b].order[k], w.order_by[k]);
        if (c != 0) return c < 0;
      }
      return false;
    });
    std::vector<Value> values(n);
    for (size_t first = 0; first < n;) {
      size_t end = first + 1;
      while (end < n && partition_compare(order[first], order[end]) == 0) ++end;
      PartitionWalk walk(w, in, order.data() + first, end - first, start_offset, end_offset);
      PL_RETURN_IF_ERROR(walk.Run(&values));
      first = end;
    }
    for (size_t i = 0; i < n; ++i) (*rows)[i].push_back(std::move(values[i]));
  }
  return Status::OK();
}

}  // namespace paceline::sql
