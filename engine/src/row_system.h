// The pieces every solver shares: all constraint rows evaluated at once, and the sparse matrix
// A = J_left M⁻¹ J_rightᵀ (entry (k, l) couples rows k and l through each movable particle they share).
// Projection uses J_left = ∇C(current iterate), J_right = ∇C(q) (the Newton matrix of C(q* + M⁻¹∇C(q)ᵀλ) = 0);
// the acceleration solver and RATTLE's velocity step use J_left = J_right = ∇C(q).
#pragma once

#include <memory>
#include <span>
#include <vector>

#include "lagrange/constraint.h"
#include "lagrange/model.h"
#include "lagrange/solver.h"
#include "linear_solver.h"

namespace lagrange {

using RowGrad = RowGradient;

// An extra term on the diagonal of a row system: a compliant row's α̃ (docs/physics.md, "Compliance").
struct DiagonalTerm {
  int row;
  double value;
};

class RowSystem {
 public:
  // The linear solver behind factorize() and solve(): SparseLDU unless another is given.
  explicit RowSystem(std::unique_ptr<LinearSolver> linear = make_sparse_ldu_solver()) : linear_(std::move(linear)) {}

  // Rebuilds the coupling pattern and the symbolic factorization when the model's rows or particles changed.
  // evaluate() and values() need it too (they use the cached length scales).
  void prepare(const Model& model);
  int rows() const { return rows_; }

  // C_k(x) and ∇C_k(x) for every row; returns max_k |C_k| / length scale (NaN if any C_k is NaN).
  double evaluate(const Model& model, std::span<const Vec3> x, std::vector<double>& c,
                  std::vector<RowGrad>& grad) const;
  // The same without gradients: C_k(x) and the max relative |C|.
  double values(const Model& model, std::span<const Vec3> x, std::vector<double>& c) const;
  // weighted[k].g[s] = (1/m_p) grad[k].g[s]: each row's displacement per unit multiplier (0 for fixed particles).
  void weight(const Model& model, const std::vector<RowGrad>& grad, std::vector<RowGrad>& weighted) const;
  // x[p] += Σ_k λ_k weighted_k[p], i.e. x += M⁻¹ ∇Cᵀ λ.
  void displace(const Model& model, const std::vector<RowGrad>& weighted, const std::vector<double>& lambda,
                std::vector<Vec3>& x) const;
  // J v for every row.
  void velocity_rows(const Model& model, const std::vector<RowGrad>& grad, std::span<const Vec3> v,
                     std::vector<double>& jv) const;

  // Assembles A = left M⁻¹ rightᵀ + diag(extra) from `left` and the weighted right gradients (weight()) and
  // factorizes it; returns the number of dependent (redundant) rows.
  int factorize(const std::vector<RowGrad>& left, const std::vector<RowGrad>& right_weighted,
                std::span<const DiagonalTerm> extra = {});
  // Solves A x = b in place with the last factorization.
  void solve(std::vector<double>& b) const { linear_->solve(b.data()); }

 private:
  // One movable particle shared by rows k < l: it adds ∇_p C_k · w_p ∇_p C_l to A_kl (and the mirror to A_lk).
  // Terms of the same pair are adjacent; only the first one assigns, the others accumulate.
  struct Coupling {
    int k, l;
    unsigned char slot_k, slot_l;
    bool accumulate;
    double* up;
    double* low;
  };
  unsigned version_ = ~0u;
  std::size_t particle_count_ = 0;
  int rows_ = 0;
  std::vector<int> row_count_;               // particles per row
  std::vector<double> inv_scale_;            // 1 / length scale per row
  std::vector<Coupling> couplings_;
  std::vector<double*> diag_entry_;  // where A_kk goes in the factor's storage
  std::unique_ptr<LinearSolver> linear_;
};

// Semi-implicit Euler prediction shared by projection, shake and acceleration-free steps:
// v* = v + h M⁻¹ F(x, v), x* = x + h v*. Fixed particles stay where they are.
void predict_semi_implicit(const StepContext& context, double h, std::vector<Vec3>& x_star,
                           std::vector<Vec3>& v_star);

}  // namespace lagrange
