// RecoveryApplier: makes the tables hold the row images of redo records
// (redo_record.h) during recovery, before anything else runs.
//
// Apply puts each named row's image in place (creating the row with its
// old id when it does not exist yet, making it absent for "deleted"); it
// does not maintain indexes, because a fuzzy checkpoint followed by its log
// passes through states that are not consistent (two rows holding one
// unique key until a later record deletes one). Flush then rebuilds every
// index of the tables touched since the last Flush from their live rows:
// the caller flushes before each DDL record (which may need indexes, e.g. a
// foreign key's check, and may drop or truncate tables) and at the end.
//
// Thread-safety: none; exclusive use of the catalog and its tables (no
// session or worker runs). Ownership: borrows the catalog.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>

#include "common/status.h"
#include "storage/catalog/catalog.h"
#include "storage/table.h"

namespace paceline::engine::durability {

class RecoveryApplier {
 public:
  explicit RecoveryApplier(catalog::Catalog* catalog) : catalog_(catalog) {}
  RecoveryApplier(const RecoveryApplier&) = delete;
  RecoveryApplier& operator=(const RecoveryApplier&) = delete;

  // Applies one kRowImages payload; `where` names its origin for errors
  // ("LSN 42", "checkpoint-....ckpt record 7"). XX001 when it is malformed
  // or names a table that does not exist at this point, or when it changes
  // columns of a row that is absent — unless `over_fuzzy_copy`: a log record
  // up to the end of a fuzzy checkpoint, whose copy may miss a row that a
  // later record deletes; such a delta is skipped (deltas_skipped()).
  Status Apply(std::string_view payload, const std::string& where, bool over_fuzzy_copy);
  // Rebuilds the indexes of the tables touched since the last Flush (XX001
  // when two live rows share a unique key) and forgets its row maps. With
  // `final`, the absent rows of every table are handed back for reuse.
  Status Flush(bool final);
  uint64_t images_applied() const { return images_applied_; }
  // Deltas skipped: their row was absent from the checkpoint's copy.
  uint64_t deltas_skipped() const { return deltas_skipped_; }

 private:
  struct TableState {
    std::shared_ptr<storage::Table> table;
    std::unordered_map<uint64_t, storage::Row*> rows;  // by row id
  };
  TableState* StateOf(std::string_view name);

  catalog::Catalog* catalog_;
  std::unordered_map<std::string, TableState> tables_;
  uint64_t images_applied_ = 0;
  uint64_t deltas_skipped_ = 0;
};

}  // namespace paceline::engine::durability
