// MessageReader / Body / MessageWriter: protocol v3 framing over a real
// loopback TCP connection — typed messages, start-up packets, the size
// limit enforced from the header alone, truncated streams, and the byte
// layout of backend messages.
#include <gtest/gtest.h>

#include <asio.hpp>

#include <string>
#include <thread>

#include <sys/socket.h>

#include "server/message_reader.h"
#include "server/message_writer.h"

namespace paceline::server {
namespace {

// A connected loopback socket pair: `client` writes, `server` reads.
class SocketPair {
 public:
  SocketPair() : acceptor_(io_, asio::ip::tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0)),
                 client(io_), server(io_) {
    client.connect(acceptor_.local_endpoint());
    acceptor_.accept(server);
  }
  void Send(const std::string& bytes) { asio::write(client, asio::buffer(bytes)); }

 private:
  asio::io_context io_;
  asio::ip::tcp::acceptor acceptor_;

 public:
  asio::ip::tcp::socket client;
  asio::ip::tcp::socket server;
};

std::string Int32(uint32_t v) {
  std::string s(4, '\0');
  for (int i = 0; i < 4; ++i) s[i] = static_cast<char>((v >> (24 - 8 * i)) & 0xff);
  return s;
}

std::string Typed(char type, const std::string& body) { return std::string(1, type) + Int32(body.size() + 4) + body; }

TEST(MessageReaderTest, ReadsTypedMessagesAcrossSegments) {
  SocketPair pair;
  MessageReader reader(&pair.server, 1024);
  const std::string both = Typed('Q', std::string("SELECT 1\0", 9)) + Typed('S', "");
  pair.Send(both.substr(0, 3));
  pair.Send(both.substr(3));
  char type = 0;
  std::string body;
  ASSERT_TRUE(reader.ReadMessage(&type, &body).ok());
  EXPECT_EQ(type, 'Q');
  EXPECT_EQ(body, std::string("SELECT 1\0", 9));
  ASSERT_TRUE(reader.ReadMessage(&type, &body).ok());
  EXPECT_EQ(type, 'S');
  EXPECT_EQ(body, "");
}

// HasMessage says whether ReadMessage can return without the socket: a
// whole message buffered (or a header ReadMessage refuses at once).
// ReadMessageUnlessIdle gives up, consuming nothing, when no byte arrives
// within the socket's receive timeout; inside a message the timeout only
// repeats the wait, so a message sent in two parts is read whole.
// Excluded: a connection that gives its thread up halfway through a
// message (losing its first part), or that reads past a message it has.
TEST(MessageReaderTest, HasMessageAndGivingUpOnlyBetweenMessages) {
  SocketPair pair;
  timeval tv{0, 20000};  // 20 ms, as a connection sets it
  ASSERT_EQ(::setsockopt(pair.server.native_handle(), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)), 0);
  MessageReader reader(&pair.server, 1024);
  EXPECT_FALSE(reader.HasMessage());
  char type = 0;
  std::string body;
  bool idle = false;
  ASSERT_TRUE(reader.ReadMessageUnlessIdle(&type, &body, &idle).ok());
  EXPECT_TRUE(idle) << "nothing arrived: it gave up";

  const std::string two = Typed('Q', std::string("SELECT 1\0", 9)) + Typed('S', "");
  pair.Send(two.substr(0, 3));  // a first part only
  std::thread rest([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(60));  // (the client's pause: longer than the timeout)
    pair.Send(two.substr(3));
  });
  ASSERT_TRUE(reader.ReadMessageUnlessIdle(&type, &body, &idle).ok());
  rest.join();
  EXPECT_FALSE(idle) << "a message had begun: it waited for the rest";
  EXPECT_EQ(type, 'Q');
  EXPECT_TRUE(reader.HasMessage()) << "the Sync came in the same segment";
  ASSERT_TRUE(reader.ReadMessage(&type, &body).ok());
  EXPECT_EQ(type, 'S');
  EXPECT_FALSE(reader.HasMessage());

  pair.Send(std::string(1, 'Q') + Int32(3));  // a length below 4: refused at once
  const Status s = reader.ReadMessageUnlessIdle(&type, &body, &idle);
  EXPECT_TRUE(s.Is(kProtocolViolation)) << s.ToString();
  EXPECT_FALSE(idle);
}

TEST(MessageReaderTest, OversizeLengthIsRefusedFromTheHeader) {
  SocketPair pair;
  MessageReader reader(&pair.server, 1024);
  pair.Send(std::string("Q") + Int32(0x7ffffff0));  // the body never comes
  char type = 0;
  std::string body;
  Status s = reader.ReadMessage(&type, &body);
  EXPECT_EQ(s.sqlstate(), "08P01");
  EXPECT_NE(s.message().find("exceeds the limit of 1024 bytes"), std::string::npos) << s.message();
  EXPECT_FALSE(reader.eof());
  EXPECT_TRUE(body.empty());
}

TEST(MessageReaderTest, LengthBelowFourIsAViolation) {
  SocketPair pair;
  MessageReader reader(&pair.server, 1024);
  pair.Send(std::string("Q") + Int32(3));
  char type = 0;
  std::string body;
  EXPECT_EQ(reader.ReadMessage(&type, &body).sqlstate(), "08P01");
}

TEST(MessageReaderTest, TruncatedMessageThenCloseIsEof) {
  SocketPair pair;
  MessageReader reader(&pair.server, 1024);
  pair.Send(std::string("Q") + Int32(100) + "SEL");
  pair.client.close();
  char type = 0;
  std::string body;
  Status s = reader.ReadMessage(&type, &body);
  EXPECT_EQ(s.sqlstate(), "08P01");
  EXPECT_TRUE(reader.eof());
}

TEST(MessageReaderTest, CleanCloseIsConnectionFailure) {
  SocketPair pair;
  MessageReader reader(&pair.server, 1024);
  pair.client.close();
  char type = 0;
  std::string body;
  EXPECT_EQ(reader.ReadMessage(&type, &body).sqlstate(), kConnectionFailure);
  EXPECT_TRUE(reader.eof());
}

TEST(MessageReaderTest, StartupPacketBounds) {
  SocketPair pair;
  MessageReader reader(&pair.server, 1 << 20);
  const std::string startup = Int32(196608) + std::string("user\0u\0\0", 8);
  pair.Send(Int32(startup.size() + 4) + startup);
  std::string body;
  ASSERT_TRUE(reader.ReadStartupPacket(&body).ok());
  EXPECT_EQ(body, startup);
  pair.Send(Int32(10001));  // beyond PostgreSQL's 10000, whatever max_message_bytes says
  EXPECT_EQ(reader.ReadStartupPacket(&body).sqlstate(), "08P01");
}

TEST(BodyTest, DecodesFieldsAndReportsTruncation) {
  const std::string data = std::string("\x00\x02", 2) + Int32(70000) + std::string("name\0", 5) + "xy";
  Body b(data);
  int16_t i16 = 0;
  int32_t i32 = 0;
  std::string_view s, bytes;
  ASSERT_TRUE(b.Int16(&i16).ok());
  ASSERT_TRUE(b.Int32(&i32).ok());
  ASSERT_TRUE(b.CString(&s).ok());
  EXPECT_EQ(i16, 2);
  EXPECT_EQ(i32, 70000);
  EXPECT_EQ(s, "name");
  EXPECT_EQ(b.Bytes(3, &bytes).sqlstate(), "08P01");
  ASSERT_TRUE(b.Bytes(2, &bytes).ok());
  EXPECT_EQ(bytes, "xy");
  EXPECT_TRUE(b.done());
  EXPECT_EQ(b.CString(&s).sqlstate(), "08P01");
  EXPECT_EQ(b.Int32(&i32).sqlstate(), "08P01");
}

TEST(MessageWriterTest, FramesBackendMessages) {
  MessageWriter w;
  w.ReadyForQuery('T');
  EXPECT_EQ(w.buffer(), std::string("Z\0\0\0\x05T", 6));
  w.Clear();
  w.CommandComplete("INSERT 0 1");
  EXPECT_EQ(w.buffer(), Typed('C', std::string("INSERT 0 1\0", 11)));
  w.Clear();
  w.Error(Status("22012", "division by zero", 8));
  EXPECT_EQ(w.buffer(), Typed('E', std::string("SERROR\0VERROR\0C22012\0Mdivision by zero\0P8\0\0", 43)));
}

TEST(MessageWriterTest, RowDescriptionAndDataRow) {
  MessageWriter w;
  std::vector<ResultColumn> columns = {{"n", Type(TypeId::kInt32)}, {"t", Type(TypeId::kText)}};
  w.RowDescription(columns, {});
  const std::string expected_fields = std::string("n\0", 2) + Int32(0) + std::string("\0\0", 2) + Int32(23) +
                                      std::string("\0\x04", 2) + Int32(0xffffffff) + std::string("\0\0", 2) +
                                      std::string("t\0", 2) + Int32(0) + std::string("\0\0", 2) + Int32(25) +
                                      std::string("\xff\xff", 2) + Int32(0xffffffff) + std::string("\0\0", 2);
  EXPECT_EQ(w.buffer(), Typed('T', std::string("\0\x02", 2) + expected_fields));
  w.Clear();
  ASSERT_TRUE(w.DataRow({Value::Int32(42), Value::Null(TypeId::kText)}, columns, {}).ok());
  EXPECT_EQ(w.buffer(), Typed('D', std::string("\0\x02", 2) + Int32(2) + "42" + Int32(0xffffffff)));
  w.Clear();
  ASSERT_TRUE(w.DataRow({Value::Int32(42), Value::Text("x")}, columns, {1}).ok());  // binary
  EXPECT_EQ(w.buffer(), Typed('D', std::string("\0\x02", 2) + Int32(4) + Int32(42) + Int32(1) + "x"));
}

}  // namespace
}  // namespace paceline::server
