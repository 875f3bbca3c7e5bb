// A world: one Model, one State and the solver that steps them (model.h), bundled for convenience. Solvers never
// see the world: they step its state against its model through a StepContext (solver.h). The engine knows nothing
// of any window; the app reads positions and row forces from the state and draws the model's constraints by their
// drawing hints.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "lagrange/constraint.h"
#include "lagrange/diagnostics.h"
#include "lagrange/model.h"
#include "lagrange/particles.h"
#include "lagrange/settings.h"
#include "lagrange/solver.h"

namespace lagrange {

class ContactSet;

class World {
 public:
  explicit World(int dimension = 3, Settings settings = {});
  // A world from a model and a state of it (sizes checked: Error when they do not match).
  World(Model model, State state);
  // A copy has its own model, state and solver: stepping both gives bit-identical results.
  World(const World& other);
  World& operator=(const World& other);
  World(World&&) noexcept;
  World& operator=(World&&) noexcept;
  ~World();

  const Model& model() const { return model_; }
  Model& model() { return model_; }
  const State& state() const { return state_; }
  // Positions and velocities may be changed between steps (the app moves fixed particles); sizes may not.
  State& state() { return state_; }
  // Puts a state of this world saved earlier back (a timeline snapshot, the window's last sound state): positions,
  // velocities, time, work. Its row forces are fitted to the rows the model has now (the mouse's pin, the one row
  // that comes and goes, dropped or 0), stats() are measured again, and when Δt changed since it was saved its clock
  // starts again at its own time (t stays what it was; later steps add the Δt in force). Error on a different
  // particle count.
  void restore(State state);

  int dimension() const { return model_.dimension(); }
  std::size_t particle_count() const { return model_.particle_count(); }

  // --- building -------------------------------------------------------------------------------------------------
  int add_particle(const ParticleDef& def);  // throws Error on a non-positive or non-finite mass, NaN position
  // Takes ownership; throws Error when it names a particle that does not exist or the same particle twice.
  int add_constraint(std::unique_ptr<Constraint> constraint);
  void remove_constraint(int index);  // later constraints shift down by one
  int add_distance(int a, int b, double length);   // length < 0: the current distance
  int add_pin(int particle, Vec3 point);
  void set_compliance(int constraint_index, double compliance, double damping = 0.0) {
    model_.set_compliance(constraint_index, compliance, damping);
  }
  std::span<const std::unique_ptr<Constraint>> constraints() const { return model_.constraints(); }
  Constraint& constraint(int index) { return model_.constraint(index); }
  const Constraint& constraint(int index) const { return model_.constraint(index); }

  const Settings& settings() const { return model_.settings(); }
  // Validates (throws Error with the message of validate()) and switches solver if the id changed. No reset.
  void set_settings(const Settings& settings);
  const SolverInfo& solver_info() const { return model_.solver_info(); }

  // --- stepping -------------------------------------------------------------------------------------------------
  // Advances by settings().dt in settings().substeps substeps. A step that produces a NaN or infinity is rolled
  // back and reported in stats().non_finite; the state is never left non-finite. A rolled-back step still counts:
  // step_count() and time() advance (t = steps × dt) while the state stays at its last finite value.
  // `after_substep`, when given, is called with the world after every substep (before the step's NaN check); the
  // time it takes is left out of stats().solve_seconds, so a caller can measure between substeps (the benchmark
  // checks |C|/L after every substep) without charging the solver for it.
  void step(const std::function<void(const World&)>& after_substep = {});
  // A wall-clock deadline for the iterative solvers (the window's frame budget): once past it, SHAKE and RATTLE
  // sweeps and projection's iterations stop where they are, and the substep counts as a failure (above
  // tolerance). Nothing but the interactive window sets one, so `run`, `shot`, `bench` and the tests never depend on
  // the machine's speed.
  void set_deadline(std::optional<std::chrono::steady_clock::time_point> deadline) { deadline_ = deadline; }
  // The last step's statistics. Energy and violations are measured when first asked for after a step, so a caller
  // that does not read them (the benchmark's timed loop) does not pay for them.
  const StepStats& stats() const;
  double time() const { return state_.time; }
  long step_count() const { return state_.step; }
  // Moves the positions onto the constraints with the velocities at zero and no gravity or drag: projection
  // substeps (whatever the solver) until nothing moves or `max_iterations` ran, so a compliant tool pin pulls its
  // particle to its point (or the nearest point the rods reach) and every rigid row stays exact. Time does not
  // advance. The energy it changes is the hand's: it is added to work().mouse. The sandbox poses a paused scene
  // with it. Returns how far the last substep moved anything.
  double pose(int max_iterations = 50);
  // Takes out of the velocities what the scene's rows forbid (J v = 0 again; tool rows skipped), as the inelastic
  // catch of an impulse would: Gauss-Seidel on the M-orthogonal projection, one row at a time. Each update projects
  // onto one row's plane in the mass metric, so the kinetic energy only goes down.
  void project_velocities();

  // Work done on the scene since the start (diagnostics.h), and a way for the drag controller to book the work of
  // a hand that moves things outside the step (grabbing a fixed particle).
  const Work& work() const { return state_.work; }
  void add_mouse_work(double joules) { state_.work.mouse += joules; }

  // --- measurements (measure.h, on this world's model and state) ------------------------------------------------
  Energy energy() const;
  // max |C| (or |C| / length scale) and max |J v| over the scene's rows: tool rows (the mouse) are skipped.
  double max_violation(bool relative = false) const;
  double max_velocity_violation() const;

 private:
  void project_at_rest(int max_substeps, const std::function<bool()>& done);
  void settle_onto_constraints();  // after a solver switch: positions onto the rows, velocities onto J v = 0
  // `staggered`: the solver handed the substep to projection (fall_back), whose velocities are the mean over it.
  void account_work(double h, const std::vector<Vec3>& v0, bool staggered);
  // One substep of length h with its contacts (gathered, solved, recorded) and the work done in it; a substep of a
  // scene with rods and contacts or cables that its solver lost is done again from its start as two halves (world.cpp).
  void substep(StepContext& context, double h, bool account, int depth);

  Model model_;
  State state_;
  std::unique_ptr<Solver> solver_;
  std::unique_ptr<Solver> pose_solver_;
  std::unique_ptr<ContactSet> contact_set_;  // the substeps' contact rows (scratch: never copied)
  mutable StepStats stats_;
  mutable bool stats_measured_ = true;
  std::optional<std::chrono::steady_clock::time_point> deadline_;
  std::vector<Vec3> backup_x_, backup_v_, substep_v_, substep_x_;
  std::vector<Vec3> staggered_v0_, staggered_v1_;  // account_work() of a substep handed to projection
  State split_backup_;  // substep(): the state where a substep that may be split began
};

}  // namespace lagrange
