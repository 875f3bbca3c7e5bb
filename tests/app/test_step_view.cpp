// The step view driven with keys (docs/app.md, "The step view"): I freezes lane 1's next substep, the arrows and
// Home / End step through its iterates, I or Esc leaves, and anything that moves the scene ends it.
#include "app_fixture.h"

#include "ui/layout_check.h"
#include "ui/ui.h"
#include "view/scene_draw.h"
#include "view/step_view.h"

namespace lagrange::app::test {

namespace {

// Pixels that differ between two pictures of the same size, in the left part of the scene (the ghosts' side).
long differing_pixels(const Image& a, const Image& b) {
  long count = 0;
  for (int y = 0; y < a.height; ++y)
    for (int x = 0; x < a.width / 2; ++x) {
      const Image::Pixel p = a.at(x, y), q = b.at(x, y);
      if (std::abs(p.r - q.r) + std::abs(p.g - q.g) + std::abs(p.b - q.b) > 30) ++count;
    }
  return count;
}

}  // namespace

TEST_CASE("step view: I freezes the next substep, the arrow keys walk its iterates, I leaves") {
  Sandbox sandbox(test_options(960, 540));
  REQUIRE(sandbox.load_scene(asset("double_pendulum.json")) == "");
  SandboxState& state = sandbox.state();
  const double dt = sandbox.world().settings().dt;
  run_frames(sandbox, 30, dt);  // swinging
  const Image before = sandbox.read_pixels();
  const long steps = sandbox.world().step_count();
  push_key(SDLK_i);
  run_frames(sandbox, 2, dt);
  REQUIRE(state.step_view.active);
  CHECK(state.paused);
  CHECK(sandbox.world().step_count() == steps);  // paused: the frames after I did not step
  const StepTrace& trace = state.step_view.trace;
  CHECK(trace.start == sandbox.world().state().position);
  // The trace is the substep the solver takes: a copy of the world stepping one substep lands on its result.
  World copy = sandbox.world();
  Settings one = copy.settings();
  one.dt = one.dt / one.substeps;
  one.substeps = 1;
  copy.set_settings(one);
  copy.step();
  CHECK(copy.state().position == trace.result);
  const int last = static_cast<int>(trace.iterates.size()) - 1;
  REQUIRE(last >= 1);
  CHECK(state.step_view.iterate == last);
  CHECK(state.widget_rects.count("step view") == 1);  // its panel is drawn
  CHECK(!state.view.legend);                          // the panel carries the legend
  CHECK(differing_pixels(before, sandbox.read_pixels()) > 200);  // ghosts and arrows over the scene

  push_key(SDLK_LEFT);
  run_frames(sandbox, 1, dt);
  CHECK(state.step_view.iterate == last - 1);
  push_key(SDLK_HOME);
  run_frames(sandbox, 1, dt);
  CHECK(state.step_view.iterate == 0);
  push_key(SDLK_LEFT);  // stays at the first
  run_frames(sandbox, 1, dt);
  CHECK(state.step_view.iterate == 0);
  push_key(SDLK_RIGHT);
  run_frames(sandbox, 1, dt);
  CHECK(state.step_view.iterate == 1);
  push_key(SDLK_END);
  run_frames(sandbox, 1, dt);
  CHECK(state.step_view.iterate == last);
  CHECK(sandbox.world().step_count() == steps);  // Left and Right walked the iterates, not the time

  push_key(SDLK_i);
  run_frames(sandbox, 1, dt);
  CHECK(!state.step_view.active);
  CHECK(state.view.legend);
  CHECK(state.widget_rects.count("step view") == 0);
  push_key(SDLK_RIGHT);  // Right is a single step again
  run_frames(sandbox, 1, dt);
  CHECK(sandbox.world().step_count() == steps + 1);
}

TEST_CASE("step view: Esc leaves, and resuming the scene ends it") {
  Sandbox sandbox(test_options());
  REQUIRE(sandbox.load_scene(asset("seed_pendulum.json")) == "");
  SandboxState& state = sandbox.state();
  const double dt = sandbox.world().settings().dt;
  run_frames(sandbox, 1, dt);
  push_key(SDLK_i);
  run_frames(sandbox, 1, dt);
  REQUIRE(state.step_view.active);
  push_key(SDLK_ESCAPE);
  run_frames(sandbox, 1, dt);
  CHECK(!state.step_view.active);

  push_key(SDLK_i);
  run_frames(sandbox, 1, dt);
  REQUIRE(state.step_view.active);
  push_key(SDLK_SPACE);  // resume: the scene moves on, the frozen substep is gone
  run_frames(sandbox, 3, dt);
  CHECK(!state.paused);
  CHECK(!state.step_view.active);
}

TEST_CASE("step view: every solver opens it, SHAKE shows one row at a time and RATTLE its velocity correction") {
  Sandbox sandbox(test_options());
  REQUIRE(sandbox.load_scene(asset("double_pendulum.json")) == "");
  SandboxState& state = sandbox.state();
  run_frames(sandbox, 10, sandbox.world().settings().dt);
  for (const SolverInfo& info : solver_table()) {
    CAPTURE(info.id);
    REQUIRE(sandbox.toggle_step_view(info.id) == "");
    run_frames(sandbox, 1, 0.0);
    REQUIRE(state.step_view.active);
    const StepTrace& trace = state.step_view.trace;
    REQUIRE(!trace.iterates.empty());
    const std::string id = info.id;
    if (id == "shake" || id == "rattle") CHECK(trace.iterates.front().kind == IterateKind::RowCorrection);
    if (id == "rattle") CHECK(trace.iterates.back().kind == IterateKind::VelocityCorrection);
    if (id == "projection") CHECK(trace.iterates.front().kind == IterateKind::FirstGuess);
    CHECK(state.step_view.chosen >= 1.0);
    CHECK(state.step_view.correction_chosen >= state.step_view.chosen);
    sandbox.toggle_step_view();
    run_frames(sandbox, 1, 0.0);
    CHECK(!state.step_view.active);
  }
  CHECK(sandbox.toggle_step_view("nonsense").find("unknown solver") != std::string::npos);
  CHECK(!state.step_view.active);
}

TEST_CASE("step view at 1280x720 2x: a narrow panel beside the top line, its labels clear of every bead drawn") {
  // Found at 1280x720, 2x, two lanes: the panel took 45 % of the scene's width and hid the top line's second line (the
  // lanes' names and the time), and the labels q, q*, q' touched the beads.
  for (const double scale : {1.0, 2.0}) {
    CAPTURE(scale);
    SandboxOptions options = test_options(1280, 720);
    options.appearance = {Theme::Light, scale};
    Sandbox sandbox(options);
    REQUIRE(sandbox.load_scene(asset("double_pendulum.json")) == "");
    SandboxState& state = sandbox.state();
    push_key(SDLK_l);  // two lanes overlaid: the top line has two lines
    run_frames(sandbox, 60, sandbox.world().settings().dt);
    push_key(SDLK_i);
    run_frames(sandbox, 3, 0.0);
    REQUIRE(state.step_view.active);
    using Rect = std::array<float, 4>;
    const Rect panel = state.widget_rects.at("step view");
    const Rect hud = state.widget_rects.at("hud");
    const auto scene = scene_viewport(state);
    const float r = static_cast<float>(state.pixel_ratio);
    CAPTURE(panel[2] - panel[0]);
    CHECK(panel[2] - panel[0] <= scene[2] / r / 3.0f);  // was 584 of 1280 at 2x
    const auto apart = [](const Rect& a, const Rect& b) {
      return a[2] <= b[0] || b[2] <= a[0] || a[3] <= b[1] || b[3] <= a[1];
    };
    CHECK(apart(panel, hud));
    // Every glyph drawn whole: the top line's (none under the panel), the panel's (no number broken), none cut.
    for (const std::string& problem : layout_problems(state, sandbox.radii())) FAIL_CHECK(problem);
    // The labels: none on any bead the frame draws (the scene's and the ghosts'), none on another, none on the panel.
    DrawList list;
    build_draw_list(state, sandbox.radii(), list);
    REQUIRE(!list.spheres.empty());
    std::vector<Rect> labels;
    for (const char* name : {"step view label q", "step view label q*", "step view label iterate"}) {
      CAPTURE(name);
      REQUIRE(state.widget_rects.count(name) == 1);
      const Rect label = state.widget_rects.at(name);
      labels.push_back(label);
      CHECK(apart(label, panel));
      for (const SphereInstance& sphere : list.spheres) {
        const auto at = state.camera.project(glm::dvec3(sphere.centre));
        if (!at) continue;
        const double cx = at->x / r, cy = at->y / r;
        const double radius = sphere.radius * state.camera.pixels_per_unit(glm::dvec3(sphere.centre)) / r;
        const double dx = std::max({label[0] - cx, 0.0, cx - label[2]});
        const double dy = std::max({label[1] - cy, 0.0, cy - label[3]});
        CAPTURE(cx);
        CAPTURE(cy);
        CHECK(std::sqrt(dx * dx + dy * dy) >= radius);
      }
    }
    for (std::size_t a = 0; a < labels.size(); ++a)
      for (std::size_t b = a + 1; b < labels.size(); ++b) CHECK(apart(labels[a], labels[b]));
  }
}

}  // namespace lagrange::app::test
