// Small helpers for the engine tests: worlds built inline, as the seeds write them.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <cfenv>
#include <cmath>
#include <vector>

#include "lagrange/builders.h"
#include "lagrange/world.h"

namespace lagrange::test {

inline Settings settings_for(const char* solver, double dt, Vec3 gravity = {0.0, -10.0, 0.0}) {
  Settings s;
  s.solver = solver;
  s.dt = dt;
  s.substeps = 1;
  s.gravity = gravity;
  return s;
}

// The pendulum of seeds 002/003: A pinned at the origin by x_A = 0, y_A = 0 (mass 1), B at (1, −1) (mass 1),
// rod |AB| = √2, at rest.
inline World seed_pendulum(const char* solver, double dt = 0.001, double g = 10.0) {
  World world(2, settings_for(solver, dt, {0.0, -g, 0.0}));
  world.add_particle({.position = {0.0, 0.0, 0.0}, .mass = 1.0});
  world.add_particle({.position = {1.0, -1.0, 0.0}, .mass = 1.0});
  world.add_pin(0, {0.0, 0.0, 0.0});
  world.add_distance(0, 1, std::sqrt(2.0));
  return world;
}

// A simple pendulum: fixed pivot at the origin, bob of mass m at angle theta from the downward vertical.
inline World simple_pendulum(const char* solver, double theta, double length, double dt, double g = 9.81) {
  World world(2, settings_for(solver, dt, {0.0, -g, 0.0}));
  world.add_particle({.position = {0.0, 0.0, 0.0}, .fixed = true});
  world.add_particle({.position = {length * std::sin(theta), -length * std::cos(theta), 0.0}, .mass = 1.0});
  world.add_distance(0, 1, length);
  return world;
}

// Central finite-difference Jacobian of a vector function F at λ, column by column: fd[i][j] = ∂F_i/∂λ_j.
template <class F>
std::vector<std::vector<double>> fd_jacobian(const F& f, const std::vector<double>& lambda, double step = 1e-6) {
  const std::size_t m = lambda.size();
  std::vector<std::vector<double>> fd(m, std::vector<double>(m));
  for (std::size_t j = 0; j < m; ++j) {
    auto plus = lambda, minus = lambda;
    plus[j] += step;
    minus[j] -= step;
    const auto fp = f(plus), fm = f(minus);
    for (std::size_t i = 0; i < m; ++i) fd[i][j] = (fp[i] - fm[i]) / (2 * step);
  }
  return fd;
}

inline bool all_finite(const World& world) {
  for (std::size_t i = 0; i < world.particle_count(); ++i)
    for (int k = 0; k < 3; ++k)
      if (!std::isfinite(world.state().position[i][k]) || !std::isfinite(world.state().velocity[i][k]))
        return false;
  return true;
}

// Floating-point traps off for tests that provoke overflow on purpose (tests/test_main.cpp turns them on).
struct TrapsOff {
  int saved = fegetexcept();
  TrapsOff() { fedisableexcept(FE_ALL_EXCEPT); }
  ~TrapsOff() {
    feclearexcept(FE_ALL_EXCEPT);
    feenableexcept(saved);
  }
};

// A chain from a fixed anchor at the origin, built by the same builder as the scenes and the benchmark:
// `links` rods of `link_length` along `direction` (horizontal: released horizontally; down: hanging at rest).
inline World chain(const Settings& settings, int links, double link_length, Vec3 direction = {1.0, 0.0, 0.0},
                   double particle_mass = 1.0) {
  Scene scene;
  scene.dimension = 2;
  scene.settings = settings;
  ChainDef def;
  def.links = links;
  def.link_length = link_length;
  def.particle_mass = particle_mass;
  def.direction = direction;
  append_chain(scene, def);
  return make_world(scene);
}

// What `steps` steps of a chain of `links` rods of `link_length` (particles 0 .. links in order, chain()) did,
// measured here from the positions and energies (independently of the solver's own stats, but its failures and
// recoveries).
struct ChainRun {
  int failures = 0, recoveries = 0;
  double worst_rod = 0.0;  // max | |x_i+1 − x_i| − L | / L after any step
  double exchanged = 0.0;  // max |U − U0|: the energy that moved through the chain
  double gained = 0.0;     // max (E − E0)
  double worst = 0.0;      // max |E − E0|
};

inline ChainRun run_chain(World& world, int links, int steps, double link_length = 0.05) {
  ChainRun run;
  const Energy start = world.energy();
  for (int step = 0; step < steps; ++step) {
    world.step();
    REQUIRE_FALSE(world.stats().non_finite);
    run.failures += world.stats().failures;
    run.recoveries += world.stats().recoveries;
    const auto& x = world.state().position;
    for (int i = 0; i < links; ++i)
      run.worst_rod =
          std::max(run.worst_rod, std::abs(glm::length(x[i + 1] - x[i]) - link_length) / link_length);
    const Energy e = world.energy();
    run.exchanged = std::max(run.exchanged, std::abs(e.potential - start.potential));
    run.gained = std::max(run.gained, e.total() - start.total());
    run.worst = std::max(run.worst, std::abs(e.total() - start.total()));
  }
  return run;
}

}  // namespace lagrange::test
