// Basic value types shared by the engine and its users. Double precision throughout.
#pragma once

#include <glm/geometric.hpp>
#include <glm/vec3.hpp>

namespace lagrange {

using Vec3 = glm::dvec3;

// Display colour of a particle or solver, linear RGB in [0, 1].
struct Colour {
  float r = 0.8f, g = 0.8f, b = 0.8f;
};

}  // namespace lagrange
