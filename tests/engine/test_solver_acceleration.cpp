// The acceleration-level solver against seed 002's worked example, seed 004's chain formula, and its known drift.
#include <doctest/doctest.h>

#include <cmath>

#include "test_util.h"

using namespace lagrange;
using lagrange::test::seed_pendulum;
using lagrange::test::settings_for;

TEST_CASE("seed 002: pendulum with pinned pivot, acceleration level") {
  const double g = 10.0, h = 1e-6;
  World world = seed_pendulum("acceleration", h, g);
  world.step();
  // a = (v' - v) / h exactly, since semi-implicit Euler sets v' = v + h a and v = 0.
  const auto& v = world.state().velocity;
  CHECK(v[0].x / h == doctest::Approx(0.0).scale(1.0));
  CHECK(v[0].y / h == doctest::Approx(0.0).scale(1.0));
  CHECK(v[1].x / h == doctest::Approx(-g / 2));
  CHECK(v[1].y / h == doctest::Approx(-g / 2));
  // λ: the pin rows are the seed's first two multipliers directly. The rod is written C = |r| − L here and
  // |r|² − L² in the seed, so λ_rod = 2 |r| λ_seed = 2 √2 (−g/4).
  const auto f = world.state().row_force;
  CHECK(f[0] == doctest::Approx(-g / 2));
  CHECK(f[1] == doctest::Approx(3 * g / 2));
  CHECK(f[2] == doctest::Approx(2 * std::sqrt(2.0) * (-g / 4)));
  // F_C = ∇Cᵀλ = (0, g, −g/2, g/2): pin rows act on A along x and y; the rod along n = (A − B)/|A − B|.
  const Vec3 n = (Vec3(0, 0, 0) - Vec3(1, -1, 0)) / std::sqrt(2.0);
  const Vec3 fa = Vec3(f[0], f[1], 0.0) + f[2] * n;
  const Vec3 fb = -f[2] * n;
  CHECK(fa.x == doctest::Approx(0.0).scale(1.0));
  CHECK(fa.y == doctest::Approx(g));
  CHECK(fb.x == doctest::Approx(-g / 2));
  CHECK(fb.y == doctest::Approx(g / 2));
}

TEST_CASE("seed 004: three-particle chain with velocities and unequal masses matches the 2x2 system") {
  const double m1 = 1.0, m2 = 2.5, m3 = 0.7, c = 0.3;
  const Vec3 x1{0.0, 0.0, 0.0}, x2{1.0, -0.5, 0.0}, x3{1.8, 0.4, 0.0};
  // Velocities that respect the rods (Ċ = 0), as seed 004 assumes: for Ċ ≠ 0 the squared constraint's C̈ = 0 and
  // the length constraint's C̈ = 0 differ by the term 2Ċ².
  auto perp = [](Vec3 a) { return Vec3(-a.y, a.x, 0.0); };
  const Vec3 v2{-0.4, 0.9, 0.0}, v1 = v2 + 0.7 * perp(x1 - x2), v3 = v2 - 1.3 * perp(x2 - x3);
  const Vec3 gravity{0.0, -9.81, 0.0};
  Settings settings = settings_for("acceleration", 1e-7, gravity);
  settings.damping = c;  // F_i = m_i g − c m_i v_i: different accelerations per particle
  World world(2, settings);
  world.add_particle({.position = x1, .velocity = v1, .mass = m1});
  world.add_particle({.position = x2, .velocity = v2, .mass = m2});
  world.add_particle({.position = x3, .velocity = v3, .mass = m3});
  world.add_distance(0, 1, -1.0);
  world.add_distance(1, 2, -1.0);
  world.step();

  // Seed 004 (with its corrected signs): both off-diagonal entries are −(x12·x23)/m2.
  const Vec3 x12 = x1 - x2, x23 = x2 - x3, v12 = v1 - v2, v23 = v2 - v3;
  const Vec3 f1 = gravity - c * v1, f2 = gravity - c * v2, f3 = gravity - c * v3;  // F_i / m_i
  const double a11 = (1 / m1 + 1 / m2) * glm::dot(x12, x12), a12 = -glm::dot(x12, x23) / m2;
  const double a22 = (1 / m2 + 1 / m3) * glm::dot(x23, x23);
  const double b1 = -(glm::dot(x12, f1 - f2) + glm::dot(v12, v12));
  const double b2 = -(glm::dot(x23, f2 - f3) + glm::dot(v23, v23));
  const double det = a11 * a22 - a12 * a12;
  const double l12 = (b1 * a22 - a12 * b2) / det, l23 = (a11 * b2 - a12 * b1) / det;
  // Seed 004's force on particle 1 is λ12 (x1 − x2); here it is λ (x1 − x2)/|x1 − x2|.
  CHECK(world.state().row_force[0] == doctest::Approx(l12 * glm::length(x12)).epsilon(1e-9));
  CHECK(world.state().row_force[1] == doctest::Approx(l23 * glm::length(x23)).epsilon(1e-9));
  // And the accelerations of seed 004's equations of motion (m_i meaning m_1, m_2, m_3).
  const double h = world.settings().dt;
  const Vec3 a2 = (world.state().velocity[1] - v2) / h;
  const Vec3 expected_a2 = (-l12 * x12 + l23 * x23) / m2 + f2;
  CHECK(a2.x == doctest::Approx(expected_a2.x).epsilon(1e-6));
  CHECK(a2.y == doctest::Approx(expected_a2.y).epsilon(1e-6));
}

TEST_CASE("acceleration level without stabilization drifts in rod length: Baumgarte keeps it bounded") {
  // A pendulum released at 90 degrees: C̈ = 0 is enforced, C itself drifts with the integration error.
  // Compare the worst |C| in the first and second 10 s.
  auto run = [](double beta) {
    World world = lagrange::test::simple_pendulum("acceleration", M_PI / 2, 1.0, 1.0 / 240.0);
    Settings s = world.settings();
    s.baumgarte = beta;
    world.set_settings(s);
    double first = 0.0, second = 0.0;
    for (int i = 0; i < 240 * 20; ++i) {
      world.step();
      (i < 240 * 10 ? first : second) = std::max(i < 240 * 10 ? first : second, world.max_violation());
    }
    return std::pair{first, second};
  };
  const auto [drift_first, drift_second] = run(0.0);
  const auto [stab_first, stab_second] = run(20.0);
  CHECK(drift_second > 0.1);                 // decimetres of stretch after 20 s: the lesson
  CHECK(drift_second > 1.5 * drift_first);  // and growing
  CHECK(stab_second < 1e-2);
  CHECK(stab_second < 1.2 * stab_first);    // bounded
  CHECK(stab_second < drift_second / 20);
}
