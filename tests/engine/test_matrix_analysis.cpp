// The constraint matrix taken apart (engine/src/matrix_analysis.cpp) against seed 002's multipliers, a double
// pendulum's matrix derived by hand, a pendulum's tension in closed form, and a hub of rods with a dependent row.
#include <doctest/doctest.h>

#include <cmath>

#include "lagrange/matrix_analysis.h"
#include "test_util.h"

using namespace lagrange;

namespace {
double entry(const MatrixAnalysis& m, int k, int l) { return m.a[static_cast<std::size_t>(k) * m.rows + l]; }
}  // namespace

TEST_CASE("matrix: seed 002's pendulum gives the seed's multipliers (pin rows and the rod)") {
  const double g = 10.0;
  const World world = lagrange::test::seed_pendulum("acceleration", 1e-3, g);
  const MatrixAnalysis m = analyse_matrix(world);
  REQUIRE(m.rows == 3);
  CHECK(m.rank == 3);
  CHECK(m.dependent.empty());
  // The seed's λ = (−g/2, 3g/2, −g/4) for C_rod = |r|² − L²; here C_rod = |r| − L, so λ_rod = 2|r| (−g/4).
  CHECK(m.lambda[0] == doctest::Approx(-g / 2));
  CHECK(m.lambda[1] == doctest::Approx(3 * g / 2));
  CHECK(m.lambda[2] == doctest::Approx(2 * std::sqrt(2.0) * (-g / 4)));
}

TEST_CASE("matrix: a double pendulum's J M^-1 J^T is the 2x2 derived by hand") {
  // Pivot fixed at the origin, bob 1 (mass m1) at x1, bob 2 (mass m2) at x2; rods C_k = |r_k| − L_k.
  const double m1 = 2.0, m2 = 0.5;
  const Vec3 x1{0.6, -0.8, 0.0}, x2{1.6, -0.8, 0.0};
  World world(2);
  world.add_particle({Vec3(0.0), Vec3(0.0), 1.0, true});
  world.add_particle({x1, Vec3(0.0), m1, false});
  world.add_particle({x2, Vec3(0.0), m2, false});
  world.add_distance(0, 1, -1.0);
  world.add_distance(1, 2, -1.0);
  const MatrixAnalysis m = analyse_matrix(world);
  REQUIRE(m.rows == 2);
  // n1 = x1/|x1| (gradient of rod 1 at bob 1), n2 = (x2 − x1)/|x2 − x1| (rod 2's gradient at bob 2, −n2 at bob 1).
  const Vec3 n1 = x1 / glm::length(x1), n2 = (x2 - x1) / glm::length(x2 - x1);
  CHECK(entry(m, 0, 0) == doctest::Approx(1.0 / m1));
  CHECK(entry(m, 1, 1) == doctest::Approx(1.0 / m1 + 1.0 / m2));
  CHECK(entry(m, 0, 1) == doctest::Approx(-glm::dot(n1, n2) / m1));
  CHECK(entry(m, 1, 0) == doctest::Approx(entry(m, 0, 1)));
  // At rest, b = −J M⁻¹ F with F = m g: rod 1 feels bob 1's gravity, rod 2 none (both bobs fall alike).
  const double gy = world.settings().gravity.y;
  CHECK(m.rhs[0] == doctest::Approx(-n1.y * gy));
  CHECK(m.rhs[1] == doctest::Approx(0.0).scale(1.0));
  // The condition number of a symmetric 2x2 from its trace and determinant.
  const double tr = entry(m, 0, 0) + entry(m, 1, 1);
  const double det = entry(m, 0, 0) * entry(m, 1, 1) - entry(m, 0, 1) * entry(m, 1, 0);
  const double root = std::sqrt(tr * tr / 4 - det);
  CHECK(m.condition == doctest::Approx((tr / 2 + root) / (tr / 2 - root)));
}

TEST_CASE("matrix: a swinging pendulum's multiplier is its tension m (g cos theta + v^2 / L)") {
  const double mass = 1.5, length = 2.0, theta = 0.7, speed = 3.0;
  World world(2);
  world.add_particle({Vec3(0.0), Vec3(0.0), 1.0, true});
  const Vec3 x{length * std::sin(theta), -length * std::cos(theta), 0.0};
  const Vec3 v{speed * std::cos(theta), speed * std::sin(theta), 0.0};  // along the circle
  world.add_particle({x, v, mass, false});
  world.add_distance(0, 1, length);
  const MatrixAnalysis m = analyse_matrix(world);
  const double g = -world.settings().gravity.y;
  // The rod pulls the bob toward the pivot: the force λ ∇C = λ x/L points inward, so λ = −tension.
  CHECK(m.lambda[0] == doctest::Approx(-mass * (g * std::cos(theta) + speed * speed / length)));
  CHECK(m.condition == doctest::Approx(1.0));
}

TEST_CASE("matrix: three rods on one particle in 2D have rank 2 and one dependent row") {
  // A hub held by three fixed anchors: three gradients in a plane, so the third depends on the first two.
  World world(2);
  world.add_particle({Vec3(0.0), Vec3(0.0), 1.0, false});
  world.add_particle({Vec3(1.0, 0.0, 0.0), Vec3(0.0), 1.0, true});
  world.add_particle({Vec3(-0.5, 0.9, 0.0), Vec3(0.0), 1.0, true});
  world.add_particle({Vec3(-0.4, -1.1, 0.0), Vec3(0.0), 1.0, true});
  for (int k = 1; k <= 3; ++k) world.add_distance(0, k, -1.0);
  const MatrixAnalysis m = analyse_matrix(world);
  CHECK(m.rows == 3);
  CHECK(m.rank == 2);
  REQUIRE(m.dependent.size() == 1);
  CHECK(m.dependent[0] == 2);
  CHECK(m.eigenvalues[0] == doctest::Approx(0.0).scale(1.0));
  // The condition of the independent part: its two nonzero eigenvalues sum to the trace, 3 (unit gradients, m = 1).
  CHECK(m.eigenvalues[1] + m.eigenvalues[2] == doctest::Approx(3.0));
  CHECK(m.condition == doctest::Approx(m.eigenvalues[2] / m.eigenvalues[1]));
  // λ is the least-squares solution of the smallest norm: it still satisfies A λ = b (b lies in A's range here).
  for (int k = 0; k < 3; ++k) {
    double row = 0.0;
    for (int l = 0; l < 3; ++l) row += entry(m, k, l) * m.lambda[l];
    CHECK(row == doctest::Approx(m.rhs[k]));
  }
}

TEST_CASE("matrix: more rows than the dense analysis takes is an error, not a stall") {
  World world(2);
  world.add_particle({Vec3(0.0), Vec3(0.0), 1.0, true});
  for (int k = 1; k <= kMaxMatrixRows + 1; ++k) {
    world.add_particle({Vec3(0.01 * k, -1.0, 0.0), Vec3(0.0), 1.0, false});
    world.add_distance(k - 1, k, -1.0);
  }
  CHECK_THROWS_AS(analyse_matrix(world), Error);
}
