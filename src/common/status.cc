#include "common/status.h"

#include <cstring>

namespace paceline {

namespace {
const std::string kEmpty;
}

Status::Status(std::string_view sqlstate, std::string message, int position) {
  auto state = std::make_shared<State>();
  std::memset(state->code, 0, sizeof(state->code));
  std::memcpy(state->code, sqlstate.data(), std::min<size_t>(5, sqlstate.size()));
  state->position = position;
  state->message = std::move(message);
  state_ = std::move(state);
}

std::string_view Status::sqlstate() const {
  return state_ ? std::string_view(state_->code, 5) : sqlstate::kSuccessfulCompletion;
}

const std::string& Status::message() const { return state_ ? state_->message : kEmpty; }

const std::string& Status::detail() const { return state_ ? state_->detail : kEmpty; }

std::string Status::ToString() const {
  if (ok()) return "OK";
  std::string out = "ERROR:  " + state_->message + " (SQLSTATE " + std::string(sqlstate()) + ")";
  if (!state_->detail.empty()) out += " DETAIL:  " + state_->detail;
  return out;
}

Status Status::WithPosition(int position) const {
  if (ok() || state_->position != 0 || position <= 0) return *this;
  return Status(sqlstate(), state_->message, position).WithDetail(state_->detail);
}

Status Status::WithDetail(std::string detail) const {
  if (ok()) return *this;
  auto state = std::make_shared<State>(*state_);
  state->detail = std::move(detail);
  Status s;
  s.state_ = std::move(state);
  return s;
}

Status SyntaxError(std::string message, int position) {
  return Status(sqlstate::kSyntaxError, std::move(message), position);
}

Status NotSupported(std::string what) {
  return Status(sqlstate::kFeatureNotSupported, what + " is not supported");
}

Status InternalError(std::string message) {
  return Status(sqlstate::kInternalError, std::move(message));
}

}  // namespace paceline
