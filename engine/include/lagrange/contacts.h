// What collides, as plain data: the fixed obstacles and the contact settings a scene gives (they belong to the Model,
// like the masses), and the contacts of the last step (they belong to the State, like the positions: rebuilt every
// substep, never part of the model). The app draws obstacles from `Obstacle`, contact points, normals and forces from
// `Contact`, and plots the force on an obstacle with obstacle_force() (measure.h). The physics — the unilateral
// rows C(q) ≥ 0 with λ ≥ 0, the impact law with its time of impact, Coulomb friction — is in docs/physics.md,
// "Contacts".
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "lagrange/types.h"

namespace lagrange {

// The shapes a scene can put in the way. Particles stay on the side a plane's normal points to, inside a box, and
// outside a circle (2D) or sphere (3D).
enum class ObstacleShape {
  Plane,   // through `point` with the unit normal `normal`
  Box,     // the axis-aligned box `min`..`max` (in 2D its z extent is ignored)
  Sphere,  // centre `center`, radius `radius`: "circle" in a 2D scene, "sphere" in 3D
};

struct Obstacle {
  ObstacleShape shape = ObstacleShape::Plane;
  Vec3 point{0.0};               // plane
  Vec3 normal{0.0, 1.0, 0.0};    // plane: as given (any length; used normalized)
  Vec3 min{0.0}, max{0.0};       // box
  Vec3 center{0.0};              // circle / sphere
  double radius = 0.0;           // circle / sphere
  // Its own coefficients; none: the scene's ("contacts"), or 0 when the scene gives none.
  std::optional<double> restitution, friction;
};

// The scene's contact settings: the top-level "contacts" object and "obstacles" array.
struct ContactSettings {
  bool given = false;          // the scene has a "contacts" object (written back only then)
  double restitution = 0.0;    // e in [0, 1]: normal speed after an impact / before; default for every contact
  double friction = 0.0;       // Coulomb μ ≥ 0: |tangential force| ≤ μ · normal force; default for every contact
  bool particles = true;       // particle–particle contacts (only with "contacts" given); false: obstacles only
  std::vector<Obstacle> obstacles;

  // Whether any contact can happen: obstacles, or particles colliding with each other.
  bool any() const { return !obstacles.empty() || (given && particles); }
  bool particle_contacts() const { return given && particles; }
  double restitution_of(const Obstacle& o) const { return o.restitution.value_or(restitution); }
  double friction_of(const Obstacle& o) const { return o.friction.value_or(friction); }
};

// The shape's name in a scene file ("plane", "box", "circle" in 2D, "sphere" in 3D).
const char* obstacle_type_name(ObstacleShape shape, int dimension);
// The problem with an obstacle ("" when none), and the key below the obstacle it is about ("normal", "max[1]", ...):
// a zero normal, a box with min ≥ max on an axis (z ignored in 2D), a radius ≤ 0, non-finite numbers, a z ≠ 0 in 2D,
// coefficients out of range (restitution in [0, 1], friction ≥ 0). `field` is set to the key.
std::string obstacle_problem(const Obstacle& obstacle, int dimension, std::string& field);
// The problem with the scene's contact coefficients ("" when none); `field` is set to the key.
std::string contact_settings_problem(const ContactSettings& settings, std::string& field);

// One contact of the last step, for drawing and measuring: between particle `particle` and either particle `other`
// or obstacle `obstacle`. Rebuilt every substep; a contact is listed when it pushed (an impact, a resting or
// sliding force) in the step's last substep or earlier in the step.
struct Contact {
  int particle = -1;
  int other = -1;       // the other particle, or -1
  int obstacle = -1;    // the obstacle's index in ContactSettings::obstacles, or -1
  int face = 0;         // which face of a box (0..5: -x, +x, -y, +y, -z, +z); 0 otherwise
  Vec3 point{0.0};      // where it touches: on `particle`'s surface
  Vec3 normal{0.0};     // unit, pointing towards `particle` (the direction the contact pushes it)
  Vec3 impulse{0.0};    // N·s on `particle` over the step: impacts, resting and friction forces (the other body
                        // gets the opposite); impulse / dt is the mean force over the step
  double lambda = 0.0;  // the normal multiplier of its last substep, N·s² (position level; the next substep starts
                        // from it)
  Vec3 lambda_t{0.0};   // the friction multiplier of its last substep, N·s²
  bool impact = false;  // its normal speed jumped in this step (restitution)
  bool active = false;  // it pushed in the step's last substep
};

// What a state carries about contacts: the last step's contacts and, per obstacle, the impulse it took over the step.
struct ContactState {
  std::vector<Contact> contacts;       // sorted by (particle, other, obstacle, face)
  std::vector<Vec3> obstacle_impulse;  // N·s on obstacle k over the last step (what the particles pushed on it)
  double step_time = 0.0;              // the duration those impulses were gathered over (s): the last step's dt
  int impacts = 0;                     // impacts in the last step
};

}  // namespace lagrange
