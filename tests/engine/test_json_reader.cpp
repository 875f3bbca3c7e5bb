// The scene reader's JSON layer (engine/src/scene/json_reader.cpp): every getter's failure reads "FILE: PATH: PROBLEM",
// with the problem texts of the error table in docs/scenes.md ("Errors"); parsing and file reading refuse what is
// not a document. The scene layer's own messages are tests/engine/test_scene.cpp's.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

#include "scene/json_reader.h"
#include "lagrange/scene.h"

using namespace lagrange;
using json_detail::Json;
using json_detail::JsonReader;

namespace {

// The message of the SceneError that `read` throws, or "(no error)".
template <class Read>
std::string error_of(Read read) {
  try {
    read();
  } catch (const SceneError& error) {
    return error.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("json_reader: a failure names the file and the JSON path, \"top level\" for the root") {
  const JsonReader reader("x.json", 3);
  CHECK(error_of([&] { reader.number(Json("1"), "particles[0].mass"); }) ==
        "x.json: particles[0].mass: must be a number, got the string \"1\"");
  CHECK(error_of([&] { reader.object(Json::array({1, 2}), ""); }) ==
        "x.json: top level: must be an object {...}, got an array of 2 elements");
  CHECK(error_of([&] { reader.vec(Json::array({1e300, 0, 0}), "particles[0].position"); }) ==
        "x.json: particles[0].position[0]: must be a number of magnitude at most 1e9, got 1e+300");
}

TEST_CASE("json_reader: a value of the wrong type says what it got") {
  const JsonReader reader("x.json", 3);
  CHECK(error_of([&] { reader.number(Json("NaN"), "m"); }) == "x.json: m: must be a number, got the string \"NaN\"");
  CHECK(error_of([&] { reader.boolean(Json(1), "fixed"); }) == "x.json: fixed: must be true or false, got 1");
  CHECK(error_of([&] { reader.string(Json(nullptr), "name"); }) == "x.json: name: must be a string, got null");
  CHECK(error_of([&] { reader.array(Json::object(), "particles"); }) ==
        "x.json: particles: must be an array [...], got an object");
  CHECK(error_of([&] { reader.finite(Json(true), "state.time"); }) ==
        "x.json: state.time: must be a finite number, got true");
  CHECK(error_of([&] { reader.integer(Json(1.5), "constraints[0].particles[1]", "a particle index (an integer)"); }) ==
        "x.json: constraints[0].particles[1]: must be a particle index (an integer), got 1.5");
  CHECK(reader.integer(Json(2.0), "n") == 2);  // an integral float counts as an integer
  const std::string long_text(50, 'a');
  CHECK(error_of([&] { reader.number(Json(long_text), "m"); }) ==
        "x.json: m: must be a number, got the string \"" + std::string(37, 'a') + "...\"");
}

TEST_CASE("json_reader: a missing key, with its hint, and an unknown key, with a suggestion") {
  const JsonReader reader("x.json", 3);
  const Json particle = {{"mas", 1}};
  CHECK(error_of([&] { reader.required(particle, "particles[0]", "position", "[x, y, z]"); }) ==
        "x.json: particles[0]: missing required key \"position\" ([x, y, z])");
  CHECK(error_of([&] { reader.required(particle, "constraints[0]", "direction", ""); }) ==
        "x.json: constraints[0]: missing required key \"direction\"");
  CHECK(error_of([&] { reader.check_keys(particle, "particles[0]", {"position", "mass"}); }) ==
        "x.json: particles[0].mas: unknown key (did you mean \"mass\"?)");
  CHECK(error_of([&] { reader.check_keys(Json{{"rod", 1}}, "", {"distance", "pin", "line", "plane"}); }) ==
        "x.json: rod: unknown key (expected one of: distance, pin, line, plane)");
  CHECK(error_of([&] { reader.check_keys(particle, "particles[0]", {"mas"}); }) == "(no error)");
}

TEST_CASE("json_reader: a vector has the scene's dimension") {
  const JsonReader space("x.json", 3);
  CHECK(error_of([&] { space.vec(Json::array({1, 2}), "gravity"); }) ==
        "x.json: gravity: must be an array of 3 numbers [x, y, z], got an array of 2 elements");
  CHECK(space.vec(Json::array({1, 2, 3}), "gravity") == Vec3(1.0, 2.0, 3.0));
  const JsonReader plane("x.json", 2);
  CHECK(plane.vec(Json::array({1, 2}), "gravity") == Vec3(1.0, 2.0, 0.0));
  CHECK(error_of([&] { plane.vec(Json::array({1, 2, 3, 4}), "gravity"); }) ==
        "x.json: gravity: must be an array of 2 numbers [x, y] (or 3 with z = 0), got an array of 4 elements");
  CHECK(error_of([&] { plane.vec(Json::array({0, 0, 0.5}), "particles[0].position"); }) ==
        "x.json: particles[0].position[2]: must be 0 in a 2D scene, got 0.5 (set \"dimension\": 3 for a 3D scene)");
}

TEST_CASE("json_reader: an optional key fills its field when given and leaves the default when not") {
  const JsonReader reader("x.json", 3);
  const Json object = {{"links", 4}, {"anchor", {1, 2, 3}}};
  int links = 10, nx = 16;
  Vec3 anchor{0.0};
  reader.optional(object, "generators[0]", "links", links);
  reader.optional(object, "generators[0]", "nx", nx);
  reader.optional(object, "generators[0]", "anchor", anchor);
  CHECK(links == 4);
  CHECK(nx == 16);
  CHECK(anchor == Vec3(1.0, 2.0, 3.0));
  bool shear = false;
  CHECK(error_of([&] { reader.optional(object, "generators[0]", "links", shear); }) ==
        "x.json: generators[0].links: must be true or false, got 4");
}

TEST_CASE("json_reader: parsing refuses invalid JSON with its line and column, duplicate keys and deep nesting") {
  // The ',' is the 8th character of line 2: two spaces, "a", ':' and a space come before it.
  const std::string invalid = error_of([] { json_detail::parse_document("{\n  \"a\": ,}", "x.json"); });
  INFO(invalid);
  CHECK(invalid.rfind("x.json: invalid JSON at line 2, column 8: syntax error while parsing value", 0) == 0);
  CHECK(error_of([] {
          json_detail::parse_document(R"({"particles": [{"mass": 1}, {"mass": 1, "mass": 2}]})", "x.json");
        }) == "x.json: particles[1].mass: key given twice in the same object");
  const std::string deep = std::string(65, '[') + std::string(65, ']');
  CHECK(error_of([&] { json_detail::parse_document(deep, "x.json"); }) ==
        "x.json: nested more than 64 levels deep; not a scene file");
  const std::string shallow = std::string(64, '[') + std::string(64, ']');
  CHECK(json_detail::parse_document(shallow, "x.json").is_array());
}

TEST_CASE("json_reader: a file is read whole, and only a regular file within the size limit") {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                     ("lagrange_test_json_reader_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::filesystem::path file = dir / "ten.json";
  std::ofstream(file) << "0123456789";
  CHECK(json_detail::read_file(file, 10) == "0123456789");
  CHECK(error_of([&] { json_detail::read_file(file, 9); }) ==
        file.string() + ": is 10 bytes, more than the limit of 9 for a scene file (--allow-large of lagrange-lab run "
                        "and shot lifts it)");
  CHECK(error_of([&] { json_detail::read_file(dir, 100); }) == dir.string() + ": is a directory, not a scene file");
  CHECK(error_of([&] { json_detail::read_file(dir / "none.json", 100); }) ==
        (dir / "none.json").string() + ": cannot open file: No such file or directory");
  std::filesystem::remove_all(dir);
}
