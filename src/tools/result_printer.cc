// ResultPrinter: psql-style aligned output and CSV (see result_printer.h).
#include "tools/result_printer.h"

#include <algorithm>
#include <vector>

#include "common/array_value.h"

namespace paceline::tools {

namespace {

// Display width in characters (UTF-8 continuation bytes do not count).
size_t Width(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

void Pad(std::string* out, size_t n) { out->append(n, ' '); }

}  // namespace

std::string FormatAligned(const QueryResult& result) {
  const size_t ncols = result.columns.size();
  std::vector<std::vector<std::string>> cells;
  std::vector<size_t> widths(ncols);
  for (size_t c = 0; c < ncols; ++c) widths[c] = Width(result.columns[c].name);
  for (const auto& row : result.rows) {
    std::vector<std::string> line;
    for (size_t c = 0; c < ncols; ++c) {
      std::string cell;
      if (!row[c].is_null()) AppendTextAs(row[c], result.columns[c].type, &cell);
      line.push_back(std::move(cell));
      widths[c] = std::max(widths[c], Width(line.back()));
    }
    cells.push_back(std::move(line));
  }
  std::string out;
  for (size_t c = 0; c < ncols; ++c) {
    const std::string& name = result.columns[c].name;
    size_t extra = widths[c] - Width(name);
    out += c == 0 ? " " : " | ";
    Pad(&out, extra / 2);
    out += name;
    Pad(&out, extra - extra / 2);
  }
  out += " \n";
  for (size_t c = 0; c < ncols; ++c) {
    if (c) out += "+";
    out.append(widths[c] + 2, '-');
  }
  out += "\n";
  for (const auto& line : cells) {
    for (size_t c = 0; c < ncols; ++c) {
      out += c == 0 ? " " : " | ";
      size_t extra = widths[c] - Width(line[c]);
      if (result.columns[c].type.IsNumber()) {
        Pad(&out, extra);
        out += line[c];
      } else {
        out += line[c];
        if (c + 1 < ncols) Pad(&out, extra);
      }
    }
    out += "\n";
  }
  size_t n = result.rows.size();
  out += "(" + std::to_string(n) + (n == 1 ? " row)\n" : " rows)\n");
  return out;
}

std::string FormatCsv(const QueryResult& result) {
  auto field = [](const std::string& s) {
    if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
    std::string q = "\"";
    for (char c : s) {
      if (c == '"') q += '"';
      q += c;
    }
    return q + "\"";
  };
  std::string out;
  for (size_t c = 0; c < result.columns.size(); ++c) out += (c ? "," : "") + field(result.columns[c].name);
  out += "\n";
  for (const auto& row : result.rows) {
    for (size_t c = 0; c < row.size(); ++c) out += (c ? "," : "") + (row[c].is_null() ? "" : field(row[c].ToString()));
    out += "\n";
  }
  return out;
}

}  // namespace paceline::tools
