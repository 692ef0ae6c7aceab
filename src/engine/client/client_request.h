// The extended protocol's messages as plain values, decoded by the
// protocol layer from the wire and carried out by the engine
// (ClientSession::RunPipeline, PreparedNamespace). Every string_view
// borrows the caller's message buffers and must stay valid for the call it
// is passed to. A caller reuses one PipelineRequest (Clear keeps every
// vector's capacity, the messages' own included), so decoding allocates
// nothing once warm.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "common/types.h"

namespace paceline::engine {

// The format (0 text, 1 binary) of field i under a message's format codes:
// none means all text, one applies to every field, else one per field.
inline int16_t FormatOf(const std::vector<int16_t>& formats, size_t i) {
  if (formats.empty()) return 0;
  if (formats.size() == 1) return formats[0];
  return i < formats.size() ? formats[i] : 0;
}

// Parse: prepare `text` as statement `name` ("" the unnamed one).
struct ParseMessage {
  std::string_view name;
  std::string_view text;
  // The parameter types the client declared, $1 first; kUnknown where it
  // left the type to the server (OID 0, or a type Paceline does not have).
  std::vector<Type> declared;
};

// Bind: portal `portal` ("" the unnamed one) from statement `statement`
// with parameter values, and the result formats for its rows.
struct BindMessage {
  std::string_view portal;
  std::string_view statement;
  std::vector<int16_t> param_formats;
  int16_t param_count = 0;  // as the message states it
  // The parameter values the message holds, in the wire's bytes (decoded
  // by ClientInput against the statement's types); nullopt is NULL.
  std::vector<std::optional<std::string_view>> params;
  std::vector<int16_t> result_formats;
  // A message that ends early or is malformed is decoded as far as it
  // goes; `malformed` is the error where it stopped, reported when Bind
  // reaches that field (so an unknown statement or a bad value before it
  // is reported first, as it would be by reading the message in order).
  // `header_complete`: the fields up to param_count were all decoded.
  Status malformed;
  bool header_complete = false;

  void Clear() {
    portal = {};
    statement = {};
    param_formats.clear();
    param_count = 0;
    params.clear();
    result_formats.clear();
    malformed = Status::OK();
    header_complete = false;
  }
};

// Describe: the parameters and columns of statement ('S') or portal ('P')
// `name`. Close: forgets it. Any other target is a protocol violation,
// reported in the message's turn.
struct DescribeMessage {
  char target = 'S';
  std::string_view name;
};
using CloseMessage = DescribeMessage;

// Execute: runs portal `portal` ("" the unnamed one), sending at most
// `max_rows` rows (0: all); the rest waits for the next Execute.
struct ExecuteMessage {
  std::string_view portal;
  int32_t max_rows = 0;
};

// The messages a client sent up to a Sync (`sync`), or up to a Flush or a
// full buffer (not `sync`: the implicit block they opened stays open for
// the messages that follow, up to their Sync), in order.
class PipelineRequest {
 public:
  // 'P' Parse, 'B' Bind, 'D' Describe, 'E' Execute, 'C' Close; `index` is
  // its place in that kind's list (parse(), bind(), ...).
  struct Step {
    char type;
    uint32_t index;
  };

  // Empties it for the next request (capacity kept).
  void Clear(bool sync) {
    steps_.clear();
    parses_used_ = binds_used_ = 0;
    describes_.clear();
    executes_.clear();
    sync_ = sync;
    malformed_ = Status::OK();
  }
  // A new message at the end, to be filled in by the caller.
  ParseMessage& AddParse() {
    ParseMessage& p = Add('P', &parses_, &parses_used_);
    p.declared.clear();
    return p;
  }
  BindMessage& AddBind() {
    BindMessage& b = Add('B', &binds_, &binds_used_);
    b.Clear();
    return b;
  }
  DescribeMessage& AddDescribe(char type) {  // 'D' or 'C'
    steps_.push_back({type, static_cast<uint32_t>(describes_.size())});
    return describes_.emplace_back();
  }
  ExecuteMessage& AddExecute() {
    steps_.push_back({'E', static_cast<uint32_t>(executes_.size())});
    return executes_.emplace_back();
  }
  // Takes back the last message added (one whose decoding failed).
  void DropLast() {
    if (steps_.empty()) return;
    switch (steps_.back().type) {
      case 'P': --parses_used_; break;
      case 'B': --binds_used_; break;
      case 'E': executes_.pop_back(); break;
      default: describes_.pop_back(); break;
    }
    steps_.pop_back();
  }
  // The message after the last one did not decode: `error` is reported in
  // its turn, and the messages after it (up to Sync) are not run.
  void SetMalformed(Status error) { malformed_ = std::move(error); }

  const std::vector<Step>& steps() const { return steps_; }
  const ParseMessage& parse(const Step& s) const { return parses_[s.index]; }
  const BindMessage& bind(const Step& s) const { return binds_[s.index]; }
  const DescribeMessage& describe(const Step& s) const { return describes_[s.index]; }  // 'D' and 'C'
  const ExecuteMessage& execute(const Step& s) const { return executes_[s.index]; }
  bool sync() const { return sync_; }
  const Status& malformed() const { return malformed_; }

 private:
  template <typename T>
  T& Add(char type, std::vector<T>* list, size_t* used) {
    if (*used == list->size()) list->emplace_back();
    steps_.push_back({type, static_cast<uint32_t>(*used)});
    return (*list)[(*used)++];
  }

  std::vector<Step> steps_;
  std::vector<ParseMessage> parses_;  // [0, parses_used_) hold this request's; the rest keep their capacity
  size_t parses_used_ = 0;
  std::vector<BindMessage> binds_;
  size_t binds_used_ = 0;
  std::vector<DescribeMessage> describes_;
  std::vector<ExecuteMessage> executes_;
  bool sync_ = true;
  Status malformed_;
};

}  // namespace paceline::engine
