// ExpressionText (see expression_text.h).
#include "sql/explain/expression_text.h"

#include "sql/binder.h"

namespace paceline::sql {

namespace {

// " = ", " ~~ ", " AND ": an infix operator with its spaces.
std::string CompareText(BinaryOp op) { return " " + bind::OperatorText(op) + " "; }

const char* TestText(BoolTest test) {
  switch (test) {
    case BoolTest::kTrue: return " IS TRUE";
    case BoolTest::kNotTrue: return " IS NOT TRUE";
    case BoolTest::kFalse: return " IS FALSE";
    case BoolTest::kNotFalse: return " IS NOT FALSE";
    case BoolTest::kUnknown: return " IS UNKNOWN";
    case BoolTest::kNotUnknown: return " IS NOT UNKNOWN";
  }
  return "";
}

// The operator a function stands for (json's, arrays' and regular
// expressions'), "" for a function called by name.
const char* OperatorOf(ScalarFunction f) {
  switch (f) {
    case ScalarFunction::kJsonGet: return " -> ";
    case ScalarFunction::kJsonGetText: return " ->> ";
    case ScalarFunction::kJsonPath: return " #> ";
    case ScalarFunction::kJsonPathText: return " #>> ";
    case ScalarFunction::kJsonContains: return " @> ";
    case ScalarFunction::kJsonExists: return " ? ";
    case ScalarFunction::kJsonExistsAny: return " ?| ";
    case ScalarFunction::kJsonExistsAll: return " ?& ";
    case ScalarFunction::kJsonConcat: return " || ";
    case ScalarFunction::kJsonDelete: return " - ";
    case ScalarFunction::kJsonDeletePath: return " #- ";
    case ScalarFunction::kArrayContains: return " @> ";
    case ScalarFunction::kArrayContained: return " <@ ";
    case ScalarFunction::kArrayOverlap: return " && ";
    case ScalarFunction::kRegexMatch: return " ~ ";
    case ScalarFunction::kRegexMatchCi: return " ~* ";
    default: return "";
  }
}

}  // namespace

ExprScope ExprScope::OfQuery(const SelectPlan& plan, const ExprScope* outer) {
  ExprScope scope;
  scope.outer = outer;
  scope.qualify = plan.sources.size() > 1 || outer != nullptr;
  for (const SourcePlan& s : plan.sources) {
    if (s.table) {
      scope.sources.push_back(OfTable(*s.table, s.alias));
      continue;
    }
    Source source;
    source.alias = s.alias;
    for (const auto& c : s.derived->columns) source.columns.push_back(c.name);
    scope.sources.push_back(std::move(source));
  }
  return scope;
}

ExprScope::Source ExprScope::OfTable(const storage::Table& table, const std::string& alias) {
  Source source;
  source.alias = alias.empty() ? table.name() : alias;
  for (const auto& c : table.schema().columns) source.columns.push_back(c.name);
  return source;
}

std::string ExpressionText::Column(const ExprScope& scope, int source, int column) {
  if (source < 0 || static_cast<size_t>(source) >= scope.sources.size()) return "?column?";
  const ExprScope::Source& s = scope.sources[static_cast<size_t>(source)];
  const std::string name =
      column >= 0 && static_cast<size_t>(column) < s.columns.size() ? s.columns[static_cast<size_t>(column)] : "?column?";
  return scope.qualify && !s.alias.empty() ? s.alias + "." + name : name;
}

std::string ExpressionText::Write(const BoundExpr& e, const ExprScope& scope) const {
  std::string out;
  Append(e, scope, &out);
  return out;
}

void ExpressionText::AppendConstant(const Value& v, const Type& type, std::string* out) const {
  if (v.is_null()) {
    out->append("NULL::").append(type.ToString());
    return;
  }
  if (type.IsNumber()) {
    out->append(v.ToString());
    return;
  }
  if (type.id == TypeId::kBool) {
    out->append(v.bool_value() ? "true" : "false");
    return;
  }
  out->push_back('\'');
  for (char c : v.ToString()) {
    if (c == '\'') out->push_back('\'');
    out->push_back(c);
  }
  out->append("'::").append(type.ToString());
}

void ExpressionText::Append(const BoundExpr& e, const ExprScope& scope, std::string* out) const {
  auto child = [&](size_t i) {
    if (i < e.children.size()) Append(*e.children[i], scope, out);
  };
  switch (e.kind) {
    case BoundKind::kConstant:
      AppendConstant(e.constant, e.type, out);
      return;
    case BoundKind::kParameter:
      out->append("$").append(std::to_string(e.index + 1));
      return;
    case BoundKind::kColumn:
      out->append(Column(scope, e.source, e.index));
      return;
    case BoundKind::kSlot:
      if (e.index >= 0 && static_cast<size_t>(e.index) < scope.slots.size()) {
        out->append(scope.slots[static_cast<size_t>(e.index)]);
      } else {
        out->append("?column?");
      }
      return;
    case BoundKind::kOuterColumn: {
      const ExprScope* s = &scope;
      for (int d = 0; d < e.depth && s != nullptr; ++d) s = s->outer;
      if (s == nullptr) {
        out->append("?column?");
        return;
      }
      ExprScope qualified = *s;
      qualified.qualify = true;
      out->append(Column(qualified, e.source, e.index));
      return;
    }
    case BoundKind::kNegate:
      out->append("(- ");
      child(0);
      out->append(")");
      return;
    case BoundKind::kNot:
      out->append("(NOT ");
      child(0);
      out->append(")");
      return;
    case BoundKind::kArithmetic: case BoundKind::kCompare: case BoundKind::kLike:
      out->append("(");
      child(0);
      out->append(CompareText(e.op));
      child(1);
      out->append(")");
      return;
    case BoundKind::kConcat:
      out->append("(");
      child(0);
      out->append(" || ");
      child(1);
      out->append(")");
      return;
    case BoundKind::kAnd: case BoundKind::kOr:
      out->append("(");
      for (size_t i = 0; i < e.children.size(); ++i) {
        if (i > 0) out->append(e.kind == BoundKind::kAnd ? " AND " : " OR ");
        child(i);
      }
      out->append(")");
      return;
    case BoundKind::kIsNull:
      out->append("(");
      child(0);
      out->append(e.negated ? " IS NOT NULL)" : " IS NULL)");
      return;
    case BoundKind::kIsBool:
      out->append("(");
      child(0);
      out->append(TestText(e.test)).append(")");
      return;
    case BoundKind::kIn:
      // PostgreSQL's form of IN (list): = ANY (ARRAY[..]).
      out->append("(");
      child(0);
      out->append(e.negated ? " <> ALL (ARRAY[" : " = ANY (ARRAY[");
      for (size_t i = 1; i < e.children.size(); ++i) {
        if (i > 1) out->append(", ");
        child(i);
      }
      out->append("]))");
      return;
    case BoundKind::kCase: {
      out->append("CASE");
      size_t i = 0;
      if (e.has_operand) {
        out->append(" ");
        child(i++);
      }
      const size_t pairs_end = e.children.size() - (e.has_else ? 1 : 0);
      for (; i + 2 <= pairs_end; i += 2) {
        out->append(" WHEN ");
        child(i);
        out->append(" THEN ");
        child(i + 1);
      }
      if (e.has_else) {
        out->append(" ELSE ");
        child(e.children.size() - 1);
      }
      out->append(" END");
      return;
    }
    case BoundKind::kCast:
      out->append("(");
      child(0);
      out->append(")::").append(e.type.ToString());
      return;
    case BoundKind::kFunction: {
      if (const char* op = OperatorOf(e.function); op[0] != '\0' && e.children.size() == 2) {
        out->append("(");
        child(0);
        out->append(op);
        child(1);
        out->append(")");
        return;
      }
      std::string_view name = Binder::FunctionName(e.function);
      out->append(name.empty() ? "function" : std::string(name)).append("(");
      for (size_t i = 0; i < e.children.size(); ++i) {
        if (i > 0) out->append(", ");
        child(i);
      }
      out->append(")");
      return;
    }
    case BoundKind::kSubquery: {
      const std::string label = subplan_ && e.subquery ? subplan_(*e.subquery) : "SubPlan";
      const SubqueryKind kind = e.subquery ? e.subquery->kind : SubqueryKind::kScalar;
      if (kind == SubqueryKind::kAny || kind == SubqueryKind::kAll) {
        out->append("(");
        child(0);
        out->append(CompareText(e.op)).append(kind == SubqueryKind::kAny ? "ANY (" : "ALL (");
        out->append(label).append("))");
        return;
      }
      if (kind == SubqueryKind::kArray) {
        out->append("ARRAY(").append(label).append(")");
        return;
      }
      out->append("(").append(label).append(")");
      return;
    }
    case BoundKind::kArray:
      out->append("ARRAY[");
      for (size_t i = 0; i < e.children.size(); ++i) {
        if (i > 0) out->append(", ");
        child(i);
      }
      out->append("]");
      return;
    case BoundKind::kSubscript:
      out->append("(");
      child(0);
      out->append(")[");
      child(1);
      out->append("]");
      return;
    case BoundKind::kArrayCompare:
      out->append("(");
      child(0);
      out->append(CompareText(e.op)).append(e.negated ? "ALL (" : "ANY (");
      child(1);
      out->append("))");
      return;
    case BoundKind::kRow:
      out->append("ROW(");
      for (size_t i = 0; i < e.children.size(); ++i) {
        if (i > 0) out->append(", ");
        child(i);
      }
      out->append(")");
      return;
    case BoundKind::kRowCompare:  // (ROW(x1, x2) < ROW(y1, y2))
      for (size_t side = 0; side < 2; ++side) {
        out->append(side == 0 ? "(ROW(" : CompareText(e.op) + "ROW(");
        for (size_t i = side; i < e.children.size(); i += 2) {
          if (i > side) out->append(", ");
          child(i);
        }
        out->append(")");
      }
      out->append(")");
      return;
    case BoundKind::kFieldSelect: {
      const auto& fields = e.children[0]->type.fields;
      out->append("(");
      child(0);
      out->append(").").append(fields != nullptr ? (*fields)[e.index].name : "?");
      return;
    }
  }
  out->append("?");
}

}  // namespace paceline::sql
