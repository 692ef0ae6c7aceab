// ReferenceSlot helpers: operator text, subject hashes, value conversion
// (see reference_slot.h).
#include "sql/reference_slot.h"

#include <xxhash.h>

namespace paceline::sql {

namespace {

// Seeds the hash of domain names, so that a domain never shares a subject
// with a column (whose names are hashed unseeded).
constexpr uint64_t kDomainSeed = 0x64'6f'6d'61'69'6e'21'21ULL;

enum class Family { kNumber, kString, kBool, kTime, kBytes };

Family FamilyOf(TypeId id) {
  switch (id) {
    case TypeId::kBool:
      return Family::kBool;
    case TypeId::kInt16:
    case TypeId::kInt32:
    case TypeId::kInt64:
    case TypeId::kOid:
    case TypeId::kFloat32:
    case TypeId::kFloat64:
    case TypeId::kNumeric:
      return Family::kNumber;
    case TypeId::kDate:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
      return Family::kTime;
    case TypeId::kUnknown:
    case TypeId::kChar:
    case TypeId::kVarchar:
    case TypeId::kText:
      return Family::kString;
    case TypeId::kBytea: case TypeId::kArray: case TypeId::kUuid: case TypeId::kJson: case TypeId::kJsonb:
    case TypeId::kInterval: case TypeId::kVoid: case TypeId::kRecord:
      return Family::kBytes;
  }
  return Family::kString;
}

}  // namespace

std::string_view ReferenceOpText(ReferenceOp op) {
  switch (op) {
    case ReferenceOp::kEq: return "=";
    case ReferenceOp::kNe: return "<>";
    case ReferenceOp::kLt: return "<";
    case ReferenceOp::kLe: return "<=";
    case ReferenceOp::kGt: return ">";
    case ReferenceOp::kGe: return ">=";
  }
  return "?";
}

uint64_t ReferenceNameHash(std::string_view name) { return XXH3_64bits(name.data(), name.size()); }

uint64_t ReferenceDomainHash(std::string_view domain) {
  return XXH3_64bits_withSeed(domain.data(), domain.size(), kDomainSeed);
}

bool ReferenceValueNeedsCast(TypeId value, const Type& column) {
  if (value == column.id || column.id == TypeId::kUnknown) return false;
  if (FamilyOf(value) != FamilyOf(column.id)) return true;
  return column.id == TypeId::kChar;  // same family: only strings meeting CHAR
}

bool CastReferenceValue(const Value& v, const Type& column, Value* scratch) {
  return CastValue(v, column, /*explicit_cast=*/false, scratch).ok() && !scratch->is_null();
}

}  // namespace paceline::sql
