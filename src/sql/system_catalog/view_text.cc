// QualifyRelations (see view_text.h).
#include "sql/system_catalog/view_text.h"

#include <algorithm>
#include <cctype>
#include <memory>
#include <vector>

#include "sql/ast.h"
#include "sql/parser.h"

namespace paceline::sql {

namespace {

// Collects the offsets of the names to qualify, WITH names in scope kept
// on a stack.
class RelationWalker {
 public:
  RelationWalker(const std::string& text, bool qualify, const std::function<bool(const std::string&)>& is_user_relation)
      : text_(text), qualify_(qualify), is_user_relation_(is_user_relation) {}

  void Query(const SelectStmt& q) {
    const size_t scope = ctes_.size();
    for (const CommonTableExpr& cte : q.with) {
      ctes_.push_back(cte.name);  // visible to the later ones and, recursive, to itself
      if (cte.query) Query(*cte.query);
    }
    if (q.set_left) Query(*q.set_left);
    if (q.set_right) Query(*q.set_right);
    for (const SelectItem& item : q.targets) Expression(item.expr);
    for (const auto& item : q.from) From(*item);
    Expression(q.where);
    for (const ExprPtr& e : q.group_by) Expression(e);
    Expression(q.having);
    for (const OrderItem& o : q.order_by) Expression(o.expr);
    for (const auto& w : q.windows) Window(w.get());
    Expression(q.limit);
    Expression(q.offset);
    for (const auto& row : q.values) {
      for (const ExprPtr& e : row) Expression(e);
    }
    ctes_.resize(scope);
  }

  // Offsets where "public." goes in (qualify) or comes out.
  std::vector<int> TakeOffsets() { return std::move(offsets_); }

 private:
  void From(const FromItem& item) {
    if (item.is_join) {
      if (item.left) From(*item.left);
      if (item.right) From(*item.right);
      Expression(item.on);
      return;
    }
    if (item.subquery) {
      Query(*item.subquery);
      return;
    }
    if (item.function) {
      Expression(item.function);
      return;
    }
    for (const auto& member : item.rows_from) From(*member);
    if (!item.rows_from.empty()) return;
    const TableRef& t = item.table;
    if (t.location < 0 || static_cast<size_t>(t.location) >= text_.size()) return;
    if (t.schema.empty() && std::find(ctes_.begin(), ctes_.end(), t.name) != ctes_.end()) return;
    if (!is_user_relation_(t.name)) return;
    if (qualify_ && t.schema.empty()) offsets_.push_back(t.location);
    // Out only where the text spells it plainly ("public.t", any case).
    if (!qualify_ && t.schema == "public" && text_.size() >= t.location + kPublic.size()) {
      std::string written = text_.substr(t.location, kPublic.size());
      for (char& c : written) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (written == kPublic) offsets_.push_back(t.location);
    }
  }

  void Expression(const ExprPtr& e) {
    if (!e) return;
    Expression(e->left);
    Expression(e->right);
    for (const ExprPtr& x : e->list) Expression(x);
    for (const CaseWhen& w : e->whens) {
      Expression(w.condition);
      Expression(w.result);
    }
    Expression(e->else_result);
    for (const OrderItem& o : e->agg_order) Expression(o.expr);
    Window(e->over.get());
    if (e->subquery) Query(*e->subquery);
  }

  void Window(const WindowDefinition* w) {
    if (w == nullptr) return;
    for (const ExprPtr& e : w->partition_by) Expression(e);
    for (const OrderItem& o : w->order_by) Expression(o.expr);
  }

  static constexpr std::string_view kPublic = "public.";
  const std::string& text_;
  const bool qualify_;
  const std::function<bool(const std::string&)>& is_user_relation_;
  std::vector<std::string> ctes_;
  std::vector<int> offsets_;
};

}  // namespace

std::string QualifyRelations(const std::string& definition, bool qualify,
                             const std::function<bool(const std::string&)>& is_user_relation) {
  std::vector<std::unique_ptr<Statement>> parsed;
  if (!Parse(definition, &parsed).ok() || parsed.size() != 1 || parsed[0]->kind != StatementKind::kCreateView ||
      !parsed[0]->create_view->query) {
    return definition;
  }
  RelationWalker walker(definition, qualify, is_user_relation);
  walker.Query(*parsed[0]->create_view->query);
  std::vector<int> offsets = walker.TakeOffsets();
  std::sort(offsets.rbegin(), offsets.rend());
  offsets.erase(std::unique(offsets.begin(), offsets.end()), offsets.end());
  std::string out = definition;
  for (int at : offsets) {  // from the end, so the earlier offsets stay right
    if (qualify) {
      out.insert(static_cast<size_t>(at), "public.");
    } else {
      out.erase(static_cast<size_t>(at), 7);
    }
  }
  return out;
}

}  // namespace paceline::sql
