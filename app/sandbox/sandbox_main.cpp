// `lagrange-lab [gui] [SCENE.json] [options]`: the window and its event loop.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "options/args.h"
#include "options/cli_options.h"
#include "sandbox/sandbox.h"
#include "sandbox/sandbox_app.h"
#include "sandbox/window_options.h"
#include "ui/ui.h"
#include "ui/user_config.h"

namespace lagrange::app {
namespace {

constexpr const char* kUsage =
    "usage: lagrange-lab [gui] [SCENE.json] [options]\n"
    "  Opens the interactive sandbox with SCENE.json (default: assets/double_pendulum.json).\n"
    "options:\n"
    "  --solver ID     start with this solver (%s)\n"
    "  --size WxH      window size in screen units (default 1280x720)\n"
    "  --paused        start paused\n"
    "  --measure       open with the Measure strip (period timer, stopwatch, protractor, energy bars; key M)\n"
    "  --lanes L1,L2   2-4 lanes stepped together from the same state, each a solver id with optional :KEY=VALUE\n"
    "                  settings (as for run --lanes), e.g. projection,acceleration; excludes --solver\n"
    "  --lane-view V   overlay (the other lanes as ghosts over lane 1; default) or split (side by side)\n"
    "  --msaa N        the scene's anti-aliasing: 0 (off), 2, 4 or 8 samples (default 4; off on a software\n"
    "                  rasterizer such as llvmpipe, whose shaders smooth the edges themselves)\n"
    "  --no-vsync      do not wait for the display refresh\n"
    "  --ui-scale S    fonts, widgets, lines and plots S times as large, 1..3 (e.g. 1.5; a projector)\n"
    "  --theme T       dark (default) or light (a bright room)\n"
    "                  both override the choice remembered in $XDG_CONFIG_HOME/lagrange-lab/settings.json for this\n"
    "                  session only; a change made in the window is remembered there\n"
    "  --quit-after N  close after N frames (scripts, smoke tests)\n"
    "  --report        on exit, print one line: scene, time, steps, energy, max |C|, slowest frame, frames the\n"
    "                  pointer rested on a particle or a rod, particles grabbed, and whether the state is finite\n"
    "  --list-keys     print the keyboard shortcuts, one key per line (SDL key names), and exit\n"
    "  -h, --help      this text; press H in the window for the keys\n"
    "exit codes: 0 closed normally, 1 no window could be opened, 2 bad option or a scene that could not be loaded,\n"
    "3 the simulation ended non-finite\n";

int usage_error(const std::string& message) { return lagrange::app::usage_error("lagrange-lab", kUsage, message); }


// What is not finite in the world or the view at the end ("" when everything is): positions, velocities, energy,
// the mouse-pin targets, the camera.
std::string non_finite_part(const Sandbox& sandbox) {
  const World& world = sandbox.world();
  const State& p = world.state();
  for (std::size_t i = 0; i < p.position.size(); ++i) {
    if (!finite(p.position[i])) return "position of particle " + std::to_string(i);
    if (!finite(p.velocity[i])) return "velocity of particle " + std::to_string(i);
  }
  if (!std::isfinite(world.energy().total())) return "energy";
  if (!std::isfinite(world.time())) return "time";
  const Camera& camera = sandbox.camera();
  if (!std::isfinite(camera.half_height) || !finite(glm::dvec3(camera.centre, 0.0)) || !finite(camera.target) ||
      !std::isfinite(camera.distance) || !std::isfinite(camera.yaw) || !std::isfinite(camera.pitch))
    return "camera";
  return {};
}

void print_keys() {
  for (const KeyPress& key : documented_keys())
    std::printf("%s%s\n", key.ctrl ? "Ctrl+" : "", SDL_GetKeyName(key.key));
}

}  // namespace

int sandbox_main(int argc, char** argv) {
  WindowCommandLine line;  // the same parser as the page's URL settings (window_options.h)
  try {
    cli::Args args(argc, argv);
    while (!args.empty()) {
      read_window_option(args, line);
      if (line.help) {
        std::printf(kUsage, solver_ids().c_str());
        return 0;
      }
      if (line.list_keys) {
        print_keys();
        return 0;
      }
    }
    check_window_command_line(line);
  } catch (const cli::UsageError& error) {
    return usage_error(error.what());
  }
  SandboxOptions options;
  options.width = line.width;
  options.height = line.height;
  options.vsync = line.vsync;
  const long quit_after = line.quit_after;
  const bool report = line.report;

  // With no display SDL would fall back to an invisible offscreen window and run unseen forever. Say so instead,
  // unless a video driver was chosen on purpose (SDL_VIDEODRIVER=offscreen runs the window headless, as the tests do).
  if (!std::getenv("SDL_VIDEODRIVER") && !std::getenv("DISPLAY") && !std::getenv("WAYLAND_DISPLAY")) {
    std::fprintf(stderr,
                 "lagrange-lab: no display (neither DISPLAY nor WAYLAND_DISPLAY is set), so no window can open.\n"
                 "  Without a display: lagrange-lab run SCENE (numbers, CSV) or lagrange-lab shot SCENE (a PNG);\n"
                 "  to run the window headless anyway: SDL_VIDEODRIVER=offscreen lagrange-lab ...\n");
    return 1;
  }
  // The remembered theme and scale (a broken file: one line, then the defaults), then the command line's.
  options.config_file = settings_file();
  std::string warning;
  options.appearance = read_appearance(options.config_file, warning);
  if (!warning.empty()) std::fprintf(stderr, "lagrange-lab: %s\n", warning.c_str());
  if (line.ui_scale) options.appearance.scale = *line.ui_scale;
  if (line.theme) options.appearance.theme = *line.theme;
  try {
    Sandbox sandbox(options);
    start_window(sandbox, line);  // the scene (or the default with the error on screen), solver, lanes, ...
    // A scene on the command line that could not be loaded is bad input (exit 2, as for `run`), once the window,
    // which shows the message over the default scene, closes.
    const bool bad_scene = !sandbox.state().scene_error.empty();
    auto last = std::chrono::steady_clock::now();
    for (long frame = 0; sandbox.pump_events() && frame != quit_after; ++frame) {
      const auto now = std::chrono::steady_clock::now();
      const double wall = std::chrono::duration<double>(now - last).count();
      last = now;
      sandbox.frame(wall);
      sandbox.render();
      sandbox.present();
    }
    const std::string bad = non_finite_part(sandbox);
    if (report) {
      const World& world = sandbox.world();
      const InputCounts& input = sandbox.state().input_counts;
      std::printf("lagrange-lab: final scene=\"%s\" solver=%s t=%.4f s steps=%ld energy=%.6g J max|C|=%.3e m "
                  "slowest frame=%.1f ms hover frames: particle=%ld rod=%ld grabs=%ld edits=%ld state=%s\n",
                  sandbox.state().scene.name.c_str(), world.solver_info().id, world.time(), world.step_count(),
                  world.energy().total(), world.max_violation(), sandbox.state().timing.slowest_ms,
                  input.particle_hover_frames, input.rod_hover_frames, input.grabs,
                  sandbox.state().editor.edits_made, bad.empty() ? "finite" : "NON-FINITE");
      std::fflush(stdout);
    }
    if (!bad.empty()) {
      std::fprintf(stderr, "lagrange-lab: the simulation ended in a non-finite state (%s)\n", bad.c_str());
      return 3;
    }
    if (bad_scene) return 2;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "lagrange-lab: %s\n", error.what());
    return 1;
  }
  return 0;
}

}  // namespace lagrange::app
