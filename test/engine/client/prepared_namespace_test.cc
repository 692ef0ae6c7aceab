// PreparedNamespace (engine/client/prepared_namespace.h): the extended
// protocol's statements and portals, and the order in which a Bind reports
// its errors when the protocol layer could decode only part of it (the
// order a reader of the message from its start would find them in).
#include "engine/client/prepared_namespace.h"

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>

#include "engine/client/client_input.h"
#include "engine/database.h"
#include "engine/session.h"

namespace paceline::engine {
namespace {

// Parameters as text; "bad" does not decode.
class FakeInput : public ClientInput {
 public:
  Status DecodeParameter(std::string_view bytes, int16_t format, const Type&, Value* out) override {
    if (bytes == "bad") return Status(sqlstate::kInvalidTextRepresentation, "bad parameter");
    *out = format == 0 ? Value::Text(std::string(bytes)) : Value::Null();
    return Status::OK();
  }
  Status ReadCopyData(std::string*, bool* done) override {
    *done = true;
    return Status::OK();
  }
  void DiscardCopyData() override {}
  size_t MaxCopyLineBytes() const override { return 1 << 20; }
};

class PreparedNamespaceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(Database::Open(Options(), &db_).ok());
    session_ = db_->CreateSession();
    names_ = std::make_unique<PreparedNamespace>(session_.get());
    ParseMessage parse;
    parse.name = "two";
    parse.text = "SELECT $1::int + $2::int";
    ASSERT_TRUE(names_->Parse(parse).ok());
  }

  // A Bind of statement "two" with both parameters and no formats.
  static BindMessage BindTwo(std::optional<std::string_view> first, std::optional<std::string_view> second) {
    BindMessage bind;
    bind.statement = "two";
    bind.param_count = 2;
    bind.header_complete = true;
    bind.params = {first, second};
    return bind;
  }

  std::unique_ptr<Database> db_;
  std::unique_ptr<Session> session_;
  std::unique_ptr<PreparedNamespace> names_;
  FakeInput input_;
};

TEST_F(PreparedNamespaceTest, ParseKeepsNamedStatementsAndReplacesTheUnnamedOne) {
  ParseMessage parse;
  parse.name = "two";
  parse.text = "SELECT 1";
  Status s = names_->Parse(parse);
  EXPECT_TRUE(s.Is(sqlstate::kDuplicatePreparedStatement)) << s.ToString();
  EXPECT_EQ(s.message(), "prepared statement \"two\" already exists");
  parse.name = "";
  ASSERT_TRUE(names_->Parse(parse).ok());
  parse.text = "SELECT 2";
  ASSERT_TRUE(names_->Parse(parse).ok());
  ASSERT_NE(names_->FindStatement(""), nullptr);
}

TEST_F(PreparedNamespaceTest, BindMakesAPortalWithItsParameters) {
  BindMessage bind = BindTwo("1", std::nullopt);
  bind.result_formats = {1};
  ASSERT_TRUE(names_->Bind(bind, &input_).ok());
  PreparedNamespace::Portal* portal = nullptr;
  ASSERT_TRUE(names_->LookupPortal("", &portal).ok());
  ASSERT_EQ(portal->params.size(), 2u);
  EXPECT_EQ(portal->params[0].ToString(), "1");
  EXPECT_TRUE(portal->params[1].is_null());
  EXPECT_EQ(portal->result_formats, std::vector<int16_t>{1});
}

TEST_F(PreparedNamespaceTest, BindErrorsNameWhatIsMissing) {
  BindMessage bind = BindTwo("1", "2");
  bind.statement = "";
  Status s = names_->Bind(bind, &input_);
  EXPECT_TRUE(s.Is(sqlstate::kInvalidSqlStatementName));
  EXPECT_EQ(s.message(), "unnamed prepared statement does not exist");
  bind.statement = "nope";
  EXPECT_EQ(names_->Bind(bind, &input_).message(), "prepared statement \"nope\" does not exist");
  bind = BindTwo("1", "2");
  bind.param_count = 1;
  s = names_->Bind(bind, &input_);
  EXPECT_TRUE(s.Is(sqlstate::kProtocolViolation));
  EXPECT_EQ(s.message(), "bind message supplies 1 parameters, but prepared statement \"two\" requires 2");
  bind = BindTwo("1", "2");
  bind.param_formats = {0, 0, 0};
  EXPECT_EQ(names_->Bind(bind, &input_).message(), "bind message has 3 parameter formats but 2 parameters");
  bind = BindTwo("1", "2");
  bind.result_formats = {0, 2};
  EXPECT_EQ(names_->Bind(bind, &input_).message(), "unsupported format code: 2");
  PreparedNamespace::Portal* portal = nullptr;
  EXPECT_TRUE(names_->LookupPortal("", &portal).Is(sqlstate::kInvalidCursorName));
}

TEST_F(PreparedNamespaceTest, AMalformedBindReportsWhatComesBeforeWhereItStopped) {
  const Status truncated(sqlstate::kProtocolViolation, "truncated");
  // Stopped in the header: nothing else is looked at.
  BindMessage bind;
  bind.statement = "nope";
  bind.malformed = truncated;
  EXPECT_EQ(names_->Bind(bind, &input_).message(), "truncated");
  // Stopped before the second parameter: the unknown statement, the count
  // and the first parameter come first.
  bind = BindTwo("bad", "2");
  bind.params.resize(1);
  bind.malformed = truncated;
  EXPECT_EQ(names_->Bind(bind, &input_).message(), "bad parameter");
  bind.params[0] = "1";
  EXPECT_EQ(names_->Bind(bind, &input_).message(), "truncated");
  bind.statement = "nope";
  EXPECT_EQ(names_->Bind(bind, &input_).message(), "prepared statement \"nope\" does not exist");
  // Stopped in the result formats: a bad one read before it comes first.
  bind = BindTwo("1", "2");
  bind.result_formats = {7};
  bind.malformed = truncated;
  EXPECT_EQ(names_->Bind(bind, &input_).message(), "unsupported format code: 7");
  bind.result_formats = {1};
  EXPECT_EQ(names_->Bind(bind, &input_).message(), "truncated");
}

TEST_F(PreparedNamespaceTest, NamedPortalsAreNotReplaced) {
  BindMessage bind = BindTwo("1", "2");
  bind.portal = "p";
  ASSERT_TRUE(names_->Bind(bind, &input_).ok());
  Status s = names_->Bind(bind, &input_);
  EXPECT_TRUE(s.Is(sqlstate::kDuplicateCursor));
  EXPECT_EQ(s.message(), "cursor \"p\" already exists");
  names_->ClosePortal("p");
  names_->ClosePortal("p");  // closing what does not exist is not an error
  EXPECT_EQ(names_->FindPortal("p"), nullptr);
}

TEST_F(PreparedNamespaceTest, DeallocateAllKeepsTheUnnamedStatementAndDiscardAllDoesNot) {
  ParseMessage parse;
  parse.text = "SELECT 1";
  ASSERT_TRUE(names_->Parse(parse).ok());
  std::string tag;
  Status s = names_->Deallocate("nope", &tag);
  EXPECT_TRUE(s.Is(sqlstate::kInvalidSqlStatementName));
  ASSERT_TRUE(names_->Deallocate("", &tag).ok());
  EXPECT_EQ(tag, "DEALLOCATE ALL");
  EXPECT_EQ(names_->FindStatement("two"), nullptr);
  EXPECT_NE(names_->FindStatement(""), nullptr);
  names_->DiscardAll();
  EXPECT_EQ(names_->FindStatement(""), nullptr);
}

}  // namespace
}  // namespace paceline::engine
