// The linear solvers behind the row systems A x = b (row_system.h): one interface, so a factorization made for
// symmetric matrices (an LDLᵀ, CHOLMOD) can sit beside SparseLDU and a solver can choose. The caller describes the
// pattern once (analyze), writes the values straight into the solver's storage through the entry pointers, then
// factorizes and solves as often as the values change.
#pragma once

#include <cmath>
#include <cstddef>
#include <memory>
#include <utility>
#include <vector>

namespace lagrange {

class LinearSolver {
 public:
  virtual ~LinearSolver() = default;
  virtual const char* name() const = 0;
  // Whether A must be symmetric: then A_ij and A_ji share one slot (pair_entry returns it for both).
  virtual bool symmetric() const { return false; }
  // n unknowns; `upper` lists the off-diagonal pairs (i, j), i < j, whose entries may be non-zero (A_ij and A_ji).
  virtual void analyze(int n, const std::vector<std::pair<int, int>>& upper) = 0;
  // Where A_ii, and A_ij (upper_value) or A_ji of the e-th pair given to analyze(), are written before factorize().
  // Valid until the next analyze(). A solver for symmetric matrices may return the same slot for both.
  virtual double* diagonal_entry(int i) = 0;
  virtual double* pair_entry(std::size_t pair, bool upper_value) = 0;
  // Factorizes the values written; returns the number of dependent (redundant or contradictory) rows, whose
  // unknowns the solve sets to zero.
  virtual int factorize() = 0;
  // Solves A x = b in place with the last factorization.
  virtual void solve(double* b) const = 0;
  // A combination, with non-zero weights, of the null vectors the dependent unknowns mark (A v = 0 for each: the
  // self-stresses of a redundant set of rods). Its non-zeros are the unknowns that take part in a dependency.
  virtual void null_combination(std::vector<double>& v) const = 0;
  // For kernels that fuse the solve into their own passes: when the last factorization is A = L D Lᵀ in the given
  // order with L's only entries just below the diagonal (a chain), L[i+1, i] (0 where absent) and 1/D_i (0 for a
  // dependent row); nullptr otherwise.
  virtual const double* bidiagonal_sub() const { return nullptr; }
  virtual const double* inverse_pivots() const { return nullptr; }
};

// The pivot rule of every factorization here: 1/d, or 0 (and one more dependent row) for a pivot d that vanishes
// relative to its diagonal entry a_kk (|d| <= tolerance · |a_kk|, or a_kk = 0).
constexpr double kPivotTolerance = 1e-10;
inline double inverse_pivot(double d, double a_kk, int& dependent, double tolerance = kPivotTolerance) {
  const double scale = std::abs(a_kk);
  if (!(std::abs(d) > tolerance * scale) || scale == 0.0) {
    ++dependent;
    return 0.0;
  }
  return 1.0 / d;
}

// SparseLDU (sparse_ldu.h): A = L D U with a symmetric pattern and values that need not be symmetric.
std::unique_ptr<LinearSolver> make_sparse_ldu_solver();
// The same factorization in symmetric mode: A = L D Lᵀ, half the arithmetic.
std::unique_ptr<LinearSolver> make_sparse_ldlt_solver();

}  // namespace lagrange
