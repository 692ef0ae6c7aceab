// ServerMetrics: the server's part of /metrics (the engine's is
// engine/metrics/engine_metrics.h): ErrorResponses sent by SQLSTATE, the
// connections and the threads serving them.
//
// Thread-safety: any thread; it reads the server's thread-safe accessors.
// Ownership: borrows the server.
#pragma once

#include "engine/metrics/prometheus_text.h"

namespace paceline::server {

class Server;

// Appends the server's families to `out`.
void AppendServerMetrics(const Server& server, engine::PrometheusText* out);

}  // namespace paceline::server
