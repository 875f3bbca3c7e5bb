#include "lagrange/particles.h"

namespace lagrange {

int Particles::add(const ParticleDef& def) {
  position.push_back(def.position);
  velocity.push_back(def.fixed ? Vec3(0.0) : def.velocity);
  mass.push_back(def.mass);
  inv_mass.push_back(def.fixed ? 0.0 : 1.0 / def.mass);
  radius.push_back(def.radius);
  colour.push_back(def.colour);
  has_colour.push_back(def.has_colour);
  return static_cast<int>(position.size()) - 1;
}

}  // namespace lagrange
