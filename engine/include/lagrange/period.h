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

// Measures the amplitude of a swing from the swing itself: the angle from the downward vertical at each turning point
// (a local maximum of |θ|, where the angular velocity changes sign), placed between the samples by the parabola
// through the three samples around it (an error of O(Δt³) instead of the O(Δt²) of the largest sample), and averaged
// over the turning points seen. Not from the energy of one instant, ½v² = gL(cos θ − cos θ_max): a solver's velocity
// is a difference over a step, so its kinetic energy is off by O(Δt) where the bob is fast and θ_max taken that way
// depends on the instant timing started (at 150° on the Moon, 8.67 s or 8.72 s for a swing of 8.70 s); at a turning
// point the bob is at rest and its angle is the amplitude. Either sign of θ (a 2D signed angle) or a polar angle in
// [0, π] (3D): only |θ| is used, so a swing through the bottom (a V of the polar angle) is not a turning point.
class AmplitudeMeter {
 public:
  void sample(double time, double angle);
  void clear() { *this = AmplitudeMeter{}; }

  struct Result {
    double amplitude = 0.0;  // radians, the mean of the turning points' angles
    double spread = 0.0;     // largest |turning point − mean|, radians
    int turning_points = 0;
  };
  // Empty until the first turning point after the first sample (a bob released at rest is seen turning half a
  // period later, on the other side).
  std::optional<Result> result() const;

 private:
  double time_[3] = {0.0, 0.0, 0.0}, angle_[3] = {0.0, 0.0, 0.0};  // the last three samples, oldest first
  int samples_ = 0;
  int turns_ = 0;
  double sum_ = 0.0, lowest_ = 0.0, highest_ = 0.0;
};

// Complete elliptic integral of the first kind K(k) = ∫₀^{π/2} dφ / √(1 − k² sin²φ), 0 ≤ k < 1, by the
// arithmetic–geometric mean: K(k) = π / (2 AGM(1, √(1 − k²))).
double elliptic_k(double k);

struct PendulumPeriod {
  double exact = 0.0;        // 4 √(L/g) K(sin(θ_max / 2)), seconds
  double small_angle = 0.0;  // 2π √(L/g)
  double amplitude = 0.0;    // θ_max, radians
  double length = 0.0;       // L, metres
  int pivot = -1;            // the rod's other end (fixed, or held by pins alone)
};

// The periods of a rigid pendulum of length L swinging to θ_max = `amplitude` (0 ≤ θ_max < π) under gravity g.
PendulumPeriod pendulum_period(double length, double g, double amplitude);

// The exact period of `particle` when, in this model and state, it is a simple pendulum: its only constraint is one
// rigid rod to a fixed particle (or to one held by pins and nothing else), gravity acts, there is no air drag, and
// its velocity lies in the vertical plane through the rod (otherwise it is a spherical pendulum). Empty otherwise,
// and when the bob has the energy to go over the top (it then rotates: no swing). The mouse's rows (Constraint::tool)
// are not part of the scene: a held pendulum is still a pendulum. The amplitude comes from the energy of this state,
// cos θ_max = cos θ − v²/(2gL): exact for a state at rest (a release); for a swing under way AmplitudeMeter measures
// it from the turning points, and pendulum_period() gives the period for that.
std::optional<PendulumPeriod> simple_pendulum_period(const Model& model, const State& state, int particle);

}  // namespace lagrange
