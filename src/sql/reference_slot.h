// ReferenceSlot: one reference a prepared statement makes, fixed when it is
// prepared — a column (and its canonical domain), an operator, and where the
// value comes from (parameter $n or a constant) — so that the scheduler's
// footprint of a transaction is computed from slots and bound parameter
// values only (engine/footprint_builder.h), without parsing or strings.
//
// Slots come from (ReferenceSlotExtractor):
//   - each WHERE conjunct `column op value`, op ∈ {=, <>, <, <=, >, >=},
//     value a parameter or a non-NULL constant (casts on either side looked
//     through; `$1 = col` is stored mirrored as `col = $1`), of SELECT, UPDATE,
//     DELETE and the SELECT of INSERT .. SELECT;
//   - each `SET column = value` of an UPDATE;
//   - each inserted `column = value` of every VALUES row, and of the select
//     list of INSERT .. SELECT.
// Each slot says which kind it is and whether it locates rows by key
// (`from_where`, `by_key`), so that FootprintSpec::sources can keep some.
// A clause groups the slots of one WHERE condition (inner-join ON conditions
// included, as the binder merges them; each LEFT JOIN's ON is its own), one
// SET list, one VALUES row: the unit of the "all" granularity. Slots are in
// written order; clause numbers count from 0 per statement and slots of one
// clause are contiguous.
//
// Subjects are 64-bit hashes: the literal subject of "table.column" (the
// column as written), the canonical subject of the root "table.column" of its
// foreign-key chain or of its CREATE DOMAIN (catalog/canonical_domain.h).
//
// Thread-safety: immutable after preparation, shared by every execution.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/ids.h"
#include "common/types.h"
#include "common/value.h"

namespace paceline::sql {

enum class ReferenceOp : uint8_t { kEq, kNe, kLt, kLe, kGt, kGe };

// "=", "<>", "<", "<=", ">", ">=".
std::string_view ReferenceOpText(ReferenceOp op);

struct ReferenceSlot {
  // The literal subject: ReferenceNameHash("stock.s_w_id"), shown "s_w_id"
  // ("pgbench_history.bid" when other tables have a column of that name).
  uint64_t literal_id = 0;
  std::string literal_name;
  // The canonical subject: ReferenceNameHash("warehouse.w_id") of a root
  // column, ReferenceDomainHash(name) of a domain; shown "w_id" (qualified
  // as above when the name is shared) or the domain's name.
  uint64_t canonical_id = 0;
  std::string canonical_name;
  // For matching FootprintSpec::partition_domain ("w_id" or
  // "warehouse.w_id"): ReferenceNameHash of the root column's bare name (of
  // the domain's name) and
  // ReferenceNameHash of the root's "table.column" (of the domain's name).
  uint64_t canonical_name_hash = 0;
  uint64_t canonical_qualified_hash = 0;

  ReferenceOp op = ReferenceOp::kEq;
  // The value: parameter $(parameter + 1), or `constant` when parameter < 0.
  int parameter = -1;
  Value constant;               // never NULL; already as ReferenceValue makes it
  uint64_t constant_hash = 0;   // constant.Hash()
  // The column's type: a value of another family is converted to it before
  // hashing (ReferenceValueNeedsCast), so `col = $1` hashes alike for 5 and '5'.
  Type column_type;
  uint32_t clause = 0;
  // storage::Table::id() of the column's table (for attributing conflicts:
  // scheduler::Footprint::reference_tables).
  TableId table_id;
  // Which kind of clause it comes from (FootprintSpec::sources may keep
  // only WHERE conjuncts).
  bool from_where = false;
  // For FootprintSpec::sources == kKeys: a WHERE equality that locates rows
  // by key (its column and the condition's other equalities on that table
  // form a prefix of one of its indexes: every column of a hash index), or
  // an inserted value of a primary-key column. `key_part` marks an inserted
  // value of a composite primary key (a reference only as part of the
  // whole key, under the "all" granularity).
  bool by_key = false;
  bool key_part = false;
};

// The hash of a subject's name ("stock.s_w_id", "w_id").
uint64_t ReferenceNameHash(std::string_view name);
// The canonical subject of a CREATE DOMAIN (never equal to a column's).
uint64_t ReferenceDomainHash(std::string_view domain);

// True when a value of type `value` must be cast to `column` before its
// Value::Hash is a reference's value hash: its type family (number, string,
// bool, date/time) differs from the column's, or it is a string other than
// CHAR meeting a CHAR column (whose values compare without trailing blanks).
// Within a family Value::Hash already agrees for equal values (5 as int2,
// int4, int8, numeric alike).
bool ReferenceValueNeedsCast(TypeId value, const Type& column);

// `v` cast to `column` into *scratch: false when it does not convert.
bool CastReferenceValue(const Value& v, const Type& column, Value* scratch);

// `v` as a reference's value for a column of type `column`: *out points at
// `v`, or at `*scratch` holding its cast. False when `v` is NULL or does not
// convert (no reference then). Inline: it is on the per-slot path.
inline bool ReferenceValue(const Value& v, const Type& column, Value* scratch, const Value** out) {
  if (v.is_null()) return false;
  if (v.type() == column.id || !ReferenceValueNeedsCast(v.type(), column)) {
    *out = &v;
    return true;
  }
  if (!CastReferenceValue(v, column, scratch)) return false;
  *out = scratch;
  return true;
}

}  // namespace paceline::sql
