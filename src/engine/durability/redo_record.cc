// The byte layout of redo records (see redo_record.h).
#include "engine/durability/redo_record.h"

#include <cstring>

#include "common/fixed_bytes.h"

namespace paceline::engine::durability {

namespace {

// What follows an entry's row id.
enum class EntryKind : uint8_t { kDeleted = 0, kImage = 1, kDelta = 2 };

void PutEntryHead(std::string_view table, uint64_t row_id, EntryKind kind, std::string* payload) {
  PutFixed(payload, static_cast<uint16_t>(table.size()));
  payload->append(table);
  PutFixed(payload, row_id);
  PutFixed(payload, static_cast<uint8_t>(kind));
}

}  // namespace

void AppendRowImage(std::string_view table, uint64_t row_id, const storage::Tuple* image, std::string* payload) {
  PutEntryHead(table, row_id, image == nullptr ? EntryKind::kDeleted : EntryKind::kImage, payload);
  if (image != nullptr) payload->append(reinterpret_cast<const char*>(image), image->size);
}

size_t RowImageBytes(std::string_view table, const storage::Tuple* image) {
  return sizeof(uint16_t) + table.size() + sizeof(uint64_t) + sizeof(uint8_t) + (image != nullptr ? image->size : 0);
}

void AppendRowUpdate(std::string_view table, uint64_t row_id, const storage::TupleLayout& layout,
                     const storage::Tuple& before, const storage::Tuple& image, std::string* payload) {
  if (layout.column_count() > UINT16_MAX) {  // a delta names columns in 16 bits
    AppendRowImage(table, row_id, &image, payload);
    return;
  }
  const size_t start = payload->size();
  PutEntryHead(table, row_id, EntryKind::kDelta, payload);
  const size_t size_at = payload->size();
  PutFixed(payload, uint32_t{0});
  layout.AppendDelta(before, image, payload);
  const auto delta_size = static_cast<uint32_t>(payload->size() - size_at - sizeof(uint32_t));
  if (sizeof(delta_size) + delta_size >= image.size) {  // most columns changed: the image is shorter
    payload->resize(start);
    AppendRowImage(table, row_id, &image, payload);
    return;
  }
  std::memcpy(payload->data() + size_at, &delta_size, sizeof(delta_size));
}

bool RowImageReader::Next(RowImage* out) {
  if (rest_.empty() || malformed_) return false;
  malformed_ = true;  // until the entry is complete
  uint16_t name_size = 0;
  uint8_t kind = 0;
  if (!TakeFixed(&rest_, &name_size) || rest_.size() < name_size) return false;
  out->table = rest_.substr(0, name_size);
  rest_.remove_prefix(name_size);
  if (!TakeFixed(&rest_, &out->row_id) || !TakeFixed(&rest_, &kind) ||
      kind > static_cast<uint8_t>(EntryKind::kDelta)) {
    return false;
  }
  out->deleted = kind == static_cast<uint8_t>(EntryKind::kDeleted);
  out->delta = kind == static_cast<uint8_t>(EntryKind::kDelta);
  out->image = {};
  if (out->delta) {
    uint32_t size = 0;
    if (!TakeFixed(&rest_, &size) || rest_.size() < size) return false;
    out->image = rest_.substr(0, size);
    rest_.remove_prefix(size);
  } else if (!out->deleted) {  // an image starts with its own u32 size
    uint32_t size = 0;
    if (rest_.size() < sizeof(size)) return false;
    std::memcpy(&size, rest_.data(), sizeof(size));
    if (size < sizeof(size) || rest_.size() < size) return false;
    out->image = rest_.substr(0, size);
    rest_.remove_prefix(size);
  }
  malformed_ = false;
  return true;
}

std::string EncodeCheckpointEnd(const CheckpointEnd& end) {
  std::string out;
  PutFixed(&out, end.start_lsn.value());
  PutFixed(&out, end.end_lsn.value());
  PutFixed(&out, end.rows);
  return out;
}

bool DecodeCheckpointEnd(std::string_view payload, CheckpointEnd* out) {
  uint64_t start = 0, end = 0;
  if (!TakeFixed(&payload, &start) || !TakeFixed(&payload, &end) || !TakeFixed(&payload, &out->rows) || !payload.empty()) {
    return false;
  }
  out->start_lsn = Lsn(start);
  out->end_lsn = Lsn(end);
  return true;
}

std::string EncodeSequenceState(const SequenceState& state) {
  std::string out;
  PutFixed(&out, static_cast<uint16_t>(state.name.size()));
  out.append(state.name);
  PutFixed(&out, state.value);
  PutFixed(&out, static_cast<uint8_t>(state.called ? 1 : 0));
  return out;
}

bool DecodeSequenceState(std::string_view payload, SequenceState* out) {
  uint16_t name_size = 0;
  if (!TakeFixed(&payload, &name_size) || payload.size() < name_size) return false;
  out->name = payload.substr(0, name_size);
  payload.remove_prefix(name_size);
  uint8_t called = 0;
  if (!TakeFixed(&payload, &out->value) || !TakeFixed(&payload, &called) || called > 1) return false;
  out->called = called == 1;
  return payload.empty();
}

}  // namespace paceline::engine::durability
