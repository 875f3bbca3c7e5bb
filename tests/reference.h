// Reference values the tests compare the program against, computed here independently of the engine.
#pragma once

#include <cmath>
#include <numbers>

namespace lagrange::test {

// The complete elliptic integral of the first kind K(k) = ∫₀^{π/2} dφ / √(1 − k² sin²φ), by Simpson's rule on
// 20 000 intervals (|k| < 1): a different algorithm from the engine's arithmetic-geometric mean.
inline double elliptic_k_by_quadrature(double k) {
  const int n = 20000;
  const double h = 0.5 * std::numbers::pi / n;
  double sum = 0.0;
  for (int i = 0; i <= n; ++i) {
    const double s = std::sin(i * h);
    sum += (i == 0 || i == n ? 1.0 : i % 2 ? 4.0 : 2.0) / std::sqrt(1.0 - k * k * s * s);
  }
  return sum * h / 3.0;
}

// The exact period of a simple pendulum of length L under gravity g released from rest at angle θ₀ (radians) from
// the downward vertical: 4 √(L/g) K(sin(θ₀/2)).
inline double pendulum_period_by_quadrature(double length, double g, double theta0) {
  return 4.0 * std::sqrt(length / g) * elliptic_k_by_quadrature(std::sin(0.5 * theta0));
}

}  // namespace lagrange::test
