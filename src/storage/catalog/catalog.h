// Catalog: the named objects of a database: tables (with their storage),
// views, domains, sequences, and the index names that belong to each
// table. Tables, views, indexes and sequences share one namespace of
// relation names.
//
// Every change bumps version(), which the statement cache compares to decide
// whether a prepared plan is still valid. Tables and sequences are held by
// shared_ptr so a plan that references one keeps it alive even after a
// DROP.
//
// Thread-safety: lookups may run concurrently with each other; a change
// (Create*/Drop*) needs exclusive use of the catalog, which the Database
// guarantees by running DDL under its exclusive execution lock. A
// sequence's state is the one thing that changes under concurrent lookups:
// its own mutex guards it (sequence.h), and it never bumps the version.
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common/status.h"
#include "storage/catalog/schema.h"
#include "storage/catalog/sequence.h"
#include "storage/table.h"

namespace paceline::catalog {

class Catalog {
 public:
  Catalog() = default;
  Catalog(const Catalog&) = delete;
  Catalog& operator=(const Catalog&) = delete;

  std::shared_ptr<storage::Table> FindTable(std::string_view name) const;
  const DomainSchema* FindDomain(std::string_view name) const;
  const ViewSchema* FindView(std::string_view name) const;
  // The views whose query names the table or view `name`.
  std::vector<std::string> DependentViews(std::string_view name) const;
  // The table that owns the index named `name`, or nullptr.
  std::shared_ptr<storage::Table> FindIndexTable(std::string_view name) const;
  std::vector<std::string> TableNames() const;
  std::shared_ptr<Sequence> FindSequence(std::string_view name) const;
  std::vector<std::string> SequenceNames() const;
  // The sequence `name`, or PostgreSQL's errors: 42809 `"name" is not a
  // sequence` when another relation has the name, else 42P01 `<missing>
  // "name" does not exist` (missing: "relation", or "sequence" for DROP).
  Status SequenceNamed(std::string_view name, std::shared_ptr<Sequence>* out,
                       std::string_view missing = "relation") const;

  // Creates a table and its indexes (primary key first). 42P07 when a table
  // or index of that name exists; 23505 cannot happen on an empty table.
  Status CreateTable(TableSchema schema, std::vector<IndexSchema> indexes,
                     std::shared_ptr<storage::Table>* out);
  // 42P01 when absent. Foreign keys that name the table from other tables
  // are dropped with it only when `cascade`; otherwise 2BP01. The sequences
  // the table owns (SequenceSchema::owned_by_table) are dropped with it;
  // another table's DEFAULT that calls one is 2BP01 unless `cascade`.
  Status DropTable(std::string_view name, bool cascade);
  Status CreateDomain(DomainSchema domain);
  // 42P07 when the name is taken by a table, index, or (unless `replace`)
  // a view; replacing keeps the views that depend on it.
  Status CreateView(ViewSchema view, bool replace);
  // 42P01 when absent. Views that name it go too when `cascade`; otherwise
  // 2BP01.
  Status DropView(std::string_view name, bool cascade);
  // 2BP01 when a column uses the domain and !cascade.
  Status DropDomain(std::string_view name, bool cascade);
  // 42P07 when the name is taken; 23505 when a unique index meets duplicates.
  // `predicate`: a partial index's condition (index.predicate's text, bound).
  Status CreateIndex(storage::Table* table, IndexSchema index,
                     std::shared_ptr<const storage::IndexPredicate> predicate = nullptr);
  Status DropIndex(std::string_view name);
  // 42P07 when the name is taken.
  Status CreateSequence(SequenceSchema schema, std::shared_ptr<Sequence>* out);
  // 42P01 when absent. Views that call it go too when `cascade`, and column
  // DEFAULTs that call it are dropped; otherwise 2BP01.
  Status DropSequence(std::string_view name, bool cascade = false);
  // The sequences that table `table` owns (SequenceSchema::owned_by_table).
  std::vector<std::string> OwnedSequences(std::string_view table) const;
  // The foreign keys that reference `table` (its own self-references too),
  // with their tables, in table name order (valid while the catalog is
  // not changed).
  std::vector<std::pair<std::shared_ptr<storage::Table>, const ForeignKey*>> ForeignKeysReferencing(
      std::string_view table) const;
  // 2BP01 "cannot drop <dropping> because other objects depend on it" when
  // a column DEFAULT of a table not in `dropped` calls sequence `sequence`
  // ("... because column c of table t requires it" for an identity column).
  Status CheckDefaultsCalling(std::string_view sequence, const std::vector<std::string>& dropped,
                              const std::string& dropping) const;
  // The 2BP01 that DropSequence(name, false) would give, changing nothing.
  Status CheckSequenceDrop(std::string_view name);
  // ALTER SEQUENCE: a new description (Sequence::Reset). 42P01 when absent.
  Status AlterSequence(std::string_view name, SequenceSchema schema, bool restart, int64_t restart_value);
  // Records a foreign key on an existing table.
  Status AddForeignKey(storage::Table* table, ForeignKey fk);
  // Replaces the definition of column `column` of `table` by `changed`
  // (ALTER COLUMN: its NOT NULL and DEFAULT; name and type stay the same,
  // so the table's rows keep their layout). Cached plans become stale.
  void AlterColumn(storage::Table* table, int column, ColumnSchema changed);
  // ALTER TABLE ADD/DROP COLUMN: storage::Table::ChangeColumns, then cached
  // plans become stale.
  Status ChangeColumns(storage::Table* table, TableSchema schema, const std::vector<int>& position,
                       const storage::Table::RowValues& values_of);
  // ALTER TABLE .. RENAME TO: the table, its indexes' owner, the foreign
  // keys that reference it and the sequences it owns follow the new name
  // (42P07 when a relation has it). Views are the caller's (they name it
  // in their text).
  Status RenameTable(std::string_view name, const std::string& new_name);
  // ALTER TABLE .. RENAME COLUMN: the column of `table` at `column`, the
  // foreign keys that reference it and the sequence it owns take
  // `new_name`. Checks and views are the caller's (they name it in text).
  void RenameColumn(storage::Table* table, int column, const std::string& new_name);
  // ALTER TABLE .. RENAME CONSTRAINT of a key: its index takes `new_name`
  // (42P07 when a relation has it).
  Status RenameIndex(std::string_view name, const std::string& new_name);
  // After a change made through Table::mutable_schema() (a constraint
  // added or dropped): cached plans become stale.
  void SchemaChanged() { Bump(); }
  // A fresh index name derived as PostgreSQL does ("t_pkey", "t_a_b_key",
  // "t_a_idx"), made unique with a number when taken.
  std::string MakeIndexName(const std::string& table, const std::vector<std::string>& columns,
                            const std::string& suffix) const;

  uint64_t version() const { return version_.load(std::memory_order_acquire); }

  // Every table, view, sequence and domain, for the system catalogs (valid
  // while the catalog is not changed).
  std::vector<const ViewSchema*> Views() const;
  std::vector<const DomainSchema*> Domains() const;
  std::vector<std::shared_ptr<Sequence>> Sequences() const;
  std::vector<std::shared_ptr<storage::Table>> Tables() const;

  // PostgreSQL's first OID for user objects; below it are the built-in ones
  // (types, namespaces) the system catalogs show.
  static constexpr uint32_t kFirstUserOid = 16384;

 private:
  // After every change: OIDs for what has none yet, then a new version.
  void Bump();
  // Gives every object without an OID (0) the next one, in a fixed order
  // (sequences, then tables by name; per table: the table, its indexes,
  // constraints and column defaults; views; domains), so replaying the same
  // DDL gives the same OIDs.
  void AssignOids();
  // Whether a table, index, view or sequence has this name.
  bool RelationNameTaken(std::string_view name) const;
  static Status RelationExists(std::string_view name);

  std::map<std::string, std::shared_ptr<storage::Table>, std::less<>> tables_;
  std::map<std::string, DomainSchema, std::less<>> domains_;
  std::map<std::string, ViewSchema, std::less<>> views_;
  std::map<std::string, std::shared_ptr<Sequence>, std::less<>> sequences_;
  // The views that name `name` (directly); 2BP01 naming the first when
  // there is one and !cascade, else drops them all (recursively).
  Status DropDependentViews(std::string_view name, const char* kind, bool cascade);
  // DropDependentDefaults and DropDependentViews of sequence `name`.
  Status DropSequenceDependents(std::string_view name, bool cascade);
  // The column DEFAULTs (of tables other than `except`) that name sequence
  // `sequence`: 2BP01 "cannot drop <dropping> ..." naming the first when
  // !cascade; else the columns lose their DEFAULT, as in PostgreSQL (an
  // identity column's sequence is 2BP01 even then).
  Status DropDependentDefaults(std::string_view sequence, std::string_view except, const std::string& dropping,
                               bool cascade);
  std::map<std::string, std::string, std::less<>> index_owner_;  // index name → table name
  TableId next_table_id_{1};
  uint32_t next_oid_ = kFirstUserOid;
  std::atomic<uint64_t> version_{1};
};

}  // namespace paceline::catalog
