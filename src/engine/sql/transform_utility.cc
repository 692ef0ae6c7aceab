// Transformer: transaction control, SET and COPY (see transformer.h).
#include "engine/sql/transformer.h"

#include <utility>

namespace paceline::sql::transform {

Status Transformer::TransformTransaction(const PgQuery__TransactionStmt& s,
                                        std::unique_ptr<TransactionStmt>* out) {
  auto txn = std::make_unique<TransactionStmt>();
  switch (s.kind) {
    case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_BEGIN:
    case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_START: txn->kind = TransactionKind::kBegin; break;
    case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_COMMIT: txn->kind = TransactionKind::kCommit; break;
    case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_ROLLBACK: txn->kind = TransactionKind::kRollback; break;
    case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_SAVEPOINT:
      txn->kind = TransactionKind::kSavepoint;
      break;
    case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_RELEASE: txn->kind = TransactionKind::kRelease; break;
    case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_ROLLBACK_TO:
      txn->kind = TransactionKind::kRollbackTo;
      break;
    case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_PREPARE: txn->kind = TransactionKind::kPrepare; break;
    default: txn->kind = TransactionKind::kOther; break;  // COMMIT PREPARED, ROLLBACK PREPARED
  }
  if (s.chain) return Unsupported("AND CHAIN", -1);
  txn->savepoint_name = Str(s.savepoint_name);
  for (size_t i = 0; i < s.n_options; ++i) {
    const Node* n = s.options[i];
    if (!Is(n, PG_QUERY__NODE__NODE_DEF_ELEM)) continue;
    const PgQuery__DefElem& option = *n->def_elem;
    std::string name = Str(option.defname);
    const Node* arg = option.arg;
    if (name == "transaction_isolation") {
      if (Is(arg, PG_QUERY__NODE__NODE_A_CONST) && arg->a_const->val_case == PG_QUERY__A__CONST__VAL_SVAL) {
        txn->isolation_level = Lower(Str(arg->a_const->sval->sval));
      }
    } else if (name == "transaction_read_only") {
      txn->read_only = Is(arg, PG_QUERY__NODE__NODE_A_CONST) &&
                       arg->a_const->val_case == PG_QUERY__A__CONST__VAL_IVAL &&
                       arg->a_const->ival->ival != 0;
    }
    // transaction_deferrable: meaningful only for SERIALIZABLE READ ONLY; ignored.
  }
  *out = std::move(txn);
  return Status::OK();
}

Status Transformer::TransformVariableSet(const PgQuery__VariableSetStmt& s, std::unique_ptr<SetStmt>* out) {
  auto set = std::make_unique<SetStmt>();
  set->name = Lower(Str(s.name));
  set->local = s.is_local;
  switch (s.kind) {
    case PG_QUERY__VARIABLE_SET_KIND__VAR_SET_VALUE:
      for (size_t i = 0; i < s.n_args; ++i) {
        std::string value;
        PL_RETURN_IF_ERROR(TransformSetValue(s.args[i], &value));
        set->values.push_back(std::move(value));
      }
      break;
    case PG_QUERY__VARIABLE_SET_KIND__VAR_SET_DEFAULT:
    case PG_QUERY__VARIABLE_SET_KIND__VAR_RESET:
      set->reset = true;
      break;
    case PG_QUERY__VARIABLE_SET_KIND__VAR_RESET_ALL:
      set->name = "all";
      set->reset = true;
      break;
    case PG_QUERY__VARIABLE_SET_KIND__VAR_SET_MULTI: {
      // SET TRANSACTION ... / SET SESSION CHARACTERISTICS AS TRANSACTION ...:
      // a list of transaction_* options. SetStmt holds one variable, so the
      // isolation level wins over the others when several are given.
      std::string prefix;
      if (set->name == "session characteristics") {
        prefix = "default_";
      } else if (set->name != "transaction") {
        return Unsupported("SET " + Upper(set->name), -1);
      }
      const PgQuery__DefElem* chosen = nullptr;
      for (size_t i = 0; i < s.n_args; ++i) {
        if (!Is(s.args[i], PG_QUERY__NODE__NODE_DEF_ELEM)) continue;
        const PgQuery__DefElem* option = s.args[i]->def_elem;
        if (chosen == nullptr || Str(option->defname) == "transaction_isolation") chosen = option;
      }
      if (chosen == nullptr) return Unsupported("SET " + Upper(set->name), -1);
      set->name = prefix + Str(chosen->defname);
      const Node* arg = chosen->arg;
      if (Is(arg, PG_QUERY__NODE__NODE_A_CONST) && arg->a_const->val_case == PG_QUERY__A__CONST__VAL_IVAL) {
        set->values.push_back(arg->a_const->ival->ival != 0 ? "on" : "off");  // READ ONLY, DEFERRABLE
      } else {
        std::string value;
        PL_RETURN_IF_ERROR(TransformSetValue(arg, &value));
        set->values.push_back(std::move(value));
      }
      break;
    }
    default:
      return Unsupported("SET ... FROM CURRENT", -1);
  }
  *out = std::move(set);
  return Status::OK();
}

Status Transformer::TransformSetValue(const Node* node, std::string* out) {
  if (Is(node, PG_QUERY__NODE__NODE_TYPE_CAST) && node->type_cast->arg != nullptr) {
    return TransformSetValue(node->type_cast->arg, out);  // SET TIME ZONE INTERVAL '+1' HOUR
  }
  if (Is(node, PG_QUERY__NODE__NODE_A_CONST)) {
    const PgQuery__AConst& c = *node->a_const;
    switch (c.val_case) {
      case PG_QUERY__A__CONST__VAL_SVAL: *out = Str(c.sval->sval); return Status::OK();
      case PG_QUERY__A__CONST__VAL_IVAL: *out = std::to_string(c.ival->ival); return Status::OK();
      case PG_QUERY__A__CONST__VAL_FVAL: *out = Str(c.fval->fval); return Status::OK();
      case PG_QUERY__A__CONST__VAL_BOOLVAL: *out = c.boolval->boolval ? "on" : "off"; return Status::OK();
      default: break;
    }
  }
  return Unsupported("this SET value", node != nullptr ? ExpressionLocation(*node) : -1);
}

Status Transformer::TransformCopy(const PgQuery__CopyStmt& s, std::unique_ptr<CopyStmt>* out) {
  auto copy = std::make_unique<CopyStmt>();
  if (s.relation != nullptr) copy->table = Str(s.relation->relname);
  copy->has_query = s.query != nullptr;
  copy->has_where = s.where_clause != nullptr;
  copy->from = s.is_from;
  copy->stdio = !s.is_program && (s.filename == nullptr || s.filename[0] == '\0');
  PL_RETURN_IF_ERROR(TransformNameList(s.attlist, s.n_attlist, -1, &copy->columns));
  for (size_t i = 0; i < s.n_options; ++i) {
    const Node* n = s.options[i];
    if (!Is(n, PG_QUERY__NODE__NODE_DEF_ELEM)) continue;
    const PgQuery__DefElem& option = *n->def_elem;
    const std::string name = Lower(Str(option.defname));
    std::string value;
    bool has_value = false;
    if (option.arg != nullptr) {
      if (const char* text = StringOf(option.arg)) {
        value = text;
        has_value = true;
      } else if (Is(option.arg, PG_QUERY__NODE__NODE_A_CONST)) {
        has_value = TransformSetValue(option.arg, &value).ok();
      }
    }
    auto on = [&] { return !has_value || value == "on" || value == "true" || value == "1"; };
    if (name == "format") copy->format = Lower(value);
    else if (name == "delimiter") copy->delimiter = value;
    else if (name == "null") copy->null_string = value, copy->has_null_string = true;
    else if (name == "header") copy->header = on();
    else if (name == "freeze" || name == "encoding") continue;  // no effect here
    else copy->unsupported_options.push_back(name);
  }
  *out = std::move(copy);
  return Status::OK();
}

}  // namespace paceline::sql::transform
