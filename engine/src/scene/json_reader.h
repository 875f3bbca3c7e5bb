// The scene reader's JSON layer: a file read without trusting it, its text parsed, and typed values taken out of
// the document with their JSON path. It exists so that every failure, whatever the value, reads the same way,
// SceneError("FILE: JSON.PATH: PROBLEM") (scene_checks.h), and so that the scene layer (scene_reader.cpp) reads as
// a description of the format. What a scene holds (settings, particles, constraints, saved state) is not known
// here; the one scene notion is the dimension, since a 2D scene accepts [x, y] for a vector.
#pragma once

#include <cstddef>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "lagrange/types.h"

namespace lagrange::json_detail {

using Json = nlohmann::json;

// The whole file, refused without waiting (a FIFO, a device, a directory) or without reading it all (more than
// `max_bytes`, even if it grows while being read). Throws SceneError.
std::string read_file(const std::filesystem::path& path, std::size_t max_bytes);

// The document, refused when it is invalid JSON (the message gives line and column), nested too deep to be a scene,
// or gives a key twice in one object (plain nlohmann keeps the last silently). `file` names it in messages.
Json parse_document(std::string_view text, const std::string& file);

// What a value is, for "got ..." in messages: "null", "2.5", "the string \"abc\"", "an array of 2 elements", ...
std::string describe(const Json& value);
// " (did you mean \"mass\"?)" for a near miss of one of `candidates`, otherwise " (expected one of: a, b, c)".
std::string suggestion(std::string_view word, const std::vector<std::string>& candidates);

// Typed values out of the document. Every getter takes the value and its JSON path ("particles[3].mass"; "" is the
// top level) and throws SceneError naming the file and that path when the value is not what it must be.
class JsonReader {
 public:
  JsonReader(std::string file, int dimension) : file_(std::move(file)), dimension_(dimension) {}

  const std::string& file() const { return file_; }
  // The dimension vec() reads vectors for: known once the document's "dimension" is read.
  void set_dimension(int dimension) { dimension_ = dimension; }
  int dimension() const { return dimension_; }

  [[noreturn]] void fail(const std::string& path, const std::string& problem) const;

  const Json& object(const Json& value, const std::string& path) const;
  const Json& array(const Json& value, const std::string& path) const;
  // Fails on the first key of `object` not in `allowed`, suggesting the nearest allowed one.
  void check_keys(const Json& object, const std::string& path, const std::vector<std::string>& allowed) const;
  // object[key]; `hint` (may be "") tells what the missing value looks like.
  const Json& required(const Json& object, const std::string& path, const char* key, const char* hint) const;

  // Finite and of magnitude at most 1e9 (larger is a typo, or overflows once squared by the solvers).
  double number(const Json& value, const std::string& path) const;
  // Any finite number (times, energies, forces of a saved state).
  double finite(const Json& value, const std::string& path) const;
  // An integral float (2.0) counts as an integer. `what` names it in the message ("a particle index").
  int integer(const Json& value, const std::string& path, const char* what = "an integer") const;
  bool boolean(const Json& value, const std::string& path) const;
  std::string string(const Json& value, const std::string& path) const;
  // [x, y, z], finite; [x, y] is also accepted in a 2D scene, where z must be 0.
  Vec3 vec(const Json& value, const std::string& path) const;

  // object[key] read into `out` by the getter of out's type when the key is given; otherwise `out` keeps its value
  // (the default of the struct being filled).
  void optional(const Json& object, const std::string& path, const char* key, double& out) const;
  void optional(const Json& object, const std::string& path, const char* key, int& out) const;
  void optional(const Json& object, const std::string& path, const char* key, bool& out) const;
  void optional(const Json& object, const std::string& path, const char* key, std::string& out) const;
  void optional(const Json& object, const std::string& path, const char* key, Vec3& out) const;

 private:
  std::string file_;
  int dimension_;
};

}  // namespace lagrange::json_detail
