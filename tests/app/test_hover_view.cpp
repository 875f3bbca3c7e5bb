// Everything the pointer can rest on, and every View option, on shipped scenes. Issue 6 found that resting the pointer
// on a rod and the "length error" rod colouring crashed (a null gradient), so each case here hovers or shows each
// target directly and checks that the frame renders and the world stays finite.
#include "app_fixture.h"
#include "ui/ui.h"

namespace lagrange::app::test {
namespace {

constexpr double kDt = 1.0 / 60.0;


void check_finite(const Sandbox& sandbox) {
  const World& world = sandbox.world();
  bool all = std::isfinite(world.energy().total()) && std::isfinite(world.time());
  for (std::size_t i = 0; i < world.particle_count(); ++i)
    all = all && finite(world.state().position[i]) && finite(world.state().velocity[i]);
  CHECK(all);
}

// Rests the pointer on `pixel` for one frame: UI (with the tooltip), no physics, and drawing (with the highlight)
// unless `draw` is false (the drawing is the same as for the target's midpoint: it saves the tests' time).
Hover rest_at(Sandbox& sandbox, glm::dvec2 pixel, bool draw = true) {
  push_mouse_motion(pixel, pixel, false);
  sandbox.pump_events();
  sandbox.frame(0.0);
  if (draw) sandbox.render();
  return sandbox.state().hover;
}

double distance_to_segment(glm::dvec2 p, glm::dvec2 a, glm::dvec2 b) {
  const glm::dvec2 ab = b - a;
  const double t = std::clamp(glm::dot(p - a, ab) / std::max(glm::dot(ab, ab), 1e-12), 0.0, 1.0);
  return glm::length(a + t * ab - p);
}

// The pixels of the scene's viewport that are not background: something was drawn.
int drawn_pixels(const Sandbox& sandbox) {
  const Image image = sandbox.read_pixels();
  const Camera& camera = sandbox.camera();
  int drawn = 0;
  for (int y = camera.y() + 2; y < camera.y() + camera.height() - 2; y += 3)
    for (int x = camera.x() + 2; x < camera.x() + camera.width() - 2; x += 3)
      drawn += colour_distance(image.at(x, y), kBackground) > 12.0 ? 1 : 0;
  return drawn;
}

struct HoverCounts {
  int particles = 0, rods = 0, rods_exact = 0, pins = 0, empty = 0, panel = 0;
};

// Hovers every particle, every two-particle constraint (midpoint and near both ends), every pin (its point and its
// ring), the four corners of the viewport and a grid over both panels.
HoverCounts hover_everything(Sandbox& sandbox, bool sparse, bool panels = true) {
  HoverCounts counts;
  const SandboxState& state = sandbox.state();
  const World& world = sandbox.world();
  const State& p = world.state();
  const Camera& camera = sandbox.camera();
  // At least 6 pixels inside the viewport.
  auto visible = [&](glm::dvec2 pixel) { return glm::length(camera.clamp_to_viewport(pixel, 6.0) - pixel) < 1e-9; };
  auto tooltip_shown = [&] { return state.widget_rects.count("tooltip") == 1; };

  for (std::size_t i = 0; i < p.position.size(); ++i) {
    CAPTURE(i);
    const glm::dvec2 pixel = screen_of(sandbox, p.position[i]);
    if (!visible(pixel)) continue;
    const Hover hit = rest_at(sandbox, pixel);
    CHECK(hit.kind == Hover::Kind::Particle);  // this one or one drawn over it
    CHECK(tooltip_shown());
    ++counts.particles;
  }
  const auto constraints = world.constraints();
  for (std::size_t c = 0; c < constraints.size(); ++c) {
    CAPTURE(c);
    const auto ids = constraints[c]->particles();
    if (ids.size() == 1) {  // a pin: its point (on its particle) and its ring
      const glm::dvec2 pixel = screen_of(sandbox, p.position[ids[0]]);
      const double ring = 1.45 * sandbox.radii()[ids[0]] * camera.pixels_per_unit(p.position[ids[0]]);
      for (glm::dvec2 at : {pixel, pixel + glm::dvec2(ring, 0.0), pixel - glm::dvec2(0.0, ring)})
        if (visible(at)) {
          const Hover hit = rest_at(sandbox, at);
          CHECK((hit.kind == Hover::Kind::None) != tooltip_shown());
          // A pin's sign is its particle's: the ring picks the particle it holds (whose tooltip names the pin).
          if (has_role(*constraints[c], KindRole::Pin) && !constraints[c]->tool())
            CHECK(hit.kind == Hover::Kind::Particle);
          ++counts.pins;
        }
      continue;
    }
    if (ids.size() != 2) continue;
    const glm::dvec2 a = screen_of(sandbox, p.position[ids[0]]), b = screen_of(sandbox, p.position[ids[1]]);
    for (double t : {0.5, 0.15, 0.85}) {
      const glm::dvec2 pixel = glm::mix(a, b, t);
      if (!visible(pixel)) continue;
      const Hover hit = rest_at(sandbox, pixel, t == 0.5);
      CHECK(hit.kind != Hover::Kind::None);
      CHECK(tooltip_shown());
      if (hit.kind == Hover::Kind::Rod) {
        const auto hit_ids = constraints[hit.index]->particles();
        CHECK(distance_to_segment(pixel, screen_of(sandbox, p.position[hit_ids[0]]),
                                  screen_of(sandbox, p.position[hit_ids[1]])) < 6.0);
        if (t == 0.5 && hit.index == static_cast<int>(c)) ++counts.rods_exact;
      }
      if (t == 0.5) ++counts.rods;
    }
  }
  // Empty space: the viewport's corners, where no shipped scene draws anything.
  for (glm::dvec2 corner : {glm::dvec2(camera.x() + 8, camera.y() + 60),
                            glm::dvec2(camera.x() + camera.width() - 8, camera.y() + 60),
                            glm::dvec2(camera.x() + 8, camera.y() + camera.height() - 8),
                            glm::dvec2(camera.x() + camera.width() - 8, camera.y() + camera.height() - 8)}) {
    const Hover hit = rest_at(sandbox, corner);
    CHECK(hit.kind == Hover::Kind::None);
    CHECK(!tooltip_shown());
    ++counts.empty;
  }
  // The panels: a grid over both (widgets, plots with their own tooltips); the scene under them is never picked.
  if (panels && state.view.panels) {
    const int w = state.window_width, h = state.window_height;
    for (int y = 10; y < h; y += 37)
      for (int x = 6; x < w; x += 29) {
        if (camera.in_viewport(glm::dvec2(x, y))) continue;
        const Hover hit = rest_at(sandbox, glm::dvec2(x, y), false);
        CHECK(hit.kind == Hover::Kind::None);
        ++counts.panel;
      }
  }
  if (sparse) CHECK(counts.rods_exact == counts.rods);  // few rods, far apart: the midpoint picks that rod
  check_finite(sandbox);
  return counts;
}

}  // namespace

TEST_CASE("hovering every particle, rod, pin, empty space and panel renders and keeps the world finite") {
  Sandbox sandbox(test_options(960, 540));
  for (const char* name : {"double_pendulum.json", "rope_bridge.json", "seed_pendulum.json", "rigid_triangle.json",
                           "spherical_pendulum.json", "tetrahedron.json", "pendulum_with_chain.json"}) {
    CAPTURE(name);
    REQUIRE(sandbox.load_scene(asset(name)) == "");
    run_frames(sandbox, 20, kDt);  // in motion, then held still while hovered
    sandbox.state().paused = true;
    for (const RodColouringInfo& colouring : rod_colourings()) {
      CAPTURE(colouring.label);
      sandbox.state().view.rod_colouring = colouring.value;
      const bool sparse = sandbox.world().dimension() == 2 && sandbox.world().constraints().size() <= 3;
      const bool first = colouring.value == rod_colourings()[0].value;
      const HoverCounts counts = hover_everything(sandbox, sparse, first);
      CHECK(counts.particles > 0);
      CHECK(counts.empty == 4);
      if (first) CHECK(counts.panel > 100);
      if (std::string(name) == "seed_pendulum.json" || std::string(name) == "tetrahedron.json" ||
          std::string(name) == "rigid_triangle.json")
        CHECK(counts.pins > 0);
      CHECK(drawn_pixels(sandbox) > 50);
    }
  }
}

TEST_CASE("the cloth: the window opens under the cursor and every particle, rod and pin can be hovered") {
  // The pointer rests over the middle of the window before the cloth is loaded: the first frames already hover it.
  Sandbox sandbox(test_options(960, 540));
  push_mouse_motion({480, 200}, {480, 200}, false);
  REQUIRE(sandbox.load_scene(asset("hanging_cloth.json")) == "");
  run_frames(sandbox, 30, kDt);
  check_finite(sandbox);
  // Wherever the cloth swung, put the pointer on one of its rods and let it run there.
  const World& world = sandbox.world();
  const auto ids = world.constraints()[world.constraints().size() / 2]->particles();
  REQUIRE(ids.size() == 2);
  push_mouse_motion(0.5 * (screen_of(sandbox, world.state().position[ids[0]]) +
                           screen_of(sandbox, world.state().position[ids[1]])),
                    {480, 200}, false);
  run_frames(sandbox, 10, kDt);
  check_finite(sandbox);
  sandbox.state().paused = true;
  sandbox.state().view.rod_colouring = RodColouring::LengthError;
  const HoverCounts counts = hover_everything(sandbox, false);
  CHECK(counts.particles > 300);
  CHECK(counts.rods > 600);
  CHECK(counts.pins > 0);
}

TEST_CASE("every View option, rod colouring and documented key renders on 2D and 3D scenes and stays finite") {
  Sandbox sandbox(test_options(960, 540));
  SandboxState& state = sandbox.state();
  const auto dir = temp_dir("view");
  for (const char* name : {"double_pendulum.json", "hanging_cloth.json", "spherical_pendulum.json",
                           "seed_pendulum.json"}) {
    CAPTURE(name);
    REQUIRE(sandbox.load_scene(asset(name)) == "");
    state.screenshot_dir = dir;
    const ViewOptions defaults = state.view;
    // Every rod colouring with every toggle flipped from its default, one at a time, then all flipped at once.
    for (const RodColouringInfo& colouring : rod_colourings()) {
      CAPTURE(colouring.label);
      for (std::size_t k = 0; k <= view_toggles().size(); ++k) {
        CAPTURE(k);
        state.view = defaults;
        state.view.rod_colouring = colouring.value;
        for (std::size_t j = 0; j < view_toggles().size(); ++j)
          if (j == k || k == view_toggles().size()) state.view.*(view_toggles()[j].member) ^= true;
        run_frames(sandbox, 2, kDt);
        check_finite(sandbox);
        CHECK(drawn_pixels(sandbox) > 50);
      }
    }
    // The other View settings: trail length, rod width, anti-aliasing, help, panels.
    state.view = defaults;
    for (int trail : {10, 2000}) {
      state.view.trail_steps = trail;
      run_frames(sandbox, 2, kDt);
    }
    for (float width : {0.0f, 0.5f, 12.0f}) {
      state.view.rod_width = width;
      run_frames(sandbox, 1, kDt);
    }
    for (int msaa : {0, 2, 4, 8}) {
      state.view.msaa = msaa;
      run_frames(sandbox, 1, kDt);
      CHECK(drawn_pixels(sandbox) > 50);
    }
    state.view = defaults;
    // Every documented key but the quit key, each pressed with the pointer over the scene.
    push_mouse_motion({480, 270}, {480, 270}, false);
    for (const KeyPress& key : documented_keys()) {
      if (key.quits) continue;
      CAPTURE(SDL_GetKeyName(key.key));
      push_key(key.key);
      run_frames(sandbox, 2, kDt);
      check_finite(sandbox);
      CHECK(!sandbox.quit_requested());
    }
    CHECK(drawn_pixels(sandbox) > 50);
  }
  // The quit key quits.
  SDL_Event event{};
  event.type = SDL_KEYDOWN;
  event.key.keysym.sym = SDLK_q;
  event.key.keysym.mod = KMOD_LCTRL;
  REQUIRE(SDL_PushEvent(&event) == 1);
  run_frames(sandbox, 1, kDt);
  CHECK(sandbox.quit_requested());
  std::filesystem::remove_all(dir);
}

TEST_CASE("length-error colouring shows each rod's relative error and tension colouring its force") {
  Sandbox sandbox(test_options(960, 540));
  REQUIRE(sandbox.load_scene(asset("double_pendulum.json")) == "");
  SandboxState& state = sandbox.state();
  run_frames(sandbox, 30, kDt);
  state.paused = true;
  state.view.trails = false;
  state.view.grid = false;
  const World& world = sandbox.world();
  const Constraint& rod = *world.constraints()[0];  // pivot to first bob: its midpoint is clear of both spheres
  const auto ids = rod.particles();
  const glm::dvec2 mid = 0.5 * (screen_of(sandbox, world.state().position[ids[0]]) +
                                screen_of(sandbox, world.state().position[ids[1]]));
  auto colour_at_mid = [&] {
    sandbox.frame(0.0);
    sandbox.render(false);
    return sandbox.read_pixels().at(static_cast<int>(mid.x), static_cast<int>(mid.y));
  };
  state.view.rod_colouring = RodColouring::LengthError;
  const double relative = std::abs(rod.value(0, world.state().position)) / rod.length_scale(0);
  const glm::vec3 expected_error = glm::vec3(error_colour(relative));
  const Image::Pixel error_pixel = colour_at_mid();
  CHECK(colour_distance(error_pixel, expected_error) < 40.0);
  state.view.rod_colouring = RodColouring::Tension;
  const double force = world.state().row_force[static_cast<std::size_t>(world.model().row_offset(0))];
  const Image::Pixel tension_pixel = colour_at_mid();
  CHECK(colour_distance(tension_pixel, glm::vec3(tension_colour(force, state.force_scale))) < 40.0);
}

}  // namespace lagrange::app::test
