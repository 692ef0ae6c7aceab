// MetricsEndpoint (see metrics_endpoint.h): cpp-httplib's server, one
// route.
#include "server/metrics_endpoint.h"

#include <httplib.h>

#include <atomic>

namespace paceline::server {

struct MetricsEndpoint::Http {
  httplib::Server server;
  std::atomic<bool> ended{false};  // listen_after_bind returned
};

MetricsEndpoint::MetricsEndpoint(RenderFn render) : render_(std::move(render)), http_(std::make_unique<Http>()) {}

MetricsEndpoint::~MetricsEndpoint() { Stop(); }

Status MetricsEndpoint::Start(const std::string& address, uint16_t port) {
  httplib::Server& server = http_->server;
  // Scrapes are rare and quick: two threads answer them (one may wait on a
  // slow client while the other serves the next scrape).
  server.new_task_queue = [] { return new httplib::ThreadPool(2); };
  server.Get("/metrics", [this](const httplib::Request&, httplib::Response& response) {
    response.set_content(render_(), "text/plain; version=0.0.4; charset=utf-8");
  });
  server.set_error_handler([](const httplib::Request& request, httplib::Response& response) {
    if (response.status == 404) {
      response.set_content("not found: " + request.path + " (the metrics are at /metrics)\n", "text/plain");
    }
  });
  const int bound = port == 0 ? server.bind_to_any_port(address) : (server.bind_to_port(address, port) ? port : -1);
  if (bound <= 0) {
    return Status(sqlstate::kConnectionFailure,
                  "could not listen for metrics on " + address + ":" + std::to_string(port) +
                      " (the port is taken, or the address is not one of this machine's)");
  }
  port_ = static_cast<uint16_t>(bound);
  thread_ = std::thread([this] {
    http_->server.listen_after_bind();
    http_->ended.store(true, std::memory_order_release);
  });
  // Stop() only takes effect once the accept loop runs (cpp-httplib has no
  // ready callback): wait for it here, a matter of microseconds.
  while (!server.is_running() && !http_->ended.load(std::memory_order_acquire)) std::this_thread::yield();
  return Status::OK();
}

void MetricsEndpoint::Stop() {
  if (!thread_.joinable()) return;
  http_->server.stop();
  thread_.join();
}

}  // namespace paceline::server
