// What the scene reader (scene_reader.cpp) and the builder (scene_builder.cpp) share: the checks that also apply to
// scenes built in code, and how a problem becomes a SceneError "FILE: JSON.PATH: PROBLEM". The constraint checks
// are the kind table's (constraint_kinds.h); ranges of generator parameters live in builders.cpp; ranges of
// settings in settings.cpp. One place each.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "lagrange/constraint_kinds.h"
#include "lagrange/scene.h"

namespace lagrange::scene_detail {

// "\"text\"", with the text made printable (control characters escaped, cut short).
std::string in_quotes(std::string_view text);
// "path.key" and "path[i]".
std::string join_key(const std::string& path, std::string_view key);
std::string join_index(const std::string& path, std::size_t index);

// Throws SceneError("FILE: PATH: PROBLEM") ("top level" for an empty path), with file and path made printable.
[[noreturn]] void fail(const std::string& file, const std::string& path, const std::string& problem);
// Throws for `problem` below `path` (its field joined to the path), when there is one.
void fail_on(const std::string& file, const std::string& path, const std::optional<FieldProblem>& problem);

// Finite, and z = 0 in a 2D scene.
std::optional<FieldProblem> vector_problem(std::string_view field, Vec3 v, int dimension);
// Position, velocity, mass, radius of one particle.
std::optional<FieldProblem> particle_problem(const ParticleDef& p, int dimension);

}  // namespace lagrange::scene_detail
