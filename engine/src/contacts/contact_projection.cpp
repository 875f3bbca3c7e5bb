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
#include <algorithm>
#include <cmath>

#include "contact_set.h"

namespace lagrange {
namespace {

// The largest residual (relative to the rows' scale) at which an unconverged projection's multipliers are still kept
// for the warm start (contact_set.h, `finished`): close enough to balance that the next substep finishes the job. A
// pile of 100 balls then converges within a few substeps and stays converged (0.6 ms a step); kept from further out
// (a 2000-ball pile at 100 sweeps: 1e-1 and worse), they blew the pile apart; never kept, a pile once unfinished
// stays cold and unfinished for good (its sweeps need ~height² from a cold start).
constexpr double kWarmResidual = 1e-3;

// One row's normal update at gap g (normal n, weight w): its multiplier λ ← max(0, λ − ω g / w), the particles moved
// by the change along ±n.
void push(const ContactRow& row, double& lambda, double g, const Vec3& n, double w, double omega,
          std::span<const double> inv_mass, std::vector<Vec3>& x) {
  const double next = std::max(0.0, lambda - omega * g / w);
  const double change = next - lambda;
  if (change == 0.0) return;
  lambda = next;
  x[row.a] += (inv_mass[row.a] * change) * n;
  if (row.b >= 0) x[row.b] -= (inv_mass[row.b] * change) * n;
}

// The tangential part of the friction update of one row; returns its change (N·s²) times w, in metres.
double friction_update(ContactRow& row, const Vec3& n, double w, std::span<const double> inv_mass,
                       std::span<const Vec3> q, std::vector<Vec3>& x) {
  Vec3 target(0.0);
  if (row.friction > 0.0 && row.lambda > 0.0) {
    const Vec3 slip = (x[row.a] - q[row.a]) - (row.b >= 0 ? x[row.b] - q[row.b] : Vec3(0.0));
    const Vec3 slip_t = slip - glm::dot(slip, n) * n;
    target = row.lambda_t - slip_t / w;
    target -= glm::dot(target, n) * n;  // stays in the tangent plane as the normal turns
    const double limit = row.friction * row.lambda, size = glm::length(target);
    if (size > limit) target *= limit / size;
  }
  const Vec3 change = target - row.lambda_t;
  if (change == Vec3(0.0)) return 0.0;
  row.lambda_t = target;
  x[row.a] += inv_mass[row.a] * change;
  if (row.b >= 0) x[row.b] -= inv_mass[row.b] * change;
  return glm::length(change) * w;
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

double ContactSet::sweep(std::span<const double> inv_mass, std::span<const Vec3> q, std::vector<Vec3>& x,
                         double omega, bool backward) {
  double worst = 0.0;
  const std::size_t m = rows.size();
  for (std::size_t t = 0; t < m; ++t) {
    ContactRow& row = rows[backward ? m - 1 - t : t];
    const double w = weight(row, inv_mass);
    if (w == 0.0) continue;
    Vec3 n;
    const double g = gap(row, x, n) - row.allowed;
    const double residual = row.lambda > 0.0 ? std::abs(g) : std::max(0.0, -g);
    if (!(residual <= worst * row.scale)) worst = residual / row.scale;  // NaN wins
    push(row, row.lambda, g, n, w, omega, inv_mass, x);
    if (row.friction > 0.0 || row.lambda_t != Vec3(0.0)) {
      const double moved = friction_update(row, n, w, inv_mass, q, x);
      if (!(moved <= worst * row.scale)) worst = moved / row.scale;
    }
  }
  return worst;
}

int ContactSet::project(std::span<const double> inv_mass, std::span<const Vec3> q, std::vector<Vec3>& x,
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
  if (warm) apply_warm(inv_mass, x);
  converged = rows.empty();
  int sweeps = 0;
  // Successive over-relaxation once plain Gauss–Seidel shows its rate ρ (a pile of balls: ρ → 1 as the pile grows,
  // and the sweeps needed grow as its height squared): ω = 2 / (1 + √(1 − ρ)), the optimum for such systems, brings
  // them down to about the height. Forward and backward sweeps alternate (load travels both ways in a pile). The
  // solution does not depend on ω: every sweep keeps λ ≥ 0 and stops only at C ≥ 0, C λ = 0 to the tolerance.
  double omega = 1.0, first = 0.0, previous = INFINITY, residual = 0.0;
  while (!converged && sweeps < max_sweeps) {
    residual = sweep(inv_mass, q, x, omega, sweeps % 2 == 1);
    ++sweeps;
    converged = residual <= tol;
    if (sweeps == 4) first = residual;
    if (sweeps == 12 && first > 0.0 && residual > 0.0 && residual < first) {
      const double rho = std::pow(residual / first, 1.0 / 8.0);
      omega = std::clamp(2.0 / (1.0 + std::sqrt(1.0 - rho)), 1.0, 1.9);
    }
    if (omega > 1.0 && sweeps > 12 && residual > 4.0 * previous) omega = 1.0;  // diverging: back to Gauss–Seidel
    previous = residual;
    if (deadline && sweeps % 8 == 0 && std::chrono::steady_clock::now() > *deadline) break;
  }
  overlap_left = carried || !converged;
  finished = converged || residual <= kWarmResidual;
  const double to_force = 1.0 / (step * step);
  for (ContactRow& row : rows) {
    row.force = row.lambda * to_force;
    row.force_t = row.lambda_t * to_force;
  }
  return sweeps;
}

int ContactSet::stabilize(std::span<const double> inv_mass, std::vector<Vec3>& x, int max_sweeps) {
  if (!overlap_left) return 0;
  overlap_left = false;
  push_.assign(rows.size(), 0.0);  // the stabilization's own multipliers (m·kg): positions only, never forces
  int sweeps = 0;
  for (bool done = false; !done && sweeps < max_sweeps; ++sweeps) {
    double worst = 0.0;
    for (std::size_t k = 0; k < rows.size(); ++k) {
      const ContactRow& row = rows[k];
      const double w = weight(row, inv_mass);
      if (w == 0.0) continue;
      Vec3 n;
      const double g = gap(row, x, n);
      const double residual = push_[k] > 0.0 ? std::abs(g) : std::max(0.0, -g);
      if (!(residual <= worst * row.scale)) worst = residual / row.scale;
      push(row, push_[k], g, n, w, 1.0, inv_mass, x);
    }
    done = worst <= tol;
    if (deadline && sweeps % 8 == 7 && std::chrono::steady_clock::now() > *deadline) break;
  }
  return sweeps;
}

bool ContactSet::friction_pass(std::span<const double> inv_mass, std::span<const Vec3> q, std::vector<Vec3>& x) {
  bool moved = false;
  for (ContactRow& row : rows) {
    if (row.friction == 0.0 && row.lambda_t == Vec3(0.0)) continue;
    const double w = weight(row, inv_mass);
    if (w == 0.0) continue;
    Vec3 n;
    gap(row, x, n);
    if (friction_update(row, n, w, inv_mass, q, x) > 0.0) moved = true;
  }
  return moved;
}

}  // namespace lagrange
