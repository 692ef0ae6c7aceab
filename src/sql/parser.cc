// Parser: SQL text → Paceline's AST, by way of PostgreSQL 15's own grammar.
//
// Parse() hands the text to libpg_query (pg_query_parse_protobuf), unpacks
// the protobuf result with the protobuf-c runtime compiled into libpg_query,
// and walks the raw parse tree with a Transformer (transformer.h: one
// Transform* method per node kind, one file per statement family), which
// knows which PostgreSQL constructs Paceline supports: a statement kind it
// does not know becomes StatementKind::kUnsupported, and an unsupported
// construct inside a known statement (a window function, ...) makes Parse
// return a 0A000 Status that names it, with its position when the tree has one.
//
// Locations in the AST are the tree's byte offsets into the whole string
// given to Parse; Status positions are 1-based character positions, like
// PostgreSQL's (libpg_query's syntax-error cursor is already in characters).
//
// Only this file and the Transformer's files include libpg_query's headers.
#include "sql/parser.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "common/stack_depth.h"
#include "sql/transformer.h"

namespace paceline::sql {
namespace {

using transform::Str;
using transform::Transformer;

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

  Transformer transformer(text);
  auto source = std::make_shared<const std::string>(std::move(query));
  std::vector<std::unique_ptr<Statement>> parsed;
  for (size_t i = 0; i < tree->n_stmts; ++i) {
    if (tree->stmts[i] == nullptr) continue;
    std::unique_ptr<Statement> stmt;
    PL_RETURN_IF_ERROR(transformer.TransformRawStmt(*tree->stmts[i], &stmt));
    stmt->source = source;
    if (stmt->explain) stmt->explain->query->source = source;  // its locations are the EXPLAIN's
    parsed.push_back(std::move(stmt));
  }
  *statements = std::move(parsed);
  return Status::OK();
}

Status ParseExpression(std::string_view text, ExprPtr* expression) {
  std::vector<std::unique_ptr<Statement>> statements;
  PL_RETURN_IF_ERROR(Parse("SELECT " + std::string(text), &statements));
  const SelectStmt* select = statements.size() == 1 ? statements[0]->select.get() : nullptr;
  if (select == nullptr || select->set_op != SetOperation::kNone || select->targets.size() != 1 ||
      !select->from.empty()) {
    return SyntaxError("not one expression: " + std::string(text), 0);
  }
  *expression = std::move(statements[0]->select->targets[0].expr);
  return Status::OK();
}

bool IsNonUnreservedKeyword(std::string_view word) {
  const std::string input(word);
  PgQueryScanResult scan = pg_query_scan(input.c_str());
  PgQuery__ScanResult* tokens =
      scan.error == nullptr
          ? pg_query__scan_result__unpack(nullptr, scan.pbuf.len, reinterpret_cast<const uint8_t*>(scan.pbuf.data))
          : nullptr;
  bool keyword = false;
  if (tokens != nullptr) {
    keyword = tokens->n_tokens == 1 && tokens->tokens[0]->end == static_cast<int32_t>(input.size()) &&
              tokens->tokens[0]->keyword_kind != PG_QUERY__KEYWORD_KIND__NO_KEYWORD &&
              tokens->tokens[0]->keyword_kind != PG_QUERY__KEYWORD_KIND__UNRESERVED_KEYWORD;
    pg_query__scan_result__free_unpacked(tokens, nullptr);
  }
  pg_query_free_scan_result(scan);
  return keyword;
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
