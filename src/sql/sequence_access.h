// SequenceAccess: what the SQL functions nextval, currval, setval and
// lastval need from the engine: a session's view of the sequences (its
// currval and lastval values) and a way to log what they hand out. The SQL
// layer declares it; the engine implements it (engine::SequenceSession), so
// SQL never reaches up into the session or the log.
//
// Sequences are named as regclass input names them: SequenceNameFromText
// turns text ('s', '"S"', 'public.s') into the catalog's name.
//
// Thread-safety: an implementation belongs to one session (or one request)
// and is used by one thread at a time.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/status.h"
#include "common/value.h"

namespace paceline::catalog {
class Catalog;
}

namespace paceline::sql {

class SequenceAccess {
 public:
  virtual ~SequenceAccess() = default;

  // nextval(name): 42P01 / 42809 for a name that is no sequence, 2200H at a
  // bound without CYCLE.
  virtual Status NextVal(std::string_view name, int64_t* out) = 0;
  // currval(name): the value nextval last returned for it in this session;
  // 55000 before that.
  virtual Status CurrVal(std::string_view name, int64_t* out) = 0;
  // setval(name, value, called): 22003 outside the sequence's bounds.
  virtual Status SetVal(std::string_view name, int64_t value, bool called) = 0;
  // lastval(): the value nextval last returned in this session, of any
  // sequence; 55000 before that or once that sequence is dropped.
  virtual Status LastVal(int64_t* out) = 0;
};

// A name as regclass input reads it → its dot-separated parts: unquoted
// parts lower-cased, "quoted" parts kept ("" for a quote). 42602 "invalid
// name syntax" for a malformed name; more than three parts is 42601.
Status RegclassNameParts(std::string_view text, std::vector<std::string>* parts);

// A sequence's regclass name as text → the relation's name: its parts
// (RegclassNameParts) with a "public." qualifier dropped; a qualifier naming
// another schema is 3F000 `schema "x" does not exist`.
Status SequenceNameFromText(std::string_view text, std::string* out);

// The inverse, as regclass output and quote_ident write a name: as it is
// when it is a plain identifier (lower-case ASCII letters, digits and _,
// not starting with a digit) and no keyword but an unreserved one
// (IsNonUnreservedKeyword), else in double quotes with " doubled
// ("My Seq" → "\"My Seq\"", "user" → "\"user\"").
std::string RegclassText(std::string_view name);

// pg_get_serial_sequence(table, column): the qualified name
// ("public.t_id_seq") of the sequence `column` of `table` (a name as
// regclass input reads it) owns — serial, identity or OWNED BY — or NULL
// text when none. 42P01 / 42703 for a table or column that does not exist.
// Bound once for constant arguments, else evaluated per row.
Status SerialSequenceOf(const catalog::Catalog& catalog, std::string_view table, const std::string& column,
                        Value* out);

}  // namespace paceline::sql
