#include "view/picking.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "lagrange/constraint_kinds.h"
#include "lagrange/measure.h"
#include "view/scene_draw.h"

namespace lagrange::app {
namespace {

// Pixels from `pixel` to the segment a–b as drawn; +∞ when an end is behind the camera.
double screen_distance(const Camera& camera, Vec3 a, Vec3 b, glm::dvec2 pixel) {
  const auto pa3 = camera.project(a), pb3 = camera.project(b);
  if (!pa3 || !pb3) return std::numeric_limits<double>::infinity();
  const glm::dvec2 pa(*pa3), pb(*pb3);
  const glm::dvec2 ab = pb - pa;
  const double t = std::clamp(glm::dot(pixel - pa, ab) / std::max(glm::dot(ab, ab), 1e-12), 0.0, 1.0);
  return glm::length(pa + t * ab - pixel);
}

}  // namespace

Hover pick(const World& world, const Camera& camera, std::span<const double> radii, glm::dvec2 pixel,
           double slack_px) {
  const State& particles = world.state();
  // A particle held by a pin is picked anywhere on the pin's sign (rings and ticks out to 1.9 of its radius).
  std::vector<char> pinned(particles.position.size(), 0);
  for (const auto& c : world.constraints())
    if (!c->tool() && has_role(*c, KindRole::Pin)) pinned[static_cast<std::size_t>(c->particles()[0])] = 1;
  Hover best;
  double best_depth = std::numeric_limits<double>::infinity();
  double best_distance = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < particles.position.size(); ++i) {
    const auto screen = camera.project(particles.position[i]);
    if (!screen) continue;
    const double radius_px = (pinned[i] ? 1.9 : 1.0) * radii[i] * camera.pixels_per_unit(particles.position[i]);
    const double distance = glm::length(glm::dvec2(*screen) - pixel);
    if (distance > std::max(radius_px, 3.0) + slack_px) continue;
    const bool inside = distance <= radius_px;
    // A pixel inside several spheres picks the front one; near-misses pick the closest on screen.
    const double depth = inside ? screen->z : std::numeric_limits<double>::infinity();
    if (depth < best_depth || (depth == best_depth && distance < best_distance)) {
      best = {Hover::Kind::Particle, static_cast<int>(i)};
      best_depth = depth;
      best_distance = distance;
    }
  }
  if (best.kind != Hover::Kind::None) return best;

  const auto constraints = world.constraints();
  double best_rod = slack_px + 1.0;
  for (std::size_t c = 0; c < constraints.size(); ++c) {
    const auto ids = constraints[c]->particles();
    const bool cable = constraints[c]->drawing().shape == Shape::Cable && ids.size() == 2;
    if (!has_role(*constraints[c], KindRole::Rod) && !cable) continue;
    const Vec3 xa = particles.position[ids[0]], xb = particles.position[ids[1]];
    // A cable is picked along the curve it is drawn as (straight when taut, sagging when slack).
    const std::vector<Vec3> points = cable ? cable_curve(xa, xb, constraints[c]->length_scale(0),
                                                         world.settings().gravity, 24)
                                           : std::vector<Vec3>{xa, xb};
    for (std::size_t k = 0; k + 1 < points.size(); ++k) {
      const double distance = screen_distance(camera, points[k], points[k + 1], pixel);
      if (distance < best_rod) {
        best_rod = distance;
        best = {Hover::Kind::Rod, static_cast<int>(c)};
      }
    }
  }
  if (best.kind != Hover::Kind::None) return best;
  const int obstacle = pick_obstacle(world, camera, pixel, slack_px);
  if (obstacle >= 0) best = {Hover::Kind::Obstacle, obstacle};
  return best;
}

int pick_obstacle(const World& world, const Camera& camera, glm::dvec2 pixel, double slack_px) {
  const auto& obstacles = world.model().contacts().obstacles;
  const bool flat = world.dimension() == 2;
  const Ray ray = camera.ray(pixel);
  int best = -1;
  double best_distance = slack_px + 1.0;
  for (std::size_t k = 0; k < obstacles.size(); ++k) {
    const Obstacle& o = obstacles[k];
    double distance = std::numeric_limits<double>::infinity();
    switch (o.shape) {
      case ObstacleShape::Plane: {
        const Vec3 n = glm::normalize(o.normal);
        const PlanePatch patch = plane_patch(camera, world, o);
        if (flat) {  // the line drawn across the view
          distance = screen_distance(camera, patch.foot + patch.from * patch.u, patch.foot + patch.to * patch.u, pixel);
        } else if (const auto hit = intersect_plane(ray, patch.foot, n)) {  // the square drawn around the scene
          const Vec3 d = *hit - patch.foot;
          if (glm::dot(*hit - ray.origin, ray.direction) > 0.0 && std::abs(glm::dot(d, patch.u)) <= patch.half &&
              std::abs(glm::dot(d, patch.v)) <= patch.half)
            distance = 0.0;
        }
        break;
      }
      case ObstacleShape::Box:
        if (flat) {
          const Vec3 a(o.min.x, o.min.y, 0.0), b(o.max.x, o.min.y, 0.0), c(o.max.x, o.max.y, 0.0),
              d(o.min.x, o.max.y, 0.0);
          distance = std::min({screen_distance(camera, a, b, pixel), screen_distance(camera, b, c, pixel),
                               screen_distance(camera, c, d, pixel), screen_distance(camera, d, a, pixel)});
        } else {  // the slab test: the ray through the box
          double t0 = 0.0, t1 = std::numeric_limits<double>::infinity();
          for (int axis = 0; axis < 3; ++axis) {
            const double inv = 1.0 / ray.direction[axis];
            double near = (o.min[axis] - ray.origin[axis]) * inv, far = (o.max[axis] - ray.origin[axis]) * inv;
            if (near > far) std::swap(near, far);
            t0 = std::max(t0, near);
            t1 = std::min(t1, far);
          }
          if (t0 <= t1) distance = 0.0;
        }
        break;
      case ObstacleShape::Sphere:
        if (const auto centre = camera.project(o.center)) {
          const double radius_px = o.radius * camera.pixels_per_unit(o.center);
          distance = std::max(0.0, glm::length(glm::dvec2(*centre) - pixel) - radius_px);
        }
        break;
    }
    if (distance < best_distance) {
      best_distance = distance;
      best = static_cast<int>(k);
    }
  }
  return best;
}

std::optional<glm::dvec3> intersect_plane(const Ray& ray, glm::dvec3 point, glm::dvec3 normal) {
  const double denominator = glm::dot(ray.direction, normal);
  if (std::abs(denominator) < 1e-9) return std::nullopt;
  const double t = glm::dot(point - ray.origin, normal) / denominator;
  return ray.origin + t * ray.direction;
}

}  // namespace lagrange::app
