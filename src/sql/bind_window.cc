// Binder: window functions (see binder.h, binder_internal.h, plan.h's
// WindowSpec).
//
// `f(args) OVER (PARTITION BY p ORDER BY o frame)` is bound in the select
// list or ORDER BY of a query: its window (inline, or named in the WINDOW
// clause and refined inline) and arguments become a WindowSpec of the
// query's plan, and the call becomes a placeholder slot. Once the whole
// query is bound, FinishWindows fixes the row the window stage works on —
// the group row of an aggregated query, else the columns read above the
// windows, each replaced by a slot — and points the placeholders at the
// slots after it, where the window values are put.
#include "sql/binder_internal.h"

#include <algorithm>

namespace paceline::sql {

using namespace bind;  // NOLINT: the binder's own helpers

namespace {

// Window placeholders are slots from here on until FinishWindows.
constexpr int kWindowPlaceholder = 1 << 24;

using Frame = WindowDefinition;

struct WindowFunctionInfo {
  const char* name;
  WindowFunctionKind kind;
  size_t min_args;
  size_t max_args;
};

constexpr WindowFunctionInfo kWindowFunctions[] = {
    {"row_number", WindowFunctionKind::kRowNumber, 0, 0},
    {"rank", WindowFunctionKind::kRank, 0, 0},
    {"dense_rank", WindowFunctionKind::kDenseRank, 0, 0},
    {"percent_rank", WindowFunctionKind::kPercentRank, 0, 0},
    {"cume_dist", WindowFunctionKind::kCumeDist, 0, 0},
    {"ntile", WindowFunctionKind::kNtile, 1, 1},
    {"lag", WindowFunctionKind::kLag, 1, 3},
    {"lead", WindowFunctionKind::kLead, 1, 3},
    {"first_value", WindowFunctionKind::kFirstValue, 1, 1},
    {"last_value", WindowFunctionKind::kLastValue, 1, 1},
    {"nth_value", WindowFunctionKind::kNthValue, 2, 2},
};

Status WindowingError(std::string message, int pos) {
  return Status(sqlstate::kWindowingError, std::move(message), pos);
}

// Replaces every column read above the windows by a slot of the window
// stage's input row, adding the column to `inputs` the first time.
Status ReplaceColumns(BoundExprPtr* e, std::vector<BoundExprPtr>* inputs) {
  BoundExpr& x = **e;
  if (x.kind == BoundKind::kColumn) {
    size_t i = 0;
    while (i < inputs->size() && !(*inputs)[i]->Equals(x)) ++i;
    if (i == inputs->size()) inputs->push_back(x.Clone());
    *e = BoundExpr::Slot(static_cast<int>(i), x.type);
    return Status::OK();
  }
  if (x.kind == BoundKind::kSubquery && !x.subquery->outer_sources.empty()) {
    return Status(sqlstate::kFeatureNotSupported,
                  "a correlated subquery in a query with window functions is not supported by Paceline");
  }
  for (auto& c : x.children) PL_RETURN_IF_ERROR(ReplaceColumns(&c, inputs));
  return Status::OK();
}

// Points window placeholders at slot base + w.
void PlaceWindowSlots(BoundExpr* e, int base) {
  if (e->kind == BoundKind::kSlot && e->index >= kWindowPlaceholder) e->index = base + (e->index - kWindowPlaceholder);
  for (auto& c : e->children) PlaceWindowSlots(c.get(), base);
}

// Every expression of a window, for the passes over them.
template <typename Fn>
Status ForEachWindowExpr(WindowSpec* w, Fn fn) {
  for (auto& a : w->args) PL_RETURN_IF_ERROR(fn(&a));
  if (w->aggregate.arg) PL_RETURN_IF_ERROR(fn(&w->aggregate.arg));
  if (w->aggregate.separator) PL_RETURN_IF_ERROR(fn(&w->aggregate.separator));
  for (auto& p : w->partition_by) PL_RETURN_IF_ERROR(fn(&p));
  for (auto& k : w->order_by) PL_RETURN_IF_ERROR(fn(&k.expr));
  return Status::OK();
}

}  // namespace

namespace bind {

void AddWindowFunctionNames(std::vector<std::string_view>* out) {
  for (const auto& f : kWindowFunctions) out->push_back(f.name);
}

}  // namespace bind

Status Binder::BindWindowFunction(const Expr& e, Context& ctx, BoundExprPtr* out) {
  const std::string& name = e.function_name;
  if (ctx.in_aggregate) {
    return Status(sqlstate::kGroupingError, "aggregate function calls cannot contain window function calls",
                  Pos(e.location));
  }
  if (ctx.in_window) return WindowingError("window function calls cannot be nested", Pos(e.location));
  if (ctx.window_plan == nullptr) {
    return WindowingError(std::string("window functions are not allowed in ") + ctx.clause, Pos(e.location));
  }
  WindowSpec spec;
  if (IsAggregateName(name)) {
    if (!e.agg_order.empty()) {
      return Status(sqlstate::kFeatureNotSupported, "aggregate ORDER BY is not implemented for window functions",
                    Pos(e.location));
    }
    if (e.distinct) {
      return Status(sqlstate::kFeatureNotSupported, "DISTINCT is not implemented for window functions",
                    Pos(e.location));
    }
    spec.kind = WindowFunctionKind::kAggregate;
    PL_RETURN_IF_ERROR(BindAggregateSpec(e, ctx, true, &spec.aggregate));
    spec.type = spec.aggregate.type;
  } else {
    const WindowFunctionInfo* info = nullptr;
    for (const auto& f : kWindowFunctions) {
      if (name == f.name) info = &f;
    }
    if (info == nullptr && IsScalarFunctionName(name)) {
      return Status(sqlstate::kWrongObjectType,
                    "OVER specified, but " + name + " is not a window function nor an aggregate function",
                    Pos(e.location));
    }
    if (info == nullptr || e.list.size() < info->min_args || e.list.size() > info->max_args) {
      std::string sig;
      for (const auto& a : e.list) {
        BoundExprPtr b;
        ctx.in_window = true;
        Status s = BindExpr(*a, ctx, &b);
        ctx.in_window = false;
        PL_RETURN_IF_ERROR(s);
        sig += (sig.empty() ? "" : ", ") + TypeText(b->type);
      }
      return Status(sqlstate::kUndefinedFunction, "function " + name + "(" + sig + ") does not exist",
                    Pos(e.location));
    }
    if (e.distinct || e.star) {
      return SyntaxError("DISTINCT or * specified, but " + name + " is not an aggregate function", Pos(e.location));
    }
    spec.kind = info->kind;
    ctx.in_window = true;
    Status s = Status::OK();
    for (const auto& a : e.list) {
      BoundExprPtr b;
      s = BindExpr(*a, ctx, &b);
      if (!s.ok()) break;
      spec.args.push_back(std::move(b));
    }
    ctx.in_window = false;
    PL_RETURN_IF_ERROR(s);
    switch (spec.kind) {
      case WindowFunctionKind::kRowNumber: case WindowFunctionKind::kRank: case WindowFunctionKind::kDenseRank:
        spec.type = Type(TypeId::kInt64);
        break;
      case WindowFunctionKind::kPercentRank: case WindowFunctionKind::kCumeDist:
        spec.type = Type(TypeId::kFloat64);
        break;
      case WindowFunctionKind::kNtile:
        PL_RETURN_IF_ERROR(Coerce(&spec.args[0], Type(TypeId::kInt32), false, e.location));
        spec.type = Type(TypeId::kInt32);
        break;
      case WindowFunctionKind::kLag: case WindowFunctionKind::kLead:
        if (spec.args.size() > 1) PL_RETURN_IF_ERROR(Coerce(&spec.args[1], Type(TypeId::kInt32), false, e.location));
        if (spec.args.size() > 2) {
          // lag(anycompatible, integer, anycompatible): value and default meet.
          PL_RETURN_IF_ERROR(CommonType({spec.args[0].get(), spec.args[2].get()}, "lag", e.location, &spec.type));
          PL_RETURN_IF_ERROR(Coerce(&spec.args[0], spec.type, false, e.location));
          PL_RETURN_IF_ERROR(Coerce(&spec.args[2], spec.type, false, e.location));
        }
        [[fallthrough]];
      case WindowFunctionKind::kFirstValue: case WindowFunctionKind::kLastValue: case WindowFunctionKind::kNthValue:
        if (IsUnknown(*spec.args[0])) PL_RETURN_IF_ERROR(Coerce(&spec.args[0], Type(TypeId::kText), false, e.location));
        if (spec.kind == WindowFunctionKind::kNthValue) {
          PL_RETURN_IF_ERROR(Coerce(&spec.args[1], Type(TypeId::kInt32), false, e.location));
        }
        spec.type = spec.args[0]->type;
        break;
      case WindowFunctionKind::kAggregate:
        break;
    }
  }
  PL_RETURN_IF_ERROR(BindWindowDefinition(*e.over, ctx, &spec));
  SelectPlan* plan = ctx.window_plan;
  *out = BoundExpr::Slot(kWindowPlaceholder + static_cast<int>(plan->windows.size()), spec.type);
  (*out)->location = e.location;
  plan->windows.push_back(std::move(spec));
  return Status::OK();
}

Status Binder::BindWindowDefinition(const WindowDefinition& over, Context& ctx, WindowSpec* spec) {
  // OVER w copies the named window; OVER (w ..) refines it: it may add an
  // ORDER BY and a frame, nothing else.
  const WindowDefinition* base = nullptr;
  const std::string& ref = !over.refname.empty() ? over.refname : over.name;
  if (!ref.empty()) {
    if (ctx.window_stmt != nullptr) {
      for (const auto& w : ctx.window_stmt->windows) {
        if (w->name == ref) base = w.get();
      }
    }
    if (base == nullptr) return Status(sqlstate::kUndefinedObject, "window \"" + ref + "\" does not exist", Pos(over.location));
    if (!base->refname.empty()) {
      return Status(sqlstate::kFeatureNotSupported, "a named window that refers to another window is not supported by Paceline",
                    Pos(base->location));
    }
  }
  const WindowDefinition* frame_source = &over;
  if (base != nullptr && over.refname.empty()) {
    frame_source = base;  // OVER w
  } else if (base != nullptr) {
    if (!over.partition_by.empty()) {
      return WindowingError("cannot override PARTITION BY clause of window \"" + ref + "\"", Pos(over.location));
    }
    if (!over.order_by.empty() && !base->order_by.empty()) {
      return WindowingError("cannot override ORDER BY clause of window \"" + ref + "\"", Pos(over.location));
    }
    if (base->frame_options & Frame::kFrameNonDefault) {
      return WindowingError("cannot copy window \"" + ref + "\" because it has a frame clause", Pos(over.location));
    }
  }
  const auto& partition = base != nullptr ? base->partition_by : over.partition_by;
  const auto& order = base != nullptr && !base->order_by.empty() ? base->order_by : over.order_by;

  ctx.in_window = true;
  auto bind_all = [&]() -> Status {
    ctx.clause = "window definition";
    for (const auto& p : partition) {
      BoundExprPtr b;
      PL_RETURN_IF_ERROR(BindExpr(*p, ctx, &b));
      if (IsUnknown(*b)) PL_RETURN_IF_ERROR(Coerce(&b, Type(TypeId::kText), false, p->location));
      spec->partition_by.push_back(std::move(b));
    }
    for (const auto& o : order) {
      SortKey key;
      key.descending = o.descending;
      key.nulls_first = o.nulls_first.value_or(o.descending);
      PL_RETURN_IF_ERROR(BindExpr(*o.expr, ctx, &key.expr));
      if (IsUnknown(*key.expr)) PL_RETURN_IF_ERROR(Coerce(&key.expr, Type(TypeId::kText), false, o.expr->location));
      spec->order_by.push_back(std::move(key));
    }
    return Status::OK();
  };
  const char* clause = ctx.clause;
  Status s = bind_all();
  ctx.in_window = false;
  ctx.clause = clause;
  PL_RETURN_IF_ERROR(s);

  const int f = frame_source->frame_options;
  if (!(f & Frame::kFrameNonDefault)) return Status::OK();
  if (f & Frame::kFrameGroups) return NotSupported("GROUPS frames");
  if (f & Frame::kFrameExclusions) return NotSupported("frame EXCLUDE clauses");
  spec->rows_frame = (f & Frame::kFrameRows) != 0;
  const bool offsets = f & (Frame::kFrameStartOffsetPreceding | Frame::kFrameStartOffsetFollowing |
                            Frame::kFrameEndOffsetPreceding | Frame::kFrameEndOffsetFollowing);
  if (!spec->rows_frame && offsets) return NotSupported("RANGE frames with an offset PRECEDING or FOLLOWING");
  spec->start = (f & Frame::kFrameStartUnboundedPreceding) ? FrameBound::kUnboundedPreceding
                : (f & Frame::kFrameStartCurrentRow)      ? FrameBound::kCurrentRow
                : (f & Frame::kFrameStartOffsetPreceding) ? FrameBound::kPreceding
                                                          : FrameBound::kFollowing;
  spec->end = (f & Frame::kFrameEndUnboundedFollowing) ? FrameBound::kUnboundedFollowing
              : (f & Frame::kFrameEndOffsetPreceding)  ? FrameBound::kPreceding
              : (f & Frame::kFrameEndOffsetFollowing)  ? FrameBound::kFollowing
                                                       : FrameBound::kCurrentRow;
  // Offsets are counts known before the rows: no column, no window function.
  Context counts;
  for (auto [expr, bound] : {std::pair{frame_source->start_offset.get(), &spec->start_offset},
                             std::pair{frame_source->end_offset.get(), &spec->end_offset}}) {
    if (expr == nullptr) continue;
    counts.clause = "window frame";
    counts.scope = ctx.scope;
    PL_RETURN_IF_ERROR(BindExpr(*expr, counts, bound));
    if (ContainsColumn(**bound)) {
      return Status(sqlstate::kInvalidColumnReference, "argument of ROWS must not contain variables",
                    Pos(expr->location));
    }
    PL_RETURN_IF_ERROR(Coerce(bound, Type(TypeId::kInt64), false, expr->location));
  }
  return Status::OK();
}

Status Binder::FinishWindows(SelectPlan* plan) {
  if (plan->windows.empty()) return Status::OK();
  int base = 0;
  if (plan->aggregate) {
    base = static_cast<int>(plan->group_by.size() + plan->aggregates.size());
    for (auto& w : plan->windows) {
      PL_RETURN_IF_ERROR(ForEachWindowExpr(&w, [&](BoundExprPtr* e) { return ApplyGrouping(e, *plan, -1); }));
    }
  } else {
    auto replace = [&](BoundExprPtr* e) { return ReplaceColumns(e, &plan->window_inputs); };
    for (auto& w : plan->windows) PL_RETURN_IF_ERROR(ForEachWindowExpr(&w, replace));
    for (auto& e : plan->outputs) PL_RETURN_IF_ERROR(replace(&e));
    for (auto& k : plan->order_by) PL_RETURN_IF_ERROR(replace(&k.expr));
    base = static_cast<int>(plan->window_inputs.size());
  }
  for (auto& e : plan->outputs) PlaceWindowSlots(e.get(), base);
  for (auto& k : plan->order_by) PlaceWindowSlots(k.expr.get(), base);
  return Status::OK();
}

void Binder::FinalizeParameters(WindowSpec* w) const {
  Status ignored = ForEachWindowExpr(w, [&](BoundExprPtr* e) {
    FinalizeParameters(e->get());
    return Status::OK();
  });
  (void)ignored;
  FinalizeParameters(w->start_offset.get());
  FinalizeParameters(w->end_offset.get());
}

}  // namespace paceline::sql
