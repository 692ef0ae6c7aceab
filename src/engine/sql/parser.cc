// Parser: SQL text → Paceline's AST, by way of PostgreSQL 15's own grammar.
//
// Parse() hands the text to libpg_query (pg_query_parse_protobuf), unpacks
// the protobuf result with the protobuf-c runtime compiled into libpg_query,
// and walks the raw parse tree with a Translator that has one Translate*
// function per node kind. The Translator knows which PostgreSQL constructs
// Paceline supports: a statement kind it does not know becomes
// StatementKind::kUnsupported, and an unsupported construct inside a known
// statement (a subquery, UNION, a window function, ...) makes Parse return a
// 0A000 Status that names it, with its position when the tree has one.
//
// Locations in the AST are the tree's byte offsets into the whole string
// given to Parse; Status positions are 1-based character positions, like
// PostgreSQL's (libpg_query's syntax-error cursor is already in characters).
//
// This is the only file that includes libpg_query's headers.
#include "engine/sql/parser.h"

#include "common/stack_depth.h"
#include "common/utf8.h"

#include <pg_query.h>
#include <pg_query/pg_query.pb-c.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace paceline::sql {
namespace {

using Node = PgQuery__Node;

// ---------------------------------------------------------------- helpers

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
    case PG_QUERY__NODE__NODE_CREATE_SEQ_STMT: return "CREATE SEQUENCE";
    case PG_QUERY__NODE__NODE_ALTER_SEQ_STMT: return "ALTER SEQUENCE";
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

// ---------------------------------------------------------------- translator

// Walks one parse result. Holds the input text only to turn byte offsets into
// the 1-based character positions of error Statuses.
class Translator {
 public:
  explicit Translator(std::string_view text) : text_(text) {}

  Status TranslateRawStmt(const PgQuery__RawStmt& raw, std::unique_ptr<Statement>* out);

 private:
  // Errors.
  int CharPosition(int byte_offset) const;
  Status Unsupported(std::string what, int location) const;
  Status UnsupportedExpression(const Node& node) const;

  // Statements.
  Status TranslateStatement(const Node& node, Statement* stmt);
  Status TranslateSelect(const PgQuery__SelectStmt& s, std::unique_ptr<SelectStmt>* out);
  Status TranslateValues(const PgQuery__SelectStmt& s, SelectStmt* out);
  Status TranslateInsert(const PgQuery__InsertStmt& s, std::unique_ptr<InsertStmt>* out);
  Status TranslateUpdate(const PgQuery__UpdateStmt& s, std::unique_ptr<UpdateStmt>* out);
  Status TranslateDelete(const PgQuery__DeleteStmt& s, std::unique_ptr<DeleteStmt>* out);
  Status TranslateCreateTable(const PgQuery__CreateStmt& s, std::unique_ptr<CreateTableStmt>* out);
  Status TranslateCreateDomain(const PgQuery__CreateDomainStmt& s, std::unique_ptr<CreateDomainStmt>* out);
  Status TranslateCreateIndex(const PgQuery__IndexStmt& s, std::unique_ptr<CreateIndexStmt>* out);
  Status TranslateDrop(const PgQuery__DropStmt& s, std::unique_ptr<DropStmt>* out);
  Status TranslateTruncate(const PgQuery__TruncateStmt& s, std::unique_ptr<TruncateStmt>* out);
  Status TranslateAlterTable(const PgQuery__AlterTableStmt& s, std::unique_ptr<AlterTableStmt>* out);
  Status TranslateAlterTableCmd(const PgQuery__AlterTableCmd& c, AlterTableCmd* out);
  Status TranslateTransaction(const PgQuery__TransactionStmt& s, std::unique_ptr<TransactionStmt>* out);
  Status TranslateVariableSet(const PgQuery__VariableSetStmt& s, std::unique_ptr<SetStmt>* out);
  Status TranslateSetValue(const Node* node, std::string* out);
  Status TranslateCopy(const PgQuery__CopyStmt& s, std::unique_ptr<CopyStmt>* out);

  // Parts of statements.
  Status TranslateTargetList(Node* const* items, size_t n, std::vector<SelectItem>* out);
  Status TranslateFromItem(const Node& node, std::unique_ptr<FromItem>* out);
  Status TranslateRangeVar(const PgQuery__RangeVar& rv, TableRef* out);
  Status TranslateJoinExpr(const PgQuery__JoinExpr& j, std::unique_ptr<FromItem>* out);
  Status TranslateSortBy(const PgQuery__SortBy& s, OrderItem* out);
  Status TranslateLockingClause(const PgQuery__LockingClause& l, SelectStmt* out);
  Status TranslateColumnDef(const PgQuery__ColumnDef& c, ColumnDef* out);
  // Sets *keep to false for constraint attributes that need no representation
  // (NOT DEFERRABLE, INITIALLY IMMEDIATE).
  Status TranslateConstraint(const PgQuery__Constraint& c, ConstraintDef* out, bool* keep);
  Status TranslateNameList(Node* const* items, size_t n, int location, std::vector<std::string>* out);
  Status TranslateTypeName(const PgQuery__TypeName& t, TypeName* out);

  // Expressions.
  Status TranslateExpr(const Node* node, ExprPtr* out);
  Status TranslateExprList(Node* const* items, size_t n, std::vector<ExprPtr>* out);
  Status TranslateAConst(const PgQuery__AConst& c, ExprPtr* out);
  Status TranslateColumnRef(const PgQuery__ColumnRef& c, ExprPtr* out);
  Status TranslateParamRef(const PgQuery__ParamRef& p, ExprPtr* out);
  Status TranslateAExpr(const PgQuery__AExpr& a, ExprPtr* out);
  Status TranslateOperator(const PgQuery__AExpr& a, const std::string& op, ExprPtr* out);
  Status TranslateIn(const PgQuery__AExpr& a, const std::string& op, ExprPtr* out);
  Status TranslateBetween(const PgQuery__AExpr& a, ExprPtr* out);
  Status TranslateBoolExpr(const PgQuery__BoolExpr& b, ExprPtr* out);
  Status TranslateNullTest(const PgQuery__NullTest& n, ExprPtr* out);
  Status TranslateBooleanTest(const PgQuery__BooleanTest& b, ExprPtr* out);
  Status TranslateFuncCall(const PgQuery__FuncCall& f, ExprPtr* out);
  Status TranslateTypeCast(const PgQuery__TypeCast& t, ExprPtr* out);
  Status TranslateSqlValueFunction(const PgQuery__SQLValueFunction& f, ExprPtr* out);
  Status TranslateCaseExpr(const PgQuery__CaseExpr& c, ExprPtr* out);
  Status TranslateCoalesceExpr(const PgQuery__CoalesceExpr& c, ExprPtr* out);
  Status TranslateMinMaxExpr(const PgQuery__MinMaxExpr& m, ExprPtr* out);
  Status TranslateNullIfExpr(const PgQuery__NullIfExpr& n, ExprPtr* out);
  Status MakeFunction(std::string name, Node* const* args, size_t n_args, int location, ExprPtr* out);

  std::string_view text_;
};

// ---------------------------------------------------------------- errors

int Translator::CharPosition(int byte_offset) const { return Utf8CharPosition(text_, byte_offset); }

Status Translator::Unsupported(std::string what, int location) const {
  return NotSupported(std::move(what)).WithPosition(CharPosition(location));
}

Status Translator::UnsupportedExpression(const Node& node) const {
  return Unsupported(ExpressionName(node), ExpressionLocation(node));
}

// ---------------------------------------------------------------- statements

Status Translator::TranslateRawStmt(const PgQuery__RawStmt& raw, std::unique_ptr<Statement>* out) {
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
  PL_RETURN_IF_ERROR(TranslateStatement(*raw.stmt, stmt.get()));
  *out = std::move(stmt);
  return Status::OK();
}

Status Translator::TranslateStatement(const Node& node, Statement* stmt) {
  switch (node.node_case) {
    case PG_QUERY__NODE__NODE_SELECT_STMT:
      if (node.select_stmt->into_clause != nullptr) break;  // SELECT INTO creates a table
      stmt->kind = StatementKind::kSelect;
      return TranslateSelect(*node.select_stmt, &stmt->select);
    case PG_QUERY__NODE__NODE_INSERT_STMT:
      stmt->kind = StatementKind::kInsert;
      return TranslateInsert(*node.insert_stmt, &stmt->insert);
    case PG_QUERY__NODE__NODE_UPDATE_STMT:
      stmt->kind = StatementKind::kUpdate;
      return TranslateUpdate(*node.update_stmt, &stmt->update);
    case PG_QUERY__NODE__NODE_DELETE_STMT:
      stmt->kind = StatementKind::kDelete;
      return TranslateDelete(*node.delete_stmt, &stmt->del);
    case PG_QUERY__NODE__NODE_CREATE_STMT:
      stmt->kind = StatementKind::kCreateTable;
      return TranslateCreateTable(*node.create_stmt, &stmt->create_table);
    case PG_QUERY__NODE__NODE_CREATE_DOMAIN_STMT:
      stmt->kind = StatementKind::kCreateDomain;
      return TranslateCreateDomain(*node.create_domain_stmt, &stmt->create_domain);
    case PG_QUERY__NODE__NODE_INDEX_STMT:
      stmt->kind = StatementKind::kCreateIndex;
      return TranslateCreateIndex(*node.index_stmt, &stmt->create_index);
    case PG_QUERY__NODE__NODE_DROP_STMT:
      stmt->kind = StatementKind::kDrop;
      PL_RETURN_IF_ERROR(TranslateDrop(*node.drop_stmt, &stmt->drop));
      if (stmt->drop->kind == ObjectKind::kOther) {
        // Not kUnsupported (the binder decides), but say what it was.
        stmt->unsupported_what = "DROP " + ObjectTypeName(node.drop_stmt->remove_type);
      }
      return Status::OK();
    case PG_QUERY__NODE__NODE_TRUNCATE_STMT:
      stmt->kind = StatementKind::kTruncate;
      return TranslateTruncate(*node.truncate_stmt, &stmt->truncate);
    case PG_QUERY__NODE__NODE_ALTER_TABLE_STMT:
      if (node.alter_table_stmt->objtype != PG_QUERY__OBJECT_TYPE__OBJECT_TABLE) break;  // ALTER INDEX, ...
      stmt->kind = StatementKind::kAlterTable;
      return TranslateAlterTable(*node.alter_table_stmt, &stmt->alter_table);
    case PG_QUERY__NODE__NODE_TRANSACTION_STMT:
      stmt->kind = StatementKind::kTransaction;
      return TranslateTransaction(*node.transaction_stmt, &stmt->transaction);
    case PG_QUERY__NODE__NODE_VARIABLE_SET_STMT:
      stmt->kind = StatementKind::kSet;
      return TranslateVariableSet(*node.variable_set_stmt, &stmt->set);
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
      return TranslateCopy(*node.copy_stmt, &stmt->copy);
    case PG_QUERY__NODE__NODE_PREPARE_STMT: {
      stmt->kind = StatementKind::kPrepare;
      stmt->prepare = std::make_unique<PrepareStmt>();
      stmt->prepare->name = Str(node.prepare_stmt->name);
      for (size_t i = 0; i < node.prepare_stmt->n_argtypes; ++i) {
        const Node* t = node.prepare_stmt->argtypes[i];
        if (!Is(t, PG_QUERY__NODE__NODE_TYPE_NAME)) return Unsupported("this PREPARE parameter type", -1);
        TypeName type;
        PL_RETURN_IF_ERROR(TranslateTypeName(*t->type_name, &type));
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

Status Translator::TranslateSelect(const PgQuery__SelectStmt& s, std::unique_ptr<SelectStmt>* out) {
  switch (s.op) {
    case PG_QUERY__SET_OPERATION__SETOP_UNION: return Unsupported(s.all ? "UNION ALL" : "UNION", -1);
    case PG_QUERY__SET_OPERATION__SETOP_INTERSECT: return Unsupported("INTERSECT", -1);
    case PG_QUERY__SET_OPERATION__SETOP_EXCEPT: return Unsupported("EXCEPT", -1);
    default: break;
  }
  if (s.with_clause != nullptr) return Unsupported("WITH", s.with_clause->location);
  if (s.into_clause != nullptr) return Unsupported("SELECT INTO", -1);
  if (s.n_window_clause > 0) return Unsupported("WINDOW", -1);
  if (s.group_distinct) return Unsupported("GROUP BY DISTINCT", -1);
  if (s.limit_option == PG_QUERY__LIMIT_OPTION__LIMIT_OPTION_WITH_TIES) {
    return Unsupported("FETCH ... WITH TIES", -1);
  }

  auto select = std::make_unique<SelectStmt>();
  if (s.n_values_lists > 0) {
    PL_RETURN_IF_ERROR(TranslateValues(s, select.get()));
    *out = std::move(select);
    return Status::OK();
  }

  // DISTINCT is a one-element list holding an empty node; DISTINCT ON lists expressions.
  for (size_t i = 0; i < s.n_distinct_clause; ++i) {
    const Node* d = s.distinct_clause[i];
    if (d != nullptr && d->node_case != PG_QUERY__NODE__NODE__NOT_SET) {
      return Unsupported("SELECT DISTINCT ON", ExpressionLocation(*d));
    }
  }
  select->distinct = s.n_distinct_clause > 0;

  PL_RETURN_IF_ERROR(TranslateTargetList(s.target_list, s.n_target_list, &select->targets));
  for (size_t i = 0; i < s.n_from_clause; ++i) {
    std::unique_ptr<FromItem> item;
    PL_RETURN_IF_ERROR(TranslateFromItem(*s.from_clause[i], &item));
    select->from.push_back(std::move(item));
  }
  PL_RETURN_IF_ERROR(TranslateExpr(s.where_clause, &select->where));
  for (size_t i = 0; i < s.n_group_clause; ++i) {
    const Node* g = s.group_clause[i];
    if (Is(g, PG_QUERY__NODE__NODE_GROUPING_SET)) {
      return Unsupported("GROUPING SETS, ROLLUP and CUBE", g->grouping_set->location);
    }
    ExprPtr e;
    PL_RETURN_IF_ERROR(TranslateExpr(g, &e));
    select->group_by.push_back(std::move(e));
  }
  PL_RETURN_IF_ERROR(TranslateExpr(s.having_clause, &select->having));
  for (size_t i = 0; i < s.n_sort_clause; ++i) {
    const Node* n = s.sort_clause[i];
    if (!Is(n, PG_QUERY__NODE__NODE_SORT_BY)) return Unsupported("ORDER BY item " + NodeFieldName(n), -1);
    OrderItem item;
    PL_RETURN_IF_ERROR(TranslateSortBy(*n->sort_by, &item));
    select->order_by.push_back(std::move(item));
  }
  // LIMIT ALL arrives as a NULL constant: no limit.
  const Node* limit = s.limit_count;
  bool limit_all = Is(limit, PG_QUERY__NODE__NODE_A_CONST) && limit->a_const->isnull;
  if (!limit_all) PL_RETURN_IF_ERROR(TranslateExpr(limit, &select->limit));
  PL_RETURN_IF_ERROR(TranslateExpr(s.limit_offset, &select->offset));
  for (size_t i = 0; i < s.n_locking_clause; ++i) {
    const Node* n = s.locking_clause[i];
    if (!Is(n, PG_QUERY__NODE__NODE_LOCKING_CLAUSE)) return Unsupported("locking clause", -1);
    PL_RETURN_IF_ERROR(TranslateLockingClause(*n->locking_clause, select.get()));
  }
  *out = std::move(select);
  return Status::OK();
}

Status Translator::TranslateValues(const PgQuery__SelectStmt& s, SelectStmt* out) {
  if (s.n_sort_clause > 0 || s.limit_count != nullptr || s.limit_offset != nullptr ||
      s.n_locking_clause > 0) {
    return Unsupported("ORDER BY, LIMIT, OFFSET or FOR UPDATE on VALUES", -1);
  }
  for (size_t i = 0; i < s.n_values_lists; ++i) {
    const Node* row = s.values_lists[i];
    if (!Is(row, PG_QUERY__NODE__NODE_LIST)) return Unsupported("VALUES row " + NodeFieldName(row), -1);
    std::vector<ExprPtr> values;
    for (size_t j = 0; j < row->list->n_items; ++j) {
      const Node* item = row->list->items[j];
      if (Is(item, PG_QUERY__NODE__NODE_SET_TO_DEFAULT)) {  // DEFAULT: a null item
        values.emplace_back();
        continue;
      }
      ExprPtr e;
      PL_RETURN_IF_ERROR(TranslateExpr(item, &e));
      values.push_back(std::move(e));
    }
    out->values.push_back(std::move(values));
  }
  return Status::OK();
}

Status Translator::TranslateInsert(const PgQuery__InsertStmt& s, std::unique_ptr<InsertStmt>* out) {
  if (s.with_clause != nullptr) return Unsupported("WITH", s.with_clause->location);
  if (s.on_conflict_clause != nullptr) return Unsupported("ON CONFLICT", s.on_conflict_clause->location);
  if (s.override == PG_QUERY__OVERRIDING_KIND__OVERRIDING_USER_VALUE ||
      s.override == PG_QUERY__OVERRIDING_KIND__OVERRIDING_SYSTEM_VALUE) {
    return Unsupported("OVERRIDING", -1);
  }
  auto insert = std::make_unique<InsertStmt>();
  if (s.relation == nullptr) return InternalError("INSERT without a table");
  PL_RETURN_IF_ERROR(TranslateRangeVar(*s.relation, &insert->table));
  for (size_t i = 0; i < s.n_cols; ++i) {
    const Node* n = s.cols[i];
    if (!Is(n, PG_QUERY__NODE__NODE_RES_TARGET)) return Unsupported("INSERT column " + NodeFieldName(n), -1);
    const PgQuery__ResTarget& col = *n->res_target;
    if (col.n_indirection > 0) {
      return Unsupported("INSERT into a field or subscript of a column", col.location);
    }
    insert->columns.push_back(Str(col.name));
  }
  if (s.select_stmt != nullptr) {  // null: DEFAULT VALUES
    if (!Is(s.select_stmt, PG_QUERY__NODE__NODE_SELECT_STMT)) {
      return Unsupported("INSERT source " + NodeFieldName(s.select_stmt), -1);
    }
    PL_RETURN_IF_ERROR(TranslateSelect(*s.select_stmt->select_stmt, &insert->source));
  }
  PL_RETURN_IF_ERROR(TranslateTargetList(s.returning_list, s.n_returning_list, &insert->returning));
  *out = std::move(insert);
  return Status::OK();
}

Status Translator::TranslateUpdate(const PgQuery__UpdateStmt& s, std::unique_ptr<UpdateStmt>* out) {
  if (s.with_clause != nullptr) return Unsupported("WITH", s.with_clause->location);
  if (s.n_from_clause > 0) return Unsupported("UPDATE ... FROM", -1);
  auto update = std::make_unique<UpdateStmt>();
  if (s.relation == nullptr) return InternalError("UPDATE without a table");
  PL_RETURN_IF_ERROR(TranslateRangeVar(*s.relation, &update->table));
  for (size_t i = 0; i < s.n_target_list; ++i) {
    const Node* n = s.target_list[i];
    if (!Is(n, PG_QUERY__NODE__NODE_RES_TARGET)) return Unsupported("SET item " + NodeFieldName(n), -1);
    const PgQuery__ResTarget& target = *n->res_target;
    if (target.n_indirection > 0) {
      return Unsupported("assignment to a field or subscript of a column", target.location);
    }
    if (Is(target.val, PG_QUERY__NODE__NODE_MULTI_ASSIGN_REF)) {
      return Unsupported("multi-column SET (a, b) = (...)", target.location);
    }
    SetClause clause;
    clause.column = Str(target.name);
    clause.location = target.location;
    if (!Is(target.val, PG_QUERY__NODE__NODE_SET_TO_DEFAULT)) {  // DEFAULT leaves value null
      PL_RETURN_IF_ERROR(TranslateExpr(target.val, &clause.value));
    }
    update->set.push_back(std::move(clause));
  }
  PL_RETURN_IF_ERROR(TranslateExpr(s.where_clause, &update->where));
  PL_RETURN_IF_ERROR(TranslateTargetList(s.returning_list, s.n_returning_list, &update->returning));
  *out = std::move(update);
  return Status::OK();
}

Status Translator::TranslateDelete(const PgQuery__DeleteStmt& s, std::unique_ptr<DeleteStmt>* out) {
  if (s.with_clause != nullptr) return Unsupported("WITH", s.with_clause->location);
  if (s.n_using_clause > 0) return Unsupported("DELETE ... USING", -1);
  auto del = std::make_unique<DeleteStmt>();
  if (s.relation == nullptr) return InternalError("DELETE without a table");
  PL_RETURN_IF_ERROR(TranslateRangeVar(*s.relation, &del->table));
  PL_RETURN_IF_ERROR(TranslateExpr(s.where_clause, &del->where));
  PL_RETURN_IF_ERROR(TranslateTargetList(s.returning_list, s.n_returning_list, &del->returning));
  *out = std::move(del);
  return Status::OK();
}

Status Translator::TranslateCreateTable(const PgQuery__CreateStmt& s, std::unique_ptr<CreateTableStmt>* out) {
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
      PL_RETURN_IF_ERROR(TranslateColumnDef(*elt->column_def, &column));
      create->columns.push_back(std::move(column));
    } else if (Is(elt, PG_QUERY__NODE__NODE_CONSTRAINT)) {
      ConstraintDef constraint;
      bool keep = true;
      PL_RETURN_IF_ERROR(TranslateConstraint(*elt->constraint, &constraint, &keep));
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

Status Translator::TranslateColumnDef(const PgQuery__ColumnDef& c, ColumnDef* out) {
  if (c.coll_clause != nullptr) return Unsupported("COLLATE", c.coll_clause->location);
  if (c.type_name == nullptr) return Unsupported("column without a type", c.location);
  out->name = Str(c.colname);
  out->location = c.location;
  PL_RETURN_IF_ERROR(TranslateTypeName(*c.type_name, &out->type));
  for (size_t i = 0; i < c.n_constraints; ++i) {
    const Node* n = c.constraints[i];
    if (!Is(n, PG_QUERY__NODE__NODE_CONSTRAINT)) {
      return Unsupported("column option " + NodeFieldName(n), c.location);
    }
    ConstraintDef constraint;
    bool keep = true;
    PL_RETURN_IF_ERROR(TranslateConstraint(*n->constraint, &constraint, &keep));
    if (keep) out->constraints.push_back(std::move(constraint));
  }
  return Status::OK();
}

// Foreign-key action codes: 'a' NO ACTION, 'r' RESTRICT, 'c' CASCADE, 'n' SET NULL, 'd' SET DEFAULT.
std::optional<std::string> UnsupportedForeignKeyAction(const char* action) {
  if (action == nullptr || action[0] == '\0' || action[0] == 'a' || action[0] == 'r') return std::nullopt;
  switch (action[0]) {
    case 'c': return "CASCADE";
    case 'n': return "SET NULL";
    case 'd': return "SET DEFAULT";
    default: return std::string(action);
  }
}

Status Translator::TranslateConstraint(const PgQuery__Constraint& c, ConstraintDef* out, bool* keep) {
  *keep = true;
  out->name = Str(c.conname);
  out->location = c.location;
  if (c.deferrable || c.initdeferred) return Unsupported("DEFERRABLE constraints", c.location);
  switch (c.contype) {
    case PG_QUERY__CONSTR_TYPE__CONSTR_NULL:
      out->kind = ConstraintKind::kNull;
      return Status::OK();
    case PG_QUERY__CONSTR_TYPE__CONSTR_NOTNULL:
      out->kind = ConstraintKind::kNotNull;
      return Status::OK();
    case PG_QUERY__CONSTR_TYPE__CONSTR_DEFAULT:
      out->kind = ConstraintKind::kDefault;
      return TranslateExpr(c.raw_expr, &out->default_value);
    case PG_QUERY__CONSTR_TYPE__CONSTR_CHECK:
      out->kind = ConstraintKind::kCheck;  // the expression is not kept: the binder rejects CHECK
      return Status::OK();
    case PG_QUERY__CONSTR_TYPE__CONSTR_PRIMARY:
    case PG_QUERY__CONSTR_TYPE__CONSTR_UNIQUE:
      out->kind = c.contype == PG_QUERY__CONSTR_TYPE__CONSTR_PRIMARY ? ConstraintKind::kPrimaryKey
                                                                     : ConstraintKind::kUnique;
      if (c.n_including > 0) return Unsupported("INCLUDE", c.location);
      if (c.nulls_not_distinct) return Unsupported("NULLS NOT DISTINCT", c.location);
      if (c.indexname != nullptr && c.indexname[0] != '\0') return Unsupported("USING INDEX", c.location);
      return TranslateNameList(c.keys, c.n_keys, c.location, &out->columns);
    case PG_QUERY__CONSTR_TYPE__CONSTR_FOREIGN: {
      out->kind = ConstraintKind::kForeignKey;
      if (auto action = UnsupportedForeignKeyAction(c.fk_del_action)) {
        return Unsupported("ON DELETE " + *action, c.location);
      }
      if (auto action = UnsupportedForeignKeyAction(c.fk_upd_action)) {
        return Unsupported("ON UPDATE " + *action, c.location);
      }
      if (c.fk_matchtype != nullptr && c.fk_matchtype[0] == 'f') return Unsupported("MATCH FULL", c.location);
      if (c.pktable == nullptr) return InternalError("FOREIGN KEY without a referenced table");
      out->ref_table = Str(c.pktable->relname);
      PL_RETURN_IF_ERROR(TranslateNameList(c.fk_attrs, c.n_fk_attrs, c.location, &out->columns));
      return TranslateNameList(c.pk_attrs, c.n_pk_attrs, c.location, &out->ref_columns);
    }
    case PG_QUERY__CONSTR_TYPE__CONSTR_ATTR_NOT_DEFERRABLE:
    case PG_QUERY__CONSTR_TYPE__CONSTR_ATTR_IMMEDIATE:
      *keep = false;  // the default behaviour
      return Status::OK();
    case PG_QUERY__CONSTR_TYPE__CONSTR_ATTR_DEFERRABLE:
    case PG_QUERY__CONSTR_TYPE__CONSTR_ATTR_DEFERRED:
      return Unsupported("DEFERRABLE constraints", c.location);
    case PG_QUERY__CONSTR_TYPE__CONSTR_IDENTITY: return Unsupported("identity columns", c.location);
    case PG_QUERY__CONSTR_TYPE__CONSTR_GENERATED: return Unsupported("generated columns", c.location);
    case PG_QUERY__CONSTR_TYPE__CONSTR_EXCLUSION: return Unsupported("EXCLUDE constraints", c.location);
    default: return Unsupported("constraint type " + std::to_string(c.contype), c.location);
  }
}

Status Translator::TranslateNameList(Node* const* items, size_t n, int location,
                                     std::vector<std::string>* out) {
  for (size_t i = 0; i < n; ++i) {
    const char* name = StringOf(items[i]);
    if (name == nullptr) return Unsupported("name list item " + NodeFieldName(items[i]), location);
    out->push_back(name);
  }
  return Status::OK();
}

Status Translator::TranslateCreateDomain(const PgQuery__CreateDomainStmt& s,
                                         std::unique_ptr<CreateDomainStmt>* out) {
  if (s.type_name == nullptr) return InternalError("CREATE DOMAIN without a type");
  if (s.coll_clause != nullptr) return Unsupported("COLLATE", s.coll_clause->location);
  auto domain = std::make_unique<CreateDomainStmt>();
  domain->name = LastName(s.domainname, s.n_domainname);
  PL_RETURN_IF_ERROR(TranslateTypeName(*s.type_name, &domain->type));
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

Status Translator::TranslateCreateIndex(const PgQuery__IndexStmt& s, std::unique_ptr<CreateIndexStmt>* out) {
  if (s.relation == nullptr) return InternalError("CREATE INDEX without a table");
  int location = s.relation->location;
  if (s.where_clause != nullptr) return Unsupported("partial indexes (CREATE INDEX ... WHERE)", location);
  if (s.n_index_including_params > 0) return Unsupported("INCLUDE", location);
  if (s.nulls_not_distinct) return Unsupported("NULLS NOT DISTINCT", location);
  // CONCURRENTLY, WITH (...), TABLESPACE, sort order and operator classes are ignored.
  auto index = std::make_unique<CreateIndexStmt>();
  index->name = Str(s.idxname);
  PL_RETURN_IF_ERROR(TranslateRangeVar(*s.relation, &index->table));
  index->unique = s.unique;
  index->if_not_exists = s.if_not_exists;
  index->method = s.access_method != nullptr && s.access_method[0] != '\0' ? Lower(s.access_method) : "btree";
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

Status Translator::TranslateDrop(const PgQuery__DropStmt& s, std::unique_ptr<DropStmt>* out) {
  auto drop = std::make_unique<DropStmt>();
  switch (s.remove_type) {
    case PG_QUERY__OBJECT_TYPE__OBJECT_TABLE: drop->kind = ObjectKind::kTable; break;
    case PG_QUERY__OBJECT_TYPE__OBJECT_INDEX: drop->kind = ObjectKind::kIndex; break;
    case PG_QUERY__OBJECT_TYPE__OBJECT_DOMAIN: drop->kind = ObjectKind::kDomain; break;
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

Status Translator::TranslateTruncate(const PgQuery__TruncateStmt& s, std::unique_ptr<TruncateStmt>* out) {
  // RESTART IDENTITY, CONTINUE IDENTITY, CASCADE and RESTRICT are ignored.
  auto truncate = std::make_unique<TruncateStmt>();
  for (size_t i = 0; i < s.n_relations; ++i) {
    const Node* n = s.relations[i];
    if (!Is(n, PG_QUERY__NODE__NODE_RANGE_VAR)) return Unsupported("TRUNCATE of " + NodeFieldName(n), -1);
    truncate->tables.push_back(Str(n->range_var->relname));
  }
  *out = std::move(truncate);
  return Status::OK();
}

Status Translator::TranslateAlterTable(const PgQuery__AlterTableStmt& s,
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
    PL_RETURN_IF_ERROR(TranslateAlterTableCmd(*n->alter_table_cmd, &cmd));
    alter->commands.push_back(std::move(cmd));
  }
  *out = std::move(alter);
  return Status::OK();
}

Status Translator::TranslateAlterTableCmd(const PgQuery__AlterTableCmd& c, AlterTableCmd* out) {
  switch (c.subtype) {
    case PG_QUERY__ALTER_TABLE_TYPE__AT_AddConstraint:
      if (Is(c.def, PG_QUERY__NODE__NODE_CONSTRAINT)) {
        bool keep = true;
        PL_RETURN_IF_ERROR(TranslateConstraint(*c.def->constraint, &out->constraint, &keep));
        if (keep) {
          out->kind = AlterKind::kAddConstraint;
          return Status::OK();
        }
      }
      out->description = "ADD CONSTRAINT";
      return Status::OK();
    case PG_QUERY__ALTER_TABLE_TYPE__AT_AddColumn:
      if (c.missing_ok) {  // the AST cannot say "unless it exists"
        out->description = "ADD COLUMN IF NOT EXISTS";
        return Status::OK();
      }
      if (!Is(c.def, PG_QUERY__NODE__NODE_COLUMN_DEF)) {
        out->description = "ADD COLUMN";
        return Status::OK();
      }
      out->kind = AlterKind::kAddColumn;
      return TranslateColumnDef(*c.def->column_def, &out->column);
    default:
      break;
  }
  // Everything else stays kOther, described for the binder's error message.
  switch (c.subtype) {
    case PG_QUERY__ALTER_TABLE_TYPE__AT_ColumnDefault:
      out->description = c.def != nullptr ? "ALTER COLUMN SET DEFAULT" : "ALTER COLUMN DROP DEFAULT";
      break;
    case PG_QUERY__ALTER_TABLE_TYPE__AT_SetNotNull: out->description = "ALTER COLUMN SET NOT NULL"; break;
    case PG_QUERY__ALTER_TABLE_TYPE__AT_DropNotNull: out->description = "ALTER COLUMN DROP NOT NULL"; break;
    case PG_QUERY__ALTER_TABLE_TYPE__AT_AlterColumnType: out->description = "ALTER COLUMN TYPE"; break;
    case PG_QUERY__ALTER_TABLE_TYPE__AT_ChangeOwner: out->description = "OWNER TO"; break;
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

Status Translator::TranslateTransaction(const PgQuery__TransactionStmt& s,
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

Status Translator::TranslateVariableSet(const PgQuery__VariableSetStmt& s, std::unique_ptr<SetStmt>* out) {
  auto set = std::make_unique<SetStmt>();
  set->name = Lower(Str(s.name));
  set->local = s.is_local;
  switch (s.kind) {
    case PG_QUERY__VARIABLE_SET_KIND__VAR_SET_VALUE:
      for (size_t i = 0; i < s.n_args; ++i) {
        std::string value;
        PL_RETURN_IF_ERROR(TranslateSetValue(s.args[i], &value));
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
        PL_RETURN_IF_ERROR(TranslateSetValue(arg, &value));
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

Status Translator::TranslateSetValue(const Node* node, std::string* out) {
  if (Is(node, PG_QUERY__NODE__NODE_TYPE_CAST) && node->type_cast->arg != nullptr) {
    return TranslateSetValue(node->type_cast->arg, out);  // SET TIME ZONE INTERVAL '+1' HOUR
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

Status Translator::TranslateCopy(const PgQuery__CopyStmt& s, std::unique_ptr<CopyStmt>* out) {
  auto copy = std::make_unique<CopyStmt>();
  if (s.relation != nullptr) copy->table = Str(s.relation->relname);
  copy->has_query = s.query != nullptr;
  copy->has_where = s.where_clause != nullptr;
  copy->from = s.is_from;
  copy->stdio = !s.is_program && (s.filename == nullptr || s.filename[0] == '\0');
  PL_RETURN_IF_ERROR(TranslateNameList(s.attlist, s.n_attlist, -1, &copy->columns));
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
        has_value = TranslateSetValue(option.arg, &value).ok();
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

// ---------------------------------------------------------------- parts of statements

Status Translator::TranslateTargetList(Node* const* items, size_t n, std::vector<SelectItem>* out) {
  for (size_t i = 0; i < n; ++i) {
    const Node* item = items[i];
    if (!Is(item, PG_QUERY__NODE__NODE_RES_TARGET)) return Unsupported("target " + NodeFieldName(item), -1);
    const PgQuery__ResTarget& target = *item->res_target;
    SelectItem select_item;
    select_item.alias = Str(target.name);
    PL_RETURN_IF_ERROR(TranslateExpr(target.val, &select_item.expr));
    if (select_item.expr == nullptr) return Unsupported("empty target", target.location);
    out->push_back(std::move(select_item));
  }
  return Status::OK();
}

Status Translator::TranslateFromItem(const Node& node, std::unique_ptr<FromItem>* out) {
  PL_RETURN_IF_ERROR(CheckStackDepth());  // a JOIN b JOIN c ... nests to the left
  switch (node.node_case) {
    case PG_QUERY__NODE__NODE_RANGE_VAR: {
      auto item = std::make_unique<FromItem>();
      PL_RETURN_IF_ERROR(TranslateRangeVar(*node.range_var, &item->table));
      item->location = item->table.location;
      *out = std::move(item);
      return Status::OK();
    }
    case PG_QUERY__NODE__NODE_JOIN_EXPR: return TranslateJoinExpr(*node.join_expr, out);
    case PG_QUERY__NODE__NODE_RANGE_SUBSELECT:
      return Unsupported(node.range_subselect->lateral ? "LATERAL subquery in FROM" : "subquery in FROM",
                         -1);
    case PG_QUERY__NODE__NODE_RANGE_FUNCTION: return Unsupported("function in FROM", -1);
    case PG_QUERY__NODE__NODE_RANGE_TABLE_SAMPLE: return Unsupported("TABLESAMPLE", -1);
    case PG_QUERY__NODE__NODE_RANGE_TABLE_FUNC: return Unsupported("XMLTABLE", -1);
    default: return Unsupported("FROM item " + NodeFieldName(&node), -1);
  }
}

Status Translator::TranslateRangeVar(const PgQuery__RangeVar& rv, TableRef* out) {
  out->name = Str(rv.relname);  // schema and catalog qualifiers are dropped
  out->location = rv.location;
  if (rv.alias != nullptr) {
    if (rv.alias->n_colnames > 0) return Unsupported("column aliases in FROM", rv.location);
    out->alias = Str(rv.alias->aliasname);
  }
  return Status::OK();
}

Status Translator::TranslateJoinExpr(const PgQuery__JoinExpr& j, std::unique_ptr<FromItem>* out) {
  if (j.larg == nullptr || j.rarg == nullptr) return InternalError("JOIN without two sides");
  auto item = std::make_unique<FromItem>();
  item->is_join = true;
  item->natural = j.is_natural;
  PL_RETURN_IF_ERROR(TranslateFromItem(*j.larg, &item->left));
  PL_RETURN_IF_ERROR(TranslateFromItem(*j.rarg, &item->right));
  item->location = item->left->location;  // JoinExpr has no location of its own
  if (j.alias != nullptr) return Unsupported("alias on a JOIN", item->location);
  if (j.join_using_alias != nullptr) return Unsupported("JOIN ... USING (...) AS alias", item->location);
  switch (j.jointype) {
    case PG_QUERY__JOIN_TYPE__JOIN_INNER:
      // CROSS JOIN is an inner join with no condition at all.
      item->join_kind = j.quals == nullptr && j.n_using_clause == 0 && !j.is_natural ? JoinKind::kCross
                                                                                     : JoinKind::kInner;
      break;
    case PG_QUERY__JOIN_TYPE__JOIN_LEFT: item->join_kind = JoinKind::kLeft; break;
    case PG_QUERY__JOIN_TYPE__JOIN_RIGHT: item->join_kind = JoinKind::kRight; break;
    case PG_QUERY__JOIN_TYPE__JOIN_FULL: item->join_kind = JoinKind::kFull; break;
    default: return Unsupported("join type " + std::to_string(j.jointype), item->location);
  }
  PL_RETURN_IF_ERROR(
      TranslateNameList(j.using_clause, j.n_using_clause, item->location, &item->using_columns));
  PL_RETURN_IF_ERROR(TranslateExpr(j.quals, &item->on));
  *out = std::move(item);
  return Status::OK();
}

Status Translator::TranslateSortBy(const PgQuery__SortBy& s, OrderItem* out) {
  if (s.sortby_dir == PG_QUERY__SORT_BY_DIR__SORTBY_USING || s.n_use_op > 0) {
    return Unsupported("ORDER BY ... USING", s.location);
  }
  out->descending = s.sortby_dir == PG_QUERY__SORT_BY_DIR__SORTBY_DESC;
  if (s.sortby_nulls == PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_FIRST) out->nulls_first = true;
  if (s.sortby_nulls == PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_LAST) out->nulls_first = false;
  return TranslateExpr(s.node, &out->expr);
}

Status Translator::TranslateLockingClause(const PgQuery__LockingClause& l, SelectStmt* out) {
  // FOR UPDATE / NO KEY UPDATE / SHARE / KEY SHARE [OF t] all lock the rows read.
  if (l.wait_policy == PG_QUERY__LOCK_WAIT_POLICY__LockWaitSkip) return Unsupported("SKIP LOCKED", -1);
  if (l.wait_policy == PG_QUERY__LOCK_WAIT_POLICY__LockWaitError) return Unsupported("NOWAIT", -1);
  out->for_update = true;
  return Status::OK();
}

Status Translator::TranslateTypeName(const PgQuery__TypeName& t, TypeName* out) {
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

// ---------------------------------------------------------------- expressions

Status Translator::TranslateExpr(const Node* node, ExprPtr* out) {
  out->reset();
  if (node == nullptr) return Status::OK();  // an absent clause
  PL_RETURN_IF_ERROR(CheckStackDepth());
  switch (node->node_case) {
    case PG_QUERY__NODE__NODE_A_CONST: return TranslateAConst(*node->a_const, out);
    case PG_QUERY__NODE__NODE_COLUMN_REF: return TranslateColumnRef(*node->column_ref, out);
    case PG_QUERY__NODE__NODE_PARAM_REF: return TranslateParamRef(*node->param_ref, out);
    case PG_QUERY__NODE__NODE_A_EXPR: return TranslateAExpr(*node->a_expr, out);
    case PG_QUERY__NODE__NODE_BOOL_EXPR: return TranslateBoolExpr(*node->bool_expr, out);
    case PG_QUERY__NODE__NODE_NULL_TEST: return TranslateNullTest(*node->null_test, out);
    case PG_QUERY__NODE__NODE_BOOLEAN_TEST: return TranslateBooleanTest(*node->boolean_test, out);
    case PG_QUERY__NODE__NODE_FUNC_CALL: return TranslateFuncCall(*node->func_call, out);
    case PG_QUERY__NODE__NODE_TYPE_CAST: return TranslateTypeCast(*node->type_cast, out);
    case PG_QUERY__NODE__NODE_SQLVALUE_FUNCTION:
      return TranslateSqlValueFunction(*node->sqlvalue_function, out);
    case PG_QUERY__NODE__NODE_CASE_EXPR: return TranslateCaseExpr(*node->case_expr, out);
    case PG_QUERY__NODE__NODE_COALESCE_EXPR: return TranslateCoalesceExpr(*node->coalesce_expr, out);
    case PG_QUERY__NODE__NODE_MIN_MAX_EXPR: return TranslateMinMaxExpr(*node->min_max_expr, out);
    case PG_QUERY__NODE__NODE_NULL_IF_EXPR: return TranslateNullIfExpr(*node->null_if_expr, out);
    default: return UnsupportedExpression(*node);
  }
}

Status Translator::TranslateExprList(Node* const* items, size_t n, std::vector<ExprPtr>* out) {
  for (size_t i = 0; i < n; ++i) {
    ExprPtr e;
    PL_RETURN_IF_ERROR(TranslateExpr(items[i], &e));
    if (e == nullptr) return InternalError("empty expression in a list");
    out->push_back(std::move(e));
  }
  return Status::OK();
}

Status Translator::TranslateAConst(const PgQuery__AConst& c, ExprPtr* out) {
  ExprPtr e = MakeExpr(ExprKind::kLiteral, c.location);
  if (c.isnull) {
    e->literal_kind = LiteralKind::kNull;
    *out = std::move(e);
    return Status::OK();
  }
  switch (c.val_case) {
    case PG_QUERY__A__CONST__VAL_IVAL:
      e->literal_kind = LiteralKind::kInteger;
      e->int_value = c.ival->ival;
      e->text = std::to_string(c.ival->ival);
      break;
    case PG_QUERY__A__CONST__VAL_FVAL:
      // PostgreSQL leaves integers beyond int32 and all decimals as strings.
      e->text = Str(c.fval->fval);
      e->literal_kind = ParseInt64(e->text, &e->int_value) ? LiteralKind::kInteger : LiteralKind::kNumeric;
      break;
    case PG_QUERY__A__CONST__VAL_SVAL:
      e->literal_kind = LiteralKind::kString;
      e->text = Str(c.sval->sval);
      break;
    case PG_QUERY__A__CONST__VAL_BOOLVAL:
      e->literal_kind = LiteralKind::kBool;
      e->bool_value = c.boolval->boolval;
      e->text = e->bool_value ? "true" : "false";
      break;
    case PG_QUERY__A__CONST__VAL_BSVAL: return Unsupported("bit-string literals", c.location);
    default: return InternalError("constant without a value");
  }
  *out = std::move(e);
  return Status::OK();
}

Status Translator::TranslateColumnRef(const PgQuery__ColumnRef& c, ExprPtr* out) {
  if (c.n_fields == 0) return InternalError("column reference without a name");
  // [catalog.][schema.]table.column: keep the last two parts.
  size_t first = c.n_fields > 2 ? c.n_fields - 2 : 0;
  std::string qualifier;
  if (c.n_fields >= 2) {
    const char* q = StringOf(c.fields[first]);
    if (q == nullptr) return Unsupported("this column reference", c.location);
    qualifier = q;
  }
  const Node* last = c.fields[c.n_fields - 1];
  ExprPtr e;
  if (Is(last, PG_QUERY__NODE__NODE_A_STAR)) {
    e = MakeExpr(ExprKind::kStar, c.location);
  } else if (const char* column = StringOf(last)) {
    e = MakeExpr(ExprKind::kColumnRef, c.location);
    e->column = column;
  } else {
    return Unsupported("this column reference", c.location);
  }
  e->qualifier = std::move(qualifier);
  *out = std::move(e);
  return Status::OK();
}

Status Translator::TranslateParamRef(const PgQuery__ParamRef& p, ExprPtr* out) {
  ExprPtr e = MakeExpr(ExprKind::kParameter, p.location);
  e->param_index = p.number;
  *out = std::move(e);
  return Status::OK();
}

Status Translator::TranslateAExpr(const PgQuery__AExpr& a, ExprPtr* out) {
  std::string op = LastName(a.name, a.n_name);  // OPERATOR(pg_catalog.=) → "="
  switch (a.kind) {
    case PG_QUERY__A__EXPR__KIND__AEXPR_OP:
    case PG_QUERY__A__EXPR__KIND__AEXPR_LIKE:
    case PG_QUERY__A__EXPR__KIND__AEXPR_ILIKE: return TranslateOperator(a, op, out);
    case PG_QUERY__A__EXPR__KIND__AEXPR_IN: return TranslateIn(a, op, out);
    case PG_QUERY__A__EXPR__KIND__AEXPR_BETWEEN:
    case PG_QUERY__A__EXPR__KIND__AEXPR_NOT_BETWEEN: return TranslateBetween(a, out);
    case PG_QUERY__A__EXPR__KIND__AEXPR_DISTINCT:
    case PG_QUERY__A__EXPR__KIND__AEXPR_NOT_DISTINCT: {
      ExprPtr left, right;
      PL_RETURN_IF_ERROR(TranslateExpr(a.lexpr, &left));
      PL_RETURN_IF_ERROR(TranslateExpr(a.rexpr, &right));
      BinaryOp bop = a.kind == PG_QUERY__A__EXPR__KIND__AEXPR_DISTINCT ? BinaryOp::kIsDistinctFrom
                                                                       : BinaryOp::kIsNotDistinctFrom;
      *out = MakeBinary(bop, std::move(left), std::move(right), a.location);
      return Status::OK();
    }
    case PG_QUERY__A__EXPR__KIND__AEXPR_NULLIF: {
      Node* args[] = {a.lexpr, a.rexpr};
      return MakeFunction("nullif", args, 2, a.location, out);
    }
    case PG_QUERY__A__EXPR__KIND__AEXPR_OP_ANY: return Unsupported(op + " ANY (array)", a.location);
    case PG_QUERY__A__EXPR__KIND__AEXPR_OP_ALL: return Unsupported(op + " ALL (array)", a.location);
    case PG_QUERY__A__EXPR__KIND__AEXPR_SIMILAR: return Unsupported("SIMILAR TO", a.location);
    case PG_QUERY__A__EXPR__KIND__AEXPR_BETWEEN_SYM:
    case PG_QUERY__A__EXPR__KIND__AEXPR_NOT_BETWEEN_SYM: return Unsupported("BETWEEN SYMMETRIC", a.location);
    default: return Unsupported("operator expression", a.location);
  }
}

Status Translator::TranslateOperator(const PgQuery__AExpr& a, const std::string& op, ExprPtr* out) {
  if (a.lexpr == nullptr) {  // prefix operator
    ExprPtr e = MakeExpr(ExprKind::kUnary, a.location);
    if (op == "-") {
      e->unary_op = UnaryOp::kMinus;
    } else if (op == "+") {
      e->unary_op = UnaryOp::kPlus;
    } else {
      return Unsupported("prefix operator " + op, a.location);
    }
    PL_RETURN_IF_ERROR(TranslateExpr(a.rexpr, &e->left));
    *out = std::move(e);
    return Status::OK();
  }
  std::optional<BinaryOp> bop = BinaryOpFromName(op);
  if (!bop.has_value()) return Unsupported("operator " + op, a.location);
  // x LIKE y ESCAPE z arrives as x ~~ like_escape(y, z).
  if (Is(a.rexpr, PG_QUERY__NODE__NODE_FUNC_CALL) &&
      LastName(a.rexpr->func_call->funcname, a.rexpr->func_call->n_funcname) == "like_escape") {
    return Unsupported("LIKE ... ESCAPE", a.location);
  }
  ExprPtr left, right;
  PL_RETURN_IF_ERROR(TranslateExpr(a.lexpr, &left));
  PL_RETURN_IF_ERROR(TranslateExpr(a.rexpr, &right));
  if (right == nullptr) return Unsupported("postfix operator " + op, a.location);
  *out = MakeBinary(*bop, std::move(left), std::move(right), a.location);
  return Status::OK();
}

Status Translator::TranslateIn(const PgQuery__AExpr& a, const std::string& op, ExprPtr* out) {
  if (!Is(a.rexpr, PG_QUERY__NODE__NODE_LIST)) return Unsupported("IN without a list", a.location);
  ExprPtr e = MakeExpr(ExprKind::kIn, a.location);
  e->negated = op == "<>";  // the grammar names NOT IN "<>" and IN "="
  PL_RETURN_IF_ERROR(TranslateExpr(a.lexpr, &e->left));
  PL_RETURN_IF_ERROR(TranslateExprList(a.rexpr->list->items, a.rexpr->list->n_items, &e->list));
  *out = std::move(e);
  return Status::OK();
}

Status Translator::TranslateBetween(const PgQuery__AExpr& a, ExprPtr* out) {
  if (!Is(a.rexpr, PG_QUERY__NODE__NODE_LIST) || a.rexpr->list->n_items != 2) {
    return InternalError("BETWEEN without two bounds");
  }
  ExprPtr e = MakeExpr(ExprKind::kBetween, a.location);
  e->negated = a.kind == PG_QUERY__A__EXPR__KIND__AEXPR_NOT_BETWEEN;
  PL_RETURN_IF_ERROR(TranslateExpr(a.lexpr, &e->left));
  PL_RETURN_IF_ERROR(TranslateExprList(a.rexpr->list->items, 2, &e->list));
  *out = std::move(e);
  return Status::OK();
}

Status Translator::TranslateBoolExpr(const PgQuery__BoolExpr& b, ExprPtr* out) {
  std::vector<ExprPtr> args;
  PL_RETURN_IF_ERROR(TranslateExprList(b.args, b.n_args, &args));
  if (args.empty()) return InternalError("boolean expression without operands");
  if (b.boolop == PG_QUERY__BOOL_EXPR_TYPE__NOT_EXPR) {
    ExprPtr e = MakeExpr(ExprKind::kUnary, b.location);
    e->unary_op = UnaryOp::kNot;
    e->left = std::move(args[0]);
    *out = std::move(e);
    return Status::OK();
  }
  // a AND b AND c ... arrives as one n-ary node (PostgreSQL flattens chains of
  // any length): fold it into a balanced tree, (a AND b) AND (c AND d), whose
  // depth grows with the log of the length. Evaluated left to right, it
  // stops at the same operand as the flat chain.
  BinaryOp op = b.boolop == PG_QUERY__BOOL_EXPR_TYPE__OR_EXPR ? BinaryOp::kOr : BinaryOp::kAnd;
  while (args.size() > 1) {
    std::vector<ExprPtr> pairs;
    for (size_t i = 0; i + 1 < args.size(); i += 2) {
      pairs.push_back(MakeBinary(op, std::move(args[i]), std::move(args[i + 1]), b.location));
    }
    if (args.size() % 2 == 1) pairs.push_back(std::move(args.back()));
    args = std::move(pairs);
  }
  *out = std::move(args[0]);
  return Status::OK();
}

Status Translator::TranslateNullTest(const PgQuery__NullTest& n, ExprPtr* out) {
  ExprPtr e = MakeExpr(ExprKind::kIsNull, n.location);
  e->negated = n.nulltesttype == PG_QUERY__NULL_TEST_TYPE__IS_NOT_NULL;
  PL_RETURN_IF_ERROR(TranslateExpr(n.arg, &e->left));
  *out = std::move(e);
  return Status::OK();
}

Status Translator::TranslateBooleanTest(const PgQuery__BooleanTest& b, ExprPtr* out) {
  ExprPtr e = MakeExpr(ExprKind::kIsBool, b.location);
  switch (b.booltesttype) {
    case PG_QUERY__BOOL_TEST_TYPE__IS_TRUE: e->bool_test = BoolTest::kTrue; break;
    case PG_QUERY__BOOL_TEST_TYPE__IS_NOT_TRUE: e->bool_test = BoolTest::kNotTrue; break;
    case PG_QUERY__BOOL_TEST_TYPE__IS_FALSE: e->bool_test = BoolTest::kFalse; break;
    case PG_QUERY__BOOL_TEST_TYPE__IS_NOT_FALSE: e->bool_test = BoolTest::kNotFalse; break;
    case PG_QUERY__BOOL_TEST_TYPE__IS_UNKNOWN: e->bool_test = BoolTest::kUnknown; break;
    case PG_QUERY__BOOL_TEST_TYPE__IS_NOT_UNKNOWN: e->bool_test = BoolTest::kNotUnknown; break;
    default: return InternalError("unknown boolean test");
  }
  PL_RETURN_IF_ERROR(TranslateExpr(b.arg, &e->left));
  *out = std::move(e);
  return Status::OK();
}

Status Translator::TranslateFuncCall(const PgQuery__FuncCall& f, ExprPtr* out) {
  std::string name = Lower(LastName(f.funcname, f.n_funcname));  // pg_catalog.now → now
  if (f.over != nullptr) return Unsupported("window functions (" + name + " OVER)", f.location);
  if (f.agg_filter != nullptr) return Unsupported("FILTER on aggregates", f.location);
  if (f.agg_within_group) return Unsupported("WITHIN GROUP", f.location);
  if (f.n_agg_order > 0) return Unsupported("ORDER BY inside an aggregate", f.location);
  if (f.func_variadic) return Unsupported("VARIADIC", f.location);
  PL_RETURN_IF_ERROR(MakeFunction(std::move(name), f.args, f.n_args, f.location, out));
  (*out)->distinct = f.agg_distinct;
  (*out)->star = f.agg_star;
  return Status::OK();
}

Status Translator::MakeFunction(std::string name, Node* const* args, size_t n_args, int location,
                                ExprPtr* out) {
  ExprPtr e = MakeExpr(ExprKind::kFunction, location);
  e->function_name = std::move(name);
  PL_RETURN_IF_ERROR(TranslateExprList(args, n_args, &e->list));
  *out = std::move(e);
  return Status::OK();
}

Status Translator::TranslateTypeCast(const PgQuery__TypeCast& t, ExprPtr* out) {
  if (t.type_name == nullptr) return InternalError("cast without a type");
  // `int '5'` has no location of its own; point at the type name.
  ExprPtr e = MakeExpr(ExprKind::kCast, t.location >= 0 ? t.location : t.type_name->location);
  PL_RETURN_IF_ERROR(TranslateExpr(t.arg, &e->left));
  PL_RETURN_IF_ERROR(TranslateTypeName(*t.type_name, &e->cast_type));
  *out = std::move(e);
  return Status::OK();
}

Status Translator::TranslateSqlValueFunction(const PgQuery__SQLValueFunction& f, ExprPtr* out) {
  std::string name;
  switch (f.op) {
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_TIMESTAMP: name = "now"; break;
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_DATE: name = "current_date"; break;
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_LOCALTIMESTAMP: name = "localtimestamp"; break;
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_TIME: name = "current_time"; break;
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_LOCALTIME: name = "localtime"; break;
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_ROLE: name = "current_role"; break;
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_USER:
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_USER: name = "current_user"; break;
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_SESSION_USER: name = "session_user"; break;
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_CATALOG: name = "current_database"; break;
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_SCHEMA: name = "current_schema"; break;
    default: return Unsupported("CURRENT_TIMESTAMP, CURRENT_TIME etc. with a precision", f.location);
  }
  return MakeFunction(std::move(name), nullptr, 0, f.location, out);
}

Status Translator::TranslateCaseExpr(const PgQuery__CaseExpr& c, ExprPtr* out) {
  ExprPtr e = MakeExpr(ExprKind::kCase, c.location);
  PL_RETURN_IF_ERROR(TranslateExpr(c.arg, &e->left));  // CASE x WHEN ...; null for CASE WHEN ...
  for (size_t i = 0; i < c.n_args; ++i) {
    const Node* n = c.args[i];
    if (!Is(n, PG_QUERY__NODE__NODE_CASE_WHEN)) return InternalError("CASE arm is not a WHEN");
    CaseWhen when;
    PL_RETURN_IF_ERROR(TranslateExpr(n->case_when->expr, &when.condition));
    PL_RETURN_IF_ERROR(TranslateExpr(n->case_when->result, &when.result));
    e->whens.push_back(std::move(when));
  }
  PL_RETURN_IF_ERROR(TranslateExpr(c.defresult, &e->else_result));
  *out = std::move(e);
  return Status::OK();
}

Status Translator::TranslateCoalesceExpr(const PgQuery__CoalesceExpr& c, ExprPtr* out) {
  return MakeFunction("coalesce", c.args, c.n_args, c.location, out);
}

Status Translator::TranslateMinMaxExpr(const PgQuery__MinMaxExpr& m, ExprPtr* out) {
  return MakeFunction(m.op == PG_QUERY__MIN_MAX_OP__IS_LEAST ? "least" : "greatest", m.args, m.n_args,
                      m.location, out);
}

Status Translator::TranslateNullIfExpr(const PgQuery__NullIfExpr& n, ExprPtr* out) {
  return MakeFunction("nullif", n.args, n.n_args, n.location, out);
}

// Owns libpg_query's result and its unpacked tree; frees both.
class ParseResultHolder {
 public:
  explicit ParseResultHolder(const char* query) : result_(pg_query_parse_protobuf(query)) {}
  ~ParseResultHolder() {
    if (tree_ != nullptr) pg_query__parse_result__free_unpacked(tree_, nullptr);
    pg_query_free_protobuf_parse_result(result_);
  }
  ParseResultHolder(const ParseResultHolder&) = delete;
  ParseResultHolder& operator=(const ParseResultHolder&) = delete;

  const PgQueryError* error() const { return result_.error; }
  const PgQuery__ParseResult* Unpack() {
    tree_ = pg_query__parse_result__unpack(nullptr, result_.parse_tree.len,
                                           reinterpret_cast<const uint8_t*>(result_.parse_tree.data));
    return tree_;
  }

 private:
  PgQueryProtobufParseResult result_;
  PgQuery__ParseResult* tree_ = nullptr;
};

// Stack bytes that libpg_query's tree writer and protobuf-c's reader use per
// level of the parse tree (measured: ~1.9 KB per level in the reader, which
// overflows an 8 MB stack at ~4,500 levels). Neither has a limit of its own.
constexpr size_t kParserStackPerLevel = 2048;
// Parse-tree levels that no token accounts for: per parenthesis (the List of
// an IN, a subquery's SubLink and SelectStmt, AND under OR), per statement.
constexpr size_t kLevelsPerParenthesis = 4;
constexpr size_t kLevelsPerStatement = 8;

// An upper bound on the depth of the parse tree of `query`, from its tokens:
// every node on a path from the root has a token of its own (an operator, a
// keyword, a function name) except a few per parenthesis. So the bound is the
// largest count of tokens in a run between separators — commas, semicolons,
// and the AND/OR that the grammar flattens into one list (not BETWEEN's AND)
// — plus the bound of the parenthesized run it contains. Parentheses around
// a lone parenthesized run add nothing, as they add no node; brackets always
// do (ARRAY[[[1]]] is an array expression per level). 0 when the text
// does not scan (the parser then reports why).
size_t NestingBound(const std::string& query) {
  PgQueryScanResult scan = pg_query_scan(query.c_str());
  PgQuery__ScanResult* tokens =
      scan.error == nullptr
          ? pg_query__scan_result__unpack(nullptr, scan.pbuf.len, reinterpret_cast<const uint8_t*>(scan.pbuf.data))
          : nullptr;
  struct Run {
    size_t tokens = 0;       // of the current run
    size_t inner = 0;        // largest bound of a parenthesized run in it
    size_t best = 0;         // of the finished runs
    bool separated = false;  // a separator was seen (a list, not redundant parentheses)
    bool between = false;    // the next AND is BETWEEN's
    bool bracket = false;    // an array constructor's [ ]: a node even around one element
    size_t Bound() const {
      size_t own = std::max(best, tokens + inner);
      return own + (tokens > 0 || separated || bracket ? kLevelsPerParenthesis : 0);
    }
  };
  std::vector<Run> runs(1);
  for (size_t i = 0; tokens != nullptr && i < tokens->n_tokens; ++i) {
    Run& run = runs.back();
    switch (tokens->tokens[i]->token) {
      case PG_QUERY__TOKEN__ASCII_40:  // (
        runs.emplace_back();
        break;
      case PG_QUERY__TOKEN__ASCII_91:  // [
        runs.emplace_back();
        runs.back().bracket = true;
        break;
      case PG_QUERY__TOKEN__ASCII_41:  // )
      case PG_QUERY__TOKEN__ASCII_93:  // ]
        if (runs.size() > 1) {
          size_t bound = run.Bound();
          runs.pop_back();
          runs.back().inner = std::max(runs.back().inner, bound);
        }
        break;
      case PG_QUERY__TOKEN__AND:
        if (run.between) {
          run.between = false;
          ++run.tokens;
          break;
        }
        [[fallthrough]];
      case PG_QUERY__TOKEN__OR:
      case PG_QUERY__TOKEN__ASCII_44:  // ,
      case PG_QUERY__TOKEN__ASCII_59:  // ;
        run.best = std::max(run.best, run.tokens + run.inner);
        run.tokens = run.inner = 0;
        run.separated = true;
        break;
      case PG_QUERY__TOKEN__BETWEEN:
        run.between = true;
        ++run.tokens;
        break;
      default:
        ++run.tokens;
        break;
    }
  }
  while (runs.size() > 1) {  // unbalanced: the parser will complain
    size_t bound = runs.back().Bound();
    runs.pop_back();
    runs.back().inner = std::max(runs.back().inner, bound);
  }
  size_t bound = tokens != nullptr ? runs.back().Bound() + kLevelsPerStatement : 0;
  if (tokens != nullptr) pg_query__scan_result__free_unpacked(tokens, nullptr);
  pg_query_free_scan_result(scan);
  return bound;
}

// 54001 when the parse tree of `query` may be too deep for libpg_query to
// write and protobuf-c to read on what is left of this thread's stack.
Status CheckNestingDepth(const std::string& query) {
  const size_t levels = StackDepthBudget() / kParserStackPerLevel;
  // Each token is at least one byte: short text needs no scan.
  if (query.size() * (1 + kLevelsPerParenthesis) + kLevelsPerStatement <= levels) return Status::OK();
  return NestingBound(query) <= levels ? Status::OK() : StackDepthExceeded();
}

}  // namespace

Status Parse(std::string_view text, std::vector<std::unique_ptr<Statement>>* statements) {
  statements->clear();
  std::string query(text);  // libpg_query wants a NUL-terminated string
  if (size_t nul = text.find('\0'); nul != std::string_view::npos) {
    return SyntaxError("query text contains a NUL byte", static_cast<int>(nul) + 1);
  }
  PL_RETURN_IF_ERROR(CheckNestingDepth(query));
  ParseResultHolder result(query.c_str());
  if (const PgQueryError* error = result.error()) {
    return SyntaxError(Str(error->message), error->cursorpos);
  }
  const PgQuery__ParseResult* tree = result.Unpack();
  if (tree == nullptr) return InternalError("cannot unpack libpg_query's parse tree");

  Translator translator(text);
  auto source = std::make_shared<const std::string>(std::move(query));
  std::vector<std::unique_ptr<Statement>> parsed;
  for (size_t i = 0; i < tree->n_stmts; ++i) {
    if (tree->stmts[i] == nullptr) continue;
    std::unique_ptr<Statement> stmt;
    PL_RETURN_IF_ERROR(translator.TranslateRawStmt(*tree->stmts[i], &stmt));
    stmt->source = source;
    parsed.push_back(std::move(stmt));
  }
  *statements = std::move(parsed);
  return Status::OK();
}

std::vector<std::string> SplitStatements(std::string_view text) {
  // Cuts at the ';' tokens of PostgreSQL's lexer (pg_query_split_with_scanner
  // drops statements that begin with an unknown word, so it cannot be used
  // on text that may hold a typo).
  std::vector<std::string> out;
  std::string input(text);
  auto add = [&](size_t from, size_t to) {
    std::string piece = input.substr(from, to - from);
    size_t first = piece.find_first_not_of(" \t\r\n");
    if (first != std::string::npos) out.push_back(piece.substr(first));
  };
  PgQueryScanResult scan = pg_query_scan(input.c_str());
  PgQuery__ScanResult* tokens =
      scan.error == nullptr
          ? pg_query__scan_result__unpack(nullptr, scan.pbuf.len, reinterpret_cast<const uint8_t*>(scan.pbuf.data))
          : nullptr;
  if (tokens == nullptr) {
    // An unterminated quote or comment: the rest is one (bad) statement,
    // which Parse will then report precisely.
    add(0, input.size());
  } else {
    size_t start = 0;
    for (size_t i = 0; i < tokens->n_tokens; ++i) {
      if (tokens->tokens[i]->token != PG_QUERY__TOKEN__ASCII_59) continue;
      size_t semicolon = static_cast<size_t>(tokens->tokens[i]->start);
      add(start, semicolon);
      start = semicolon + 1;
    }
    // What follows the last ';' counts only if it holds a token (not just a comment).
    if (tokens->n_tokens > 0 && static_cast<size_t>(tokens->tokens[tokens->n_tokens - 1]->start) >= start) {
      add(start, input.size());
    }
    pg_query__scan_result__free_unpacked(tokens, nullptr);
  }
  pg_query_free_scan_result(scan);
  return out;
}

}  // namespace paceline::sql
