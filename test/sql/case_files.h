// Helpers shared by the drivers of the SQL case files (cases/*.test):
// where the files are, their names, and the `params` line syntax (see
// cases/README.md).
#pragma once

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "common/value.h"

namespace paceline::engine::sql_cases {

namespace fs = std::filesystem;

inline fs::path CasesDir() {
  if (const char* root = std::getenv("PACELINE_SOURCE_DIR"); root != nullptr && *root != '\0') {
    return fs::path(root) / "test" / "sql" / "cases";
  }
  return fs::path(__FILE__).parent_path() / "cases";
}

inline std::vector<std::string> CaseFiles() {
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(CasesDir(), ec)) {
    if (entry.path().extension() == ".test") files.push_back(entry.path().filename().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

inline std::string Trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && (s[b] == ' ' || s[b] == '\t' || s[b] == '\r')) ++b;
  while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\t' || s[e - 1] == '\r')) --e;
  return std::string(s.substr(b, e - b));
}

// Parses the value list of a `params` line: a, 'b, c', NULL, 'NULL'.
inline bool ParseParams(std::string_view text, std::vector<Value>* out, std::string* error) {
  size_t i = 0;
  while (true) {
    while (i < text.size() && text[i] == ' ') ++i;
    if (i >= text.size()) break;
    std::string value;
    bool quoted = false;
    if (text[i] == '\'') {
      quoted = true;
      ++i;
      while (true) {
        if (i >= text.size()) {
          *error = "unterminated quoted parameter";
          return false;
        }
        if (text[i] == '\'') {
          if (i + 1 < text.size() && text[i + 1] == '\'') {
            value += '\'';
            i += 2;
            continue;
          }
          ++i;
          break;
        }
        value += text[i++];
      }
      while (i < text.size() && text[i] == ' ') ++i;
    } else {
      size_t end = text.find(',', i);
      if (end == std::string_view::npos) end = text.size();
      value = Trim(text.substr(i, end - i));
      i = end;
    }
    out->push_back(!quoted && value == "NULL" ? Value::Null() : Value::Text(std::move(value)));
    if (i < text.size()) {
      if (text[i] != ',') {
        *error = "expected ',' between parameters";
        return false;
      }
      ++i;
    }
  }
  return true;
}

}  // namespace paceline::engine::sql_cases
