// NamesServedDatabase: whether a database name a client or a query gives
// reaches the one database a Paceline server serves — its own name, or one
// of PostgreSQL's maintenance databases (`postgres`, `template1`), which
// psql -l, createdb and tools connect to. Anything else is 3D000.
#pragma once

#include <string_view>

namespace paceline {

inline bool NamesServedDatabase(std::string_view served, std::string_view name) {
  return name == served || name == "postgres" || name == "template1";
}

}  // namespace paceline
