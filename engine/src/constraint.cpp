// Distance and pin constraints.
//
// Distance (seed 000 eq. `mu`, seed 004): C = |r| − L with r = x_a − x_b, n = r / |r|.
//   ∂C/∂x_a = n, ∂C/∂x_b = −n.
//   Ċ = n·u with u = v_a − v_b;  C̈ = n·(a_a − a_b) + (|u|² − (n·u)²) / |r|, so J̇q̇ = (|u|² − (n·u)²) / |r|.
//   Alone along a fixed direction: |r + λ e|² = L² with e = e_a − e_b is a quadratic
//   (e·e) λ² + 2 (r·e) λ + (r·r − L²) = 0; the root of smaller magnitude keeps the rod's orientation, the other
//   one mirrors it (seed 000 "UncoupledMu", seed 003's discarded second solution).
// Pin (seeds 002/003): C_k = x_p[k] − point[k], gradient the k-th unit vector, J̇q̇ = 0.
#include <cmath>
#include <vector>

#include "lagrange/constraint.h"

namespace lagrange {

std::optional<double> Constraint::lone_root(int row, std::span<const Vec3> x, const RowGradient& e) const {
  // Scalar Newton on f(λ) = C_row(x + λ e), for constraint types without a closed form.
  const auto ids = particles();
  std::vector<Vec3> moved(x.begin(), x.end());
  RowGradient grad;
  double lambda = 0.0;
  for (int it = 0; it < 50; ++it) {
    for (std::size_t k = 0; k < ids.size(); ++k) moved[ids[k]] = x[ids[k]] + lambda * e[k];
    const double c = evaluate(row, moved, grad);
    double slope = 0.0;
    for (std::size_t k = 0; k < ids.size(); ++k) slope += glm::dot(grad[k], e[k]);
    if (std::abs(c) <= 1e-15 * length_scale(row)) return lambda;
    if (slope == 0.0 || !std::isfinite(c)) return std::nullopt;
    lambda -= c / slope;
  }
  return std::nullopt;
}

double Constraint::value(int row, std::span<const Vec3> x) const {
  RowGradient grad;
  return evaluate(row, x, grad);
}

DistanceConstraint::DistanceConstraint(int a, int b, double length) : ids_{a, b}, length_(length) {}

double DistanceConstraint::value(int, std::span<const Vec3> x) const {
  return glm::length(x[ids_[0]] - x[ids_[1]]) - length_;
}

double DistanceConstraint::evaluate(int, std::span<const Vec3> x, RowGradient& grad) const {
  const Vec3 r = x[ids_[0]] - x[ids_[1]];
  const double len = glm::length(r);
  // Coincident particles have no direction; any unit vector keeps the gradient finite.
  const Vec3 n = len > 0.0 ? r * (1.0 / len) : Vec3(1.0, 0.0, 0.0);
  grad[0] = n;
  grad[1] = -n;
  return len - length_;
}

double DistanceConstraint::jdot_qdot(int, std::span<const Vec3> x, std::span<const Vec3> v) const {
  const Vec3 r = x[ids_[0]] - x[ids_[1]];
  const double len = glm::length(r);
  if (len == 0.0) return 0.0;
  const Vec3 u = v[ids_[0]] - v[ids_[1]];
  const double un = glm::dot(u, r) / len;
  return (glm::dot(u, u) - un * un) / len;
}

std::optional<double> DistanceConstraint::lone_root(int, std::span<const Vec3> x, const RowGradient& e) const {
  const Vec3 r = x[ids_[0]] - x[ids_[1]];
  const Vec3 d = e[0] - e[1];
  const double a = glm::dot(d, d);
  const double b = glm::dot(r, d);  // half the linear coefficient
  const double c = glm::dot(r, r) - length_ * length_;
  if (a == 0.0) {
    if (c == 0.0) return 0.0;
    return std::nullopt;  // neither end can move
  }
  const double disc = b * b - a * c;
  if (disc < 0.0) return std::nullopt;  // the line r + λ d misses the sphere |r| = L: no real root
  // Smaller-magnitude root, written so that nothing cancels: λ = −c / (b + sign(b) √disc).
  const double q = b + std::copysign(std::sqrt(disc), b);
  if (q == 0.0) return 0.0;  // b = 0 and disc = 0 imply c = 0
  return -c / q;
}

PinConstraint::PinConstraint(int particle, Vec3 point, int dimension)
    : particle_(particle), point_(point), dimension_(dimension) {}

double PinConstraint::value(int row, std::span<const Vec3> x) const { return x[particle_][row] - point_[row]; }

double PinConstraint::evaluate(int row, std::span<const Vec3> x, RowGradient& grad) const {
  grad[0] = Vec3(0.0);
  grad[0][row] = 1.0;
  return x[particle_][row] - point_[row];
}

std::optional<double> PinConstraint::lone_root(int row, std::span<const Vec3> x, const RowGradient& e) const {
  const double c = x[particle_][row] - point_[row];
  const double slope = e[0][row];
  if (slope == 0.0) {
    if (c == 0.0) return 0.0;
    return std::nullopt;
  }
  return -c / slope;
}

}  // namespace lagrange
