// The drag controller (lagrange/drag.h): the mouse as a compliant tool pin. Over-reach drags against the closed
// form of the nearest reachable point, rods exact, settling, plausible forces, the fling cap, the energy balance,
// posing, spring drags on the cloth, the scene's own pin as the hand, and the scripted drags of the command line.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "lagrange/drag.h"
#include "lagrange/scene.h"
#include "test_util.h"

using namespace lagrange;
using lagrange::test::all_finite;
using lagrange::test::settings_for;

namespace {

Settings sandbox_settings(Vec3 gravity = {0.0, -9.81, 0.0}) {
  Settings s = settings_for("projection", 1.0 / 60.0, gravity);
  s.substeps = 8;
  return s;
}

// Steps `steps` times with the controller in the loop, as the sandbox and `run` do; calls check() after each step.
template <class Check>
void drive(World& world, DragController& drag, int steps, Check check) {
  for (int i = 0; i < steps; ++i) {
    drag.before_step(world);
    world.step();
    drag.after_step(world);
    check();
  }
}

double drift(const World& world, double e0) {
  return world.energy().total() - e0 - world.work().mouse - world.work().damping;
}

}  // namespace

TEST_CASE("over-reach: the end of a pendulum chain goes to pivot + (L1 + ... + Ln) direction and settles there") {
  for (int links : {1, 2, 3}) {
    for (double g : {9.81, 0.0}) {
      CAPTURE(links);
      CAPTURE(g);
      World world = lagrange::test::chain(sandbox_settings({0.0, -g, 0.0}), links, 1.0, {1.0, 0.0, 0.0});
      const int end = links;
      const double reach = links * 1.0;
      const Vec3 direction = glm::normalize(Vec3(0.6, -0.8, 0.0));
      const double d = reach + 0.3;
      DragController drag;
      drag.begin(world, end, DragSettings{});
      drag.move(d * direction);
      int worst_iterations = 0;
      drive(world, drag, 360, [&] {  // 6 s
        REQUIRE(all_finite(world));
        CHECK(world.stats().failures == 0);
        CHECK(world.max_violation(true) < 1e-8);  // the scene's rods; the mouse's pin is not counted
        worst_iterations = std::max(worst_iterations, world.stats().iterations);
      });
      CHECK(worst_iterations <= 8 * world.settings().substeps);  // a few Newton iterations per substep
      const Vec3 nearest = reach * direction;  // the pivot is at the origin
      const Vec3 x = world.state().position[end];
      // Gravity tilts the held chain by at most (d − L)/(F/W · d) radians, F/W the pull in weights (the force
      // cap); without gravity the pull is the only force on the end and the chain converges onto the line (the
      // last of a three-link chain's vibration dies slowly: within 1e-3 of the reach after 6 s).
      const double tilt = g > 0.0 ? (d - reach) / (DragSettings{}.max_force * d) : 1e-3;
      CHECK(glm::length(x - nearest) <= reach * tilt);
      // Held, not swinging: the kinetic energy is a sliver of what a fall over the chain's length would give.
      const double mass = links * 1.0;
      CHECK(world.energy().kinetic < 1e-3 * mass * 9.81 * reach);
      // The mouse's own row is far from satisfied, and that is not the scene's violation.
      const Constraint& pin = world.constraint(drag.constraint());
      CHECK(pin.tool());
      CHECK(std::abs(pin.value(0, world.state().position)) + std::abs(pin.value(1, world.state().position)) > 0.1);
    }
  }
}

TEST_CASE("within reach the held particle sits within g h^2 of the point and every rod is exact") {
  World world = lagrange::test::chain(sandbox_settings(), 2, 1.0, {1.0, 0.0, 0.0});
  DragController drag;
  drag.begin(world, 2, DragSettings{});
  const Vec3 target(1.2, -0.9, 0.0);  // 1.5 m from the pivot: reachable
  drag.move(target);
  drive(world, drag, 240, [&] { CHECK(world.max_violation(true) < 1e-8); });
  const double h = world.settings().dt / world.settings().substeps;
  // α = h²/M and the pin carries at most the weight M g of what it moves: offset ≤ α M g = g h².
  CHECK(glm::length(world.state().position[2] - target) <= 9.81 * h * h * 1.01);
  CHECK(drag.compliance() == doctest::Approx(h * h / 2.0));
}

TEST_CASE("a hard drag of a hanging chain gives plausible forces and a capped fling") {
  // A 1 kg chain of ten 0.1 m links hanging at rest; its end is yanked sideways and let go mid-motion.
  Settings s = sandbox_settings();
  World world = lagrange::test::chain(s, 10, 0.1, {0.0, -1.0, 0.0}, 0.1);
  DragController drag;
  DragSettings settings;
  drag.begin(world, 10, settings);
  drag.move(Vec3(3.0, -1.0, 0.0));  // far and fast: the point runs at its speed cap
  double peak = 0.0;
  drive(world, drag, 20, [&] {
    CHECK(world.max_violation(true) < 1e-8);
    for (double f : world.state().row_force) peak = std::max(peak, std::abs(f));
  });
  const double weight = 1.0 * 9.81;
  CHECK(peak <= 2.0 * settings.max_force * weight);  // the pull is capped; rods carry it and the chain's inertia
  CHECK(peak < 2e3);  // the issue saw 1e5 N in this 1 kg chain from a gentler drag
  drag.move(Vec3(-3.0, -1.0, 0.0));                  // whip back
  drive(world, drag, 6, [] {});
  drag.release(world);
  CHECK(world.constraints().size() == 10);  // the pin is gone
  for (std::size_t i = 1; i < world.particle_count(); ++i)
    CHECK(glm::length(world.state().velocity[i]) <= settings.max_speed * 1.5);
  CHECK(glm::length(world.state().velocity[10]) <= settings.max_speed + 1e-9);
  drive(world, drag, 60, [&] { CHECK(world.max_violation(true) < 1e-8); });
}

TEST_CASE("the energy balance closes: E - E0 = W_mouse + W_damping up to the solver's drift") {
  for (double damping : {0.0, 0.5}) {
    CAPTURE(damping);
    Settings s = sandbox_settings();
    s.damping = damping;
    World world = lagrange::test::chain(s, 2, 1.0, {1.0, 0.0, 0.0});
    const double e0 = world.energy().total();
    // The undragged motion's drift over the same time, as the scale of what the solver itself does.
    World free = lagrange::test::chain(s, 2, 1.0, {1.0, 0.0, 0.0});
    double free_drift = 0.0;
    DragController none;
    drive(free, none, 180, [&] { free_drift = std::max(free_drift, std::abs(drift(free, e0))); });

    DragController drag;
    drag.begin(world, 2, DragSettings{});
    drag.move(Vec3(0.5, 1.2, 0.0));  // lift the end above the pivot: the hand works against gravity
    drive(world, drag, 60, [] {});
    drag.move(Vec3(-1.0, 0.8, 0.0));
    drive(world, drag, 30, [] {});
    drag.release(world);
    drive(world, drag, 90, [] {});
    const double w = world.work().mouse;
    CHECK(std::abs(w) > 10.0);  // the hand did real work
    CHECK(std::abs(drift(world, e0)) < 0.02 * std::abs(w));
    CHECK(std::abs(drift(world, e0)) < 20.0 * free_drift + 1e-3);
    if (damping > 0.0) CHECK(world.work().damping < -0.1);
    else CHECK(world.work().damping == 0.0);
  }
}

TEST_CASE("posing: the particle goes to the point, rods exact, velocities zero, time stands still") {
  World world = lagrange::test::chain(sandbox_settings(), 2, 1.0, {0.6, 0.8, 0.0});
  for (int i = 0; i < 20; ++i) world.step();  // moving
  const double t = world.time();
  const long steps = world.step_count();
  const double e_before = world.energy().total(), w_before = world.work().mouse;
  DragController drag;
  drag.begin(world, 2, DragSettings{});
  const Vec3 target(-0.5, -1.3, 0.0);  // reachable
  drag.move(target);
  drag.pose(world);
  CHECK(glm::length(world.state().position[2] - target) < 1e-6);
  CHECK(world.max_violation(true) < 1e-10);
  for (const Vec3& v : world.state().velocity) CHECK(glm::length(v) == 0.0);
  CHECK(world.time() == t);
  CHECK(world.step_count() == steps);
  // The hand's work is exactly the energy the pose changed.
  CHECK(world.work().mouse - w_before == doctest::Approx(world.energy().total() - e_before).epsilon(1e-12));
  // Beyond reach: the nearest reachable point.
  drag.move(Vec3(0.0, 3.0, 0.0));
  drag.pose(world);
  CHECK(glm::length(world.state().position[2] - Vec3(0.0, 2.0, 0.0)) < 1e-6);
  CHECK(world.max_violation(true) < 1e-10);
  drag.release(world);
  for (const Vec3& v : world.state().velocity) CHECK(glm::length(v) == 0.0);  // play starts from rest
}

TEST_CASE("spring drag moves a cloth corner to the cursor within about a second") {
  Scene scene = load_scene_file(std::filesystem::path(LAGRANGE_ASSETS_DIR) / "hanging_cloth.json");
  World world = make_world(scene);
  const int corner = 19;  // a free corner (the scene pins 0 and 399)
  const Vec3 target(0.3, 0.2, -0.3);  // 0.85 m from both pinned corners: reachable
  const Vec3 start = world.state().position[corner];
  REQUIRE(glm::length(start - target) > 0.3);
  DragController drag;
  DragSettings settings;
  settings.model = DragModel::Spring;
  drag.begin(world, corner, settings);
  drag.move(target);
  // k = s M on the whole 4 kg cloth, not on the 10 g corner.
  CHECK(drag.moved_mass() == doctest::Approx(4.0));
  CHECK(drag.compliance() == doctest::Approx(1.0 / (settings.spring_stiffness * 4.0)));
  drive(world, drag, 60, [&] { CHECK(world.max_violation(true) < 1e-8); });
  CHECK(glm::length(world.state().position[corner] - target) < 0.05);
  drag.release(world);
}

TEST_CASE("a fixed particle dragged beyond its rods' reach moves as a heavy particle and is fixed again on release") {
  Scene scene = load_scene_file(std::filesystem::path(LAGRANGE_ASSETS_DIR) / "rope_bridge.json");
  World world = make_world(scene);
  int post = -1;
  for (std::size_t i = 0; i < world.particle_count() && post < 0; ++i)
    if (world.model().fixed(i)) post = static_cast<int>(i);
  REQUIRE(post >= 0);
  DragController drag;
  drag.begin(world, post, DragSettings{});
  CHECK(drag.kind() == DragController::Kind::Fixed);
  CHECK_FALSE(world.model().fixed(post));
  drag.move(world.state().position[post] + Vec3(-5.0, 2.0, 0.0));  // the bridge cannot stretch that far
  drive(world, drag, 120, [&] {
    REQUIRE(all_finite(world));
    CHECK(world.stats().failures == 0);
    CHECK(world.max_violation(true) < 1e-8);
  });
  drag.release(world);
  CHECK(world.model().fixed(post));
  CHECK(glm::length(world.state().velocity[post]) == 0.0);
  drive(world, drag, 30, [&] { CHECK(world.max_violation(true) < 1e-8); });
}

TEST_CASE("scripted drags begin at T0, release at T1, and bad scripts are refused with the reason") {
  World world = lagrange::test::chain(sandbox_settings(), 2, 1.0, {1.0, 0.0, 0.0});
  CHECK(DragScript::check({{2, Vec3(1.0), 0.0, 1.0}}, world).empty());
  CHECK(DragScript::check({{3, Vec3(1.0), 0.0, 1.0}}, world).find("no particle 3") != std::string::npos);
  CHECK(DragScript::check({{1, Vec3(1.0), 1.0, 0.5}}, world).find("T1") != std::string::npos);
  CHECK(DragScript::check({{1, Vec3(1.0), 0.0, 1.0}, {2, Vec3(1.0), 0.5, 2.0}}, world).find("overlaps") !=
        std::string::npos);
  DragScript script({{2, Vec3(0.0, -2.5, 0.0), 0.25, 0.5}, {1, Vec3(0.5, 0.5, 0.0), 0.75, 1.0}}, DragSettings{});
  DragController drag;
  std::vector<int> held;
  for (int i = 0; i < 75; ++i) {  // 1.25 s
    script.before_step(world, drag);
    held.push_back(drag.active() ? drag.particle() : -1);
    drag.before_step(world);
    world.step();
    drag.after_step(world);
  }
  // Steps start at t = i/60: drag 1 holds for i in [15, 30), drag 2 for [45, 60).
  for (int i = 0; i < 75; ++i) {
    CAPTURE(i);
    CHECK(held[i] == (i >= 15 && i < 30 ? 2 : i >= 45 && i < 60 ? 1 : -1));
  }
  CHECK(world.constraints().size() == 2);
}

TEST_CASE("SHAKE and RATTLE get a gentler hand: an over-reach drag of a rope bridge's post leaves it in one piece") {
  // Their sweeps stop short of convergence on long chains; under a 100-weight pull the error grew to 1e94 m.
  for (const char* solver : {"shake", "rattle"}) {
    CAPTURE(solver);
    Scene scene = load_scene_file(std::filesystem::path(LAGRANGE_ASSETS_DIR) / "rope_bridge.json");
    scene.settings.solver = solver;
    World world = make_world(scene);
    CHECK(world.solver_info().mouse_force_cap < DragSettings{}.max_force);
    const int post = static_cast<int>(world.particle_count()) - 1;
    DragController drag;
    drag.begin(world, post, DragSettings{});
    drag.move(Vec3(4.0, -4.0, 0.0));
    drive(world, drag, 120, [&] {
      REQUIRE(all_finite(world));
      CHECK(world.max_violation(true) < 1e-2);  // not converged to 1e-10 (it never is here), but bounded
    });
  }
}

TEST_CASE("random drags, flings and grabs of pivots keep every pendulum's energy within what the capped hand gives") {
  // A fixed-seed sequence, as a restless user would play: grab any particle (pivots too), hard or spring, jump the
  // target anywhere in a 6 m box, release, grab again, for 30 s. Checked all along:
  //  - the state stays finite;
  //  - E − E0 is the hand's work up to the solver's own drift, a small part of the work the hand exchanged
  //    (docs/physics.md, "Energy balance"), so no energy comes from nowhere;
  //  - the hand's work is at most its force cap times the distance the grabbed particle travelled while held
  //    (hard: max_force weights of the moved mass; spring: k·stretch + β·speed within the box);
  //  - a release leaves at most the fling's kinetic energy, ½ M v_max² (M the moved mass), and never adds any.
  const char* scenes[] = {"simple_pendulum.json", "double_pendulum.json", "triple_pendulum.json",
                          "spherical_pendulum.json", "seed_pendulum.json", "pendulum_with_chain.json",
                          "hanging_cloth.json"};
  std::vector<std::string> solvers;
  for (const SolverInfo& info : solver_table()) solvers.push_back(info.id);
  solvers.push_back("switching");  // a random solver at random times, mid-drag too (keys 1..9 in the sandbox)
  for (const char* file : scenes) {
    for (const std::string& solver : solvers) {
      const bool switching = solver == "switching";
      // SHAKE and RATTLE lose the pendulum with a chain on their own, with no hand (their sweeps stop short when
      // the chain snaps straight: 2e6 J after 30 s undragged), which is that scene's lesson, not the mouse's.
      const bool sweeps = solver == "shake" || solver == "rattle" || switching;
      if (sweeps && std::string(file) == "pendulum_with_chain.json") continue;
      // The cloth: projection only (SHAKE, RATTLE and penalty's springs lose it on their own, undragged), 10 s.
      const bool cloth = std::string(file) == "hanging_cloth.json";
      if (cloth && solver != "projection") continue;
      CAPTURE(std::string(file));
      CAPTURE(solver);
      Scene scene = load_scene_file(std::filesystem::path(LAGRANGE_ASSETS_DIR) / file);
      if (!switching) scene.settings.solver = solver;
      World world = make_world(scene);
      const double g = std::max(glm::length(world.settings().gravity), 9.81);
      const double dt = world.settings().dt;
      const int n = static_cast<int>(world.particle_count());
      const double e0 = world.energy().total();
      std::uint32_t seed = 6;
      auto uniform = [&] {  // a small LCG: the same sequence on every platform
        seed = seed * 1664525u + 1013904223u;
        return (seed >> 8) * (1.0 / 16777216.0);
      };
      auto anywhere = [&] {
        return Vec3(6.0 * uniform() - 3.0, 6.0 * uniform() - 3.0, world.dimension() == 3 ? 6.0 * uniform() - 3.0 : 0.0);
      };
      auto moved_kinetic = [&](const std::vector<char>& in) {
        double k = 0.0;
        for (int q = 0; q < n; ++q)
          if (in[q]) k += 0.5 * world.model().mass(q) * glm::dot(world.state().velocity[q], world.state().velocity[q]);
        return k;
      };
      DragController drag;
      DragSettings settings;
      double bound = 0.0;      // the most work the hand can have done
      double exchanged = 0.0;  // Σ |work| per step: what the hand moved in and out
      double force = 0.0;      // the most force the current drag can exert
      double next = 0.0, worst_drift = 0.0;
      std::vector<char> in(n, 0);
      const int steps = static_cast<int>((cloth ? 10.0 : 30.0) / dt);
      for (int i = 0; i < steps; ++i) {
        if (i * dt >= next) {
          next += 0.05 + 0.6 * uniform() * uniform();
          const double r = uniform();
          if (r < 0.3) {
            const double before = world.work().mouse;
            settings.model = uniform() < 0.7 ? DragModel::Hard : DragModel::Spring;
            drag.begin(world, static_cast<int>(uniform() * n) % n, settings);
            exchanged += std::abs(world.work().mouse - before);  // a pivot made movable: its weight
            bound += std::max(0.0, world.work().mouse - before);
            drag.move(anywhere());
            const double m = drag.moved_mass();
            const double stretch = 6.0 * std::sqrt(3.0) + 6.0, speed = 2.0 * settings.max_speed + std::sqrt(24.0 * g);
            force = settings.model == DragModel::Hard
                        ? settings.max_force * m * g
                        : settings.spring_stiffness * m * (stretch + 2.0 * speed / std::sqrt(settings.spring_stiffness));
            std::fill(in.begin(), in.end(), 0);
            for (int q = 0; q < n; ++q) in[q] = world.model().fixed(q) ? 0 : 1;  // scenes of one component
          } else if (r < 0.7 && drag.active()) {
            drag.move(anywhere());
          } else if (r < 0.8 && switching) {
            Settings changed = world.settings();
            changed.solver = solvers[static_cast<std::size_t>(uniform() * (solvers.size() - 1)) % (solvers.size() - 1)];
            world.set_settings(changed);
            CHECK(world.max_violation(true) <= std::max(changed.tolerance, 1e-9));  // the new solver starts exact
          } else if (r < 0.9 && drag.active()) {
            const double kinetic = moved_kinetic(in);
            const double before = world.work().mouse;
            const double mass = drag.moved_mass() - (drag.kind() == DragController::Kind::Fixed ? world.model().mass(drag.particle()) : 0.0);
            drag.release(world);
            exchanged += std::abs(world.work().mouse - before);
            const double after = moved_kinetic(in);
            CHECK(after <= kinetic * (1.0 + 1e-12) + 1e-12);  // letting go never adds energy ...
            CHECK(after <= 0.5 * mass * settings.max_speed * settings.max_speed * (1.0 + 1e-12));  // ... the fling cap
          }
        }
        const int p = drag.particle();
        const Vec3 x0 = p >= 0 ? world.state().position[p] : Vec3(0.0);
        const double w0 = world.work().mouse;
        drag.before_step(world);
        world.step();
        drag.after_step(world);
        REQUIRE(all_finite(world));
        if (p >= 0) bound += force * glm::length(world.state().position[p] - x0);
        exchanged += std::abs(world.work().mouse - w0);
        CHECK(world.work().mouse <= bound * (1.0 + 1e-9) + 1e-9);
        worst_drift = std::max(worst_drift, drift(world, e0));
      }
      // The solvers' own drift is a few per cent of the work the hand exchanged (docs/physics.md); the
      // acceleration solver's rods stretch under the hand's pull (its lesson), and their error is larger (and is
      // what a switch to another solver puts right).
      const double fraction = solver == "acceleration" || switching ? 0.5 : 0.05;
      CHECK(worst_drift <= fraction * exchanged + 1.0);
    }
  }
}

TEST_CASE("a particle the scene pins is dragged by that pin, which is rigid again where the particle is on release") {
  // Seeds 002/003's pendulum: particle 0 held at the origin by the scene's pin (constraint 0), a rod to (1, −1).
  World world = lagrange::test::seed_pendulum("projection", 1.0 / 60.0, 9.81);
  REQUIRE(world.constraints().size() == 2);
  DragController drag;
  drag.begin(world, 0, DragSettings{});
  CHECK(drag.kind() == DragController::Kind::ScenePin);
  CHECK(drag.constraint() == 0);
  CHECK(world.constraint(0).tool());
  const Vec3 target(0.5, 0.0, 0.0);
  drag.move(target);
  drive(world, drag, 120, [&] {
    CHECK(world.constraints().size() == 2);  // no second pin
    CHECK(world.constraint(0).point() == drag.point());
  });
  CHECK(glm::length(world.constraint(0).point() - target) < 0.25);  // on its way to the target
  drag.release(world);
  const Constraint& pin = world.constraint(0);
  CHECK_FALSE(pin.tool());
  CHECK(pin.compliance() == 0.0);
  CHECK(pin.point() == world.state().position[0]);
  CHECK(glm::length(world.state().velocity[0]) < 1e-12);  // held still (the pin's J v = v₀ = 0, up to rounding)
}

TEST_CASE("letting go of a particle the scene pins books what the catch takes, and a soft pin is soft again") {
  // Seeds 002/003's pendulum, its pivot held by the scene's pin (constraint 0), dragged and let go mid-run: the
  // release stops the pivot (an inelastic catch) and the pin's own compliance, if any, comes back. Whatever energy
  // grabbing or letting go changes is the hand's: the drift, E − E0 − W_mouse − W_damping, must not move.
  for (double compliance : {0.0, 1e-3}) {
    CAPTURE(compliance);
    World world = lagrange::test::seed_pendulum("projection", 1.0 / 60.0, 9.81);
    world.set_compliance(0, compliance, compliance > 0.0 ? 0.5 : 0.0);
    DragController none;
    drive(world, none, 20, [] {});  // a soft pin sags under the bob: it holds spring energy ½ C²/α
    const double e0 = world.energy().total();
    const double at_grab = drift(world, e0);
    DragController drag;
    drag.begin(world, 0, DragSettings{});
    CHECK(drift(world, e0) == doctest::Approx(at_grab).epsilon(1e-12));
    drag.move(Vec3(2.0, 0.0, 0.0));
    drive(world, drag, 15, [] {});
    const double kinetic = 0.5 * world.model().mass(0) * glm::dot(world.state().velocity[0], world.state().velocity[0]);
    REQUIRE(kinetic > 1.0);  // the pivot runs toward the target: letting go now stops a moving particle
    const double held = drift(world, e0), w = world.work().mouse;
    drag.release(world);
    CHECK(world.work().mouse < w - kinetic * 0.5);                     // the catch took energy: the hand's ...
    CHECK(drift(world, e0) == doctest::Approx(held).epsilon(1e-9));  // ... and none of it is left in the drift
    CHECK(world.constraint(0).compliance() == compliance);            // the scene's own pin, as the scene made it
    CHECK(world.constraint(0).damping() == (compliance > 0.0 ? 0.5 : 0.0));
  }
}

TEST_CASE("a corner-to-corner drag beyond reach books every joule: the drift left is the rods' own work") {
  // The trial of issue 21: the double pendulum's outer bob pulled out of the window to the top right, then to the
  // bottom left (the window holds the cursor at its edge: about 3.7 m from the pivot, 2 m reach), then let go at
  // speed (the fling cap takes energy). The position-level solvers move each particle by M⁻¹∇C(q)ᵀλ with the
  // gradients at the start of the substep and set v = (q' − q)/h, so a substep changes the energy by exactly
  //     ΔE = Σ_rows h f ∇C(q)·v̄  − (h/2) Σ m g·(v' − v)          (v̄ = (v + v')/2; docs/physics.md, "Energy balance")
  // SHAKE, in velocity Verlet form, moves by M⁻¹∇C(q)ᵀλ after its half kick and kicks by M⁻¹∇C(q')ᵀκ/h at the end,
  // κ = λ + h ∇C(q)·v / S = h² f / 2 (solver_shake.cpp; κ = λ on the hand's compliant row), so its substep changes
  // the energy by exactly
  //     ΔE = Σ_rows (λ∇C(q) + κ∇C(q'))·v̄ / h  − ½ Σ_rows Σ_s g·(λ∇_s C(q) − κ∇_s C(q'))
  // The hand's row is booked as W_mouse, so E − E0 − W_mouse − W_damping must be the rods' share of the sum and the
  // gravity term, both computed here from each substep's start and end, independently of World::account_work.
  // Under the hand's pull (100 weights for projection) the rods' share is joules; it is the solver's error (taking a
  // rod's direction at the start of the substep), not energy the hand gave unbooked, so it stays in the drift.
  Scene scene = load_scene_file(std::filesystem::path(LAGRANGE_ASSETS_DIR) / "double_pendulum.json");
  for (const char* solver : {"projection", "shake"}) {
    CAPTURE(solver);
    scene.settings.solver = solver;
    World world = make_world(scene);
    const double e0 = world.energy().total();
    double rods = 0.0, gravity = 0.0;
    std::vector<Vec3> q, v;
    RowGradient grad, grad_end;
    const bool verlet = std::string(solver) == "shake";
    const auto own_work = [&](const World& w) {  // one substep, from (q, v) to w's state
      const double h = w.settings().dt / w.settings().substeps;
      const auto rows = w.model().rows();
      const auto& v1 = w.state().velocity;
      const auto inv_mass = w.model().inv_mass();
      std::vector<double> spread(w.particle_count(), 0.0);  // Σ over the rows on p of |∇_p C(q)|
      for (const Row& row : rows) {
        row.constraint->evaluate(row.row, q, grad);
        for (int s = 0; s < row.count; ++s) spread[row.particle[s]] += glm::length(grad[s]);
      }
      for (std::size_t r = 0; r < rows.size(); ++r) {
        if (rows[r].constraint->tool()) continue;
        rows[r].constraint->evaluate(rows[r].row, q, grad);
        rows[r].constraint->evaluate(rows[r].row, w.state().position, grad_end);
        const double f = w.state().row_force[r];
        if (!verlet) {
          double rate = 0.0;
          for (int s = 0; s < rows[r].count; ++s)
            rate += glm::dot(grad[s], 0.5 * (v[rows[r].particle[s]] + v1[rows[r].particle[s]]));
          rods += h * f * rate;
          continue;
        }
        const double kappa = 0.5 * h * h * f;  // the force reported is 2κ/h²
        double across = 0.0, bound = 0.0;
        for (int s = 0; s < rows[r].count; ++s) {
          const int p = rows[r].particle[s];
          across += glm::dot(grad[s], v[p]);
          bound += inv_mass[p] * glm::length(grad[s]) * spread[p];
        }
        const double lambda = bound > 0.0 ? kappa - h * across / bound : kappa;
        for (int s = 0; s < rows[r].count; ++s) {
          const int p = rows[r].particle[s];
          rods += glm::dot(lambda * grad[s] + kappa * grad_end[s], 0.5 * (v[p] + v1[p])) / h;
          if (!w.model().fixed(p)) gravity -= 0.5 * glm::dot(w.settings().gravity, lambda * grad[s] - kappa * grad_end[s]);
        }
      }
      for (std::size_t i = 0; i < w.particle_count(); ++i)
        if (!verlet && !w.model().fixed(i))
          gravity -= 0.5 * h * w.model().mass(i) * glm::dot(w.settings().gravity, v1[i] - v[i]);
      q = w.state().position;
      v = v1;
    };
    DragController drag;
    double exchanged = 0.0;
    const auto run = [&](int steps) {
      for (int i = 0; i < steps; ++i) {
        drag.before_step(world);
        q = world.state().position;
        v = world.state().velocity;
        const double w0 = world.work().mouse;
        world.step(own_work);
        drag.after_step(world);
        exchanged += std::abs(world.work().mouse - w0);
        // Nothing else: the balance closes to rounding at every step.
        REQUIRE(std::abs(drift(world, e0) - rods - gravity) < 1e-9 * (exchanged + std::abs(e0)) + 1e-9);
      }
    };
    run(60);  // swinging
    drag.begin(world, 2, DragSettings{});
    drag.move(Vec3(2.45, 2.79, 0.0));
    run(110);
    drag.move(Vec3(-2.45, -2.79, 0.0));
    run(40);  // whipped through the bottom
    const double w = world.work().mouse, before = drift(world, e0);
    drag.release(world);
    if (std::string(solver) == "projection") CHECK(world.work().mouse < w - 1.0);  // the fling cap took joules ...
    CHECK(drift(world, e0) == doctest::Approx(before).epsilon(1e-12));              // ... the hand's, all of them
    run(120);
  }
}
