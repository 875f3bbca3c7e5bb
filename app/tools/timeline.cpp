#include "tools/timeline.h"

namespace lagrange::app {
namespace {

std::size_t state_cost(const State& s) {
  return sizeof(State) + (s.position.size() + s.velocity.size()) * sizeof(Vec3) + s.row_force.size() * sizeof(double);
}

}  // namespace

std::size_t Timeline::cost(const Snapshot& snapshot) {
  std::size_t bytes = 0;
  for (const State& lane : snapshot.lanes) bytes += state_cost(lane);
  return bytes;
}

void Timeline::record(Snapshot snapshot) {
  bytes_ += cost(snapshot);
  snapshots_.push_back(std::move(snapshot));
  // Keep at least the newest two (the state now and one to step back to).
  while (snapshots_.size() > 2 && (snapshots_.back().time() - snapshots_.front().time() > max_seconds ||
                                   bytes_ > max_bytes)) {
    bytes_ -= cost(snapshots_.front());
    snapshots_.pop_front();
  }
}

void Timeline::resume() {
  if (!cursor_) return;
  while (snapshots_.size() > *cursor_ + 1) {
    bytes_ -= cost(snapshots_.back());
    snapshots_.pop_back();
  }
  cursor_.reset();
}

}  // namespace lagrange::app
