// Index over a Table: unique point lookups through the hash table, ordered
// range scans over key prefixes with inclusive/exclusive boundaries,
// non-unique keys, NULLs in unique keys, and stale entries after key updates.
#include "storage/index.h"

#include <gtest/gtest.h>

#include "storage/table.h"
#include "cc/occ.h"
#include "storage/epoch_manager.h"
#include "engine/transaction.h"

namespace paceline::storage {
namespace {

// order_line(w, o, n, item) with PRIMARY KEY (w, o, n) and an index on item.
class IndexTest : public ::testing::Test {
 protected:
  void SetUp() override {
    catalog::TableSchema schema;
    schema.name = "order_line";
    for (const char* name : {"w", "o", "n", "item"}) {
      catalog::ColumnSchema c;
      c.name = name;
      c.type = Type(TypeId::kInt32);
      c.not_null = std::string(name) != "item";
      schema.columns.push_back(c);
    }
    table_ = std::make_unique<Table>(TableId(1), schema);
    catalog::IndexSchema pk;
    pk.name = "order_line_pkey";
    pk.columns = {0, 1, 2};
    pk.unique = pk.primary = true;
    ASSERT_TRUE(table_->AddIndex(pk).ok());
    catalog::IndexSchema by_item;
    by_item.name = "order_line_item_idx";
    by_item.columns = {3};
    ASSERT_TRUE(table_->AddIndex(by_item).ok());
    auto txn_ptr = NewTxn();
    engine::Transaction& txn = *txn_ptr;
    for (int w = 1; w <= 2; ++w) {
      for (int o = 1; o <= 10; ++o) {
        for (int n = 1; n <= 5; ++n) {
          ASSERT_TRUE(txn.Insert(table_.get(), Build(w, o, n, n * 10)).ok());
        }
      }
    }
    txn.Commit();
  }

  // A started transaction under OCC (no concurrency here: the tests are
  // about index maintenance).
  std::unique_ptr<engine::Transaction> NewTxn() {
    timestamp_ = timestamp_.Next();
    auto txn = std::make_unique<engine::Transaction>(&cc_, &epoch_, timestamp_);
    EXPECT_TRUE(txn->Start().ok());
    return txn;
  }

  // The image `txn` sees of `row` (what an UPDATE reads before it writes).
  static const Tuple* Read(engine::Transaction& txn, Row* row) {
    const Tuple* image = nullptr;
    EXPECT_TRUE(txn.Read(row, /*for_update=*/true, &image).ok());
    return image;
  }

  TuplePtr Build(int w, int o, int n, std::optional<int> item) {
    return table_->layout().Build(std::vector<Value>{Value::Int32(w), Value::Int32(o), Value::Int32(n),
                                                     item ? Value::Int32(*item) : Value::Null(TypeId::kInt32)});
  }

  std::string Prefix(std::vector<int> values) {
    std::vector<Value> v;
    for (int x : values) v.push_back(Value::Int32(x));
    std::string key;
    bool exact = false;
    EXPECT_TRUE(table_->primary_index()->KeyOfValues(v.data(), static_cast<int>(v.size()), &key, &exact).ok());
    EXPECT_TRUE(exact);
    return key;
  }

  // (o, n) pairs of the live rows the primary index yields in [lower, upper).
  std::vector<std::pair<int, int>> ScanPk(const std::string& lower, const std::string& upper) {
    std::vector<std::pair<int, int>> out;
    table_->primary_index()->Scan(lower, upper, [&](const std::string&, Row* row) {
      const Tuple* t = row->tuple.load();
      if (t != nullptr) out.emplace_back(table_->layout().GetInt(*t, 1), table_->layout().GetInt(*t, 2));
      return true;
    });
    return out;
  }

  std::unique_ptr<Table> table_;
  cc::Occ cc_{cc::CcOptions{}};
  EpochManager epoch_;  // after table_: destroyed first, it gives rows back to the table
  TxnTimestamp timestamp_;
};

TEST_F(IndexTest, PointLookupFindsExactlyTheKey) {
  Row* row = table_->primary_index()->Find(Prefix({2, 7, 3}));
  ASSERT_NE(row, nullptr);
  EXPECT_EQ(table_->layout().GetInt(*row->tuple.load(), 3), 30);
  EXPECT_EQ(table_->primary_index()->Find(Prefix({2, 7, 6})), nullptr);
  EXPECT_EQ(table_->primary_index()->Find(Prefix({3, 1, 1})), nullptr);
}

TEST_F(IndexTest, PrefixScanReturnsOneOrderInKeyOrder) {
  std::string p = Prefix({1, 4});
  auto rows = ScanPk(p, PrefixSuccessor(p));
  ASSERT_EQ(rows.size(), 5u);
  for (int n = 1; n <= 5; ++n) EXPECT_EQ(rows[n - 1], std::make_pair(4, n));
}

TEST_F(IndexTest, RangeBoundariesInclusiveAndExclusive) {
  // Orders 3..5 of warehouse 1: lower inclusive at o=3, upper exclusive at o=6.
  std::string lower = Prefix({1, 3});
  std::string upper = Prefix({1, 6});
  auto rows = ScanPk(lower, upper);
  ASSERT_EQ(rows.size(), 15u);
  EXPECT_EQ(rows.front(), std::make_pair(3, 1));
  EXPECT_EQ(rows.back(), std::make_pair(5, 5));
  // Exclusive lower (o > 3) = start after every key with prefix (1, 3).
  rows = ScanPk(PrefixSuccessor(Prefix({1, 3})), PrefixSuccessor(Prefix({1, 5})));
  ASSERT_EQ(rows.size(), 10u);
  EXPECT_EQ(rows.front(), std::make_pair(4, 1));
  EXPECT_EQ(rows.back(), std::make_pair(5, 5));
  // The last order of warehouse 1 does not bleed into warehouse 2.
  std::string w1 = Prefix({1});
  EXPECT_EQ(ScanPk(w1, PrefixSuccessor(w1)).size(), 50u);
}

TEST_F(IndexTest, NonUniqueIndexHoldsEveryRowOfAKey) {
  Index* by_item = table_->FindIndex("order_line_item_idx");
  ASSERT_NE(by_item, nullptr);
  std::string key;
  bool exact = false;
  Value v = Value::Int32(30);
  ASSERT_TRUE(by_item->KeyOfValues(&v, 1, &key, &exact).ok());
  int count = 0;
  by_item->Scan(key, PrefixSuccessor(key), [&](const std::string&, Row*) { return ++count, true; });
  EXPECT_EQ(count, 20);  // n = 3 of 20 orders
}

TEST_F(IndexTest, DuplicateUniqueKeyIsRefusedAndNothingIsLeft) {
  auto txn_ptr = NewTxn();
  engine::Transaction& txn = *txn_ptr;
  Status s = txn.Insert(table_.get(), Build(1, 1, 1, 99));
  EXPECT_TRUE(s.Is(sqlstate::kUniqueViolation)) << s.ToString();
  txn.Abort();
  EXPECT_EQ(table_->LiveRowCount(), 100u);
  EXPECT_EQ(table_->primary_index()->entry_count(), 100u);
}

TEST_F(IndexTest, UndoneInsertsGiveTheirRowsBack) {
  const size_t allocated = table_->allocated_rows();
  for (int i = 0; i < 100; ++i) {
    auto txn_ptr = NewTxn();
    engine::Transaction& txn = *txn_ptr;
    EXPECT_FALSE(txn.Insert(table_.get(), Build(1, 1, 1, 5)).ok());  // duplicate key
    ASSERT_TRUE(txn.Insert(table_.get(), Build(9, 9, i, 5)).ok());
    txn.Abort();
    epoch_.ReclaimAll();  // nothing is pinned now: released rows return to the table
  }
  EXPECT_LE(table_->allocated_rows(), allocated + 2) << "failed and aborted inserts must not pile up rows";
  EXPECT_EQ(table_->LiveRowCount(), 100u);
  EXPECT_EQ(table_->primary_index()->entry_count(), 100u);
  // A reused row is a normal row once committed.
  auto txn_ptr = NewTxn();
  engine::Transaction& txn = *txn_ptr;
  ASSERT_TRUE(txn.Insert(table_.get(), Build(9, 9, 9, 5)).ok());
  txn.Commit();
  Row* row = table_->primary_index()->Find(Prefix({9, 9, 9}));
  ASSERT_NE(row, nullptr);
  EXPECT_EQ(table_->layout().GetInt(*row->tuple.load(), 3), 5);
}

TEST_F(IndexTest, UpdatedKeyMovesEntryAndStaleEntryIsRemovedAtCommit) {
  Row* row = table_->primary_index()->Find(Prefix({1, 1, 1}));
  ASSERT_NE(row, nullptr);
  auto txn_ptr = NewTxn();
  engine::Transaction& txn = *txn_ptr;
  ASSERT_TRUE(txn.Update(table_.get(), row, Build(1, 1, 9, 10), Read(txn, row)).ok());
  // Inside the transaction the new key already leads to the row.
  EXPECT_EQ(table_->primary_index()->Find(Prefix({1, 1, 9})), row);
  txn.Commit();
  EXPECT_EQ(table_->primary_index()->Find(Prefix({1, 1, 1})), nullptr);
  EXPECT_EQ(table_->primary_index()->Find(Prefix({1, 1, 9})), row);
  EXPECT_EQ(table_->primary_index()->entry_count(), 100u);
}

TEST_F(IndexTest, AbortedUpdateRestoresIndex) {
  Row* row = table_->primary_index()->Find(Prefix({1, 1, 1}));
  auto txn_ptr = NewTxn();
  engine::Transaction& txn = *txn_ptr;
  ASSERT_TRUE(txn.Update(table_.get(), row, Build(1, 1, 9, 10), Read(txn, row)).ok());
  txn.Abort();
  EXPECT_EQ(table_->primary_index()->Find(Prefix({1, 1, 1})), row);
  EXPECT_EQ(table_->primary_index()->Find(Prefix({1, 1, 9})), nullptr);
  EXPECT_EQ(table_->layout().GetInt(*row->tuple.load(), 2), 1);
}

TEST_F(IndexTest, DeleteThenReinsertSameKeyInOneTransaction) {
  // The reinsert takes the deleted row's place (the entry never points at an
  // uncommitted row while the committed one still holds the key).
  Row* row = table_->primary_index()->Find(Prefix({2, 2, 2}));
  auto txn_ptr = NewTxn();
  engine::Transaction& txn = *txn_ptr;
  ASSERT_TRUE(txn.Delete(table_.get(), row).ok());
  ASSERT_TRUE(txn.Insert(table_.get(), Build(2, 2, 2, 777)).ok());
  EXPECT_EQ(table_->primary_index()->Find(Prefix({2, 2, 2})), row);
  EXPECT_EQ(table_->layout().GetInt(*row->tuple.load(), 3), 20) << "others still see the committed image";
  txn.Commit();
  Row* now = table_->primary_index()->Find(Prefix({2, 2, 2}));
  ASSERT_EQ(now, row);
  EXPECT_EQ(table_->layout().GetInt(*now->tuple.load(), 3), 777);
  EXPECT_EQ(table_->LiveRowCount(), 100u);
}

TEST_F(IndexTest, AUniqueKeyMovedToAnotherRowInOneTransactionIsHandedOverAtCommit) {
  // Row A moves from key (1,1,1) to (1,1,9) and a new row N takes (1,1,1)
  // in the same transaction. Until commit A keeps the entry (it holds the
  // key for everybody else); the transaction finds N through HandedOverRow;
  // the commit hands the entry to N. Rolled back, nothing moved.
  Row* a = table_->primary_index()->Find(Prefix({1, 1, 1}));
  for (bool commit : {false, true}) {
    auto txn_ptr = NewTxn();
    engine::Transaction& txn = *txn_ptr;
    ASSERT_TRUE(txn.Update(table_.get(), a, Build(1, 1, 9, 10), Read(txn, a)).ok());
    Row* n = nullptr;
    Status s = txn.Insert(table_.get(), Build(1, 1, 1, 5), &n);
    ASSERT_TRUE(s.ok()) << s.ToString();
    EXPECT_EQ(table_->primary_index()->Find(Prefix({1, 1, 1})), a) << "others still find A";
    EXPECT_EQ(txn.HandedOverRow(table_->primary_index(), Prefix({1, 1, 1})), n);
    // A third row for the key is a duplicate.
    EXPECT_TRUE(txn.Insert(table_.get(), Build(1, 1, 1, 6)).Is(sqlstate::kUniqueViolation));
    if (!commit) {
      txn.Abort();
      EXPECT_EQ(table_->primary_index()->Find(Prefix({1, 1, 1})), a);
      EXPECT_EQ(table_->layout().GetInt(*a->tuple.load(), 2), 1);
      EXPECT_EQ(table_->primary_index()->Find(Prefix({1, 1, 9})), nullptr);
      EXPECT_EQ(table_->LiveRowCount(), 100u);
      continue;
    }
    txn.Commit();
    Row* now = table_->primary_index()->Find(Prefix({1, 1, 1}));
    ASSERT_EQ(now, n);
    EXPECT_EQ(table_->layout().GetInt(*now->tuple.load(), 3), 5);
    EXPECT_EQ(table_->primary_index()->Find(Prefix({1, 1, 9})), a);
    EXPECT_EQ(table_->LiveRowCount(), 101u);
  }
}

TEST_F(IndexTest, DeleteThenReinsertRolledBackRestoresOriginal) {
  Row* row = table_->primary_index()->Find(Prefix({2, 2, 2}));
  auto txn_ptr = NewTxn();
  engine::Transaction& txn = *txn_ptr;
  ASSERT_TRUE(txn.Delete(table_.get(), row).ok());
  ASSERT_TRUE(txn.Insert(table_.get(), Build(2, 2, 2, 777)).ok());
  txn.Abort();
  EXPECT_EQ(table_->primary_index()->Find(Prefix({2, 2, 2})), row);
  EXPECT_EQ(table_->layout().GetInt(*row->tuple.load(), 3), 20);
}

}  // namespace
}  // namespace paceline::storage
