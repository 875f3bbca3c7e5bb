// The drag controller (drag.h). The mouse is a compliant tool pin; docs/physics.md, "The mouse", derives the
// choices made here:
//   hard    α = h²/M: the held particle sits within α M g = g h² of the point (0.17 mm at h = 1/240 s); beyond the
//           rods' reach the compliant row makes the projection equations regular (the Newton matrix gains α/h² =
//           1/M on the pin's diagonal), and their solution puts the particle at the reachable point nearest the
//           point. The force is capped at F_max (max_force weights of M, and string_limit · m l/h²) by raising α to
//           |C|/F_max.
//   spring  α = 1/(s M): k = s M, so ω₀ = √s whatever the mass moved.
//   both    β = 2√(k M) with k = 1/α: critical damping of the moved mass on the pin.
// Explicit solvers (acceleration, penalty) integrate the pin as an explicit spring, stable only while ω h < 2 on
// the particle's own mass m: there α ≥ 4h²/m (ω h ≤ 1/2) and β ≤ m/h.
#include "lagrange/drag.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>

#include "lagrange/constraint_kinds.h"

namespace lagrange {
namespace {

// The movable particles connected to `start` through constraints, never walking through a fixed particle (it holds
// what hangs from it, it does not carry it along).
std::vector<int> component(const World& world, int start) {
  const Model& model = world.model();
  const std::size_t n = model.particle_count();
  std::vector<std::vector<int>> neighbours(n);
  for (const auto& constraint : world.constraints()) {
    const auto ids = constraint->particles();
    for (std::size_t a = 0; a < ids.size(); ++a)
      for (std::size_t b = 0; b < ids.size(); ++b)
        if (a != b) neighbours[ids[a]].push_back(ids[b]);
  }
  std::vector<char> seen(n, 0);
  std::vector<int> found, queue{start};
  seen[start] = 1;
  while (!queue.empty()) {
    const int p = queue.back();
    queue.pop_back();
    if (!model.fixed(p)) found.push_back(p);
    if (model.fixed(p) && p != start) continue;
    for (int q : neighbours[p])
      if (!seen[q]) {
        seen[q] = 1;
        queue.push_back(q);
      }
  }
  return found;
}

double gravity_scale(const World& world) { return std::max(glm::length(world.settings().gravity), 9.81); }

}  // namespace


std::optional<DragModel> find_drag_model(std::string_view id) {
  if (id == "hard") return DragModel::Hard;
  if (id == "spring") return DragModel::Spring;
  return std::nullopt;
}


void DragController::begin(World& world, int particle, const DragSettings& settings) {
  if (active()) release(world);
  State& particles = world.state();
  const Model& model = world.model();
  if (particle < 0 || static_cast<std::size_t>(particle) >= model.particle_count())
    throw Error("drag: no particle " + std::to_string(particle) + " (there are " +
                std::to_string(model.particle_count()) + ")");
  settings_ = settings;
  particle_ = particle;
  target_ = point_ = particles.position[particle];
  point_velocity_ = particles.velocity[particle];
  stretch_ = 0.0;
  const std::vector<int> moved = component(world, particle);
  moved_mass_ = 0.0;
  lightest_ = INFINITY;
  shortest_ = INFINITY;
  std::vector<char> in(model.particle_count(), 0);
  for (int q : moved) {
    moved_mass_ += model.mass(q);
    lightest_ = std::min(lightest_, model.mass(q));
    in[q] = 1;
  }
  for (const auto& c : world.constraints()) {
    const auto ids = c->particles();
    if (ids.size() == 2 && (in[ids[0]] || in[ids[1]]))
      for (int r = 0; r < c->rows(); ++r) shortest_ = std::min(shortest_, c->length_scale(r));
  }
  // A particle the scene pins is dragged by that pin: a second pin would contradict it.
  for (std::size_t c = 0; c < world.constraints().size(); ++c) {
    Constraint& pin = world.constraint(static_cast<int>(c));
    if (has_role(pin, KindRole::Pin) && !pin.tool() && pin.particles()[0] == particle) {
      // A soft pin's spring energy counts in the scene's energy; as the hand's tool it no longer does: that change
      // is the hand's.
      const double before = world.energy().total();
      kind_ = Kind::ScenePin;
      constraint_ = static_cast<int>(c);
      scene_compliance_ = pin.compliance();
      scene_damping_ = pin.damping();
      target_ = point_ = pin.point();
      pin.set_tool(true);  // it is the hand's while dragged: measurements skip it, its work is the mouse's
      choose_compliance(world, false);
      world.add_mouse_work(world.energy().total() - before);
      return;
    }
  }
  kind_ = Kind::Pin;
  if (model.fixed(particle)) {
    // Made movable, as heavy as what hangs from it, so the same compliant pin moves it and it can never tear the
    // rods; fixed again on release. Its weight now counts in the energy: that change is the hand's.
    const double before = world.energy().total();
    kind_ = Kind::Fixed;
    fixed_mass_ = model.mass(particle);
    const double heavy = moved_mass_ > 0.0 ? moved_mass_ : (fixed_mass_ > 0.0 ? fixed_mass_ : 1.0);
    world.model().set_mass(particle, heavy, false);
    particles.velocity[particle] = Vec3(0.0);
    moved_mass_ += heavy;
    lightest_ = std::min(lightest_, heavy);
    world.add_mouse_work(world.energy().total() - before);
  }
  auto pin = std::make_unique<PinConstraint>(particle, point_, world.dimension());
  pin->set_tool(true);
  constraint_ = world.add_constraint(std::move(pin));
  choose_compliance(world, false);
}

void DragController::move(Vec3 target) { target_ = target; }

double DragController::max_force(const World& world, bool posing) const {
  const Settings& s = world.settings();
  const double h = s.dt / s.substeps;
  // A pose has no time in it, so no weight to compare with: only the tension limit of the projection applies.
  const double weights = std::min(settings_.max_force, world.solver_info().mouse_force_cap);
  double force = posing ? INFINITY : weights * moved_mass_ * gravity_scale(world);
  // With no inertia to carry them, posing substeps turn a taut chain only under less tension (measured: 0.3 m l/h²
  // poses an over-reached double pendulum exactly in one call, 1 m l/h² leaves it bouncing around the line).
  const double limit = posing ? kPoseStringLimit : settings_.string_limit;
  if (std::isfinite(lightest_ * shortest_)) force = std::min(force, limit * lightest_ * shortest_ / (h * h));
  return force;
}

void DragController::choose_compliance(World& world, bool posing) {
  const Settings& s = world.settings();
  const double h = s.dt / s.substeps;
  const double mass = moved_mass_;
  double alpha, beta;
  if (posing) {
    alpha = std::max(h * h / (kPoseStiffening * mass), stretch_ / max_force(world, true));
    beta = 0.0;
  } else if (settings_.model == DragModel::Hard) {
    const double stiff = h * h / mass;
    alpha = std::max(stiff, stretch_ / max_force(world, false));
    beta = 2.0 * std::sqrt(mass / alpha);
  } else {
    // The same force cap as the hard hand: a spring stretched metres pulled a 10 g cloth particle with 2 kN, far
    // beyond the tension its rods' projection can turn (string_limit), and the cloth blew up.
    const double k = settings_.spring_stiffness * mass;
    alpha = std::max(1.0 / k, stretch_ / max_force(world, false));
    beta = 2.0 * std::sqrt(mass / alpha);
  }
  if (!posing && !world.solver_info().implicit_compliance) {
    const double m = world.model().mass(particle_);
    alpha = std::max(alpha, 4.0 * h * h / m);
    beta = std::min(beta, m / h);
  }
  compliance_ = alpha;
  damping_ = beta;
  world.set_compliance(constraint_, alpha, beta);
}

void DragController::before_step(World& world) {
  if (!active()) return;
  if (world.dimension() == 2) target_.z = point_.z;
  const double dt = world.settings().dt;
  // The held point chases the cursor at the velocity (target − point)/follow_time, at most max_speed, and changes
  // its velocity by at most max_acceleration·dt per step: a jump of the cursor becomes a smooth run, so the hand
  // never yanks (its force on what it moves stays near M·max_acceleration plus the weight).
  Vec3 wanted = settings_.follow_time > 0.0 ? (target_ - point_) / settings_.follow_time : (target_ - point_) / dt;
  const double speed = glm::length(wanted);
  if (speed > settings_.max_speed) wanted *= settings_.max_speed / speed;
  Vec3 change = wanted - point_velocity_;
  const double most = settings_.max_acceleration * dt;
  if (glm::length(change) > most) change *= most / glm::length(change);
  point_velocity_ += change;
  point_ += dt * point_velocity_;
  world.constraint(constraint_).set_point(point_);
  // The force cap must hold in this step already: judge the stretch by where the particle would coast to, not
  // only by the last step's (a grab that jumps the point would otherwise get one step of a very stiff pin).
  const State& particles = world.state();
  const Vec3 coast = particles.position[particle_] + dt * particles.velocity[particle_];
  const double coast_stretch = glm::length(coast - point_);
  if (std::isfinite(coast_stretch)) stretch_ = std::max(stretch_, coast_stretch);
  choose_compliance(world, false);
}

void DragController::after_step(const World& world) {
  if (!active()) return;
  stretch_ = glm::length(world.state().position[particle_] - point_);
  if (!std::isfinite(stretch_)) stretch_ = 0.0;
}

bool DragController::pose(World& world, double max_seconds) {
  if (!active()) return true;
  const auto start = std::chrono::steady_clock::now();
  if (world.dimension() == 2) target_.z = point_.z;
  point_ = target_;
  point_velocity_ = Vec3(0.0);
  world.constraint(constraint_).set_point(point_);
  // One projection substep at a time, the force cap judged after each (beyond reach the stiff pose pin would
  // otherwise put a tension on the rods that the projection cannot turn: docs/physics.md).
  stretch_ = glm::length(world.state().position[particle_] - point_);
  bool rest = false;
  for (int i = 0; i < kPoseIterations && !rest; ++i) {
    choose_compliance(world, true);
    rest = !(world.pose(1) > 1e-12);
    stretch_ = glm::length(world.state().position[particle_] - point_);
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > max_seconds) break;
  }
  stretch_ = 0.0;
  return rest;
}

void DragController::release(World& world) {
  if (!active()) return;
  State& particles = world.state();
  const int p = particle_;
  // Everything letting go changes (the catch of a pinned or fixed particle, the fling cap) is the hand's work.
  const double before = world.energy().total();
  if (kind_ == Kind::ScenePin) {
    Constraint& pin = world.constraint(constraint_);
    pin.set_point(particles.position[p]);  // the scene's pin again, as the scene made it, where the particle is
    pin.set_tool(false);
    world.set_compliance(constraint_, scene_compliance_, scene_damping_);
    particles.velocity[p] = Vec3(0.0);
  } else {
    world.remove_constraint(constraint_);
  }
  if (kind_ == Kind::Fixed) {
    world.model().set_mass(p, fixed_mass_, true);
    particles.velocity[p] = Vec3(0.0);
  }
  // A particle stopped by the release (fixed again, or held by its rigid pin again) jerks what hangs from it: the
  // rods' velocities are made consistent again (J v = 0), or the solvers that keep only C̈ = 0 (acceleration) keep
  // the rods' rate of stretch for ever and their constraint forces do work.
  if (kind_ != Kind::Pin) world.project_velocities();
  // The fling: the moved part keeps its velocity, scaled as a whole (J v = 0 stays true) when the grabbed particle
  // would leave faster than max_speed, or when the moved part carries more kinetic energy than if all of it flew
  // at max_speed (a chain whirled about the hand: its far end can be much faster than the hand).
  const std::vector<int> moved = component(world, p);
  double kinetic = 0.0, mass = 0.0;
  for (int q : moved) {
    kinetic += 0.5 * world.model().mass(q) * glm::dot(particles.velocity[q], particles.velocity[q]);
    mass += world.model().mass(q);
  }
  double scale = 1.0;
  const double speed = glm::length(particles.velocity[p]);
  if (speed > settings_.max_speed) scale = settings_.max_speed / speed;
  const double most = 0.5 * mass * settings_.max_speed * settings_.max_speed;
  if (kinetic > most) scale = std::min(scale, std::sqrt(most / kinetic));
  if (scale < 1.0)
    for (int q : moved) particles.velocity[q] *= scale;
  world.add_mouse_work(world.energy().total() - before);
  kind_ = Kind::None;
  particle_ = constraint_ = -1;
  stretch_ = 0.0;
}

DragScript::DragScript(std::vector<ScriptedDrag> drags, DragSettings settings)
    : drags_(std::move(drags)), settings_(settings), played_(drags_.size(), false) {}

std::string DragScript::check(const std::vector<ScriptedDrag>& drags, const World& world) {
  const std::size_t n = world.particle_count();
  for (std::size_t i = 0; i < drags.size(); ++i) {
    const ScriptedDrag& d = drags[i];
    const std::string which = "drag " + std::to_string(i + 1) + ": ";
    if (d.particle < 0 || static_cast<std::size_t>(d.particle) >= n)
      return which + "no particle " + std::to_string(d.particle) + " (the scene has " + std::to_string(n) +
             ", numbered from 0)";
    if (!(d.start >= 0.0)) return which + "T0 must be >= 0";
    if (!(d.end >= d.start)) return which + "T1 must not be before T0";
    for (std::size_t j = 0; j < i; ++j)
      if (d.start < drags[j].end && drags[j].start < d.end)
        return which + "overlaps drag " + std::to_string(j + 1) + " (one particle is dragged at a time)";
  }
  return {};
}

void DragScript::before_step(World& world, DragController& controller) {
  const double t = world.time();
  const double eps = 1e-9 * world.settings().dt;
  if (current_ >= 0 && t >= drags_[current_].end - eps) {
    controller.release(world);
    current_ = -1;
  }
  if (current_ >= 0) return;
  for (std::size_t i = 0; i < drags_.size(); ++i) {
    const ScriptedDrag& d = drags_[i];
    if (played_[i] || t < d.start - eps || t >= d.end - eps) continue;
    controller.begin(world, d.particle, settings_);
    controller.move(d.target);
    current_ = static_cast<int>(i);
    played_[i] = true;
    return;
  }
}

}  // namespace lagrange
