// Lanes in the window (keys, panel, overlaid and split views, the drag in every lane) and the drift views (length
// errors exaggerated), against worlds stepped alone and against positions and lengths computed here.
#include <cstdio>

#include "app_fixture.h"
#include "ui/ui.h"

namespace lagrange::app::test {
namespace {

constexpr double kDt = 1.0 / 60.0;

void add_lane(SandboxState& state, const std::string& spec) {
  Command command;
  command.kind = Command::Kind::AddLane;
  command.path = spec;
  state.commands.push_back(command);
}

}  // namespace

TEST_CASE("lanes: L adds the next solvers in lockstep, each the world it would be alone, and Ctrl+L, V and X") {
  Sandbox sandbox(test_options(1280, 720));
  REQUIRE(sandbox.load_scene(asset("double_pendulum.json")) == "");
  SandboxState& state = sandbox.state();
  run_frames(sandbox, 3, kDt);
  state.paused = true;
  run_frames(sandbox, 1, kDt);
  // What lanes 2 and 3 must be: lane 1 (position level) as it is now, with the first two force-level solvers of
  // the table, stepped alone.
  REQUIRE(sandbox.world().solver_info().implicit_compliance);
  std::vector<std::string> expected;
  for (const SolverInfo& info : solver_table())
    if (!info.implicit_compliance) expected.push_back(info.id);
  REQUIRE(expected.size() >= 2);
  std::vector<World> alone;
  for (int k = 0; k < 2; ++k) {
    World copy = sandbox.world();
    Settings settings = copy.settings();
    settings.solver = expected[static_cast<std::size_t>(k)];
    copy.set_settings(settings);
    alone.push_back(std::move(copy));
  }
  push_key(SDLK_l);
  run_frames(sandbox, 1, kDt);
  push_key(SDLK_l);
  run_frames(sandbox, 1, kDt);
  REQUIRE(state.lane_count() == 3);
  CHECK(state.sim.lane(1).spec.solver == expected[0]);
  CHECK(state.sim.lane(2).spec.solver == expected[1]);
  state.paused = false;
  const long before = sandbox.world().step_count();
  run_frames(sandbox, 40, kDt);
  const long steps = sandbox.world().step_count() - before;
  REQUIRE(steps > 20);
  for (std::size_t k = 0; k < 2; ++k) {
    CAPTURE(k);
    for (long s = 0; s < steps; ++s) alone[k].step();
    CHECK(state.sim.world(k + 1).time() == sandbox.world().time());
    CHECK(state.sim.world(k + 1).state().position == alone[k].state().position);
    CHECK(state.sim.world(k + 1).state().velocity == alone[k].state().velocity);
    CHECK(state.displays[k + 1].history.size() == static_cast<std::size_t>(steps));
  }
  push_key(SDLK_l, KMOD_LCTRL);
  run_frames(sandbox, 1, kDt);
  CHECK(state.lane_count() == 2);
  push_key(SDLK_v);
  run_frames(sandbox, 1, kDt);
  CHECK(state.lane_view == LaneView::Split);
  CHECK(lane_viewports(state).size() == 2);
  push_key(SDLK_v);
  run_frames(sandbox, 1, kDt);
  CHECK(state.lane_view == LaneView::Overlay);
  for (int expected : {10, 100, 1000, 1}) {
    push_key(SDLK_x);
    run_frames(sandbox, 1, kDt);
    CHECK(state.view.error_exaggeration == expected);
  }
  // A reset restarts every lane from the scene's start.
  push_key(SDLK_r);
  run_frames(sandbox, 1, 0.0);
  REQUIRE(state.lane_count() == 2);
  CHECK(state.sim.world(1).time() == 0.0);
  CHECK(state.sim.world(1).state().position == sandbox.world().state().position);
}

TEST_CASE("lanes: the panel adds, switches and removes lanes and picks the view") {
  Sandbox sandbox(test_options(1920, 1080));
  REQUIRE(sandbox.load_scene(asset("double_pendulum.json")) == "");
  SandboxState& state = sandbox.state();
  run_frames(sandbox, 2, kDt);
  click_widget(sandbox, "add lane");
  REQUIRE(state.lane_count() == 2);
  click_widget(sandbox, "lane 2 solver");  // opens the list
  click_widget(sandbox, "lane 2 solver rattle");
  CHECK(state.sim.lane(1).spec.solver == "rattle");
  CHECK(std::string(state.sim.world(1).solver_info().id) == "rattle");
  click_widget(sandbox, "lane 1 solver");
  click_widget(sandbox, "lane 1 solver acceleration");
  CHECK(std::string(sandbox.world().solver_info().id) == "acceleration");
  click_widget(sandbox, "lanes side by side");
  CHECK(state.lane_view == LaneView::Split);
  click_widget(sandbox, "lanes overlaid");
  CHECK(state.lane_view == LaneView::Overlay);
  click_widget(sandbox, "exaggerate x1000");
  CHECK(state.view.error_exaggeration == 1000);
  for (int k = 0; k < 3; ++k) click_widget(sandbox, "add lane");
  CHECK(state.lane_count() == 4);  // four lanes in all: the button stops there
  click_widget(sandbox, "add lane");
  CHECK(state.lane_count() == 4);
  click_widget(sandbox, "lane 3 remove");
  REQUIRE(state.lane_count() == 3);
  CHECK(state.sim.lane(1).spec.solver == "rattle");
  run_frames(sandbox, 10, kDt);  // the Diagnostics draw a curve and a row per lane
  CHECK(state.widget_rects.count("diagnostics: lane 2") == 1);
  CHECK(state.widget_rects.count("diagnostics: lane 3") == 1);
  CHECK(state.widget_rects.count("plot violation legend 2") == 1);  // three lanes, three entries
}

TEST_CASE("lanes: a lane's own settings typed in its field restart it with them, and a bad one is refused") {
  Sandbox sandbox(test_options(1920, 1080));
  REQUIRE(sandbox.load_scene(asset("double_pendulum.json")) == "");
  SandboxState& state = sandbox.state();
  run_frames(sandbox, 2, kDt);
  add_lane(state, "projection");
  run_frames(sandbox, 1, 0.0);
  REQUIRE(state.lane_count() == 2);
  const auto type_and_enter = [&](const std::string& text) {
    click_widget(sandbox, "lane 2 settings");
    REQUIRE(ImGui::GetIO().WantTextInput);
    SDL_Event event{};
    event.type = SDL_TEXTINPUT;
    std::snprintf(event.text.text, sizeof event.text.text, "%s", text.c_str());
    REQUIRE(SDL_PushEvent(&event) == 1);
    run_frames(sandbox, 1, 0.0);
    push_key(SDLK_RETURN);
    run_frames(sandbox, 3, 0.0);
  };
  type_and_enter("dt=0.004 substeps=2");
  REQUIRE(state.lane_count() == 2);
  CHECK(state.sim.world(1).settings().dt == 0.004);
  CHECK(state.sim.world(1).settings().substeps == 2);
  CHECK(state.sim.lane(1).spec.label() == "projection dt=0.004 substeps=2");
  CHECK(sandbox.world().settings().dt == doctest::Approx(1.0 / 60.0));  // lane 1 keeps its own
  // Stepped together: 1/60 s of lane 1 is four steps of 0.004 s, rounded to the nearest (lanes.h).
  state.paused = false;
  run_frames(sandbox, 30, kDt);
  CHECK(std::abs(state.sim.world(1).time() - sandbox.world().time()) <= 0.002 + 1e-12);
  // A key that does not exist: refused with the engine's message, the lane unchanged.
  type_and_enter(" speed=3");
  CHECK(state.sim.lane(1).spec.label() == "projection dt=0.004 substeps=2");
  CHECK(state.toast.find("speed") != std::string::npos);
}

TEST_CASE("split lanes: four equal views, each drawing and picking its own lane's world") {
  Sandbox sandbox(test_options(1280, 720));
  REQUIRE(sandbox.load_scene(asset("double_pendulum.json")) == "");
  SandboxState& state = sandbox.state();
  state.view.panels = false;
  for (const char* spec : {"acceleration", "penalty", "rattle"}) add_lane(state, spec);
  state.lane_view = LaneView::Split;
  sandbox.advance_steps(0);
  REQUIRE(state.lane_count() == 4);
  sandbox.frame_scene();
  sandbox.advance_steps(300);  // 5 s: the lanes have parted
  run_frames(sandbox, 1, 0.0);
  const auto views = lane_viewports(state);
  REQUIRE(views.size() == 4);
  for (const auto& v : views) {
    CHECK(v[2] == views[0][2]);
    CHECK(v[3] == views[0][3]);
    CHECK(v[0] >= 0);
    CHECK(v[0] + v[2] <= state.window_width);
    CHECK(v[1] + v[3] <= state.window_height);
  }
  CHECK(views[1][0] >= views[0][0] + views[0][2]);  // side by side, no overlap
  CHECK(views[2][1] >= views[0][1] + views[0][3]);
  state.paused = true;
  for (int k = 1; k <= 3; ++k) {
    CAPTURE(k);
    const World& lane = state.sim.world(static_cast<std::size_t>(k));
    const Vec3 bob = lane.state().position[2];
    // Where lane k draws its bob: with its own camera, in its own view.
    const Camera& camera = state.view_camera(static_cast<std::size_t>(k));
    CHECK(camera.x() == views[k][0]);
    CHECK(camera.width() == views[k][2]);
    const auto at = camera.project(bob);
    REQUIRE(at.has_value());
    const glm::dvec2 pixel(at->x, at->y);
    CHECK(camera.in_viewport(pixel));
    // Lanes in scale (reach within twice lane 1's) are drawn at lane 1's pixels per metre: they compare.
    if (lane_in_scale(state, static_cast<std::size_t>(k)))
      CHECK(camera.pixels_per_unit(bob) == doctest::Approx(sandbox.camera().pixels_per_unit(bob)).epsilon(1e-9));
    push_mouse_motion(pixel, pixel, false);
    run_frames(sandbox, 1, 0.0);
    CHECK(state.hover.kind == Hover::Kind::Particle);
    CHECK(state.hover.index == 2);
    CHECK(state.hover.lane == k);  // the tooltip reads lane k's world
    const Image image = sandbox.read_pixels();
    const auto p = image.at(static_cast<int>(pixel.x), static_cast<int>(pixel.y));
    CHECK(colour_distance(p, kBackground) > 60.0);  // a bead is drawn there
  }
}

TEST_CASE("overlaid lanes: a drag moves the same particle in every lane to the cursor") {
  Sandbox sandbox(test_options(1280, 720));
  REQUIRE(sandbox.load_scene(asset("double_pendulum.json")) == "");
  SandboxState& state = sandbox.state();
  for (const char* spec : {"acceleration", "rattle"}) add_lane(state, spec);
  state.paused = true;
  run_frames(sandbox, 1, kDt);
  REQUIRE(state.lane_count() == 3);
  const int bob = 2;
  const glm::dvec2 start = screen_of(sandbox, sandbox.world().state().position[bob]);
  push_mouse_button(SDL_MOUSEBUTTONDOWN, start);
  run_frames(sandbox, 1, kDt);
  REQUIRE(state.hand().particle() == bob);
  for (const SimLane& lane : state.sim.lanes()) CHECK(lane.drag.particle() == bob);
  const Vec3 goal(-0.9, -1.2, 0.0);  // within the rods' reach (2 m from the pivot)
  const glm::dvec2 to = screen_of(sandbox, goal);
  for (int k = 1; k <= 10; ++k) {
    const glm::dvec2 pixel = start + (to - start) * (k / 10.0);
    push_mouse_motion(pixel, pixel, true);
    run_frames(sandbox, 1, kDt);
  }
  const double pixel = 1.0 / sandbox.camera().pixels_per_unit(goal);
  for (const SimLane& lane : state.sim.lanes()) {  // posed while paused: at the cursor, rods exact, at rest
    CHECK(glm::length(lane.world.state().position[bob] - goal) < 2.0 * pixel);
    CHECK(lane.world.max_violation(true) < 1e-9);
  }
  push_mouse_button(SDL_MOUSEBUTTONUP, to);
  run_frames(sandbox, 1, kDt);
  for (const SimLane& lane : state.sim.lanes()) CHECK(!lane.drag.active());
}

TEST_CASE("overlaid lanes: a lane that parted shows as a ghost bead in its colour, and one that blows up stops alone") {
  Sandbox sandbox(test_options(1280, 720));
  REQUIRE(sandbox.load_scene(asset("double_pendulum.json")) == "");
  SandboxState& state = sandbox.state();
  state.view.panels = false;
  state.view.trails = false;
  add_lane(state, "acceleration");
  add_lane(state, "penalty:stiffness=1e12");  // far too stiff for its Δt: it runs away in a few steps
  sandbox.advance_steps(0);
  REQUIRE(state.lane_count() == 3);
  sandbox.frame_scene();
  sandbox.advance_steps(600);
  CHECK(state.sim.lane(2).stopped.find("blew up") != std::string::npos);
  for (const Vec3& x : state.sim.world(2).state().position) CHECK(glm::length(x) < 1e9);  // its last finite state
  CHECK(!state.paused);
  CHECK(sandbox.world().time() == doctest::Approx(10.0));
  const Vec3 ghost = state.sim.world(1).state().position[2];
  REQUIRE(glm::length(ghost - sandbox.world().state().position[2]) > 0.3);  // far apart after 10 s
  state.paused = true;
  run_frames(sandbox, 1, 0.0);
  const glm::dvec2 at = screen_of(sandbox, ghost);
  const auto p = sandbox.read_pixels().at(static_cast<int>(at.x), static_cast<int>(at.y));
  const Colour c = lane_colour(state.lane_specs(), 1);
  CAPTURE(int(p.r));
  CAPTURE(int(p.g));
  CAPTURE(int(p.b));
  // Shaded, so not the exact colour: the hue of the acceleration lane (red over green and blue).
  REQUIRE(c.r > c.g + 0.3f);
  CHECK(p.r > p.g + 40);
  CHECK(p.r > p.b + 40);
}

TEST_CASE("scripted drags (shot --lanes --drag) move the same particle in every lane, as each would be alone") {
  Sandbox sandbox(test_options(640, 360));
  REQUIRE(sandbox.load_scene(asset("double_pendulum.json")) == "");
  SandboxState& state = sandbox.state();
  add_lane(state, "rattle");
  sandbox.advance_steps(0);
  REQUIRE(state.lane_count() == 2);
  // Pull the outer bob toward (-1.9, -1.4) for the first second, then let go: shot's --drag 2,-1.9,-1.4,0,0,1.
  const std::vector<ScriptedDrag> drags{{2, Vec3(-1.9, -1.4, 0.0), 0.0, 1.0}};
  World alone = state.sim.world(1);  // the lane as it starts, stepped alone with the same script
  DragScript alone_script(drags, state.drag_settings());
  DragController alone_drag;
  REQUIRE(state.sim.set_script(drags, state.drag_settings()) == "");  // every lane plays its own copy
  for (int s = 0; s < 90; ++s) {
    sandbox.advance_steps(1);
    alone_script.before_step(alone, alone_drag);
    alone_drag.before_step(alone);
    alone.step();
    alone_drag.after_step(alone);
    if (s == 50) CHECK(state.sim.lane(1).drag.particle() == 2);  // held in the lane too
  }
  CHECK(state.sim.world(1).state().position == alone.state().position);
  CHECK(state.sim.world(1).state().velocity == alone.state().velocity);
  // Pulled: the bob went well left of where the undragged motion would have taken it in the first second.
  CHECK(state.sim.world(1).state().position[2].x < 0.0);
}

TEST_CASE("length errors exaggerated: a drifted rod is drawn its error times k longer about its middle") {
  Sandbox sandbox(test_options(1280, 720));
  REQUIRE(sandbox.load_scene(asset("simple_pendulum.json")) == "");
  SandboxState& state = sandbox.state();
  state.view.panels = false;
  state.view.trails = false;
  state.view.grid = false;
  state.view.legend = false;
  state.view.rod_colouring = RodColouring::Plain;
  Settings settings = sandbox.world().settings();
  settings.solver = "acceleration";
  state.commands.push_back(Command::apply_settings(settings));
  sandbox.frame_scene();
  sandbox.advance_steps(600);  // 10 s of the acceleration-level solver: the rod drifts
  state.paused = true;
  const World& world = sandbox.world();
  const Vec3 a = world.state().position[0], b = world.state().position[1];
  const double d = glm::length(b - a), rest = 1.0;  // simple_pendulum.json: a 1 m rod
  const double error = d - rest;
  CAPTURE(error);
  REQUIRE(std::abs(error) > 2e-3);
  const Vec3 middle = 0.5 * (a + b), along = (b - a) / d;
  const int k = 10;  // 4 % drift after 10 s: ten times that is plain to see, and stays on screen
  const double drawn = std::clamp(rest + k * error, 0.0, 3.0 * rest);
  // A point on the rod's line halfway between the bead's far edge and the drawn end (error > 0: the rod pokes out
  // beyond the bead), or halfway between the drawn end and the bead's near edge (error < 0: a gap).
  const double bead = sandbox.radii()[1];
  const double probe = error > 0 ? 0.5 * (0.5 * d + bead + 0.5 * drawn) : 0.5 * (0.5 * drawn + 0.5 * d - bead);
  REQUIRE(std::abs(0.5 * drawn - 0.5 * d) > bead + 0.02);  // the probe is off the bead, by a visible margin
  const glm::dvec2 at = screen_of(sandbox, middle + probe * along);
  const glm::vec3 grey{0.80f, 0.81f, 0.84f};
  const auto pixel_at = [&](int exaggeration) {
    state.view.error_exaggeration = exaggeration;
    run_frames(sandbox, 1, 0.0);
    return sandbox.read_pixels().at(static_cast<int>(at.x), static_cast<int>(at.y));
  };
  REQUIRE(sandbox.camera().in_viewport(at));
  const auto plain = pixel_at(1), magnified = pixel_at(k);
  if (error > 0) {  // nothing there at x1, the rod at x100
    CHECK(colour_distance(plain, kBackground) < 20.0);
    CHECK(colour_distance(magnified, grey) < 40.0);
  } else {  // the rod there at x1, a gap at x100
    CHECK(colour_distance(plain, grey) < 40.0);
    CHECK(colour_distance(magnified, kBackground) < 20.0);
  }
}

}  // namespace lagrange::app::test
