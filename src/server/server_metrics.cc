// ServerMetrics (see server_metrics.h).
#include "server/server_metrics.h"

#include "server/server.h"

namespace paceline::server {

void AppendServerMetrics(const Server& server, engine::PrometheusText* out) {
  out->Family("paceline_errors_total", "counter", "ErrorResponses sent to clients (ERROR and FATAL), by SQLSTATE.");
  for (const auto& [code, n] : server.error_counts().Snapshot()) out->Sample("paceline_errors_total", {{"sqlstate", code}}, n);
  out->Family("paceline_connections", "gauge", "Authenticated client connections now.");
  out->Sample("paceline_connections", {}, static_cast<uint64_t>(server.connections()));
  out->Family("paceline_max_connections", "gauge", "Connections served at once (--max-connections).");
  out->Sample("paceline_max_connections", {}, static_cast<uint64_t>(server.options().max_connections));
  out->Family("paceline_connection_threads", "gauge", "Threads serving connections now.");
  out->Sample("paceline_connection_threads", {}, static_cast<uint64_t>(server.connection_threads()));
}

}  // namespace paceline::server
