// One substep taken apart (lagrange/step_trace.h) against independent values: seed 003's q' after one projection,
// seed 002's multipliers and constraint forces, a pendulum's tension in closed form, the solvers' own results bit
// for bit, Newton's quadratic convergence and SHAKE's one-row Newton steps.
#include <doctest/doctest.h>

#include <cmath>

#include "lagrange/step_trace.h"
#include "test_util.h"

using namespace lagrange;

namespace {

const TraceIterate* last_position_iterate(const StepTrace& trace) {
  for (auto it = trace.iterates.rbegin(); it != trace.iterates.rend(); ++it)
    if (!is_velocity_stage(it->kind) && it->accepted) return &*it;
  return nullptr;
}

// A double pendulum from a fixed pivot, both rods length 1, swung hard so that one substep turns the rods far.
// `outer_rod_first`: the rods listed from the free end in, so the rows are not a chain in its natural order and
// projection's chord matrix is ∇C(q) M⁻¹ ∇C(q)ᵀ, not the chain's matrix at its first guess (RowSystem::chain_setup),
// with which a chain's chord seldom stalls.
World fast_double_pendulum(const char* solver, double dt, bool outer_rod_first = false) {
  World world(2, lagrange::test::settings_for(solver, dt, {0.0, -9.81, 0.0}));
  world.add_particle({.position = {0.0, 0.0, 0.0}, .fixed = true});
  world.add_particle({.position = {1.0, 0.0, 0.0}, .velocity = {0.0, -6.0, 0.0}, .mass = 1.0});
  world.add_particle({.position = {1.0, -1.0, 0.0}, .velocity = {9.0, -6.0, 0.0}, .mass = 1.0});
  if (outer_rod_first) world.add_distance(1, 2, 1.0);
  world.add_distance(0, 1, 1.0);
  if (!outer_rod_first) world.add_distance(1, 2, 1.0);
  return world;
}

}  // namespace

TEST_CASE("step trace: projection's last iterate is seed 003's q' after one projection") {
  // Seed 003: Δt = 0.001, g = 10, q = (0, 0, 1, −1) at rest: q' = (0, 0, 0.9999949999875, −1.0000049999875).
  const World world = lagrange::test::seed_pendulum("projection", 0.001, 10.0);
  const StepTrace trace = trace_substep(world);
  CHECK(trace.solver == "projection");
  REQUIRE(trace.prediction.size() == 2u);
  // q* = q + h² g: semi-implicit Euler from rest, for both particles (A is held by rows, not fixed).
  CHECK(trace.prediction[0].y == doctest::Approx(-1e-5).epsilon(1e-12));
  CHECK(trace.prediction[1].x == doctest::Approx(1.0).epsilon(1e-15));
  CHECK(trace.prediction[1].y == doctest::Approx(-1.00001).epsilon(1e-15));
  REQUIRE(!trace.iterates.empty());
  CHECK(trace.iterates.front().kind == IterateKind::FirstGuess);
  const TraceIterate* last = last_position_iterate(trace);
  REQUIRE(last != nullptr);
  CHECK(std::abs(last->position[0].x) < 1e-13);
  CHECK(std::abs(last->position[0].y) < 1e-13);
  CHECK(std::abs(last->position[1].x - 0.9999949999875) < 1e-12);
  CHECK(std::abs(last->position[1].y - (-1.0000049999875)) < 1e-12);
  CHECK(last->max_violation < 1e-10);
  // The correction M⁻¹∇C(q)ᵀλ, rebuilt from λ and the gradients at q, is the move from q* to q'.
  for (std::size_t i = 0; i < 2; ++i) {
    const Vec3 moved = last->position[i] - trace.prediction[i];
    CHECK(glm::length(trace.correction[i] - moved) < 1e-13);
  }
}

TEST_CASE("step trace: for projection, SHAKE and RATTLE the correction M⁻¹∇C(q)ᵀλ is the move from q* to q'") {
  // The correction is rebuilt from the trace's λ and the gradients at q; the move is what the substep committed.
  for (const std::string solver : {"projection", "shake", "rattle"}) {
    for (const bool fast : {false, true}) {
      CAPTURE(solver);
      CAPTURE(fast);
      const World world = fast ? fast_double_pendulum(solver.c_str(), 1.0 / 120.0)
                                : lagrange::test::seed_pendulum(solver.c_str());
      const StepTrace trace = trace_substep(world);
      REQUIRE(trace.split_substeps == 0);
      REQUIRE(trace.correction.size() == trace.result.size());
      double largest = 0.0;
      for (std::size_t i = 0; i < trace.result.size(); ++i) {
        const Vec3 moved = trace.result[i] - trace.prediction[i];
        largest = std::max(largest, glm::length(moved));
        CHECK(glm::length(trace.correction[i] - moved) <= 1e-13);  // rounding of positions of order 1 m
      }
      CHECK(largest > 1e-6);  // a correction far above that to compare
    }
  }
}

TEST_CASE("step trace: a single rod's λ is the closed form for projection, SHAKE and RATTLE, moving or not") {
  // Pivot fixed at the origin, bob of mass m at q on a rod of length L, u = q / L. The position-level solvers end at
  // q' = q* + (λ/m) u with |q'| = L. With δ = q* − q split along u (δ·u) and across it (|δ⊥|):
  // λ = m (√(L² − |δ⊥|²) − L − δ·u). The prediction q* = q + h v + h² g for projection (semi-implicit Euler), and
  // q + h v + (h²/2) g for SHAKE and RATTLE (velocity Verlet's half kick and drift).
  const double theta = 0.7, length = 1.5, g = 9.81, m = 1.0, h = 1e-3;
  const Vec3 u(std::sin(theta), -std::cos(theta), 0.0), across(std::cos(theta), std::sin(theta), 0.0);
  // At rest; swinging; swinging with the rod stretching at 0.3 m/s (SHAKE's reported force, its second half-kick,
  // is then not 2λ/h²).
  for (const Vec3 v : {Vec3(0.0), 2.0 * across, 2.0 * across + 0.3 * u}) {
    for (const std::string solver : {"projection", "shake", "rattle"}) {
      CAPTURE(solver);
      CAPTURE(v.x);
      CAPTURE(v.y);
      World world = lagrange::test::simple_pendulum(solver.c_str(), theta, length, h, g);
      world.state().velocity[1] = v;
      const StepTrace trace = trace_substep(world);
      REQUIRE(trace.lambda.size() == 1u);
      const double kick = solver == "projection" ? 1.0 : 0.5;
      const Vec3 delta = h * v + kick * h * h * Vec3(0.0, -g, 0.0);
      const double along = glm::dot(delta, u), off = glm::length(delta - along * u);
      const double expected = m * (std::sqrt(length * length - off * off) - length - along);
      CAPTURE(expected);
      CHECK(std::abs(trace.lambda[0] - expected) <= 1e-12);
      CHECK(std::abs(trace.lambda[0] - expected) <= 1e-6 * std::abs(expected));
      // Its correction is (λ/m) u on the bob, nothing on the pivot.
      CHECK(glm::length(trace.correction[1] - (expected / m) * u) <= 1e-12);
      CHECK(trace.correction[0] == Vec3(0.0));
    }
  }
}

TEST_CASE("step trace: the acceleration level's multipliers and forces are seed 002's") {
  // Seed 002: λ = (−g/2, 3g/2, −g/4) for the rod written |r|² − L² (here |r| − L: λ_rod = 2|r|·(−g/4)), and
  // F_C = (0, g, −g/2, g/2), which does not depend on how the rows are written.
  const double g = 10.0;
  const World world = lagrange::test::seed_pendulum("acceleration", 0.001, g);
  const StepTrace trace = trace_substep(world);
  REQUIRE(trace.lambda.size() == 3u);
  CHECK(trace.lambda[0] == doctest::Approx(-g / 2));
  CHECK(trace.lambda[1] == doctest::Approx(3 * g / 2));
  CHECK(trace.lambda[2] == doctest::Approx(2 * std::sqrt(2.0) * (-g / 4)));
  CHECK(trace.constraint_force[0].x == doctest::Approx(0.0));
  CHECK(trace.constraint_force[0].y == doctest::Approx(g));
  CHECK(trace.constraint_force[1].x == doctest::Approx(-g / 2));
  CHECK(trace.constraint_force[1].y == doctest::Approx(g / 2));
  REQUIRE(trace.iterates.size() == 1u);
  CHECK(trace.iterates[0].kind == IterateKind::Explicit);
}

TEST_CASE("step trace: a pendulum's rod force and gravity's split are the closed-form tension") {
  // Bob of mass m at angle θ from the downward vertical moving at speed v: the rod pulls with
  // T = m (g cos θ + v² / L); gravity's along-rod part is m g cos θ outward, its across part m g sin θ.
  const double theta = 0.7, length = 1.5, speed = 2.0, g = 9.81, m = 1.0;
  World world = lagrange::test::simple_pendulum("acceleration", theta, length, 1e-3, g);
  world.state().velocity[1] = speed * Vec3(std::cos(theta), std::sin(theta), 0.0);
  const StepTrace trace = trace_substep(world);
  const Vec3 outward = Vec3(std::sin(theta), -std::cos(theta), 0.0);
  const double tension = m * (g * std::cos(theta) + speed * speed / length);
  CHECK(glm::length(trace.constraint_force[1]) == doctest::Approx(tension).epsilon(1e-12));
  CHECK(glm::dot(trace.constraint_force[1], outward) == doctest::Approx(-tension).epsilon(1e-12));
  REQUIRE(trace.gravity_split.size() == 1u);
  const GravitySplit& split = trace.gravity_split[0];
  CHECK(split.particle == 1);
  CHECK(glm::dot(split.along, outward) == doctest::Approx(m * g * std::cos(theta)).epsilon(1e-12));
  CHECK(glm::length(split.across) == doctest::Approx(m * g * std::sin(theta)).epsilon(1e-12));
  // Rod force plus gravity's along part is the centripetal force m v² / L toward the pivot.
  CHECK(glm::dot(trace.constraint_force[1] + split.along, outward) ==
        doctest::Approx(-m * speed * speed / length).epsilon(1e-12));
}

TEST_CASE("step trace: every solver's traced substep is the substep it takes, bit for bit") {
  for (const char* solver : {"projection", "shake", "rattle", "acceleration", "penalty"}) {
    CAPTURE(solver);
    World world = fast_double_pendulum(solver, 1.0 / 120.0);
    const World before = world;
    const StepTrace trace = trace_substep(world);
    // Tracing changed nothing.
    CHECK(world.state().position == before.state().position);
    CHECK(world.state().velocity == before.state().velocity);
    world.step();
    CHECK(trace.result == world.state().position);
    CHECK(trace.result_velocity == world.state().velocity);
    const TraceIterate* last = last_position_iterate(trace);
    REQUIRE(last != nullptr);
    for (std::size_t i = 0; i < trace.result.size(); ++i)
      if (!world.model().fixed(i)) CHECK(last->position[i] == trace.result[i]);
    if (std::string(solver) == "rattle") {
      REQUIRE(trace.iterates.back().kind == IterateKind::VelocityCorrection);
      CHECK(trace.iterates.back().velocity == world.state().velocity);
    }
  }
}

TEST_CASE("step trace: Newton's residuals fall quadratically near the root") {
  // A large substep of a fast double pendulum: the chord iteration stalls after one step and Newton takes over
  // from its best iterate.
  const World world = fast_double_pendulum("projection", 0.04, true);
  const StepTrace trace = trace_substep(world);
  std::vector<double> newton;  // the iterate Newton starts from, then its accepted iterates
  for (std::size_t k = 0; k < trace.iterates.size(); ++k) {
    const TraceIterate& it = trace.iterates[k];
    if (it.kind != IterateKind::Newton || !it.accepted) continue;
    if (newton.empty())
      for (std::size_t j = k; j-- > 0;)
        if (trace.iterates[j].accepted) {
          newton.push_back(trace.iterates[j].max_violation);
          break;
        }
    newton.push_back(it.max_violation);
  }
  REQUIRE(newton.size() >= 3u);
  int checked = 0;
  for (std::size_t k = 0; k + 1 < newton.size(); ++k) {
    if (newton[k] > 1e-2 || newton[k] < 1e-7) continue;  // near the root, above rounding
    CAPTURE(newton[k]);
    CAPTURE(newton[k + 1]);
    CHECK(newton[k + 1] <= 10.0 * newton[k] * newton[k]);  // r_{k+1} ≤ C r_k², C = 10 / m
    ++checked;
  }
  CHECK(checked >= 2);
  CHECK(newton.back() < 1e-10);
}

TEST_CASE("step trace: the chord iteration converges linearly, one iterate per recorded step") {
  const World world = fast_double_pendulum("projection", 1.0 / 60.0);
  const StepTrace trace = trace_substep(world);
  REQUIRE(trace.iterates.size() >= 3u);
  CHECK(trace.iterates[0].kind == IterateKind::FirstGuess);
  for (std::size_t k = 1; k < trace.iterates.size(); ++k) {
    CHECK(trace.iterates[k].kind == IterateKind::Chord);
    // Each accepted chord step gains at least the factor the solver demands (kChordGain = 0.25).
    if (trace.iterates[k].accepted) CHECK(trace.iterates[k].max_relative <= 0.25 * trace.iterates[k - 1].max_relative);
  }
  CHECK(trace.iterates.back().max_violation < 1e-10);
}

TEST_CASE("step trace: each of SHAKE's one-row steps is a Newton step on that row along its fixed direction") {
  // δλ = −C_k / (∇C_k(x)·M⁻¹∇C_k(q)) is Newton's step on C_k(x + M⁻¹∇C_k(q) δλ) = 0: the row's own residual
  // falls quadratically, |C_k after| ≤ c |C_k before|² (c of order 1 / L for a rod), while its neighbours move.
  for (const char* solver : {"shake", "rattle"}) {
    CAPTURE(solver);
    const World world = fast_double_pendulum(solver, 1.0 / 60.0);
    const StepTrace trace = trace_substep(world);
    const auto rows = world.model().rows();
    std::vector<Vec3> previous = trace.prediction;
    int steps = 0;
    for (const TraceIterate& it : trace.iterates) {
      if (it.kind != IterateKind::RowCorrection) continue;
      REQUIRE(it.row >= 0);
      const Row& row = rows[it.row];
      const double before = std::abs(row.constraint->value(row.row, previous));
      const double after = std::abs(row.constraint->value(row.row, it.position));
      CAPTURE(before);
      CHECK(after <= 10.0 * before * before + 1e-15);
      CHECK(it.sweep >= 1);
      previous = it.position;
      ++steps;
    }
    CHECK(steps >= 4);  // two rods, at least two sweeps
  }
}

TEST_CASE("step trace: RATTLE's velocity correction makes J v vanish") {
  const World world = fast_double_pendulum("rattle", 1.0 / 60.0);
  const StepTrace trace = trace_substep(world);
  REQUIRE(trace.iterates.size() >= 2u);
  const TraceIterate& before = trace.iterates[trace.iterates.size() - 2];
  const TraceIterate& after = trace.iterates.back();
  CHECK(before.kind == IterateKind::HalfKick);
  CHECK(after.kind == IterateKind::VelocityCorrection);
  CHECK(before.max_violation > 1e-4);  // the half-kick leaves a velocity along the rods
  CHECK(after.max_violation < 1e-12);
}

TEST_CASE("step trace: an unknown solver id is refused with the list") {
  const World world = lagrange::test::seed_pendulum("projection");
  CHECK_THROWS_AS(trace_substep(world, "nonsense"), Error);
}
