// What lies under the cursor: the nearest particle whose drawn sphere (or its pin's ring) covers the pixel (front-most
// first), else the nearest rod or cable within a few pixels, else an obstacle (its line, its outline, its disc; in 3D
// a plane's square or a box the ray passes through).
#pragma once

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include <optional>
#include <span>

#include "lagrange/world.h"
#include "state/sandbox_state.h"
#include "window/camera.h"

namespace lagrange::app {

// radii: the drawn radius of each particle (scene_draw.h). slack_px: extra pixels for small spheres and rods.
Hover pick(const World& world, const Camera& camera, std::span<const double> radii, glm::dvec2 pixel,
           double slack_px = 4.0);

// The obstacle drawn under the pixel (contacts.h, by index), or -1.
int pick_obstacle(const World& world, const Camera& camera, glm::dvec2 pixel, double slack_px = 4.0);

// Where the ray meets the plane through `point` with normal `normal`; nothing when parallel.
std::optional<glm::dvec3> intersect_plane(const Ray& ray, glm::dvec3 point, glm::dvec3 normal);

}  // namespace lagrange::app
