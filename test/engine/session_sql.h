// Test helpers: run one SQL text on a Session and check it succeeded. Shared
// by the schedule tests (test/cc/schedule_test.cc) and the cancel tests.
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

}  // namespace paceline::engine::test_sql
