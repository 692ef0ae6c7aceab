// SequenceSession: a session's nextval/currval/setval/lastval (see
// sequence_session.h).
#include "engine/sequence_session.h"

#include <algorithm>

#include "engine/durability/durability.h"

namespace paceline::engine {

SequenceSession::SequenceSession(const catalog::Catalog* catalog, durability::Durability* durability)
    : catalog_(catalog), durability_(durability) {
  if (durability_ != nullptr) {
    logger_ = [this](int64_t value, bool called) { return durability_->AppendSequence(logging_, value, called); };
  }
}

void SequenceSession::Remember(const catalog::Sequence& sequence, std::string_view name, int64_t value) {
  currval_[sequence.id()] = value;
  last_id_ = sequence.id();
  last_name_ = std::string(name);
  last_value_ = value;
}

Status SequenceSession::NextVal(std::string_view name, int64_t* out) {
  std::shared_ptr<catalog::Sequence> sequence;
  PL_RETURN_IF_ERROR(catalog_->SequenceNamed(name, &sequence));
  Lsn lsn;
  logging_ = name;
  PL_RETURN_IF_ERROR(sequence->Next(logger_, out, &lsn));
  needed_lsn_ = std::max(needed_lsn_, lsn);
  Remember(*sequence, name, *out);
  return Status::OK();
}

Status SequenceSession::CurrVal(std::string_view name, int64_t* out) {
  std::shared_ptr<catalog::Sequence> sequence;
  PL_RETURN_IF_ERROR(catalog_->SequenceNamed(name, &sequence));
  auto it = currval_.find(sequence->id());
  if (it == currval_.end()) {
    return Status(sqlstate::kObjectNotInPrerequisiteState,
                  "currval of sequence \"" + std::string(name) + "\" is not yet defined in this session");
  }
  *out = it->second;
  return Status::OK();
}

Status SequenceSession::SetVal(std::string_view name, int64_t value, bool called) {
  std::shared_ptr<catalog::Sequence> sequence;
  PL_RETURN_IF_ERROR(catalog_->SequenceNamed(name, &sequence));
  Lsn lsn;
  logging_ = name;
  PL_RETURN_IF_ERROR(sequence->Set(logger_, value, called, &lsn));
  needed_lsn_ = std::max(needed_lsn_, lsn);
  // As PostgreSQL: currval follows a setval that marks the value used;
  // lastval is nextval's alone.
  if (called) currval_[sequence->id()] = value;
  return Status::OK();
}

Status SequenceSession::LastVal(int64_t* out) {
  std::shared_ptr<catalog::Sequence> sequence = last_id_ != 0 ? catalog_->FindSequence(last_name_) : nullptr;
  if (sequence == nullptr || sequence->id() != last_id_) {
    return Status(sqlstate::kObjectNotInPrerequisiteState, "lastval is not yet defined in this session");
  }
  *out = last_value_;
  return Status::OK();
}

Lsn SequenceSession::TakeNeededLsn() {
  const Lsn lsn = needed_lsn_;
  needed_lsn_ = Lsn();
  return lsn;
}

void SequenceSession::Discard() {
  currval_.clear();
  last_id_ = 0;
  last_name_.clear();
}

}  // namespace paceline::engine
