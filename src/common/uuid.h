// UUID: PostgreSQL's uuid type, held as its 16 bytes in network order.
//
// Input is uuid_in's syntax: 32 hex digits in either case, optionally inside
// braces, with an optional hyphen after any group of four digits
// ("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", "{A0EEBC99...}", "a0eebc999c0b...");
// nothing else (no blanks). Output is uuid_out's: lower case, hyphenated
// 8-4-4-4-12. Order and equality are the bytes' (memcmp), as uuid_cmp.
//
// Thread-safety: stateless functions; GenerateRandomUuid may be called from
// any thread.
#pragma once

#include <string>
#include <string_view>

#include "common/status.h"

namespace paceline {

inline constexpr size_t kUuidBytes = 16;

// Parses `text` into 16 bytes; 22P02 `invalid input syntax for type uuid:
// "<text>"` otherwise.
Status ParseUuid(std::string_view text, std::string* bytes);

// Appends the 36-character text form of 16 bytes.
void AppendUuid(std::string_view bytes, std::string* out);

// A version 4 (random) UUID, as gen_random_uuid(): 122 bits from the
// kernel's random source (getrandom), version and variant bits set.
std::string GenerateRandomUuid();

}  // namespace paceline
