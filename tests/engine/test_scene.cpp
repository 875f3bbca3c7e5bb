// Scene files (engine/src/scene.cpp): what a file loads to, checked against the values written in it or worked
// out by hand; every shipped asset; and one test per class of bad input, checking "FILE: JSON.PATH: PROBLEM".
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <set>
#include <string>
#include <string_view>

#include "lagrange/builders.h"
#include "lagrange/scene.h"

using namespace lagrange;

namespace {

// The message of the SceneError that parsing `json` throws, or "(no error)".
std::string error_of(std::string_view json, const std::string& file = "bad.json") {
  try {
    parse_scene(json, file);
  } catch (const SceneError& error) {
    return error.what();
  }
  return "(no error)";
}

std::string world_error_of(const Scene& scene) {
  try {
    make_world(scene);
  } catch (const SceneError& error) {
    return error.what();
  }
  return "(no error)";
}

bool contains(const std::string& text, std::string_view part) { return text.find(part) != std::string::npos; }

// Checks that `message` is one line that starts with "FILE: PATH: " and contains `problem`.
void check_message(const std::string& message, const std::string& file_and_path, std::string_view problem) {
  INFO("message: ", message);
  CHECK(message.rfind(file_and_path + ": ", 0) == 0);
  CHECK(contains(message, problem));
  CHECK_FALSE(contains(message, "\n"));
}

// A valid 2D scene with the particle list replaced by `particles` and the constraints by `constraints`.
std::string scene_with(std::string_view particles, std::string_view constraints = "[]", std::string_view extra = "") {
  return std::string(R"({"dimension": 2, )") + std::string(extra) + R"("particles": )" + std::string(particles) +
         R"(, "constraints": )" + std::string(constraints) + "}";
}

const char* const kSeedPendulum = R"json({
  "name": "Seed pendulum", "dimension": 2, "gravity": [0, -10, 0], "dt": 0.001, "solver": "projection",
  "particles": [ {"position": [0, 0, 0], "mass": 1},
                 {"position": [1, -1, 0], "mass": 1, "velocity": [0, 0, 0]},
                 {"position": [3, 0, 0], "fixed": true} ],
  "constraints": [ {"type": "pin", "particle": 0, "point": [0, 0, 0]},
                   {"type": "distance", "particles": [0, 1], "length": 1.4142135623730951} ] })json";

}  // namespace

TEST_CASE("scene: the brief's seed pendulum loads to exactly what it says") {
  const Scene scene = parse_scene(kSeedPendulum, "seed.json");
  CHECK(scene.name == "Seed pendulum");
  CHECK(scene.source == "seed.json");
  CHECK(scene.dimension == 2);
  CHECK(scene.settings.dt == 0.001);
  CHECK(scene.settings.gravity == Vec3(0.0, -10.0, 0.0));
  CHECK(scene.settings.solver == "projection");
  CHECK(scene.settings.substeps == Settings{}.substeps);  // not given: the default
  REQUIRE(scene.particles.size() == 3);
  CHECK(scene.particles[0].position == Vec3(0.0));
  CHECK(scene.particles[0].mass == 1.0);
  CHECK_FALSE(scene.particles[0].fixed);
  CHECK(scene.particles[1].position == Vec3(1.0, -1.0, 0.0));
  CHECK(scene.particles[1].velocity == Vec3(0.0));
  CHECK(scene.particles[2].fixed);
  CHECK_FALSE(scene.particles[2].has_colour);
  REQUIRE(scene.constraints.size() == 2);
  CHECK(scene.constraints[0].type == "pin");
  CHECK(scene.constraints[0].particles[0] == 0);
  CHECK(scene.constraints[0].vector("point") == Vec3(0.0));
  CHECK(scene.constraints[1].type == "distance");
  CHECK(scene.constraints[1].particles[0] == 0);
  CHECK(scene.constraints[1].particles[1] == 1);
  CHECK(scene.constraints[1].number("length") == std::sqrt(2.0));  // IEEE sqrt is correctly rounded: the literal's double
}

TEST_CASE("scene: the shipped seed pendulum is the seeds' pendulum (002/003)") {
  const Scene scene = load_scene_file(std::filesystem::path(LAGRANGE_ASSETS_DIR) / "seed_pendulum.json");
  CHECK(scene.dimension == 2);
  CHECK(scene.settings.gravity == Vec3(0.0, -10.0, 0.0));
  CHECK(scene.settings.dt == 0.001);
  CHECK(scene.settings.solver == "projection");
  REQUIRE(scene.particles.size() == 2);
  CHECK(scene.particles[0].position == Vec3(0.0));
  CHECK(scene.particles[1].position == Vec3(1.0, -1.0, 0.0));
  for (const ParticleDef& p : scene.particles) {
    CHECK(p.mass == 1.0);
    CHECK_FALSE(p.fixed);
    CHECK(p.velocity == Vec3(0.0));
  }
  REQUIRE(scene.constraints.size() == 2);
  CHECK(scene.constraints[0].type == "pin");
  CHECK(scene.constraints[0].particles[0] == 0);
  CHECK(scene.constraints[0].vector("point") == Vec3(0.0));
  CHECK(scene.constraints[1].type == "distance");
  CHECK(scene.constraints[1].number("length") == std::sqrt(2.0));

  const World world = make_world(scene);
  CHECK(world.dimension() == 2);
  CHECK(world.particle_count() == 2);
  CHECK(world.model().rows().size() == 3u);  // pin x, pin y, rod: seed 002's three constraints
}

TEST_CASE("scene: a missing length is the initial distance, a missing pin point the initial position") {
  const Scene scene = parse_scene(
      scene_with(R"([{"position": [0, 0]}, {"position": [3, 4]}, {"position": [-1, 2.5]}])",
                 R"([{"type": "distance", "particles": [0, 1]}, {"type": "pin", "particle": 2}])"),
      "lengths.json");
  CHECK_FALSE(scene.constraints[0].has("length"));
  CHECK_FALSE(scene.constraints[1].has("point"));
  World world = make_world(scene);
  const auto* rod = dynamic_cast<const DistanceConstraint*>(world.constraints()[0].get());
  REQUIRE(rod != nullptr);
  CHECK(rod->length() == 5.0);  // the 3-4-5 triangle
  const auto* pin = dynamic_cast<const PinConstraint*>(world.constraints()[1].get());
  REQUIRE(pin != nullptr);
  CHECK(pin->point() == Vec3(-1.0, 2.5, 0.0));
  CHECK(world.max_violation() == 0.0);
}

TEST_CASE("scene: 2D scenes accept 2-arrays: defaults fill the rest") {
  const Scene scene = parse_scene(
      R"({"particles": [{"position": [1.5, -2], "velocity": [0.25, 0], "radius": 0.1,
                         "colour": "#ff8000"},
                        {"position": [0, 0, 0], "colour": [0, 0.5, 1]}],
          "gravity": [0, -3]})",
      "");
  CHECK(scene.dimension == 2);
  CHECK(scene.name == "Untitled scene");
  CHECK(scene.settings.gravity == Vec3(0.0, -3.0, 0.0));
  CHECK(scene.particles[0].position == Vec3(1.5, -2.0, 0.0));
  CHECK(scene.particles[0].velocity == Vec3(0.25, 0.0, 0.0));
  CHECK(scene.particles[0].mass == 1.0);
  CHECK(scene.particles[0].radius == 0.1);
  CHECK(scene.particles[0].has_colour);
  CHECK(scene.particles[0].colour.r == 1.0f);
  CHECK(scene.particles[0].colour.g == 128.0f / 255.0f);
  CHECK(scene.particles[0].colour.b == 0.0f);
  CHECK(scene.particles[1].colour.g == 0.5f);
  CHECK(scene.particles[1].colour.b == 1.0f);
  // The name defaults to the file's stem.
  CHECK(parse_scene(R"({"particles": [{"position": [0, 0]}]})", "dir/my_scene.json").name == "my_scene");
}

TEST_CASE("scene: every settings key is read, with full precision, through set_setting") {
  const Scene scene = parse_scene(R"({"dimension": 3, "particles": [{"position": [0, 0, 0]}],
      "settings": {"dt": 0.1, "substeps": 3, "solver": "shake", "tolerance": 1e-7, "max_iterations": 7,
                   "baumgarte": 2.5, "stiffness": 5000, "spring_damping": 0.3, "gravity": [1, 2, 3.3],
                   "damping": 0.1}})",
                                  "settings.json");
  const Settings& s = scene.settings;
  CHECK(s.dt == 0.1);
  CHECK(s.substeps == 3);
  CHECK(s.solver == "shake");
  CHECK(s.tolerance == 1e-7);
  CHECK(s.max_iterations == 7);
  CHECK(s.baumgarte == 2.5);
  CHECK(s.stiffness == 5000.0);
  CHECK(s.spring_damping == 0.3);
  CHECK(s.gravity == Vec3(1.0, 2.0, 3.3));
  CHECK(s.damping == 0.1);

  // The top-level shorthands set the same settings.
  const Scene shorthand = parse_scene(R"({"particles": [{"position": [0, 0]}], "dt": 0.1, "substeps": 3,
                                          "solver": "shake", "gravity": [0, -1.1]})",
                                      "shorthand.json");
  CHECK(shorthand.settings.dt == 0.1);
  CHECK(shorthand.settings.substeps == 3);
  CHECK(shorthand.settings.solver == "shake");
  CHECK(shorthand.settings.gravity == Vec3(0.0, -1.1, 0.0));
}

TEST_CASE("scene: generators come after the listed particles and constraints, and may refer to them") {
  const Scene scene = parse_scene(R"({"dimension": 3,
      "particles": [{"position": [0, 0, 0], "fixed": true}, {"position": [1, 0, 0], "mass": 2}],
      "constraints": [{"type": "distance", "particles": [0, 1]},
                      {"type": "distance", "particles": [1, 6]}],
      "generators": [{"type": "chain", "links": 4, "link_length": 0.5, "anchor": [0, 5, 0]},
                     {"type": "chain", "anchor_particle": 1, "links": 2, "direction": [0, -1, 0]},
                     {"type": "cloth", "nx": 3, "ny": 4, "shear": true, "pin_two_corners": false}]})",
                                  "gen.json");
  // 2 listed + (4 + 1) + 2 + 3 × 4.
  REQUIRE(scene.particles.size() == 2u + 5u + 2u + 12u);
  // 2 listed + 4 + 2 + (2·4 + 3·3 + 2·2·3).
  REQUIRE(scene.constraints.size() == 2u + 4u + 2u + 29u);
  CHECK(scene.particles[1].mass == 2.0);
  CHECK(scene.particles[2].position == Vec3(0.0, 5.0, 0.0));
  CHECK(scene.particles[2].fixed);
  CHECK(scene.particles[6].position == Vec3(2.0, 5.0, 0.0));
  CHECK(scene.particles[8].position == Vec3(1.0, -2.0, 0.0));  // the second chain hangs from particle 1
  CHECK(scene.constraints[1].particles[1] == 6);                          // a listed rod to a generated particle
  CHECK(scene.constraints[2].particles[0] == 2);                          // then the generated ones, in order
  CHECK(scene.constraints[6].particles[0] == 1);
  CHECK(scene.constraints[6].particles[1] == 7);
  const World world = make_world(scene);
  CHECK(world.max_violation() < 1e-14);
}

TEST_CASE("scene: every shipped asset loads, builds and starts on its constraints") {
  const std::set<std::string> required{"simple_pendulum.json", "double_pendulum.json", "seed_pendulum.json",
                                       "hanging_chain.json",   "rigid_triangle.json",  "spherical_pendulum.json",
                                       "hanging_cloth.json"};
  std::set<std::string> found;
  for (const auto& entry : std::filesystem::directory_iterator(LAGRANGE_ASSETS_DIR)) {
    if (entry.path().extension() != ".json") continue;
    const std::string file = entry.path().filename().string();
    found.insert(file);
    CAPTURE(file);
    for (char c : entry.path().stem().string()) CHECK(((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'));
    Scene scene;
    REQUIRE_NOTHROW(scene = load_scene_file(entry.path()));
    CHECK_FALSE(scene.name.empty());
    CHECK(scene.description.size() > 80);  // a few sentences for a teacher
    CHECK(scene.particles.size() <= 32u * 32u);
    World world(3);
    REQUIRE_NOTHROW(world = make_world(scene));
    CHECK(world.particle_count() == scene.particles.size());
    CHECK(world.max_violation() < 1e-12);
    CHECK(world.max_velocity_violation() < 1e-12);
    for (int step = 0; step < 3; ++step) world.step();
    for (const Vec3& x : world.state().position) CHECK(std::isfinite(x.x + x.y + x.z));
  }
  for (const std::string& file : required) CHECK_MESSAGE(found.count(file) == 1, file);
}

TEST_CASE("scene: a missing or unreadable file") {
  const std::string path = "/nonexistent-lagrange-dir/pendulum.json";
  try {
    load_scene_file(path);
    FAIL("no error");
  } catch (const SceneError& error) {
    check_message(error.what(), path, "cannot open file: No such file or directory");
  }
  try {
    load_scene_file(LAGRANGE_ASSETS_DIR);
    FAIL("no error");
  } catch (const SceneError& error) {
    check_message(error.what(), LAGRANGE_ASSETS_DIR, "is a directory");
  }
}

TEST_CASE("scene: invalid JSON reports line and column") {
  // Line 3, column 39 is the second comma.
  const std::string message = error_of("{\n  \"dimension\": 2,\n  \"particles\": [ {\"position\": [0, 0]},, ]\n}",
                                       "x.json");
  CHECK(message.rfind("x.json: invalid JSON at line 3, column 39: ", 0) == 0);
  CHECK(contains(message, "syntax error"));
  CHECK(error_of("", "empty.json").rfind("empty.json: invalid JSON at line 1, column 1: ", 0) == 0);
  // A number too large for a double is rejected by the JSON reader itself; its position is still reported.
  const std::string overflow = error_of("{\"dimension\": 2,\n \"dt\": 1e400}", "big.json");
  CHECK(overflow.rfind("big.json: invalid JSON at line 2, column ", 0) == 0);
  CHECK(contains(overflow, "1e400"));
}

TEST_CASE("scene: the top level must be an object") {
  CHECK(error_of("[1, 2]") == "bad.json: top level: must be an object {...}, got an array of 2 elements");
  CHECK(error_of("3") == "bad.json: top level: must be an object {...}, got 3");
}

TEST_CASE("scene: unknown and repeated keys are reported where they are, with a suggestion") {
  CHECK(error_of(scene_with(R"([{"position": [0, 0], "mas": 2}])")) ==
        "bad.json: particles[0].mas: unknown key (did you mean \"mass\"?)");
  CHECK(error_of(scene_with(R"([{"position": [0, 0], "color": "#ffffff"}])")) ==
        "bad.json: particles[0].color: unknown key (did you mean \"colour\"?)");
  CHECK(error_of(scene_with(R"([{"position": [0, 0]}])",
                            R"([{"type": "distance", "particles": [0, 0], "lenght": 1}])")) ==
        "bad.json: constraints[0].lenght: unknown key (did you mean \"length\"?)");
  check_message(error_of(scene_with(R"([{"position": [0, 0]}])", "[]", R"("zzz": 1, )")), "bad.json: zzz",
                "unknown key (expected one of: ");
  check_message(error_of(scene_with(R"([{"position": [0, 0]}])", "[]", R"("tolerance": 1, )")), "bad.json: tolerance",
                "goes in the \"settings\" object");
  CHECK(error_of(scene_with(R"([{"position": [0, 0]}])", "[]", R"("settings": {"tolerence": 1}, )")) ==
        "bad.json: settings.tolerence: unknown key (did you mean \"tolerance\"?)");
  CHECK(error_of(scene_with(R"([{"position": [0, 0]}, {"position": [1, 0], "mass": 1, "mass": 2}])")) ==
        "bad.json: particles[1].mass: key given twice in the same object");
}

TEST_CASE("scene: wrong types") {
  CHECK(error_of(scene_with(R"([{"position": [0, 0], "mass": "1"}])")) ==
        "bad.json: particles[0].mass: must be a number, got the string \"1\"");
  CHECK(error_of(scene_with(R"([{"position": [0, "a"]}])")) ==
        "bad.json: particles[0].position[1]: must be a number, got the string \"a\"");
  CHECK(error_of(scene_with(R"([{"position": [0, 0], "fixed": 1}])")) ==
        "bad.json: particles[0].fixed: must be true or false, got 1");
  check_message(error_of(scene_with(R"([{"position": 0}])")), "bad.json: particles[0].position",
                "must be an array of 2 numbers");
  check_message(error_of(scene_with(R"({"position": [0, 0]})")), "bad.json: particles", "must be an array");
  check_message(error_of(scene_with(R"([{"position": [0, 0]}])", "[]", R"("name": 5, )")), "bad.json: name",
                "must be a string, got 5");
  check_message(error_of(scene_with(R"([{"velocity": [0, 0]}])")), "bad.json: particles[0]",
                "missing required key \"position\"");
  check_message(error_of(scene_with(R"([{"position": [0, 0], "colour": "red"}])")), "bad.json: particles[0].colour",
                "\"#rrggbb\"");
  check_message(error_of(scene_with(R"([{"position": [0, 0], "colour": [0, 2, 0]}])")),
                "bad.json: particles[0].colour[1]", "must be between 0 and 1, got 2");
  check_message(error_of(scene_with(R"([{"position": [0, 0]}])", "[]", R"("settings": {"dt": "0.1"}, )")),
                "bad.json: settings.dt", "must be a number, got the string \"0.1\"");
  check_message(error_of(scene_with(R"([{"position": [0, 0]}])", "[]", R"("solver": 3, )")), "bad.json: solver",
                "must be a string, got 3");
}

TEST_CASE("scene: NaN, infinity and huge values") {
  CHECK(error_of(scene_with(R"([{"position": [0, 0], "mass": "NaN"}])")) ==
        "bad.json: particles[0].mass: must be a number, got the string \"NaN\"");
  check_message(error_of(scene_with(R"([{"position": [1e300, 0]}])")), "bad.json: particles[0].position[0]",
                "must be a number of magnitude at most 1e9, got 1e+300");
  check_message(error_of(scene_with(R"([{"position": [0, 0]}, {"position": [1, 0]}])",
                                    R"([{"type": "distance", "particles": [0, 1], "length": -1e12}])")),
                "bad.json: constraints[0].length", "magnitude at most 1e9");
  check_message(error_of(scene_with(R"([{"position": [0, 0]}])", "[]", R"("settings": {"damping": "Infinity"}, )")),
                "bad.json: settings.damping", "must be a number");
}

TEST_CASE("scene: masses") {
  CHECK(error_of(scene_with(R"([{"position": [0, 0]}, {"position": [1, -1], "mass": -1}])"), "pendulum.json") ==
        "pendulum.json: particles[1].mass: must be a positive number, got -1");
  CHECK(error_of(scene_with(R"([{"position": [0, 0], "mass": 0}])")) ==
        "bad.json: particles[0].mass: must be a positive number, got 0");
  check_message(error_of(scene_with(R"([{"position": [0, 0], "fixed": true, "mass": 3}])")),
                "bad.json: particles[0].mass", "a fixed particle has no mass");
  check_message(error_of(scene_with(R"([{"position": [0, 0], "fixed": true, "velocity": [1, 0]}])")),
                "bad.json: particles[0].velocity", "must be zero for a fixed particle");
}

TEST_CASE("scene: particle indices") {
  const std::string two = R"([{"position": [0, 0]}, {"position": [1, 0]}])";
  CHECK(error_of(scene_with(two, R"([{"type": "distance", "particles": [0, 5]}])")) ==
        "bad.json: constraints[0].particles[1]: particle index 5 is out of range (the scene has 2 particles, numbered "
        "0 to 1)");
  check_message(error_of(scene_with(two, R"([{"type": "pin", "particle": -1}])")), "bad.json: constraints[0].particle",
                "particle index -1 is out of range");
  check_message(error_of(scene_with(two, R"([{"type": "distance", "particles": [0, 1.5]}])")),
                "bad.json: constraints[0].particles[1]", "must be a particle index (an integer), got 1.5");
  check_message(error_of(scene_with(two, R"([{"type": "distance", "particles": [0]}])")),
                "bad.json: constraints[0].particles", "exactly 2 particle indices");
  // An integral float is an integer.
  CHECK(parse_scene(scene_with(two, R"([{"type": "distance", "particles": [0, 1.0]}])"), "ok.json").constraints[0].particles[1] ==
        1);
}

TEST_CASE("scene: rods") {
  const std::string two = R"([{"position": [0, 0]}, {"position": [0, 0]}, {"position": [1, 0]}])";
  CHECK(error_of(scene_with(two, R"([{"type": "distance", "particles": [2, 2]}])")) ==
        "bad.json: constraints[0].particles: a rod needs two different particles, got 2 twice");
  CHECK(error_of(scene_with(two, R"([{"type": "distance", "particles": [0, 2], "length": 0}])")) ==
        "bad.json: constraints[0].length: must be a number of at least 1e-6 (m), got 0");
  check_message(error_of(scene_with(two, R"([{"type": "distance", "particles": [0, 1]}])")),
                "bad.json: constraints[0].length", "start at the same position");
  // A closed loop of rods and a doubly pinned particle are allowed: the solvers handle redundant rows.
  CHECK_NOTHROW(parse_scene(scene_with(two, R"([{"type": "distance", "particles": [0, 2]},
      {"type": "distance", "particles": [1, 2]}, {"type": "distance", "particles": [0, 1], "length": 1},
      {"type": "pin", "particle": 2}, {"type": "pin", "particle": 2, "point": [1, 1]}])"),
                            "ok.json"));
}

TEST_CASE("scene: constraints on nothing but fixed particles") {
  const std::string fixed = R"([{"position": [0, 0], "fixed": true}, {"position": [1, 0], "fixed": true},
                                {"position": [2, 0]}])";
  CHECK(error_of(scene_with(fixed, R"([{"type": "distance", "particles": [0, 1]}])")) ==
        "bad.json: constraints[0]: both particles (0 and 1) are fixed, so this rod can never move anything; remove it "
        "or unfix one of them");
  check_message(error_of(scene_with(fixed, R"([{"type": "pin", "particle": 1}])")), "bad.json: constraints[0]",
                "pins particle 1, which is fixed");
  CHECK_NOTHROW(parse_scene(scene_with(fixed, R"([{"type": "distance", "particles": [1, 2]}])"), "ok.json"));
}

TEST_CASE("scene: constraint types and solvers") {
  const std::string two = R"([{"position": [0, 0]}, {"position": [1, 0]}])";
  // The list is the kind table's (constraint_kinds.h).
  std::string kinds;
  for (const std::string& name : kind_names()) kinds += (kinds.empty() ? "" : ", ") + name;
  CHECK(error_of(scene_with(two, R"([{"type": "rod", "particles": [0, 1]}])")) ==
        "bad.json: constraints[0].type: unknown constraint type \"rod\" (expected one of: " + kinds + ")");
  CHECK(error_of(scene_with(two, R"([{"type": "distanse", "particles": [0, 1]}])")) ==
        "bad.json: constraints[0].type: unknown constraint type \"distanse\" (did you mean \"distance\"?)");
  check_message(error_of(scene_with(two, R"([{"particles": [0, 1]}])")), "bad.json: constraints[0]",
                "missing required key \"type\"");
  check_message(error_of(scene_with(two, R"([{"type": "pin", "particles": [0, 1]}])")),
                "bad.json: constraints[0].particles", "unknown key (did you mean \"particle\"?)");
  const std::string message = error_of(scene_with(two, "[]", R"("solver": "verlet", )"));
  check_message(message, "bad.json: solver", "unknown solver 'verlet'");
  for (const SolverInfo& info : solver_table()) CHECK(contains(message, info.id));
  check_message(error_of(scene_with(two, "[]", R"("settings": {"solver": "verlet"}, )")), "bad.json: settings.solver",
                "unknown solver");
  check_message(error_of(scene_with(two, "[]", R"("dt": 0.1, "settings": {"dt": 0.2}, )")), "bad.json: settings.dt",
                "also given at the top level");
  check_message(error_of(scene_with(two, "[]", R"("settings": {"dt": -1}, )")), "bad.json: settings.dt", "got -1");
  check_message(error_of(scene_with(two, "[]", R"("substeps": 0, )")), "bad.json: substeps", "got 0");
}

TEST_CASE("scene: dimension, empty scenes and the z = 0 plane of 2D scenes") {
  CHECK(error_of(R"({"dimension": 4, "particles": [{"position": [0, 0, 0]}]})") ==
        "bad.json: dimension: must be 2 or 3, got 4");
  CHECK(error_of(R"({"dimension": 2, "particles": []})") ==
        "bad.json: particles: is empty; a scene needs at least one particle (or a generator)");
  check_message(error_of(R"({"dimension": 2})"), "bad.json: top level", "missing required key \"particles\"");
  CHECK(error_of(scene_with(R"([{"position": [0, 0, 0.5]}])")) ==
        "bad.json: particles[0].position[2]: must be 0 in a 2D scene, got 0.5 (set \"dimension\": 3 for a 3D scene)");
  check_message(error_of(scene_with(R"([{"position": [0, 0], "velocity": [0, 0, 1]}])")),
                "bad.json: particles[0].velocity[2]", "must be 0 in a 2D scene");
  check_message(error_of(scene_with(R"([{"position": [0, 0]}])", "[]", R"("gravity": [0, -9.81, 1], )")),
                "bad.json: gravity[2]", "must be 0 in a 2D scene");
  check_message(error_of(scene_with(R"([{"position": [0, 0]}])", R"([{"type": "pin", "particle": 0,
                                                                     "point": [0, 0, 1]}])")),
                "bad.json: constraints[0].point[2]", "must be 0 in a 2D scene");
  check_message(error_of(R"({"dimension": 3, "particles": [{"position": [0, 0]}]})"), "bad.json: particles[0].position",
                "must be an array of 3 numbers [x, y, z]");
}

TEST_CASE("scene: bad generator parameters") {
  const auto generator = [](std::string_view g, std::string_view dimension = "2") {
    return error_of(std::string(R"({"dimension": )") + std::string(dimension) + R"(, "generators": [)" +
                    std::string(g) + "]}");
  };
  CHECK(generator(R"({"type": "chain", "links": 0})") == "bad.json: generators[0].links: must be at least 1, got 0");
  CHECK(generator(R"({"type": "chain", "link_length": -0.5})") ==
        "bad.json: generators[0].link_length: must be a positive number, got -0.5");
  check_message(generator(R"({"type": "chain", "links": 2.5})"), "bad.json: generators[0].links",
                "must be an integer, got 2.5");
  check_message(generator(R"({"type": "chain", "direction": [0, 0]})"), "bad.json: generators[0].direction",
                "non-zero");
  check_message(generator(R"({"type": "chain", "anchor_particle": 3})"), "bad.json: generators[0].anchor_particle",
                "does not exist");
  check_message(generator(R"({"type": "chain", "anchor_particle": 0, "anchor": [0, 0]})"),
                "bad.json: generators[0].anchor", "cannot be combined with \"anchor_particle\"");
  CHECK(generator(R"({"type": "cloth", "nx": 1, "v": [0, 1]})") ==
        "bad.json: generators[0].nx: must be at least 2, got 1");
  CHECK(generator(R"({"type": "cloth", "spacing": 0, "v": [0, 1]})") ==
        "bad.json: generators[0].spacing: must be a positive number, got 0");
  check_message(generator(R"({"type": "cloth", "u": [1, 0], "v": [2, 0]})"), "bad.json: generators[0].v",
                "must not be parallel to u");
  check_message(generator(R"({"type": "cloth"})"), "bad.json: generators[0]", "needs \"v\" in the xy plane");
  check_message(generator(R"({"type": "cloth", "nx": 3, "ny": 3, "spacing": 0.1, "particle_mass": 0.01,
                              "origin": [0, 0, 0], "u": [1, 0, 0], "v": [0, 0, 1], "shear": false,
                              "pin_two_corner": true})",
                          "3"),
                "bad.json: generators[0].pin_two_corner", "did you mean \"pin_two_corners\"?");
  check_message(generator(R"({"type": "rope"})"), "bad.json: generators[0].type", "unknown generator type \"rope\"");
  check_message(generator(R"([])"), "bad.json: generators[0]", "must be an object");
}

TEST_CASE("scene: an error never leaves a half-built scene or world") {
  Scene scene = parse_scene(kSeedPendulum, "seed.json");
  // The bad particle is the last thing in the file: everything before it parsed, and still nothing is returned.
  CHECK_THROWS_AS(scene = parse_scene(R"({"dimension": 2, "dt": 0.5,
      "particles": [{"position": [0, 0]}, {"position": [1, 0]}, {"position": [2, 0], "mass": -1}]})",
                                      "bad.json"),
                  SceneError);
  CHECK(scene.particles.size() == 3u);
  CHECK(scene.settings.dt == 0.001);
  CHECK(scene.source == "seed.json");

  // Scenes built in code get the same checks from make_world, naming the scene and the offending index.
  Scene built;
  built.name = "built";
  built.particles.resize(3);
  built.particles[0].fixed = true;
  built.particles[1].fixed = true;
  built.particles[1].position = Vec3(1.0, 0.0, 0.0);
  built.particles[2].position = Vec3(2.0, 0.0, 0.0);
  ConstraintDef rod;
  rod.particles = {1, 2};
  built.constraints.push_back(rod);
  rod.particles = {0, 1};
  built.constraints.push_back(rod);
  CHECK(world_error_of(built) ==
        "scene \"built\": constraints[1]: both particles (0 and 1) are fixed, so this rod can never move anything; "
        "remove it or unfix one of them");
  built.constraints.pop_back();
  built.particles[2].mass = -2.0;
  check_message(world_error_of(built), "scene \"built\": particles[2].mass", "must be a positive number, got -2");
  built.particles[2].mass = 1.0;
  built.settings.dt = 0.0;
  check_message(world_error_of(built), "scene \"built\": settings", "dt");
  built.settings.dt = 0.01;
  CHECK(world_error_of(built) == "(no error)");
}
