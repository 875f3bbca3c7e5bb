// The lanes' thread pool (lane_workers.h).
#include "lane_workers.h"

#include <algorithm>

namespace lagrange {

LaneWorkers::LaneWorkers(int threads) {
  for (int i = 0; i < std::max(1, threads); ++i) threads_.emplace_back([this] { work(); });
}

LaneWorkers::~LaneWorkers() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    quit_ = true;
  }
  wake_.notify_all();
  for (std::thread& thread : threads_) thread.join();
}

int LaneWorkers::useful_threads(std::size_t lanes) {
  const unsigned cores = std::thread::hardware_concurrency();
  if (cores < 2 || lanes < 2) return 0;
  return static_cast<int>(std::min<std::size_t>(cores - 1, lanes - 1));
}

bool LaneWorkers::take_one(std::unique_lock<std::mutex>& lock) {
  if (!task_ || next_ >= count_) return false;
  const std::size_t index = next_++;
  const auto* task = task_;
  lock.unlock();
  (*task)(index);
  lock.lock();
  if (++finished_ == count_) done_.notify_all();
  return true;
}

void LaneWorkers::run(std::size_t count, const std::function<void(std::size_t)>& task) {
  if (count == 0) return;
  std::lock_guard<std::mutex> one_at_a_time(run_mutex_);
  std::unique_lock<std::mutex> lock(mutex_);
  task_ = &task;
  count_ = count;
  next_ = 1;  // task 0 is the caller's
  finished_ = 0;
  ++generation_;
  lock.unlock();
  wake_.notify_all();
  task(0);
  lock.lock();
  if (++finished_ == count_) done_.notify_all();
  while (take_one(lock)) {
  }
  done_.wait(lock, [this] { return finished_ == count_; });
  task_ = nullptr;
}

void LaneWorkers::work() {
  std::unique_lock<std::mutex> lock(mutex_);
  unsigned long seen = 0;
  for (;;) {
    wake_.wait(lock, [&] { return quit_ || (generation_ != seen && task_ && next_ < count_); });
    if (quit_) return;
    seen = generation_;
    while (take_one(lock)) {
    }
  }
}

}  // namespace lagrange
