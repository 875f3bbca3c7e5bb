// The page's entry point: the sandbox (the same Sandbox class as the desktop window) driven by the browser's frame
// callback instead of sandbox_main.cpp's loop. Arguments come from the page's URL: index.html turns each parameter
// into one item of the window's own command line, read by the same parser (window_options.h):
//   ?scene=double_pendulum&theme=light&paused=1  ->  {"/assets/double_pendulum.json", "--theme=light", "--paused"}
// A bad value is reported (the console and a toast) and skipped; the page runs with the rest (docs/web.md).
// Every frame the page title shows the simulated time, the solver and the input counts, so a test (and a
// teacher's browser tab) can read them: "Lagrange Lab · t=1.234 s · scene=double_pendulum · solver=projection ·
// steps=74 · grabs=0 · hover=0 · paused=0 · editing=0 · lanes=1 · view=1.8 · ms=16.7 · frame=75" (editing: the scene
// editor's Edit mode, key E; lanes: how many lanes run, 1 without comparison lanes; view: how much of the scene the
// camera shows, the half-height in metres in 2D, the distance in 3D: smaller is zoomed in; ms: the median time the
// page took for a frame, over the last 120). The address bar follows the scene and solver (follow_link).
// Every toast is echoed to the browser's console (errors as console errors).
// Not on the web: the user's settings file (nothing is remembered between visits), `shot` and `record` (the window's
// own recording, F9, is: a GIF, recording_format_web.cpp).
#include <emscripten.h>
#include <sys/stat.h>

#include <array>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sandbox/sandbox_app.h"
#include "sandbox/window_options.h"
#include "ui/layout_check.h"
#include "ui/ui.h"

namespace lagrange::app {
namespace {

struct Page {
  std::unique_ptr<Sandbox> sandbox;
  std::chrono::steady_clock::time_point last = std::chrono::steady_clock::now();
  long frame = 0;
  std::string toast;  // the last toast echoed to the console
  double toast_seconds = 0.0;
  std::string link;  // the scene and solver the address bar names
};

void publish_status(const Sandbox& sandbox, long frame) {
  const World& world = sandbox.world();
  const InputCounts& input = sandbox.state().input_counts;
  const Camera& camera = sandbox.camera();
  std::string scene = sandbox.state().scene_path.stem().string();  // the file's name: letters, digits, _ and -
  for (char& c : scene)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-') c = '_';
  char script[512];
  std::snprintf(script, sizeof script,
                "document.title='Lagrange Lab \\u00b7 t=%.3f s \\u00b7 scene=%.60s \\u00b7 solver=%s \\u00b7 "
                "steps=%ld \\u00b7 grabs=%ld \\u00b7 hover=%ld \\u00b7 paused=%d \\u00b7 editing=%d \\u00b7 "
                "lanes=%zu \\u00b7 view=%.4g \\u00b7 ms=%.1f \\u00b7 frame=%ld'",
                world.time(), scene.empty() ? "none" : scene.c_str(), world.solver_info().id, world.step_count(),
                input.grabs, input.particle_hover_frames, sandbox.state().paused ? 1 : 0,
                sandbox.state().editor.active ? 1 : 0, sandbox.state().lane_count(),
                camera.perspective ? camera.distance : camera.half_height, sandbox.state().timing.median_ms, frame);
  emscripten_run_script(script);
}

// The address bar follows the scene and the solver on screen, or the lanes when lanes run (history.replaceState: no
// reload, no history entry), so the link a teacher copies opens what the class sees. A scene from the user's disk has
// no link: the address bar then leaves scene= out. The link's other settings (theme, scale, ...) stay as they came.
void follow_link(Page& page) {
  const Sandbox& sandbox = *page.sandbox;
  const SandboxState& state = sandbox.state();
  std::string scene;
  if (state.scene_path.parent_path() == state.assets_dir) scene = state.scene_path.stem().string();
  const std::string solver = sandbox.world().solver_info().id;
  std::string lanes;  // lane 1 by its solver, then the other lanes' specs, as --lanes takes them
  if (state.lane_count() > 1) {
    std::vector<LaneSpec> specs = state.lane_specs();
    specs.erase(specs.begin());
    lanes = solver + "," + lanes_text(specs);
  }
  const bool split = !lanes.empty() && state.lane_view == LaneView::Split;
  const std::string link = scene + "|" + solver + "|" + lanes + (split ? "|split" : "");
  if (link == page.link) return;
  page.link = link;
  for (const std::string* text : {&scene, &lanes})  // only what is safe in a script's string, or no link at all
    for (const char c : *text)
      if (!std::isalnum(static_cast<unsigned char>(c)) && !std::strchr("_-.,:=+", c)) return;
  std::string script = "(function(){var q=new URLSearchParams(location.search);";
  script += scene.empty() ? "q.delete('scene');" : "q.set('scene','" + scene + "');";
  if (lanes.empty()) {
    script += "q.delete('lanes');q.delete('lane-view');q.set('solver','" + solver + "');";
  } else {
    script += "q.delete('solver');q.set('lanes','" + lanes + "');";
    script += split ? "q.set('lane-view','split');" : "q.delete('lane-view');";
  }
  script += "history.replaceState(null,'','?'+q.toString().replace(/%2C/g,',').replace(/%3A/g,':'));})()";
  emscripten_run_script(script.c_str());
}

// A toast that appeared since the last frame goes to the console too (stderr is console.error): the page's messages
// ("Downloaded NAME", "Could not open the scene: ...") can be read there, and by tests.
void echo_toast(Page& page) {
  const SandboxState& state = page.sandbox->state();
  const bool fresh = state.toast_seconds > page.toast_seconds || state.toast != page.toast;
  page.toast = state.toast;
  page.toast_seconds = state.toast_seconds;
  if (!fresh || state.toast_seconds <= 0.0 || state.toast.empty()) return;
  std::fprintf(state.toast_is_error ? stderr : stdout, "lagrange-lab: %s\n", state.toast.c_str());
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
    echo_toast(page);
    publish_status(sandbox, ++page.frame);
    follow_link(page);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "lagrange-lab: %s\n", error.what());
    emscripten_cancel_main_loop();
  }
}

// The desktop window's options that mean nothing in a page (the browser sizes it, paces it, and never closes it).
bool desktop_only(std::string_view item) {
  for (std::string_view name : {"--size", "--no-vsync", "--quit-after", "--report", "--list-keys", "-h", "--help"})
    if (item == name || (item.starts_with(name) && item.size() > name.size() && item[name.size()] == '='))
      return true;
  return false;
}

// The URL's settings: each item is read alone by the window's parser, so one bad value is reported and the rest
// still apply. Returns the problems, one line each.
std::string read_url_settings(int argc, char** argv, WindowCommandLine& line) {
  std::string problems;
  const auto problem = [&](const std::string& message) {
    std::fprintf(stderr, "lagrange-lab: URL: %s\n", message.c_str());
    problems += (problems.empty() ? "" : "; ") + message;
  };
  for (int i = 1; i < argc; ++i) {
    if (desktop_only(argv[i])) {
      problem(std::string(argv[i]) + " is a setting of the desktop window, not of the page (ignored)");
      continue;
    }
    try {
      cli::Args item(1, &argv[i]);
      read_window_option(item, line);
    } catch (const cli::UsageError& error) {
      problem(error.what());
    }
  }
  try {
    check_window_command_line(line);
  } catch (const cli::UsageError& error) {
    problem(std::string(error.what()) + " (the lanes win)");
    line.solver.clear();
  }
  return problems;
}

Page& the_page() {
  static Page page;  // lives as long as the page: main returns, the frame callback goes on
  return page;
}

}  // namespace
}  // namespace lagrange::app

// Called by index.html once a scene file from the user's disk (the file picker, or a file dropped on the page) has
// been copied into the in-memory file system (/uploads/NAME.json): it arrives as SDL_DROPFILE, the event of a file
// dropped on the desktop window, so it opens as any scene does (Sandbox::load_scene; a bad file leaves the previous
// scene running and the loader's message on screen).
extern "C" EMSCRIPTEN_KEEPALIVE void lagrange_open_file(const char* path) {
  SDL_EventState(SDL_DROPFILE, SDL_ENABLE);
  SDL_Event event{};
  event.type = SDL_DROPFILE;
  event.drop.file = SDL_strdup(path);  // freed by the handler (sandbox_input.cpp)
  if (lagrange::app::Page& page = lagrange::app::the_page(); page.sandbox)
    event.drop.windowID = SDL_GetWindowID(page.sandbox->platform().window());
  if (SDL_PushEvent(&event) != 1) {
    std::fprintf(stderr, "lagrange-lab: cannot open %s: %s\n", path, SDL_GetError());
    SDL_free(event.drop.file);
  }
}

// Where a widget of the panels was drawn in the last frame ("x0,y0,x1,y1" in CSS pixels; "" when it was not), by the
// names the desktop's GUI tests click (SandboxState::widget_rects): tests/web/page_test.py clicks buttons with it.
extern "C" EMSCRIPTEN_KEEPALIVE const char* lagrange_widget_rect(const char* name) {
  static std::string text;
  text.clear();
  lagrange::app::Page& page = lagrange::app::the_page();
  if (!page.sandbox) return text.c_str();
  const auto& rects = page.sandbox->state().widget_rects;
  if (const auto it = rects.find(name); it != rects.end()) {
    char buffer[128];
    std::snprintf(buffer, sizeof buffer, "%.1f,%.1f,%.1f,%.1f", it->second[0], it->second[1], it->second[2],
                  it->second[3]);
    text = buffer;
  }
  return text.c_str();
}

// What a reader of the last frame would see wrong (ui/layout_check.h: text cut, a number broken across lines, a window
// off the screen, a text over the scene on a particle), one problem a line, "" when none, and the scene's rectangle
// against the largest panel's ("scene W H largest-panel W H" on the first line): tests/web/page_test.py asks it at a
// projector's scales, as the desktop's GUI tests do.
extern "C" EMSCRIPTEN_KEEPALIVE const char* lagrange_layout_report() {
  static std::string text;
  text.clear();
  lagrange::app::Page& page = lagrange::app::the_page();
  if (!page.sandbox) return text.c_str();
  const auto& state = page.sandbox->state();
  const auto& camera = page.sandbox->camera();
  float largest = 0.0f;
  for (const char* name : {"control panel", "diagnostics panel", "measure panel"})
    if (const auto it = state.widget_rects.find(name); it != state.widget_rects.end())
      largest = std::max(largest, (it->second[2] - it->second[0]) * (it->second[3] - it->second[1]));
  char head[128];
  // The scene: the camera's viewport, or every lane's view when the lanes are side by side.
  double scene = static_cast<double>(camera.width()) * camera.height();
  if (const auto views = lagrange::app::lane_viewports(state); views.size() > 1) {
    scene = 0.0;
    for (const auto& v : views) scene += static_cast<double>(v[2]) * v[3];
  }
  std::snprintf(head, sizeof head, "scene %.0f panel %.0f\n", scene / (state.pixel_ratio * state.pixel_ratio), largest);
  text = head;
  for (const std::string& problem : lagrange::app::layout_problems(state, page.sandbox->radii())) text += problem + "\n";
  return text.c_str();
}

int main(int argc, char** argv) {
  using namespace lagrange::app;
  // This Emscripten starts with a umask of 0777, so every file io::OutputFile writes (mode 0666 & ~umask) would be
  // unreadable, and Platform::deliver_file could not read it back for the download. A shell's usual mask instead.
  umask(022);
  WindowCommandLine line;
  const std::string problems = read_url_settings(argc, argv, line);
  Page& page = the_page();
  try {
    SandboxOptions options;  // config_file empty: nothing is remembered between visits
    if (line.ui_scale) options.appearance.scale = *line.ui_scale;
    if (line.theme) options.appearance.theme = *line.theme;
    page.sandbox = std::make_unique<Sandbox>(options);
    start_window(*page.sandbox, line);
    if (!problems.empty()) page.sandbox->state().show_toast("Link settings: " + problems, true);
    page.toast = page.sandbox->state().toast;  // printed already: the console gets each message once
    page.toast_seconds = page.sandbox->state().toast_seconds;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "lagrange-lab: %s\n", error.what());
    return 1;
  }
  emscripten_set_main_loop_arg(frame, &page, 0, false);
  return 0;
}
