// Test helpers: run one SQL text on a Session and check it succeeded. Shared
// by the schedule tests (test/cc/schedule_test.cc), the cancel tests and
// the conflict lane tests.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "engine/database.h"

namespace paceline::engine::test_sql {

// Runs `sql` on `s` (one statement, Session::Execute); its rows go to `r`
// when given.
inline Status RunSql(const std::unique_ptr<Session>& s, const std::string& sql, QueryResult* r = nullptr) {
  QueryResult local;
  return s->Execute(sql, r ? r : &local);
}

// Runs `sql` and fails the test (fatally for the calling function) unless it
// succeeded.
inline void Ok(const std::unique_ptr<Session>& s, const std::string& sql) {
  Status st = RunSql(s, sql);
  ASSERT_TRUE(st.ok()) << sql << ": " << st.ToString();
}

// Column v of row `id` of table x (the schedule tests' table), read by a
// fresh session of `db`; -1 (and a test failure) when it cannot be read.
inline int64_t ValueOfX(Database* db, int id) {
  auto s = db->CreateSession();
  QueryResult r;
  Status st = RunSql(s, "SELECT v FROM x WHERE id = " + std::to_string(id), &r);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return st.ok() && !r.rows.empty() ? r.rows[0][0].int_value() : -1;
}

}  // namespace paceline::engine::test_sql
