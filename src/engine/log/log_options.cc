// Sync-mode names (see log_options.h).
#include "engine/log/log_options.h"

namespace paceline::engine::log {

Status ParseSyncMode(std::string_view text, SyncMode* out) {
  for (SyncMode mode : {SyncMode::kFsync, SyncMode::kFdatasync, SyncMode::kOff}) {
    if (text == SyncModeName(mode)) {
      *out = mode;
      return Status::OK();
    }
  }
  return Status(sqlstate::kInvalidParameterValue,
                "invalid sync mode \"" + std::string(text) + "\" (valid: fsync, fdatasync, off)");
}

std::string_view SyncModeName(SyncMode mode) {
  switch (mode) {
    case SyncMode::kFsync:
      return "fsync";
    case SyncMode::kFdatasync:
      return "fdatasync";
    case SyncMode::kOff:
      return "off";
  }
  return "?";
}

}  // namespace paceline::engine::log
