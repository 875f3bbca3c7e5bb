// Scrolling history of what a world reports after each step, and the plots drawn from it with ImDrawList
// (several series in one frame, optional log scale).
#pragma once

#include <imgui.h>

#include <cstddef>
#include <initializer_list>
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
  std::size_t size() const { return size_; }
  std::size_t capacity() const { return data_.size(); }
  const Sample& operator[](std::size_t i) const { return data_[(start_ + i) % data_.size()]; }
  const Sample& back() const { return (*this)[size_ - 1]; }

 private:
  std::vector<Sample> data_;
  std::size_t start_ = 0, size_ = 0;
};

struct Series {
  const char* label;
  double Sample::*field;
  ImU32 colour;
};

// Draws the series over the history's time span in a frame `height` pixels tall and the available width.
// Log scale plots log10 of the values, floored at 1e-16.
void plot_series(const char* id, const History& history, std::initializer_list<Series> series, float height,
                 bool log_scale, const char* unit);

}  // namespace lagrange::app
