// A small persistent pool of threads that steps lanes side by side (simulation.cpp). Thread start costs tens of
// microseconds, a 1/60 s step of a small scene a few: the workers are started once, on first use, and wait on a
// condition variable between steps. run() hands task 0 to the calling thread and the others to whoever is free, and
// returns when all are done. One run() at a time (a mutex); tasks must not throw (the caller catches).
#pragma once

#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace lagrange {

class LaneWorkers {
 public:
  // `threads` workers beside the caller (at least 1).
  explicit LaneWorkers(int threads);
  ~LaneWorkers();
  LaneWorkers(const LaneWorkers&) = delete;
  LaneWorkers& operator=(const LaneWorkers&) = delete;

  // Calls task(0) … task(count − 1), side by side, and returns when every call has returned.
  void run(std::size_t count, const std::function<void(std::size_t)>& task);
  // Workers beside the caller that stepping lanes side by side can use on this machine: cores − 1, at most
  // `lanes` − 1; 0 on a single core.
  static int useful_threads(std::size_t lanes);

 private:
  void work();
  // Takes the next task of the current run and calls it; false when none is left.
  bool take_one(std::unique_lock<std::mutex>& lock);

  std::mutex run_mutex_;  // one run() at a time
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  const std::function<void(std::size_t)>* task_ = nullptr;
  std::size_t count_ = 0, next_ = 0, finished_ = 0;
  unsigned long generation_ = 0;
  bool quit_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace lagrange
