// SequenceOptions: the option list of CREATE SEQUENCE or ALTER SEQUENCE →
// a checked sequence description, by PostgreSQL 15's rules (its
// init_params): AS smallint|integer|bigint, INCREMENT, MINVALUE/MAXVALUE
// (and NO ...), START, RESTART [WITH], CACHE, [NO] CYCLE and OWNED BY.
//
// Defaults on CREATE: bigint, increment 1, ascending from 1 to the type's
// maximum (descending: from -1 down to the type's minimum), starting at
// the bound it starts from. On ALTER, what is not named stays, except that
// changing AS moves a bound that was the old type's limit to the new
// type's. Errors are 22023 with PostgreSQL's messages; an option given
// twice is 42601 "conflicting or redundant options"; OWNED BY a table or
// column that does not exist is 42P01/42703.
//
// Thread-safety: pure functions of their arguments (and, for OWNED BY, of
// the catalog, which the caller holds for DDL).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/status.h"
#include "storage/catalog/catalog.h"
#include "sql/ast.h"

namespace paceline::sql {

// What an option list asks for.
struct SequenceChange {
  catalog::SequenceSchema schema;   // the new description (name included)
  bool restart = false;             // the state becomes (restart_value, not called)
  int64_t restart_value = 0;
};

class SequenceOptions {
 public:
  // CREATE SEQUENCE `name` `options`.
  static Status ForCreate(const catalog::Catalog& catalog, const std::string& name,
                          const std::vector<SequenceOption>& options, SequenceChange* out);
  // ALTER SEQUENCE of `current`. Without RESTART its current value must lie
  // within the new bounds, unless !check_current (replay: the state at that
  // point of the log is not known yet).
  static Status ForAlter(const catalog::Catalog& catalog, const catalog::Sequence& current,
                         const std::vector<SequenceOption>& options, bool check_current, SequenceChange* out);

 private:
  // `old`: the current description, or null on CREATE; `last` the current
  // last value (checked against new bounds when no RESTART is given), or
  // none.
  static Status Apply(const catalog::Catalog& catalog, const catalog::SequenceSchema* old,
                      std::optional<int64_t> last, const std::vector<SequenceOption>& options,
                      SequenceChange* out);
};

}  // namespace paceline::sql
