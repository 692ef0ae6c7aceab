// SessionActivity (see session_activity.h).
#include "engine/session_activity.h"

#include <algorithm>

#include "common/datetime.h"

namespace paceline::engine {

SessionActivity::SessionActivity() {
  a_.user = a_.database = "paceline";
  a_.backend_start = CurrentTimestampMicros();
  a_.state = "idle";
  a_.state_change = a_.backend_start;
}

void SessionActivity::SetIdentity(std::string user, std::string database) {
  std::lock_guard lock(mu_);
  a_.user = std::move(user);
  a_.database = std::move(database);
}

void SessionActivity::SetClient(std::string address, int32_t port) {
  std::lock_guard lock(mu_);
  a_.client_addr = std::move(address);
  a_.client_port = port;
}

void SessionActivity::SetPid(int32_t pid) {
  std::lock_guard lock(mu_);
  a_.pid = pid;
}

int64_t SessionActivity::Start(std::string_view query, bool block_open) {
  const int64_t now = CurrentTimestampMicros();
  std::lock_guard lock(mu_);
  a_.query.assign(query);
  a_.query_start = now;
  a_.state_change = now;
  a_.state = "active";
  running_ = true;
  if (!block_open || !a_.xact_start) a_.xact_start = now;
  return now;
}

void SessionActivity::Finish(TransactionState state, std::string_view application_name) {
  const int64_t now = CurrentTimestampMicros();
  std::lock_guard lock(mu_);
  if (running_) {
    running_ = false;
    request_latency_.Record(static_cast<uint64_t>(std::max<int64_t>(0, now - a_.query_start.value_or(now))) * 1000);
  }
  if (a_.application_name != application_name) a_.application_name.assign(application_name);
  switch (state) {
    case TransactionState::kIdle:
      a_.state = "idle";
      a_.xact_start.reset();
      break;
    case TransactionState::kInBlock:
      a_.state = "idle in transaction";
      break;
    case TransactionState::kFailed:
      a_.state = "idle in transaction (aborted)";
      break;
  }
  a_.state_change = now;
  a_.wait_event_type.clear();
  a_.wait_event.clear();
}

void SessionActivity::Wait(std::string_view type, std::string event) {
  std::lock_guard lock(mu_);
  a_.wait_event_type.assign(type);
  a_.wait_event = std::move(event);
}

void SessionActivity::ClearWait() {
  std::lock_guard lock(mu_);
  a_.wait_event_type.clear();
  a_.wait_event.clear();
}

void SessionActivity::TransactionCounts::AddTo(ExecutionStats* stats) const {
  constexpr auto kRelaxed = std::memory_order_relaxed;
  stats->commits += commits_.load(kRelaxed);
  for (size_t i = 0; i < aborts_.size(); ++i) stats->aborts_by_reason[i] += aborts_[i].load(kRelaxed);
  stats->retries += retries_.load(kRelaxed);
  stats->user_aborts += rollbacks_.load(kRelaxed);
  stats->errors += errors_.load(kRelaxed);
}

sql::BackendActivity SessionActivity::Snapshot() const {
  std::lock_guard lock(mu_);
  return a_;
}

}  // namespace paceline::engine
