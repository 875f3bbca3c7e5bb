// Time travel (issue 11): the states of the last seconds, one per step, so a class can scrub back to the moment a
// chain whipped, step backward, and resume from there. A state is all a world needs to continue (model.h: the
// solvers carry nothing between substeps), so a run resumed from a snapshot is, bit for bit, the run that went on
// from that state. Memory-bounded: the oldest snapshots go first, past max_seconds of simulated time or max_bytes.
#pragma once

#include <cstddef>
#include <deque>
#include <optional>
#include <vector>

#include "lagrange/diagnostics.h"
#include "lagrange/model.h"

namespace lagrange::app {

// What the CSV export writes of a lane at a snapshot: its energy and max |C| then (measured when recorded, with the
// settings of that moment).
struct Measured {
  Energy energy;
  double violation = 0.0;
};

// Every lane's state at one moment, lane 1 first (the simulation's order), and what the export writes of each.
struct Snapshot {
  std::vector<State> lanes;
  std::vector<Measured> measured;
  double time() const { return lanes.empty() ? 0.0 : lanes.front().time; }  // lane 1's
};

class Timeline {
 public:
  double max_seconds = 60.0;                 // simulated seconds kept
  std::size_t max_bytes = std::size_t{256} << 20;

  void clear() {
    snapshots_.clear();
    bytes_ = 0;
    cursor_.reset();
  }
  // Appends the state after a step (or at the start); drops the oldest beyond the limits. Live only: a caller
  // resuming from the cursor calls resume() first.
  void record(Snapshot snapshot);
  std::size_t size() const { return snapshots_.size(); }
  bool empty() const { return snapshots_.empty(); }
  const Snapshot& at(std::size_t i) const { return snapshots_[i]; }
  const Snapshot& back() const { return snapshots_.back(); }
  std::size_t bytes() const { return bytes_; }

  // The snapshot shown while scrubbing; nothing when live.
  std::optional<std::size_t> cursor() const { return cursor_; }
  void set_cursor(std::size_t i) { cursor_ = i < snapshots_.size() ? i : snapshots_.size() - 1; }
  // Leaves the past: drops every snapshot after the cursor (the later history) and goes live from it.
  void resume();

  // What one snapshot costs: the arrays' elements and the fixed part.
  static std::size_t cost(const Snapshot& snapshot);

 private:
  std::deque<Snapshot> snapshots_;
  std::size_t bytes_ = 0;
  std::optional<std::size_t> cursor_;
};

}  // namespace lagrange::app
