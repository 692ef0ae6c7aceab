// SQL types: the fixed set of scalar types Paceline stores and computes with.
//
// A Type is a TypeId plus the modifiers that constrain it: the length n of
// CHAR(n)/VARCHAR(n), the precision and scale of NUMERIC(p,s). Types are small
// value types, freely copied, and immutable once built. Names and OIDs follow
// PostgreSQL so that the wire protocol and psql see familiar types.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace paceline {

enum class TypeId : uint8_t {
  kUnknown,    // the type of an untyped NULL or string literal before coercion
  kBool,
  kInt16,      // SMALLINT  / int2
  kInt32,      // INT       / int4
  kInt64,      // BIGINT    / int8
  kFloat32,    // REAL      / float4
  kFloat64,    // DOUBLE PRECISION / float8
  kNumeric,    // NUMERIC(p,s) / DECIMAL: exact, see decimal.h
  kChar,       // CHAR(n)   / bpchar: blank-padded to n
  kVarchar,    // VARCHAR(n)
  kText,       // TEXT
  kDate,       // days since 1970-01-01
  kTimestamp,  // microseconds since 1970-01-01 00:00:00, no time zone
  kTimestampTz,  // same representation, always UTC in Paceline
  kBytea,      // BYTEA: a byte string of any bytes (NULs included)
  kArray,      // a one-dimensional array of Type::element (see array_value.h)
  kUuid, kJson, kJsonb,  // UUID: 16 bytes; JSON: its text; JSONB: normalized text (json_value.h)
  kInterval,   // INTERVAL: months, days and microseconds (interval.h)
  kVoid,       // void: the result of a function that returns nothing (pg_sleep); never a column
  kOid,        // OID: an unsigned 32-bit object identifier (the system catalogs' keys); an integer type
  kRecord,     // record: a row value (ROW(1, 'a'), a row-returning function's row); see record_value.h
};

struct RecordField;

struct Type {
  TypeId id = TypeId::kUnknown;
  TypeId element = TypeId::kUnknown;  // kArray: the element type, whose modifiers are those below
  int32_t length = -1;     // CHAR(n) / VARCHAR(n): n; -1 when unbounded
  int32_t precision = -1;  // NUMERIC(p,s): p; -1 when unconstrained
  int32_t scale = -1;      // NUMERIC(p,s): s; -1 when unconstrained
  // kArray of kInt16 or kOid: PostgreSQL's int2vector / oidvector (the
  // system catalogs' indkey, indclass, ...): an array whose text form is
  // "1 2" and whose subscripts start at 0.
  bool vector = false;
  // kRecord: its fields' names and types, when the binder knows them (a
  // record Value itself carries only its fields' types); shared, immutable.
  std::shared_ptr<const std::vector<RecordField>> fields;

  Type() = default;
  explicit Type(TypeId t) : id(t) {}
  static Type Numeric(int32_t precision, int32_t scale);
  static Type Varchar(int32_t length);
  static Type Char(int32_t length);
  // An array of `element` (its modifiers kept: varchar(10)[]).
  static Type Array(const Type& element);
  // int2vector (element kInt16) or oidvector (element kOid).
  static Type Vector(TypeId element);
  // A record with these fields.
  static Type Record(std::vector<RecordField> fields);
  // kArray: the element type with its modifiers.
  Type ElementType() const;
  bool IsArray() const { return id == TypeId::kArray; }
  bool IsRecord() const { return id == TypeId::kRecord; }
  // record or record[] (_record): pseudo-types, never a column's.
  bool IsRecordOrRecordArray() const { return IsRecord() || (IsArray() && element == TypeId::kRecord); }

  bool IsInteger() const {
    return id == TypeId::kInt16 || id == TypeId::kInt32 || id == TypeId::kInt64 || id == TypeId::kOid;
  }
  bool IsFloat() const { return id == TypeId::kFloat32 || id == TypeId::kFloat64; }
  bool IsNumber() const { return IsInteger() || IsFloat() || id == TypeId::kNumeric; }
  bool IsString() const { return id == TypeId::kChar || id == TypeId::kVarchar || id == TypeId::kText; }
  bool IsTemporal() const { return id == TypeId::kDate || id == TypeId::kTimestamp || id == TypeId::kTimestampTz; }
  // Stored as a length and bytes (the strings, bytea, arrays, json and
  // jsonb): what a tuple keeps in its variable area. Bytea is not
  // IsString(): it is no text. uuid is fixed (16 bytes).
  bool IsVariableLength() const {
    return IsString() || id == TypeId::kBytea || id == TypeId::kArray || id == TypeId::kRecord || IsJson();
  }
  bool IsJson() const { return id == TypeId::kJson || id == TypeId::kJsonb; }

  // PostgreSQL's display name with modifiers, as format_type() prints it:
  // "integer", "numeric(12,2)", "character varying(16)", "character(2)",
  // "timestamp without time zone", "double precision", "boolean", "text",
  // "bytea", "uuid", "json", "jsonb", "interval", "void", "record"; an array is its element's
  // name and "[]" ("integer[]").
  std::string ToString() const;
  // PostgreSQL type OID (int4 = 23, numeric = 1700, varchar = 1043, bytea =
  // 17, uuid = 2950, json = 114, jsonb = 3802, interval = 1186, void =
  // 2278, int4[] = 1007, interval[] = 1187, ...; see
  // ArrayOid); kUnknown → 705 ("unknown").
  uint32_t Oid() const;
  // PostgreSQL's typlen for RowDescription (-1 for variable length).
  int16_t WireSize() const;
  // PostgreSQL's atttypmod for RowDescription (-1 when none).
  int32_t WireModifier() const;

  bool operator==(const Type& o) const {
    return id == o.id && element == o.element && length == o.length && precision == o.precision && scale == o.scale &&
           vector == o.vector && (id != TypeId::kRecord || SameFields(o));
  }

 private:
  // kRecord: the same field types (names aside), or either without fields.
  bool SameFields(const Type& o) const;
};

// One field of a record type: its name ("f1", "f2", ... for ROW(...)) and type.
struct RecordField {
  std::string name;
  Type type;
};

// PostgreSQL's OID of the array type whose elements are `element` (int4 →
// 1007, text → 1009, ...); 0 when PostgreSQL has none. ElementOfArrayOid is
// its inverse (false for an OID that is no array type Paceline has).
uint32_t ArrayOid(TypeId element);
bool ElementOfArrayOid(uint32_t oid, TypeId* element);

// Short name of a TypeId as PostgreSQL names the base type ("int4", "numeric").
std::string_view TypeIdName(TypeId id);

// Resolves a normalized built-in type name as the parser produces it ("int4",
// "numeric", "bpchar", "varchar", "text", "bool", "float4", "float8", "int2",
// "int8", "date", "timestamp", "timestamptz", "bytea", "uuid", "json",
// "jsonb", "interval") with its modifiers into a Type. An interval's
// fields or precision (`interval(3)`, `INTERVAL DAY TO SECOND`) are 0A000.
// Bad modifiers (NUMERIC(50), VARCHAR(0), scale > precision) → 22023 with the
// PostgreSQL-style message; an unknown name → 42704 "type \"x\" does not
// exist"; a known PostgreSQL type Paceline lacks (time, xml, ...)
// → 0A000 naming it. Domains are resolved by the catalog, not here.
Status ResolveBuiltinType(std::string_view name, const std::vector<int32_t>& modifiers, Type* out);

}  // namespace paceline
