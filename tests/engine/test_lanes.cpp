// Lanes (lanes.h): the spec text, the lanes' settings and colours, and the lockstep rule, checked against worlds
// stepped alone (a second computation of the same thing).
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "lagrange/lanes.h"
#include "lagrange/scene.h"
#include "lagrange/solver.h"
#include "test_util.h"

using namespace lagrange;

namespace {

std::string parse_error(const std::string& text) {
  try {
    parse_lanes(text);
  } catch (const Error& error) {
    return error.what();
  }
  return "";
}

bool same_colour(const Colour& a, const Colour& b) { return a.r == b.r && a.g == b.g && a.b == b.b; }

}  // namespace

TEST_CASE("lane specs: solver ids, settings, vector values and the text that reads back") {
  const auto lanes = parse_lanes("projection,acceleration:baumgarte=5:substeps=4,penalty:gravity=0,-1.62,0");
  REQUIRE(lanes.size() == 3);
  CHECK(lanes[0].solver == "projection");
  CHECK(lanes[0].sets.empty());
  CHECK(lanes[1].solver == "acceleration");
  REQUIRE(lanes[1].sets.size() == 2);
  CHECK(lanes[1].sets[0] == std::pair<std::string, std::string>{"baumgarte", "5"});
  CHECK(lanes[1].sets[1] == std::pair<std::string, std::string>{"substeps", "4"});
  REQUIRE(lanes[2].sets.size() == 1);
  CHECK(lanes[2].sets[0].second == "0,-1.62,0");  // the vector keeps its commas
  CHECK(lanes[1].label() == "acceleration baumgarte=5 substeps=4");                 // the command line's words
  CHECK(lanes[1].display_name() == "Acceleration level baumgarte=5 substeps=4");  // the window's: the table's name
  const auto again = parse_lanes(lanes_text(lanes));
  REQUIRE(again.size() == lanes.size());
  for (std::size_t k = 0; k < lanes.size(); ++k) {
    CHECK(again[k].solver == lanes[k].solver);
    CHECK(again[k].sets == lanes[k].sets);
  }

  const Settings base = test::settings_for("projection", 0.01);
  const Settings s = lane_settings(base, lanes[2]);
  CHECK(s.solver == "penalty");
  CHECK(s.gravity == Vec3(0.0, -1.62, 0.0));
  CHECK(s.dt == base.dt);  // what the lane does not set is the base's
}

TEST_CASE("lane specs: every mistake is named, with the lane it is in") {
  CHECK(parse_error("projection,bogus").find("lane 2") != std::string::npos);
  CHECK(parse_error("projection,bogus").find("unknown solver 'bogus'") != std::string::npos);
  CHECK(parse_error("projection,,rattle").find("lane 2") != std::string::npos);
  CHECK(parse_error("").find("lane 1") != std::string::npos);
  CHECK(parse_error("projection:dt").find("KEY=VALUE") != std::string::npos);
  CHECK(parse_error("projection:speed=3").find("speed") != std::string::npos);   // an unknown key
  CHECK(parse_error("projection:dt=-1").find("dt") != std::string::npos);        // out of its range
  CHECK(parse_error("projection:dt=nan").find("dt") != std::string::npos);
  CHECK(parse_error("projection:solver=shake").find("first word") != std::string::npos);
  CHECK(parse_error("projection,shake,rattle,penalty,acceleration").find("at most 4") != std::string::npos);
  CHECK(parse_error("projection,shake,rattle,penalty") == "");
}

TEST_CASE("lane colours: the solver table's, and never the same twice") {
  const auto lanes = parse_lanes("acceleration,projection,projection,projection");
  CHECK(same_colour(lane_colour(lanes, 0), find_solver("acceleration")->colour));
  CHECK(same_colour(lane_colour(lanes, 1), find_solver("projection")->colour));
  for (int a = 0; a < 4; ++a)
    for (int b = a + 1; b < 4; ++b) CHECK_FALSE(same_colour(lane_colour(lanes, a), lane_colour(lanes, b)));
  for (int k = 0; k < 4; ++k) {
    const Colour c = lane_colour(lanes, k);
    for (float v : {c.r, c.g, c.b}) CHECK((v >= 0.0f && v <= 1.0f));
  }
}
