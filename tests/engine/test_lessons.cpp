// Lesson scenes (assets/*.json): what each lesson's text promises, on the shipped file itself stepped with its own
// settings, against values worked out here from the scene's parameters: the exact elliptic-integral period (K by
// quadrature, not the engine's AGM), the normal modes of two coupled pendulums, the decay of a chain under air drag.
// The numbers quoted in the lesson texts are checked against the same independent values.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <numbers>
#include <string>
#include <vector>

#include "lagrange/measure.h"
#include "lagrange/period.h"
#include "lagrange/scene.h"
#include "reference.h"
#include "test_util.h"

using namespace lagrange;

namespace {

Scene lesson(const char* file) { return load_scene_file(std::filesystem::path(LAGRANGE_ASSETS_DIR) / file); }

double gravity_of(const Scene& scene) { return glm::length(scene.settings.gravity); }

// "%.Nf" of x, as the lesson texts write their numbers.
std::string fixed(double x, int decimals) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, x);
  return text;
}

bool mentions(const Scene& scene, const std::string& text) { return scene.description.find(text) != std::string::npos; }

// A pendulum of a lesson: a bob on a rigid rod to a fixed pivot, read off the scene definition.
struct Pendulum {
  int pivot = -1, bob = -1;
  double length = 0.0, amplitude = 0.0;  // m; rad from the downward vertical, released from rest
};

std::vector<Pendulum> pendulums_of(const Scene& scene) {
  std::vector<Pendulum> found;
  for (const ConstraintDef& c : scene.constraints) {
    if (c.type != "distance" || c.compliance != 0.0) continue;
    const int a = c.particles[0], b = c.particles[1];
    if (scene.particles[a].fixed == scene.particles[b].fixed) continue;
    Pendulum p;
    p.pivot = scene.particles[a].fixed ? a : b;
    p.bob = scene.particles[a].fixed ? b : a;
    p.length = c.number("length").value_or(0.0);
    const Vec3 d = scene.particles[p.bob].position - scene.particles[p.pivot].position;
    p.amplitude = std::atan2(std::abs(d.x), -d.y);
    found.push_back(p);
  }
  return found;
}

// The energy of one pendulum alone: ½ m v² + m g (height above the bottom of its swing).
double pendulum_energy(const World& world, const Pendulum& p, double g) {
  const Vec3 v = world.state().velocity[p.bob];
  const double height = world.state().position[p.bob].y - (world.state().position[p.pivot].y - p.length);
  const double m = world.model().mass(p.bob);
  return 0.5 * m * glm::dot(v, v) + m * g * height;
}


}  // namespace

TEST_CASE("lesson period against amplitude: each pendulum swings with its exact period, longer the higher it starts") {
  // Tolerance 2e-4 of a period: the timer's own resolution for a swing sampled every 1/60 s (test_period.cpp, a
  // sampled sine); the integrator's phase error at the scene's substep h = 1/240 s is far below it ((ω h)² / 24 ≈ 7e-6
  // for small swings). Neighbouring amplitudes' periods differ by 1.5 % or more, so a wrong amplitude, length or g
  // shows.
  const Scene scene = lesson("period_amplitude.json");
  const double g = gravity_of(scene);
  const std::vector<Pendulum> pendulums = pendulums_of(scene);
  REQUIRE(pendulums.size() >= 5);
  World world = make_world(scene);
  std::vector<PeriodMeter> meters(pendulums.size());
  auto sample = [&] {
    for (std::size_t i = 0; i < pendulums.size(); ++i)
      meters[i].sample(world.time(), world.state().position[pendulums[i].bob]);
  };
  sample();
  while (world.time() < 30.0) {
    world.step();
    sample();
  }
  double previous_amplitude = 0.0, previous_period = 0.0, previous_reach = 0.0, previous_x = 0.0;
  for (std::size_t i = 0; i < pendulums.size(); ++i) {
    const Pendulum& p = pendulums[i];
    CAPTURE(p.bob);
    CAPTURE(p.amplitude * 180.0 / std::numbers::pi);
    CHECK(p.length == doctest::Approx(pendulums[0].length));  // the same length: only the amplitude differs
    CHECK(world.state().velocity[p.bob] != Vec3(0.0));
    const double exact = lagrange::test::pendulum_period_by_quadrature(p.length, g, p.amplitude);
    const double small_angle = 2.0 * std::numbers::pi * std::sqrt(p.length / g);
    const auto measured = meters[i].result();
    REQUIRE(measured);
    CHECK(measured->period == doctest::Approx(exact).epsilon(2e-4));
    CHECK(mentions(scene, fixed(exact, 3)));  // the text quotes every exact period
    if (p.amplitude > 20.0 * std::numbers::pi / 180.0) CHECK(measured->period > 1.01 * small_angle);
    // Released side by side in order of amplitude, each swing clear of its neighbours' (the reach of a swing to
    // either side is L sin θ₀ up to 90°, L beyond).
    const double x = scene.particles[p.pivot].position.x;
    const double reach = p.length * std::sin(std::min(p.amplitude, 0.5 * std::numbers::pi));
    if (i > 0) {
      CHECK(p.amplitude > previous_amplitude);
      CHECK(measured->period > previous_period);
      CHECK(x - previous_x > previous_reach + reach);
    }
    previous_amplitude = p.amplitude;
    previous_period = measured->period;
    previous_reach = reach;
    previous_x = x;
  }
  CHECK(mentions(scene, fixed(2.0 * std::numbers::pi * std::sqrt(pendulums[0].length / g), 3)));
}

TEST_CASE("lesson coupled pendulums: the swing passes to the other pendulum and back at the beat of the normal modes") {
  // Small oscillations of two pendulums (mass m, length L) joined at the bobs by a spring k: the modes are together,
  // ω₁ = √(g/L), and against each other, ω₂ = √(g/L + 2k/m); released one-sided, each pendulum's energy goes as
  // cos² and sin² of (ω₂ − ω₁) t / 2: the two are equal at T/4 and then every T/2, with T = 2π / (ω₂ − ω₁) the beat.
  // The energies also ripple at twice the swing's frequency as the spring passes energy to and fro within each swing;
  // a centred mean over one ripple period, π / ω̄, removes it. Tolerance 2 %: the closed form is for infinitesimal
  // swings; at the released amplitude θ₀ each pendulum's own frequency shifts by about ω₁ θ₀² / 16 (the pendulum's
  // amplitude correction), 0.006 rad/s at 10°, 1.6 % of ω₂ − ω₁; the step's phase error, (ω h)² / 24 ≈ 2e-6 at
  // h = 1/960 s, and the 1/60 s sampling are far below. A 2 % error in k would show.
  const Scene scene = lesson("coupled_pendulums.json");
  const double g = gravity_of(scene);
  const std::vector<Pendulum> pendulums = pendulums_of(scene);
  REQUIRE(pendulums.size() == 2);
  const Pendulum& first = pendulums[0].amplitude > 0.0 ? pendulums[0] : pendulums[1];
  const Pendulum& second = &first == &pendulums[0] ? pendulums[1] : pendulums[0];
  CHECK(second.amplitude == 0.0);
  CHECK(first.amplitude < 0.25);  // a small swing, where the closed form holds
  const ConstraintDef* spring = nullptr;
  for (const ConstraintDef& c : scene.constraints)
    if (c.compliance > 0.0) spring = &c;
  REQUIRE(spring != nullptr);
  CHECK(spring->damping == 0.0);
  const int a = spring->particles[0], b = spring->particles[1];
  CHECK(std::min(a, b) == std::min(first.bob, second.bob));  // joins the two bobs
  CHECK(std::max(a, b) == std::max(first.bob, second.bob));
  // Attached at the bobs and horizontal at rest, at its rest length: the pivots are as far apart as the spring is long.
  CHECK(scene.particles[second.pivot].position.y == scene.particles[first.pivot].position.y);
  CHECK(std::abs(scene.particles[second.pivot].position.x - scene.particles[first.pivot].position.x) ==
        doctest::Approx(spring->number("length").value()));
  CHECK(first.length == second.length);
  const double m = scene.particles[first.bob].mass, length = first.length;
  CHECK(scene.particles[second.bob].mass == m);

  const double k = 1.0 / spring->compliance;
  const double omega1 = std::sqrt(g / length), omega2 = std::sqrt(g / length + 2.0 * k / m);
  const double beat = 2.0 * std::numbers::pi / (omega2 - omega1);
  CHECK(beat > 10.0);  // slow enough to watch, and to be a weak coupling
  CHECK(beat < 20.0);
  // The text quotes the stiffness, the two frequencies, the beat and the moment the first bob is almost still.
  CHECK(mentions(scene, fixed(k, 2) + " N/m"));
  CHECK(mentions(scene, fixed(omega1, 2) + " rad/s"));
  CHECK(mentions(scene, fixed(omega2, 2) + " rad/s"));
  CHECK(mentions(scene, fixed(beat, 1) + " s"));
  CHECK(mentions(scene, fixed(0.5 * beat, 1) + " s"));

  World world = make_world(scene);
  const double dt = world.settings().dt;
  std::vector<double> time, e1, e2;
  auto sample = [&] {
    time.push_back(world.time());
    e1.push_back(pendulum_energy(world, first, g));
    e2.push_back(pendulum_energy(world, second, g));
  };
  sample();
  while (world.time() < 2.2 * beat) {
    world.step();
    sample();
  }
  const double e0 = e1[0];
  CHECK(e0 > 0.0);
  CHECK(e2[0] == 0.0);

  // Centred means over one ripple period, then the times where the two pendulums hold equal energy.
  const int half = static_cast<int>(std::lround(0.5 * std::numbers::pi / (0.5 * (omega1 + omega2)) / dt));
  const int n = static_cast<int>(time.size());
  auto mean = [&](const std::vector<double>& e, int i) {
    double sum = 0.0;
    for (int j = i - half; j <= i + half; ++j) sum += e[j];
    return sum / (2 * half + 1);
  };
  std::vector<double> equal;
  double before = mean(e1, half) - mean(e2, half);
  for (int i = half + 1; i < n - half; ++i) {
    const double now = mean(e1, i) - mean(e2, i);
    if ((before > 0.0) != (now > 0.0)) equal.push_back(time[i - 1] + dt * before / (before - now));
    before = now;
  }
  CAPTURE(beat);
  REQUIRE(equal.size() >= 4);
  CHECK(equal[0] == doctest::Approx(0.25 * beat).epsilon(0.02));
  const double spacing = (equal.back() - equal.front()) / static_cast<double>(equal.size() - 1);
  CHECK(spacing == doctest::Approx(0.5 * beat).epsilon(0.02));

  // Equal pendulums exchange everything: around T/2 the first is all but still and the second holds the swing; at T
  // the swing is back (the spring's energy, k θ₀² L² / 2 at the start, lets the second briefly hold more than e0).
  double least1 = e0, most2 = 0.0, most1_later = 0.0;
  for (int i = 0; i < n; ++i) {
    if (time[i] > 0.25 * beat && time[i] < 0.75 * beat) {
      least1 = std::min(least1, e1[i]);
      most2 = std::max(most2, e2[i]);
    }
    if (time[i] > 0.75 * beat && time[i] < 1.25 * beat) most1_later = std::max(most1_later, e1[i]);
  }
  CHECK(least1 < 0.01 * e0);
  CHECK(most2 > 0.9 * e0);
  CHECK(most1_later > 0.9 * e0);
}

TEST_CASE("lesson hanging chain: air drag lets it settle, and without it the chain keeps swinging") {
  // A drag force −c m v on every particle damps every small oscillation of the chain at the same rate: amplitudes
  // decay as e^(−c t / 2), energies as e^(−c t). With c = 0.3 1/s, the 10.3 J of potential energy the chain starts
  // with above its hanging rest is down to e^(−9) ≈ 1.2e-4 of itself after 30 s, 1.3 mJ, about 1.5e-4 of the kinetic
  // peak of the fall (8.5 J): the lesson's "below a thousandth of its peak after 30 s" leaves a factor of 6 for the
  // first, large and non-linear swings. Without drag the rods take no energy away and the chain swings on.
  const Scene scene = lesson("hanging_chain.json");
  const double damping = scene.settings.damping;
  CHECK(damping > 0.0);
  CHECK(std::exp(-damping * 30.0) < 1e-3);
  CHECK(mentions(scene, "damping " + fixed(damping, 1) + " 1/s"));

  auto run = [&](double c, double& peak, double& late_max, double& end_sway) {
    World world = make_world(scene);
    Settings s = world.settings();
    s.damping = c;
    world.set_settings(s);
    peak = late_max = 0.0;
    while (world.time() < 40.0) {
      world.step();
      const double kinetic = world.energy().kinetic;
      peak = std::max(peak, kinetic);
      if (world.time() >= 30.0) late_max = std::max(late_max, kinetic);
    }
    // The chain starts straight and level from its anchor: at rest it hangs straight down, particle k at the
    // anchor's x and as far below the anchor as it started beside it.
    const Vec3 anchor = scene.particles[0].position;
    REQUIRE(scene.particles[0].fixed);
    end_sway = 0.0;
    for (std::size_t i = 1; i < world.particle_count(); ++i) {
      const double below = glm::length(scene.particles[i].position - anchor);
      end_sway = std::max(end_sway, glm::length(world.state().position[i] - (anchor - Vec3(0.0, below, 0.0))));
    }
  };
  double peak = 0.0, late = 0.0, sway = 0.0;
  run(damping, peak, late, sway);
  CHECK(peak > 1.0);
  CHECK(late < 1e-3 * peak);
  CHECK(sway < 0.05);  // within 5 cm of hanging straight down (2.5 % of the chain's length) at 40 s
  run(0.0, peak, late, sway);
  CHECK(late > 0.1 * peak);
  CHECK(sway > 0.2);
}

TEST_CASE("lesson hanging chain without drag: no step gains a fortieth of the energy its fall sets moving") {
  // Without drag the rods neither take nor give energy: what the total does is semi-implicit Euler's exchange with
  // the step, a few per cent of the 10.3 J the fall sets moving, spread over many steps. Where the chain whips, the
  // chord iteration stalls in most substeps; Newton from its last iterate then sometimes reached another root, and
  // one step at 4.5 s gained 1.07 J, a tenth of it. Whipping short chains now go to Newton from the first guess
  // (solver_projection.cpp, kNewtonFirstRows): over 10 s the largest gain in one step is then 0.18 J (039e54e 0.21 J).
  const Scene scene = lesson("hanging_chain.json");
  World world = make_world(scene);
  Settings s = world.settings();
  s.damping = 0.0;
  world.set_settings(s);
  // What the fall sets moving: the potential energy above the chain's rest, hanging straight down from its anchor
  // (particle k as far below the anchor as it starts beside it).
  const Vec3 anchor = scene.particles[0].position;
  double released = 0.0;
  for (std::size_t i = 1; i < scene.particles.size(); ++i)
    released += scene.particles[i].mass * gravity_of(scene) *
                (scene.particles[i].position.y - (anchor.y - glm::length(scene.particles[i].position - anchor)));
  double last = world.energy().total(), largest = 0.0;
  while (world.time() < 10.0) {
    world.step();
    const double e = world.energy().total();
    largest = std::max(largest, e - last);
    last = e;
  }
  CHECK(largest <= released / 40.0);
}

TEST_CASE("lesson hanging cloth: a net of rigid rods ends flat in the pins' vertical plane, and snapping rods take energy") {
  // Nothing resists shear or bending: the lowest state of the net is every particle in the vertical plane through
  // the two pins (any particle out of that plane can drop by swinging into it). The text says it gets there within
  // about 10 s, and that projection itself takes several joules: the drift E - E0 - W_damping is negative.
  const Scene scene = lesson("hanging_cloth.json");
  CHECK(mentions(scene, "within about 10 s hangs flat in the vertical plane through its two pins"));
  CHECK(mentions(scene, "soft_cloth"));
  World world = make_world(scene);
  std::vector<int> pins;
  for (const ConstraintDef& c : scene.constraints)
    if (c.type == "pin") pins.push_back(c.particles[0]);
  REQUIRE(pins.size() == 2);
  const double start = world.energy().total();
  while (world.time() < 10.0) world.step();
  const Vec3 a = world.state().position[pins[0]], b = world.state().position[pins[1]];
  const Vec3 up = -glm::normalize(world.settings().gravity);
  const Vec3 across = glm::normalize(glm::cross(b - a, up));  // the normal of the pins' vertical plane
  double lo = 0.0, hi = 0.0;
  for (const Vec3& p : world.state().position) {
    lo = std::min(lo, glm::dot(p - a, across));
    hi = std::max(hi, glm::dot(p - a, across));
  }
  CHECK(hi - lo < 0.05);  // within 5 cm of the plane, for a sheet 0.95 m across that started flat and level
  const double drift = world.energy().total() - start - world.work().damping;
  CHECK(drift < -2.0);  // several joules, beyond the air drag's share
  CHECK(world.work().damping < 0.0);
}

TEST_CASE("every shipped lesson runs its first seconds with its own settings, rods held to the solver's tolerance") {
  // 5 s of each scene as the app opens it: finite throughout, no substep left above tolerance, and the rigid rows
  // within 10 times the scene's tolerance of their length (compliant rows stretch by design and are not counted).
  for (const auto& entry : std::filesystem::directory_iterator(LAGRANGE_ASSETS_DIR)) {
    if (entry.path().extension() != ".json") continue;
    CAPTURE(entry.path().filename().string());
    const Scene scene = load_scene_file(entry.path());
    World world = make_world(scene);
    double worst = 0.0;
    int failures = 0;
    while (world.time() < 5.0) {
      world.step();
      worst = std::max(worst, violation(world.model(), world.state()).relative);
      failures += world.stats().failures;
    }
    CHECK(test::all_finite(world));
    CHECK(failures == 0);
    CHECK(worst < 10.0 * scene.settings.tolerance);
  }
}
