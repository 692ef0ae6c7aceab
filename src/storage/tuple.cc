// TupleLayout: builds and reads the contiguous row blobs described in tuple.h.
#include "storage/tuple.h"

#include <tbb/scalable_allocator.h>

#include <cassert>

#include "common/fixed_bytes.h"

namespace paceline::storage {

namespace {

template <typename T>
T Load(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

template <typename T>
void Store(uint8_t* p, T v) {
  std::memcpy(p, &v, sizeof(T));
}

constexpr uint32_t kHeaderBytes = offsetof(Tuple, data);

// A new tuple of `fixed_end + var_bytes` data bytes whose null bitmap and
// fixed slots are `base`'s (Update and ApplyDelta then write over them).
Tuple* CopyFixedArea(const Tuple& base, uint32_t fixed_end, uint32_t var_bytes) {
  const uint32_t size = kHeaderBytes + fixed_end + var_bytes;
  auto* t = static_cast<Tuple*>(scalable_malloc(size));
  t->size = size;
  std::memcpy(t->data, base.data, fixed_end);
  return t;
}

// Points string slot `slot` of `t` at `bytes`, copied to `t->data + *var`,
// which advances.
void PutVariable(Tuple* t, uint8_t* slot, std::string_view bytes, uint32_t* var) {
  Store<uint32_t>(slot, *var);
  Store<uint32_t>(slot + 4, static_cast<uint32_t>(bytes.size()));
  std::memcpy(t->data + *var, bytes.data(), bytes.size());
  *var += static_cast<uint32_t>(bytes.size());
}

// Writes non-NULL `v` of column type `type` into its fixed slot; string bytes
// go to `t->data + *var`, which advances.
void StoreValue(TypeId type, const Value& v, uint8_t* slot, Tuple* t, uint32_t* var) {
  switch (type) {
    case TypeId::kBool: slot[0] = v.bool_value() ? 1 : 0; break;
    case TypeId::kInt16: Store<int16_t>(slot, static_cast<int16_t>(v.int_value())); break;
    case TypeId::kInt32: case TypeId::kDate: Store<int32_t>(slot, static_cast<int32_t>(v.int_value())); break;
    case TypeId::kInt64: case TypeId::kOid: case TypeId::kTimestamp: case TypeId::kTimestampTz:
      Store<int64_t>(slot, v.int_value());
      break;
    case TypeId::kFloat32: Store<float>(slot, static_cast<float>(v.float_value())); break;
    case TypeId::kFloat64: Store<double>(slot, v.float_value()); break;
    case TypeId::kNumeric:
      Store<__int128>(slot, v.numeric_value().unscaled());
      slot[16] = static_cast<uint8_t>(v.numeric_value().scale());
      break;
    case TypeId::kUuid: std::memcpy(slot, v.bytes_value().data(), 16); break;
    case TypeId::kInterval:  // time, days, months: interval_send's fields
      Store<int64_t>(slot, v.interval_value().micros);
      Store<int32_t>(slot + 8, v.interval_value().days);
      Store<int32_t>(slot + 12, v.interval_value().months);
      break;
    case TypeId::kVoid: break;  // nothing to keep
    case TypeId::kChar: case TypeId::kVarchar: case TypeId::kText: case TypeId::kUnknown: case TypeId::kBytea:
    case TypeId::kArray: case TypeId::kJson: case TypeId::kJsonb: case TypeId::kRecord: {
      // The text or bytes of any of them, an array's or record's encoding.
      PutVariable(t, slot, v.string_value(), var);
      break;
    }
  }
}

}  // namespace

void TupleDeleter::operator()(Tuple* t) const { scalable_free(t); }

int TupleLayout::FixedWidth(TypeId id) {
  switch (id) {
    case TypeId::kBool: return 1;
    case TypeId::kInt16: return 2;
    case TypeId::kInt32: case TypeId::kFloat32: case TypeId::kDate: return 4;
    case TypeId::kInt64: case TypeId::kOid: case TypeId::kFloat64: case TypeId::kTimestamp: case TypeId::kTimestampTz:
      return 8;
    case TypeId::kNumeric: return 17;
    case TypeId::kUuid: case TypeId::kInterval: return 16;
    case TypeId::kVoid: return 0;
    case TypeId::kChar: case TypeId::kVarchar: case TypeId::kText: case TypeId::kUnknown: case TypeId::kBytea:
    case TypeId::kArray: case TypeId::kJson: case TypeId::kJsonb: case TypeId::kRecord: return 8;
  }
  return 8;
}

TupleLayout::TupleLayout(std::vector<Type> types) : types_(std::move(types)) {
  uint32_t offset = static_cast<uint32_t>((types_.size() + 7) / 8);
  offsets_.reserve(types_.size());
  for (const Type& t : types_) {
    offsets_.push_back(offset);
    offset += FixedWidth(t.id);
  }
  fixed_end_ = offset;
}

std::string_view TupleLayout::GetString(const Tuple& t, int column) const {
  const uint8_t* slot = t.data + offsets_[column];
  uint32_t off = Load<uint32_t>(slot), len = Load<uint32_t>(slot + 4);
  return std::string_view(reinterpret_cast<const char*>(t.data) + off, len);
}

int64_t TupleLayout::GetInt(const Tuple& t, int column) const {
  const uint8_t* slot = t.data + offsets_[column];
  switch (types_[column].id) {
    case TypeId::kInt16: return Load<int16_t>(slot);
    case TypeId::kInt32: case TypeId::kDate: return Load<int32_t>(slot);
    default: return Load<int64_t>(slot);
  }
}

Value TupleLayout::Get(const Tuple& t, int column) const {
  TypeId id = types_[column].id;
  if (IsNull(t, column)) return Value::Null(id);
  const uint8_t* slot = t.data + offsets_[column];
  switch (id) {
    case TypeId::kBool: return Value::Bool(slot[0] != 0);
    case TypeId::kInt16: return Value::Int16(Load<int16_t>(slot));
    case TypeId::kInt32: return Value::Int32(Load<int32_t>(slot));
    case TypeId::kInt64: return Value::Int64(Load<int64_t>(slot));
    case TypeId::kOid: return Value::Oid(static_cast<uint32_t>(Load<int64_t>(slot)));
    case TypeId::kFloat32: return Value::Float32(Load<float>(slot));
    case TypeId::kFloat64: return Value::Float64(Load<double>(slot));
    case TypeId::kNumeric: return Value::Numeric(Decimal(Load<__int128>(slot), slot[16]));
    case TypeId::kDate: return Value::Date(Load<int32_t>(slot));
    case TypeId::kTimestamp: return Value::Timestamp(Load<int64_t>(slot));
    case TypeId::kTimestampTz: return Value::TimestampTz(Load<int64_t>(slot));
    case TypeId::kChar: case TypeId::kVarchar: case TypeId::kText: case TypeId::kUnknown:
      return Value::String(id, std::string(GetString(t, column)));
    case TypeId::kBytea:
      return Value::Bytea(std::string(GetString(t, column)));
    case TypeId::kArray:
      return Value::Array(types_[column].element, std::string(GetString(t, column)));
    case TypeId::kUuid: return Value::Uuid(std::string(reinterpret_cast<const char*>(slot), 16));
    case TypeId::kJson: return Value::Json(std::string(GetString(t, column)));
    case TypeId::kJsonb: return Value::Jsonb(std::string(GetString(t, column)));
    case TypeId::kInterval:
      return Value::IntervalValue(Interval{Load<int64_t>(slot), Load<int32_t>(slot + 8), Load<int32_t>(slot + 12)});
    case TypeId::kVoid: return Value::Void();
    case TypeId::kRecord: return Value::Record(std::string(GetString(t, column)));
  }
  return Value::Null(id);
}

bool TupleLayout::FromBytes(std::string_view bytes, TuplePtr* out) const {
  if (bytes.size() < kHeaderBytes + fixed_end_) return false;
  uint32_t size = 0;
  std::memcpy(&size, bytes.data(), sizeof(size));
  if (size != bytes.size()) return false;
  const auto* data = reinterpret_cast<const uint8_t*>(bytes.data()) + kHeaderBytes;
  const uint32_t data_bytes = size - kHeaderBytes;
  for (size_t i = 0; i < types_.size(); ++i) {
    const bool null = (data[i >> 3] >> (i & 7)) & 1;
    if (null || !IsStringLike(static_cast<int>(i))) continue;
    const uint32_t off = Load<uint32_t>(data + offsets_[i]), len = Load<uint32_t>(data + offsets_[i] + 4);
    if (off < fixed_end_ || off > data_bytes || len > data_bytes - off) return false;
  }
  auto* t = static_cast<Tuple*>(scalable_malloc(size));
  std::memcpy(t, bytes.data(), size);
  out->reset(t);
  return true;
}

TuplePtr TupleLayout::Build(const Value* values) const {
  uint32_t var_bytes = 0;
  for (size_t i = 0; i < types_.size(); ++i) {
    if (!values[i].is_null() && IsStringLike(static_cast<int>(i))) {
      var_bytes += static_cast<uint32_t>(values[i].string_value().size());  // the bytes of bytea too
    }
  }
  uint32_t size = kHeaderBytes + fixed_end_ + var_bytes;
  auto* t = static_cast<Tuple*>(scalable_malloc(size));
  t->size = size;
  std::memset(t->data, 0, fixed_end_);
  uint32_t var = fixed_end_;
  for (size_t i = 0; i < types_.size(); ++i) {
    const Value& v = values[i];
    if (v.is_null()) {
      t->data[i >> 3] |= static_cast<uint8_t>(1u << (i & 7));
      continue;
    }
    StoreValue(types_[i].id, v, t->data + offsets_[i], t, &var);
  }
  assert(var == fixed_end_ + var_bytes);
  return TuplePtr(t);
}

TuplePtr TupleLayout::Update(const Tuple& t, const std::vector<int>& columns,
                             const std::vector<Value>& values) const {
  // Fixed slots and the null bitmap are copied wholesale, then the replaced
  // columns are written over them; strings are re-laid in column order,
  // taking each from the old blob or from the new value.
  const int n = column_count();
  std::vector<int> replaced(n, -1);
  for (size_t k = 0; k < columns.size(); ++k) replaced[columns[k]] = static_cast<int>(k);
  uint32_t var_bytes = 0;
  for (int i = 0; i < n; ++i) {
    if (!IsStringLike(i)) continue;
    if (replaced[i] >= 0) {
      const Value& v = values[replaced[i]];
      if (!v.is_null()) var_bytes += static_cast<uint32_t>(v.string_value().size());
    } else if (!IsNull(t, i)) {
      var_bytes += static_cast<uint32_t>(GetString(t, i).size());
    }
  }
  Tuple* out = CopyFixedArea(t, fixed_end_, var_bytes);
  uint32_t var = fixed_end_;
  for (int i = 0; i < n; ++i) {
    uint8_t* slot = out->data + offsets_[i];
    const uint8_t bit = static_cast<uint8_t>(1u << (i & 7));
    if (replaced[i] < 0) {
      if (IsStringLike(i) && !IsNull(t, i)) PutVariable(out, slot, GetString(t, i), &var);
      continue;
    }
    const Value& v = values[replaced[i]];
    if (v.is_null()) {
      out->data[i >> 3] |= bit;
      continue;
    }
    out->data[i >> 3] &= static_cast<uint8_t>(~bit);
    StoreValue(types_[i].id, v, slot, out, &var);
  }
  assert(var == fixed_end_ + var_bytes);
  return TuplePtr(out);
}

size_t TupleLayout::AppendDelta(const Tuple& before, const Tuple& after, std::string* out) const {
  auto same = [&](int i) {
    if (IsNull(before, i) != IsNull(after, i)) return false;
    if (IsNull(after, i)) return true;
    if (IsStringLike(i)) return GetString(before, i) == GetString(after, i);
    return std::memcmp(before.data + offsets_[i], after.data + offsets_[i], SlotWidth(i)) == 0;
  };
  const size_t count_at = out->size();
  PutFixed(out, uint16_t{0});
  uint16_t count = 0;
  for (int i = 0; i < column_count(); ++i) {
    if (same(i)) continue;
    ++count;
    const bool null = IsNull(after, i);
    PutFixed(out, static_cast<uint16_t>(i));
    PutFixed(out, static_cast<uint8_t>(null ? 1 : 0));
    if (null) continue;
    if (IsStringLike(i)) {
      std::string_view bytes = GetString(after, i);
      PutFixed(out, static_cast<uint32_t>(bytes.size()));
      out->append(bytes);
    } else {
      out->append(reinterpret_cast<const char*>(after.data + offsets_[i]), SlotWidth(i));
    }
  }
  std::memcpy(out->data() + count_at, &count, sizeof(count));
  return count;
}

bool TupleLayout::ApplyDelta(const Tuple& base, std::string_view delta, TuplePtr* out) const {
  // First the columns the delta sets (views into it), checked; then the new
  // blob as Update lays it: fixed slots and bitmap copied, the set columns
  // written over them, strings re-laid in column order.
  struct Set {
    bool null = false;
    std::string_view bytes;
  };
  const int n = column_count();
  std::vector<int> replaced(n, -1);
  std::vector<Set> sets;
  uint16_t count = 0;
  if (!TakeFixed(&delta, &count)) return false;
  sets.reserve(count);
  int last = -1;
  for (uint16_t k = 0; k < count; ++k) {
    uint16_t column = 0;
    uint8_t null = 0;
    if (!TakeFixed(&delta, &column) || !TakeFixed(&delta, &null) || column >= n || column <= last || null > 1) {
      return false;
    }
    last = column;
    Set set{null == 1, {}};
    if (!set.null) {
      uint32_t width = 0;
      if (IsStringLike(column)) {
        if (!TakeFixed(&delta, &width)) return false;
      } else {
        width = SlotWidth(column);
      }
      if (delta.size() < width) return false;
      set.bytes = delta.substr(0, width);
      delta.remove_prefix(width);
    }
    replaced[column] = static_cast<int>(sets.size());
    sets.push_back(set);
  }
  if (!delta.empty()) return false;
  uint32_t var_bytes = 0;
  for (int i = 0; i < n; ++i) {
    if (!IsStringLike(i)) continue;
    if (replaced[i] >= 0) {
      var_bytes += static_cast<uint32_t>(sets[replaced[i]].bytes.size());
    } else if (!IsNull(base, i)) {
      var_bytes += static_cast<uint32_t>(GetString(base, i).size());
    }
  }
  Tuple* t = CopyFixedArea(base, fixed_end_, var_bytes);
  uint32_t var = fixed_end_;
  for (int i = 0; i < n; ++i) {
    uint8_t* slot = t->data + offsets_[i];
    const uint8_t bit = static_cast<uint8_t>(1u << (i & 7));
    std::string_view bytes;
    if (replaced[i] >= 0) {
      const Set& set = sets[replaced[i]];
      if (set.null) {
        t->data[i >> 3] |= bit;
        continue;
      }
      t->data[i >> 3] &= static_cast<uint8_t>(~bit);
      if (!IsStringLike(i)) {
        std::memcpy(slot, set.bytes.data(), set.bytes.size());
        continue;
      }
      bytes = set.bytes;
    } else if (IsStringLike(i) && !IsNull(base, i)) {
      bytes = GetString(base, i);
    } else {
      continue;
    }
    PutVariable(t, slot, bytes, &var);
  }
  assert(var == fixed_end_ + var_bytes);
  out->reset(t);
  return true;
}

}  // namespace paceline::storage
