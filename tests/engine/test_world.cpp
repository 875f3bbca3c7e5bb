// World-level behaviour: reproducibility, live solver switching, redundant and contradictory constraints, invalid
// input, statics of a hanging chain, the substep observer.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>

#include "test_util.h"

using namespace lagrange;
using lagrange::test::settings_for;
using lagrange::test::all_finite;

namespace {

World braced_square(const char* solver) {
  // Four particles, four sides and both diagonals: in 2D one rod is redundant (2n − 3 = 5 rods make it rigid).
  World world(2, settings_for(solver, 1.0 / 240.0, {0.0, -9.81, 0.0}));
  const Vec3 corners[] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
  for (int i = 0; i < 4; ++i)
    world.add_particle({.position = corners[i], .velocity = Vec3(-corners[i].y, corners[i].x, 0.0), .mass = 1.0});
  for (int i = 0; i < 4; ++i) world.add_distance(i, (i + 1) % 4, -1.0);
  world.add_distance(0, 2, -1.0);
  world.add_distance(1, 3, -1.0);
  return world;
}

}  // namespace

TEST_CASE("the same run twice is bit-identical, for every solver") {
  for (const SolverInfo& info : solver_table()) {
    CAPTURE(info.id);
    World a = braced_square(info.id), b = braced_square(info.id);
    for (int i = 0; i < 500; ++i) {
      a.step();
      b.step();
    }
    const auto& pa = a.state().position;
    const auto& pb = b.state().position;
    CHECK(std::memcmp(pa.data(), pb.data(), pa.size() * sizeof(Vec3)) == 0);
  }
}

TEST_CASE("switching solver between steps keeps the state continuous") {
  for (const SolverInfo& info : solver_table()) {
    CAPTURE(info.id);
    World world = lagrange::test::simple_pendulum("projection", 1.0, 1.0, 1.0 / 240.0);
    for (int i = 0; i < 100; ++i) world.step();
    Settings s = world.settings();
    s.solver = info.id;
    const Vec3 before = world.state().position[1];
    const double speed = glm::length(world.state().velocity[1]);
    world.set_settings(s);
    CHECK(std::string(world.solver_info().id) == info.id);
    CHECK(world.state().position[1] == before);  // switching itself moves nothing
    world.step();
    // One step moves the bob by about |v| dt, not more: no jump.
    CHECK(glm::length(world.state().position[1] - before) < 1.5 * speed * s.dt + 1e-3);
  }
}

TEST_CASE("a redundant rod (braced square) is detected and the body stays rigid, with no NaN") {
  for (const char* solver : {"projection", "rattle", "acceleration"}) {
    CAPTURE(solver);
    World world = braced_square(solver);
    if (std::string(solver) == "acceleration") {
      Settings s = world.settings();
      s.baumgarte = 20.0;
      world.set_settings(s);
    }
    int dependent = 0;
    for (int i = 0; i < 480; ++i) {
      world.step();
      dependent = std::max(dependent, world.stats().dependent_rows);
    }
    CHECK(all_finite(world));
    CHECK(dependent >= 1);
    CHECK(world.max_violation(true) < (std::string(solver) == "acceleration" ? 1e-3 : 1e-9));
  }
}

TEST_CASE("a particle pinned twice at one point, and a closed loop of rods, stay finite and exact") {
  World world(2, settings_for("projection", 1.0 / 240.0, {0.0, -9.81, 0.0}));
  for (int i = 0; i < 6; ++i)
    world.add_particle({.position = {std::cos(i * M_PI / 3), 1.0 + std::sin(i * M_PI / 3), 0.0}, .mass = 1.0});
  for (int i = 0; i < 6; ++i) world.add_distance(i, (i + 1) % 6, -1.0);  // a closed hexagonal loop
  world.add_pin(0, world.state().position[0]);
  world.add_pin(0, world.state().position[0]);  // the same pin again: redundant
  for (int i = 0; i < 480; ++i) world.step();
  CHECK(all_finite(world));
  CHECK(world.stats().dependent_rows >= 2);
  CHECK(world.max_violation(true) < 1e-9);
  CHECK(world.stats().failures == 0);
}

TEST_CASE("a particle pinned at two different points is reported, never NaN") {
  World world(2, settings_for("projection", 1.0 / 240.0, {0.0, -9.81, 0.0}));
  world.add_particle({.position = {0.0, 0.0, 0.0}, .mass = 1.0});
  world.add_particle({.position = {1.0, 0.0, 0.0}, .mass = 1.0});
  world.add_distance(0, 1, -1.0);
  world.add_pin(0, {0.0, 0.0, 0.0});
  world.add_pin(0, {0.5, 0.0, 0.0});  // contradicts the first pin
  int failures = 0;
  for (int i = 0; i < 60; ++i) {
    world.step();
    failures += world.stats().failures;
  }
  CHECK(all_finite(world));
  CHECK(failures > 0);
  CHECK(world.max_violation() > 0.1);  // the contradiction is visible, not hidden
}

TEST_CASE("the engine refuses invalid particles and constraints with a clear error") {
  World world(2);
  CHECK_THROWS_WITH_AS(world.add_particle({.mass = 0.0}), doctest::Contains("mass"), Error);
  CHECK_THROWS_WITH_AS(world.add_particle({.position = {NAN, 0.0, 0.0}}), doctest::Contains("position"), Error);
  world.add_particle({});
  world.add_particle({.position = {1.0, 0.0, 0.0}});
  CHECK_THROWS_WITH_AS(world.add_distance(0, 5, 1.0), doctest::Contains("particle 5"), Error);
  CHECK_THROWS_WITH_AS(world.add_distance(1, 1, 1.0), doctest::Contains("twice"), Error);
  CHECK_THROWS_AS(world.add_distance(0, 1, 0.0), Error);
  CHECK(world.constraints().empty());  // nothing half-added
}

TEST_CASE("a chain hanging at rest: every solver's rod force is the weight below the rod (tension < 0)") {
  // Statics: link i (counted from the top) carries the n − i particles below it, T_i = (n − i) m g.
  const int n = 5;
  const double m = 0.5, g = 9.81;
  for (const SolverInfo& info : solver_table()) {
    CAPTURE(info.id);
    Settings s = settings_for(info.id, 1.0 / 240.0, {0.0, -g, 0.0});
    s.stiffness = 1e4;       // penalty: at rest a spring carries the same tension however much it stretches;
    s.spring_damping = 20;   // light damping lets it come to rest (explicit damping is stable while h c / m < 1)
    World world = lagrange::test::chain(s, n, 1.0, {0.0, -1.0, 0.0}, m);
    for (int step = 0; step < 240 * 10; ++step) world.step();  // 10 s: the penalty chain's slowest mode dies out
    for (int i = 0; i < n; ++i) CHECK(world.state().row_force[i] == doctest::Approx(-(n - i) * m * g).epsilon(1e-3));
  }
}

TEST_CASE("World::step calls its observer after every substep, with the substep's time") {
  Settings s = settings_for("projection", 0.01, {0.0, -9.81, 0.0});
  s.substeps = 4;
  World world = lagrange::test::simple_pendulum("projection", 0.5, 1.0, 0.01);
  world.set_settings(s);
  std::vector<double> times;
  world.step([&times](const World& w) { times.push_back(w.time()); });
  REQUIRE(times.size() == 4);
  for (int i = 0; i < 4; ++i) CHECK(times[i] == doctest::Approx(0.0025 * (i + 1)));
  CHECK(world.stats().substeps == 4);
}

TEST_CASE("time is steps times dt: computed not accumulated and moved on by a rolled-back step") {
  lagrange::test::TrapsOff traps;  // the overflow below is on purpose
  Settings s = settings_for("penalty", 0.01, {0.0, 0.0, 0.0});
  s.substeps = 8;
  World world(2, s);
  world.add_particle({.position = {0.0, 0.0, 0.0}, .fixed = true});
  // 1e-300 kg on a spring stretched by 0.5 m: the acceleration overflows in the first step.
  world.add_particle({.position = {1.5, 0.0, 0.0}, .mass = 1e-300});
  world.add_distance(0, 1, 1.0);
  const Vec3 start = world.state().position[1];
  world.step();
  CHECK(world.stats().non_finite);
  CHECK(world.state().position[1] == start);  // rolled back to the last finite state
  CHECK(world.step_count() == 1);
  CHECK(world.time() == 0.01);  // the step counts: t and step agree

  World pendulum = lagrange::test::simple_pendulum("projection", 0.3, 1.0, 0.1);
  for (int i = 0; i < 1000; ++i) pendulum.step();
  CHECK(pendulum.time() == 1000 * 0.1);  // 0.1 added 1000 times would be 99.9999999999986
  Settings half = pendulum.settings();
  half.dt = 0.05;
  pendulum.set_settings(half);
  for (int i = 0; i < 10; ++i) pendulum.step();
  CHECK(pendulum.time() == 1000 * 0.1 + 10 * 0.05);
}

TEST_CASE("posing a scene that has blown up leaves it where it is, with a finite energy") {
  // Penalty springs far too stiff for the step: the cloth runs away within a few steps (stretch ×10¹⁰ a step).
  Scene scene = load_scene_file(std::string(LAGRANGE_ASSETS_DIR) + "/hanging_cloth.json");
  scene.settings.solver = "penalty";
  scene.settings.stiffness = 1e9;
  World world = make_world(scene);
  while (world.max_violation(true) < 1e3 && world.step_count() < 200) world.step();
  REQUIRE(world.max_violation(true) >= 1e3);
  REQUIRE(std::isfinite(world.energy().total()));
  const std::vector<Vec3> before = world.state().position;
  const double violation = world.max_violation(true);
  world.pose();
  CHECK(std::isfinite(world.energy().total()));
  CHECK(std::isfinite(world.work().mouse));
  CHECK(world.max_violation(true) <= violation);  // never made worse
  for (const Vec3& v : world.state().velocity) CHECK(v == Vec3(0.0));  // at rest, as every pose leaves it
  if (world.max_violation(true) == violation) CHECK(world.state().position == before);
}

TEST_CASE("restore puts a saved state back: stats measured again, row forces fitted, t kept across a Δt change") {
  World world = lagrange::test::simple_pendulum("projection", 0.3, 1.0, 0.1);
  for (int i = 0; i < 10; ++i) world.step();
  const State saved = world.state();
  const double energy = world.stats().energy.total();
  World twin = world;  // the run that goes on from the saved state untouched
  for (int i = 0; i < 10; ++i) world.step();
  world.add_pin(1, world.state().position[1]);  // a row the saved state has no force for
  world.restore(saved);
  CHECK(world.state().position == saved.position);
  CHECK(world.state().velocity == saved.velocity);
  CHECK(world.time() == saved.time);
  CHECK(world.state().row_force.size() == world.model().rows().size());
  CHECK(world.state().row_force.back() == 0.0);
  CHECK(world.stats().energy.total() == energy);  // the saved state's, not the last step's
  world.remove_constraint(static_cast<int>(world.constraints().size()) - 1);
  world.step();
  twin.step();
  CHECK(world.state().position == twin.state().position);  // same clock, same bits
  CHECK(world.time() == twin.time());

  Settings half = world.settings();
  half.dt = 0.05;
  world.set_settings(half);
  world.restore(saved);
  world.step();
  CHECK(world.time() == saved.time + 0.05);  // the saved moment, then the Δt in force
  CHECK_THROWS_AS(world.restore(State{}), Error);
}
