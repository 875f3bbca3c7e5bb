// Measurements of a state against its model: energies, constraint errors, forces, how far the scene can reach.
// Free functions, so they serve a World, a copied state, a lane or a saved file alike. Tool rows (the mouse) are
// the hand's, not the scene's: the violations and the spring energy skip them.
#pragma once

#include <limits>
#include <string>

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
// anywhere shows as NaN. A unilateral row (a cable) counts only past its bound (a cable longer than its length), and
// its J v only while it is at its bound and moving past it.
Violation violation(const Model& model, const State& state);

// --- contacts (contacts.h) ----------------------------------------------------------------------------------------
// The mean contact force on obstacle k over the last step, in newtons: what the particles pushed on it (a table
// under a chain reads its weight as a downward force), impacts and friction included. Zero before the first step and
// for a k out of range.
Vec3 obstacle_force(const State& state, int obstacle);
// The contacts that pushed in the last step (State::contacts), and how many of them were impacts.
int contact_count(const State& state);
// The smallest gap of any pair of particles that collide (|x_i − x_j| − r_i − r_j, over the pairs contacts would
// check: those not joined by a constraint) and of any particle to any obstacle, relative to the radius it is
// measured against (the larger of the two radii; 1 m for a point). Negative: an overlap. +∞ without contacts. The pairs
// by sweep and prune along the widest axis (about n log n for a pile or a gas; n² for particles stacked on that axis):
// a check for tests and tools, not for every frame of a large scene.
double worst_overlap(const Model& model, const State& state);
// The same, with where: the gap (as worst_overlap), the particle, and the other particle or the obstacle (−1 for
// none). A loaded scene whose particles start overlapping is told of it (the first substep moves them apart, in
// position only).
struct Overlap {
  double gap = std::numeric_limits<double>::infinity();
  int particle = -1, other = -1, obstacle = -1;
};
Overlap deepest_overlap(const Model& model, const State& state);
// A sentence for a state whose particles start deeper than 1e-6 of a radius in another or in an obstacle (empty when
// none do): which, how deep, and that the first substep moves them apart, in position only.
std::string overlap_note(const Model& model, const State& state);
// How slack a cable or any unilateral row is: for a cable L − |x_a − x_b| (0 when taut), in metres; 0 for rows that
// are not unilateral. The app draws a slack cable sagging.
double slack(const Model& model, const State& state, int constraint);

// The constraint force on one particle from the last substep's row forces: Σ_r row_force[r] ∇_p C_r.
// With `only` ≥ 0: that constraint's force alone (a pin's pull on the particle it holds).
Vec3 constraint_force(const Model& model, const State& state, int particle, int only = -1);

// A box the scene can reach: every particle's position, widened by how far it can swing (along rods, capped by the
// straight distance) from its nearest anchor (a fixed particle, or one held by a pin, a wire or a plane), and every
// obstacle (a plane's point, a box, a circle or sphere). Frames the view.
void reach_bounds(const Model& model, const State& state, Vec3& lo, Vec3& hi);

}  // namespace lagrange
