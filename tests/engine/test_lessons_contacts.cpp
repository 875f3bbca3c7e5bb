// The contact lessons (assets/*.json, issue 23): each shipped scene stepped with its own settings against values
// worked out here from its parameters: Newton's cradle (momentum and energy pass through the row), the bouncing
// ball (apexes e^(2n) h), the ball on a string (slack where the tension vanishes, then a projectile), the chain
// falling on a table (the table's impulse is the momentum it stops plus the weight it holds: three times the weight
// on it), the gas (energy kept, speeds relaxing to Rayleigh's distribution, Kolmogorov–Smirnov), the cloth on a
// ball (rods exact, nothing inside the ball), the chain over a peg (s'' = g (y_right − y_left) / L, a cosh).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <numbers>
#include <string>
#include <vector>

#include "lagrange/measure.h"
#include "lagrange/scene.h"
#include "test_util.h"

using namespace lagrange;

namespace {

Scene lesson(const char* file) { return load_scene_file(std::filesystem::path(LAGRANGE_ASSETS_DIR) / file); }

double kinetic(const World& world, int i) {
  const Vec3 v = world.state().velocity[i];
  return 0.5 * world.model().mass(i) * glm::dot(v, v);
}

// Kolmogorov–Smirnov distance of sorted samples from the 2D Maxwell–Boltzmann (Rayleigh) CDF 1 − exp(−v²/(2 s²)).
double ks_rayleigh(std::vector<double> speeds, double s2) {
  std::sort(speeds.begin(), speeds.end());
  const double n = static_cast<double>(speeds.size());
  double d = 0.0;
  for (std::size_t k = 0; k < speeds.size(); ++k) {
    const double cdf = 1.0 - std::exp(-speeds[k] * speeds[k] / (2.0 * s2));
    d = std::max({d, std::abs((k + 1) / n - cdf), std::abs(k / n - cdf)});
  }
  return d;
}

}  // namespace

TEST_CASE("lesson Newton's cradle: the far ball leaves with all the energy, the middle three stay at rest") {
  const Scene scene = lesson("newtons_cradle.json");
  World world = make_world(scene);
  const double g = glm::length(scene.settings.gravity);
  // The released ball's energy: m g L (1 − cos 30°) from its height above the row.
  const double m = scene.particles[5].mass;
  const double drop = scene.particles[6].position.y - scene.particles[5].position.y;
  const double energy = m * g * -drop;
  CHECK(energy > 0.0);
  double far_ball = 0.0, worst_middle = 0.0, worst_gap = INFINITY;
  for (int s = 0; s < 90; ++s) {  // 1.5 s: one impact (at a quarter period, 0.5 s) and the far ball's swing out
    world.step();
    far_ball = std::max(far_ball, kinetic(world, 9));
    if (world.time() > 0.6)
      for (int i = 6; i <= 8; ++i) worst_middle = std::max(worst_middle, kinetic(world, i));
    worst_gap = std::min(worst_gap, worst_overlap(world.model(), world.state()));
  }
  // The far ball leaves the row at the bottom with the released ball's energy (to the integrator's energy wobble).
  CHECK(far_ball == doctest::Approx(energy).epsilon(5e-3));
  CHECK(worst_middle < 1e-3 * energy);
  CHECK(kinetic(world, 5) < 1e-3 * energy);  // the released ball stopped
  CHECK(worst_gap >= -1e-6);
  CHECK(world.max_violation(true) < 1e-10);
  CHECK(scene.description.find("one ball in, one ball out") != std::string::npos);
}

TEST_CASE("lesson Newton's cradle at the acceleration level: the struck balls do not climb their rods") {
  // The acceleration level lets rods drift (the lesson of that solver), but only as the integration makes them: the
  // three middle balls hang at rest, are struck square and pass the impulse on, so nothing moves them along their
  // rods (exact, without contacts, they would never move). The contacts act on free particles: without the rods'
  // reaction to them, the middle balls climbed their rods by up to 0.98 of a length within 3 s.
  Scene scene = lesson("newtons_cradle.json");
  scene.settings.solver = "acceleration";
  World world = make_world(scene);
  const double m = scene.particles[5].mass, g = glm::length(scene.settings.gravity);
  const double energy = m * g * (scene.particles[6].position.y - scene.particles[5].position.y) * -1.0;
  double middle = 0.0, far_ball = 0.0;
  for (int s = 0; s < 300; ++s) {  // 5 s: five impacts
    world.step();
    for (int i = 6; i <= 8; ++i) {
      const double length = glm::length(world.state().position[i] - world.state().position[i - 5]);
      middle = std::max(middle, std::abs(length - 1.0));
    }
    if (world.time() < 1.5) far_ball = std::max(far_ball, kinetic(world, 9));
  }
  CHECK(middle < 1e-2);
  CHECK(world.max_violation(true) < 0.1);  // the outer two drift as a swinging pendulum does, then keep that rate
  CHECK(far_ball == doctest::Approx(energy).epsilon(2e-2));  // one ball in, one ball out
}

TEST_CASE("lesson bouncing ball: every apex is e^2 = 0.64 times the last, from the drop height") {
  const Scene scene = lesson("bouncing_ball.json");
  World world = make_world(scene);
  const double e = scene.contacts.restitution, r = scene.particles[0].radius;
  const double h = scene.particles[0].position.y - r - scene.contacts.obstacles[0].point.y;
  std::vector<double> y{world.state().position[0].y}, apexes;
  while (apexes.size() < 6) {
    world.step();
    y.push_back(world.state().position[0].y);
    const std::size_t n = y.size();
    if (n >= 3 && y[n - 2] > y[n - 3] && y[n - 2] >= y[n - 1]) {
      const double a = y[n - 3], b = y[n - 2], c = y[n - 1];
      apexes.push_back(b - (a - c) * (a - c) / (8.0 * (a - 2.0 * b + c)) - r);
    }
  }
  for (std::size_t n = 0; n < apexes.size(); ++n)
    CHECK(apexes[n] == doctest::Approx(std::pow(e, 2.0 * (n + 1)) * h).epsilon(1e-3));
  // The text's numbers.
  for (const char* quoted : {"0.64 m", "0.41 m", "0.26 m", "0.17 m"}) CHECK(scene.description.find(quoted) != std::string::npos);
  // It comes to rest after the sum of all flights: t = sqrt(2h/g) (1 + 2e/(1 − e)) = 4.1 s.
  const double g = glm::length(scene.settings.gravity);
  CHECK(std::sqrt(2.0 * h / g) * (1.0 + 2.0 * e / (1.0 - e)) == doctest::Approx(4.07).epsilon(0.01));
}

TEST_CASE("lesson ball on a string: slack at 120 degrees, then a projectile to 0.6875 m above the pivot") {
  const Scene scene = lesson("ball_on_a_string.json");
  World world = make_world(scene);
  const double g = glm::length(scene.settings.gravity), L = scene.constraints[0].number("length").value();
  const double v0 = glm::length(scene.particles[1].velocity);
  const double cos_slack = -(v0 * v0 - 2.0 * g * L) / (3.0 * g * L);
  CHECK(std::acos(cos_slack) * 180.0 / std::numbers::pi == doctest::Approx(120.0).epsilon(1e-9));
  const double speed = std::sqrt(-g * L * cos_slack), angle = std::acos(cos_slack);
  const double apex = -L * cos_slack + std::pow(speed * std::sin(angle), 2) / (2.0 * g);
  CHECK(apex == doctest::Approx(0.6875).epsilon(1e-9));
  CHECK(v0 < std::sqrt(5.0 * g * L));  // too slow to loop
  std::vector<double> y;
  double slack_at = -1.0, previous = 0.0;
  for (int s = 0; s < 60; ++s) {
    world.step();
    const Vec3 x = world.state().position[1];
    double a = std::atan2(x.x, -x.y);
    if (a < 0.0) a += 2.0 * std::numbers::pi;
    if (slack_at < 0.0 && world.state().row_force[0] == 0.0) slack_at = previous;
    previous = a;
    y.push_back(x.y);
  }
  double highest = -INFINITY;
  for (std::size_t i = 1; i + 1 < y.size(); ++i)
    if (y[i] >= y[i - 1] && y[i] >= y[i + 1])
      highest = std::max(highest, y[i] - (y[i - 1] - y[i + 1]) * (y[i - 1] - y[i + 1]) / (8.0 * (y[i - 1] - 2.0 * y[i] + y[i + 1])));
  CHECK(slack_at == doctest::Approx(angle).epsilon(0.05));
  CHECK(highest == doctest::Approx(apex).epsilon(1e-3));
  for (const char* quoted : {"120 degrees", "0.6875 m"}) CHECK(scene.description.find(quoted) != std::string::npos);
}

TEST_CASE("lesson falling chain: the table's impulse is the momentum it stops plus the weight it holds, three weights") {
  const Scene scene = lesson("falling_chain.json");
  World world = make_world(scene);
  const double g = glm::length(scene.settings.gravity), dt = scene.settings.dt;
  const int n = static_cast<int>(scene.particles.size());
  const double m = scene.particles[0].mass, link = scene.constraints[0].number("length").value();
  const double weight = n * m * g;
  // Link k (from the bottom) falls k·link freely. Semi-implicit Euler's positions lie on the parabola that starts
  // with the half-substep velocity g h/2 downwards (h = dt / substeps): it lands at t_k with g t_k²/2 + (g h/2) t_k =
  // k·link, with momentum m g (t_k + h/2), and then rests: the table's impulse up to t is
  // Σ_{t_k ≤ t} (m g (t_k + h/2) + m g (t − t_k)) = Σ m g (t + h/2).
  const double h = dt / scene.settings.substeps;
  const auto impulse = [&](double t) {
    double sum = 0.0;
    for (int k = 0; k < n; ++k) {
      const double b = g * h / 2.0, t_k = (-b + std::sqrt(b * b + 2.0 * g * k * link)) / g;
      if (t_k <= t) sum += m * g * (t + h / 2.0);
    }
    return sum;
  };
  // The continuous chain: F = 3 λ g y with y = g t²/2 fallen (Hamm & Géminard), averaged over three steps.
  const double lambda = m / link, down = std::sqrt(2.0 * (n - 1) * link / g);
  double measured = 0.0, window = 0.0;
  int windows = 0;
  for (int s = 1; s <= 40; ++s) {
    world.step();
    const double t = world.time();
    const double f = -obstacle_force(world.state(), 0).y;
    measured += f * dt;
    CHECK(measured == doctest::Approx(impulse(t)).epsilon(0.02).scale(m * g * down));
    window += f;
    if (s % 3 == 0) {
      const double t0 = t - 3.0 * dt;
      if (t0 > 0.12 && t < down - dt) {
        // ∫ 3 λ g (g t²/2) dt over the window, divided by its length.
        const double expected = lambda * g * g * (t * t * t - t0 * t0 * t0) / 2.0 / (3.0 * dt);
        CHECK(window / 3.0 == doctest::Approx(expected).epsilon(0.1));
        ++windows;
      }
      window = 0.0;
    }
  }
  CHECK(windows >= 5);
  // Once it lies still the table reads its weight.
  CHECK(-obstacle_force(world.state(), 0).y == doctest::Approx(weight).epsilon(1e-9));
  CHECK(scene.description.find("0.45 s") != std::string::npos);
  CHECK(down == doctest::Approx(0.45).epsilon(0.01));
  CHECK(scene.description.find("7.85 N") != std::string::npos);
  CHECK(weight == doctest::Approx(7.85).epsilon(1e-3));
}

TEST_CASE("lesson gas in a box: energy kept, speeds relax from equal to Rayleigh's distribution") {
  const Scene scene = lesson("gas_in_a_box.json");
  World world = make_world(scene);
  const int n = static_cast<int>(scene.particles.size());
  const double energy = world.energy().total();
  // s² = <v²>/2 for equal masses in 2D: m <v²>/2 = E/N.
  const double s2 = energy / (n * scene.particles[0].mass);
  CHECK(s2 == doctest::Approx(0.5).epsilon(1e-12));
  const auto speeds_now = [&] {
    std::vector<double> v;
    for (int i = 0; i < n; ++i) v.push_back(glm::length(world.state().velocity[i]));
    return v;
  };
  const double before = ks_rayleigh(speeds_now(), s2);
  CHECK(before > 0.3);  // all at 1 m/s: far from Rayleigh
  std::vector<double> samples;
  double worst_gap = INFINITY;
  for (int s = 1; s <= 1200; ++s) {  // 20 s; a snapshot every 0.5 s from 5 s on (a mean free time is 0.13 s)
    world.step();
    if (s >= 300 && s % 30 == 0) {
      const auto v = speeds_now();
      samples.insert(samples.end(), v.begin(), v.end());
      worst_gap = std::min(worst_gap, worst_overlap(world.model(), world.state()));
    }
  }
  CHECK(world.energy().total() == doctest::Approx(energy).epsilon(1e-12));
  const double d = ks_rayleigh(samples, s2);
  // 12 400 speeds: the 5 % critical value of independent samples is 1.36/sqrt(n) = 0.012; snapshots 0.5 s apart are
  // nearly independent. Equal speeds (before) are 25 times further off.
  CHECK(d < 0.02);
  CHECK(worst_gap >= -1e-6);
  for (const char* quoted : {"0.71 m/s", "0.89 m/s"}) CHECK(scene.description.find(quoted) != std::string::npos);
  CHECK(std::sqrt(s2) == doctest::Approx(0.71).epsilon(0.005));
  CHECK(std::sqrt(s2 * std::numbers::pi / 2.0) == doctest::Approx(0.89).epsilon(0.005));  // the Rayleigh mean
}

TEST_CASE("lesson cloth on a ball: rods exact to 1e-10 and no particle inside the ball while it drapes") {
  const Scene scene = lesson("cloth_on_a_sphere.json");
  World world = make_world(scene);
  double worst_rod = 0.0, worst_gap = INFINITY;
  int touching = 0;
  for (int s = 0; s < 120; ++s) {
    world.step();
    worst_rod = std::max(worst_rod, world.max_violation(true));
    worst_gap = std::min(worst_gap, worst_overlap(world.model(), world.state()));
    touching = std::max(touching, contact_count(world.state()));
  }
  CHECK(touching > 50);
  CHECK(worst_rod < 1e-10);
  CHECK(worst_gap >= -1e-6);
  // Draped, not fallen off: the ball holds up part of the cloth's weight.
  const double weight = 256 * 0.01 * glm::length(scene.settings.gravity);
  CHECK(-obstacle_force(world.state(), 0).y > 0.3 * weight);
}

// The chain over a peg's closed form: moving the chain by s along itself takes link from the right end to the left
// one, s'' = g (y_r − y_l + 2 s) / L, so s = s0 (cosh k t − 1) with k² = 2g/L, s0 = (y_r − y_l) / 2, from the scene's
// own numbers; speed(t) is the left end's, hanging straight down.
namespace {
struct PegChain {
  double g = 0.0, length = 0.0, y_left = 0.0, y_right = 0.0, k = 0.0, s0 = 0.0;
  explicit PegChain(const Scene& scene) : g(glm::length(scene.settings.gravity)) {
    for (const ConstraintDef& c : scene.constraints) length += c.number("length").value();
    y_left = scene.particles.front().position.y;
    y_right = scene.particles.back().position.y;
    k = std::sqrt(2.0 * g / length);
    s0 = (y_right - y_left) / 2.0;
  }
  double speed(double t) const { return s0 * k * std::sinh(k * t); }
};
}  // namespace

TEST_CASE("lesson chain over a peg: it runs off as s = s0 (cosh k t − 1), k² = 2g/L, from g (l1 − l2) / L") {
  const Scene scene = lesson("chain_over_a_peg.json");
  World world = make_world(scene);
  const PegChain chain(scene);
  CHECK(chain.g * (chain.y_right - chain.y_left) / chain.length == doctest::Approx(1.41).epsilon(0.01));
  for (int s = 1; s <= 18; ++s) {
    world.step();
    if (world.time() >= 0.1) CHECK(-world.state().velocity[0].y == doctest::Approx(chain.speed(world.time())).epsilon(0.03));
  }
  CHECK(scene.description.find("1.41 m/s^2") != std::string::npos);
}

TEST_CASE("lesson chain over a peg at the acceleration level: the same cosh, and the cables hold for 3 s") {
  // The cables' C̈ = 0 and the peg's contact rows in one system (solver_acceleration.cpp). With the peg's push left to
  // the contacts' projection alone, the tensions pulled the links into the peg, the projection pushed them out
  // radially every substep, and every cable over it grew: |C|/L past 1 at 0.28 s.
  Scene scene = lesson("chain_over_a_peg.json");
  scene.settings.solver = "acceleration";
  World world = make_world(scene);
  const PegChain chain(scene);
  double worst = 0.0;
  for (int s = 1; s <= 180; ++s) {
    world.step();
    worst = std::max(worst, world.max_violation(true));
    if (s <= 18 && world.time() >= 0.1)
      CHECK(-world.state().velocity[0].y == doctest::Approx(chain.speed(world.time())).epsilon(0.03));
  }
  CHECK(std::isfinite(worst));
  CHECK(worst < 1.0);  // the run's limit: this method's cables drift (0.78 here), but no longer past 1 at 0.28 s
  CHECK(worst_overlap(world.model(), world.state()) > -1e-6);
}

// The contacts' work (World::work().contacts, Diagnostics' "contact work"): what the impacts and contact forces take
// is accounted beside the mouse and the dampers, so the drift left over is the solver's alone.
TEST_CASE("contact work: the bouncing ball's contacts take m g h (1 - e^(2n)) after n bounces, the drift stays small") {
  const Scene scene = lesson("bouncing_ball.json");
  World world = make_world(scene);
  const double g = glm::length(scene.settings.gravity), e = scene.contacts.restitution;
  const double m = scene.particles[0].mass, r = scene.particles[0].radius;
  const double h0 = scene.particles[0].position.y - r;  // the drop height of its lowest point
  const double e0 = world.energy().total();
  // Between bounces n and n + 1 (times from free fall: t1 = √(2h/g), each flight 2 e^k √(2h/g)), at mid-flight.
  const double t1 = std::sqrt(2.0 * h0 / g);
  double bounce_time = t1;
  for (int n = 1; n <= 4; ++n) {
    const double flight = 2.0 * std::pow(e, n) * t1;
    while (world.time() < bounce_time + 0.5 * flight) world.step();
    const double lost = m * g * h0 * (1.0 - std::pow(e, 2 * n));
    CHECK(world.work().contacts == doctest::Approx(-lost).epsilon(2e-3));
    const double drift = world.energy().total() - e0 - world.work().total();
    CHECK(std::abs(drift) < 2e-3 * m * g * h0);
    bounce_time += flight;
  }
  // At rest on the floor (the bounces end at t1 (1 + e) / (1 − e) ≈ 4.1 s): all of m g h0 was the contacts'.
  while (world.time() < 6.0) world.step();
  CHECK(world.work().contacts == doctest::Approx(-m * g * h0).epsilon(2e-3));
}

TEST_CASE("contact work: elastic contacts (the cradle, the gas) take nothing") {
  for (const char* file : {"newtons_cradle.json", "gas_in_a_box.json"}) {
    CAPTURE(file);
    const Scene scene = lesson(file);
    World world = make_world(scene);
    const double e0 = world.energy().total();
    for (int s = 0; s < 90; ++s) world.step();
    CHECK(std::abs(world.work().contacts) < 2e-3 * e0);
    CHECK(world.work().mouse == 0.0);
  }
}

TEST_CASE("contact work: a string snapping taut takes energy as an inelastic catch, and a saved state keeps the account") {
  const Scene scene = lesson("ball_on_a_string.json");
  World world = make_world(scene);
  const double e0 = world.energy().total();
  for (int s = 0; s < 180; ++s) world.step();
  // The snap is inelastic: the contacts' (cables') work is negative and explains most of the energy lost.
  const double change = world.energy().total() - e0;
  CHECK(world.work().contacts < 0.0);
  CHECK(change < 0.0);
  CHECK(std::abs(change - world.work().contacts) < 0.2 * std::abs(change));
  // The account is part of the state: written and read back with it.
  const Scene saved = parse_scene(write_scene(scene_of(world, &scene)), "saved.json");
  const World again = make_world(saved);
  CHECK(again.work().contacts == world.work().contacts);
}

namespace {
// The incline lesson's numbers from its own scene: the slope's angle from obstacle 0's normal, the floor (obstacle 1)
// at y = 0 meeting it at the origin, the puck's mass, radius and friction.
struct Incline {
  explicit Incline(const Scene& scene) {
    g = glm::length(scene.settings.gravity);
    mu = scene.contacts.friction;
    m = scene.particles[0].mass;
    r = scene.particles[0].radius;
    n = glm::normalize(scene.contacts.obstacles[0].normal);
    down = Vec3(n.y, -n.x, 0.0);  // along the slope, downhill (the slope falls to the right)
    cos_t = n.y;
    sin_t = n.x;
    slide = g * (sin_t - mu * cos_t);
    if (!(slide > 0.0)) return;  // it stands: nothing below applies
    // The puck's centre meets the floor's offset line y = r where the slope's offset line does: x_f.
    const Vec3 start = scene.particles[0].position;
    const double x_floor = r * (1.0 / cos_t - 1.0) * cos_t / sin_t;
    const double path = glm::length(Vec3(x_floor, r, 0.0) - start);
    foot_time = std::sqrt(2.0 * path / slide);
    foot_speed = slide * foot_time;
    // The floor's plastic impact stops the fall (v sin θ) and friction takes μ times that impulse from the slide,
    // then μ g stops it.
    const double after = foot_speed * (cos_t - mu * sin_t);
    rest_x = x_floor + after * after / (2.0 * mu * g);
  }
  double g, mu, m, r, cos_t, sin_t, slide, foot_time = 0.0, foot_speed = 0.0, rest_x = 0.0;
  Vec3 n, down;
};
}  // namespace

TEST_CASE("lesson friction on an incline: slides at g (sin θ − μ cos θ), the slope reads m g cos θ, then rests") {
  const Scene scene = lesson("friction_on_an_incline.json");
  const Incline incline(scene);
  CHECK(incline.mu < incline.sin_t / incline.cos_t);  // it slides
  for (const char* solver : {"projection", "shake", "rattle", "acceleration", "penalty"}) {
    CAPTURE(solver);
    Scene run = scene;
    run.settings.solver = solver;
    World world = make_world(run);
    double v1 = 0.0;
    while (world.time() < 0.9 - 1e-9) {
      world.step();
      if (std::abs(world.time() - 0.3) < 1e-9) v1 = glm::dot(world.state().velocity[0], incline.down);
      if (world.time() > 0.1) {  // on the slope: its normal force, and friction μ times it up the slope
        const Vec3 f = obstacle_force(world.state(), 0);
        CHECK(-glm::dot(f, incline.n) == doctest::Approx(incline.m * incline.g * incline.cos_t).epsilon(1e-6));
        CHECK(glm::dot(f, incline.down) == doctest::Approx(incline.mu * incline.m * incline.g * incline.cos_t).epsilon(1e-6));
      }
    }
    const double v2 = glm::dot(world.state().velocity[0], incline.down);
    CHECK((v2 - v1) / 0.6 == doctest::Approx(incline.slide).epsilon(1e-6));
    while (world.time() < 3.0) world.step();
    // At rest on the floor, every solver: SHAKE's second half kick, both halves alike, kept a reversing 1 cm/s here.
    CHECK(glm::length(world.state().velocity[0]) < 1e-9);
    // Where: the substep that turns the corner (the impact stage, then the projection holding both planes) leaves it
    // short by an error that shrinks with the substep: 1.2 % at 4 substeps a step, 0.7 % at 16, 0.2 % at 64. Not
    // the impact's speed: with the slope's force in the impact stage's free trajectory the impact's normal speed was
    // the closed form's, and the rest point the same to 1e-13.
    CHECK(world.state().position[0].x == doctest::Approx(incline.rest_x).epsilon(0.02));
    CHECK(world.state().position[0].y == doctest::Approx(incline.r).epsilon(1e-9));
  }
  // The text's numbers, from the same closed forms.
  const auto says = [&](const char* text) { return scene.description.find(text) != std::string::npos; };
  CHECK(std::abs(incline.slide - 2.36) < 0.005);
  CHECK(says("2.36 m/s^2"));
  CHECK(std::abs(incline.m * incline.g * incline.cos_t - 8.50) < 0.005);
  CHECK(says("8.50 N"));
  CHECK(std::abs(incline.mu * incline.m * incline.g * incline.cos_t - 2.55) < 0.005);
  CHECK(says("2.55 N"));
  CHECK(std::abs(incline.foot_time - 1.12) < 0.005);
  CHECK(says("1.12 s"));
  CHECK(std::abs(incline.foot_speed - 2.65) < 0.005);
  CHECK(says("2.65 m/s"));
  CHECK(std::abs(incline.rest_x - 0.6) < 0.05);
  CHECK(says("about 0.6 m"));
}

TEST_CASE("lesson friction on an incline with μ = 0.7: it never moves, and the slope carries the whole weight") {
  Scene scene = lesson("friction_on_an_incline.json");
  scene.contacts.friction = 0.7;  // the lesson's edit in the Scene panel
  const Incline incline(scene);
  CHECK(incline.mu > incline.sin_t / incline.cos_t);  // above tan θ
  CHECK(scene.description.find("0.577") != std::string::npos);
  CHECK(std::abs(incline.sin_t / incline.cos_t - 0.577) < 0.0005);
  CHECK(std::abs(incline.mu * incline.m * incline.g * incline.cos_t - 5.95) < 0.005);
  CHECK(scene.description.find("5.95 N") != std::string::npos);
  for (const char* solver : {"projection", "shake", "rattle", "acceleration", "penalty"}) {
    CAPTURE(solver);
    scene.settings.solver = solver;
    World world = make_world(scene);
    const Vec3 start = world.state().position[0];
    for (int s = 0; s < 120; ++s) world.step();
    CHECK(glm::length(world.state().position[0] - start) < 1e-9);
    // Friction holds exactly the pull along the slope, m g sin θ, inside its cone: the slope's force is the weight.
    const Vec3 f = obstacle_force(world.state(), 0);
    CHECK(f.x == doctest::Approx(0.0).epsilon(1e-9).scale(incline.m * incline.g));
    CHECK(-f.y == doctest::Approx(incline.m * incline.g).epsilon(1e-9));
  }
}
