// The page's entry point: the sandbox (the same Sandbox class as the desktop window) driven by the browser's frame
// callback instead of sandbox_main.cpp's loop. Arguments come from the page's URL (index.html):
//   ?scene=double_pendulum&solver=acceleration  ->  argv = {"/assets/double_pendulum.json", "--solver", "acceleration"}
// Every frame the page title shows the simulated time, the solver and the input counts, so a test (and a
// teacher's browser tab) can read them: "Lagrange Lab · t=1.234 s · scene=double_pendulum · solver=projection ·
// steps=74 · grabs=0 · hover=0 · paused=0 · editing=0 · frame=75" (editing: the scene editor's Edit mode, key E).
// Not on the web: the user's settings file (nothing is remembered between visits), `shot`, `record` and the window's
// recording (F9 says so: window_recorder_web.cpp).
#include <emscripten.h>

#include <cctype>
#include <chrono>
#include <cstdio>
#include <exception>
#include <memory>
#include <string>
#include <string_view>

#include "sandbox/sandbox_app.h"

namespace lagrange::app {
namespace {

struct Page {
  std::unique_ptr<Sandbox> sandbox;
  std::chrono::steady_clock::time_point last = std::chrono::steady_clock::now();
  long frame = 0;
};

void publish_status(const Sandbox& sandbox, long frame) {
  const World& world = sandbox.world();
  const InputCounts& input = sandbox.state().input_counts;
  std::string scene = sandbox.state().scene_path.stem().string();  // the file's name: letters, digits, _ and -
  for (char& c : scene)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-') c = '_';
  char script[512];
  std::snprintf(script, sizeof script,
                "document.title='Lagrange Lab \\u00b7 t=%.3f s \\u00b7 scene=%.60s \\u00b7 solver=%s \\u00b7 "
                "steps=%ld \\u00b7 grabs=%ld \\u00b7 hover=%ld \\u00b7 paused=%d \\u00b7 editing=%d \\u00b7 frame=%ld'",
                world.time(), scene.empty() ? "none" : scene.c_str(), world.solver_info().id, world.step_count(),
                input.grabs, input.particle_hover_frames, sandbox.state().paused ? 1 : 0,
                sandbox.state().editor.active ? 1 : 0, frame);
  emscripten_run_script(script);
}

void frame(void* argument) {
  Page& page = *static_cast<Page*>(argument);
  try {
    const auto now = std::chrono::steady_clock::now();
    const double wall = std::chrono::duration<double>(now - page.last).count();
    page.last = now;
    Sandbox& sandbox = *page.sandbox;
    sandbox.pump_events();  // a page is never closed from inside: the quit request is ignored
    sandbox.frame(wall);
    sandbox.render();
    sandbox.present();
    publish_status(sandbox, ++page.frame);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "lagrange-lab: %s\n", error.what());
    emscripten_cancel_main_loop();
  }
}

}  // namespace
}  // namespace lagrange::app

int main(int argc, char** argv) {
  using namespace lagrange::app;
  std::string scene, solver;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--solver" && i + 1 < argc) solver = argv[++i];
    else if (!arg.starts_with("-")) scene = arg;
  }
  static Page page;  // lives as long as the page: main returns, the frame callback goes on
  try {
    SandboxOptions options;  // config_file empty: nothing is remembered between visits
    page.sandbox = std::make_unique<Sandbox>(options);
    Sandbox& sandbox = *page.sandbox;
    const std::string fallback = (find_assets_dir() / "double_pendulum.json").string();
    std::string error = sandbox.load_scene(scene.empty() ? fallback : scene);
    if (!error.empty()) {
      std::fprintf(stderr, "lagrange-lab: %s\n", error.c_str());
      if (!scene.empty()) {
        sandbox.load_scene(fallback);
        sandbox.state().scene_error = error;
      }
    }
    if (!solver.empty()) {
      if (!lagrange::find_solver(solver)) {
        std::fprintf(stderr, "lagrange-lab: unknown solver '%s' (%s)\n", solver.c_str(), lagrange::solver_ids().c_str());
      } else {
        lagrange::Settings settings = sandbox.world().settings();
        settings.solver = solver;
        sandbox.state().commands.push_back(Command::apply_settings(settings));
      }
    }
  } catch (const std::exception& error) {
    std::fprintf(stderr, "lagrange-lab: %s\n", error.what());
    return 1;
  }
  emscripten_set_main_loop_arg(frame, &page, 0, false);
  return 0;
}
