// RedoRecord: what the write-ahead log and checkpoints say, inside the
// frames of src/engine/log (which add LSNs and checksums).
//
// The redo log is logical per row and physical per image: a committed
// transaction is one kRowImages record listing, for each row it wrote, the
// table's name, the row's id and either its new image (the Tuple's bytes as
// they are in memory, see storage/tuple.h), or, for an update of a row that
// was committed before, only the columns it changed (a delta,
// TupleLayout::AppendDelta), or "deleted". Replaying a record makes each
// named row hold that image, or those columns hold those values, whatever
// they held before, so replay is idempotent and order within a record does
// not matter (a record names a row at most once). A delta needs its row:
// replayed from a fuzzy checkpoint, a row missing there was deleted by a
// later record, so a delta that finds no row is skipped. Catalog changes are kDdl records holding the statement's
// text, replayed by running it. A kSequence record says "from here on, the
// sequence named so is at (value, is_called)" (catalog/sequence.h logs one
// per kLogAhead values, one per setval, and one before each ALTER
// SEQUENCE); replay sets that state, so the last in log order wins. A
// checkpoint file holds kDdl records (every catalog change since the
// database was created), one kSequence record per sequence, kRowImages
// records (every live row) and one kCheckpointEnd record.
//
//   kRowImages payload: repeated { u16 name length, name bytes, u64 row id,
//                                  u8 1 + image bytes (u32 size first)
//                                  | u8 2 + u32 size + delta bytes | u8 0 }
//   kDdl payload:       the statement's text
//   kCheckpointEnd:     u64 start LSN, u64 end LSN, u64 rows (see Checkpoint)
//   kSequence:          u16 name length, name bytes, i64 value, u8 is_called
//
// Integers are little-endian. Thread-safety: stateless functions and a
// reader over caller-owned bytes.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/ids.h"
#include "storage/tuple.h"

namespace paceline::engine::durability {

enum class RecordType : uint8_t { kRowImages = 1, kDdl = 2, kCheckpointEnd = 3, kSequence = 4 };

// Appends one row's entry to a kRowImages payload (`image` nullptr: deleted).
void AppendRowImage(std::string_view table, uint64_t row_id, const storage::Tuple* image, std::string* payload);
// The bytes AppendRowImage appends for `image` (nullptr: deleted).
size_t RowImageBytes(std::string_view table, const storage::Tuple* image);
// Appends an update's entry: the columns of `image` that differ from
// `before` (the row's committed image) when that is shorter than the whole
// image, else the image. `layout` is the table's.
void AppendRowUpdate(std::string_view table, uint64_t row_id, const storage::TupleLayout& layout,
                     const storage::Tuple& before, const storage::Tuple& image, std::string* payload);

// One entry of a kRowImages payload; views into the payload.
struct RowImage {
  std::string_view table;
  uint64_t row_id = 0;
  bool deleted = false;
  bool delta = false;      // `image` holds a delta (TupleLayout::ApplyDelta), not a whole image
  std::string_view image;  // the Tuple's bytes, or the delta's, when not deleted
};

// Reads the entries of a kRowImages payload in order.
class RowImageReader {
 public:
  explicit RowImageReader(std::string_view payload) : rest_(payload) {}
  // The next entry: true; false at the end or when the payload is malformed
  // (then malformed() is true).
  bool Next(RowImage* out);
  bool malformed() const { return malformed_; }

 private:
  std::string_view rest_;
  bool malformed_ = false;
};

struct CheckpointEnd {
  Lsn start_lsn;  // replay the log from here
  Lsn end_lsn;    // the log must reach at least this far
  uint64_t rows = 0;
};
std::string EncodeCheckpointEnd(const CheckpointEnd& end);
bool DecodeCheckpointEnd(std::string_view payload, CheckpointEnd* out);

struct SequenceState {
  std::string_view name;  // a view into the payload when decoded
  int64_t value = 0;
  bool called = false;
};
std::string EncodeSequenceState(const SequenceState& state);
bool DecodeSequenceState(std::string_view payload, SequenceState* out);

}  // namespace paceline::engine::durability
