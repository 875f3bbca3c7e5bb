// The obstacles' names and checks (contacts.h): one place for the scene reader, the builder (Model::set_contacts)
// and the editor. What an obstacle does to a particle — its faces and gaps — is the contact set's
// (contacts/contact_set.cpp).
#include <cmath>
#include <string>

#include "lagrange/contacts.h"
#include "lagrange/text.h"

namespace lagrange {
namespace {

std::string coefficient_problem(std::optional<double> restitution, std::optional<double> friction,
                                std::string& field) {
  if (restitution && !(*restitution >= 0.0 && *restitution <= 1.0)) {
    field = "restitution";
    return "must be a number in [0, 1] (0: the contact stops the approach; 1: an elastic bounce), got " +
           format_number(*restitution);
  }
  if (friction && !(*friction >= 0.0 && std::isfinite(*friction) && *friction <= 1e6)) {
    field = "friction";
    return "must be a number >= 0 (Coulomb's coefficient; at most 1e6), got " + format_number(*friction);
  }
  return {};
}

std::string vector_problem(Vec3 v, int dimension, const char* key, std::string& field) {
  if (!finite(v)) {
    field = key;
    return "must have finite coordinates";
  }
  if (dimension == 2 && v.z != 0.0) {
    field = std::string(key) + "[2]";
    return "must be 0 in a 2D scene, got " + format_number(v.z) + " (set \"dimension\": 3 for a 3D scene)";
  }
  return {};
}

}  // namespace

const char* obstacle_type_name(ObstacleShape shape, int dimension) {
  switch (shape) {
    case ObstacleShape::Plane: return "plane";
    case ObstacleShape::Box: return "box";
    case ObstacleShape::Sphere: return dimension == 2 ? "circle" : "sphere";
  }
  return "plane";
}

std::string obstacle_problem(const Obstacle& o, int dimension, std::string& field) {
  field.clear();
  switch (o.shape) {
    case ObstacleShape::Plane: {
      if (auto p = vector_problem(o.point, dimension, "point", field); !p.empty()) return p;
      if (auto p = vector_problem(o.normal, dimension, "normal", field); !p.empty()) return p;
      if (!(glm::length(o.normal) >= 1e-9)) {
        field = "normal";
        return "must be a non-zero vector (the side it points to is where particles stay)";
      }
      break;
    }
    case ObstacleShape::Box: {
      if (auto p = vector_problem(o.min, dimension, "min", field); !p.empty()) return p;
      if (auto p = vector_problem(o.max, dimension, "max", field); !p.empty()) return p;
      for (int k = 0; k < dimension; ++k)
        if (!(o.max[k] > o.min[k])) {
          field = "max[" + std::to_string(k) + "]";
          return "must be greater than min[" + std::to_string(k) + "] (" + format_number(o.min[k]) + "), got " +
                 format_number(o.max[k]) + ": the box has no inside for the particles to stay in";
        }
      break;
    }
    case ObstacleShape::Sphere: {
      if (auto p = vector_problem(o.center, dimension, "center", field); !p.empty()) return p;
      if (!(o.radius > 0.0 && std::isfinite(o.radius) && o.radius <= 1e9)) {
        field = "radius";
        return "must be a positive number (m; at most 1e9), got " + format_number(o.radius);
      }
      break;
    }
  }
  return coefficient_problem(o.restitution, o.friction, field);
}

std::string contact_settings_problem(const ContactSettings& settings, std::string& field) {
  field.clear();
  return coefficient_problem(settings.restitution, settings.friction, field);
}

}  // namespace lagrange
