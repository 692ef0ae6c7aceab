// Session: its settings — PostgreSQL's defaults, SHOW/SET/RESET and
// set_config, SET LOCAL and a block's changes undone at its end (see
// session.h).
#include <string>

#include "engine/session.h"

namespace paceline::engine {

namespace {

bool IsOn(std::string_view value) {
  return value == "on" || value == "true" || value == "yes" || value == "1" || value == "t";
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

// 22023 for a value the setting cannot take, as PostgreSQL's GUC checks
// (for the settings whose values Paceline knows; the others take any text).
Status CheckSettingValue(std::string_view key, std::string_view value) {
  auto invalid = [&](std::string detail) {
    Status s(sqlstate::kInvalidParameterValue,
             "invalid value for parameter \"" + std::string(key) + "\": \"" + std::string(value) + "\"");
    return detail.empty() ? s : s.WithDetail(std::move(detail));
  };
  const std::string v = Lower(value);
  if (key == "check_function_bodies" || key == "synchronize_seqscans" || key == "row_security") {
    // PostgreSQL's boolean input (parse_bool), as a cast to boolean reads it.
    Value parsed;
    if (!CastValue(Value::String(TypeId::kUnknown, v), Type(TypeId::kBool), false, &parsed).ok()) {
      return Status(sqlstate::kInvalidParameterValue,
                    "parameter \"" + std::string(key) + "\" requires a Boolean value");
    }
  }
  if (key == "default_table_access_method" && v != "heap") {
    return invalid("Table access method \"" + std::string(value) + "\" does not exist.");
  }
  if (key == "default_tablespace" && !v.empty() && v != "pg_default") {
    return invalid("Tablespace \"" + std::string(value) + "\" does not exist.");
  }
  if (key == "xmloption" && v != "content" && v != "document") return invalid("");
  return Status::OK();
}

}  // namespace

const Session::SettingsMap& Session::DefaultSettings() {
  static const auto* settings = new SettingsMap{
      {"application_name", ""},
      {"client_encoding", "UTF8"},
      {"check_function_bodies", "on"},
      {"client_min_messages", "notice"},
      {"datestyle", "ISO, MDY"},
      {"default_table_access_method", "heap"},
      {"default_tablespace", ""},
      {"default_transaction_isolation", "serializable"},
      {"default_transaction_read_only", "off"},
      {"extra_float_digits", "1"},
      {"idle_in_transaction_session_timeout", "0"},
      {"integer_datetimes", "on"},
      {"intervalstyle", "postgres"},
      {"lock_timeout", "0"},
      {"max_identifier_length", "63"},
      {"max_index_keys", "32"},  // PostgreSQL's; pgjdbc reads it (DatabaseMetaData)
      {"search_path", "\"$user\", public"},
      {"server_encoding", "UTF8"},
      {"server_version", "15.0 (Paceline 0.1.0)"},
      {"server_version_num", "150000"},
      {"standard_conforming_strings", "on"},
      {"row_security", "on"},
      {"statement_timeout", "0"},
      {"synchronize_seqscans", "on"},
      {"synchronous_commit", "on"},
      {"timezone", "UTC"},
      {"transaction_isolation", "serializable"},
      {"transaction_read_only", "off"},
      {"xmloption", "content"},
  };
  return *settings;
}

Status Session::GetSetting(std::string_view name, std::string* value) const {
  if (Lower(name) == "transaction_read_only") {
    *value = read_only_ ? "on" : "off";
    return Status::OK();
  }
  auto it = settings_.find(Lower(name));
  if (it == settings_.end()) {
    return Status(sqlstate::kUndefinedObject, "unrecognized configuration parameter \"" + std::string(name) + "\"");
  }
  *value = it->second;
  return Status::OK();
}

std::vector<std::pair<std::string, std::string>> Session::AllSettings() const {
  std::vector<std::pair<std::string, std::string>> out(settings_.begin(), settings_.end());
  for (auto& [name, value] : out) {
    if (name == "transaction_read_only") value = read_only_ ? "on" : "off";
  }
  return out;
}

Status Session::SetSettingFromStatement(const std::string& name, const std::string& value, bool local) {
  std::string key = Lower(name);
  // As SET LOCAL: for the rest of the block; outside one, no effect.
  if (local && state_ == TransactionState::kIdle) return Status::OK();
  PL_RETURN_IF_ERROR(SetSetting(key, value));
  if (local) local_settings_.push_back(key);
  return Status::OK();
}

Status Session::SetSetting(std::string_view name, std::string value) {
  std::string key = Lower(name);
  if (!settings_.count(key) && key.find('.') == std::string::npos) {
    return Status(sqlstate::kUndefinedObject, "unrecognized configuration parameter \"" + std::string(name) + "\"");
  }
  if (key == "server_version" || key == "server_version_num" || key == "server_encoding" ||
      key == "integer_datetimes" || key == "max_identifier_length" || key == "max_index_keys") {
    return Status(sqlstate::kCantChangeRuntimeParam, "parameter \"" + key + "\" cannot be changed");
  }
  PL_RETURN_IF_ERROR(CheckSettingValue(key, value));
  if (key == "transaction_read_only") {  // this transaction's mode, not a stored setting
    if (state_ != TransactionState::kIdle) read_only_ = IsOn(value);
    return Status::OK();
  }
  // The first change inside a block saves what its end may restore.
  if (state_ != TransactionState::kIdle && !block_settings_) block_settings_ = settings_;
  if (key == "default_transaction_read_only" && state_ == TransactionState::kIdle) read_only_ = IsOn(value);
  settings_[key] = std::move(value);
  return Status::OK();
}

void Session::EndBlockSettings(bool commit) {
  if (block_settings_) {
    if (!commit) {
      settings_ = std::move(*block_settings_);
    } else {
      for (const auto& key : local_settings_) {
        auto saved = block_settings_->find(key);
        if (saved == block_settings_->end()) settings_.erase(key);
        else settings_[key] = saved->second;
      }
    }
    block_settings_.reset();
  }
  local_settings_.clear();
  auto it = settings_.find("default_transaction_read_only");
  read_only_ = it != settings_.end() && IsOn(it->second);
}

void Session::ResetAllSettings(bool block_scoped) {
  for (const auto& [key, value] : DefaultSettings()) {
    if (SetSetting(key, value).ok() && block_scoped) local_settings_.push_back(key);
  }
}

}  // namespace paceline::engine
