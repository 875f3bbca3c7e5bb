// The stiff-spring baseline against its closed forms: static stretch m g / k, and the h < 2/ω stability limit.
#include <doctest/doctest.h>

#include <cmath>

#include "test_util.h"

using namespace lagrange;
using lagrange::test::settings_for;
using lagrange::test::all_finite;
using lagrange::test::TrapsOff;

TEST_CASE("penalty springs stretch by m g / k under a hanging load") {
  const double k = 5000.0, m = 2.0, g = 9.81;
  Settings s = settings_for("penalty", 1.0 / 1000.0, {0.0, -g, 0.0});
  s.stiffness = k;
  s.spring_damping = 2.0 * std::sqrt(k * m);  // critically damped: settles quickly
  World world(2, s);
  world.add_particle({.position = {0.0, 0.0, 0.0}, .fixed = true});
  world.add_particle({.position = {0.0, -1.0, 0.0}, .mass = m});
  world.add_distance(0, 1, 1.0);
  for (int i = 0; i < 5000; ++i) world.step();
  CHECK(world.max_violation() == doctest::Approx(m * g / k).epsilon(1e-6));
  CHECK(world.state().row_force[0] == doctest::Approx(-m * g).epsilon(1e-6));  // tension = weight
}

TEST_CASE("penalty springs explode beyond h = 2/omega: the state is rolled back, never NaN") {
  TrapsOff traps;
  Settings s = settings_for("penalty", 1.0 / 60.0, {0.0, -9.81, 0.0});
  s.stiffness = 1e6;  // omega = sqrt(k/m) = 1000 1/s, h omega ≈ 17 ≫ 2
  World world(2, s);
  world.add_particle({.position = {0.0, 0.0, 0.0}, .fixed = true});
  world.add_particle({.position = {1.0, 0.0, 0.0}, .mass = 1.0});
  world.add_distance(0, 1, 1.0);
  bool rolled_back = false;
  double worst = 0.0;
  for (int i = 0; i < 2000 && !rolled_back; ++i) {
    world.step();
    rolled_back = world.stats().non_finite;
    worst = std::max(worst, world.max_violation());
    REQUIRE(all_finite(world));
  }
  CHECK(worst > 1e3);  // the spring blew up...
  CHECK(rolled_back);  // ...until a step overflowed and was rolled back
}
