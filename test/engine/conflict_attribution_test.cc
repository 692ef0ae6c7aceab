// Conflict attribution: the concurrency control names the table of the row
// or range behind an abort, the footprint knows which table each reference
// located rows of, and a policy's History blames only those references.
//
//   interleaving (tables a, b; both have k = 1)            CC       blamed
//   A: BEGIN; SELECT a k=1; UPDATE b k=1 | B: UPDATE a k=1   occ      a.k=1 (A's read of a failed validation)
//      | A: COMMIT → 40001
//   A: BEGIN; UPDATE a k=1 | B: BEGIN; UPDATE b k=1;        2pl      a.k=1 (B could not lock a's row)
//      UPDATE a k=1 → 40001
// Excluded: blaming b.k=1, which located no row of the conflict (the
// paper's policies credit every reference of the transaction).
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "common/status.h"
#include "engine/database.h"
#include "engine/session.h"

namespace paceline::engine {
namespace {

class ConflictAttributionTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    Options options;
    options.cc = GetParam();
    options.scheduler = "adaptive";
    options.workers = 1;
    ASSERT_TRUE(Database::Open(options, &db_).ok());
    a_ = db_->CreateSession();
    b_ = db_->CreateSession();
    Ok(a_.get(), "CREATE TABLE a (k INT PRIMARY KEY, v INT)");
    Ok(a_.get(), "CREATE TABLE b (k INT PRIMARY KEY, v INT)");
    Ok(a_.get(), "INSERT INTO a VALUES (1, 0)");
    Ok(a_.get(), "INSERT INTO b VALUES (1, 0)");
  }
  static Status Run(Session* s, const std::string& sql) {
    QueryResult r;
    return s->Execute(sql, &r);
  }
  static void Ok(Session* s, const std::string& sql) {
    Status st = Run(s, sql);
    ASSERT_TRUE(st.ok()) << sql << ": " << st.ToString();
  }
  // The names of the references History blamed, heaviest first.
  std::vector<std::string> Blamed() const {
    std::vector<std::string> names;
    for (const auto& h : db_->TopReferences(10)) names.push_back(h.name);
    return names;
  }

  std::unique_ptr<Database> db_;
  std::unique_ptr<Session> a_, b_;
};

TEST_P(ConflictAttributionTest, AbortBlamesTheReferenceThatLocatedTheConflictingRow) {
  if (GetParam() == "occ") {
    Ok(a_.get(), "BEGIN");
    Ok(a_.get(), "SELECT v FROM a WHERE k = 1");
    Ok(a_.get(), "UPDATE b SET v = v + 1 WHERE k = 1");
    Ok(b_.get(), "UPDATE a SET v = v + 1 WHERE k = 1");
    Status st = Run(a_.get(), "COMMIT");
    ASSERT_EQ(st.sqlstate(), sqlstate::kSerializationFailure) << st.ToString();
  } else {
    Ok(a_.get(), "BEGIN");
    Ok(a_.get(), "UPDATE a SET v = v + 1 WHERE k = 1");
    Ok(b_.get(), "BEGIN");
    Ok(b_.get(), "UPDATE b SET v = v + 1 WHERE k = 1");
    Status st = Run(b_.get(), "UPDATE a SET v = v + 1 WHERE k = 1");
    ASSERT_EQ(st.sqlstate(), sqlstate::kSerializationFailure) << st.ToString();
    Run(b_.get(), "ROLLBACK");
    Ok(a_.get(), "COMMIT");
  }
  EXPECT_EQ(Blamed(), std::vector<std::string>{"a.k=1"});
}

INSTANTIATE_TEST_SUITE_P(Cc, ConflictAttributionTest, ::testing::Values("occ", "2pl"),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace paceline::engine
