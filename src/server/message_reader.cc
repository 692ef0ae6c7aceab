// MessageReader: frontend message framing over a blocking socket (see
// message_reader.h).
#include "server/message_reader.h"

#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace paceline::server {

namespace {

constexpr uint32_t kMaxStartupPacket = 10000;  // PostgreSQL's MAX_STARTUP_PACKET_LENGTH
constexpr size_t kReadChunk = 64 * 1024;

uint32_t BigEndian32(const char* p) {
  const auto* u = reinterpret_cast<const unsigned char*>(p);
  return (uint32_t{u[0]} << 24) | (uint32_t{u[1]} << 16) | (uint32_t{u[2]} << 8) | uint32_t{u[3]};
}

Status Violation(std::string message) { return Status(kProtocolViolation, std::move(message)); }

}  // namespace

bool MessageReader::WaitReadable() {
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline_ - std::chrono::steady_clock::now());
    if (left.count() <= 0) return false;
    pollfd fd{socket_->native_handle(), POLLIN, 0};
    const int ready = ::poll(&fd, 1, static_cast<int>(std::min<int64_t>(left.count() + 1, 1 << 30)));
    if (ready > 0) return true;  // data, end of stream or an error: read_some tells which
    if (ready < 0 && errno != EINTR) return true;
  }
}

Status MessageReader::Fill(size_t n, bool* idle) {
  timed_out_ = false;
  while (end_ - begin_ < n) {
    if (begin_ > 0) {  // keep the unread bytes at the front
      std::memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
      end_ -= begin_;
      begin_ = 0;
    }
    // Grown only when full of received bytes: by doubling, up to `n`.
    if (end_ == buffer_.size()) buffer_.resize(std::max(kReadChunk, std::min(n, 2 * buffer_.size())));
    // (A read that may give up is bounded by the receive timeout instead.)
    if (has_deadline_ && idle == nullptr && !WaitReadable()) {
      timed_out_ = true;
      return Status(sqlstate::kIdleSessionTimeout, "timed out waiting for the client");
    }
    // recv itself, not Asio's read_some, which waits again after the
    // receive timeout.
    const ssize_t got = ::recv(socket_->native_handle(), buffer_.data() + end_, buffer_.size() - end_, 0);
    if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {  // the receive timeout passed
      if (idle != nullptr && end_ == begin_) {
        *idle = true;
        return Status::OK();
      }
      continue;  // inside a message: wait on (a deadline is checked above)
    }
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) {
      const bool mid_message = end_ > begin_;
      eof_ = true;
      return mid_message ? Violation("unexpected EOF within message") : Status(kConnectionFailure, "connection closed");
    }
    end_ += static_cast<size_t>(got);
  }
  return Status::OK();
}

bool MessageReader::HasMessage() const {
  if (end_ - begin_ < 5) return false;
  const uint32_t length = BigEndian32(buffer_.data() + begin_ + 1);
  if (length < 4 || length - 4 > max_message_bytes_) return true;  // ReadMessage's error
  return end_ - begin_ >= size_t{length} + 1;
}

void MessageReader::Take(size_t n, std::string* out) {
  out->assign(buffer_.data() + begin_, n);
  begin_ += n;
  if (begin_ == end_) begin_ = end_ = 0;
  // Do not keep a huge buffer after a huge message.
  if (end_ == 0 && buffer_.size() > 4 * kReadChunk) {
    buffer_.resize(kReadChunk);
    buffer_.shrink_to_fit();
  }
}

Status MessageReader::ReadStartupPacket(std::string* body) {
  PL_RETURN_IF_ERROR(Fill(4));
  const uint32_t length = BigEndian32(buffer_.data() + begin_);
  if (length < 8 || length > kMaxStartupPacket) return Violation("invalid length of startup packet");
  PL_RETURN_IF_ERROR(Fill(length));
  begin_ += 4;
  Take(length - 4, body);
  return Status::OK();
}

Status MessageReader::ReadMessage(char* type, std::string* body) {
  bool idle = false;
  return ReadMessageUnlessIdle(type, body, &idle, /*may_idle=*/false);
}

Status MessageReader::ReadMessageUnlessIdle(char* type, std::string* body, bool* idle) {
  *idle = false;
  return ReadMessageUnlessIdle(type, body, idle, /*may_idle=*/true);
}

Status MessageReader::ReadMessageUnlessIdle(char* type, std::string* body, bool* idle, bool may_idle) {
  PL_RETURN_IF_ERROR(Fill(5, may_idle ? idle : nullptr));
  if (*idle) return Status::OK();
  *type = buffer_[begin_];
  const uint32_t length = BigEndian32(buffer_.data() + begin_ + 1);
  if (length < 4) return Violation("invalid message length");
  if (length - 4 > max_message_bytes_) {
    return Violation("message of " + std::to_string(length - 4) + " bytes exceeds the limit of " +
                     std::to_string(max_message_bytes_) + " bytes (max_message_bytes)");
  }
  PL_RETURN_IF_ERROR(Fill(size_t{length} + 1));
  begin_ += 5;
  Take(length - 4, body);
  return Status::OK();
}

Status Body::Int16(int16_t* out) {
  if (remaining() < 2) return Violation("insufficient data left in message");
  const auto* u = reinterpret_cast<const unsigned char*>(data_.data() + pos_);
  *out = static_cast<int16_t>((u[0] << 8) | u[1]);
  pos_ += 2;
  return Status::OK();
}

Status Body::Int32(int32_t* out) {
  if (remaining() < 4) return Violation("insufficient data left in message");
  *out = static_cast<int32_t>(BigEndian32(data_.data() + pos_));
  pos_ += 4;
  return Status::OK();
}

Status Body::CString(std::string_view* out) {
  const size_t nul = data_.find('\0', pos_);
  if (nul == std::string_view::npos) return Violation("invalid string in message");
  *out = data_.substr(pos_, nul - pos_);
  pos_ = nul + 1;
  return Status::OK();
}

Status Body::Bytes(size_t n, std::string_view* out) {
  if (remaining() < n) return Violation("insufficient data left in message");
  *out = data_.substr(pos_, n);
  pos_ += n;
  return Status::OK();
}

}  // namespace paceline::server
