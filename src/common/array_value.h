// Arrays: the one-dimensional SQL arrays (int4[], text[], ...) held in a
// Value of type kArray, their encoding, and PostgreSQL's text form of them.
//
// An array Value keeps its element TypeId in Value::element_type() and its
// elements, encoded, in Value::array_bytes():
//
//   u32 count, then per element: u8 0 (NULL) | u8 1 + payload
//   payload: bool 1 byte; integers, dates and timestamps int64; floats
//            double; numeric int128 unscaled + u8 scale; interval int64
//            microseconds, int32 days, int32 months; every other type
//            (strings, bytea, and any type a Value keeps in its string
//            slot) u32 length + bytes
//
// Integers are in host byte order: the encoding lives in memory, in tuples
// and in this machine's redo log, never on the wire. Arrays are 1-based with
// one dimension; PostgreSQL's multidimensional arrays and explicit bounds
// are 0A000. An element type whose Value keeps its data in the string slot
// needs no code here (see ElementPayload in array_value.cc).
//
// Thread-safety: pure functions; ArrayBuilder/ArrayReader are per use.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "common/types.h"
#include "common/value.h"

namespace paceline {

// Builds an array of one element type, element by element.
class ArrayBuilder {
 public:
  explicit ArrayBuilder(TypeId element);
  // `v` is NULL or a value of the element type (integers of any width for an
  // integer type; callers cast first).
  void Add(const Value& v);
  uint32_t size() const { return count_; }
  Value Finish();

 private:
  TypeId element_;
  uint32_t count_ = 0;
  std::string bytes_;
};

// Reads the elements of a non-NULL array Value in order (the Value must
// outlive the reader).
class ArrayReader {
 public:
  explicit ArrayReader(const Value& array);
  uint32_t size() const { return count_; }
  // The next element: true; false at the end.
  bool Next(Value* out);

 private:
  TypeId element_;
  uint32_t count_ = 0;
  std::string_view rest_;
};

std::vector<Value> ArrayElements(const Value& array);

// One element's encoding (above), shared with records (record_value.h):
// appends `v` (NULL, or a value of `type`) to *out; reads one of `type`
// from the front of *in (`element`: its element type when `type` is kArray).
// DecodeElement is false on truncated bytes.
void EncodeElement(TypeId type, const Value& v, std::string* out);
bool DecodeElement(TypeId type, TypeId element, std::string_view* in, Value* out);
Value MakeArray(TypeId element, const std::vector<Value>& elements);

// PostgreSQL's array_in for a one-dimensional array: '{1,2,NULL}',
// '{"a b","x\"y",""}', each element read by the element type's input (a
// cast from text, with `explicit_cast` as given). Malformed text → 22P02
// `malformed array literal: "..."` with PostgreSQL's DETAIL; nested braces
// or "[1:2]=" bounds → 0A000.
Status ParseArrayText(std::string_view text, const Type& element, bool explicit_cast, Value* out);

// PostgreSQL's array_out: '{' elements ',' '}', NULL as NULL, an element
// quoted when it is empty, "NULL", or holds blanks, braces, commas, quotes
// or backslashes (quotes and backslashes then escaped).
void AppendArrayText(const Value& array, std::string* out);

// int2vector / oidvector's text form: the elements separated by spaces
// ("1 2"; they hold no NULLs).
void AppendVectorText(const Value& array, std::string* out);
// A value's text form as a column of `type` shows it: a vector as above,
// anything else as Value::AppendTo.
void AppendTextAs(const Value& v, const Type& type, std::string* out);

// Value::Compare / Value::Hash for arrays (see value.h).
int CompareArrays(const Value& a, const Value& b);
uint64_t HashArray(const Value& array);

// Arrays' and records' order and hash, over a reader of their elements
// (ArrayReader, record_value.cc's RecordReader: `bool Next(Value*)`):
// element by element, a NULL after any other value (Value::Compare), a
// prefix first; the hash mixes each element's Value::Hash into `seed`.
uint64_t MixElementHash(uint64_t h, const Value& element);
template <typename Reader>
int CompareElements(Reader a, Reader b) {
  Value x, y;
  while (true) {
    const bool has_x = a.Next(&x), has_y = b.Next(&y);
    if (!has_x || !has_y) return has_x == has_y ? 0 : (has_x ? 1 : -1);
    const int c = Value::Compare(x, y);
    if (c != 0) return c;
  }
}
template <typename Reader>
uint64_t HashElements(Reader r, uint64_t seed) {
  Value v;
  while (r.Next(&v)) seed = MixElementHash(seed, v);
  return seed;
}

// CastValue's rules with an array target (see value.h): text → its input
// (a vector's: elements separated by blanks), array → array element by
// element; anything else 42846.
Status CastToArray(const Value& v, const Type& target, bool explicit_cast, Value* out);

}  // namespace paceline
