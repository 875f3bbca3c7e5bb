// Turns a world into draw lists: particle spheres, rods coloured by tension or length error, pins, the ground grid,
// force arrows, trails and the drag gizmo. Also the colour maps the legend shows.
#pragma once

#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include <span>
#include <vector>

#include "lagrange/measure.h"
#include "lagrange/scene.h"
#include "lagrange/world.h"
#include "state/sandbox_state.h"
#include "window/renderer.h"
#include "window/theme.h"

namespace lagrange::app {

// Median rest length of the rods, or a tenth of the scene's size when it has none.
double typical_length(const World& world);
// Radius of a particle of median mass: from the rod lengths and the scene's size. Computed once per scene.
double bead_radius(const World& world);
// Radius each particle is drawn with: the file's radius, or `base` scaled by the cube root of its mass (always
// from the mass when size_by_mass).
std::vector<double> display_radii(const Scene& scene, const World& world, bool size_by_mass, double base);
// The file's colour, or one from a palette. Radius and colour are the scene's (the engine keeps only physics).
glm::vec3 particle_colour(const Scene& scene, int index);

// Rod colour for a constraint force (negative: tension) relative to `scale` newtons, in the theme's colour map.
glm::vec4 tension_colour(double force, double scale, Theme theme = Theme::Dark);
// Rod colour for a relative length error |C| / L.
glm::vec4 error_colour(double relative_error, Theme theme = Theme::Dark);

// Box the scene can reach (measure.h, reach_bounds).
void reach_bounds(const World& world, glm::dvec3& lo, glm::dvec3& hi);
// Whether lane k (0: lane 1) is drawn at lane 1's scale: its reach is within twice lane 1's. A lane that drifted far
// or blew up is not, and never shrinks lane 1's picture.
bool lane_in_scale(const SandboxState& state, std::size_t k);
// The box lane view `view` is framed on and its overlays keep clear of: side by side, its own lane's reach;
// overlaid, lane 1's reach with every lane in scale.
void view_reach(const SandboxState& state, std::size_t view, glm::dvec3& lo, glm::dvec3& hi);

// A circle of `sides` segments, `width` pixels wide, around `centre` in the plane facing the camera (view_dir).
void add_ring(std::vector<SegmentInstance>& out, Vec3 centre, double radius, glm::dvec3 view_dir, glm::vec4 colour,
              float width, int sides = 20);
// An arrow from `from` along `vector` (a shaft and a two-stroke head in the plane facing the camera), `width` pixels
// wide: forces, contact normals, the step view's corrections.
void add_arrow(std::vector<SegmentInstance>& out, Vec3 from, Vec3 vector, glm::dvec3 view_dir, glm::vec4 colour,
               float width = 2.5f);

// The grid's minor step in metres for the current view (a 1-2-5 step, about a tenth of the view in 2D): the grid
// drawn and the editor's snapping.
double grid_step(const SandboxState& state, std::size_t lane = 0);  // lane: whose view (split lanes)

// Where a plane obstacle is drawn: in a 2D view, its trace foot ± half·u across the whole view; in 3D a square
// foot ± half·u ± half·v around the scene's middle (n × u = v). Drawing and picking share it.
struct PlanePatch {
  Vec3 foot{0.0}, u{0.0}, v{0.0};
  double half = 0.0;
  // 2D: the stretch of the line drawn, foot + t u for t in [from, to]: the part on the free side of every other
  // plane (a ramp onto a floor is drawn as the two surfaces a particle can touch, not as a cross of two lines), or
  // the whole line, [−half, half], when no part of it is (a plane the others hide stays visible).
  double from = 0.0, to = 0.0;
};
PlanePatch plane_patch(const Camera& camera, const World& world, const Obstacle& plane);

// A slack cable's curve from a to b: the catenary under gravity whose arc is `length` (straight when the chord is as
// long; a vertical chord folds to one side as a parabola), as `pieces` + 1 points from a to b, evenly spaced across.
std::vector<Vec3> cable_curve(Vec3 a, Vec3 b, double length, Vec3 gravity, int pieces);

// A rod: its kind's role is KindRole::Rod (how it is drawn is the drawing hint's to say).
bool is_rod(const Constraint& constraint);

// The draw list of lane `lane` (0: lane 1, SandboxState::world; k: state.lanes[k − 1]). Lane 1's list carries the
// other lanes as ghosts when they are overlaid.
// The Matrix section's highlight of a rod (a dependent row; the row under the pointer in its heat map): the same
// orange as the dependent rows' mark in the panel and in `matrix --out FILE.png`.
inline constexpr glm::vec4 kMatrixHighlight{0.94f, 0.55f, 0.08f, 1.0f};
void build_draw_list(const SandboxState& state, std::span<const double> radii, DrawList& list, int lane = 0);

}  // namespace lagrange::app
