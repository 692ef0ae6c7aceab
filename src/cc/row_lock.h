// RowLock: what a row-locking clause (SELECT .. FOR UPDATE | NO KEY UPDATE |
// SHARE | KEY SHARE [NOWAIT | SKIP LOCKED]) asks of the rows it reads: an
// exclusive lock (FOR UPDATE, FOR NO KEY UPDATE) or a shared one (FOR
// SHARE, FOR KEY SHARE), and what to do when another transaction holds the
// row: wait as the concurrency control waits (kBlock), or neither wait nor
// read it (kNoWait: the statement fails with 55P03; kSkip: the statement
// skips the row). The SQL front end fills it; ConcurrencyControl::ReadLocked
// acts on it.
#pragma once

namespace paceline::cc {

enum class LockWait { kBlock, kNoWait, kSkip };

struct RowLock {
  bool exclusive = true;
  LockWait wait = LockWait::kBlock;
};

}  // namespace paceline::cc
