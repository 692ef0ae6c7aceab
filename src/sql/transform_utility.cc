// Transformer: transaction control, SET and COPY (see transformer.h).
#include "sql/transformer.h"

#include <algorithm>
#include <cctype>
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

bool Transformer::OptionValue(const PgQuery__DefElem& option, std::string* value) {
  value->clear();
  if (option.arg == nullptr) return false;
  if (const char* text = StringOf(option.arg)) {
    *value = text;
    return true;
  }
  return Is(option.arg, PG_QUERY__NODE__NODE_A_CONST) && TransformSetValue(option.arg, value).ok();
}

Status Transformer::OptionBoolean(const PgQuery__DefElem& option, const std::string& name, bool* out) {
  std::string value;
  if (!OptionValue(option, &value)) {
    *out = true;  // a bare option
    return Status::OK();
  }
  value = Lower(value);
  if (value == "on" || value == "true" || value == "yes" || value == "1") {
    *out = true;
  } else if (value == "off" || value == "false" || value == "no" || value == "0") {
    *out = false;
  } else {
    return SyntaxError(name + " requires a Boolean value", option.location);
  }
  return Status::OK();
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
    OptionValue(option, &value);
    if (name == "format") copy->format = Lower(value);
    else if (name == "delimiter") copy->delimiter = value;
    else if (name == "null") copy->null_string = value, copy->has_null_string = true;
    else if (name == "header") PL_RETURN_IF_ERROR(OptionBoolean(option, name, &copy->header));
    else if (name == "freeze" || name == "encoding") continue;  // no effect here
    else copy->unsupported_options.push_back(name);
  }
  *out = std::move(copy);
  return Status::OK();
}

Status Transformer::TransformExplain(const PgQuery__ExplainStmt& s, Statement* stmt) {
  // PostgreSQL's option rules (explain.c): a Boolean option takes on/off,
  // true/false, yes/no, 1/0 or nothing (on); TIMING needs ANALYZE; SUMMARY
  // defaults to ANALYZE's value.
  auto explain = std::make_unique<ExplainStmt>();
  bool timing_set = false;
  bool summary_set = false;
  for (size_t i = 0; i < s.n_options; ++i) {
    const Node* n = s.options[i];
    if (!Is(n, PG_QUERY__NODE__NODE_DEF_ELEM)) continue;
    const PgQuery__DefElem& option = *n->def_elem;
    const std::string name = Lower(Str(option.defname));
    std::string value;
    OptionValue(option, &value);
    value = Lower(value);
    bool flag = true;
    if (name != "format") PL_RETURN_IF_ERROR(OptionBoolean(option, name, &flag));
    if (name == "analyze") {
      explain->analyze = flag;
    } else if (name == "verbose") {
      explain->verbose = flag;
    } else if (name == "timing") {
      explain->timing = flag;
      timing_set = true;
    } else if (name == "summary") {
      explain->summary = flag;
      summary_set = true;
    } else if (name == "costs" || name == "buffers" || name == "settings" || name == "wal") {
      // Accepted; nothing to show (see ExplainStmt).
    } else if (name == "format") {
      if (value == "text") {
        explain->format = ExplainFormat::kText;
      } else if (value == "json") {
        explain->format = ExplainFormat::kJson;
      } else if (value == "xml" || value == "yaml") {
        return Unsupported("EXPLAIN (FORMAT " + value + ")", option.location);
      } else {
        return Status(sqlstate::kInvalidParameterValue,
                      "unrecognized value for EXPLAIN option \"format\": \"" + value + "\"")
            .WithPosition(CharPosition(option.location));
      }
    } else {
      return SyntaxError("unrecognized EXPLAIN option \"" + name + "\"", option.location);
    }
  }
  if (timing_set && explain->timing && !explain->analyze) {
    return Status(sqlstate::kInvalidParameterValue, "EXPLAIN option TIMING requires ANALYZE");
  }
  if (!summary_set) explain->summary = explain->analyze;
  if (s.query == nullptr) return InternalError("EXPLAIN without a statement");
  // The statement's own text (what it is prepared again from after DDL):
  // after EXPLAIN and its parenthesized options or ANALYZE/VERBOSE words.
  const std::string& text = stmt->text;
  size_t pos = std::min<size_t>(7, text.size());  // "EXPLAIN"
  auto skip_space = [&] {
    while (pos < text.size() && std::isspace(static_cast<unsigned char>(text[pos])) != 0) ++pos;
  };
  skip_space();
  if (pos < text.size() && text[pos] == '(') {
    int depth = 0;
    char quote = 0;
    for (; pos < text.size(); ++pos) {
      const char c = text[pos];
      if (quote != 0) {
        if (c == quote) quote = 0;
      } else if (c == '\'' || c == '"') {
        quote = c;
      } else if (c == '(') {
        ++depth;
      } else if (c == ')' && --depth == 0) {
        ++pos;
        break;
      }
    }
  } else {
    for (;;) {
      skip_space();
      size_t end = pos;
      while (end < text.size() && std::isalpha(static_cast<unsigned char>(text[end])) != 0) ++end;
      const std::string word = Lower(text.substr(pos, end - pos));
      if (word != "analyze" && word != "analyse" && word != "verbose") break;
      pos = end;
    }
  }
  skip_space();
  explain->query = std::make_unique<Statement>();
  explain->query->text = text.substr(pos);
  explain->query->location = stmt->location + static_cast<int>(pos);
  PL_RETURN_IF_ERROR(TransformStatement(*s.query, explain->query.get()));
  stmt->explain = std::move(explain);
  return Status::OK();
}

}  // namespace paceline::sql::transform
