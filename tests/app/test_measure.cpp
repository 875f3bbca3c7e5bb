// The Measure strip in the window (issue 10): the period timer against the exact period computed here by quadrature,
// the protractor against the rod's own atan2, the stopwatch against the simulated time, the energy bars against the
// world's energy, selection by click and grab, the key, the layout, and every widget clicked.
#include <stb_image.h>

#include <cmath>
#include <numbers>

#include "app_fixture.h"
#include "sandbox/sandbox.h"
#include "ui/layout_check.h"
#include "ui/measure_panel.h"
#include "ui/ui.h"

namespace lagrange::app::test {
namespace {

constexpr double kDt = 1.0 / 60.0;
constexpr double kPi = std::numbers::pi;
using Rect = std::array<float, 4>;

// The exact period of a simple pendulum by Simpson's rule on T = 4 √(L/g) ∫₀^{π/2} dφ / √(1 − k² sin²φ), k = sin(θ₀/2):
// independent of the engine's arithmetic-geometric mean.
double quadrature_period(double length, double g, double amplitude) {
  const double k = std::sin(0.5 * amplitude);
  constexpr int kIntervals = 2000;
  const double h = 0.5 * kPi / kIntervals;
  double sum = 0.0;
  for (int i = 0; i <= kIntervals; ++i) {
    const double s = std::sin(i * h);
    const double f = 1.0 / std::sqrt(1.0 - k * k * s * s);
    sum += f * (i == 0 || i == kIntervals ? 1.0 : (i % 2 ? 4.0 : 2.0));
  }
  return 4.0 * std::sqrt(length / g) * sum * h / 3.0;
}

// Steps the sandbox for `seconds` and returns the largest angle of particle `bob` from straight down (gravity −y)
// about `pivot` seen after a step: short of the swing's amplitude by at most ½ (g/L) (Δt/2)², a turning point
// being at most half a step from a step.
double largest_angle(Sandbox& sandbox, int bob, int pivot, double seconds) {
  const World& world = sandbox.world();
  const double end = world.time() + seconds;
  double largest = 0.0;
  while (world.time() < end) {
    sandbox.advance_steps(1);
    const Vec3 r = world.state().position[static_cast<std::size_t>(bob)] -
                   world.state().position[static_cast<std::size_t>(pivot)];
    largest = std::max(largest, std::abs(std::atan2(r.x, -r.y)));
  }
  return largest;
}

// Moves the pressed mouse from `from` to `to` in `moves` events, one frame of `dt` each.
glm::dvec2 drag_mouse(Sandbox& sandbox, glm::dvec2 from, glm::dvec2 to, int moves, double dt) {
  glm::dvec2 previous = from;
  for (int k = 1; k <= moves; ++k) {
    const glm::dvec2 pixel = from + (to - from) * (static_cast<double>(k) / moves);
    push_mouse_motion(pixel, previous, true);
    previous = pixel;
    run_frames(sandbox, 1, dt);
  }
  return previous;
}

bool overlap(const std::array<float, 4>& a, const std::array<float, 4>& b) {
  return a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];
}

void check_finite(const Sandbox& sandbox) {
  for (const Vec3& x : sandbox.world().state().position) REQUIRE(finite(x));
  for (const Vec3& v : sandbox.world().state().velocity) REQUIRE(finite(v));
}


// Pixels of the scene's viewport within `tolerance` of a colour.
int pixels_like(Sandbox& sandbox, glm::vec3 colour, double tolerance) {
  sandbox.render(false);
  const Image image = sandbox.read_pixels();
  const Camera& camera = sandbox.camera();
  int count = 0;
  for (int y = camera.y(); y < camera.y() + camera.height(); ++y)
    for (int x = camera.x(); x < camera.x() + camera.width(); ++x)
      count += colour_distance(image.at(x, y), colour) < tolerance;
  return count;
}


}  // namespace

TEST_CASE("the period timer in the window measures the simple pendulum's exact period, on the Earth and the Moon") {
  Sandbox sandbox(test_options(1920, 1080));
  REQUIRE(sandbox.load_scene(asset("simple_pendulum.json")) == "");
  SandboxState& state = sandbox.state();
  push_key(SDLK_m);
  run_frames(sandbox, 2, 0.0);
  REQUIRE(state.measure.shown);
  CHECK(state.measure.particle == 1);  // the last non-fixed particle
  CHECK(state.measure.rod == 0);
  // The scene's bob starts at rest at (0.6, −0.8) on a 1 m rod: amplitude atan2(0.6, 0.8).
  const double amplitude = std::atan2(0.6, 0.8);
  const double earth = quadrature_period(1.0, 9.81, amplitude);
  const double small_angle = 2.0 * kPi * std::sqrt(1.0 / 9.81);
  run_frames(sandbox, 2, 0.0);
  CHECK(!state.measure.readout.period);  // nothing timed yet: no whole swing
  sandbox.advance_steps(1200);           // 20 s
  run_frames(sandbox, 2, 0.0);
  const auto& out = state.measure.readout;
  REQUIRE(out.period);
  REQUIRE(out.exact);
  REQUIRE(out.small_angle);
  MESSAGE("window: measured " << *out.period << " s, exact " << *out.exact << " s, quadrature " << earth << " s");
  CHECK(*out.period == doctest::Approx(earth).epsilon(5e-4));
  // The amplitude measured at the turning points: the release angle, to the solver's energy error.
  CHECK(*out.exact == doctest::Approx(earth).epsilon(1e-5));
  CHECK(*out.small_angle == doctest::Approx(small_angle).epsilon(1e-12));
  CHECK(std::abs(*out.period / small_angle - 1.0) > 0.02);  // 37°: the measured period is not the small-angle one
  CHECK(out.intervals >= 15);
  CHECK(state.widget_rects.count("measure: period") == 1);
  CHECK(state.widget_rects.count("measure: exact") == 1);

  // The Moon (one click under gravity): the timer restarts and measures the Moon's period. The swing's amplitude
  // under the Moon's gravity is the largest angle the bob reaches from then on (the test's own, from the steps).
  click_widget(sandbox, "gravity Moon");
  run_frames(sandbox, 2, kDt);
  CHECK(!state.measure.readout.period);
  const double largest = largest_angle(sandbox, 1, 0, 40.0);  // several swings of 5 to 7 s
  const double slack = 0.5 * 1.62 * std::pow(0.5 * kDt, 2);
  run_frames(sandbox, 2, 0.0);
  const double moon = quadrature_period(1.0, 1.62, largest);
  REQUIRE(out.period);
  REQUIRE(out.exact);
  MESSAGE("Moon: measured " << *out.period << " s, exact " << *out.exact << " s, quadrature " << moon
                            << " s, amplitude " << largest * 180.0 / kPi << " deg");
  CHECK(*out.period == doctest::Approx(moon).epsilon(1e-3));
  CHECK(*out.exact >= moon * (1.0 - 1e-9));
  CHECK(*out.exact <= quadrature_period(1.0, 1.62, largest + slack));
  CHECK(*out.small_angle == doctest::Approx(2.0 * kPi * std::sqrt(1.0 / 1.62)).epsilon(1e-12));

  // Reset restarts the timer: no whole swing yet.
  push_key(SDLK_r);
  run_frames(sandbox, 3, 0.0);
  CHECK(!state.measure.readout.period);
  CHECK(state.measure.meter.samples() == 1);
  // Restart in the panel, too.
  sandbox.advance_steps(300);
  click_widget(sandbox, "measure: restart timer");
  CHECK(state.measure.meter.samples() == 1);
}

TEST_CASE("a double pendulum's bob has no exact period, and the panel says why") {
  Sandbox sandbox(test_options(1280, 720));
  REQUIRE(sandbox.load_scene(asset("double_pendulum.json")) == "");
  SandboxState& state = sandbox.state();
  state.measure.shown = true;
  sandbox.advance_steps(600);
  run_frames(sandbox, 2, 0.0);
  CHECK(!state.measure.readout.exact);
  CHECK(state.measure.no_exact_reason.find("other end moves") != std::string::npos);
  CHECK(state.widget_rects.count("measure: no exact") == 1);
}

TEST_CASE("clicking a rod selects it, and the protractor reads the rod's angle from the downward vertical") {
  Sandbox sandbox(test_options(1280, 720));
  REQUIRE(sandbox.load_scene(asset("double_pendulum.json")) == "");
  SandboxState& state = sandbox.state();
  state.measure.shown = true;
  run_frames(sandbox, 40, kDt);
  if (state.widget_rects.count("measure: tab Protractor")) click_widget(sandbox, "measure: tab Protractor");
  state.paused = true;
  run_frames(sandbox, 2, 0.0);
  const World& world = sandbox.world();
  for (int rod : {0, 1}) {
    CAPTURE(rod);
    const auto ids = world.constraints()[static_cast<std::size_t>(rod)]->particles();
    const glm::dvec2 mid = 0.5 * (screen_of(sandbox, world.state().position[ids[0]]) +
                                  screen_of(sandbox, world.state().position[ids[1]]));
    const auto centre = state.camera.centre;
    click_at(sandbox, mid);
    CHECK(state.measure.rod == rod);
    CHECK(state.camera.centre == centre);  // a click is not a pan
    // The rod from its end nearer the pivot (particle 0 is the fixed pivot, 1 the middle bob) to the other.
    const Vec3 r = world.state().position[static_cast<std::size_t>(rod + 1)] -
                   world.state().position[static_cast<std::size_t>(rod)];
    const double expected = std::atan2(r.x, -r.y) * 180.0 / kPi;  // gravity is −y: from straight down
    REQUIRE(state.measure.readout.rod);
    CHECK(state.measure.readout.rod->angle * 180.0 / kPi == doctest::Approx(expected).epsilon(1e-12));
  }
  // The angular velocity against a finite difference of the angle over one step.
  const double before = state.measure.readout.rod->angle, rate_before = state.measure.readout.rod->angular_velocity;
  push_key(SDLK_s);  // one step
  run_frames(sandbox, 2, 0.0);
  double after = state.measure.readout.rod->angle;
  const double rate_after = state.measure.readout.rod->angular_velocity;
  if (after - before > kPi) after -= 2.0 * kPi;
  if (after - before < -kPi) after += 2.0 * kPi;
  const double difference = (after - before) / world.settings().dt;
  MESSAGE("finite difference " << difference << " rad/s, mean of the readouts " << 0.5 * (rate_before + rate_after));
  CHECK(std::abs(difference - 0.5 * (rate_before + rate_after)) < 0.03 * std::max(std::abs(difference), 1.0));
  check_finite(sandbox);
}

TEST_CASE("grabbing a particle times it and puts the protractor on its rod, and Reset takes the defaults again") {
  Sandbox sandbox(test_options(1280, 720));
  REQUIRE(sandbox.load_scene(asset("double_pendulum.json")) == "");
  SandboxState& state = sandbox.state();
  state.measure.shown = true;
  state.paused = true;
  run_frames(sandbox, 2, 0.0);
  CHECK(state.measure.particle == 2);
  CHECK(state.measure.rod == 1);
  const glm::dvec2 bob = screen_of(sandbox, sandbox.world().state().position[1]);
  push_mouse_motion(bob, bob, false);
  run_frames(sandbox, 1, 0.0);
  push_mouse_button(SDL_MOUSEBUTTONDOWN, bob);
  run_frames(sandbox, 1, 0.0);
  CHECK(state.dragging());
  CHECK(state.measure.particle == 1);
  CHECK(state.measure.rod == 0);
  push_mouse_button(SDL_MOUSEBUTTONUP, bob);
  run_frames(sandbox, 1, 0.0);
  push_key(SDLK_r);  // the scene as it opened: its own particle timed (the one its lesson names)
  run_frames(sandbox, 2, 0.0);
  CHECK(state.measure.particle == 2);
  CHECK(state.measure.rod == 1);
  REQUIRE(sandbox.load_scene(asset("triple_pendulum.json")) == "");
  CHECK(state.measure.particle == 3);
  CHECK(state.measure.rod == rod_of(sandbox.world().model(), 3));
}

TEST_CASE("after a drag the timer times the new swing, a simple pendulum at the amplitude it swings to") {
  // The trial: after a drag of the simple pendulum the timer said "not a simple pendulum" until Restart.
  Sandbox sandbox(test_options(1280, 720));
  REQUIRE(sandbox.load_scene(asset("simple_pendulum.json")) == "");
  SandboxState& state = sandbox.state();
  state.measure.shown = true;
  const World& world = sandbox.world();
  run_frames(sandbox, 60, kDt);
  // Grab the bob, carry it out to the horizontal, hold it there, let go.
  const glm::dvec2 start = screen_of(sandbox, world.state().position[1]);
  push_mouse_button(SDL_MOUSEBUTTONDOWN, start);
  run_frames(sandbox, 1, kDt);
  REQUIRE(state.dragging());
  const glm::dvec2 at = drag_mouse(sandbox, start, screen_of(sandbox, Vec3(1.0, 0.0, 0.0)), 30, kDt);
  run_frames(sandbox, 90, kDt);
  push_mouse_button(SDL_MOUSEBUTTONUP, at);
  run_frames(sandbox, 1, kDt);
  REQUIRE(!state.dragging());
  const double largest = largest_angle(sandbox, 1, 0, 12.0);
  const double slack = 0.5 * 9.81 * std::pow(0.5 * kDt, 2);
  run_frames(sandbox, 2, 0.0);
  const auto& out = state.measure.readout;
  CHECK(state.measure.no_exact_reason == "");
  REQUIRE(out.period);
  REQUIRE(out.exact);
  MESSAGE("after the drag: measured " << *out.period << " s, exact " << *out.exact << " s, amplitude "
                                      << largest * 180.0 / kPi << " deg");
  CHECK(largest > 80.0 * kPi / 180.0);  // the new swing, not the scene's 37°
  CHECK(*out.exact >= quadrature_period(1.0, 9.81, largest) * (1.0 - 1e-9));
  CHECK(*out.exact <= quadrature_period(1.0, 9.81, largest + slack));
  CHECK(*out.period == doctest::Approx(*out.exact).epsilon(1e-3));
}

TEST_CASE("Lesson 2: after the Moon and Reset the timer times the red 150-degree bob, at its exact period") {
  // docs/app.md, Lesson 2, step by step: M; the blue 10° bob chosen in the timer's list; gravity Moon, then R. The
  // lesson says the timer then shows 8.7 s for the 150° pendulum.
  Sandbox sandbox(test_options(1920, 1080));
  REQUIRE(sandbox.load_scene(asset("period_amplitude.json")) == "");
  SandboxState& state = sandbox.state();
  push_key(SDLK_m);
  run_frames(sandbox, 2, 0.0);
  REQUIRE(state.measure.shown);
  const int red = 11, pivot = 10;  // the scene file's last bob, its colour #d8453f
  const World& world = sandbox.world();
  const Vec3 r = world.state().position[red] - world.state().position[pivot];
  const double amplitude = std::atan2(r.x, -r.y);
  REQUIRE(amplitude * 180.0 / kPi == doctest::Approx(150.0).epsilon(1e-12));
  CHECK(state.measure.particle == red);
  sandbox.advance_steps(300);
  select_particle(state.measure, world, 1);  // what the timer's particle list does
  sandbox.advance_steps(300);
  click_widget(sandbox, "gravity Moon");
  run_frames(sandbox, 2, 0.0);
  push_key(SDLK_r);
  run_frames(sandbox, 2, 0.0);
  const World& moon = sandbox.world();  // the reset scene's
  REQUIRE(moon.settings().gravity.y == -1.62);
  CHECK(moon.time() == 0.0);
  CHECK(state.measure.particle == red);
  while (!state.measure.meter.result() && moon.time() < 30.0) sandbox.advance_steps(30);
  run_frames(sandbox, 2, 0.0);
  const auto& out = state.measure.readout;
  const double expected = quadrature_period(1.0, 1.62, amplitude);
  REQUIRE(out.period);
  REQUIRE(out.exact);
  MESSAGE("Lesson 2 on the Moon: measured " << *out.period << " s, exact " << *out.exact << " s, closed form "
                                            << expected << " s");
  CHECK(*out.period == doctest::Approx(expected).epsilon(5e-3));
  CHECK(*out.exact == doctest::Approx(expected).epsilon(5e-3));
  CHECK(std::abs(*out.period - 8.7) < 0.05);  // what the lesson's text says the room sees
}

TEST_CASE("posing while paused updates the Measure strip at once: the energy scale, the phase dot, the timer") {
  struct Case {
    int w, h;
    double scale;
  };
  // Tabs at 1280x720 and a projector's 2x (the Energy tab chosen), four columns at 1920x1080.
  for (const Case& c : {Case{1280, 720, 1.0}, Case{1920, 1080, 1.0}, Case{1920, 1080, 2.0}}) {
    CAPTURE(c.w);
    CAPTURE(c.scale);
    SandboxOptions options = test_options(c.w, c.h);
    options.appearance.scale = c.scale;
    Sandbox sandbox(options);
    REQUIRE(sandbox.load_scene(asset("simple_pendulum.json")) == "");
    SandboxState& state = sandbox.state();
    MeasureState& m = state.measure;
    m.shown = true;
    const World& world = sandbox.world();
    run_frames(sandbox, 150, kDt);  // swinging: the bars scaled to its 1.96 J
    if (state.widget_rects.count("measure: tab Energy")) click_widget(sandbox, "measure: tab Energy");
    state.paused = true;
    run_frames(sandbox, 1, 0.0);
    // Lift the bob while paused to 127° from straight down (the Diagnostics' pose test does the rods): its
    // potential energy from the lowest point, g (1 + 0.6) = 15.7 J, eight times the swing's.
    const glm::dvec2 start = screen_of(sandbox, world.state().position[1]);
    push_mouse_motion(start, start, false);  // the pointer leaves the tab it clicked
    run_frames(sandbox, 1, 0.0);
    push_mouse_button(SDL_MOUSEBUTTONDOWN, start);
    run_frames(sandbox, 1, 0.0);
    REQUIRE(state.dragging());
    drag_mouse(sandbox, start, screen_of(sandbox, Vec3(-0.8, 0.6, 0.0)), 8, 0.0);
    run_frames(sandbox, 2, 0.0);
    REQUIRE(world.state().position[1].y > 0.55);
    const auto& out = m.readout;
    // The bars: the posed energy, none off the scale.
    CHECK(out.bars.potential == doctest::Approx(9.81 * (1.0 + world.state().position[1].y)).epsilon(1e-9));
    for (double value : {out.bars.kinetic, out.bars.potential, out.bars.total, out.bars.mouse, out.bars.damping}) {
      CAPTURE(value);
      CHECK(value <= out.energy_top * (1.0 + 1e-12));
      CHECK(value >= out.energy_bottom - 1e-3 * out.energy_top);  // a thousandth of the scale draws as nothing
    }
    // The phase dot (the trace's newest point) is the posed rod: its angle, at rest.
    const Vec3 rod = world.state().position[1];
    REQUIRE(m.trace.size() > 0);
    CHECK(m.trace.angle(m.trace.size() - 1) == doctest::Approx(std::atan2(rod.x, -rod.y)).epsilon(1e-9));
    CHECK(m.trace.angular_velocity(m.trace.size() - 1) == 0.0);
    // The timer starts again from the pose: what it timed belongs to the old swing.
    CHECK(m.meter.samples() == 1);
    CHECK(m.timing_since == world.time());
    // No value is written over a label (the scale's or a bar's), and every text is inside the plot.
    REQUIRE(out.energy_values.size() == 5);
    REQUIRE(out.energy_labels.size() == 6);
    const auto& plot = state.widget_rects.at("measure: energy bars");
    for (const auto& value : out.energy_values) {
      for (const auto& label : out.energy_labels) CHECK_FALSE(overlap(value, label));
      CHECK(value[0] >= plot[0]);
      CHECK(value[2] <= plot[2]);
      CHECK(value[1] >= plot[1]);
      CHECK(value[3] <= plot[3]);
    }
    push_mouse_button(SDL_MOUSEBUTTONUP, screen_of(sandbox, Vec3(-0.8, 0.6, 0.0)));
    run_frames(sandbox, 1, 0.0);
  }
}

TEST_CASE("the stopwatch counts simulated seconds: slow motion slows it and pause stops it") {
  Sandbox sandbox(test_options(1280, 720));
  REQUIRE(sandbox.load_scene(asset("simple_pendulum.json")) == "");
  SandboxState& state = sandbox.state();
  state.measure.shown = true;
  run_frames(sandbox, 2, 0.0);
  click_widget(sandbox, "measure: stopwatch start");
  const double start = sandbox.world().time();
  REQUIRE(state.measure.stopwatch.running());
  run_frames(sandbox, 90, kDt);  // 1.5 s
  click_widget(sandbox, "measure: stopwatch start");  // now Stop
  const double stop = sandbox.world().time();
  CHECK(!state.measure.stopwatch.running());
  run_frames(sandbox, 30, kDt);  // stopped: no change
  CHECK(state.measure.readout.stopwatch == doctest::Approx(stop - start).epsilon(1e-12));
  CHECK(stop - start == doctest::Approx(1.5).epsilon(0.05));
  // A lap while running, then slow motion x1/4: 60 frames of a sixtieth of a wall second are a quarter of a
  // simulated second.
  click_widget(sandbox, "measure: stopwatch reset");
  run_frames(sandbox, 1, 0.0);  // the number above the buttons shows the reset in the next frame
  CHECK(state.measure.readout.stopwatch == 0.0);
  state.time_scale = 0.25;
  click_widget(sandbox, "measure: stopwatch start");
  const double slow_start = sandbox.world().time();
  run_frames(sandbox, 60, kDt);
  click_widget(sandbox, "measure: stopwatch lap");
  REQUIRE(state.measure.stopwatch.laps().size() == 1);
  state.paused = true;
  run_frames(sandbox, 60, kDt);  // paused: the stopwatch waits with the simulation
  run_frames(sandbox, 1, 0.0);
  const double elapsed = state.measure.readout.stopwatch;
  CHECK(elapsed == doctest::Approx(sandbox.world().time() - slow_start).epsilon(1e-12));
  CHECK(elapsed == doctest::Approx(0.25).epsilon(0.1));
  CHECK(state.measure.stopwatch.laps()[0] == doctest::Approx(elapsed).epsilon(1e-12));
  CHECK(state.widget_rects.count("measure: last lap") == 1);
}

TEST_CASE("the energy bars show the world's energy: its own zero, or potential from the lowest point") {
  Sandbox sandbox(test_options(1920, 1080));
  REQUIRE(sandbox.load_scene(asset("simple_pendulum.json")) == "");
  SandboxState& state = sandbox.state();
  state.measure.shown = true;
  run_frames(sandbox, 50, kDt);
  run_frames(sandbox, 1, 0.0);  // no step after the panel read the energy
  const World& world = sandbox.world();
  const Vec3 x = world.state().position[1], v = world.state().velocity[1];
  const auto& bars = state.measure.readout.bars;
  // Default: potential energy from the lowest point the bob reaches, 1 m under the pivot at the origin.
  CHECK(state.measure.energy_zero == EnergyZero::Lowest);
  CHECK(bars.kinetic == doctest::Approx(0.5 * glm::dot(v, v)).epsilon(1e-12));
  CHECK(bars.potential == doctest::Approx(9.81 * (x.y + 1.0)).epsilon(1e-9));
  CHECK(bars.total == doctest::Approx(0.5 * glm::dot(v, v) + 9.81 * (x.y + 1.0)).epsilon(1e-9));
  CHECK(bars.total == doctest::Approx(9.81 * 0.2).epsilon(0.01));  // released 0.2 m above the lowest point
  // The world's own zero: the total is world.energy().total().
  click_widget(sandbox, "measure: energy zero");
  CHECK(state.measure.energy_zero == EnergyZero::Origin);
  run_frames(sandbox, 1, 0.0);
  CHECK(bars.total == doctest::Approx(world.energy().total()).epsilon(1e-14));
  CHECK(bars.kinetic == world.energy().kinetic);
  CHECK(bars.mouse == world.work().mouse);
  CHECK(bars.damping == world.work().damping);
}

TEST_CASE("M shows the Measure strip under the scene, which shrinks to make room, and Tab hides it with the panels") {
  for (const auto& [w, h] : {std::pair{1280, 720}, std::pair{1920, 1080}}) {
    CAPTURE(w);
    Sandbox sandbox(test_options(w, h));
    REQUIRE(sandbox.load_scene(asset("simple_pendulum.json")) == "");
    SandboxState& state = sandbox.state();
    state.paused = true;
    run_frames(sandbox, 2, 0.0);
    const int timeline = static_cast<int>(std::lround(timeline_height(state)));
    CHECK(timeline > 0);
    CHECK(sandbox.camera().height() == h - timeline);  // the scene, then the timeline docked under it
    const int without = pixels_like(sandbox, {0.55f, 0.95f, 0.60f}, 30.0);  // the protractor's green
    push_key(SDLK_m);
    run_frames(sandbox, 3, 0.0);
    REQUIRE(state.measure.shown);
    const Rect panel = state.widget_rects.at("measure panel");
    const Rect control = state.widget_rects.at("control panel"), diagnostics = state.widget_rects.at("diagnostics panel");
    CHECK(panel[3] == doctest::Approx(h));
    CHECK(panel[0] >= control[2] - 1.0f);
    CHECK(panel[2] <= diagnostics[0] + 1.0f);
    CHECK(sandbox.camera().height() == doctest::Approx(h - timeline - (panel[3] - panel[1])).epsilon(0.01));
    CHECK(sandbox.camera().height() > h / 2);
    // Every widget of the strip lies inside it (the shown tool's, scrolled into view): nothing is cut at this size.
    int widgets = 0;
    for (const auto& [name, rect] : state.widget_rects) {
      if (!name.starts_with("measure: ") || rect[1] >= panel[3]) continue;
      CAPTURE(name);
      CHECK(rect[0] >= panel[0] - 0.5f);
      CHECK(rect[2] <= panel[2] + 0.5f);
      CHECK(rect[1] >= panel[1] - 0.5f);  // (a tool taller than the strip scrolls: its bottom may lie below)
      ++widgets;
    }
    CHECK(widgets >= 8);
    // The bob stays in the (shorter) viewport: the scene was framed again.
    CHECK(sandbox.camera().in_viewport(screen_of(sandbox, sandbox.world().state().position[1])));
    // The protractor and the timed particle's ring are drawn on the scene.
    CHECK(pixels_like(sandbox, {0.55f, 0.95f, 0.60f}, 30.0) > without + 50);
    // Tab folds the panels to their bars and keeps the strip (the lesson's tools); F5 shows the scene alone.
    const int with_strip = sandbox.camera().height();
    push_key(SDLK_TAB);
    run_frames(sandbox, 2, 0.0);
    CHECK(panel_layout(state).left == doctest::Approx(panel_bar_width(state)));
    CHECK(sandbox.camera().height() == with_strip);
    CHECK(sandbox.camera().width() == w - static_cast<int>(std::lround(2.0f * panel_bar_width(state))));
    push_key(SDLK_F5);
    run_frames(sandbox, 2, 0.0);
    CHECK(sandbox.camera().height() == h);
    CHECK(sandbox.camera().width() == w);
    push_key(SDLK_F5);
    push_key(SDLK_TAB);
    push_key(SDLK_m);
    run_frames(sandbox, 2, 0.0);
    CHECK(!state.measure.shown);
    CHECK(sandbox.camera().height() == h - timeline);
  }
}

TEST_CASE("every widget of the Measure strip can be hovered and clicked on 2D and 3D scenes") {
  struct Case {
    int w, h;
    const char* scene;
    double scale;
  };
  // 2D and 3D, a rod picked among 762 (the cloth), a projector's window at 1x (four columns) and at 2x (one tool
  // per tab), a laptop's 1280x720 (tabs) and a window too narrow for any columns (tabs too).
  for (const Case& c : {Case{1920, 1080, "double_pendulum.json", 1.0}, Case{1280, 720, "spherical_pendulum.json", 1.0},
                        Case{1280, 720, "hanging_cloth.json", 1.0}, Case{1920, 1080, "simple_pendulum.json", 2.0},
                        Case{640, 400, "double_pendulum.json", 1.0}}) {
    CAPTURE(c.w);
    CAPTURE(c.scene);
    CAPTURE(c.scale);
    SandboxOptions options = test_options(c.w, c.h);
    options.appearance.scale = c.scale;
    Sandbox sandbox(options);
    REQUIRE(sandbox.load_scene(asset(c.scene)) == "");
    SandboxState& state = sandbox.state();
    state.measure.shown = true;
    run_frames(sandbox, 3, kDt);
    const bool tabs = state.widget_rects.count("measure: tab Timer") == 1;
    CHECK(tabs == (c.scale > 1.0 || c.w < 1920));  // four columns from 1920x1080 at 1x, tabs below
    int widgets = 0;
    for (const char* tab :
         {"", "measure: tab Timer", "measure: tab Protractor", "measure: tab Energy", "measure: tab Table"}) {
      if (*tab == 0 ? tabs : !tabs) continue;
      if (*tab) click_widget(sandbox, tab);
      run_frames(sandbox, 2, kDt);
      CAPTURE(tab);
      std::vector<std::string> names;
      const Rect panel = state.widget_rects.at("measure panel");
      for (const auto& [name, rect] : state.widget_rects) {
        if (!name.starts_with("measure: ") || name.starts_with("measure: tab ")) continue;
        names.push_back(name);
        if (c.w >= 1280) {  // nothing cut: inside the strip
          CAPTURE(name);
          CHECK(rect[0] >= panel[0] - 0.5f);
          CHECK(rect[2] <= panel[2] + 0.5f);
        }
      }
      CAPTURE(std::string(tab));
      CHECK(names.size() >= (std::string(tab) == "measure: tab Energy" ? 2u : 3u));  // the energy tool: its box, its bars
      widgets += static_cast<int>(names.size());
      for (const std::string& name : names) {
        CAPTURE(name);
        if (!state.widget_rects.count(name)) continue;  // a widget that an earlier click replaced
        click_widget(sandbox, name);
        run_frames(sandbox, 2, kDt);
        check_finite(sandbox);
        push_key(SDLK_ESCAPE);  // closes a combo that opened
        run_frames(sandbox, 1, kDt);
      }
    }
    CHECK(widgets >= 12);
    // Rest the pointer on a grid over the strip (tooltips of the bars, the plot, the numbers).
    const Rect panel = state.widget_rects.at("measure panel");
    const float dx = (panel[2] - panel[0]) / 16.0f, dy = (panel[3] - panel[1]) / 8.0f;
    for (float y = panel[1] + 0.5f * dy; y < panel[3]; y += dy)
      for (float x = panel[0] + 0.5f * dx; x < panel[2]; x += dx) {
        push_mouse_motion({x, y}, {x, y}, false);
        run_frames(sandbox, 1, kDt);
      }
    check_finite(sandbox);
    CHECK(!sandbox.quit_requested());
  }
}

TEST_CASE("shot --measure draws the Measure strip under the scene, the same pixels every time") {
  const auto dir = temp_dir("shot-measure");
  const std::string scene = asset("simple_pendulum.json").string();
  const auto a = dir / "a.png", b = dir / "b.png", panels = dir / "panels.png";
  for (const auto& [file, flag] : {std::pair{a, "--measure"}, std::pair{b, "--measure"}, std::pair{panels, "--panels"}})
    REQUIRE(run_shot({scene, "--time", "5", "--size", "1280x720", flag, "--out", file.string()}) == 0);
  auto load = [](const std::filesystem::path& file) {
    int w = 0, h = 0, n = 0;
    unsigned char* data = stbi_load(file.string().c_str(), &w, &h, &n, 3);
    REQUIRE(data != nullptr);
    REQUIRE(w == 1280);
    REQUIRE(h == 720);
    std::vector<unsigned char> pixels(data, data + 1280 * 720 * 3);
    stbi_image_free(data);
    return pixels;
  };
  const auto first = load(a), second = load(b), without = load(panels);
  // The strip: the bottom 255 rows between the panels (307 and 338 units wide at 1280).
  int same = 0, differs_from_panels = 0, total = 0;
  for (int y = 720 - 250; y < 718; ++y)
    for (int x = 312; x < 1280 - 342; ++x) {
      const std::size_t k = 3 * (static_cast<std::size_t>(y) * 1280 + static_cast<std::size_t>(x));
      same += first[k] == second[k] && first[k + 1] == second[k + 1] && first[k + 2] == second[k + 2];
      differs_from_panels += first[k] != without[k] || first[k + 1] != without[k + 1] || first[k + 2] != without[k + 2];
      ++total;
    }
  CHECK(same == total);                      // deterministic: simulated time only, no wall clock in the strip
  CHECK(differs_from_panels > total / 20);   // and it is there
  std::filesystem::remove_all(dir);
}

TEST_CASE("the Measure strip is tall enough for every line of the Timer: 1x to 2x at 1280x720, 1x to 3x at 1920x1080") {
  // Found at 1280x720, 2x, light, two lanes: the strip showed the top half of "T = 1.6420 s" as its last line.
  struct Screen {
    int w, h;
    double scale;
  };
  for (const Screen screen : {Screen{1280, 720, 1.0}, Screen{1280, 720, 1.5}, Screen{1280, 720, 2.0},
                              Screen{1920, 1080, 1.0}, Screen{1920, 1080, 2.0}, Screen{1920, 1080, 3.0}}) {
    CAPTURE(screen.w);
    CAPTURE(screen.scale);
    SandboxOptions options = test_options(screen.w, screen.h);
    options.appearance = {Theme::Light, screen.scale};
    Sandbox sandbox(options);
    REQUIRE(sandbox.load_scene(asset("simple_pendulum.json")) == "");
    SandboxState& state = sandbox.state();
    push_key(SDLK_l);  // two lanes
    run_frames(sandbox, 2, kDt);
    REQUIRE(state.lane_count() == 2u);
    state.measure.shown = true;
    sandbox.advance_steps(600);  // 10 s: a measured period, the exact one and the difference all shown
    state.paused = true;
    run_frames(sandbox, 3, 0.0);
    REQUIRE(state.measure.readout.period);
    REQUIRE(state.measure.readout.difference);
    const Rect panel = state.widget_rects.at("measure panel");
    // Every widget of the Timer lies whole inside the strip, as drawn (no scrolling needed to read it).
    int widgets = 0;
    for (const char* name : {"measure: restart timer", "measure: timed particle", "measure: period", "measure: exact",
                             "measure: difference", "measure: small angle", "measure: stopwatch time",
                             "measure: stopwatch start", "measure: stopwatch lap", "measure: stopwatch reset"}) {
      CAPTURE(name);
      REQUIRE(state.widget_rects.count(name) == 1);
      const Rect r = state.widget_rects.at(name);
      CHECK(r[1] >= panel[1] - 0.5f);
      CHECK(r[3] <= panel[3] + 0.5f);
      ++widgets;
    }
    CHECK(widgets == 10);
    // And what reaches the screen: no glyph of the strip runs past the bottom of its clip rectangle, and the period's
    // digits are there.
    std::string strip_text;
    for (const DrawnGlyph& g : drawn_glyphs()) {
      if (!g.window.starts_with("Measure")) continue;
      CHECK(g.y1 <= g.clip_y1 + 0.5f);
      CHECK(!g.trimmed_down);
      if (g.codepoint < 0x80) strip_text += static_cast<char>(g.codepoint);
    }
    char period[32];
    std::snprintf(period, sizeof period, "T=%.4fs", *state.measure.readout.period);
    CHECK(strip_text.find(period) != std::string::npos);
    // The scene stays the largest thing: at least as tall as the strip, as wide.
    CHECK(sandbox.camera().height() >= panel[3] - panel[1]);
  }
}

}  // namespace lagrange::app::test
