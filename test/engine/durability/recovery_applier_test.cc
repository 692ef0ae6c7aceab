// RecoveryApplier over hand-made kRowImages payloads: an update's delta
// (its changed columns) is applied over the row's image, whatever that image
// holds in its other columns (replay from a fuzzy checkpoint); a delta whose
// row is absent is skipped and counted over a fuzzy checkpoint's copy (a
// later record deletes it) and stops recovery elsewhere; a delta
// that does not fit the table's columns stops recovery with XX001; and the
// encoder logs a whole image instead when most columns changed.
#include "engine/durability/recovery_applier.h"

#include <gtest/gtest.h>

#include "common/fixed_bytes.h"
#include "engine/durability/redo_record.h"
#include "storage/catalog/catalog.h"

namespace paceline::engine::durability {
namespace {

// A kRowImages entry for row 4 of table "t" whose delta sets column 3.
void PutBadDelta(std::string* payload) {
  PutFixed(payload, uint16_t{1});
  payload->append("t");
  PutFixed(payload, uint64_t{4});
  PutFixed(payload, uint8_t{2});
  std::string delta;
  PutFixed(&delta, uint16_t{1});
  PutFixed(&delta, uint16_t{3});
  PutFixed(&delta, uint8_t{0});
  PutFixed(&delta, int32_t{1});
  PutFixed(payload, static_cast<uint32_t>(delta.size()));
  payload->append(delta);
}

class RecoveryApplierTest : public ::testing::Test {
 protected:
  void SetUp() override {
    catalog::TableSchema schema;
    schema.name = "t";
    for (auto [name, type] : {std::pair{"k", TypeId::kInt32}, {"v", TypeId::kInt32}, {"pad", TypeId::kText}}) {
      catalog::ColumnSchema column;
      column.name = name;
      column.type = Type(type);
      schema.columns.push_back(column);
    }
    catalog::IndexSchema pk;
    pk.name = "t_pkey";
    pk.columns = {0};
    pk.unique = pk.primary = true;
    ASSERT_TRUE(catalog_.CreateTable(schema, {pk}, &table_).ok());
  }

  storage::TuplePtr Image(int k, int v, const std::string& pad) const {
    return table_->layout().Build({Value::Int32(k), Value::Int32(v), Value::Text(pad)});
  }
  // Row `row_id`'s image now (nullptr: absent).
  const storage::Tuple* ImageOf(uint64_t row_id) const {
    const storage::Tuple* found = nullptr;
    table_->ForEachRow([&](storage::Row* row) {
      if (row->row_id == row_id) found = row->tuple.load();
      return found == nullptr;
    });
    return found;
  }

  catalog::Catalog catalog_;
  std::shared_ptr<storage::Table> table_;
};

TEST_F(RecoveryApplierTest, ADeltaSetsItsColumnsOverWhateverTheRowHolds) {
  const std::string pad(500, 'p');
  storage::TuplePtr committed = Image(1, 10, pad);
  storage::TuplePtr updated = Image(1, 11, pad);
  std::string update;
  AppendRowUpdate("t", 7, table_->layout(), *committed, *updated, &update);
  EXPECT_LT(update.size(), 100u) << "the 500-byte pad is not logged again";

  // The checkpoint's image of row 7 is newer in `pad` than the update (a
  // fuzzy checkpoint copied it later); the log's delta sets only `v`.
  std::string checkpoint;
  storage::TuplePtr newer = Image(1, 10, "changed later");
  AppendRowImage("t", 7, newer.get(), &checkpoint);
  RecoveryApplier applier(&catalog_);
  ASSERT_TRUE(applier.Apply(checkpoint, "checkpoint", /*over_fuzzy_copy=*/false).ok());
  ASSERT_TRUE(applier.Apply(update, "LSN 2", /*over_fuzzy_copy=*/true).ok());
  ASSERT_TRUE(applier.Flush(true).ok());
  const storage::Tuple* now = ImageOf(7);
  ASSERT_NE(now, nullptr);
  EXPECT_EQ(table_->layout().Get(*now, 1).int_value(), 11);
  EXPECT_EQ(table_->layout().Get(*now, 2).string_value(), "changed later");
  EXPECT_EQ(applier.images_applied(), 2u);
  EXPECT_EQ(applier.deltas_skipped(), 0u);
}

TEST_F(RecoveryApplierTest, ADeltaWithoutItsRowIsSkippedAndTheLaterDeleteWins) {
  storage::TuplePtr committed = Image(2, 20, "x");
  storage::TuplePtr updated = Image(2, 21, "x");
  std::string update, deleted;
  AppendRowUpdate("t", 9, table_->layout(), *committed, *updated, &update);
  AppendRowImage("t", 9, nullptr, &deleted);
  RecoveryApplier applier(&catalog_);
  ASSERT_TRUE(applier.Apply(update, "LSN 5", /*over_fuzzy_copy=*/true).ok());
  ASSERT_TRUE(applier.Apply(deleted, "LSN 6", /*over_fuzzy_copy=*/true).ok());
  ASSERT_TRUE(applier.Flush(true).ok());
  EXPECT_EQ(ImageOf(9), nullptr);
  EXPECT_EQ(applier.deltas_skipped(), 1u);
  // Past the checkpoint's copy (or without one) every row a delta names was
  // logged before it: a missing one means the log is damaged.
  RecoveryApplier strict(&catalog_);
  Status s = strict.Apply(update, "LSN 7", /*over_fuzzy_copy=*/false);
  EXPECT_TRUE(s.Is(sqlstate::kDataCorrupted)) << s.ToString();
  EXPECT_NE(s.message().find("row 9"), std::string::npos) << s.ToString();
}

TEST_F(RecoveryApplierTest, ADeltaThatDoesNotFitStopsRecovery) {
  std::string image;
  storage::TuplePtr row = Image(3, 30, "y");
  AppendRowImage("t", 4, row.get(), &image);
  // A delta naming column 3 of a three-column table.
  std::string bad;
  PutBadDelta(&bad);
  RecoveryApplier applier(&catalog_);
  ASSERT_TRUE(applier.Apply(image, "LSN 1", /*over_fuzzy_copy=*/false).ok());
  Status s = applier.Apply(bad, "LSN 2", /*over_fuzzy_copy=*/false);
  EXPECT_TRUE(s.Is(sqlstate::kDataCorrupted)) << s.ToString();
  EXPECT_NE(s.message().find("LSN 2"), std::string::npos) << s.ToString();
}

TEST_F(RecoveryApplierTest, AnUpdateOfMostColumnsIsLoggedAsItsImage) {
  storage::TuplePtr committed = Image(4, 40, "a");
  storage::TuplePtr updated = Image(5, 41, "b");
  std::string update;
  AppendRowUpdate("t", 3, table_->layout(), *committed, *updated, &update);
  RowImageReader reader(update);
  RowImage entry;
  ASSERT_TRUE(reader.Next(&entry));
  EXPECT_FALSE(entry.delta);
  EXPECT_EQ(entry.image.size(), updated->size);
}

}  // namespace
}  // namespace paceline::engine::durability
