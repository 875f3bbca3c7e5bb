#include "view/picking.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "lagrange/constraint_kinds.h"

namespace lagrange::app {

Hover pick(const World& world, const Camera& camera, std::span<const double> radii, glm::dvec2 pixel,
           double slack_px) {
  const State& particles = world.state();
  Hover best;
  double best_depth = std::numeric_limits<double>::infinity();
  double best_distance = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < particles.position.size(); ++i) {
    const auto screen = camera.project(particles.position[i]);
    if (!screen) continue;
    const double radius_px = radii[i] * camera.pixels_per_unit(particles.position[i]);
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
    if (!has_role(*constraints[c], KindRole::Rod)) continue;
    const auto a = camera.project(particles.position[ids[0]]);
    const auto b = camera.project(particles.position[ids[1]]);
    if (!a || !b) continue;
    const glm::dvec2 pa(*a), pb(*b);
    const glm::dvec2 ab = pb - pa;
    const double t = std::clamp(glm::dot(pixel - pa, ab) / std::max(glm::dot(ab, ab), 1e-12), 0.0, 1.0);
    const double distance = glm::length(pa + t * ab - pixel);
    if (distance < best_rod) {
      best_rod = distance;
      best = {Hover::Kind::Rod, static_cast<int>(c)};
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
