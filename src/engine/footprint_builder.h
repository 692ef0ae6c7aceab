// FootprintBuilder: turns the statements of one transaction, with their bound
// parameter values, into the scheduler's Footprint — the distinct 64-bit keys
// of its references, in the form a scheduler asked for (FootprintSpec) — and,
// on request, into their text for display.
//
// It reads the reference slots that were fixed when each statement was
// prepared (sql::PreparedStatement::reference_slots): for every slot, the
// value comes from the slot's constant or from parameter $n; a NULL value (a
// procedure's stand-in for a value computed at run time) yields no
// reference. No parsing, no strings and no catalog access here: the cost is
// linear in the number of slots.
//
//   FootprintBuilder builder(spec);
//   builder.Add(*prepared, params);   // per statement, in order
//   scheduler::Footprint f = builder.Finish();
//
// Keys: a single reference's key mixes (subject, operator, value hash), the
// subject being the slot's literal or canonical id; an "all" reference's key
// mixes the sum of its clause's distinct part keys (order-independent; a
// one-part clause keeps its part's key), and leaves out the parts whose
// value is NULL or missing (no part: no reference). Values are hashed with
// Value::Hash after conversion to the column's type family
// (sql::ReferenceValue), so 5 as int2, int4, int8, numeric or text '5' give
// one key on an INT column. Texts: `s_w_id=5`, `c_last='BARBARBAR'`,
// `ol_o_id<3001`, parts joined with " AND " in written order.
//
// Sources (FootprintSpec::sources): kKeys keeps the slots that locate rows
// by key (ReferenceSlot::by_key; an inserted composite key's parts only
// under "all"), kWhere the WHERE slots, kAll every slot. Multiplicity
// kOccurrence also counts, per reference, the Add calls (statements) that
// made it (Footprint::reference_occurrences).
//
// Partition value: of the first `=` reference (any statement, any clause,
// whatever the spec's form) whose canonical domain is spec.partition_domain
// by name ("w_id") or by qualified root name ("warehouse.w_id"), with a
// non-NULL value: an integer (or an integral number that fits int64) as its
// two's complement, anything else as its Value::Hash.
//
// Cost: per slot a few multiplications and one Value::Hash; no heap
// allocation except the output vector (and the cells of the distinct-key
// set, allocated once per builder), unless with_names or a parameter needs a
// conversion to another type family.
//
// Thread-safety: one builder per thread/transaction. It borrows nothing
// beyond each Add call.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <absl/container/flat_hash_map.h>

#include "common/value.h"
#include "sql/prepared_statement.h"
#include "scheduler/footprint.h"

namespace paceline::engine {

class FootprintBuilder {
 public:
  // with_names: also render each reference's text (Names()); slow, only
  // for introspection.
  explicit FootprintBuilder(const scheduler::FootprintSpec& spec, bool with_names = false);

  // Adds the references of `statement` executed with `params` ($1 first). A
  // parameter missing from `params` or NULL yields no reference.
  void Add(const sql::PreparedStatement& statement, std::span<const Value> params);

  // The footprint so far (distinct keys in first-seen order, the partition
  // value); the builder is left empty (Names() stays until the next Add).
  scheduler::Footprint Finish();
  // With with_names: the text of each key Finish returned, in the same
  // order ("s_w_id=5", "w_id=5", "s_i_id=2 AND s_w_id=5").
  const std::vector<std::string>& Names() const { return names_; }

 private:
  // Ends the "all" clause being gathered: adds its key (and text).
  void FlushClause();
  // The value of `slot` for `params` (converted to the column's family):
  // false when NULL, missing or not convertible.
  bool SlotValue(const sql::ReferenceSlot& slot, std::span<const Value> params, const Value** value,
                 uint64_t* hash);
  // Whether the spec's sources keep `slot`.
  bool Keeps(const sql::ReferenceSlot& slot) const;
  // True when `slot` is an equality on the spec's partition domain.
  bool OnPartitionDomain(const sql::ReferenceSlot& slot) const;
  // Takes `value` (of such a slot) as the partition value.
  void NotePartition(const Value& value);
  // Adds `key` to footprint_.references unless already there (true when
  // new), and `tables` (TableBit masks) to its reference_tables.
  bool InsertKey(uint64_t key, uint64_t tables);
  // `name op value` in the spec's form ("s_w_id=5", "c_last='BAR'").
  void AppendText(const sql::ReferenceSlot& slot, const Value& value, std::string* out) const;

  bool references_;
  bool canonical_;
  bool all_;
  scheduler::ReferenceSources sources_;
  bool occurrences_;  // FootprintSpec::multiplicity == kOccurrence
  bool with_names_;
  bool wants_partition_;
  uint64_t partition_domain_hash_ = 0;

  scheduler::Footprint footprint_;
  absl::flat_hash_map<uint64_t, size_t> seen_;  // key → its index in footprint_.references
  // With occurrences_: Add calls so far, and per reference the last Add
  // that counted it (a statement counts each reference once).
  uint32_t statement_ = 0;
  std::vector<uint32_t> counted_in_;
  // The "all" clause being gathered: its distinct part keys (written order)
  // and, with names, its text.
  std::vector<uint64_t> parts_;
  uint64_t clause_tables_ = 0;  // TableBit of the tables of its parts
  std::string clause_text_;
  Value scratch_;  // a converted parameter value
  std::vector<std::string> names_;
  bool names_final_ = false;  // names_ belong to the last Finish
};

}  // namespace paceline::engine
