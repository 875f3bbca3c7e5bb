#include "view/scene_draw.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <queue>

namespace lagrange::app {
namespace {

glm::vec3 to_f(const Vec3& v) { return glm::vec3(v); }

double nice_step(double raw) {
  const double decade = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * decade >= raw) return m * decade;
  return 10.0 * decade;
}

void add_segment(std::vector<SegmentInstance>& out, Vec3 a, Vec3 b, float width, glm::vec4 colour, float bias = 0) {
  out.push_back({to_f(a), width, to_f(b), bias, colour});
}



}  // namespace

void add_arrow(std::vector<SegmentInstance>& out, Vec3 from, Vec3 vector, glm::dvec3 view_dir, glm::vec4 colour,
               float width) {
  const double length = glm::length(vector);
  if (!(length > 1e-12)) return;
  const Vec3 dir = vector / length;
  Vec3 side = glm::cross(dir, view_dir);
  if (glm::length(side) < 1e-6) side = glm::cross(dir, Vec3(0.0, 0.0, 1.0));
  side = glm::normalize(side);
  const Vec3 tip = from + vector;
  const double head = std::min(0.3 * length, 0.15 * length + 0.02);
  for (const Vec3& end : {from, tip - dir * head + side * head * 0.5, tip - dir * head - side * head * 0.5})
    out.push_back({glm::vec3(end), width, glm::vec3(tip), 0.0f, colour});
}

double grid_step(const SandboxState& state, std::size_t lane) {
  const Camera& camera = state.view_camera(lane);
  if (!camera.perspective) return nice_step(camera.half_height / 5.0);
  glm::dvec3 lo, hi;
  reach_bounds(state.lane_world(lane), lo, hi);
  return nice_step((std::max(hi.x - lo.x, hi.z - lo.z) * 1.5 + 1.0) / 8.0);
}

namespace {

void add_grid(const SandboxState& state, std::size_t lane, DrawList& list) {
  const Camera& camera = state.view_camera(lane);
  const Palette& colours = palette(state.appearance.theme);
  const glm::vec4 minor = colours.grid_minor, major = colours.grid_major, axis = colours.grid_axis;
  if (!camera.perspective) {
    const double aspect = static_cast<double>(camera.width()) / camera.height();
    const double hw = camera.half_height * aspect, hh = camera.half_height;
    const double step = grid_step(state, lane);
    const double x0 = std::floor((camera.centre.x - hw) / step), x1 = std::ceil((camera.centre.x + hw) / step);
    const double y0 = std::floor((camera.centre.y - hh) / step), y1 = std::ceil((camera.centre.y + hh) / step);
    const double z = -1.0;
    for (double i = x0; i <= x1; ++i) {
      const long k = std::lround(i);
      add_segment(list.under, {i * step, y0 * step, z}, {i * step, y1 * step, z}, 1.0f,
                  k == 0 ? axis : (k % 5 == 0 ? major : minor));
    }
    for (double j = y0; j <= y1; ++j) {
      const long k = std::lround(j);
      add_segment(list.under, {x0 * step, j * step, z}, {x1 * step, j * step, z}, 1.0f,
                  k == 0 ? axis : (k % 5 == 0 ? major : minor));
    }
    return;
  }
  glm::dvec3 lo, hi;
  reach_bounds(state.world(), lo, hi);
  const glm::dvec3 middle = 0.5 * (lo + hi);
  const double half = std::max(hi.x - lo.x, hi.z - lo.z) * 1.5 + 1.0;
  const double step = grid_step(state, lane);
  const double x0 = std::floor((middle.x - half) / step), x1 = std::ceil((middle.x + half) / step);
  const double z0 = std::floor((middle.z - half) / step), z1 = std::ceil((middle.z + half) / step);
  const double y = state.ground_y;
  for (double i = x0; i <= x1; ++i)
    add_segment(list.under, {i * step, y, z0 * step}, {i * step, y, z1 * step}, 1.0f,
                std::lround(i) % 5 == 0 ? major : minor);
  for (double j = z0; j <= z1; ++j)
    add_segment(list.under, {x0 * step, y, j * step}, {x1 * step, y, j * step}, 1.0f,
                std::lround(j) % 5 == 0 ? major : minor);
}

}  // namespace

bool is_rod(const Constraint& constraint) { return has_role(constraint, KindRole::Rod); }


double typical_length(const World& world) {
  std::vector<double> lengths;
  for (const auto& c : world.constraints())
    if (is_rod(*c)) lengths.push_back(c->length());
  if (!lengths.empty()) {
    std::nth_element(lengths.begin(), lengths.begin() + lengths.size() / 2, lengths.end());
    return lengths[lengths.size() / 2];
  }
  glm::dvec3 lo(std::numeric_limits<double>::infinity()), hi(-std::numeric_limits<double>::infinity());
  for (const Vec3& p : world.state().position) {
    lo = glm::min(lo, p);
    hi = glm::max(hi, p);
  }
  const double size = world.particle_count() > 1 ? glm::length(hi - lo) : 1.0;
  return std::max(size / 10.0, 0.05);
}

double bead_radius(const World& world) {
  glm::dvec3 lo, hi;
  reach_bounds(world, lo, hi);
  const double median = typical_length(world);
  // Big enough to see and grab in a large scene, small enough that beads on a typical rod stay apart.
  // Dense meshes (cloth) get small beads so the rods and their colours stay visible.
  const double cap = world.particle_count() > 100 ? 0.2 * median : 0.3 * median;
  return std::max(std::min(std::max(0.16 * median, 0.012 * glm::length(hi - lo)), cap), 1e-4);
}

std::vector<double> display_radii(const Scene& scene, const World& world, bool size_by_mass, double base) {
  const Model& p = world.model();
  std::vector<double> masses;
  for (std::size_t i = 0; i < p.particle_count(); ++i)
    if (!p.fixed(i)) masses.push_back(p.mass(i));
  double reference = 1.0;
  if (!masses.empty()) {
    std::nth_element(masses.begin(), masses.begin() + masses.size() / 2, masses.end());
    reference = masses[masses.size() / 2];
  }
  std::vector<double> radii(p.particle_count());
  // In a scene with contacts a radius is the particle's size in the physics: always drawn as it is, and a particle
  // without one (an anchor) no larger than the median of those given (a cradle's anchors stay apart).
  const bool collide = p.contacts().any();
  if (collide) {
    std::vector<double> given;
    for (const ParticleDef& def : scene.particles)
      if (def.radius > 0.0) given.push_back(def.radius);
    if (!given.empty()) {
      std::nth_element(given.begin(), given.begin() + given.size() / 2, given.end());
      base = std::min(base, given[given.size() / 2]);
    }
  }
  for (std::size_t i = 0; i < p.particle_count(); ++i) {
    const double radius = i < scene.particles.size() ? scene.particles[i].radius : 0.0;
    if ((!size_by_mass || collide) && radius > 0.0) {
      radii[i] = radius;
    } else if (p.fixed(i)) {
      radii[i] = base;
    } else {
      radii[i] = base * std::clamp(std::cbrt(p.mass(i) / reference), 0.4, 3.0);
    }
  }
  return radii;
}

glm::vec3 particle_colour(const Scene& scene, int index) {
  if (index >= 0 && static_cast<std::size_t>(index) < scene.particles.size() && scene.particles[index].has_colour) {
    const Colour c = scene.particles[index].colour;
    return {c.r, c.g, c.b};
  }
  static constexpr glm::vec3 kPalette[] = {
      {0.30f, 0.62f, 0.98f}, {0.98f, 0.55f, 0.25f}, {0.45f, 0.82f, 0.45f}, {0.92f, 0.38f, 0.50f},
      {0.70f, 0.52f, 0.95f}, {0.95f, 0.82f, 0.30f}, {0.35f, 0.82f, 0.82f}, {0.85f, 0.85f, 0.88f}};
  if (scene.particles.size() > 8) return kPalette[0];  // chains and cloth read better in one colour
  return kPalette[index % 8];
}

glm::vec4 tension_colour(double force, double scale, Theme theme) {
  const float t = static_cast<float>(std::clamp(std::abs(force) / std::max(scale, 1e-12), 0.0, 1.0));
  const Palette& colours = palette(theme);
  const glm::vec3 neutral = colours.rod_neutral;
  if (force < 0.0) {  // tension: warm
    const glm::vec3 mid = colours.tension_mid, full = colours.tension_full;
    return glm::vec4(t < 0.5f ? glm::mix(neutral, mid, t * 2.0f) : glm::mix(mid, full, t * 2.0f - 1.0f), 1.0f);
  }
  const glm::vec3 mid = colours.compression_mid, full = colours.compression_full;  // compression: cool
  return glm::vec4(t < 0.5f ? glm::mix(neutral, mid, t * 2.0f) : glm::mix(mid, full, t * 2.0f - 1.0f), 1.0f);
}

glm::vec4 error_colour(double relative_error, Theme theme) {
  // log10 |C|/L from 1e-12 (green) to 1e-2 (red).
  const double e = std::log10(std::max(relative_error, 1e-16));
  const float t = static_cast<float>(std::clamp((e + 12.0) / 10.0, 0.0, 1.0));
  const Palette& colours = palette(theme);
  const glm::vec3 good = colours.error_good, mid = colours.error_mid, bad = colours.error_bad;
  return glm::vec4(t < 0.5f ? glm::mix(good, mid, t * 2.0f) : glm::mix(mid, bad, t * 2.0f - 1.0f), 1.0f);
}

void add_ring(std::vector<SegmentInstance>& out, Vec3 centre, double radius, glm::dvec3 view_dir, glm::vec4 colour,
              float width, int sides) {
  Vec3 u = glm::cross(view_dir, Vec3(0.0, 1.0, 0.0));
  if (glm::length(u) < 1e-6) u = Vec3(1.0, 0.0, 0.0);
  u = glm::normalize(u);
  const Vec3 v = glm::normalize(glm::cross(u, view_dir));
  for (int k = 0; k < sides; ++k) {
    const double a0 = 2.0 * M_PI * k / sides, a1 = 2.0 * M_PI * (k + 1) / sides;
    add_segment(out, centre + radius * (std::cos(a0) * u + std::sin(a0) * v),
                centre + radius * (std::cos(a1) * u + std::sin(a1) * v), width, colour);
  }
}

void reach_bounds(const World& world, glm::dvec3& lo, glm::dvec3& hi) {
  lagrange::reach_bounds(world.model(), world.state(), lo, hi);
}

bool lane_in_scale(const SandboxState& state, std::size_t k) {
  const auto size = [&](std::size_t lane) {
    glm::dvec3 lo, hi;
    reach_bounds(state.lane_world(lane), lo, hi);
    return glm::length(hi - lo);
  };
  return k == 0 || (k < state.lane_count() && size(k) <= 2.0 * size(0));
}

void view_reach(const SandboxState& state, std::size_t view, glm::dvec3& lo, glm::dvec3& hi) {
  const bool split = state.lane_view == LaneView::Split && state.lane_count() > 1;
  reach_bounds(state.lane_world(split ? view : 0), lo, hi);
  if (split) return;
  for (std::size_t k = 1; k < state.lane_count(); ++k)
    if (lane_in_scale(state, k)) {
      glm::dvec3 a, b;
      reach_bounds(state.lane_world(k), a, b);
      lo = glm::min(lo, a);
      hi = glm::max(hi, b);
    }
}

namespace {

glm::vec4 lane_rgba(const SandboxState& state, int lane, float alpha) {
  const Colour c = lane_colour(state.lane_specs(), lane);
  return {c.r, c.g, c.b, alpha};
}

// The two ends a rod is drawn between: its particles, or with exaggeration k its length error |d| − L magnified k
// times about its middle (a rod 1 cm too long drawn 1 m too long at k = 100: it pokes out of its beads), between 0
// and 3 L.
std::pair<Vec3, Vec3> drawn_ends(Vec3 a, Vec3 b, double rest, int exaggeration) {
  if (exaggeration <= 1 || !(rest > 0.0)) return {a, b};
  const double d = glm::length(b - a);
  if (!(d > 1e-300)) return {a, b};
  const Vec3 middle = 0.5 * (a + b), along = (b - a) / d;
  // At most three rest lengths: a rod that drifted by half its length is not drawn 50 lengths long at ×100.
  const double drawn = std::clamp(rest + exaggeration * (d - rest), 0.0, 3.0 * rest);
  return {middle - 0.5 * drawn * along, middle + 0.5 * drawn * along};
}

// Beside the rod, a few pixels off to the side on screen: a thin line of the rod's rest length, centred on it.
void add_rest_ghost(const Camera& camera, Vec3 a, Vec3 b, double rest, float rod_width, glm::vec4 colour,
                    std::vector<SegmentInstance>& out) {
  const double d = glm::length(b - a);
  if (!(d > 1e-300) || !(rest > 0.0)) return;
  const Vec3 middle = 0.5 * (a + b), along = (b - a) / d;
  Vec3 side = glm::cross(along, camera.forward());
  if (glm::length(side) < 1e-9) return;  // a rod seen end on
  side = glm::normalize(side) * ((rod_width + 4.0) / std::max(camera.pixels_per_unit(middle), 1e-12));
  add_segment(out, middle + side - 0.5 * rest * along, middle + side + 0.5 * rest * along, 1.5f,
              colour);
}

// Trails, oldest faint.
void add_trails(const SandboxState& state, const std::vector<Trail>& trails, DrawList& list) {
  const Palette& colours = palette(state.appearance.theme);
  for (const Trail& trail : trails) {
    const glm::vec3 c = particle_colour(state.scene, trail.particle);
    const std::size_t n = trail.points.size();
    for (std::size_t k = 1; k < n; ++k) {
      const float age = static_cast<float>(k) / static_cast<float>(n);
      add_segment(list.under, trail.points[k - 1], trail.points[k], 2.0f, glm::vec4(glm::mix(c, colours.trail_mix, 0.3f), 0.85f * age));
    }
  }
}

// The view's rod width, or when it is on auto, thinner rods for a scene of many (a cloth) and in perspective.
float rod_width(const SandboxState& state, const World& world) {
  std::size_t rod_count = 0;
  for (const auto& c : world.constraints()) rod_count += is_rod(*c) ? 1 : 0;
  float width = state.view.rod_width;
  if (width <= 0.0f)
    width = state.camera.perspective ? (rod_count > 200 ? 1.5f : 3.5f) : (rod_count > 200 ? 2.0f : 5.0f);
  return width;
}

void add_rod(const SandboxState& state, const Camera& camera, const World& world, const Constraint& constraint,
             int index, float width, DrawList& list) {
  const State& p = world.state();
  const auto& forces = world.state().row_force;
  const Theme theme = state.appearance.theme;
  const Palette& colours = palette(theme);
  const auto ids = constraint.particles();
  glm::vec4 colour(colours.rod_neutral, 1.0f);
  if (state.view.rod_colouring == RodColouring::Tension) {
    const std::size_t r = static_cast<std::size_t>(world.model().row_offset(index));
    colour = tension_colour(r < forces.size() ? forces[r] : 0.0, state.force_scale, theme);
  } else if (state.view.rod_colouring == RodColouring::LengthError) {
    colour = error_colour(std::abs(constraint.value(0, p.position)) / constraint.length_scale(0), theme);
  }
  const bool hovered = state.hover.kind == Hover::Kind::Rod && state.hover.index == index;
  // The Matrix section's highlight (a dependent row, the row under the pointer): orange, wider, on lane 1.
  const std::vector<int>& marked = state.matrix.highlighted;
  const bool highlighted =
      &world == &state.world() && std::find(marked.begin(), marked.end(), index) != marked.end();
  if (highlighted) colour = kMatrixHighlight;
  const double rest = constraint.length_scale(0);
  const auto [a, b] = drawn_ends(p.position[ids[0]], p.position[ids[1]], rest, state.view.error_exaggeration);
  add_segment(list.segments, a, b, hovered || highlighted ? width + 3.0f : width,
              hovered ? glm::mix(colour, glm::vec4(1.0f, 0.95f, 0.55f, 1.0f), 0.5f) : colour);
  if (state.view.rest_ghosts)  // the grid's axis colour, strong: white-ish on dark, dark on light
    add_rest_ghost(camera, p.position[ids[0]], p.position[ids[1]], rest, width,
                   glm::vec4(glm::vec3(colours.grid_axis), 0.85f), list.segments);
}

// A Point hint: the mouse's own pin (either drag model) as a line to the particle and a small ring, a scene pin as a
// yellow ring and cross-hair around the point.
void add_pin(const SandboxState& state, Vec3 held_at, const Drawing& drawing, double r, bool mouse, DrawList& list) {
  const Palette& colours = palette(state.appearance.theme);
  const glm::dvec3 view_dir = state.camera.forward();
  const glm::vec4 colour = colours.pin;
  if (mouse) {
    add_segment(list.over, held_at, drawing.point, 2.0f, colours.drag);
    add_ring(list.over, drawing.point, r * 0.5, view_dir, colours.drag, 2.0f);
    return;
  }
  add_ring(list.over, drawing.point, r * 1.45, view_dir, colour, 2.5f);
  const Vec3 u = glm::normalize(glm::cross(view_dir, glm::length(glm::cross(view_dir, Vec3(0, 1, 0))) > 1e-6 ? Vec3(0, 1, 0) : Vec3(1, 0, 0)));
  const Vec3 v = glm::normalize(glm::cross(u, view_dir));
  add_segment(list.over, drawing.point - u * r * 1.9, drawing.point - u * r * 1.1, 2.5f, colour);
  add_segment(list.over, drawing.point + u * r * 1.1, drawing.point + u * r * 1.9, 2.5f, colour);
  add_segment(list.over, drawing.point - v * r * 1.9, drawing.point - v * r * 1.1, 2.5f, colour);
  add_segment(list.over, drawing.point + v * r * 1.1, drawing.point + v * r * 1.9, 2.5f, colour);
}

// A Line hint, the wire: a long thin line under the scene, through the bead.
void add_wire(const SandboxState& state, Vec3 held_at, const Drawing& drawing, DrawList& list) {
  const glm::vec4 colour = palette(state.appearance.theme).pin;
  const double reach = 40.0 * state.length_scale + glm::length(held_at - drawing.point);
  const Vec3 centre = drawing.point + glm::dot(held_at - drawing.point, drawing.axis) * drawing.axis;
  add_segment(list.under, centre - reach * drawing.axis, centre + reach * drawing.axis, 2.5f,
              glm::vec4(glm::vec3(colour) * 0.85f, 0.9f));
}

// A Plane hint: a square of grid lines in the plane, centred on the particle's foot point (one set of lines in 2D,
// where the plane is seen edge on).
void add_plane(const SandboxState& state, const Model& model, Vec3 held_at, const Drawing& drawing, DrawList& list) {
  const glm::vec4 colour = palette(state.appearance.theme).pin;
  const Vec3 n = drawing.axis;
  const Vec3 foot = held_at - glm::dot(held_at - drawing.point, n) * n;
  Vec3 u = glm::cross(n, Vec3(0.0, 0.0, 1.0));
  if (glm::length(u) < 1e-6) u = glm::cross(n, Vec3(1.0, 0.0, 0.0));
  u = glm::normalize(u);
  const Vec3 v = glm::cross(n, u);
  const double half = 1.5 * state.length_scale;
  const glm::vec4 line = glm::vec4(glm::vec3(colour) * 0.85f, 0.3f);
  for (int k = -4; k <= 4; ++k) {
    const double t = half * k / 4.0;
    add_segment(list.under, foot + t * u - half * v, foot + t * u + half * v, 1.5f, line);
    if (model.dimension() == 3) add_segment(list.under, foot - half * u + t * v, foot + half * u + t * v, 1.5f, line);
  }
}

}  // namespace

std::vector<Vec3> cable_curve(Vec3 a, Vec3 b, double length, Vec3 gravity, int pieces) {
  std::vector<Vec3> points(static_cast<std::size_t>(pieces) + 1);
  const Vec3 chord = b - a;
  const double c = glm::length(chord);
  for (int k = 0; k <= pieces; ++k) points[static_cast<std::size_t>(k)] = a + (static_cast<double>(k) / pieces) * chord;
  if (!(length > c && c > 1e-12)) return points;  // taut (or both ends together): the chord
  const Vec3 up = glm::length(gravity) > 0.0 ? -glm::normalize(gravity) : Vec3(0.0, 1.0, 0.0);
  const double rise = glm::dot(chord, up);  // Y: how much higher b is than a
  const Vec3 level = chord - rise * up;     // the chord's horizontal part
  const double span = glm::length(level);   // X
  if (span > 1e-3 * c) {
    // A hanging string is a catenary, y = a cosh((x − x0)/a) + C, through (0, 0) and (X, Y) with arc L:
    // L² − Y² = (2a sinh(X/2a))², x0 = X/2 − a atanh(Y/L); written y = 2a sinh(x/2a) sinh((x − 2x0)/2a), which
    // loses no digits when the string is barely slack (a large).
    const double ratio = std::sqrt(length * length - rise * rise) / span;  // sinh(u)/u with u = X / 2a, > 1
    double low = 0.0, high = 1.0;
    while (std::sinh(high) / high < ratio && high < 700.0) high *= 2.0;
    for (int iteration = 0; iteration < 100; ++iteration) {
      const double middle = 0.5 * (low + high);
      (middle > 0.0 && std::sinh(middle) / middle < ratio ? low : high) = middle;
    }
    const double u = 0.5 * (low + high), scale = span / (2.0 * u);
    const double x0 = 0.5 * span - scale * std::atanh(rise / length);
    const Vec3 along = level / span;
    for (int k = 0; k <= pieces; ++k) {
      const double x = span * k / pieces;
      const double y = 2.0 * scale * std::sinh(x / (2.0 * scale)) * std::sinh((x - 2.0 * x0) / (2.0 * scale));
      points[static_cast<std::size_t>(k)] = a + x * along + y * up;
    }
    points.back() = b;
    return points;
  }
  // A vertical chord: the string folds to one side, drawn as the parabola over the chord whose arc is L (its sag s:
  // with k = 4 s / c the arc is (c / 2) (sqrt(1 + k²) + asinh(k) / k), which grows with s; bisection finds s).
  const auto arc = [c](double s) {
    const double k = 4.0 * s / c;
    return k < 1e-9 ? c : 0.5 * c * (std::sqrt(1.0 + k * k) + std::asinh(k) / k);
  };
  double low = 0.0, high = length;
  for (int iteration = 0; iteration < 60; ++iteration) {
    const double middle = 0.5 * (low + high);
    (arc(middle) < length ? low : high) = middle;
  }
  const double sag = 0.5 * (low + high);
  const Vec3 along = chord / c;
  Vec3 side = glm::cross(along, Vec3(0.0, 0.0, 1.0));
  if (glm::length(side) < 1e-6) side = glm::cross(along, Vec3(1.0, 0.0, 0.0));
  side = glm::normalize(side);
  for (int k = 0; k <= pieces; ++k) {
    const double t = static_cast<double>(k) / pieces;
    points[static_cast<std::size_t>(k)] = a + t * chord + 4.0 * sag * t * (1.0 - t) * side;
  }
  return points;
}

namespace {

// A cable: taut, a thin straight line in the rope colour (a rod is thick and coloured by its force); slack, a dashed
// catenary as long as the cable, hanging along gravity (measure.h, slack).
void add_cable(const SandboxState& state, const World& world, const Constraint& constraint, DrawList& list) {
  const auto ids = constraint.particles();
  if (ids.size() != 2) return;
  const auto& x = world.state().position;
  const Vec3 a = x[static_cast<std::size_t>(ids[0])], b = x[static_cast<std::size_t>(ids[1])];
  const glm::vec4 colour = palette(state.appearance.theme).cable;
  const double length = constraint.length_scale(0);
  const bool hovered = state.hover.kind == Hover::Kind::Rod && state.hover.index >= 0 &&
                       static_cast<std::size_t>(state.hover.index) < world.constraints().size() &&
                       world.constraints()[static_cast<std::size_t>(state.hover.index)].get() == &constraint;
  const float width = hovered ? 4.5f : 2.5f;
  if (glm::length(b - a) >= length * (1.0 - 1e-6)) {
    add_segment(list.segments, a, b, width, colour);
    return;
  }
  constexpr int kPieces = 24;
  const std::vector<Vec3> curve = cable_curve(a, b, length, world.settings().gravity, kPieces);
  for (int k = 0; k < kPieces; k += 2)  // dashed: every other piece
    add_segment(list.segments, curve[static_cast<std::size_t>(k)], curve[static_cast<std::size_t>(k) + 1], width, colour);
}

}  // namespace

PlanePatch plane_patch(const Camera& camera, const World& world, const Obstacle& plane) {
  PlanePatch patch;
  const Vec3 n = glm::normalize(plane.normal);
  if (world.dimension() == 2 && !camera.perspective) {  // across the whole view, wherever it is panned
    const double aspect = static_cast<double>(camera.width()) / std::max(camera.height(), 1);
    const Vec3 centre(camera.centre.x, camera.centre.y, 0.0);
    patch.foot = centre - glm::dot(centre - plane.point, n) * n;
    patch.u = Vec3(-n.y, n.x, 0.0);
    patch.half = 1.2 * camera.half_height * std::sqrt(1.0 + aspect * aspect) + glm::length(patch.foot - centre);
    double from = -patch.half, to = patch.half;
    for (const Obstacle& other : world.model().contacts().obstacles) {  // n_j · (foot + t u − p_j) ≥ 0
      if (&other == &plane || other.shape != ObstacleShape::Plane) continue;
      const Vec3 m = glm::normalize(other.normal);
      const double at_foot = glm::dot(m, patch.foot - other.point), along = glm::dot(m, patch.u);
      if (std::abs(along) < 1e-12) {
        if (at_foot < 0.0) from = to;  // parallel, on the other's solid side
      } else if (along > 0.0) {
        from = std::max(from, -at_foot / along);
      } else {
        to = std::min(to, -at_foot / along);
      }
    }
    patch.from = from < to ? from : -patch.half;
    patch.to = from < to ? to : patch.half;
    return patch;
  }
  glm::dvec3 lo, hi;
  reach_bounds(world, lo, hi);
  const glm::dvec3 middle = 0.5 * (lo + hi);
  patch.foot = middle - glm::dot(middle - plane.point, n) * n;
  Vec3 u = glm::cross(n, Vec3(0.0, 0.0, 1.0));
  if (glm::length(u) < 1e-6) u = glm::cross(n, Vec3(1.0, 0.0, 0.0));
  patch.u = glm::normalize(u);
  patch.v = glm::cross(n, patch.u);
  patch.half = 0.9 * std::max(glm::length(hi - lo), 1e-3);
  return patch;
}

namespace {

// The obstacles (contacts.h): a plane as a long line with short hatches on its solid side (a floor, a wall; in 3D a
// square of lines around the scene), a box as its outline with the hatches outside, a circle or sphere as a steel
// ball (a fixed particle's look: nothing moves it).
void add_obstacles(const SandboxState& state, const World& world, int lane, DrawList& list) {
  const ContactSettings& contacts = world.model().contacts();
  if (contacts.obstacles.empty()) return;
  const Palette& colours = palette(state.appearance.theme);
  const glm::vec4 colour = colours.obstacle;
  const glm::vec4 hatch(glm::vec3(colour), 0.55f);
  const bool flat = world.dimension() == 2;
  glm::dvec3 lo, hi;
  reach_bounds(world, lo, hi);
  const double size = std::max(glm::length(hi - lo), 1e-3);
  // Hatches about 8 pixels long and apart in 2D (a fiftieth of the scene in 3D).
  const Camera& view = state.view_camera(static_cast<std::size_t>(lane));
  const double tick = flat && !view.perspective ? 8.0 / std::max(view.pixels_per_unit(Vec3(view.centre, 0.0)), 1e-12)
                                                : 0.02 * size;
  // A stretch of a plane's trace in 2D from p along u, hatched towards −n.
  const auto hatched_line = [&](Vec3 p, Vec3 u, Vec3 n, double from, double to, int index) {
    const bool hovered = state.hover.kind == Hover::Kind::Obstacle && state.hover.index == index;
    add_segment(list.under, p + from * u, p + to * u, hovered ? 5.0f : 3.0f, colour);
    const int count = std::clamp(static_cast<int>((to - from) / tick), 1, 1000);
    for (int k = 0; k <= count; ++k) {
      const Vec3 at = p + (from + (to - from) * k / count) * u;
      add_segment(list.under, at, at - tick * n - 0.7 * tick * u, 1.5f, hatch);
    }
  };
  const Camera& camera = state.view_camera(static_cast<std::size_t>(lane));
  for (std::size_t k = 0; k < contacts.obstacles.size(); ++k) {
    const Obstacle& o = contacts.obstacles[k];
    const int index = static_cast<int>(k);
    const bool hovered = state.hover.kind == Hover::Kind::Obstacle && state.hover.index == index;
    switch (o.shape) {
      case ObstacleShape::Plane: {
        const Vec3 n = glm::normalize(o.normal);
        const PlanePatch patch = plane_patch(camera, world, o);
        const Vec3 foot = patch.foot, u = patch.u, v = patch.v;
        const double half = patch.half;
        if (flat) {
          hatched_line(foot, u, n, patch.from, patch.to, index);
        } else {
          for (int j = -6; j <= 6; ++j) {
            const double t = half * j / 6.0;
            const float w = (j == -6 || j == 6) ? (hovered ? 4.5f : 2.5f) : 1.2f;
            add_segment(list.under, foot + t * u - half * v, foot + t * u + half * v, w, j % 6 ? hatch : colour);
            add_segment(list.under, foot - half * u + t * v, foot + half * u + t * v, w, j % 6 ? hatch : colour);
          }
        }
        break;
      }
      case ObstacleShape::Box: {
        const Vec3 a = o.min, b = o.max;
        if (flat) {  // the inside is where particles stay: hatches outside the walls
          hatched_line(Vec3(a.x, a.y, 0.0), Vec3(1.0, 0.0, 0.0), Vec3(0.0, 1.0, 0.0), 0.0, b.x - a.x, index);
          hatched_line(Vec3(b.x, b.y, 0.0), Vec3(-1.0, 0.0, 0.0), Vec3(0.0, -1.0, 0.0), 0.0, b.x - a.x, index);
          hatched_line(Vec3(a.x, b.y, 0.0), Vec3(0.0, -1.0, 0.0), Vec3(1.0, 0.0, 0.0), 0.0, b.y - a.y, index);
          hatched_line(Vec3(b.x, a.y, 0.0), Vec3(0.0, 1.0, 0.0), Vec3(-1.0, 0.0, 0.0), 0.0, b.y - a.y, index);
        } else {
          const float w = hovered ? 4.5f : 2.5f;
          for (int e = 0; e < 12; ++e) {  // the 12 edges: along axis e / 4, at the corner (e % 4) of the other two
            const int axis = e / 4, u = (axis + 1) % 3, v = (axis + 2) % 3;
            Vec3 p = a, q = a;
            p[u] = q[u] = (e & 1) ? b[u] : a[u];
            p[v] = q[v] = (e & 2) ? b[v] : a[v];
            q[axis] = b[axis];
            add_segment(list.under, p, q, w, colour);
          }
        }
        break;
      }
      case ObstacleShape::Sphere:
        list.spheres.push_back({to_f(o.center), static_cast<float>(o.radius), colour,
                                glm::vec4(1.0f, hovered ? 0.7f : 0.0f, 1.0f, 0.0f)});
        break;
    }
  }
}

// The contacts' normal forces: from each contact point along its normal, the mean normal force over the last step
// (impulse · n / dt), on the scale of the other force arrows (the median weight spans 0.6 of a typical length).
// Crowded (more than kCrowdedContacts: a pile, a cloth lying on a ball) each arrow is on its particle's own scale
// instead — the mean weight spans 0.6 of its radius, and no arrow leaves the ball it pushes — and a ball drawn
// smaller than kArrowBallPixels gets none (zoom in to see them): the arrows of a pile of 1 cm balls, each up to
// 0.2 m long, covered the pile, and those of the cloth lying on a ball hid the cloth.
constexpr std::size_t kCrowdedContacts = 16;
constexpr double kArrowBallPixels = 5.0;

void add_contact_arrows(const SandboxState& state, const Camera& camera, const World& world,
                        std::span<const double> radii, double scale, DrawList& list) {
  const ContactState& record = world.state().contacts;
  if (!(record.step_time > 0.0)) return;
  const glm::vec4 colour = palette(state.appearance.theme).contact_force;
  const glm::dvec3 view_dir = state.camera.forward();
  const bool crowded = record.contacts.size() > kCrowdedContacts;
  const double per_length = scale / std::max(state.length_scale, 1e-12);  // scale = 0.6 length_scale / weight
  for (const Contact& c : record.contacts) {
    const double normal = glm::dot(c.impulse, c.normal) / record.step_time;
    if (!(normal > 0.0)) continue;
    const double r = c.particle >= 0 && static_cast<std::size_t>(c.particle) < radii.size()
                         ? radii[static_cast<std::size_t>(c.particle)]
                         : 0.0;
    if (crowded && r > 0.0 && r * camera.pixels_per_unit(c.point) < kArrowBallPixels * state.pixel_ratio) continue;
    // At most two typical lengths: an impact's force (a link landing at speed) would cross the whole scene.
    const double length = crowded && r > 0.0 ? std::min(normal * per_length * r, r)
                                              : std::min(normal * scale, 2.0 * state.length_scale);
    add_arrow(list.over, c.point, length * c.normal, view_dir, colour);
  }
}

// Everything but rods is drawn from its drawing hint: the app never asks what type a constraint is.
void add_drawing_hint(const SandboxState& state, const World& world, const Constraint& constraint,
                      std::span<const double> radii, DrawList& list) {
  const Drawing drawing = constraint.drawing();
  const auto ids = constraint.particles();
  if (ids.empty()) return;
  const int held = ids[0];
  const Vec3 held_at = world.state().position[held];
  switch (drawing.shape) {
    case Shape::Point:
      add_pin(state, held_at, drawing, radii[static_cast<std::size_t>(held)], constraint.tool(), list);
      break;
    case Shape::Line:
      add_wire(state, held_at, drawing, list);
      break;
    case Shape::Plane:
      add_plane(state, world.model(), held_at, drawing, list);
      break;
    case Shape::Cable:
      add_cable(state, world, constraint, list);
      break;
    case Shape::Segment:
      break;
  }
}

void add_constraints(const SandboxState& state, const Camera& camera, const World& world, std::span<const double> radii, float width,
                     DrawList& list) {
  const auto constraints = world.constraints();
  for (std::size_t c = 0; c < constraints.size(); ++c) {
    const int index = static_cast<int>(c);
    if (is_rod(*constraints[c])) add_rod(state, camera, world, *constraints[c], index, width, list);
    else add_drawing_hint(state, world, *constraints[c], radii, list);
  }
}

void add_particles(const SandboxState& state, const World& world, std::span<const double> radii, DrawList& list) {
  const State& p = world.state();
  const Model& model = world.model();
  const std::size_t n = model.particle_count();
  list.spheres.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    const int index = static_cast<int>(i);
    float highlight = 0.0f;
    if (state.hover.kind == Hover::Kind::Particle && state.hover.index == index) highlight = 0.7f;
    if (state.hand().particle() == index) highlight = 1.0f;
    list.spheres.push_back({to_f(p.position[i]), static_cast<float>(radii[i]),
                            glm::vec4(particle_colour(state.scene, index), 1.0f),
                            glm::vec4(model.fixed(i) ? 1.0f : 0.0f, highlight, n > 400 ? 0.0f : 1.0f, 0.0f)});
  }
}

// The other lanes over lane 1, each in its colour: translucent rods and smaller beads (hidden inside lane 1's
// beads while the lanes agree, showing as soon as they part).
void add_overlaid_lanes(const SandboxState& state, std::span<const double> radii, float width, DrawList& list) {
  for (std::size_t k = 0; k + 1 < state.lane_count(); ++k) {
    const World& ghost = state.sim.world(k + 1);
    const State& g = ghost.state();
    const glm::vec4 colour = lane_rgba(state, static_cast<int>(k) + 1, 0.7f);
    const auto ghost_constraints = ghost.constraints();
    for (const auto& c : ghost_constraints) {
      if (!is_rod(*c)) continue;
      const auto ids = c->particles();
      const auto [a, b] = drawn_ends(g.position[ids[0]], g.position[ids[1]], c->length_scale(0),
                                     state.view.error_exaggeration);
      add_segment(list.segments, a, b, std::max(width * 0.6f, 1.5f), colour);
    }
    for (std::size_t i = 0; i < g.position.size() && i < radii.size(); ++i)
      if (!ghost.model().fixed(i))
        list.spheres.push_back({to_f(g.position[i]), static_cast<float>(radii[i] * 0.8), glm::vec4(glm::vec3(colour), 0.8f),
                                glm::vec4(0.0f, 0.0f, 0.0f, 0.0f)});
  }
}

// Force arrows: one scale for every kind so they compare; the median weight spans 0.6 of a typical length.
double force_arrow_scale(const SandboxState& state, const World& world) {
  const Model& model = world.model();
  const double g = glm::length(world.settings().gravity);
  double weight = 0.0;
  std::size_t moving = 0;
  for (std::size_t i = 0; i < model.particle_count(); ++i)
    if (!model.fixed(i)) {
      weight += model.mass(i) * g;
      ++moving;
    }
  weight = moving ? weight / moving : 0.0;
  if (!(weight > 0.0)) {  // no gravity (a gas): the largest contact force sets the scale instead
    const ContactState& record = world.state().contacts;
    for (const Contact& c : record.contacts)
      if (record.step_time > 0.0) weight = std::max(weight, glm::dot(c.impulse, c.normal) / record.step_time);
  }
  return 0.6 * state.length_scale / std::max(weight, 1e-9);
}

void add_force_arrows(const SandboxState& state, const World& world, DrawList& list) {
  const State& p = world.state();
  const Model& model = world.model();
  const Palette& colours = palette(state.appearance.theme);
  const glm::dvec3 view_dir = state.camera.forward();
  const std::size_t n = model.particle_count();
  const double scale = force_arrow_scale(state, world);
  for (std::size_t i = 0; i < n; ++i) {
    if (model.fixed(i)) continue;
    if (state.view.gravity_arrows)
      add_arrow(list.over, p.position[i], world.settings().gravity * model.mass(i) * scale, view_dir, colours.gravity);
    if (state.view.constraint_arrows)
      add_arrow(list.over, p.position[i], constraint_force(model, p, static_cast<int>(i)) * scale, view_dir,
                colours.constraint_force);
  }
}

void scale_widths(std::vector<SegmentInstance>& segments, float line_scale) {
  for (SegmentInstance& s : segments) s.width *= line_scale;
}

}  // namespace

void build_draw_list(const SandboxState& state, std::span<const double> radii, DrawList& list, int lane) {
  list.clear();
  const World& world = state.lane_world(static_cast<std::size_t>(lane));
  list.background = palette(state.appearance.theme).background;
  const std::size_t view = static_cast<std::size_t>(lane);
  if (state.view.grid) add_grid(state, view, list);
  if (state.view.trails) add_trails(state, state.displays[static_cast<std::size_t>(lane)].trails, list);
  const float width = rod_width(state, world);
  add_obstacles(state, world, lane, list);
  add_constraints(state, state.view_camera(view), world, radii, width, list);
  add_particles(state, world, radii, list);
  if (lane == 0 && state.lane_view == LaneView::Overlay) add_overlaid_lanes(state, radii, width, list);

  // Widths are in screen units: thicker on HiDPI screens. The arrows are scaled with the pins once they are added.
  const float line_scale = static_cast<float>(state.ui_scale * state.pixel_ratio);
  if (line_scale != 1.0f)
    for (auto* segments : {&list.under, &list.segments}) scale_widths(*segments, line_scale);
  if (state.view.gravity_arrows || state.view.constraint_arrows) add_force_arrows(state, world, list);
  if (state.view.contact_arrows) add_contact_arrows(state, state.view_camera(view), world, radii, force_arrow_scale(state, world), list);
  if (line_scale != 1.0f) scale_widths(list.over, line_scale);
}

}  // namespace lagrange::app
