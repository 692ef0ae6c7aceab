// Tuple: one immutable row image, stored as a single contiguous blob.
//
// Layout (TupleLayout computes the offsets once per table):
//   [uint32 size][null bitmap: ceil(n/8) bytes][fixed slots][variable area]
// Fixed slots hold each column's value at a fixed offset: bool 1 byte, int2 2,
// int4 4, int8 8, float4 4, float8 8, numeric 17 (int128 + scale), date 4,
// timestamp 8, strings, bytea and arrays 8 (uint32 offset into the blob +
// uint32 length). The variable area holds string and bytea bytes and arrays'
// encoded elements (see common/array_value.h). Copying a tuple
// is one memcpy; an update builds a new tuple and the row's pointer is
// swapped, so a tuple that has been published is never modified (readers
// need no latch on its content).
//
// Thread-safety: a Tuple is immutable after Build(); TupleLayout is immutable
// after construction. Ownership: TuplePtr owns; Row holds a raw pointer to the
// committed image and the owning Table frees it (see row.h).
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/types.h"
#include "common/value.h"

namespace paceline::storage {

struct Tuple {
  uint32_t size;     // total bytes including this header
  uint8_t data[1];   // null bitmap, fixed slots, variable area
};

struct TupleDeleter {
  void operator()(Tuple* t) const;
};
using TuplePtr = std::unique_ptr<Tuple, TupleDeleter>;

class TupleLayout {
 public:
  explicit TupleLayout(std::vector<Type> types);

  int column_count() const { return static_cast<int>(types_.size()); }
  const Type& type(int column) const { return types_[column]; }

  bool IsNull(const Tuple& t, int column) const {
    return (t.data[column >> 3] >> (column & 7)) & 1;
  }
  // The column's value; strings are copied out.
  Value Get(const Tuple& t, int column) const;
  // Strings (or bytea's bytes) without a copy (valid while `t` lives); column
  // must be a string or bytea type.
  std::string_view GetString(const Tuple& t, int column) const;
  int64_t GetInt(const Tuple& t, int column) const;  // integer/date/timestamp columns

  // Builds a tuple from one value per column. Each value must already have
  // the column's type (or be NULL): the binder casts on assignment.
  TuplePtr Build(const Value* values) const;
  TuplePtr Build(const std::vector<Value>& values) const { return Build(values.data()); }
  // A tuple of this layout from the bytes of one (a Tuple's `size` bytes, as
  // the redo log and checkpoints store them): false when they cannot be one
  // (sizes disagree, a string reaches outside them).
  bool FromBytes(std::string_view bytes, TuplePtr* out) const;
  // Copy of `t` with some columns replaced (`columns[i]` gets `values[i]`).
  TuplePtr Update(const Tuple& t, const std::vector<int>& columns, const std::vector<Value>& values) const;

  // Column deltas (the redo log logs an update's changed columns only).
  // A delta is: u16 column count, then per column, ascending, u16 column
  // index, u8 1 for NULL or 0 followed by the value's bytes: the fixed
  // slot's bytes, or for a string-like column a u32 length and the bytes.
  // AppendDelta appends `after`'s columns that differ from `before`'s
  // (NULL-ness, slot bytes or string bytes) and returns how many; none
  // appends a count of 0.
  size_t AppendDelta(const Tuple& before, const Tuple& after, std::string* out) const;
  // `base` with `delta`'s columns written over it; false (nothing made)
  // when `delta` is not one of this layout (a column out of range or out
  // of order, bytes missing or left over).
  bool ApplyDelta(const Tuple& base, std::string_view delta, TuplePtr* out) const;

 private:
  static int FixedWidth(TypeId id);
  // Whether column `i` keeps its bytes in the variable area.
  bool IsStringLike(int i) const { return types_[i].IsVariableLength() || types_[i].id == TypeId::kUnknown; }
  // The bytes of column `i`'s fixed slot.
  uint32_t SlotWidth(int i) const {
    return (i + 1 < column_count() ? offsets_[i + 1] : fixed_end_) - offsets_[i];
  }
  std::vector<Type> types_;
  std::vector<uint32_t> offsets_;  // of each fixed slot within data[]
  uint32_t fixed_end_ = 0;         // end of the fixed area within data[]
};

}  // namespace paceline::storage
