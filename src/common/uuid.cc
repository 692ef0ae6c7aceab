// UUID text input and output, and random (version 4) UUIDs (see uuid.h).
#include "common/uuid.h"

#include <sys/random.h>

#include <cerrno>
#include <random>

namespace paceline {

namespace {

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

Status ParseUuid(std::string_view text, std::string* bytes) {
  // PostgreSQL's string_to_uuid, step for step.
  std::string out(kUuidBytes, '\0');
  size_t i = 0;
  const bool braces = !text.empty() && text[0] == '{';
  if (braces) ++i;
  bool ok = true;
  for (size_t b = 0; b < kUuidBytes && ok; ++b) {
    if (i + 1 >= text.size()) {
      ok = false;
      break;
    }
    const int high = HexValue(text[i]), low = HexValue(text[i + 1]);
    if (high < 0 || low < 0) {
      ok = false;
      break;
    }
    out[b] = static_cast<char>((high << 4) | low);
    i += 2;
    if (i < text.size() && text[i] == '-' && b % 2 == 1 && b < kUuidBytes - 1) ++i;
  }
  if (ok && braces) {
    if (i < text.size() && text[i] == '}') {
      ++i;
    } else {
      ok = false;
    }
  }
  if (!ok || i != text.size()) {
    return Status(sqlstate::kInvalidTextRepresentation,
                  "invalid input syntax for type uuid: \"" + std::string(text) + "\"");
  }
  *bytes = std::move(out);
  return Status::OK();
}

void AppendUuid(std::string_view bytes, std::string* out) {
  static constexpr char kHex[] = "0123456789abcdef";
  for (size_t b = 0; b < bytes.size(); ++b) {
    if (b == 4 || b == 6 || b == 8 || b == 10) out->push_back('-');
    const auto c = static_cast<unsigned char>(bytes[b]);
    out->push_back(kHex[c >> 4]);
    out->push_back(kHex[c & 0xF]);
  }
}

std::string GenerateRandomUuid() {
  std::string bytes(kUuidBytes, '\0');
  size_t filled = 0;
  while (filled < kUuidBytes) {
    const ssize_t n = getrandom(bytes.data() + filled, kUuidBytes - filled, 0);
    if (n > 0) {
      filled += static_cast<size_t>(n);
    } else if (n < 0 && errno != EINTR) {
      // No getrandom (a very old kernel): the C++ library's random device.
      std::random_device device;
      for (; filled < kUuidBytes; ++filled) bytes[filled] = static_cast<char>(device() & 0xFF);
    }
  }
  bytes[6] = static_cast<char>((bytes[6] & 0x0F) | 0x40);  // version 4
  bytes[8] = static_cast<char>((bytes[8] & 0x3F) | 0x80);  // RFC 4122 variant
  return bytes;
}

}  // namespace paceline
