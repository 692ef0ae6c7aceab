// Sequences across restarts and crashes: their descriptions come back from
// the log and from a checkpoint, and nextval never hands out a value twice
// (it may skip fewer than 2 * kLogAhead after a crash, none after a clean
// close).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "test/engine/durability/durability_fixtures.h"

namespace paceline::engine {
namespace {

using test::TempDir;
using test_durability::DurabilityFilesTest;
using test_durability::DurabilityTest;
using test_durability::Rows;
using test_durability::SegmentFiles;
using test_sql::Ok;

// CREATE / ALTER / DROP SEQUENCE are logged DDL: after a restart, from the
// log or from a checkpoint, the sequences that exist are exactly those left,
// with their options and the state an ALTER .. RESTART gave them.
TEST_P(DurabilityTest, SequencesAndTheirOptionsSurviveARestart) {
  auto check = [&] {
    const catalog::Catalog& catalog = db_->catalog();
    EXPECT_EQ(catalog.SequenceNames(), (std::vector<std::string>{"down", "kept"}));
    ASSERT_NE(catalog.FindSequence("kept"), nullptr);
    const catalog::SequenceSchema kept = catalog.FindSequence("kept")->schema();
    EXPECT_EQ(kept.type, TypeId::kInt32);
    EXPECT_EQ(kept.increment, 5);
    EXPECT_EQ(kept.max, 1000);
    EXPECT_TRUE(kept.cycle);
    EXPECT_EQ(catalog.FindSequence("kept")->State(), (std::pair<int64_t, bool>{40, false}));
    const catalog::SequenceSchema down = catalog.FindSequence("down")->schema();
    EXPECT_EQ(down.increment, -1);
    EXPECT_EQ(down.min, INT64_MIN);
    EXPECT_EQ(down.start, -1);
  };
  Open();
  Ok(session_, "CREATE SEQUENCE kept AS integer START 10");
  Ok(session_, "CREATE SEQUENCE down INCREMENT -1");
  Ok(session_, "CREATE SEQUENCE gone");
  Ok(session_, "CREATE TABLE owner (a INT)");
  Ok(session_, "CREATE SEQUENCE owned OWNED BY owner.a");
  Ok(session_, "ALTER SEQUENCE kept INCREMENT 5 MAXVALUE 1000 CYCLE RESTART 40");
  Ok(session_, "DROP SEQUENCE gone");
  Ok(session_, "DROP TABLE owner");
  check();
  Close();
  Open();
  check();
  durability::CheckpointStats stats;
  ASSERT_TRUE(db_->Checkpoint(&stats).ok());
  Close();
  Open();
  EXPECT_TRUE(db_->recovery_stats().had_checkpoint);
  check();
}

// nextval after a restart continues above every value handed out, never
// repeating one (it may skip fewer than 2 * kLogAhead). Excluded: an ALTER whose
// new bounds exclude the bound logged ahead (max 10 while 32 is logged)
// making recovery fail or the sequence end early, and an ALTER checked on
// replay against a state the log has not reached yet (MINVALUE 80 replayed
// from a checkpoint's DDL history, where the sequence is still at 1).
TEST_P(DurabilityTest, SequencesNeverRepeatAValueAfterARestart) {
  auto next = [&](const std::string& name) {
    return std::stoll(Rows(session_, "SELECT nextval('" + name + "')"));
  };
  Open();
  Ok(session_, "CREATE SEQUENCE s");
  Ok(session_, "CREATE SEQUENCE narrowed");
  Ok(session_, "CREATE SEQUENCE raised");
  int64_t last = 0;
  for (int i = 0; i < 70; ++i) last = next("s");
  EXPECT_EQ(last, 70);
  for (int i = 0; i < 5; ++i) next("narrowed");
  Ok(session_, "ALTER SEQUENCE narrowed MAXVALUE 10");
  for (int i = 0; i < 90; ++i) next("raised");
  Ok(session_, "ALTER SEQUENCE raised MINVALUE 80 START 80");
  Ok(session_, "BEGIN");
  EXPECT_EQ(next("s"), 71);  // shown inside a block: durable before it is shown
  Ok(session_, "ROLLBACK");
  // A clean close logs each sequence's exact state: nothing is skipped.
  Close();
  Open();
  EXPECT_EQ(next("s"), 72);
  EXPECT_EQ(next("narrowed"), 6);
  EXPECT_EQ(next("raised"), 91);
  // A checkpoint copies the state logged ahead: a crash after it (the data
  // directory copied while the database runs) comes back past that bound.
  durability::CheckpointStats stats;
  ASSERT_TRUE(db_->Checkpoint(&stats).ok());
  const int64_t shown = next("s");
  EXPECT_EQ(shown, 73);
  TempDir crashed;
  {
    std::unique_ptr<Database> db;
    ASSERT_NO_FATAL_FAILURE(OpenCrashCopy(crashed, &db));
    EXPECT_TRUE(db->recovery_stats().had_checkpoint);
    EXPECT_GT(db->recovery_stats().sequence_records, 0u);
    const int64_t after_crash = std::stoll(Rows(db->CreateSession(), "SELECT nextval('s')"));
    EXPECT_GT(after_crash, shown);
    EXPECT_LE(after_crash, shown + 2 * catalog::Sequence::kLogAhead);
  }
  Close();
  Open();
  EXPECT_EQ(next("s"), 74);
  EXPECT_EQ(next("narrowed"), 7);
  EXPECT_EQ(next("raised"), 92);
}

// serial and identity columns are CREATE TABLE statements that make a
// sequence: after a restart (from the log or a checkpoint, and after a
// crash) the column keeps its DEFAULT (and identity) and its sequence, and
// inserts continue above every id handed out. A DEFAULT dropped by DROP SEQUENCE .. CASCADE stays dropped.
TEST_P(DurabilityTest, SerialAndIdentityColumnsKeepTheirSequencesAfterARestart) {
  auto insert = [&](const std::unique_ptr<Session>& session) {
    return std::stoll(Rows(session, "INSERT INTO t (v) VALUES ('x') RETURNING id"));
  };
  auto check = [&] {
    const catalog::Catalog& catalog = db_->catalog();
    const catalog::TableSchema& t = catalog.FindTable("t")->schema();
    EXPECT_EQ(t.columns[0].type.id, TypeId::kInt32);
    EXPECT_TRUE(t.columns[0].not_null);
    EXPECT_EQ(t.columns[0].default_value.expression, "nextval('t_id_seq'::regclass)");
    ASSERT_NE(catalog.FindSequence("t_id_seq"), nullptr);
    EXPECT_EQ(catalog.FindSequence("t_id_seq")->schema().owned_by_table, "t");
    EXPECT_EQ(catalog.FindSequence("t_id_seq")->schema().type, TypeId::kInt32);
    const catalog::TableSchema& d = catalog.FindTable("d")->schema();
    EXPECT_FALSE(d.columns[0].default_value.present());
    EXPECT_EQ(d.columns[1].default_value.expression, "7");
    EXPECT_EQ(catalog.FindSequence("extra"), nullptr);
    const catalog::TableSchema& idt = catalog.FindTable("idt")->schema();
    EXPECT_EQ(idt.columns[0].identity, 'a');
    ASSERT_NE(catalog.FindSequence("idt_id_seq"), nullptr);
    EXPECT_EQ(catalog.FindSequence("idt_id_seq")->schema().start, 100);
    EXPECT_EQ(catalog.FindSequence("idt_id_seq")->schema().type, TypeId::kInt64);
  };
  Open();
  Ok(session_, "CREATE TABLE t (id serial PRIMARY KEY, v text)");
  Ok(session_, "CREATE SEQUENCE extra");
  Ok(session_, "CREATE TABLE d (a int DEFAULT nextval('extra'), b int DEFAULT 7)");
  Ok(session_, "DROP SEQUENCE extra CASCADE");
  Ok(session_, "CREATE TABLE idt (id bigint GENERATED ALWAYS AS IDENTITY (START 100), v int)");
  Ok(session_, "INSERT INTO idt (v) VALUES (1), (1)");
  Ok(session_, "TRUNCATE idt RESTART IDENTITY");  // replayed: starts at 100 again
  Ok(session_, "INSERT INTO idt (v) VALUES (1)");
  int64_t last = 0;
  for (int i = 0; i < 40; ++i) last = insert(session_);
  EXPECT_EQ(last, 40);
  check();
  Close();
  Open();
  check();
  EXPECT_EQ(insert(session_), 41);  // a clean close skips nothing
  durability::CheckpointStats stats;
  ASSERT_TRUE(db_->Checkpoint(&stats).ok());
  const int64_t shown = insert(session_);
  TempDir crashed;
  {
    std::unique_ptr<Database> db;
    ASSERT_NO_FATAL_FAILURE(OpenCrashCopy(crashed, &db));
    const int64_t after_crash = insert(db->CreateSession());
    EXPECT_GT(after_crash, shown);
    EXPECT_LE(after_crash, shown + 2 * catalog::Sequence::kLogAhead);
  }
  Close();
  Open();
  check();
  EXPECT_EQ(insert(session_), shown + 1);
  EXPECT_EQ(Rows(session_, "INSERT INTO idt (v) VALUES (2) RETURNING id"), "101\n");
}

// A crash may cut the log after any record. Interleaving: two clients
// insert rows keyed by nextval (submitted, committed by workers) while a
// third calls nextval alone. Excluded: a prefix holding a committed row whose
// id the recovered sequence would hand out again (the covering sequence
// record must precede every commit that used a value it covers).
TEST_F(DurabilityFilesTest, EveryPrefixOfTheLogKeepsSequencesAboveTheirCommittedValues) {
  {
    Options o = MakeOptions();
    o.workers = 2;
    std::unique_ptr<Database> db;
    ASSERT_TRUE(Database::Open(o, &db).ok());
    Ok(db->CreateSession(), "CREATE SEQUENCE s");
    Ok(db->CreateSession(), "CREATE TABLE vals (id BIGINT PRIMARY KEY, c INT)");
    std::vector<std::thread> clients;
    for (int c = 0; c < 3; ++c) {
      clients.emplace_back([&, c] {
        for (int i = 0; i < 150; ++i) {
          StatementCall call = c < 2 ? StatementCall{"INSERT INTO vals VALUES (nextval('s'), $1)", {Value::Int32(c)}}
                                     : StatementCall{"SELECT nextval('s')", {}};
          TransactionResult r = db->Submit(TransactionRequest::Statements({call})).get();
          EXPECT_TRUE(r.committed()) << r.status.ToString();
        }
      });
    }
    for (auto& t : clients) t.join();
  }
  const std::string segment = SegmentFiles(dir_.path()).back();
  const std::vector<size_t> ends = FrameEnds();
  ASSERT_GT(ends.size(), 300u);  // 300 commits and one record per 32 values
  TempDir copy;
  Options o = MakeOptions();
  o.data_dir = copy.path();
  for (size_t i = 2; i < ends.size(); i += 7) {  // every seventh prefix after the two CREATEs, and the whole log
    const size_t end = i + 7 >= ends.size() ? ends.back() : ends[i];
    CopyLogPrefix(segment, end, copy.path());
    std::unique_ptr<Database> db;
    Status s = Database::Open(o, &db);
    ASSERT_TRUE(s.ok()) << "the log cut at offset " << end << ": " << s.ToString();
    auto session = db->CreateSession();
    const std::string max = Rows(session, "SELECT coalesce(max(id), 0) FROM vals");
    const int64_t next = std::stoll(Rows(session, "SELECT nextval('s')"));
    ASSERT_GT(next, std::stoll(max)) << "the log cut at offset " << end;
  }
}

INSTANTIATE_TEST_SUITE_P(CloseWithAndWithoutCheckpoint, DurabilityTest, ::testing::Bool(),
                         [](const auto& info) { return info.param ? "checkpoint_on_close" : "log_only"; });

}  // namespace
}  // namespace paceline::engine
