// Evaluation: the size functions (see evaluator_internal.h). Paceline keeps
// rows in memory, not in pages, so a size is the bytes it holds:
//   pg_relation_size(rel[, fork]) / pg_table_size(rel)
//       a table: its rows (storage::Table::DataBytes); an index: its keys
//       and row pointers (storage::Table::IndexBytes); a view, sequence or
//       system relation: 0. The fsm, vm and init forks are 0 (there are
//       none); another fork name is 22023.
//   pg_indexes_size(table)        its indexes'
//   pg_total_relation_size(rel)   both
//   pg_database_size(name | oid)  every table's total
//   pg_tablespace_size(name | oid) pg_default's: the database's; pg_global's: 0
//   pg_size_pretty(bytes)         PostgreSQL's rounding: bytes below
//       10240, then kB, MB, GB, TB, PB, each while below 20480 halves of
//       the unit, rounded half away from zero
//   pg_tablespace_location(oid)   '' (the default tablespaces)
// An OID that names no relation gives NULL, as PostgreSQL's.
#include <cstdlib>

#include "common/database_name.h"
#include "sql/evaluator_internal.h"
#include "sql/system_catalog/catalog_objects.h"
#include "sql/system_catalog/system_info.h"
#include "sql/system_catalog/system_relation.h"
#include "storage/table.h"

namespace paceline::sql::eval {

namespace {

// The bytes of `table`'s rows and of its indexes.
int64_t IndexesBytes(const storage::Table& table) {
  int64_t bytes = 0;
  for (const auto& index : table.indexes()) bytes += static_cast<int64_t>(table.IndexBytes(*index));
  return bytes;
}

}  // namespace

Status SizePretty(const Value& bytes, Value* out) {
  Value n;
  PL_RETURN_IF_ERROR(CastValue(bytes, Type(TypeId::kInt64), true, &n));
  int64_t size = n.int_value();
  constexpr int64_t kLimit = 10 * 1024;
  // |x| < limit, without std::llabs (undefined for INT64_MIN).
  auto below = [](int64_t x, int64_t limit) { return x < limit && x > -limit; };
  if (below(size, kLimit)) {
    *out = Value::Text(std::to_string(size) + " bytes");
    return Status::OK();
  }
  static constexpr const char* kUnits[] = {"kB", "MB", "GB", "TB", "PB"};
  size /= 512;  // in halves of a kB, to round by
  size_t unit = 0;
  while (unit + 1 < std::size(kUnits) && !below(size, 2 * kLimit)) {
    size /= 1024;
    ++unit;
  }
  const int64_t rounded = (size + (size < 0 ? -1 : 1)) / 2;
  *out = Value::Text(std::to_string(rounded) + " " + kUnits[unit]);
  return Status::OK();
}

Status EvaluateSizeFunction(const BoundExpr& e, const std::vector<Value>& args, SystemInfo& info, Value* out) {
  const CatalogObjects objects(info.catalog());
  auto database_bytes = [&] {
    int64_t bytes = 0;
    for (const auto& table : info.catalog().Tables()) {
      bytes += static_cast<int64_t>(table->DataBytes()) + IndexesBytes(*table);
    }
    return Value::Int64(bytes);
  };
  const Value& arg = args[0];
  const bool by_oid = Type(arg.type()).IsInteger();
  if (e.function == ScalarFunction::kDatabaseSize) {
    // The one database, by any OID or by its name or the maintenance
    // databases' (which name it too: connections to them reach it).
    if (!by_oid && !NamesServedDatabase(info.DatabaseName(), arg.string_value())) {
      return Status(sqlstate::kInvalidCatalogName, "database \"" + arg.string_value() + "\" does not exist");
    }
    // By OID: pg_database's one row; another OID is NULL, as PostgreSQL's.
    *out = by_oid && arg.int_value() != kDatabaseOid ? Value::Null(TypeId::kInt64) : database_bytes();
    return Status::OK();
  }
  if (e.function == ScalarFunction::kTablespaceSize) {
    // pg_default (1663) holds the tables; pg_global (1664) the shared
    // catalogs, which Paceline computes rather than stores.
    const bool is_default = by_oid ? arg.int_value() == 1663 : arg.string_value() == "pg_default";
    const bool is_global = by_oid ? arg.int_value() == 1664 : arg.string_value() == "pg_global";
    if (!is_default && !is_global && !by_oid) {
      return Status(sqlstate::kUndefinedObject, "tablespace \"" + arg.string_value() + "\" does not exist");
    }
    *out = is_default ? database_bytes() : is_global ? Value::Int64(0) : Value::Null(TypeId::kInt64);  // an unknown OID: NULL
    return Status::OK();
  }
  const std::optional<RelationRef> relation = objects.RelationByOid(static_cast<uint32_t>(args[0].int_value()));
  if (!relation) {
    *out = Value::Null(TypeId::kInt64);
    return Status::OK();
  }
  int64_t data = 0, indexes = 0;
  if (relation->index != nullptr) {
    data = static_cast<int64_t>(relation->table->IndexBytes(*relation->index));
  } else if (relation->table != nullptr) {
    data = static_cast<int64_t>(relation->table->DataBytes());
    indexes = IndexesBytes(*relation->table);
  }
  switch (e.function) {
    case ScalarFunction::kRelationSize: {
      // The other forks exist in PostgreSQL's files only: 0 here.
      const std::string fork = args.size() > 1 ? args[1].string_value() : "main";
      if (fork != "main" && fork != "fsm" && fork != "vm" && fork != "init") {
        return Status(sqlstate::kInvalidParameterValue, "invalid fork name");  // valid: main, fsm, vm, init
      }
      *out = Value::Int64(fork == "main" ? data : 0);
      return Status::OK();
    }
    case ScalarFunction::kIndexesSize: *out = Value::Int64(indexes); return Status::OK();
    default: *out = Value::Int64(data + indexes); return Status::OK();
  }
}

}  // namespace paceline::sql::eval
