// RunQueue: a locked deque whose length is mirrored in an atomic.
#include "engine/execution/run_queue.h"

namespace paceline::engine {

bool RunQueue::Push(Job&& job) { return Insert(std::move(job), /*front=*/false); }

bool RunQueue::PushFront(Job&& job) { return Insert(std::move(job), /*front=*/true); }

bool RunQueue::Insert(Job&& job, bool front) {
  std::lock_guard lock(mu_);
  if (closed_) return false;
  const bool pinned = job.pinned;
  if (front) {
    jobs_.push_front(std::move(job));
  } else {
    jobs_.push_back(std::move(job));
  }
  Mirror(unpinned_.load(std::memory_order_relaxed) + (pinned ? 0 : 1));
  return true;
}

bool RunQueue::PopFront(Job* job) {
  std::lock_guard lock(mu_);
  if (jobs_.empty()) return false;
  const bool pinned = jobs_.front().pinned;
  *job = std::move(jobs_.front());
  jobs_.pop_front();
  Mirror(unpinned_.load(std::memory_order_relaxed) - (pinned ? 0 : 1));
  return true;
}

bool RunQueue::Steal(Job* job, const std::function<bool(const Job&)>& may_move) {
  std::lock_guard lock(mu_);
  auto take = [&](std::deque<Job>::iterator it) {
    const bool pinned = it->pinned;
    *job = std::move(*it);
    jobs_.erase(it);
    Mirror(unpinned_.load(std::memory_order_relaxed) - (pinned ? 0 : 1));
    return true;
  };
  if (unpinned_.load(std::memory_order_relaxed) > 0) {
    for (auto it = jobs_.begin(); it != jobs_.end(); ++it) {
      if (!it->pinned) return take(it);
    }
  }
  size_t scanned = 0;
  for (auto it = jobs_.begin(); it != jobs_.end() && scanned < kPinnedScan; ++it) {
    if (!it->pinned) continue;
    ++scanned;
    if (may_move(*it)) return take(it);
  }
  return false;
}

void RunQueue::Mirror(size_t unpinned) {
  unpinned_.store(unpinned, std::memory_order_seq_cst);
  size_.store(jobs_.size(), std::memory_order_seq_cst);
}

void RunQueue::Close() {
  std::lock_guard lock(mu_);
  closed_ = true;
}

std::vector<Job> RunQueue::TakeAll() {
  std::lock_guard lock(mu_);
  std::vector<Job> jobs(std::make_move_iterator(jobs_.begin()), std::make_move_iterator(jobs_.end()));
  jobs_.clear();
  Mirror(0);
  return jobs;
}

}  // namespace paceline::engine
