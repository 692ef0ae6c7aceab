#include "engine/client/request_errors.h"

#include <cctype>
#include <string>

namespace paceline::engine {

Status Shift(const Status& s, int offset) {
  if (s.ok() || s.position() <= 0 || offset == 0) return s;
  Status moved(s.sqlstate(), s.message(), s.position() + offset);
  return s.detail().empty() ? moved : moved.WithDetail(s.detail());
}

Status CatalogError(const Status& s, std::string_view text) {
  if (s.ok() || !(s.Is(sqlstate::kFeatureNotSupported) || s.Is(sqlstate::kUndefinedTable) ||
                  s.Is(sqlstate::kUndefinedFunction) || s.Is(sqlstate::kUndefinedColumn) ||
                  s.Is(sqlstate::kSyntaxError))) {
    return s;
  }
  std::string lower(text.substr(0, 4096));
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower.find("pg_catalog") == std::string::npos && lower.find("pg_class") == std::string::npos) return s;
  return Status(sqlstate::kFeatureNotSupported,
                "Paceline has no system catalogs (pg_catalog), so this query cannot run: " + s.message(),
                s.position());
}

}  // namespace paceline::engine
