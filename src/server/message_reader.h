// MessageReader: reads PostgreSQL protocol v3 frontend messages from a
// blocking Asio socket: the untyped start-up packets (int32 length that
// counts itself, then the body, whose first int32 is a protocol version or a
// request code), then typed messages (1-byte type, int32 length, body).
//
// Bounds: a length below its minimum, or above the limit (start-up packets:
// 10000 bytes as in PostgreSQL; typed messages: the current limit, which
// the connection lowers during authentication) is a protocol violation
// (08P01) detected from the 5-byte header alone. The buffer grows with the
// bytes actually received (doubling, from 64 KiB), never from the length a
// client announces, so a client that announces 60 MB and sends nothing
// costs 64 KiB. End of stream gives 08006; a stream that ends inside a
// message gives 08P01 with eof() true (nobody to tell).
//
// Deadline: with SetDeadline, a read that would wait past it fails with
// 57P05 and timed_out() true (the connection decides what it means:
// authentication timeout, idle-in-transaction timeout).
//
// Also: Body, a cursor that decodes a message body's fields (int16/int32
// big-endian, NUL-terminated strings, counted bytes) and reports a
// truncated or malformed body as 08P01.
//
// Thread-safety: one reader per connection, used by one thread at a time.
// Ownership: borrows the socket, which must outlive the reader.
#pragma once

#include <asio.hpp>

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace paceline::server {

// SQLSTATEs of a connection that broke (the peer closed or reset it) and of a bad message.
using sqlstate::kConnectionFailure;
using sqlstate::kProtocolViolation;

class MessageReader {
 public:
  MessageReader(asio::ip::tcp::socket* socket, uint32_t max_message_bytes)
      : socket_(socket), max_message_bytes_(max_message_bytes) {}

  // A start-up packet's body (starting with its int32 code).
  Status ReadStartupPacket(std::string* body);
  // A typed message: its type byte and body (without the length word).
  Status ReadMessage(char* type, std::string* body);
  // The same, except that when no byte of it arrives within the socket's
  // receive timeout (SO_RCVTIMEO, which the connection sets), it gives up
  // with *idle true and OK, having consumed nothing. (Inside a message the
  // receive timeout only repeats the wait.)
  Status ReadMessageUnlessIdle(char* type, std::string* body, bool* idle);
  // True once the peer closed the stream (or it broke).
  bool eof() const { return eof_; }
  // Whether a whole typed message (or a malformed header, which
  // ReadMessage reports at once) is already buffered: ReadMessage then
  // returns without reading from the socket.
  bool HasMessage() const;

  // The largest typed message accepted from now on.
  void set_max_message_bytes(uint32_t n) { max_message_bytes_ = n; }
  // Reads wait for the client until `deadline` at most (see above).
  void SetDeadline(std::chrono::steady_clock::time_point deadline) {
    deadline_ = deadline;
    has_deadline_ = true;
  }
  void ClearDeadline() { has_deadline_ = false; }
  // True when the last failed read ran into the deadline.
  bool timed_out() const { return timed_out_; }

 private:
  Status ReadMessageUnlessIdle(char* type, std::string* body, bool* idle, bool may_idle);
  // Makes at least `n` unread bytes available in buffer_; with `idle`,
  // gives up (*idle true) when the receive timeout passes with none.
  Status Fill(size_t n, bool* idle = nullptr);
  // Takes `n` available bytes.
  void Take(size_t n, std::string* out);

  // Waits until the socket is readable or the deadline passes (false).
  bool WaitReadable();

  asio::ip::tcp::socket* socket_;
  uint32_t max_message_bytes_;
  std::chrono::steady_clock::time_point deadline_;
  bool has_deadline_ = false;
  bool timed_out_ = false;
  std::vector<char> buffer_;
  size_t begin_ = 0;  // unread bytes are [begin_, end_)
  size_t end_ = 0;
  bool eof_ = false;
};

class Body {
 public:
  explicit Body(std::string_view data) : data_(data) {}
  Status Int16(int16_t* out);
  Status Int32(int32_t* out);
  Status CString(std::string_view* out);
  Status Bytes(size_t n, std::string_view* out);
  size_t remaining() const { return data_.size() - pos_; }
  bool done() const { return pos_ == data_.size(); }

 private:
  std::string_view data_;
  size_t pos_ = 0;
};

}  // namespace paceline::server
