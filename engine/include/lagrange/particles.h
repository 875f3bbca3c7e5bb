// A particle as a scene describes it. The engine keeps the physics of it (mass in the Model, position and velocity
// in the State: model.h); radius and colour are the scene's, for whoever draws it.
#pragma once

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

}  // namespace lagrange
