#include "engine/client/client_session.h"

#include "engine/database.h"
#include "engine/session.h"

namespace paceline::engine {

ClientSession::ClientSession(Database* db) : session_(db->CreateSession()), names_(session_.get()) {}

ClientSession::~ClientSession() = default;

void ClientSession::Cancel() { session_->Cancel(); }

TransactionState ClientSession::state() const { return session_->state(); }

Status ClientSession::GetSetting(std::string_view name, std::string* value) const {
  return session_->GetSetting(name, value);
}

Status ClientSession::SetSetting(std::string_view name, std::string value) {
  return session_->SetSetting(name, std::move(value));
}

}  // namespace paceline::engine
