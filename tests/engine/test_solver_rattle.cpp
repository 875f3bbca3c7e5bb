// RATTLE, SHAKE and the conservation laws: velocity constraints, energy without secular drift, the pendulum's
// exact period (complete elliptic integral, computed here), and SHAKE's sweep count on a chain.
#include <doctest/doctest.h>

#include <cmath>
#include <numeric>

#include "test_util.h"

using namespace lagrange;
using lagrange::test::settings_for;
using lagrange::test::simple_pendulum;

namespace {

World double_pendulum(const char* solver, double dt) {
  World world(2, settings_for(solver, dt, {0.0, -9.81, 0.0}));
  world.add_particle({.position = {0.0, 0.0, 0.0}, .fixed = true});
  world.add_particle({.position = {1.0, 0.0, 0.0}, .mass = 1.0});
  world.add_particle({.position = {1.0, 1.0, 0.0}, .mass = 2.0});
  world.add_distance(0, 1, -1.0);
  world.add_distance(1, 2, -1.0);
  return world;
}

// Complete elliptic integral of the first kind K(k) by the arithmetic-geometric mean.
double elliptic_k(double k) {
  double a = 1.0, b = std::sqrt(1.0 - k * k);
  for (int i = 0; i < 40; ++i) {
    const double next = 0.5 * (a + b);
    b = std::sqrt(a * b);
    a = next;
  }
  return M_PI / (2.0 * a);
}

// Period from two successive downward zero crossings of x (released from rest at x > 0).
double measured_period(const char* solver, double theta, double dt) {
  World world = simple_pendulum(solver, theta, 1.0, dt, 9.81);
  std::vector<double> crossings;
  double t_prev = 0.0, x_prev = world.state().position[1].x;
  while (crossings.size() < 3 && world.time() < 20.0) {
    world.step();
    const double x = world.state().position[1].x;
    if ((x_prev > 0.0) != (x > 0.0)) crossings.push_back(t_prev + dt * x_prev / (x_prev - x));
    t_prev = world.time();
    x_prev = x;
  }
  REQUIRE(crossings.size() == 3);
  return crossings[2] - crossings[0];
}

// Mean of the total energy over [from, to) steps.
template <typename F>
double mean_energy(World& world, long steps, F&& each) {
  double sum = 0.0;
  for (long i = 0; i < steps; ++i) {
    world.step();
    sum += world.energy().total();
    each(world);
  }
  return sum / steps;
}

}  // namespace

TEST_CASE("RATTLE leaves |J v| at rounding level after every step") {
  World world = double_pendulum("rattle", 1.0 / 240.0);
  for (int i = 0; i < 2000; ++i) {
    world.step();
    REQUIRE(world.stats().max_velocity_violation < 1e-12);
    REQUIRE(world.stats().max_relative_violation < 1e-9);
  }
}

TEST_CASE("pendulum period at 10 and 120 degrees matches 4 sqrt(L/g) K(sin(theta/2))") {
  for (const char* solver : {"projection", "rattle"}) {
    for (double degrees : {10.0, 120.0}) {
      const double theta = degrees * M_PI / 180.0;
      const double exact = 4.0 * std::sqrt(1.0 / 9.81) * elliptic_k(std::sin(theta / 2.0));
      const double period = measured_period(solver, theta, 1e-4);
      CAPTURE(solver);
      CAPTURE(degrees);
      CHECK(period == doctest::Approx(exact).epsilon(2e-6));
    }
  }
  // Independent sanity check of the closed form: at small amplitude it tends to 2π sqrt(L/g).
  CHECK(4.0 * std::sqrt(1.0 / 9.81) * elliptic_k(1e-6) == doctest::Approx(2 * M_PI * std::sqrt(1.0 / 9.81)));
}

TEST_CASE("projection and rattle show no secular energy drift over 100000 steps") {
  for (const char* solver : {"projection", "rattle"}) {
    CAPTURE(solver);
    World world = double_pendulum(solver, 1e-3);
    const double e0 = world.energy().total();
    double low = e0, high = e0;
    auto track = [&](const World& w) {
      low = std::min(low, w.energy().total());
      high = std::max(high, w.energy().total());
    };
    const double first = mean_energy(world, 10000, track);
    mean_energy(world, 80000, track);
    const double last = mean_energy(world, 10000, track);
    // The energy of a symplectic scheme oscillates (by O(dt): projection's velocity is the half-step one) but does
    // not drift: the means of the first and last 10 s agree to a small fraction of the oscillation, and the
    // oscillation stays below 1% of the energy scale Σ m g (reach) = (1 + 2) · 9.81 · 2 J.
    CHECK(std::abs(last - first) < 0.1 * (high - low) + 1e-9);
    CHECK(high - low < 0.01 * 3 * 9.81 * 2);
  }
}

TEST_CASE("acceleration level loses or gains energy secularly, which the symplectic solvers do not") {
  World world = double_pendulum("acceleration", 1e-3);
  const double first = mean_energy(world, 10000, [](const World&) {});
  mean_energy(world, 80000, [](const World&) {});
  const double last = mean_energy(world, 10000, [](const World&) {});
  CHECK(std::abs(last - first) > 0.1);
}
