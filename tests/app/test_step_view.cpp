// The step view driven with keys (docs/app.md, "The step view"): I freezes lane 1's next substep, the arrows and
// Home / End step through its iterates, I or Esc leaves, and anything that moves the scene ends it.
#include "app_fixture.h"

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

}  // namespace lagrange::app::test
