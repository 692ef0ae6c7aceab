// PrometheusText: the exposition format's escapes, numbers and histogram
// series, compared with the text Prometheus's format specifies.
#include "engine/metrics/prometheus_text.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace paceline::engine {
namespace {

TEST(PrometheusTextTest, FamilyAndSamplesWithEscapes) {
  PrometheusText page;
  page.Family("paceline_x_total", "counter", "Help with a \\ backslash\nand a newline.");
  page.Sample("paceline_x_total", {}, uint64_t{18446744073709551615u});
  page.Sample("paceline_x_total", {{"reference", "name=\"a\\b\"\n"}, {"path", "here"}}, uint64_t{3});
  EXPECT_EQ(page.text(),
            "# HELP paceline_x_total Help with a \\\\ backslash\\nand a newline.\n"
            "# TYPE paceline_x_total counter\n"
            "paceline_x_total 18446744073709551615\n"
            "paceline_x_total{reference=\"name=\\\"a\\\\b\\\"\\n\",path=\"here\"} 3\n");
}

TEST(PrometheusTextTest, Numbers) {
  EXPECT_EQ(PrometheusNumber(0.1), "0.1");
  EXPECT_EQ(PrometheusNumber(2.5e-05), "2.5e-05");
  EXPECT_EQ(PrometheusNumber(1), "1");
  EXPECT_EQ(PrometheusNumber(-3.25), "-3.25");
  EXPECT_EQ(PrometheusNumber(std::numeric_limits<double>::infinity()), "+Inf");
  EXPECT_EQ(PrometheusNumber(-std::numeric_limits<double>::infinity()), "-Inf");
  EXPECT_EQ(PrometheusNumber(std::nan("")), "NaN");
}

// Records of 1 µs, 2 ms and 3 s (in ns) under bounds 1 ms and 2.5 ms:
// cumulative buckets, +Inf the count, the sum in seconds.
TEST(PrometheusTextTest, HistogramFromNanoseconds) {
  LatencyHistogram h;
  h.Record(1000);
  h.Record(2000000);
  h.Record(3000000000);
  PrometheusText page;
  page.Family("d_seconds", "histogram", "Durations.");
  page.Histogram("d_seconds", {{"path", "q"}}, h, {0.001, 0.0025});
  EXPECT_EQ(page.text(),
            "# HELP d_seconds Durations.\n"
            "# TYPE d_seconds histogram\n"
            "d_seconds_bucket{path=\"q\",le=\"0.001\"} 1\n"
            "d_seconds_bucket{path=\"q\",le=\"0.0025\"} 2\n"
            "d_seconds_bucket{path=\"q\",le=\"+Inf\"} 3\n"
            "d_seconds_sum{path=\"q\"} 3.002001\n"
            "d_seconds_count{path=\"q\"} 3\n");
}

}  // namespace
}  // namespace paceline::engine
