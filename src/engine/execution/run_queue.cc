// RunQueue: a locked deque whose length is mirrored in an atomic.
#include "engine/execution/run_queue.h"

namespace paceline::engine {

bool RunQueue::Push(Job&& job) {
  std::lock_guard lock(mu_);
  if (closed_) return false;
  jobs_.push_back(std::move(job));
  size_.store(jobs_.size(), std::memory_order_seq_cst);
  return true;
}

bool RunQueue::PopFront(Job* job) {
  std::lock_guard lock(mu_);
  if (jobs_.empty()) return false;
  *job = std::move(jobs_.front());
  jobs_.pop_front();
  size_.store(jobs_.size(), std::memory_order_seq_cst);
  return true;
}

void RunQueue::Close() {
  std::lock_guard lock(mu_);
  closed_ = true;
}

std::vector<Job> RunQueue::TakeAll() {
  std::lock_guard lock(mu_);
  std::vector<Job> jobs(std::make_move_iterator(jobs_.begin()), std::make_move_iterator(jobs_.end()));
  jobs_.clear();
  size_.store(0, std::memory_order_seq_cst);
  return jobs;
}

}  // namespace paceline::engine
