// Session::RunExplain: EXPLAIN [ANALYZE] of one SELECT, INSERT, UPDATE or
// DELETE (see session.h). The plan comes from sql::PlanExplainer; after it,
// the references the scheduler would compute for the statement with these
// parameter values, each with what the policy has learned of it; ANALYZE
// runs the statement first (its writes happen, as in PostgreSQL) with
// sql::PlanCounters on its transaction.
#include <algorithm>
#include <chrono>

#include "engine/database.h"
#include "engine/footprint_builder.h"
#include "engine/session.h"
#include "engine/session_statement_gate.h"
#include "sql/explain/explain_output.h"
#include "sql/explain/plan_counters.h"
#include "sql/explain/plan_explainer.h"

namespace paceline::engine {

namespace {

const char* FormName(scheduler::ReferenceForm form) {
  return form == scheduler::ReferenceForm::kCanonical ? "canonical" : "literal";
}

// The statement's references under `spec` (keys and their text).
scheduler::Footprint ReferencesOf(const scheduler::FootprintSpec& spec, const sql::PreparedStatement& statement,
                                  const std::vector<Value>& params, std::vector<std::string>* names) {
  FootprintBuilder builder(spec, /*with_names=*/true);
  builder.Add(statement, params);
  scheduler::Footprint footprint = builder.Finish();
  *names = builder.Names();
  return footprint;
}

}  // namespace

Status Session::RunExplain(const sql::PreparedStatement& statement, const std::vector<Value>& params,
                           QueryResult* result) {
  const sql::ExplainStmt& options = *statement.ast->explain;
  std::shared_ptr<const sql::PreparedStatement> explained = statement.explained;
  sql::PlanCounters counters(options.timing);
  sql::ExplainFooter footer;
  if (options.analyze) {
    QueryResult discarded;  // EXPLAIN ANALYZE returns the plan, not the rows
    explain_counters_ = &counters;
    const auto start = std::chrono::steady_clock::now();
    Status status = Run(*explained, params, &discarded);
    const auto end = std::chrono::steady_clock::now();
    explain_counters_ = nullptr;
    PL_RETURN_IF_ERROR(status);
    footer.has_execution_time = options.summary;
    footer.execution_ms = std::chrono::duration<double, std::milli>(end - start).count();
  }
  {
    StatementGate gate(this);  // the plan names tables and indexes: no DDL meanwhile
    PL_RETURN_IF_ERROR(gate.Enter());
    if (explained->catalog_version != db_->catalog().version()) {
      // Bound before a schema change: show the plan it has now (ANALYZE
      // ran it bound again too). Its counters name the old plan's nodes.
      std::shared_ptr<const sql::PreparedStatement> rebound;
      PL_RETURN_IF_ERROR(runner_->Prepare(explained->text, explained->param_types, &rebound));
      explained = std::move(rebound);
    }
    const sql::ExplainNode plan =
        sql::PlanExplainer(options.analyze ? &counters : nullptr, options.verbose).Explain(*explained);

    // The scheduler's view: its references (in its form, or canonical
    // keys for a policy that places without references), the evidence
    // for each, and the same references in the other form.
    scheduler::Scheduler& policy = runner_->scheduler();
    footer.scheduler = std::string(policy.Name());
    const bool uses_references = runner_->footprint_spec().references;
    scheduler::FootprintSpec spec = runner_->footprint_spec();
    if (!uses_references) {
      spec = scheduler::FootprintSpec{};
      spec.references = true;
      spec.form = scheduler::ReferenceForm::kCanonical;
      spec.sources = scheduler::ReferenceSources::kKeys;
    } else {
      footer.form = FormName(spec.form);
    }
    std::vector<std::string> names;
    const scheduler::Footprint footprint = ReferencesOf(spec, *explained, params, &names);
    std::vector<scheduler::ReferenceEvidence> evidence =
        uses_references ? policy.EvidenceFor(footprint)
                        : std::vector<scheduler::ReferenceEvidence>(footprint.references.size());
    std::vector<size_t> laned;
    if (uses_references) LanedReferences(footprint, &laned);
    for (size_t i = 0; i < footprint.references.size(); ++i) {
      sql::ExplainReference r;
      r.name = i < names.size() ? names[i] : "?";
      if (i < evidence.size()) {
        r.known = evidence[i].known;
        r.blamed_aborts = evidence[i].blamed_aborts;
        r.exposures = evidence[i].exposures;
        r.hot = evidence[i].hot;
        r.homes = evidence[i].homes;
      }
      r.laned = std::find(laned.begin(), laned.end(), i) != laned.end();
      footer.references.push_back(std::move(r));
    }
    scheduler::FootprintSpec other = spec;
    other.form = spec.form == scheduler::ReferenceForm::kCanonical ? scheduler::ReferenceForm::kLiteral
                                                                   : scheduler::ReferenceForm::kCanonical;
    footer.other_form = FormName(other.form);
    ReferencesOf(other, *explained, params, &footer.other_references);

    result->Clear();
    if (options.format == sql::ExplainFormat::kJson) {
      result->columns = {{"QUERY PLAN", Type(TypeId::kJson)}};
      result->rows.push_back({Value::Json(sql::ExplainJson(plan, footer))});
    } else {
      result->columns = {{"QUERY PLAN", Type(TypeId::kText)}};
      for (std::string& line : sql::ExplainText(plan, footer)) result->rows.push_back({Value::Text(std::move(line))});
    }
  }
  result->returns_rows = true;
  result->rows_affected = result->rows.size();
  result->command_tag = "EXPLAIN";
  return Status::OK();
}

}  // namespace paceline::engine
