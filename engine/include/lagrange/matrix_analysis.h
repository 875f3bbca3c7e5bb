// The constraint matrix of a state, taken apart for a lesson (docs/physics.md, "The constraint matrix"):
// A = J M⁻¹ Jᵀ over the scene's rows (never the mouse's pin), the acceleration level's right-hand side
// b = −(J M⁻¹ F + J̇ q̇) and its multipliers λ (A λ = b; the least-squares λ of smallest norm when rows are
// dependent), the rank, which rows depend on earlier ones, and the condition number of the independent part.
// Computed densely, by a symmetric eigendecomposition and a pivot-free elimination in row order, independently of
// the solvers' sparse factorization (row_system.h), so each checks the other.
#pragma once

#include <string>
#include <vector>

#include "lagrange/world.h"

namespace lagrange {

struct MatrixRow {
  int constraint = 0;       // the constraint it belongs to (file order)
  int row = 0;              // its row within that constraint
  std::string kind;         // the constraint's kind ("distance", "pin", ...)
  std::vector<int> particles;
};

struct MatrixAnalysis {
  int rows = 0;
  std::vector<MatrixRow> row_info;
  std::vector<double> a;       // rows × rows, row-major: A_kl = Σ_p ∇_p C_k · ∇_p C_l / m_p over movable p
  std::vector<double> rhs;     // b = −(J M⁻¹ F + J̇ q̇), F the applied forces (gravity, damping) at this state
  std::vector<double> lambda;  // A λ = b (dependent rows: the smallest-norm least-squares solution)
  std::vector<double> eigenvalues;  // of A, ascending
  int rank = 0;
  std::vector<int> dependent;  // rows whose gradient (in the M⁻¹ metric) lies in the span of the rows before them
  double condition = 0.0;      // λ_max / λ_min of A over its nonzero eigenvalues (1 for a single row; 0 for no rows)
};

// The most rows analysed (dense: rows² doubles and an O(rows³) eigendecomposition, about a second at the limit).
inline constexpr int kMaxMatrixRows = 1500;

// Throws Error when the scene has more than kMaxMatrixRows rows.
MatrixAnalysis analyse_matrix(const World& world);

}  // namespace lagrange
