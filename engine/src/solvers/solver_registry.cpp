// The one list of solvers. Everything else — `lagrange-lab solvers`, --solver, the app's combo box, number keys and
// comparison colours — is generated from this table. The id is for the command line, files and CSV columns; the
// name is what a person reads (legends, lane names, panels, tooltips).
//
// The colours mark a solver's lane over the scene and its curves in the plots, so they keep clear of every colour a
// shipped scene gives its particles and of the sandbox's default particle palette (blues, oranges, greens, teal,
// yellow, red, pink, lilac, greys, brown), of each other, and of both themes' backgrounds, lane_colour()'s lighter
// and darker variants included: CIELAB ΔE ≥ 20 (tests/app/test_solver_names.cpp; CIEDE2000 ≥ 11). What is left is
// indigo, olive, magenta, vermilion and raspberry.
#include <string_view>

#include "lagrange/solver.h"
#include "solvers.h"

namespace lagrange {
namespace {

const SolverInfo kSolvers[] = {
    {"projection", "Lagrange projection",
     "position level: all multipliers of C(q* + M^-1 J^T lambda) = 0 at once (sparse chord/Newton); rods exact",
     {0.42f, 0.40f, 1.00f}, false, true, 100.0, make_projection_solver},
    {"shake", "SHAKE", "position level: the same equations solved one constraint at a time (Gauss-Seidel sweeps)",
     {0.55f, 0.55f, 0.00f}, false, true, 10.0, make_shake_solver},
    {"rattle", "RATTLE", "velocity Verlet with SHAKE positions and velocity multipliers so that J v = 0",
     {0.90f, 0.00f, 0.95f}, false, true, 10.0, make_rattle_solver},
    {"acceleration", "Acceleration level",
     "linear solve J M^-1 J^T lambda = -(J M^-1 F + Jdot qdot) then semi-implicit Euler; drifts unless Baumgarte",
     {1.00f, 0.20f, 0.00f}, false, false, 10.0, make_acceleration_solver},
    {"penalty", "Stiff springs", "rods as stiff springs (stiffness setting): wobbles when soft, explodes when stiff",
     {0.85f, 0.12f, 0.45f}, true, false, 10.0, make_penalty_solver},
};

}  // namespace

std::span<const SolverInfo> solver_table() { return kSolvers; }

const SolverInfo* find_solver(std::string_view id) {
  for (const SolverInfo& info : kSolvers)
    if (id == info.id) return &info;
  return nullptr;
}

std::string solver_ids() {
  std::string ids;
  for (const SolverInfo& info : kSolvers) ids += (ids.empty() ? "" : ", ") + std::string(info.id);
  return ids;
}

}  // namespace lagrange
