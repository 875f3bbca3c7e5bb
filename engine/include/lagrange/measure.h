// Measurements of a state against its model: energies, constraint errors, forces, how far the scene can reach.
// Free functions, so they serve a World, a copied state, a lane or a saved file alike. Tool rows (the mouse) are
// the hand's, not the scene's: the violations and the spring energy skip them.
#pragma once

#include "lagrange/diagnostics.h"
#include "lagrange/model.h"

namespace lagrange {

// Kinetic energy and the potential: gravity, plus spring_energy().
Energy energy(const Model& model, const State& state);
// ½ C²/α for every compliant row, and ½ k C² for the rigid rows while the model's solver treats them as springs
// (penalty).
double spring_energy(const Model& model, const State& state);

struct Violation {
  double absolute = 0.0;  // max |C| (length units)
  double relative = 0.0;  // max |C| / length scale
  double velocity = 0.0;  // max |J v| (m/s)
};
// Over the scene's rigid rows (not the mouse's, not compliant ones: a spring's stretch is not an error); a NaN
// anywhere shows as NaN.
Violation violation(const Model& model, const State& state);

// The constraint force on one particle from the last substep's row forces: Σ_r row_force[r] ∇_p C_r.
Vec3 constraint_force(const Model& model, const State& state, int particle);

// A box the scene can reach: every particle's position, widened by how far it can swing (along rods, capped by the
// straight distance) from its nearest anchor (a fixed particle, or one held by a pin, a wire or a plane). Frames the
// view.
void reach_bounds(const Model& model, const State& state, Vec3& lo, Vec3& hi);

}  // namespace lagrange
