// Periods (engine/src/period.cpp): the elliptic integral against closed forms and quadrature, the timer against a
// sampled sine, and simple pendulums simulated by projection against their exact elliptic-integral period.
#include <doctest/doctest.h>

#include <cmath>
#include <numbers>

#include "lagrange/period.h"
#include "reference.h"
#include "test_util.h"

using namespace lagrange;

TEST_CASE("the elliptic integral K(k): closed forms and quadrature") {
  CHECK(elliptic_k(0.0) == doctest::Approx(0.5 * std::numbers::pi).epsilon(1e-15));
  // K(1/√2) = Γ(1/4)² / (4 √π).
  const double gamma = std::tgamma(0.25);
  CHECK(elliptic_k(std::sqrt(0.5)) == doctest::Approx(gamma * gamma / (4.0 * std::sqrt(std::numbers::pi))).epsilon(1e-14));
  for (double k : {0.1, 0.5, 0.9, 0.99}) {
    CAPTURE(k);
    CHECK(elliptic_k(k) == doctest::Approx(lagrange::test::elliptic_k_by_quadrature(k)).epsilon(1e-10));
  }
}

TEST_CASE("the period timer recovers the period of a sampled swing from its midline crossings") {
  // x = A cos(2π t / T) + a vertical bob (y, a smaller range) sampled at 1/60 s: the timer takes x (the larger range).
  for (double period : {0.7, 2.0061, 3.3}) {
    CAPTURE(period);
    PeriodMeter meter;
    for (int i = 0; i <= 600; ++i) {
      const double t = i / 60.0, phase = 2.0 * std::numbers::pi * t / period;
      meter.sample(t, Vec3(0.8 * std::cos(phase), -1.0 + 0.1 * std::cos(2.0 * phase), 0.0));
    }
    const auto r = meter.result();
    REQUIRE(r);
    CHECK(r->axis == 0);
    CHECK(r->period == doctest::Approx(period).epsilon(2e-4));  // linear interpolation across a 1/60 s step
    CHECK(r->intervals >= 2 * static_cast<int>(10.0 / period) - 2);
  }
  PeriodMeter still;  // no swing: no period
  for (int i = 0; i < 100; ++i) still.sample(i / 60.0, Vec3(1.0, 0.0, 0.0));
  CHECK_FALSE(still.result());
}

TEST_CASE("a simple pendulum's exact period, and the cases where there is none") {
  const double g = 9.81, length = 1.3;
  for (double degrees : {5.0, 60.0, 120.0, 170.0}) {
    CAPTURE(degrees);
    const double theta = degrees * std::numbers::pi / 180.0;
    World world = test::simple_pendulum("projection", theta, length, 1.0 / 60.0, g);
    const auto p = simple_pendulum_period(world.model(), world.state(), 1);
    REQUIRE(p);
    CHECK(p->amplitude == doctest::Approx(theta).epsilon(1e-12));
    CHECK(p->small_angle == doctest::Approx(2.0 * std::numbers::pi * std::sqrt(length / g)));
    CHECK(p->exact == doctest::Approx(lagrange::test::pendulum_period_by_quadrature(length, g, theta)).epsilon(1e-9));
  }
  // Released from the bottom with speed v: the amplitude from ½v² = gL(1 − cos θ_max).
  World pushed = test::simple_pendulum("projection", 0.0, length, 1.0 / 60.0, g);
  pushed.state().velocity[1] = Vec3(2.0, 0.0, 0.0);
  const auto p = simple_pendulum_period(pushed.model(), pushed.state(), 1);
  REQUIRE(p);
  CHECK(std::cos(p->amplitude) == doctest::Approx(1.0 - 4.0 / (2.0 * g * length)).epsilon(1e-12));
  // Not a simple pendulum: over the top, air drag, a sideways push (spherical), the pivot itself, a double pendulum.
  World over = test::simple_pendulum("projection", 0.0, length, 1.0 / 60.0, g);
  over.state().velocity[1] = Vec3(8.0, 0.0, 0.0);  // ½v² = 32 > 2 g L = 25.5
  CHECK_FALSE(simple_pendulum_period(over.model(), over.state(), 1));
  Settings drag = test::settings_for("projection", 1.0 / 60.0, {0.0, -g, 0.0});
  drag.damping = 0.1;
  World damped = test::simple_pendulum("projection", 0.5, length, 1.0 / 60.0, g);
  damped.set_settings(drag);
  CHECK_FALSE(simple_pendulum_period(damped.model(), damped.state(), 1));
  World world3(3, test::settings_for("projection", 1.0 / 60.0, {0.0, -g, 0.0}));
  world3.add_particle({.position = {0.0, 0.0, 0.0}, .fixed = true});
  world3.add_particle({.position = {1.0, -1.0, 0.0}, .velocity = {0.0, 0.0, 1.0}, .mass = 1.0});
  world3.add_distance(0, 1, -1.0);
  CHECK_FALSE(simple_pendulum_period(world3.model(), world3.state(), 1));
  CHECK_FALSE(simple_pendulum_period(world3.model(), world3.state(), 0));
  World chain = test::chain(test::settings_for("projection", 1.0 / 60.0, {0.0, -g, 0.0}), 2, 1.0);
  CHECK_FALSE(simple_pendulum_period(chain.model(), chain.state(), 1));
  CHECK(simple_pendulum_period(chain.model(), chain.state(), 2) == std::nullopt);  // hangs from a moving bob
}

TEST_CASE("projection's pendulums swing with their exact period") {
  // 1.3 m pendulums released from rest at 5° to 170°, dt = 1/60 s in 4 substeps, 40 s: the timer's period against
  // 4 √(L/g) K(sin(θ₀/2)). The integrator's phase error and the timer's interpolation stay below 5e-4 of a period.
  const double g = 9.81, length = 1.3;
  for (double degrees : {5.0, 45.0, 90.0, 135.0, 170.0}) {
    CAPTURE(degrees);
    const double theta = degrees * std::numbers::pi / 180.0;
    World world = test::simple_pendulum("projection", theta, length, 1.0 / 60.0, g);
    Settings s = world.settings();
    s.substeps = 4;
    world.set_settings(s);
    const auto exact = simple_pendulum_period(world.model(), world.state(), 1);
    REQUIRE(exact);
    PeriodMeter meter;
    meter.sample(world.time(), world.state().position[1]);
    for (int step = 0; step < 40 * 60; ++step) {
      world.step();
      meter.sample(world.time(), world.state().position[1]);
    }
    const auto r = meter.result();
    REQUIRE(r);
    CHECK(r->period == doctest::Approx(exact->exact).epsilon(5e-4));
    if (degrees >= 45.0) CHECK(std::abs(r->period - exact->small_angle) > 0.03 * exact->small_angle);
  }
}
