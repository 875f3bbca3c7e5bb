// The solver interface and the one table that lists every solver. The CLI list, the app's combo box, its number
// keys and the comparison colours are all generated from solver_table().
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "lagrange/types.h"

namespace lagrange {

class World;
struct StepStats;

// Advances a world by one substep of length h: integrates and enforces the constraints. Solvers may cache work
// between substeps (sparsity patterns) but keep no physical state, so a world can switch solver between any two
// steps without a reset.
class Solver {
 public:
  virtual ~Solver() = default;
  virtual void substep(World& world, double h, StepStats& stats) = 0;
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
