// The panels and the scene's place between them (issue 6, item 7): the scene's viewport, plot scales and legends,
// complete labels, explained warnings, Enter in the path field, and the default screenshot folder.
#include <stb_image.h>

#include <cstdlib>
#include <fstream>
#include <optional>

#include "app_fixture.h"
#include "capture/screenshot_folder.h"
#include "ui/plots.h"
#include "ui/ui.h"

namespace lagrange::app::test {
namespace {

constexpr double kDt = 1.0 / 60.0;

using Rect = std::array<float, 4>;

bool inside(const Rect& inner, const Rect& outer, float slack = 0.5f) {
  return inner[0] >= outer[0] - slack && inner[1] >= outer[1] - slack && inner[2] <= outer[2] + slack &&
         inner[3] <= outer[3] + slack;
}

bool overlap(const Rect& a, const Rect& b) { return a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3]; }


}  // namespace

TEST_CASE("the scene is framed, drawn and picked in the free viewport between the panels") {
  Sandbox sandbox(test_options(1280, 720));
  REQUIRE(sandbox.load_scene(asset("double_pendulum.json")) == "");
  SandboxState& state = sandbox.state();
  run_frames(sandbox, 2, kDt);
  const Camera& camera = sandbox.camera();
  const Rect left = state.widget_rects.at("control panel"), right = state.widget_rects.at("diagnostics panel");
  // The viewport starts where the control panel ends and ends where Diagnostics begins.
  CHECK(camera.x() >= left[2]);
  CHECK(camera.x() + camera.width() <= right[0]);
  CHECK(camera.x() + camera.width() > right[0] - 30);
  CHECK(camera.height() == 720 - static_cast<int>(std::lround(timeline_height(state))));  // the timeline under it
  // Framing: every particle, and the reach of the swinging pendulum, projects inside the viewport.
  glm::dvec3 lo, hi;
  reach_bounds(sandbox.world(), lo, hi);
  for (const Vec3 corner : {lo, hi, Vec3(lo.x, hi.y, 0.0), Vec3(hi.x, lo.y, 0.0)}) {
    CAPTURE(corner.x);
    CAPTURE(corner.y);
    CHECK(camera.in_viewport(screen_of(sandbox, corner)));
  }
  // Nothing of the scene is drawn under the panels: pan it half under the control panel, draw without the panels.
  state.paused = true;
  state.view.grid = false;
  state.camera.centre.x += 0.5 * camera.width() / camera.pixels_per_unit(Vec3(0.0));
  run_frames(sandbox, 1, 0.0);
  sandbox.render(false);
  const Image image = sandbox.read_pixels();
  int under_panels = 0, in_viewport = 0;
  for (int y = 0; y < 720; y += 2) {
    for (int x = 0; x < camera.x(); x += 2) under_panels += colour_distance(image.at(x, y), kBackground) > 3.0;
    for (int x = camera.x(); x < camera.x() + camera.width(); x += 2)
      in_viewport += colour_distance(image.at(x, y), kBackground) > 3.0;
  }
  CHECK(under_panels == 0);
  CHECK(in_viewport > 100);
  // Folded panels (Tab): the viewport is the window but for the two bars; presentation (F5): the whole window.
  push_key(SDLK_TAB);
  run_frames(sandbox, 1, 0.0);
  const int bar = static_cast<int>(std::lround(panel_bar_width(state)));
  CHECK(camera.x() == bar);
  CHECK(camera.width() == 1280 - 2 * bar);
  push_key(SDLK_F5);
  run_frames(sandbox, 1, 0.0);
  CHECK(camera.x() == 0);
  CHECK(camera.width() == 1280);
  CHECK(camera.height() == 720);
}

TEST_CASE("a particle dragged toward Diagnostics stays in the viewport, never under the panel") {
  Sandbox sandbox(test_options(1280, 720));
  REQUIRE(sandbox.load_scene(asset("double_pendulum.json")) == "");
  SandboxState& state = sandbox.state();
  state.paused = true;
  run_frames(sandbox, 2, kDt);
  const Camera& camera = sandbox.camera();
  const int bob = 2;
  const glm::dvec2 start = screen_of(sandbox, sandbox.world().state().position[bob]);
  push_mouse_button(SDL_MOUSEBUTTONDOWN, start);
  run_frames(sandbox, 1, 0.0);
  REQUIRE(state.hand().particle() == bob);
  const glm::dvec2 over_diagnostics(state.widget_rects.at("diagnostics panel")[0] + 120.0, 300.0);
  push_mouse_motion(over_diagnostics, start, true);
  run_frames(sandbox, 1, 0.0);
  const glm::dvec2 target = screen_of(sandbox, state.hand().target());
  CHECK(camera.in_viewport(target));
  CHECK(target.x > camera.x() + camera.width() - 20.0);  // at the edge the cursor left through
  CHECK(target.y == doctest::Approx(300.0).epsilon(0.01));
  push_mouse_button(SDL_MOUSEBUTTONUP, over_diagnostics);
  run_frames(sandbox, 1, 0.0);
}

TEST_CASE("a plot's scale ignores a single spike, keeps the latest value and names what went off scale") {
  History history;
  const double spike = 1e6;
  for (int i = 0; i < 1200; ++i) {
    Sample s;
    s.time = i / 60.0;
    s.kinetic = 0.5 + 0.5 * std::sin(i * 0.05);  // 0 .. 1
    s.violation = 1e-11 * (1.0 + 0.5 * std::sin(i * 0.1));
    if (i == 600) {
      s.kinetic = spike;
      s.violation = 1e-2;
    }
    history.push(s);
  }
  const PlotRange linear = plot_range(history, {{"kinetic", &Sample::kinetic, 0}}, false);
  CHECK(linear.hi > 1.0);
  CHECK(linear.hi < 1.5);  // the oscillation fills the plot; the spike does not set the scale
  CHECK(linear.lo < 0.0);
  CHECK(linear.lo > -0.5);
  CHECK(linear.clipped_high);
  CHECK(!linear.clipped_low);
  CHECK(linear.peak_hi == spike);
  const PlotRange log = plot_range(history, {{"max |C|", &Sample::violation, 0}}, true);
  CHECK(log.hi <= -9.0);  // decades around 1e-11, not up to the spike's 1e-2
  CHECK(log.lo >= -13.0);
  CHECK(log.clipped_high);
  CHECK(log.peak_hi == doctest::Approx(1e-2));
  // The latest value is always on the scale, however rare.
  Sample last;
  last.time = 21.0;
  last.kinetic = 50.0;
  history.push(last);
  const PlotRange latest = plot_range(history, {{"kinetic", &Sample::kinetic, 0}}, false);
  CHECK(latest.hi >= 50.0);
  CHECK(latest.hi < 100.0);
}

TEST_CASE("plot legends sit in a band above the curves, never over them") {
  for (const auto& [w, h] : {std::pair{640, 400}, std::pair{960, 540}, std::pair{1280, 720}}) {
    CAPTURE(w);
    Sandbox sandbox(test_options(w, h));
    REQUIRE(sandbox.load_scene(asset("double_pendulum.json")) == "");
    open_panel(sandbox.state(), ViewOptions::Side::Right);  // Diagnostics, even where the window is small
    run_frames(sandbox, 30, kDt);
    const auto& rects = sandbox.state().widget_rects;
    int plots = 0, legends = 0;
    for (const std::string id : {"energy", "total", "violation", "iterations", "solve"}) {
      CAPTURE(id);
      const std::string name = std::string("plot ") + id;
      REQUIRE(rects.count(name + " curves") == 1);
      const Rect curves = rects.at(name + " curves"), frame = rects.at(name);
      CHECK(inside(curves, frame));
      ++plots;
      for (int k = 0; rects.count(name + " legend " + std::to_string(k)); ++k) {
        const Rect legend = rects.at(name + " legend " + std::to_string(k));
        CHECK(!overlap(legend, curves));
        CHECK(inside(legend, frame));
        const Rect panel = rects.at("diagnostics panel");
        CHECK(legend[0] >= panel[0]);  // across: inside the panel (down: the panel scrolls)
        CHECK(legend[2] <= panel[2]);
        ++legends;
      }
    }
    CHECK(plots == 5);
    CHECK(legends == 8);  // kinetic, potential, total; total; max |C|, max |Jv|; iterations; solve time
  }
}

TEST_CASE("every label of both panels and the top line is complete at every window size") {
  for (const auto& [w, h] : {std::pair{640, 400}, std::pair{960, 540}, std::pair{1280, 720}, std::pair{1920, 1080}}) {
    CAPTURE(w);
    for (const char* scene : {"double_pendulum.json", "spherical_pendulum.json"}) {  // 2D and 3D settings
      CAPTURE(scene);
      Sandbox sandbox(test_options(w, h));
      REQUIRE(sandbox.load_scene(asset(scene)) == "");
      SandboxState& state = sandbox.state();
      state.expand_sections = true;
      state.time_scale = 0.25;  // the top line's longest form
      state.drag_model = DragModel::Spring;  // shows the spring's stiffness slider
      state.paused = true;
      // Each panel as the user opens it (a small window has room for one at a time).
      open_panel(state, ViewOptions::Side::Left);
      run_frames(sandbox, 3, kDt);
      const Rect control = state.widget_rects.at("control panel");
      int labels = 0;
      for (const auto& [name, rect] : state.widget_rects) {
        if (name.starts_with("label: ")) {
          CAPTURE(name);
          CHECK(rect[2] <= control[2] + 0.5f);  // ends before the panel's edge: nothing cut
          CHECK(rect[0] >= control[0] - 0.5f);
          ++labels;
        }
      }
      CHECK(labels >= 20);  // every slider, checkbox and button of the expanded panel
      CHECK(state.widget_rects.count("label: stiffness per kg moved [N/m/kg]") == 1);
      for (const char* model : {"drag model hard", "drag model spring"}) {
        CAPTURE(model);
        REQUIRE(state.widget_rects.count(model) == 1);
        CHECK(state.widget_rects.at(model)[2] <= control[2] + 0.5f);
      }
      for (const char* setting :
           {"label: penalty damping [N s/m]", "label: Baumgarte \xce\xb2 [1/s]", "label: turn limit [\xc2\xb0]"})
        if (state.widget_rects.count(setting) == 0) {
          bool found = false;  // the unit comes from the settings table: match the label's start
          const std::string prefix = std::string(setting).substr(0, std::string(setting).find(" ["));
          for (const auto& [name, rect] : state.widget_rects) found |= name.starts_with(prefix);
          CHECK_MESSAGE(found, setting);
        }
      open_panel(state, ViewOptions::Side::Right);
      run_frames(sandbox, 3, kDt);
      const Rect diagnostics = state.widget_rects.at("diagnostics panel");
      for (const auto& [name, rect] : state.widget_rects)
        if (name.starts_with("diagnostics: ") || name == "renderer") {
          CAPTURE(name);
          CHECK(rect[2] <= diagnostics[2] + 0.5f);
        }
      // The renderer's name is wrapped inside Diagnostics, the top line stays in the viewport.
      REQUIRE(state.widget_rects.count("renderer"));
      CHECK(state.widget_rects.at("renderer")[2] <= diagnostics[2] + 0.5f);
      const Rect hud = state.widget_rects.at("hud");
      const Camera& camera = sandbox.camera();
      CHECK(hud[0] >= camera.x());
      CHECK(hud[2] <= camera.x() + camera.width());
    }
  }
}

TEST_CASE("the engine's warnings are shown one per labelled row") {
  Sandbox sandbox(test_options(1280, 720));
  REQUIRE(sandbox.load_scene(asset("hanging_cloth.json")) == "");
  SandboxState& state = sandbox.state();
  Settings settings = state.edit;
  settings.max_iterations = 1;  // projection cannot converge in one iteration: substeps end above tolerance
  state.commands.push_back(Command::apply_settings(settings));
  run_frames(sandbox, 10, kDt);
  REQUIRE(sandbox.world().stats().failures > 0);
  CHECK(state.widget_rects.count("diagnostics: above tolerance") == 1);
  CHECK(state.widget_rects.count("diagnostics: warnings") == 0);  // no unexplained "a / b / c" line
  for (const auto& [name, rect] : state.widget_rects)
    if (name.starts_with("diagnostics: ")) CHECK(rect[2] <= state.widget_rects.at("diagnostics panel")[2] + 0.5f);
}

TEST_CASE("Enter in the scene path field opens the file, even when the key's press and release come together") {
  Sandbox sandbox(test_options(1280, 720));
  REQUIRE(sandbox.load_scene(asset("double_pendulum.json")) == "");
  SandboxState& state = sandbox.state();
  run_frames(sandbox, 2, kDt);
  // As if typed up to the last letter: then the last letter is typed and Enter pressed.
  const std::string path = asset("rope_bridge.json").string();
  std::snprintf(state.path_field.data(), state.path_field.size(), "%s", path.substr(0, path.size() - 1).c_str());
  click_widget(sandbox, "path field");
  REQUIRE(ImGui::GetIO().WantTextInput);
  push_key(SDLK_END);  // the click put the text cursor under the pointer
  run_frames(sandbox, 2, 0.0);
  SDL_Event text{};
  text.type = SDL_TEXTINPUT;
  std::snprintf(text.text.text, sizeof text.text.text, "%s", path.substr(path.size() - 1).c_str());
  REQUIRE(SDL_PushEvent(&text) == 1);
  run_frames(sandbox, 1, 0.0);
  push_key(SDLK_RETURN);  // press and release in the same frame, as xdotool and quick typists send them
  run_frames(sandbox, 3, 0.0);
  CHECK_MESSAGE(state.scene_error.empty(), state.scene_error);
  CHECK(state.scene_path == asset("rope_bridge.json"));
  CHECK(state.scene.name != "Double pendulum");
}

TEST_CASE("screenshots go to the pictures folder under Lagrange Lab and the saved path is shown") {
  const auto dir = temp_dir("pictures");
  {
    const ScopedEnv pictures("XDG_PICTURES_DIR", (dir / "Bilder").string());
    CHECK(default_screenshot_dir() == dir / "Bilder" / "Lagrange Lab");
  }
  {
    // No XDG_PICTURES_DIR: the user-dirs.dirs file, then $HOME/Pictures.
    const ScopedEnv pictures("XDG_PICTURES_DIR", std::nullopt);
    const ScopedEnv home("HOME", dir.string());
    const ScopedEnv config("XDG_CONFIG_HOME", (dir / "config").string());
    CHECK(default_screenshot_dir() == dir / "Pictures" / "Lagrange Lab");
    std::filesystem::create_directories(dir / "config");
    std::ofstream(dir / "config" / "user-dirs.dirs") << "# written by xdg-user-dirs-update\n"
                                                        "XDG_DESKTOP_DIR=\"$HOME/Desktop\"\n"
                                                        "XDG_PICTURES_DIR=\"$HOME/Fotos\"\n";
    CHECK(default_screenshot_dir() == dir / "Fotos" / "Lagrange Lab");
  }
  const ScopedEnv pictures("XDG_PICTURES_DIR", (dir / "Pictures").string());
  Sandbox sandbox(test_options());
  REQUIRE(sandbox.load_scene(asset("double_pendulum.json")) == "");
  SandboxState& state = sandbox.state();
  CHECK(state.screenshot_dir == dir / "Pictures" / "Lagrange Lab");
  state.expand_sections = true;
  push_key(SDLK_F12);
  run_frames(sandbox, 2, kDt);
  std::vector<std::filesystem::path> pngs;
  for (const auto& entry : std::filesystem::directory_iterator(dir / "Pictures" / "Lagrange Lab"))
    pngs.push_back(entry.path());
  REQUIRE(pngs.size() == 1);
  CHECK(pngs[0].extension() == ".png");
  CHECK(state.notice.find(pngs[0].string()) != std::string::npos);  // the full path, in the panel and the top line
  CHECK(state.toast.find(pngs[0].string()) != std::string::npos);
  CHECK(state.widget_rects.count("screenshot notice") == 1);
  CHECK(std::string(state.folder_field.data()) == state.screenshot_dir.string());
  std::filesystem::remove_all(dir);
}

}  // namespace lagrange::app::test

namespace lagrange::app::test {

TEST_CASE("docs/app.md lists exactly the keys of the shortcut table that the help, --list-keys and the tests use") {
  std::ifstream file(std::filesystem::path(LAGRANGE_ASSETS_DIR) / ".." / "docs" / "app.md");
  REQUIRE(file.good());
  std::vector<std::string> documented;
  bool in_keys = false;
  for (std::string line; std::getline(file, line);) {
    if (line.starts_with("## ")) in_keys = line == "## Keys";
    if (!in_keys || !line.starts_with("| ") || line.starts_with("| key") || line.starts_with("| ---")) continue;
    documented.push_back(line.substr(2, line.find(" |", 2) - 2));
  }
  std::vector<std::string> table;
  for (const Shortcut& s : shortcuts())
    if (s.codes[0] != SDLK_UNKNOWN) table.push_back(s.keys);
  CHECK(documented == table);
}

}  // namespace lagrange::app::test
