// libFuzzer target: the scene loader, then a few steps of every solver on what it accepts (scripts/fuzz.sh).
// What must hold for any input: no crash, no sanitizer report, no hang; a refused scene gets a SceneError whose
// message is short and has no raw control characters; an accepted scene builds a world, and stepping never
// leaves a NaN or infinity in the state (a step that produces one is rolled back).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "lagrange/scene.h"
#include "lagrange/solver.h"

namespace {

// Small limits: stepping every solver on each input must stay fast.
lagrange::SceneLimits fuzz_limits() {
  lagrange::SceneLimits limits;
  limits.max_particles = 300;
  limits.max_rows = 600;
  limits.max_coupling = 20'000;
  return limits;
}

void check_message(const char* message) {
  std::string_view text(message);
  if (text.size() > 2000) std::abort();  // echoed input is cut short
  for (char c : text)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) std::abort();  // escaped, never raw
}

bool finite_state(const lagrange::World& world) {
  const lagrange::State& p = world.state();
  for (std::size_t i = 0; i < p.position.size(); ++i)
    for (int k = 0; k < 3; ++k)
      if (!std::isfinite(p.position[i][k]) || !std::isfinite(p.velocity[i][k])) return false;
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace lagrange;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  Scene scene;
  try {
    scene = parse_scene(text, "fuzz.json", fuzz_limits());
  } catch (const SceneError& error) {
    check_message(error.what());
    return 0;
  }
  for (const SolverInfo& info : solver_table()) {
    try {
      World world = make_world(scene);
      Settings settings = scene.settings;
      settings.solver = info.id;
      settings.substeps = std::min(settings.substeps, 4);
      settings.max_iterations = std::min(settings.max_iterations, 200);
      world.set_settings(settings);
      for (int step = 0; step < 3; ++step) {
        world.step();
        if (!finite_state(world)) std::abort();
      }
    } catch (const SceneError& error) {
      check_message(error.what());
      return 0;
    }
  }
  return 0;
}
