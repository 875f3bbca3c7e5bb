// The window side of contacts (issue 23), through real SDL events in the offscreen window: obstacles, balls at their
// radius and cables drawn where the engine puts them (pixels), a slack cable's curve against its length, every
// obstacle of every lesson and a cable hovered and clicked, the Scene panel's restitution and friction, the Diagnostics
// count, the Measure strip's scale against a resting ball's weight m g and its CSV read back, and Edit mode's floor,
// wall, box and peg built with the mouse, undone, redone, saved, reopened and played onto.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <numbers>

#include "app_fixture.h"
#include "lagrange/scene_edit.h"
#include "tools/force_scale.h"
#include "ui/ui.h"
#include "view/picking.h"

namespace lagrange::app::test {
namespace {

constexpr double kDt = 1.0 / 60.0;

void push_text(const std::string& text) {
  SDL_Event event{};
  event.type = SDL_TEXTINPUT;
  std::snprintf(event.text.text, sizeof event.text.text, "%s", text.c_str());
  REQUIRE(SDL_PushEvent(&event) == 1);
}

void key(Sandbox& sandbox, SDL_Keycode code, Uint16 modifiers = KMOD_NONE) {
  run_frames(sandbox, 1, 0.0);
  push_key(code, modifiers);
  run_frames(sandbox, 1, 0.0);
}

// Clicks a number field and types `text` over its value, then Enter.
void type_into(Sandbox& sandbox, const std::string& field, const std::string& text) {
  click_widget(sandbox, field);  // a number field selects its whole text on focus: the text replaces it
  push_text(text);
  run_frames(sandbox, 1, 0.0);
  key(sandbox, SDLK_RETURN);
  run_frames(sandbox, 1, 0.0);
}

void drag(Sandbox& sandbox, glm::dvec2 from, glm::dvec2 to) {
  push_mouse_motion(from, from, false);
  run_frames(sandbox, 1, 0.0);
  push_mouse_button(SDL_MOUSEBUTTONDOWN, from);
  run_frames(sandbox, 1, 0.0);
  glm::dvec2 previous = from;
  for (int k = 1; k <= 4; ++k) {
    const glm::dvec2 at = from + (to - from) * (k / 4.0);
    push_mouse_motion(at, previous, true);
    run_frames(sandbox, 1, 0.0);
    previous = at;
  }
  push_mouse_button(SDL_MOUSEBUTTONUP, to);
  run_frames(sandbox, 1, 0.0);
}

void hover_at(Sandbox& sandbox, glm::dvec2 pixel) {
  push_mouse_motion(pixel, pixel, false);
  run_frames(sandbox, 2, 0.0);
}

std::string read_text(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

bool drawn(const Image& image, glm::dvec2 pixel) {
  const int x = static_cast<int>(std::lround(pixel.x)), y = static_cast<int>(std::lround(pixel.y));
  return colour_distance(image.at(x, y), kBackground) > 20.0;
}

// A pixel on obstacle k as drawn, away from every particle: a point of a plane's trace, of a box's left side, a
// circle's centre. Empty when none of the tried points is in the viewport and clear.
std::optional<glm::dvec2> pixel_on_obstacle(const Sandbox& sandbox, int k) {
  const World& world = sandbox.world();
  const Obstacle& o = world.model().contacts().obstacles[static_cast<std::size_t>(k)];
  const Camera& camera = sandbox.camera();
  std::vector<Vec3> tries;
  if (o.shape == ObstacleShape::Sphere) {
    tries = {o.center, o.center + Vec3(0.0, -0.5 * o.radius, 0.0), o.center + Vec3(0.5 * o.radius, 0.0, 0.0)};
  } else if (o.shape == ObstacleShape::Box) {
    for (double f : {0.5, 0.3, 0.7, 0.1}) tries.push_back(Vec3(o.min.x, o.min.y + f * (o.max.y - o.min.y), 0.0));
  } else {
    const PlanePatch patch = plane_patch(camera, world, o);  // along the stretch drawn
    for (double f : {0.5, 0.4, 0.6, 0.2, 0.8, 0.05, 0.95})
      tries.push_back(patch.foot + (patch.from + f * (patch.to - patch.from)) * patch.u);
  }
  for (const Vec3& at : tries) {
    const auto p = camera.project(at);
    if (!p || !camera.in_viewport(glm::dvec2(p->x, p->y))) continue;
    const Hover hit = pick(world, camera, sandbox.radii(), glm::dvec2(p->x, p->y));
    if (hit.kind == Hover::Kind::Obstacle) return glm::dvec2(p->x, p->y);
  }
  return std::nullopt;
}

}  // namespace

TEST_CASE("a slack cable is drawn as a curve as long as the cable, sagging along gravity between its ends") {
  const Vec3 a(0.0, 0.0, 0.0), b(0.6, -0.2, 0.0), g(0.0, -9.81, 0.0);
  const double c = glm::length(b - a);
  for (const double length : {c, 1.1 * c, 1.5 * c, 2.0 * c}) {
    CAPTURE(length);
    const std::vector<Vec3> curve = cable_curve(a, b, length, g, 64);
    REQUIRE(curve.size() == 65);
    CHECK(curve.front() == a);
    CHECK(glm::length(curve.back() - b) < 1e-12);
    double arc = 0.0;
    for (std::size_t k = 1; k < curve.size(); ++k) arc += glm::length(curve[k] - curve[k - 1]);
    // The polygon of 64 pieces along the parabola: its length is the cable's to a fraction of a percent.
    CHECK(arc == doctest::Approx(length).epsilon(0.005));
    // It hangs below the chord (gravity's side), deepest in the middle.
    const Vec3 middle = curve[32];
    CHECK(middle.y <= 0.5 * (a.y + b.y) + 1e-12);
    // A catenary: a hanging string's horizontal tension is the same everywhere, so y'' / sqrt(1 + y'²) = 1/a along
    // it (a parabola's y'' is constant instead). Central differences over the evenly spaced points.
    if (length > 1.05 * c) {
      double lowest = INFINITY, highest = 0.0;
      for (std::size_t k = 4; k + 4 < curve.size(); ++k) {
        const double dx = curve[k + 1].x - curve[k].x;
        const double slope = (curve[k + 1].y - curve[k - 1].y) / (2.0 * dx);
        const double bend = (curve[k + 1].y - 2.0 * curve[k].y + curve[k - 1].y) / (dx * dx);
        const double ratio = bend / std::sqrt(1.0 + slope * slope);
        lowest = std::min(lowest, ratio);
        highest = std::max(highest, ratio);
      }
      CHECK(lowest > 0.0);
      CHECK(highest / lowest < 1.01);
    }
  }
  // A vertical chord folds to one side, and the curve stays as long as the cable.
  const std::vector<Vec3> folded = cable_curve(a, Vec3(0.0, -0.5, 0.0), 0.7, g, 64);
  double arc = 0.0;
  for (std::size_t k = 1; k < folded.size(); ++k) arc += glm::length(folded[k] - folded[k - 1]);
  CHECK(arc == doctest::Approx(0.7).epsilon(0.005));
  CHECK(std::abs(folded[32].x) > 0.05);
}

TEST_CASE("the scale without a window: a wall reads nothing, a floor m g, a peg |F|, and its samples follow the timeline back") {
  // Two balls of 1 and 3 kg at rest, one on a floor, one on a peg, beside a wall they do not touch.
  Scene scene;
  scene.name = "scale";
  scene.dimension = 2;
  ParticleDef light, heavy;
  light.position = Vec3(0.0, 0.1, 0.0);
  light.mass = 1.0;
  light.radius = 0.1;
  heavy.position = Vec3(3.0, 0.7, 0.0);
  heavy.mass = 3.0;
  heavy.radius = 0.2;
  scene.particles = {light, heavy};
  Obstacle floor, wall, peg;
  floor.normal = Vec3(0.0, 1.0, 0.0);
  wall.point = Vec3(-2.0, 0.0, 0.0);
  wall.normal = Vec3(1.0, 0.0, 0.0);
  peg.shape = ObstacleShape::Sphere;
  peg.center = Vec3(3.0, 0.0, 0.0);
  peg.radius = 0.5;
  scene.contacts.obstacles = {floor, wall, peg};
  World world = make_world(scene);
  for (int k = 0; k < 120; ++k) world.step();
  const double g = 9.81;
  CHECK(scale_reading(world, 0) == doctest::Approx(1.0 * g).epsilon(1e-6));  // the floor: -F.n = m g
  CHECK(scale_reading(world, 1) == 0.0);                                     // the wall: untouched
  CHECK(scale_reading(world, 2) == doctest::Approx(3.0 * g).epsilon(1e-6));  // the peg: |F| = m g on its top
  CHECK(scene_weight(world) == doctest::Approx(4.0 * g).epsilon(1e-12));
  CHECK(touching_weight(world, 0) == doctest::Approx(1.0 * g).epsilon(1e-12));
  CHECK(touching_weight(world, 2) == doctest::Approx(3.0 * g).epsilon(1e-12));
  ForceScale scale;
  scale_scene_started(scale, world);
  CHECK(scale.obstacle == 0);  // the first plane
  const State earlier = world.state();
  for (int k = 0; k < 10; ++k) {
    world.step();
    scale_after_step(scale, world);
  }
  REQUIRE(scale.samples.size() == 10);
  world.restore(earlier);  // the timeline: back 10 steps, then on again
  world.step();
  scale_after_step(scale, world);
  REQUIRE(scale.samples.size() == 1);
  CHECK(scale.samples.back().time == world.time());
  CHECK(scale.samples.back().reference == doctest::Approx(1.0 * g).epsilon(1e-12));
  double force = 0.0, reference = 0.0;
  REQUIRE(scale_means(scale, 0.5, force, reference));
  CHECK(force == doctest::Approx(1.0 * g).epsilon(1e-6));
  CHECK(obstacle_name(world, 1) == "plane 1 (wall)");
  CHECK(obstacle_name(world, 2) == "circle 2");
}

TEST_CASE("the floor, the peg, the box and a ball at its file's radius are drawn where the engine has them") {
  Sandbox sandbox(test_options(900, 600));
  SandboxState& state = sandbox.state();
  state.view.panels = false;
  state.view.grid = false;
  state.view.trails = false;
  // The bouncing ball: its radius from the file (0.1 m, read here), its floor the plane y = 0.
  REQUIRE(sandbox.load_scene(asset("bouncing_ball.json")) == "");
  state.paused = true;
  run_frames(sandbox, 2, 0.0);
  sandbox.render(false);
  Image image = sandbox.read_pixels();
  const Scene file = load_scene_file(asset("bouncing_ball.json"));
  const double r = file.particles[0].radius;
  REQUIRE(r > 0.0);
  const Vec3 ball = sandbox.world().state().position[0];
  CHECK(drawn(image, screen_of(sandbox, ball + Vec3(0.8 * r, 0.0, 0.0))));
  CHECK(drawn(image, screen_of(sandbox, ball - Vec3(0.8 * r, 0.0, 0.0))));
  CHECK(!drawn(image, screen_of(sandbox, ball + Vec3(1.3 * r, 0.0, 0.0))));
  // The floor: along y = 0 across the whole view, left and right of the ball.
  const Obstacle& floor = file.contacts.obstacles[0];
  for (const double x : {-1.5, -0.5, 0.5, 1.5}) {
    CAPTURE(x);
    const glm::dvec2 at = screen_of(sandbox, floor.point + Vec3(x, 0.0, 0.0));
    CHECK(drawn(image, at));
    CHECK(!drawn(image, at + glm::dvec2(0.0, -12.0)));  // above the floor: nothing (the hatches are under it)
  }
  // The incline onto its floor: each plane drawn only where a particle can touch it, on the free side of the other —
  // the slope up to the foot, the floor from it — not as two lines crossing at the foot.
  REQUIRE(sandbox.load_scene(asset("friction_on_an_incline.json")) == "");
  run_frames(sandbox, 2, 0.0);
  sandbox.render(false);
  image = sandbox.read_pixels();
  {
    const auto& planes = sandbox.world().model().contacts().obstacles;
    REQUIRE(planes.size() == 2);
    const Vec3 n = glm::normalize(planes[0].normal), downhill(n.y, -n.x, 0.0), foot(0.0);
    REQUIRE(glm::dot(n, foot - planes[0].point) == doctest::Approx(0.0));  // the foot is on both
    REQUIRE(glm::dot(planes[1].normal, foot - planes[1].point) == doctest::Approx(0.0));
    for (const double d : {0.3, 0.6}) {
      CAPTURE(d);
      CHECK(drawn(image, screen_of(sandbox, foot - d * downhill)));             // the slope, uphill
      CHECK(!drawn(image, screen_of(sandbox, foot + d * downhill)));            // ... not on below the floor
      CHECK(drawn(image, screen_of(sandbox, foot + Vec3(d, 0.0, 0.0))));        // the floor, beyond the foot
      CHECK(!drawn(image, screen_of(sandbox, foot - Vec3(d, 0.0, 0.0))));       // ... not on under the slope
    }
  }
  // The peg of the chain over a peg: its disc, at its radius.
  REQUIRE(sandbox.load_scene(asset("chain_over_a_peg.json")) == "");
  run_frames(sandbox, 2, 0.0);
  sandbox.render(false);
  image = sandbox.read_pixels();
  const Obstacle& peg = sandbox.world().model().contacts().obstacles[0];
  REQUIRE(peg.shape == ObstacleShape::Sphere);
  // Its disc (a striped steel ball: some stripes are dark) covers most points of a ring at 0.8 of its radius.
  int on_disc = 0;
  for (int k = 0; k < 24; ++k) {
    const double a = 2.0 * std::numbers::pi * k / 24.0;
    on_disc += drawn(image, screen_of(sandbox, peg.center + 0.8 * peg.radius * Vec3(std::cos(a), std::sin(a), 0.0)));
  }
  CHECK(on_disc >= 16);
  // The gas's box: its four walls.
  REQUIRE(sandbox.load_scene(asset("gas_in_a_box.json")) == "");
  state.view.contact_arrows = false;
  run_frames(sandbox, 2, 0.0);
  sandbox.render(false);
  image = sandbox.read_pixels();
  const Obstacle& box = sandbox.world().model().contacts().obstacles[0];
  REQUIRE(box.shape == ObstacleShape::Box);
  const Vec3 mid = 0.5 * (box.min + box.max);
  for (const Vec3 wall : {Vec3(box.min.x, mid.y, 0.0), Vec3(box.max.x, mid.y, 0.0), Vec3(mid.x, box.min.y, 0.0),
                          Vec3(mid.x, box.max.y, 0.0)})
    CHECK(drawn(image, screen_of(sandbox, wall)));
}

TEST_CASE("every obstacle of every shipped scene and a cable are hovered with their tooltip, and a click puts the scale on an obstacle") {
  Sandbox sandbox(test_options(1280, 720));
  SandboxState& state = sandbox.state();
  int obstacles = 0;
  for (const auto& file : shipped_scenes()) {
    REQUIRE(sandbox.load_scene(file) == "");
    state.paused = true;
    state.measure.shown = true;
    run_frames(sandbox, 2, 0.0);
    const auto& list = sandbox.world().model().contacts().obstacles;
    for (std::size_t k = 0; k < list.size(); ++k) {
      CAPTURE(file.filename().string());
      CAPTURE(k);
      const auto at = pixel_on_obstacle(sandbox, static_cast<int>(k));
      REQUIRE(at.has_value());
      hover_at(sandbox, *at);
      CHECK(state.hover.kind == Hover::Kind::Obstacle);
      CHECK(state.hover.index == static_cast<int>(k));
      CHECK(state.widget_rects.count("tooltip") == 1);
      click_at(sandbox, *at);
      CHECK(state.measure.scale.obstacle == static_cast<int>(k));
      CHECK(state.measure.tool == kScaleTool);
      run_frames(sandbox, 2, 0.0);
      CHECK(state.widget_rects.count("measure: scale heading") == 1);
      ++obstacles;
    }
  }
  CHECK(obstacles >= 4);  // the ball's floor, the chain's table, the gas's box, the cloth's ball, the peg
  // The ball on a string: its cable hovered (a cable's tooltip), drawn in the rope colour, and clicked.
  REQUIRE(sandbox.load_scene(asset("ball_on_a_string.json")) == "");
  state.paused = true;
  run_frames(sandbox, 2, 0.0);
  int cable = -1;
  for (std::size_t c = 0; c < sandbox.world().constraints().size(); ++c)
    if (sandbox.world().constraints()[c]->unilateral() < 0) cable = static_cast<int>(c);
  REQUIRE(cable >= 0);
  const auto ids = sandbox.world().constraints()[static_cast<std::size_t>(cable)]->particles();
  const Vec3 middle = 0.5 * (sandbox.world().state().position[ids[0]] + sandbox.world().state().position[ids[1]]);
  hover_at(sandbox, screen_of(sandbox, middle));
  CHECK(state.hover.kind == Hover::Kind::Rod);
  CHECK(state.hover.index == cable);
  CHECK(state.widget_rects.count("tooltip") == 1);
  click_at(sandbox, screen_of(sandbox, middle));
  CHECK(state.measure.rod == cable);
}

TEST_CASE("a slack cable sags: the ball on a string past 120 degrees is drawn off the chord, on the curve") {
  Sandbox sandbox(test_options(900, 600));
  SandboxState& state = sandbox.state();
  state.view.panels = false;
  state.view.grid = false;
  state.view.trails = false;
  REQUIRE(sandbox.load_scene(asset("ball_on_a_string.json")) == "");
  const World& world = sandbox.world();
  int cable = -1;
  for (std::size_t c = 0; c < world.constraints().size(); ++c)
    if (world.constraints()[c]->unilateral() < 0) cable = static_cast<int>(c);
  REQUIRE(cable >= 0);
  state.paused = true;
  // Step until the cable is slack by a fifth of its length (the projectile's flight after 120°).
  const double length = world.constraints()[static_cast<std::size_t>(cable)]->length_scale(0);
  for (int k = 0; k < 600 && slack(world.model(), world.state(), cable) < 0.2 * length; ++k) sandbox.advance_steps(1);
  REQUIRE(slack(world.model(), world.state(), cable) >= 0.2 * length);
  run_frames(sandbox, 1, 0.0);
  sandbox.render(false);
  const Image image = sandbox.read_pixels();
  const auto ids = world.constraints()[static_cast<std::size_t>(cable)]->particles();
  const Vec3 a = world.state().position[ids[0]], b = world.state().position[ids[1]];
  const std::vector<Vec3> curve = cable_curve(a, b, length, world.settings().gravity, 24);
  // Dashed: the pieces 0-1, 2-3, ... are drawn; the middle of piece 10-11 is on a dash.
  CHECK(drawn(image, screen_of(sandbox, 0.5 * (curve[10] + curve[11]))));
  // The curve drawn is as long as the cable, and the chord's own middle, well off it, is left empty.
  double arc = 0.0;
  for (std::size_t k = 1; k < curve.size(); ++k) arc += glm::length(curve[k] - curve[k - 1]);
  CHECK(arc == doctest::Approx(length).epsilon(0.01));
  if (glm::length(curve[12] - 0.5 * (a + b)) * sandbox.camera().pixels_per_unit(a) > 12.0)
    CHECK(!drawn(image, screen_of(sandbox, 0.5 * (a + b))));
}

TEST_CASE("the scale reads a resting ball's weight m g beside k times the weight, its CSV reads back, and restitution and friction from the Scene panel reach every lane") {
  Sandbox sandbox(test_options(1920, 1080));
  SandboxState& state = sandbox.state();
  const auto dir = temp_dir("scale");
  state.save_dir = dir;
  REQUIRE(sandbox.load_scene(asset("bouncing_ball.json")) == "");
  state.measure.shown = true;
  push_key(SDLK_l);  // a second lane: the coefficients reach it too
  run_frames(sandbox, 3, 0.0);
  REQUIRE(state.lane_count() == 2);
  state.paused = true;
  // The Scene panel: a dead ball (e = 0) and some friction, typed into its fields.
  type_into(sandbox, "restitution field", "0");
  type_into(sandbox, "friction field", "0.5");
  for (std::size_t k = 0; k < state.lane_count(); ++k) {
    CHECK(state.sim.world(k).model().contacts().restitution == 0.0);
    CHECK(state.sim.world(k).model().contacts().friction == 0.5);
  }
  CHECK(state.scene.contacts.restitution == 0.0);  // Reset keeps them
  // Dropped from 1 m it lands at 0.45 s and stays: 3 s later the scale reads its weight.
  const Scene file = load_scene_file(asset("bouncing_ball.json"));
  const double weight = file.particles[0].mass * glm::length(file.settings.gravity);
  sandbox.advance_steps(180);
  run_frames(sandbox, 2, 0.0);
  const MeasureState& m = state.measure;
  REQUIRE(m.scale.obstacle == 0);
  REQUIRE(m.readout.scale_force.has_value());
  CHECK(*m.readout.scale_force == doctest::Approx(weight).epsilon(1e-6));
  // At first k = 1 times the weight touching it: the ball's, all of it.
  CHECK(m.scale.reference == ScaleReference::TouchingWeight);
  CHECK(*m.readout.scale_reference == doctest::Approx(weight).epsilon(1e-12));
  CHECK(state.widget_rects.count("diagnostics: contacts") == 1);
  // k × the weight of everything, k = 3: three weights.
  click_widget(sandbox, "measure: scale reference");
  click_widget(sandbox, "measure: scale reference 0");
  CHECK(m.scale.reference == ScaleReference::SceneWeight);
  type_into(sandbox, "measure: scale k", "3");
  CHECK(m.scale.factor == 3.0);
  sandbox.advance_steps(60);
  run_frames(sandbox, 2, 0.0);
  CHECK(*m.readout.scale_reference == doctest::Approx(3.0 * weight).epsilon(1e-12));
  // A constant: 2 N.
  click_widget(sandbox, "measure: scale reference");
  click_widget(sandbox, "measure: scale reference 2");
  type_into(sandbox, "measure: scale constant", "2");
  CHECK(m.scale.constant == 2.0);
  sandbox.advance_steps(60);
  // Export CSV: one row per sample, the last the reading now.
  click_widget(sandbox, "measure: scale export");
  run_frames(sandbox, 2, 0.0);
  std::filesystem::path csv;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    if (entry.path().extension() == ".csv") csv = entry.path();
  REQUIRE(!csv.empty());
  const std::string text = read_text(csv);
  std::size_t rows = 0;
  for (char ch : text) rows += ch == '\n';
  CHECK(rows == m.scale.samples.size() + 2);  // the comment and the header
  const std::string last = text.substr(text.rfind('\n', text.size() - 2) + 1);
  double t = 0.0, force = 0.0, reference = 0.0;
  REQUIRE(std::sscanf(last.c_str(), "%lf,%lf,%lf", &t, &force, &reference) == 3);
  CHECK(force == doctest::Approx(weight).epsilon(1e-6));
  CHECK(reference == 2.0);
  click_widget(sandbox, "measure: scale clear");
  CHECK(m.scale.samples.empty());
  // A refused coefficient (restitution above 1) keeps what runs, with the engine's message.
  type_into(sandbox, "restitution field", "1.5");
  CHECK(sandbox.world().model().contacts().restitution == 0.0);
  CHECK(!state.settings_error.empty());
}

TEST_CASE("Edit mode: a floor, a wall, a box and a peg built with the mouse, undone, redone, saved, reopened, played onto") {
  Sandbox sandbox(test_options(1000, 640));
  SandboxState& state = sandbox.state();
  const EditorState& e = state.editor;
  REQUIRE(sandbox.load_scene(asset("double_pendulum.json")) == "");
  run_frames(sandbox, 2, 0.0);
  key(sandbox, SDLK_e);
  REQUIRE(e.active);
  click_widget(sandbox, "new 2d button");
  run_frames(sandbox, 1, 0.0);
  REQUIRE(e.draft.particles.empty());
  REQUIRE(std::fmod(1.0, e.snap_step) < 1e-12);  // whole metres are on the grid: the points below snap to themselves
  // Every tool's button, then each tool at work.
  for (const EditTools& tool : kEditTools) {
    click_widget(sandbox, std::string("tool ") + tool.name);
    CHECK(e.tool == tool.tool);
  }
  key(sandbox, SDLK_4);  // Floor: a click, a level floor through it
  REQUIRE(e.tool == EditTool::Floor);
  click_at(sandbox, screen_of(sandbox, {0.0, -2.0, 0.0}));
  REQUIRE(e.draft.contacts.obstacles.size() == 1);
  CHECK(e.draft.contacts.obstacles[0].shape == ObstacleShape::Plane);
  CHECK(e.draft.contacts.obstacles[0].point == Vec3(0.0, -2.0, 0.0));
  CHECK(e.draft.contacts.obstacles[0].normal == Vec3(0.0, 1.0, 0.0));
  key(sandbox, SDLK_5);  // Wall: right of the (empty) scene's middle, facing it
  click_at(sandbox, screen_of(sandbox, {2.0, 0.0, 0.0}));
  REQUIRE(e.draft.contacts.obstacles.size() == 2);
  CHECK(e.draft.contacts.obstacles[1].point == Vec3(2.0, 0.0, 0.0));
  CHECK(e.draft.contacts.obstacles[1].normal == Vec3(-1.0, 0.0, 0.0));
  key(sandbox, SDLK_6);  // Box: corner to corner
  drag(sandbox, screen_of(sandbox, {1.0, 1.0, 0.0}), screen_of(sandbox, {-1.0, -1.0, 0.0}));
  REQUIRE(e.draft.contacts.obstacles.size() == 3);
  CHECK(e.draft.contacts.obstacles[2].shape == ObstacleShape::Box);
  CHECK(e.draft.contacts.obstacles[2].min == Vec3(-1.0, -1.0, 0.0));
  CHECK(e.draft.contacts.obstacles[2].max == Vec3(1.0, 1.0, 0.0));
  key(sandbox, SDLK_7);  // Peg: centre, then dragged out to its radius
  drag(sandbox, screen_of(sandbox, {-1.0, 1.0, 0.0}), screen_of(sandbox, {-1.0, 2.0, 0.0}));
  REQUIRE(e.draft.contacts.obstacles.size() == 4);
  CHECK(e.draft.contacts.obstacles[3].shape == ObstacleShape::Sphere);
  CHECK(e.draft.contacts.obstacles[3].center == Vec3(-1.0, 1.0, 0.0));
  CHECK(e.draft.contacts.obstacles[3].radius == doctest::Approx(1.0));
  CHECK(e.problem.find("particles") != std::string::npos);  // obstacles alone are not a scene yet: the loader says why
  // A box of no area is refused with a message, and adds nothing.
  key(sandbox, SDLK_6);
  click_at(sandbox, screen_of(sandbox, {0.0, 0.0, 0.0}));
  CHECK(e.draft.contacts.obstacles.size() == 4);
  CHECK(state.toast_is_error);
  // Undo all four, redo all four.
  const std::string built = write_scene(e.draft);
  for (int k = 0; k < 4; ++k) key(sandbox, SDLK_z, KMOD_LCTRL);
  CHECK(e.draft.contacts.obstacles.empty());
  for (int k = 0; k < 4; ++k) key(sandbox, SDLK_z, KMOD_LCTRL | KMOD_LSHIFT);
  CHECK(write_scene(e.draft) == built);
  // The Obstacles section removes one (and undo brings it back).
  click_widget(sandbox, "remove obstacle 3");
  CHECK(e.draft.contacts.obstacles.size() == 3);
  key(sandbox, SDLK_z, KMOD_LCTRL);
  CHECK(write_scene(e.draft) == built);
  // Only the floor stays, and a ball of radius 0.25 m above it (the inspector's radius field).
  for (int k : {3, 2, 1}) click_widget(sandbox, "remove obstacle " + std::to_string(k));
  REQUIRE(e.draft.contacts.obstacles.size() == 1);
  key(sandbox, SDLK_2);
  click_at(sandbox, screen_of(sandbox, {0.0, 0.0, 0.0}));
  REQUIRE(e.draft.particles.size() == 1);
  type_into(sandbox, "edit radius", "0.25");
  REQUIRE(e.draft.particles[0].radius == 0.25);
  CHECK(e.problem == "");
  // The Scene panel's restitution, while editing: the draft's, one undo step.
  open_panel(state, ViewOptions::Side::Left);
  const std::size_t steps = e.undo.size();
  type_into(sandbox, "restitution field", "0.3");
  CHECK(e.draft.contacts.restitution == 0.3);
  type_into(sandbox, "restitution field", "0");
  CHECK(e.undo.size() == steps + 2);
  CHECK(e.draft.contacts.given);
  CHECK(e.draft.contacts.restitution == 0.0);
  CHECK(!e.draft.contacts.particles);  // only obstacles collide, as before
  // Saved, read back: the same scene, obstacles and radius included.
  const auto dir = temp_dir("editor-obstacles");
  const std::string file = (dir / "floor.json").string();
  state.commands.push_back(Command::save(file));
  run_frames(sandbox, 2, 0.0);
  REQUIRE(std::filesystem::exists(file));
  const Scene reread = load_scene_file(file);
  CHECK(write_scene(reread) == write_scene(e.draft));
  CHECK(reread.contacts.obstacles.size() == 1);
  CHECK(reread.particles[0].radius == 0.25);
  // Played: the ball falls onto the floor and rests with its centre one radius above it (y = -2 + 0.25).
  key(sandbox, SDLK_e);
  REQUIRE(!e.active);
  state.paused = true;
  sandbox.advance_steps(240);
  CHECK(sandbox.world().state().position[0].y == doctest::Approx(-2.0 + 0.25).epsilon(1e-6));
  CHECK(std::abs(sandbox.world().state().velocity[0].y) < 1e-6);
}

}  // namespace lagrange::app::test
