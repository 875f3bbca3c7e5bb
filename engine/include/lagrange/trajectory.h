// The trajectory's columns, written once: `run --csv`, the window's Export CSV (app/capture/trajectory_csv.h) and the
// Python package's World.run (python/, docs/python.md) all take their names and values from here, so the same scene
// through any of them gives the same columns and the same bits.
#pragma once

#include <array>

#include "lagrange/world.h"

namespace lagrange {

// The columns of a step, in order; then kParticleColumns for each particle i (x0,y0,z0,vx0,vy0,vz0,x1,...).
inline constexpr std::array<const char*, 6> kTrajectoryColumns{"step", "t", "kinetic", "potential", "energy",
                                                               "violation"};
inline constexpr std::array<const char*, 6> kParticleColumns{"x", "y", "z", "vx", "vy", "vz"};

// The values of kTrajectoryColumns: the step count, the time, the energies and the violation, max |C| in metres over
// the scene's rows (never the mouse's pin; World::max_violation(false)).
struct TrajectorySample {
  long step = 0;
  std::array<double, 5> values{};  // t, kinetic, potential, energy, violation
};

inline TrajectorySample trajectory_sample(const State& state, const Energy& energy, double violation) {
  return {state.step, {state.time, energy.kinetic, energy.potential, energy.total(), violation}};
}
inline TrajectorySample trajectory_sample(const World& world) {
  return trajectory_sample(world.state(), world.energy(), world.max_violation());
}

}  // namespace lagrange
