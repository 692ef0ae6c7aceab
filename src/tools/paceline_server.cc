// paceline-server: the PostgreSQL wire-protocol server over an embedded
// Paceline engine. psql, pgbench and drivers connect to it; transactions
// sent whole (one Query message, or a pipeline up to Sync) are scheduled by
// the conflict-aware scheduler. Flags are copied into engine::Options and
// server::ServerOptions here; the logic lives in src/server.
#include <gflags/gflags.h>

#include <csignal>
#include <iostream>

#include <asio.hpp>

#include "common/process_memory.h"
#include "engine/database.h"
#include "engine/metrics/engine_metrics.h"
#include "server/metrics_endpoint.h"
#include "server/server_metrics.h"
#include "server/password_file.h"
#include "server/server.h"
#include "tools/engine_flags.h"
#include "tools/flag_names.h"

DEFINE_string(listen, "127.0.0.1", "address to listen on (IPv4 or IPv6 literal)");
DEFINE_int32(port, 5433, "TCP port; 0 picks a free one (the ready line says which)");
DEFINE_int32(max_connections, 100, "authenticated clients served at once; one more is refused with 53300");
DEFINE_int32(max_authenticating, 32,
             "connections still logging in, counted apart from --max-connections; one more is closed at once");
DEFINE_int32(authentication_timeout, 60, "seconds a connection has to log in before it is closed (as PostgreSQL's)");
DEFINE_int32(idle_in_transaction_timeout, 0,
             "milliseconds a session may sit idle inside a transaction block before FATAL 25P03 ends it "
             "(rolling it back); 0: never (PostgreSQL's idle_in_transaction_session_timeout)");
DEFINE_int32(metrics_port, -1,
             "serve Prometheus metrics at http://<--listen>:<port>/metrics; 0 picks a free port (the ready line "
             "says which); -1: off. They name hot references by their values (e.g. w_id=5): listen on an address "
             "only trusted scrapers reach");
DEFINE_string(database, "paceline", "the database name clients must connect to (others get 3D000)");
DEFINE_string(auth, "trust",
              "authentication: trust (any user, no password; only with a loopback --listen address such as "
              "127.0.0.1 or ::1, else start-up fails), or scram-sha-256 (with --password-file)");
DEFINE_string(password_file, "", "with --auth=scram-sha-256: the users and their passwords");
DEFINE_int32(max_message_mb, 64, "largest frontend message accepted, in MiB (beyond it: 08P01 and close)");
DEFINE_int32(malloc_mmap_threshold_kb, 128,
             "blocks of at least this many KiB get a mapping of their own, returned to the system when freed "
             "(a fixed glibc M_MMAP_THRESHOLD; 0: glibc's dynamic threshold, which grows after large statements)");

namespace paceline::tools {
namespace {

int Invalid(const std::string& message) {
  std::cerr << "paceline-server: " << message << "\n";
  return 2;
}

bool IsLoopback(const asio::ip::address& address) {
  if (address.is_v6() && address.to_v6().is_v4_mapped()) {
    return asio::ip::make_address_v4(asio::ip::v4_mapped, address.to_v6()).is_loopback();
  }
  return address.is_loopback();
}

// Whether `listen` is an address literal that is not loopback (loopback:
// 127.0.0.0/8, ::1, or an IPv4-mapped ::ffff:127.x.y.z). One that does not
// parse is not judged here: Server::Start reports it as invalid.
bool IsNonLoopbackAddress(const std::string& listen) {
  asio::error_code ec;
  const asio::ip::address address = asio::ip::make_address(listen, ec);
  if (ec) return false;
  return !IsLoopback(address);
}

int Main() {
  AllocatorOptions allocator;
  if (FLAGS_malloc_mmap_threshold_kb < 0 || FLAGS_malloc_mmap_threshold_kb > (32 << 10)) {
    return Invalid("--malloc-mmap-threshold-kb must be in [0, 32768]");
  }
  allocator.mmap_threshold_bytes = static_cast<size_t>(FLAGS_malloc_mmap_threshold_kb) << 10;
  if (!ConfigureAllocator(allocator)) {
    // Not glibc's malloc (a sanitizer's, or a preloaded allocator): the
    // threshold only shapes how freed memory returns, so run without it.
    std::cerr << "paceline-server: warning: the allocator refused --malloc-mmap-threshold-kb; running with its "
                 "own threshold\n";
  }

  engine::Options options;
  Status s = EngineOptionsFromFlags(&options);
  if (!s.ok()) return Invalid(s.message());

  server::ServerOptions server_options;
  server_options.listen = FLAGS_listen;
  if (FLAGS_port < 0 || FLAGS_port > 65535) return Invalid("--port must be in [0, 65535]");
  if (FLAGS_metrics_port < -1 || FLAGS_metrics_port > 65535) return Invalid("--metrics-port must be in [-1, 65535]");
  server_options.port = static_cast<uint16_t>(FLAGS_port);
  if (FLAGS_max_connections < 1) return Invalid("--max-connections must be at least 1");
  server_options.max_connections = static_cast<size_t>(FLAGS_max_connections);
  if (FLAGS_max_authenticating < 1) return Invalid("--max-authenticating must be at least 1");
  server_options.max_authenticating = static_cast<size_t>(FLAGS_max_authenticating);
  if (FLAGS_authentication_timeout < 1 || FLAGS_authentication_timeout > 600) {
    return Invalid("--authentication-timeout must be in [1, 600] seconds");
  }
  server_options.authentication_timeout = std::chrono::seconds(FLAGS_authentication_timeout);
  if (FLAGS_idle_in_transaction_timeout < 0) return Invalid("--idle-in-transaction-timeout must not be negative");
  server_options.idle_in_transaction_timeout = std::chrono::milliseconds(FLAGS_idle_in_transaction_timeout);
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
  } else if (IsNonLoopbackAddress(FLAGS_listen)) {
    // As PostgreSQL's pg_hba.conf advice: trust lets anyone who can reach
    // the port in as any user, which is only acceptable from this machine.
    return Invalid("--auth=trust is refused with --listen=" + FLAGS_listen + ": \"" + FLAGS_listen +
                   "\" is not a loopback address, and trust lets anyone who can connect in as any user; "
                   "listen on 127.0.0.1 or ::1, or use --auth=scram-sha-256 --password-file=FILE");
  }

  std::unique_ptr<engine::Database> db;
  s = engine::Database::Open(options, &db);
  if (!s.ok()) return Invalid(s.message());
  auto server = std::make_unique<server::Server>(db.get(), server_options);
  s = server->Start();
  if (!s.ok()) return Invalid(s.message());
  std::unique_ptr<server::MetricsEndpoint> metrics;
  if (FLAGS_metrics_port >= 0) {
    metrics = std::make_unique<server::MetricsEndpoint>([&db, &server] {
      engine::PrometheusText page;
      engine::AppendEngineMetrics(*db, &page);
      server::AppendServerMetrics(*server, &page);
      return page.text();
    });
    s = metrics->Start(FLAGS_listen, static_cast<uint16_t>(FLAGS_metrics_port));
    if (!s.ok()) return Invalid("--metrics-port: " + s.message());
  }

  // SIGTERM / SIGINT: graceful shutdown.
  asio::io_context signals_io;
  asio::signal_set signals(signals_io, SIGINT, SIGTERM);
  signals.async_wait([](const asio::error_code&, int) {});
  std::cout << "paceline-server: ready on " << FLAGS_listen << " port " << server->port() << " database "
            << FLAGS_database << " scheduler " << db->scheduler_name() << " cc " << db->cc_name() << " workers "
            << db->workers() << " auth " << FLAGS_auth
            << (metrics ? " metrics-port " + std::to_string(metrics->port()) : std::string()) << " data-dir "
            << (db->durable() ? options.data_dir + " sync " + options.sync : "none (in memory: nothing survives a restart)")
            << std::endl;
  if (db->durable()) {
    const engine::durability::RecoveryStats& r = db->recovery_stats();
    std::cerr << "paceline-server: recovered " << (r.had_checkpoint ? "a checkpoint of " : "no checkpoint, ")
              << (r.had_checkpoint ? std::to_string(r.checkpoint_rows) + " rows, " : "") << r.log_records
              << " log records (" << r.log_bytes << " bytes" << (r.torn_tail ? ", a torn last record cut off" : "")
              << ") in " << r.seconds << " s\n";
    if (options.sync == "off") {
      std::cerr << "paceline-server: --sync=off: commits are acknowledged before their log records are written; "
                   "a crash may lose the last ~10 ms of them (never part of one)\n";
    }
  }
  signals_io.run();  // returns once a signal has arrived
  // Shutting down. `signals` stays registered until everything is torn
  // down, so a repeated signal cannot kill the process half-way.
  std::cerr << "paceline-server: shutting down\n";
  if (metrics) metrics->Stop();  // its pages read the server and the database
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
      "  paceline-server --listen=127.0.0.1 --port=5433 --scheduler=adaptive --cc=occ --workers=8\n"
      "  psql -h 127.0.0.1 -p 5433 -d paceline\n"
      "schedulers: " +
      paceline::tools::Names(paceline::engine::Database::SchedulerNames()) +
      "\nconcurrency controls: " + paceline::tools::Names(paceline::engine::Database::ConcurrencyControlNames());
  gflags::SetUsageMessage(usage);
  gflags::SetVersionString("0.1.0");
  // A server keeps its data: a data directory in the working directory.
  paceline::tools::SetEngineFlagDefault("data_dir", "paceline-data");
  if (const std::string unknown = paceline::tools::UnknownFlag(argc, argv); !unknown.empty()) {
    std::cerr << "paceline-server: unknown flag " << unknown << " (see --help)\n";
    return 2;
  }
  paceline::tools::AcceptDashedFlags(argc, argv);
  gflags::ParseCommandLineFlags(&argc, &argv, true);
  if (argc > 1) {
    std::cerr << "paceline-server: unexpected argument \"" << argv[1] << "\" (flags only; see --help)\n";
    return 2;
  }
  return paceline::tools::Main();
}
