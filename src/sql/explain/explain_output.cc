// ExplainOutput (see explain_output.h).
#include "sql/explain/explain_output.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

#include <nlohmann/json.hpp>

namespace paceline::sql {

namespace {

using Json = nlohmann::ordered_json;

// "Seq Scan on t", "Index Scan using t_pkey on t x", "Hash Left Join",
// "HashAggregate", "Insert on t": PostgreSQL's text title of a node.
std::string Title(const ExplainNode& n) {
  std::string title = n.type;
  if (n.type == "ModifyTable") {
    title = n.operation;
  } else if (n.type == "Aggregate" && n.strategy == "Hashed") {
    title = "HashAggregate";
  } else if (n.type == "SetOp") {
    title = "HashSetOp " + n.command;
  } else if (n.type == "Nested Loop") {
    if (n.join_type != "Inner") title += " " + n.join_type + " Join";
  } else if (n.type == "Hash Join") {
    if (n.join_type != "Inner") title = "Hash " + n.join_type + " Join";
  }
  if (!n.index.empty()) title += " using " + n.index;
  const std::string& target = !n.relation.empty() ? n.relation : n.function;
  if (!target.empty()) {
    title += " on " + target;
    if (!n.alias.empty() && n.alias != target) title += " " + n.alias;
  } else if (!n.alias.empty() && n.type != "Result") {
    title += " on " + (n.alias == "*VALUES*" || n.alias == "*SELECT*" ? "\"" + n.alias + "\"" : n.alias);
  }
  return title;
}

std::string Number(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

// Milliseconds as PostgreSQL's JSON writes them: three decimals.
double Ms(double ms) { return std::round(ms * 1000.0) / 1000.0; }

std::string Actual(const ExplainNode& n) {
  if (!n.has_counts) return "";
  if (!n.executed) return "  (never executed)";
  const std::string time = n.has_time ? "time=" + Number(n.startup_ms, 3) + ".." + Number(n.total_ms, 3) + " " : "";
  return "  (actual " + time + "rows=" + Number(n.rows_per_loop, 0) + " loops=" + std::to_string(n.loops) + ")";
}

// As PostgreSQL rounds it (%.0f: half to even).
uint64_t RemovedPerLoop(const ExplainNode& n) {
  return static_cast<uint64_t>(std::nearbyint(static_cast<double>(n.rows_removed) / std::max<uint64_t>(n.loops, 1)));
}

// Lines of `n`: its title at `indent` (after "->  " when `arrow`), its
// properties `props` spaces in.
void AppendText(const ExplainNode& n, size_t indent, bool arrow, std::vector<std::string>* out) {
  const size_t props = arrow ? indent + 6 : indent + 2;
  out->push_back(std::string(indent, ' ') + (arrow ? "->  " : "") + Title(n) + Actual(n));
  const std::string pad(props, ' ');
  for (const auto& [key, value] : n.properties) out->push_back(pad + key + ": " + value);
  for (const auto& [key, values] : n.lists) {
    std::string line = pad + key + ": ";
    for (size_t i = 0; i < values.size(); ++i) line += (i ? ", " : "") + values[i];
    out->push_back(std::move(line));
  }
  // Per loop, as PostgreSQL shows it; in text only when a row was removed.
  if (n.shows_removed && n.executed && n.rows_removed > 0) {
    out->push_back(pad + "Rows Removed by " + n.removed_by + ": " + std::to_string(RemovedPerLoop(n)));
  }
  for (const ExplainNode& child : n.children) {
    if (!child.subplan_name.empty()) {
      out->push_back(pad + child.subplan_name);
      AppendText(child, props + 2, true, out);
    } else {
      AppendText(child, arrow ? indent + 6 : indent + 2, true, out);
    }
  }
}

Json NodeJson(const ExplainNode& n) {
  Json j;
  j["Node Type"] = n.type;
  if (!n.parent.empty()) j["Parent Relationship"] = n.parent;
  if (!n.subplan_name.empty()) j["Subplan Name"] = n.subplan_name;
  if (!n.operation.empty()) j["Operation"] = n.operation;
  if (!n.strategy.empty()) j["Strategy"] = n.strategy;
  if (!n.command.empty()) j["Command"] = n.command;
  if (!n.join_type.empty()) j["Join Type"] = n.join_type;
  j["Parallel Aware"] = false;
  if (!n.index.empty()) j["Index Name"] = n.index;
  if (!n.relation.empty()) j["Relation Name"] = n.relation;
  if (!n.function.empty()) j["Function Name"] = n.function;
  if (!n.alias.empty()) j["Alias"] = n.alias;
  if (n.has_counts && n.has_time) {
    j["Actual Startup Time"] = Ms(n.startup_ms);
    j["Actual Total Time"] = Ms(n.total_ms);
  }
  if (n.has_counts) {
    j["Actual Rows"] = n.executed ? static_cast<uint64_t>(std::nearbyint(n.rows_per_loop)) : 0;
    j["Actual Loops"] = n.loops;
  }
  for (const auto& [key, values] : n.lists) j[key] = values;
  for (const auto& [key, value] : n.properties) j[key] = value;
  if (n.shows_removed && n.executed) j["Rows Removed by " + n.removed_by] = RemovedPerLoop(n);
  if (!n.children.empty()) {
    Json plans = Json::array();
    for (const ExplainNode& child : n.children) plans.push_back(NodeJson(child));
    j["Plans"] = std::move(plans);
  }
  return j;
}

std::string ReferenceText(const ExplainReference& r) {
  if (!r.known) return r.name + (r.laned ? " (laned)" : " (no evidence)");
  std::string text = r.name + " (" + (r.hot ? "hot" : "cold") + ", blamed aborts " + Number(r.blamed_aborts, 1) +
                     ", exposures " + Number(r.exposures, 1);
  if (!r.homes.empty()) {
    text += r.homes.size() == 1 ? ", home queue " : ", home queues ";
    for (size_t i = 0; i < r.homes.size(); ++i) text += (i ? " " : "") + std::to_string(r.homes[i]);
  }
  if (r.laned) text += ", laned";
  return text + ")";
}

std::string Joined(const std::vector<std::string>& names) {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) out += (i ? ", " : "") + names[i];
  return out.empty() ? "none" : out;
}

}  // namespace

std::vector<std::string> ExplainText(const ExplainNode& root, const ExplainFooter& footer) {
  std::vector<std::string> lines;
  AppendText(root, 0, false, &lines);
  if (!footer.scheduler.empty()) {
    lines.push_back("Scheduler: " + footer.scheduler +
                    (footer.form.empty() ? " (places without references)" : " (" + footer.form + " references)"));
    if (footer.references.empty()) lines.push_back("References: none");
    for (const ExplainReference& r : footer.references) lines.push_back("Reference: " + ReferenceText(r));
    if (!footer.other_form.empty()) {
      std::string label = footer.other_form;
      label[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(label[0])));
      lines.push_back(label + " References: " + Joined(footer.other_references));
    }
  }
  if (footer.has_execution_time) lines.push_back("Execution Time: " + Number(footer.execution_ms, 3) + " ms");
  return lines;
}

std::string ExplainJson(const ExplainNode& root, const ExplainFooter& footer) {
  Json top;
  top["Plan"] = NodeJson(root);
  if (!footer.scheduler.empty()) {
    Json p;
    p["Scheduler"] = footer.scheduler;
    p["Reference Form"] = footer.form.empty() ? Json() : Json(footer.form);
    Json refs = Json::array();
    for (const ExplainReference& r : footer.references) {
      Json ref;
      ref["Reference"] = r.name;
      ref["Known"] = r.known;
      ref["Blamed Aborts"] = r.blamed_aborts;
      ref["Exposures"] = r.exposures;
      ref["Hot"] = r.hot;
      ref["Home Queues"] = r.homes;
      ref["Laned"] = r.laned;
      refs.push_back(std::move(ref));
    }
    p["References"] = std::move(refs);
    if (!footer.other_form.empty()) {
      std::string key = footer.other_form;
      key[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(key[0])));
      p[key + " References"] = footer.other_references;
    }
    top["Paceline"] = std::move(p);
  }
  if (footer.has_execution_time) top["Execution Time"] = Ms(footer.execution_ms);
  Json all = Json::array();
  all.push_back(std::move(top));
  return all.dump(2);
}

}  // namespace paceline::sql
