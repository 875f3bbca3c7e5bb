// A world: particles, constraints, settings and the active solver. The engine knows nothing of any window; the app
// reads positions, rods and per-row forces from here and draws them.
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "lagrange/constraint.h"
#include "lagrange/diagnostics.h"
#include "lagrange/particles.h"
#include "lagrange/settings.h"
#include "lagrange/solver.h"

namespace lagrange {

// Thrown for invalid arguments to the engine API (a zero mass, an out-of-range index, bad settings).
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One scalar constraint row, flattened for the solvers. Rebuilt when constraints are added or removed.
struct RowRef {
  const Constraint* constraint;
  int constraint_index;
  int row;  // row within the constraint
  int count;  // number of particles
  int particle[kMaxRowParticles];
  double scale;  // length_scale(row)
};

class World {
 public:
  explicit World(int dimension = 3, Settings settings = {});
  ~World();
  World(World&&) noexcept;
  World& operator=(World&&) noexcept;

  int dimension() const { return dimension_; }

  // --- building -------------------------------------------------------------------------------------------------
  int add_particle(const ParticleDef& def);  // throws Error on a non-positive or non-finite mass, NaN position
  // Takes ownership; throws Error when it names a particle that does not exist or the same particle twice.
  int add_constraint(std::unique_ptr<Constraint> constraint);
  void remove_constraint(int index);  // later constraints shift down by one
  int add_distance(int a, int b, double length);   // length < 0: the current distance
  int add_pin(int particle, Vec3 point);
  // Makes every row of a constraint compliant: C + α λ = 0 with damping β along it (Constraint::compliance()).
  // α = 0 makes it rigid again. Throws Error for a negative or non-finite value.
  void set_compliance(int constraint_index, double compliance, double damping = 0.0);
  // Rows whose constraint has compliance > 0, in row order (empty in every shipped scene: rigid rods cost nothing
  // extra). Refreshed by add/remove/set_compliance and at the start of every step.
  std::span<const int> compliant_rows() const { return compliant_rows_; }

  // --- state ----------------------------------------------------------------------------------------------------
  Particles& particles() { return particles_; }
  const Particles& particles() const { return particles_; }
  std::span<const std::unique_ptr<Constraint>> constraints() const { return constraints_; }
  Constraint& constraint(int index) { return *constraints_.at(index); }
  const Constraint& constraint(int index) const { return *constraints_.at(index); }

  const Settings& settings() const { return settings_; }
  // Validates (throws Error with the message of validate()) and switches solver if the id changed. No reset.
  void set_settings(const Settings& settings);
  const SolverInfo& solver_info() const { return *solver_info_; }

  // --- stepping -------------------------------------------------------------------------------------------------
  // Advances by settings().dt in settings().substeps substeps. A step that produces a NaN or infinity is rolled
  // back and reported in stats().non_finite; the state is never left non-finite. A rolled-back step still counts:
  // step_count() and time() advance (t = steps × dt) while the state stays at its last finite value.
  // `after_substep`, when given, is called with the world after every substep (before the step's NaN check); the
  // time it takes is left out of stats().solve_seconds, so a caller can measure between substeps (the benchmark
  // checks |C|/L after every substep) without charging the solver for it.
  void step(const std::function<void(const World&)>& after_substep = {});
  // A wall-clock deadline for the iterative solvers (the window's frame budget): once past it, SHAKE and RATTLE
  // sweeps and projection's Newton iterations stop where they are, and the substep counts as a failure (above
  // tolerance). Nothing but the interactive window sets one, so `run`, `shot`, `bench` and the tests never depend on
  // the machine's speed.
  void set_deadline(std::optional<std::chrono::steady_clock::time_point> deadline) { deadline_ = deadline; }
  bool past_deadline() const { return deadline_ && std::chrono::steady_clock::now() > *deadline_; }
  // The last step's statistics. Energy and violations are measured when first asked for after a step, so a caller
  // that does not read them (the benchmark's timed loop) does not pay for them.
  const StepStats& stats() const;
  double time() const { return time_; }
  long step_count() const { return step_count_; }
  // Moves the positions onto the constraints with the velocities at zero and no gravity or drag: projection
  // substeps (whatever the solver) until nothing moves or `max_iterations` ran, so a compliant tool pin pulls its
  // particle to its point (or the nearest point the rods reach) and every rigid row stays exact. Time does not advance. The energy it changes is the hand's: it is added to
  // work().mouse. The sandbox poses a paused scene with it. Returns how far the last substep moved anything.
  double pose(int max_iterations = 50);
  // Takes out of the velocities what the scene's rows forbid (J v = 0 again; tool rows skipped), as the inelastic
  // catch of an impulse would: Gauss-Seidel on the M-orthogonal projection, one row at a time. Each update projects
  // onto one row's plane in the mass metric, so the kinetic energy only goes down.
  void project_velocities();

  // Work done on the scene since the world was made (diagnostics.h), and a way for the drag controller to book
  // the work of a hand that moves things outside the step (grabbing a fixed particle).
  const Work& work() const { return work_; }
  void add_mouse_work(double joules) { work_.mouse += joules; }

  // --- measurements (any time) ----------------------------------------------------------------------------------
  Energy energy() const;
  // max |C| (or |C| / length scale) and max |J v| over the scene's rows: tool rows (the mouse) are skipped.
  double max_violation(bool relative = false) const;
  double max_velocity_violation() const;

  // Rows flattened from all constraints, and each constraint's first row.
  std::span<const RowRef> rows() const { return rows_; }
  int row_offset(int constraint_index) const { return row_offset_[constraint_index]; }
  // Constraint force magnitude per row from the last substep, in newtons: the force on particle p is
  // row_force[r] · ∂C_r/∂x_p. For a rod (C = |x_a − x_b| − L) a negative value is tension.
  std::span<const double> row_force() const { return row_force_; }
  std::vector<double>& mutable_row_force() { return row_force_; }
  // Increases whenever rows are added or removed, so solvers know to rebuild cached patterns.
  unsigned topology_version() const { return topology_version_; }

  // External forces at velocities v: gravity and linear damping.
  void external_forces(std::span<const Vec3> x, std::span<const Vec3> v, std::vector<Vec3>& force) const;
  // Spring energy of the scene's rows, part of the potential: ½ C²/α for every compliant row, and ½ k C² for the
  // rigid rows while a solver that treats them as springs (penalty) is active. Tool rows are the hand's, skipped.
  double spring_energy() const;

 private:
  void append_rows(int constraint_index);
  void measure_violation(double& absolute, double& relative, double& velocity) const;
  void project_at_rest(int max_substeps, const std::function<bool()>& done);
  void rebuild_rows();
  void refresh_compliance();
  void settle_onto_constraints();  // after a solver switch: positions onto the rows, velocities onto J v = 0
  void account_work(double h, const std::vector<Vec3>& v0);

  int dimension_;
  Particles particles_;
  std::vector<std::unique_ptr<Constraint>> constraints_;
  std::vector<RowRef> rows_;
  std::vector<int> row_offset_;
  std::vector<double> row_force_;
  unsigned topology_version_ = 0;
  Settings settings_;
  const SolverInfo* solver_info_ = nullptr;
  std::unique_ptr<Solver> solver_;
  mutable StepStats stats_;
  mutable bool stats_measured_ = true;
  double time_ = 0.0;
  long step_count_ = 0;
  std::optional<std::chrono::steady_clock::time_point> deadline_;
  double time_base_ = 0.0;  // time() = time_base_ + (step_count_ − base_step_) · dt; moved when dt changes
  long base_step_ = 0;
  std::vector<Vec3> backup_x_, backup_v_, substep_v_;
  std::vector<int> compliant_rows_;
  bool tool_rows_ = false;
  Work work_;
  std::unique_ptr<Solver> pose_solver_;
};

}  // namespace lagrange
