// Constraint math against finite differences and against the closed-form quadratic roots.
#include <doctest/doctest.h>

#include <random>
#include <vector>

#include "lagrange/constraint.h"
#include "lagrange/constraint_kinds.h"

using namespace lagrange;

namespace {

std::mt19937 rng(2024);
Vec3 random_vec(double scale = 1.0) {
  std::uniform_real_distribution<double> d(-scale, scale);
  return {d(rng), d(rng), d(rng)};
}

// Central finite difference of C_row with respect to particle p's coordinate k.
double fd_gradient(const Constraint& c, int row, std::vector<Vec3> x, int p, int k) {
  const double h = 1e-6;
  RowGradient grad;
  x[p][k] += h;
  const double plus = c.evaluate(row, x, grad);
  x[p][k] -= 2 * h;
  const double minus = c.evaluate(row, x, grad);
  return (plus - minus) / (2 * h);
}

void check_gradient_and_jdot(const Constraint& c, std::vector<Vec3> x, const std::vector<Vec3>& v) {
  const auto ids = c.particles();
  for (int row = 0; row < c.rows(); ++row) {
    RowGradient grad;
    c.evaluate(row, x, grad);
    for (std::size_t s = 0; s < ids.size(); ++s)
      for (int k = 0; k < 3; ++k)
        CHECK(grad[s][k] == doctest::Approx(fd_gradient(c, row, x, ids[s], k)).epsilon(1e-7));
    // J̇q̇ = d/dt (∇C(x(t))) · v at fixed v: difference ∇C(x ± εv)·v.
    const double eps = 1e-6;
    auto jv_at = [&](double t) {
      std::vector<Vec3> xt = x;
      for (std::size_t i = 0; i < xt.size(); ++i) xt[i] += t * v[i];
      RowGradient g;
      c.evaluate(row, xt, g);
      double sum = 0.0;
      for (std::size_t s = 0; s < ids.size(); ++s) sum += glm::dot(g[s], v[ids[s]]);
      return sum;
    };
    const double fd = (jv_at(eps) - jv_at(-eps)) / (2 * eps);
    CHECK(c.jdot_qdot(row, x, v) == doctest::Approx(fd).epsilon(1e-6).scale(1.0));
  }
}

}  // namespace

TEST_CASE("distance constraint: value, gradient and Jdot qdot match finite differences") {
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<Vec3> x{random_vec(2.0), random_vec(2.0), random_vec(2.0)};
    std::vector<Vec3> v{random_vec(3.0), random_vec(3.0), random_vec(3.0)};
    DistanceConstraint rod(2, 0, 1.3);
    RowGradient grad;
    CHECK(rod.evaluate(0, x, grad) == doctest::Approx(glm::length(x[2] - x[0]) - 1.3));
    check_gradient_and_jdot(rod, x, v);
  }
}

TEST_CASE("pin constraint: one row per coordinate, gradients match finite differences") {
  std::vector<Vec3> x{random_vec(), random_vec()};
  std::vector<Vec3> v{random_vec(), random_vec()};
  PinConstraint pin3(1, {0.5, -0.25, 2.0}, 3);
  PinConstraint pin2(1, {0.5, -0.25, 0.0}, 2);
  CHECK(pin3.rows() == 3);
  CHECK(pin2.rows() == 2);
  RowGradient grad;
  CHECK(pin3.evaluate(2, x, grad) == doctest::Approx(x[1].z - 2.0));
  check_gradient_and_jdot(pin3, x, v);
  check_gradient_and_jdot(pin2, x, v);
}

TEST_CASE("lone_root of a rod is the smaller-magnitude root of the quadratic and never the mirrored one") {
  for (int trial = 0; trial < 50; ++trial) {
    std::vector<Vec3> x{random_vec(), random_vec()};
    const double length = 0.5 + glm::length(x[0] - x[1]) * (0.9 + 0.2 * (trial % 3) / 2.0);
    DistanceConstraint rod(0, 1, length);
    const RowGradient e{{random_vec(), random_vec()}};
    const auto root = rod.lone_root(0, x, e);
    // Independent: the textbook quadratic formula for |r + λd|² = L².
    const Vec3 r = x[0] - x[1], d = e[0] - e[1];
    const double a = glm::dot(d, d), b = 2 * glm::dot(r, d), c = glm::dot(r, r) - length * length;
    const double disc = b * b - 4 * a * c;
    if (disc < 0) {
      CHECK_FALSE(root.has_value());
      continue;
    }
    REQUIRE(root.has_value());
    const double r1 = (-b + std::sqrt(disc)) / (2 * a), r2 = (-b - std::sqrt(disc)) / (2 * a);
    const double smaller = std::abs(r1) < std::abs(r2) ? r1 : r2;
    CHECK(*root == doctest::Approx(smaller).epsilon(1e-9));
    std::vector<Vec3> moved{x[0] + *root * e[0], x[1] + *root * e[1]};
    RowGradient grad;
    CHECK(std::abs(rod.evaluate(0, moved, grad)) < 1e-12);
  }
}

TEST_CASE("lone_root reports no root when the line misses the sphere") {
  std::vector<Vec3> x{{3.0, 0.0, 0.0}, {0.0, 0.0, 0.0}};
  DistanceConstraint rod(0, 1, 1.0);
  const RowGradient e{{{0.0, 1.0, 0.0}, {0.0, 0.0, 0.0}}};  // moving A sideways never brings it within 1 of B
  CHECK_FALSE(rod.lone_root(0, x, e).has_value());
}

TEST_CASE("the default lone_root (scalar Newton) agrees with the closed form") {
  // Call the base-class implementation on a rod: same root as the override.
  std::vector<Vec3> x{{1.1, 0.2, 0.0}, {0.0, 0.0, 0.0}};
  DistanceConstraint rod(0, 1, 1.0);
  const RowGradient e{{{1.0, 0.1, 0.0}, {-0.5, 0.0, 0.0}}};
  const auto closed = rod.lone_root(0, x, e);
  const auto newton = rod.Constraint::lone_root(0, x, e);
  REQUIRE(closed.has_value());
  REQUIRE(newton.has_value());
  CHECK(*newton == doctest::Approx(*closed).epsilon(1e-12));
}

TEST_CASE("value() is the value of evaluate() for every constraint type, with no gradient buffer") {
  // The sandbox's hover and length-error colouring ask for C alone; value() must agree with evaluate() exactly.
  for (int trial = 0; trial < 10; ++trial) {
    std::vector<Vec3> x{random_vec(2.0), random_vec(2.0)};
    DistanceConstraint rod(0, 1, 0.7);
    PinConstraint pin(1, random_vec(), 3);
    RowGradient grad;
    CHECK(rod.value(0, x) == rod.evaluate(0, x, grad));
    for (int row = 0; row < pin.rows(); ++row) CHECK(pin.value(row, x) == pin.evaluate(row, x, grad));
  }
}

// Every kind of the table, built from a definition with random values for each of its fields, in 2D and 3D: the
// gradient and J̇q̇ against finite differences, the lone root against the row's own value, and the definition it
// reports builds the same constraint again. A kind added to the table is tested here without a line of test code.
TEST_CASE("every constraint kind: gradient and Jdot qdot match finite differences, lone roots solve the row") {
  for (const ConstraintKind& kind : constraint_kinds()) {
    for (int dimension : {2, 3}) {
      CAPTURE(kind.name);
      CAPTURE(dimension);
      for (int trial = 0; trial < 10; ++trial) {
        const auto flat = [&](Vec3 v) { return dimension == 2 ? Vec3(v.x, v.y, 0.0) : v; };
        std::vector<ParticleDef> particles(static_cast<std::size_t>(kind.arity) + 1);
        for (ParticleDef& p : particles) p.position = flat(random_vec(2.0));
        ConstraintDef def;
        def.type = kind.name;
        for (int k = 0; k < kind.arity; ++k) def.particles.push_back(k + 1);
        for (const KindField& field : kind.fields) {
          if (field.type == FieldType::Number) def.set(field.key, 0.5 + std::abs(random_vec().x));
          else def.set(field.key, flat(random_vec(1.5)));
        }
        REQUIRE_FALSE(constraint_problem(def, particles, dimension).has_value());
        const auto c = kind.create(def, particles, dimension);
        CHECK(c->rows() == kind.rows(dimension));
        CHECK(&c->kind() == &kind);
        CHECK(c->drawing().shape == kind.shape);
        std::vector<Vec3> x, v;
        for (std::size_t i = 0; i < particles.size(); ++i) {
          x.push_back(flat(random_vec(2.0)));
          v.push_back(flat(random_vec(3.0)));
        }
        check_gradient_and_jdot(*c, x, v);
        // The definition it reports rebuilds it: the same values at the same positions, bit for bit.
        const auto again = kind.create(c->definition(), particles, dimension);
        RowGradient grad, grad_again;
        for (int row = 0; row < c->rows(); ++row) {
          CHECK(again->evaluate(row, x, grad_again) == c->evaluate(row, x, grad));
          // The lone root along the row's own gradient zeroes the row (up to rounding of the solve).
          RowGradient e = grad;
          const auto root = c->lone_root(row, x, e);
          if (!root) continue;
          std::vector<Vec3> moved = x;
          const auto ids = c->particles();
          for (std::size_t k = 0; k < ids.size(); ++k) moved[ids[k]] += *root * e[k];
          CHECK(std::abs(c->value(row, moved)) < 1e-12 * (1.0 + std::abs(c->value(row, x))));
        }
      }
    }
  }
}
