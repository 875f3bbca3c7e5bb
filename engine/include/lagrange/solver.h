// The solver interface and the one table that lists every solver. The CLI list, the app's combo box, its number
// keys and the comparison colours are all generated from solver_table().
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "lagrange/model.h"
#include "lagrange/types.h"

namespace lagrange {

struct StepStats;
class ContactSet;  // the substep's contact rows (engine/src/contacts/contact_set.h)
struct StepTrace;  // lagrange/step_trace.h

// Everything a solver may touch during one substep: the model it reads, the settings in force (the model's, or a
// variant such as posing's weightless ones), the state it advances, and a wall-clock deadline.
struct StepContext {
  const Model& model;
  const Settings& settings;
  State& state;
  std::optional<std::chrono::steady_clock::time_point> deadline = std::nullopt;
  // This substep's contact rows, rebuilt by the world before every substep of a scene with contacts; null otherwise.
  // Each solver resolves their impacts first, then holds them with its own rows (docs/physics.md, "Contacts").
  ContactSet* contacts = nullptr;
  // When set, the solver records its prediction and every iterate into it (step_trace.h: the step view); null in
  // every ordinary step.
  StepTrace* trace = nullptr;

  std::span<const Row> rows() const { return model.rows(); }
  std::span<const double> inv_mass() const { return model.inv_mass(); }
  bool fixed(std::size_t i) const { return model.fixed(i); }
  // Gravity and drag on every particle at velocities v.
  void external_forces(std::span<const Vec3> v, std::vector<Vec3>& force) const {
    model.external_forces(settings, v, force);
  }
  // True once the deadline (the window's frame budget) has passed: iterative solvers stop where they are.
  // `work`: about how many rows the caller went through since its last call. The clock (tens of nanoseconds) is read
  // only once that work adds up to kDeadlineWork rows, and at the first call of each context, so the iterations of a
  // short chain (microseconds a step) do not pay for it, and a long one's are checked as often as before.
  static constexpr std::size_t kDeadlineWork = 16384;
  bool past_deadline(std::size_t work = kDeadlineWork) const {
    if (!deadline) return false;
    deadline_work += work;
    if (deadline_work < kDeadlineWork) return false;
    deadline_work = 0;
    return std::chrono::steady_clock::now() > *deadline;
  }
  mutable std::size_t deadline_work = kDeadlineWork;  // rows gone through since the clock was last read
};

// Advances a state by one substep of length h against a model: integrates and enforces the constraints. Solvers may
// cache work between substeps (sparsity patterns, keyed on Model::topology_version) but carry nothing physical
// from one substep to the next, so a state can change solver between any two steps, and a saved state continues
// exactly.
class Solver {
 public:
  virtual ~Solver() = default;
  virtual void substep(StepContext& context, double h, StepStats& stats) = 0;
};

struct SolverInfo {
  const char* id;           // used in files, --solver and --set solver=
  const char* name;         // display name
  const char* description;  // one line
  Colour colour;
  bool rods_are_springs;    // the solver treats constraints as springs: their ½ k C² counts as potential energy
  // Compliant rows are solved implicitly (projection, SHAKE, RATTLE: stable for any compliance); false: they are
  // explicit springs (acceleration, penalty), stable only while h < 2/ω. The drag controller reads it.
  bool implicit_compliance;
  // The strongest pull the mouse may put on what it drags, in weights of it (drag.h; DragSettings::max_force can
  // only lower it). Projection holds a 100-weight pull exactly; SHAKE's and RATTLE's sweeps stop short of
  // convergence on long chains under such tension and the error grows without bound, and the explicit solvers
  // stretch their rods by it: they get a gentler hand.
  double mouse_force_cap;
  std::unique_ptr<Solver> (*create)();
};

std::span<const SolverInfo> solver_table();
// The entry with this id, or nullptr.
const SolverInfo* find_solver(std::string_view id);
// The ids in table order, comma-separated, for messages and usage texts.
std::string solver_ids();

}  // namespace lagrange
