// Factories of the solvers listed in solver_registry.cpp, and the SHAKE iteration shared by shake and rattle.
#pragma once

#include <memory>
#include <vector>

#include "lagrange/solver.h"
#include "row_system.h"

namespace lagrange {

std::unique_ptr<Solver> make_projection_solver();
std::unique_ptr<Solver> make_shake_solver();
std::unique_ptr<Solver> make_rattle_solver();
std::unique_ptr<Solver> make_acceleration_solver();
std::unique_ptr<Solver> make_penalty_solver();

struct ShakeResult {
  int sweeps = 0;
  bool converged = false;
};
// SHAKE (seed 001, eq. 3.9.15): sweeps over the rows, moving the particles of each violated row along the fixed
// directions M⁻¹ ∇C(q) (gradients `g0`) by δλ = −C(x) / Σ_p (1/m_p) ∇_p C(x) · ∇_p C(q), accumulating λ, until
// every row is within tolerance (relative to its length scale) or the sweep cap is reached.
ShakeResult shake_positions(const World& world, const std::vector<RowGrad>& g0, std::vector<Vec3>& x,
                            std::vector<double>& lambda);

// Copies x into the world's positions and (x − x0) / h into its velocities (movable particles only).
void commit_positions(World& world, const std::vector<Vec3>& x, const std::vector<Vec3>& x0, double h);

}  // namespace lagrange
