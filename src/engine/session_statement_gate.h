// Session::StatementGate: holds the database's execution gate shared for
// one step of a session (binding, a statement, a commit) unless an
// enclosing step of the same session holds it already. Internal to the
// session's files (session.cc, session_block.cc). Not thread-safe: the
// session's own thread.
#pragma once

#include "engine/database.h"
#include "engine/session.h"

namespace paceline::engine {

class Session::StatementGate {
 public:
  explicit StatementGate(Session* session) : session_(session) {}
  ~StatementGate() { Leave(); }
  StatementGate(const StatementGate&) = delete;
  StatementGate& operator=(const StatementGate&) = delete;
  Status Enter() {
    if (session_->gate_held_) return Status::OK();
    PL_RETURN_IF_ERROR(session_->runner_->EnterGate());
    session_->gate_held_ = entered_ = true;
    return Status::OK();
  }
  void Leave() {
    if (!entered_) return;
    session_->runner_->LeaveGate();
    session_->gate_held_ = entered_ = false;
  }

 private:
  Session* session_;
  bool entered_ = false;
};

}  // namespace paceline::engine
