// Particle state, stored as parallel arrays (structure of arrays) so solvers stream through it.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "lagrange/types.h"

namespace lagrange {

// Everything needed to create one particle. A fixed particle has infinite mass: no force moves it.
struct ParticleDef {
  Vec3 position{0.0};
  Vec3 velocity{0.0};
  double mass = 1.0;
  bool fixed = false;
  double radius = 0.0;  // 0: the app chooses a radius from the mass
  Colour colour{};
  bool has_colour = false;  // false: the app chooses a colour
};

struct Particles {
  std::vector<Vec3> position;
  std::vector<Vec3> velocity;
  std::vector<double> mass;      // as given; ignored for fixed particles
  std::vector<double> inv_mass;  // 0 for fixed particles
  std::vector<double> radius;
  std::vector<Colour> colour;
  std::vector<bool> has_colour;

  std::size_t size() const { return position.size(); }
  bool fixed(std::size_t i) const { return inv_mass[i] == 0.0; }
  int add(const ParticleDef& def);
};

}  // namespace lagrange
