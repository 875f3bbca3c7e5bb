// Scripted drags from the command line (`run --drag`, `--drag-model`, and `shot --drag`), checked through the CSV
// against closed forms: the nearest reachable point of an over-reached pendulum chain or cloth corner, rods exact,
// the mouse's pin never in the violation column, the energy balance of the summary, and the bad-value messages.
#include <doctest/doctest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "cli_util.h"
#include "lagrange/drag.h"

namespace fs = std::filesystem;

namespace {

using lagrange::test::asset;
using Result = lagrange::test::CliResult;

Result run(const std::string& args) { return lagrange::test::cli(args); }

fs::path temp_file(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / ("lagrange-cli-drag-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir / name;
}

// The CSV as rows of named numbers.
std::vector<std::map<std::string, double>> read_csv(const fs::path& file) {
  std::ifstream in(file);
  std::string line;
  REQUIRE(std::getline(in, line));
  std::vector<std::string> names;
  std::stringstream header(line);
  for (std::string cell; std::getline(header, cell, ',');) names.push_back(cell);
  std::vector<std::map<std::string, double>> rows;
  while (std::getline(in, line)) {
    std::stringstream ss(line);
    std::map<std::string, double> row;
    std::size_t k = 0;
    for (std::string cell; std::getline(ss, cell, ','); ++k) row[names.at(k)] = std::stod(cell);
    REQUIRE(k == names.size());
    rows.push_back(row);
  }
  return rows;
}

bool all_finite(const std::map<std::string, double>& row) {
  for (const auto& [name, value] : row)
    if (!std::isfinite(value)) return false;
  return true;
}

double distance(const std::map<std::string, double>& row, int p, double x, double y, double z) {
  const std::string i = std::to_string(p);
  return std::sqrt(std::pow(row.at("x" + i) - x, 2) + std::pow(row.at("y" + i) - y, 2) + std::pow(row.at("z" + i) - z, 2));
}

double summary_number(const std::string& out, const std::string& after) {
  const auto at = out.find(after);
  REQUIRE_MESSAGE(at != std::string::npos, "summary has no '" << after << "':\n" << out);
  return std::stod(out.substr(at + after.size()));
}

}  // namespace

TEST_CASE("run --drag beyond the reach of a pendulum chain: rods exact, the end at pivot + L direction, at rest") {
  struct Case {
    const char* scene;
    int particle;
    double reach;  // L1 + ... + Ln, from the pivot at the origin
    double mass;
  };
  for (const Case& c : {Case{"simple_pendulum.json", 1, 1.0, 1.0}, Case{"double_pendulum.json", 2, 2.0, 2.0}}) {
    CAPTURE(c.scene);
    const double ux = -0.8, uy = -0.6;  // down and to the left
    const double d = c.reach + 0.4;     // 40 cm beyond reach
    const fs::path csv = temp_file(std::string(c.scene) + ".csv");
    char drag[160];
    std::snprintf(drag, sizeof drag, "--drag %d,%.17g,%.17g,0,0,6", c.particle, d * ux, d * uy);
    const Result r = run("run " + asset(c.scene) + " --duration 6 " + drag + " --csv " + csv.string());
    REQUIRE_MESSAGE(r.code == 0, r.out);
    const auto rows = read_csv(csv);
    REQUIRE(rows.size() == 361);
    for (const auto& row : rows) {
      REQUIRE(all_finite(row));
      // Rods of 1 m exact to 1e-8: the mouse's pin, 40 cm from its point, is never in this column.
      CHECK(row.at("violation") < 1e-8);
    }
    const auto& last = rows.back();
    CHECK(distance(last, c.particle, d * ux, d * uy, 0.0) > 0.39);  // the hand really is out of reach
    // The nearest reachable point, tilted by gravity at most (d − L)/(F/W d) radians under the capped pull.
    const double tilt = (d - c.reach) / (lagrange::DragSettings{}.max_force * d);
    CHECK(distance(last, c.particle, c.reach * ux, c.reach * uy, 0.0) < c.reach * tilt);
    CHECK(last.at("kinetic") < 1e-4 * c.mass * 9.81 * c.reach);  // held still, not swinging
  }
}

TEST_CASE("run --drag beyond the reach of a cloth corner: rods exact, the corner on the rim the two pins allow") {
  // The scene pins corners 0 and 399 at (∓0.475, 0.5, ∓0.475); corner 19 is 19 rods of 5 cm from each, so it can
  // reach the lens where the two balls of radius 0.95 m meet. Pulled straight down, it ends on that lens's rim:
  // below the midpoint of the pins by √(0.95² − (|p0 − p399|/2)²) = 0.95/√2.
  const fs::path csv = temp_file("cloth.csv");
  const Result r = run("run " + asset("hanging_cloth.json") + " --duration 4 --drag 19,0,-2,0,0,4 --every 6 --csv " +
                       csv.string());
  REQUIRE_MESSAGE(r.code == 0, r.out);
  const auto rows = read_csv(csv);
  for (const auto& row : rows) {
    REQUIRE(all_finite(row));
    CHECK(row.at("violation") < 0.05 * 1e-8);  // every 5 cm rod exact to 1e-8 of its length
  }
  const double rim = 0.5 - 0.95 / std::sqrt(2.0);
  // The slack middle of the cloth keeps swinging and tugs the corner by millimetres.
  CHECK(distance(rows.back(), 19, 0.0, rim, 0.0) < 0.02);
  CHECK(rows.back().at("kinetic") < 0.1 * 4.0 * 9.81 * 0.95);
}

TEST_CASE("run --drag-model spring moves a cloth corner to the cursor within about a second") {
  const fs::path csv = temp_file("spring.csv");
  // (0.3, 0.2, -0.3) is 0.85 m from both pinned corners: reachable. Corner 19 starts 0.37 m from it.
  const Result r = run("run " + asset("hanging_cloth.json") +
                       " --duration 1 --drag 19,0.3,0.2,-0.3,0,2 --drag-model spring --csv " + csv.string());
  REQUIRE_MESSAGE(r.code == 0, r.out);
  const auto rows = read_csv(csv);
  CHECK(distance(rows.front(), 19, 0.3, 0.2, -0.3) > 0.3);
  CHECK(distance(rows.back(), 19, 0.3, 0.2, -0.3) < 0.05);
  for (const auto& row : rows) CHECK(row.at("violation") < 0.05 * 1e-8);
}

TEST_CASE("run's summary balances the energy: the drift left after the mouse's work is a small part of it") {
  // Lift the swinging double pendulum's outer bob above the pivot, let go and let it fall.
  const Result r = run("run " + asset("double_pendulum.json") + " --duration 5 --drag 2,0,2,0,2,3.5");
  REQUIRE_MESSAGE(r.code == 0, r.out);
  const double mouse = summary_number(r.out, "work         mouse ");
  const double drift = summary_number(r.out, "drift        ");
  CHECK(std::abs(mouse) > 5.0);
  CHECK(std::abs(drift) < 0.05 * std::abs(mouse));  // the rods' tension while the hand swings them: docs/physics.md
  // And without any drag the mouse has done nothing.
  const Result still = run("run " + asset("double_pendulum.json") + " --duration 1");
  CHECK(summary_number(still.out, "work         mouse ") == 0.0);
}

TEST_CASE("bad --drag and --drag-model values exit with 2 and name the flag and the problem") {
  struct Bad {
    const char* args;
    const char* says;
  };
  const Bad bad[] = {
      {"--drag 9,0,0,0,0,1", "no particle 9"},
      {"--drag 1,0,0,0,2,1", "T1"},
      {"--drag 1,0,0,0,-1,1", "T0"},
      {"--drag 1,zero,0,0,0,1", "X must be a finite number"},
      {"--drag 1,0,nan,0,0,1", "Y must be a finite number"},
      {"--drag x,0,0,0,0,1", "P must be a particle number"},
      {"--drag 1,0,0", "6 comma-separated values"},
      {"--drag 1,0,0,0,0,1,7", "6 comma-separated values"},
      {"--drag 1,0,0,0,0,1 --drag 1,0,0,0,0.5,2", "overlaps"},
      {"--drag-model soft", "hard or spring"},
      {"--drag", "needs a value"},
  };
  std::vector<std::string> commands = {"run"};
#ifdef LAGRANGE_HAVE_SANDBOX
  commands.push_back("shot");
#endif
  for (const std::string& command : commands)
    for (const Bad& b : bad) {
      CAPTURE(command);
      CAPTURE(std::string(b.args));
      const Result r = run(command + " " + asset("simple_pendulum.json") +
                           (command == "shot" ? " --out " + temp_file("bad.png").string() : " --steps 1") + " " +
                           b.args);
      CHECK(r.code == 2);
      // The message's own line: shot prints its usage text after it, which names every flag anyway.
      const std::string message = r.out.substr(0, r.out.find('\n'));
      CHECK(message.find(std::string(b.args).substr(0, 6)) != std::string::npos);  // names the flag
      CHECK(message.find(b.says) != std::string::npos);
    }
}

#ifdef LAGRANGE_HAVE_SANDBOX
TEST_CASE("shot --drag renders the scene after the same scripted drag that run plays") {
  const fs::path png = temp_file("dragged.png"), free = temp_file("free.png");
  const std::string drag = " --drag 2,-1.5,-1.2,0,0,1 --time 1";
  const Result shot = run("shot " + asset("double_pendulum.json") + drag + " --out " + png.string());
  REQUIRE_MESSAGE(shot.code == 0, shot.out);
  CHECK(fs::file_size(png) > 1000);
  CHECK(shot.out.find("after 60 steps") != std::string::npos);
  // The drag changed the picture: the same second without it looks different.
  REQUIRE(run("shot " + asset("double_pendulum.json") + " --time 1 --out " + free.string()).code == 0);
  CHECK(lagrange::test::read_all(png) != lagrange::test::read_all(free));
}
#endif
