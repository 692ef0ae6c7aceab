// The byte layout of redo records (see redo_record.h).
#include "engine/durability/redo_record.h"

#include <cstring>

namespace paceline::engine::durability {
namespace {

template <typename T>
void Put(T v, std::string* out) {
  char bytes[sizeof(T)];
  std::memcpy(bytes, &v, sizeof(T));  // little-endian hosts only (x86-64, arm64)
  out->append(bytes, sizeof(T));
}

template <typename T>
bool Take(std::string_view* in, T* v) {
  if (in->size() < sizeof(T)) return false;
  std::memcpy(v, in->data(), sizeof(T));
  in->remove_prefix(sizeof(T));
  return true;
}

}  // namespace

void AppendRowImage(std::string_view table, uint64_t row_id, const storage::Tuple* image, std::string* payload) {
  Put(static_cast<uint16_t>(table.size()), payload);
  payload->append(table);
  Put(row_id, payload);
  if (image == nullptr) {
    Put(uint8_t{0}, payload);
    return;
  }
  Put(uint8_t{1}, payload);
  payload->append(reinterpret_cast<const char*>(image), image->size);
}

bool RowImageReader::Next(RowImage* out) {
  if (rest_.empty() || malformed_) return false;
  malformed_ = true;  // until the entry is complete
  uint16_t name_size = 0;
  uint8_t present = 0;
  if (!Take(&rest_, &name_size) || rest_.size() < name_size) return false;
  out->table = rest_.substr(0, name_size);
  rest_.remove_prefix(name_size);
  if (!Take(&rest_, &out->row_id) || !Take(&rest_, &present) || present > 1) return false;
  out->deleted = present == 0;
  out->image = {};
  if (present == 1) {
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
  Put(end.start_lsn, &out);
  Put(end.end_lsn, &out);
  Put(end.rows, &out);
  return out;
}

bool DecodeCheckpointEnd(std::string_view payload, CheckpointEnd* out) {
  return Take(&payload, &out->start_lsn) && Take(&payload, &out->end_lsn) && Take(&payload, &out->rows) &&
         payload.empty();
}

}  // namespace paceline::engine::durability
