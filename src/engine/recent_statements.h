// RecentStatements: one session's recently run statement texts and their
// prepared statements, found by the text without copying it (the shared
// StatementCache needs a key string).
//
// An entry is either a text prepared as it is, or a text whose literals the
// LiteralParameterizer replaced: then it keeps the caller's parameter count
// and the literals' values, already converted for the statement, so running
// the text again lexes nothing. Such texts are admitted on their second
// sighting only (SeenBefore): a text seen once, as pgbench's every text is,
// costs one slot of a small filter and is never stored.
//
// Bounded: at kCapacity entries it starts over; texts over kMaxText bytes are
// not kept. An entry is stale once the catalog version moves past its
// statement's (Find ignores it).
//
// Thread-safety: none; a session uses it from one thread at a time.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/value.h"
#include "sql/prepared_statement.h"

namespace paceline::engine {

class RecentStatements {
 public:
  struct Entry {
    std::shared_ptr<const sql::PreparedStatement> statement;
    size_t supplied = 0;         // parameterized text: the caller's parameter count
    std::vector<Value> literals;  // parameterized text: the values after the caller's
    // `params` followed by the literals; false when there are none or the
    // caller gave another number of parameters.
    bool WithLiterals(const std::vector<Value>& params, std::vector<Value>* out) const;
  };

  // The entry under `key` whose statement was bound at `catalog_version`.
  const Entry* Find(std::string_view key, uint64_t catalog_version) const;
  void Remember(std::string key, Entry entry);
  // Whether `text` was offered before (recently; the filter forgets), and
  // notes it as seen.
  bool SeenBefore(std::string_view text);

 private:
  static constexpr size_t kCapacity = 256;
  static constexpr size_t kMaxText = 4096;
  static constexpr size_t kSeenSlots = 1024;
  struct TextHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
  };
  std::unordered_map<std::string, Entry, TextHash, std::equal_to<>> entries_;
  std::vector<size_t> seen_;  // hashes of texts seen, by hash modulo kSeenSlots
};

}  // namespace paceline::engine
