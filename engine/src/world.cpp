#include "lagrange/world.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>

#include "contacts/contact_set.h"
#include "lagrange/measure.h"
#include "solvers/solvers.h"

namespace lagrange {
namespace {

// x · 0 is 0 for every finite x and NaN for NaN or ±∞, so one sum tells whether anything is not finite.
bool all_finite(const std::vector<Vec3>& a, const std::vector<Vec3>* b = nullptr) {
  Vec3 poison(0.0);
  for (const Vec3& x : a) poison += x * 0.0;
  if (b)
    for (const Vec3& x : *b) poison += x * 0.0;
  return finite(poison);
}

}  // namespace

World::World(int dimension, Settings settings) : model_(dimension, settings) {
  solver_ = model_.solver_info().create();
}

World::World(Model model, State state) : model_(std::move(model)), state_(std::move(state)) {
  const std::size_t n = model_.particle_count();
  if (state_.position.size() != n || state_.velocity.size() != n)
    throw Error("the state has " + std::to_string(state_.position.size()) + " positions and " +
                std::to_string(state_.velocity.size()) + " velocities for a model of " + std::to_string(n) +
                " particles");
  state_.row_force.resize(model_.rows().size(), 0.0);
  solver_ = model_.solver_info().create();
}

void World::restore(State state) {
  const std::size_t n = model_.particle_count();
  if (state.position.size() != n || state.velocity.size() != n)
    throw Error("the state has " + std::to_string(state.position.size()) + " positions and " +
                std::to_string(state.velocity.size()) + " velocities for a model of " + std::to_string(n) +
                " particles");
  state.row_force.resize(model_.rows().size(), 0.0);
  // The clock's origin moves only when Δt changes (set_settings): a state saved under another Δt counts from itself.
  if (state.clock_time != state_.clock_time || state.clock_step != state_.clock_step) {
    state.clock_time = state.time;
    state.clock_step = state.step;
  }
  state_ = std::move(state);
  stats_measured_ = false;
}

World::World(const World& other)
    : model_(other.model_),
      state_(other.state_),
      solver_(other.model_.solver_info().create()),
      stats_(other.stats_),
      stats_measured_(other.stats_measured_),
      deadline_(other.deadline_) {}

World& World::operator=(const World& other) {
  if (this != &other) *this = World(other);
  return *this;
}

World::~World() = default;
World::World(World&&) noexcept = default;
World& World::operator=(World&&) noexcept = default;

int World::add_particle(const ParticleDef& def) {
  if (!finite(def.position)) throw Error("particle position must be finite");
  if (!finite(def.velocity)) throw Error("particle velocity must be finite");
  if (!(def.radius >= 0.0 && std::isfinite(def.radius))) throw Error("particle radius must be a finite number >= 0");
  const int index = model_.add_particle(def.mass, def.fixed);
  model_.set_radius(index, def.radius);
  state_.position.push_back(def.position);
  state_.velocity.push_back(def.fixed ? Vec3(0.0) : def.velocity);
  stats_measured_ = false;
  return index;
}

int World::add_constraint(std::unique_ptr<Constraint> constraint) {
  const int index = model_.add_constraint(std::move(constraint));
  state_.row_force.resize(model_.rows().size(), 0.0);
  state_.newton_lost = 0;  // another system
  stats_measured_ = false;
  return index;
}

void World::remove_constraint(int index) {
  if (index < 0 || static_cast<std::size_t>(index) >= constraints().size())
    throw Error("no constraint " + std::to_string(index));
  const int first = model_.row_offset(index), count = constraint(index).rows();
  model_.remove_constraint(index);
  state_.row_force.erase(state_.row_force.begin() + first, state_.row_force.begin() + first + count);
  state_.newton_lost = 0;
  stats_measured_ = false;
}

int World::add_distance(int a, int b, double length) {
  const auto n = model_.particle_count();
  if (a >= 0 && b >= 0 && static_cast<std::size_t>(a) < n && static_cast<std::size_t>(b) < n && length < 0.0)
    length = glm::length(state_.position[a] - state_.position[b]);
  if (!(length > 0.0)) throw Error("distance constraint length must be positive");
  return add_constraint(std::make_unique<DistanceConstraint>(a, b, length));
}

int World::add_pin(int particle, Vec3 point) {
  if (!finite(point)) throw Error("pin point must be finite");
  return add_constraint(std::make_unique<PinConstraint>(particle, point, model_.dimension()));
}

void World::set_settings(const Settings& settings) {
  const Settings before = model_.settings();
  model_.set_settings(settings);  // validates
  if (settings.dt != before.dt) {  // t = clock_time + (steps since then) · dt: move the clock's origin to now
    state_.clock_time = state_.time;
    state_.clock_step = state_.step;
  }
  if (settings.solver != before.solver) {
    solver_ = model_.solver_info().create();
    settle_onto_constraints();
  }
  stats_measured_ = false;
}

// A solver switched in mid-run inherits its predecessor's errors: the acceleration solver's rods stretched by
// decimetres, penalty's springs stretched under load. A position-level solver would pull them back within its first
// substep, and v = (q' − q)/h would turn that correction into speed (a double pendulum stretched by 1.3 m went from
// 30 J to 5 kJ in one step). The state is put back onto the constraints instead, as a pose does (projection
// substeps with no velocity, no gravity, the hand let go), and the velocities are projected onto J v = 0 (which only
// removes kinetic energy). What this changes is the previous solver's error: it stays in the drift.
void World::settle_onto_constraints() {
  Violation v = violation(model_, state_);
  const double tolerance = std::max(model_.settings().tolerance, 1e-9);
  // Rods off by ten times their length (penalty run away, a NaN): a blow-up, not an error to settle; left as it
  // is (the sandbox undoes blow-ups), never made worse by projecting garbage.
  if (!(v.relative <= 10.0)) return;
  const double before = v.relative;
  if (v.relative > tolerance) {
    // The scene without the hand: a tool row must not pull during the settle.
    World rest(model_, state_);
    for (int c = static_cast<int>(rest.model_.constraints().size()) - 1; c >= 0; --c)
      if (rest.model_.constraint(c).tool()) rest.model_.remove_constraint(c);
    rest.state_.row_force.assign(rest.model_.rows().size(), 0.0);
    rest.project_at_rest(50, [&] {
      v = violation(rest.model_, rest.state_);
      return !(v.relative > tolerance) || !(v.relative < 2.0 * before);
    });
    if (!(v.relative <= before)) return;  // the projection made it worse (or non-finite): keep the state as it was
    state_.position = rest.state_.position;
  }
  project_velocities();
  stats_measured_ = false;
}

void World::project_velocities() {
  RowGradient grad;
  const auto inv_mass = model_.inv_mass();
  for (int sweep = 0; sweep < 1000; ++sweep) {
    double worst = 0.0;
    for (const Row& row : model_.rows()) {
      if (row.constraint->tool()) continue;
      const double value = row.constraint->evaluate(row.row, state_.position, grad);
      double jv = 0.0, weight = 0.0;
      for (int k = 0; k < row.count; ++k) {
        jv += glm::dot(grad[k], state_.velocity[row.particle[k]]);
        weight += inv_mass[row.particle[k]] * glm::dot(grad[k], grad[k]);
      }
      if (!(weight > 0.0) || !std::isfinite(jv)) continue;
      // A slack cable forbids nothing; a taut one only its stretching.
      if (row.unilateral != 0 && (row.unilateral * value > 1e-9 * row.scale || row.unilateral * jv >= 0.0)) continue;
      worst = std::max(worst, std::abs(jv));
      for (int k = 0; k < row.count; ++k)
        state_.velocity[row.particle[k]] += (-jv / weight * inv_mass[row.particle[k]]) * grad[k];
    }
    if (worst < 1e-12) break;
  }
  stats_measured_ = false;
}

// The power of each outside force, integrated with the substep's mean velocity (v0 + v1)/2: semi-implicit Euler
// changes the kinetic energy by exactly h F·(v0 + v1)/2 for a force F held over the substep, so this is the work
// that the scene's energy should show; what is left over is the integrator's and the solver's (docs/physics.md).
void World::account_work(double h, const std::vector<Vec3>& start, bool staggered) {
  const Settings& settings = model_.settings();
  const bool penalty_damping = model_.solver_info().rods_are_springs && settings.spring_damping > 0.0;
  const bool rows_work =
      model_.has_tool_rows() || penalty_damping || !model_.compliant_rows().empty() || model_.has_unilateral_rows();
  if (!(settings.damping > 0.0) && !rows_work) return;  // nothing here reads the velocities
  std::span<const Vec3> v0 = start, v1 = state_.velocity;
  if (staggered) {
    // A substep SHAKE or RATTLE handed to projection (solvers.h, fall_back): its velocities were projection's, the
    // mean over the substep, half a kick of the outside forces behind the state's; its work is booked at those (at
    // the state's, a pile that fell back every step drifted by m g h · g h / 2 a ball and step).
    staggered_v0_.resize(start.size());
    staggered_v1_.resize(start.size());
    for (std::size_t i = 0; i < start.size(); ++i) {
      const Vec3 kick = (0.5 * h * model_.inv_mass()[i]) * model_.external_force(settings, i, start[i]);
      staggered_v0_[i] = start[i] - kick;
      staggered_v1_[i] = state_.velocity[i] - kick;
    }
    v0 = staggered_v0_;
    v1 = staggered_v1_;
  }
  Work& work = state_.work;
  if (settings.damping > 0.0)
    for (std::size_t i = 0; i < model_.particle_count(); ++i)
      if (!model_.fixed(i))
        work.damping -= h * settings.damping * model_.mass(i) * glm::dot(v0[i], 0.5 * (v0[i] + v1[i]));
  if (!rows_work) return;
  RowGradient grad;
  const auto rows = model_.rows();
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const Row& row = rows[r];
    const Constraint& c = *row.constraint;
    const bool compliant = c.compliance() > 0.0;
    // A string that snaps taut stops an approach: the work of the substep in which it does (slack at its start) joins
    // the contacts'. Once taut it is a rod, whose work is the solver's (under penalty a spring: energy).
    const bool cable = row.unilateral != 0 && !model_.solver_info().rods_are_springs &&
                       row.unilateral * c.value(row.row, substep_x_) > c.length_scale(row.row) * settings.tolerance;
    if (!c.tool() && !cable && !(compliant && c.damping() > 0.0) && !(penalty_damping && !compliant)) continue;
    c.evaluate(row.row, state_.position, grad);
    double rate = 0.0;  // ∇C · v̄
    for (int s = 0; s < row.count; ++s) rate += glm::dot(grad[s], 0.5 * (v0[row.particle[s]] + v1[row.particle[s]]));
    if (c.tool()) work.mouse += h * state_.row_force[r] * rate;
    else if (cable) work.contacts += h * state_.row_force[r] * rate;
    else work.damping -= h * (compliant ? c.damping() : settings.spring_damping) * rate * rate;
  }
}

// The solvers split a substep they lose into halves themselves, but not one with contact rows or cables: those rows
// are gathered and recorded here, once per substep. So a column of rods landing on a table in one substep of 1/60 s
// (its active set still changing after its last pass) kept joints 1.6 radii under the table, and one that started
// 2 % off its lengths ended a substep with rods at 3.1 times their length. Such a substep, lost with rods in the
// scene, is done again from its start as two of h/2, each gathered and recorded on its own, up to kMaxSplitDepth
// levels; the lost one counts as a recovery, a half still lost at the last level as a failure. Contacts alone are not
// split: a pile whose sweeps stop short stops short at any substep, and what the sweeps moved, divided by a shorter
// h, became faster balls (a 60-ball frictionless pile went from 32 J to 690 J in 3 s instead of 43 J).
void World::substep(StepContext& context, double h, bool account, int depth) {
  const Settings& settings = context.settings;
  const bool contacts = model_.contacts().any();
  const bool splittable = depth < kMaxSplitDepth && !model_.rows().empty() && (contacts || model_.has_unilateral_rows());
  const int failures_before = stats_.failures;
  if (splittable) {
    split_backup_.position = state_.position;
    split_backup_.velocity = state_.velocity;
    split_backup_.row_force = state_.row_force;
    split_backup_.work = state_.work;
    split_backup_.contacts = state_.contacts;
  }
  if (account) {
    substep_v_ = state_.velocity;
    if (model_.has_unilateral_rows()) substep_x_ = state_.position;
  }
  if (contacts) {
    contact_set_->gather(model_, state_, settings, h);
    contact_set_->deadline = deadline_;
    context.contacts = contact_set_.get();
  }
  const int fallbacks_before = stats_.fallbacks;
  solver_->substep(context, h, stats_);
  if (contacts) {
    state_.work.contacts += contact_set_->record(model_, state_, h, substep_v_);
    if (contact_set_->cut) ++stats_.failures;  // impacts cut short: not silent
  }
  if (account) account_work(h, substep_v_, stats_.fallbacks > fallbacks_before);
  if (splittable && stats_.failures > failures_before && !context.past_deadline()) {
    state_.position = split_backup_.position;
    state_.velocity = split_backup_.velocity;
    state_.row_force = split_backup_.row_force;
    state_.work = split_backup_.work;
    state_.contacts = split_backup_.contacts;
    stats_.failures = failures_before;
    ++stats_.recoveries;
    substep(context, 0.5 * h, account, depth + 1);
    substep(context, 0.5 * h, account, depth + 1);
    return;
  }
  ++stats_.substeps;
}

void World::step(const std::function<void(const World&)>& after_substep) {
  using Clock = std::chrono::steady_clock;
  const Settings& settings = model_.settings();
  const double h = settings.dt / settings.substeps;
  stats_ = StepStats{};
  const auto start = Clock::now();
  Clock::duration observing{0};
  backup_x_ = state_.position;
  backup_v_ = state_.velocity;
  const double time_before = state_.time;
  const Work work_before = state_.work;
  if (std::isnan(state_.start_energy)) state_.start_energy = lagrange::energy(model_, state_).total();
  model_.refresh_compliance();  // a compliance set on a constraint directly is seen from this step on
  const bool account = model_.has_tool_rows() || !model_.compliant_rows().empty() || settings.damping > 0.0 ||
                       (model_.solver_info().rods_are_springs && settings.spring_damping > 0.0) ||
                       model_.contacts().any() || model_.has_unilateral_rows();
  StepContext context{model_, settings, state_, deadline_};
  // Contacts: the rows are gathered again before every substep (the broad phase, contact_set.h), the solver holds
  // them, and what they did is added to the step's record in the state.
  const bool contacts = model_.contacts().any();
  if (contacts) {
    if (!contact_set_) contact_set_ = std::make_unique<ContactSet>();
    ContactSet::begin_step(model_, state_, settings.dt);
  }
  for (int s = 0; s < settings.substeps; ++s) {
    substep(context, h, account, 0);
    state_.time = time_before + (s + 1) * h;
    if (after_substep) {
      const auto before = Clock::now();
      after_substep(*this);
      observing += Clock::now() - before;
    }
  }
  for (double& f : state_.row_force)
    if (!std::isfinite(f)) f = 0.0;
  if (contacts) ContactSet::end_step(state_);
  if (!all_finite(state_.position, &state_.velocity)) {  // never leave NaN or infinity: roll the step back
    state_.position = backup_x_;
    state_.velocity = backup_v_;
    state_.work = work_before;
    // The contacts of a step that never happened: none (the next step starts its warm starts from nothing).
    if (contacts) {
      state_.contacts.contacts.clear();
      ContactSet::begin_step(model_, state_, settings.dt);
    }
    stats_.non_finite = true;
    ++stats_.failures;
  }
  // A rolled-back step still counts: time goes on and the state stays at its last finite value, so step and t
  // always agree. t is computed from the step count, never accumulated, so it carries no rounding drift.
  ++state_.step;
  state_.time = state_.clock_time + static_cast<double>(state_.step - state_.clock_step) * settings.dt;
  stats_.solve_seconds = std::chrono::duration<double>(Clock::now() - start - observing).count();
  stats_measured_ = false;
}

const StepStats& World::stats() const {
  if (!stats_measured_) {
    stats_.energy = energy();
    const Violation v = violation(model_, state_);
    stats_.max_violation = v.absolute;
    stats_.max_relative_violation = v.relative;
    stats_.max_velocity_violation = v.velocity;
    stats_measured_ = true;
  }
  return stats_;
}

// Projection substeps with no gravity, no drag and every velocity zero before and after each: positions onto the
// constraints and nothing else (posing while paused, and settling a solver switch). `done` is asked after each.
void World::project_at_rest(int max_substeps, const std::function<bool()>& done) {
  Settings weightless = model_.settings();
  weightless.gravity = Vec3(0.0);
  weightless.damping = 0.0;
  if (!pose_solver_) pose_solver_ = make_projection_solver();
  model_.refresh_compliance();
  StepStats stats;
  const double h = weightless.dt / weightless.substeps;
  StepContext context{model_, weightless, state_, std::nullopt};
  const int newton_lost = state_.newton_lost;  // the next real step's count, not the pose's
  for (int i = 0; i < max_substeps; ++i) {
    for (Vec3& u : state_.velocity) u = Vec3(0.0);
    pose_solver_->substep(context, h, stats);
    for (Vec3& u : state_.velocity) u = Vec3(0.0);
    if (done()) break;
  }
  state_.newton_lost = newton_lost;
}

double World::pose(int max_iterations) {
  const double before = energy().total();
  const Violation start = violation(model_, state_);
  backup_x_ = state_.position;
  // Each substep projects along the gradients where it starts, so a large move (a chain swung over) takes a few;
  // stop when nothing moves any more.
  std::vector<Vec3> previous = state_.position;
  double moved = 0.0;
  // Rods off by ten times their length (penalty run away): a blow-up, not a pose; nothing is projected.
  if (!(start.relative <= 10.0)) max_iterations = 0;
  project_at_rest(max_iterations, [&] {
    moved = 0.0;
    for (std::size_t p = 0; p < previous.size(); ++p)
      moved = std::max(moved, glm::length(state_.position[p] - previous[p]));
    previous = state_.position;
    return !(moved > 1e-12);
  });
  for (Vec3& v : state_.velocity) v = Vec3(0.0);
  // A pose puts a sound scene onto its rows. It cannot repair one that has blown up (penalty springs stretched many
  // times their length), and projecting such a state can fling it to 1e150 m, where the energy overflows: then the
  // positions stay as they were (still at rest).
  const Violation end = violation(model_, state_);
  if (!all_finite(state_.position) || !(end.relative <= std::max(start.relative, 1.0)) ||
      !std::isfinite(energy().total())) {
    state_.position = backup_x_;
    moved = 0.0;
  }
  for (double& f : state_.row_force) f = 0.0;  // at rest and weightless: no force to show
  stats_measured_ = false;
  const double after = energy().total();
  if (std::isfinite(after) && std::isfinite(before)) state_.work.mouse += after - before;
  return moved;
}

Energy World::energy() const { return lagrange::energy(model_, state_); }

double World::max_violation(bool relative) const {
  const Violation v = violation(model_, state_);
  return relative ? v.relative : v.absolute;
}

double World::max_velocity_violation() const { return violation(model_, state_).velocity; }

}  // namespace lagrange
