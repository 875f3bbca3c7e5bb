// Periods: a timer that measures the period of one particle's swing from its trajectory, and the exact period of a
// simple pendulum (a complete elliptic integral), to set beside it. docs/physics.md, "Measuring a period".
#pragma once

#include <optional>
#include <vector>

#include "lagrange/model.h"
#include "lagrange/types.h"

namespace lagrange {

// Samples one particle's position once per step. The period comes from the crossings of the swing's midline along the
// axis (x, y or z) where the particle moves most: the midline is halfway between the extremes seen, each crossing is
// interpolated linearly between the two steps around it, and the period is the mean interval between successive
// crossings in the same direction (up and down both count). Crossings, not turning points, because a pendulum
// released beyond 90° turns twice per half swing along any fixed axis but crosses its midline once.
class PeriodMeter {
 public:
  void sample(double time, const Vec3& position);
  void clear() { time_.clear(); position_.clear(); }

  struct Result {
    double period = 0.0;  // seconds, the mean interval
    double spread = 0.0;  // largest |interval − mean|, seconds
    int intervals = 0;    // same-direction crossing intervals averaged
    int axis = 0;         // 0, 1, 2 for x, y, z
  };
  // Empty until the particle has crossed its midline twice in the same direction (one whole period).
  std::optional<Result> result() const;
  std::size_t samples() const { return time_.size(); }

 private:
  std::vector<double> time_;
  std::vector<Vec3> position_;
};

// Complete elliptic integral of the first kind K(k) = ∫₀^{π/2} dφ / √(1 − k² sin²φ), 0 ≤ k < 1, by the
// arithmetic–geometric mean: K(k) = π / (2 AGM(1, √(1 − k²))).
double elliptic_k(double k);

struct PendulumPeriod {
  double exact = 0.0;        // 4 √(L/g) K(sin(θ_max / 2)), seconds
  double small_angle = 0.0;  // 2π √(L/g)
  double amplitude = 0.0;    // θ_max, radians, from the energy of the current state
  double length = 0.0;       // L, metres
};

// The exact period of `particle` when, in this model and state, it is a simple pendulum: its only constraint is one
// rigid rod to a fixed particle (or to one held by pins and nothing else), gravity acts, there is no air drag, and
// its velocity lies in the vertical plane through the rod (otherwise it is a spherical pendulum). Empty otherwise,
// and when the bob has the energy to go over the top (it then rotates: no swing).
std::optional<PendulumPeriod> simple_pendulum_period(const Model& model, const State& state, int particle);

}  // namespace lagrange
