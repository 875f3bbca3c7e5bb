// Scenes are data: JSON files in assets/ (format in docs/scenes.md), loaded here and turned into a World.
// Builders for the standard scenes (chains, cloth) live in one place, builders.h, used by the loader's generators,
// the tests, the benchmark and the app.
#pragma once

#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "lagrange/particles.h"
#include "lagrange/settings.h"
#include "lagrange/world.h"

namespace lagrange {

// Every problem in a scene file. what() reads "FILE: JSON.PATH: PROBLEM", e.g.
// "pendulum.json: particles[1].mass: must be a positive number, got -1".
class SceneError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ConstraintDef {
  enum class Type { Distance, Pin };
  Type type = Type::Distance;
  int a = -1, b = -1;             // distance: the two particles
  std::optional<double> length;   // distance: missing = the initial distance
  int particle = -1;              // pin: the particle
  std::optional<Vec3> point;      // pin: missing = the particle's initial position
};

struct Scene {
  std::string name;
  std::string description;  // a few sentences for a lesson; shown by the app
  std::string source;       // file the scene came from ("" when built in code)
  int dimension = 2;        // 2: everything in the z = 0 plane, orthographic view; 3: perspective view
  Settings settings;        // dt, solver, gravity, ... from the file, defaults otherwise
  std::vector<ParticleDef> particles;
  std::vector<ConstraintDef> constraints;
};

// Parses scene JSON. `source` names the file in messages. Throws SceneError.
Scene parse_scene(std::string_view json_text, const std::string& source);
// Reads and parses a file. Throws SceneError (also for a missing or unreadable file).
Scene load_scene_file(const std::filesystem::path& path);
// Builds the world. Throws SceneError for what only shows once built (e.g. a constraint on two fixed particles).
World make_world(const Scene& scene);

}  // namespace lagrange
