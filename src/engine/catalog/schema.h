// Schema descriptions: plain data describing columns, domains, keys, foreign
// keys and indexes, as recorded by CREATE TABLE / CREATE DOMAIN / CREATE
// INDEX. They carry no storage; storage::Table and storage::Index hold one.
//
// Foreign keys and domains are recorded so that the scheduler can derive a
// column's canonical domain (stock.s_w_id → warehouse.w_id → "w_id"); Paceline
// does not enforce foreign keys (see README). Thread-safety: immutable once
// the owning object is published by the Catalog.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/types.h"
#include "common/value.h"

namespace paceline::catalog {

// A column's DEFAULT, as PostgreSQL keeps it in pg_attrdef: the expression's
// SQL text (what pg_get_expr shows: "nextval('t_id_seq'::regclass)",
// "now()", "0"), bound again wherever a row is inserted, so a volatile
// default (nextval, gen_random_uuid) is evaluated for each row. `constant`
// holds the value when the expression is a constant (inserted without
// binding); `sequences` the sequences it names, which cannot be dropped while
// it names them. An empty expression: no default (NULL).
struct ColumnDefault {
  std::string expression;
  std::optional<Value> constant;
  std::vector<std::string> sequences;

  bool present() const { return !expression.empty(); }
};

struct ColumnSchema {
  std::string name;
  Type type;
  bool not_null = false;
  ColumnDefault default_value;
  std::string domain;  // the CREATE DOMAIN name the column was declared with, "" otherwise
  bool domain_not_null = false;  // the domain itself is NOT NULL (its error is reported first)
};

struct ForeignKey {
  std::string name;
  std::vector<int> columns;               // in the referencing table
  std::string ref_table;
  std::vector<std::string> ref_columns;   // in the referenced table
};

struct DomainSchema {
  std::string name;
  Type type;
  bool not_null = false;
};

// A view: a named query, kept as the text of its CREATE VIEW statement and
// bound again wherever it is named (so it always reads the current tables).
struct ViewSchema {
  std::string name;
  std::string definition;                 // the whole CREATE [OR REPLACE] VIEW statement
  std::vector<std::string> columns;       // its column names, as created
  std::vector<Type> column_types;         // and their types
  std::vector<std::string> depends_on;    // the tables and views its query names
};

enum class IndexMethod { kOrdered, kHash };

struct IndexSchema {
  std::string name;
  std::vector<int> columns;  // positions in the table, in key order
  bool unique = false;
  bool primary = false;
  // kOrdered: point and range access (a unique ordered index also keeps a
  // hash table for point lookups); kHash: point access only.
  IndexMethod method = IndexMethod::kOrdered;
};

struct TableSchema {
  std::string name;
  std::vector<ColumnSchema> columns;
  std::vector<ForeignKey> foreign_keys;

  // Position of the column named `name`, or -1.
  int FindColumn(std::string_view name) const {
    for (size_t i = 0; i < columns.size(); ++i) {
      if (columns[i].name == name) return static_cast<int>(i);
    }
    return -1;
  }
};

}  // namespace paceline::catalog
