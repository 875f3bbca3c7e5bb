#include "lagrange/period.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "lagrange/constraint.h"
#include "lagrange/constraint_kinds.h"

namespace lagrange {

void PeriodMeter::sample(double time, const Vec3& position) {
  time_.push_back(time);
  position_.push_back(position);
}

std::optional<PeriodMeter::Result> PeriodMeter::result() const {
  const std::size_t n = time_.size();
  if (n < 3) return std::nullopt;
  Vec3 lo = position_[0], hi = position_[0];
  for (const Vec3& p : position_) {
    lo = glm::min(lo, p);
    hi = glm::max(hi, p);
  }
  const Vec3 range = hi - lo;
  int axis = 0;
  for (int a = 1; a < 3; ++a)
    if (range[a] > range[axis]) axis = a;
  if (!(range[axis] > 0.0)) return std::nullopt;
  const double mid = 0.5 * (lo[axis] + hi[axis]);
  std::vector<double> up, down;
  for (std::size_t i = 0; i + 1 < n; ++i) {
    const double a = position_[i][axis] - mid, b = position_[i + 1][axis] - mid;
    if ((a < 0.0) == (b < 0.0)) continue;  // no crossing (a sample exactly on the line counts as above it)
    const double t = time_[i] + (time_[i + 1] - time_[i]) * (a / (a - b));
    (b >= 0.0 ? up : down).push_back(t);
  }
  std::vector<double> intervals;
  for (const auto* list : {&up, &down})
    for (std::size_t i = 1; i < list->size(); ++i) intervals.push_back((*list)[i] - (*list)[i - 1]);
  if (intervals.empty()) return std::nullopt;
  Result r;
  r.axis = axis;
  r.intervals = static_cast<int>(intervals.size());
  for (double d : intervals) r.period += d;
  r.period /= static_cast<double>(intervals.size());
  for (double d : intervals) r.spread = std::max(r.spread, std::abs(d - r.period));
  return r;
}

void AmplitudeMeter::sample(double time, double angle) {
  angle = std::abs(angle);
  if (samples_ == 3) {
    time_[0] = time_[1], time_[1] = time_[2];
    angle_[0] = angle_[1], angle_[1] = angle_[2];
    --samples_;
  }
  time_[samples_] = time;
  angle_[samples_] = angle;
  if (++samples_ < 3) return;
  const double a0 = angle_[0], a1 = angle_[1], a2 = angle_[2];
  if (!(a1 >= a0 && a1 > a2)) return;  // not a turning point (a plateau counts once, at its end)
  // The parabola through the three samples, p(t) = a1 + s (t − t1) + ½ c (t − t1)², peaks at a1 − s²/(2c).
  const double h0 = time_[1] - time_[0], h1 = time_[2] - time_[1];
  double peak = a1;
  if (h0 > 0.0 && h1 > 0.0) {
    const double before = (a1 - a0) / h0, after = (a2 - a1) / h1;
    const double curvature = 2.0 * (after - before) / (h0 + h1);
    const double slope = (before * h1 + after * h0) / (h0 + h1);
    if (curvature < 0.0) peak = a1 - slope * slope / (2.0 * curvature);
  }
  if (!std::isfinite(peak)) return;
  lowest_ = turns_ == 0 ? peak : std::min(lowest_, peak);
  highest_ = turns_ == 0 ? peak : std::max(highest_, peak);
  sum_ += peak;
  ++turns_;
}

std::optional<AmplitudeMeter::Result> AmplitudeMeter::result() const {
  if (turns_ == 0) return std::nullopt;
  Result r;
  r.turning_points = turns_;
  r.amplitude = sum_ / turns_;
  r.spread = std::max(highest_ - r.amplitude, r.amplitude - lowest_);
  return r;
}

double elliptic_k(double k) {
  double a = 1.0, b = std::sqrt((1.0 - k) * (1.0 + k));
  for (int i = 0; i < 64 && std::abs(a - b) > 1e-16 * a; ++i) {
    const double mean = 0.5 * (a + b);
    b = std::sqrt(a * b);
    a = mean;
  }
  return std::numbers::pi / (a + b);  // π / (2 AGM), with the AGM taken as (a + b) / 2
}

namespace {

// Whether particle q stays put: fixed, or held by pins and by nothing else than the rod to `bob`.
bool anchored(const Model& model, int q, int rod_index) {
  if (model.fixed(q)) return true;
  int pin_rows = 0;
  const auto constraints = model.constraints();
  for (std::size_t c = 0; c < constraints.size(); ++c) {
    const Constraint& con = *constraints[c];
    const auto ids = con.particles();
    if (con.tool() || std::find(ids.begin(), ids.end(), q) == ids.end() || static_cast<int>(c) == rod_index) continue;
    if (!has_role(con, KindRole::Pin) || con.compliance() > 0.0) return false;
    pin_rows += con.rows();
  }
  return pin_rows >= model.dimension();
}

}  // namespace

PendulumPeriod pendulum_period(double length, double g, double amplitude) {
  PendulumPeriod p;
  p.length = length;
  p.amplitude = amplitude;
  p.small_angle = 2.0 * std::numbers::pi * std::sqrt(length / g);
  p.exact = 4.0 * std::sqrt(length / g) * elliptic_k(std::sin(0.5 * amplitude));
  return p;
}

std::optional<PendulumPeriod> simple_pendulum_period(const Model& model, const State& state, int particle) {
  if (particle < 0 || static_cast<std::size_t>(particle) >= model.particle_count() || model.fixed(particle))
    return std::nullopt;
  const Settings& settings = model.settings();
  const double g = glm::length(settings.gravity);
  if (!(g > 0.0) || settings.damping != 0.0) return std::nullopt;
  int rod_index = -1, pivot = -1;
  const auto constraints = model.constraints();
  for (std::size_t c = 0; c < constraints.size(); ++c) {
    const auto ids = constraints[c]->particles();
    if (constraints[c]->tool() || std::find(ids.begin(), ids.end(), particle) == ids.end()) continue;
    const Constraint& rod = *constraints[c];
    if (!has_role(rod, KindRole::Rod) || rod_index >= 0 || rod.compliance() > 0.0)
      return std::nullopt;  // one rigid rod, nothing else
    rod_index = static_cast<int>(c);
    pivot = ids[0] == particle ? ids[1] : ids[0];
  }
  if (rod_index < 0 || !anchored(model, pivot, rod_index)) return std::nullopt;
  const Vec3 r = state.position[particle] - state.position[pivot];
  const Vec3 v = state.velocity[particle];
  const double length = glm::length(r);
  if (!(length > 0.0)) return std::nullopt;
  const Vec3 down = settings.gravity / g;
  // Planar: the velocity has no component across the vertical plane through the rod.
  const Vec3 across = glm::cross(down, r);
  const double across_length = glm::length(across);
  if (across_length > 1e-12 * length && std::abs(glm::dot(v, across)) > 1e-9 * across_length * glm::length(v))
    return std::nullopt;
  // Energy: ½ v² = g L (cos θ − cos θ_max), θ measured from straight down.
  const double cos_now = std::clamp(glm::dot(r, down) / length, -1.0, 1.0);
  const double cos_max = cos_now - glm::dot(v, v) / (2.0 * g * length);
  if (!(cos_max >= -1.0)) return std::nullopt;  // over the top: it rotates
  PendulumPeriod p = pendulum_period(length, g, std::acos(std::min(cos_max, 1.0)));
  p.pivot = pivot;
  return p;
}

}  // namespace lagrange
