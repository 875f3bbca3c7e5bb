#include "scene_checks.h"

#include <cmath>

#include "lagrange/text.h"

namespace lagrange::scene_detail {

std::string in_quotes(std::string_view text) {
  std::string out(1, '"');  // not "\"" + ...: GCC 12 -O2 raises a false -Wrestrict on that form
  out += printable(text);
  out += '"';
  return out;
}

std::string join_key(const std::string& path, std::string_view key) {
  return path.empty() ? printable(key) : path + "." + printable(key);
}

std::string join_index(const std::string& path, std::size_t index) {
  return path + "[" + std::to_string(index) + "]";
}

void fail(const std::string& file, const std::string& path, const std::string& problem) {
  // The path may hold keys from the file: printable() escapes and cuts them (idempotent on escaped text).
  throw SceneError(printable(file, kEchoPathLength) + ": " +
                   (path.empty() ? "top level" : printable(path, 4 * kEchoLength)) + ": " + problem);
}

void fail_on(const std::string& file, const std::string& path, const std::optional<FieldProblem>& problem) {
  if (problem) fail(file, problem->field.empty() ? path : join_key(path, problem->field), problem->text);
}

std::optional<FieldProblem> vector_problem(std::string_view field, Vec3 v, int dimension) {
  if (!finite(v)) return FieldProblem{std::string(field), "must have finite coordinates"};
  if (dimension == 2 && v.z != 0.0)
    return FieldProblem{std::string(field) + "[2]", "must be 0 in a 2D scene, got " + format_number(v.z) +
                                           " (set \"dimension\": 3 for a 3D scene)"};
  return std::nullopt;
}

std::optional<FieldProblem> particle_problem(const ParticleDef& p, int dimension) {
  if (auto problem = vector_problem("position", p.position, dimension)) return problem;
  if (auto problem = vector_problem("velocity", p.velocity, dimension)) return problem;
  if (!p.fixed && (!std::isfinite(p.mass) || p.mass <= 0.0))
    return FieldProblem{"mass", "must be a positive number, got " + format_number(p.mass)};
  if (!p.fixed && p.mass < kMinMass)  // 5e-324 made 1/m overflow: the run failed at its first step
    return FieldProblem{"mass", "must be at least 1e-9 (kg), got " + format_number(p.mass)};
  if (p.fixed && p.velocity != Vec3(0.0))
    return FieldProblem{"velocity", "must be zero for a fixed particle (it never moves)"};
  if (!std::isfinite(p.radius) || p.radius < 0.0)
    return FieldProblem{"radius", "must be zero or a positive number (m: the collision radius; 0 is a point, drawn at a size chosen from its "
                                    "mass), got " + format_number(p.radius)};
  return std::nullopt;
}

}  // namespace lagrange::scene_detail
