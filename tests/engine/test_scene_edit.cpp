// Scene editing (engine/src/scene/scene_edit.cpp): scenes built by the editor's operations against worlds built directly,
// angles against atan2, angular velocities against finite differences of the angle, renumbering against positions,
// and validation against the loader's messages.
#include <doctest/doctest.h>

#include <cmath>
#include <numbers>
#include <string>

#include "lagrange/measure.h"
#include "lagrange/scene_edit.h"
#include "test_util.h"

using namespace lagrange;

namespace {

constexpr double kPi = std::numbers::pi;

// A double pendulum built with the editor's operations, as a teacher would: a fixed pivot, two bobs, two rods.
Scene edited_double_pendulum() {
  Scene scene;
  scene.name = "Built in the editor";
  scene.dimension = 2;
  const int pivot = edit::add_particle(scene, {0.0, 0.0, 0.0});
  const int a = edit::add_particle(scene, {1.0, 0.0, 0.0});
  const int b = edit::add_particle(scene, {2.0, -0.5, 0.0}, 2.0);
  edit::set_fixed(scene, pivot, true);
  CHECK(edit::add_rod(scene, pivot, a) == 0);
  CHECK(edit::add_rod(scene, b, a) == 1);  // drawn from the outer bob inwards
  return scene;
}

double angle_of(Vec3 pivot, Vec3 end) { return std::atan2(end.x - pivot.x, -(end.y - pivot.y)); }

}  // namespace

TEST_CASE("a double pendulum built with the editor's operations steps bit for bit as one built directly") {
  Scene scene = edited_double_pendulum();
  scene.settings = test::settings_for("projection", 0.002, {0.0, -9.81, 0.0});
  CHECK(edit::scene_problem(scene, "editor.json") == "");
  // Saved and opened again: the same scene, so the same run.
  const Scene reread = parse_scene(write_scene(scene), "editor.json");
  CHECK(write_scene(reread) == write_scene(scene));
  World edited = make_world(reread);

  World direct(2, test::settings_for("projection", 0.002, {0.0, -9.81, 0.0}));
  direct.add_particle({.position = {0.0, 0.0, 0.0}, .fixed = true});
  direct.add_particle({.position = {1.0, 0.0, 0.0}, .mass = 1.0});
  direct.add_particle({.position = {2.0, -0.5, 0.0}, .mass = 2.0});
  direct.add_distance(0, 1, 1.0);
  direct.add_distance(2, 1, std::sqrt(1.25));
  for (int i = 0; i < 500; ++i) {
    edited.step();
    direct.step();
  }
  for (int p = 0; p < 3; ++p) {
    CHECK(edited.state().position[p] == direct.state().position[p]);
    CHECK(edited.state().velocity[p] == direct.state().velocity[p]);
  }
}

TEST_CASE("a rod's angle is measured from straight down and setting it moves what hangs beyond, rods kept") {
  Scene scene = edited_double_pendulum();
  const auto frame = edit::rod_frame(scene, 1);
  REQUIRE(frame);
  CHECK(frame->pivot == 1);  // the inner bob: one hop from the fixed pivot
  CHECK(frame->end == 2);
  CHECK(frame->angle == doctest::Approx(std::atan2(1.0, 0.5)));
  const double outer_before = angle_of(scene.particles[1].position, scene.particles[2].position);

  edit::set_rod_angle(scene, 0, kPi / 6.0);
  const Vec3 p0 = scene.particles[0].position, p1 = scene.particles[1].position, p2 = scene.particles[2].position;
  CHECK(angle_of(p0, p1) == doctest::Approx(kPi / 6.0).epsilon(1e-12));
  CHECK(glm::length(p1 - p0) == doctest::Approx(1.0).epsilon(1e-12));
  CHECK(glm::length(p2 - p1) == doctest::Approx(std::sqrt(1.25)).epsilon(1e-12));
  CHECK(angle_of(p1, p2) == doctest::Approx(outer_before).epsilon(1e-12));  // the outer rod's own angle kept
  CHECK(edit::rod_frame(scene, 0)->angle == doctest::Approx(kPi / 6.0));

  edit::set_rod_length(scene, 0, 1.5);
  CHECK(glm::length(scene.particles[1].position - p0) == doctest::Approx(1.5).epsilon(1e-12));
  CHECK(angle_of(p0, scene.particles[1].position) == doctest::Approx(kPi / 6.0).epsilon(1e-12));
  CHECK(glm::length(scene.particles[2].position - scene.particles[1].position) ==
        doctest::Approx(std::sqrt(1.25)).epsilon(1e-12));
}

TEST_CASE("a rod's angular velocity is dθ/dt: the angle's finite difference along the velocities it sets") {
  Scene scene = edited_double_pendulum();
  edit::set_rod_angle(scene, 0, 0.4);
  edit::set_rod_angular_velocity(scene, 1, -0.7);  // the outer rod first: its own rate
  edit::set_rod_angular_velocity(scene, 0, 1.3);   // then the inner one, carrying the outer bob along
  const double h = 1e-7;
  const auto theta_after = [&](int a, int b, double t) {
    const Vec3 xa = scene.particles[a].position + t * scene.particles[a].velocity;
    const Vec3 xb = scene.particles[b].position + t * scene.particles[b].velocity;
    return angle_of(xa, xb);
  };
  const double inner = (theta_after(0, 1, h) - theta_after(0, 1, -h)) / (2 * h);
  const double outer = (theta_after(1, 2, h) - theta_after(1, 2, -h)) / (2 * h);
  CHECK(inner == doctest::Approx(1.3).epsilon(1e-6));
  CHECK(outer == doctest::Approx(-0.7).epsilon(1e-6));
  // No radial part: the rods' lengths do not change to first order.
  for (auto [a, b] : {std::pair{0, 1}, std::pair{1, 2}}) {
    const Vec3 r = scene.particles[b].position - scene.particles[a].position;
    const Vec3 v = scene.particles[b].velocity - scene.particles[a].velocity;
    CHECK(std::abs(glm::dot(r, v)) < 1e-12);
  }
  CHECK(edit::rod_frame(scene, 0)->angular_velocity == doctest::Approx(1.3));
}

TEST_CASE("in a closed loop only the rod end moves, and a lone rod pivots about its first particle") {
  Scene triangle;
  const int a = edit::add_particle(triangle, {0.0, 0.0, 0.0}, 1.0, true);
  const int b = edit::add_particle(triangle, {1.0, 0.0, 0.0});
  const int c = edit::add_particle(triangle, {0.5, -1.0, 0.0});
  edit::add_rod(triangle, a, b);
  edit::add_rod(triangle, b, c);
  const int ca = edit::add_rod(triangle, c, a);
  CHECK(edit::beyond(triangle, ca) == std::vector<int>{c});
  Scene lone;
  edit::add_particle(lone, {0.0, 1.0, 0.0});
  edit::add_particle(lone, {0.0, 0.0, 0.0});
  edit::add_rod(lone, 0, 1);
  CHECK(edit::rod_frame(lone, 0)->pivot == 0);
  CHECK(edit::rod_frame(lone, 0)->angle == doctest::Approx(0.0));
  CHECK(edit::add_rod(lone, 1, 0) == -1);
  CHECK(edit::add_rod(lone, 1, 1) == -1);
}

TEST_CASE("removing particles drops their constraints and renumbers the rest to the same particles") {
  Scene scene;
  for (int i = 0; i < 5; ++i) edit::add_particle(scene, {double(i), 0.0, 0.0});
  edit::add_rod(scene, 0, 1);
  edit::add_rod(scene, 1, 2);
  edit::add_rod(scene, 3, 4);
  edit::add_rod(scene, 0, 4);
  edit::set_pinned(scene, 3, true);
  const int gone[] = {1, 1, 2};
  edit::remove_particles(scene, gone);
  REQUIRE(scene.particles.size() == 3);
  REQUIRE(scene.constraints.size() == 3);
  // Every surviving constraint still joins the particles at the same places.
  const auto x = [&](int p) { return scene.particles[static_cast<std::size_t>(p)].position.x; };
  CHECK(x(scene.constraints[0].particles[0]) == 3.0);
  CHECK(x(scene.constraints[0].particles[1]) == 4.0);
  CHECK(x(scene.constraints[1].particles[0]) == 0.0);
  CHECK(x(scene.constraints[1].particles[1]) == 4.0);
  CHECK(scene.constraints[2].type == "pin");
  CHECK(x(scene.constraints[2].particles[0]) == 3.0);
  CHECK(edit::scene_problem(scene, "e.json") == "");
}

TEST_CASE("moving particles: rods with a length and pins with a point follow, a bead stays on its wire") {
  Scene scene;
  edit::add_particle(scene, {0.0, 0.0, 0.0});
  edit::add_particle(scene, {3.0, 4.0, 0.0});
  edit::add_rod(scene, 0, 1);
  scene.constraints[0].set("length", 5.0);
  edit::set_pinned(scene, 0, true);
  scene.constraints[1].set("point", Vec3(0.0, 0.0, 0.0));
  const int one[] = {0};
  edit::move_particles(scene, one, {1.0, 0.0, 0.0});
  CHECK(scene.constraints[0].number("length") == doctest::Approx(std::sqrt(4.0 + 16.0)));
  CHECK(scene.constraints[1].vector("point") == Vec3(1.0, 0.0, 0.0));
  CHECK(edit::scene_problem(scene, "e.json") == "");

  Scene bead;
  edit::add_particle(bead, {0.0, 0.0, 0.0});
  ConstraintDef wire;
  wire.type = "line";
  wire.particles = {0};
  wire.set("direction", Vec3(1.0, 1.0, 0.0));
  wire.set("point", Vec3(0.0, 0.0, 0.0));
  bead.constraints.push_back(wire);
  edit::set_position(bead, 0, {2.0, 0.0, 0.0});
  // The foot of the perpendicular from (2, 0) on the line y = x.
  CHECK(bead.particles[0].position.x == doctest::Approx(1.0));
  CHECK(bead.particles[0].position.y == doctest::Approx(1.0));
}

TEST_CASE("fixing drops a particle's pin and pinning frees it") {
  Scene scene;
  edit::add_particle(scene, {0.0, 0.0, 0.0});
  edit::add_particle(scene, {1.0, 0.0, 0.0});
  edit::add_rod(scene, 0, 1);
  edit::set_pinned(scene, 0, true);
  CHECK(edit::pin_of(scene, 0) == 1);
  edit::set_fixed(scene, 0, true);
  CHECK(edit::pin_of(scene, 0) == -1);
  CHECK(scene.particles[0].fixed);
  edit::set_pinned(scene, 0, true);
  CHECK(!scene.particles[0].fixed);
  CHECK(edit::pin_of(scene, 0) >= 0);
  CHECK(edit::scene_problem(scene, "e.json") == "");
}

TEST_CASE("an invalid edit is reported with the loader's message, and the displayable copy leaves it out") {
  Scene scene;
  edit::add_particle(scene, {0.0, 0.0, 0.0}, 1.0, true);
  edit::add_particle(scene, {1.0, 0.0, 0.0}, 1.0, true);
  edit::add_particle(scene, {1.0, -1.0, 0.0}, 0.0);
  edit::add_rod(scene, 0, 1);
  edit::add_rod(scene, 1, 2);
  const std::string problem = edit::scene_problem(scene, "lesson.json");
  // The file name, the JSON path of the first problem, and what is wrong.
  CHECK(problem.rfind("lesson.json: particles[2].mass: must be a positive number", 0) == 0);
  scene.particles[2].mass = 0.5;
  const std::string rod = edit::scene_problem(scene, "lesson.json");
  CHECK(rod.rfind("lesson.json: constraints[0]", 0) == 0);
  CHECK(rod.find("fixed") != std::string::npos);

  std::vector<int> dropped;
  scene.particles[2].mass = -1.0;
  const Scene shown = edit::displayable(scene, &dropped);
  CHECK(dropped == std::vector<int>{0});
  CHECK(shown.constraints.size() == 1);
  CHECK_NOTHROW((void)make_world(shown));
  Scene empty;
  CHECK(edit::scene_problem(empty, "new.json").find("at least one particle") != std::string::npos);
}

TEST_CASE("obstacles added by the editor's operations are written and read back, and a ball rests on the floor added") {
  Scene scene;
  scene.name = "A ball over a floor, a peg beside";
  scene.dimension = 2;
  const int ball = edit::add_particle(scene, Vec3(0.0, 1.0, 0.0), 2.0);
  scene.particles[static_cast<std::size_t>(ball)].radius = 0.2;
  Obstacle floor;
  floor.point = Vec3(0.0, -0.5, 0.0);
  floor.normal = Vec3(0.0, 1.0, 0.0);
  Obstacle peg;
  peg.shape = ObstacleShape::Sphere;
  peg.center = Vec3(3.0, 0.0, 0.0);
  peg.radius = 0.25;
  CHECK(edit::add_obstacle(scene, floor) == 0);
  CHECK(edit::add_obstacle(scene, peg) == 1);
  CHECK(edit::scene_problem(scene, "edited.json") == "");
  const Scene reread = parse_scene(write_scene(scene), "edited.json");
  REQUIRE(reread.contacts.obstacles.size() == 2);
  CHECK(reread.contacts.obstacles[1].radius == 0.25);
  CHECK(write_scene(reread) == write_scene(scene));
  // Played: the ball falls 1.5 m - 0.2 m onto the floor and rests with its centre one radius above it, pressing m g.
  World world = make_world(reread);
  for (int k = 0; k < 240; ++k) world.step();
  CHECK(world.state().position[0].y == doctest::Approx(-0.5 + 0.2).epsilon(1e-6));
  CHECK(-obstacle_force(world.state(), 0).y == doctest::Approx(2.0 * 9.81).epsilon(1e-6));
  // Removing the floor renumbers the peg, and a saved state's contacts follow it.
  Scene saved = scene_of(world, &reread);
  REQUIRE(saved.state.has_value());
  Contact on_peg;
  on_peg.particle = 0;
  on_peg.obstacle = 1;
  saved.state->contacts.push_back(on_peg);
  edit::remove_obstacle(saved, 0);
  REQUIRE(saved.contacts.obstacles.size() == 1);
  CHECK(saved.contacts.obstacles[0].shape == ObstacleShape::Sphere);
  for (const Contact& c : saved.state->contacts) CHECK(c.obstacle == 0);
}
