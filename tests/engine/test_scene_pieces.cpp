// Scenes built one piece at a time in a scene file's words (engine/src/scene/scene_reader.cpp: append_particle_json
// and its siblings, the Python package's Scene): each piece meets the reader's checks and messages, a bad piece leaves
// the scene as it was, and the pieces build the scene the whole file builds. Also the settings' types (settings.cpp).
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "lagrange/scene.h"
#include "lagrange/settings.h"

using namespace lagrange;

namespace {

std::string error_of(const auto& add) {
  try {
    add();
  } catch (const SceneError& error) {
    return error.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("pieces build the scene its file builds, with their indices") {
  const Scene file = parse_scene(R"({"dimension": 2, "particles": [{"position": [0, 0], "fixed": true},
      {"position": [0.6, -0.8], "mass": 2}], "constraints": [{"type": "distance", "particles": [0, 1]}],
      "generators": [{"type": "chain", "links": 3, "link_length": 0.5, "anchor_particle": 1}]})", "f.json");
  Scene built;
  built.dimension = 2;
  CHECK(append_particle_json(built, R"({"position": [0, 0], "fixed": true})", "particles[0]") == 0);
  CHECK(append_particle_json(built, R"({"position": [0.6, -0.8], "mass": 2})", "particles[1]") == 1);
  CHECK(append_constraint_json(built, R"({"type": "distance", "particles": [0, 1]})", "constraints[0]") == 0);
  CHECK(append_generator_json(built, R"({"type": "chain", "links": 3, "link_length": 0.5, "anchor_particle": 1})",
                              "add_chain") == 2);  // the first particle it added
  REQUIRE(built.particles.size() == file.particles.size());
  REQUIRE(built.constraints.size() == file.constraints.size());
  for (std::size_t i = 0; i < file.particles.size(); ++i) {
    CHECK(built.particles[i].position == file.particles[i].position);
    CHECK(built.particles[i].mass == file.particles[i].mass);
  }
  World a = make_world(file), b = make_world(built);
  for (int s = 0; s < 50; ++s) {
    a.step();
    b.step();
  }
  for (std::size_t i = 0; i < a.particle_count(); ++i) CHECK(a.state().position[i] == b.state().position[i]);
}

TEST_CASE("a bad piece gets the reader's message at its place and leaves the scene as it was") {
  Scene scene;
  scene.dimension = 2;
  append_particle_json(scene, R"({"position": [0, 0]})", "particles[0]");
  CHECK(error_of([&] { append_particle_json(scene, R"({"position": [1, 0], "mass": -1})", "particles[1]"); }) ==
        "scene: particles[1].mass: must be a positive number, got -1");
  CHECK(error_of([&] { append_constraint_json(scene, R"({"type": "distance", "particles": [0, 4]})",
                                              "constraints[0]"); })
            .starts_with("scene: constraints[0].particles[1]: particle index 4 is out of range"));
  CHECK(error_of([&] { append_generator_json(scene, R"({"type": "cloth", "nx": 3, "ny": 3})", "add_cloth"); })
            .starts_with("scene: add_cloth: a cloth in a 2D scene needs \"v\""));
  CHECK(error_of([&] { append_generator_json(scene, R"({"type": "chain", "links": 0})", "add_chain"); }) ==
        "scene: add_chain.links: must be at least 1, got 0");
  CHECK(error_of([&] { append_particle_json(scene, "{\"position\": [", "particles[1]"); }).starts_with("scene"));
  CHECK(scene.particles.size() == 1);
  CHECK(scene.constraints.empty());
}

TEST_CASE("every setting has the type its text reads as") {
  const Settings defaults;
  for (const SettingInfo& info : setting_table()) {
    const std::string text = get_setting(defaults, info.key);
    switch (setting_type(info.key)) {
      case SettingType::Count: CHECK(text.find_first_not_of("0123456789") == std::string::npos); break;
      case SettingType::Vector: CHECK(std::count(text.begin(), text.end(), ',') == 2); break;
      case SettingType::Solver: CHECK(text == defaults.solver); break;
      case SettingType::Number: CHECK(std::stod(text) == std::stod(text)); break;
    }
  }
  CHECK(setting_type("substeps") == SettingType::Count);
  CHECK(setting_type("gravity") == SettingType::Vector);
  CHECK(setting_type("solver") == SettingType::Solver);
  CHECK(setting_type("dt") == SettingType::Number);
}
