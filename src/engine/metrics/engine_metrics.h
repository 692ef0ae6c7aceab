// EngineMetrics: the engine's part of paceline-server's /metrics page
// (Prometheus's text format, PrometheusText), read from the database's own
// figures at the moment of the scrape; nothing is kept in between. The
// server adds its connections' families (server/server_metrics.h).
//
// The families (all `paceline_`, counters `_total`, durations in seconds):
//  - transactions: commits, rollbacks, errors and retries by path
//    (`queued`: run by a worker from a run queue; `here`: run on the
//    submitting thread, Database::Run; `session`: SQL statements and blocks
//    a session ran itself), aborted attempts by reason and SQLSTATE;
//    duration histograms of whole transactions (submit to end, by path),
//    of their wait in a run queue, and of session requests (a client
//    message's statements, start to end);
//  - scheduling: each run queue's length now, transactions and busy
//    seconds; the hottest references' weights and evidence; conflict lanes
//    held, waiting and waited for; the scheduler's decisions and memory;
//  - the statement cache and the process's memory;
//  - durability (with a data directory): log records, bytes, writes and
//    syncs, the syncs' duration histogram, checkpoints and the newest
//    one's age, log bytes since it.
//
// Thread-safety: any thread; it reads the database's thread-safe
// accessors. Ownership: borrows the database.
#pragma once

#include "engine/metrics/prometheus_text.h"

namespace paceline::engine {

class Database;

// Appends the engine's families to `out`.
void AppendEngineMetrics(const Database& db, PrometheusText* out);

}  // namespace paceline::engine
