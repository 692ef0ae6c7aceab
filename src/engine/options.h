// Options: everything that configures a Database, passed to Database::Open.
// Binaries copy their flags into an Options; library code never reads flags.
#pragma once

#include <chrono>
#include <cstddef>

namespace paceline::engine {

struct Options {
  // Distinct SQL texts kept parsed and planned (see StatementCache).
  size_t statement_cache_capacity = 10000;
  // Transactions run one at a time (serial execution; concurrency control
  // comes with the execution layer). A transaction waits at most this long
  // for another session's open transaction before failing with 55P03.
  std::chrono::milliseconds lock_timeout{10000};
};

}  // namespace paceline::engine
