// Compliant rows (Constraint::compliance, docs/physics.md "Compliance") in every solver, against closed forms:
// the static stretch α m g of a soft rod under a hanging load, the compliant Newton matrix against finite
// differences, and one projection substep against the equation it claims to solve.
#include <doctest/doctest.h>

#include <cmath>

#include "lagrange/measure.h"
#include "solvers/row_system.h"
#include "solvers/solvers.h"
#include "test_util.h"

using namespace lagrange;
using lagrange::test::settings_for;

namespace {

// A fixed pivot and a bob of mass m hanging at rest on a rod of length 1 with compliance α and damping β.
World soft_pendulum(const char* solver, double alpha, double beta, double m, double g) {
  Settings s = settings_for(solver, 1.0 / 60.0, {0.0, -g, 0.0});
  s.substeps = 4;
  World world(2, s);
  world.add_particle({.position = {0.0, 0.0, 0.0}, .fixed = true});
  world.add_particle({.position = {0.0, -1.0, 0.0}, .mass = m});
  auto rod = std::make_unique<DistanceConstraint>(0, 1, 1.0);
  rod->set_compliance(alpha, beta);
  world.add_constraint(std::move(rod));
  return world;
}

}  // namespace

TEST_CASE("a compliant rod under a hanging load stretches by alpha m g, in every solver") {
  const double alpha = 1e-3, m = 2.0, g = 10.0;
  const double beta = 2.0 * std::sqrt(m / alpha);  // critical damping of the bob on a spring of stiffness 1/α
  for (const SolverInfo& info : solver_table()) {
    CAPTURE(info.id);
    World world = soft_pendulum(info.id, alpha, beta, m, g);
    REQUIRE(world.model().compliant_rows().size() == 1);
    for (int step = 0; step < 300; ++step) world.step();  // 5 s, a hundred time constants √(m α)
    const double stretch = -world.state().position[1].y - 1.0;
    CHECK(stretch == doctest::Approx(alpha * m * g).epsilon(1e-6));
    CHECK(world.state().row_force[0] == doctest::Approx(-m * g).epsilon(1e-6));  // tension: the bob's weight
    // The stretched spring's energy ½ C²/α is part of the potential.
    CHECK(spring_energy(world.model(), world.state()) == doctest::Approx(0.5 * stretch * stretch / alpha).epsilon(1e-9));
  }
}

TEST_CASE("a rigid row stays rigid: compliance 0 gives the same bits as never setting it") {
  World a = lagrange::test::simple_pendulum("projection", 0.7, 1.0, 1.0 / 240.0);
  World b = lagrange::test::simple_pendulum("projection", 0.7, 1.0, 1.0 / 240.0);
  b.set_compliance(0, 1e-3, 5.0);
  b.set_compliance(0, 0.0, 0.0);
  CHECK(b.model().compliant_rows().empty());
  for (int step = 0; step < 100; ++step) {
    a.step();
    b.step();
  }
  CHECK(a.state().position == b.state().position);
  CHECK(a.state().velocity == b.state().velocity);
}

TEST_CASE("the compliant Newton matrix matches finite differences of C + a~ lambda + gamma grad C(q) (x - q)") {
  // A chain with a compliant, damped pin on its end beyond its reach (the mouse's case), and a compliant rod.
  const double h = 0.01;
  World world(3, settings_for("projection", h));
  world.add_particle({.position = {0.0, 0.0, 0.0}, .fixed = true});
  world.add_particle({.position = {1.0, 0.1, 0.0}, .mass = 1.0});
  world.add_particle({.position = {1.9, -0.3, 0.2}, .mass = 0.5});
  world.add_distance(0, 1, 1.0);
  const int soft_rod = world.add_distance(1, 2, 1.0);
  const int pin = world.add_pin(2, {3.0, -1.0, 0.5});
  world.set_compliance(soft_rod, 2e-4, 3.0);
  world.set_compliance(pin, 1e-4, 40.0);
  RowSystem system;
  system.prepare(world.model());
  const auto q = world.state().position;
  std::vector<double> c;
  RowGradients g0, r0, g;
  system.evaluate(world.model(), q, c, g0);
  system.weight(world.model(), g0, r0);
  const auto rows = world.model().rows();
  const int m = static_cast<int>(rows.size());
  // α̃ and γ per row, written out here from the definitions (α̃ = α/h², γ = αβ/h), not taken from the solver.
  std::vector<double> at(m, 0.0), gamma(m, 0.0);
  for (int k = 0; k < m; ++k) {
    const double alpha = rows[k].constraint->compliance(), beta = rows[k].constraint->damping();
    at[k] = alpha / (h * h);
    gamma[k] = alpha * beta / h;
  }
  std::vector<double> lambda(m);
  for (int k = 0; k < m; ++k) lambda[k] = 0.02 * (k + 1) * (k % 2 ? -1 : 1);
  auto residual = [&](const std::vector<double>& l) {
    std::vector<Vec3> x = q;
    system.displace(world.model(), r0, l, x);
    std::vector<double> out;
    RowGradients unused;
    system.evaluate(world.model(), x, out, unused);
    for (int k = 0; k < m; ++k) {
      double dq = 0.0;
      for (int s = 0; s < rows[k].count; ++s) dq += glm::dot(g0[k].g[s], x[rows[k].particle[s]] - q[rows[k].particle[s]]);
      out[k] += at[k] * l[k] + gamma[k] * dq;
    }
    return out;
  };
  const auto fd = lagrange::test::fd_jacobian(residual, lambda);
  // The solver's matrix: left gradient ∇C(x) + γ∇C(q), α̃ on the diagonal (solvers.h, gather_compliant_rows).
  std::vector<CompliantRow> soft;
  std::vector<DiagonalTerm> diagonal;
  gather_compliant_rows(world.model(), h, 1.0, soft, &diagonal);
  REQUIRE(soft.size() == 4);  // the rod's row and the pin's three
  std::vector<Vec3> x = q;
  system.displace(world.model(), r0, lambda, x);
  system.evaluate(world.model(), x, c, g);
  for (const CompliantRow& row : soft)
    for (int s = 0; s < rows[row.row].count; ++s) g[row.row].g[s] += row.gamma * g0[row.row].g[s];
  CHECK(system.factorize(g, r0, diagonal) == 0);
  for (int j = 0; j < m; ++j) {
    std::vector<double> column(m);
    for (int i = 0; i < m; ++i) column[i] = fd[i][j];
    system.solve(column);
    for (int i = 0; i < m; ++i) CHECK(column[i] == doctest::Approx(i == j ? 1.0 : 0.0).scale(1.0).epsilon(1e-6));
  }
}

TEST_CASE("one projection substep solves the compliant equations, and SHAKE lands on the same positions") {
  // A two-link chain, nearly straight, whose end is pulled by a stiff compliant pin to a point beyond reach: the
  // rigid rods and the pin contradict each other, so only the compliance makes the equations solvable.
  auto build = [](const char* solver) {
    World world(2, settings_for(solver, 1.0 / 240.0, {0.0, -9.81, 0.0}));
    world.add_particle({.position = {0.0, 0.0, 0.0}, .fixed = true});
    world.add_particle({.position = {0.6, -0.8, 0.0}, .velocity = {0.5, 0.3, 0.0}, .mass = 1.0});
    world.add_particle({.position = {1.25, -1.56, 0.0}, .mass = 1.0});
    world.add_distance(0, 1, 1.0);
    world.add_distance(1, 2, 1.0);
    const int pin = world.add_pin(2, {1.3, -1.7, 0.0});
    world.set_compliance(pin, 1.0 / (240.0 * 240.0 * 2.0), 30.0);
    return world;
  };
  World world = build("projection");
  const auto q = world.state().position;
  world.step();
  CHECK(world.stats().failures == 0);
  for (int rod = 0; rod < 2; ++rod)  // the rigid rods stay exact
    CHECK(std::abs(world.constraint(rod).value(0, world.state().position)) < 1e-10);
  CHECK(glm::length(world.state().position[2] - world.state().position[0]) < 2.0 + 1e-10);
  const double h = 1.0 / 240.0;
  const auto x = world.state().position;
  // Each pin row: C + α̃λ + γ (x − q) = 0 with λ = h² × the reported force.
  const Constraint& pin = world.constraint(2);
  const double at = pin.compliance() / (h * h), gamma = pin.compliance() * pin.damping() / h;
  for (int k = 0; k < 2; ++k) {
    const int r = world.model().row_offset(2) + k;
    const double residual = pin.value(k, x) + at * world.state().row_force[r] * h * h + gamma * (x[2][k] - q[2][k]);
    CHECK(std::abs(residual) < 1e-9);
  }
  // SHAKE (velocity Verlet form) predicts x* = q + h v + (h²/2) g and solves C + α̃λ + γ∇C(q)·(x − q) = 0 with
  // α̃ = 2α/h², γ = αβ/h (λ is h²/2 times the force): the same equations as projection's when it starts half a kick
  // faster, with half the compliance and twice the damping.
  World shaken = build("shake");
  shaken.set_compliance(2, 1.0 / (240.0 * 240.0 * 4.0), 60.0);
  for (int p = 1; p < 3; ++p) shaken.state().velocity[p] += 0.5 * h * Vec3(0.0, -9.81, 0.0);
  Settings slow = shaken.settings();
  slow.max_iterations = 100000;  // Gauss-Seidel on a nearly contradictory system: many sweeps, same answer
  shaken.set_settings(slow);
  shaken.step();
  CHECK(shaken.stats().failures == 0);
  for (int p = 1; p < 3; ++p) CHECK(glm::length(shaken.state().position[p] - x[p]) < 1e-9);
}
