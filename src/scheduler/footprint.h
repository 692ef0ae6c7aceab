// Footprint: what the scheduler knows of one transaction — the 64-bit keys
// of the references it makes — and FootprintSpec, what a scheduler asks the
// engine to compute.
//
// A reference is a column (or its canonical domain), an operator and a value,
// taken from a WHERE conjunct, a SET assignment or an inserted value
// (`s_w_id=5`; canonically `w_id=5`); with the "all" granularity a whole
// clause is one reference (`s_i_id=2 AND s_w_id=5`). The engine computes the
// keys from reference slots fixed when each statement was prepared and the
// bound parameter values, before the transaction is queued: no parsing and no
// strings on that path. The scheduler never sees SQL text; it compares keys.
// An empty footprint is valid (nothing known).
//
// Plain value types.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/ids.h"

namespace paceline::scheduler {

using ReferenceKey = uint64_t;

// Literal: the column as written (stock.s_w_id). Canonical: the column's
// domain, found by following foreign keys to their root column, or its
// CREATE DOMAIN type (w_id).
enum class ReferenceForm { kLiteral, kCanonical };
// Single: each conjunct / assignment / inserted value is a reference. All: a
// whole WHERE condition, a whole SET list, a whole VALUES row is one.
enum class ReferenceGranularity { kSingle, kAll };

// Which clauses yield references:
//   kKeys (the default): what the paper's authors used, derived instead of
//     hand-picked — the equality conjuncts of a SELECT's, UPDATE's or
//     DELETE's WHERE whose column, with the condition's other equalities on
//     that table, forms a prefix of an index (primary key, unique or not),
//     so that it locates rows by key; an INSERT gives only its primary key
//     (under the single granularity only a one-column key: a part of a
//     composite key, `ol_number=1`, names no row by itself);
//   kWhere: every WHERE conjunct `column op value` (ranges and non-key
//     columns too) — the references that locate existing rows;
//   kAll: all that the paper names (WHERE conjuncts, SET assignments,
//     inserted values). An assigned or inserted value (`ol_number=1`,
//     `o_all_local=1`) names no row another transaction could touch, yet it
//     recurs in nearly every transaction of its kind, so under Count it
//     gathers the most aborts of all (see docs/results.md).
enum class ReferenceSources { kKeys, kWhere, kAll };

// How often a reference counts in one transaction's events: once per
// statement that makes it (kOccurrence, the paper's: NewOrder credits
// `w_id` once per order line), or once per transaction (kTransaction).
enum class ReferenceMultiplicity { kOccurrence, kTransaction };

struct FootprintSpec {
  bool references = false;  // compute Footprint::references, in this form:
  ReferenceForm form = ReferenceForm::kLiteral;
  ReferenceGranularity granularity = ReferenceGranularity::kSingle;
  ReferenceSources sources = ReferenceSources::kAll;
  // kOccurrence: also compute Footprint::reference_occurrences.
  ReferenceMultiplicity multiplicity = ReferenceMultiplicity::kTransaction;
  // Non-empty: compute Footprint::partition_value, the value the
  // transaction gives this domain (canonical name, e.g. "w_id", or
  // "table.column").
  std::string partition_domain;
};

// A table's bit in Footprint::reference_tables and AbortCulprit::tables
// (ids modulo 64: with more tables, two may share a bit and blame spreads
// to both).
constexpr uint64_t TableBit(TableId table_id) { return uint64_t{1} << (table_id.value() % 64); }

struct Footprint {
  // Distinct keys, in the order first met in the transaction.
  std::vector<ReferenceKey> references;
  // Parallel to `references` (may be empty when not computed): TableBit of
  // each table whose statements gave that reference, so that an abort's
  // culprit table blames only the references that located its rows.
  std::vector<uint64_t> reference_tables{};
  // Parallel to `references` (empty unless FootprintSpec::multiplicity is
  // kOccurrence): how many statements of the transaction made each one.
  std::vector<uint32_t> reference_occurrences{};
  // The value of the first equality reference on FootprintSpec's
  // partition_domain: an integer as its two's complement, any other type as
  // its Value::Hash.
  bool has_partition_value = false;
  uint64_t partition_value = 0;

  // The TableBits reference i located (0: not known, e.g. not computed).
  uint64_t TablesOf(size_t i) const { return i < reference_tables.size() ? reference_tables[i] : 0; }
  // How many times reference i counts in this transaction's events (1 when
  // not computed).
  uint32_t OccurrencesOf(size_t i) const {
    return i < reference_occurrences.size() ? reference_occurrences[i] : 1;
  }
};

// Renders the references of the footprint an event is about as text
// ("s_w_id=5", "s_i_id=2 AND s_w_id=5"), for introspection; slow (it walks
// the transaction again), so a scheduler calls it rarely, e.g. the first time
// a reference aborts. Valid only during the call that receives it.
class ReferenceNamer {
 public:
  virtual ~ReferenceNamer() = default;
  // The text of footprint.references[i].
  virtual std::string Name(size_t i) const = 0;
};

}  // namespace paceline::scheduler
