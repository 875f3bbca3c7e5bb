// Editing a scene as data, for the sandbox's editor (and anyone building scenes in code): add and remove particles
// and constraints with the indices kept consistent, move particles with their constraints following, pin and fix,
// set a rod's length, angle and angular velocity, and check the whole scene with the loader's own messages.
// Every function leaves a Scene that write_scene can write; whether it is valid is scene_problem's to say.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "lagrange/scene.h"

namespace lagrange::edit {

// Appends a particle; returns its index.
int add_particle(Scene& scene, Vec3 position, double mass = 1.0, bool fixed = false);
// Appends a rod ("distance" with no "length": its length is read off the particles' positions, so it follows them
// while the scene is edited). Returns its constraint index, or -1 when a == b or a rod already joins them.
int add_rod(Scene& scene, int a, int b);
// Appends an obstacle (contacts.h: a floor or wall is a plane, a box, a peg a circle or sphere); returns its index.
// The scene's "obstacles" array takes it; its coefficients are the scene's unless it has its own.
int add_obstacle(Scene& scene, const Obstacle& obstacle);
// Removes obstacle k (later ones shift down; a saved state's contacts with them are dropped).
void remove_obstacle(Scene& scene, int obstacle);
// The constraint of kind `type` ("distance", ...) joining exactly these particles (in any order), or -1.
int find_constraint(const Scene& scene, std::string_view type, std::span<const int> particles);

// Removes the particles (any order, repeats ignored) and every constraint on them; later indices shift down.
void remove_particles(Scene& scene, std::span<const int> particles);
void remove_constraints(Scene& scene, std::span<const int> constraints);
// The constraints on particle p, in order.
std::vector<int> constraints_on(const Scene& scene, int p);

// Moves the particles by `delta`. What is attached follows as an editor's user expects: a rod with a "length" takes
// the new distance, a pin with a "point" moves with its particle, and a particle on a line or plane slides to the
// foot of its new position on it (a bead stays on its wire).
void move_particles(Scene& scene, std::span<const int> particles, Vec3 delta);
void set_position(Scene& scene, int p, Vec3 position);

// Fixing a particle drops its pins (a pin on a fixed particle is an error); pinning one frees it.
void set_fixed(Scene& scene, int p, bool fixed);
int pin_of(const Scene& scene, int p);  // its pin's constraint index, or -1
void set_pinned(Scene& scene, int p, bool pinned);

// A rod seen from its pivot, in the x–y plane: the angle from straight down (−y), counter-clockwise positive, so a
// bob to the right of its pivot has a positive angle; the angular velocity dθ/dt of the end about the pivot.
struct RodFrame {
  int pivot = -1, end = -1;
  double length = 0.0;        // the distance between them now
  double angle = 0.0;         // rad
  double angular_velocity = 0.0;  // rad/s, of the end relative to the pivot
};
// For a rod ("distance") whose ends are apart in the x–y plane (same z): the pivot is the end nearer, along rods and
// other constraints, to a fixed or pinned particle (a lone rod's first particle when neither reaches one). nullopt
// for any other constraint.
std::optional<RodFrame> rod_frame(const Scene& scene, int constraint);
// The particles that move with a rod's end when its angle is set: the end and everything joined to it except through
// the rod, unless that reaches the pivot or a fixed particle (a closed loop): then the end alone.
std::vector<int> beyond(const Scene& scene, int constraint);
// Sets the angle: the end goes to pivot + L (sin θ, −cos θ, 0) and what lies beyond it moves with it by the same
// displacement (the angles of the rods further out stay as they were, as in a double pendulum's two angles).
void set_rod_angle(Scene& scene, int constraint, double angle);
// Sets dθ/dt: the end's velocity becomes the pivot's plus L ω (cos θ, sin θ, 0) (no radial part), and what lies
// beyond it gains the same change of velocity.
void set_rod_angular_velocity(Scene& scene, int constraint, double angular_velocity);
// Sets the rod's length by moving its end (and what lies beyond) along the rod; a "length" key takes the value.
void set_rod_length(Scene& scene, int constraint, double length);

// "" when `scene` is valid, else the message the loader gives for it: the scene is written (write_scene), read back
// (parse_scene, with `source` as the file name in messages) and built (make_world), exactly as a saved file would
// be opened, so what the editor says is what opening the file would say.
std::string scene_problem(const Scene& scene, const std::string& source, const SceneLimits& limits = {});
// A copy that make_world can build for showing an invalid scene: particles with an unusable mass get 1 kg, and
// constraints with a problem are left out (their indices in `dropped`).
Scene displayable(const Scene& scene, std::vector<int>* dropped = nullptr);

}  // namespace lagrange::edit
