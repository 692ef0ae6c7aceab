// Durability end to end through the embedded API: a database with a data
// directory is closed (cleanly, with or without its closing checkpoint) and
// opened again, and must hold exactly what was committed — tables, domains,
// indexes (unique keys still enforced), foreign keys, rows — whether they
// come from a checkpoint, the log, or both (an update logs only the columns
// it changed); a torn last record is cut off,
// a corrupted one earlier stops recovery with an error naming the file and
// offset; a directory is used by one database at a time. The checkpoint
// under load excludes the anomaly a fuzzy copy risks: a transfer half in the
// copy and half lost (the balance sum would change).
#include <gtest/gtest.h>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <future>
#include <mutex>
#include <cstdio>
#include <filesystem>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "storage/catalog/canonical_domain.h"
#include "engine/database.h"
#include "engine/log/log_frame.h"
#include "engine/log/log_reader.h"
#include "test/engine/session_sql.h"
#include "test/engine/durability/durability_fixtures.h"
#include "test/engine/temp_dir.h"

namespace paceline::engine {
namespace {

using test_sql::Ok;
using test_sql::RunSql;

using test::TempDir;
using test_durability::DurabilityFilesTest;
using test_durability::DurabilityTest;
using test_durability::Rows;
using test_durability::SegmentFiles;

TEST_P(DurabilityTest, EverythingCommittedIsBackAfterARestart) {
  Open();
  Ok(session_, "CREATE DOMAIN wh AS INT");
  Ok(session_, "CREATE TABLE warehouse (w_id wh PRIMARY KEY, w_name VARCHAR(10) NOT NULL, w_ytd NUMERIC(12,2))");
  Ok(session_, "CREATE TABLE stock (s_w_id INT REFERENCES warehouse, s_i_id INT, s_qty SMALLINT, s_data TEXT, "
               "s_when TIMESTAMP, s_ok BOOLEAN, PRIMARY KEY (s_w_id, s_i_id))");
  Ok(session_, "CREATE INDEX stock_qty ON stock (s_qty)");
  Ok(session_, "CREATE TABLE gone (a INT)");
  Ok(session_, "CREATE TABLE emptied (a INT PRIMARY KEY)");
  Ok(session_, "CREATE TABLE blobs (id INT PRIMARY KEY, b BYTEA)");
  Ok(session_, "INSERT INTO blobs VALUES (1, '\\x00ff10'), (2, NULL), (3, '')");
  Ok(session_, "CREATE TABLE arrs (id INT PRIMARY KEY, tags TEXT[], n NUMERIC(6,2)[], d DATE[])");
  Ok(session_, "INSERT INTO arrs VALUES (1, '{\"a b\",NULL,\"\"}', ARRAY[1.5, NULL], '{2024-01-02}'), "
               "(2, NULL, '{}', NULL)");
  Ok(session_, "UPDATE arrs SET tags = array_append(tags, 'x') WHERE id = 1");
  // uuid and jsonb as keys (the indexes are rebuilt from recovered rows),
  // json kept verbatim, jsonb normalized with numeric's digits.
  Ok(session_, "CREATE TABLE docs (id UUID PRIMARY KEY, j JSON, b JSONB UNIQUE)");
  Ok(session_, "INSERT INTO docs VALUES ('{A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11}', '{\"b\": 1,  \"a\": 2}', "
               "'{\"b\": 1.50, \"a\": [123456789012345678901234567890]}'), "
               "('00000000-0000-0000-0000-000000000000', NULL, NULL), (gen_random_uuid(), '[]', '\"x\"')");
  // interval as a key (by span: '1 mon' is '30 days') and a value, its three fields kept.
  Ok(session_, "CREATE TABLE spans (span INTERVAL PRIMARY KEY, other INTERVAL)");
  Ok(session_, "INSERT INTO spans VALUES ('1 mon', '-1 days +02:00:00'), ('1 year 2 mons 3 days 04:05:06.5', NULL)");
  Ok(session_, "INSERT INTO warehouse VALUES (1, 'one', 10.50), (2, 'two', NULL), (3, 'three', 0)");
  ASSERT_TRUE(db_->BulkLoad("stock", {{Value::Int32(1), Value::Int32(1), Value::Int16(5), Value::Text("a'b"),
                                       Value::Null(TypeId::kTimestamp), Value::Bool(true)},
                                      {Value::Int32(1), Value::Int32(2), Value::Int16(6), Value::Text(""),
                                       Value::Timestamp(1700000000000000), Value::Bool(false)}})
                  .ok());
  // A submitted transaction (a worker commits it), a block, autocommit.
  TransactionResult r = db_->Submit(TransactionRequest::Statements(
                                        {{"UPDATE stock SET s_qty = s_qty + 10 WHERE s_w_id = 1 AND s_i_id = 1", {}},
                                         {"INSERT INTO stock VALUES (2, 7, 1, 'x', NULL, NULL)", {}}}))
                            .get();
  ASSERT_TRUE(r.committed()) << r.status.ToString();
  Ok(session_, "BEGIN");
  Ok(session_, "DELETE FROM stock WHERE s_w_id = 1 AND s_i_id = 2");
  Ok(session_, "INSERT INTO stock VALUES (3, 1, 9, 'reused key space', NULL, true)");
  Ok(session_, "COMMIT");
  Ok(session_, "BEGIN");
  Ok(session_, "UPDATE warehouse SET w_name = 'never' WHERE w_id = 1");
  Ok(session_, "ROLLBACK");
  Ok(session_, "INSERT INTO emptied VALUES (1), (2)");
  Ok(session_, "TRUNCATE emptied");
  Ok(session_, "INSERT INTO emptied VALUES (3)");
  Ok(session_, "INSERT INTO gone VALUES (1)");
  Ok(session_, "DROP TABLE gone");
  Ok(session_, "UPDATE warehouse SET w_ytd = w_ytd + 1 WHERE w_id = 3");
  Ok(session_, "CREATE VIEW named (id, name) AS SELECT w_id, w_name FROM warehouse WHERE w_name IS NOT NULL");
  Ok(session_, "CREATE VIEW dropped AS SELECT 1");
  Ok(session_, "DROP VIEW dropped");
  const std::string warehouses = Rows(session_, "SELECT * FROM warehouse ORDER BY w_id");
  const std::string stock = Rows(session_, "SELECT * FROM stock ORDER BY s_w_id, s_i_id");
  EXPECT_EQ(stock,
            "1|1|15|a'b||t\n2|7|1|x||\n3|1|9|reused key space||t\n");
  Close();

  for (int restart = 0; restart < 2; ++restart) {  // a second restart recovers the recovered state
    Open();
    EXPECT_EQ(Rows(session_, "SELECT * FROM warehouse ORDER BY w_id"), warehouses);
    EXPECT_EQ(Rows(session_, "SELECT * FROM stock ORDER BY s_w_id, s_i_id"), stock);
    EXPECT_EQ(Rows(session_, "SELECT a FROM emptied"), "3\n");
    EXPECT_EQ(Rows(session_, "SELECT id, b FROM blobs ORDER BY id"), "1|\\x00ff10\n2|\n3|\\x\n");
    EXPECT_EQ(Rows(session_, "SELECT id, tags, n, d FROM arrs ORDER BY id"),
              "1|{\"a b\",NULL,\"\",x}|{1.50,NULL}|{2024-01-02}\n2||{}|\n");
    EXPECT_EQ(Rows(session_, "SELECT id, j, b FROM docs WHERE id IN ('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '00000000-0000-0000-0000-000000000000') ORDER BY id"),
              "00000000-0000-0000-0000-000000000000||\n"
              "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11|{\"b\": 1,  \"a\": 2}|"
              "{\"a\": [123456789012345678901234567890], \"b\": 1.50}\n");
    EXPECT_EQ(Rows(session_, "SELECT count(*) FROM docs WHERE b = '\"x\"' AND j::text = '[]'"), "1\n");
    EXPECT_TRUE(RunSql(session_, "INSERT INTO docs VALUES ('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', NULL, NULL)")
                    .Is(sqlstate::kUniqueViolation));
    EXPECT_TRUE(RunSql(session_, "INSERT INTO docs VALUES (gen_random_uuid(), NULL, '{\"a\": [123456789012345678901234567890], \"b\": 1.5}')")
                    .Is(sqlstate::kUniqueViolation));
    EXPECT_EQ(Rows(session_, "SELECT span, other FROM spans ORDER BY span"),
              "1 mon|-1 days +02:00:00\n1 year 2 mons 3 days 04:05:06.5|\n");
    EXPECT_TRUE(RunSql(session_, "INSERT INTO spans VALUES ('30 days', NULL)").Is(sqlstate::kUniqueViolation));
    EXPECT_FALSE(RunSql(session_, "SELECT * FROM gone").ok());
    // Views come back as created and dropped.
    EXPECT_EQ(Rows(session_, "SELECT name FROM named ORDER BY id"), "one\ntwo\nthree\n");
    EXPECT_TRUE(RunSql(session_, "SELECT * FROM dropped").Is(sqlstate::kUndefinedTable));
    // Indexes and constraints came back with the rows.
    EXPECT_EQ(Rows(session_, "SELECT s_i_id FROM stock WHERE s_qty = 9"), "1\n");
    EXPECT_TRUE(RunSql(session_, "INSERT INTO stock VALUES (1, 1, 0, NULL, NULL, NULL)").Is(sqlstate::kUniqueViolation));
    // Foreign keys and domains are recorded (not enforced, see README): the
    // canonical domain of stock.s_w_id is warehouse.w_id's domain again.
    EXPECT_EQ(catalog::CanonicalDomain::Resolve(db_->catalog(), "stock", "s_w_id").Name(), "wh");
    EXPECT_TRUE(RunSql(session_, "INSERT INTO warehouse VALUES (4, NULL, 0)").Is(sqlstate::kNotNullViolation));
    EXPECT_EQ(db_->recovery_stats().had_checkpoint, checkpoint_on_close());
    // New rows get fresh row ids: nothing recovered is overwritten.
    Ok(session_, "INSERT INTO warehouse VALUES (" + std::to_string(10 + restart) + ", 'new', 1)");
    Ok(session_, "DELETE FROM warehouse WHERE w_id = " + std::to_string(10 + restart));
    Close();
  }
}

// CHECK constraints are part of CREATE TABLE: after a restart (and after a
// checkpoint) they are there with their names, and still refuse rows.
TEST_P(DurabilityTest, CheckConstraintsAreBackAfterARestart) {
  auto refused = [&](const std::string& sql) {
    QueryResult r;
    Status s = session_->Execute(sql, &r);
    EXPECT_TRUE(s.Is(sqlstate::kCheckViolation)) << sql << ": " << s.ToString();
    return s.message();
  };
  Open();
  Ok(session_, "CREATE TABLE stock (id INT PRIMARY KEY, n INT CHECK (n >= 0), CONSTRAINT small CHECK (id < 100))");
  Ok(session_, "INSERT INTO stock VALUES (1, 5)");
  for (int restart = 0; restart < 2; ++restart) {
    Close();
    Open();
    const catalog::TableSchema& schema = db_->catalog().FindTable("stock")->schema();
    ASSERT_EQ(schema.checks.size(), 2u);
    EXPECT_EQ(schema.checks[0].name, "small");
    EXPECT_EQ(schema.checks[1].name, "stock_n_check");
    EXPECT_NE(refused("UPDATE stock SET n = n - 6").find("\"stock_n_check\""), std::string::npos);
    EXPECT_NE(refused("INSERT INTO stock VALUES (100, 1)").find("\"small\""), std::string::npos);
    durability::CheckpointStats stats;
    ASSERT_TRUE(db_->Checkpoint(&stats).ok());
  }
  EXPECT_EQ(Rows(session_, "SELECT id, n FROM stock"), "1|5\n");
}

// ALTER COLUMN .. SET/DROP DEFAULT and SET/DROP NOT NULL survive a restart
// from the log, then from a checkpoint.
TEST_P(DurabilityTest, AlteredColumnsAreBackAfterARestart) {
  Open();
  Ok(session_, "CREATE TABLE t (id INT PRIMARY KEY, a INT, b TEXT NOT NULL DEFAULT 'x')");
  Ok(session_, "INSERT INTO t (id, a) VALUES (1, 10)");
  Ok(session_, "ALTER TABLE t ALTER COLUMN a SET DEFAULT 7, ALTER COLUMN a SET NOT NULL");
  Ok(session_, "ALTER TABLE t ALTER b DROP NOT NULL, ALTER b DROP DEFAULT");
  for (int restart = 0; restart < 2; ++restart) {
    Close();
    Open();
    const catalog::TableSchema& schema = db_->catalog().FindTable("t")->schema();
    EXPECT_TRUE(schema.columns[1].not_null);
    EXPECT_EQ(schema.columns[1].default_value.expression, "7");
    EXPECT_FALSE(schema.columns[2].not_null);
    EXPECT_FALSE(schema.columns[2].default_value.present());
    QueryResult r;
    EXPECT_TRUE(session_->Execute("INSERT INTO t (id, a) VALUES (9, NULL)", &r).Is(sqlstate::kNotNullViolation));
    durability::CheckpointStats stats;
    ASSERT_TRUE(db_->Checkpoint(&stats).ok());
  }
  Ok(session_, "INSERT INTO t (id) VALUES (2)");
  EXPECT_EQ(Rows(session_, "SELECT id, a, b FROM t ORDER BY id"), "1|10|x\n2|7|\n");
}

// ADD COLUMN, DROP COLUMN and ALTER COLUMN TYPE rewrite the rows; rows
// written before and after each come back in the layout of their time,
// and the values a DEFAULT that is no constant gave (now(), a serial's
// numbers) come back as they were, not evaluated again by the replay.
TEST_P(DurabilityTest, RewrittenTablesAreBackAfterARestart) {
  Open();
  Ok(session_, "CREATE TABLE t (id INT PRIMARY KEY, a INT, b TEXT)");
  for (int i = 1; i <= 40; ++i) {
    Ok(session_, "INSERT INTO t VALUES (" + std::to_string(i) + ", " + std::to_string(i * 10) + ", 'r" +
                     std::to_string(i) + "')");
  }
  Ok(session_, "ALTER TABLE t ADD COLUMN c INT NOT NULL DEFAULT 5, ADD COLUMN at TIMESTAMPTZ DEFAULT now()");
  Ok(session_, "UPDATE t SET c = id WHERE id <= 10");
  Ok(session_, "ALTER TABLE t ADD COLUMN n SERIAL");
  Ok(session_, "DELETE FROM t WHERE id > 35");
  Ok(session_, "ALTER TABLE t DROP COLUMN a, ALTER COLUMN id TYPE BIGINT");
  Ok(session_, "INSERT INTO t (id, b) VALUES (5000000000, 'big')");
  Ok(session_, "ALTER TABLE t RENAME COLUMN b TO label");
  Ok(session_, "ALTER TABLE t RENAME TO t2");
  Ok(session_, "ALTER TABLE t2 ADD CONSTRAINT c_pos CHECK (c > 0)");
  const std::string all = Rows(session_, "SELECT * FROM t2 ORDER BY id");
  ASSERT_EQ(Rows(session_, "SELECT count(*), count(DISTINCT n), count(DISTINCT at) FROM t2 WHERE id <= 35"), "35|35|1\n");
  for (int restart = 0; restart < 2; ++restart) {
    Close();
    Open();
    EXPECT_EQ(Rows(session_, "SELECT * FROM t2 ORDER BY id"), all) << "restart " << restart;
    durability::CheckpointStats stats;
    ASSERT_TRUE(db_->Checkpoint(&stats).ok());
  }
  EXPECT_EQ(db_->catalog().FindTable("t"), nullptr);
  QueryResult r;
  EXPECT_TRUE(session_->Execute("INSERT INTO t2 (id, c) VALUES (7000, 0)", &r).Is(sqlstate::kCheckViolation));
  // The serial goes on past every number it gave (it may skip some).
  Ok(session_, "INSERT INTO t2 (id, label) VALUES (7001, 'next')");
  EXPECT_EQ(Rows(session_, "SELECT n > (SELECT max(n) FROM t2 WHERE id <> 7001) FROM t2 WHERE id = 7001"), "t\n");
}

TEST_P(DurabilityTest, ForeignKeysAreEnforcedAfterARestart) {
  Open();
  Ok(session_, "CREATE TABLE p (id INT PRIMARY KEY)");
  Ok(session_, "CREATE TABLE c (pid INT REFERENCES p ON DELETE CASCADE ON UPDATE CASCADE)");
  Ok(session_, "CREATE TABLE d (pid INT REFERENCES p DEFERRABLE INITIALLY DEFERRED)");
  Ok(session_, "CREATE TABLE n (pid INT)");
  Ok(session_, "INSERT INTO p VALUES (1), (2), (3)");
  Ok(session_, "INSERT INTO c VALUES (1), (2)");
  Ok(session_, "INSERT INTO n VALUES (3)");
  Ok(session_, "ALTER TABLE n ADD CONSTRAINT n_p FOREIGN KEY (pid) REFERENCES p ON DELETE SET NULL");
  for (int restart = 0; restart < 2; ++restart) {
    Close();
    Open();
    QueryResult r;
    EXPECT_TRUE(session_->Execute("INSERT INTO c VALUES (9)", &r).Is(sqlstate::kForeignKeyViolation));
    Ok(session_, "BEGIN");
    Ok(session_, "INSERT INTO d VALUES (9)");  // deferred: accepted until COMMIT
    EXPECT_TRUE(session_->Execute("COMMIT", &r).Is(sqlstate::kForeignKeyViolation)) << "restart " << restart;
    durability::CheckpointStats stats;
    ASSERT_TRUE(db_->Checkpoint(&stats).ok());
  }
  Ok(session_, "UPDATE p SET id = 10 WHERE id = 1");  // ON UPDATE CASCADE
  Ok(session_, "DELETE FROM p WHERE id = 2");         // ON DELETE CASCADE
  Ok(session_, "DELETE FROM p WHERE id = 3");         // ON DELETE SET NULL
  EXPECT_EQ(Rows(session_, "SELECT pid FROM c"), "10\n");
  EXPECT_EQ(Rows(session_, "SELECT pid IS NULL FROM n"), "t\n");
  EXPECT_EQ(Rows(session_, "SELECT count(*) FROM d"), "0\n");
}

// A partial index is made again at recovery from its CREATE INDEX (and
// again after the ALTER TABLE that moved its columns), and its entries are
// those of the covered rows only: a duplicate among them is refused, one
// outside them is not, and a query that proves the condition finds rows.
TEST_P(DurabilityTest, PartialIndexesAfterARestart) {
  Open();
  Ok(session_, "CREATE TABLE jobs (id INT PRIMARY KEY, note TEXT, owner INT, done BOOL)");
  Ok(session_, "CREATE UNIQUE INDEX jobs_open ON jobs (owner) WHERE NOT done");
  Ok(session_, "INSERT INTO jobs VALUES (1, 'a', 10, false), (2, 'b', 10, true), (3, 'c', 20, false)");
  Ok(session_, "ALTER TABLE jobs DROP COLUMN note");  // owner and done move
  Ok(session_, "UPDATE jobs SET done = true WHERE id = 3");
  for (int restart = 0; restart < 2; ++restart) {
    Close();
    Open();
    QueryResult r;
    EXPECT_TRUE(session_->Execute("INSERT INTO jobs VALUES (9, 10, false)", &r).Is(sqlstate::kUniqueViolation))
        << "restart " << restart;
    EXPECT_EQ(Rows(session_, "SELECT id FROM jobs WHERE owner = 10 AND NOT done"), "1\n") << "restart " << restart;
    EXPECT_EQ(Rows(session_, "SELECT count(*) FROM jobs WHERE owner = 20 AND NOT done"), "0\n");
    durability::CheckpointStats stats;
    ASSERT_TRUE(db_->Checkpoint(&stats).ok());
  }
  Ok(session_, "INSERT INTO jobs VALUES (4, 20, false), (5, 10, true)");
  EXPECT_EQ(Rows(session_, "SELECT id FROM jobs WHERE owner = 20 AND NOT done"), "4\n");
}

TEST_P(DurabilityTest, ACheckpointThenMoreLog) {
  Open();
  Ok(session_, "CREATE TABLE t (k INT PRIMARY KEY, v INT)");
  for (int i = 0; i < 100; ++i) Ok(session_, "INSERT INTO t VALUES (" + std::to_string(i) + ", 0)");
  const size_t segments_before = SegmentFiles(dir_.path()).size();
  durability::CheckpointStats stats;
  ASSERT_TRUE(db_->Checkpoint(&stats).ok());
  EXPECT_EQ(stats.rows, 100u);
  EXPECT_GE(stats.segments_deleted, segments_before);  // the log before it is no longer needed
  Ok(session_, "UPDATE t SET v = k * 2 WHERE k < 50");
  Ok(session_, "DELETE FROM t WHERE k >= 90");
  Ok(session_, "INSERT INTO t VALUES (1000, 1)");
  const std::string all = Rows(session_, "SELECT k, v FROM t ORDER BY k");
  Close();
  Open();
  EXPECT_TRUE(db_->recovery_stats().had_checkpoint);
  EXPECT_EQ(Rows(session_, "SELECT k, v FROM t ORDER BY k"), all);
  EXPECT_EQ(Rows(session_, "SELECT count(*) FROM t"), "91\n");
}

TEST_P(DurabilityTest, UpdatesLogOnlyTheColumnsTheyChange) {
  Open();
  Ok(session_, "CREATE TABLE c (id INT PRIMARY KEY, balance NUMERIC(12,2), data TEXT)");
  Ok(session_, "INSERT INTO c VALUES (1, 0, repeat('d', 1000)), (2, 0, NULL), (3, 5, 'gone')");
  const uint64_t before = db_->LogStats().bytes;
  for (int i = 0; i < 20; ++i) Ok(session_, "UPDATE c SET balance = balance + 1 WHERE id = 1");
  const uint64_t per_update = (db_->LogStats().bytes - before) / 20;
  EXPECT_LT(per_update, 200u) << "the 1000-byte data column is not logged again";
  Ok(session_, "UPDATE c SET data = 'short', balance = NULL WHERE id = 1");
  Ok(session_, "UPDATE c SET data = repeat('e', 10) WHERE id = 2");  // from NULL
  Ok(session_, "UPDATE c SET balance = 6 WHERE id = 3");
  Ok(session_, "DELETE FROM c WHERE id = 3");
  Ok(session_, "BEGIN");
  Ok(session_, "INSERT INTO c VALUES (4, 1, 'new')");
  Ok(session_, "UPDATE c SET balance = 2 WHERE id = 4");  // a row inserted here: logged whole
  Ok(session_, "COMMIT");
  const std::string all = Rows(session_, "SELECT id, balance, data FROM c ORDER BY id");
  EXPECT_EQ(all, "1||short\n2|0.00|eeeeeeeeee\n4|2.00|new\n");  // NULL prints empty
  Close();
  Open();
  EXPECT_EQ(Rows(session_, "SELECT id, balance, data FROM c ORDER BY id"), all);
}

TEST_P(DurabilityTest, FuzzyCheckpointsUnderConcurrentTransfersKeepTheSum) {
  Open();
  constexpr int kAccounts = 50;
  Ok(session_, "CREATE TABLE acct (id INT PRIMARY KEY, bal INT NOT NULL)");
  for (int i = 0; i < kAccounts; ++i) Ok(session_, "INSERT INTO acct VALUES (" + std::to_string(i) + ", 100)");
  std::atomic<bool> stop{false};
  std::atomic<int> committed{0};
  std::vector<std::thread> clients;
  for (int c = 0; c < 4; ++c) {
    clients.emplace_back([&, c] {
      std::mt19937 rng(c);
      std::uniform_int_distribution<int> pick(0, kAccounts - 1);
      while (!stop.load()) {
        const int a = pick(rng), b = pick(rng), amount = pick(rng);
        TransactionResult r = db_->Submit(TransactionRequest::Statements(
                                              {{"UPDATE acct SET bal = bal - $1 WHERE id = $2", {Value::Int32(amount), Value::Int32(a)}},
                                               {"UPDATE acct SET bal = bal + $1 WHERE id = $2", {Value::Int32(amount), Value::Int32(b)}}}))
                                  .get();
        if (r.committed()) committed.fetch_add(1);
      }
    });
  }
  // Checkpoints while transfers run; each copy is fuzzy.
  for (int i = 0; i < 5; ++i) {
    const int seen = committed.load();
    while (committed.load() < seen + 50) std::this_thread::yield();  // transfers between checkpoints
    durability::CheckpointStats stats;
    ASSERT_TRUE(db_->Checkpoint(&stats).ok());
    EXPECT_EQ(stats.rows, static_cast<uint64_t>(kAccounts));
  }
  stop = true;
  for (auto& t : clients) t.join();
  const std::string before = Rows(session_, "SELECT id, bal FROM acct ORDER BY id");
  Close();
  Options o = MakeOptions();
  o.checkpoint_on_close = false;
  Open(o);
  EXPECT_EQ(Rows(session_, "SELECT sum(bal) FROM acct"), std::to_string(kAccounts * 100) + "\n");
  EXPECT_EQ(Rows(session_, "SELECT id, bal FROM acct ORDER BY id"), before);
}

TEST_P(DurabilityTest, WorkersGoOnWhileTheLogSyncsAndClientsHearOnlyAfterIt) {
  // Interleaving: the log writer is held before its sync (a slow disk);
  // meanwhile one worker runs five submitted transactions, the later ones
  // updating rows the earlier ones wrote (early lock release: they do not
  // wait for the earlier ones' durability). Excluded: a worker blocked on
  // the disk (the five would not all commit), and a client told of a
  // commit before its record is synced (an acknowledgement while held).
  std::mutex mu;
  std::condition_variable cv;
  bool hold = false;
  Options o = MakeOptions();
  o.workers = 1;
  o.log_before_sync = [&] {
    std::unique_lock lock(mu);
    cv.wait(lock, [&] { return !hold; });
  };
  Open(o);
  Ok(session_, "CREATE TABLE t (k INT PRIMARY KEY, v INT)");
  Ok(session_, "INSERT INTO t VALUES (1, 0), (2, 0)");
  {
    std::lock_guard lock(mu);
    hold = true;
  }
  std::atomic<int> acknowledged{0};
  std::vector<std::future<TransactionResult>> results;
  for (int i = 0; i < 5; ++i) {
    auto promise = std::make_shared<std::promise<TransactionResult>>();
    results.push_back(promise->get_future());
    db_->Submit(TransactionRequest::Statements({{"UPDATE t SET v = v + 1 WHERE k = $1", {Value::Int32(1 + i % 2)}}}),
                [&, promise](TransactionResult&& r) {
                  acknowledged.fetch_add(1);
                  promise->set_value(std::move(r));
                });
  }
  // Waits on the condition: the worker committed all five.
  while (db_->Stats().commits < 5) std::this_thread::yield();
  EXPECT_EQ(acknowledged.load(), 0);
  for (auto& r : results) EXPECT_EQ(r.wait_for(std::chrono::seconds(0)), std::future_status::timeout);
  {
    std::lock_guard lock(mu);
    hold = false;
  }
  cv.notify_all();
  for (auto& r : results) {
    TransactionResult result = r.get();
    ASSERT_TRUE(result.committed()) << result.status.ToString();
    EXPECT_GT(result.commit_lsn, Lsn());
  }
  EXPECT_EQ(acknowledged.load(), 5);
  EXPECT_EQ(Rows(session_, "SELECT k, v FROM t ORDER BY k"), "1|3\n2|2\n");
}

INSTANTIATE_TEST_SUITE_P(CloseWithAndWithoutCheckpoint, DurabilityTest, ::testing::Bool(),
                         [](const auto& info) { return info.param ? "checkpoint_on_close" : "log_only"; });

TEST_F(DurabilityFilesTest, ATornLastRecordIsCutOff) {
  Fill(20);
  const std::string segment = SegmentFiles(dir_.path()).back();
  const auto size = std::filesystem::file_size(segment);
  std::filesystem::resize_file(segment, size - 3);  // the last insert's record, torn
  Status s;
  EXPECT_EQ(Count(&s), "19|18\n");
  ASSERT_TRUE(s.ok()) << s.ToString();
  // The cut was made durable: the next recovery finds a clean log.
  EXPECT_EQ(Count(&s), "19|18\n");
  ASSERT_TRUE(s.ok()) << s.ToString();
}

TEST_F(DurabilityFilesTest, AFlippedByteInTheMiddleStopsRecoveryNamingFileAndOffset) {
  Fill(20);
  const std::string segment = SegmentFiles(dir_.path()).back();
  const auto size = std::filesystem::file_size(segment);
  {
    std::FILE* f = std::fopen(segment.c_str(), "r+b");
    ASSERT_NE(f, nullptr);
    std::fseek(f, static_cast<long>(size / 2), SEEK_SET);
    int c = std::fgetc(f);
    std::fseek(f, static_cast<long>(size / 2), SEEK_SET);
    std::fputc(c ^ 0x10, f);
    std::fclose(f);
  }
  Status s;
  Count(&s);
  EXPECT_TRUE(s.Is(sqlstate::kDataCorrupted)) << s.ToString();
  EXPECT_NE(s.message().find(segment), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("offset"), std::string::npos) << s.message();
}

TEST_F(DurabilityFilesTest, ADataDirectoryIsOpenedByOneDatabaseAtATime) {
  std::unique_ptr<Database> first, second;
  ASSERT_TRUE(Database::Open(MakeOptions(), &first).ok());
  Status s = Database::Open(MakeOptions(), &second);
  EXPECT_TRUE(s.Is(sqlstate::kObjectInUse)) << s.ToString();
  first.reset();
  EXPECT_TRUE(Database::Open(MakeOptions(), &second).ok());
}

TEST_F(DurabilityFilesTest, EveryPrefixOfTheLogRecovers) {
  // A crash can cut the log after any record, so every prefix must be a
  // state some serial order reaches. Interleaving: two clients race on eight
  // unique keys — one deletes a key or moves it to another, the other
  // inserts it — so transactions depend on keys others just freed without
  // touching the same rows. Excluded: a transaction logged before one whose
  // freed key it took (a prefix would then hold a key twice, and recovery
  // would stop with XX001).
  {
    Options o = MakeOptions();
    o.workers = 2;
    std::unique_ptr<Database> db;
    ASSERT_TRUE(Database::Open(o, &db).ok());
    Ok(db->CreateSession(), "CREATE TABLE u (k INT PRIMARY KEY, v INT)");
    std::vector<std::thread> clients;
    for (int c = 0; c < 2; ++c) {
      clients.emplace_back([&, c] {
        std::mt19937 rng(c);
        for (int i = 0; i < 600; ++i) {
          const int k = static_cast<int>(rng() % 8), other = static_cast<int>(rng() % 8);
          StatementCall call = c == 0 ? (i % 2 ? StatementCall{"DELETE FROM u WHERE k = $1", {Value::Int32(k)}}
                                               : StatementCall{"UPDATE u SET k = $2 WHERE k = $1",
                                                               {Value::Int32(k), Value::Int32(other)}})
                                      : StatementCall{"INSERT INTO u VALUES ($1, $2)", {Value::Int32(k), Value::Int32(i)}};
          db->Submit(TransactionRequest::Statements({call})).get();  // unique violations are expected
        }
      });
    }
    for (auto& t : clients) t.join();
  }
  // The frame boundaries of the (single) segment.
  const std::string segment = SegmentFiles(dir_.path()).back();
  const std::vector<size_t> ends = FrameEnds();
  ASSERT_GT(ends.size(), 50u);  // writing commits (failed inserts and deletes of nothing write none)
  TempDir copy;
  Options o = MakeOptions();
  o.data_dir = copy.path();
  for (size_t end : ends) {
    CopyLogPrefix(segment, end, copy.path());
    std::unique_ptr<Database> db;
    Status s = Database::Open(o, &db);
    ASSERT_TRUE(s.ok()) << "the log cut at offset " << end << ": " << s.ToString();
  }
}

TEST_F(DurabilityFilesTest, CheckpointStatementAndShowLog) {
  {
    std::unique_ptr<Database> db;
    ASSERT_TRUE(Database::Open(MakeOptions(), &db).ok());  // no checkpoint on close
    auto s = db->CreateSession();
    Ok(s, "CREATE TABLE t (k INT PRIMARY KEY)");
    Ok(s, "INSERT INTO t VALUES (1), (2)");
    EXPECT_EQ(Rows(s, "SHOW paceline.log"), dir_.path() + "|fsync|2|" +
                                                 std::to_string(db->LogStats().bytes) + "|" +
                                                 std::to_string(db->LogStats().syncs) + "|1\n");
    Ok(s, "BEGIN");
    EXPECT_TRUE(RunSql(s, "CHECKPOINT").Is(sqlstate::kActiveSqlTransaction));
    Ok(s, "ROLLBACK");
    QueryResult r;
    ASSERT_TRUE(RunSql(s, "CHECKPOINT", &r).ok());
    EXPECT_EQ(r.command_tag, "CHECKPOINT");
  }
  std::unique_ptr<Database> db;
  ASSERT_TRUE(Database::Open(MakeOptions(), &db).ok());
  EXPECT_TRUE(db->recovery_stats().had_checkpoint);  // CHECKPOINT wrote it
  EXPECT_EQ(db->recovery_stats().log_records, 0u);
  EXPECT_EQ(Rows(db->CreateSession(), "SELECT k FROM t ORDER BY k"), "1\n2\n");
}

TEST_F(DurabilityFilesTest, WithoutADataDirectoryNothingIsWritten) {
  Options o;
  o.workers = 0;
  std::unique_ptr<Database> db;
  ASSERT_TRUE(Database::Open(o, &db).ok());
  EXPECT_FALSE(db->durable());
  durability::CheckpointStats stats;
  EXPECT_TRUE(db->Checkpoint(&stats).Is(sqlstate::kObjectNotInPrerequisiteState));
  auto s = db->CreateSession();
  Ok(s, "CHECKPOINT");  // as in PostgreSQL, always accepted; nothing to write
  EXPECT_EQ(Rows(s, "SHOW paceline.log"), "|none|0|0|0|0\n");
}

}  // namespace
}  // namespace paceline::engine
