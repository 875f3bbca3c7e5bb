// Dragging in the sandbox through real mouse events: posing while paused, and the Diagnostics numbers (the energy
// balance without the mouse's work, max |C| without the mouse's pin).
#include "app_fixture.h"

namespace lagrange::app::test {
namespace {

constexpr double kDt = 1.0 / 60.0;

// Moves the pressed mouse from `from` to `to` in `moves` events, one frame each.
glm::dvec2 drag_mouse(Sandbox& sandbox, glm::dvec2 from, glm::dvec2 to, int moves) {
  glm::dvec2 previous = from;
  for (int k = 1; k <= moves; ++k) {
    const glm::dvec2 pixel = from + (to - from) * (static_cast<double>(k) / moves);
    push_mouse_motion(pixel, previous, true);
    previous = pixel;
    run_frames(sandbox, 1, kDt);
  }
  return previous;
}

}  // namespace

TEST_CASE("dragging while paused poses the scene: rods exact, at rest, and play starts from the pose") {
  Sandbox sandbox(test_options(1280, 720));
  REQUIRE(sandbox.load_scene(asset("double_pendulum.json")) == "");
  SandboxState& state = sandbox.state();
  state.paused = true;
  run_frames(sandbox, 1, kDt);
  const World& world = sandbox.world();
  const long steps = world.step_count();
  const int bob = 2;
  const glm::dvec2 start = screen_of(sandbox, world.state().position[bob]);
  push_mouse_button(SDL_MOUSEBUTTONDOWN, start);
  run_frames(sandbox, 1, kDt);
  REQUIRE(state.hand().particle() == bob);

  // Within reach: the bob is put where the cursor is.
  const Vec3 goal(-0.9, -1.2, 0.0);
  glm::dvec2 at = drag_mouse(sandbox, start, screen_of(sandbox, goal), 10);
  CHECK(world.step_count() == steps);  // no time passed
  const double pixel = 1.0 / sandbox.camera().pixels_per_unit(goal);
  CHECK(glm::length(world.state().position[bob] - state.hand().target()) < 1e-6);
  CHECK(glm::length(world.state().position[bob] - goal) < 2.0 * pixel);
  CHECK(world.max_violation(true) < 1e-10);  // the rods, exact; the mouse's pin is not counted
  for (const Vec3& v : world.state().velocity) CHECK(glm::length(v) == 0.0);

  // Beyond reach: the nearest reachable point, 2 m from the pivot toward the cursor.
  at = drag_mouse(sandbox, at, screen_of(sandbox, Vec3(-2.4, -1.8, 0.0)), 5);
  const Vec3 cursor = state.hand().target();
  REQUIRE(glm::length(cursor) > 2.5);
  CHECK(glm::length(world.state().position[bob] - 2.0 * glm::normalize(cursor)) < 1e-6);
  CHECK(world.max_violation(true) < 1e-10);
  CHECK(world.max_violation() < 1e-9);  // the Diagnostics' max |C|, though the pin is half a metre off
  const Vec3 posed = world.state().position[bob];

  push_mouse_button(SDL_MOUSEBUTTONUP, at);
  run_frames(sandbox, 1, kDt);
  CHECK(!state.dragging());
  CHECK(world.state().position[bob] == posed);
  for (const Vec3& v : world.state().velocity) CHECK(glm::length(v) == 0.0);

  // Play: the motion starts from the pose, at rest: one step moves the bob by about g dt²/2, not more.
  push_key(SDLK_SPACE);
  run_frames(sandbox, 1, kDt);
  REQUIRE(world.step_count() == steps + 1);
  CHECK(glm::length(world.state().position[bob] - posed) < 9.81 * kDt * kDt);
  CHECK(world.energy().kinetic < 2.0 * 9.81 * 9.81 * kDt * kDt);
}

TEST_CASE("Diagnostics: the drift leaves out the mouse's work and max |C| leaves out the mouse's pin") {
  Sandbox sandbox(test_options(1280, 720));
  REQUIRE(sandbox.load_scene(asset("double_pendulum.json")) == "");
  SandboxState& state = sandbox.state();
  const World& world = sandbox.world();
  run_frames(sandbox, 90, kDt);  // swinging
  const EnergyBalance before = energy_balance(state);
  CHECK(before.mouse == 0.0);
  CHECK(before.drift == doctest::Approx(before.change));

  // Grab the outer bob, lift it over the pivot and beyond reach, hold it there, let go.
  const int bob = 2;
  const glm::dvec2 start = screen_of(sandbox, world.state().position[bob]);
  push_mouse_button(SDL_MOUSEBUTTONDOWN, start);
  run_frames(sandbox, 1, kDt);
  REQUIRE(state.dragging());
  const glm::dvec2 at = drag_mouse(sandbox, start, screen_of(sandbox, Vec3(0.0, 2.5, 0.0)), 60);  // in 1 s
  run_frames(sandbox, 60, kDt);
  const Constraint& pin = *world.constraints()[state.hand().constraint()];
  CHECK(std::abs(pin.value(1, world.state().position)) > 0.3);  // the pin is stretched half a metre ...
  CHECK(world.max_violation() < 1e-8);                                 // ... and max |C| shows the rods only
  CHECK(world.state().position[bob].y > 1.99);                     // held up, at the top of its reach
  push_mouse_button(SDL_MOUSEBUTTONUP, at);
  run_frames(sandbox, 60, kDt);

  const EnergyBalance after = energy_balance(state);
  // Lifting 2 kg by metres is tens of joules of the hand's work; the energy changed by about that much, and what
  // is left, the drift, is a few per cent of it at most (docs/physics.md).
  CHECK(after.mouse > 10.0);
  CHECK(after.change == doctest::Approx(world.energy().total() - state.sim.lane(0).accounts.start_energy));
  CHECK(after.drift == doctest::Approx(after.change - after.mouse - after.damping));
  CHECK(std::abs(after.drift) < 0.05 * after.mouse);
  CHECK(after.damping == 0.0);  // no air drag in this scene
}

}  // namespace lagrange::app::test
