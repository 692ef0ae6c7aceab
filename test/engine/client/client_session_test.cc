// ClientSession (engine/client/client_session.h): a simple Query's text
// run whole behind the engine's client entry point, its replies recorded
// in order by a ResultSink, COPY's data read through a ClientInput — no
// protocol layer involved.
#include "engine/client/client_session.h"

#include <gtest/gtest.h>

#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "engine/client/client_input.h"
#include "engine/client/result_sink.h"
#include "engine/database.h"

namespace paceline::engine {
namespace {

// Every call as one line of text.
class RecordingSink : public ResultSink {
 public:
  void Warning(const Status& warning) override { events.push_back("warning " + warning.message()); }
  void Columns(const std::vector<ResultColumn>& columns, const std::vector<int16_t>&) override {
    events.push_back("columns " + std::to_string(columns.size()));
  }
  Status Row(const std::vector<Value>& row, const std::vector<ResultColumn>&, const std::vector<int16_t>&) override {
    std::string line = "row";
    for (const Value& v : row) line += " " + (v.is_null() ? std::string("NULL") : v.ToString());
    events.push_back(line);
    return Status::OK();
  }
  void Complete(std::string_view tag) override { events.push_back(std::string(tag)); }
  void Suspended() override { events.push_back("suspended"); }
  void EmptyQuery() override { events.push_back("empty"); }
  void Error(const Status& error) override {
    events.push_back("error " + std::string(error.sqlstate()) + " at " + std::to_string(error.position()));
  }
  void ParseComplete() override { events.push_back("parse complete"); }
  void BindComplete() override { events.push_back("bind complete"); }
  void CloseComplete() override { events.push_back("close complete"); }
  void Parameters(const std::vector<Type>& types) override { events.push_back("parameters " + std::to_string(types.size())); }
  void NoData() override { events.push_back("no data"); }
  void CopyOutStart(size_t columns) override { events.push_back("copy out " + std::to_string(columns)); }
  Status CopyOutLine(std::string_view line) override {
    events.push_back("line " + std::string(line));
    return Status::OK();
  }
  void CopyOutDone() override { events.push_back("copy done"); }
  Status CopyInStart(size_t columns) override {
    events.push_back("copy in " + std::to_string(columns));
    return Status::OK();
  }

  std::vector<std::string> events;
};

// COPY FROM's data from a list of chunks, then the end.
class ChunkInput : public ClientInput {
 public:
  Status DecodeParameter(std::string_view, int16_t, const Type&, Value*) override {
    return NotSupported("parameters");
  }
  Status ReadCopyData(std::string* data, bool* done) override {
    *done = chunks.empty();
    if (!*done) {
      *data = chunks.front();
      chunks.pop_front();
    }
    return Status::OK();
  }
  void DiscardCopyData() override { discarded = true; }
  size_t MaxCopyLineBytes() const override { return 1 << 20; }

  std::deque<std::string> chunks;
  bool discarded = false;
};

class ClientSessionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(Database::Open(Options(), &db_).ok());
    client_ = std::make_unique<ClientSession>(db_.get());
    Run("CREATE TABLE t (id INT PRIMARY KEY, v TEXT)");
  }

  std::vector<std::string> Run(std::string_view text) {
    RecordingSink sink;
    client_->RunQuery(text, &sink, &input_);
    return sink.events;
  }

  std::unique_ptr<Database> db_;
  std::unique_ptr<ClientSession> client_;
  ChunkInput input_;
};

using Events = std::vector<std::string>;

TEST_F(ClientSessionTest, AQueryReportsEachStatementInOrder) {
  EXPECT_EQ(Run("INSERT INTO t VALUES (1, 'a'); SELECT id, v FROM t"),
            (Events{"INSERT 0 1", "columns 2", "row 1 a", "SELECT 1"}));
  EXPECT_EQ(Run(""), Events{"empty"});
  EXPECT_EQ(Run(" ; "), Events{"empty"});
}

TEST_F(ClientSessionTest, AnErrorIsPositionedInTheWholeTextAndRollsTheImplicitBlockBack) {
  EXPECT_EQ(Run("INSERT INTO t VALUES (2, 'b'); SELECT nope FROM t"), (Events{"INSERT 0 1", "error 42703 at 39"}));
  EXPECT_EQ(Run("SELECT count(*) FROM t"), (Events{"columns 1", "row 0", "SELECT 1"}));
  EXPECT_EQ(client_->state(), TransactionState::kIdle);
}

TEST_F(ClientSessionTest, BlocksAndSettingsChanges) {
  EXPECT_FALSE(client_->TakeSettingsChanged());
  EXPECT_EQ(Run("BEGIN"), Events{"BEGIN"});
  EXPECT_EQ(client_->state(), TransactionState::kInBlock);
  EXPECT_TRUE(client_->TakeSettingsChanged());
  EXPECT_EQ(Run("SELECT 1/0"), Events{"error 22012 at 0"});
  EXPECT_EQ(client_->state(), TransactionState::kFailed);
  EXPECT_EQ(Run("COMMIT"), Events{"ROLLBACK"});
  EXPECT_EQ(client_->state(), TransactionState::kIdle);
  EXPECT_EQ(Run("SET application_name = 'x'"), Events{"SET"});
  EXPECT_TRUE(client_->TakeSettingsChanged());
  EXPECT_FALSE(client_->TakeSettingsChanged());
}

TEST_F(ClientSessionTest, PrepareExecuteAndDeallocateShareTheNamespace) {
  EXPECT_EQ(Run("PREPARE q (int) AS SELECT $1 + 1; EXECUTE q (41)"),
            (Events{"PREPARE", "columns 1", "row 42", "SELECT 1"}));
  EXPECT_NE(client_->names().FindStatement("q"), nullptr);
  EXPECT_EQ(Run("DEALLOCATE q"), Events{"DEALLOCATE"});
  EXPECT_EQ(Run("EXECUTE q"), Events{"error 26000 at 0"});
}

TEST_F(ClientSessionTest, CopyInAndOut) {
  input_.chunks = {"3\tc\n4\t", "d\\tx\n5\t\\N\n"};
  EXPECT_EQ(Run("COPY t FROM STDIN"), (Events{"copy in 2", "COPY 3"}));
  EXPECT_EQ(Run("COPY t TO STDOUT"),
            (Events{"copy out 2", "line 3\tc\n", "line 4\td\\tx\n", "line 5\t\\N\n", "copy done", "COPY 3"}));
  // A bad line: nothing of the COPY stays, and the client's rest is dropped.
  input_.chunks = {"6\tf\n7\n8\th\n"};
  EXPECT_EQ(Run("COPY t FROM STDIN"), (Events{"copy in 2", "error 22P04 at 0"}));
  EXPECT_TRUE(input_.discarded);
  EXPECT_EQ(Run("SELECT count(*) FROM t"), (Events{"columns 1", "row 3", "SELECT 1"}));
}

}  // namespace
}  // namespace paceline::engine
