// Real SDL events pushed into the queue drive the sandbox: dragging particles (hard pin and spring), camera
// gestures, and switching the solver with the number keys.
#include "app_fixture.h"

namespace lagrange::app::test {
namespace {

constexpr double kDt = 1.0 / 60.0;

}  // namespace

TEST_CASE("hard drag: the grabbed particle follows the cursor with rods held and is flung on release") {
  Sandbox sandbox(test_options(1280, 720));  // panels at their usual width beside the scene
  REQUIRE(sandbox.load_scene(asset("double_pendulum.json")) == "");
  SandboxState& state = sandbox.state();
  REQUIRE(state.drag_model == DragModel::Hard);
  state.paused = true;  // the bob waits at its start until grabbed
  run_frames(sandbox, 1, kDt);
  const World& world = sandbox.world();
  const int bob = 2;
  const std::size_t constraints = world.constraints().size();
  const Vec3 start = world.state().position[bob];

  const glm::dvec2 start_pixel = screen_of(sandbox, start);
  push_mouse_button(SDL_MOUSEBUTTONDOWN, start_pixel);
  sandbox.pump_events();
  REQUIRE(state.hand().particle() == bob);
  CHECK(world.constraints().size() == constraints + 1);  // the moving pin

  state.paused = false;
  // Move toward a point the two rods can reach: 1.5 m from the pivot, down and left.
  const Vec3 goal(-0.9, -1.2, 0.0);
  const glm::dvec2 goal_pixel = screen_of(sandbox, goal);
  glm::dvec2 previous = start_pixel;
  for (int k = 1; k <= 30; ++k) {
    const glm::dvec2 pixel = start_pixel + (goal_pixel - start_pixel) * (k / 30.0);
    push_mouse_motion(pixel, previous, true);
    previous = pixel;
    run_frames(sandbox, 1, kDt);
  }
  run_frames(sandbox, 10, kDt);  // hold still at the goal
  const Vec3 held = world.state().position[bob];
  const double pixel_size = 1.0 / sandbox.camera().pixels_per_unit(goal);
  CHECK(glm::length(held - goal) < 3.0 * pixel_size + 1e-3);
  CHECK(world.max_violation(true) < 1e-6);  // rods held while dragged

  // Fling: move fast, release mid-motion.
  const glm::dvec2 fling = goal_pixel + glm::dvec2(80.0, 0.0);
  for (int k = 1; k <= 4; ++k) {
    const glm::dvec2 pixel = goal_pixel + (fling - goal_pixel) * (k / 4.0);
    push_mouse_motion(pixel, previous, true);
    previous = pixel;
    run_frames(sandbox, 1, kDt);
  }
  push_mouse_button(SDL_MOUSEBUTTONUP, fling);
  sandbox.pump_events();
  CHECK(!state.dragging());
  CHECK(world.constraints().size() == constraints);  // the pin is gone
  const Vec3 v = world.state().velocity[bob];
  CHECK(v.x > 0.5);  // it keeps the drag velocity (to the right)
  run_frames(sandbox, 30, kDt);
  CHECK(world.max_violation(true) < 1e-6);
  CHECK(std::isfinite(world.energy().total()));
}

TEST_CASE("spring drag: a soft, damped pin pulls the particle toward the cursor") {
  Sandbox sandbox(test_options(1280, 720));  // panels at their usual width beside the scene
  REQUIRE(sandbox.load_scene(asset("double_pendulum.json")) == "");
  SandboxState& state = sandbox.state();
  push_key(SDLK_d);  // drag model: spring
  state.paused = true;
  run_frames(sandbox, 1, kDt);
  REQUIRE(state.drag_model == DragModel::Spring);
  const World& world = sandbox.world();
  const std::size_t constraints = world.constraints().size();
  const int bob = 1;
  const Vec3 start = world.state().position[bob];
  const glm::dvec2 start_pixel = screen_of(sandbox, start);
  push_mouse_button(SDL_MOUSEBUTTONDOWN, start_pixel);
  sandbox.pump_events();
  REQUIRE(state.hand().particle() == bob);
  REQUIRE(world.constraints().size() == constraints + 1);  // the mouse's pin, soft
  const Constraint& pin = *world.constraints()[state.hand().constraint()];
  CHECK(pin.tool());
  // k = s M with M the 2 kg the bob carries along: much softer than the hard pin's M/h².
  CHECK(pin.compliance() == doctest::Approx(1.0 / (state.spring_stiffness * 2.0)));
  const Vec3 goal(1.0, 0.0, 0.0);  // on the first rod's circle
  const glm::dvec2 goal_pixel = screen_of(sandbox, goal);
  push_mouse_motion(goal_pixel, start_pixel, true);
  state.paused = false;
  run_frames(sandbox, 90, kDt);
  CHECK(glm::length(state.hand().target() - goal) < 0.05);
  CHECK(glm::length(world.state().position[bob] - goal) < glm::length(start - goal));
  push_mouse_button(SDL_MOUSEBUTTONUP, goal_pixel);
  sandbox.pump_events();
  CHECK(!state.dragging());
  CHECK(world.constraints().size() == constraints);
}

TEST_CASE("dragging empty space pans in 2D or orbits in 3D and the wheel zooms") {
  Sandbox sandbox(test_options(1280, 720));  // panels at their usual width beside the scene
  REQUIRE(sandbox.load_scene(asset("double_pendulum.json")) == "");
  run_frames(sandbox, 1, kDt);
  const glm::dvec2 centre = sandbox.camera().centre;
  push_mouse_button(SDL_MOUSEBUTTONDOWN, {700, 150});
  push_mouse_motion({670, 170}, {700, 150}, true);
  push_mouse_button(SDL_MOUSEBUTTONUP, {670, 170});
  run_frames(sandbox, 1, kDt);
  CHECK(sandbox.camera().centre.x > centre.x);

  REQUIRE(sandbox.load_scene(asset("spherical_pendulum.json")) == "");
  run_frames(sandbox, 1, kDt);
  REQUIRE(sandbox.camera().perspective);
  const double yaw = sandbox.camera().yaw, distance = sandbox.camera().distance;
  push_mouse_button(SDL_MOUSEBUTTONDOWN, {700, 150});
  push_mouse_motion({670, 150}, {700, 150}, true);
  push_mouse_button(SDL_MOUSEBUTTONUP, {670, 150});
  SDL_Event wheel{};
  wheel.type = SDL_MOUSEWHEEL;
  wheel.wheel.y = 2;
  REQUIRE(SDL_PushEvent(&wheel) == 1);
  run_frames(sandbox, 1, kDt);
  CHECK(sandbox.camera().yaw != yaw);
  CHECK(sandbox.camera().distance < distance);
}

TEST_CASE("number keys switch the solver live in solver_table order with no jump in positions") {
  const auto solvers = solver_table();
  REQUIRE(solvers.size() >= 2);
  Sandbox sandbox(test_options(1280, 720));  // panels at their usual width beside the scene
  REQUIRE(sandbox.load_scene(asset("double_pendulum.json")) == "");
  run_frames(sandbox, 20, kDt);  // swinging
  const World& world = sandbox.world();
  for (std::size_t k = solvers.size(); k-- > 0;) {
    CAPTURE(solvers[k].id);
    const std::vector<Vec3> before = world.state().position;
    const double error = world.max_violation();  // the previous solver's (penalty's springs stretch a little)
    const double t = world.time();
    push_key(static_cast<SDL_Keycode>(SDLK_1 + k));
    sandbox.pump_events();
    sandbox.frame(0.0);  // applies the command, steps nothing
    CHECK(std::string(world.solver_info().id) == solvers[k].id);
    CHECK(sandbox.state().edit.solver == solvers[k].id);
    CHECK(world.time() == t);
    // The switch itself moves nothing but the previous solver's error: the rods are put back to length (two rods,
    // so each bob moves at most both rods' errors).
    for (std::size_t i = 0; i < before.size(); ++i)
      CHECK(glm::length(world.state().position[i] - before[i]) <= 2.0 * error * (1.0 + 1e-6) + 1e-12);
    CHECK(world.max_violation(true) <= std::max(world.settings().tolerance, 1e-9));
    sandbox.frame(kDt);                            // one step with the new solver
    double jump = 0.0, speed = 0.0;
    for (std::size_t i = 0; i < before.size(); ++i) {
      jump = std::max(jump, glm::length(world.state().position[i] - before[i]));
      speed = std::max(speed, glm::length(world.state().velocity[i]));
    }
    CHECK(jump < 2.0 * speed * kDt + 9.81 * kDt * kDt + 1e-9);
  }
}

TEST_CASE("keys: Space pauses and S steps once and R resets keeping the chosen solver") {
  Sandbox sandbox(test_options(1280, 720));  // panels at their usual width beside the scene
  REQUIRE(sandbox.load_scene(asset("double_pendulum.json")) == "");
  const std::vector<Vec3> initial = sandbox.world().state().position;
  push_key(SDLK_SPACE);
  run_frames(sandbox, 3, kDt);
  CHECK(sandbox.state().paused);
  CHECK(sandbox.world().step_count() == 0);
  push_key(SDLK_s);
  run_frames(sandbox, 1, kDt);
  CHECK(sandbox.world().step_count() == 1);
  push_key(SDLK_SPACE);
  run_frames(sandbox, 5, kDt);
  CHECK(sandbox.world().step_count() == 6);
  push_key(SDLK_2);
  push_key(SDLK_r);
  run_frames(sandbox, 1, 0.0);
  CHECK(sandbox.world().step_count() == 0);
  CHECK(sandbox.world().state().position == initial);
  CHECK(std::string(sandbox.world().solver_info().id) == solver_table()[1].id);
}

}  // namespace lagrange::app::test

namespace lagrange::app::test {

TEST_CASE("3D drag moves the grabbed point in the camera-facing plane under the cursor") {
  Sandbox sandbox(test_options(1280, 720));  // panels at their usual width beside the scene
  REQUIRE(sandbox.load_scene(asset("spherical_pendulum.json")) == "");
  SandboxState& state = sandbox.state();
  state.paused = true;
  run_frames(sandbox, 1, 1.0 / 60.0);
  const World& world = sandbox.world();
  int bob = -1;
  for (std::size_t i = 0; i < world.particle_count(); ++i)
    if (!world.model().fixed(i)) bob = static_cast<int>(i);
  REQUIRE(bob >= 0);
  const Vec3 start = world.state().position[bob];
  const glm::dvec2 start_pixel = screen_of(sandbox, start);

  // Hovering first: the tooltip's subject is the particle under the cursor.
  push_mouse_motion(start_pixel, start_pixel - glm::dvec2(5.0), false);
  run_frames(sandbox, 1, 1.0 / 60.0);
  CHECK(state.hover.kind == Hover::Kind::Particle);
  CHECK(state.hover.index == bob);

  // A goal the rod allows: on the circle where the drag plane cuts the sphere the bob can reach around the pivot.
  int pivot = -1;
  for (std::size_t i = 0; i < world.particle_count(); ++i)
    if (world.model().fixed(i)) pivot = static_cast<int>(i);
  REQUIRE(pivot >= 0);
  const Vec3 c = world.state().position[pivot];
  const Vec3 n = -sandbox.camera().forward();
  const Vec3 centre = c + n * glm::dot(start - c, n);
  const Vec3 u = start - centre;
  const Vec3 w = glm::cross(n, u);
  const Vec3 goal = centre + std::cos(0.5) * u + std::sin(0.5) * w;
  const glm::dvec2 goal_pixel = screen_of(sandbox, goal);
  push_mouse_button(SDL_MOUSEBUTTONDOWN, start_pixel);
  push_mouse_motion(goal_pixel, start_pixel, true);
  run_frames(sandbox, 1, 1.0 / 60.0);
  REQUIRE(state.hand().kind() == DragController::Kind::Pin);
  const Constraint& pin = *world.constraints()[state.hand().constraint()];
  // Paused: the pin follows the cursor at once, in the plane through the particle facing the camera.
  CHECK(std::abs(glm::dot(pin.point() - start, sandbox.camera().forward())) < 1e-9);
  const double pixel = 1.0 / sandbox.camera().pixels_per_unit(goal);
  // Events carry whole pixels: the grab point and the goal are each rounded by up to half a pixel per axis.
  CHECK(glm::length(screen_of(sandbox, pin.point()) - screen_of(sandbox, goal)) < 1.5);
  state.paused = false;
  run_frames(sandbox, 5, 1.0 / 60.0);
  CHECK(glm::length(world.state().position[bob] - goal) < 2.0 * pixel);  // held at the cursor
  CHECK(world.max_violation() < 2.0 * pixel);  // a rounded goal off the sphere: the rod gives way that much
  push_mouse_button(SDL_MOUSEBUTTONUP, goal_pixel);
  run_frames(sandbox, 1, 1.0 / 60.0);
  CHECK(!state.dragging());
}

}  // namespace lagrange::app::test

namespace lagrange::app::test {

TEST_CASE("the solver combo box switches the solver with the mouse and the click does not reach the scene") {
  const auto solvers = solver_table();
  REQUIRE(solvers.size() >= 2);
  Sandbox sandbox(test_options(1280, 720));
  REQUIRE(sandbox.load_scene(asset("double_pendulum.json")) == "");
  run_frames(sandbox, 10, 1.0 / 60.0);
  const World& world = sandbox.world();
  const std::string target = solvers[solvers.size() - 1].id;
  REQUIRE(world.solver_info().id != target);
  const long steps = world.step_count();
  const std::vector<Vec3> before = world.state().position;
  click_widget(sandbox, "solver combo");  // opens the list
  click_widget(sandbox, "solver " + target);
  CHECK(std::string(world.solver_info().id) == target);
  CHECK(world.step_count() == steps);  // frames of zero wall time: nothing stepped
  CHECK(world.state().position == before);
  CHECK(!sandbox.state().dragging());

  click_widget(sandbox, "pause");
  CHECK(sandbox.state().paused);
}

}  // namespace lagrange::app::test

namespace lagrange::app::test {

TEST_CASE("gravity presets: one click sets the Moon's, Mars's, Jupiter's, the Earth's or no gravity, same direction") {
  struct Case {
    const char* button;
    double g;
  };
  for (const char* scene : {"simple_pendulum.json", "spherical_pendulum.json"}) {
    CAPTURE(scene);
    Sandbox sandbox(test_options(1920, 1080));  // a projector's window: the Simulation section is in view
    REQUIRE(sandbox.load_scene(asset(scene)) == "");
    run_frames(sandbox, 2, 1.0 / 60.0);
    const Vec3 down = glm::normalize(sandbox.world().settings().gravity);
    for (const Case c : {Case{"Moon", 1.62}, Case{"Jupiter", 24.79}, Case{"zero g", 0.0}, Case{"Mars", 3.71},
                         Case{"Earth", 9.81}}) {
      CAPTURE(c.button);
      click_widget(sandbox, std::string("gravity ") + c.button);
      const Vec3 gravity = sandbox.world().settings().gravity;
      CHECK(glm::length(gravity - c.g * down) < 1e-12);  // after zero g, straight down again: the scenes' own
    }
  }
}

TEST_CASE("slow motion and air drag in one click each, and back") {
  Sandbox sandbox(test_options(1920, 1080));
  REQUIRE(sandbox.load_scene(asset("simple_pendulum.json")) == "");
  run_frames(sandbox, 2, 1.0 / 60.0);
  REQUIRE(sandbox.state().time_scale == 1.0);
  click_widget(sandbox, "slow motion");
  CHECK(sandbox.state().time_scale == 0.25);
  click_widget(sandbox, "slow motion");
  CHECK(sandbox.state().time_scale == 1.0);
  REQUIRE(sandbox.world().settings().damping == 0.0);
  click_widget(sandbox, "air drag");
  CHECK(sandbox.world().settings().damping == 0.5);
  click_widget(sandbox, "air drag");
  CHECK(sandbox.world().settings().damping == 0.0);
}

TEST_CASE("a press right after the pointer jumps from a panel onto a particle grabs it") {
  // xdotool and quick hands move and press within one frame; the panels' claim on the mouse is from the last frame.
  Sandbox sandbox(test_options(1280, 720));
  REQUIRE(sandbox.load_scene(asset("double_pendulum.json")) == "");
  SandboxState& state = sandbox.state();
  state.paused = true;
  push_mouse_motion({100, 300}, {100, 300}, false);  // over the control panel
  run_frames(sandbox, 2, 0.0);
  REQUIRE(ImGui::GetIO().WantCaptureMouse);
  const glm::dvec2 bob = screen_of(sandbox, sandbox.world().state().position[2]);
  push_mouse_motion(bob, {100, 300}, false);
  push_mouse_button(SDL_MOUSEBUTTONDOWN, bob);
  run_frames(sandbox, 2, 0.0);
  CHECK(state.hand().particle() == 2);
  push_mouse_button(SDL_MOUSEBUTTONUP, bob);
  run_frames(sandbox, 1, 0.0);
  CHECK_FALSE(state.dragging());
}

}  // namespace lagrange::app::test
