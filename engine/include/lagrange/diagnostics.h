// What a world reports after every step.
#pragma once

#include <vector>

namespace lagrange {

struct Energy {
  double kinetic = 0.0;
  double potential = 0.0;  // gravity, plus the springs' energy under the penalty solver
  double total() const { return kinetic + potential; }
};

// Work done on the scene from outside, accumulated since the world was made (World::work()). With it the energy
// balance E − E₀ = W_mouse + W_damping + drift separates the solver's drift from what the hand and the dampers did.
struct Work {
  double mouse = 0.0;    // J: by tool rows (the mouse's pin), and by posing (World::pose)
  double damping = 0.0;  // J (≤ 0): by air drag (Settings::damping), penalty spring_damping, compliant rows' damping
  // J: by contacts and cables — their impacts (restitution below 1 loses ½ μ (1 − e²) u_n²), friction, and the contact rows'
  // forces (a resting contact does none; one that stops an approach, or a string snapping taut, takes its kinetic energy). ≤ 0 but for rounding.
  double contacts = 0.0;
  double total() const { return mouse + damping + contacts; }
};

struct StepStats {
  Energy energy;
  double max_violation = 0.0;           // max |C| over all rows, length units (after the step)
  double max_relative_violation = 0.0;  // max |C| / length scale
  double max_velocity_violation = 0.0;  // max |J v| (m/s)
  int iterations = 0;                   // iterates evaluated (projection) or sweeps, summed over the substeps
  int substeps = 0;
  double solve_seconds = 0.0;           // wall time of the step
  int recoveries = 0;       // substeps whose linearization lost its real solution and were re-linearized or split
  int failures = 0;         // substeps that ended above tolerance (reported, never hidden)
  int fallbacks = 0;        // SHAKE or RATTLE substeps still lost after their recovery, done again by projection
  int dependent_rows = 0;   // redundant or contradictory rows dropped from the last linear solve
  int held = 0;             // substeps in which rigid rods lying flat or straight (a flat sheet, a taut edge) could not
                            // follow the step and were held where they were (projection; docs/physics.md, "Flat
                            // sheets")
  bool non_finite = false;  // a NaN or infinity appeared and the substep was rolled back
};

}  // namespace lagrange
