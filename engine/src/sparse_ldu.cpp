#include "sparse_ldu.h"

#include <Eigen/OrderingMethods>
#include <Eigen/SparseCore>
#include <cmath>

namespace lagrange {

void SparseLDU::analyze(int n, const std::vector<std::pair<int, int>>& upper) {
  n_ = n;
  perm_old_.resize(n);
  perm_new_.resize(n);
  // Fill-reducing ordering on the symmetric pattern.
  if (n > 2 && !upper.empty()) {
    std::vector<Eigen::Triplet<double, int>> triplets;
    triplets.reserve(2 * upper.size() + n);
    for (int i = 0; i < n; ++i) triplets.emplace_back(i, i, 1.0);
    for (const auto& [i, j] : upper) {
      triplets.emplace_back(i, j, 1.0);
      triplets.emplace_back(j, i, 1.0);
    }
    Eigen::SparseMatrix<double, Eigen::ColMajor, int> pattern(n, n);
    pattern.setFromTriplets(triplets.begin(), triplets.end());
    Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, int> perm;
    Eigen::AMDOrdering<int> amd;
    amd(pattern, perm);
    for (int k = 0; k < n; ++k) perm_old_[k] = perm.indices()[k];
  } else {
    for (int k = 0; k < n; ++k) perm_old_[k] = k;
  }
  for (int k = 0; k < n; ++k) perm_new_[perm_old_[k]] = k;

  // Permuted strictly-upper pattern, column by column.
  std::vector<int> count(n + 1, 0);
  pair_slot_.resize(upper.size());
  pair_swapped_.resize(upper.size());
  for (const auto& [i, j] : upper) {
    const int a = perm_new_[i], b = perm_new_[j];
    ++count[std::max(a, b)];
  }
  col_start_.assign(n + 1, 0);
  for (int j = 0; j < n; ++j) col_start_[j + 1] = col_start_[j] + count[j];
  std::vector<int> next(col_start_.begin(), col_start_.end() - 1);
  col_row_.resize(upper.size());
  for (std::size_t e = 0; e < upper.size(); ++e) {
    const int a = perm_new_[upper[e].first], b = perm_new_[upper[e].second];
    const int col = std::max(a, b), row = std::min(a, b);
    const int slot = next[col]++;
    col_row_[slot] = row;
    pair_slot_[e] = slot;
    pair_swapped_[e] = a > b;  // the original A_ij now sits below the diagonal
  }
  a_up_.assign(upper.size(), 0.0);
  a_low_.assign(upper.size(), 0.0);
  a_diag_.assign(n, 0.0);

  // Elimination tree and column counts (Davis's ldl_symbolic).
  parent_.assign(n, -1);
  flag_.assign(n, -1);
  fill_count_.assign(n, 0);
  for (int k = 0; k < n; ++k) {
    flag_[k] = k;
    for (int p = col_start_[k]; p < col_start_[k + 1]; ++p) {
      for (int i = col_row_[p]; flag_[i] != k; i = parent_[i]) {
        if (parent_[i] == -1) parent_[i] = k;
        ++fill_count_[i];
        flag_[i] = k;
      }
    }
  }
  factor_start_.assign(n + 1, 0);
  for (int k = 0; k < n; ++k) factor_start_[k + 1] = factor_start_[k] + fill_count_[k];
  factor_row_.assign(factor_start_[n], 0);
  l_.assign(factor_start_[n], 0.0);
  u_.assign(factor_start_[n], 0.0);
  inv_d_.assign(n, 0.0);
  work_.assign(n, 0.0);
  y_up_.assign(n, 0.0);
  y_low_.assign(n, 0.0);
  pattern_.assign(n, 0);
}

int SparseLDU::factorize(const double* diag, const double* upper_values, const double* lower_values,
                         double pivot_tolerance) {
  const int n = n_;
  for (int i = 0; i < n; ++i) a_diag_[perm_new_[i]] = diag[i];
  for (std::size_t e = 0; e < pair_slot_.size(); ++e) {
    const int slot = pair_slot_[e];
    if (pair_swapped_[e]) {
      a_up_[slot] = lower_values[e];
      a_low_[slot] = upper_values[e];
    } else {
      a_up_[slot] = upper_values[e];
      a_low_[slot] = lower_values[e];
    }
  }
  int dependent = 0;
  for (int k = 0; k < n; ++k) {
    // Scatter column k (above the diagonal) and row k (left of it); find the pattern of row k of L by walking the
    // elimination tree from each entry.
    int top = n;
    flag_[k] = k + n;  // distinct from the symbolic pass's marks
    fill_count_[k] = 0;
    for (int p = col_start_[k]; p < col_start_[k + 1]; ++p) {
      int i = col_row_[p];
      y_up_[i] += a_up_[p];
      y_low_[i] += a_low_[p];
      int len = 0;
      for (; flag_[i] != k + n; i = parent_[i]) {
        pattern_[len++] = i;
        flag_[i] = k + n;
      }
      while (len > 0) pattern_[--top] = pattern_[--len];
    }
    double d = a_diag_[k];
    for (; top < n; ++top) {
      const int i = pattern_[top];
      const double z = y_up_[i], w = y_low_[i];
      y_up_[i] = 0.0;
      y_low_[i] = 0.0;
      const int end = factor_start_[i] + fill_count_[i];
      for (int f = factor_start_[i]; f < end; ++f) {
        y_up_[factor_row_[f]] -= l_[f] * z;
        y_low_[factor_row_[f]] -= u_[f] * w;
      }
      const double lki = w * inv_d_[i];
      const double uik = z * inv_d_[i];
      d -= lki * z;
      factor_row_[end] = k;
      l_[end] = lki;
      u_[end] = uik;
      ++fill_count_[i];
    }
    const double scale = std::abs(a_diag_[k]);
    if (!(std::abs(d) > pivot_tolerance * scale) || scale == 0.0) {
      inv_d_[k] = 0.0;
      ++dependent;
    } else {
      inv_d_[k] = 1.0 / d;
    }
  }
  // Reset the marks so the next factorization's k + n marks cannot collide with stale ones.
  for (int k = 0; k < n; ++k) flag_[k] = -1;
  return dependent;
}

void SparseLDU::solve(double* b) const {
  const int n = n_;
  double* y = work_.data();
  for (int k = 0; k < n; ++k) y[k] = b[perm_old_[k]];
  for (int i = 0; i < n; ++i) {  // L y = b
    const double yi = y[i];
    for (int f = factor_start_[i]; f < factor_start_[i + 1]; ++f) y[factor_row_[f]] -= l_[f] * yi;
  }
  for (int i = 0; i < n; ++i) y[i] *= inv_d_[i];  // D
  for (int i = n - 1; i >= 0; --i) {  // U x = y
    double yi = y[i];
    for (int f = factor_start_[i]; f < factor_start_[i + 1]; ++f) yi -= u_[f] * y[factor_row_[f]];
    y[i] = yi;
  }
  for (int k = 0; k < n; ++k) b[perm_old_[k]] = y[k];
}

}  // namespace lagrange
