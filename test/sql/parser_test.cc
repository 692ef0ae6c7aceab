// Tests of the parser: SQL text → AST (src/sql/parser.h).
//
// Expressions are checked through Show(), a compact prefix rendering of the
// tree ("(AND (= w_id $1) (= d_id $2))"), so that a test states the whole
// shape of a tree in one line.
#include "sql/parser.h"

#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

namespace paceline::sql {
namespace {

// ---------------------------------------------------------------- helpers

std::string BinaryOpName(BinaryOp op) {
  switch (op) {
    case BinaryOp::kAdd: return "+";
    case BinaryOp::kSub: return "-";
    case BinaryOp::kMul: return "*";
    case BinaryOp::kDiv: return "/";
    case BinaryOp::kMod: return "%";
    case BinaryOp::kBitAnd: return "&";
    case BinaryOp::kBitOr: return "|";
    case BinaryOp::kBitXor: return "#";
    case BinaryOp::kShiftLeft: return "<<";
    case BinaryOp::kShiftRight: return ">>";
    case BinaryOp::kEq: return "=";
    case BinaryOp::kNe: return "<>";
    case BinaryOp::kLt: return "<";
    case BinaryOp::kLe: return "<=";
    case BinaryOp::kGt: return ">";
    case BinaryOp::kGe: return ">=";
    case BinaryOp::kAnd: return "AND";
    case BinaryOp::kOr: return "OR";
    case BinaryOp::kConcat: return "||";
    case BinaryOp::kLike: return "LIKE";
    case BinaryOp::kNotLike: return "NOT LIKE";
    case BinaryOp::kILike: return "ILIKE";
    case BinaryOp::kNotILike: return "NOT ILIKE";
    case BinaryOp::kIsDistinctFrom: return "IS DISTINCT FROM";
    case BinaryOp::kIsNotDistinctFrom: return "IS NOT DISTINCT FROM";
    case BinaryOp::kJsonGet: return "->";
    case BinaryOp::kJsonGetText: return "->>";
    case BinaryOp::kJsonPath: return "#>";
    case BinaryOp::kJsonPathText: return "#>>";
    case BinaryOp::kContains: return "@>";
    case BinaryOp::kContainedBy: return "<@";
    case BinaryOp::kJsonExists: return "?";
    case BinaryOp::kJsonExistsAny: return "?|";
    case BinaryOp::kJsonExistsAll: return "?&";
    case BinaryOp::kJsonDeletePath: return "#-";
  }
  return "?";
}

std::string Show(const TypeName& type) {
  std::string s = type.name;
  if (!type.modifiers.empty()) {
    s += "(";
    for (size_t i = 0; i < type.modifiers.size(); ++i) s += (i ? "," : "") + std::to_string(type.modifiers[i]);
    s += ")";
  }
  if (type.is_array) s += "[]";
  return s;
}

std::string Show(const Expr* e);

std::string ShowList(const std::vector<ExprPtr>& list) {
  std::string s;
  for (size_t i = 0; i < list.size(); ++i) s += (i ? ", " : "") + Show(list[i].get());
  return s;
}

// Integers "5", numerics "#1.5", strings "'x'", parameters "$1", columns
// "t.c", operators in prefix form "(op left right)".
std::string Show(const Expr* e) {
  if (e == nullptr) return "<null>";
  switch (e->kind) {
    case ExprKind::kLiteral:
      switch (e->literal_kind) {
        case LiteralKind::kInteger: return std::to_string(e->int_value);
        case LiteralKind::kNumeric: return "#" + e->text;
        case LiteralKind::kString: return "'" + e->text + "'";
        case LiteralKind::kBool: return e->bool_value ? "TRUE" : "FALSE";
        case LiteralKind::kNull: return "NULL";
      }
      return "?";
    case ExprKind::kParameter: return "$" + std::to_string(e->param_index);
    case ExprKind::kColumnRef: return e->qualifier.empty() ? e->column : e->qualifier + "." + e->column;
    case ExprKind::kStar: return e->qualifier.empty() ? "*" : e->qualifier + ".*";
    case ExprKind::kUnary: {
      const char* op = e->unary_op == UnaryOp::kMinus ? "-" : e->unary_op == UnaryOp::kPlus ? "+" : "NOT";
      return std::string("(") + op + " " + Show(e->left.get()) + ")";
    }
    case ExprKind::kBinary:
      return "(" + BinaryOpName(e->binary_op) + " " + Show(e->left.get()) + " " + Show(e->right.get()) + ")";
    case ExprKind::kFunction:
      return e->function_name + "(" + (e->distinct ? "DISTINCT " : "") + (e->star ? "*" : "") +
             ShowList(e->list) + ")";
    case ExprKind::kCast: return "(CAST " + Show(e->left.get()) + " AS " + Show(e->cast_type) + ")";
    case ExprKind::kIsNull: return "(" + Show(e->left.get()) + (e->negated ? " IS NOT NULL)" : " IS NULL)");
    case ExprKind::kIn:
      return "(" + Show(e->left.get()) + (e->negated ? " NOT IN (" : " IN (") + ShowList(e->list) + "))";
    case ExprKind::kBetween:
      return "(" + Show(e->left.get()) + (e->negated ? " NOT BETWEEN " : " BETWEEN ") +
             Show(e->list.at(0).get()) + " AND " + Show(e->list.at(1).get()) + ")";
    case ExprKind::kCase: {
      std::string s = "(CASE";
      if (e->left) s += " " + Show(e->left.get());
      for (const CaseWhen& w : e->whens) {
        s += " WHEN " + Show(w.condition.get()) + " THEN " + Show(w.result.get());
      }
      if (e->else_result) s += " ELSE " + Show(e->else_result.get());
      return s + ")";
    }
    case ExprKind::kIsBool: {
      static const char* kTests[] = {"TRUE", "NOT TRUE", "FALSE", "NOT FALSE", "UNKNOWN", "NOT UNKNOWN"};
      return "(" + Show(e->left.get()) + " IS " + kTests[static_cast<int>(e->bool_test)] + ")";
    }
    case ExprKind::kSubquery: {
      // The subquery shows as its select list only: "(EXISTS a, b)", "(x = ANY c)".
      std::string body;
      for (size_t i = 0; i < e->subquery->targets.size(); ++i) {
        body += (i ? ", " : "") + Show(e->subquery->targets[i].expr.get());
      }
      switch (e->subquery_kind) {
        case SubqueryKind::kScalar: return "(SUBQUERY " + body + ")";
        case SubqueryKind::kExists: return "(EXISTS " + body + ")";
        case SubqueryKind::kAny: return "(" + Show(e->left.get()) + " " + BinaryOpName(e->binary_op) + " ANY " + body + ")";
        case SubqueryKind::kAll: return "(" + Show(e->left.get()) + " " + BinaryOpName(e->binary_op) + " ALL " + body + ")";
        case SubqueryKind::kArray: return "(ARRAY " + body + ")";
      }
      return "?";
    }
    case ExprKind::kArray: return "ARRAY[" + ShowList(e->list) + "]";
    case ExprKind::kSubscript: return Show(e->left.get()) + "[" + Show(e->right.get()) + "]";
    case ExprKind::kArrayCompare:
      return "(" + Show(e->left.get()) + " " + BinaryOpName(e->binary_op) +
             (e->subquery_kind == SubqueryKind::kAll ? " ALL " : " ANY ") + Show(e->right.get()) + ")";
    case ExprKind::kRow: return "ROW(" + ShowList(e->list) + ")";
    case ExprKind::kFieldSelect: return "(" + Show(e->left.get()) + ")." + e->column;
  }
  return "?";
}

std::string ShowFrom(const FromItem& item) {
  if (!item.is_join) return item.table.name + (item.table.alias.empty() ? "" : " " + item.table.alias);
  static const char* kKinds[] = {"JOIN", "LEFT JOIN", "RIGHT JOIN", "FULL JOIN", "CROSS JOIN"};
  std::string s = "(" + ShowFrom(*item.left) + (item.natural ? " NATURAL " : " ") +
                  kKinds[static_cast<int>(item.join_kind)] + " " + ShowFrom(*item.right);
  if (item.on) s += " ON " + Show(item.on.get());
  if (!item.using_columns.empty()) {
    s += " USING (";
    for (size_t i = 0; i < item.using_columns.size(); ++i) s += (i ? ", " : "") + item.using_columns[i];
    s += ")";
  }
  return s + ")";
}

std::vector<std::unique_ptr<Statement>> ParseAll(std::string_view sql) {
  std::vector<std::unique_ptr<Statement>> statements;
  Status status = Parse(sql, &statements);
  EXPECT_TRUE(status.ok()) << sql << "\n" << status.ToString();
  return statements;
}

// Parses text holding exactly one statement; null (and a test failure) otherwise.
std::unique_ptr<Statement> ParseOne(std::string_view sql) {
  std::vector<std::unique_ptr<Statement>> statements = ParseAll(sql);
  EXPECT_EQ(statements.size(), 1u) << sql;
  if (statements.size() != 1) return nullptr;
  return std::move(statements[0]);
}

// The Status of parsing text that should fail.
Status ParseError(std::string_view sql) {
  std::vector<std::unique_ptr<Statement>> statements;
  Status status = Parse(sql, &statements);
  EXPECT_FALSE(status.ok()) << sql;
  EXPECT_TRUE(statements.empty()) << sql;
  return status;
}

// The expression of `SELECT <expr>`.
std::string ShowSelectExpr(const std::string& expr) {
  std::unique_ptr<Statement> stmt = ParseOne("SELECT " + expr);
  if (stmt == nullptr || stmt->kind != StatementKind::kSelect || stmt->select->targets.size() != 1) {
    return "<parse failed>";
  }
  return Show(stmt->select->targets[0].expr.get());
}

// The WHERE clause of a statement, rendered.
std::string ShowWhere(const Statement& stmt) {
  switch (stmt.kind) {
    case StatementKind::kSelect: return Show(stmt.select->where.get());
    case StatementKind::kUpdate: return Show(stmt.update->where.get());
    case StatementKind::kDelete: return Show(stmt.del->where.get());
    default: return "<no where>";
  }
}

#define PARSE_ONE(var, sql)                          \
  std::unique_ptr<Statement> var = ParseOne(sql);    \
  ASSERT_NE(var, nullptr)

// ---------------------------------------------------------------- input shapes

TEST(ParserTest, EmptyAndCommentOnlyInputYieldNoStatements) {
  for (const char* sql : {"", "   ", "\n\t", ";", " ; ;", "-- just a comment", "/* block */", "/* a */ -- b\n"}) {
    std::vector<std::unique_ptr<Statement>> statements;
    statements.push_back(std::make_unique<Statement>());  // Parse replaces the contents
    Status status = Parse(sql, &statements);
    EXPECT_TRUE(status.ok()) << "'" << sql << "': " << status.ToString();
    EXPECT_TRUE(statements.empty()) << "'" << sql << "'";
  }
}

TEST(ParserTest, MultipleStatementsKeepTheirOwnText) {
  std::string sql = "BEGIN; UPDATE t SET a = 1 WHERE k = 2 ;\n  COMMIT;";
  std::vector<std::unique_ptr<Statement>> statements = ParseAll(sql);
  ASSERT_EQ(statements.size(), 3u);
  EXPECT_EQ(statements[0]->kind, StatementKind::kTransaction);
  EXPECT_EQ(statements[0]->text, "BEGIN");
  EXPECT_EQ(statements[0]->location, 0);
  EXPECT_EQ(statements[1]->kind, StatementKind::kUpdate);
  EXPECT_EQ(statements[1]->text, "UPDATE t SET a = 1 WHERE k = 2");
  EXPECT_EQ(statements[1]->location, 7);
  EXPECT_EQ(sql.substr(statements[1]->location, statements[1]->text.size()), statements[1]->text);
  EXPECT_EQ(statements[2]->text, "COMMIT");
  EXPECT_EQ(statements[2]->location, static_cast<int>(sql.find("COMMIT")));
  EXPECT_EQ(statements[2]->transaction->kind, TransactionKind::kCommit);
}

TEST(ParserTest, LastStatementWithoutSemicolonRunsToTheEnd) {
  std::vector<std::unique_ptr<Statement>> statements = ParseAll("SELECT 1;  SELECT 2  \n");
  ASSERT_EQ(statements.size(), 2u);
  EXPECT_EQ(statements[0]->text, "SELECT 1");
  EXPECT_EQ(statements[1]->text, "SELECT 2");
  EXPECT_EQ(statements[1]->location, 11);
}

TEST(ParserTest, StringsWithSemicolonsDoNotSplitStatements) {
  std::vector<std::unique_ptr<Statement>> statements = ParseAll("INSERT INTO t VALUES ('a;b'); SELECT ';'");
  ASSERT_EQ(statements.size(), 2u);
  EXPECT_EQ(statements[0]->text, "INSERT INTO t VALUES ('a;b')");
  EXPECT_EQ(Show(statements[0]->insert->source->values[0][0].get()), "'a;b'");
  EXPECT_EQ(statements[1]->text, "SELECT ';'");
}

TEST(ParserTest, SyntaxErrorCarriesPostgresMessageAndPosition) {
  Status status = ParseError("SELECT * FORM t");
  EXPECT_EQ(status.sqlstate(), sqlstate::kSyntaxError);
  EXPECT_EQ(status.message(), "syntax error at or near \"FORM\"");
  EXPECT_EQ(status.position(), 10);

  status = ParseError("SELECT 1; SELEC 2");
  EXPECT_EQ(status.message(), "syntax error at or near \"SELEC\"");
  EXPECT_EQ(status.position(), 11);

  status = ParseError("SELECT a FROM");
  EXPECT_EQ(status.message(), "syntax error at end of input");
  EXPECT_EQ(status.position(), 14);

  status = ParseError("SELECT 'unterminated");
  EXPECT_EQ(status.sqlstate(), sqlstate::kSyntaxError);
  EXPECT_EQ(status.message(), "unterminated quoted string at or near \"'unterminated\"");
  EXPECT_EQ(status.position(), 8);
}

TEST(ParserTest, SyntaxErrorPositionCountsCharactersNotBytes) {
  // 'é' is two bytes in UTF-8 but one character: "t" is the 17th character.
  Status status = ParseError("SELECT 'é' FORM t");
  EXPECT_EQ(status.message(), "syntax error at or near \"t\"");
  EXPECT_EQ(status.position(), 17);
}

TEST(ParserTest, NulByteIsRejected) {
  Status status = ParseError(std::string_view("SELECT 1\0 junk", 14));
  EXPECT_EQ(status.sqlstate(), sqlstate::kSyntaxError);
  EXPECT_EQ(status.position(), 9);
}

// ---------------------------------------------------------------- TPC-C

// Every statement form of TPC-C's five transactions (as in BenchBase / py-tpcc).
TEST(ParserTest, AllTpccStatementsParse) {
  struct Case {
    const char* sql;
    StatementKind kind;
  };
  const Case kCases[] = {
      // New-Order
      {"SELECT w_tax FROM warehouse WHERE w_id = $1", StatementKind::kSelect},
      {"SELECT d_next_o_id, d_tax FROM district WHERE d_w_id = $1 AND d_id = $2 FOR UPDATE", StatementKind::kSelect},
      {"UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = $1 AND d_id = $2", StatementKind::kUpdate},
      {"SELECT c_discount, c_last, c_credit FROM customer WHERE c_w_id = $1 AND c_d_id = $2 AND c_id = $3",
       StatementKind::kSelect},
      {"INSERT INTO oorder (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_ol_cnt, o_all_local) "
       "VALUES ($1, $2, $3, $4, $5, $6, $7)",
       StatementKind::kInsert},
      {"INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES ($1, $2, $3)", StatementKind::kInsert},
      {"SELECT i_price, i_name, i_data FROM item WHERE i_id = $1", StatementKind::kSelect},
      {"SELECT s_quantity, s_data, s_dist_01, s_dist_02, s_dist_03, s_dist_04, s_dist_05, s_dist_06, s_dist_07, "
       "s_dist_08, s_dist_09, s_dist_10 FROM stock WHERE s_i_id = $1 AND s_w_id = $2 FOR UPDATE",
       StatementKind::kSelect},
      {"UPDATE stock SET s_quantity = $1, s_ytd = s_ytd + $2, s_order_cnt = s_order_cnt + 1, "
       "s_remote_cnt = s_remote_cnt + $3 WHERE s_i_id = $4 AND s_w_id = $5",
       StatementKind::kUpdate},
      {"UPDATE stock SET s_quantity = $1 WHERE s_i_id = $2 AND s_w_id = $3", StatementKind::kUpdate},
      {"INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_quantity, "
       "ol_amount, ol_dist_info) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
       StatementKind::kInsert},
      // Payment
      {"UPDATE warehouse SET w_ytd = w_ytd + $1 WHERE w_id = $2", StatementKind::kUpdate},
      {"SELECT w_street_1, w_street_2, w_city, w_state, w_zip, w_name FROM warehouse WHERE w_id = $1",
       StatementKind::kSelect},
      {"UPDATE district SET d_ytd = d_ytd + $1 WHERE d_w_id = $2 AND d_id = $3", StatementKind::kUpdate},
      {"SELECT d_street_1, d_street_2, d_city, d_state, d_zip, d_name FROM district WHERE d_w_id = $1 AND d_id = $2",
       StatementKind::kSelect},
      {"SELECT c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state, c_zip, c_phone, c_credit, "
       "c_credit_lim, c_discount, c_balance, c_ytd_payment, c_payment_cnt, c_since FROM customer "
       "WHERE c_w_id = $1 AND c_d_id = $2 AND c_id = $3",
       StatementKind::kSelect},
      {"SELECT c_first, c_middle, c_id, c_street_1, c_street_2, c_city, c_state, c_zip, c_phone, c_credit, "
       "c_credit_lim, c_discount, c_balance, c_ytd_payment, c_payment_cnt, c_since FROM customer "
       "WHERE c_w_id = $1 AND c_d_id = $2 AND c_last = $3 ORDER BY c_first",
       StatementKind::kSelect},
      {"SELECT c_data FROM customer WHERE c_w_id = $1 AND c_d_id = $2 AND c_id = $3", StatementKind::kSelect},
      {"UPDATE customer SET c_balance = $1, c_ytd_payment = $2, c_payment_cnt = $3, c_data = $4 "
       "WHERE c_w_id = $5 AND c_d_id = $6 AND c_id = $7",
       StatementKind::kUpdate},
      {"UPDATE customer SET c_balance = $1, c_ytd_payment = $2, c_payment_cnt = $3 "
       "WHERE c_w_id = $4 AND c_d_id = $5 AND c_id = $6",
       StatementKind::kUpdate},
      {"INSERT INTO history (h_c_d_id, h_c_w_id, h_c_id, h_d_id, h_w_id, h_date, h_amount, h_data) "
       "VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
       StatementKind::kInsert},
      // Order-Status
      {"SELECT count(c_id) AS namecnt FROM customer WHERE c_last = $1 AND c_d_id = $2 AND c_w_id = $3",
       StatementKind::kSelect},
      {"SELECT o_id, o_carrier_id, o_entry_d FROM oorder WHERE o_w_id = $1 AND o_d_id = $2 AND o_c_id = $3 "
       "ORDER BY o_id DESC LIMIT 1",
       StatementKind::kSelect},
      {"SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d FROM order_line "
       "WHERE ol_o_id = $1 AND ol_d_id = $2 AND ol_w_id = $3",
       StatementKind::kSelect},
      // Delivery
      {"SELECT no_o_id FROM new_order WHERE no_d_id = $1 AND no_w_id = $2 ORDER BY no_o_id ASC LIMIT 1",
       StatementKind::kSelect},
      {"DELETE FROM new_order WHERE no_o_id = $1 AND no_d_id = $2 AND no_w_id = $3", StatementKind::kDelete},
      {"SELECT o_c_id FROM oorder WHERE o_id = $1 AND o_d_id = $2 AND o_w_id = $3", StatementKind::kSelect},
      {"UPDATE oorder SET o_carrier_id = $1 WHERE o_id = $2 AND o_d_id = $3 AND o_w_id = $4", StatementKind::kUpdate},
      {"UPDATE order_line SET ol_delivery_d = $1 WHERE ol_o_id = $2 AND ol_d_id = $3 AND ol_w_id = $4",
       StatementKind::kUpdate},
      {"SELECT SUM(ol_amount) AS ol_total FROM order_line WHERE ol_o_id = $1 AND ol_d_id = $2 AND ol_w_id = $3",
       StatementKind::kSelect},
      {"UPDATE customer SET c_balance = c_balance + $1, c_delivery_cnt = c_delivery_cnt + 1 "
       "WHERE c_w_id = $2 AND c_d_id = $3 AND c_id = $4",
       StatementKind::kUpdate},
      // Stock-Level
      {"SELECT d_next_o_id FROM district WHERE d_w_id = $1 AND d_id = $2", StatementKind::kSelect},
      {"SELECT count(DISTINCT s_i_id) FROM order_line, stock WHERE ol_w_id = $1 AND ol_d_id = $2 "
       "AND ol_o_id < $3 AND ol_o_id >= $4 AND s_w_id = $5 AND s_i_id = ol_i_id AND s_quantity < $6",
       StatementKind::kSelect},
      {"SELECT COUNT(DISTINCT (s.s_i_id)) AS stock_count FROM order_line ol JOIN stock s "
       "ON s.s_i_id = ol.ol_i_id AND s.s_w_id = ol.ol_w_id WHERE ol.ol_w_id = $1 AND ol.ol_d_id = $2 "
       "AND ol.ol_o_id < $3 AND ol.ol_o_id >= $4 AND s.s_quantity < $5",
       StatementKind::kSelect},
  };
  for (const Case& c : kCases) {
    std::unique_ptr<Statement> stmt = ParseOne(c.sql);
    ASSERT_NE(stmt, nullptr) << c.sql;
    EXPECT_EQ(stmt->kind, c.kind) << c.sql;
    EXPECT_EQ(stmt->text, c.sql);
  }
}

TEST(ParserTest, TpccUpdateStock) {
  PARSE_ONE(stmt, "UPDATE stock SET s_quantity = $1 WHERE s_i_id = $2 AND s_w_id = $3");
  ASSERT_EQ(stmt->kind, StatementKind::kUpdate);
  const UpdateStmt& update = *stmt->update;
  EXPECT_EQ(update.table.name, "stock");
  EXPECT_EQ(update.table.alias, "");
  ASSERT_EQ(update.set.size(), 1u);
  EXPECT_EQ(update.set[0].column, "s_quantity");
  EXPECT_EQ(Show(update.set[0].value.get()), "$1");
  EXPECT_EQ(update.set[0].location, 17);
  EXPECT_EQ(ShowWhere(*stmt), "(AND (= s_i_id $2) (= s_w_id $3))");
  EXPECT_TRUE(update.returning.empty());
}

TEST(ParserTest, TpccSelectCustomer) {
  PARSE_ONE(stmt, "SELECT c_discount, c_last, c_credit FROM customer WHERE c_w_id = $1 AND c_d_id = $2 AND c_id = $3");
  ASSERT_EQ(stmt->kind, StatementKind::kSelect);
  const SelectStmt& select = *stmt->select;
  ASSERT_EQ(select.targets.size(), 3u);
  EXPECT_EQ(Show(select.targets[0].expr.get()), "c_discount");
  EXPECT_EQ(Show(select.targets[2].expr.get()), "c_credit");
  EXPECT_EQ(select.targets[2].expr->location, 27);
  ASSERT_EQ(select.from.size(), 1u);
  EXPECT_FALSE(select.from[0]->is_join);
  EXPECT_EQ(select.from[0]->table.name, "customer");
  EXPECT_EQ(select.from[0]->table.location, 41);
  // Three conjuncts fold left: ((a AND b) AND c).
  EXPECT_EQ(ShowWhere(*stmt), "(AND (AND (= c_w_id $1) (= c_d_id $2)) (= c_id $3))");
  EXPECT_FALSE(select.distinct);
  EXPECT_FALSE(select.for_update());
  EXPECT_EQ(select.limit, nullptr);
  EXPECT_TRUE(select.values.empty());
}

TEST(ParserTest, TpccSelectForUpdate) {
  PARSE_ONE(stmt, "SELECT d_next_o_id, d_tax FROM district WHERE d_w_id = $1 AND d_id = $2 FOR UPDATE");
  ASSERT_EQ(stmt->select->locking.size(), 1u);
  EXPECT_TRUE(stmt->select->locking[0].lock.exclusive);
  EXPECT_EQ(stmt->select->locking[0].lock.wait, cc::LockWait::kBlock);
  EXPECT_TRUE(stmt->select->locking[0].of.empty());
  PARSE_ONE(share, "SELECT a FROM t WHERE k = 1 FOR SHARE SKIP LOCKED");
  ASSERT_EQ(share->select->locking.size(), 1u);
  EXPECT_FALSE(share->select->locking[0].lock.exclusive);
  EXPECT_EQ(share->select->locking[0].lock.wait, cc::LockWait::kSkip);
  PARSE_ONE(no_key, "SELECT a FROM t, u WHERE k = 1 FOR NO KEY UPDATE OF t NOWAIT FOR KEY SHARE OF u");
  ASSERT_EQ(no_key->select->locking.size(), 2u);
  EXPECT_TRUE(no_key->select->locking[0].lock.exclusive);
  EXPECT_EQ(no_key->select->locking[0].lock.wait, cc::LockWait::kNoWait);
  ASSERT_EQ(no_key->select->locking[0].of.size(), 1u);
  EXPECT_EQ(no_key->select->locking[0].of[0].first, "t");
  EXPECT_EQ(no_key->select->locking[0].of[0].second, 52);  // 0-based, at "t"
  EXPECT_FALSE(no_key->select->locking[1].lock.exclusive);
}

TEST(ParserTest, TpccInsertOrderLine) {
  PARSE_ONE(stmt,
            "INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_quantity, "
            "ol_amount, ol_dist_info) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)");
  ASSERT_EQ(stmt->kind, StatementKind::kInsert);
  const InsertStmt& insert = *stmt->insert;
  EXPECT_EQ(insert.table.name, "order_line");
  EXPECT_EQ(insert.columns, (std::vector<std::string>{"ol_o_id", "ol_d_id", "ol_w_id", "ol_number", "ol_i_id",
                                                      "ol_supply_w_id", "ol_quantity", "ol_amount", "ol_dist_info"}));
  ASSERT_NE(insert.source, nullptr);
  ASSERT_EQ(insert.source->values.size(), 1u);
  EXPECT_EQ(ShowList(insert.source->values[0]), "$1, $2, $3, $4, $5, $6, $7, $8, $9");
  EXPECT_TRUE(insert.source->targets.empty());
  EXPECT_TRUE(insert.source->from.empty());
}

TEST(ParserTest, TpccDeleteNewOrder) {
  PARSE_ONE(stmt, "DELETE FROM new_order WHERE no_o_id = $1 AND no_d_id = $2 AND no_w_id = $3");
  ASSERT_EQ(stmt->kind, StatementKind::kDelete);
  EXPECT_EQ(stmt->del->table.name, "new_order");
  EXPECT_EQ(ShowWhere(*stmt), "(AND (AND (= no_o_id $1) (= no_d_id $2)) (= no_w_id $3))");
}

TEST(ParserTest, TpccStockLevelCountDistinct) {
  PARSE_ONE(stmt,
            "SELECT count(DISTINCT s_i_id) FROM order_line, stock WHERE ol_w_id = $1 AND ol_d_id = $2 "
            "AND ol_o_id < $3 AND ol_o_id >= $4 AND s_w_id = $5 AND s_i_id = ol_i_id AND s_quantity < $6");
  const SelectStmt& select = *stmt->select;
  EXPECT_EQ(Show(select.targets[0].expr.get()), "count(DISTINCT s_i_id)");
  ASSERT_EQ(select.from.size(), 2u);
  EXPECT_EQ(ShowFrom(*select.from[0]), "order_line");
  EXPECT_EQ(ShowFrom(*select.from[1]), "stock");
  // A chain of ANDs is folded into a balanced tree (depth log n).
  EXPECT_EQ(ShowWhere(*stmt),
            "(AND (AND (AND (= ol_w_id $1) (= ol_d_id $2)) (AND (< ol_o_id $3) (>= ol_o_id $4))) "
            "(AND (AND (= s_w_id $5) (= s_i_id ol_i_id)) (< s_quantity $6)))");
}

TEST(ParserTest, TpccOrderByDescLimit) {
  PARSE_ONE(stmt,
            "SELECT o_id, o_carrier_id, o_entry_d FROM oorder WHERE o_w_id = $1 AND o_d_id = $2 AND o_c_id = $3 "
            "ORDER BY o_id DESC LIMIT 1");
  const SelectStmt& select = *stmt->select;
  ASSERT_EQ(select.order_by.size(), 1u);
  EXPECT_EQ(Show(select.order_by[0].expr.get()), "o_id");
  EXPECT_TRUE(select.order_by[0].descending);
  EXPECT_FALSE(select.order_by[0].nulls_first.has_value());
  EXPECT_EQ(Show(select.limit.get()), "1");
  EXPECT_EQ(select.offset, nullptr);
}

// ---------------------------------------------------------------- pgbench

TEST(ParserTest, PgbenchTpcbLikeWithParameters) {
  PARSE_ONE(update, "UPDATE pgbench_accounts SET abalance = abalance + $1 WHERE aid = $2;");
  EXPECT_EQ(update->text, "UPDATE pgbench_accounts SET abalance = abalance + $1 WHERE aid = $2");
  EXPECT_EQ(Show(update->update->set[0].value.get()), "(+ abalance $1)");
  EXPECT_EQ(ShowWhere(*update), "(= aid $2)");

  PARSE_ONE(select, "SELECT abalance FROM pgbench_accounts WHERE aid = $1;");
  EXPECT_EQ(ShowWhere(*select), "(= aid $1)");

  PARSE_ONE(insert,
            "INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES ($1, $2, $3, $4, CURRENT_TIMESTAMP);");
  EXPECT_EQ(ShowList(insert->insert->source->values[0]), "$1, $2, $3, $4, now()");
}

TEST(ParserTest, PgbenchWithLiteralsAndNegativeNumbers) {
  // pgbench's simple protocol substitutes values into the text.
  PARSE_ONE(update, "UPDATE pgbench_accounts SET abalance = abalance + -2415 WHERE aid = 39148;");
  const Expr* value = update->update->set[0].value.get();
  EXPECT_EQ(Show(value), "(+ abalance -2415)");
  EXPECT_EQ(value->right->literal_kind, LiteralKind::kInteger);
  EXPECT_EQ(value->right->int_value, -2415);
  EXPECT_EQ(value->right->text, "-2415");

  PARSE_ONE(tellers, "UPDATE pgbench_tellers SET tbalance = tbalance + 4096 WHERE tid = 7;");
  EXPECT_EQ(Show(tellers->update->set[0].value.get()), "(+ tbalance 4096)");

  PARSE_ONE(insert,
            "INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (7, 1, 39148, -2415, CURRENT_TIMESTAMP);");
  EXPECT_EQ(ShowList(insert->insert->source->values[0]), "7, 1, 39148, -2415, now()");
}

TEST(ParserTest, PgbenchInitialization) {
  std::vector<std::unique_ptr<Statement>> statements = ParseAll(
      "drop table if exists pgbench_accounts, pgbench_branches, pgbench_history, pgbench_tellers;"
      "create table pgbench_history(tid int,bid int,aid    int,delta int,mtime timestamp,filler char(22));"
      "create table pgbench_tellers(tid int not null,bid int,tbalance int,filler char(84)) with (fillfactor=100);"
      "truncate table pgbench_accounts, pgbench_branches, pgbench_history, pgbench_tellers;"
      "insert into pgbench_branches(bid,bbalance) values(1,0);"
      "copy pgbench_accounts from stdin with (freeze on);"
      "vacuum analyze pgbench_branches;"
      "alter table pgbench_branches add primary key (bid);"
      "alter table pgbench_tellers add constraint pgbench_tellers_bid_fkey foreign key (bid) references "
      "pgbench_branches;"
      "begin; end;");
  ASSERT_EQ(statements.size(), 11u);
  const DropStmt& drop = *statements[0]->drop;
  EXPECT_EQ(drop.kind, ObjectKind::kTable);
  EXPECT_TRUE(drop.if_exists);
  EXPECT_EQ(drop.names,
            (std::vector<std::string>{"pgbench_accounts", "pgbench_branches", "pgbench_history", "pgbench_tellers"}));

  const CreateTableStmt& history = *statements[1]->create_table;
  EXPECT_EQ(history.name, "pgbench_history");
  ASSERT_EQ(history.columns.size(), 6u);
  EXPECT_EQ(Show(history.columns[4].type), "timestamp");
  EXPECT_EQ(Show(history.columns[5].type), "bpchar(22)");

  const CreateTableStmt& tellers = *statements[2]->create_table;
  ASSERT_EQ(tellers.columns[0].constraints.size(), 1u);
  EXPECT_EQ(tellers.columns[0].constraints[0].kind, ConstraintKind::kNotNull);

  EXPECT_EQ(statements[3]->kind, StatementKind::kTruncate);
  EXPECT_EQ(statements[3]->truncate->tables.size(), 4u);
  EXPECT_EQ(statements[4]->kind, StatementKind::kInsert);
  ASSERT_EQ(statements[5]->kind, StatementKind::kCopy);  // carried out by the wire protocol server
  EXPECT_EQ(statements[5]->copy->table, "pgbench_accounts");
  EXPECT_TRUE(statements[5]->copy->from);
  EXPECT_TRUE(statements[5]->copy->stdio);
  EXPECT_TRUE(statements[5]->copy->unsupported_options.empty());  // FREEZE has no effect
  EXPECT_EQ(statements[6]->kind, StatementKind::kVacuum);

  const AlterTableStmt& pk = *statements[7]->alter_table;
  EXPECT_EQ(pk.table, "pgbench_branches");
  ASSERT_EQ(pk.commands.size(), 1u);
  EXPECT_EQ(pk.commands[0].kind, AlterKind::kAddConstraint);
  EXPECT_EQ(pk.commands[0].constraint.kind, ConstraintKind::kPrimaryKey);
  EXPECT_EQ(pk.commands[0].constraint.columns, std::vector<std::string>{"bid"});

  const ConstraintDef& fk = statements[8]->alter_table->commands[0].constraint;
  EXPECT_EQ(fk.kind, ConstraintKind::kForeignKey);
  EXPECT_EQ(fk.name, "pgbench_tellers_bid_fkey");
  EXPECT_EQ(fk.columns, std::vector<std::string>{"bid"});
  EXPECT_EQ(fk.ref_table, "pgbench_branches");
  EXPECT_TRUE(fk.ref_columns.empty());

  EXPECT_EQ(statements[9]->transaction->kind, TransactionKind::kBegin);
  EXPECT_EQ(statements[10]->transaction->kind, TransactionKind::kCommit);
}

// ---------------------------------------------------------------- SELECT

TEST(ParserTest, SelectStarAndQualifiedStar) {
  PARSE_ONE(stmt, "SELECT *, t.*, t.a AS x, public.t.b FROM public.t AS t");
  const SelectStmt& select = *stmt->select;
  ASSERT_EQ(select.targets.size(), 4u);
  EXPECT_EQ(select.targets[0].expr->kind, ExprKind::kStar);
  EXPECT_EQ(Show(select.targets[0].expr.get()), "*");
  EXPECT_EQ(select.targets[1].expr->kind, ExprKind::kStar);
  EXPECT_EQ(Show(select.targets[1].expr.get()), "t.*");
  EXPECT_EQ(Show(select.targets[2].expr.get()), "t.a");
  EXPECT_EQ(select.targets[2].alias, "x");
  EXPECT_EQ(select.targets[0].alias, "");
  EXPECT_EQ(Show(select.targets[3].expr.get()), "t.b");  // schema dropped
  EXPECT_EQ(select.from[0]->table.name, "t");
  EXPECT_EQ(select.from[0]->table.alias, "t");
}

TEST(ParserTest, SelectWithoutFrom) {
  PARSE_ONE(stmt, "SELECT 1");
  EXPECT_TRUE(stmt->select->from.empty());
  EXPECT_EQ(Show(stmt->select->targets[0].expr.get()), "1");
}

TEST(ParserTest, QuotedIdentifiersKeepTheirCase) {
  PARSE_ONE(stmt, "SELECT \"MixedCase\", Lower FROM \"Table\"");
  EXPECT_EQ(Show(stmt->select->targets[0].expr.get()), "MixedCase");
  EXPECT_EQ(Show(stmt->select->targets[1].expr.get()), "lower");
  EXPECT_EQ(stmt->select->from[0]->table.name, "Table");
}

TEST(ParserTest, Joins) {
  PARSE_ONE(stmt,
            "SELECT * FROM a JOIN b ON a.x = b.x LEFT JOIN c USING (x, y) RIGHT OUTER JOIN d ON TRUE "
            "FULL JOIN e ON a.x = e.x CROSS JOIN f NATURAL JOIN g, h hh");
  const SelectStmt& select = *stmt->select;
  ASSERT_EQ(select.from.size(), 2u);
  EXPECT_EQ(ShowFrom(*select.from[0]),
            "((((((a JOIN b ON (= a.x b.x)) LEFT JOIN c USING (x, y)) RIGHT JOIN d ON TRUE) FULL JOIN e ON "
            "(= a.x e.x)) CROSS JOIN f) NATURAL JOIN g)");
  EXPECT_EQ(ShowFrom(*select.from[1]), "h hh");
  EXPECT_TRUE(select.from[0]->is_join);
  EXPECT_EQ(select.from[0]->location, 14);  // the leftmost table
  EXPECT_EQ(select.from[0]->on, nullptr);
}

TEST(ParserTest, SubqueryExpressions) {
  PARSE_ONE(stmt,
            "SELECT (SELECT max(b) FROM u) FROM t WHERE a IN (SELECT c FROM u) AND NOT EXISTS (SELECT 1, 2) "
            "AND a NOT IN (SELECT c FROM u) AND a < ALL (SELECT c FROM u) AND a <> ANY (SELECT c FROM u)");
  const SelectStmt& select = *stmt->select;
  EXPECT_EQ(Show(select.targets[0].expr.get()), "(SUBQUERY max(b))");
  EXPECT_EQ(Show(select.where.get()),
            "(AND (AND (AND (a = ANY c) (NOT (EXISTS 1, 2))) (AND (NOT (a = ANY c)) (a < ALL c))) (a <> ANY c))");
}

TEST(ParserTest, SubqueriesInFromWithQueriesAndSetOperations) {
  PARSE_ONE(stmt, "WITH w (x) AS (SELECT 1), v AS (SELECT 2) SELECT * FROM (SELECT a FROM t) AS s (b), "
                  "LATERAL (SELECT s.b) AS l UNION ALL SELECT 1, 2 ORDER BY 1 LIMIT 3");
  const SelectStmt& select = *stmt->select;
  ASSERT_EQ(select.with.size(), 2u);
  EXPECT_EQ(select.with[0].name, "w");
  EXPECT_EQ(select.with[0].column_aliases, std::vector<std::string>{"x"});
  EXPECT_EQ(select.set_op, SetOperation::kUnion);
  EXPECT_TRUE(select.set_all);
  EXPECT_EQ(select.order_by.size(), 1u);
  ASSERT_NE(select.limit, nullptr);
  const SelectStmt& left = *select.set_left;
  ASSERT_EQ(left.from.size(), 2u);
  EXPECT_EQ(left.from[0]->table.alias, "s");
  EXPECT_EQ(left.from[0]->column_aliases, std::vector<std::string>{"b"});
  EXPECT_FALSE(left.from[0]->lateral);
  EXPECT_TRUE(left.from[1]->lateral);
  EXPECT_EQ(select.set_right->targets.size(), 2u);

  PARSE_ONE(chain, "SELECT 1 EXCEPT SELECT 2 INTERSECT SELECT 3");  // INTERSECT binds tighter
  EXPECT_EQ(chain->select->set_op, SetOperation::kExcept);
  EXPECT_EQ(chain->select->set_right->set_op, SetOperation::kIntersect);

  Status status = ParseError("SELECT * FROM (SELECT 1)");
  EXPECT_EQ(status.sqlstate(), sqlstate::kSyntaxError);
  EXPECT_EQ(status.message(), "subquery in FROM must have an alias");
}

TEST(ParserTest, GroupByHavingOrderByLimitOffset) {
  PARSE_ONE(stmt,
            "SELECT DISTINCT a, sum(b) FROM t WHERE c > 0 GROUP BY a HAVING sum(b) > 10 "
            "ORDER BY a ASC NULLS FIRST, 2 DESC NULLS LAST, b LIMIT 10 OFFSET $1");
  const SelectStmt& select = *stmt->select;
  EXPECT_TRUE(select.distinct);
  ASSERT_EQ(select.group_by.size(), 1u);
  EXPECT_EQ(Show(select.group_by[0].get()), "a");
  EXPECT_EQ(Show(select.having.get()), "(> sum(b) 10)");
  ASSERT_EQ(select.order_by.size(), 3u);
  EXPECT_FALSE(select.order_by[0].descending);
  EXPECT_EQ(select.order_by[0].nulls_first, std::optional<bool>(true));
  EXPECT_EQ(Show(select.order_by[1].expr.get()), "2");
  EXPECT_TRUE(select.order_by[1].descending);
  EXPECT_EQ(select.order_by[1].nulls_first, std::optional<bool>(false));
  EXPECT_FALSE(select.order_by[2].nulls_first.has_value());
  EXPECT_EQ(Show(select.limit.get()), "10");
  EXPECT_EQ(Show(select.offset.get()), "$1");
}

TEST(ParserTest, LimitAllAndFetchFirst) {
  PARSE_ONE(all, "SELECT a FROM t LIMIT ALL OFFSET 5");
  EXPECT_EQ(all->select->limit, nullptr);
  EXPECT_EQ(Show(all->select->offset.get()), "5");
  PARSE_ONE(fetch, "SELECT a FROM t FETCH FIRST 3 ROWS ONLY");
  EXPECT_EQ(Show(fetch->select->limit.get()), "3");
}

TEST(ParserTest, ValuesAsAStatement) {
  PARSE_ONE(stmt, "VALUES (1, 'a'), (2, 'b')");
  ASSERT_EQ(stmt->kind, StatementKind::kSelect);
  ASSERT_EQ(stmt->select->values.size(), 2u);
  EXPECT_EQ(ShowList(stmt->select->values[1]), "2, 'b'");
}

// ---------------------------------------------------------------- DML

TEST(ParserTest, InsertVariants) {
  PARSE_ONE(all_columns, "INSERT INTO t VALUES (1, 2), (3, 4)");
  EXPECT_TRUE(all_columns->insert->columns.empty());
  EXPECT_EQ(all_columns->insert->source->values.size(), 2u);

  PARSE_ONE(defaults, "INSERT INTO t DEFAULT VALUES");
  EXPECT_EQ(defaults->insert->source, nullptr);

  PARSE_ONE(default_item, "INSERT INTO t (a, b) VALUES (1, DEFAULT)");
  EXPECT_EQ(ShowList(default_item->insert->source->values[0]), "1, <null>");  // DEFAULT

  PARSE_ONE(select, "INSERT INTO public.t (a) SELECT b FROM u WHERE c = 1 RETURNING a, b AS bb, *");
  const InsertStmt& insert = *select->insert;
  EXPECT_EQ(insert.table.name, "t");
  ASSERT_NE(insert.source, nullptr);
  EXPECT_TRUE(insert.source->values.empty());
  EXPECT_EQ(Show(insert.source->targets[0].expr.get()), "b");
  EXPECT_EQ(insert.source->from[0]->table.name, "u");
  ASSERT_EQ(insert.returning.size(), 3u);
  EXPECT_EQ(insert.returning[1].alias, "bb");
  EXPECT_EQ(insert.returning[2].expr->kind, ExprKind::kStar);
}

TEST(ParserTest, UpdateWithDefaultAliasAndReturning) {
  PARSE_ONE(stmt, "UPDATE t AS x SET a = DEFAULT, b = x.b * 2 WHERE k = 1 RETURNING b");
  const UpdateStmt& update = *stmt->update;
  EXPECT_EQ(update.table.name, "t");
  EXPECT_EQ(update.table.alias, "x");
  ASSERT_EQ(update.set.size(), 2u);
  EXPECT_EQ(update.set[0].column, "a");
  EXPECT_EQ(update.set[0].value, nullptr);  // DEFAULT
  EXPECT_EQ(Show(update.set[1].value.get()), "(* x.b 2)");
  ASSERT_EQ(update.returning.size(), 1u);
}

TEST(ParserTest, DeleteWithoutWhereAndWithReturning) {
  PARSE_ONE(stmt, "DELETE FROM t RETURNING *");
  EXPECT_EQ(stmt->del->where, nullptr);
  EXPECT_EQ(stmt->del->returning.size(), 1u);
}

// ---------------------------------------------------------------- expressions

TEST(ParserTest, Literals) {
  EXPECT_EQ(ShowSelectExpr("42"), "42");
  EXPECT_EQ(ShowSelectExpr("-5"), "-5");
  EXPECT_EQ(ShowSelectExpr("1.50"), "#1.50");
  EXPECT_EQ(ShowSelectExpr("1e3"), "#1e3");
  EXPECT_EQ(ShowSelectExpr("'it''s'"), "'it's'");
  EXPECT_EQ(ShowSelectExpr("E'a\\tb'"), "'a\tb'");
  EXPECT_EQ(ShowSelectExpr("''"), "''");
  EXPECT_EQ(ShowSelectExpr("true"), "TRUE");
  EXPECT_EQ(ShowSelectExpr("FALSE"), "FALSE");
  EXPECT_EQ(ShowSelectExpr("NULL"), "NULL");
}

TEST(ParserTest, LargeIntegersBecomeInt64OrNumeric) {
  PARSE_ONE(stmt, "SELECT 2147483648, 9223372036854775807, -9223372036854775808, 9223372036854775808, 0");
  const std::vector<SelectItem>& t = stmt->select->targets;
  EXPECT_EQ(t[0].expr->literal_kind, LiteralKind::kInteger);
  EXPECT_EQ(t[0].expr->int_value, 2147483648LL);
  EXPECT_EQ(t[1].expr->int_value, INT64_MAX);
  EXPECT_EQ(t[2].expr->literal_kind, LiteralKind::kInteger);
  EXPECT_EQ(t[2].expr->int_value, INT64_MIN);
  EXPECT_EQ(t[3].expr->literal_kind, LiteralKind::kNumeric);
  EXPECT_EQ(t[3].expr->text, "9223372036854775808");
  EXPECT_EQ(t[4].expr->literal_kind, LiteralKind::kInteger);
  EXPECT_EQ(t[4].expr->int_value, 0);
  EXPECT_EQ(t[4].expr->text, "0");
}

TEST(ParserTest, ParametersAndColumnReferences) {
  EXPECT_EQ(ShowSelectExpr("$12"), "$12");
  EXPECT_EQ(ShowSelectExpr("c"), "c");
  EXPECT_EQ(ShowSelectExpr("t.c"), "t.c");
  EXPECT_EQ(ShowSelectExpr("s.t.c"), "t.c");
  EXPECT_EQ(ShowSelectExpr("db.s.t.c"), "t.c");
}

TEST(ParserTest, ArithmeticAndComparisonOperators) {
  EXPECT_EQ(ShowSelectExpr("a + b * c - d / e % f"), "(- (+ a (* b c)) (% (/ d e) f))");
  EXPECT_EQ(ShowSelectExpr("a = 1"), "(= a 1)");
  EXPECT_EQ(ShowSelectExpr("a <> 1"), "(<> a 1)");
  EXPECT_EQ(ShowSelectExpr("a != 1"), "(<> a 1)");
  EXPECT_EQ(ShowSelectExpr("a < 1"), "(< a 1)");
  EXPECT_EQ(ShowSelectExpr("a <= 1"), "(<= a 1)");
  EXPECT_EQ(ShowSelectExpr("a > 1"), "(> a 1)");
  EXPECT_EQ(ShowSelectExpr("a >= 1"), "(>= a 1)");
  EXPECT_EQ(ShowSelectExpr("a || 'x'"), "(|| a 'x')");
  EXPECT_EQ(ShowSelectExpr("a OPERATOR(pg_catalog.=) 1"), "(= a 1)");
}

TEST(ParserTest, UnaryOperators) {
  EXPECT_EQ(ShowSelectExpr("-a"), "(- a)");
  EXPECT_EQ(ShowSelectExpr("+a"), "(+ a)");
  EXPECT_EQ(ShowSelectExpr("-$1"), "(- $1)");
  EXPECT_EQ(ShowSelectExpr("- 5"), "-5");  // folded by PostgreSQL's grammar
  EXPECT_EQ(ShowSelectExpr("a - -2"), "(- a -2)");
  EXPECT_EQ(ShowSelectExpr("-(a + 1)"), "(- (+ a 1))");
  EXPECT_EQ(ShowSelectExpr("NOT a"), "(NOT a)");
}

TEST(ParserTest, BooleanConnectivesFoldLeft) {
  EXPECT_EQ(ShowSelectExpr("a AND b AND c"), "(AND (AND a b) c)");
  EXPECT_EQ(ShowSelectExpr("a OR b AND c"), "(OR a (AND b c))");
  EXPECT_EQ(ShowSelectExpr("(a OR b) AND NOT c"), "(AND (OR a b) (NOT c))");
}

TEST(ParserTest, LikeInBetweenAndDistinct) {
  EXPECT_EQ(ShowSelectExpr("a LIKE 'x%'"), "(LIKE a 'x%')");
  EXPECT_EQ(ShowSelectExpr("a NOT LIKE 'x%'"), "(NOT LIKE a 'x%')");
  EXPECT_EQ(ShowSelectExpr("a ILIKE 'x%'"), "(ILIKE a 'x%')");
  EXPECT_EQ(ShowSelectExpr("a NOT ILIKE 'x%'"), "(NOT ILIKE a 'x%')");
  EXPECT_EQ(ShowSelectExpr("a ~~ 'x'"), "(LIKE a 'x')");
  EXPECT_EQ(ShowSelectExpr("a IN (1, 2, $1)"), "(a IN (1, 2, $1))");
  EXPECT_EQ(ShowSelectExpr("a NOT IN (1)"), "(a NOT IN (1))");
  EXPECT_EQ(ShowSelectExpr("a BETWEEN 1 AND $2"), "(a BETWEEN 1 AND $2)");
  EXPECT_EQ(ShowSelectExpr("a NOT BETWEEN 1 AND 2"), "(a NOT BETWEEN 1 AND 2)");
  EXPECT_EQ(ShowSelectExpr("a IS DISTINCT FROM b"), "(IS DISTINCT FROM a b)");
  EXPECT_EQ(ShowSelectExpr("a IS NOT DISTINCT FROM b"), "(IS NOT DISTINCT FROM a b)");
}

TEST(ParserTest, NullAndBooleanTests) {
  EXPECT_EQ(ShowSelectExpr("a IS NULL"), "(a IS NULL)");
  EXPECT_EQ(ShowSelectExpr("a IS NOT NULL"), "(a IS NOT NULL)");
  EXPECT_EQ(ShowSelectExpr("a ISNULL"), "(a IS NULL)");
  EXPECT_EQ(ShowSelectExpr("a IS TRUE"), "(a IS TRUE)");
  EXPECT_EQ(ShowSelectExpr("a IS NOT TRUE"), "(a IS NOT TRUE)");
  EXPECT_EQ(ShowSelectExpr("a IS FALSE"), "(a IS FALSE)");
  EXPECT_EQ(ShowSelectExpr("a IS NOT FALSE"), "(a IS NOT FALSE)");
  EXPECT_EQ(ShowSelectExpr("a IS UNKNOWN"), "(a IS UNKNOWN)");
  EXPECT_EQ(ShowSelectExpr("a IS NOT UNKNOWN"), "(a IS NOT UNKNOWN)");
}

TEST(ParserTest, FunctionCalls) {
  EXPECT_EQ(ShowSelectExpr("count(*)"), "count(*)");
  EXPECT_EQ(ShowSelectExpr("COUNT(DISTINCT x)"), "count(DISTINCT x)");
  EXPECT_EQ(ShowSelectExpr("sum(a + 1)"), "sum((+ a 1))");
  EXPECT_EQ(ShowSelectExpr("pg_catalog.now()"), "now()");
  EXPECT_EQ(ShowSelectExpr("coalesce(a, b, 0)"), "coalesce(a, b, 0)");
  EXPECT_EQ(ShowSelectExpr("greatest(a, 1)"), "greatest(a, 1)");
  EXPECT_EQ(ShowSelectExpr("least(a, 1)"), "least(a, 1)");
  EXPECT_EQ(ShowSelectExpr("nullif(a, 0)"), "nullif(a, 0)");
  EXPECT_EQ(ShowSelectExpr("substring(a, 1, 2)"), "substring(a, 1, 2)");
}

TEST(ParserTest, SqlValueFunctions) {
  EXPECT_EQ(ShowSelectExpr("CURRENT_TIMESTAMP"), "now()");
  EXPECT_EQ(ShowSelectExpr("now()"), "now()");
  EXPECT_EQ(ShowSelectExpr("CURRENT_DATE"), "current_date()");
  EXPECT_EQ(ShowSelectExpr("LOCALTIMESTAMP"), "localtimestamp()");
  EXPECT_EQ(ShowSelectExpr("current_user"), "current_user()");
}

TEST(ParserTest, CaseExpressions) {
  EXPECT_EQ(ShowSelectExpr("CASE WHEN a > 0 THEN 'p' WHEN a < 0 THEN 'n' ELSE 'z' END"),
            "(CASE WHEN (> a 0) THEN 'p' WHEN (< a 0) THEN 'n' ELSE 'z')");
  EXPECT_EQ(ShowSelectExpr("CASE a WHEN 1 THEN 'one' END"), "(CASE a WHEN 1 THEN 'one')");
}

TEST(ParserTest, CastsNormalizeTypeNames) {
  EXPECT_EQ(ShowSelectExpr("a::int"), "(CAST a AS int4)");
  EXPECT_EQ(ShowSelectExpr("CAST(a AS integer)"), "(CAST a AS int4)");
  EXPECT_EQ(ShowSelectExpr("a::bigint"), "(CAST a AS int8)");
  EXPECT_EQ(ShowSelectExpr("a::smallint"), "(CAST a AS int2)");
  EXPECT_EQ(ShowSelectExpr("a::real"), "(CAST a AS float4)");
  EXPECT_EQ(ShowSelectExpr("a::double precision"), "(CAST a AS float8)");
  EXPECT_EQ(ShowSelectExpr("a::float"), "(CAST a AS float8)");
  EXPECT_EQ(ShowSelectExpr("a::decimal(12, 2)"), "(CAST a AS numeric(12,2))");
  EXPECT_EQ(ShowSelectExpr("a::numeric"), "(CAST a AS numeric)");
  EXPECT_EQ(ShowSelectExpr("a::char(16)"), "(CAST a AS bpchar(16))");
  EXPECT_EQ(ShowSelectExpr("a::character varying(24)"), "(CAST a AS varchar(24))");
  EXPECT_EQ(ShowSelectExpr("a::boolean"), "(CAST a AS bool)");
  EXPECT_EQ(ShowSelectExpr("a::timestamp without time zone"), "(CAST a AS timestamp)");
  EXPECT_EQ(ShowSelectExpr("a::timestamp with time zone"), "(CAST a AS timestamptz)");
  EXPECT_EQ(ShowSelectExpr("a::text"), "(CAST a AS text)");
  EXPECT_EQ(ShowSelectExpr("a::date"), "(CAST a AS date)");
  EXPECT_EQ(ShowSelectExpr("a::interval"), "(CAST a AS interval)");
  EXPECT_EQ(ShowSelectExpr("a::int[]"), "(CAST a AS int4[])");
  EXPECT_EQ(ShowSelectExpr("a::My_Domain"), "(CAST a AS my_domain)");
  EXPECT_EQ(ShowSelectExpr("int '5'"), "(CAST '5' AS int4)");
  EXPECT_EQ(ShowSelectExpr("'5'::int"), "(CAST '5' AS int4)");
}

TEST(ParserTest, ExpressionLocationsAreByteOffsetsIntoTheWholeInput) {
  std::string sql = "SELECT 1; SELECT a + $1 FROM t WHERE b = 'x'";
  std::vector<std::unique_ptr<Statement>> statements = ParseAll(sql);
  ASSERT_EQ(statements.size(), 2u);
  const Expr& plus = *statements[1]->select->targets[0].expr;
  EXPECT_EQ(plus.location, static_cast<int>(sql.find('+')));
  EXPECT_EQ(plus.left->location, static_cast<int>(sql.find("a +")));
  EXPECT_EQ(plus.right->location, static_cast<int>(sql.find("$1")));
  const Expr& where = *statements[1]->select->where;
  EXPECT_EQ(where.right->location, static_cast<int>(sql.find("'x'")));
  EXPECT_EQ(statements[1]->select->from[0]->table.location, static_cast<int>(sql.find(" t ") + 1));
}

// ---------------------------------------------------------------- DDL

TEST(ParserTest, CreateTableWithColumnAndTableConstraints) {
  PARSE_ONE(stmt,
            "CREATE TABLE IF NOT EXISTS public.orders ("
            "  id int PRIMARY KEY,"
            "  w_id integer NOT NULL REFERENCES warehouse (w_id),"
            "  amount decimal(12,2) NULL DEFAULT 0.00,"
            "  note varchar(24) CONSTRAINT note_u UNIQUE,"
            "  flag char CHECK (flag <> 'x'),"
            "  created timestamp DEFAULT CURRENT_TIMESTAMP,"
            "  tags text[],"
            "  PRIMARY KEY (id, w_id),"
            "  CONSTRAINT fk FOREIGN KEY (w_id, id) REFERENCES other (a, b),"
            "  UNIQUE (note),"
            "  CHECK (amount >= 0)"
            ") WITH (fillfactor = 100)");
  ASSERT_EQ(stmt->kind, StatementKind::kCreateTable);
  const CreateTableStmt& create = *stmt->create_table;
  EXPECT_EQ(create.name, "orders");
  EXPECT_TRUE(create.if_not_exists);
  ASSERT_EQ(create.columns.size(), 7u);

  const ColumnDef& id = create.columns[0];
  EXPECT_EQ(id.name, "id");
  EXPECT_EQ(Show(id.type), "int4");
  ASSERT_EQ(id.constraints.size(), 1u);
  EXPECT_EQ(id.constraints[0].kind, ConstraintKind::kPrimaryKey);
  EXPECT_TRUE(id.constraints[0].columns.empty());

  const ColumnDef& w_id = create.columns[1];
  ASSERT_EQ(w_id.constraints.size(), 2u);
  EXPECT_EQ(w_id.constraints[0].kind, ConstraintKind::kNotNull);
  EXPECT_EQ(w_id.constraints[1].kind, ConstraintKind::kForeignKey);
  EXPECT_EQ(w_id.constraints[1].ref_table, "warehouse");
  EXPECT_EQ(w_id.constraints[1].ref_columns, std::vector<std::string>{"w_id"});

  const ColumnDef& amount = create.columns[2];
  EXPECT_EQ(Show(amount.type), "numeric(12,2)");
  ASSERT_EQ(amount.constraints.size(), 2u);
  EXPECT_EQ(amount.constraints[0].kind, ConstraintKind::kNull);
  EXPECT_EQ(amount.constraints[1].kind, ConstraintKind::kDefault);
  EXPECT_EQ(Show(amount.constraints[1].default_value.get()), "#0.00");

  const ColumnDef& note = create.columns[3];
  EXPECT_EQ(Show(note.type), "varchar(24)");
  EXPECT_EQ(note.constraints[0].kind, ConstraintKind::kUnique);
  EXPECT_EQ(note.constraints[0].name, "note_u");

  EXPECT_EQ(Show(create.columns[4].type), "bpchar(1)");  // char without length
  EXPECT_EQ(create.columns[4].constraints[0].kind, ConstraintKind::kCheck);
  EXPECT_EQ(Show(create.columns[5].constraints[0].default_value.get()), "now()");
  EXPECT_EQ(Show(create.columns[6].type), "text[]");

  ASSERT_EQ(create.constraints.size(), 4u);
  EXPECT_EQ(create.constraints[0].kind, ConstraintKind::kPrimaryKey);
  EXPECT_EQ(create.constraints[0].columns, (std::vector<std::string>{"id", "w_id"}));
  EXPECT_EQ(create.constraints[1].kind, ConstraintKind::kForeignKey);
  EXPECT_EQ(create.constraints[1].name, "fk");
  EXPECT_EQ(create.constraints[1].columns, (std::vector<std::string>{"w_id", "id"}));
  EXPECT_EQ(create.constraints[1].ref_table, "other");
  EXPECT_EQ(create.constraints[1].ref_columns, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(create.constraints[2].kind, ConstraintKind::kUnique);
  EXPECT_EQ(create.constraints[2].columns, std::vector<std::string>{"note"});
  EXPECT_EQ(create.constraints[3].kind, ConstraintKind::kCheck);
}

TEST(ParserTest, CreateTableIgnoresTempAndUnlogged) {
  PARSE_ONE(temp, "CREATE TEMP TABLE t (a int)");
  EXPECT_EQ(temp->create_table->name, "t");
  PARSE_ONE(unlogged, "CREATE UNLOGGED TABLE u (a int) WITH (fillfactor=90, autovacuum_enabled=false)");
  EXPECT_EQ(unlogged->create_table->name, "u");
  EXPECT_FALSE(unlogged->create_table->if_not_exists);
}

TEST(ParserTest, CreateDomain) {
  PARSE_ONE(stmt, "CREATE DOMAIN w_id AS integer NOT NULL");
  ASSERT_EQ(stmt->kind, StatementKind::kCreateDomain);
  EXPECT_EQ(stmt->create_domain->name, "w_id");
  EXPECT_EQ(Show(stmt->create_domain->type), "int4");
  EXPECT_TRUE(stmt->create_domain->not_null);
  EXPECT_FALSE(stmt->create_domain->has_check);

  PARSE_ONE(checked, "CREATE DOMAIN qty numeric(4, 0) CHECK (VALUE > 0)");
  EXPECT_EQ(Show(checked->create_domain->type), "numeric(4,0)");
  EXPECT_FALSE(checked->create_domain->not_null);
  EXPECT_TRUE(checked->create_domain->has_check);
}

TEST(ParserTest, CreateIndex) {
  PARSE_ONE(stmt, "CREATE UNIQUE INDEX IF NOT EXISTS idx ON public.customer USING hash (c_w_id, c_d_id DESC)");
  ASSERT_EQ(stmt->kind, StatementKind::kCreateIndex);
  const CreateIndexStmt& index = *stmt->create_index;
  EXPECT_EQ(index.name, "idx");
  EXPECT_EQ(index.table.name, "customer");
  EXPECT_TRUE(index.unique);
  EXPECT_TRUE(index.if_not_exists);
  EXPECT_EQ(index.method, "hash");
  EXPECT_EQ(index.columns, (std::vector<std::string>{"c_w_id", "c_d_id"}));
  EXPECT_FALSE(index.has_expressions);

  PARSE_ONE(plain, "CREATE INDEX ON t (a)");
  EXPECT_EQ(plain->create_index->name, "");
  EXPECT_EQ(plain->create_index->method, "btree");
  EXPECT_FALSE(plain->create_index->unique);
  EXPECT_EQ(plain->create_index->where, nullptr);

  // A partial index: its condition, and PostgreSQL's text of it.
  PARSE_ONE(partial, "CREATE INDEX CONCURRENTLY p ON t (a) WHERE NOT done AND b>0");
  ASSERT_NE(partial->create_index->where, nullptr);
  EXPECT_EQ(partial->create_index->where_text, "NOT done AND b > 0");

  PARSE_ONE(expr, "CREATE INDEX e ON t (a, (b + 1), lower(c))");
  EXPECT_TRUE(expr->create_index->has_expressions);
  EXPECT_EQ(expr->create_index->columns, std::vector<std::string>{"a"});
}

TEST(ParserTest, DropStatements) {
  PARSE_ONE(table, "DROP TABLE IF EXISTS a, s.b CASCADE");
  EXPECT_EQ(table->kind, StatementKind::kDrop);
  EXPECT_EQ(table->drop->kind, ObjectKind::kTable);
  EXPECT_EQ(table->drop->names, (std::vector<std::string>{"a", "b"}));
  EXPECT_TRUE(table->drop->if_exists);
  EXPECT_TRUE(table->drop->cascade);

  PARSE_ONE(index, "DROP INDEX i");
  EXPECT_EQ(index->drop->kind, ObjectKind::kIndex);
  EXPECT_EQ(index->drop->names, std::vector<std::string>{"i"});
  EXPECT_FALSE(index->drop->if_exists);
  EXPECT_FALSE(index->drop->cascade);

  PARSE_ONE(domain, "DROP DOMAIN IF EXISTS w_id, d_id");
  EXPECT_EQ(domain->drop->kind, ObjectKind::kDomain);
  EXPECT_EQ(domain->drop->names, (std::vector<std::string>{"w_id", "d_id"}));

  PARSE_ONE(view, "DROP VIEW v");
  EXPECT_EQ(view->kind, StatementKind::kDrop);
  EXPECT_EQ(view->drop->kind, ObjectKind::kView);
  EXPECT_EQ(view->drop->names, std::vector<std::string>{"v"});

  PARSE_ONE(schema, "DROP SCHEMA s");
  EXPECT_EQ(schema->drop->kind, ObjectKind::kOther);
  EXPECT_EQ(schema->drop->names, std::vector<std::string>{"s"});
}


// GENERATED .. AS IDENTITY keeps its kind and sequence options; INSERT keeps
// OVERRIDING.
TEST(ParserTest, IdentityColumnsAndOverriding) {
  PARSE_ONE(create, "CREATE TABLE t (a int GENERATED ALWAYS AS IDENTITY (START 5 INCREMENT 2), "
                    "b bigint GENERATED BY DEFAULT AS IDENTITY)");
  const auto& a = create->create_table->columns[0].constraints.at(0);
  EXPECT_EQ(a.kind, ConstraintKind::kIdentity);
  EXPECT_EQ(a.identity, 'a');
  ASSERT_EQ(a.sequence_options.size(), 2u);
  EXPECT_EQ(a.sequence_options[0].kind, SequenceOption::Kind::kStart);
  EXPECT_EQ(a.sequence_options[0].value, 5);
  EXPECT_EQ(create->create_table->columns[1].constraints.at(0).identity, 'd');
  PARSE_ONE(system, "INSERT INTO t OVERRIDING SYSTEM VALUE VALUES (1)");
  EXPECT_EQ(system->insert->overriding, Overriding::kSystemValue);
  PARSE_ONE(user, "INSERT INTO t OVERRIDING USER VALUE VALUES (1)");
  EXPECT_EQ(user->insert->overriding, Overriding::kUserValue);
  PARSE_ONE(plain, "INSERT INTO t VALUES (1)");
  EXPECT_EQ(plain->insert->overriding, Overriding::kNone);
}

TEST(ParserTest, OnConflict) {
  PARSE_ONE(update, "INSERT INTO t AS x VALUES (1, 2) ON CONFLICT (a, b) WHERE a > 0 "
                    "DO UPDATE SET b = excluded.b, c = DEFAULT WHERE x.b < 5");
  ASSERT_NE(update->insert->on_conflict, nullptr);
  const OnConflictClause& u = *update->insert->on_conflict;
  EXPECT_EQ(update->insert->table.alias, "x");
  EXPECT_TRUE(u.update);
  EXPECT_EQ(u.columns, (std::vector<std::string>{"a", "b"}));
  EXPECT_NE(u.index_where, nullptr);
  EXPECT_TRUE(u.constraint.empty());
  ASSERT_EQ(u.set.size(), 2u);
  EXPECT_EQ(u.set[0].column, "b");
  EXPECT_EQ(u.set[0].value->qualifier, "excluded");
  EXPECT_EQ(u.set[1].value, nullptr);  // DEFAULT
  EXPECT_NE(u.where, nullptr);
  PARSE_ONE(nothing, "INSERT INTO t VALUES (1) ON CONFLICT ON CONSTRAINT t_pkey DO NOTHING");
  const OnConflictClause& n = *nothing->insert->on_conflict;
  EXPECT_FALSE(n.update);
  EXPECT_EQ(n.constraint, "t_pkey");
  EXPECT_TRUE(n.columns.empty());
  PARSE_ONE(bare, "INSERT INTO t VALUES (1) ON CONFLICT DO NOTHING");
  EXPECT_TRUE(bare->insert->on_conflict->columns.empty());
  EXPECT_TRUE(bare->insert->on_conflict->constraint.empty());
  PARSE_ONE(plain, "INSERT INTO t VALUES (1)");
  EXPECT_EQ(plain->insert->on_conflict, nullptr);
}

TEST(ParserTest, Truncate) {
  PARSE_ONE(stmt, "TRUNCATE TABLE a, public.b RESTART IDENTITY CASCADE");
  ASSERT_EQ(stmt->kind, StatementKind::kTruncate);
  EXPECT_EQ(stmt->truncate->tables, (std::vector<std::string>{"a", "b"}));
  PARSE_ONE(bare, "TRUNCATE c");
  EXPECT_EQ(bare->truncate->tables, std::vector<std::string>{"c"});
}

TEST(ParserTest, AlterTable) {
  PARSE_ONE(stmt,
            "ALTER TABLE t ADD CONSTRAINT pk PRIMARY KEY (a, b), ADD COLUMN z varchar(10) NOT NULL, "
            "ADD UNIQUE (c), DROP COLUMN y, ALTER COLUMN x SET DEFAULT 1");
  ASSERT_EQ(stmt->kind, StatementKind::kAlterTable);
  const AlterTableStmt& alter = *stmt->alter_table;
  EXPECT_EQ(alter.table, "t");
  ASSERT_EQ(alter.commands.size(), 5u);
  EXPECT_EQ(alter.commands[0].kind, AlterKind::kAddConstraint);
  EXPECT_EQ(alter.commands[0].constraint.kind, ConstraintKind::kPrimaryKey);
  EXPECT_EQ(alter.commands[0].constraint.name, "pk");
  EXPECT_EQ(alter.commands[0].constraint.columns, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(alter.commands[1].kind, AlterKind::kAddColumn);
  EXPECT_EQ(alter.commands[1].column.name, "z");
  EXPECT_EQ(Show(alter.commands[1].column.type), "varchar(10)");
  EXPECT_EQ(alter.commands[1].column.constraints[0].kind, ConstraintKind::kNotNull);
  EXPECT_EQ(alter.commands[2].kind, AlterKind::kAddConstraint);
  EXPECT_EQ(alter.commands[2].constraint.kind, ConstraintKind::kUnique);
  EXPECT_EQ(alter.commands[3].kind, AlterKind::kDropColumn);
  EXPECT_EQ(alter.commands[3].column_name, "y");
  EXPECT_FALSE(alter.commands[3].cascade);
  EXPECT_EQ(alter.commands[4].kind, AlterKind::kSetDefault);
  EXPECT_EQ(alter.commands[4].column_name, "x");
  EXPECT_EQ(alter.commands[4].constraint.default_text, "1");

  PARSE_ONE(columns, "ALTER TABLE t ALTER a DROP DEFAULT, ALTER COLUMN b SET NOT NULL, ALTER c DROP NOT NULL");
  ASSERT_EQ(columns->alter_table->commands.size(), 3u);
  EXPECT_EQ(columns->alter_table->commands[0].kind, AlterKind::kDropDefault);
  EXPECT_EQ(columns->alter_table->commands[0].column_name, "a");
  EXPECT_EQ(columns->alter_table->commands[1].kind, AlterKind::kSetNotNull);
  EXPECT_EQ(columns->alter_table->commands[1].column_name, "b");
  EXPECT_EQ(columns->alter_table->commands[2].kind, AlterKind::kDropNotNull);

  PARSE_ONE(fk, "ALTER TABLE ONLY c ADD FOREIGN KEY (w_id, d_id) REFERENCES district (d_w_id, d_id)");
  const ConstraintDef& constraint = fk->alter_table->commands[0].constraint;
  EXPECT_EQ(constraint.kind, ConstraintKind::kForeignKey);
  EXPECT_EQ(constraint.name, "");
  EXPECT_EQ(constraint.columns, (std::vector<std::string>{"w_id", "d_id"}));
  EXPECT_EQ(constraint.ref_table, "district");
  EXPECT_EQ(constraint.ref_columns, (std::vector<std::string>{"d_w_id", "d_id"}));

  PARSE_ONE(drops, "ALTER TABLE t DROP IF EXISTS a CASCADE, DROP CONSTRAINT IF EXISTS k, ADD COLUMN IF NOT EXISTS b int");
  ASSERT_EQ(drops->alter_table->commands.size(), 3u);
  EXPECT_EQ(drops->alter_table->commands[0].kind, AlterKind::kDropColumn);
  EXPECT_TRUE(drops->alter_table->commands[0].missing_ok);
  EXPECT_TRUE(drops->alter_table->commands[0].cascade);
  EXPECT_EQ(drops->alter_table->commands[1].kind, AlterKind::kDropConstraint);
  EXPECT_EQ(drops->alter_table->commands[1].column_name, "k");
  EXPECT_TRUE(drops->alter_table->commands[1].missing_ok);
  EXPECT_EQ(drops->alter_table->commands[2].kind, AlterKind::kAddColumn);
  EXPECT_TRUE(drops->alter_table->commands[2].missing_ok);

  PARSE_ONE(retype, "ALTER TABLE t ALTER COLUMN a TYPE bigint, ALTER b SET DATA TYPE text USING b::text");
  EXPECT_EQ(retype->alter_table->commands[0].kind, AlterKind::kAlterType);
  EXPECT_EQ(retype->alter_table->commands[0].column_name, "a");
  EXPECT_EQ(Show(retype->alter_table->commands[0].column.type), "int8");
  EXPECT_FALSE(retype->alter_table->commands[0].using_expression);
  EXPECT_TRUE(retype->alter_table->commands[1].using_expression);

  // PostgreSQL parses renames as their own statement; Paceline makes them
  // one-command ALTER TABLEs.
  PARSE_ONE(rename, "ALTER TABLE IF EXISTS t RENAME TO u");
  ASSERT_EQ(rename->kind, StatementKind::kAlterTable);
  EXPECT_TRUE(rename->alter_table->if_exists);
  EXPECT_EQ(rename->alter_table->commands[0].kind, AlterKind::kRenameTable);
  EXPECT_EQ(rename->alter_table->commands[0].new_name, "u");
  PARSE_ONE(rename_column, "ALTER TABLE t RENAME COLUMN a TO b");
  EXPECT_EQ(rename_column->alter_table->commands[0].kind, AlterKind::kRenameColumn);
  EXPECT_EQ(rename_column->alter_table->commands[0].column_name, "a");
  EXPECT_EQ(rename_column->alter_table->commands[0].new_name, "b");
  PARSE_ONE(rename_constraint, "ALTER TABLE t RENAME CONSTRAINT k TO k2");
  ASSERT_EQ(rename_constraint->kind, StatementKind::kAlterTable);
  EXPECT_EQ(rename_constraint->alter_table->commands[0].kind, AlterKind::kRenameConstraint);

  PARSE_ONE(owner, "ALTER TABLE t OWNER TO bob");
  EXPECT_EQ(owner->alter_table->commands[0].kind, AlterKind::kOwnerTo);
  EXPECT_EQ(owner->alter_table->commands[0].new_name, "bob");
  PARSE_ONE(replica, "ALTER TABLE t REPLICA IDENTITY FULL");
  EXPECT_EQ(replica->alter_table->commands[0].kind, AlterKind::kOther);
  EXPECT_EQ(replica->alter_table->commands[0].description, "REPLICA IDENTITY");
}

// ---------------------------------------------------------------- utility

TEST(ParserTest, TransactionStatements) {
  struct Case {
    const char* sql;
    TransactionKind kind;
  };
  const Case kCases[] = {
      {"BEGIN", TransactionKind::kBegin},
      {"BEGIN WORK", TransactionKind::kBegin},
      {"START TRANSACTION", TransactionKind::kBegin},
      {"COMMIT", TransactionKind::kCommit},
      {"END", TransactionKind::kCommit},
      {"ROLLBACK", TransactionKind::kRollback},
      {"ABORT", TransactionKind::kRollback},
      {"SAVEPOINT s1", TransactionKind::kSavepoint},
      {"RELEASE SAVEPOINT s1", TransactionKind::kRelease},
      {"ROLLBACK TO SAVEPOINT s1", TransactionKind::kRollbackTo},
      {"PREPARE TRANSACTION 'x'", TransactionKind::kPrepare},
      {"COMMIT PREPARED 'x'", TransactionKind::kOther},
  };
  for (const Case& c : kCases) {
    std::unique_ptr<Statement> stmt = ParseOne(c.sql);
    ASSERT_NE(stmt, nullptr) << c.sql;
    ASSERT_EQ(stmt->kind, StatementKind::kTransaction) << c.sql;
    EXPECT_EQ(stmt->transaction->kind, c.kind) << c.sql;
    EXPECT_EQ(stmt->transaction->isolation_level, "") << c.sql;
    EXPECT_FALSE(stmt->transaction->read_only) << c.sql;
  }
  PARSE_ONE(savepoint, "ROLLBACK TO s1");
  EXPECT_EQ(savepoint->transaction->savepoint_name, "s1");
}

TEST(ParserTest, BeginWithIsolationLevelAndReadOnly) {
  PARSE_ONE(stmt, "BEGIN ISOLATION LEVEL SERIALIZABLE READ ONLY");
  EXPECT_EQ(stmt->transaction->isolation_level, "serializable");
  EXPECT_TRUE(stmt->transaction->read_only);
  PARSE_ONE(start, "START TRANSACTION ISOLATION LEVEL READ COMMITTED, READ WRITE");
  EXPECT_EQ(start->transaction->isolation_level, "read committed");
  EXPECT_FALSE(start->transaction->read_only);
}

TEST(ParserTest, SetResetShow) {
  PARSE_ONE(path, "SET search_path TO public, \"$user\"");
  ASSERT_EQ(path->kind, StatementKind::kSet);
  EXPECT_EQ(path->set->name, "search_path");
  EXPECT_EQ(path->set->values, (std::vector<std::string>{"public", "$user"}));
  EXPECT_FALSE(path->set->reset);
  EXPECT_FALSE(path->set->local);

  PARSE_ONE(number, "SET LOCAL statement_timeout = 5000");
  EXPECT_EQ(number->set->name, "statement_timeout");
  EXPECT_EQ(number->set->values, std::vector<std::string>{"5000"});
  EXPECT_TRUE(number->set->local);

  PARSE_ONE(decimal, "SET extra_float_digits = 1.5");
  EXPECT_EQ(decimal->set->values, std::vector<std::string>{"1.5"});
  PARSE_ONE(negative, "SET extra_float_digits = -3");
  EXPECT_EQ(negative->set->values, std::vector<std::string>{"-3"});
  PARSE_ONE(on, "SET enable_seqscan = on");
  EXPECT_EQ(on->set->values, std::vector<std::string>{"on"});
  PARSE_ONE(encoding, "SET client_encoding = 'UTF8'");
  EXPECT_EQ(encoding->set->values, std::vector<std::string>{"UTF8"});
  PARSE_ONE(zone, "SET TIME ZONE 'UTC'");
  EXPECT_EQ(zone->set->name, "timezone");
  EXPECT_EQ(zone->set->values, std::vector<std::string>{"UTC"});

  PARSE_ONE(to_default, "SET search_path TO DEFAULT");
  EXPECT_TRUE(to_default->set->reset);
  EXPECT_TRUE(to_default->set->values.empty());

  PARSE_ONE(reset, "RESET statement_timeout");
  EXPECT_EQ(reset->kind, StatementKind::kSet);
  EXPECT_EQ(reset->set->name, "statement_timeout");
  EXPECT_TRUE(reset->set->reset);
  PARSE_ONE(reset_all, "RESET ALL");
  EXPECT_EQ(reset_all->set->name, "all");
  EXPECT_TRUE(reset_all->set->reset);

  PARSE_ONE(show, "SHOW search_path");
  ASSERT_EQ(show->kind, StatementKind::kShow);
  EXPECT_EQ(show->show->name, "search_path");
  PARSE_ONE(show_all, "SHOW ALL");
  EXPECT_EQ(show_all->show->name, "all");
  PARSE_ONE(show_isolation, "SHOW TRANSACTION ISOLATION LEVEL");
  EXPECT_EQ(show_isolation->show->name, "transaction_isolation");
}

TEST(ParserTest, SetTransactionAndSessionCharacteristics) {
  PARSE_ONE(txn, "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ");
  ASSERT_EQ(txn->kind, StatementKind::kSet);
  EXPECT_EQ(txn->set->name, "transaction_isolation");
  EXPECT_EQ(txn->set->values, std::vector<std::string>{"repeatable read"});

  PARSE_ONE(read_only, "SET TRANSACTION READ ONLY");
  EXPECT_EQ(read_only->set->name, "transaction_read_only");
  EXPECT_EQ(read_only->set->values, std::vector<std::string>{"on"});

  PARSE_ONE(both, "SET TRANSACTION READ WRITE, ISOLATION LEVEL SERIALIZABLE");
  EXPECT_EQ(both->set->name, "transaction_isolation");
  EXPECT_EQ(both->set->values, std::vector<std::string>{"serializable"});

  PARSE_ONE(session, "SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL READ COMMITTED");
  EXPECT_EQ(session->set->name, "default_transaction_isolation");
  EXPECT_EQ(session->set->values, std::vector<std::string>{"read committed"});
}

TEST(ParserTest, VacuumAndAnalyze) {
  PARSE_ONE(vacuum, "VACUUM");
  EXPECT_EQ(vacuum->kind, StatementKind::kVacuum);
  PARSE_ONE(vacuum_analyze, "VACUUM ANALYZE t");
  EXPECT_EQ(vacuum_analyze->kind, StatementKind::kVacuum);
  PARSE_ONE(analyze, "ANALYZE t");
  EXPECT_EQ(analyze->kind, StatementKind::kAnalyze);
}

// ---------------------------------------------------------------- unsupported

// Sequence options keep what was written: integers past int32 (the
// grammar's Float), NO MINVALUE (no value), a bare RESTART, AS a type,
// CYCLE as a flag and OWNED BY as a name list.
TEST(ParserTest, SequenceOptionsAreKeptAsWritten) {
  std::unique_ptr<Statement> stmt = ParseOne(
      "CREATE SEQUENCE IF NOT EXISTS s AS smallint INCREMENT BY -2 MINVALUE -9223372036854775808 NO MAXVALUE "
      "START WITH 3000000000 CACHE 5 NO CYCLE OWNED BY t.c");
  ASSERT_NE(stmt, nullptr);
  ASSERT_EQ(stmt->kind, StatementKind::kCreateSequence);
  const CreateSequenceStmt& create = *stmt->create_sequence;
  EXPECT_EQ(create.name, "s");
  EXPECT_TRUE(create.if_not_exists);
  using Kind = SequenceOption::Kind;
  ASSERT_EQ(create.options.size(), 8u);
  EXPECT_EQ(create.options[0].kind, Kind::kAs);
  EXPECT_EQ(create.options[0].type.name, "int2");
  EXPECT_EQ(create.options[1].kind, Kind::kIncrement);
  EXPECT_EQ(create.options[1].value, -2);
  EXPECT_EQ(create.options[2].kind, Kind::kMinValue);
  EXPECT_EQ(create.options[2].value, INT64_MIN);
  EXPECT_EQ(create.options[3].kind, Kind::kMaxValue);
  EXPECT_FALSE(create.options[3].has_value);
  EXPECT_EQ(create.options[4].value, 3000000000);
  EXPECT_EQ(create.options[5].kind, Kind::kCache);
  EXPECT_EQ(create.options[6].kind, Kind::kCycle);
  EXPECT_FALSE(create.options[6].flag);
  EXPECT_EQ(create.options[7].kind, Kind::kOwnedBy);
  EXPECT_EQ(create.options[7].names, (std::vector<std::string>{"t", "c"}));

  stmt = ParseOne("ALTER SEQUENCE IF EXISTS s RESTART OWNED BY NONE");
  ASSERT_EQ(stmt->kind, StatementKind::kAlterSequence);
  EXPECT_TRUE(stmt->alter_sequence->if_exists);
  ASSERT_EQ(stmt->alter_sequence->options.size(), 2u);
  EXPECT_EQ(stmt->alter_sequence->options[0].kind, Kind::kRestart);
  EXPECT_FALSE(stmt->alter_sequence->options[0].has_value);
  EXPECT_EQ(stmt->alter_sequence->options[1].names, std::vector<std::string>{"none"});

  stmt = ParseOne("DROP SEQUENCE IF EXISTS a, b CASCADE");
  ASSERT_EQ(stmt->kind, StatementKind::kDrop);
  EXPECT_EQ(stmt->drop->kind, ObjectKind::kSequence);
  EXPECT_EQ(stmt->drop->names, (std::vector<std::string>{"a", "b"}));
}

TEST(ParserTest, ExplainKeepsItsOptionsAndTheStatementsOwnText) {
  std::unique_ptr<Statement> stmt = ParseOne("EXPLAIN (ANALYZE, FORMAT JSON, verbose off) SELECT a FROM t WHERE a = 1");
  ASSERT_NE(stmt, nullptr);
  ASSERT_EQ(stmt->kind, StatementKind::kExplain);
  const ExplainStmt& e = *stmt->explain;
  EXPECT_TRUE(e.analyze);
  EXPECT_FALSE(e.verbose);
  EXPECT_TRUE(e.summary) << "SUMMARY defaults to ANALYZE";
  EXPECT_EQ(e.format, ExplainFormat::kJson);
  ASSERT_NE(e.query, nullptr);
  EXPECT_EQ(e.query->kind, StatementKind::kSelect);
  EXPECT_EQ(e.query->text, "SELECT a FROM t WHERE a = 1");
  EXPECT_EQ(e.query->location, 44);

  stmt = ParseOne("explain analyze verbose update t set a = 2");
  ASSERT_NE(stmt, nullptr);
  EXPECT_TRUE(stmt->explain->analyze);
  EXPECT_TRUE(stmt->explain->verbose);
  EXPECT_EQ(stmt->explain->query->text, "update t set a = 2");
}

TEST(ParserTest, UnsupportedStatementKindsAreNamed) {
  struct Case {
    const char* sql;
    const char* what;
  };
  const Case kCases[] = {
      {"CREATE FUNCTION f() RETURNS int AS 'select 1' LANGUAGE sql", "CREATE FUNCTION"},
      {"CREATE PROCEDURE p() LANGUAGE sql AS 'select 1'", "CREATE PROCEDURE"},
      {"CREATE MATERIALIZED VIEW v AS SELECT 1", "CREATE MATERIALIZED VIEW"},
      {"CREATE TABLE t2 AS SELECT * FROM t", "CREATE TABLE AS"},
      {"CREATE MATERIALIZED VIEW mv AS SELECT 1", "CREATE MATERIALIZED VIEW"},
      {"SELECT * INTO t2 FROM t", "SELECT INTO"},
      {"CREATE SCHEMA s", "CREATE SCHEMA"},
      {"GRANT SELECT ON t TO bob", "GRANT"},
      {"REVOKE SELECT ON t FROM bob", "REVOKE"},
      {"ALTER INDEX i RENAME TO j", "ALTER INDEX RENAME"},
      {"ALTER VIEW v RENAME TO u", "ALTER VIEW RENAME"},
      {"ALTER SEQUENCE s RENAME TO u", "ALTER SEQUENCE RENAME"},
      {"ALTER INDEX i SET (fillfactor = 50)", "ALTER INDEX"},
      {"CREATE TYPE mood AS ENUM ('sad', 'ok')", "CREATE TYPE"},
      {"DO $$ BEGIN END $$", "DO"},
      {"CLUSTER t", "CLUSTER"},
      {"CREATE TABLESPACE ts LOCATION '/tmp'", "CREATE TABLE SPACE"},
  };
  for (const Case& c : kCases) {
    std::unique_ptr<Statement> stmt = ParseOne(c.sql);
    ASSERT_NE(stmt, nullptr) << c.sql;
    EXPECT_EQ(stmt->kind, StatementKind::kUnsupported) << c.sql;
    EXPECT_EQ(stmt->unsupported_what, c.what) << c.sql;
    EXPECT_EQ(stmt->text, c.sql);
  }
}

TEST(ParserTest, LockTable) {
  std::unique_ptr<Statement> stmt = ParseOne("LOCK TABLE public.a, b IN ROW EXCLUSIVE MODE NOWAIT");
  ASSERT_NE(stmt, nullptr);
  ASSERT_EQ(stmt->kind, StatementKind::kLock);
  ASSERT_EQ(stmt->lock->tables.size(), 2u);
  EXPECT_EQ(stmt->lock->tables[0].schema, "public");
  EXPECT_EQ(stmt->lock->tables[1].name, "b");
  EXPECT_EQ(stmt->lock->mode, 3);
  EXPECT_TRUE(stmt->lock->nowait);
  stmt = ParseOne("LOCK t");
  ASSERT_NE(stmt, nullptr);
  EXPECT_EQ(stmt->lock->mode, 8);  // ACCESS EXCLUSIVE, PostgreSQL's default
  EXPECT_FALSE(stmt->lock->nowait);
}

TEST(ParserTest, Checkpoint) {
  std::unique_ptr<Statement> stmt = ParseOne("CHECKPOINT");
  ASSERT_NE(stmt, nullptr);
  EXPECT_EQ(stmt->kind, StatementKind::kCheckpoint);
}

TEST(ParserTest, CopyAndDeallocate) {
  std::unique_ptr<Statement> copy = ParseOne("COPY t (a, b) TO STDOUT WITH (FORMAT csv, DELIMITER ';', NULL 'x')");
  ASSERT_EQ(copy->kind, StatementKind::kCopy);
  EXPECT_EQ(copy->copy->table, "t");
  EXPECT_EQ(copy->copy->columns, (std::vector<std::string>{"a", "b"}));
  EXPECT_FALSE(copy->copy->from);
  EXPECT_TRUE(copy->copy->stdio);
  EXPECT_EQ(copy->copy->format, "csv");
  EXPECT_EQ(copy->copy->delimiter, ";");
  EXPECT_TRUE(copy->copy->has_null_string);
  EXPECT_EQ(copy->copy->null_string, "x");
  copy = ParseOne("COPY t FROM '/tmp/file'");
  EXPECT_FALSE(copy->copy->stdio);
  copy = ParseOne("COPY (SELECT 1) TO STDOUT");
  EXPECT_TRUE(copy->copy->has_query);
  std::unique_ptr<Statement> dealloc = ParseOne("DEALLOCATE q");
  ASSERT_EQ(dealloc->kind, StatementKind::kDeallocate);
  EXPECT_EQ(dealloc->deallocate->name, "q");
  dealloc = ParseOne("DEALLOCATE ALL");
  EXPECT_EQ(dealloc->deallocate->name, "");
  std::unique_ptr<Statement> prepare = ParseOne("PREPARE \"as\" (int, varchar(5)) AS SELECT $1 AS a, $2");
  ASSERT_EQ(prepare->kind, StatementKind::kPrepare);
  EXPECT_EQ(prepare->prepare->name, "as");
  ASSERT_EQ(prepare->prepare->types.size(), 2u);
  EXPECT_EQ(prepare->prepare->types[1].name, "varchar");
  EXPECT_EQ(prepare->prepare->query, "SELECT $1 AS a, $2");
  std::unique_ptr<Statement> execute = ParseOne("EXECUTE q (1, 'a)b', (2 + 3))");
  ASSERT_EQ(execute->kind, StatementKind::kExecute);
  EXPECT_EQ(execute->execute->name, "q");
  EXPECT_EQ(execute->execute->arguments, "1, 'a)b', (2 + 3)");
  EXPECT_EQ(ParseOne("EXECUTE q")->execute->arguments, "");
}

TEST(ParserTest, WindowFunctionsAndViews) {
  std::unique_ptr<Statement> stmt = ParseOne(
      "SELECT rank() OVER w, sum(b) OVER (w ORDER BY b DESC ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) FROM t "
      "WINDOW w AS (PARTITION BY a)");
  ASSERT_EQ(stmt->kind, StatementKind::kSelect);
  const SelectStmt& s = *stmt->select;
  ASSERT_EQ(s.targets.size(), 2u);
  ASSERT_TRUE(s.targets[0].expr->over);
  EXPECT_EQ(s.targets[0].expr->over->name, "w");  // OVER w names the window
  const WindowDefinition& refined = *s.targets[1].expr->over;
  EXPECT_EQ(refined.refname, "w");
  ASSERT_EQ(refined.order_by.size(), 1u);
  EXPECT_TRUE(refined.order_by[0].descending);
  EXPECT_TRUE(refined.frame_options & WindowDefinition::kFrameRows);
  EXPECT_TRUE(refined.frame_options & WindowDefinition::kFrameStartOffsetPreceding);
  EXPECT_TRUE(refined.frame_options & WindowDefinition::kFrameEndCurrentRow);
  ASSERT_TRUE(refined.start_offset);
  EXPECT_EQ(refined.start_offset->int_value, 2);
  ASSERT_EQ(s.windows.size(), 1u);
  EXPECT_EQ(s.windows[0]->name, "w");
  EXPECT_EQ(s.windows[0]->partition_by.size(), 1u);

  std::unique_ptr<Statement> view = ParseOne("CREATE OR REPLACE VIEW v (x, y) AS SELECT a, b FROM t");
  ASSERT_EQ(view->kind, StatementKind::kCreateView);
  EXPECT_EQ(view->create_view->name, "v");
  EXPECT_TRUE(view->create_view->replace);
  EXPECT_EQ(view->create_view->column_aliases, (std::vector<std::string>{"x", "y"}));
  ASSERT_TRUE(view->create_view->query);
  EXPECT_EQ(view->create_view->query->targets.size(), 2u);
  std::unique_ptr<Statement> drop = ParseOne("DROP VIEW IF EXISTS v, w CASCADE");
  ASSERT_EQ(drop->kind, StatementKind::kDrop);
  EXPECT_EQ(drop->drop->kind, ObjectKind::kView);
  EXPECT_TRUE(drop->drop->cascade);
  EXPECT_EQ(drop->drop->names.size(), 2u);
}

TEST(ParserTest, JsonbOperators) {
  EXPECT_EQ(ShowSelectExpr("a ?| b"), "(?| a b)");
  EXPECT_EQ(ShowSelectExpr("a ?& b"), "(?& a b)");
  EXPECT_EQ(ShowSelectExpr("a #- b"), "(#- a b)");
  EXPECT_EQ(ShowSelectExpr("a - 'k' - 1"), "(- (- a 'k') 1)");
  EXPECT_EQ(ShowSelectExpr("a -> 'k' - 1"), "(-> a (- 'k' 1))");  // - binds tighter, as in PostgreSQL
}

TEST(ParserTest, ArrayForms) {
  EXPECT_EQ(ShowSelectExpr("ARRAY[1, $1]"), "ARRAY[1, $1]");
  EXPECT_EQ(ShowSelectExpr("a[2]"), "a[2]");
  EXPECT_EQ(ShowSelectExpr("a = ANY($1)"), "(a = ANY $1)");
  EXPECT_EQ(ShowSelectExpr("a <> ALL(b)"), "(a <> ALL b)");
  EXPECT_EQ(ShowSelectExpr("a @> b"), "arraycontains(a, b)");
  EXPECT_EQ(ShowSelectExpr("a <@ b"), "arraycontained(a, b)");
  EXPECT_EQ(ShowSelectExpr("a && b"), "arrayoverlap(a, b)");
  EXPECT_EQ(ShowSelectExpr("ARRAY(SELECT 1)"), "(ARRAY 1)");
  EXPECT_EQ(ShowSelectExpr("array_agg(a ORDER BY b DESC)"), "array_agg(a)");
  EXPECT_EQ(ParseOne("SELECT array_agg(a ORDER BY b DESC)")->select->targets[0].expr->agg_order.size(), 1u);
  EXPECT_TRUE(ParseOne("SELECT * FROM unnest($1::int[]) WITH ORDINALITY")->select->from[0]->ordinality);
}

// Paceline's one collation is C (bytewise): COLLATE of it, as catalog
// queries write it, changes nothing; another collation does not exist.
TEST(ParserTest, CollateOfTheOneCollationIsAcceptedAnotherDoesNotExist) {
  EXPECT_EQ(ShowSelectExpr("a COLLATE \"C\""), ShowSelectExpr("a"));
  EXPECT_EQ(ShowSelectExpr("a COLLATE pg_catalog.default"), ShowSelectExpr("a"));
  Status status = ParseError("SELECT a COLLATE \"de_DE\" FROM t");
  EXPECT_EQ(status.sqlstate(), sqlstate::kUndefinedObject);
  EXPECT_EQ(status.message(), "collation \"de_DE\" for encoding \"UTF8\" does not exist");
}

TEST(ParserTest, UnsupportedConstructsInsideStatementsAreErrors) {
  struct Case {
    const char* sql;
    const char* message;
  };
  const Case kCases[] = {
      {"WITH RECURSIVE x AS (SELECT 1 UNION SELECT 2 FROM x) SEARCH DEPTH FIRST BY a SET o SELECT * FROM x",
       "WITH RECURSIVE .. SEARCH is not supported"},
      {"SELECT DISTINCT ON (a) a FROM t", "SELECT DISTINCT ON is not supported"},
      {"SELECT a FROM t WHERE (a, b) IN (SELECT c, d FROM u)", "a row constructor compared with a subquery is not supported"},
      {"SELECT a FROM t WHERE a ~ ANY (SELECT c FROM u)", "operator ~ with ANY/ALL (subquery) is not supported"},
      {"SELECT count(*) FILTER (WHERE a > 1) FROM t", "FILTER on aggregates is not supported"},
      {"SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY a) FROM t", "WITHIN GROUP is not supported"},
      {"SELECT a[1:2] FROM t", "array slices is not supported"},
      {"SELECT ARRAY[[1, 2], [3, 4]]", "multidimensional arrays is not supported"},
      {"SELECT a ~ ANY($1)", "operator ~ with ANY (array) is not supported"},
      {"SELECT a @@ b", "operator @@ is not supported"},
      {"SELECT (ROW(1, 2)).*", "(x).* of a record is not supported"},
      {"SELECT a SIMILAR TO 'x'", "SIMILAR TO is not supported"},
      {"SELECT a LIKE 'x' ESCAPE '!'", "LIKE ... ESCAPE is not supported"},
      {"SELECT a BETWEEN SYMMETRIC 1 AND 2", "BETWEEN SYMMETRIC is not supported"},
      {"SELECT B'101'", "bit-string literals is not supported"},
      {"SELECT a FROM t GROUP BY ROLLUP (a)", "GROUPING SETS, ROLLUP and CUBE is not supported"},
      {"INSERT INTO t VALUES (1) ON CONFLICT ((a + 1)) DO NOTHING",
       "an expression in the ON CONFLICT target is not supported"},
      {"INSERT INTO t VALUES (1) ON CONFLICT (a) DO UPDATE SET (a, b) = (1, 2)",
       "multi-column SET (a, b) = (...) is not supported"},
      {"UPDATE t SET (a, b) = (1, 2)", "multi-column SET (a, b) = (...) is not supported"},
      {"CREATE TABLE t (a int, b int GENERATED ALWAYS AS (a * 2) STORED)", "generated columns is not supported"},
      {"CREATE TABLE t (a int REFERENCES u MATCH FULL)", "MATCH FULL is not supported"},
      {"CREATE TABLE t (a int, PRIMARY KEY (a) DEFERRABLE)", "DEFERRABLE unique and primary key constraints is not supported"},
      {"CREATE TABLE t (a int) PARTITION BY RANGE (a)", "PARTITION BY is not supported"},
      {"COMMIT AND CHAIN", "AND CHAIN is not supported"},
  };
  for (const Case& c : kCases) {
    Status status = ParseError(c.sql);
    EXPECT_EQ(status.sqlstate(), sqlstate::kFeatureNotSupported) << c.sql;
    EXPECT_EQ(status.message(), c.message) << c.sql;
  }
}

TEST(ParserTest, NotificationsAndSetConstraints) {
  auto listen = ParseOne("LISTEN \"Jobs\"");
  ASSERT_NE(listen, nullptr);
  EXPECT_EQ(listen->kind, StatementKind::kListen);
  EXPECT_EQ(listen->notify->channel, "Jobs");
  auto unlisten = ParseOne("UNLISTEN *");
  ASSERT_NE(unlisten, nullptr);
  EXPECT_EQ(unlisten->kind, StatementKind::kUnlisten);
  EXPECT_EQ(unlisten->notify->channel, "");
  auto notify = ParseOne("NOTIFY jobs, 'p'");
  ASSERT_NE(notify, nullptr);
  EXPECT_EQ(notify->kind, StatementKind::kNotify);
  EXPECT_EQ(notify->notify->channel, "jobs");
  EXPECT_EQ(notify->notify->payload, "p");
  auto all = ParseOne("SET CONSTRAINTS ALL DEFERRED");
  ASSERT_NE(all, nullptr);
  EXPECT_EQ(all->kind, StatementKind::kSetConstraints);
  EXPECT_TRUE(all->set_constraints->names.empty());
  EXPECT_TRUE(all->set_constraints->deferred);
  auto named = ParseOne("SET CONSTRAINTS a, b IMMEDIATE");
  ASSERT_NE(named, nullptr);
  EXPECT_EQ(named->set_constraints->names, (std::vector<std::string>{"a", "b"}));
  EXPECT_FALSE(named->set_constraints->deferred);
}

TEST(ParserTest, UnsupportedExpressionErrorsPointAtTheConstruct) {
  std::string sql = "SELECT a FROM t WHERE b = 1 AND c = B'101'";
  Status status = ParseError(sql);
  EXPECT_EQ(status.sqlstate(), sqlstate::kFeatureNotSupported);
  EXPECT_EQ(status.position(), static_cast<int>(sql.find("B'")) + 1);

  // Positions are in characters: 'é' takes two bytes.
  status = ParseError("SELECT 'é', a @@ b");
  EXPECT_EQ(status.position(), 15);
}

TEST(ParserTest, OneBadStatementFailsTheWholeString) {
  std::vector<std::unique_ptr<Statement>> statements;
  Status status = Parse("SELECT 1; SELECT B'1'; SELECT 3", &statements);
  EXPECT_EQ(status.sqlstate(), sqlstate::kFeatureNotSupported);
  EXPECT_TRUE(statements.empty());
}

// ---------------------------------------------------------------- robustness

// Every prefix of a few rich statements either parses or fails with a
// Status; none crashes (run under ASan/UBSan to make this meaningful).
TEST(ParserTest, EveryPrefixParsesOrFailsCleanly) {
  const std::string kStatements[] = {
      "SELECT DISTINCT t.a AS x, count(*), CASE WHEN b IS NOT NULL THEN -b::numeric(5,1) ELSE 0 END "
      "FROM public.t AS t LEFT JOIN u ON t.k = u.k AND u.c BETWEEN $1 AND 3 "
      "WHERE t.a IN (1, 2) OR NOT (t.s ILIKE 'x%') GROUP BY 1 HAVING sum(b) > 1.5 "
      "ORDER BY 2 DESC NULLS LAST LIMIT ALL OFFSET 3 FOR UPDATE;",
      "CREATE TABLE IF NOT EXISTS t (a int PRIMARY KEY, b varchar(10) NOT NULL DEFAULT 'x' REFERENCES u (v), "
      "CONSTRAINT c UNIQUE (a, b), FOREIGN KEY (b) REFERENCES w) WITH (fillfactor = 100);",
      "BEGIN ISOLATION LEVEL SERIALIZABLE; UPDATE s SET q = q + -1, r = DEFAULT WHERE k = 9 RETURNING q; COMMIT",
  };
  for (const std::string& sql : kStatements) {
    for (size_t n = 0; n <= sql.size(); ++n) {
      std::vector<std::unique_ptr<Statement>> statements;
      Status status = Parse(std::string_view(sql).substr(0, n), &statements);
      if (!status.ok()) {
        EXPECT_TRUE(statements.empty());
        EXPECT_TRUE(status.Is(sqlstate::kSyntaxError) || status.Is(sqlstate::kFeatureNotSupported))
            << sql.substr(0, n) << ": " << status.ToString();
      }
    }
  }
}

TEST(ParserTest, ParseIsThreadSafe) {
  constexpr int kThreads = 8;
  constexpr int kIterations = 200;
  std::vector<std::thread> threads;
  std::vector<int> failures(kThreads, 0);
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([t, &failures] {
      for (int i = 0; i < kIterations; ++i) {
        std::string sql = "UPDATE stock SET s_quantity = " + std::to_string(t * 1000 + i) +
                          " WHERE s_i_id = $1 AND s_w_id = $2; SELECT * FORM x";
        std::vector<std::unique_ptr<Statement>> statements;
        Status error = Parse(sql, &statements);  // a syntax error in the second statement
        if (error.message() != "syntax error at or near \"FORM\"") ++failures[t];
        Status ok = Parse(sql.substr(0, sql.find(';')), &statements);
        if (!ok.ok() || statements.size() != 1 ||
            statements[0]->update->set[0].value->int_value != t * 1000 + i) {
          ++failures[t];
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(failures[t], 0) << "thread " << t;
}

}  // namespace
}  // namespace paceline::sql
