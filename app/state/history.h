// Scrolling history of what a world reports after each step: the samples the Diagnostics plots draw (ui/plots.h),
// one History for lane 1 and one per extra lane (state/sandbox_state.h). Plain data, no window.
#pragma once

#include <cstddef>
#include <vector>

namespace lagrange::app {

struct Sample {
  double time = 0.0;
  double kinetic = 0.0, potential = 0.0, total = 0.0;
  double violation = 0.0;           // max |C|
  double velocity_violation = 0.0;  // max |J v|
  double iterations = 0.0;
  double solve_ms = 0.0;
};

// Fixed-capacity ring buffer, oldest first.
class History {
 public:
  explicit History(std::size_t capacity = 1200) : data_(capacity) {}
  void push(const Sample& sample);
  void clear() { size_ = start_ = 0; }
  // Drops the samples later than `time` (the run resumed from an earlier moment).
  void drop_after(double time) {
    while (size_ > 0 && back().time > time + 1e-12) --size_;
  }
  std::size_t size() const { return size_; }
  std::size_t capacity() const { return data_.size(); }
  const Sample& operator[](std::size_t i) const { return data_[(start_ + i) % data_.size()]; }
  const Sample& back() const { return (*this)[size_ - 1]; }

 private:
  std::vector<Sample> data_;
  std::size_t start_ = 0, size_ = 0;
};

}  // namespace lagrange::app
