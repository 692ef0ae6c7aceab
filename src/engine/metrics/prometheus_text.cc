// PrometheusText (see prometheus_text.h).
#include "engine/metrics/prometheus_text.h"

#include <charconv>
#include <cmath>
#include <cstdint>

namespace paceline::engine {

namespace {

// Escapes `text` for a label value (quotes too) or a HELP line.
void AppendEscaped(std::string* out, std::string_view text, bool quotes) {
  for (char c : text) {
    if (c == '\\') {
      *out += "\\\\";
    } else if (c == '\n') {
      *out += "\\n";
    } else if (c == '"' && quotes) {
      *out += "\\\"";
    } else {
      out->push_back(c);
    }
  }
}

}  // namespace

std::string PrometheusNumber(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "+Inf" : "-Inf";
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);
  return std::string(buffer, result.ptr);
}

void PrometheusText::Family(std::string_view name, std::string_view type, std::string_view help) {
  text_ += "# HELP ";
  text_ += name;
  text_ += ' ';
  AppendEscaped(&text_, help, /*quotes=*/false);
  text_ += "\n# TYPE ";
  text_ += name;
  text_ += ' ';
  text_ += type;
  text_ += '\n';
}

void PrometheusText::SampleStart(std::string_view name, const Labels& labels,
                                 const std::pair<std::string_view, std::string>* extra) {
  text_ += name;
  if (labels.empty() && extra == nullptr) {
    text_ += ' ';
    return;
  }
  text_ += '{';
  bool first = true;
  auto add = [&](const std::pair<std::string_view, std::string>& label) {
    if (!first) text_ += ',';
    first = false;
    text_ += label.first;
    text_ += "=\"";
    AppendEscaped(&text_, label.second, /*quotes=*/true);
    text_ += '"';
  };
  for (const auto& label : labels) add(label);
  if (extra != nullptr) add(*extra);
  text_ += "} ";
}

void PrometheusText::Sample(std::string_view name, const Labels& labels, double value) {
  SampleStart(name, labels, nullptr);
  text_ += PrometheusNumber(value);
  text_ += '\n';
}

void PrometheusText::Sample(std::string_view name, const Labels& labels, uint64_t value) {
  SampleStart(name, labels, nullptr);
  text_ += std::to_string(value);
  text_ += '\n';
}

void PrometheusText::Histogram(std::string_view name, const Labels& labels, const LatencyHistogram& histogram,
                               const std::vector<double>& bounds_seconds) {
  const LatencyHistogram snapshot = histogram;  // buckets, count and sum read once
  const std::string bucket = std::string(name) + "_bucket";
  auto bucket_line = [&](std::string le, uint64_t n) {
    const std::pair<std::string_view, std::string> label{"le", std::move(le)};
    SampleStart(bucket, labels, &label);
    text_ += std::to_string(n);
    text_ += '\n';
  };
  for (double bound : bounds_seconds) {
    bucket_line(PrometheusNumber(bound), snapshot.CountAtMost(static_cast<uint64_t>(std::llround(bound * 1e9))));
  }
  // The total from the buckets themselves, so that +Inf equals _count even
  // when the histogram was written while it was copied.
  const uint64_t count = snapshot.CountAtMost(UINT64_MAX);
  bucket_line("+Inf", count);
  Sample(std::string(name) + "_sum", labels, static_cast<double>(snapshot.Sum()) / 1e9);
  Sample(std::string(name) + "_count", labels, count);
}

}  // namespace paceline::engine
