// Basic value types shared by the engine and its users. Double precision throughout.
#pragma once

#include <cmath>

#include <glm/geometric.hpp>
#include <glm/vec3.hpp>

namespace lagrange {

using Vec3 = glm::dvec3;

// Every coordinate finite (no NaN, no infinity).
inline bool finite(const Vec3& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

// Display colour of a particle or solver, linear RGB in [0, 1].
struct Colour {
  float r = 0.8f, g = 0.8f, b = 0.8f;
};

}  // namespace lagrange
