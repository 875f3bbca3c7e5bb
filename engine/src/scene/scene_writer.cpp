// The scene writer: Scene → JSON text, the inverse of the reader (scene_reader.cpp). Every number is written as the
// shortest text that reads back to the same double (format_number), so a saved state loads back to the same bits.
// One particle or constraint per line, so a saved file stays readable and diffs well.
#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "lagrange/constraint_kinds.h"
#include "lagrange/scene.h"
#include "lagrange/text.h"

namespace lagrange {
namespace {

// A JSON number that parses back to the same double: -0 is written "-0.0" (a JSON reader takes "-0" for the
// integer 0, which is +0).
std::string json_number(double value) {
  if (value == 0.0 && std::signbit(value)) return "-0.0";
  return format_number(value);
}

// Text that is not UTF-8 (a name taken from a file name) is written with U+FFFD in place of the bad bytes.
std::string json_string(const std::string& text) {
  return nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string json_vector(Vec3 v, int dimension) {
  std::string out(1, '[');  // not "[" + ...: GCC 12 -O2 raises a false -Wrestrict on that form
  out += json_number(v.x);
  out += ", ";
  out += json_number(v.y);
  if (dimension == 3 || v.z != 0.0 || std::signbit(v.z)) {
    out += ", ";
    out += json_number(v.z);
  }
  out += ']';
  return out;
}

std::string json_colour(Colour c) {
  std::string out(1, '[');
  out += format_number(c.r);
  out += ", ";
  out += format_number(c.g);
  out += ", ";
  out += format_number(c.b);
  out += ']';
  return out;
}

std::string settings_text(const Settings& settings, int dimension) {
  std::string out;
  for (const SettingInfo& info : setting_table()) {
    const std::string key = info.key;
    std::string value;
    if (key == "solver") {
      value = json_string(settings.solver);
    } else if (key == "gravity") {
      value = json_vector(settings.gravity, dimension);
    } else {
      // get_setting writes counts as integers and numbers with format_number: JSON already, but for -0.
      value = get_setting(settings, key);
      if (value == "-0") value = "-0.0";
    }
    out += (out.empty() ? "" : ",\n") + std::string("    ") + json_string(key) + ": " + value;
  }
  return out;
}

}  // namespace

std::string write_scene(const Scene& scene) {
  const int dim = scene.dimension;
  std::string out = "{\n";
  out += "  \"name\": " + json_string(scene.name) + ",\n";
  if (!scene.description.empty()) out += "  \"description\": " + json_string(scene.description) + ",\n";
  out += "  \"dimension\": " + std::to_string(dim) + ",\n";
  out += "  \"settings\": {\n" + settings_text(scene.settings, dim) + "\n  },\n";

  out += "  \"particles\": [";
  for (std::size_t i = 0; i < scene.particles.size(); ++i) {
    const ParticleDef& p = scene.particles[i];
    out += i == 0 ? "\n    {" : ",\n    {";
    out += "\"position\": " + json_vector(p.position, dim);
    if (p.fixed) {
      out += ", \"fixed\": true";
    } else {
      out += ", \"mass\": " + json_number(p.mass);
      if (p.velocity != Vec3(0.0) || std::signbit(p.velocity.x) || std::signbit(p.velocity.y) ||
          std::signbit(p.velocity.z))
        out += ", \"velocity\": " + json_vector(p.velocity, dim);
    }
    if (p.radius > 0.0) out += ", \"radius\": " + json_number(p.radius);
    if (p.has_colour) out += ", \"colour\": " + json_colour(p.colour);
    out += "}";
  }
  out += "\n  ]";

  if (!scene.constraints.empty()) {
    out += ",\n  \"constraints\": [";
    for (std::size_t i = 0; i < scene.constraints.size(); ++i) {
      const ConstraintDef& c = scene.constraints[i];
      const ConstraintKind* kind = find_kind(c.type);
      out += i == 0 ? "\n    {" : ",\n    {";
      out += "\"type\": " + json_string(c.type);
      if (kind && kind->arity == 1 && c.particles.size() == 1) {
        out += ", \"particle\": " + std::to_string(c.particles[0]);
      } else {
        out += ", \"particles\": [";
        for (std::size_t k = 0; k < c.particles.size(); ++k)
          out += (k ? ", " : "") + std::to_string(c.particles[k]);
        out += "]";
      }
      if (kind)
        for (const KindField& field : kind->fields) {
          const auto value = c.vector(field.key);
          if (!value) continue;
          out += ", " + json_string(field.key) + ": " +
                 (field.type == FieldType::Number ? json_number(value->x) : json_vector(*value, dim));
        }
      if (c.compliance != 0.0) out += ", \"compliance\": " + json_number(c.compliance);
      if (c.damping != 0.0) out += ", \"damping\": " + json_number(c.damping);
      out += "}";
    }
    out += "\n  ]";
  }

  if (scene.contacts.given) {
    const ContactSettings& c = scene.contacts;
    out += ",\n  \"contacts\": {\"restitution\": " + json_number(c.restitution) + ", \"friction\": " +
           json_number(c.friction) + ", \"particles\": " + (c.particles ? "true" : "false") + "}";
  }
  if (!scene.contacts.obstacles.empty()) {
    out += ",\n  \"obstacles\": [";
    for (std::size_t k = 0; k < scene.contacts.obstacles.size(); ++k) {
      const Obstacle& o = scene.contacts.obstacles[k];
      out += k == 0 ? "\n    {" : ",\n    {";
      out += "\"type\": " + json_string(obstacle_type_name(o.shape, dim));
      switch (o.shape) {
        case ObstacleShape::Plane:
          out += ", \"point\": " + json_vector(o.point, dim) + ", \"normal\": " + json_vector(o.normal, dim);
          break;
        case ObstacleShape::Box:
          out += ", \"min\": " + json_vector(o.min, dim) + ", \"max\": " + json_vector(o.max, dim);
          break;
        case ObstacleShape::Sphere:
          out += ", \"center\": " + json_vector(o.center, dim) + ", \"radius\": " + json_number(o.radius);
          break;
      }
      if (o.restitution) out += ", \"restitution\": " + json_number(*o.restitution);
      if (o.friction) out += ", \"friction\": " + json_number(*o.friction);
      out += "}";
    }
    out += "\n  ]";
  }

  if (scene.state) {
    const SceneState& s = *scene.state;
    out += ",\n  \"state\": {\n";
    out += "    \"step\": " + std::to_string(s.step) + ",\n";
    out += "    \"time\": " + json_number(s.time) + ",\n";
    if (s.clock_time && s.clock_step)
      out += "    \"clock\": {\"time\": " + json_number(*s.clock_time) + ", \"step\": " + std::to_string(*s.clock_step) +
             "},\n";
    out += "    \"work\": {\"mouse\": " + json_number(s.work.mouse) + ", \"damping\": " + json_number(s.work.damping) +
           (s.work.contacts != 0.0 ? ", \"contacts\": " + json_number(s.work.contacts) : std::string()) + "}";
    if (!std::isnan(s.start_energy)) out += ",\n    \"start_energy\": " + json_number(s.start_energy);
    if (!s.row_force.empty()) {
      out += ",\n    \"row_force\": [";
      for (std::size_t r = 0; r < s.row_force.size(); ++r) out += (r ? ", " : "") + json_number(s.row_force[r]);
      out += "]";
    }
    if (s.newton_lost != 0) out += ",\n    \"newton_lost\": " + std::to_string(s.newton_lost);
    if (!s.contacts.empty()) {
      out += ",\n    \"contacts\": [";
      for (std::size_t k = 0; k < s.contacts.size(); ++k) {
        const Contact& c = s.contacts[k];
        out += (k ? ", [" : "[") + std::to_string(c.particle) + ", " + std::to_string(c.other) + ", " +
               std::to_string(c.obstacle) + ", " + std::to_string(c.face) + ", " + json_number(c.lambda) + ", " +
               json_number(c.lambda_t.x) + ", " + json_number(c.lambda_t.y) + ", " + json_number(c.lambda_t.z) + "]";
      }
      out += "]";
    }
    out += "\n  }";
  }
  out += "\n}\n";
  return out;
}

}  // namespace lagrange
