// run --csv with contacts (docs/cli.md): the contact columns after the particles' (contacts, impacts, then per
// obstacle k in file order obstacle<k>_fx, _fy, _fz, the mean force the particles pushed on it over the step), read
// back and checked against the physics (a resting ball's weight, a falling chain's total impulse); a scene without
// contacts keeps its old columns; bad contact keys exit 2 with the loader's message.
#include <doctest/doctest.h>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "cli_util.h"

using lagrange::test::cli;
using lagrange::test::CliResult;
using lagrange::test::fresh_dir;
using lagrange::test::read_all;
using lagrange::test::write_all;

namespace {

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> cells;
  std::stringstream in(line);
  for (std::string cell; std::getline(in, cell, ',');) cells.push_back(cell);
  return cells;
}

}  // namespace

TEST_CASE("run --csv with contacts: contact counts and each obstacle's mean force, after the particles' columns") {
  const auto dir = fresh_dir("contacts_csv");
  const auto scene = dir / "rest.json";
  // A 2 kg ball resting on the floor (obstacle 0) inside a tall box (obstacle 1): the floor reads −m g, the box 0.
  write_all(scene, R"({"dimension": 2, "gravity": [0, -10], "dt": 0.01, "substeps": 2,
    "particles": [{"position": [0, 0.25], "mass": 2, "radius": 0.25}],
    "contacts": {"restitution": 0.5},
    "obstacles": [{"type": "plane", "point": [0, 0], "normal": [0, 1]}, {"type": "box", "min": [-1, -1], "max": [1, 5]}]})");
  const auto csv = dir / "rest.csv";
  const CliResult r = cli("run " + scene.string() + " --steps 10 --csv " + csv.string() + " --quiet");
  REQUIRE(r.code == 0);
  std::stringstream text(read_all(csv));
  std::string header, row;
  std::getline(text, header);
  const auto names = split(header);
  const std::vector<std::string> tail{"contacts", "impacts", "obstacle0_fx", "obstacle0_fy", "obstacle0_fz",
                                      "obstacle1_fx", "obstacle1_fy", "obstacle1_fz"};
  REQUIRE(names.size() == 12 + tail.size());
  CHECK(std::vector<std::string>(names.end() - tail.size(), names.end()) == tail);
  CHECK(names[6] == "x0");
  int rows = 0;
  while (std::getline(text, row)) {
    const auto cells = split(row);
    REQUIRE(cells.size() == names.size());
    if (rows++ == 0) continue;  // the starting state: no step yet
    CHECK(std::stod(cells[12]) == 1);  // the floor
    CHECK(std::stod(cells[13]) == 0);
    CHECK(std::stod(cells[15]) == doctest::Approx(-20.0).epsilon(1e-12));
    CHECK(std::stod(cells[18]) == 0.0);
  }
  CHECK(rows == 11);
}

TEST_CASE("run --csv: a scene without contacts keeps exactly the columns it had") {
  const auto dir = fresh_dir("contacts_none");
  const auto csv = dir / "out.csv";
  const CliResult r = cli("run " + lagrange::test::asset("double_pendulum.json") + " --steps 2 --csv " + csv.string() +
                          " --quiet");
  REQUIRE(r.code == 0);
  std::stringstream text(read_all(csv));
  std::string header;
  std::getline(text, header);
  CHECK(header.find("contacts") == std::string::npos);
  CHECK(header.find("obstacle") == std::string::npos);
  CHECK(split(header).size() == 6 + 6 * 3);
}

TEST_CASE("run: bad contact keys exit 2 with the file, the JSON path and the problem") {
  const auto dir = fresh_dir("contacts_bad");
  struct Case {
    const char* extra;
    const char* message;
  };
  for (const Case c : {Case{R"("contacts": {"restitution": 2})", "contacts.restitution: must be a number in [0, 1]"},
                       Case{R"("contacts": {"friction": -0.5})", "contacts.friction: must be a number >= 0"},
                       Case{R"("obstacles": [{"type": "plane", "point": [0, 0], "normal": [0, 0]}])",
                            "obstacles[0].normal: must be a non-zero vector"},
                       Case{R"("obstacles": [{"type": "box", "min": [0, 0], "max": [-1, 1]}])",
                            "obstacles[0].max[0]: must be greater than min[0]"},
                       Case{R"("obstacles": [{"type": "sphere", "center": [0, 0], "radius": 1}])",
                            "obstacles[0].type: \"sphere\" is for a 3D scene"}}) {
    const auto scene = dir / "bad.json";
    write_all(scene, std::string(R"({"dimension": 2, "particles": [{"position": [0, 1], "mass": 1, "radius": 0.1}], )") +
                         c.extra + "}");
    const CliResult r = cli("run " + scene.string() + " --steps 1");
    CAPTURE(c.extra);
    CHECK(r.code == 2);
    CHECK(r.out.find(scene.string() + ": " + c.message) != std::string::npos);
  }
  const auto scene = dir / "radius.json";
  write_all(scene, R"({"dimension": 2, "particles": [{"position": [0, 1], "mass": 1, "radius": -0.1}]})");
  const CliResult r = cli("run " + scene.string() + " --steps 1");
  CHECK(r.code == 2);
  CHECK(r.out.find("particles[0].radius: must be zero or a positive number") != std::string::npos);
}
