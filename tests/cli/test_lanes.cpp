// run --lanes and shot --lanes: every lane's rows against the same run made alone with that lane's settings (a second
// computation), the periods of the lanes against the exact period, and the option's mistakes.
#include <doctest/doctest.h>

#include <cmath>
#include <numbers>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "cli_util.h"
#include "reference.h"

using lagrange::test::asset;
using lagrange::test::cli;
using lagrange::test::CliResult;
using lagrange::test::fresh_dir;
using lagrange::test::read_all;

namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The rows of lane `lane` (its "LANE,SOLVER," prefix taken off) from a CSV written with --lanes.
std::vector<std::string> lane_rows(const std::vector<std::string>& csv, int lane, const std::string& solver) {
  const std::string prefix = std::to_string(lane) + "," + solver + ",";
  std::vector<std::string> rows;
  for (std::size_t i = 1; i < csv.size(); ++i)
    if (csv[i].starts_with(prefix)) rows.push_back(csv[i].substr(prefix.size()));
  return rows;
}

}  // namespace

TEST_CASE("run --lanes: each lane's CSV rows are the rows of that lane run alone") {
  const auto dir = fresh_dir("lanes-csv");
  const std::string scene = asset("double_pendulum.json");
  const CliResult lanes = cli("run " + scene + " --duration 1 --every 5 --lanes projection,acceleration,"
                              "projection:dt=0.004 --csv " + (dir / "lanes.csv").string());
  REQUIRE(lanes.code == 0);
  const auto csv = lines_of(read_all(dir / "lanes.csv"));
  REQUIRE(!csv.empty());
  CHECK(csv[0].starts_with("lane,solver,step,t,kinetic,potential,energy,violation,x0,"));

  REQUIRE(cli("run " + scene + " --duration 1 --every 5 --solver projection --csv " + (dir / "p.csv").string()).code == 0);
  REQUIRE(cli("run " + scene + " --duration 1 --every 5 --solver acceleration --csv " + (dir / "a.csv").string()).code == 0);
  // The third lane steps 0.004 s until it reaches lane 1's time, 1 s: 250 steps.
  REQUIRE(cli("run " + scene + " --steps 250 --every 5 --solver projection --dt 0.004 --csv " +
              (dir / "d.csv").string()).code == 0);
  for (const auto& [lane, solver, file] : {std::tuple{1, "projection", "p.csv"}, std::tuple{2, "acceleration", "a.csv"},
                                           std::tuple{3, "projection", "d.csv"}}) {
    CAPTURE(lane);
    auto alone = lines_of(read_all(dir / file));
    alone.erase(alone.begin());  // its header
    const auto rows = lane_rows(csv, lane, solver);
    CHECK(rows.size() == alone.size());
    CHECK(rows == alone);
  }
  // The summary: one line per lane, in order, naming its settings.
  CHECK(std::regex_search(lanes.out, std::regex("\n1 +projection +0.0166667 +60 ")));
  CHECK(std::regex_search(lanes.out, std::regex("\n2 +acceleration +0.0166667 +60 ")));
  CHECK(std::regex_search(lanes.out, std::regex("\n3 +projection dt=0.004 +0.004 +250 ")));
}

TEST_CASE("run --lanes --measure period: each lane's period against the exact period") {
  // simple_pendulum.json: a 1 m rod from a fixed pivot, released at rest from (0.6, -0.8): 36.87° off the vertical.
  const double exact = lagrange::test::pendulum_period_by_quadrature(1.0, 9.81, std::atan2(0.6, 0.8));
  const CliResult r = cli("run " + asset("simple_pendulum.json") + " --duration 10 --measure period --quiet "
                          "--lanes projection,rattle,acceleration");
  REQUIRE(r.code == 0);
  std::vector<double> periods;
  const std::regex line("\nperiod +([-+0-9.eE]+) s");
  for (auto it = std::sregex_iterator(r.out.begin(), r.out.end(), line); it != std::sregex_iterator(); ++it)
    periods.push_back(std::stod((*it)[1]));
  REQUIRE(periods.size() == 3);
  CHECK(periods[0] == doctest::Approx(exact).epsilon(1e-4));  // position-level: the Δt error only
  CHECK(periods[1] == doctest::Approx(exact).epsilon(1e-4));
  // The acceleration-level lane's rod grows, and a longer pendulum swings slower: its period is visibly off.
  CHECK(periods[2] > exact * (1.0 + 1e-3));
  CHECK(r.out.find("lane 3       acceleration") != std::string::npos);
  // Each lane's exact period is its own: on the Moon, the same swing takes sqrt(9.81 / 1.62) times longer.
  const CliResult moon = cli("run " + asset("simple_pendulum.json") + " --duration 30 --measure period --quiet "
                             "--lanes projection,projection:gravity=0,-1.62,0");
  REQUIRE(moon.code == 0);
  const std::size_t second = moon.out.find("lane 2");
  REQUIRE(second != std::string::npos);
  const double moon_exact = lagrange::test::pendulum_period_by_quadrature(1.0, 1.62, std::atan2(0.6, 0.8));
  CHECK(lagrange::test::number_after(moon.out.substr(0, second), "exact") == doctest::Approx(exact).epsilon(1e-9));
  CHECK(lagrange::test::number_after(moon.out.substr(second), "exact") == doctest::Approx(moon_exact).epsilon(1e-9));
  CHECK(lagrange::test::number_after(moon.out.substr(second), "period") == doctest::Approx(moon_exact).epsilon(1e-4));
}

TEST_CASE("run --lanes: a lane's recoveries and fallbacks are said as a run of it alone says them") {
  // The hanging cloth: its flat sheet's rows lose rank, and SHAKE's Newton cannot finish some of its substeps, which
  // go to projection. (A released chain no longer serves: SHAKE splits its whipping substeps, and Newton then solves
  // every half; nor does the chain over a peg, whose contacts Newton now takes by an active set.)
  const std::string scene = asset("hanging_cloth.json");
  const auto count = [](const std::string& out, const std::string& label) {
    std::smatch m;
    return std::regex_search(out, m, std::regex(label + " +([0-9]+)")) ? std::stol(m[1]) : -1L;
  };
  const CliResult alone = cli("run " + scene + " --duration 1 --solver shake");
  const CliResult lanes = cli("run " + scene + " --duration 1 --lanes projection,shake");
  REQUIRE(alone.code == 0);
  REQUIRE(lanes.code == 0);
  const long fallbacks = count(alone.out, "fallbacks"), recoveries = count(alone.out, "recoveries");
  CHECK(fallbacks > 0);
  CHECK(count(lanes.out, "lane 2: fallbacks") == fallbacks);
  CHECK(recoveries > 0);
  CHECK(count(lanes.out, "lane 2: recoveries") == recoveries);
}

TEST_CASE("run --lanes: mistakes exit 2 with the lane named, and a lane that fails fails the run") {
  const std::string scene = asset("double_pendulum.json");
  CliResult r = cli("run " + scene + " --lanes projection,bogus");
  CHECK(r.code == 2);
  CHECK(r.out.find("lane 2 ('bogus'): unknown solver") != std::string::npos);
  r = cli("run " + scene + " --lanes projection,shake,rattle,penalty,acceleration");
  CHECK(r.code == 2);
  CHECK(r.out.find("at most 4 lanes") != std::string::npos);
  r = cli("run " + scene + " --lanes projection,rattle --solver shake");
  CHECK(r.code == 2);
  CHECK(r.out.find("exclude each other") != std::string::npos);
  r = cli("run " + scene + " --lanes projection:dt=0.004");  // one lane is not a comparison
  CHECK(r.code == 2);
  CHECK(r.out.find("two to 4 lanes") != std::string::npos);
  r = cli("run " + scene + " --lanes projection,acceleration:dt=5");
  CHECK(r.code == 2);
  CHECK(r.out.find("dt") != std::string::npos);
  r = cli("run " + scene + " --serial --duration 0.1");  // nothing to step in turn: said, not ignored
  CHECK(r.code == 2);
  CHECK(r.out.find("--serial: only with --lanes") != std::string::npos);
  const auto dir = fresh_dir("lanes-fail");
  r = cli("run " + scene + " --lanes projection,rattle --save-state " + (dir / "s.json").string());
  CHECK(r.code == 2);
  CHECK(!std::filesystem::exists(dir / "s.json"));
  // The acceleration lane drifts past a 1 % limit within 10 s (the drift is the lesson): exit 3, no CSV.
  r = cli("run " + scene + " --duration 10 --lanes projection,acceleration --max-violation 0.01 --csv " +
          (dir / "c.csv").string());
  CHECK(r.code == 3);
  CHECK(r.out.find("lane 2 (acceleration)") != std::string::npos);
  CHECK(!std::filesystem::exists(dir / "c.csv"));
}

#if defined(LAGRANGE_HAVE_SANDBOX)
TEST_CASE("shot --lanes: the picture and its options, and mistakes exit 2") {
  const auto dir = fresh_dir("lanes-shot");
  const std::string scene = asset("double_pendulum.json");
  for (const char* view : {"overlay", "split"}) {
    CAPTURE(view);
    const auto png = dir / (std::string(view) + ".png");
    const CliResult r = cli("shot " + scene + " --time 3 --size 320x200 --lanes projection,acceleration,penalty "
                            "--lane-view " + view + " --exaggerate 100 --rest-lengths --length-labels --out " +
                            png.string());
    CHECK(r.code == 0);
    CHECK(std::filesystem::file_size(png) > 1000);
  }
  // A scripted drag with lanes: every lane is dragged (tested in the window's tests); the picture is made.
  const CliResult dragged = cli("shot " + scene + " --time 1.5 --size 320x200 --lanes projection,rattle "
                                "--drag 2,-1.9,-1.4,0,0,1 --out " + (dir / "drag.png").string());
  CHECK(dragged.code == 0);
  CHECK(std::filesystem::exists(dir / "drag.png"));
  for (const char* bad : {"--lanes projection,bogus", "--lane-view sideways", "--exaggerate 7",
                          "--lanes projection,rattle --solver shake", "--lanes ''", "--lanes rattle"}) {
    CAPTURE(bad);
    const CliResult r = cli("shot " + scene + " " + bad + " --out " + (dir / "bad.png").string());
    CHECK(r.code == 2);
    CHECK(!std::filesystem::exists(dir / "bad.png"));
  }
}
#endif

TEST_CASE("run --lanes side by side on threads writes the CSV and summary of --serial, byte for byte") {
  // The hanging cloth's lanes take milliseconds a step: enough to step side by side (simulation.h, `parallel`).
  const auto dir = fresh_dir("lanes-parallel");
  const std::string scene = asset("hanging_cloth.json");
  const std::string lanes = " --steps 12 --lanes projection,rattle,shake,projection:substeps=2 --csv ";
  const CliResult side = cli("run " + scene + lanes + (dir / "side.csv").string());
  const CliResult serial = cli("run " + scene + lanes + (dir / "serial.csv").string() + " --serial");
  REQUIRE(side.code == 0);
  REQUIRE(serial.code == 0);
  CHECK(read_all(dir / "side.csv") == read_all(dir / "serial.csv"));
  // The summaries agree but for the wall time.
  const auto without_wall = [](const std::string& text) { return std::regex_replace(text, std::regex("wall time.*"), ""); };
  CHECK(without_wall(side.out) == without_wall(serial.out));
}
