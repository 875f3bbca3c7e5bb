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

// A compliant row's terms for one substep of length h (docs/physics.md, "Compliance"): the row holds
//     C(x) + α̃ λ + γ ∇C(q)·(x − q) = 0,   α̃ = factor · α / h²,   γ = α β / h
// where λ is the position-level multiplier (λ = h² F for projection and SHAKE: factor 1; λ = h² F / 2 for RATTLE:
// factor 2). `base` is the multiplier already applied before the current Newton run (re-linearization).
struct CompliantRow {
  int row;
  double alpha_tilde;
  double gamma;
  double base = 0.0;
};
// The model's compliant rows for a substep of length h; fills `diagonal` with their α̃ when given.
void gather_compliant_rows(const Model& model, double h, double factor, std::vector<CompliantRow>& rows,
                           std::vector<DiagonalTerm>* diagonal = nullptr);

struct ShakeResult {
  int sweeps = 0;
  bool converged = false;
};
// SHAKE (seed 001, eq. 3.9.15): sweeps over the rows, moving the particles of each violated row along the fixed
// directions M⁻¹ ∇C(q) (gradients `g0`) by δλ = −C(x) / Σ_p (1/m_p) ∇_p C(x) · ∇_p C(q), accumulating λ, until
// every row is within tolerance (relative to its length scale) or the sweep cap is reached. A compliant row
// (`soft`, with the start positions x0) takes the XPBD step δλ = −(C + α̃λ + γ∇C(q)·(x − q)) / ((1 + γ) w + α̃).
ShakeResult shake_positions(const StepContext& context, const RowGradients& g0, std::vector<Vec3>& x,
                            std::vector<double>& lambda, const std::vector<CompliantRow>& soft = {},
                            std::span<const Vec3> x0 = {});

// Copies x into the state's positions and (x − x0) / h into its velocities (movable particles only).
void commit_positions(StepContext& context, const std::vector<Vec3>& x, const std::vector<Vec3>& x0, double h);

}  // namespace lagrange
