// The measuring tools' logic (app/tools/measure_tools.h) without a window: angles against closed forms and finite
// differences, the stopwatch's arithmetic, the phase trace's ring, the steady scale, the energy bars' zero, the
// selection defaults and why a particle has no exact period.
#include <doctest/doctest.h>

#include <cmath>
#include <numbers>

#include "lagrange/drag.h"
#include "lagrange/period.h"
#include "lagrange/world.h"
#include "tools/measure_tools.h"

namespace lagrange::app::test {
namespace {

constexpr double kPi = std::numbers::pi;

ParticleDef particle(Vec3 position, double mass = 1.0, bool fixed = false, Vec3 velocity = Vec3(0.0)) {
  ParticleDef def;
  def.position = position;
  def.velocity = velocity;
  def.mass = mass;
  def.fixed = fixed;
  return def;
}

// A pendulum: pivot 0 fixed at the origin, bob 1 at `bob`.
World pendulum(Vec3 bob, Vec3 velocity = Vec3(0.0), int dimension = 2) {
  World world(dimension);
  world.add_particle(particle(Vec3(0.0), 1.0, true));
  world.add_particle(particle(bob, 1.0, false, velocity));
  world.add_distance(0, 1, -1.0);
  return world;
}

}  // namespace

TEST_CASE("rod_angle: the angle from straight down, signed in 2D, for any direction of gravity") {
  const Vec3 g(0.0, -9.81, 0.0), zero(0.0);
  CHECK(rod_angle(zero, Vec3(0.0, -1.0, 0.0), zero, zero, g, true).angle == doctest::Approx(0.0));
  CHECK(rod_angle(zero, Vec3(0.6, -0.8, 0.0), zero, zero, g, true).angle == doctest::Approx(std::asin(0.6)));
  CHECK(rod_angle(zero, Vec3(2.0, 0.0, 0.0), zero, zero, g, true).angle == doctest::Approx(kPi / 2));
  CHECK(rod_angle(zero, Vec3(-2.0, 0.0, 0.0), zero, zero, g, true).angle == doctest::Approx(-kPi / 2));
  CHECK(std::abs(rod_angle(zero, Vec3(0.0, 1.0, 0.0), zero, zero, g, true).angle) == doctest::Approx(kPi));
  // Only the rod's direction counts, not where it is.
  CHECK(rod_angle(Vec3(5.0, 3.0, 0.0), Vec3(5.6, 2.2, 0.0), zero, zero, g, true).angle ==
        doctest::Approx(std::asin(0.6)));
  // Gravity along +x: "down" is +x.
  CHECK(rod_angle(zero, Vec3(1.0, 0.0, 0.0), zero, zero, Vec3(3.0, 0.0, 0.0), true).angle == doctest::Approx(0.0));
  CHECK(rod_angle(zero, Vec3(0.0, 1.0, 0.0), zero, zero, Vec3(3.0, 0.0, 0.0), true).angle ==
        doctest::Approx(kPi / 2));
  // 3D: the polar angle from down, 0..π, whatever the side.
  CHECK(rod_angle(zero, Vec3(0.0, -1.0, 1.0), zero, zero, g, false).angle == doctest::Approx(kPi / 4));
  CHECK(rod_angle(zero, Vec3(0.0, -1.0, -1.0), zero, zero, g, false).angle == doctest::Approx(kPi / 4));
  CHECK(rod_angle(zero, Vec3(-1.0, -1.0, 0.0), zero, zero, g, false).angle == doctest::Approx(kPi / 4));
}

TEST_CASE("rod_angle: the angular velocity of a rod turning at a known rate, and against finite differences") {
  const Vec3 g(0.0, -9.81, 0.0);
  // b(t) = a + L (sin ωt, −cos ωt): θ = ωt, dθ/dt = ω, whatever the pivot's own (shared) velocity.
  const double w = 1.7, L = 1.3, t = 0.4;
  const Vec3 pivot_v(0.3, -0.2, 0.0);
  const Vec3 a(1.0, 2.0, 0.0), b = a + L * Vec3(std::sin(w * t), -std::cos(w * t), 0.0);
  const Vec3 vb = pivot_v + L * w * Vec3(std::cos(w * t), std::sin(w * t), 0.0);
  const RodAngle r = rod_angle(a, b, pivot_v, vb, g, true);
  CHECK(r.angle == doctest::Approx(w * t).epsilon(1e-12));
  CHECK(r.angular_velocity == doctest::Approx(w).epsilon(1e-12));
  // A 3D wobble: the rate against a central difference of the angle.
  auto position = [](double s) { return Vec3(0.5 * std::sin(2.0 * s), -1.0 + 0.2 * s, 0.3 * std::cos(3.0 * s)); };
  auto velocity = [](double s) { return Vec3(std::cos(2.0 * s), 0.2, -0.9 * std::sin(3.0 * s)); };
  for (double s : {0.1, 0.7, 1.9}) {
    CAPTURE(s);
    const double h = 1e-6;
    const double before = rod_angle(Vec3(0.0), position(s - h), Vec3(0.0), Vec3(0.0), g, false).angle;
    const double after = rod_angle(Vec3(0.0), position(s + h), Vec3(0.0), Vec3(0.0), g, false).angle;
    const RodAngle now = rod_angle(Vec3(0.0), position(s), Vec3(0.0), velocity(s), g, false);
    CHECK(now.angular_velocity == doctest::Approx((after - before) / (2.0 * h)).epsilon(1e-6));
  }
}

TEST_CASE("the stopwatch adds up simulated time between start and stop, keeps laps, resets") {
  Stopwatch watch;
  CHECK(watch.elapsed(3.0) == 0.0);
  watch.start(1.0);
  CHECK(watch.running());
  CHECK(watch.elapsed(3.5) == doctest::Approx(2.5));
  watch.start(3.0);  // already running: the start stays where it was
  CHECK(watch.elapsed(3.5) == doctest::Approx(2.5));
  watch.lap(2.0);
  watch.stop(4.0);
  CHECK(!watch.running());
  CHECK(watch.elapsed(100.0) == doctest::Approx(3.0));
  watch.lap(5.0);  // stopped: no lap
  watch.start(10.0);
  CHECK(watch.elapsed(11.25) == doctest::Approx(4.25));
  watch.lap(11.0);
  REQUIRE(watch.laps().size() == 2);
  CHECK(watch.laps()[0] == doctest::Approx(1.0));
  CHECK(watch.laps()[1] == doctest::Approx(4.0));
  watch.reset();
  CHECK(!watch.running());
  CHECK(watch.elapsed(50.0) == 0.0);
  CHECK(watch.laps().empty());
}

TEST_CASE("the phase trace keeps the last samples, oldest first") {
  PhaseTrace trace(3);
  trace.push(1.0, 10.0);
  trace.push(2.0, 20.0);
  CHECK(trace.size() == 2);
  CHECK(trace.angle(0) == 1.0);
  for (double k : {3.0, 4.0, 5.0}) trace.push(k, 10.0 * k);
  REQUIRE(trace.size() == 3);
  CHECK(trace.angle(0) == 3.0);
  CHECK(trace.angle(2) == 5.0);
  CHECK(trace.angular_velocity(1) == 40.0);
  trace.clear();
  CHECK(trace.size() == 0);
}

TEST_CASE("a steady scale holds a periodic swing's peak, follows a new peak at once and shrinks only later") {
  SteadyScale scale(10.0, 2.0);
  scale.reset(0.0);
  const double h = 1.0 / 60.0;
  double t = 0.0, lowest_after_first_peak = 1e9;
  for (int k = 0; k < 1200; ++k, t += h) {  // |sin|: peaks of 1 every 0.5 π s
    scale.update(t, 2.0 * std::sin(3.0 * t), h);
    if (t > 0.6) lowest_after_first_peak = std::min(lowest_after_first_peak, scale.value());
  }
  CHECK(lowest_after_first_peak >= 1.999);  // never breathes with the swing
  CHECK(scale.value() <= 2.0);
  scale.update(t, -7.0, h);  // a bigger peak: followed at once
  CHECK(scale.value() == 7.0);
  for (int k = 0; k < 300; ++k) scale.update(t += h, 0.1, h);  // 5 s: the peak is still in the window
  CHECK(scale.value() == 7.0);
  for (int k = 0; k < 1200; ++k) scale.update(t += h, 0.1, h);  // 20 s more: eased down toward 0.1
  CHECK(scale.value() < 0.2);
  scale.reset(0.0, 0.5);
  scale.update(t, 0.0, h);
  CHECK(scale.value() == 0.5);  // the floor
}

TEST_CASE("nice_ceil rounds up to 1, 2, 2.5 or 5 times a power of ten") {
  CHECK(nice_ceil(36.87) == doctest::Approx(50.0));
  CHECK(nice_ceil(1.97) == doctest::Approx(2.0));
  CHECK(nice_ceil(2.0) == doctest::Approx(2.0));
  CHECK(nice_ceil(2.2) == doctest::Approx(2.5));
  CHECK(nice_ceil(0.013) == doctest::Approx(0.02));
  CHECK(nice_ceil(201.0) == doctest::Approx(250.0));
  CHECK(nice_ceil(0.0) == 1.0);
}

TEST_CASE("energy bars: the potential counted from the lowest point a pendulum reaches, or from the origin") {
  World world = pendulum(Vec3(0.6, -0.8, 0.0), Vec3(0.8, 0.6, 0.0));  // 1 m rod, 1 m/s along the swing
  const double g = 9.81;
  // The lowest point the bob reaches is 1 m under the pivot: U there is −m g·1.
  CHECK(lowest_potential(world) == doctest::Approx(-g));
  const EnergyBars lowest = energy_bars(world.energy(), world.work(), lowest_potential(world));
  CHECK(lowest.kinetic == doctest::Approx(0.5));
  CHECK(lowest.potential == doctest::Approx(g * (1.0 - 0.8)));  // m g h above the lowest point
  CHECK(lowest.total == doctest::Approx(0.5 + g * 0.2));
  const EnergyBars origin = energy_bars(world.energy(), world.work(), 0.0);
  CHECK(origin.total == doctest::Approx(world.energy().total()).epsilon(1e-15));
  CHECK(origin.potential == doctest::Approx(-g * 0.8));
  Work work;
  work.mouse = 1.5;
  work.damping = -0.25;
  const EnergyBars with_work = energy_bars(world.energy(), work, 0.0);
  CHECK(with_work.mouse == 1.5);
  CHECK(with_work.damping == -0.25);
}

TEST_CASE("the protractor's rod runs from the end nearer the anchor, whatever the file's order") {
  World world(2);
  world.add_particle(particle(Vec3(0.0), 1.0, true));
  world.add_particle(particle(Vec3(1.0, 0.0, 0.0)));
  world.add_particle(particle(Vec3(2.0, 0.0, 0.0)));
  world.add_distance(1, 0, -1.0);  // listed bob first
  world.add_distance(2, 1, -1.0);
  CHECK(rod_ends(world.model(), 0) == std::pair{0, 1});
  CHECK(rod_ends(world.model(), 1) == std::pair{1, 2});
  CHECK(!rod_ends(world.model(), 2));
  CHECK(default_timed_particle(world.model()) == 2);
  CHECK(rod_of(world.model(), 2) == 1);
  CHECK(rod_of(world.model(), 1) == 0);
  // A pinned particle is an anchor too.
  World pinned(2);
  pinned.add_particle(particle(Vec3(0.0)));
  pinned.add_particle(particle(Vec3(0.0, -1.0, 0.0)));
  pinned.add_distance(1, 0, -1.0);
  pinned.add_pin(0, Vec3(0.0));
  CHECK(rod_ends(pinned.model(), 0) == std::pair{0, 1});
  World all_fixed(2);
  all_fixed.add_particle(particle(Vec3(0.0), 1.0, true));
  CHECK(default_timed_particle(all_fixed.model()) == -1);
}

TEST_CASE("why a particle has no exact period, and only when simple_pendulum_period has none") {
  auto check = [](const World& world, int particle, const char* words) {
    CAPTURE(words);
    CHECK(!simple_pendulum_period(world.model(), world.state(), particle));
    CHECK(why_no_exact_period(world.model(), world.state(), particle).find(words) != std::string::npos);
  };
  World simple = pendulum(Vec3(0.6, -0.8, 0.0));
  CHECK(simple_pendulum_period(simple.model(), simple.state(), 1));
  check(simple, 0, "fixed");
  World double_pendulum = pendulum(Vec3(0.0, -1.0, 0.0));
  double_pendulum.add_particle(particle(Vec3(0.0, -2.0, 0.0)));
  double_pendulum.add_distance(1, 2, -1.0);
  check(double_pendulum, 2, "other end moves");
  check(double_pendulum, 1, "held by 2");
  World drag = pendulum(Vec3(0.6, -0.8, 0.0));
  Settings settings = drag.settings();
  settings.damping = 0.5;
  drag.set_settings(settings);
  check(drag, 1, "air drag");
  World weightless = pendulum(Vec3(0.6, -0.8, 0.0));
  settings = weightless.settings();
  settings.gravity = Vec3(0.0);
  weightless.set_settings(settings);
  check(weightless, 1, "no gravity");
  check(pendulum(Vec3(0.0, -1.0, 0.0), Vec3(10.0, 0.0, 0.0)), 1, "over the top");
  check(pendulum(Vec3(0.6, -0.8, 0.0), Vec3(0.0, 0.0, 1.0), 3), 1, "spherical");
  World loose(2);
  loose.add_particle(particle(Vec3(0.0)));
  check(loose, 0, "nothing holds it");
}

TEST_CASE("the timer restarts when gravity or the mouse's work changes or the hand lets go, and feeds the trace") {
  World world = pendulum(Vec3(0.6, -0.8, 0.0));
  Settings settings = world.settings();
  settings.substeps = 4;
  world.set_settings(settings);
  MeasureState measure;
  measure_scene_started(measure, world);
  CHECK(measure.particle == 1);
  CHECK(measure.rod == 0);
  REQUIRE(measure.pendulum);
  CHECK(!measure.exact);  // released at rest: the amplitude is measured where the swing turns, on the other side
  for (int k = 0; k < 300; ++k) {
    world.step();
    measure_after_step(measure, world);
  }
  CHECK(measure.meter.samples() == 301);
  CHECK(measure.trace.size() == 300);
  REQUIRE(measure.meter.result());
  CHECK(measure.meter.result()->period == doctest::Approx(measure.exact->exact).epsilon(1e-3));
  settings.gravity = Vec3(0.0, -1.62, 0.0);
  world.set_settings(settings);
  world.step();
  measure_after_step(measure, world);
  CHECK(measure.meter.samples() == 1);  // restarted at this step
  CHECK(measure.timing_since == world.time());
  REQUIRE(measure.pendulum);
  CHECK(measure.pendulum->small_angle == doctest::Approx(2.0 * kPi * std::sqrt(1.0 / 1.62)));
  world.step();
  measure_after_step(measure, world);
  CHECK(measure.meter.samples() == 2);
  world.add_mouse_work(0.1);
  world.step();
  measure_after_step(measure, world);
  CHECK(measure.meter.samples() == 1);
  // The hand: its pin (a tool row) is not part of the pendulum, and letting go restarts the timer on the new swing.
  DragController hand;
  hand.begin(world, 1, DragSettings{});
  world.step();
  measure_after_step(measure, world);
  CHECK(measure.timed_held);
  CHECK(measure.pendulum);
  for (int k = 0; k < 5; ++k) {
    hand.before_step(world);
    world.step();
    hand.after_step(world);
    measure_after_step(measure, world);
  }
  hand.release(world);
  world.step();
  measure_after_step(measure, world);
  CHECK(measure.meter.samples() == 1);
  CHECK(!measure.timed_held);
  CHECK(measure.pendulum);
  CHECK(measure.no_exact_reason.empty());
  // A (re)started scene times its own particle again, whatever was chosen (Reset on the double pendulum and Lesson 2
  // in test_measure.cpp, where the default and the choice differ), and clears the stopwatch.
  measure.particle = 0;
  measure.stopwatch.start(world.time() - 1.0);
  measure_scene_started(measure, world);
  CHECK(measure.particle == 1);
  CHECK(measure.stopwatch.elapsed(world.time()) == 0.0);
}

namespace {

// Simpson's rule on T = 4 √(L/g) ∫₀^{π/2} dφ / √(1 − k² sin²φ), k = sin(θ₀/2): not the engine's AGM.
double period_by_quadrature(double length, double g, double amplitude) {
  const double k = std::sin(0.5 * amplitude);
  constexpr int kIntervals = 4000;
  const double h = 0.5 * kPi / kIntervals;
  double sum = 0.0;
  for (int i = 0; i <= kIntervals; ++i) {
    const double s = std::sin(i * h);
    sum += (i == 0 || i == kIntervals ? 1.0 : (i % 2 ? 4.0 : 2.0)) / std::sqrt(1.0 - k * k * s * s);
  }
  return 4.0 * std::sqrt(length / g) * sum * h / 3.0;
}

}  // namespace

TEST_CASE("the timer's exact period does not depend on when timing restarted: the amplitude is the swing's") {
  // The case: 150° on the Moon. Timing restarted at several instants of the swing (the bob fast or slow),
  // each timed for five periods: the exact value is 4 √(L/g) K(sin(75°)) within 1e-4 every time.
  const double g = 1.62, theta0 = 150.0 * kPi / 180.0;
  const double closed_form = period_by_quadrature(1.0, g, theta0);
  for (double start : {0.0, 1.0, 2.2, 3.1, 4.35, 5.5}) {
    CAPTURE(start);
    World world = pendulum(Vec3(std::sin(theta0), -std::cos(theta0), 0.0));
    Settings settings = world.settings();
    settings.gravity = Vec3(0.0, -g, 0.0);
    settings.dt = 1.0 / 60.0;
    settings.substeps = 4;
    world.set_settings(settings);
    MeasureState measure;
    measure_scene_started(measure, world);
    while (world.time() < start) {
      world.step();
      measure_after_step(measure, world);
    }
    restart_timer(measure, world);
    while (world.time() < start + 5.0 * closed_form) {
      world.step();
      measure_after_step(measure, world);
    }
    REQUIRE(measure.exact);
    REQUIRE(measure.meter.result());
    CHECK(measure.exact->amplitude == doctest::Approx(theta0).epsilon(1e-4));
    CHECK(measure.exact->exact == doctest::Approx(closed_form).epsilon(1e-4));
    CHECK(measure.meter.result()->period == doctest::Approx(closed_form).epsilon(1e-3));
  }
}

}  // namespace lagrange::app::test
