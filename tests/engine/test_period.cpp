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

TEST_CASE("the amplitude meter finds a sampled swing's turning points between the samples") {
  // θ = θ₀ cos(2π t / T + φ) at 1/60 s: the turning points fall anywhere between two samples. The largest sample is
  // short of θ₀ by up to θ₀ (πΔt/T)²/2 (3e-4 of θ₀ here); the parabola through three samples by O((Δt/T)⁴).
  const double theta0 = 2.0, period = 2.0, dt = 1.0 / 60.0;
  for (double phase : {0.0, 0.1, 0.37, 1.0, 2.5}) {
    CAPTURE(phase);
    AmplitudeMeter meter;
    double largest = 0.0;
    for (int i = 0; i <= 600; ++i) {
      const double t = i * dt, theta = theta0 * std::cos(2.0 * std::numbers::pi * t / period + phase);
      meter.sample(t, theta);
      largest = std::max(largest, std::abs(theta));
    }
    const auto r = meter.result();
    REQUIRE(r);
    CHECK(r->turning_points >= 9);  // two a period over 10 s, less the ends
    CHECK(r->amplitude == doctest::Approx(theta0).epsilon(1e-6));
    CHECK(r->spread < 1e-6);
    if (phase == 0.37) CHECK(theta0 - largest > 1e-5);  // the interpolation matters
  }
  // A polar angle (3D): |θ| of a swing through the bottom is a V there, not a turning point.
  AmplitudeMeter polar;
  for (int i = 0; i <= 120; ++i) polar.sample(i * dt, std::abs(0.5 * std::sin(2.0 * std::numbers::pi * i * dt / period)));
  REQUIRE(polar.result());
  CHECK(polar.result()->turning_points == 2);  // at t = 0.5 and 1.5 s; the bottom at t = 1 s does not count
  CHECK(polar.result()->amplitude == doctest::Approx(0.5).epsilon(1e-6));
  // Released at rest: the first sample is the largest, but not a turning point seen; nothing until the other side.
  AmplitudeMeter released;
  for (int i = 0; i <= 59; ++i) released.sample(i * dt, theta0 * std::cos(2.0 * std::numbers::pi * i * dt / period));
  CHECK_FALSE(released.result());
  released.sample(60 * dt, theta0 * std::cos(2.0 * std::numbers::pi));
  released.sample(61 * dt, theta0 * std::cos(2.0 * std::numbers::pi * 61 * dt / period));
  CHECK(released.result());
}

TEST_CASE("a pendulum's amplitude measured from its swing gives the exact period whenever timing starts") {
  // Pendulums released at rest from θ₀, on the Earth and the Moon, stepped by projection: meters started at several
  // instants (a restart of the timer) measure θ₀ at the turning points, and 4 √(L/g) K(sin(θ_max/2)) with that θ_max
  // is the closed form at θ₀ (Simpson's rule here, not the engine's AGM) within 1e-4, whichever instant they started.
  // The amplitude from the energy of one instant does not do that at 150°: the solver's velocity is a difference
  // over a step, its kinetic energy off by O(Δt) where the bob is fast.
  const double length = 1.0, dt = 1.0 / 60.0;
  for (double g : {9.81, 1.62}) {
    for (double degrees : {10.0, 90.0, 150.0}) {
      CAPTURE(g);
      CAPTURE(degrees);
      const double theta0 = degrees * std::numbers::pi / 180.0;
      const double closed_form = test::pendulum_period_by_quadrature(length, g, theta0);
      World world = test::simple_pendulum("projection", theta0, length, dt, g);
      Settings s = world.settings();
      s.substeps = 4;
      world.set_settings(s);
      const std::vector<double> starts = {0.0, 0.3 * closed_form, 0.55 * closed_form, 0.8 * closed_form,
                                          1.05 * closed_form};
      std::vector<AmplitudeMeter> meters(starts.size());
      const auto angle = [&] {
        const Vec3 r = world.state().position[1] - world.state().position[0];
        return std::atan2(r.x, -r.y);
      };
      const int steps = static_cast<int>(std::ceil(5.0 * closed_form / dt));
      for (int step = 0; step <= steps; ++step) {
        for (std::size_t k = 0; k < starts.size(); ++k)
          if (world.time() >= starts[k]) meters[k].sample(world.time(), angle());
        world.step();
      }
      std::vector<double> exact;
      for (const AmplitudeMeter& meter : meters) {
        const auto r = meter.result();
        REQUIRE(r);
        CHECK(r->turning_points >= 7);
        CHECK(r->amplitude == doctest::Approx(theta0).epsilon(2e-5));
        exact.push_back(pendulum_period(length, g, r->amplitude).exact);
        CHECK(exact.back() == doctest::Approx(closed_form).epsilon(1e-4));
        CHECK(exact.back() == doctest::Approx(exact.front()).epsilon(1e-4));
      }
      CHECK(pendulum_period(length, g, theta0).small_angle == doctest::Approx(2.0 * std::numbers::pi * std::sqrt(length / g)));
    }
  }
}

TEST_CASE("a pendulum held by the mouse is still a simple pendulum: the hand's rows are not part of the scene") {
  const double g = 9.81, length = 1.3, theta = 0.7;
  World world = test::simple_pendulum("projection", theta, length, 1.0 / 60.0, g);
  auto hand = std::make_unique<PinConstraint>(1, world.state().position[1], 2);
  hand->set_tool(true);
  world.add_constraint(std::move(hand));
  const auto p = simple_pendulum_period(world.model(), world.state(), 1);
  REQUIRE(p);
  CHECK(p->pivot == 0);
  CHECK(p->exact == doctest::Approx(test::pendulum_period_by_quadrature(length, g, theta)).epsilon(1e-9));
  // A pin of the scene's own on the bob is part of it: no simple pendulum.
  World pinned = test::simple_pendulum("projection", theta, length, 1.0 / 60.0, g);
  pinned.add_constraint(std::make_unique<PinConstraint>(1, pinned.state().position[1], 2));
  CHECK_FALSE(simple_pendulum_period(pinned.model(), pinned.state(), 1));
}
