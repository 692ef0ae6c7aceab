// TupleLayout: every type round-trips through the blob, NULLs are kept, and
// Update replaces only the named columns (strings re-laid correctly).
#include "storage/tuple.h"

#include <gtest/gtest.h>

namespace paceline::storage {
namespace {

std::vector<Type> AllTypes() {
  return {Type(TypeId::kBool),    Type(TypeId::kInt16),   Type(TypeId::kInt32),   Type(TypeId::kInt64),
          Type(TypeId::kFloat32), Type(TypeId::kFloat64), Type::Numeric(12, 2),   Type::Char(4),
          Type::Varchar(10),      Type(TypeId::kText),    Type(TypeId::kDate),    Type(TypeId::kTimestamp),
          Type(TypeId::kBytea)};
}

std::vector<Value> SampleValues() {
  return {Value::Bool(true),          Value::Int16(-7),       Value::Int32(123456),
          Value::Int64(-(int64_t{1} << 50)), Value::Float32(1.5f), Value::Float64(-2.25),
          Value::Numeric(Decimal(123456, 2)), Value::String(TypeId::kChar, "ab  "),
          Value::String(TypeId::kVarchar, "hello"), Value::Text(std::string(300, 'x')),
          Value::Date(19000),         Value::Timestamp(1700000000123456),
          Value::Bytea(std::string("\x00\xff\x01" "bytes\x00", 9))};
}

TEST(TupleTest, EveryTypeRoundTrips) {
  TupleLayout layout(AllTypes());
  auto values = SampleValues();
  TuplePtr t = layout.Build(values);
  for (int i = 0; i < layout.column_count(); ++i) {
    EXPECT_FALSE(layout.IsNull(*t, i));
    EXPECT_EQ(layout.Get(*t, i), values[i]) << "column " << i;
  }
}

TEST(TupleTest, NullsAreKept) {
  TupleLayout layout(AllTypes());
  std::vector<Value> values;
  for (const Type& t : AllTypes()) values.push_back(Value::Null(t.id));
  values[3] = Value::Int64(5);
  TuplePtr t = layout.Build(values);
  for (int i = 0; i < layout.column_count(); ++i) EXPECT_EQ(layout.IsNull(*t, i), i != 3) << i;
  EXPECT_EQ(layout.GetInt(*t, 3), 5);
}

TEST(TupleTest, UpdateReplacesOnlyNamedColumnsAndRelaysStrings) {
  TupleLayout layout(AllTypes());
  auto values = SampleValues();
  TuplePtr t = layout.Build(values);
  // Replace a string in the middle with a longer one, an int, and set a string NULL.
  TuplePtr u = layout.Update(*t, {8, 2, 9}, {Value::String(TypeId::kVarchar, "a longer v"), Value::Int32(-1),
                                             Value::Null(TypeId::kText)});
  for (int i = 0; i < layout.column_count(); ++i) {
    if (i == 8) EXPECT_EQ(layout.Get(*u, i).string_value(), "a longer v");
    else if (i == 2) EXPECT_EQ(layout.Get(*u, i).int_value(), -1);
    else if (i == 9) EXPECT_TRUE(layout.IsNull(*u, i));
    else EXPECT_EQ(layout.Get(*u, i), values[i]) << "column " << i;
  }
  // And back from NULL to a value.
  TuplePtr w = layout.Update(*u, {9}, {Value::Text("back")});
  EXPECT_EQ(layout.Get(*w, 9).string_value(), "back");
  EXPECT_EQ(layout.Get(*w, 8).string_value(), "a longer v");
  // The original is untouched (tuples are immutable).
  EXPECT_EQ(layout.Get(*t, 8).string_value(), "hello");
  // Bytea is laid out with the strings: a longer value, NULs included.
  const std::string bytes("\x00\x00\xfe longer bytes \x00", 18);
  TuplePtr x = layout.Update(*w, {12}, {Value::Bytea(bytes)});
  EXPECT_EQ(layout.Get(*x, 12), Value::Bytea(bytes));
  EXPECT_EQ(layout.GetString(*x, 12), bytes);
  EXPECT_EQ(layout.Get(*x, 9).string_value(), "back");
  EXPECT_EQ(layout.Get(*x, 8).string_value(), "a longer v");
}

}  // namespace
}  // namespace paceline::storage
