// The line and plane kinds against closed-form motions, compliance read from scene files against the static
// stretch α m g, saved states: copies and written files that step on to the same bits, and the kinds' roles: what
// each promises, and a rod or pin found as one by the row system, the reach bounds and the period.
#include <doctest/doctest.h>

#include <cmath>
#include <iterator>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "lagrange/measure.h"
#include "lagrange/period.h"
#include "lagrange/scene.h"
#include "lagrange/solver.h"
#include "lagrange/text.h"
#include "solvers/row_system.h"
#include "test_util.h"

using namespace lagrange;

namespace {

World from_json(const std::string& json, const char* solver) {
  Scene scene = parse_scene(json, "test.json");
  scene.settings.solver = solver;
  return make_world(scene);
}

}  // namespace

TEST_CASE("a bead on an inclined wire accelerates at g cos(theta) along it, in every solver") {
  // The wire points 30 degrees below the horizontal: the angle θ between it and gravity is 60°, a = g cos θ = g/2.
  const double g = 9.81, phi = M_PI / 6.0, dt = 0.01;
  const Vec3 d(std::cos(phi), -std::sin(phi), 0.0);
  const std::string json = R"({"dimension": 2, "dt": 0.01, "substeps": 2, "gravity": [0, -9.81],
      "particles": [{"position": [0, 0], "mass": 0.3}],
      "constraints": [{"type": "line", "particle": 0, "direction": [)" +
                           format_number(d.x) + ", " + format_number(d.y) + "]}]}";
  const double a = g * glm::dot(Vec3(0.0, -1.0, 0.0), d);  // g cos θ
  CHECK(a == doctest::Approx(g / 2.0).epsilon(1e-15));
  for (const SolverInfo& info : solver_table()) {
    CAPTURE(info.id);
    World world = from_json(json, info.id);
    const int steps = 150;
    for (int s = 0; s < steps; ++s) world.step();
    const double t = steps * dt, h = dt / 2.0;
    const Vec3 v = world.state().velocity[0], x = world.state().position[0];
    // Every solver's constraint force acts across the wire only, so the speed along it is exactly a t.
    CHECK(glm::dot(v, d) == doctest::Approx(a * t).epsilon(1e-12));
    // Distance along it: ½ a t², plus at most the first-order ½ a h t of semi-implicit Euler.
    CHECK(std::abs(glm::dot(x, d) - 0.5 * a * t * t) <= 0.5 * a * h * t * (1.0 + 1e-9) + 1e-12);
    if (!info.rods_are_springs) CHECK(std::abs(glm::dot(x, Vec3(-d.y, d.x, 0.0))) < 1e-12);  // on the wire
  }
}

TEST_CASE("a particle kept in a tilted plane moves with the in-plane part of gravity, in every solver") {
  const Vec3 n = glm::normalize(Vec3(0.3, 1.0, -0.2)), g(0.0, -9.81, 0.0), v0(0.5, -0.15 + 0.0, 0.0);
  const Vec3 v_in = v0 - glm::dot(v0, n) * n;  // start moving within the plane
  const std::string json = R"({"dimension": 3, "dt": 0.005, "gravity": [0, -9.81, 0],
      "particles": [{"position": [0, 0, 0], "mass": 2, "velocity": [)" +
                           format_number(v_in.x) + ", " + format_number(v_in.y) + ", " + format_number(v_in.z) +
                           R"(]}], "constraints": [{"type": "plane", "particle": 0, "normal": [0.3, 1, -0.2]}]})";
  const Vec3 g_in = g - glm::dot(g, n) * n;
  for (const SolverInfo& info : solver_table()) {
    CAPTURE(info.id);
    World world = from_json(json, info.id);
    for (int s = 0; s < 200; ++s) world.step();
    const Vec3 expected = v_in + g_in * world.time();
    const Vec3 v = world.state().velocity[0];
    // In the plane: exact. Across it: nothing for the constraint solvers; penalty's spring oscillates a little.
    CHECK(glm::length((v - glm::dot(v, n) * n) - expected) < 1e-11);
    if (!info.rods_are_springs) {
      CHECK(std::abs(glm::dot(v, n)) < 1e-12);
      CHECK(std::abs(glm::dot(world.state().position[0], n)) < 1e-12);
    }
  }
}

TEST_CASE("the cart-pendulum: small oscillations at omega^2 = g (M + m) / (M L), horizontal momentum conserved") {
  // A cart of mass M slides on a horizontal wire; a bob of mass m hangs from it on a rod of length L.
  const double M = 2.0, m = 0.5, L = 0.8, g = 9.81, theta0 = 0.02;
  const std::string json = R"({"dimension": 2, "dt": 0.001, "gravity": [0, -9.81],
      "particles": [{"position": [0, 0], "mass": 2},
                    {"position": [)" + format_number(L * std::sin(theta0)) + ", " +
                           format_number(-L * std::cos(theta0)) + R"(], "mass": 0.5}],
      "constraints": [{"type": "line", "particle": 0, "direction": [1, 0]},
                      {"type": "distance", "particles": [0, 1]}]})";
  const double period = 2.0 * M_PI / std::sqrt(g * (M + m) / (M * L));
  for (const char* solver : {"projection", "rattle", "shake"}) {
    CAPTURE(solver);
    World world = from_json(json, solver);
    // Upward crossings of the angle's zero, interpolated within the step.
    std::vector<double> crossings;
    double previous = theta0, worst_momentum = 0.0;
    while (world.time() < 5.5 * period) {
      world.step();
      const Vec3 r = world.state().position[1] - world.state().position[0];
      const double angle = std::atan2(r.x, -r.y);
      if (previous < 0.0 && angle >= 0.0)
        crossings.push_back(world.time() - world.settings().dt * angle / (angle - previous));
      previous = angle;
      const double p = M * world.state().velocity[0].x + m * world.state().velocity[1].x;
      worst_momentum = std::max(worst_momentum, std::abs(p));
    }
    REQUIRE(crossings.size() >= 4);
    const double measured = (crossings.back() - crossings.front()) / static_cast<double>(crossings.size() - 1);
    // The small-angle formula holds to O(θ0²) ≈ 1e-4 here, the integration to O((ωh)²).
    CHECK(measured == doctest::Approx(period).epsilon(5e-4));
    CHECK(worst_momentum < 1e-10);  // the wire pushes only vertically and the rod's force is internal
  }
}

TEST_CASE("a compliant rod read from a scene file stretches by alpha m g under its bob, in every solver") {
  const double alpha = 2e-3, m = 1.5, g = 9.81;
  const double beta = 2.0 * std::sqrt(m / alpha);  // critically damped
  const std::string json = R"({"dimension": 2, "dt": 0.01, "substeps": 2, "gravity": [0, -9.81],
      "particles": [{"position": [0, 0], "fixed": true}, {"position": [0, -1], "mass": 1.5}],
      "constraints": [{"type": "distance", "particles": [0, 1], "length": 1, "compliance": 0.002, "damping": )" +
                           format_number(beta) + "}]}";
  for (const SolverInfo& info : solver_table()) {
    CAPTURE(info.id);
    World world = from_json(json, info.id);
    REQUIRE(world.constraint(0).compliance() == alpha);
    for (int s = 0; s < 500; ++s) world.step();
    CHECK(-world.state().position[1].y - 1.0 == doctest::Approx(alpha * m * g).epsilon(1e-6));
  }
}

TEST_CASE("compliance in a scene file: checked, written back, and 0 means the same bits as none") {
  const std::string base = R"({"dimension": 2, "particles": [{"position": [0, 0], "fixed": true},
      {"position": [1, 0]}], "constraints": [{"type": "distance", "particles": [0, 1])";
  CHECK_THROWS_WITH_AS(parse_scene(base + R"(, "compliance": -1}]})", "c.json"),
                       doctest::Contains("c.json: constraints[0].compliance: must be a number >= 0"), SceneError);
  CHECK_THROWS_WITH_AS(parse_scene(base + R"(, "compliance": "soft"}]})", "c.json"),
                       doctest::Contains("constraints[0].compliance: must be a number"), SceneError);
  // So small that the stiffness 1/α would overflow to infinity.
  CHECK_THROWS_WITH_AS(parse_scene(base + R"(, "compliance": 1e-320}]})", "c.json"),
                       doctest::Contains("constraints[0].compliance: must be 0 (rigid) or at least 1e-300"), SceneError);
  CHECK_THROWS_WITH_AS(parse_scene(base + R"(}], "state": {"time": -5}})", "c.json"),
                       doctest::Contains("c.json: state.time: must be a time of 0 s or more"), SceneError);
  CHECK_THROWS_WITH_AS(parse_scene(base + R"(}], "state": {"step": 3, "clock": {"time": 0, "step": 4}}})", "c.json"),
                       doctest::Contains("c.json: state.clock.step: must not be later than state.step"), SceneError);
  for (const char* lost : {"-1", "2.5", "1e10", "\"many\""})
    CHECK_THROWS_WITH_AS(parse_scene(base + R"(}], "state": {"newton_lost": )" + lost + "}}", "c.json"),
                         doctest::Contains("c.json: state.newton_lost: must be"), SceneError);
  CHECK(parse_scene(base + R"(}], "state": {"newton_lost": 5}})", "c.json").state->newton_lost == 5);
  World rigid = from_json(base + "}]}", "projection");
  World zero = from_json(base + R"(, "compliance": 0}]})", "projection");
  for (int s = 0; s < 50; ++s) {
    rigid.step();
    zero.step();
  }
  CHECK(rigid.state().position == zero.state().position);
  const std::string written = write_scene(scene_of(from_json(base + R"(, "compliance": 0.25, "damping": 3}]})",
                                                             "projection")));
  const Scene again = parse_scene(written, "written.json");
  CHECK(again.constraints[0].compliance == 0.25);
  CHECK(again.constraints[0].damping == 3.0);
}

TEST_CASE("a copied state or world steps to the same bits as the original") {
  World world = make_world(load_scene_file(std::string(LAGRANGE_ASSETS_DIR) + "/triple_pendulum.json"));
  for (int s = 0; s < 40; ++s) world.step();
  World copy = world;                        // model, state and a solver of its own
  World lane(world.model(), world.state());  // the same from a model and a state
  const State saved = world.state();
  for (int s = 0; s < 60; ++s) {
    world.step();
    copy.step();
    lane.step();
  }
  CHECK(copy.state().position == world.state().position);
  CHECK(copy.state().velocity == world.state().velocity);
  CHECK(lane.state().position == world.state().position);
  CHECK(lane.state().row_force == world.state().row_force);
  CHECK(lane.time() == world.time());
  // Back to the saved state: the same 60 steps again.
  World replay(world.model(), saved);
  for (int s = 0; s < 60; ++s) replay.step();
  CHECK(replay.state().position == world.state().position);
  CHECK(replay.state().velocity == world.state().velocity);
  CHECK_THROWS_AS(World(world.model(), State{}), Error);  // a state of another size
}

TEST_CASE("every shipped scene, written after some steps, reads back to the same bits and steps on identically") {
  for (const SolverInfo& info : solver_table()) {
    for (const char* name : {"double_pendulum.json", "rope_bridge.json", "tetrahedron.json", "spherical_pendulum.json"}) {
      CAPTURE(info.id);
      CAPTURE(name);
      Scene scene = load_scene_file(std::string(LAGRANGE_ASSETS_DIR) + "/" + name);
      scene.settings.solver = info.id;
      World world = make_world(scene);
      for (int s = 0; s < 25; ++s) world.step();
      const Scene saved = parse_scene(write_scene(scene_of(world, &scene)), "saved.json");
      World loaded = make_world(saved);
      CHECK(saved.name == scene.name);
      CHECK(loaded.state().position == world.state().position);
      CHECK(loaded.state().velocity == world.state().velocity);
      CHECK(loaded.state().row_force == world.state().row_force);
      CHECK(loaded.time() == world.time());
      CHECK(loaded.step_count() == world.step_count());
      CHECK(loaded.settings().dt == world.settings().dt);
      CHECK(loaded.settings().gravity == world.settings().gravity);
      for (int s = 0; s < 25; ++s) {
        world.step();
        loaded.step();
      }
      CHECK(loaded.state().position == world.state().position);
      CHECK(loaded.state().velocity == world.state().velocity);
      CHECK(loaded.time() == world.time());
    }
  }
}

TEST_CASE("negative zero and awkward numbers survive writing and reading") {
  Scene scene;
  scene.name = "zeros \"quoted\"\n";
  scene.dimension = 3;
  scene.particles.push_back({.position = {-0.0, 0.1, 1e-300}, .velocity = {-0.0, 0.0, 5e-324}, .mass = 1.0 / 3.0});
  scene.particles.push_back({.position = {1.0, -2.0 / 3.0, 0.0}, .fixed = true});
  ConstraintDef rod;
  rod.particles = {0, 1};
  rod.set("length", std::sqrt(2.0));
  scene.constraints.push_back(rod);
  const World world = make_world(scene);
  const Scene back = parse_scene(write_scene(scene_of(world, &scene)), "zeros.json");
  CHECK(back.name == scene.name);
  CHECK(std::signbit(back.particles[0].position.x));
  CHECK(std::signbit(back.particles[0].velocity.x));
  CHECK(back.particles[0].position.z == 1e-300);
  CHECK(back.particles[0].velocity.z == 5e-324);
  CHECK(back.particles[0].mass == 1.0 / 3.0);
  CHECK(back.particles[1].position.y == -2.0 / 3.0);
  CHECK(back.constraints[0].number("length") == std::sqrt(2.0));
}

TEST_CASE("every kind's role agrees with its arity and rows, each role is one kind's, and what it builds says so") {
  // What each role means, written out here: the particles it joins and its rows in 2D and in 3D.
  struct Meaning {
    KindRole role;
    const char* name;  // as scene files write it (docs/scenes.md)
    int arity, rows_2d, rows_3d;
  };
  const Meaning meanings[] = {{KindRole::Rod, "distance", 2, 1, 1},
                              {KindRole::Pin, "pin", 1, 2, 3},
                              {KindRole::Line, "line", 1, 1, 2},
                              {KindRole::Plane, "plane", 1, 1, 1}};
  // Every kind with a role is listed here; a kind nobody outside the solvers asks about may be Other.
  std::size_t named = 0;
  for (const ConstraintKind& kind : constraint_kinds()) named += kind.role != KindRole::Other ? 1 : 0;
  CHECK(named == std::size(meanings));
  const std::vector<ParticleDef> particles = {{.position = {0.5, -1.0, 2.0}}, {.position = {1.5, 1.0, 4.0}}};
  for (const Meaning& m : meanings) {
    CAPTURE(m.name);
    int owners = 0;
    for (const ConstraintKind& kind : constraint_kinds()) owners += kind.role == m.role ? 1 : 0;
    CHECK(owners == 1);
    const ConstraintKind& kind = kind_of(m.role);
    CHECK(kind.role == m.role);
    CHECK(std::string(kind_name(m.role)) == m.name);
    CHECK(find_kind(m.name) == &kind);
    CHECK(kind.arity == m.arity);
    CHECK(kind.rows(2) == m.rows_2d);
    CHECK(kind.rows(3) == m.rows_3d);

    ConstraintDef def;
    def.type = kind_name(m.role);
    def.particles = m.arity == 2 ? std::vector<int>{0, 1} : std::vector<int>{0};
    if (m.role == KindRole::Line) def.set("direction", Vec3(0.0, 0.0, 2.0));
    if (m.role == KindRole::Plane) def.set("normal", Vec3(0.0, 3.0, 0.0));
    REQUIRE_FALSE(constraint_problem(def, particles, 3));
    CHECK(has_role(def, m.role));
    const std::unique_ptr<Constraint> built = kind.create(def, particles, 3);
    CHECK(&built->kind() == &kind);
    CHECK(has_role(*built, m.role));
    CHECK(has_role(built->definition(), m.role));
    CHECK(built->particles().size() == static_cast<std::size_t>(m.arity));
    CHECK(built->rows() == m.rows_3d);
    // What the roles promise beyond the rows: a rod's length (here |(1, 2, 2)| = 3), a pin's movable point.
    if (m.role == KindRole::Rod) {
      CHECK(built->length() == 3.0);
    } else {
      CHECK_THROWS_AS(built->length(), std::logic_error);
    }
    if (m.role == KindRole::Pin) {
      CHECK(built->point() == particles[0].position);  // no "point": where the particle starts
      built->set_point(Vec3(1.0, 2.0, 3.0));
      const std::vector<Vec3> x = {Vec3(1.5, 2.5, 2.0), Vec3(0.0)};
      CHECK(built->value(0, x) == 0.5);
      CHECK(built->value(1, x) == 0.5);
      CHECK(built->value(2, x) == -1.0);
    } else {
      CHECK_THROWS_AS(built->point(), std::logic_error);
      CHECK_THROWS_AS(built->set_point(Vec3(0.0)), std::logic_error);
    }
  }
  ConstraintDef unknown;
  unknown.type = "spring";
  for (const Meaning& m : meanings) CHECK_FALSE(has_role(unknown, m.role));
  CHECK(ConstraintDef{}.type == "distance");  // a definition is a rod unless it says otherwise
}

TEST_CASE("a rod is found as a rod: the row system packs it, the reach bounds swing about its anchor, the period") {
  SUBCASE("the row system: a chain of rods runs the chain kernel, a chain ending in a plane row does not") {
    Scene scene;
    scene.dimension = 2;
    scene.settings = test::settings_for("projection", 0.01);
    ChainDef chain;
    chain.links = 4;
    chain.link_length = 0.5;
    append_chain(scene, chain);
    const World rods = make_world(scene);
    // Three links and a plane on the last particle: rows coupled as the four links are (a path, so a bidiagonal
    // factor), which leaves the plane not being a rod as the one reason for no kernel.
    chain.links = 3;
    scene.particles.clear();
    scene.constraints.clear();
    append_chain(scene, chain);
    ConstraintDef plane;
    plane.type = "plane";
    plane.particles = {3};
    plane.set("normal", Vec3(0.0, 1.0, 0.0));
    scene.constraints.push_back(plane);
    const World mixed = make_world(scene);
    RowSystem rod_system(make_sparse_ldlt_solver()), mixed_system(make_sparse_ldlt_solver());
    rod_system.prepare(rods.model());
    mixed_system.prepare(mixed.model());
    CHECK(rod_system.chain_kernel());
    CHECK_FALSE(mixed_system.chain_kernel());
    // The packed rods hold their ends and lengths: C = |x_a − x_b| − 0.5 away from the rest positions.
    std::vector<Vec3> x = mixed.state().position;
    x[1] += Vec3(0.0, -0.1, 0.0);
    x[3] += Vec3(0.2, 0.3, 0.0);
    std::vector<double> c;
    mixed_system.values(mixed.model(), x, c);
    REQUIRE(c.size() == 4);
    for (int k = 0; k < 3; ++k) CHECK(c[k] == doctest::Approx(glm::length(x[k + 1] - x[k]) - 0.5).epsilon(1e-15));
    CHECK(c[3] == doctest::Approx(0.3).epsilon(1e-15));  // the plane y = 0 through the last particle's start
  }

  SUBCASE("the reach bounds: a bob swings on its rod about a fixed, pinned or wired pivot, not about a free one") {
    // A pivot at the origin, a bob 2 m below it: in 2D the box holds the whole circle of radius 2 about the pivot.
    for (const std::string holder : {"fixed", "pin", "line", "nothing"}) {
      CAPTURE(holder);
      Scene scene;
      scene.dimension = 2;
      scene.settings = test::settings_for("projection", 0.01);
      scene.particles.push_back({.position = {0.0, 0.0, 0.0}, .fixed = holder == "fixed"});
      scene.particles.push_back({.position = {0.0, -2.0, 0.0}});
      ConstraintDef rod;
      rod.particles = {0, 1};
      scene.constraints.push_back(rod);
      if (holder == "pin" || holder == "line") {
        ConstraintDef held;
        held.type = holder;
        held.particles = {0};
        if (holder == "line") held.set("direction", Vec3(1.0, 0.0, 0.0));
        scene.constraints.push_back(held);
      }
      const World world = make_world(scene);
      Vec3 lo, hi;
      reach_bounds(world.model(), world.state(), lo, hi);
      if (holder == "nothing") {  // no anchor: only where the particles are
        CHECK(lo == Vec3(0.0, -2.0, 0.0));
        CHECK(hi == Vec3(0.0, 0.0, 0.0));
      } else {
        CHECK(lo == Vec3(-2.0, -2.0, 0.0));
        CHECK(hi == Vec3(2.0, 2.0, 0.0));
      }
    }
  }

  SUBCASE("the period: a rod from a pinned pivot is a simple pendulum, from a pivot on a wire it is not") {
    const double g = 9.81, length = 1.3, theta = 0.4;
    for (bool pinned : {true, false}) {
      CAPTURE(pinned);
      Scene scene;
      scene.dimension = 2;
      scene.settings = test::settings_for("projection", 0.01, {0.0, -g, 0.0});
      scene.particles.push_back({.position = {0.0, 0.0, 0.0}, .mass = 1.0});
      scene.particles.push_back(
          {.position = {length * std::sin(theta), -length * std::cos(theta), 0.0}, .mass = 1.0});
      ConstraintDef rod;
      rod.particles = {0, 1};
      scene.constraints.push_back(rod);
      ConstraintDef holder;
      holder.type = pinned ? "pin" : "line";
      holder.particles = {0};
      if (!pinned) holder.set("direction", Vec3(1.0, 0.0, 0.0));
      scene.constraints.push_back(holder);
      const World world = make_world(scene);
      const auto period = simple_pendulum_period(world.model(), world.state(), 1);
      if (pinned) {
        REQUIRE(period);
        CHECK(period->length == doctest::Approx(length).epsilon(1e-15));
        CHECK(period->amplitude == doctest::Approx(theta).epsilon(1e-12));
        CHECK(period->small_angle == doctest::Approx(2.0 * M_PI * std::sqrt(length / g)).epsilon(1e-15));
      } else {
        CHECK_FALSE(period);  // the cart moves: the pivot is not anchored
      }
    }
  }
}

TEST_CASE("one constraint's force alone: a pin holding a hanging pendulum at rest pulls up with the weight of both") {
  // A 1 kg particle pinned at the origin, a 2 kg bob hanging 1 m below it on a rod, at rest: the pin carries both,
  // (0, 3 g); the rod pulls the pivot down with the bob's weight, (0, −2 g); together the pivot's net constraint force
  // balances its own weight, (0, g).
  const double g = 9.81;
  for (const char* solver : {"projection", "shake", "rattle", "acceleration"}) {
    CAPTURE(std::string(solver));
    World world(2, lagrange::test::settings_for(solver, 1.0 / 240.0, {0.0, -g, 0.0}));
    world.add_particle({.position = {0.0, 0.0, 0.0}, .mass = 1.0});
    world.add_particle({.position = {0.0, -1.0, 0.0}, .mass = 2.0});
    const int pin = world.add_pin(0, {0.0, 0.0, 0.0});
    const int rod = world.add_distance(0, 1, -1.0);
    for (int s = 0; s < 10; ++s) world.step();
    const Vec3 held = constraint_force(world.model(), world.state(), 0, pin);
    const Vec3 pulled = constraint_force(world.model(), world.state(), 0, rod);
    CHECK(held.x == doctest::Approx(0.0).scale(g));
    // SHAKE's forces are its position stage's multipliers over h², within about 1e-6 of the statics at rest.
    CHECK(held.y == doctest::Approx(3.0 * g).epsilon(1e-5));
    CHECK(pulled.y == doctest::Approx(-2.0 * g).epsilon(1e-5));
    CHECK(constraint_force(world.model(), world.state(), 0).y == doctest::Approx(g).epsilon(1e-5));
  }
}
