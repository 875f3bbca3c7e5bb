// Every shipped scene loads and renders; the pixels show the background where nothing is drawn and each particle
// where the engine says it is (projected with the sandbox's own camera).
#include "app_fixture.h"
#include "ui/ui.h"

namespace lagrange::app::test {

TEST_CASE("every shipped scene loads and renders with its particles where the engine puts them") {
  const auto scenes = shipped_scenes();
  REQUIRE(!scenes.empty());
  Sandbox sandbox(test_options());
  SandboxState& state = sandbox.state();
  for (const auto& file : scenes) {
    CAPTURE(file.filename().string());
    REQUIRE(sandbox.load_scene(file) == "");
    state.view.grid = false;  // plain background to compare against
    state.view.trails = false;
    state.view.panels = false;
    state.view.msaa = 0;
    run_frames(sandbox, 3, 1.0 / 60.0);
    sandbox.render(false);  // the scene alone, no ImGui
    const Image image = sandbox.read_pixels();
    REQUIRE(image.width == 640);
    REQUIRE(image.height == 360);
    const World& world = sandbox.world();
    const State& p = world.state();
    CHECK(std::isfinite(world.energy().total()));

    // Background: pixels no sphere or rod covers. Corners are far from the framed scene.
    int background = 0;
    for (int y = 0; y < image.height; y += 7)
      for (int x = 0; x < image.width; x += 7)
        if (colour_distance(image.at(x, y), background_at(y, image.height)) < 3.0) ++background;
    const int samples = ((image.height + 6) / 7) * ((image.width + 6) / 7);
    CHECK(background > samples / 2);
    CHECK(colour_distance(image.at(2, 2), background_at(2, image.height)) < 3.0);
    CHECK(colour_distance(image.at(637, 357), background_at(357, image.height)) < 3.0);

    // Particles: the pixel under each projected centre is drawn (not background); in 2D, where nothing can hide a
    // sphere, it has the particle's own colour (or the fixed particles' steel grey).
    const std::size_t stride = p.position.size() > 60 ? p.position.size() / 37 : 1;
    int checked = 0;
    for (std::size_t i = 0; i < p.position.size(); i += stride) {
      CAPTURE(i);
      const auto s = sandbox.camera().project(p.position[i]);
      REQUIRE(s.has_value());
      const int x = static_cast<int>(s->x), y = static_cast<int>(s->y);
      if (x < 2 || y < 2 || x >= image.width - 2 || y >= image.height - 2) continue;
      ++checked;
      const Image::Pixel pixel = image.at(x, y);
      double drawn = 0.0;  // the most any pixel next to the centre differs from the background
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx)
          drawn = std::max(drawn, colour_distance(image.at(x + dx, y + dy), background_at(y + dy, image.height)));
      CHECK(drawn > 20.0);
      bool covered = false;  // by a bigger neighbour's sphere (a heavy bob over the first link of its chain)
      for (std::size_t j = 0; j < p.position.size(); ++j)
        covered |= j != i && glm::length(p.position[j] - p.position[i]) < sandbox.radii()[j];
      if (world.dimension() == 2 && !world.model().fixed(i) && !covered) {  // fixed ones are striped: only "drawn" is checked
        const glm::vec3 expected = particle_colour(sandbox.state().scene, static_cast<int>(i)) * 0.75f;  // diffuse at the centre
        CHECK(colour_distance(pixel, expected) < colour_distance(pixel, background_at(y, image.height)));
      }
    }
    CHECK(checked > 0);
  }
}

TEST_CASE("panels draw over the scene and rendering changes nothing in the world") {
  Sandbox sandbox(test_options(1280, 720));
  REQUIRE(sandbox.load_scene(asset("double_pendulum.json")) == "");
  sandbox.state().paused = true;
  run_frames(sandbox, 2, 1.0 / 60.0);
  const std::vector<Vec3> before = sandbox.world().state().position;
  const double t = sandbox.world().time();
  sandbox.state().view.grid = true;
  sandbox.render(true);
  const Image with_panels = sandbox.read_pixels();
  sandbox.render(false);
  const Image without = sandbox.read_pixels();
  // The panels change many pixels on the left (text, widgets) and leave the middle alone.
  int changed_left = 0, changed_middle = 0;
  for (int y = 0; y < 720; ++y) {
    for (int x = 0; x < 300; ++x) changed_left += with_panels.at(x, y).r != without.at(x, y).r ? 1 : 0;
    changed_middle += with_panels.at(640, y).r != without.at(640, y).r ? 1 : 0;
  }
  CHECK(changed_left > 300 * 720 / 20);
  CHECK(changed_middle < 720 / 4);  // at most the HUD line and the legend
  // Rendering never changes physics.
  CHECK(sandbox.world().state().position == before);
  CHECK(sandbox.world().time() == t);
}

TEST_CASE("a resized window renders at its new size") {
  Sandbox sandbox(test_options());
  REQUIRE(sandbox.load_scene(asset("double_pendulum.json")) == "");
  sandbox.platform().set_size(800, 500);
  run_frames(sandbox, 2, 1.0 / 60.0);
  const Image image = sandbox.read_pixels();
  CHECK(image.width == 800);
  CHECK(image.height == 500);
  CHECK(sandbox.state().window_width == 800);
  // The scene's viewport is the free middle between the panels, inside the new window.
  CHECK(sandbox.camera().x() > 0);
  CHECK(sandbox.camera().x() + sandbox.camera().width() < 800);
  CHECK(sandbox.camera().height() == 500 - static_cast<int>(std::lround(timeline_height(sandbox.state()))));
}

}  // namespace lagrange::app::test
