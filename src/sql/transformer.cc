// Transformer: shared helpers, error construction and the statement dispatch
// table (see transformer.h).
#include "sql/transformer.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <utility>

#include "common/utf8.h"

namespace paceline::sql::transform {

std::string Str(const char* s) { return s != nullptr ? std::string(s) : std::string(); }

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string Upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

bool Is(const Node* node, PgQuery__Node__NodeCase node_case) {
  return node != nullptr && node->node_case == node_case;
}

// The text of a String node, or nullptr when `node` is something else.
const char* StringOf(const Node* node) {
  if (!Is(node, PG_QUERY__NODE__NODE_STRING) || node->string == nullptr) return nullptr;
  return node->string->sval != nullptr ? node->string->sval : "";
}

// The last String of a qualified name (["pg_catalog", "int4"] → "int4").
std::string LastName(Node* const* names, size_t n) {
  for (size_t i = n; i > 0; --i) {
    if (const char* s = StringOf(names[i - 1])) return s;
  }
  return "";
}

// "create_function_stmt" → "CREATE FUNCTION" (the protobuf field name of a
// node kind, used when no better name is known).
std::string SnakeToWords(std::string_view name) {
  constexpr std::string_view kStmt = "_stmt";
  if (name.size() > kStmt.size() && name.substr(name.size() - kStmt.size()) == kStmt) {
    name.remove_suffix(kStmt.size());
  }
  std::string words(name);
  for (char& c : words) c = c == '_' ? ' ' : c;
  return Upper(words);
}

// "DropColumn" → "DROP COLUMN".
std::string CamelToWords(std::string_view name) {
  std::string words;
  for (size_t i = 0; i < name.size(); ++i) {
    char c = name[i];
    if (c == '_') continue;
    if (i > 0 && std::isupper(static_cast<unsigned char>(c)) && !words.empty() && words.back() != ' ') {
      words.push_back(' ');
    }
    words.push_back(static_cast<char>(std::toupper(static_cast<unsigned char>(c))));
  }
  return words;
}

// The protobuf field name of a node's kind ("sub_link", "create_function_stmt").
std::string NodeFieldName(const Node* node) {
  if (node == nullptr) return "empty node";
  const ProtobufCFieldDescriptor* field =
      protobuf_c_message_descriptor_get_field(&pg_query__node__descriptor, node->node_case);
  return field != nullptr ? field->name : "unknown node";
}

// The name of an enum value as libpg_query spells it ("OBJECT_VIEW", "AT_DropColumn").
std::string EnumName(const ProtobufCEnumDescriptor& descriptor, int value) {
  const ProtobufCEnumValue* v = protobuf_c_enum_descriptor_get_value(&descriptor, value);
  return v != nullptr ? v->name : "UNKNOWN";
}

// OBJECT_MATVIEW → "MATERIALIZED VIEW", OBJECT_FOREIGN_TABLE → "FOREIGN TABLE".
std::string ObjectTypeName(PgQuery__ObjectType type) {
  switch (type) {
    case PG_QUERY__OBJECT_TYPE__OBJECT_MATVIEW: return "MATERIALIZED VIEW";
    case PG_QUERY__OBJECT_TYPE__OBJECT_TABCONSTRAINT: return "CONSTRAINT";
    case PG_QUERY__OBJECT_TYPE__OBJECT_FDW: return "FOREIGN DATA WRAPPER";
    case PG_QUERY__OBJECT_TYPE__OBJECT_FOREIGN_SERVER: return "SERVER";
    case PG_QUERY__OBJECT_TYPE__OBJECT_STATISTIC_EXT: return "STATISTICS";
    case PG_QUERY__OBJECT_TYPE__OBJECT_TSCONFIGURATION: return "TEXT SEARCH CONFIGURATION";
    case PG_QUERY__OBJECT_TYPE__OBJECT_TSDICTIONARY: return "TEXT SEARCH DICTIONARY";
    case PG_QUERY__OBJECT_TYPE__OBJECT_TSPARSER: return "TEXT SEARCH PARSER";
    case PG_QUERY__OBJECT_TYPE__OBJECT_TSTEMPLATE: return "TEXT SEARCH TEMPLATE";
    case PG_QUERY__OBJECT_TYPE__OBJECT_LARGEOBJECT: return "LARGE OBJECT";
    default: break;
  }
  std::string name = EnumName(pg_query__object_type__descriptor, type);
  constexpr std::string_view kPrefix = "OBJECT_";
  if (name.rfind(kPrefix, 0) == 0) name.erase(0, kPrefix.size());
  for (char& c : name) c = c == '_' ? ' ' : c;
  return name;
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// The offset of the first `token` ("as": a keyword, case-insensitive, as a
// whole word; "(": the character) outside quotes and parentheses, or npos.
size_t FindTopLevel(std::string_view text, std::string_view token) {
  int depth = 0;
  char quote = 0;
  auto word_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quote != 0) {
      if (c == quote) quote = 0;
      continue;
    }
    if (c == '\'' || c == '"') {
      quote = c;
      continue;
    }
    if (token == "(" && c == '(' && depth == 0) return i;
    if (c == '(') ++depth;
    else if (c == ')') --depth;
    else if (depth == 0 && token != "(" && i + token.size() <= text.size() && (i == 0 || !word_char(text[i - 1])) &&
             (i + token.size() == text.size() || !word_char(text[i + token.size()])) &&
             Lower(std::string(text.substr(i, token.size()))) == token) {
      return i;
    }
  }
  return std::string_view::npos;
}

// A readable name for a statement Paceline does not support ("CREATE FUNCTION").
std::string StatementName(const Node& node) {
  switch (node.node_case) {
    case PG_QUERY__NODE__NODE_EXPLAIN_STMT: return "EXPLAIN";
    case PG_QUERY__NODE__NODE_COPY_STMT: return "COPY";
    case PG_QUERY__NODE__NODE_VIEW_STMT: return "CREATE VIEW";
    case PG_QUERY__NODE__NODE_CREATE_FUNCTION_STMT:
      return node.create_function_stmt->is_procedure ? "CREATE PROCEDURE" : "CREATE FUNCTION";
    case PG_QUERY__NODE__NODE_CREATE_TABLE_AS_STMT:
      return node.create_table_as_stmt->objtype == PG_QUERY__OBJECT_TYPE__OBJECT_MATVIEW
                 ? "CREATE MATERIALIZED VIEW"
                 : "CREATE TABLE AS";
    case PG_QUERY__NODE__NODE_CREATEDB_STMT: return "CREATE DATABASE";
    case PG_QUERY__NODE__NODE_DROPDB_STMT: return "DROP DATABASE";
    case PG_QUERY__NODE__NODE_CREATE_SCHEMA_STMT: return "CREATE SCHEMA";
    case PG_QUERY__NODE__NODE_CREATE_TRIG_STMT: return "CREATE TRIGGER";
    case PG_QUERY__NODE__NODE_CREATE_EVENT_TRIG_STMT: return "CREATE EVENT TRIGGER";
    case PG_QUERY__NODE__NODE_CREATE_PLANG_STMT: return "CREATE LANGUAGE";
    case PG_QUERY__NODE__NODE_CREATE_EXTENSION_STMT: return "CREATE EXTENSION";
    case PG_QUERY__NODE__NODE_CREATE_FOREIGN_TABLE_STMT: return "CREATE FOREIGN TABLE";
    case PG_QUERY__NODE__NODE_CREATE_ENUM_STMT:
    case PG_QUERY__NODE__NODE_CREATE_RANGE_STMT:
    case PG_QUERY__NODE__NODE_COMPOSITE_TYPE_STMT: return "CREATE TYPE";
    case PG_QUERY__NODE__NODE_DEFINE_STMT: return "CREATE " + ObjectTypeName(node.define_stmt->kind);
    case PG_QUERY__NODE__NODE_RULE_STMT: return "CREATE RULE";
    case PG_QUERY__NODE__NODE_CREATE_ROLE_STMT:
      switch (node.create_role_stmt->stmt_type) {
        case PG_QUERY__ROLE_STMT_TYPE__ROLESTMT_USER: return "CREATE USER";
        case PG_QUERY__ROLE_STMT_TYPE__ROLESTMT_GROUP: return "CREATE GROUP";
        default: return "CREATE ROLE";
      }
    case PG_QUERY__NODE__NODE_ALTER_ROLE_STMT: return "ALTER ROLE";
    case PG_QUERY__NODE__NODE_DROP_ROLE_STMT: return "DROP ROLE";
    case PG_QUERY__NODE__NODE_ALTER_DOMAIN_STMT: return "ALTER DOMAIN";
    case PG_QUERY__NODE__NODE_ALTER_FUNCTION_STMT: return "ALTER FUNCTION";
    case PG_QUERY__NODE__NODE_ALTER_TABLE_STMT:
      return "ALTER " + ObjectTypeName(node.alter_table_stmt->objtype);
    case PG_QUERY__NODE__NODE_RENAME_STMT:
      return "ALTER " + ObjectTypeName(node.rename_stmt->rename_type) + " RENAME";
    case PG_QUERY__NODE__NODE_ALTER_OBJECT_SCHEMA_STMT: return "ALTER SET SCHEMA";
    case PG_QUERY__NODE__NODE_ALTER_OWNER_STMT: return "ALTER OWNER";
    case PG_QUERY__NODE__NODE_ALTER_SYSTEM_STMT: return "ALTER SYSTEM";
    case PG_QUERY__NODE__NODE_ALTER_DEFAULT_PRIVILEGES_STMT: return "ALTER DEFAULT PRIVILEGES";
    case PG_QUERY__NODE__NODE_GRANT_STMT: return node.grant_stmt->is_grant ? "GRANT" : "REVOKE";
    case PG_QUERY__NODE__NODE_GRANT_ROLE_STMT: return node.grant_role_stmt->is_grant ? "GRANT" : "REVOKE";
    case PG_QUERY__NODE__NODE_COMMENT_STMT: return "COMMENT";
    case PG_QUERY__NODE__NODE_SEC_LABEL_STMT: return "SECURITY LABEL";
    case PG_QUERY__NODE__NODE_DO_STMT: return "DO";
    case PG_QUERY__NODE__NODE_CALL_STMT: return "CALL";
    case PG_QUERY__NODE__NODE_MERGE_STMT: return "MERGE";
    case PG_QUERY__NODE__NODE_PREPARE_STMT: return "PREPARE";
    case PG_QUERY__NODE__NODE_EXECUTE_STMT: return "EXECUTE";
    case PG_QUERY__NODE__NODE_DEALLOCATE_STMT: return "DEALLOCATE";
    case PG_QUERY__NODE__NODE_DECLARE_CURSOR_STMT: return "DECLARE CURSOR";
    case PG_QUERY__NODE__NODE_FETCH_STMT: return node.fetch_stmt->ismove ? "MOVE" : "FETCH";
    case PG_QUERY__NODE__NODE_CLOSE_PORTAL_STMT: return "CLOSE";
    case PG_QUERY__NODE__NODE_LOCK_STMT: return "LOCK TABLE";
    case PG_QUERY__NODE__NODE_LISTEN_STMT: return "LISTEN";
    case PG_QUERY__NODE__NODE_UNLISTEN_STMT: return "UNLISTEN";
    case PG_QUERY__NODE__NODE_NOTIFY_STMT: return "NOTIFY";
    case PG_QUERY__NODE__NODE_DISCARD_STMT: return "DISCARD";
    case PG_QUERY__NODE__NODE_CLUSTER_STMT: return "CLUSTER";
    case PG_QUERY__NODE__NODE_REINDEX_STMT: return "REINDEX";
    case PG_QUERY__NODE__NODE_LOAD_STMT: return "LOAD";
    case PG_QUERY__NODE__NODE_CONSTRAINTS_SET_STMT: return "SET CONSTRAINTS";
    case PG_QUERY__NODE__NODE_REFRESH_MAT_VIEW_STMT: return "REFRESH MATERIALIZED VIEW";
    case PG_QUERY__NODE__NODE_CREATE_CAST_STMT: return "CREATE CAST";
    case PG_QUERY__NODE__NODE_CREATE_STATS_STMT: return "CREATE STATISTICS";
    case PG_QUERY__NODE__NODE_CREATE_POLICY_STMT: return "CREATE POLICY";
    default: return SnakeToWords(NodeFieldName(&node));
  }
}

// A readable name for an expression node Paceline does not support.
std::string ExpressionName(const Node& node) {
  switch (node.node_case) {
    case PG_QUERY__NODE__NODE_SUB_LINK:
      switch (node.sub_link->sub_link_type) {
        case PG_QUERY__SUB_LINK_TYPE__EXISTS_SUBLINK: return "EXISTS (subquery)";
        case PG_QUERY__SUB_LINK_TYPE__ANY_SUBLINK: return "IN/ANY (subquery)";
        case PG_QUERY__SUB_LINK_TYPE__ALL_SUBLINK: return "ALL (subquery)";
        case PG_QUERY__SUB_LINK_TYPE__ARRAY_SUBLINK: return "ARRAY (subquery)";
        default: return "subquery";
      }
    case PG_QUERY__NODE__NODE_A_ARRAY_EXPR: return "ARRAY constructor";
    case PG_QUERY__NODE__NODE_A_INDIRECTION: return "subscript or field selection";
    case PG_QUERY__NODE__NODE_ROW_EXPR: return "ROW constructor";
    case PG_QUERY__NODE__NODE_COLLATE_CLAUSE: return "COLLATE";
    case PG_QUERY__NODE__NODE_GROUPING_FUNC: return "GROUPING";
    case PG_QUERY__NODE__NODE_SET_TO_DEFAULT: return "DEFAULT in this position";
    case PG_QUERY__NODE__NODE_MULTI_ASSIGN_REF: return "multi-column assignment";
    case PG_QUERY__NODE__NODE_CURRENT_OF_EXPR: return "WHERE CURRENT OF";
    case PG_QUERY__NODE__NODE_XML_EXPR:
    case PG_QUERY__NODE__NODE_XML_SERIALIZE: return "XML expression";
    case PG_QUERY__NODE__NODE_NAMED_ARG_EXPR: return "named function argument";
    case PG_QUERY__NODE__NODE_A_STAR: return "* in this position";
    default: return "expression " + NodeFieldName(&node);
  }
}

// The location of an expression node, when it has one (for error positions).
int ExpressionLocation(const Node& node) {
  switch (node.node_case) {
    case PG_QUERY__NODE__NODE_SUB_LINK: return node.sub_link->location;
    case PG_QUERY__NODE__NODE_A_ARRAY_EXPR: return node.a_array_expr->location;
    case PG_QUERY__NODE__NODE_ROW_EXPR: return node.row_expr->location;
    case PG_QUERY__NODE__NODE_COLLATE_CLAUSE: return node.collate_clause->location;
    case PG_QUERY__NODE__NODE_GROUPING_FUNC: return node.grouping_func->location;
    case PG_QUERY__NODE__NODE_SET_TO_DEFAULT: return node.set_to_default->location;
    case PG_QUERY__NODE__NODE_XML_EXPR: return node.xml_expr->location;
    case PG_QUERY__NODE__NODE_NAMED_ARG_EXPR: return node.named_arg_expr->location;
    case PG_QUERY__NODE__NODE_A_INDIRECTION:
      return node.a_indirection->arg != nullptr ? ExpressionLocation(*node.a_indirection->arg) : -1;
    case PG_QUERY__NODE__NODE_COLUMN_REF: return node.column_ref->location;
    case PG_QUERY__NODE__NODE_A_CONST: return node.a_const->location;
    case PG_QUERY__NODE__NODE_PARAM_REF: return node.param_ref->location;
    case PG_QUERY__NODE__NODE_FUNC_CALL: return node.func_call->location;
    case PG_QUERY__NODE__NODE_A_EXPR: return node.a_expr->location;
    default: return -1;
  }
}

// Operators written with a symbol (or LIKE's internal names) → BinaryOp.
std::optional<BinaryOp> BinaryOpFromName(std::string_view name) {
  struct Entry {
    std::string_view name;
    BinaryOp op;
  };
  static constexpr Entry kOperators[] = {
      {"+", BinaryOp::kAdd},          {"-", BinaryOp::kSub},       {"*", BinaryOp::kMul},
      {"/", BinaryOp::kDiv},          {"%", BinaryOp::kMod},       {"=", BinaryOp::kEq},
      {"<>", BinaryOp::kNe},          {"!=", BinaryOp::kNe},       {"<", BinaryOp::kLt},
      {"<=", BinaryOp::kLe},          {">", BinaryOp::kGt},        {">=", BinaryOp::kGe},
      {"||", BinaryOp::kConcat},      {"~~", BinaryOp::kLike},     {"!~~", BinaryOp::kNotLike},
      {"~~*", BinaryOp::kILike},      {"!~~*", BinaryOp::kNotILike},
      {"->", BinaryOp::kJsonGet},     {"->>", BinaryOp::kJsonGetText}, {"#>", BinaryOp::kJsonPath},
      {"#>>", BinaryOp::kJsonPathText}, {"@>", BinaryOp::kContains}, {"<@", BinaryOp::kContainedBy},
      {"?", BinaryOp::kJsonExists},     {"?|", BinaryOp::kJsonExistsAny}, {"?&", BinaryOp::kJsonExistsAll},
      {"#-", BinaryOp::kJsonDeletePath},
      {"&", BinaryOp::kBitAnd},       {"|", BinaryOp::kBitOr},     {"#", BinaryOp::kBitXor},
      {"<<", BinaryOp::kShiftLeft},   {">>", BinaryOp::kShiftRight},
  };
  for (const Entry& e : kOperators) {
    if (e.name == name) return e.op;
  }
  return std::nullopt;
}

ExprPtr MakeExpr(ExprKind kind, int location) {
  auto e = std::make_unique<Expr>();
  e->kind = kind;
  e->location = location;
  return e;
}

ExprPtr MakeBinary(BinaryOp op, ExprPtr left, ExprPtr right, int location) {
  ExprPtr e = MakeExpr(ExprKind::kBinary, location);
  e->binary_op = op;
  e->left = std::move(left);
  e->right = std::move(right);
  return e;
}

// Parses a numeric literal that PostgreSQL left as a string ("9223372036854775807",
// "-9223372036854775808", "1.5"): true with *value when it is an integer that fits int64.
bool ParseInt64(std::string_view text, int64_t* value) {
  if (text.empty()) return false;
  size_t digits_from = text[0] == '-' ? 1 : 0;
  if (digits_from == text.size()) return false;
  for (size_t i = digits_from; i < text.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) return false;
  }
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), *value);
  return ec == std::errc() && ptr == text.data() + text.size();
}

// PostgreSQL's own text of an expression, as ruleutils prints it: the
// expression is wrapped in `SELECT <expr>`, packed and handed to
// libpg_query's deparser, and the SELECT taken off again. "" when the
// deparser refuses it.
std::string DeparseExpression(const Node& expression) {
  PgQuery__ResTarget target = PG_QUERY__RES_TARGET__INIT;
  target.val = const_cast<Node*>(&expression);
  PgQuery__Node target_node = PG_QUERY__NODE__INIT;
  target_node.node_case = PG_QUERY__NODE__NODE_RES_TARGET;
  target_node.res_target = &target;
  PgQuery__Node* targets[] = {&target_node};
  PgQuery__SelectStmt select = PG_QUERY__SELECT_STMT__INIT;
  select.n_target_list = 1;
  select.target_list = targets;
  select.op = PG_QUERY__SET_OPERATION__SETOP_NONE;
  select.limit_option = PG_QUERY__LIMIT_OPTION__LIMIT_OPTION_DEFAULT;
  PgQuery__Node select_node = PG_QUERY__NODE__INIT;
  select_node.node_case = PG_QUERY__NODE__NODE_SELECT_STMT;
  select_node.select_stmt = &select;
  PgQuery__RawStmt raw = PG_QUERY__RAW_STMT__INIT;
  raw.stmt = &select_node;
  PgQuery__RawStmt* stmts[] = {&raw};
  PgQuery__ParseResult tree = PG_QUERY__PARSE_RESULT__INIT;
  tree.version = PG_VERSION_NUM;
  tree.n_stmts = 1;
  tree.stmts = stmts;

  std::string packed(pg_query__parse_result__get_packed_size(&tree), '\0');
  pg_query__parse_result__pack(&tree, reinterpret_cast<uint8_t*>(packed.data()));
  PgQueryProtobuf protobuf{packed.size(), packed.data()};
  PgQueryDeparseResult result = pg_query_deparse_protobuf(protobuf);
  std::string text;
  constexpr std::string_view kSelect = "SELECT ";
  if (result.error == nullptr && result.query != nullptr) {
    text = result.query;
    text = text.rfind(kSelect, 0) == 0 ? text.substr(kSelect.size()) : "";
  }
  pg_query_free_deparse_result(result);
  return text;
}

// ---------------------------------------------------------------- errors

int Transformer::CharPosition(int byte_offset) const { return Utf8CharPosition(text_, byte_offset); }

Status Transformer::Unsupported(std::string what, int location) const {
  return NotSupported(std::move(what)).WithPosition(CharPosition(location));
}

Status Transformer::SyntaxError(std::string message, int location) const {
  return Status(sqlstate::kSyntaxError, std::move(message)).WithPosition(CharPosition(location));
}

Status Transformer::UnsupportedExpression(const Node& node) const {
  return Unsupported(ExpressionName(node), ExpressionLocation(node));
}

Status Transformer::TransformRawStmt(const PgQuery__RawStmt& raw, std::unique_ptr<Statement>* out) {
  // The statement's own text: [stmt_location, stmt_location + stmt_len), where
  // stmt_len 0 means "to the end"; trimmed of whitespace and trailing ';'.
  size_t begin = std::min(static_cast<size_t>(std::max(raw.stmt_location, 0)), text_.size());
  size_t end = text_.size();
  if (raw.stmt_len > 0) end = std::min(begin + static_cast<size_t>(raw.stmt_len), end);
  auto is_space = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
  while (begin < end && is_space(text_[begin])) ++begin;
  while (end > begin && (is_space(text_[end - 1]) || text_[end - 1] == ';')) --end;

  auto stmt = std::make_unique<Statement>();
  stmt->text = std::string(text_.substr(begin, end - begin));
  stmt->location = static_cast<int>(begin);
  if (raw.stmt == nullptr) return InternalError("libpg_query returned a statement without a tree");
  PL_RETURN_IF_ERROR(TransformStatement(*raw.stmt, stmt.get()));
  *out = std::move(stmt);
  return Status::OK();
}

Status Transformer::TransformStatement(const Node& node, Statement* stmt) {
  switch (node.node_case) {
    case PG_QUERY__NODE__NODE_SELECT_STMT:
      if (node.select_stmt->into_clause != nullptr) break;  // SELECT INTO creates a table
      stmt->kind = StatementKind::kSelect;
      return TransformSelect(*node.select_stmt, &stmt->select);
    case PG_QUERY__NODE__NODE_INSERT_STMT:
      stmt->kind = StatementKind::kInsert;
      return TransformInsert(*node.insert_stmt, &stmt->insert);
    case PG_QUERY__NODE__NODE_UPDATE_STMT:
      stmt->kind = StatementKind::kUpdate;
      return TransformUpdate(*node.update_stmt, &stmt->update);
    case PG_QUERY__NODE__NODE_DELETE_STMT:
      stmt->kind = StatementKind::kDelete;
      return TransformDelete(*node.delete_stmt, &stmt->del);
    case PG_QUERY__NODE__NODE_CREATE_STMT:
      stmt->kind = StatementKind::kCreateTable;
      return TransformCreateTable(*node.create_stmt, &stmt->create_table);
    case PG_QUERY__NODE__NODE_CREATE_DOMAIN_STMT:
      stmt->kind = StatementKind::kCreateDomain;
      return TransformCreateDomain(*node.create_domain_stmt, &stmt->create_domain);
    case PG_QUERY__NODE__NODE_VIEW_STMT:
      stmt->kind = StatementKind::kCreateView;
      return TransformCreateView(*node.view_stmt, &stmt->create_view);
    case PG_QUERY__NODE__NODE_INDEX_STMT:
      stmt->kind = StatementKind::kCreateIndex;
      return TransformCreateIndex(*node.index_stmt, &stmt->create_index);
    case PG_QUERY__NODE__NODE_DROP_STMT:
      stmt->kind = StatementKind::kDrop;
      PL_RETURN_IF_ERROR(TransformDrop(*node.drop_stmt, &stmt->drop));
      if (stmt->drop->kind == ObjectKind::kOther) {
        // Not kUnsupported (the binder decides), but say what it was.
        stmt->unsupported_what = "DROP " + ObjectTypeName(node.drop_stmt->remove_type);
      }
      return Status::OK();
    case PG_QUERY__NODE__NODE_TRUNCATE_STMT:
      stmt->kind = StatementKind::kTruncate;
      return TransformTruncate(*node.truncate_stmt, &stmt->truncate);
    case PG_QUERY__NODE__NODE_ALTER_TABLE_STMT:
      if (node.alter_table_stmt->objtype != PG_QUERY__OBJECT_TYPE__OBJECT_TABLE) break;  // ALTER INDEX, ...
      stmt->kind = StatementKind::kAlterTable;
      return TransformAlterTable(*node.alter_table_stmt, &stmt->alter_table);
    case PG_QUERY__NODE__NODE_RENAME_STMT: {
      const PgQuery__RenameStmt& rename = *node.rename_stmt;
      const bool of_table = rename.rename_type == PG_QUERY__OBJECT_TYPE__OBJECT_TABLE ||
                            rename.rename_type == PG_QUERY__OBJECT_TYPE__OBJECT_TABCONSTRAINT ||
                            (rename.rename_type == PG_QUERY__OBJECT_TYPE__OBJECT_COLUMN &&
                             rename.relation_type == PG_QUERY__OBJECT_TYPE__OBJECT_TABLE);
      if (!of_table) break;  // ALTER INDEX / VIEW / SEQUENCE .. RENAME
      stmt->kind = StatementKind::kAlterTable;
      return TransformRename(rename, &stmt->alter_table);
    }
    case PG_QUERY__NODE__NODE_CREATE_SEQ_STMT:
      stmt->kind = StatementKind::kCreateSequence;
      return TransformCreateSequence(*node.create_seq_stmt, &stmt->create_sequence);
    case PG_QUERY__NODE__NODE_ALTER_SEQ_STMT:
      stmt->kind = StatementKind::kAlterSequence;
      return TransformAlterSequence(*node.alter_seq_stmt, &stmt->alter_sequence);
    case PG_QUERY__NODE__NODE_TRANSACTION_STMT:
      stmt->kind = StatementKind::kTransaction;
      return TransformTransaction(*node.transaction_stmt, &stmt->transaction);
    case PG_QUERY__NODE__NODE_VARIABLE_SET_STMT:
      stmt->kind = StatementKind::kSet;
      return TransformVariableSet(*node.variable_set_stmt, &stmt->set);
    case PG_QUERY__NODE__NODE_EXPLAIN_STMT:
      stmt->kind = StatementKind::kExplain;
      return TransformExplain(*node.explain_stmt, stmt);
    case PG_QUERY__NODE__NODE_VARIABLE_SHOW_STMT:
      stmt->kind = StatementKind::kShow;
      stmt->show = std::make_unique<ShowStmt>();
      stmt->show->name = Lower(Str(node.variable_show_stmt->name));
      return Status::OK();
    case PG_QUERY__NODE__NODE_VACUUM_STMT:
      stmt->kind = node.vacuum_stmt->is_vacuumcmd ? StatementKind::kVacuum : StatementKind::kAnalyze;
      return Status::OK();
    case PG_QUERY__NODE__NODE_CHECK_POINT_STMT:
      stmt->kind = StatementKind::kCheckpoint;
      return Status::OK();
    case PG_QUERY__NODE__NODE_COPY_STMT:
      stmt->kind = StatementKind::kCopy;
      return TransformCopy(*node.copy_stmt, &stmt->copy);
    case PG_QUERY__NODE__NODE_PREPARE_STMT: {
      stmt->kind = StatementKind::kPrepare;
      stmt->prepare = std::make_unique<PrepareStmt>();
      stmt->prepare->name = Str(node.prepare_stmt->name);
      for (size_t i = 0; i < node.prepare_stmt->n_argtypes; ++i) {
        const Node* t = node.prepare_stmt->argtypes[i];
        if (!Is(t, PG_QUERY__NODE__NODE_TYPE_NAME)) return Unsupported("this PREPARE parameter type", -1);
        TypeName type;
        PL_RETURN_IF_ERROR(TransformTypeName(*t->type_name, &type));
        stmt->prepare->types.push_back(std::move(type));
      }
      // The grammar guarantees a top-level AS before the statement.
      const size_t as = FindTopLevel(stmt->text, "as");
      if (as == std::string::npos) return InternalError("PREPARE without AS");
      stmt->prepare->query = std::string(Trim(std::string_view(stmt->text).substr(as + 2)));
      return Status::OK();
    }
    case PG_QUERY__NODE__NODE_EXECUTE_STMT: {
      stmt->kind = StatementKind::kExecute;
      stmt->execute = std::make_unique<ExecuteStmt>();
      stmt->execute->name = Str(node.execute_stmt->name);
      const size_t open = FindTopLevel(stmt->text, "(");
      const size_t close = stmt->text.rfind(')');
      if (node.execute_stmt->n_params > 0 && open != std::string::npos && close != std::string::npos && close > open) {
        stmt->execute->arguments = stmt->text.substr(open + 1, close - open - 1);
      }
      return Status::OK();
    }
    case PG_QUERY__NODE__NODE_DEALLOCATE_STMT:
      stmt->kind = StatementKind::kDeallocate;
      stmt->deallocate = std::make_unique<DeallocateStmt>();
      stmt->deallocate->name = Str(node.deallocate_stmt->name);
      return Status::OK();
    case PG_QUERY__NODE__NODE_LOCK_STMT: {
      const PgQuery__LockStmt& lock = *node.lock_stmt;
      stmt->kind = StatementKind::kLock;
      stmt->lock = std::make_unique<LockStmt>();
      stmt->lock->mode = lock.mode;
      stmt->lock->nowait = lock.nowait;
      for (size_t i = 0; i < lock.n_relations; ++i) {
        TableRef ref;
        PL_RETURN_IF_ERROR(TransformRangeVar(*lock.relations[i]->range_var, &ref));
        stmt->lock->tables.push_back(std::move(ref));
      }
      return Status::OK();
    }
    case PG_QUERY__NODE__NODE_LISTEN_STMT:
      stmt->kind = StatementKind::kListen;
      stmt->notify = std::make_unique<NotifyStmt>();
      stmt->notify->channel = Str(node.listen_stmt->conditionname);
      return Status::OK();
    case PG_QUERY__NODE__NODE_UNLISTEN_STMT:
      stmt->kind = StatementKind::kUnlisten;
      stmt->notify = std::make_unique<NotifyStmt>();
      stmt->notify->channel = Str(node.unlisten_stmt->conditionname);  // "" for UNLISTEN *
      return Status::OK();
    case PG_QUERY__NODE__NODE_NOTIFY_STMT:
      stmt->kind = StatementKind::kNotify;
      stmt->notify = std::make_unique<NotifyStmt>();
      stmt->notify->channel = Str(node.notify_stmt->conditionname);
      stmt->notify->payload = Str(node.notify_stmt->payload);
      return Status::OK();
    case PG_QUERY__NODE__NODE_CONSTRAINTS_SET_STMT: {
      const PgQuery__ConstraintsSetStmt& set = *node.constraints_set_stmt;
      stmt->kind = StatementKind::kSetConstraints;
      stmt->set_constraints = std::make_unique<SetConstraintsStmt>();
      stmt->set_constraints->deferred = set.deferred;
      for (size_t i = 0; i < set.n_constraints; ++i) {
        const Node* n = set.constraints[i];
        if (!Is(n, PG_QUERY__NODE__NODE_RANGE_VAR)) return Unsupported("SET CONSTRAINTS of " + NodeFieldName(n), -1);
        stmt->set_constraints->names.push_back(Str(n->range_var->relname));
      }
      return Status::OK();
    }
    case PG_QUERY__NODE__NODE_DISCARD_STMT:
      stmt->kind = StatementKind::kDiscard;
      stmt->discard = std::make_unique<DiscardStmt>();
      switch (node.discard_stmt->target) {
        case PG_QUERY__DISCARD_MODE__DISCARD_PLANS: stmt->discard->target = DiscardTarget::kPlans; break;
        case PG_QUERY__DISCARD_MODE__DISCARD_SEQUENCES: stmt->discard->target = DiscardTarget::kSequences; break;
        case PG_QUERY__DISCARD_MODE__DISCARD_TEMP: stmt->discard->target = DiscardTarget::kTemp; break;
        default: stmt->discard->target = DiscardTarget::kAll; break;
      }
      return Status::OK();
    default:
      break;
  }
  stmt->kind = StatementKind::kUnsupported;
  stmt->unsupported_what =
      Is(&node, PG_QUERY__NODE__NODE_SELECT_STMT) ? "SELECT INTO" : StatementName(node);
  return Status::OK();
}

}  // namespace paceline::sql::transform
