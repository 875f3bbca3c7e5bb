// Small helpers for the engine tests: worlds built inline, as the seeds write them.
#pragma once

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

}  // namespace lagrange::test
