#include "tools/measure_tools.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>

#include "lagrange/constraint_kinds.h"
#include "lagrange/measure.h"

namespace lagrange::app {
namespace {

Vec3 down_of(const Vec3& gravity) {
  const double g = glm::length(gravity);
  return g > 0.0 ? gravity / g : Vec3(0.0, -1.0, 0.0);
}

}  // namespace

RodAngle rod_angle(const Vec3& a, const Vec3& b, const Vec3& va, const Vec3& vb, const Vec3& gravity, bool planar) {
  const Vec3 down = down_of(gravity);
  const Vec3 r = b - a, v = vb - va;
  RodAngle out;
  if (planar) {
    // (down × r)·ẑ and its rate; in the plane c² + d² = |r|².
    const double c = down.x * r.y - down.y * r.x, d = glm::dot(down, r);
    const double dc = down.x * v.y - down.y * v.x, dd = glm::dot(down, v);
    const double n = c * c + d * d;
    out.angle = std::atan2(c, d);
    out.angular_velocity = n > 0.0 ? (d * dc - c * dd) / n : 0.0;
    return out;
  }
  const Vec3 across = glm::cross(down, r);
  const double c = glm::length(across), d = glm::dot(down, r);
  const double dc = c > 0.0 ? glm::dot(across, glm::cross(down, v)) / c : 0.0;
  const double dd = glm::dot(down, v);
  const double n = c * c + d * d;
  out.angle = std::atan2(c, d);
  out.angular_velocity = n > 0.0 ? (d * dc - c * dd) / n : 0.0;
  return out;
}

std::optional<std::pair<int, int>> rod_ends(const Model& model, int rod) {
  const auto constraints = model.constraints();
  if (rod < 0 || static_cast<std::size_t>(rod) >= constraints.size()) return std::nullopt;
  const auto ids = constraints[static_cast<std::size_t>(rod)]->particles();
  if (ids.size() != 2) return std::nullopt;
  // Breadth-first over the scene's two-particle rows from every anchor: hops to the nearest anchor.
  const std::size_t n = model.particle_count();
  std::vector<int> hops(n, std::numeric_limits<int>::max());
  std::vector<std::vector<int>> next(n);
  std::deque<int> queue;
  for (std::size_t i = 0; i < n; ++i)
    if (model.fixed(i)) {
      hops[i] = 0;
      queue.push_back(static_cast<int>(i));
    }
  for (const auto& c : constraints) {
    if (c->tool()) continue;  // the mouse's pin is not an anchor
    const auto p = c->particles();
    if (c->kind().arity == 1 && hops[static_cast<std::size_t>(p[0])] != 0) {
      hops[static_cast<std::size_t>(p[0])] = 0;
      queue.push_back(p[0]);
    }
    if (p.size() == 2) {
      next[static_cast<std::size_t>(p[0])].push_back(p[1]);
      next[static_cast<std::size_t>(p[1])].push_back(p[0]);
    }
  }
  while (!queue.empty()) {
    const int i = queue.front();
    queue.pop_front();
    for (int j : next[static_cast<std::size_t>(i)])
      if (hops[static_cast<std::size_t>(j)] > hops[static_cast<std::size_t>(i)] + 1) {
        hops[static_cast<std::size_t>(j)] = hops[static_cast<std::size_t>(i)] + 1;
        queue.push_back(j);
      }
  }
  if (hops[static_cast<std::size_t>(ids[1])] < hops[static_cast<std::size_t>(ids[0])]) return std::pair{ids[1], ids[0]};
  return std::pair{ids[0], ids[1]};
}

// --- stopwatch ------------------------------------------------------------------------------------------------------

void Stopwatch::start(double now) {
  if (running_) return;
  running_ = true;
  started_at_ = now;
}

void Stopwatch::stop(double now) {
  if (!running_) return;
  banked_ += now - started_at_;
  running_ = false;
}

void Stopwatch::reset() { *this = Stopwatch{}; }

void Stopwatch::lap(double now) {
  if (running_) laps_.push_back(elapsed(now));
}

double Stopwatch::elapsed(double now) const { return banked_ + (running_ ? now - started_at_ : 0.0); }

// --- phase trace ----------------------------------------------------------------------------------------------------

void PhaseTrace::push(double angle, double angular_velocity) {
  if (capacity_ == 0) return;
  if (angle_.size() < capacity_) {
    angle_.push_back(angle);
    rate_.push_back(angular_velocity);
    return;
  }
  angle_[head_] = angle;
  rate_[head_] = angular_velocity;
  head_ = (head_ + 1) % capacity_;
}

void SteadyScale::reset(double value, double floor) {
  peaks_.clear();
  floor_ = floor;
  value_ = std::max(std::abs(value), floor);
}

void SteadyScale::update(double now, double sample, double seconds) {
  sample = std::abs(sample);
  if (!std::isfinite(sample)) return;
  while (!peaks_.empty() && peaks_.back().second <= sample) peaks_.pop_back();
  peaks_.emplace_back(now, sample);
  while (peaks_.front().first < now - window_) peaks_.pop_front();  // the newest sample always stays
  const double peak = peaks_.front().second;
  if (peak > value_) value_ = peak;
  else value_ += (peak - value_) * (1.0 - std::exp(-seconds / tau_));
  value_ = std::max(value_, floor_);
}

double nice_ceil(double x) {
  if (!(x > 0.0) || !std::isfinite(x)) return 1.0;
  const double decade = std::pow(10.0, std::floor(std::log10(x)));
  for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
    if (m * decade >= x * (1.0 - 1e-12)) return m * decade;
  return 10.0 * decade;
}

// --- energy ---------------------------------------------------------------------------------------------------------

EnergyBars energy_bars(const Energy& energy, const Work& work, double potential_offset) {
  EnergyBars bars;
  bars.kinetic = energy.kinetic;
  bars.potential = energy.potential - potential_offset;
  bars.total = bars.kinetic + bars.potential;
  bars.mouse = work.mouse;
  bars.damping = work.damping;
  return bars;
}

double lowest_potential(const World& world) {
  const Vec3 g = world.settings().gravity;
  if (!(glm::length(g) > 0.0)) return 0.0;
  Vec3 lo, hi;
  reach_bounds(world.model(), world.state(), lo, hi);
  // The corner of the reach box farthest along gravity.
  const Vec3 low(g.x > 0.0 ? hi.x : lo.x, g.y > 0.0 ? hi.y : lo.y, g.z > 0.0 ? hi.z : lo.z);
  double mass = 0.0;
  for (std::size_t i = 0; i < world.particle_count(); ++i)
    if (!world.model().fixed(i)) mass += world.model().mass(i);
  return -mass * glm::dot(g, low);
}

// --- period timer ---------------------------------------------------------------------------------------------------

int default_timed_particle(const Model& model) {
  for (int i = static_cast<int>(model.particle_count()) - 1; i >= 0; --i)
    if (!model.fixed(static_cast<std::size_t>(i))) return i;
  return -1;
}

int rod_of(const Model& model, int particle) {
  const auto constraints = model.constraints();
  for (std::size_t c = 0; c < constraints.size(); ++c) {
    if (!has_role(*constraints[c], KindRole::Rod) || constraints[c]->tool()) continue;
    const auto ids = constraints[c]->particles();
    if (ids[0] == particle || ids[1] == particle) return static_cast<int>(c);
  }
  return -1;
}

std::string why_no_exact_period(const Model& model, const State& state, int particle) {
  if (particle < 0 || static_cast<std::size_t>(particle) >= model.particle_count()) return "no particle is timed";
  if (model.fixed(static_cast<std::size_t>(particle))) return "the particle is fixed";
  const Settings& settings = model.settings();
  if (!(glm::length(settings.gravity) > 0.0)) return "there is no gravity";
  if (settings.damping != 0.0) return "air drag is on (the exact period is for a swing without losses)";
  int held_by = 0, rod = -1;
  const auto constraints = model.constraints();
  for (std::size_t c = 0; c < constraints.size(); ++c) {
    if (constraints[c]->tool()) continue;
    const auto ids = constraints[c]->particles();
    if (std::find(ids.begin(), ids.end(), particle) == ids.end()) continue;
    ++held_by;
    rod = static_cast<int>(c);
  }
  if (held_by == 0) return "nothing holds it: it is not a pendulum";
  if (held_by > 1) return "it is held by " + std::to_string(held_by) + " constraints; a simple pendulum has one rod";
  const Constraint& c = *constraints[static_cast<std::size_t>(rod)];
  if (!has_role(c, KindRole::Rod)) return "what holds it is not a rod (a pin, a wire or a plane)";
  if (c.compliance() > 0.0) return "its rod is soft (compliant): a spring, not a rigid rod";
  const auto ids = c.particles();
  const int pivot = ids[0] == particle ? ids[1] : ids[0];
  if (!model.fixed(static_cast<std::size_t>(pivot))) {
    // Anchored by pins alone counts too; anything else moves the pivot.
    bool pins_only = true, pinned = false;
    for (std::size_t k = 0; k < constraints.size(); ++k) {
      if (static_cast<int>(k) == rod || constraints[k]->tool()) continue;
      const auto p = constraints[k]->particles();
      if (std::find(p.begin(), p.end(), pivot) == p.end()) continue;
      if (has_role(*constraints[k], KindRole::Pin)) pinned = true;
      else pins_only = false;
    }
    if (!(pins_only && pinned)) return "the rod's other end moves (a double pendulum, a chain, a cart)";
  }
  const Vec3 r = state.position[static_cast<std::size_t>(particle)] - state.position[static_cast<std::size_t>(pivot)];
  const Vec3 v = state.velocity[static_cast<std::size_t>(particle)];
  const Vec3 down = down_of(settings.gravity);
  const Vec3 across = glm::cross(down, r);
  if (glm::length(across) > 1e-12 * glm::length(r) &&
      std::abs(glm::dot(v, across)) > 1e-9 * glm::length(across) * glm::length(v))
    return "it swings out of one vertical plane (a spherical pendulum)";
  const double g = glm::length(settings.gravity), length = glm::length(r);
  if (length > 0.0 && glm::dot(r, down) / length - glm::dot(v, v) / (2.0 * g * length) < -1.0)
    return "it has the energy to go over the top: it rotates, it does not swing";
  return "it is not a simple pendulum";
}

double angle_about(const World& world, int particle, int pivot) {
  const Vec3 r = world.state().position[static_cast<std::size_t>(particle)] -
                 world.state().position[static_cast<std::size_t>(pivot)];
  const Vec3 down = down_of(world.settings().gravity);
  return std::atan2(glm::length(glm::cross(down, r)), glm::dot(down, r));
}

namespace {

// Whether the hand holds something: the mouse's tool rows are in the model.
bool hand_holds(const Model& model) {
  for (const auto& c : model.constraints())
    if (c->tool()) return true;
  return false;
}

// One sample of the timed particle, after a step or when timing (re)starts.
void sample_timer(MeasureState& m, const World& world) {
  const auto p = static_cast<std::size_t>(m.particle);
  m.meter.sample(world.time(), world.state().position[p]);
  m.timer_full = m.meter.samples() >= MeasureState::kMaxSamples;
  if (!m.pendulum) return;
  m.amplitude.sample(world.time(), angle_about(world, m.particle, m.pendulum->pivot));
  if (const auto swing = m.amplitude.result()) {
    m.exact = pendulum_period(m.pendulum->length, glm::length(m.timed_gravity), swing->amplitude);
    m.exact->pivot = m.pendulum->pivot;
  }
}

// A new motion: every simple-pendulum bob of the scene watched from now on (a quick count of each particle's rows
// first, so a cloth of a thousand particles costs one pass over its rows). What "Time every bob" still waited for
// is dropped: its swing is gone. `why`: the new motion, for the note.
void watch_bobs(MeasureState& m, const World& world, const char* why) {
  if (const int waiting = bobs_timing(m); waiting > 0)
    m.every_bob_note = "stopped before " + std::to_string(waiting) + (waiting == 1 ? " bob" : " bobs") +
                       " had swung a whole period: " + why;
  m.bobs.clear();
  const Model& model = world.model();
  std::vector<int> rows(model.particle_count(), 0);
  for (const auto& c : model.constraints()) {
    if (c->tool()) continue;  // the hand's pin: a held pendulum is still a pendulum
    for (int p : c->particles()) ++rows[static_cast<std::size_t>(p)];
  }
  for (std::size_t i = 0; i < model.particle_count(); ++i) {
    if (model.fixed(i) || rows[i] != 1) continue;
    const int p = static_cast<int>(i);
    const auto pendulum = simple_pendulum_period(model, world.state(), p);
    if (!pendulum) continue;
    BobWatch& bob = m.bobs.emplace_back();
    bob.particle = p;
    bob.pendulum = *pendulum;
    bob.amplitude.sample(world.time(), angle_about(world, p, pendulum->pivot));
  }
}

// After a step: each watched bob's angle, and the period of those "Time every bob" waits for; a bob's row goes into
// the table after its first whole period (and a turn, for its amplitude).
void feed_bobs(MeasureState& m, const World& world) {
  const double g = glm::length(world.settings().gravity);
  for (BobWatch& bob : m.bobs) {
    bob.amplitude.sample(world.time(), angle_about(world, bob.particle, bob.pendulum.pivot));
    if (!bob.meter) continue;
    PeriodMeter& meter = *bob.meter;
    meter.sample(world.time(), world.state().position[static_cast<std::size_t>(bob.particle)]);
    // result() reads every sample: every step at first, then at about 600 evenly spread moments per doubling of
    // the samples, so a bob that hardly swings (near the top) does not cost a sweep of all its samples each step.
    const std::size_t n = meter.samples();
    if (n >= 600 && n % (n / 600) != 0) continue;
    const auto timed = meter.result();
    const auto swing = bob.amplitude.result();
    if (timed && swing) {
      TableRow row;
      row.particle = bob.particle;
      row.colour = bob.colour;
      row.name = bob.name;
      const PendulumPeriod exact = pendulum_period(bob.pendulum.length, g, swing->amplitude);
      row.amplitude = swing->amplitude;
      row.period = timed->period;
      row.intervals = timed->intervals;
      row.exact = exact.exact;
      row.small_angle = exact.small_angle;
      row.length = bob.pendulum.length;
      row.gravity = g;
      m.table.rows.push_back(std::move(row));
      bob.meter.reset();
    } else if (n >= MeasureState::kMaxSamples) {
      m.every_bob_note = bob.name + " did not swing a whole period in " + std::to_string(n) + " steps";
      bob.meter.reset();
    }
  }
}

}  // namespace

void restart_timer(MeasureState& m, const World& world) {
  m.meter.clear();
  m.amplitude.clear();
  m.timer_full = false;
  m.pendulum.reset();
  m.exact.reset();
  m.no_exact_reason.clear();
  m.timing_since = world.time();
  m.timed_gravity = world.settings().gravity;
  m.timed_damping = world.settings().damping;
  m.timed_mouse_work = world.work().mouse;
  m.timed_held = hand_holds(world.model());
  m.potential_offset = m.energy_zero == EnergyZero::Lowest ? lowest_potential(world) : 0.0;
  const int p = m.particle;
  if (p < 0 || static_cast<std::size_t>(p) >= world.particle_count()) return;
  m.pendulum = simple_pendulum_period(world.model(), world.state(), p);
  if (!m.pendulum) m.no_exact_reason = why_no_exact_period(world.model(), world.state(), p);
  sample_timer(m, world);
}

void select_particle(MeasureState& m, const World& world, int particle) {
  if (particle < 0 || static_cast<std::size_t>(particle) >= world.particle_count()) return;
  m.particle = particle;
  if (const int rod = rod_of(world.model(), particle); rod >= 0) select_rod(m, world, rod);
  restart_timer(m, world);
}

void select_rod(MeasureState& m, const World& world, int rod) {
  m.ends = rod_ends(world.model(), rod);
  if (rod == m.rod) return;
  m.rod = rod;
  m.trace.clear();
  m.phase_angle.reset(0.0);
  m.phase_rate.reset(0.0);
}

namespace {

void reset_scales(MeasureState& m, const World& world) {
  const EnergyBars bars = energy_bars(world.energy(), world.work(), m.potential_offset);
  double up = 0.0, down = 0.0;
  for (double v : {bars.kinetic, bars.potential, bars.total, bars.mouse, bars.damping}) {
    up = std::max(up, v);
    down = std::max(down, -v);
  }
  // A floor of a thousandth of the larger extent, so a scene at rest does not magnify round-off.
  const double floor = 1e-3 * std::max(up, down) + 1e-12;
  m.energy_up.reset(up, floor);
  m.energy_down.reset(down);
  m.phase_angle.reset(0.0);
  m.phase_rate.reset(0.0);
}

}  // namespace

void measure_scene_started(MeasureState& m, const World& world) {
  const Model& model = world.model();
  scale_scene_started(m.scale, world);
  if (m.scale.obstacle >= 0) m.tool = kScaleTool;  // a scene with obstacles opens the strip on its scale,
  else if (m.tool == kScaleTool) m.tool = 0;        // one without on the timer
  m.particle = default_timed_particle(model);
  m.rod = m.particle >= 0 ? rod_of(model, m.particle) : -1;
  m.ends = rod_ends(model, m.rod);
  m.stopwatch.reset();
  m.trace.clear();
  restart_timer(m, world);
  watch_bobs(m, world, "the scene started again");
  reset_scales(m, world);
  m.readout = {};
}

void set_energy_zero(MeasureState& m, const World& world, EnergyZero zero) {
  m.energy_zero = zero;
  m.potential_offset = zero == EnergyZero::Lowest ? lowest_potential(world) : 0.0;
  const double angle = m.phase_angle.value(), rate = m.phase_rate.value();
  reset_scales(m, world);
  m.phase_angle.reset(angle);
  m.phase_rate.reset(rate);
}

namespace {

// Gravity, damping or the mouse's work changed since timing started, or the hand took or let go.
bool motion_changed(const MeasureState& m, const World& world) {
  return world.settings().gravity != m.timed_gravity || world.settings().damping != m.timed_damping ||
         world.work().mouse != m.timed_mouse_work || hand_holds(world.model()) != m.timed_held;
}

}  // namespace

void select_obstacle(MeasureState& m, const World& world, int obstacle) {
  scale_select(m.scale, world, obstacle);
  m.tool = kScaleTool;
}

void measure_after_step(MeasureState& m, const World& world) {
  const double dt = world.settings().dt;
  scale_after_step(m.scale, world);
  if (motion_changed(m, world)) {
    restart_timer(m, world);  // a new motion: what was timed before does not belong to it
    watch_bobs(m, world, "gravity, damping or the hand changed the motion");
  } else {
    if (m.particle >= 0 && static_cast<std::size_t>(m.particle) < world.particle_count() && !m.timer_full)
      sample_timer(m, world);
    feed_bobs(m, world);
  }
  // The step's energy, measured once for the plots (Sandbox::record_step): no second pass over the scene.
  const EnergyBars bars = energy_bars(world.stats().energy, world.work(), m.potential_offset);
  double up = 0.0, down = 0.0;
  for (double v : {bars.kinetic, bars.potential, bars.total, bars.mouse, bars.damping}) {
    up = std::max(up, v);
    down = std::max(down, -v);
  }
  const double now = world.time();
  m.energy_up.update(now, up, dt);
  m.energy_down.update(now, down, dt);
  if (const auto angle = selected_rod_angle(m, world)) {
    m.trace.push(angle->angle, angle->angular_velocity);
    m.phase_angle.update(now, angle->angle, dt);
    m.phase_rate.update(now, angle->angular_velocity, dt);
  }
}

void measure_state_moved(MeasureState& m, const World& world) {
  restart_timer(m, world);
  watch_bobs(m, world, "the state was moved (a pose, or a moment of the timeline)");
  reset_scales(m, world);
  m.trace.clear();
  if (const auto angle = selected_rod_angle(m, world)) {
    m.trace.push(angle->angle, angle->angular_velocity);
    m.phase_angle.reset(angle->angle);
    m.phase_rate.reset(angle->angular_velocity);
  }
}

std::optional<RodAngle> selected_rod_angle(const MeasureState& m, const World& world) {
  const auto& ends = m.ends;
  if (!ends || static_cast<std::size_t>(std::max(ends->first, ends->second)) >= world.particle_count())
    return std::nullopt;
  const State& s = world.state();
  const auto a = static_cast<std::size_t>(ends->first), b = static_cast<std::size_t>(ends->second);
  return rod_angle(s.position[a], s.position[b], s.velocity[a], s.velocity[b], world.settings().gravity,
                   world.dimension() == 2);
}

// --- the table ------------------------------------------------------------------------------------------------------

const BobWatch* watched_bob(const MeasureState& m, int particle) {
  for (const BobWatch& bob : m.bobs)
    if (bob.particle == particle) return &bob;
  return nullptr;
}

std::optional<TableRow> timer_row(const MeasureState& m, const std::optional<glm::vec3>& colour,
                                  const std::string& name) {
  if (!m.pendulum || !m.exact) return std::nullopt;
  const auto timed = m.meter.result();
  if (!timed) return std::nullopt;
  TableRow row;
  row.particle = m.particle;
  row.colour = colour;
  row.name = name;
  row.amplitude = m.exact->amplitude;
  row.period = timed->period;
  row.intervals = timed->intervals;
  row.exact = m.exact->exact;
  row.small_angle = m.exact->small_angle;
  row.length = m.exact->length;
  row.gravity = glm::length(m.timed_gravity);
  return row;
}

bool time_every_bob(MeasureState& m, const World& world, std::span<const std::optional<glm::vec3>> colours,
                    std::span<const std::string> names) {
  if (motion_changed(m, world)) {  // a setting changed while paused: time the motion it makes, not the old one
    restart_timer(m, world);
    watch_bobs(m, world, "");
  }
  m.every_bob_note.clear();
  if (m.bobs.empty()) return false;
  m.every_bob_since = world.time();
  for (BobWatch& bob : m.bobs) {
    const auto p = static_cast<std::size_t>(bob.particle);
    bob.colour = p < colours.size() ? colours[p] : std::nullopt;
    bob.name = p < names.size() ? names[p] : "bob " + std::to_string(bob.particle);
    bob.meter.emplace();
    bob.meter->sample(world.time(), world.state().position[p]);
  }
  return true;
}

int bobs_timing(const MeasureState& m) {
  return static_cast<int>(std::count_if(m.bobs.begin(), m.bobs.end(), [](const BobWatch& b) { return b.meter.has_value(); }));
}

}  // namespace lagrange::app
