// Scenes are data: JSON files in assets/ (format in docs/scenes.md), read into a Scene, built into a World, and
// written back (write_scene: a saved state loads back to the same bits). Builders for the standard scenes (chains,
// cloth) live in one place, builders.h, used by the loader's generators, the tests, the benchmark and the app.
#pragma once

#include <cmath>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "lagrange/constraint_kinds.h"
#include "lagrange/contacts.h"
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

// What a saved run carries beyond the particles' positions and velocities (the "state" key; the rest of State).
struct SceneState {
  long step = 0;
  double time = 0.0;
  Work work;
  double start_energy = NAN;     // NaN: not recorded
  // The clock's origin (State::clock_time, clock_step): time = clock_time + (step − clock_step) · dt. Not given:
  // the origin (0, 0) when time is exactly step · dt, else (time, step).
  std::optional<double> clock_time;
  std::optional<long> clock_step;
  std::vector<double> row_force; // one per constraint row, or empty
  int newton_lost = 0;           // State::newton_lost
  // The contacts' multipliers of the last substep (Contact: particle, other, obstacle, face, lambda, lambda_t), the
  // start of the next substep's contact iteration: a run continued from a saved state then gives the same bits.
  std::vector<Contact> contacts;
};

struct Scene {
  std::string name;
  std::string description;  // a few sentences for a lesson; shown by the app
  std::string source;       // file the scene came from ("" when built in code)
  int dimension = 2;        // 2: everything in the z = 0 plane, orthographic view; 3: perspective view
  Settings settings;        // dt, solver, gravity, ... from the file, defaults otherwise
  std::vector<ParticleDef> particles;
  std::vector<ConstraintDef> constraints;  // ConstraintDef: constraint_kinds.h
  // The "contacts" object and the "obstacles" array (contacts.h): particles' "radius" is their collision radius.
  ContactSettings contacts;
  std::optional<SceneState> state;         // a saved state: make_world starts from it
};

// The smallest mass a particle may have (kg): 1/m stays within the 1e9 that bounds every number of a scene.
inline constexpr double kMinMass = 1e-9;

// Bounds on what one scene may make, checked before anything is allocated (generators are sized from their
// parameters first), so hostile or mistyped input ends at once with a message instead of exhausting memory or
// time. docs/scenes.md, "Limits"; the command line's --allow-large lifts them.
struct SceneLimits {
  std::size_t max_file_bytes = std::size_t{16} << 20;  // 16 MiB
  std::size_t max_particles = 100'000;
  std::size_t max_rows = 300'000;  // constraint rows: 1 per rod or plane, 2 or 3 per pin, 1 or 2 per line
  // Σ over particles of (rows on that particle)²: how many row pairs the solvers' coupled system holds, which
  // grows with the square of the rows sharing one particle (10 000 pins on one particle: 9·10⁸).
  std::size_t max_coupling = 4'000'000;
  // Rows on one particle that can move: they couple with each other, a dense block whose factorization grows as the
  // cube of its size (1000 compliant pins on one particle took 3.6 s a step; 1000 rows take about 0.35 s).
  std::size_t max_particle_rows = 1'000;
  static SceneLimits unlimited();
};

// Parses scene JSON. `source` names the file in messages. Throws SceneError.
Scene parse_scene(std::string_view json_text, const std::string& source, const SceneLimits& limits = {});
// Reads and parses a file: only a regular file (never waits on a FIFO or reads a device), up to
// limits.max_file_bytes. Throws SceneError (also for a missing or unreadable file).
Scene load_scene_file(const std::filesystem::path& path, const SceneLimits& limits = {});
// Builds the world, at the scene's saved state when it has one. Throws SceneError for what only shows once built
// (e.g. a constraint on two fixed particles).
World make_world(const Scene& scene);
// The same with other settings than the scene's (as a copy of the scene with those settings would build it).
World make_world(const Scene& scene, const Settings& settings);

// The scene of a world as it is now: its settings, particles (positions and velocities), constraints (with their
// compliance) and state (step, time, work, row forces); tool rows (the mouse) are left out. Name, description,
// radii and colours come from `original` (the scene the world was made from) when given.
Scene scene_of(const World& world, const Scene* original = nullptr);
// The scene as JSON text in the format parse_scene reads, every number at full precision (the shortest text that
// reads back to the same double), so parse_scene(write_scene(s)) gives the same bits and a run continued from it
// equals an uninterrupted one (docs/scenes.md, "Saved states").
std::string write_scene(const Scene& scene);

// Scenes built in code (the Python package's Scene), one piece at a time in a scene file's words: `json_text` is one
// entry of "particles", "constraints" or "generators", read, checked and expanded by the reader itself, with its
// keys, ranges and messages ("scene: PATH.FIELD: PROBLEM", PATH the piece's place, e.g. "constraints[3]"). Each
// returns the index of what it added (a generator: its first particle); a piece with a problem throws SceneError and
// leaves the scene as it was.
int append_particle_json(Scene& scene, std::string_view json_text, const std::string& path,
                         const SceneLimits& limits = {});
int append_constraint_json(Scene& scene, std::string_view json_text, const std::string& path,
                           const SceneLimits& limits = {});
int append_generator_json(Scene& scene, std::string_view json_text, const std::string& path,
                          const SceneLimits& limits = {});

}  // namespace lagrange
