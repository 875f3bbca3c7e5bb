#include "lagrange/world.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>

#include "solvers.h"

namespace lagrange {
namespace {

bool finite(const Vec3& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

}  // namespace

World::World(int dimension, Settings settings) : dimension_(dimension) {
  if (dimension != 2 && dimension != 3) throw Error("dimension must be 2 or 3, got " + std::to_string(dimension));
  set_settings(settings);
}

World::~World() = default;
World::World(World&&) noexcept = default;
World& World::operator=(World&&) noexcept = default;

int World::add_particle(const ParticleDef& def) {
  if (!finite(def.position)) throw Error("particle position must be finite");
  if (!finite(def.velocity)) throw Error("particle velocity must be finite");
  if (!def.fixed && !(def.mass > 0.0 && std::isfinite(def.mass)))
    throw Error("particle mass must be a positive finite number, got " + std::to_string(def.mass));
  if (!(def.radius >= 0.0 && std::isfinite(def.radius))) throw Error("particle radius must be >= 0");
  const int index = particles_.add(def);
  ++topology_version_;
  return index;
}

int World::add_constraint(std::unique_ptr<Constraint> constraint) {
  if (!constraint) throw Error("null constraint");
  const auto ids = constraint->particles();
  if (ids.empty() || ids.size() > static_cast<std::size_t>(kMaxRowParticles))
    throw Error(std::string(constraint->type()) + " constraint must touch 1 or 2 particles");
  for (std::size_t k = 0; k < ids.size(); ++k) {
    if (ids[k] < 0 || static_cast<std::size_t>(ids[k]) >= particles_.size())
      throw Error(std::string(constraint->type()) + " constraint names particle " + std::to_string(ids[k]) +
                  ", but there are " + std::to_string(particles_.size()) + " particles");
    for (std::size_t j = 0; j < k; ++j)
      if (ids[j] == ids[k])
        throw Error(std::string(constraint->type()) + " constraint names particle " + std::to_string(ids[k]) +
                    " twice");
  }
  for (int r = 0; r < constraint->rows(); ++r)
    if (!(constraint->length_scale(r) > 0.0 && std::isfinite(constraint->length_scale(r))))
      throw Error(std::string(constraint->type()) + " constraint must have a positive finite length");
  const double alpha = constraint->compliance(), beta = constraint->damping();
  if (!(alpha >= 0.0 && std::isfinite(alpha)) || !(beta >= 0.0 && std::isfinite(beta)))
    throw Error(std::string(constraint->type()) + " constraint: compliance and damping must be finite and >= 0");
  constraints_.push_back(std::move(constraint));
  const int index = static_cast<int>(constraints_.size()) - 1;
  append_rows(index);
  tool_rows_ = tool_rows_ || constraints_[index]->tool();
  if (alpha > 0.0)
    for (int r = 0; r < constraints_[index]->rows(); ++r) compliant_rows_.push_back(row_offset_[index] + r);
  return static_cast<int>(constraints_.size()) - 1;
}

void World::set_compliance(int index, double compliance, double damping) {
  if (index < 0 || static_cast<std::size_t>(index) >= constraints_.size())
    throw Error("no constraint " + std::to_string(index));
  if (!(compliance >= 0.0 && std::isfinite(compliance)) || !(damping >= 0.0 && std::isfinite(damping)))
    throw Error("compliance and damping must be finite and >= 0");
  constraints_[index]->set_compliance(compliance, damping);
  refresh_compliance();
}

void World::refresh_compliance() {
  compliant_rows_.clear();
  tool_rows_ = false;
  for (std::size_t c = 0; c < constraints_.size(); ++c) {
    const Constraint& constraint = *constraints_[c];
    tool_rows_ = tool_rows_ || constraint.tool();
    if (constraint.compliance() > 0.0)
      for (int r = 0; r < constraint.rows(); ++r) compliant_rows_.push_back(row_offset_[c] + r);
  }
}

void World::remove_constraint(int index) {
  if (index < 0 || static_cast<std::size_t>(index) >= constraints_.size())
    throw Error("no constraint " + std::to_string(index));
  constraints_.erase(constraints_.begin() + index);
  rebuild_rows();
  refresh_compliance();
}

int World::add_distance(int a, int b, double length) {
  const auto n = particles_.size();
  if (a >= 0 && b >= 0 && static_cast<std::size_t>(a) < n && static_cast<std::size_t>(b) < n && length < 0.0)
    length = glm::length(particles_.position[a] - particles_.position[b]);
  if (!(length > 0.0)) throw Error("distance constraint length must be positive");
  return add_constraint(std::make_unique<DistanceConstraint>(a, b, length));
}

int World::add_pin(int particle, Vec3 point) {
  if (!finite(point)) throw Error("pin point must be finite");
  return add_constraint(std::make_unique<PinConstraint>(particle, point, dimension_));
}

void World::append_rows(int index) {
  const Constraint& constraint = *constraints_[index];
  row_offset_.push_back(static_cast<int>(rows_.size()));
  const auto ids = constraint.particles();
  for (int r = 0; r < constraint.rows(); ++r) {
    RowRef ref{&constraint, index, r, static_cast<int>(ids.size()), {-1, -1}, constraint.length_scale(r)};
    for (std::size_t k = 0; k < ids.size(); ++k) ref.particle[k] = ids[k];
    rows_.push_back(ref);
    row_force_.push_back(0.0);
  }
  ++topology_version_;
}

void World::rebuild_rows() {
  rows_.clear();
  row_offset_.clear();
  row_force_.clear();
  for (std::size_t c = 0; c < constraints_.size(); ++c) append_rows(static_cast<int>(c));
  ++topology_version_;
}

void World::set_settings(const Settings& settings) {
  if (std::string problem = validate(settings); !problem.empty()) throw Error(problem);
  const bool switch_solver = !solver_ || settings.solver != settings_.solver;
  if (settings.dt != settings_.dt) {  // t = time_base_ + (steps since then) · dt: move the base to now
    time_base_ = time_;
    base_step_ = step_count_;
  }
  settings_ = settings;
  if (switch_solver) {
    const bool had_solver = solver_ != nullptr;
    solver_info_ = find_solver(settings.solver);
    solver_ = solver_info_->create();
    if (had_solver) settle_onto_constraints();
  }
}

// A solver switched in mid-run inherits its predecessor's errors: the acceleration solver's rods stretched by
// decimetres, penalty's springs stretched under load. A position-level solver would pull them back within its first
// substep, and v = (q' − q)/h would turn that correction into speed (a double pendulum stretched by 1.3 m went from
// 30 J to 5 kJ in one step). The state is put back onto the constraints instead, as a pose does (projection
// substeps with no velocity, no gravity, the hand's pins slack), and the velocities are projected onto J v = 0
// (which only removes kinetic energy). What this changes is the previous solver's error: it stays in the drift.
void World::settle_onto_constraints() {
  double absolute = 0.0, relative = 0.0, rate = 0.0;
  measure_violation(absolute, relative, rate);
  const double tolerance = std::max(settings_.tolerance, 1e-9);
  // Rods off by ten times their length (penalty run away, a NaN): a blow-up, not an error to settle; left as it
  // is (the sandbox undoes blow-ups), never made worse by projecting garbage.
  if (!(relative <= 10.0)) return;
  const double before = relative;
  const std::vector<Vec3> x = particles_.position, v = particles_.velocity;
  if (relative > tolerance) {
    std::vector<std::pair<PinConstraint*, Vec3>> hands;  // a tool pin must not pull during the settle
    for (auto& c : constraints_)
      if (auto* pin = dynamic_cast<PinConstraint*>(c.get()); pin && pin->tool()) {
        hands.emplace_back(pin, pin->point());
        pin->set_point(particles_.position[pin->particle()]);
      }
    project_at_rest(50, [&] {
      measure_violation(absolute, relative, rate);
      return !(relative > tolerance) || !(relative < 2.0 * before);
    });
    for (auto& [pin, point] : hands) pin->set_point(point);
    particles_.velocity = v;
    if (!(relative <= before)) {  // the projection made it worse (or non-finite): keep the state as it was
      particles_.position = x;
      stats_measured_ = false;
      return;
    }
  }
  project_velocities();
  stats_measured_ = false;
}

void World::project_velocities() {
  RowGradient grad;
  for (int sweep = 0; sweep < 1000; ++sweep) {
    double worst = 0.0;
    for (const RowRef& row : rows_) {
      if (row.constraint->tool()) continue;
      row.constraint->evaluate(row.row, particles_.position, grad);
      double jv = 0.0, weight = 0.0;
      for (int k = 0; k < row.count; ++k) {
        jv += glm::dot(grad[k], particles_.velocity[row.particle[k]]);
        weight += particles_.inv_mass[row.particle[k]] * glm::dot(grad[k], grad[k]);
      }
      if (!(weight > 0.0) || !std::isfinite(jv)) continue;
      worst = std::max(worst, std::abs(jv));
      for (int k = 0; k < row.count; ++k)
        particles_.velocity[row.particle[k]] += (-jv / weight * particles_.inv_mass[row.particle[k]]) * grad[k];
    }
    if (worst < 1e-12) break;
  }
  stats_measured_ = false;
}

void World::external_forces(std::span<const Vec3>, std::span<const Vec3> v, std::vector<Vec3>& force) const {
  const std::size_t n = particles_.size();
  force.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (particles_.fixed(i)) {
      force[i] = Vec3(0.0);
      continue;
    }
    const double m = particles_.mass[i];
    force[i] = m * settings_.gravity - (settings_.damping * m) * v[i];
  }
}

// The power of each outside force, integrated with the substep's mean velocity (v0 + v1)/2: semi-implicit Euler
// changes the kinetic energy by exactly h F·(v0 + v1)/2 for a force F held over the substep, so this is the work
// that the scene's energy should show; what is left over is the integrator's and the solver's (docs/physics.md).
void World::account_work(double h, const std::vector<Vec3>& v0) {
  const auto& v1 = particles_.velocity;
  if (settings_.damping > 0.0)
    for (std::size_t i = 0; i < particles_.size(); ++i)
      if (!particles_.fixed(i))
        work_.damping -= h * settings_.damping * particles_.mass[i] * glm::dot(v0[i], 0.5 * (v0[i] + v1[i]));
  const bool penalty_damping = solver_info_->rods_are_springs && settings_.spring_damping > 0.0;
  if (!tool_rows_ && !penalty_damping && compliant_rows_.empty()) return;
  RowGradient grad;
  for (std::size_t r = 0; r < rows_.size(); ++r) {
    const RowRef& row = rows_[r];
    const Constraint& c = *row.constraint;
    const bool compliant = c.compliance() > 0.0;
    if (!c.tool() && !(compliant && c.damping() > 0.0) && !(penalty_damping && !compliant)) continue;
    row.constraint->evaluate(row.row, particles_.position, grad);
    double rate = 0.0;  // ∇C · v̄
    for (int s = 0; s < row.count; ++s) rate += glm::dot(grad[s], 0.5 * (v0[row.particle[s]] + v1[row.particle[s]]));
    if (c.tool()) work_.mouse += h * row_force_[r] * rate;
    else work_.damping -= h * (compliant ? c.damping() : settings_.spring_damping) * rate * rate;
  }
}

void World::step(const std::function<void(const World&)>& after_substep) {
  using Clock = std::chrono::steady_clock;
  const double h = settings_.dt / settings_.substeps;
  stats_ = StepStats{};
  const auto start = Clock::now();
  Clock::duration observing{0};
  backup_x_ = particles_.position;
  backup_v_ = particles_.velocity;
  const double time_before = time_;
  const Work work_before = work_;
  refresh_compliance();  // a compliance set on a constraint directly is seen from this step on
  const bool account = tool_rows_ || !compliant_rows_.empty() || settings_.damping > 0.0 ||
                       (solver_info_->rods_are_springs && settings_.spring_damping > 0.0);
  for (int s = 0; s < settings_.substeps; ++s) {
    if (account) substep_v_ = particles_.velocity;
    solver_->substep(*this, h, stats_);
    if (account) account_work(h, substep_v_);
    ++stats_.substeps;
    time_ = time_before + (s + 1) * h;
    if (after_substep) {
      const auto before = Clock::now();
      after_substep(*this);
      observing += Clock::now() - before;
    }
  }
  // x · 0 is 0 for every finite x and NaN for NaN or ±∞, so one sum tells whether anything is not finite.
  Vec3 poison(0.0);
  for (std::size_t i = 0; i < particles_.size(); ++i)
    poison += particles_.position[i] * 0.0 + particles_.velocity[i] * 0.0;
  const bool ok = finite(poison);
  for (double& f : row_force_)
    if (!std::isfinite(f)) f = 0.0;
  if (!ok) {  // never leave NaN or infinity in the state: roll the step back and report it
    particles_.position = backup_x_;
    particles_.velocity = backup_v_;
      work_ = work_before;
    stats_.non_finite = true;
    ++stats_.failures;
  }
  // A rolled-back step still counts: time goes on and the state stays at its last finite value, so step and t
  // always agree. t is computed from the step count, never accumulated, so it carries no rounding drift.
  ++step_count_;
  time_ = time_base_ + static_cast<double>(step_count_ - base_step_) * settings_.dt;
  stats_.solve_seconds = std::chrono::duration<double>(Clock::now() - start - observing).count();
  stats_measured_ = false;
}

const StepStats& World::stats() const {
  if (!stats_measured_) {
    stats_.energy = energy();
    measure_violation(stats_.max_violation, stats_.max_relative_violation, stats_.max_velocity_violation);
    stats_measured_ = true;
  }
  return stats_;
}

// Projection substeps with no gravity, no drag and every velocity zero before and after each: positions onto the
// constraints and nothing else (posing while paused, and settling a solver switch). `done` is asked after each.
void World::project_at_rest(int max_substeps, const std::function<bool()>& done) {
  const Settings saved = settings_;
  settings_.gravity = Vec3(0.0);
  settings_.damping = 0.0;
  if (!pose_solver_) pose_solver_ = make_projection_solver();
  refresh_compliance();
  StepStats stats;
  const double h = settings_.dt / settings_.substeps;
  for (int i = 0; i < max_substeps; ++i) {
    for (Vec3& u : particles_.velocity) u = Vec3(0.0);
    pose_solver_->substep(*this, h, stats);
    for (Vec3& u : particles_.velocity) u = Vec3(0.0);
    if (done()) break;
  }
  settings_ = saved;
}

double World::pose(int max_iterations) {
  const double before = energy().total();
  backup_x_ = particles_.position;
  // Each substep projects along the gradients where it starts, so a large move (a chain swung over) takes a few;
  // stop when nothing moves any more.
  std::vector<Vec3> previous = particles_.position;
  double moved = 0.0;
  project_at_rest(max_iterations, [&] {
    moved = 0.0;
    for (std::size_t p = 0; p < previous.size(); ++p)
      moved = std::max(moved, glm::length(particles_.position[p] - previous[p]));
    previous = particles_.position;
    return !(moved > 1e-12);
  });
  for (Vec3& v : particles_.velocity) v = Vec3(0.0);
  Vec3 poison(0.0);
  for (const Vec3& x : particles_.position) poison += x * 0.0;
  if (!finite(poison)) particles_.position = backup_x_;
  for (double& f : row_force_) f = 0.0;  // at rest and weightless: no force to show
  stats_measured_ = false;
  work_.mouse += energy().total() - before;
  return moved;
}

void World::measure_violation(double& absolute, double& relative, double& velocity) const {
  absolute = relative = velocity = 0.0;
  RowGradient grad;
  for (const RowRef& row : rows_) {
    if (row.constraint->tool()) continue;
    const double c = std::abs(row.constraint->evaluate(row.row, particles_.position, grad));
    double jv = 0.0;
    for (int s = 0; s < row.count; ++s) jv += glm::dot(grad[s], particles_.velocity[row.particle[s]]);
    // Written so that a NaN always wins.
    if (!(c <= absolute)) absolute = c;
    if (!(c / row.scale <= relative)) relative = c / row.scale;
    if (!(std::abs(jv) <= velocity)) velocity = std::abs(jv);
  }
}

double World::spring_energy() const {
  const bool rigid_as_springs = solver_info_->rods_are_springs;
  if (!rigid_as_springs && compliant_rows_.empty()) return 0.0;
  double sum = 0.0;
  for (const RowRef& row : rows_) {
    const Constraint& c = *row.constraint;
    if (c.tool() || (c.compliance() == 0.0 && !rigid_as_springs)) continue;
    const double value = c.value(row.row, particles_.position);
    sum += value * value * (c.compliance() > 0.0 ? 1.0 / c.compliance() : settings_.stiffness);
  }
  return 0.5 * sum;
}

Energy World::energy() const {
  Energy e;
  for (std::size_t i = 0; i < particles_.size(); ++i) {
    if (particles_.fixed(i)) continue;
    const double m = particles_.mass[i];
    e.kinetic += 0.5 * m * glm::dot(particles_.velocity[i], particles_.velocity[i]);
    e.potential -= m * glm::dot(settings_.gravity, particles_.position[i]);
  }
  e.potential += spring_energy();
  return e;
}

double World::max_violation(bool relative) const {
  double absolute_c, relative_c, velocity;
  measure_violation(absolute_c, relative_c, velocity);
  return relative ? relative_c : absolute_c;
}

double World::max_velocity_violation() const {
  double absolute_c, relative_c, velocity;
  measure_violation(absolute_c, relative_c, velocity);
  return velocity;
}

}  // namespace lagrange
