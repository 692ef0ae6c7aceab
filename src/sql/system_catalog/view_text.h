// QualifyRelations: a view's stored text with the user's relations it
// names qualified ("public.t") or not, as pg_get_viewdef prints a view:
// qualified when public is not on the search path (pg_dump sets the path
// empty, so that its restore finds every name where the dump found it),
// bare when it is (whichever way the view was written).
//
// Thread-safety: a pure function. It parses the text (the SQL layer's
// parser) and walks every FROM clause: of the query, its WITH queries, set
// operation arms, joins, subqueries in FROM and in expressions.
#pragma once

#include <functional>
#include <string>

namespace paceline::sql {

// `definition`, a CREATE VIEW statement, where each name in a FROM clause
// that no WITH query in scope has and `is_user_relation` accepts is
// written "public.name" (`qualify`) or "name" (not); unchanged when it does
// not parse.
std::string QualifyRelations(const std::string& definition, bool qualify,
                             const std::function<bool(const std::string&)>& is_user_relation);

}  // namespace paceline::sql
