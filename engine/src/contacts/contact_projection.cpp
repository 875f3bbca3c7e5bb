// Position-level projection of the contact rows alone, by projected Gauss–Seidel (contact_set.h; docs/physics.md,
// "The unilateral projection"). It solves the same problem as the projection solver's active set — the positions
// closest to the prediction in the mass metric with every gap ≥ 0 — one row at a time:
//     δλ = −C(x) / (w_a + w_b),   λ ← max(0, λ + δλ),   x_a += w_a δλ' n,  x_b −= w_b δλ' n
// so every row ends with C ≥ 0, λ ≥ 0 and C λ = 0 to the contact tolerance (the sweeps stop only there). Friction is
// Coulomb's law at the position level (Müller et al. 2020): the contact's tangential slip since the start of the
// substep, s_t, would be undone by λ_t = −s_t / (w_a + w_b); |λ_t| ≤ μ λ bounds it, so a particle sticks while the
// slip's force stays inside the cone and otherwise slides with a friction force of exactly μ times the normal one.
// The rows start from their multipliers of the last substep (a resting pile is then already in balance and takes a
// sweep or two); the result does not depend on that start beyond the tolerance.
#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>
#include <algorithm>
#include <cmath>

#include "contact_set.h"

namespace lagrange {
namespace {

// How far from balance an unconverged projection's multipliers may be and still be kept for the warm start
// (contact_set.h, `finished`), relative to the rows' scale: close enough that the next substep finishes the job. A
// pile of 100 balls at 15 sweeps a substep then finishes all but 12 of 720 substeps; never kept, a pile once
// unfinished stays cold and unfinished for good (715 of 720: its sweeps need ~height² from a cold start).
// How far they are is not the residual itself but the error it implies: sweeps that lower the residual by a factor
// ρ < 1 a sweep are still about residual / (1 − ρ) from the root (the bound of any linearly converging iteration),
// ρ measured over the last kRateWindow sweeps. A pile whose sweeps crawl (ρ ≈ 0.996 for 600 balls) is far out of
// balance at a small residual: kept from a residual below kWarmResidual there, the multipliers carried a self-stress
// the positions never showed, and the pile that should have come to rest kicked balls about — 600 balls at 3 000
// sweeps gained 1.6 J in one step, 1000 balls at 5 000 went from 34 J to 100 J.
constexpr double kWarmResidual = 1e-3;
constexpr int kRateWindow = 12;  // even: a forward sweep is compared with a forward one

// Whether an unconverged projection whose sweeps left `residuals` (one per sweep, the last one now) is within
// kWarmResidual of its root by the estimate above.
bool near_balance(const std::vector<double>& residuals) {
  const int done = static_cast<int>(residuals.size());
  const int window = std::min(kRateWindow, (done - 1) / 2 * 2);
  if (window < 2) return false;
  const double now = residuals[done - 1], then = residuals[done - 1 - window];
  if (!(now < then)) return false;  // not converging at all (NaN: no)
  const double rate = std::pow(now / then, 1.0 / window);
  return now / (1.0 - rate) <= kWarmResidual;
}

// A projection holds the prediction's velocities to the rows, so it takes kinetic energy away (plastic contacts,
// friction) and gives none: one started from the last substep's multipliers that raised the kinetic energy by more
// than this fraction is started again cold (project()). The rows' gaps are not convex (a ball may rest on either
// side of another), and where a frictionless pile's balls had moved on, the warm pushes led the sweeps to a far
// root: converged, a ball 9 cm from where its prediction overlapped by 3 mm, and 150 unequal balls gained up to 330 J
// in one step (test `warm multipliers that would throw a frictionless pile apart are dropped`). Cold, none.
constexpr double kWarmGain = 1e-6;

// A subspace step after every kSubspaceEvery − 1 sweeps (it counts as one of the project()'s sweeps), and its
// regularization: ε of each row's diagonal (subspace_step).
constexpr int kSubspaceEvery = 6;
constexpr double kRegularization = 1e-6;
// A subspace step that does not divide the rows' worst error by 10 is the substep's last: a resting pile's each gain
// orders of magnitude, a pile still landing (its contacts come and go) gains little from them, and each is a sparse
// factorization (a 1000-ball pile landing took 6 times as long a step with one every 6 sweeps).
constexpr double kProductiveGain = 0.1;

// One row's normal update at gap g (normal n, inverse weight 1 / (w_a + w_b)): its multiplier λ ← max(0, λ − g / w),
// the particles moved by the change along ±n.
inline void push(const ContactRow& row, double& lambda, double g, const Vec3& n, double inv_w,
                 std::span<const double> inv_mass, std::vector<Vec3>& x) {
  const double next = std::max(0.0, lambda - g * inv_w);
  const double change = next - lambda;
  if (change == 0.0) return;
  lambda = next;
  x[row.a] += (inv_mass[row.a] * change) * n;
  if (row.b >= 0) x[row.b] -= (inv_mass[row.b] * change) * n;
}

// How far the contact's particles have moved against each other since q (the start of the substep).
Vec3 slip_of(const ContactRow& row, std::span<const Vec3> q, std::span<const Vec3> x) {
  return (x[row.a] - q[row.a]) - (row.b >= 0 ? x[row.b] - q[row.b] : Vec3(0.0));
}

// Coulomb's bound on a friction multiplier (position or velocity level): `target` kept in the tangent plane of n and
// no longer than `limit`, μ times the normal multiplier it answers to.
inline Vec3 within_cone(Vec3 target, const Vec3& n, double limit) {
  target -= glm::dot(target, n) * n;
  const double size2 = glm::dot(target, target);
  if (size2 > limit * limit) target *= limit / std::sqrt(size2);
  return target;
}

// The tangential part of the friction update of one row (normal n, weight w, inverse weight inv_w); returns the
// square of its change (N·s²) times w, in m² (the sweeps take a root only for a new worst).
inline double friction_update(ContactRow& row, const Vec3& n, double w, double inv_w,
                              std::span<const double> inv_mass, std::span<const Vec3> q, std::vector<Vec3>& x) {
  Vec3 target(0.0);
  const double normal = row.normal_total();
  if (row.friction > 0.0 && normal > 0.0)  // λ_t − P s / w, kept in the plane P as the normal turns: P (λ_t − s / w)
    target = within_cone(row.lambda_t - slip_of(row, q, x) * inv_w, n, row.friction * normal);
  const Vec3 change = target - row.lambda_t;
  if (change == Vec3(0.0)) return 0.0;
  row.lambda_t = target;
  x[row.a] += inv_mass[row.a] * change;
  if (row.b >= 0) x[row.b] -= inv_mass[row.b] * change;
  return glm::dot(change, change) * (w * w);
}

}  // namespace

void ContactSet::apply_warm(std::span<const double> inv_mass, std::vector<Vec3>& x) const {
  for (const ContactRow& row : rows) {
    if (row.warm == 0.0 && row.warm_t == Vec3(0.0)) continue;
    Vec3 n;
    gap(row, x, n);
    const Vec3 push = row.warm * n + row.warm_t;
    x[row.a] += inv_mass[row.a] * push;
    if (row.b >= 0) x[row.b] -= inv_mass[row.b] * push;
  }
}

int ContactSet::sweep_cap(const Settings& settings) const {
  if (settings.contact_sweeps > 0) return settings.contact_sweeps;
  constexpr double kRowUpdates = 2e5;
  const double more = rows.empty() ? 0.0 : std::min(kRowUpdates / static_cast<double>(rows.size()), 1e6);
  return std::max(settings.max_iterations, static_cast<int>(more));
}

void ContactSet::weigh(std::span<const double> inv_mass) {
  for (ContactRow& row : rows) {
    row.w = weight(row, inv_mass);
    row.inv_w = row.w > 0.0 ? 1.0 / row.w : 0.0;
  }
}

double ContactSet::sweep(std::span<const double> inv_mass, std::span<const Vec3> q, std::vector<Vec3>& x,
                         bool backward) {
  double worst = 0.0;
  const std::size_t m = rows.size();
  for (std::size_t t = 0; t < m; ++t) {
    ContactRow& row = rows[backward ? m - 1 - t : t];
    if (row.w == 0.0) continue;
    Vec3 n;
    const double g = gap(row, x, n) - row.allowed;
    const double residual = row.lambda > 0.0 ? std::abs(g) : std::max(0.0, -g);
    if (!(residual <= worst * row.scale)) worst = residual / row.scale;  // NaN wins
    push(row, row.lambda, g, n, row.inv_w, inv_mass, x);
    if (row.friction > 0.0 || row.lambda_t != Vec3(0.0)) {
      const double moved2 = friction_update(row, n, row.w, row.inv_w, inv_mass, q, x);
      const double bound = worst * row.scale;
      if (!(moved2 <= bound * bound)) worst = std::sqrt(moved2) / row.scale;
    }
  }
  return worst;
}

// Subspace minimization (Silcowitz, Niebe & Erleben 2010, "Projected Gauss–Seidel subspace minimization"): Newton
// on the rows that push, as equalities — each normal row at its gap, C − allowed = 0, and each contact that sticks
// (|λ_t| < μ λ) along its tangents at no slip since q — in one linear solve (J W Jᵀ + ε D) δλ = −r. One solve fixes
// what Gauss–Seidel needs a pile's height squared of sweeps for; the sweeps that follow drop the rows that would pull,
// take in those left overlapping and put back on the friction cone what left it. ε = 1e-6 of each row's diagonal
// keeps the matrix positive definite where a pile's contacts are redundant (more rows than a ball has directions):
// a jammed row of balls wall to wall has a multiplier only up to such a combination.
double ContactSet::subspace_step(std::span<const double> inv_mass, std::span<const Vec3> q, std::vector<Vec3>& x) {
  sub_.clear();
  double worst = 0.0;
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const ContactRow& row = rows[k];
    const double w = weight(row, inv_mass);
    if (!(row.lambda > 0.0) || w == 0.0) continue;
    SubspaceRow normal{static_cast<int>(k), Vec3(0.0), 0.0, true};
    normal.residual = -(gap(row, x, normal.direction) - row.allowed);
    worst = std::max(worst, std::abs(normal.residual) / row.scale);
    sub_.push_back(normal);
    if (row.friction > 0.0 && glm::length(row.lambda_t) < row.friction * row.normal_total() * (1.0 - 1e-9)) {
      const Vec3 n = normal.direction;
      const Vec3 slip = slip_of(row, q, x);
      Vec3 basis[2];
      tangent_basis(n, dimension, basis);
      for (int d = 0; d < tangents_per_row(); ++d) {
        const Vec3 t = basis[d];
        SubspaceRow tangent{static_cast<int>(k), t, -glm::dot(slip, t), false};
        worst = std::max(worst, std::abs(tangent.residual) / row.scale);
        sub_.push_back(tangent);
      }
    }
  }
  const int m = static_cast<int>(sub_.size());
  if (m == 0 || !(worst > tol)) return 1.0;
  const std::size_t n = x.size();
  // The subspace rows at each particle (CSR), with the sign of the particle's gradient.
  slot_start_.assign(n + 1, 0);
  for (const SubspaceRow& r : sub_) {
    ++slot_start_[rows[r.row].a + 1];
    if (rows[r.row].b >= 0) ++slot_start_[rows[r.row].b + 1];
  }
  for (std::size_t i = 0; i < n; ++i) slot_start_[i + 1] += slot_start_[i];
  slot_row_.resize(slot_start_[n]);
  {
    std::vector<int> fill(slot_start_.begin(), slot_start_.end() - 1);
    for (int t = 0; t < m; ++t) {
      const ContactRow& row = rows[sub_[t].row];
      slot_row_[fill[row.a]++] = t + 1;  // +: particle a; −: particle b
      if (row.b >= 0) slot_row_[fill[row.b]++] = -(t + 1);
    }
  }
  triplets_.clear();
  for (std::size_t i = 0; i < n; ++i) {
    const double w = inv_mass[i];
    if (w == 0.0) continue;
    for (int u = slot_start_[i]; u < slot_start_[i + 1]; ++u) {
      const int tu = std::abs(slot_row_[u]) - 1;
      const Vec3 gu = slot_row_[u] > 0 ? sub_[tu].direction : -sub_[tu].direction;
      for (int v = slot_start_[i]; v < slot_start_[i + 1]; ++v) {
        const int tv = std::abs(slot_row_[v]) - 1;
        if (tv > tu) continue;  // the lower triangle
        const Vec3 gv = slot_row_[v] > 0 ? sub_[tv].direction : -sub_[tv].direction;
        triplets_.emplace_back(tu, tv, w * glm::dot(gu, gv) * (tu == tv ? 1.0 + kRegularization : 1.0));
      }
    }
  }
  Eigen::SparseMatrix<double> matrix(m, m);
  matrix.setFromTriplets(triplets_.begin(), triplets_.end());
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>, Eigen::Lower> ldlt(matrix);
  if (ldlt.info() != Eigen::Success) return 1.0;
  Eigen::VectorXd rhs(m);
  for (int t = 0; t < m; ++t) rhs[t] = sub_[t].residual;
  const Eigen::VectorXd delta = ldlt.solve(rhs);
  for (int t = 0; t < m; ++t)
    if (!std::isfinite(delta[t])) return 1.0;
  // The complementarity error of every row: a normal row's gap where it pushes, its overlap where it does not; a
  // subspace tangent's slip while its contact pushes; a friction multiplier outside its cone, by how far (as a move,
  // m). Over every row, not the subspace's alone: a step that pushed a ball into one that was not pushing, or
  // friction far out of its cone, lowered the subspace's error and was kept, and the sweeps after it settled on a
  // far complementarity point (a pile of 4 balls, e = 0.2, μ = 0.5: one thrown 0.12 m in a substep, 3.6 J to 41 J).
  const auto merit = [&] {
    double error = 0.0;
    for (const ContactRow& row : rows) {
      const double w = weight(row, inv_mass);
      if (w == 0.0) continue;
      Vec3 normal;
      const double g = gap(row, x, normal) - row.allowed;
      double e = row.lambda > 0.0 ? std::abs(g) : std::max(0.0, -g);
      e = std::max(e, (glm::length(row.lambda_t) - row.friction * row.normal_total()) * w);
      error = std::max(error, e / row.scale);
    }
    for (const SubspaceRow& r : sub_) {
      const ContactRow& row = rows[r.row];
      if (r.normal || !(row.lambda > 0.0)) continue;
      error = std::max(error, std::abs(glm::dot(slip_of(row, q, x), r.direction)) / row.scale);
    }
    return error;
  };
  const double before = merit();
  // Moves the multipliers by `scale` δλ — normal ones kept ≥ 0 — and the particles by what actually changed.
  applied_.resize(m);
  const auto apply = [&](double scale) {
    for (int t = 0; t < m; ++t) {
      ContactRow& row = rows[sub_[t].row];
      double change = scale * delta[t];
      if (sub_[t].normal) {
        change = std::max(0.0, row.lambda + change) - row.lambda;
        row.lambda += change;
      } else {
        row.lambda_t += change * sub_[t].direction;
      }
      applied_[t] = change;
      x[row.a] += (inv_mass[row.a] * change) * sub_[t].direction;
      if (row.b >= 0) x[row.b] -= (inv_mass[row.b] * change) * sub_[t].direction;
    }
  };
  const auto undo = [&] {
    for (int t = 0; t < m; ++t) {
      ContactRow& row = rows[sub_[t].row];
      if (sub_[t].normal)
        row.lambda -= applied_[t];
      else
        row.lambda_t -= applied_[t] * sub_[t].direction;
    }
    x = saved_x_;
  };
  saved_x_ = x;
  // The whole step, multipliers that would pull held at zero (projected, as Gauss–Seidel does); kept if it brought
  // the error down. Else the ratio test of an active-set method: only as far as the first normal multiplier it brings
  // to zero (where the pile's contacts are redundant and their gaps inconsistent, δλ is large along the redundancy,
  // and projecting it moves particles far).
  apply(1.0);
  if (const double after = merit(); after < before) return after / before;
  undo();
  double alpha = 1.0;
  for (int t = 0; t < m; ++t) {
    const double lambda = rows[sub_[t].row].lambda;
    if (sub_[t].normal && delta[t] < 0.0 && lambda + alpha * delta[t] < 0.0) alpha = lambda / -delta[t];
  }
  if (!(alpha > 0.0)) return 1.0;
  apply(alpha);
  if (const double after = merit(); after < before) return after / before;
  undo();
  return 1.0;
}

int ContactSet::project(std::span<const double> inv_mass, std::span<const Vec3> q, std::vector<Vec3>& x,
                        double step, int max_sweeps, bool& converged, bool warm, std::span<const Vec3> entry_velocity) {
  const bool guard = warm && !entry_velocity.empty() &&
                     std::any_of(rows.begin(), rows.end(), [](const ContactRow& r) { return r.warm != 0.0; });
  if (guard) entry_x_ = x;
  int sweeps = project_once(inv_mass, q, x, step, max_sweeps, converged, warm);
  if (!guard) return sweeps;
  // The kinetic energy (times 2) the particles would have with x left as it was, and with the projection's x.
  double before = 0.0, after = 0.0;
  const double inv_h = 1.0 / step;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (inv_mass[i] == 0.0) continue;
    const Vec3 v = entry_velocity[i] + (x[i] - entry_x_[i]) * inv_h;
    before += glm::dot(entry_velocity[i], entry_velocity[i]) / inv_mass[i];
    after += glm::dot(v, v) / inv_mass[i];
  }
  if (!(after > before * (1.0 + kWarmGain))) return sweeps;
  x = entry_x_;
  return sweeps + project_once(inv_mass, q, x, step, max_sweeps, converged, false);
}

int ContactSet::project_once(std::span<const double> inv_mass, std::span<const Vec3> q, std::vector<Vec3>& x,
                             double step, int max_sweeps, bool& converged, bool warm) {
  bool carried = false;
  for (ContactRow& row : rows) {
    row.lambda = warm ? row.warm : 0.0;
    row.lambda_t = warm ? row.warm_t : Vec3(0.0);
    Vec3 n;
    const double g0 = gap(row, q, n);
    row.allowed = g0 < -tol * row.scale ? g0 : 0.0;  // an overlap carried in: held, not pushed out as velocity
    carried = carried || row.allowed < 0.0;
  }
  weigh(inv_mass);
  if (warm) apply_warm(inv_mass, x);
  converged = rows.empty();
  int sweeps = 0;
  // Gauss–Seidel sweeps, forward and backward in turn (load travels both ways in a pile), and every kSubspaceEvery-th
  // step a subspace step (subspace_step): a pile of balls, whose sweeps alone need its height squared (a 20-ball-high
  // pile of 400 did not finish within 100 sweeps and was left overlapping by 0.2 % of a radius), finishes in a few
  // of each. The solution does not depend on the mix: every step keeps λ ≥ 0, and the loop stops only at C ≥ 0,
  // C λ = 0 to the tolerance.
  double residual = 0.0;
  int next_subspace = kSubspaceEvery;
  bool idle = false;
  residuals_.clear();
  while (!converged && sweeps < max_sweeps) {
    residual = sweep(inv_mass, q, x, sweeps % 2 == 1);
    ++sweeps;
    converged = residual <= tol;
    residuals_.push_back(residual);
    // Only with room for the sweeps after it: they drop what it left pulling and put friction back in its cone; a
    // step they cannot follow left a pile stopped at 8 sweeps gaining energy. After an idle one, none (kProductiveGain).
    if (!converged && sweeps == next_subspace && sweeps + kSubspaceEvery <= max_sweeps && !idle) {
      idle = subspace_step(inv_mass, q, x) > kProductiveGain;
      ++sweeps;
      next_subspace = sweeps + kSubspaceEvery - 1;
    }
    if (deadline && sweeps % 8 < 2 && std::chrono::steady_clock::now() > *deadline) break;
  }
  overlap_left = carried || !converged;
  finished = converged || near_balance(residuals_);
  const double to_force = 1.0 / (step * step);
  for (ContactRow& row : rows) {
    row.force = row.normal_total() * to_force;
    row.force_t = row.lambda_t * to_force;
  }
  return sweeps;
}

int ContactSet::stabilize(std::span<const double> inv_mass, std::vector<Vec3>& x, int max_sweeps) {
  if (!overlap_left) return 0;
  overlap_left = false;
  push_.assign(rows.size(), 0.0);  // the stabilization's own multipliers (m·kg): positions only, never forces
  weigh(inv_mass);
  int sweeps = 0;
  for (bool done = false; !done && sweeps < max_sweeps; ++sweeps) {
    double worst = 0.0;
    for (std::size_t k = 0; k < rows.size(); ++k) {
      const ContactRow& row = rows[k];
      if (row.w == 0.0) continue;
      Vec3 n;
      const double g = gap(row, x, n);
      const double residual = push_[k] > 0.0 ? std::abs(g) : std::max(0.0, -g);
      if (!(residual <= worst * row.scale)) worst = residual / row.scale;
      push(row, push_[k], g, n, row.inv_w, inv_mass, x);
    }
    done = worst <= tol;
    if (deadline && sweeps % 8 == 7 && std::chrono::steady_clock::now() > *deadline) break;
  }
  return sweeps;
}

int ContactSet::second_half(std::span<const double> inv_mass, std::span<const Vec3> x, std::vector<Vec3>& v, double h,
                            int max_sweeps, std::vector<double>& kappa, std::vector<Vec3>& kappa_t,
                            std::vector<double>& work) const {
  int sweeps = 0;
  for (bool done = false; !done && sweeps < max_sweeps; ++sweeps) {
    double worst = 0.0;  // the largest change of a relative velocity times h, relative to the row's scale
    for (std::size_t k = 0; k < rows.size(); ++k) {
      const ContactRow& row = rows[k];
      const double w = weight(row, inv_mass);
      if (!(row.lambda > 0.0) || w == 0.0) continue;
      Vec3 n;
      gap(row, x, n);
      const auto relative = [&] { return v[row.a] - (row.b >= 0 ? v[row.b] : Vec3(0.0)); };
      const auto kick = [&](const Vec3& p) {  // an impulse p / h on a, −p / h on b, and its work
        const Vec3 before = relative();
        v[row.a] += (inv_mass[row.a] / h) * p;
        if (row.b >= 0) v[row.b] -= (inv_mass[row.b] / h) * p;
        work[k] += glm::dot(p / h, 0.5 * (before + relative()));
      };
      const double next = std::max(0.0, kappa[k] - glm::dot(relative(), n) * h / w);
      const double change = next - kappa[k];
      if (change != 0.0) {
        kappa[k] = next;
        kick(change * n);
      }
      Vec3 change_t(0.0);
      if (row.friction > 0.0 || kappa_t[k] != Vec3(0.0)) {
        const Vec3 target = within_cone(kappa_t[k] - relative() * (h / w), n, row.friction * kappa[k]);
        change_t = target - kappa_t[k];
        if (change_t != Vec3(0.0)) {
          kappa_t[k] = target;
          kick(change_t);
        }
      }
      const double moved = w * std::max(std::abs(change), glm::length(change_t)) / row.scale;
      if (!(moved <= worst)) worst = moved;
    }
    done = worst <= tol;
  }
  return sweeps;
}

double ContactSet::friction_row(std::size_t k, const Vec3& n, std::span<const double> inv_mass,
                                std::span<const Vec3> q, std::vector<Vec3>& x) {
  ContactRow& row = rows[k];
  if (row.lambda_t == Vec3(0.0) && (row.friction == 0.0 || !(row.normal_total() > 0.0))) return 0.0;
  if (row.w == 0.0) return 0.0;
  return friction_update(row, n, row.w, row.inv_w, inv_mass, q, x) / (row.scale * row.scale);
}

double ContactSet::friction_sweep(std::span<const double> inv_mass, std::span<const Vec3> q, std::vector<Vec3>& x) {
  double worst = 0.0;
  for (ContactRow& row : rows) {
    if (row.friction == 0.0 && row.lambda_t == Vec3(0.0)) continue;
    const double w = weight(row, inv_mass);
    if (w == 0.0) continue;
    Vec3 n;
    gap(row, x, n);
    const double moved = std::sqrt(friction_update(row, n, w, 1.0 / w, inv_mass, q, x)) / row.scale;
    if (!(moved <= worst)) worst = moved;
  }
  return worst;
}

}  // namespace lagrange
