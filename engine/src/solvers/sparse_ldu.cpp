#include "sparse_ldu.h"

#include <Eigen/OrderingMethods>
#include <Eigen/SparseCore>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#ifdef LAGRANGE_HAVE_CHOLMOD
#include <dlfcn.h>
#include <suitesparse/cholmod.h>
#endif

namespace lagrange {
namespace {

// The factor's entries in this order (order[new] = original index), from the elimination tree (Davis's
// ldl_symbolic): `entry(i)` once for each entry of L, in column i, as row k is reached; `row_done()` after each row,
// and the walk stops when it returns false.
template <typename Entry, typename RowDone>
void walk_factor(int n, const std::vector<std::pair<int, int>>& upper, const std::vector<int>& order, Entry entry,
                 RowDone row_done) {
  std::vector<int> position(n);
  for (int k = 0; k < n; ++k) position[order[k]] = k;
  std::vector<int> start(n + 1, 0), above(upper.size());  // column j: rows i < j, in one array
  for (const auto& [a, b] : upper) ++start[std::max(position[a], position[b]) + 1];
  for (int j = 0; j < n; ++j) start[j + 1] += start[j];
  {
    std::vector<int> next(start.begin(), start.end() - 1);
    for (const auto& [a, b] : upper) {
      const int i = position[a], j = position[b];
      above[next[std::max(i, j)]++] = std::min(i, j);
    }
  }
  std::vector<int> parent(n, -1), flag(n, -1);
  for (int k = 0; k < n; ++k) {
    flag[k] = k;
    for (int p = start[k]; p < start[k + 1]; ++p) {
      for (int i = above[p]; flag[i] != k; i = parent[i]) {
        if (parent[i] == -1) parent[i] = k;
        entry(i);
        flag[i] = k;
      }
    }
    if (!row_done()) return;
  }
}

// Number of entries the factor has beyond the matrix's own (its fill-in). Counting stops once the fill is known to be
// above `limit` (then limit + 1 is returned): a natural order's fill on a scattered contact graph grows as n², and
// AMD's is all it is compared with.
long symbolic_fill(int n, const std::vector<std::pair<int, int>>& upper, const std::vector<int>& order,
                   long limit = std::numeric_limits<long>::max() - 1) {
  const long own = static_cast<long>(upper.size());
  long entries = 0;
  bool over = false;
  walk_factor(n, upper, order, [&](int) { ++entries; }, [&] { return !(over = entries - own > limit); });
  return over ? limit + 1 : entries - own;  // the entries counted so far only grow
}

// Multiply-adds of the factorization in this order: Σ over columns of (entries below the diagonal)².
double symbolic_flops(int n, const std::vector<std::pair<int, int>>& upper, const std::vector<int>& order) {
  std::vector<double> count(n, 0.0);
  walk_factor(n, upper, order, [&](int i) { count[i] += 1.0; }, [] { return true; });
  double flops = 0.0;
  for (double c : count) flops += c * c;
  return flops;
}

// AMD's order on the symmetric pattern of A (the diagonal included).
std::vector<int> amd_order(int n, const std::vector<std::pair<int, int>>& upper) {
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
  return std::vector<int>(perm.indices().data(), perm.indices().data() + n);
}

#ifdef LAGRANGE_HAVE_CHOLMOD
// The CHOLMOD functions used, from the library the build found (LAGRANGE_CHOLMOD_FILE), loaded the first time they
// are needed; all null when it cannot be loaded, or when it is another version than the header this was compiled
// against (a library upgraded under a built program: its cholmod_common may be laid out otherwise). AMD then orders
// everything.
struct Cholmod {
  decltype(&cholmod_start) start = nullptr;
  decltype(&cholmod_finish) finish = nullptr;
  decltype(&cholmod_allocate_sparse) allocate_sparse = nullptr;
  decltype(&cholmod_free_sparse) free_sparse = nullptr;
  decltype(&cholmod_nested_dissection) nested_dissection = nullptr;
};

const Cholmod& cholmod() {
  static const Cholmod functions = [] {
    Cholmod c;
    void* library = dlopen(LAGRANGE_CHOLMOD_FILE, RTLD_NOW | RTLD_LOCAL);  // kept for the process's life
    if (!library) return c;
    const auto get = [library](auto& f, const char* name) {
      f = reinterpret_cast<std::decay_t<decltype(f)>>(dlsym(library, name));
    };
    get(c.start, "cholmod_start");
    get(c.finish, "cholmod_finish");
    get(c.allocate_sparse, "cholmod_allocate_sparse");
    get(c.free_sparse, "cholmod_free_sparse");
    get(c.nested_dissection, "cholmod_nested_dissection");
    decltype(&cholmod_version) version = nullptr;
    get(version, "cholmod_version");
    int found[3] = {-1, -1, -1};
    if (!version || (version(found), found[0] != CHOLMOD_MAIN_VERSION || found[1] != CHOLMOD_SUB_VERSION))
      return Cholmod{};
    if (!(c.start && c.finish && c.allocate_sparse && c.free_sparse && c.nested_dissection)) c = Cholmod{};
    return c;
  }();
  return functions;
}
#endif

// CHOLMOD's nested dissection (METIS's separators, CAMD within the parts) of the symmetric pattern, or empty when
// CHOLMOD is not built in, cannot be loaded or fails. Deterministic: METIS seeds its own generator.
std::vector<int> nested_dissection_order(int n, const std::vector<std::pair<int, int>>& upper) {
#ifdef LAGRANGE_HAVE_CHOLMOD
  const Cholmod& lib = cholmod();
  if (!lib.start) return {};
  cholmod_common common;
  lib.start(&common);
  common.print = 0;
  common.error_handler = nullptr;
  std::vector<int> order;
  // The lower triangle, column by column (stype −1: CHOLMOD orders A itself, not A Aᵀ), the diagonal included.
  std::vector<int> count(n + 1, 1);
  for (const auto& [i, j] : upper) ++count[std::min(i, j)];
  cholmod_sparse* a = lib.allocate_sparse(n, n, upper.size() + n, 0, 1, -1, CHOLMOD_PATTERN, &common);
  if (a) {
    int* ap = static_cast<int*>(a->p);
    int* ai = static_cast<int*>(a->i);
    ap[0] = 0;
    for (int j = 0; j < n; ++j) ap[j + 1] = ap[j] + count[j];
    std::vector<int> next(ap, ap + n);
    for (int j = 0; j < n; ++j) ai[next[j]++] = j;
    for (const auto& [i, j] : upper) ai[next[std::min(i, j)]++] = std::max(i, j);
    std::vector<int> perm(n), parent(n), member(n);
    const long parts = lib.nested_dissection(a, nullptr, 0, perm.data(), parent.data(), member.data(), &common);
    // Taken only as a permutation of 0 … n − 1 (anything else from the library is AMD's to order).
    std::vector<char> seen(n, 0);
    bool permutation = parts > 0 && common.status == CHOLMOD_OK;
    for (int k = 0; permutation && k < n; ++k) {
      permutation = perm[k] >= 0 && perm[k] < n && !seen[perm[k]];
      if (permutation) seen[perm[k]] = 1;
    }
    if (permutation) order = std::move(perm);
    lib.free_sparse(&a, &common);
  }
  lib.finish(&common);
  return order;
#else
  (void)n;
  (void)upper;
  return {};
#endif
}

// Systems of at least this many rows are also ordered by nested dissection, taken where it saves kDissectionGain of
// AMD's flops (a sheet: cloth 64² 0.84×, 128² 0.66×; docs/physics.md, "Our factorization, not CHOLMOD").
constexpr int kDissectionRows = 1024;
constexpr double kDissectionGain = 0.95;

// Fill-reducing ordering on the symmetric pattern (AMD), unless the given order fills no more: chains and other
// banded systems keep their natural order, which keeps the factor's memory accesses sequential. Large systems take
// nested dissection where it needs fewer flops. order[new] = original.
std::vector<int> fill_reducing_order(int n, const std::vector<std::pair<int, int>>& upper) {
  std::vector<int> order(n);
  for (int k = 0; k < n; ++k) order[k] = k;
  if (n > 2 && !upper.empty() && symbolic_fill(n, upper, order, 0) > 0) {  // any fill at all
    std::vector<int> amd = amd_order(n, upper);
    const long amd_fill = symbolic_fill(n, upper, amd);
    if (symbolic_fill(n, upper, order, amd_fill) > amd_fill) order = amd;
    if (n >= kDissectionRows) {
      std::vector<int> dissection = nested_dissection_order(n, upper);
      if (!dissection.empty() &&
          symbolic_flops(n, upper, dissection) < kDissectionGain * symbolic_flops(n, upper, order))
        order = std::move(dissection);
    }
  }
  return order;
}

}  // namespace

bool SparseLDU::nested_dissection_available() {
#ifdef LAGRANGE_HAVE_CHOLMOD
  return cholmod().start != nullptr;
#else
  return false;
#endif
}

void SparseLDU::analyze(int n, const std::vector<std::pair<int, int>>& upper) {
  n_ = n;
  perm_old_ = fill_reducing_order(n, upper);
  perm_new_.resize(n);
  identity_order_ = true;
  for (int k = 0; k < n; ++k) {
    perm_new_[perm_old_[k]] = k;
    identity_order_ = identity_order_ && perm_old_[k] == k;
  }
  permute_pattern(upper);
  build_elimination_tree();
  build_row_patterns();
  bidiagonal_ = identity_order_;
  for (int i = 0; bidiagonal_ && i < n; ++i) {
    const int count = factor_start_[i + 1] - factor_start_[i];
    bidiagonal_ = count == 0 || (count == 1 && factor_row_[factor_start_[i]] == i + 1);
  }
  sub_.assign(bidiagonal_ ? n : 0, 0.0);
  l_.assign(symmetric_ ? factor_start_[n] : 0, 0.0);
  inv_d_.assign(n, 0.0);
  work_.assign(n, 0.0);
  y_.assign(symmetric_ ? n : 2 * static_cast<std::size_t>(n), 0.0);
  lu_.assign(symmetric_ ? 0 : 2 * static_cast<std::size_t>(factor_start_[n]), 0.0);
}

// Permuted strictly-upper pattern, column by column.
void SparseLDU::permute_pattern(const std::vector<std::pair<int, int>>& upper) {
  const int n = n_;
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
}

// Elimination tree and column counts (Davis's ldl_symbolic).
void SparseLDU::build_elimination_tree() {
  const int n = n_;
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
}

// The pattern of every row of L in topological order, and the slot each entry lands in, found once here by the
// same elimination-tree walk ldl_numeric does; the numeric phase then only does arithmetic.
void SparseLDU::build_row_patterns() {
  const int n = n_;
  row_start_.assign(n + 1, 0);
  row_col_.clear();
  row_slot_.clear();
  std::vector<int> filled(n, 0);
  pattern_.assign(n, 0);
  std::fill(flag_.begin(), flag_.end(), -1);
  for (int k = 0; k < n; ++k) {
    int top = n;
    flag_[k] = k;
    for (int p = col_start_[k]; p < col_start_[k + 1]; ++p) {
      int len = 0;
      for (int i = col_row_[p]; flag_[i] != k; i = parent_[i]) {
        pattern_[len++] = i;
        flag_[i] = k;
      }
      while (len > 0) pattern_[--top] = pattern_[--len];
    }
    for (; top < n; ++top) {
      const int i = pattern_[top];
      const int slot = factor_start_[i] + filled[i]++;
      factor_row_[slot] = k;
      row_col_.push_back(i);
      row_slot_.push_back(slot);
    }
    row_start_[k + 1] = static_cast<int>(row_col_.size());
  }
}

int SparseLDU::factorize(const double* diag, const double* upper_values, const double* lower_values,
                         double pivot_tolerance) {
  for (int i = 0; i < n_; ++i) *diagonal_entry(i) = diag[i];
  for (std::size_t e = 0; e < pair_slot_.size(); ++e) {
    *pair_entry(e, true) = upper_values[e];
    *pair_entry(e, false) = lower_values[e];
  }
  return factorize_assembled(pivot_tolerance);
}

int SparseLDU::factorize_assembled(double pivot_tolerance) {
  return symmetric_ ? factorize_values<true>(pivot_tolerance) : factorize_values<false>(pivot_tolerance);
}

// Two doubles as one vector (GCC and Clang's vector extension: SSE2 here, WebAssembly SIMD or scalar code elsewhere).
using Pair = double __attribute__((vector_size(2 * sizeof(double))));

template <bool Symmetric>
int SparseLDU::factorize_values(double pivot_tolerance) {
  const int n = n_;
  int dependent = 0;
  // Row k being eliminated: its column above the diagonal (the z side, U's) and, unsymmetric, its row left of it
  // (the w side, L's), interleaved, y[2r] and y[2r + 1], as the factor is kept (lu_[2f] = L, lu_[2f + 1] = U): an
  // elimination step then updates both sides of an entry with one load and one store.
  constexpr int S = Symmetric ? 1 : 2;
  double* y = y_.data();
  double* lu = Symmetric ? l_.data() : lu_.data();
  for (int k = 0; k < n; ++k) {
    double d = a_diag_[k];
    if (bidiagonal_) {  // row k's only entry left of the diagonal is (k, k − 1), with nothing to eliminate
      if (col_start_[k + 1] > col_start_[k]) {
        const int p = col_start_[k], slot = factor_start_[k - 1];
        const double z = a_up_[p], w = Symmetric ? z : a_low_[p];
        const double lki = w * inv_d_[k - 1];
        lu[S * slot] = lki;
        sub_[k - 1] = lki;
        if constexpr (!Symmetric) lu[2 * slot + 1] = z * inv_d_[k - 1];
        d -= lki * z;
      }
      set_pivot(k, d, pivot_tolerance, dependent);
      continue;
    }
    // Scatter column k above the diagonal and row k left of it, then eliminate along row k's pattern.
    for (int p = col_start_[k]; p < col_start_[k + 1]; ++p) {
      y[S * col_row_[p]] = a_up_[p];
      if constexpr (!Symmetric) y[2 * col_row_[p] + 1] = a_low_[p];
    }
    for (int t = row_start_[k]; t < row_start_[k + 1]; ++t) {
      const int i = row_col_[t], slot = row_slot_[t];
      const double z = y[S * i];
      const double w = Symmetric ? z : y[2 * i + 1];
      y[S * i] = 0.0;
      if constexpr (!Symmetric) y[2 * i + 1] = 0.0;
      if (inv_d_[i] == 0.0 && std::isfinite(z) && std::isfinite(w)) {
        // A dependent column: its entries of L (and U) are z · (1/D_i = 0) = 0, so eliminating along it would only
        // subtract zeros from row k. Skipped, a block of k rows of rank r (a particle held by a thousand identical
        // pins or a thousand rods) costs k² r instead of k³, with the same values (a zero's sign aside).
        lu[S * slot] = w * 0.0;
        if constexpr (!Symmetric) lu[2 * slot + 1] = z * 0.0;
        continue;
      }
      if constexpr (Symmetric) {
        for (int f = factor_start_[i]; f < slot; ++f) y[factor_row_[f]] -= lu[f] * z;
      } else {
        // The entries of column i above row k, both sides at once: (y_up, y_low)[r] −= (L, U)[f] · (z, w), as two
        // lanes of one vector (the same IEEE operations per lane as two scalar updates).
        const Pair zw = {z, w};
        for (int f = factor_start_[i]; f < slot; ++f) {
          double* yr = y + 2 * factor_row_[f];
          Pair yv, lv;
          std::memcpy(&yv, yr, sizeof yv);
          std::memcpy(&lv, lu + 2 * f, sizeof lv);
          yv -= lv * zw;
          std::memcpy(yr, &yv, sizeof yv);
        }
      }
      const double lki = w * inv_d_[i];
      lu[S * slot] = lki;
      if constexpr (!Symmetric) lu[2 * slot + 1] = z * inv_d_[i];
      d -= lki * z;
    }
    set_pivot(k, d, pivot_tolerance, dependent);
  }
  return dependent;
}

void SparseLDU::set_pivot(int k, double d, double pivot_tolerance, int& dependent) {
  inv_d_[k] = inverse_pivot(d, a_diag_[k], dependent, pivot_tolerance);
}

void SparseLDU::solve(double* b) const {
  if (symmetric_)
    solve_with<1, 0>(b, l_.data());  // U = Lᵀ
  else
    solve_with<2, 1>(b, lu_.data());
}

// L's entry f is lu[Step · f], U's lu[Step · f + UOffset]: the symmetric factor's one array, or the unsymmetric
// factor's interleaved pairs. (The offset is added to the index, never to the pointer: an empty factor's data() is
// null.)
template <int Step, int UOffset>
void SparseLDU::solve_with(double* b, const double* lu) const {
  const int n = n_;
  if (bidiagonal_) {  // the same arithmetic as below, in the same order, for L with one entry per column
    const int* start = factor_start_.data();
    double carry = 0.0;  // L[i, i − 1] y_{i−1}, or 0 when column i − 1 is empty
    for (int i = 0; i < n; ++i) {
      const double yi = b[i] - carry;
      carry = start[i + 1] > start[i] ? lu[Step * start[i]] * yi : 0.0;
      b[i] = yi * inv_d_[i];
    }
    double next = 0.0;  // x_{i+1}
    for (int i = n - 1; i >= 0; --i) {
      const double xi = start[i + 1] > start[i] ? b[i] - lu[Step * start[i] + UOffset] * next : b[i];
      b[i] = xi;
      next = xi;
    }
    return;
  }
  double* y = identity_order_ ? b : work_.data();
  if (!identity_order_)
    for (int k = 0; k < n; ++k) y[k] = b[perm_old_[k]];
  for (int i = 0; i < n; ++i) {  // L y = b, then D: y_i is final once the columns before i have been applied
    const double yi = y[i];
    for (int f = factor_start_[i]; f < factor_start_[i + 1]; ++f) y[factor_row_[f]] -= lu[Step * f] * yi;
    y[i] = yi * inv_d_[i];
  }
  for (int i = n - 1; i >= 0; --i) {  // U x = y
    double yi = y[i];
    for (int f = factor_start_[i]; f < factor_start_[i + 1]; ++f) yi -= lu[Step * f + UOffset] * y[factor_row_[f]];
    y[i] = yi;
  }
  if (!identity_order_)
    for (int k = 0; k < n; ++k) b[perm_old_[k]] = y[k];
}

void SparseLDU::null_combination(std::vector<double>& v) const {
  const int n = n_;
  std::vector<double> y(n, 0.0);
  for (int k = 0; k < n; ++k)
    if (inv_d_[k] == 0.0) y[k] = 1.0 + 0.125 * (k % 7);  // weights that cannot cancel by accident
  const double* lu = symmetric_ ? l_.data() : lu_.data();
  const int step = symmetric_ ? 1 : 2, offset = symmetric_ ? 0 : 1;
  for (int i = n - 1; i >= 0; --i) {  // U x = y, as in solve()
    double yi = y[i];
    for (int f = factor_start_[i]; f < factor_start_[i + 1]; ++f) yi -= lu[step * f + offset] * y[factor_row_[f]];
    y[i] = yi;
  }
  v.resize(n);
  for (int k = 0; k < n; ++k) v[perm_old_[k]] = y[k];
}

std::unique_ptr<LinearSolver> make_sparse_ldu_solver() { return std::make_unique<SparseLDU>(); }
std::unique_ptr<LinearSolver> make_sparse_ldlt_solver() { return std::make_unique<SparseLDU>(true); }

}  // namespace lagrange
