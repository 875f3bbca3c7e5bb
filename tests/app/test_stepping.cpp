// The fixed-step loop: physics advances by whole steps of dt from an accumulator, independent of the frame rate,
// capped per frame, scaled by the time scale; settings edits are applied between steps.
#include "app_fixture.h"

namespace lagrange::app::test {

TEST_CASE("physics runs whole steps of dt whatever the frame rate with a step cap and a time scale") {
  Sandbox sandbox(test_options());
  REQUIRE(sandbox.load_scene(asset("double_pendulum.json")) == "");
  SandboxState& state = sandbox.state();
  const double dt = sandbox.world().settings().dt;
  sandbox.frame(0.0);
  const long s0 = sandbox.world().step_count();

  for (int i = 0; i < 8; ++i) sandbox.frame(dt / 4.0);  // 240 fps: a step every fourth frame
  CHECK(sandbox.world().step_count() == s0 + 2);
  sandbox.frame(2.0 * dt);  // 30 fps: two steps in one frame
  CHECK(sandbox.world().step_count() == s0 + 4);

  state.max_steps_per_frame = 3;
  sandbox.frame(0.2);  // a stall: at most 3 steps, and the backlog is dropped
  CHECK(sandbox.world().step_count() == s0 + 7);
  CHECK(state.timing.slowed);
  sandbox.frame(dt);
  CHECK(sandbox.world().step_count() == s0 + 8);

  state.time_scale = 0.5;  // slow motion: a step every other frame
  for (int i = 0; i < 4; ++i) sandbox.frame(dt);
  CHECK(sandbox.world().step_count() == s0 + 10);
}

TEST_CASE("settings edits reach the world between steps and invalid ones are refused with a message") {
  Sandbox sandbox(test_options());
  REQUIRE(sandbox.load_scene(asset("double_pendulum.json")) == "");
  SandboxState& state = sandbox.state();
  Settings settings = state.edit;
  settings.substeps = 3;
  settings.gravity = Vec3(0.0, -1.62, 0.0);
  settings.damping = 0.25;
  state.commands.push_back(Command::apply_settings(settings));
  sandbox.frame(0.0);
  CHECK(sandbox.world().settings().substeps == 3);
  CHECK(sandbox.world().settings().gravity.y == -1.62);
  CHECK(sandbox.world().settings().damping == 0.25);
  CHECK(state.settings_error.empty());

  settings.dt = -1.0;
  state.commands.push_back(Command::apply_settings(settings));
  sandbox.frame(0.0);
  CHECK(!state.settings_error.empty());
  CHECK(sandbox.world().settings().dt > 0.0);
  CHECK(state.edit.dt == sandbox.world().settings().dt);  // the panel shows what the world runs
}

}  // namespace lagrange::app::test

namespace lagrange::app::test {

TEST_CASE("a scene that blows up is stopped at its last finite state with a message, never left at infinity") {
  // Penalty springs far too stiff for the cloth's dt: the energy grows without bound within a few steps (found by
  // the random-input test: the window ended with energy = inf and the cloth at 1e152 m).
  Sandbox sandbox(test_options());
  REQUIRE(sandbox.load_scene(asset("hanging_cloth.json")) == "");
  SandboxState& state = sandbox.state();
  Settings settings = state.edit;
  settings.solver = "penalty";
  settings.stiffness = 1e7;  // the panel's largest
  state.commands.push_back(Command::apply_settings(settings));
  for (int frame = 0; frame < 600 && !state.paused; ++frame) sandbox.frame(1.0 / 60.0);
  REQUIRE(state.paused);
  CHECK(state.alert.find("Rolled back to t = ") == 0);  // to its last sound state (test_blow_up.cpp)
  const World& world = sandbox.world();
  CHECK(std::isfinite(world.energy().total()));
  for (const Vec3& x : world.state().position) CHECK(glm::length(x) < 1e9);
  // R starts again from the file.
  push_key(SDLK_r);
  run_frames(sandbox, 1, 0.0);
  CHECK(world.step_count() == 0);
}

}  // namespace lagrange::app::test
