// SqlStateCounts: how many errors the server answered, by SQLSTATE (the
// metrics page's paceline_errors_total). Every ErrorResponse a connection
// writes (MessageWriter::Error, ERROR or FATAL) adds one under its code.
//
// Thread-safety: every method may be called from any thread (one mutex;
// errors are far rarer than statements). Ownership: the Server owns one;
// connections' writers borrow it.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace paceline::server {

class SqlStateCounts {
 public:
  void Add(std::string_view sqlstate);
  // Every code counted so far with its count, ordered by code.
  std::vector<std::pair<std::string, uint64_t>> Snapshot() const;

 private:
  mutable std::mutex mu_;
  std::map<std::string, uint64_t, std::less<>> counts_;
};

}  // namespace paceline::server
