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

// Bounds on what one scene may make, checked before anything is allocated (generators are sized from their
// parameters first), so hostile or mistyped input ends at once with a message instead of exhausting memory or
// time. docs/scenes.md, "Limits"; the command line's --allow-large lifts them.
struct SceneLimits {
  std::size_t max_file_bytes = std::size_t{16} << 20;  // 16 MiB
  std::size_t max_particles = 100'000;
  std::size_t max_rows = 300'000;  // constraint rows: 1 per rod, 2 or 3 per pin (the dimension)
  // Σ over particles of (rows on that particle)²: how many row pairs the solvers' coupled system holds, which
  // grows with the square of the rows sharing one particle (10 000 pins on one particle: 9·10⁸).
  std::size_t max_coupling = 4'000'000;
  static SceneLimits unlimited();
};

// Parses scene JSON. `source` names the file in messages. Throws SceneError.
Scene parse_scene(std::string_view json_text, const std::string& source, const SceneLimits& limits = {});
// Reads and parses a file: only a regular file (never waits on a FIFO or reads a device), up to
// limits.max_file_bytes. Throws SceneError (also for a missing or unreadable file).
Scene load_scene_file(const std::filesystem::path& path, const SceneLimits& limits = {});
// Builds the world. Throws SceneError for what only shows once built (e.g. a constraint on two fixed particles).
World make_world(const Scene& scene);

}  // namespace lagrange
