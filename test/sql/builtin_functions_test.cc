// pg_proc's rows against the binder: every built-in function Paceline
// resolves has PostgreSQL's rows (but the names PostgreSQL parses as SQL
// syntax rather than functions, or keeps elsewhere), and every row names a
// function Paceline resolves — so pg_proc neither hides a function nor
// lists one that `SELECT f(...)` would answer with 42883. When a function
// is added, EveryNameHasRows fails and prints the names for
// script/generate_pg_proc.py.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "sql/binder.h"
#include "sql/system_catalog/builtin_functions.h"

namespace paceline::sql {
namespace {

// Names PostgreSQL has no pg_catalog function for, or none whose types
// Paceline has, and why.
const std::set<std::string> kWithoutRows = {
    // SQL syntax in PostgreSQL, not functions: COALESCE(..), NULLIF(..),
    // GREATEST/LEAST(..), CURRENT_DATE, CURRENT_TIMESTAMP, LOCALTIMESTAMP,
    // CURRENT_CATALOG, CURRENT_ROLE, USER.
    "coalesce", "current_catalog", "current_date", "current_role", "current_timestamp", "greatest", "least",
    "localtimestamp", "nullif", "user",
    // In information_schema, not pg_catalog.
    "_pg_expandarray",
    // Their types are not Paceline's: inet (Paceline answers text), aclitem[].
    "acldefault", "inet_client_addr", "inet_server_addr",
};

std::set<std::string> NamesWithRows() {
  std::set<std::string> out;
  for (const BuiltinFunction& f : BuiltinFunctions()) out.insert(f.name);
  return out;
}

TEST(BuiltinFunctionsTest, EveryNameHasRows) {
  const std::set<std::string> with_rows = NamesWithRows();
  std::string missing;
  for (std::string_view name : Binder::BuiltinFunctionNames()) {
    if (!with_rows.contains(std::string(name)) && !kWithoutRows.contains(std::string(name))) {
      missing += std::string(name) + "\n";
    }
  }
  EXPECT_EQ(missing, "") << "built-in functions without pg_proc rows; pipe these names into "
                            "script/generate_pg_proc.py (or list them in kWithoutRows with the reason)";
}

TEST(BuiltinFunctionsTest, EveryRowNamesAFunctionPacelineResolves) {
  const std::vector<std::string_view> names = Binder::BuiltinFunctionNames();
  for (const BuiltinFunction& f : BuiltinFunctions()) {
    EXPECT_TRUE(std::binary_search(names.begin(), names.end(), std::string_view(f.name)))
        << f.name << " (" << f.oid << ") is in pg_proc but Paceline does not resolve it";
  }
  for (const std::string& name : kWithoutRows) {
    EXPECT_TRUE(std::binary_search(names.begin(), names.end(), std::string_view(name)))
        << name << " is listed as without rows but is no function of Paceline's";
  }
}

TEST(BuiltinFunctionsTest, RowsAreInOidOrderAndFoundByOid) {
  const std::vector<BuiltinFunction>& all = BuiltinFunctions();
  ASSERT_FALSE(all.empty());
  for (size_t i = 1; i < all.size(); ++i) EXPECT_LT(all[i - 1].oid, all[i].oid);
  const BuiltinFunction* lower = BuiltinFunctionByOid(870);
  ASSERT_NE(lower, nullptr);
  EXPECT_EQ(lower->name, "lower");
  EXPECT_EQ(lower->arg_types, (std::vector<uint32_t>{25}));
  EXPECT_EQ(BuiltinFunctionByOid(3), nullptr);
  // lower(anyrange) is PostgreSQL's, not Paceline's (no range types).
  for (const BuiltinFunction& f : all) {
    if (f.name == "lower") {
      EXPECT_EQ(f.oid, 870u);
    }
  }
}

}  // namespace
}  // namespace paceline::sql
