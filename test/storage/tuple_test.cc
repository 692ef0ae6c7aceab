// TupleLayout: every type round-trips through the blob, NULLs are kept,
// Update replaces only the named columns (strings re-laid correctly), and a
// delta (the redo log's changed columns) names exactly the columns that
// differ and rebuilds the new image from the old one; a malformed delta is
// refused.
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

// Every column of `a` and `b` holds the same value (or both NULL).
void ExpectSameRow(const TupleLayout& layout, const Tuple& a, const Tuple& b) {
  for (int i = 0; i < layout.column_count(); ++i) {
    ASSERT_EQ(layout.IsNull(a, i), layout.IsNull(b, i)) << "column " << i;
    if (!layout.IsNull(a, i)) {
      EXPECT_EQ(layout.Get(a, i), layout.Get(b, i)) << "column " << i;
    }
  }
}

TEST(TupleTest, ADeltaNamesTheChangedColumnsAndRebuildsTheNewImage) {
  TupleLayout layout(AllTypes());
  auto values = SampleValues();
  TuplePtr before = layout.Build(values);
  struct Case {
    const char* what;
    std::vector<int> columns;
    std::vector<Value> values;
  };
  const std::vector<Case> cases = {
      {"nothing changed", {}, {}},
      {"one fixed column", {2}, {Value::Int32(-1)}},
      {"a string grows, a numeric and a timestamp change", {8, 6, 11},
       {Value::String(TypeId::kVarchar, "a longer v"), Value::Numeric(Decimal(-5, 2)), Value::Timestamp(7)}},
      {"strings become NULL and shorter", {9, 12, 7}, {Value::Null(TypeId::kText), Value::Bytea("b"),
                                                      Value::String(TypeId::kChar, "z   ")}},
      {"a fixed column becomes NULL", {0, 3}, {Value::Null(TypeId::kBool), Value::Null(TypeId::kInt64)}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    TuplePtr after = layout.Update(*before, c.columns, c.values);
    std::string delta;
    EXPECT_EQ(layout.AppendDelta(*before, *after, &delta), c.columns.size());
    TuplePtr rebuilt;
    ASSERT_TRUE(layout.ApplyDelta(*before, delta, &rebuilt));
    ExpectSameRow(layout, *after, *rebuilt);
    EXPECT_EQ(rebuilt->size, after->size);
    // Applied to a newer image that changed other columns too, the delta
    // sets only its own columns (replay after a fuzzy checkpoint).
    TuplePtr newer = layout.Update(*before, {1, 10}, {Value::Int16(99), Value::Date(1)});
    ASSERT_TRUE(layout.ApplyDelta(*newer, delta, &rebuilt));
    TuplePtr expected = layout.Update(*newer, c.columns, c.values);
    ExpectSameRow(layout, *expected, *rebuilt);
  }
  // From NULL back to values.
  std::vector<Value> nulls;
  for (const Type& t : AllTypes()) nulls.push_back(Value::Null(t.id));
  TuplePtr empty = layout.Build(nulls);
  std::string delta;
  EXPECT_EQ(layout.AppendDelta(*empty, *before, &delta), static_cast<size_t>(layout.column_count()));
  TuplePtr rebuilt;
  ASSERT_TRUE(layout.ApplyDelta(*empty, delta, &rebuilt));
  ExpectSameRow(layout, *before, *rebuilt);
}

TEST(TupleTest, AMalformedDeltaIsRefused) {
  TupleLayout layout(AllTypes());
  TuplePtr before = layout.Build(SampleValues());
  TuplePtr after = layout.Update(*before, {2, 9}, {Value::Int32(5), Value::Text("t")});
  std::string good;
  ASSERT_EQ(layout.AppendDelta(*before, *after, &good), 2u);
  TuplePtr out;
  ASSERT_TRUE(layout.ApplyDelta(*before, good, &out));
  auto refused = [&](std::string delta, const char* what) {
    TuplePtr t;
    EXPECT_FALSE(layout.ApplyDelta(*before, delta, &t)) << what;
    EXPECT_EQ(t, nullptr) << what;
  };
  refused("", "no count");
  refused(good.substr(0, good.size() - 1), "the last string's bytes cut short");
  refused(good + "x", "a byte left over");
  std::string out_of_range = good;
  out_of_range[2] = static_cast<char>(layout.column_count());  // the first column index
  refused(out_of_range, "a column past the layout's");
  std::string out_of_order = good;
  out_of_order[2] = 9;  // first column 9, then column 9 again
  refused(out_of_order, "columns not ascending");
  std::string bad_null = good;
  bad_null[4] = 2;  // the first column's NULL flag
  refused(bad_null, "a NULL flag that is neither 0 nor 1");
}

}  // namespace
}  // namespace paceline::storage
