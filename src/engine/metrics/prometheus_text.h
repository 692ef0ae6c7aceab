// PrometheusText: builds a page in Prometheus's text exposition format
// (version 0.0.4): for each metric family a `# HELP` and a `# TYPE` line,
// then its samples, `name{label="value",...} number`, one per line.
//
// Label values and help texts are escaped as the format requires
// (backslash, double quote in label values, newline); numbers are written
// exactly (integers as integers, other values in the shortest form that
// reads back the same, +Inf/-Inf/NaN by name). A histogram is written from
// a LatencyHistogram of nanoseconds as `_bucket{le=...}` (cumulative, in
// seconds, ending with +Inf), `_sum` and `_count`, all from one snapshot so
// that +Inf equals `_count`.
//
// The caller keeps to the format's rules for names (`[a-zA-Z_:][a-zA-Z0-9_:]*`)
// and writes each family's samples right after its Family call.
//
// Thread-safety: a value type, one thread at a time.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/execution/latency_histogram.h"

namespace paceline::engine {

class PrometheusText {
 public:
  using Labels = std::vector<std::pair<std::string_view, std::string>>;

  // Starts family `name` of `type` ("counter", "gauge" or "histogram").
  void Family(std::string_view name, std::string_view type, std::string_view help);
  // One sample: `name` is the family's name (or, for a histogram, with its
  // suffix).
  void Sample(std::string_view name, const Labels& labels, double value);
  void Sample(std::string_view name, const Labels& labels, uint64_t value);
  // A histogram family's series for `labels`, from `histogram` (ns), with
  // buckets at `bounds_seconds` (ascending). The bucket counts are
  // LatencyHistogram::CountAtMost's (within its 1/32 bucket width).
  void Histogram(std::string_view name, const Labels& labels, const LatencyHistogram& histogram,
                 const std::vector<double>& bounds_seconds);

  const std::string& text() const { return text_; }

 private:
  void SampleStart(std::string_view name, const Labels& labels, const std::pair<std::string_view, std::string>* extra);

  std::string text_;
};

// The format's number text of `value` (shortest round-trip form; "+Inf",
// "-Inf", "NaN").
std::string PrometheusNumber(double value);

}  // namespace paceline::engine
