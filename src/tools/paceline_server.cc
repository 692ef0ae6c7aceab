// paceline-server: the PostgreSQL wire-protocol server over an embedded
// Paceline engine. psql, pgbench and drivers connect to it; transactions
// sent whole (one Query message, or a pipeline up to Sync) are scheduled by
// the conflict-aware scheduler. Flags are copied into engine::Options and
// server::ServerOptions here; the logic lives in src/server.
#include <gflags/gflags.h>

#include <csignal>
#include <iostream>

#include <asio.hpp>

#include "engine/database.h"
#include "scheduler/options_text.h"
#include "server/password_file.h"
#include "server/server.h"
#include "tools/flag_names.h"

DEFINE_string(listen, "127.0.0.1", "address to listen on (IPv4 or IPv6 literal)");
DEFINE_int32(port, 5433, "TCP port; 0 picks a free one (the ready line says which)");
DEFINE_int32(max_connections, 100, "clients served at once; one more is refused with 53300");
DEFINE_string(database, "paceline", "the database name clients must connect to (others get 3D000)");
DEFINE_string(auth, "trust", "authentication: trust, or scram-sha-256 (with --password-file)");
DEFINE_string(password_file, "", "with --auth=scram-sha-256: the users and their passwords");
DEFINE_int32(max_message_mb, 64, "largest frontend message accepted, in MiB (beyond it: 08P01 and close)");
DEFINE_int32(workers, 8, "worker threads (= run queues) that run scheduled transactions");
DEFINE_string(cc, "occ", "concurrency control (see the list below)");
DEFINE_string(scheduler, "count-max-canonical", "the scheduler that picks each transaction's run queue (see below)");
DEFINE_string(history_warmup, "0",
              "random placement while History learns: a number of transactions (5000) or a time (2s)");
DEFINE_string(history_learning, "continuous", "History after the warm-up: continuous or frozen");
DEFINE_string(state, "cumulative", "what State counts: cumulative (every queued transaction) or inflight");
DEFINE_uint64(history_capacity, 1 << 20, "references History keeps at most");
DEFINE_string(reference_sources, "all", "clauses that yield references: all (WHERE, SET, VALUES) or where");
DEFINE_string(partition_domain, "w_id", "partition scheduler: the canonical domain whose value picks the queue");
DEFINE_bool(steal, true, "idle workers steal queued transactions from other queues");
DEFINE_int32(steal_threshold, 1, "with --steal: steal only from queues holding at least this many transactions");
DEFINE_int32(max_retries, 100, "retries of a transaction aborted by conflicts before the client sees 40001");
DEFINE_int32(max_retry_pause_us, 1000, "longest pause before a retry (the first 8 are immediate); 0: always at once");
DEFINE_int32(lock_timeout_ms, 10000, "longest lock wait (2PL waiting variants) and DDL wait");
DEFINE_uint64(seed, 42, "seed of the scheduler's and stealing's random choices");

namespace paceline::tools {
namespace {

int Invalid(const std::string& message) {
  std::cerr << "paceline-server: " << message << "\n";
  return 2;
}

int Main() {
  engine::Options options;
  if (FLAGS_workers < 1) return Invalid("--workers must be at least 1");
  options.workers = static_cast<size_t>(FLAGS_workers);
  options.cc = FLAGS_cc;
  options.scheduler = FLAGS_scheduler;
  options.steal = FLAGS_steal;
  if (FLAGS_steal_threshold < 1) return Invalid("--steal-threshold must be at least 1");
  options.steal_threshold = static_cast<size_t>(FLAGS_steal_threshold);
  options.max_retries = FLAGS_max_retries;
  options.max_retry_pause = std::chrono::microseconds(std::max(0, FLAGS_max_retry_pause_us));
  options.lock_timeout = std::chrono::milliseconds(std::max(0, FLAGS_lock_timeout_ms));
  options.seed = FLAGS_seed;
  scheduler::SchedulerOptions& scheduling = options.scheduling;
  Status s = scheduler::ParseHistoryWarmup(FLAGS_history_warmup, &scheduling);
  if (!s.ok()) return Invalid("--history-warmup " + s.message());
  s = scheduler::ParseHistoryLearning(FLAGS_history_learning, &scheduling.history_learning);
  if (!s.ok()) return Invalid("--history-learning " + s.message());
  if (scheduling.history_learning == scheduler::HistoryLearning::kFrozen &&
      scheduling.history_warmup_transactions == 0 && scheduling.history_warmup_time.count() == 0) {
    return Invalid("--history-learning=frozen needs a --history-warmup: History would never learn");
  }
  s = scheduler::ParseStateMode(FLAGS_state, &scheduling.state);
  if (!s.ok()) return Invalid("--state " + s.message());
  if (FLAGS_history_capacity == 0) return Invalid("--history-capacity must be at least 1");
  scheduling.history_capacity = FLAGS_history_capacity;
  s = scheduler::ParseReferenceSources(FLAGS_reference_sources, &scheduling.reference_sources);
  if (!s.ok()) return Invalid("--reference-sources " + s.message());
  scheduling.partition_domain = FLAGS_partition_domain;

  server::ServerOptions server_options;
  server_options.listen = FLAGS_listen;
  if (FLAGS_port < 0 || FLAGS_port > 65535) return Invalid("--port must be in [0, 65535]");
  server_options.port = static_cast<uint16_t>(FLAGS_port);
  if (FLAGS_max_connections < 1) return Invalid("--max-connections must be at least 1");
  server_options.max_connections = static_cast<size_t>(FLAGS_max_connections);
  server_options.database = FLAGS_database;
  server_options.auth = FLAGS_auth;
  server_options.password_file = FLAGS_password_file;
  if (FLAGS_max_message_mb < 1 || FLAGS_max_message_mb > 1024) return Invalid("--max-message-mb must be in [1, 1024]");
  server_options.max_message_bytes = static_cast<uint32_t>(FLAGS_max_message_mb) << 20;
  std::shared_ptr<server::PasswordFile> passwords;
  if (FLAGS_auth == "scram-sha-256") {
    if (FLAGS_password_file.empty()) return Invalid("--auth=scram-sha-256 needs a --password-file");
    std::unique_ptr<server::PasswordFile> loaded;
    s = server::PasswordFile::Load(FLAGS_password_file, &loaded);
    if (!s.ok()) return Invalid("--password-file: " + s.message());
    passwords = std::move(loaded);
    server_options.sasl = [passwords](const std::string& user) { return passwords->NewExchange(user); };
  } else if (FLAGS_auth != "trust") {
    return Invalid("--auth must be trust or scram-sha-256, not \"" + FLAGS_auth + "\"");
  }

  std::unique_ptr<engine::Database> db;
  s = engine::Database::Open(options, &db);
  if (!s.ok()) return Invalid(s.message());
  auto server = std::make_unique<server::Server>(db.get(), server_options);
  s = server->Start();
  if (!s.ok()) return Invalid(s.message());

  // SIGTERM / SIGINT: graceful shutdown.
  asio::io_context signals_io;
  asio::signal_set signals(signals_io, SIGINT, SIGTERM);
  signals.async_wait([](const asio::error_code&, int) {});
  std::cout << "paceline-server: ready on " << FLAGS_listen << " port " << server->port() << " database "
            << FLAGS_database << " scheduler " << db->scheduler_name() << " cc " << db->cc_name() << " workers "
            << db->workers() << " auth " << FLAGS_auth << std::endl;
  signals_io.run();  // returns once a signal has arrived
  // Shutting down. `signals` stays registered until everything is torn
  // down, so a repeated signal cannot kill the process half-way.
  std::cerr << "paceline-server: shutting down\n";
  server->Shutdown();
  server.reset();
  db->Shutdown(true);
  db.reset();
  return 0;
}

std::string Names(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

}  // namespace
}  // namespace paceline::tools

int main(int argc, char** argv) {
  const std::string usage =
      "the Paceline PostgreSQL wire-protocol server\n"
      "  paceline-server --listen=127.0.0.1 --port=5433 --scheduler=count-max-canonical --cc=occ --workers=8\n"
      "  psql -h 127.0.0.1 -p 5433 -d paceline\n"
      "schedulers: " +
      paceline::tools::Names(paceline::engine::Database::SchedulerNames()) +
      "\nconcurrency controls: " + paceline::tools::Names(paceline::engine::Database::ConcurrencyControlNames());
  gflags::SetUsageMessage(usage);
  gflags::SetVersionString("0.1.0");
  paceline::tools::AcceptDashedFlags(argc, argv);
  gflags::ParseCommandLineFlags(&argc, &argv, true);
  if (argc > 1) {
    std::cerr << "paceline-server: unexpected argument \"" << argv[1] << "\" (flags only; see --help)\n";
    return 2;
  }
  return paceline::tools::Main();
}
