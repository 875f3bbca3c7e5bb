// The pieces every solver shares: all constraint rows evaluated at once, and the sparse matrix
// A = J_left M⁻¹ J_rightᵀ (entry (k, l) couples rows k and l through each movable particle they share).
// Projection uses J_left = ∇C(current iterate), J_right = ∇C(q) (the Newton matrix of C(q* + M⁻¹∇C(q)ᵀλ) = 0);
// the acceleration solver and RATTLE's velocity step use J_left = J_right = ∇C(q).
#pragma once

#include <span>
#include <vector>

#include "lagrange/constraint.h"
#include "lagrange/world.h"
#include "sparse_ldu.h"

namespace lagrange {

struct RowGrad {
  Vec3 g[kMaxRowParticles];
};

class RowSystem {
 public:
  // Rebuilds the coupling pattern and the symbolic factorization when the world's rows or particles changed.
  void prepare(const World& world);
  int rows() const { return diag_start_.empty() ? 0 : static_cast<int>(diag_start_.size()) - 1; }

  // C_k(x) and ∇C_k(x) for every row.
  void evaluate(const World& world, std::span<const Vec3> x, std::vector<double>& c,
                std::vector<RowGrad>& grad) const;
  // x[p] += Σ_k λ_k M⁻¹ ∇_p C_k for the gradients `grad`.
  void displace(const World& world, const std::vector<RowGrad>& grad, const std::vector<double>& lambda,
                std::vector<Vec3>& x) const;
  // J v for every row.
  void velocity_rows(const World& world, const std::vector<RowGrad>& grad, std::span<const Vec3> v,
                     std::vector<double>& jv) const;

  // Assembles A = left M⁻¹ rightᵀ and factorizes it; returns the number of dependent (redundant) rows.
  int factorize(const World& world, const std::vector<RowGrad>& left, const std::vector<RowGrad>& right);
  // Solves A x = b in place with the last factorization.
  void solve(std::vector<double>& b) const { ldu_.solve(b.data()); }

 private:
  struct Term {
    int particle;
    unsigned char slot_k, slot_l;
  };
  unsigned version_ = ~0u;
  std::size_t particle_count_ = 0;
  std::vector<int> diag_start_;                 // terms of A_kk: diag_terms_[diag_start_[k] .. diag_start_[k+1]]
  std::vector<Term> diag_terms_flat_;
  std::vector<std::pair<int, int>> pairs_;      // (k, l), k < l
  std::vector<int> pair_start_;
  std::vector<Term> pair_terms_;
  std::vector<double> diag_, upper_, lower_;
  SparseLDU ldu_;
};

// Semi-implicit Euler prediction shared by projection, shake and acceleration-free steps:
// v* = v + h M⁻¹ F(x, v), x* = x + h v*. Fixed particles stay where they are.
void predict_semi_implicit(const World& world, double h, std::vector<Vec3>& x_star, std::vector<Vec3>& v_star);

// Records max |C| (absolute and relative) for a set of row values.
double max_relative(const World& world, const std::vector<double>& c);

}  // namespace lagrange
