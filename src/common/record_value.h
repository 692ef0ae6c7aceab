// Records: the row values of PostgreSQL's anonymous `record` type (ROW(1,
// 'a'), `(a, b)`, a row-returning function's row such as
// information_schema._pg_expandarray's), held in a Value of type kRecord.
//
// A record Value keeps its fields, encoded, in Value::record_bytes():
//
//   u32 count, then per field: u8 TypeId, u8 element TypeId (an array's;
//   0 otherwise), then the field as one array element is encoded
//   (array_value.h: u8 0 for NULL | u8 1 + payload)
//
// so a record knows its fields' types by itself; their names are the
// binder's (Type::fields). Host byte order: the encoding lives in memory
// and in tuples of intermediate results, never on the wire or on disk.
// Text output is PostgreSQL's record_out: "(1,a,)", a field in double
// quotes when it is empty or holds quotes, backslashes, parentheses,
// commas or blanks (quotes and backslashes then doubled), a NULL field
// empty.
//
// Thread-safety: pure functions; RecordBuilder is per use.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/types.h"
#include "common/value.h"

namespace paceline {

// Builds a record field by field.
class RecordBuilder {
 public:
  RecordBuilder();
  // `v` is the next field (NULL or any value; a typed NULL keeps its type).
  void Add(const Value& v);
  Value Finish();

 private:
  uint32_t count_ = 0;
  std::string bytes_;
};

// The fields of a non-NULL record Value, in order; empty when it has none.
std::vector<Value> RecordFields(const Value& record);
// Field `index` (0-based) of a non-NULL record; NULL past its last field.
Value RecordFieldAt(const Value& record, size_t index);
Value MakeRecord(const std::vector<Value>& fields);

// PostgreSQL's record_out (see above), appended to *out.
void AppendRecordText(const Value& record, std::string* out);

// Value::Compare / Value::Hash for records: field by field, a NULL field
// after any other (PostgreSQL's btree record_cmp), then the shorter first.
int CompareRecords(const Value& a, const Value& b);
uint64_t HashRecord(const Value& record);

}  // namespace paceline
