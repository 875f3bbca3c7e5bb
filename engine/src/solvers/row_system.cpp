#include "row_system.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "lagrange/constraint_kinds.h"

namespace lagrange {
namespace {

// Calls f with the gradient stride as a compile-time constant, so the packed loops index as tightly as arrays of a
// fixed size (the generic stride cost about 4 % of the acceleration solver's instructions on a 1000-link chain).
template <class F>
void with_stride(int stride, F&& f) {
  switch (stride) {
    case 1: f(std::integral_constant<int, 1>{}); break;
    case 2: f(std::integral_constant<int, 2>{}); break;
    default: f(std::integral_constant<int, kMaxRowParticles>{}); break;
  }
}

// Two rigid scene rows that are the same equation: the same kind and definition (particles in the same order, every
// field, no compliance) and the same row of it. Tools (the mouse's pin) are never twins, nor unilateral rows (cables
// and contacts: an active set masks them one by one), nor rows of no scene constraint (a contact's tangent rows: no
// definition to compare, so a particle's tangent rows against a floor and a wall read as one and the wall's was
// left out).
bool same_rigid_row(const Row& a, const Row& b) {
  if (a.unilateral != 0 || b.unilateral != 0) return false;
  const Constraint& ca = *a.constraint;
  const Constraint& cb = *b.constraint;
  if (ca.kind().role == KindRole::Other || cb.kind().role == KindRole::Other) return false;
  if (a.row != b.row || a.count != b.count || ca.tool() || cb.tool() || ca.compliance() != 0.0 ||
      cb.compliance() != 0.0)
    return false;
  for (int s = 0; s < a.count; ++s)
    if (a.particle[s] != b.particle[s]) return false;
  const ConstraintDef da = ca.definition(), db = cb.definition();
  return da.type == db.type && da.particles == db.particles && da.values == db.values;
}

// Each row's earlier twin (same_rigid_row), or -1: candidates grouped by their particles and row number first, so a
// scene without twins compares no definitions.
std::vector<int> find_twins(std::span<const Row> rows) {
  const int m = static_cast<int>(rows.size());
  std::vector<int> twin(m, -1);
  std::vector<std::pair<std::uint64_t, int>> keyed(m);
  for (int k = 0; k < m; ++k) {
    std::uint64_t h = 1469598103934665603ull ^ static_cast<std::uint64_t>(rows[k].row);
    for (int s = 0; s < rows[k].count; ++s) h = (h ^ static_cast<std::uint64_t>(rows[k].particle[s] + 1)) * 1099511628211ull;
    keyed[k] = {h, k};
  }
  std::sort(keyed.begin(), keyed.end());
  for (std::size_t i = 0; i < keyed.size();) {
    std::size_t end = i + 1;
    while (end < keyed.size() && keyed[end].first == keyed[i].first) ++end;
    for (std::size_t a = i + 1; a < end; ++a) {  // in row order: the twin is always the earliest of its equals
      const int k = keyed[a].second;
      for (std::size_t b = i; b < a && twin[k] < 0; ++b) {
        const int earlier = keyed[b].second;
        if (twin[earlier] < 0 && same_rigid_row(rows[earlier], rows[k])) twin[k] = earlier;
      }
    }
    i = end;
  }
  return twin;
}

}  // namespace

bool RowSystem::twins_hold(const RowSet& model) const {
  const auto rows = model.rows;
  for (int k : shadows_)
    if (!same_rigid_row(rows[twin_[k]], rows[k])) return false;
  return true;
}

void RowSystem::prepare(const RowSet& model) {
  // A pin's point or a row's compliance can change without a new topology (the mouse moving a scene's pin): twins
  // are checked again, so a row that stopped being one takes its part in the system at once.
  if (version_ == model.version && particle_count_ == model.particle_count &&
      (shadows_.empty() || twins_hold(model)))
    return;
  version_ = model.version;
  particle_count_ = model.particle_count;
  const auto rows = model.rows;
  const int m = static_cast<int>(rows.size());
  rows_ = m;
  row_count_.resize(m);
  inv_scale_.resize(m);
  rod_.resize(m);
  stride_ = 1;
  for (int k = 0; k < m; ++k) {
    row_count_[k] = rows[k].count;
    inv_scale_[k] = 1.0 / rows[k].scale;
    const Constraint& constraint = *rows[k].constraint;
    rod_[k] = has_role(constraint, KindRole::Rod)
                  ? RodRow{rows[k].particle[0], rows[k].particle[1], constraint.length()}
                  : RodRow{0, 0, -1.0};
    stride_ = std::max(stride_, rows[k].count);
  }
  if (stride_ > 2) stride_ = kMaxRowParticles;  // the strides with_stride() knows
  zigzag_factor_.resize(m);  // chain_beyond_zigzag_limit(): (w_a + w_b) / L per rod
  for (int k = 0; k < m; ++k)
    zigzag_factor_[k] = rod_[k].length > 0.0
                            ? (model.inv_mass[rod_[k].a] + model.inv_mass[rod_[k].b]) / rod_[k].length
                            : 0.0;
  all_rods_ = std::all_of(rod_.begin(), rod_.end(), [](const RodRow& r) { return r.length >= 0.0; });
  particle_.assign(static_cast<std::size_t>(m) * stride_, 0);
  for (int k = 0; k < m; ++k)
    for (int s = 0; s < rows[k].count; ++s) particle_[static_cast<std::size_t>(k) * stride_ + s] = rows[k].particle[s];

  // Twins: a rigid row that repeats an earlier one (a particle held by 1000 identical pins) is the same equation, so
  // it stays out of the system: its multiplier is 0 and its twin carries the whole force. Kept in, each copy would
  // be one more dependent row of a dense block, factored at a cost growing as the cube of the copies.
  twin_ = find_twins(rows);
  shadows_.clear();
  for (int k = 0; k < m; ++k)
    if (twin_[k] >= 0) shadows_.push_back(k);

  movable_.resize(model.particle_count);
  for (std::size_t i = 0; i < model.particle_count; ++i) movable_[i] = !model.fixed(i);
  pattern_ready_ = false;  // ensure_pattern(), at the first factorization: Newton's system may never need one
}

void RowSystem::ensure_pattern() {
  if (pattern_ready_) return;
  pattern_ready_ = true;
  const int m = rows_;
  const std::size_t particles = movable_.size();
  // Which rows touch each movable particle, and through which slot, as one array in particle order (a list per
  // particle cost a hundred thousand allocations on a long chain). Fixed particles couple nothing, nor do twins.
  std::vector<int> start(particles + 1, 0);
  for (int k = 0; k < m; ++k)
    for (int s = 0; s < row_count_[k] && twin_[k] < 0; ++s) {
      const int p = particle_[static_cast<std::size_t>(k) * stride_ + s];
      if (movable_[p]) ++start[p + 1];
    }
  for (std::size_t i = 0; i < particles; ++i) start[i + 1] += start[i];
  std::vector<std::pair<int, int>> touching(start[particles]);
  {
    std::vector<int> next(start.begin(), start.end() - 1);
    for (int k = 0; k < m; ++k)
      for (int s = 0; s < row_count_[k] && twin_[k] < 0; ++s) {
        const int p = particle_[static_cast<std::size_t>(k) * stride_ + s];
        if (movable_[p]) touching[next[p]++] = {k, s};
      }
  }

  // Every (k, l, slots) a shared particle gives, sorted by the pair (k, l) and, within a pair, kept in the order
  // found: one flat array and one sort, where a map of lists cost a list per pair (a particle held by 2000 rows
  // has two million pairs).
  struct Shared {
    long long key;  // k · m + l
    unsigned char sk, sl;
  };
  std::vector<Shared> shared;
  std::size_t total = 0;
  for (std::size_t p = 0; p < particles; ++p) {
    const std::size_t n = static_cast<std::size_t>(start[p + 1] - start[p]);
    if (n > 1) total += n * (n - 1) / 2;
  }
  shared.reserve(total);
  for (std::size_t p = 0; p < particles; ++p) {
    for (int a = start[p]; a < start[p + 1]; ++a)
      for (int b = a + 1; b < start[p + 1]; ++b) {
        auto [k, sk] = touching[a];
        auto [l, sl] = touching[b];
        if (k == l) continue;
        if (k > l) {
          std::swap(k, l);
          std::swap(sk, sl);
        }
        shared.push_back({static_cast<long long>(k) * m + l, static_cast<unsigned char>(sk),
                          static_cast<unsigned char>(sl)});
      }
  }
  // Deterministic order: same run, same bits. Usually sorted already (rows in order along the particles).
  if (!std::is_sorted(shared.begin(), shared.end(), [](const Shared& a, const Shared& b) { return a.key < b.key; }))
    std::stable_sort(shared.begin(), shared.end(), [](const Shared& a, const Shared& b) { return a.key < b.key; });
  std::vector<std::pair<int, int>> pairs;
  for (std::size_t i = 0; i < shared.size(); ++i)
    if (i == 0 || shared[i].key != shared[i - 1].key)
      pairs.push_back({static_cast<int>(shared[i].key / m), static_cast<int>(shared[i].key % m)});
  linear_->analyze(m, pairs);
  diag_entry_.resize(m);
  for (int k = 0; k < m; ++k) diag_entry_[k] = linear_->diagonal_entry(k);
  couplings_.clear();
  couplings_.reserve(shared.size());
  std::size_t e = 0;
  for (std::size_t i = 0; i < shared.size(); ++i) {
    const bool first = i == 0 || shared[i].key != shared[i - 1].key;
    if (first && i > 0) ++e;
    couplings_.push_back({pairs[e].first, pairs[e].second, shared[i].sk, shared[i].sl, !first,
                          linear_->pair_entry(e, true), linear_->pair_entry(e, false)});
  }
  // A chain in natural order: row k joins particles k and k + 1, and rows couple only through the particle between
  // them (slot 1 of the one, slot 0 of the next), once.
  stream_chain_ = bidiagonal_rods() && m > 0 && particles == static_cast<std::size_t>(m) + 1;
  for (int k = 0; stream_chain_ && k < m; ++k) stream_chain_ = rod_[k].a == k && rod_[k].b == k + 1;
  coupled_.assign(stream_chain_ ? m : 0, 0);
  for (const Coupling& c : couplings_) {
    if (!stream_chain_) break;
    if (c.l != c.k + 1 || c.slot_k != 1 || c.slot_l != 0 || c.accumulate || coupled_[c.l]) stream_chain_ = false;
    else coupled_[c.l] = 1;
  }
  chain_lower_.assign(stream_chain_ ? m : 0, 0.0);
  chain_upper_.assign(stream_chain_ ? m : 0, 0.0);
  chain_inv_d_.assign(stream_chain_ ? m : 0, 0.0);
}

double RowSystem::evaluate(const RowSet& model, std::span<const Vec3> x, std::vector<double>& c,
                           RowGradients& grad) const {
  const auto rows = model.rows;
  c.resize(rows.size());
  grad.resize(rows.size(), stride_);
  double worst = 0.0;
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const RodRow& rod = rod_[k];
    c[k] = rod.length >= 0.0
               ? DistanceConstraint::evaluate_of(x[rod.a], x[rod.b], rod.length, grad[k].g[0], grad[k].g[1])
               : rows[k].constraint->evaluate(rows[k].row, x, GradientSlots(*grad[k].g));
    const double r = std::abs(c[k]) * inv_scale_[k];
    if (!(r <= worst)) worst = r;  // NaN wins, so a non-finite residual is never taken for convergence
  }
  return worst;
}

double RowSystem::values(const RowSet& model, std::span<const Vec3> x, std::vector<double>& c) const {
  const auto rows = model.rows;
  c.resize(rows.size());
  double worst = 0.0;
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const RodRow& rod = rod_[k];
    c[k] = rod.length >= 0.0 ? DistanceConstraint::value_of(x[rod.a], x[rod.b], rod.length)
                             : rows[k].constraint->value(rows[k].row, x);
    const double r = std::abs(c[k]) * inv_scale_[k];
    if (!(r <= worst)) worst = r;
  }
  return worst;
}

double RowSystem::chain_chord_step(const RowGradients& weighted, std::vector<double>& c, std::vector<double>& lambda,
                                   std::vector<double>& work, std::vector<Vec3>& x, bool own_factor,
                                   bool forward_done) const {
  const int m = rows_;
  // L D U: L[i+1, i] in sub, U[i, i+1] in up (the same for the symmetric factorization's L D Lᵀ).
  const double* sub = own_factor ? chain_lower_.data() : linear_->bidiagonal_sub();
  const double* up = own_factor ? chain_upper_.data() : sub;
  const double* inv_d = own_factor ? chain_inv_d_.data() : linear_->inverse_pivots();
  work.resize(m);
  double* z = work.data();
  double carry = 0.0;  // L y = −c, then D: z = D⁻¹ y
  for (int i = 0; i < m && !forward_done; ++i) {
    const double yi = -c[i] - carry;
    carry = sub[i] * yi;
    z[i] = yi * inv_d[i];
  }
  // U δ = z from the last row up; row i moves its particles as soon as δ_i is known, and row i + 1, whose particles
  // only rows i .. i + 2 move, is evaluated right after.
  const Vec3* w = weighted.data();  // stride 2: rods only
  double worst = 0.0;
  const auto value = [&](int k) {
    const RodRow& rod = rod_[k];
    c[k] = DistanceConstraint::value_of(x[rod.a], x[rod.b], rod.length);
    const double r = std::abs(c[k]) * inv_scale_[k];
    if (!(r <= worst)) worst = r;  // NaN wins
  };
  double next = 0.0;
  for (int i = m - 1; i >= 0; --i) {
    const double delta = i + 1 < m ? z[i] - up[i] * next : z[i];
    next = delta;
    z[i] = delta;  // work ends as δ (a caller may undo the step)
    lambda[i] += delta;
    const RodRow& rod = rod_[i];
    x[rod.a] += delta * w[2 * i];
    x[rod.b] += delta * w[2 * i + 1];
    if (i + 1 < m) value(i + 1);
  }
  if (m > 0) value(0);
  return worst;
}

double RowSystem::chain_setup(const RowSet& model, std::span<const Vec3> q, std::span<const Vec3> x_star,
                              RowGradients& weighted, std::vector<double>& lambda, std::vector<Vec3>& x,
                              std::vector<double>& c, std::vector<double>& work, int& dependent,
                              const double* guess, double give_up_above) {
  const int m = rows_;
  const double* inv_mass = model.inv_mass.data();
  weighted.resize(m, 2);
  lambda.resize(m);
  x.resize(particle_count_);
  c.resize(m);
  work.resize(m);
  Vec3* w = weighted.data();
  double* lower = chain_lower_.data();
  double* upper = chain_upper_.data();
  double* inv_d = chain_inv_d_.data();
  double* z = work.data();
  dependent = 0;
  double worst = 0.0;
  Vec3 previous_gb(0.0);  // ∇C_{k−1}(x) at its particle k, when row k is closed
  double y = 0.0;         // row k − 1 of L y = −c
  // Row k, once rows k − 1, k and k + 1 have moved its particles: C_k(x), ∇C_k(x), row k of J and of its L D U, and
  // row k of L y = −c, D z = y.
  const auto close = [&](int k) {
    Vec3 ga, gb;
    c[k] = DistanceConstraint::evaluate_of(x[k], x[k + 1], rod_[k].length, ga, gb);
    const double r = std::abs(c[k]) * inv_scale_[k];
    if (!(r <= worst)) worst = r;  // NaN wins (as in values())
    const double j_kk = glm::dot(ga, w[2 * k]) + glm::dot(gb, w[2 * k + 1]);
    double d = j_kk, carry = 0.0;
    if (coupled_[k]) {
      const double j_low = glm::dot(ga, w[2 * k - 1]);       // J[k, k−1]: row k's gradient, row k − 1's move
      const double j_up = glm::dot(previous_gb, w[2 * k]);  // J[k−1, k]
      const double l = j_low * inv_d[k - 1];
      lower[k - 1] = l;
      upper[k - 1] = j_up * inv_d[k - 1];
      d -= l * j_up;
      carry = l * y;
    }
    inv_d[k] = inverse_pivot(d, j_kk, dependent);
    previous_gb = gb;
    y = -c[k] - carry;
    z[k] = y * inv_d[k];
  };
  // Row k's moves per unit multiplier, M⁻¹∇C_k(q).
  const auto direction = [&](int k) {
    Vec3 ga, gb;
    DistanceConstraint::evaluate_of(q[k], q[k + 1], rod_[k].length, ga, gb);
    w[2 * k] = inv_mass[k] * ga;
    w[2 * k + 1] = inv_mass[k + 1] * gb;
  };
  // Row k's root from x* (lone_roots()), or, with a guess, from x* moved by its two neighbours' guessed multipliers:
  // one Jacobi step from the guess, which on a chain (two neighbours a row) brings it closer to the root, and a rod
  // alone gets its exact root as before. Needs rows k − 1 .. k + 1's directions.
  const auto root = [&](int k) {
    Vec3 a = x_star[k], b = x_star[k + 1];
    if (guess) {
      if (k > 0) a += guess[k - 1] * w[2 * k - 1];
      if (k + 1 < m) b += guess[k + 1] * w[2 * k + 2];
    }
    const std::optional<double> l = DistanceConstraint::lone_root_of(a, b, w[2 * k], w[2 * k + 1], rod_[k].length);
    lambda[k] = l && std::isfinite(*l) ? *l : 0.0;
  };
  // Three passes over each block of rows: directions, roots, then x = x* + M⁻¹∇C(q)ᵀλ with each row closed as soon
  // as its second particle has both its moves. In one fused pass a row's direction, root and closing formed one chain
  // of square roots and divisions that the next row waited for (the processor holds about one row's instructions
  // ahead): the first two passes have no dependency from row to row, the third only the factorization's. Blocks keep
  // the passes in the first-level cache and a rejected guess's pass short. 1.4× less time on a 10 000-link chain; the
  // arithmetic is the fused pass's, in the same order (the same bits).
  constexpr int kBlock = 64;
  int directed = 0, rooted = 0;  // rows whose direction, root is known
  if (m > 0) x[0] = x_star[0];
  for (int start = 0; start < m; start += kBlock) {
    const int end = std::min(m, start + kBlock);
    for (; directed < std::min(m, end + 2); ++directed) direction(directed);  // root `end` needs row end + 1
    for (; rooted < std::min(m, end + 1); ++rooted) root(rooted);              // x[end] needs root `end`
    if (start == 0) x[0] += lambda[0] * w[0];
    for (int k = start; k < end; ++k) {
      x[k + 1] = x_star[k + 1];
      x[k + 1] += lambda[k] * w[2 * k + 1];
      if (k + 1 < m) x[k + 1] += lambda[k + 1] * w[2 * k + 2];
      close(k);
      if (guess && !(worst <= give_up_above)) {  // the guess is rejected: the rest would be discarded
        chain_directions_complete_ = directed == m;
        return worst;
      }
    }
  }
  chain_directions_complete_ = true;
  return worst;
}

bool RowSystem::chain_beyond_zigzag_limit(std::span<const double> force, std::span<const Vec3> x,
                                          std::span<const Vec3> v, double h, double limit, double turn) const {
  const int m = rows_;
  if (force.size() != static_cast<std::size_t>(m) || zigzag_factor_.size() != force.size()) return false;
  // ω_k² h² > limit² ⇔ 2 (w_a + w_b) |f_k| / L_k > limit² / h². Rows are rods k → k + 1 (stream_chain()). A plain
  // maximum, which the compiler vectorizes: this pass runs before every substep of every chain.
  const double* factor = zigzag_factor_.data();
  const double* f = force.data();
  double stiffest = 0.0;
  for (int k = 0; k < m; ++k) stiffest = std::max(stiffest, factor[k] * std::abs(f[k]));
  if (!(2.0 * stiffest * h * h > limit * limit)) return false;
  const double turn_bound = turn * turn / (h * h);  // |Δv⊥|² h² > turn² L²  (|Δv⊥|² = |Δv|² − (Δv·d)²/|d|²)
  for (int k = 0; k < m; ++k) {
    const Vec3 d = x[k + 1] - x[k];
    const Vec3 dv = v[k + 1] - v[k];
    const double dd = glm::dot(d, d), along = glm::dot(dv, d);
    if ((glm::dot(dv, dv) * dd - along * along) > turn_bound * dd * dd) return false;
  }
  return true;
}

void RowSystem::lone_roots(const RowSet& model, std::span<const Vec3> x, const RowGradients& weighted,
                           std::vector<double>& lambda, std::vector<Vec3>& out) const {
  const auto rows = model.rows;
  lambda.resize(rows.size());
  out.assign(x.begin(), x.end());
  with_stride(stride_, [&](auto stride) {
    constexpr std::size_t S = stride;
    const Vec3* w = weighted.data();
    const int* particle = particle_.data();
    const int* count = row_count_.data();
    for (std::size_t k = 0; k < rows.size(); ++k) {
      const RodRow& rod = rod_[k];
      const std::optional<double> root =
          rod.length >= 0.0 ? DistanceConstraint::lone_root_of(x[rod.a], x[rod.b], w[k * S], w[k * S + 1], rod.length)
                            : rows[k].constraint->lone_root(rows[k].row, x, ConstGradientSlots(w[k * S]));
      const double l = root && std::isfinite(*root) && twin_[k] < 0 ? *root : 0.0;  // a twin moves nothing
      lambda[k] = l;
      for (int s = 0; s < count[k]; ++s) out[particle[k * S + s]] += l * w[k * S + s];  // x's roots, not out's
    }
  });
}

void RowSystem::directions(const RowSet& model, std::span<const Vec3> x, RowGradients& grad,
                           RowGradients& weighted) const {
  const auto rows = model.rows;
  const auto inv_mass = model.inv_mass;
  grad.resize(rows.size(), stride_);
  weighted.resize(rows.size(), stride_);
  with_stride(stride_, [&](auto stride) {
    constexpr std::size_t S = stride;
    Vec3* g = grad.data();
    Vec3* w = weighted.data();
    const int* particle = particle_.data();
    const int* count = row_count_.data();
    for (std::size_t k = 0; k < rows.size(); ++k) {
      const RodRow& rod = rod_[k];
      if (rod.length >= 0.0)
        DistanceConstraint::evaluate_of(x[rod.a], x[rod.b], rod.length, g[k * S], g[k * S + 1]);
      else
        rows[k].constraint->evaluate(rows[k].row, x, GradientSlots(g[k * S]));
      for (int s = 0; s < count[k]; ++s) w[k * S + s] = inv_mass[particle[k * S + s]] * g[k * S + s];
    }
  });
}

void RowSystem::weight(const RowSet& model, const RowGradients& grad, RowGradients& weighted) const {
  const auto rows = model.rows;
  const auto inv_mass = model.inv_mass;
  weighted.resize(rows.size(), stride_);
  with_stride(stride_, [&](auto stride) {
    constexpr std::size_t S = stride;
    const Vec3* g = grad.data();
    Vec3* w = weighted.data();
    const int* particle = particle_.data();
    const int* count = row_count_.data();
    for (std::size_t k = 0; k < rows.size(); ++k)
      for (int s = 0; s < count[k]; ++s) w[k * S + s] = inv_mass[particle[k * S + s]] * g[k * S + s];
  });
}

void RowSystem::displace(const RowSet& model, const RowGradients& weighted, const std::vector<double>& lambda,
                         std::vector<Vec3>& x) const {
  const auto rows = model.rows;
  with_stride(stride_, [&](auto stride) {
    constexpr std::size_t S = stride;
    const Vec3* w = weighted.data();
    const double* l = lambda.data();
    Vec3* out = x.data();
    const int* particle = particle_.data();
    const int* count = row_count_.data();
    for (std::size_t k = 0; k < rows.size(); ++k) {
      const double lk = l[k];
      for (int s = 0; s < count[k]; ++s) out[particle[k * S + s]] += lk * w[k * S + s];
    }
  });
}

void RowSystem::velocity_rows(const RowSet& model, const RowGradients& grad, std::span<const Vec3> v,
                              std::vector<double>& jv) const {
  const auto rows = model.rows;
  jv.resize(rows.size());
  with_stride(stride_, [&](auto stride) {
    constexpr std::size_t S = stride;
    const Vec3* g = grad.data();
    const int* particle = particle_.data();
    const int* count = row_count_.data();
    for (std::size_t k = 0; k < rows.size(); ++k) {
      double sum = 0.0;
      for (int s = 0; s < count[k]; ++s) sum += glm::dot(g[k * S + s], v[particle[k * S + s]]);
      jv[k] = sum;
    }
  });
}

int RowSystem::factorize(const RowGradients& left, const RowGradients& right_weighted,
                         std::span<const DiagonalTerm> extra) {
  ensure_pattern();
  with_stride(stride_, [&](auto stride) {
    constexpr std::size_t S = stride;
    const Vec3* a = left.data();
    const Vec3* b = right_weighted.data();
    for (int k = 0; k < rows_; ++k) {
      // A fixed particle's weighted gradient is zero, so every slot can be summed.
      const std::size_t base = static_cast<std::size_t>(k) * S;
      double sum = glm::dot(a[base], b[base]);
      for (int s = 1; s < row_count_[k]; ++s) sum += glm::dot(a[base + s], b[base + s]);
      *diag_entry_[k] = sum;
    }
    for (const DiagonalTerm& term : extra) *diag_entry_[term.row] += term.value;
    for (int k : shadows_) *diag_entry_[k] = 1.0;  // an equation of its own, x_k = b_k, and solve() gives it b_k = 0
    if (linear_->symmetric()) {  // left M⁻¹ rightᵀ is symmetric: the caller passes right = left
      for (const Coupling& c : couplings_) {
        const std::size_t ks = static_cast<std::size_t>(c.k) * S + c.slot_k, ls = static_cast<std::size_t>(c.l) * S + c.slot_l;
        const double up = glm::dot(a[ks], b[ls]);
        *c.up = c.accumulate ? *c.up + up : up;
      }
    } else {
      for (const Coupling& c : couplings_) {
        const std::size_t ks = static_cast<std::size_t>(c.k) * S + c.slot_k, ls = static_cast<std::size_t>(c.l) * S + c.slot_l;
        const double up = glm::dot(a[ks], b[ls]);
        const double low = glm::dot(a[ls], b[ks]);
        if (c.accumulate) {
          *c.up += up;
          *c.low += low;
        } else {
          *c.up = up;
          *c.low = low;
        }
      }
    }
  });
  // Twins count as the dependent rows they are.
  return linear_->factorize() + static_cast<int>(shadows_.size());
}

void RowSystem::solve(std::vector<double>& b) const {
  for (int k : shadows_) b[k] = 0.0;
  linear_->solve(b.data());
}

void predict_semi_implicit(const StepContext& context, double h, std::vector<Vec3>& x_star,
                           std::vector<Vec3>& v_star, double kick) {
  const State& state = context.state;
  const Model& model = context.model;
  const auto inv_mass = context.inv_mass();
  const std::size_t n = state.position.size();
  v_star.resize(n);
  x_star.resize(n);
  for (std::size_t i = 0; i < n; ++i) {  // one pass: each particle's force (Model::external_forces) used at once
    const double w = inv_mass[i];
    const Vec3 force = model.external_force(context.settings, i, state.velocity[i]);
    v_star[i] = state.velocity[i] + (kick * h * w) * force;
    x_star[i] = state.position[i] + h * v_star[i];
  }
}

}  // namespace lagrange
