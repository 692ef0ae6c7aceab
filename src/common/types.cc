// SQL types: constructors, PostgreSQL display names, OIDs, wire sizes and
// modifiers, and the resolution of built-in type names with their modifiers
// (numeric(p,s), varchar(n), ...) into a Type.
#include "common/types.h"

#include <array>
#include <cctype>
#include <initializer_list>
#include <string>

#include "common/decimal.h"

namespace paceline {

namespace {

// PostgreSQL's limit on CHAR(n)/VARCHAR(n) (MaxAttrSize).
constexpr int32_t kMaxStringLength = 10 * 1024 * 1024;
// PostgreSQL's limit on NUMERIC precision (NUMERIC_MAX_PRECISION).
constexpr int32_t kPostgresMaxNumericPrecision = 1000;

// Concatenates without `"literal" + std::string&&`, which trips GCC 12's
// false-positive -Wrestrict at -O3.
std::string Cat(std::initializer_list<std::string_view> parts) {
  std::string s;
  for (std::string_view p : parts) s.append(p);
  return s;
}

std::string ModifierNotAllowed(std::string_view name) {
  return Cat({"type modifier is not allowed for type \"", name, "\""});
}

Status ResolveNumeric(const std::vector<int32_t>& mods, Type* out) {
  if (mods.empty()) {
    *out = Type(TypeId::kNumeric);
    return Status::OK();
  }
  if (mods.size() > 2) return Status(sqlstate::kInvalidParameterValue, "invalid NUMERIC type modifier");
  int32_t precision = mods[0];
  int32_t scale = mods.size() == 2 ? mods[1] : 0;
  if (precision < 1 || precision > kPostgresMaxNumericPrecision) {
    return Status(sqlstate::kInvalidParameterValue,
                  Cat({"NUMERIC precision ", std::to_string(precision), " must be between 1 and ",
                       std::to_string(kPostgresMaxNumericPrecision)}));
  }
  if (precision > Decimal::kMaxPrecision) {
    return Status(sqlstate::kFeatureNotSupported,
                  Cat({"NUMERIC precision ", std::to_string(precision), " is not supported (at most ",
                       std::to_string(Decimal::kMaxPrecision), ")"}));
  }
  if (scale < 0 || scale > precision) {
    return Status(sqlstate::kInvalidParameterValue,
                  Cat({"NUMERIC scale ", std::to_string(scale), " must be between 0 and precision ",
                       std::to_string(precision)}));
  }
  *out = Type::Numeric(precision, scale);
  return Status::OK();
}

// varchar(n) / bpchar(n); `short_name` is PostgreSQL's name in its messages.
Status ResolveString(TypeId id, std::string_view short_name, const std::vector<int32_t>& mods, Type* out) {
  if (mods.empty()) {
    // VARCHAR without a length is unbounded; CHAR without one is CHAR(1).
    *out = id == TypeId::kVarchar ? Type::Varchar(-1) : Type::Char(1);
    return Status::OK();
  }
  if (mods.size() > 1) return Status(sqlstate::kInvalidParameterValue, "invalid type modifier");
  int32_t n = mods[0];
  if (n < 1) {
    return Status(sqlstate::kInvalidParameterValue, Cat({"length for type ", short_name, " must be at least 1"}));
  }
  if (n > kMaxStringLength) {
    return Status(sqlstate::kInvalidParameterValue,
                  Cat({"length for type ", short_name, " cannot exceed ", std::to_string(kMaxStringLength)}));
  }
  *out = id == TypeId::kVarchar ? Type::Varchar(n) : Type::Char(n);
  return Status::OK();
}

// FLOAT(p): 1..24 bits → real, 25..53 → double precision.
Status ResolveFloat(const std::vector<int32_t>& mods, Type* out) {
  if (mods.empty()) {
    *out = Type(TypeId::kFloat64);
    return Status::OK();
  }
  if (mods.size() > 1) return Status(sqlstate::kSyntaxError, ModifierNotAllowed("float"));
  int32_t p = mods[0];
  if (p < 1) return Status(sqlstate::kInvalidParameterValue, "precision for type float must be at least 1 bit");
  if (p > 53) {
    return Status(sqlstate::kInvalidParameterValue, "precision for type float must be less than 54 bits");
  }
  *out = Type(p <= 24 ? TypeId::kFloat32 : TypeId::kFloat64);
  return Status::OK();
}

struct SimpleName {
  std::string_view name;
  TypeId id;
};

// Names of types without modifiers, with the SQL-standard aliases.
constexpr std::array<SimpleName, 27> kSimpleNames = {{
    {"bool", TypeId::kBool},
    {"boolean", TypeId::kBool},
    {"int2", TypeId::kInt16},
    {"smallint", TypeId::kInt16},
    {"int4", TypeId::kInt32},
    {"int", TypeId::kInt32},
    {"integer", TypeId::kInt32},
    {"int8", TypeId::kInt64},
    {"bigint", TypeId::kInt64},
    {"float4", TypeId::kFloat32},
    {"real", TypeId::kFloat32},
    {"float8", TypeId::kFloat64},
    {"double precision", TypeId::kFloat64},
    {"text", TypeId::kText},
    {"date", TypeId::kDate},
    {"timestamp", TypeId::kTimestamp},
    {"timestamp without time zone", TypeId::kTimestamp},
    {"timestamptz", TypeId::kTimestampTz},
    {"timestamp with time zone", TypeId::kTimestampTz},
    {"bytea", TypeId::kBytea},
    {"uuid", TypeId::kUuid}, {"json", TypeId::kJson}, {"jsonb", TypeId::kJsonb},
    {"interval", TypeId::kInterval},
    {"unknown", TypeId::kUnknown},
    {"oid", TypeId::kOid},
    {"record", TypeId::kRecord},  // a pseudo-type: casts and parameters, never a column
}};

// PostgreSQL types that exist but Paceline does not implement.
// (serial, bigserial and smallserial are no types: CREATE TABLE expands them.)
constexpr std::array<std::string_view, 10> kUnsupportedNames = {
    "time", "timetz", "money", "inet", "cidr", "xml", "bit", "varbit", "macaddr", "point",
};

}  // namespace

Type Type::Numeric(int32_t precision, int32_t scale) {
  Type t(TypeId::kNumeric);
  t.precision = precision;
  t.scale = scale;
  return t;
}

Type Type::Varchar(int32_t length) {
  Type t(TypeId::kVarchar);
  t.length = length;
  return t;
}

Type Type::Array(const Type& element) {
  Type t = element;
  t.id = TypeId::kArray;
  t.element = element.id;
  return t;
}

Type Type::Vector(TypeId element) {
  Type t = Array(Type(element));
  t.vector = true;
  return t;
}

Type Type::Record(std::vector<RecordField> fields) {
  Type t(TypeId::kRecord);
  t.fields = std::make_shared<const std::vector<RecordField>>(std::move(fields));
  return t;
}

bool Type::SameFields(const Type& o) const {
  if (fields == nullptr || o.fields == nullptr || fields == o.fields) return true;
  if (fields->size() != o.fields->size()) return false;
  for (size_t i = 0; i < fields->size(); ++i) {
    if (!((*fields)[i].type == (*o.fields)[i].type)) return false;
  }
  return true;
}

Type Type::ElementType() const {
  Type t = *this;
  t.id = element;
  t.element = TypeId::kUnknown;
  t.vector = false;
  return t;
}

namespace {

struct ArrayOidEntry {
  TypeId element;
  uint32_t oid;
};
// pg_type.typarray of each element type.
constexpr ArrayOidEntry kArrayOids[] = {
    {TypeId::kBool, 1000},    {TypeId::kInt16, 1005},   {TypeId::kInt32, 1007},       {TypeId::kInt64, 1016},
    {TypeId::kFloat32, 1021}, {TypeId::kFloat64, 1022}, {TypeId::kNumeric, 1231},     {TypeId::kChar, 1014},
    {TypeId::kVarchar, 1015}, {TypeId::kText, 1009},    {TypeId::kDate, 1182},        {TypeId::kTimestamp, 1115},
    {TypeId::kTimestampTz, 1185}, {TypeId::kBytea, 1001}, {TypeId::kInterval, 1187}, {TypeId::kOid, 1028},
    {TypeId::kRecord, 2287},
};

}  // namespace

uint32_t ArrayOid(TypeId element) {
  for (const ArrayOidEntry& e : kArrayOids) {
    if (e.element == element) return e.oid;
  }
  return 0;
}

bool ElementOfArrayOid(uint32_t oid, TypeId* element) {
  for (const ArrayOidEntry& e : kArrayOids) {
    if (e.oid == oid) {
      *element = e.element;
      return true;
    }
  }
  return false;
}

Type Type::Char(int32_t length) {
  Type t(TypeId::kChar);
  t.length = length;
  return t;
}

std::string Type::ToString() const {
  switch (id) {
    case TypeId::kNumeric:
      if (precision >= 0) {
        return Cat({"numeric(", std::to_string(precision), ",", std::to_string(scale < 0 ? 0 : scale), ")"});
      }
      return "numeric";
    case TypeId::kChar:
      // format_type() prints an unconstrained bpchar as "bpchar".
      return length >= 0 ? Cat({"character(", std::to_string(length), ")"}) : "bpchar";
    case TypeId::kVarchar:
      return length >= 0 ? Cat({"character varying(", std::to_string(length), ")"}) : "character varying";
    case TypeId::kUnknown:
      return "unknown";
    case TypeId::kBool:
      return "boolean";
    case TypeId::kInt16:
      return "smallint";
    case TypeId::kInt32:
      return "integer";
    case TypeId::kInt64:
      return "bigint";
    case TypeId::kFloat32:
      return "real";
    case TypeId::kFloat64:
      return "double precision";
    case TypeId::kText:
      return "text";
    case TypeId::kDate:
      return "date";
    case TypeId::kTimestamp:
      return "timestamp without time zone";
    case TypeId::kTimestampTz:
      return "timestamp with time zone";
    case TypeId::kBytea:
      return "bytea";
    case TypeId::kArray:
      if (vector) return element == TypeId::kOid ? "oidvector" : "int2vector";
      return ElementType().ToString() + "[]";
    case TypeId::kUuid: case TypeId::kJson: case TypeId::kJsonb: case TypeId::kInterval: case TypeId::kVoid:
    case TypeId::kOid: case TypeId::kRecord:
      return std::string(TypeIdName(id));
  }
  return "unknown";
}

uint32_t Type::Oid() const {
  switch (id) {
    case TypeId::kUnknown: return 705;
    case TypeId::kBool: return 16;
    case TypeId::kInt16: return 21;
    case TypeId::kInt32: return 23;
    case TypeId::kInt64: return 20;
    case TypeId::kFloat32: return 700;
    case TypeId::kFloat64: return 701;
    case TypeId::kNumeric: return 1700;
    case TypeId::kChar: return 1042;
    case TypeId::kVarchar: return 1043;
    case TypeId::kText: return 25;
    case TypeId::kDate: return 1082;
    case TypeId::kTimestamp: return 1114;
    case TypeId::kTimestampTz: return 1184;
    case TypeId::kBytea: return 17;
    case TypeId::kArray: return vector ? (element == TypeId::kOid ? 30 : 22) : ArrayOid(element);
    case TypeId::kUuid: return 2950;
    case TypeId::kJson: return 114;
    case TypeId::kJsonb: return 3802;
    case TypeId::kInterval: return 1186;
    case TypeId::kVoid: return 2278;
    case TypeId::kOid: return 26;
    case TypeId::kRecord: return 2249;
  }
  return 705;
}

int16_t Type::WireSize() const {
  switch (id) {
    case TypeId::kBool: return 1;
    case TypeId::kInt16: return 2;
    case TypeId::kInt32: return 4;
    case TypeId::kInt64: return 8;
    case TypeId::kFloat32: return 4;
    case TypeId::kFloat64: return 8;
    case TypeId::kDate: return 4;
    case TypeId::kTimestamp: return 8;
    case TypeId::kTimestampTz: return 8;
    case TypeId::kUuid: return 16;
    case TypeId::kInterval: return 16;
    case TypeId::kVoid: return 4;
    case TypeId::kOid: return 4;
    case TypeId::kUnknown: return -2;  // pg_type.typlen of "unknown" (a C string)
    case TypeId::kNumeric:
    case TypeId::kChar:
    case TypeId::kVarchar:
    case TypeId::kText:
    case TypeId::kBytea: case TypeId::kArray: case TypeId::kJson: case TypeId::kJsonb: case TypeId::kRecord: return -1;
  }
  return -1;
}

int32_t Type::WireModifier() const {
  switch (id) {
    case TypeId::kChar:
    case TypeId::kVarchar:
      return length >= 0 ? length + 4 : -1;
    case TypeId::kNumeric:
      if (precision < 0) return -1;
      return ((precision << 16) | (scale < 0 ? 0 : scale)) + 4;
    case TypeId::kArray:
      return ElementType().WireModifier();  // as atttypmod of varchar(10)[]
    default:
      return -1;
  }
}

std::string_view TypeIdName(TypeId id) {
  switch (id) {
    case TypeId::kUnknown: return "unknown";
    case TypeId::kBool: return "bool";
    case TypeId::kInt16: return "int2";
    case TypeId::kInt32: return "int4";
    case TypeId::kInt64: return "int8";
    case TypeId::kFloat32: return "float4";
    case TypeId::kFloat64: return "float8";
    case TypeId::kNumeric: return "numeric";
    case TypeId::kChar: return "bpchar";
    case TypeId::kVarchar: return "varchar";
    case TypeId::kText: return "text";
    case TypeId::kDate: return "date";
    case TypeId::kTimestamp: return "timestamp";
    case TypeId::kTimestampTz: return "timestamptz";
    case TypeId::kBytea: return "bytea";
    case TypeId::kArray: return "anyarray";
    case TypeId::kUuid: return "uuid";
    case TypeId::kJson: return "json";
    case TypeId::kJsonb: return "jsonb";
    case TypeId::kInterval: return "interval";
    case TypeId::kVoid: return "void";
    case TypeId::kOid: return "oid";
    case TypeId::kRecord: return "record";
  }
  return "unknown";
}

Status ResolveBuiltinType(std::string_view name, const std::vector<int32_t>& modifiers, Type* out) {
  std::string lower(name);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::string_view n = lower;
  if (n.starts_with("pg_catalog.")) n.remove_prefix(11);

  if (n == "numeric" || n == "decimal" || n == "dec") return ResolveNumeric(modifiers, out);
  if (n == "varchar" || n == "character varying") return ResolveString(TypeId::kVarchar, "varchar", modifiers, out);
  if (n == "bpchar" || n == "char" || n == "character") return ResolveString(TypeId::kChar, "char", modifiers, out);
  if (n == "float") return ResolveFloat(modifiers, out);
  if ((n == "int2vector" || n == "oidvector") && modifiers.empty()) {
    *out = Type::Vector(n == "oidvector" ? TypeId::kOid : TypeId::kInt16);
    return Status::OK();
  }
  for (const SimpleName& s : kSimpleNames) {
    if (s.name != n) continue;
    if (!modifiers.empty()) {
      if (s.id == TypeId::kInterval) return NotSupported("interval fields or precision");
      if (s.id == TypeId::kTimestamp || s.id == TypeId::kTimestampTz) {
        return NotSupported(Cat({"a precision for type ", Type(s.id).ToString()}));
      }
      return Status(sqlstate::kSyntaxError, ModifierNotAllowed(name));
    }
    *out = Type(s.id);
    return Status::OK();
  }
  for (std::string_view u : kUnsupportedNames) {
    if (u == n) return NotSupported(Cat({"type ", n}));
  }
  return Status(sqlstate::kUndefinedObject, Cat({"type \"", name, "\" does not exist"}));
}

}  // namespace paceline
