#include "engine/client/prepared_namespace.h"

#include "engine/client/client_input.h"
#include "engine/session.h"
#include "sql/prepared_statement.h"

namespace paceline::engine {

namespace {

Status NoSuchStatement(std::string_view name) {
  return Status(sqlstate::kInvalidSqlStatementName, "prepared statement \"" + std::string(name) + "\" does not exist");
}

Status StatementExists(std::string_view name) {
  return Status(sqlstate::kDuplicatePreparedStatement, "prepared statement \"" + std::string(name) + "\" already exists");
}

}  // namespace

Status PreparedNamespace::Prepare(std::string_view text, const std::vector<Type>& declared,
                                  StatementEntry* entry) const {
  return session_->Prepare(text, declared, &entry->prepared);
}

Status PreparedNamespace::Parse(const ParseMessage& parse) {
  if (!parse.name.empty() && FindStatement(parse.name) != nullptr) return StatementExists(parse.name);
  StatementEntry entry;
  PL_RETURN_IF_ERROR(Prepare(parse.text, parse.declared, &entry));
  Store(parse.name, std::move(entry));
  return Status::OK();
}

Status PreparedNamespace::Bind(const BindMessage& bind, ClientInput* input) {
  if (!bind.header_complete) return bind.malformed;
  const StatementEntry* entry = FindStatement(bind.statement);
  if (entry == nullptr) {
    return bind.statement.empty()
               ? Status(sqlstate::kInvalidSqlStatementName, "unnamed prepared statement does not exist")
               : NoSuchStatement(bind.statement);
  }
  const std::vector<Type>& types = entry->prepared->param_types;
  if (bind.param_count < 0 || static_cast<size_t>(bind.param_count) != types.size()) {
    return Status(sqlstate::kProtocolViolation, "bind message supplies " + std::to_string(bind.param_count) +
                                                    " parameters, but prepared statement \"" +
                                                    std::string(bind.statement) + "\" requires " +
                                                    std::to_string(types.size()));
  }
  if (bind.param_formats.size() > 1 && bind.param_formats.size() != types.size()) {
    return Status(sqlstate::kProtocolViolation, "bind message has " + std::to_string(bind.param_formats.size()) +
                                                    " parameter formats but " + std::to_string(types.size()) +
                                                    " parameters");
  }
  Portal portal;
  portal.statement = *entry;
  portal.params.resize(types.size());
  for (size_t i = 0; i < types.size(); ++i) {
    if (i >= bind.params.size()) return bind.malformed;  // the message ends before this parameter
    if (!bind.params[i].has_value()) {
      portal.params[i] = Value::Null(types[i].id);
      continue;
    }
    PL_RETURN_IF_ERROR(
        input->DecodeParameter(*bind.params[i], FormatOf(bind.param_formats, i), types[i], &portal.params[i]));
  }
  for (const int16_t f : bind.result_formats) {
    if (f != 0 && f != 1) {
      return Status(sqlstate::kProtocolViolation, "unsupported format code: " + std::to_string(f));
    }
  }
  PL_RETURN_IF_ERROR(bind.malformed);
  portal.result_formats = bind.result_formats;
  if (!bind.portal.empty() && FindPortal(bind.portal) != nullptr) {
    return Status(sqlstate::kDuplicateCursor, "cursor \"" + std::string(bind.portal) + "\" already exists");
  }
  portals_[std::string(bind.portal)] = std::move(portal);
  return Status::OK();
}

const PreparedNamespace::StatementEntry* PreparedNamespace::FindStatement(std::string_view name) const {
  auto it = statements_.find(name);
  return it == statements_.end() ? nullptr : &it->second;
}

PreparedNamespace::Portal* PreparedNamespace::FindPortal(std::string_view name) {
  auto it = portals_.find(name);
  return it == portals_.end() ? nullptr : &it->second;
}

Status PreparedNamespace::LookupStatement(std::string_view name, const StatementEntry** entry) const {
  *entry = FindStatement(name);
  return *entry != nullptr ? Status::OK() : NoSuchStatement(name);
}

Status PreparedNamespace::LookupPortal(std::string_view name, Portal** portal) {
  *portal = FindPortal(name);
  if (*portal != nullptr) return Status::OK();
  return Status(sqlstate::kInvalidCursorName, "portal \"" + std::string(name) + "\" does not exist");
}

Status PreparedNamespace::SqlPrepare(const sql::PrepareStmt& prepare) {
  if (FindStatement(prepare.name) != nullptr) return StatementExists(prepare.name);
  std::vector<Type> declared;
  for (const auto& name : prepare.types) {
    Type t;
    PL_RETURN_IF_ERROR(ResolveBuiltinType(name.name, name.modifiers, &t));
    declared.push_back(t);
  }
  StatementEntry entry;
  PL_RETURN_IF_ERROR(Prepare(prepare.query, declared, &entry));
  if (entry.prepared->kind == sql::StatementKind::kPrepare || entry.prepared->kind == sql::StatementKind::kExecute) {
    return SyntaxError("PREPARE cannot prepare " + std::string(entry.prepared->kind == sql::StatementKind::kPrepare
                                                                    ? "PREPARE" : "EXECUTE"));
  }
  statements_[prepare.name] = std::move(entry);
  return Status::OK();
}

Status PreparedNamespace::SqlExecute(const sql::ExecuteStmt& execute,
                                     std::shared_ptr<const sql::PreparedStatement>* statement,
                                     std::vector<Value>* args) const {
  const StatementEntry* entry = FindStatement(execute.name);
  if (entry == nullptr || execute.name.empty()) return NoSuchStatement(execute.name);
  *statement = entry->prepared;  // kept alive while it runs, whatever it deallocates
  const std::vector<Type>& types = (*statement)->param_types;
  // The arguments are expressions: evaluated by a SELECT of them.
  args->clear();
  if (!execute.arguments.empty()) {
    QueryResult values;
    PL_RETURN_IF_ERROR(session_->Execute("SELECT " + execute.arguments, &values));
    if (values.rows.size() == 1) *args = std::move(values.rows[0]);
  }
  if (args->size() != types.size()) {
    return Status(sqlstate::kSyntaxError, "wrong number of parameters for prepared statement \"" + execute.name + "\"")
        .WithDetail("Expected " + std::to_string(types.size()) + " parameters but got " +
                    std::to_string(args->size()) + ".");
  }
  for (size_t i = 0; i < args->size(); ++i) {
    Value cast;
    PL_RETURN_IF_ERROR(CastValue((*args)[i], types[i], false, &cast));
    (*args)[i] = std::move(cast);
  }
  return Status::OK();
}

Status PreparedNamespace::Deallocate(const std::string& name, std::string* tag) {
  if (name.empty()) {
    // The unnamed statement is not in SQL's namespace.
    auto unnamed = statements_.extract(std::string());
    statements_.clear();
    if (!unnamed.empty()) statements_.insert(std::move(unnamed));
    *tag = "DEALLOCATE ALL";
    return Status::OK();
  }
  auto it = statements_.find(name);
  if (it == statements_.end()) return NoSuchStatement(name);
  statements_.erase(it);
  *tag = "DEALLOCATE";
  return Status::OK();
}

}  // namespace paceline::engine
