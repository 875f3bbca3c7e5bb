// The scene first (issue 21): at projector sizes the scene is the largest thing on the screen, no text is cut or a
// number broken across lines, no window runs off the screen, no text over the scene lies on a particle. Read back
// from what Dear ImGui drew (ui/layout_check.h), at 1280x720 and 1920x1080, UI scale 1, 2 and 3, light and dark.
#include <imgui.h>

#include "app_fixture.h"
#include "ui/layout_check.h"
#include "ui/overlay_layout.h"
#include "ui/text_box.h"
#include "ui/ui.h"

namespace lagrange::app::test {
namespace {

constexpr double kDt = 1.0 / 60.0;

struct Screen {
  int width, height;
  double scale;
  Theme theme;
};

SandboxOptions options_for(const Screen& screen) {
  SandboxOptions options = test_options(screen.width, screen.height);
  options.appearance.scale = screen.scale;
  options.appearance.theme = screen.theme;
  return options;
}

std::string describe(const Screen& s) {
  return std::to_string(s.width) + "x" + std::to_string(s.height) + " at " + std::to_string(s.scale).substr(0, 3) +
         (s.theme == Theme::Light ? " light" : " dark");
}

// The problems of the frame just drawn, each CHECKed with what was on the screen.
void check_layout(Sandbox& sandbox, const std::string& what) {
  const auto problems = layout_problems(sandbox.state(), sandbox.radii());
  for (const std::string& problem : problems) {
    CAPTURE(what);
    CAPTURE(sandbox.state().toast);
    CAPTURE(sandbox.state().alert);
    FAIL_CHECK(problem);
  }
}

}  // namespace

TEST_CASE("exploration: layout problems of every shipped scene at projector sizes") {
  for (const Screen screen : {Screen{1280, 720, 1.0, Theme::Dark}, Screen{1280, 720, 2.0, Theme::Light},
                              Screen{1280, 720, 3.0, Theme::Light}, Screen{1920, 1080, 2.0, Theme::Dark}}) {
    Sandbox sandbox(options_for(screen));
    for (const auto& file : shipped_scenes()) {
      REQUIRE(sandbox.load_scene(file) == "");
      SandboxState& state = sandbox.state();
      state.measure.shown = true;
      run_frames(sandbox, 30, kDt);
      check_layout(sandbox, describe(screen) + " " + file.filename().string());
    }
  }
}

}  // namespace lagrange::app::test

namespace lagrange::app::test {

TEST_CASE("exploration: panels, tabs, lanes, edit mode and help at projector sizes") {
  for (const Screen screen : {Screen{1280, 720, 1.0, Theme::Dark}, Screen{1280, 720, 2.0, Theme::Light},
                              Screen{1280, 720, 3.0, Theme::Light}, Screen{1920, 1080, 3.0, Theme::Dark}}) {
    Sandbox sandbox(options_for(screen));
    SandboxState& state = sandbox.state();
    for (const char* scene : {"period_amplitude.json", "double_pendulum.json", "hanging_cloth.json"}) {
      REQUIRE(sandbox.load_scene(asset(scene)) == "");
      const std::string what = describe(screen) + " " + scene;
      state.measure.shown = true;
      state.expand_sections = true;
      run_frames(sandbox, 20, kDt);
      check_layout(sandbox, what + " default");
      for (const char* bar : {"left bar", "right bar"}) {
        if (!state.widget_rects.count(bar)) continue;
        click_widget(sandbox, bar);
        run_frames(sandbox, 3, kDt);
        check_layout(sandbox, what + " " + bar + " opened");
      }
      for (const char* tab : {"measure: tab Protractor", "measure: tab Energy", "measure: tab Timer"}) {
        if (!state.widget_rects.count(tab)) continue;
        click_widget(sandbox, tab);
        run_frames(sandbox, 3, kDt);
        check_layout(sandbox, what + " " + tab);
      }
      state.view.left_open = state.view.right_open = true;
      state.view.opened_last = ViewOptions::Side::None;
      push_key(SDLK_l);
      push_key(SDLK_l);
      run_frames(sandbox, 30, kDt);
      check_layout(sandbox, what + " 3 lanes overlaid");
      push_key(SDLK_v);
      run_frames(sandbox, 30, kDt);
      check_layout(sandbox, what + " 3 lanes side by side");
      push_key(SDLK_l, KMOD_LCTRL);
      run_frames(sandbox, 10, kDt);
      check_layout(sandbox, what + " 2 lanes side by side");
      push_key(SDLK_v);
      push_key(SDLK_l, KMOD_LCTRL);
      push_key(SDLK_h);
      run_frames(sandbox, 3, kDt);
      check_layout(sandbox, what + " help");
      push_key(SDLK_h);
      push_key(SDLK_e);
      run_frames(sandbox, 5, kDt);
      check_layout(sandbox, what + " edit mode");
      push_key(SDLK_e);
      push_key(SDLK_F5);
      run_frames(sandbox, 5, kDt);
      check_layout(sandbox, what + " presentation");
      push_key(SDLK_F5);
      run_frames(sandbox, 2, kDt);
    }
  }
}

}  // namespace lagrange::app::test

namespace lagrange::app::test {
TEST_CASE("debug one") {
  const Screen screen{1280, 720, 3.0, Theme::Light};
  Sandbox sandbox(options_for(screen));
  SandboxState& state = sandbox.state();
  REQUIRE(sandbox.load_scene(asset("double_pendulum.json")) == "");
  state.measure.shown = true;
  state.expand_sections = true;
  run_frames(sandbox, 20, kDt);
  check_layout(sandbox, "debug");
  REQUIRE(sandbox.save_screenshot("/tmp/shots/debug.png") == "");
}
}
