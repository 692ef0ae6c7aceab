// ClientSession (engine/client/client_session.h): a simple Query's text
// and the extended protocol's messages up to Sync run whole behind the
// engine's client entry point, their replies recorded in order by a
// ResultSink, parameters and COPY's data read through a ClientInput — no
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
  // Text-format parameters only.
  Status DecodeParameter(std::string_view bytes, int16_t format, const Type& type, Value* out) override {
    if (format != 0) return NotSupported("binary parameters");
    return CastValue(Value::Text(std::string(bytes)), type, true, out);
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

  // Builds a pipeline: Parse (unnamed) + Bind (unnamed) + Execute of each
  // text, with text parameters.
  struct Step {
    std::string text;
    std::vector<std::string> params;
  };
  std::vector<std::string> RunPipeline(const std::vector<Step>& steps, bool sync = true) {
    engine::PipelineRequest request;
    request.Clear(sync);
    for (const Step& step : steps) {
      ParseMessage& parse = request.AddParse();
      parse.text = step.text;
      BindMessage& bind = request.AddBind();
      bind.param_count = static_cast<int16_t>(step.params.size());
      for (const std::string& p : step.params) bind.params.emplace_back(p);
      bind.header_complete = true;
      request.AddExecute();
    }
    RecordingSink sink;
    failed_ = client_->RunPipeline(request, &sink, &input_);
    return sink.events;
  }

  // Transactions the scheduler took (queued, or run on the caller's thread).
  uint64_t Scheduled() const { return db_->Stats().queued + db_->StatsHere().ran_here; }

  std::unique_ptr<Database> db_;
  std::unique_ptr<ClientSession> client_;
  ChunkInput input_;
  bool failed_ = false;
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
  // Parse and SQL PREPARE name the same statements.
  PipelineRequest parse;
  parse.Clear(true);
  parse.AddParse().name = "q";
  parse.AddDescribe('D').name = "q";
  RecordingSink sink;
  EXPECT_TRUE(client_->RunPipeline(parse, &sink, &input_) == false);  // the Sync ends what failed
  EXPECT_EQ(sink.events, Events{"error 42P05 at 0"});
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

TEST_F(ClientSessionTest, APipelineThatHoldsAWholeTransactionIsScheduled) {
  // BEGIN, two INSERTs and COMMIT up to Sync: one transaction, its replies
  // in protocol order after it has run.
  EXPECT_EQ(RunPipeline({{"BEGIN", {}},
                         {"INSERT INTO t VALUES ($1, 'a')", {"10"}},
                         {"INSERT INTO t VALUES ($1, 'b')", {"11"}},
                         {"COMMIT", {}}}),
            (Events{"parse complete", "bind complete", "BEGIN", "parse complete", "bind complete", "INSERT 0 1",
                    "parse complete", "bind complete", "INSERT 0 1", "parse complete", "bind complete", "COMMIT"}));
  EXPECT_EQ(Scheduled(), 1u);
  // A failure inside BEGIN: the statement's error, nothing committed, and
  // the client in a failed block until it ends it.
  EXPECT_EQ(RunPipeline({{"BEGIN", {}},
                         {"INSERT INTO t VALUES ($1, 'c')", {"12"}},
                         {"INSERT INTO t VALUES ($1, 'd')", {"10"}},
                         {"COMMIT", {}}}),
            (Events{"parse complete", "bind complete", "BEGIN", "parse complete", "bind complete", "INSERT 0 1",
                    "parse complete", "bind complete", "error 23505 at 0"}));
  EXPECT_EQ(client_->state(), TransactionState::kFailed);
  EXPECT_EQ(Run("ROLLBACK"), Events{"ROLLBACK"});
  EXPECT_EQ(Run("SELECT id FROM t ORDER BY id"), (Events{"columns 1", "row 10", "row 11", "SELECT 2"}));
}

TEST_F(ClientSessionTest, APipelineWithDeclaredParameterTypesIsScheduledAsPrepared) {
  // The client declares $1 as int8 where the column is int4 (JDBC and
  // psycopg declare their types): the statement runs as the client
  // prepared it, scheduled like any other. Excluded: a second preparation
  // without the declared types deciding it (its parameter types differ).
  engine::PipelineRequest request;
  request.Clear(true);
  ParseMessage& parse = request.AddParse();
  parse.text = "INSERT INTO t VALUES ($1, 'x')";
  parse.declared = {Type(TypeId::kInt64)};
  BindMessage& bind = request.AddBind();
  bind.param_count = 1;
  bind.params.emplace_back("30");
  bind.header_complete = true;
  request.AddExecute();
  RecordingSink sink;
  EXPECT_FALSE(client_->RunPipeline(request, &sink, &input_));
  EXPECT_EQ(sink.events, (Events{"parse complete", "bind complete", "INSERT 0 1"}));
  EXPECT_EQ(Scheduled(), 1u);
  EXPECT_EQ(Run("SELECT v FROM t WHERE id = 30"), (Events{"columns 1", "row x", "SELECT 1"}));
}

TEST_F(ClientSessionTest, APipelineRunsMessageByMessageInOneImplicitBlock) {
  // Two Executes of one portal with a row limit: not what the scheduler
  // takes (each portal runs once, to completion); they run here, in one
  // implicit block.
  engine::PipelineRequest request;
  request.Clear(true);
  request.AddParse().text = "SELECT 1 UNION ALL SELECT 2";
  request.AddBind().header_complete = true;
  request.AddExecute().max_rows = 1;
  request.AddExecute().max_rows = 1;  // its full limit: suspended, though no row is left (as PostgreSQL)
  request.AddExecute();
  RecordingSink sink;
  EXPECT_FALSE(client_->RunPipeline(request, &sink, &input_));
  EXPECT_EQ(sink.events, (Events{"parse complete", "bind complete", "row 1", "suspended", "row 2", "suspended",
                                 "SELECT 0"}));
  EXPECT_EQ(Scheduled(), 0u);
}

TEST_F(ClientSessionTest, AnErrorBeforeSyncRollsBackTheImplicitBlockAndDropsTheRest) {
  // Flush after the first INSERT (no Sync): the block stays open; the
  // second fails; what follows it up to Sync does not run; the Sync ends
  // the failed block, and nothing of it stays.
  EXPECT_EQ(RunPipeline({{"INSERT INTO t VALUES ($1, 'a')", {"20"}}}, false),
            (Events{"parse complete", "bind complete", "INSERT 0 1"}));
  EXPECT_FALSE(failed_);
  EXPECT_EQ(RunPipeline({{"INSERT INTO t VALUES ($1, 'b')", {"20"}}, {"INSERT INTO t VALUES ($1, 'c')", {"21"}}}, false),
            (Events{"parse complete", "bind complete", "error 23505 at 0"}));
  EXPECT_TRUE(failed_);
  EXPECT_EQ(RunPipeline({}), Events{});
  EXPECT_FALSE(failed_);
  EXPECT_EQ(client_->state(), TransactionState::kIdle);
  EXPECT_EQ(Run("SELECT count(*) FROM t"), (Events{"columns 1", "row 0", "SELECT 1"}));
}

}  // namespace
}  // namespace paceline::engine
