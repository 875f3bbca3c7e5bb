// Standard scenes built in code: the one place for chains and cloth, used by scene-file generators, tests,
// the benchmark and the app. Invalid defs throw Error("FIELD: PROBLEM"), FIELD being the member's name (which is
// also the generator's key in a scene file).
#pragma once

#include "lagrange/scene.h"

namespace lagrange {

struct ChainDef {
  int links = 10;
  double link_length = 1.0;
  double particle_mass = 1.0;
  Vec3 anchor{0.0};
  Vec3 direction{1.0, 0.0, 0.0};  // links start along this (unit) direction: horizontal = released horizontally
  bool fixed_anchor = true;       // particle 0 fixed (true) or pinned with a PinConstraint (false)
  // >= 0: hang the chain from this existing particle instead (anchor and fixed_anchor are then ignored): the chain
  // starts at its position and only `links` particles are appended.
  int anchor_particle = -1;
};
// Appends links + 1 particles and `links` rods (plus a pin when !fixed_anchor). Returns the first particle's index
// (anchor_particle when set). Throws Error for an invalid def (links < 1, non-positive length or mass, ...).
int append_chain(Scene& scene, const ChainDef& def);

struct ClothDef {
  int nx = 16, ny = 16;      // particles per side
  double spacing = 0.1;
  double particle_mass = 0.01;
  Vec3 origin{0.0};          // position of corner (0, 0)
  Vec3 u{1.0, 0.0, 0.0};     // direction of the first index
  Vec3 v{0.0, 0.0, 1.0};     // direction of the second index
  bool shear = false;        // add diagonal rods
  bool triangulate = false;  // add one diagonal per cell, (i, j)–(i+1, j+1): a triangulated sheet (not with shear)
  double shear_compliance = 0.0;  // m/N of the diagonals (shear or triangulate): 0 rigid; > 0 a cloth that shears
  bool bend = false;         // add bending rods, each joining a grid point to the next but one along u and along v
  double bend_compliance = 0.0;   // m/N of the bending rods: 0 rigid (a stiff sheet), > 0 a cloth that folds softly
  // corners pinned (fixed particles): top-left (0,0) and top-right (nx-1, 0)
  bool pin_two_corners = true;
};
// Appends nx * ny particles, index first + i + nx * j for grid point (i, j), and the rods: (nx − 1) ny along u,
// nx (ny − 1) along v, plus 2 (nx − 1)(ny − 1) diagonals with shear or (nx − 1)(ny − 1) with triangulate, plus (nx − 2) ny + nx (ny − 2) bending rods
// (length 2 spacing) with bend; diagonals and bending rods carry their compliance. A rod between two fixed particles is skipped
// (nothing could move it). u and v are normalized. Returns the first particle's index. Throws Error for an invalid
// def (nx or ny < 2, non-positive spacing or mass, parallel u and v, ...).
int append_cloth(Scene& scene, const ClothDef& def);

}  // namespace lagrange
