// A world: particles, constraints, settings and the active solver. The engine knows nothing of any window; the app
// reads positions, rods and per-row forces from here and draws them.
#pragma once

#include <functional>
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

// A spring from a particle to a point, for the app's soft mouse drag. Not part of the energy.
struct MouseSpring {
  int particle = -1;  // -1: none
  Vec3 target{0.0};
  double stiffness = 200.0;  // N/m per kg of the grabbed particle
  double damping = 20.0;     // 1/s, critically-damped-ish default for the stiffness above
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

  MouseSpring mouse_spring;

  // --- stepping -------------------------------------------------------------------------------------------------
  // Advances by settings().dt in settings().substeps substeps. A step that produces a NaN or infinity is rolled
  // back and reported in stats().non_finite; the state is never left non-finite. A rolled-back step still counts:
  // step_count() and time() advance (t = steps × dt) while the state stays at its last finite value.
  // `after_substep`, when given, is called with the world after every substep (before the step's NaN check); the
  // time it takes is left out of stats().solve_seconds, so a caller can measure between substeps (the benchmark
  // checks |C|/L after every substep) without charging the solver for it.
  void step(const std::function<void(const World&)>& after_substep = {});
  // The last step's statistics. Energy and violations are measured when first asked for after a step, so a caller
  // that does not read them (the benchmark's timed loop) does not pay for them.
  const StepStats& stats() const;
  double time() const { return time_; }
  long step_count() const { return step_count_; }

  // --- measurements (any time) ----------------------------------------------------------------------------------
  Energy energy() const;
  double max_violation(bool relative = false) const;  // max |C| (or |C| / length scale) over all rows
  double max_velocity_violation() const;              // max |J v|

  // Rows flattened from all constraints, and each constraint's first row.
  std::span<const RowRef> rows() const { return rows_; }
  int row_offset(int constraint_index) const { return row_offset_[constraint_index]; }
  // Constraint force magnitude per row from the last substep, in newtons: the force on particle p is
  // row_force[r] · ∂C_r/∂x_p. For a rod (C = |x_a − x_b| − L) a negative value is tension.
  std::span<const double> row_force() const { return row_force_; }
  std::vector<double>& mutable_row_force() { return row_force_; }
  // Increases whenever rows are added or removed, so solvers know to rebuild cached patterns.
  unsigned topology_version() const { return topology_version_; }

  // External forces at positions x and velocities v: gravity, linear damping and the mouse spring.
  void external_forces(std::span<const Vec3> x, std::span<const Vec3> v, std::vector<Vec3>& force) const;
  // Penalty springs' energy ½ k Σ C², counted in the potential while the penalty solver is active.
  double spring_energy() const;

 private:
  void append_rows(int constraint_index);
  void measure_violation(double& absolute, double& relative, double& velocity) const;
  void rebuild_rows();

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
  double time_base_ = 0.0;  // time() = time_base_ + (step_count_ − base_step_) · dt; moved when dt changes
  long base_step_ = 0;
  std::vector<Vec3> backup_x_, backup_v_;
};

}  // namespace lagrange
