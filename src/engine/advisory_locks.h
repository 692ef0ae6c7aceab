// AdvisoryLocks: one session's advisory locks, the engine's side of
// sql::AdvisoryLockAccess over the database's AdvisoryLockTable. Waits end
// at the database's lock_timeout (55P03), at the session's cancel (57014)
// and at once when they would close a cycle of advisory waits (40P01).
//
// The session ends each transaction's locks (EndTransaction) whether it
// commits or not, and all of its locks when it closes (the destructor).
//
// Thread-safety: one session's, used by one thread at a time. Ownership:
// borrows the table and the token, which outlive it.
#pragma once

#include <chrono>
#include <utility>
#include <vector>

#include "common/cancel_token.h"
#include "engine/advisory_lock_table.h"
#include "sql/advisory_lock_access.h"

namespace paceline::engine {

class AdvisoryLocks : public sql::AdvisoryLockAccess {
 public:
  AdvisoryLocks(AdvisoryLockTable* table, const CancelToken* cancel, std::chrono::milliseconds lock_timeout)
      : table_(table), cancel_(cancel), lock_timeout_(lock_timeout) {}
  ~AdvisoryLocks() override {
    if (took_session_ || took_transaction_) table_->Release(this, true, true);
  }
  AdvisoryLocks(const AdvisoryLocks&) = delete;
  AdvisoryLocks& operator=(const AdvisoryLocks&) = delete;

  Status Lock(Key key, bool shared, bool transaction, bool wait, bool* acquired) override;
  bool Unlock(Key key, bool shared) override { return table_->Unlock(this, key, shared); }
  void UnlockAll() override {
    if (took_session_) table_->Release(this, true, false);
    took_session_ = false;
  }
  // The transaction's locks end (commit or not). Free when it took none:
  // every transaction of the session comes here.
  void EndTransaction() {
    if (took_transaction_) table_->Release(this, false, true);
    took_transaction_ = false;
    transaction_holds_.clear();
  }
  // How many transaction-level holds the transaction has taken so far (a
  // savepoint's mark), and giving back those taken after a mark (ROLLBACK
  // TO SAVEPOINT, as PostgreSQL's subtransaction abort does; session-level
  // holds stay, as there).
  size_t TransactionMark() const { return transaction_holds_.size(); }
  void RollbackTo(size_t mark);

 private:
  AdvisoryLockTable* table_;
  const CancelToken* cancel_;
  const std::chrono::milliseconds lock_timeout_;
  // Whether a lock of that scope may still be held (set on acquiring; an
  // unlock does not clear it): the table is asked only then.
  bool took_session_ = false;
  bool took_transaction_ = false;
  // Each transaction-level hold taken, in order (key, shared).
  std::vector<std::pair<Key, bool>> transaction_holds_;
};

}  // namespace paceline::engine
