// FootprintBuilder: reference keys from prepared slots and parameter values
// (see footprint_builder.h).
#include "engine/footprint_builder.h"

#include <algorithm>

#include "common/split_mix64.h"

namespace paceline::engine {

namespace {

constexpr uint64_t kOpSalt = 0x9e3779b97f4a7c15ULL;  // × (op + 1): one salt per operator
constexpr uint64_t kAllSeed = 0xa11c1a05e5ca1ab1ULL;  // starts an "all" clause's key

uint64_t PartKey(uint64_t subject, sql::ReferenceOp op, uint64_t value_hash) {
  return SplitMix64::Mix(SplitMix64::Mix(subject + kOpSalt * (static_cast<uint64_t>(op) + 1)) ^ value_hash);
}

// The key of a clause of two or more distinct parts: their sum, a
// commutative combination (the parts are mixed keys already), mixed again.
uint64_t ClauseKey(const std::vector<uint64_t>& parts) {
  uint64_t sum = kAllSeed;
  for (uint64_t p : parts) sum += p;
  return SplitMix64::Mix(sum);
}

void AppendValueText(const Value& v, std::string* out) {
  switch (v.type()) {
    case TypeId::kBool:
      out->append(v.bool_value() ? "true" : "false");
      return;
    case TypeId::kInt16:
    case TypeId::kInt32:
    case TypeId::kInt64:
    case TypeId::kFloat32:
    case TypeId::kFloat64:
    case TypeId::kNumeric:
      v.AppendTo(out);
      return;
    default:
      break;
  }
  // Strings and dates/times as SQL literals; CHAR without its padding.
  std::string text = v.ToString();
  if (v.type() == TypeId::kChar) {
    while (!text.empty() && text.back() == ' ') text.pop_back();
  }
  out->push_back('\'');
  for (char c : text) {
    if (c == '\'') out->push_back('\'');
    out->push_back(c);
  }
  out->push_back('\'');
}

}  // namespace

FootprintBuilder::FootprintBuilder(const scheduler::FootprintSpec& spec, bool with_names)
    : references_(spec.references),
      canonical_(spec.form == scheduler::ReferenceForm::kCanonical),
      all_(spec.granularity == scheduler::ReferenceGranularity::kAll),
      sources_(spec.sources),
      occurrences_(spec.multiplicity == scheduler::ReferenceMultiplicity::kOccurrence),
      with_names_(with_names),
      wants_partition_(!spec.partition_domain.empty()) {
  if (wants_partition_) partition_domain_hash_ = sql::ReferenceNameHash(spec.partition_domain);
  if (all_ && references_) parts_.reserve(16);
}

void FootprintBuilder::Add(const sql::PreparedStatement& statement, std::span<const Value> params) {
  if (names_final_) {
    names_.clear();
    names_final_ = false;
  }
  if (!references_) {
    // The partition value only: the first equality on its domain.
    if (!wants_partition_ || footprint_.has_partition_value) return;
    for (const sql::ReferenceSlot& slot : statement.reference_slots) {
      const Value* value;
      uint64_t hash;
      if (!OnPartitionDomain(slot) || !SlotValue(slot, params, &value, &hash)) continue;
      NotePartition(*value);
      return;
    }
    return;
  }
  const bool names = with_names_;
  bool in_clause = false;
  uint32_t clause = 0;
  ++statement_;
  for (const sql::ReferenceSlot& slot : statement.reference_slots) {
    if (!Keeps(slot)) continue;
    if (all_ && in_clause && slot.clause != clause) FlushClause();
    clause = slot.clause;
    in_clause = true;
    const Value* value;
    uint64_t hash;
    if (!SlotValue(slot, params, &value, &hash)) continue;
    if (wants_partition_ && !footprint_.has_partition_value && OnPartitionDomain(slot)) NotePartition(*value);
    const uint64_t key = PartKey(canonical_ ? slot.canonical_id : slot.literal_id, slot.op, hash);
    if (all_) {
      clause_tables_ |= scheduler::TableBit(slot.table_id);
      if (std::find(parts_.begin(), parts_.end(), key) != parts_.end()) continue;  // said twice
      parts_.push_back(key);
      if (names) {
        if (!clause_text_.empty()) clause_text_.append(" AND ");
        AppendText(slot, *value, &clause_text_);
      }
    } else if (InsertKey(key, scheduler::TableBit(slot.table_id)) && names) {
      names_.emplace_back();
      AppendText(slot, *value, &names_.back());
    }
  }
  if (all_) FlushClause();
}

void FootprintBuilder::FlushClause() {
  if (parts_.empty()) return;
  const uint64_t key = parts_.size() == 1 ? parts_[0] : ClauseKey(parts_);
  if (InsertKey(key, clause_tables_) && with_names_) names_.push_back(clause_text_);
  clause_tables_ = 0;
  parts_.clear();
  clause_text_.clear();
}

bool FootprintBuilder::Keeps(const sql::ReferenceSlot& slot) const {
  switch (sources_) {
    case scheduler::ReferenceSources::kKeys: return slot.by_key && (!slot.key_part || all_);
    case scheduler::ReferenceSources::kWhere: return slot.from_where;
    case scheduler::ReferenceSources::kAll: return true;
  }
  return true;
}

bool FootprintBuilder::SlotValue(const sql::ReferenceSlot& slot, std::span<const Value> params, const Value** value,
                                 uint64_t* hash) {
  if (slot.parameter < 0) {
    *value = &slot.constant;
    *hash = slot.constant_hash;
    return true;
  }
  if (static_cast<size_t>(slot.parameter) >= params.size()) return false;
  if (!sql::ReferenceValue(params[slot.parameter], slot.column_type, &scratch_, value)) return false;
  *hash = (*value)->Hash();
  return true;
}

bool FootprintBuilder::OnPartitionDomain(const sql::ReferenceSlot& slot) const {
  return slot.op == sql::ReferenceOp::kEq && (slot.canonical_name_hash == partition_domain_hash_ ||
                                              slot.canonical_qualified_hash == partition_domain_hash_);
}

void FootprintBuilder::NotePartition(const Value& value) {
  footprint_.has_partition_value = true;
  const Type type(value.type());
  if (type.IsInteger()) {
    footprint_.partition_value = static_cast<uint64_t>(value.int_value());
    return;
  }
  if (type.IsNumber()) {
    // An integral NUMERIC or float partitions as the equal integer.
    Value as_int;
    if (CastValue(value, Type(TypeId::kInt64), false, &as_int).ok() && Value::Compare(as_int, value) == 0) {
      footprint_.partition_value = static_cast<uint64_t>(as_int.int_value());
      return;
    }
  }
  footprint_.partition_value = value.Hash();
}

bool FootprintBuilder::InsertKey(uint64_t key, uint64_t tables) {
  auto [it, inserted] = seen_.try_emplace(key, footprint_.references.size());
  if (!inserted) {
    const size_t i = it->second;
    footprint_.reference_tables[i] |= tables;
    if (occurrences_ && counted_in_[i] != statement_) {  // once per statement
      counted_in_[i] = statement_;
      ++footprint_.reference_occurrences[i];
    }
    return false;
  }
  footprint_.references.push_back(key);
  footprint_.reference_tables.push_back(tables);
  if (occurrences_) {
    footprint_.reference_occurrences.push_back(1);
    counted_in_.push_back(statement_);
  }
  return true;
}

void FootprintBuilder::AppendText(const sql::ReferenceSlot& slot, const Value& value, std::string* out) const {
  out->append(canonical_ ? slot.canonical_name : slot.literal_name);
  out->append(sql::ReferenceOpText(slot.op));
  AppendValueText(value, out);
}

scheduler::Footprint FootprintBuilder::Finish() {
  scheduler::Footprint out = std::move(footprint_);
  footprint_ = scheduler::Footprint{};
  seen_.clear();
  counted_in_.clear();
  names_final_ = true;
  return out;
}

}  // namespace paceline::engine
