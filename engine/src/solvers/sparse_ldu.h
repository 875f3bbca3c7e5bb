// Sparse A = L D U factorization for square matrices whose sparsity pattern is symmetric but whose values need
// not be: the Newton matrix of the projection solver, J(q_k) M⁻¹ J(q)ᵀ, has the pattern of J M⁻¹ Jᵀ (rows that
// share a particle) with different values above and below the diagonal.
//
// An up-looking factorization after Davis's LDL (T. Davis, "Algorithm 849", ACM TOMS 31(4), 2005), extended to
// two triangular solves per row: with A₁₁ = L₁₁ D₁ U₁₁ known, row/column k follow from
//   L₁₁ z = A[0:k, k]    →  U[i, k] = z_i / D_i
//   U₁₁ᵀ w = A[k, 0:k]ᵀ  →  L[k, i] = w_i / D_i
//   D_k = A_kk − Σ_i w_i z_i / D_i.
// L and Uᵀ share one sparsity pattern (computed once from the elimination tree), so the symbolic work is done once
// per constraint topology and each Newton iteration only refactorizes. A fill-reducing ordering (AMD, from Eigen)
// keeps cloth grids cheap; chains factor with no fill.
//
// Symmetric mode (SparseLDU(true)): A = L D Lᵀ for symmetric values, A_ij and A_ji share one slot and the
// factorization computes one triangle, about half the arithmetic.
//
// No pivoting: the matrices here are close to the symmetric positive (semi)definite J M⁻¹ Jᵀ. A pivot that
// vanishes relative to its diagonal entry marks a row that depends on earlier ones (a redundant constraint, or a
// constraint on particles that cannot move); its multiplier is set to zero and the row is counted.
#pragma once

#include <utility>
#include <vector>

#include "linear_solver.h"

namespace lagrange {

class SparseLDU final : public LinearSolver {
 public:
  explicit SparseLDU(bool symmetric = false) : symmetric_(symmetric) {}
  const char* name() const override { return symmetric_ ? "sparse LDLT" : "sparse LDU"; }
  bool symmetric() const override { return symmetric_; }
  // n unknowns; `upper` lists the off-diagonal pairs (i, j), i < j, whose entries may be non-zero (both A_ij and
  // A_ji). The order of `upper` is the order of the value arrays passed to factorize().
  void analyze(int n, const std::vector<std::pair<int, int>>& upper) override;

  // diag[i] = A_ii; upper_values[e] = A_ij and lower_values[e] = A_ji for the e-th pair (i, j) given to analyze().
  // Pivots with |D_k| <= pivot_tolerance · |A_kk| (or A_kk = 0) mark dependent rows. Returns their count.
  int factorize(const double* diag, const double* upper_values, const double* lower_values,
                double pivot_tolerance = kPivotTolerance);

  // Assembly straight into the factor's own storage, for callers that refactorize often: write A_ii to
  // *diagonal_entry(i), A_ij and A_ji of pair e to *pair_entry(e, true) and *pair_entry(e, false), then call
  // factorize_assembled(). Pointers stay valid until the next analyze().
  double* diagonal_entry(int i) override { return &a_diag_[perm_new_[i]]; }
  double* pair_entry(std::size_t pair, bool upper_value) override {
    const bool up = symmetric_ || upper_value != static_cast<bool>(pair_swapped_[pair]);
    return up ? &a_up_[pair_slot_[pair]] : &a_low_[pair_slot_[pair]];
  }
  int factorize_assembled(double pivot_tolerance = kPivotTolerance);
  int factorize() override { return factorize_assembled(); }

  // Solves A x = b in place (after factorize()). Dependent rows get x = 0 in the factored basis.
  void solve(double* b) const override;

  // With D_k = 0, v = U⁻¹ e_k satisfies A v = L D U v = L D e_k = 0: one back substitution from all of them at once.
  void null_combination(std::vector<double>& v) const override;
  const double* bidiagonal_sub() const override { return bidiagonal_ && symmetric_ ? sub_.data() : nullptr; }
  const double* inverse_pivots() const override { return bidiagonal_ && symmetric_ ? inv_d_.data() : nullptr; }
  int size() const { return n_; }
  // Whether large systems may be ordered by CHOLMOD's nested dissection (built with SuiteSparse; else AMD only).
  static bool nested_dissection_available();
  int factor_nonzeros() const { return static_cast<int>(factor_row_.size()); }

 private:
  // The steps of analyze(), in order, after the ordering: the permuted pattern of A, the elimination tree with the
  // factor's column counts, the pattern of each row of L.
  void permute_pattern(const std::vector<std::pair<int, int>>& upper);
  void build_elimination_tree();
  void build_row_patterns();
  template <bool Symmetric>
  int factorize_values(double pivot_tolerance);
  // 1/D_k, or 0 (and one more dependent row) for a pivot that vanishes relative to A_kk.
  void set_pivot(int k, double d, double pivot_tolerance, int& dependent);
  template <int Step, int UOffset>
  void solve_with(double* b, const double* lu) const;

  bool symmetric_ = false;
  int n_ = 0;
  std::vector<int> perm_old_;  // perm_old_[new] = original index
  std::vector<int> perm_new_;  // perm_new_[original] = new index
  bool identity_order_ = true;
  // Natural order and column i's only entry at row i + 1 (a chain): solve() then carries the running value in a
  // register instead of going through memory (about twice as fast on long chains).
  bool bidiagonal_ = false;
  std::vector<double> sub_;  // bidiagonal: L[i+1, i], 0 where column i is empty
  // Permuted strictly-upper pattern by column: for column j, entries col_start_[j] .. col_start_[j+1].
  std::vector<int> col_start_, col_row_;
  // For each input pair e: its slot in the permuted column storage and whether it landed transposed.
  std::vector<int> pair_slot_;
  std::vector<char> pair_swapped_;
  std::vector<double> a_up_, a_low_, a_diag_;  // permuted values: a_up_[slot] = A'(i, j), a_low_ = A'(j, i), i < j
  // Elimination tree and factor pattern: column i of L (and row i of U) holds rows factor_row_[f], f in
  // factor_start_[i] .. factor_start_[i] + count.
  std::vector<int> parent_, factor_start_, factor_row_;
  std::vector<double> l_, inv_d_;  // the symmetric factor's L (the unsymmetric factor: lu_, below)
  // Row k of L: columns row_col_[t] in topological order, stored at row_slot_[t], t in row_start_[k] .. [k+1].
  std::vector<int> row_start_, row_col_, row_slot_;
  // Work arrays.
  mutable std::vector<double> work_;
  std::vector<double> y_, lu_;  // factorize_values(): the row being eliminated; the unsymmetric factor interleaved
  std::vector<int> flag_, pattern_, fill_count_;
};

}  // namespace lagrange
