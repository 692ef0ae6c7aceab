// WithStatementLatency: a ProcedureContext that sleeps after each statement.
#include "workloads/statement_latency.h"

#include <thread>
#include <utility>

namespace paceline::workloads {

namespace {

class DelayingContext : public engine::ProcedureContext {
 public:
  DelayingContext(engine::ProcedureContext& inner, std::chrono::microseconds latency)
      : inner_(inner), latency_(latency) {}

  Status Execute(size_t statement, const std::vector<Value>& params, QueryResult* result) override {
    Status s = inner_.Execute(statement, params, result);
    std::this_thread::sleep_for(latency_);  // the client's round trip, transaction open
    return s;
  }
  Status Rollback(std::string message) override { return inner_.Rollback(std::move(message)); }
  void Return(QueryResult result) override { inner_.Return(std::move(result)); }

 private:
  engine::ProcedureContext& inner_;
  const std::chrono::microseconds latency_;
};

}  // namespace

engine::Procedure WithStatementLatency(engine::Procedure procedure, std::chrono::microseconds latency) {
  if (latency.count() <= 0) return procedure;
  auto body = std::move(procedure.body);
  procedure.body = [body = std::move(body), latency](engine::ProcedureContext& ctx,
                                                     const std::vector<Value>& args) -> Status {
    DelayingContext delayed(ctx, latency);
    return body(delayed, args);
  };
  return procedure;
}

}  // namespace paceline::workloads
