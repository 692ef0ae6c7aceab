#include "engine/client/request_errors.h"

#include <cctype>
#include <string>

namespace paceline::engine {

Status Shift(const Status& s, int offset) {
  if (s.ok() || s.position() <= 0 || offset == 0) return s;
  Status moved(s.sqlstate(), s.message(), s.position() + offset);
  return s.detail().empty() ? moved : moved.WithDetail(s.detail());
}


}  // namespace paceline::engine
