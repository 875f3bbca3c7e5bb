// The scene first (issue 21): at every size and UI scale the scene is the largest thing on the screen; no text is cut
// or a number broken across lines, no window runs off the screen, no text over the scene lies on a particle. Read
// back from what Dear ImGui drew (ui/layout_check.h), at 1280x720 and 1920x1080, UI scale 1, 2 and 3, light and dark.
#include <imgui.h>

#include <cmath>
#include <string>

#include "app_fixture.h"
#include "ui/layout_check.h"
#include "ui/overlay_layout.h"
#include "ui/plots.h"
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
  char text[64];
  std::snprintf(text, sizeof text, "%dx%d at %.1fx %s", s.width, s.height, s.scale,
                s.theme == Theme::Light ? "light" : "dark");
  return text;
}

// The problems of the frame just drawn (all of them, or only those of one kind), each a failed check naming the
// screen and what was on it.
void check_layout(Sandbox& sandbox, const std::string& what, const std::string& only = "") {
  for (const std::string& problem : layout_problems(sandbox.state(), sandbox.radii())) {
    if (!only.empty() && !problem.starts_with(only)) continue;
    CAPTURE(what);
    CAPTURE(sandbox.state().toast);
    FAIL_CHECK(problem);
  }
}

constexpr Screen kProjectors[] = {{1280, 720, 1.0, Theme::Dark},   {1280, 720, 2.0, Theme::Light},
                                  {1280, 720, 3.0, Theme::Light},  {1920, 1080, 1.0, Theme::Light},
                                  {1920, 1080, 2.0, Theme::Dark},  {1920, 1080, 3.0, Theme::Dark}};

using Rect = std::array<float, 4>;
float area(const Rect& r) { return (r[2] - r[0]) * (r[3] - r[1]); }

}  // namespace

TEST_CASE("overlays go to a corner clear of the scene's reach, and the framing leaves the reach room beside them") {
  const Box view{0, 0, 1000, 600};
  // A top line 400 x 40 and a legend 300 x 60 beside a square reach: bands across the top and bottom would leave it
  // 600 − (8 + 40 + 4) − (8 + 60 + 4) = 476 high; both on the left as columns leave it 1000 − (8 + 400 + 4) = 588
  // wide and the whole height, a square 588 high, but squeezed into the right of the view (its middle 206 units
  // right of the view's); the top line as a band and the legend as a column leave 600 − 52 = 548 high and 688 wide,
  // the square's middle 86 units right and 26 down: 548 is within 0.85 of 588, and nearer the middle, so it wins.
  const std::vector<Overlay> overlays = {{400, 40, {Anchor::TopLeft, Anchor::TopRight}},
                                         {300, 60, {Anchor::BottomLeft, Anchor::BottomRight}}};
  const Framing f = frame_beside(view, 1.0f, overlays, 8.0f, 4.0f);
  CHECK(f.scale == doctest::Approx(548.0f));
  CHECK(f.free.width() == doctest::Approx(548.0f));  // the free rectangle is the reach's own place
  CHECK(0.5f * (f.free.x0 + f.free.x1) == doctest::Approx(312.0f + 274.0f));  // as far left as the legend lets it
  for (std::size_t k = 0; k < overlays.size(); ++k)
    CHECK(overlap_area(overlay_box(view, f.anchors[k], overlays[k].width, overlays[k].height, 8.0f), f.free) == 0.0f);
  // A wide reach (aspect 4) is limited by the width: the overlays take columns of a band's worth of nothing.
  const Framing wide = frame_beside(view, 4.0f, overlays, 8.0f, 4.0f);
  CHECK(wide.scale == doctest::Approx(1000.0f / 4.0f));
  // Centred (a perspective view): the free rectangle is symmetric about the view's middle.
  const Framing centred = frame_beside(view, 1.0f, overlays, 8.0f, 4.0f, true);
  CHECK(centred.free.x0 - view.x0 == doctest::Approx(view.x1 - centred.free.x1));
  CHECK(centred.free.y0 - view.y0 == doctest::Approx(view.y1 - centred.free.y1));
  CHECK(centred.scale <= f.scale);
  // Placed each frame: the first anchor whose box covers neither the reach nor an overlay already placed.
  const Box reach{0, 0, 500, 600};  // the left half
  const std::vector<Anchor> placed = place_overlays(view, reach, overlays, {}, 8.0f);
  CHECK(placed[0] == Anchor::TopRight);
  CHECK(placed[1] == Anchor::BottomRight);
  // Nowhere free: the anchor covering least.
  const std::vector<Anchor> cornered = place_overlays(view, Box{0, 0, 900, 600}, overlays, {}, 8.0f);
  CHECK(cornered[0] == Anchor::TopRight);
}

TEST_CASE("a number is written to fit its space: fewer digits, an SI prefix, never cut") {
  // Widths measured as 10 units per byte: independent of any font. A number and its unit are joined by a no-break
  // space (U+00A0): text that wraps never puts the unit on the next line.
  const auto chars = [](const std::string& s) { return 10.0f * static_cast<float>(s.size()); };
  const auto nb = [](std::string s) {
    for (std::size_t at = s.find(' '); at != std::string::npos; at = s.find(' ', at)) s.replace(at, 1, "\xc2\xa0");
    return s;
  };
  CHECK(fit_number(0.133772, "J", 1000.0f, true, 5, chars) == nb("+133.77 mJ"));
  CHECK(fit_number(0.133772, "J", 70.0f, true, 5, chars) == nb("+134 mJ"));
  CHECK(fit_number(-8.568, "J", 1000.0f, true, 4, chars) == nb("-8.568 J"));
  CHECK(fit_number(2.074e-6, "s", 1000.0f, false, 5, chars) == nb("2.0740 \xc2\xb5s"));
  CHECK(fit_number(7.7716e-16, "m", 1000.0f, false, 5, chars) == nb("7.77e-16 m"));
  CHECK(fit_number(0.14610, "%", 1000.0f, true, 3, chars) == nb("+0.146 %"));
  CHECK(fit_number(0.0, "J", 1000.0f, true, 5, chars) == nb("+0 J"));
  CHECK(fit_number(1234567.0, "m", 1000.0f, false, 3, chars) == nb("1.23e+06 m"));
  // However narrow, the whole digits and the unit: shortened, never cut.
  CHECK(fit_number(0.133772, "J", 1.0f, true, 5, chars) == nb("+134 mJ"));
}

TEST_CASE("the scene is the largest thing on the screen at every size from 1024x600 to 3840x2160 and every UI scale") {
  for (const auto& [w, h] : {std::pair{1024, 600}, std::pair{1280, 720}, std::pair{1920, 1080}, std::pair{3840, 2160}}) {
    for (const double scale : {1.0, 1.5, 2.0, 3.0}) {
      CAPTURE(w);
      CAPTURE(scale);
      SandboxOptions options = test_options(w, h);
      options.appearance.scale = scale;
      Sandbox sandbox(options);
      REQUIRE(sandbox.load_scene(asset("double_pendulum.json")) == "");
      SandboxState& state = sandbox.state();
      for (const bool measure : {false, true}) {
        CAPTURE(measure);
        state.measure.shown = measure;
        run_frames(sandbox, 2, kDt);
        const Camera& camera = sandbox.camera();
        const float scene = static_cast<float>(camera.width()) * static_cast<float>(camera.height());
        CHECK(camera.width() >= w / 2 - 1);  // at least half the width
        for (const char* panel : {"control panel", "diagnostics panel", "measure panel"}) {
          if (!state.widget_rects.count(panel)) continue;
          CAPTURE(panel);
          CHECK(scene > area(state.widget_rects.at(panel)));
        }
        const PanelLayout layout = panel_layout(state);
        CHECK(scene > layout.left * h);
        CHECK(scene > layout.right * h);
      }
    }
  }
}

TEST_CASE("at projector sizes no text is cut, no number broken and no window off the screen, on every shipped scene") {
  for (const Screen& screen : kProjectors) {
    Sandbox sandbox(options_for(screen));
    for (const auto& file : shipped_scenes()) {
      REQUIRE(sandbox.load_scene(file) == "");
      sandbox.state().measure.shown = true;
      run_frames(sandbox, 12, kDt);
      check_layout(sandbox, describe(screen) + " " + file.filename().string());
    }
  }
}

TEST_CASE("at projector sizes every panel, Measure tool, lane view, Edit mode and the help read whole") {
  for (const Screen& screen : kProjectors) {
    Sandbox sandbox(options_for(screen));
    SandboxState& state = sandbox.state();
    for (const char* scene : {"period_amplitude.json", "double_pendulum.json", "hanging_cloth.json"}) {
      REQUIRE(sandbox.load_scene(asset(scene)) == "");
      const std::string what = describe(screen) + " " + scene;
      state.measure.shown = true;
      state.expand_sections = true;
      run_frames(sandbox, 12, kDt);
      check_layout(sandbox, what + " as it opens");
      for (const char* bar : {"left bar", "right bar"}) {  // a panel collapsed to make room, opened by its bar
        if (!state.widget_rects.count(bar)) continue;
        click_widget(sandbox, bar);
        run_frames(sandbox, 3, kDt);
        check_layout(sandbox, what + " " + bar + " clicked");
      }
      for (const char* tool : {"measure: tab Protractor", "measure: tab Energy", "measure: tab Table", "measure: tab Timer"}) {
        if (!state.widget_rects.count(tool)) continue;
        click_widget(sandbox, tool);
        run_frames(sandbox, 3, kDt);
        check_layout(sandbox, what + " " + tool);
      }
      open_panel(state, ViewOptions::Side::None);
      state.view.opened_last = ViewOptions::Side::None;
      // Two lanes: at 3x in a 1280x720 window with the Measure strip, two views side by side are what fits; three
      // or four (a 2 x 2 grid) leave each view too small for its name beside the scene.
      const bool roomy = screen.scale < 3.0 || screen.height >= 1080;
      push_key(SDLK_l);
      if (roomy) push_key(SDLK_l);
      run_frames(sandbox, 20, kDt);
      check_layout(sandbox, what + " lanes overlaid");
      push_key(SDLK_v);
      run_frames(sandbox, 20, kDt);
      check_layout(sandbox, what + " lanes side by side");
      push_key(SDLK_v);
      push_key(SDLK_l, KMOD_LCTRL);
      if (roomy) push_key(SDLK_l, KMOD_LCTRL);
      push_key(SDLK_h);
      run_frames(sandbox, 3, kDt);
      check_layout(sandbox, what + " help");
      push_key(SDLK_h);
      push_key(SDLK_e);
      run_frames(sandbox, 5, kDt);
      REQUIRE(state.editor.active);
      check_layout(sandbox, what + " Edit mode");
      push_key(SDLK_e);
      push_key(SDLK_F5);
      run_frames(sandbox, 5, kDt);
      check_layout(sandbox, what + " presentation");
      push_key(SDLK_F5);
      run_frames(sandbox, 2, kDt);
    }
  }
}

TEST_CASE("at projector sizes a lane's solver box shows its solver's whole name, or as much as fits and an ellipsis") {
  // Dear ImGui drops a combo box's preview glyphs past its edge whole, which the layout check cannot see: at 2x in
  // 1280x720 the second lane's box read "Acceleration leve". Every box's preview is now the name or a cut one with
  // "…", no wider than the box leaves for it (its arrow and padding off).
  for (const Screen& screen : kProjectors) {
    Sandbox sandbox(options_for(screen));
    SandboxState& state = sandbox.state();
    REQUIRE(sandbox.load_scene(asset("double_pendulum.json")) == "");
    state.expand_sections = true;
    Command lane;
    lane.kind = Command::Kind::AddLane;
    lane.path = "acceleration";
    state.commands.push_back(lane);
    int seen = 0;
    for (auto side : {ViewOptions::Side::Left, ViewOptions::Side::Right}) {
      open_panel(state, side);
      run_frames(sandbox, 6, kDt);
      for (int k : {1, 2}) {
        const std::string name = "lane " + std::to_string(k) + " solver";
        if (!state.widget_texts.count(name) || !state.widget_rects.count(name)) continue;
        ++seen;
        const std::string preview = state.widget_texts.at(name).at(0);
        const std::string whole = k == 1 ? "Lagrange projection" : "Acceleration level";
        CAPTURE(describe(screen));
        CAPTURE(preview);
        const auto& r = state.widget_rects.at(name);
        const float room = (r[2] - r[0]) - ImGui::GetFrameHeight() - 2.0f * ImGui::GetStyle().FramePadding.x;
        CHECK(ImGui::CalcTextSize(preview.c_str()).x <= room + 0.5f);
        const std::string ellipsis = "\u2026";
        CHECK((preview == whole || (preview.ends_with(ellipsis) &&
                                    whole.starts_with(preview.substr(0, preview.size() - ellipsis.size())))));
      }
      state.widget_texts.clear();
      state.widget_rects.clear();
    }
    CHECK(seen >= 2);
  }
}

TEST_CASE("at projector sizes the Scale tool, its lists and an obstacle's tooltip read whole (scenes with obstacles)") {
  for (const Screen& screen : kProjectors) {
    Sandbox sandbox(options_for(screen));
    SandboxState& state = sandbox.state();
    for (const char* scene : {"falling_chain.json", "chain_over_a_peg.json"}) {
      REQUIRE(sandbox.load_scene(asset(scene)) == "");
      const std::string what = describe(screen) + " " + scene;
      state.measure.shown = true;
      run_frames(sandbox, 20, kDt);
      if (state.widget_rects.count("measure: tab Scale")) click_widget(sandbox, "measure: tab Scale");
      run_frames(sandbox, 3, kDt);
      REQUIRE(state.widget_rects.count("measure: scale heading") == 1);
      check_layout(sandbox, what + " Scale");
      click_widget(sandbox, "measure: scale reference");
      check_layout(sandbox, what + " Scale's references");
      push_key(SDLK_ESCAPE);
      run_frames(sandbox, 2, kDt);
    }
  }
}

// One screen and half the scenes each: a test of its own (every shipped scene for 3 s is minutes of software
// rendering, and CTest gives a test 300 s).
static void no_text_on_particles(const Screen& screen, int half) {
  {
    Sandbox sandbox(options_for(screen));
    const auto files = shipped_scenes();
    const std::size_t middle = files.size() / 2;
    for (std::size_t f = half == 0 ? 0 : middle; f < (half == 0 ? middle : files.size()); ++f) {
      const auto& file = files[f];
      REQUIRE(sandbox.load_scene(file) == "");
      sandbox.state().measure.shown = true;
      for (int k = 0; k < 6; ++k) {  // 3 s, looked at every half second
        run_frames(sandbox, 30, kDt);
        check_layout(sandbox, describe(screen) + " " + file.filename().string(), "covers");
      }
    }
  }
}

TEST_CASE("no text over the scene lies on a particle while the first half of the shipped scenes runs, 1280x720 at 2x") {
  no_text_on_particles(Screen{1280, 720, 2.0, Theme::Light}, 0);
}

TEST_CASE("no text over the scene lies on a particle while the second half of the shipped scenes runs, 1280x720 at 2x") {
  no_text_on_particles(Screen{1280, 720, 2.0, Theme::Light}, 1);
}

TEST_CASE("no text over the scene lies on a particle while the first half of the shipped scenes runs, 1920x1080 at 1x") {
  no_text_on_particles(Screen{1920, 1080, 1.0, Theme::Dark}, 0);
}

TEST_CASE("no text over the scene lies on a particle while the second half of the shipped scenes runs, 1920x1080 at 1x") {
  no_text_on_particles(Screen{1920, 1080, 1.0, Theme::Dark}, 1);
}

TEST_CASE("rod length labels keep off the particles and the other texts: the class's 1280x720 at 2x, lanes and Measure") {
  // Each label used to sit right of its rod's middle whatever was there: with two lanes side by side under the
  // Measure strip a triangle's labels lay on its particles and on each other. They are registered as texts over the
  // scene ("length label ..."), so the layout check holds them to what it holds the top line and the legend to.
  for (const char* scene : {"rigid_triangle.json", "double_pendulum.json", "tetrahedron.json", "hanging_chain.json"}) {
    for (const bool split : {false, true}) {
      Sandbox sandbox(options_for(Screen{1280, 720, 2.0, Theme::Light}));
      SandboxState& state = sandbox.state();
      REQUIRE(sandbox.load_scene(asset(scene)) == "");
      state.measure.shown = true;
      state.view.length_labels = true;
      state.view.rest_ghosts = true;
      push_key(SDLK_l);
      if (split) push_key(SDLK_v);
      int labels = 0;
      for (int k = 0; k < 8; ++k) {  // 2 s, looked at every quarter second
        run_frames(sandbox, 15, kDt);
        check_layout(sandbox, std::string(scene) + (split ? " lanes side by side" : " lanes overlaid"));
        for (const auto& entry : state.widget_rects) labels += entry.first.starts_with("length label ");
      }
      CAPTURE(std::string(scene));
      CAPTURE(split);
      CHECK(labels > 8);  // labels are drawn, not all left out
    }
  }
}

TEST_CASE("the recording's badge keeps off the particles and the other texts: one lane, overlaid and side by side") {
  // It used to sit at the scene's top right whatever was there: on period_amplitude's 150° bob at 2x in 1280x720,
  // and with lanes side by side on lane 2's name. It now takes the first corner of lane 1's view where it covers
  // neither the reach nor another text, and the layout check counts it among the texts over the scene.
  const auto dir = temp_dir("recording-badge");
  for (const char* scene : {"period_amplitude.json", "double_pendulum.json", "newtons_cradle.json"}) {
    Sandbox sandbox(options_for(Screen{1280, 720, 2.0, Theme::Light}));
    SandboxState& state = sandbox.state();
    REQUIRE(sandbox.load_scene(asset(scene)) == "");
    state.screenshot_dir = dir;
    state.measure.shown = true;
    push_key(SDLK_F9);
    run_frames(sandbox, 30, kDt);
    REQUIRE(state.recording.active);
    REQUIRE(state.widget_rects.count("recording indicator") == 1);
    check_layout(sandbox, std::string(scene) + " recording");
    push_key(SDLK_l);
    run_frames(sandbox, 30, kDt);
    check_layout(sandbox, std::string(scene) + " recording, lanes overlaid");
    push_key(SDLK_v);
    for (int k = 0; k < 4; ++k) {  // 2 s, looked at every half second
      run_frames(sandbox, 30, kDt);
      check_layout(sandbox, std::string(scene) + " recording, lanes side by side");
    }
    push_key(SDLK_F9);
    run_frames(sandbox, 1, kDt);
    CHECK(!state.recording.active);
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("Tab folds the panels to bars, a bar opens its panel, its button folds it, and F5 leaves the scene alone") {
  Sandbox sandbox(test_options(1280, 720));
  REQUIRE(sandbox.load_scene(asset("double_pendulum.json")) == "");
  SandboxState& state = sandbox.state();
  run_frames(sandbox, 2, kDt);
  REQUIRE(state.widget_rects.count("control panel"));
  REQUIRE(state.widget_rects.count("diagnostics panel"));
  const int open_width = sandbox.camera().width();
  push_key(SDLK_TAB);
  run_frames(sandbox, 2, kDt);
  CHECK(state.widget_rects.count("left bar") == 1);
  CHECK(state.widget_rects.count("right bar") == 1);
  CHECK(state.widget_rects.count("control panel") == 0);
  CHECK(sandbox.camera().width() == 1280 - 2 * static_cast<int>(std::lround(panel_bar_width(state))));
  CHECK(sandbox.camera().width() > open_width);
  click_widget(sandbox, "right bar");  // the bar opens Diagnostics alone
  run_frames(sandbox, 2, kDt);
  CHECK(state.widget_rects.count("diagnostics panel") == 1);
  CHECK(state.widget_rects.count("left bar") == 1);
  click_widget(sandbox, "collapse right");  // and its » folds it again
  run_frames(sandbox, 2, kDt);
  CHECK(state.widget_rects.count("right bar") == 1);
  push_key(SDLK_TAB);
  run_frames(sandbox, 2, kDt);
  CHECK(state.widget_rects.count("control panel") == 1);
  CHECK(state.widget_rects.count("diagnostics panel") == 1);
  // Presentation: the scene fills the window; one line over it says the solver and the time, nothing else is drawn.
  push_key(SDLK_F5);
  run_frames(sandbox, 2, kDt);
  CHECK(sandbox.camera().width() == 1280);
  CHECK(sandbox.camera().height() == 720);
  for (const char* gone : {"control panel", "diagnostics panel", "left bar", "right bar", "legend", "timeline slider"})
    CHECK_MESSAGE(state.widget_rects.count(gone) == 0, gone);
  REQUIRE(state.widget_rects.count("hud") == 1);
  const Rect hud = state.widget_rects.at("hud");
  CHECK(hud[3] - hud[1] < 3.0f * ImGui::GetFontSize());  // one line
  push_key(SDLK_ESCAPE);
  run_frames(sandbox, 2, kDt);
  CHECK_FALSE(state.view.presentation);
  CHECK(state.widget_rects.count("control panel") == 1);
}

TEST_CASE("lanes side by side: each framed on its own reach at lane 1's scale, a blown-up lane on its own") {
  Sandbox sandbox(test_options(1280, 720));
  REQUIRE(sandbox.load_scene(asset("double_pendulum.json")) == "");
  SandboxState& state = sandbox.state();
  Command lane;
  lane.kind = Command::Kind::AddLane;
  lane.path = "acceleration";
  state.commands.push_back(lane);
  lane.path = "penalty:stiffness=1e9";  // far too stiff for 1/240 s: it blows up at once
  state.commands.push_back(lane);
  state.lane_view = LaneView::Split;
  run_frames(sandbox, 60, kDt);
  REQUIRE(state.lane_count() == 3);
  REQUIRE(!state.sim.lane(2).running());
  const auto views = lane_viewports(state);
  REQUIRE(views.size() == 3);
  // Two lanes in scale share lane 1's pixels per metre; each view holds its own lane's pendulum.
  CHECK(lane_in_scale(state, 1));
  const Vec3 origin(0.0);
  CHECK(state.view_camera(1).pixels_per_unit(origin) == doctest::Approx(state.view_camera(0).pixels_per_unit(origin)));
  for (std::size_t k = 0; k < 2; ++k) {
    Camera camera = state.view_camera(k);
    camera.set_viewport(views[k][0], views[k][1], views[k][2], views[k][3]);
    for (const Vec3& p : state.lane_world(k).state().position) {
      const auto at = camera.project(p);
      REQUIRE(at.has_value());
      CHECK(camera.in_viewport(glm::dvec2(at->x, at->y)));
    }
  }
  // Its name inside its own view.
  for (const int k : {2, 3}) {
    const std::string name = "lane label " + std::to_string(k);
    REQUIRE(state.widget_rects.count(name));
    const Rect label = state.widget_rects.at(name);
    const auto& v = views[static_cast<std::size_t>(k - 1)];
    CHECK(label[0] >= v[0]);
    CHECK(label[2] <= v[0] + v[2]);
    CHECK(label[1] >= v[1]);
    CHECK(label[3] <= v[1] + v[3]);
  }
  // The plots: the blown-up lane is drawn but sets no scale, so lane 1's total energy keeps the plot's height.
  std::vector<Series> with, without;
  for (std::size_t k = 0; k < 3; ++k) {
    const Series s{"lane", &Sample::total, 0, k == 0 ? nullptr : &state.displays[k].history, state.sim.lane(k).running()};
    with.push_back(s);
    if (k < 2) without.push_back(s);
  }
  const PlotRange a = plot_range(state.displays[0].history, with, false);
  const PlotRange b = plot_range(state.displays[0].history, without, false);
  CHECK(a.lo == b.lo);
  CHECK(a.hi == b.hi);
}


TEST_CASE("lanes side by side beside the panels: each draws its reach over most of its view, the legend off it") {
  // Found at 1280x720, 2x, with the left panel and the Measure strip open: the lanes' pendulums drawn 60-70 px tall,
  // the legend squeezed into the last view five lines tall and every lane drawn at that view's scale. The same with
  // four lanes beside both panels at 1x. (Lane views of 367 x 446 and 319 x 344 units: the reach was drawn over 47 %
  // and 61 % of their shorter side.)
  struct Case {
    Screen screen;
    int lanes;
    bool measure;
    double fraction;  // of the view's shorter side, at least
  };
  for (const Case c :
       {Case{{1280, 720, 2.0, Theme::Light}, 2, true, 0.55}, Case{{1280, 720, 1.0, Theme::Dark}, 4, false, 0.64}}) {
    CAPTURE(describe(c.screen));
    Sandbox sandbox(options_for(c.screen));
    REQUIRE(sandbox.load_scene(asset("double_pendulum.json")) == "");
    SandboxState& state = sandbox.state();
    for (int k = 1; k < c.lanes; ++k) push_key(SDLK_l);
    run_frames(sandbox, 2, kDt);
    state.lane_view = LaneView::Split;
    state.measure.shown = c.measure;
    open_panel(state, ViewOptions::Side::Left);
    if (c.measure) state.view.right_open = false;
    state.paused = true;
    state.push(Command::Kind::FrameScene);
    run_frames(sandbox, 4, 0.0);
    REQUIRE(panel_layout(state).left_open);
    const auto views = lane_viewports(state);
    REQUIRE(views.size() == static_cast<std::size_t>(c.lanes));
    const float r = static_cast<float>(state.pixel_ratio);
    for (std::size_t k = 0; k < views.size(); ++k) {
      CAPTURE(k);
      // The lane's reach (every place its pendulum can go: the engine's reach_bounds), as its camera draws it.
      glm::dvec3 lo, hi;
      reach_bounds(state.lane_world(k), lo, hi);
      const Camera& camera = state.view_camera(k);
      const auto a = camera.project(lo), b = camera.project(hi);
      REQUIRE(a.has_value());
      REQUIRE(b.has_value());
      const double drawn = std::min(std::abs(b->x - a->x), std::abs(b->y - a->y));
      const double side = std::min(views[k][2], views[k][3]);
      CAPTURE(drawn);
      CAPTURE(side);
      CHECK(drawn >= c.fraction * side);
      // The legend, wherever it went, is not on the reach.
      if (state.widget_rects.count("legend")) {
        const Rect legend = state.widget_rects.at("legend");
        const Rect reach{static_cast<float>(std::min(a->x, b->x)) / r, static_cast<float>(std::min(a->y, b->y)) / r,
                         static_cast<float>(std::max(a->x, b->x)) / r, static_cast<float>(std::max(a->y, b->y)) / r};
        CHECK(!(legend[0] < reach[2] && reach[0] < legend[2] && legend[1] < reach[3] && reach[1] < legend[3]));
      }
    }
    check_layout(sandbox, describe(c.screen) + " split beside the panels");
  }
}

TEST_CASE("a short view under the Measure strip: the scene goes beside a narrower top line, not under it") {
  // Found at 1280x720, 2x, light, two lanes overlaid and the Measure strip open: a view 1150 x 375 units, the top line
  // (two lanes' names, with room for PAUSED and "slower than real time") as wide as the view and the legend across its
  // foot, so Newton's cradle went into the column right of the top line above the legend: its reach drawn over 52 %
  // of the view's height, at the view's right edge. The top line on up to three narrower lines leaves the scene a
  // column as tall as the view (70 %).
  Sandbox sandbox(options_for({1280, 720, 2.0, Theme::Light}));
  REQUIRE(sandbox.load_scene(asset("newtons_cradle.json")) == "");
  SandboxState& state = sandbox.state();
  push_key(SDLK_l);
  run_frames(sandbox, 2, kDt);
  state.measure.shown = true;
  state.paused = true;
  state.push(Command::Kind::FrameScene);
  run_frames(sandbox, 4, 0.0);
  REQUIRE(state.lane_count() == 2);
  REQUIRE(state.widget_rects.count("measure panel"));
  glm::dvec3 lo, hi;
  view_reach(state, 0, lo, hi);
  const Camera& camera = sandbox.camera();
  const auto a = camera.project(lo), b = camera.project(hi);
  REQUIRE(a.has_value());
  REQUIRE(b.has_value());
  const double drawn = std::abs(b->y - a->y), view = camera.height();
  CAPTURE(drawn);
  CAPTURE(view);
  CHECK(drawn >= 0.65 * view);
  // The top line keeps the scene's name (three lines at most, not the compact line) and lies on no particle.
  REQUIRE(state.widget_rects.count("hud"));
  const Rect hud = state.widget_rects.at("hud");
  CHECK(hud[3] - hud[1] >= 2.5f * ImGui::GetTextLineHeight());
  check_layout(sandbox, "1280x720 at 2x, lanes overlaid, Measure");
}

TEST_CASE("a message with a long path (a screenshot saved) wraps inside the scene at 2x with split lanes") {
  // Found driving the real window: at 1280x720, 2x, two lanes side by side and the Measure strip, F12's "Saved
  // /long/path..." was one word wider than lane 1's view, centred, and ran off the window's left edge.
  Sandbox sandbox(options_for(Screen{1280, 720, 2.0, Theme::Light}));
  REQUIRE(sandbox.load_scene(asset("double_pendulum.json")) == "");
  SandboxState& state = sandbox.state();
  state.measure.shown = true;
  push_key(SDLK_l);
  push_key(SDLK_v);
  run_frames(sandbox, 10, kDt);
  state.toast = "Saved /tmp/tmpa3g177fz/Lagrange-Lab/lagrange-double-pendulum-20261126-032733-2.png";
  state.toast_is_error = false;
  state.toast_seconds = 5.0;
  run_frames(sandbox, 3, kDt);
  REQUIRE(state.widget_rects.count("message"));
  const Rect message = state.widget_rects.at("message");
  CHECK(message[0] >= 0.0f);
  CHECK(message[2] <= 1280.0f);
  // Cut or off the screen (a message may lie on a particle for its few seconds: placed where it covers least).
  check_layout(sandbox, "a long message at 2x with split lanes", "cut");
  check_layout(sandbox, "a long message at 2x with split lanes", "off screen");
}

}  // namespace lagrange::app::test

namespace lagrange::app::test {

TEST_CASE("the texts over the scene never lie on each other: a saved file's message beside the top line and legend") {
  // Found driving the real window: a 640-px view (two lanes side by side at 1280), Ctrl+S's message on: no corner was
  // free of the scene, and the legend went where it covered the top line's first word rather than a little of the
  // scene. Text on text is never the lesser evil: a message may lie on the scene for its few seconds.
  for (const Screen& screen : {Screen{1280, 720, 1.0, Theme::Dark}, Screen{1280, 720, 2.0, Theme::Light},
                               Screen{1024, 600, 1.0, Theme::Light}, Screen{1920, 1080, 3.0, Theme::Dark}}) {
    for (const char* scene : {"double_pendulum.json", "newtons_cradle.json", "hanging_cloth.json"}) {
      for (bool split : {false, true}) {
        Sandbox sandbox(options_for(screen));
        REQUIRE(sandbox.load_scene(asset(scene)) == "");
        SandboxState& state = sandbox.state();
        if (split) {
          push_key(SDLK_l);
          push_key(SDLK_v);
        }
        run_frames(sandbox, 10, kDt);
        state.toast = "Saved ~/Documents/Lagrange Lab/" + std::string(scene);
        state.toast_is_error = false;
        state.toast_seconds = 5.0;
        run_frames(sandbox, 3, kDt);
        REQUIRE(state.widget_rects.count("message"));
        check_layout(sandbox, describe(screen) + " " + scene + (split ? " split" : ""), "overlaps");
      }
    }
  }
}

}  // namespace lagrange::app::test
