// NotificationSink: where pg_notify sends a notification — the running
// transaction, which publishes it to the channel's listeners when it
// commits (engine::Transaction implements it; NotificationHub delivers).
// The SQL layer declares it, so SQL never reaches up into the engine.
//
// Thread-safety: belongs to one transaction, used by one thread at a time.
#pragma once

#include <string>

namespace paceline::sql {

class NotificationSink {
 public:
  virtual ~NotificationSink() = default;
  // `channel` is non-empty and shorter than 64 bytes, `payload` shorter
  // than 8000 bytes (CheckNotification).
  virtual void Notify(std::string channel, std::string payload) = 0;
};

}  // namespace paceline::sql
