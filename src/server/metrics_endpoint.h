// MetricsEndpoint: paceline-server's HTTP listener for monitoring
// (--metrics-port): `GET /metrics` answers with the page a render function
// makes (Prometheus's text format, EngineMetrics and ServerMetrics), any other path 404. Built
// on cpp-httplib, whose server runs its accept loop on a thread of ours and
// answers requests on its own small thread pool.
//
// Thread-safety: Start once, then Stop (idempotent; the destructor stops)
// from any thread; port() any time after Start. The render function is
// called on the endpoint's threads, possibly twice at once.
// Ownership: owns the HTTP server and its threads.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "common/status.h"

namespace paceline::server {

class MetricsEndpoint {
 public:
  using RenderFn = std::function<std::string()>;

  explicit MetricsEndpoint(RenderFn render);
  ~MetricsEndpoint();
  MetricsEndpoint(const MetricsEndpoint&) = delete;
  MetricsEndpoint& operator=(const MetricsEndpoint&) = delete;

  // Binds `address` (an IPv4 or IPv6 literal) and `port` (0: a free one)
  // and starts serving. 08006 naming the address when it cannot bind.
  Status Start(const std::string& address, uint16_t port);
  uint16_t port() const { return port_; }
  void Stop();

 private:
  struct Http;  // the cpp-httplib server, kept out of this header
  RenderFn render_;
  std::unique_ptr<Http> http_;
  std::thread thread_;
  uint16_t port_ = 0;
};

}  // namespace paceline::server
