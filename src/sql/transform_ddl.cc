// Transformer: CREATE TABLE/DOMAIN/INDEX, DROP, TRUNCATE, ALTER TABLE,
// column definitions, constraints and type names (see transformer.h).
#include "sql/transformer.h"

#include <utility>

namespace paceline::sql::transform {

Status Transformer::TransformCreateTable(const PgQuery__CreateStmt& s, std::unique_ptr<CreateTableStmt>* out) {
  if (s.relation == nullptr) return InternalError("CREATE TABLE without a name");
  int location = s.relation->location;
  if (s.n_inh_relations > 0) return Unsupported("INHERITS", location);
  if (s.partspec != nullptr) return Unsupported("PARTITION BY", location);
  if (s.partbound != nullptr) return Unsupported("PARTITION OF", location);
  if (s.of_typename != nullptr) return Unsupported("CREATE TABLE OF type", location);
  // WITH (...) reloptions, TEMP, UNLOGGED, ON COMMIT and TABLESPACE are ignored.
  auto create = std::make_unique<CreateTableStmt>();
  create->name = Str(s.relation->relname);
  create->if_not_exists = s.if_not_exists;
  for (size_t i = 0; i < s.n_table_elts; ++i) {
    const Node* elt = s.table_elts[i];
    if (Is(elt, PG_QUERY__NODE__NODE_COLUMN_DEF)) {
      ColumnDef column;
      PL_RETURN_IF_ERROR(TransformColumnDef(*elt->column_def, &column));
      create->columns.push_back(std::move(column));
    } else if (Is(elt, PG_QUERY__NODE__NODE_CONSTRAINT)) {
      ConstraintDef constraint;
      bool keep = true;
      PL_RETURN_IF_ERROR(TransformConstraint(*elt->constraint, &constraint, &keep));
      if (keep) create->constraints.push_back(std::move(constraint));
    } else if (Is(elt, PG_QUERY__NODE__NODE_TABLE_LIKE_CLAUSE)) {
      return Unsupported("CREATE TABLE ... (LIKE ...)", location);
    } else {
      return Unsupported("CREATE TABLE element " + NodeFieldName(elt), location);
    }
  }
  *out = std::move(create);
  return Status::OK();
}

Status Transformer::TransformColumnDef(const PgQuery__ColumnDef& c, ColumnDef* out) {
  if (c.coll_clause != nullptr) return Unsupported("COLLATE", c.coll_clause->location);
  if (c.type_name == nullptr) return Unsupported("column without a type", c.location);
  out->name = Str(c.colname);
  out->location = c.location;
  PL_RETURN_IF_ERROR(TransformTypeName(*c.type_name, &out->type));
  for (size_t i = 0; i < c.n_constraints; ++i) {
    const Node* n = c.constraints[i];
    if (!Is(n, PG_QUERY__NODE__NODE_CONSTRAINT)) {
      return Unsupported("column option " + NodeFieldName(n), c.location);
    }
    switch (n->constraint->contype) {
      case PG_QUERY__CONSTR_TYPE__CONSTR_ATTR_DEFERRABLE:
      case PG_QUERY__CONSTR_TYPE__CONSTR_ATTR_NOT_DEFERRABLE:
      case PG_QUERY__CONSTR_TYPE__CONSTR_ATTR_DEFERRED:
      case PG_QUERY__CONSTR_TYPE__CONSTR_ATTR_IMMEDIATE:
        PL_RETURN_IF_ERROR(ApplyConstraintAttribute(*n->constraint, &out->constraints));
        continue;
      default: break;
    }
    ConstraintDef constraint;
    bool keep = true;
    PL_RETURN_IF_ERROR(TransformConstraint(*n->constraint, &constraint, &keep));
    if (keep) out->constraints.push_back(std::move(constraint));
  }
  return Status::OK();
}

namespace {

// A foreign key's action letter ('a' NO ACTION, 'r' RESTRICT, 'c' CASCADE,
// 'n' SET NULL, 'd' SET DEFAULT; empty: NO ACTION).
char ForeignKeyAction(const char* action) {
  return action == nullptr || action[0] == '\0' ? 'a' : action[0];
}

}  // namespace

Status Transformer::ApplyConstraintAttribute(const PgQuery__Constraint& c, std::vector<ConstraintDef>* constraints) {
  const char* clause = "";
  switch (c.contype) {
    case PG_QUERY__CONSTR_TYPE__CONSTR_ATTR_DEFERRABLE: clause = "DEFERRABLE"; break;
    case PG_QUERY__CONSTR_TYPE__CONSTR_ATTR_NOT_DEFERRABLE: clause = "NOT DEFERRABLE"; break;
    case PG_QUERY__CONSTR_TYPE__CONSTR_ATTR_DEFERRED: clause = "INITIALLY DEFERRED"; break;
    case PG_QUERY__CONSTR_TYPE__CONSTR_ATTR_IMMEDIATE: clause = "INITIALLY IMMEDIATE"; break;
    default: return InternalError("not a constraint attribute");
  }
  // As PostgreSQL, it belongs to the constraint just before it, which must
  // be one that can be deferred.
  ConstraintDef* last = constraints->empty() ? nullptr : &constraints->back();
  const bool deferrable_kind = last != nullptr && (last->kind == ConstraintKind::kForeignKey ||
                                                   last->kind == ConstraintKind::kPrimaryKey ||
                                                   last->kind == ConstraintKind::kUnique);
  if (!deferrable_kind) return SyntaxError(std::string("misplaced ") + clause + " clause", c.location);
  switch (c.contype) {
    case PG_QUERY__CONSTR_TYPE__CONSTR_ATTR_DEFERRABLE: last->deferrable = true; break;
    case PG_QUERY__CONSTR_TYPE__CONSTR_ATTR_NOT_DEFERRABLE:
      if (last->initially_deferred) {
        return SyntaxError("constraint declared INITIALLY DEFERRED must be DEFERRABLE", c.location);
      }
      last->not_deferrable = true;
      break;
    case PG_QUERY__CONSTR_TYPE__CONSTR_ATTR_DEFERRED:
      if (last->not_deferrable) {
        return SyntaxError("constraint declared INITIALLY DEFERRED must be DEFERRABLE", c.location);
      }
      last->deferrable = true;  // INITIALLY DEFERRED implies DEFERRABLE
      last->initially_deferred = true;
      break;
    default: break;
  }
  if (last->deferrable && last->kind != ConstraintKind::kForeignKey) {
    return Unsupported("DEFERRABLE unique and primary key constraints", c.location);
  }
  return Status::OK();
}

Status Transformer::TransformConstraint(const PgQuery__Constraint& c, ConstraintDef* out, bool* keep) {
  *keep = true;
  out->name = Str(c.conname);
  out->location = c.location;
  out->deferrable = c.deferrable;
  out->initially_deferred = c.initdeferred;
  out->not_valid = c.skip_validation;
  if (c.deferrable && c.contype != PG_QUERY__CONSTR_TYPE__CONSTR_FOREIGN) {
    return Unsupported("DEFERRABLE unique and primary key constraints", c.location);
  }
  switch (c.contype) {
    case PG_QUERY__CONSTR_TYPE__CONSTR_NULL:
      out->kind = ConstraintKind::kNull;
      return Status::OK();
    case PG_QUERY__CONSTR_TYPE__CONSTR_NOTNULL:
      out->kind = ConstraintKind::kNotNull;
      return Status::OK();
    case PG_QUERY__CONSTR_TYPE__CONSTR_DEFAULT:
      out->kind = ConstraintKind::kDefault;
      if (c.raw_expr != nullptr) out->default_text = DeparseExpression(*c.raw_expr);
      return TransformExpr(c.raw_expr, &out->default_value);
    case PG_QUERY__CONSTR_TYPE__CONSTR_CHECK:
      out->kind = ConstraintKind::kCheck;
      if (c.raw_expr == nullptr) return InternalError("CHECK without a condition");
      out->check_text = DeparseExpression(*c.raw_expr);
      return TransformExpr(c.raw_expr, &out->check);
    case PG_QUERY__CONSTR_TYPE__CONSTR_PRIMARY:
    case PG_QUERY__CONSTR_TYPE__CONSTR_UNIQUE:
      out->kind = c.contype == PG_QUERY__CONSTR_TYPE__CONSTR_PRIMARY ? ConstraintKind::kPrimaryKey
                                                                     : ConstraintKind::kUnique;
      if (c.n_including > 0) return Unsupported("INCLUDE", c.location);
      if (c.nulls_not_distinct) return Unsupported("NULLS NOT DISTINCT", c.location);
      if (c.indexname != nullptr && c.indexname[0] != '\0') return Unsupported("USING INDEX", c.location);
      return TransformNameList(c.keys, c.n_keys, c.location, &out->columns);
    case PG_QUERY__CONSTR_TYPE__CONSTR_FOREIGN: {
      out->kind = ConstraintKind::kForeignKey;
      out->on_delete = ForeignKeyAction(c.fk_del_action);
      out->on_update = ForeignKeyAction(c.fk_upd_action);
      PL_RETURN_IF_ERROR(TransformNameList(c.fk_del_set_cols, c.n_fk_del_set_cols, c.location,
                                           &out->delete_set_columns));
      if (c.fk_matchtype != nullptr && c.fk_matchtype[0] == 'f') return Unsupported("MATCH FULL", c.location);
      if (c.pktable == nullptr) return InternalError("FOREIGN KEY without a referenced table");
      out->ref_table = Str(c.pktable->relname);
      PL_RETURN_IF_ERROR(TransformNameList(c.fk_attrs, c.n_fk_attrs, c.location, &out->columns));
      return TransformNameList(c.pk_attrs, c.n_pk_attrs, c.location, &out->ref_columns);
    }
    case PG_QUERY__CONSTR_TYPE__CONSTR_ATTR_NOT_DEFERRABLE:
    case PG_QUERY__CONSTR_TYPE__CONSTR_ATTR_IMMEDIATE:
    case PG_QUERY__CONSTR_TYPE__CONSTR_ATTR_DEFERRABLE:
    case PG_QUERY__CONSTR_TYPE__CONSTR_ATTR_DEFERRED:
      *keep = false;  // a column constraint's attribute: see ApplyConstraintAttribute
      return Status::OK();
    case PG_QUERY__CONSTR_TYPE__CONSTR_IDENTITY:
      out->kind = ConstraintKind::kIdentity;
      out->identity = c.generated_when != nullptr && c.generated_when[0] == 'a' ? 'a' : 'd';
      return TransformSequenceOptions(c.options, c.n_options, &out->sequence_options);
    case PG_QUERY__CONSTR_TYPE__CONSTR_GENERATED: return Unsupported("generated columns", c.location);
    case PG_QUERY__CONSTR_TYPE__CONSTR_EXCLUSION: return Unsupported("EXCLUDE constraints", c.location);
    default: return Unsupported("constraint type " + std::to_string(c.contype), c.location);
  }
}

Status Transformer::TransformNameList(Node* const* items, size_t n, int location,
                                     std::vector<std::string>* out) {
  for (size_t i = 0; i < n; ++i) {
    const char* name = StringOf(items[i]);
    if (name == nullptr) return Unsupported("name list item " + NodeFieldName(items[i]), location);
    out->push_back(name);
  }
  return Status::OK();
}

Status Transformer::TransformCreateDomain(const PgQuery__CreateDomainStmt& s,
                                         std::unique_ptr<CreateDomainStmt>* out) {
  if (s.type_name == nullptr) return InternalError("CREATE DOMAIN without a type");
  if (s.coll_clause != nullptr) return Unsupported("COLLATE", s.coll_clause->location);
  auto domain = std::make_unique<CreateDomainStmt>();
  domain->name = LastName(s.domainname, s.n_domainname);
  PL_RETURN_IF_ERROR(TransformTypeName(*s.type_name, &domain->type));
  for (size_t i = 0; i < s.n_constraints; ++i) {
    const Node* n = s.constraints[i];
    if (!Is(n, PG_QUERY__NODE__NODE_CONSTRAINT)) return Unsupported("domain option " + NodeFieldName(n), -1);
    const PgQuery__Constraint& c = *n->constraint;
    switch (c.contype) {
      case PG_QUERY__CONSTR_TYPE__CONSTR_NOTNULL: domain->not_null = true; break;
      case PG_QUERY__CONSTR_TYPE__CONSTR_NULL: break;
      case PG_QUERY__CONSTR_TYPE__CONSTR_CHECK: domain->has_check = true; break;
      case PG_QUERY__CONSTR_TYPE__CONSTR_DEFAULT: return Unsupported("DEFAULT on a domain", c.location);
      default: return Unsupported("domain constraint", c.location);
    }
  }
  *out = std::move(domain);
  return Status::OK();
}

Status Transformer::TransformCreateIndex(const PgQuery__IndexStmt& s, std::unique_ptr<CreateIndexStmt>* out) {
  if (s.relation == nullptr) return InternalError("CREATE INDEX without a table");
  int location = s.relation->location;
  if (s.n_index_including_params > 0) return Unsupported("INCLUDE", location);
  if (s.nulls_not_distinct) return Unsupported("NULLS NOT DISTINCT", location);
  // CONCURRENTLY, WITH (...), TABLESPACE, sort order and operator classes are ignored.
  auto index = std::make_unique<CreateIndexStmt>();
  index->name = Str(s.idxname);
  PL_RETURN_IF_ERROR(TransformRangeVar(*s.relation, &index->table));
  index->unique = s.unique;
  index->if_not_exists = s.if_not_exists;
  index->method = s.access_method != nullptr && s.access_method[0] != '\0' ? Lower(s.access_method) : "btree";
  if (s.where_clause != nullptr) {
    PL_RETURN_IF_ERROR(TransformExpr(s.where_clause, &index->where));
    index->where_text = DeparseExpression(*s.where_clause);
    if (index->where_text.empty()) return Unsupported("this index predicate", location);
  }
  for (size_t i = 0; i < s.n_index_params; ++i) {
    const Node* n = s.index_params[i];
    if (!Is(n, PG_QUERY__NODE__NODE_INDEX_ELEM)) {
      return Unsupported("index element " + NodeFieldName(n), location);
    }
    const PgQuery__IndexElem& elem = *n->index_elem;
    if (elem.expr != nullptr || elem.name == nullptr || elem.name[0] == '\0') {
      index->has_expressions = true;
    } else {
      index->columns.push_back(elem.name);
    }
  }
  *out = std::move(index);
  return Status::OK();
}

Status Transformer::TransformCreateView(const PgQuery__ViewStmt& s, std::unique_ptr<CreateViewStmt>* out) {
  if (s.view == nullptr || s.query == nullptr) return InternalError("CREATE VIEW without a name or query");
  if (s.view->relpersistence == std::string("t")) return Unsupported("temporary views", s.view->location);
  if (s.n_options > 0) return Unsupported("CREATE VIEW .. WITH (options)", s.view->location);
  if (s.with_check_option == PG_QUERY__VIEW_CHECK_OPTION__LOCAL_CHECK_OPTION ||
      s.with_check_option == PG_QUERY__VIEW_CHECK_OPTION__CASCADED_CHECK_OPTION) {
    return Unsupported("WITH CHECK OPTION", s.view->location);
  }
  if (!Is(s.query, PG_QUERY__NODE__NODE_SELECT_STMT)) return Unsupported("a view of " + NodeFieldName(s.query), -1);
  auto view = std::make_unique<CreateViewStmt>();
  TableRef ref;
  PL_RETURN_IF_ERROR(TransformRangeVar(*s.view, &ref));
  view->name = ref.name;
  view->location = s.view->location;
  view->replace = s.replace;
  PL_RETURN_IF_ERROR(TransformNameList(s.aliases, s.n_aliases, s.view->location, &view->column_aliases));
  std::unique_ptr<SelectStmt> query;
  PL_RETURN_IF_ERROR(TransformSelect(*s.query->select_stmt, &query));
  view->query = std::move(query);
  *out = std::move(view);
  return Status::OK();
}

Status Transformer::TransformDrop(const PgQuery__DropStmt& s, std::unique_ptr<DropStmt>* out) {
  auto drop = std::make_unique<DropStmt>();
  switch (s.remove_type) {
    case PG_QUERY__OBJECT_TYPE__OBJECT_TABLE: drop->kind = ObjectKind::kTable; break;
    case PG_QUERY__OBJECT_TYPE__OBJECT_INDEX: drop->kind = ObjectKind::kIndex; break;
    case PG_QUERY__OBJECT_TYPE__OBJECT_DOMAIN: drop->kind = ObjectKind::kDomain; break;
    case PG_QUERY__OBJECT_TYPE__OBJECT_VIEW: drop->kind = ObjectKind::kView; break;
    case PG_QUERY__OBJECT_TYPE__OBJECT_SEQUENCE: drop->kind = ObjectKind::kSequence; break;
    default: drop->kind = ObjectKind::kOther; break;
  }
  drop->if_exists = s.missing_ok;
  drop->cascade = s.behavior == PG_QUERY__DROP_BEHAVIOR__DROP_CASCADE;
  // Objects are qualified names (a List of Strings), a TypeName (domains,
  // types) or a plain String (schemas, databases); the schema is dropped.
  for (size_t i = 0; i < s.n_objects; ++i) {
    const Node* object = s.objects[i];
    if (Is(object, PG_QUERY__NODE__NODE_LIST)) {
      drop->names.push_back(LastName(object->list->items, object->list->n_items));
    } else if (Is(object, PG_QUERY__NODE__NODE_TYPE_NAME)) {
      drop->names.push_back(LastName(object->type_name->names, object->type_name->n_names));
    } else if (const char* name = StringOf(object)) {
      drop->names.push_back(name);
    } else if (drop->kind != ObjectKind::kOther) {
      return Unsupported("DROP of " + NodeFieldName(object), -1);
    }
  }
  *out = std::move(drop);
  return Status::OK();
}

Status Transformer::TransformTruncate(const PgQuery__TruncateStmt& s, std::unique_ptr<TruncateStmt>* out) {
  auto truncate = std::make_unique<TruncateStmt>();
  truncate->restart_identity = s.restart_seqs;
  truncate->cascade = s.behavior == PG_QUERY__DROP_BEHAVIOR__DROP_CASCADE;
  for (size_t i = 0; i < s.n_relations; ++i) {
    const Node* n = s.relations[i];
    if (!Is(n, PG_QUERY__NODE__NODE_RANGE_VAR)) return Unsupported("TRUNCATE of " + NodeFieldName(n), -1);
    truncate->tables.push_back(Str(n->range_var->relname));
  }
  *out = std::move(truncate);
  return Status::OK();
}

Status Transformer::TransformAlterTable(const PgQuery__AlterTableStmt& s,
                                       std::unique_ptr<AlterTableStmt>* out) {
  if (s.relation == nullptr) return InternalError("ALTER TABLE without a table");
  auto alter = std::make_unique<AlterTableStmt>();
  alter->table = Str(s.relation->relname);
  alter->if_exists = s.missing_ok;
  for (size_t i = 0; i < s.n_cmds; ++i) {
    const Node* n = s.cmds[i];
    if (!Is(n, PG_QUERY__NODE__NODE_ALTER_TABLE_CMD)) {
      return Unsupported("ALTER TABLE command " + NodeFieldName(n), s.relation->location);
    }
    AlterTableCmd cmd;
    PL_RETURN_IF_ERROR(TransformAlterTableCmd(*n->alter_table_cmd, &cmd));
    alter->commands.push_back(std::move(cmd));
  }
  *out = std::move(alter);
  return Status::OK();
}

Status Transformer::TransformAlterTableCmd(const PgQuery__AlterTableCmd& c, AlterTableCmd* out) {
  switch (c.subtype) {
    case PG_QUERY__ALTER_TABLE_TYPE__AT_AddConstraint:
      if (Is(c.def, PG_QUERY__NODE__NODE_CONSTRAINT)) {
        bool keep = true;
        PL_RETURN_IF_ERROR(TransformConstraint(*c.def->constraint, &out->constraint, &keep));
        if (keep) {
          out->kind = AlterKind::kAddConstraint;
          return Status::OK();
        }
      }
      out->description = "ADD CONSTRAINT";
      return Status::OK();
    case PG_QUERY__ALTER_TABLE_TYPE__AT_AddColumn:
      if (!Is(c.def, PG_QUERY__NODE__NODE_COLUMN_DEF)) {
        out->description = "ADD COLUMN";
        return Status::OK();
      }
      out->kind = AlterKind::kAddColumn;
      out->missing_ok = c.missing_ok;
      return TransformColumnDef(*c.def->column_def, &out->column);
    case PG_QUERY__ALTER_TABLE_TYPE__AT_DropColumn:
    case PG_QUERY__ALTER_TABLE_TYPE__AT_DropConstraint:
      out->kind = c.subtype == PG_QUERY__ALTER_TABLE_TYPE__AT_DropColumn ? AlterKind::kDropColumn
                                                                        : AlterKind::kDropConstraint;
      out->column_name = Str(c.name);
      out->missing_ok = c.missing_ok;
      out->cascade = c.behavior == PG_QUERY__DROP_BEHAVIOR__DROP_CASCADE;
      return Status::OK();
    case PG_QUERY__ALTER_TABLE_TYPE__AT_AlterColumnType: {
      if (!Is(c.def, PG_QUERY__NODE__NODE_COLUMN_DEF)) break;
      const PgQuery__ColumnDef& def = *c.def->column_def;
      if (def.coll_clause != nullptr) return Unsupported("COLLATE", def.coll_clause->location);
      if (def.type_name == nullptr) break;
      out->kind = AlterKind::kAlterType;
      out->column_name = Str(c.name);
      out->using_expression = def.raw_default != nullptr;
      out->column.name = out->column_name;
      out->column.location = def.location;
      return TransformTypeName(*def.type_name, &out->column.type);
    }
    default:
      break;
  }
  switch (c.subtype) {
    case PG_QUERY__ALTER_TABLE_TYPE__AT_ColumnDefault:
      out->column_name = Str(c.name);
      if (c.def == nullptr) {
        out->kind = AlterKind::kDropDefault;
        return Status::OK();
      }
      out->kind = AlterKind::kSetDefault;
      out->constraint.kind = ConstraintKind::kDefault;
      out->constraint.default_text = DeparseExpression(*c.def);
      return TransformExpr(c.def, &out->constraint.default_value);
    case PG_QUERY__ALTER_TABLE_TYPE__AT_SetNotNull:
      out->column_name = Str(c.name);
      out->kind = AlterKind::kSetNotNull;
      return Status::OK();
    case PG_QUERY__ALTER_TABLE_TYPE__AT_DropNotNull:
      out->column_name = Str(c.name);
      out->kind = AlterKind::kDropNotNull;
      return Status::OK();
    case PG_QUERY__ALTER_TABLE_TYPE__AT_ChangeOwner:
      if (c.newowner == nullptr) break;
      out->kind = AlterKind::kOwnerTo;
      out->new_name = c.newowner->roletype == PG_QUERY__ROLE_SPEC_TYPE__ROLESPEC_CSTRING ? Str(c.newowner->rolename)
                                                                                         : "current_user";
      return Status::OK();
    default:
      break;
  }
  // Everything else stays kOther, described for the binder's error message.
  switch (c.subtype) {
    case PG_QUERY__ALTER_TABLE_TYPE__AT_AlterColumnType: out->description = "ALTER COLUMN TYPE"; break;
    case PG_QUERY__ALTER_TABLE_TYPE__AT_SetRelOptions: out->description = "SET (storage parameters)"; break;
    default: {
      // "AT_DropColumn" → "DROP COLUMN".
      std::string name = EnumName(pg_query__alter_table_type__descriptor, c.subtype);
      if (name.rfind("AT_", 0) == 0) name.erase(0, 3);
      out->description = CamelToWords(name);
      break;
    }
  }
  return Status::OK();
}

Status Transformer::TransformRename(const PgQuery__RenameStmt& s, std::unique_ptr<AlterTableStmt>* out) {
  if (s.relation == nullptr) return InternalError("ALTER TABLE RENAME without a table");
  auto alter = std::make_unique<AlterTableStmt>();
  alter->table = Str(s.relation->relname);
  alter->if_exists = s.missing_ok;
  AlterTableCmd cmd;
  cmd.new_name = Str(s.newname);
  switch (s.rename_type) {
    case PG_QUERY__OBJECT_TYPE__OBJECT_TABLE: cmd.kind = AlterKind::kRenameTable; break;
    case PG_QUERY__OBJECT_TYPE__OBJECT_COLUMN: cmd.kind = AlterKind::kRenameColumn; break;
    case PG_QUERY__OBJECT_TYPE__OBJECT_TABCONSTRAINT: cmd.kind = AlterKind::kRenameConstraint; break;
    default: return InternalError("not a table's rename");
  }
  cmd.column_name = Str(s.subname);
  alter->commands.push_back(std::move(cmd));
  *out = std::move(alter);
  return Status::OK();
}

Status Transformer::TransformTypeName(const PgQuery__TypeName& t, TypeName* out) {
  if (t.setof) return Unsupported("SETOF", t.location);
  if (t.pct_type) return Unsupported("%TYPE", t.location);
  out->name = Lower(LastName(t.names, t.n_names));  // ["pg_catalog", "int4"] → "int4"
  out->location = t.location;
  out->is_array = t.n_array_bounds > 0;
  for (size_t i = 0; i < t.n_typmods; ++i) {
    const Node* m = t.typmods[i];
    if (!Is(m, PG_QUERY__NODE__NODE_A_CONST) || m->a_const->val_case != PG_QUERY__A__CONST__VAL_IVAL) {
      return Unsupported("this type modifier", t.location);
    }
    out->modifiers.push_back(m->a_const->ival->ival);
  }
  return Status::OK();
}

}  // namespace paceline::sql::transform
