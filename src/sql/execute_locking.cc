// Executor: SKIP LOCKED's late row locks (see executor.h, TakeRowLocks).
//
// A SKIP LOCKED query reads its rows without locks (SourcePlan::lock); the
// rows it returns are locked here, as they leave it: in the order it
// returns them, after filters, sorting and OFFSET, up to LIMIT, as
// PostgreSQL's LockRows runs below its Limit. A row another transaction
// holds is skipped; so is a row that changed since the scan read it (it
// may no longer pass the query's conditions: another consumer took it).
#include "sql/executor.h"

namespace paceline::sql {

Status Executor::TakeRowLocks(const SelectPlan& plan, storage::Row* const* rows, const storage::Tuple* const* tuples,
                              bool* taken) {
  *taken = true;
  for (size_t k = 0; k < plan.sources.size(); ++k) {
    const SourcePlan& source = plan.sources[k];
    if (!source.lock || source.lock->wait != cc::LockWait::kSkip || rows[k] == nullptr) continue;
    const storage::Tuple* image = nullptr;
    bool available = false;
    PL_RETURN_IF_ERROR(txn_->ReadLocked(rows[k], *source.lock, &image, cc::kNoPredicate, &available));
    if (!available || image != tuples[k]) {
      *taken = false;
      return Status::OK();
    }
  }
  return Status::OK();
}

}  // namespace paceline::sql
