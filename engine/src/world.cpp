#include "lagrange/world.h"

#include <chrono>
#include <cmath>
#include <string>

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
  constraints_.push_back(std::move(constraint));
  append_rows(static_cast<int>(constraints_.size()) - 1);
  return static_cast<int>(constraints_.size()) - 1;
}

void World::remove_constraint(int index) {
  if (index < 0 || static_cast<std::size_t>(index) >= constraints_.size())
    throw Error("no constraint " + std::to_string(index));
  constraints_.erase(constraints_.begin() + index);
  rebuild_rows();
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
    solver_info_ = find_solver(settings.solver);
    solver_ = solver_info_->create();
  }
}

void World::external_forces(std::span<const Vec3> x, std::span<const Vec3> v, std::vector<Vec3>& force) const {
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
  const int p = mouse_spring.particle;
  if (p >= 0 && static_cast<std::size_t>(p) < n && !particles_.fixed(p)) {
    const double m = particles_.mass[p];
    force[p] += (mouse_spring.stiffness * m) * (mouse_spring.target - x[p]) - (mouse_spring.damping * m) * v[p];
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
  for (int s = 0; s < settings_.substeps; ++s) {
    solver_->substep(*this, h, stats_);
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

void World::measure_violation(double& absolute, double& relative, double& velocity) const {
  absolute = relative = velocity = 0.0;
  RowGradient grad;
  for (const RowRef& row : rows_) {
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
  double sum = 0.0;
  for (const RowRef& row : rows_) {
    const double c = row.constraint->value(row.row, particles_.position);
    sum += c * c;
  }
  return 0.5 * settings_.stiffness * sum;
}

Energy World::energy() const {
  Energy e;
  for (std::size_t i = 0; i < particles_.size(); ++i) {
    if (particles_.fixed(i)) continue;
    const double m = particles_.mass[i];
    e.kinetic += 0.5 * m * glm::dot(particles_.velocity[i], particles_.velocity[i]);
    e.potential -= m * glm::dot(settings_.gravity, particles_.position[i]);
  }
  if (solver_info_->rods_are_springs) e.potential += spring_energy();
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
