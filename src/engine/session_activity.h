// SessionActivity: what pg_stat_activity shows of one session — who it is
// (its protocol layer says: role, database, client address; the session's
// application_name setting), what it runs (the statement text, since when,
// in which state) and what it waits for (a conflict lane, an advisory
// lock, a run queue). The session updates it as its requests begin and
// end; ActivityRegistry reads it for other sessions' statements.
//
// It also keeps the session's running totals for the metrics page: its
// transactions' outcomes (counted by the session as they end) and each
// request's duration, start to end (recorded by Finish).
//
// Cost: a request's start and end each take the record's own mutex (never
// contended but by a reader of pg_stat_activity), read the clock, and copy
// the statement text into a string that keeps its capacity; the totals
// are relaxed atomic adds on lines only this session writes.
//
// Thread-safety: every method may be called from any thread, except the
// transactions() counters' Count* and Finish's recording, which only the
// session's thread calls (the counters' and LatencyHistogram's one writer).
// Ownership: owned by its Session.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>

#include "cc/abort_reason.h"
#include "engine/execution/execution_stats.h"
#include "engine/execution/latency_histogram.h"
#include "sql/system_catalog/server_activity.h"
#include "engine/transaction_state.h"

namespace paceline::engine {

class SessionActivity {
 public:
  SessionActivity();

  void SetIdentity(std::string user, std::string database);
  void SetClient(std::string address, int32_t port);
  void SetPid(int32_t pid);

  // A statement (or a client message's statements) starts: active since
  // now; with no block open, its transaction starts now too. Returns now
  // (microseconds since the Unix epoch).
  int64_t Start(std::string_view query, bool block_open);
  // The request ended, leaving the session in `state` with its
  // application_name setting `application_name`.
  void Finish(TransactionState state, std::string_view application_name);
  // Waits that other sessions' pg_stat_activity should name; Clear ends one.
  void Wait(std::string_view type, std::string event);
  void ClearWait();

  sql::BackendActivity Snapshot() const;
  // The session's transactions: commits, aborts by reason, retries of
  // autocommit statements, rollbacks, errors. Counted by the session's
  // thread (relaxed adds); AddTo, into ExecutionStats' fields of the same
  // names (user_aborts: rollbacks), from any thread.
  class TransactionCounts {
   public:
    void CountCommit() { Add(commits_); }
    void CountAbort(cc::AbortReason reason) { Add(aborts_[static_cast<size_t>(reason)]); }
    void CountRetry() { Add(retries_); }
    void CountRollback() { Add(rollbacks_); }
    void CountError() { Add(errors_); }
    void AddTo(ExecutionStats* stats) const;

   private:
    static void Add(std::atomic<uint64_t>& counter) { counter.fetch_add(1, std::memory_order_relaxed); }
    std::atomic<uint64_t> commits_{0}, retries_{0}, rollbacks_{0}, errors_{0};
    std::array<std::atomic<uint64_t>, cc::kAbortReasonCount> aborts_{};
  };
  TransactionCounts& transactions() { return transactions_; }
  const TransactionCounts& transactions() const { return transactions_; }
  // Each finished request's duration, Start to Finish, in ns.
  const LatencyHistogram& request_latency() const { return request_latency_; }
  int32_t pid() const {
    std::lock_guard lock(mu_);
    return a_.pid;
  }

 private:
  mutable std::mutex mu_;
  sql::BackendActivity a_;
  bool running_ = false;  // between Start and Finish (mu_)
  TransactionCounts transactions_;
  LatencyHistogram request_latency_;
};

}  // namespace paceline::engine
