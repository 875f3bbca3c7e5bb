// The defaults of the Constraint interface. Every kind (distance, pin, line, plane) lives in constraint_kinds.cpp.
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "lagrange/constraint.h"
#include "lagrange/constraint_kinds.h"

namespace lagrange {

std::optional<double> Constraint::lone_root(int row, std::span<const Vec3> x, ConstGradientSlots e) const {
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

// Asked of a kind without the role: the caller did not check has_role() first.
double Constraint::length() const {
  throw std::logic_error(std::string("a ") + kind().noun + " has no length: only a rod (KindRole::Rod) has one");
}

Vec3 Constraint::point() const {
  throw std::logic_error(std::string("a ") + kind().noun + " has no point to move: only a pin (KindRole::Pin) has");
}

void Constraint::set_point(Vec3) {
  throw std::logic_error(std::string("a ") + kind().noun + " has no point to move: only a pin (KindRole::Pin) has");
}

}  // namespace lagrange
