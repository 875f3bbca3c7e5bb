// The command line as a user runs it: exit codes, messages, and a CSV whose numbers are checked against physics
// recomputed here from the CSV's own positions and velocities.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <sys/wait.h>
#include <unistd.h>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_util.h"
#include "lagrange/scene.h"
#include "lagrange/solver.h"

namespace fs = std::filesystem;

namespace {

using lagrange::test::asset;
using lagrange::test::fresh_dir;
using lagrange::test::read_all;
using lagrange::test::write_all;
using Result = lagrange::test::CliResult;

Result run(const std::string& args) { return lagrange::test::cli(args); }

fs::path temp_dir() {
  fs::path dir = fs::temp_directory_path() / ("lagrange-cli-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir;
}

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream ss(line);
  for (std::string cell; std::getline(ss, cell, ',');) out.push_back(cell);
  return out;
}

}  // namespace

TEST_CASE("lagrange-lab solvers lists exactly the solver table") {
  const Result r = run("solvers");
  CHECK(r.code == 0);
  for (const lagrange::SolverInfo& info : lagrange::solver_table()) CHECK(r.out.find(info.id) != std::string::npos);
}

TEST_CASE("every command has --help") {
  std::vector<const char*> commands{"--help", "run --help", "solvers --help", "bench --help"};
#ifdef LAGRANGE_HAVE_SANDBOX
  commands.push_back("shot --help");
#endif
  for (const char* command : commands) {
    CAPTURE(command);
    const Result r = run(command);
    CHECK(r.code == 0);
    CHECK(r.out.find("usage") != std::string::npos);
  }
}

TEST_CASE("run writes the documented CSV: its energies and violation agree with its own state columns") {
  const fs::path csv = temp_dir() / "seed.csv";
  const Result r = run("run " + asset("seed_pendulum.json") + " --steps 100 --every 10 --csv " + csv.string());
  REQUIRE(r.code == 0);
  CHECK(r.out.find("energy") != std::string::npos);
  CHECK(r.out.find("violation") != std::string::npos);
  std::ifstream in(csv);
  std::string header;
  std::getline(in, header);
  CHECK(header == "step,t,kinetic,potential,energy,violation,x0,y0,z0,vx0,vy0,vz0,x1,y1,z1,vx1,vy1,vz1");
  std::vector<std::vector<std::string>> rows;
  for (std::string line; std::getline(in, line);) rows.push_back(split(line));
  REQUIRE(rows.size() == 11);  // step 0, 10, ..., 100
  const double g = 10.0;       // the seed pendulum's gravity; masses 1 kg
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& row = rows[i];
    REQUIRE(row.size() == 18);
    CHECK(std::stol(row[0]) == static_cast<long>(10 * i));
    CHECK(std::stod(row[1]) == doctest::Approx(0.001 * 10 * i));
    double kinetic = 0.0, potential = 0.0;
    for (int p = 0; p < 2; ++p) {
      const double y = std::stod(row[6 + 6 * p + 1]);
      const double vx = std::stod(row[6 + 6 * p + 3]), vy = std::stod(row[6 + 6 * p + 4]);
      kinetic += 0.5 * (vx * vx + vy * vy);
      potential += g * y;
    }
    CHECK(std::stod(row[2]) == doctest::Approx(kinetic).epsilon(1e-12));
    CHECK(std::stod(row[3]) == doctest::Approx(potential).epsilon(1e-12));
    CHECK(std::stod(row[4]) == doctest::Approx(kinetic + potential).epsilon(1e-12));
    // violation = max |C| in metres: the pin rows |x0|, |y0| and the rod | |x1 − x0| − √2 |.
    const double x0 = std::stod(row[6]), y0 = std::stod(row[7]), x1 = std::stod(row[12]), y1 = std::stod(row[13]);
    const double rod = std::abs(std::hypot(x1 - x0, y1 - y0) - std::sqrt(2.0));
    CHECK(std::abs(std::stod(row[5]) - std::max({std::abs(x0), std::abs(y0), rod})) < 1e-14);
  }
  // Full precision: a value printed with %.17g reads back to the same double.
  CHECK(rows[0][12] == "1");
  CHECK(rows[1][12].size() >= 15);
}

TEST_CASE("run --csv - writes the CSV to standard output") {
  const Result r = run("run " + asset("simple_pendulum.json") + " --steps 3 --csv - --quiet");
  CHECK(r.code == 0);
  CHECK(r.out.rfind("step,t,kinetic,potential,energy,violation,x0", 0) == 0);
  CHECK(std::count(r.out.begin(), r.out.end(), '\n') == 5);  // header + steps 0..3
}

TEST_CASE("run reaches every setting through --set and --solver") {
  const Result r = run("run " + asset("simple_pendulum.json") +
                       " --steps 10 --solver acceleration --set baumgarte=5 --set gravity=0,-1.62,0 --set substeps=3");
  CHECK(r.code == 0);
  CHECK(r.out.find("acceleration") != std::string::npos);
  CHECK(r.out.find("3 substep") != std::string::npos);
}

TEST_CASE("bad command lines and bad scenes exit with code 2 and a message naming the problem") {
  const fs::path dir = temp_dir();
  {
    std::ofstream bad(dir / "bad.json");
    bad << R"({"name": "x", "particles": [{"position": [0, 0], "mass": -1}], "constraints": []})";
  }
  struct Case {
    std::string args, expect;
  };
  const Case cases[] = {
      {"run", "missing SCENE"},
      {"run " + asset("simple_pendulum.json") + " --frobnicate", "unknown option '--frobnicate'"},
      {"run " + asset("simple_pendulum.json") + " --steps ten", "--steps"},
      {"run " + asset("simple_pendulum.json") + " --dt -1", "--dt"},
      {"run " + asset("simple_pendulum.json") + " --solver magic", "unknown solver 'magic'"},
      {"run " + asset("simple_pendulum.json") + " --set tolerance=abc", "tolerance"},
      {"run " + asset("simple_pendulum.json") + " --set colour=red", "unknown setting 'colour'"},
      {"run " + (dir / "bad.json").string(), "bad.json: particles[0].mass"},
      {"run " + (dir / "missing.json").string(), "missing.json"},
      {"frobnicate", "unknown command"},
      {"bench --workload chain7", "unknown workload"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.args);
    const Result r = run(c.args);
    CHECK(r.code == 2);
    CHECK(r.out.find(c.expect) != std::string::npos);
  }
}

TEST_CASE("a CSV that cannot be written fails with code 1 and leaves no partial file") {
  const fs::path dir = temp_dir() / "no-such-dir";
  const Result r = run("run " + asset("simple_pendulum.json") + " --steps 5 --csv " + (dir / "out.csv").string());
  CHECK(r.code == 1);
  CHECK_FALSE(fs::exists(dir / "out.csv"));
  CHECK_FALSE(fs::exists(dir / "out.csv.partial"));
}

TEST_CASE("a bad scene leaves an existing CSV untouched") {
  const fs::path csv = temp_dir() / "keep.csv";
  {
    std::ofstream keep(csv);
    keep << "previous\n";
  }
  const Result r = run("run " + (temp_dir() / "missing.json").string() + " --csv " + csv.string());
  CHECK(r.code == 2);
  std::ifstream in(csv);
  std::string content;
  std::getline(in, content);
  CHECK(content == "previous");
}

TEST_CASE("the same run twice writes bit-identical CSVs") {
  const fs::path a = temp_dir() / "a.csv", b = temp_dir() / "b.csv";
  REQUIRE(run("run " + asset("double_pendulum.json") + " --steps 500 --quiet --csv " + a.string()).code == 0);
  REQUIRE(run("run " + asset("double_pendulum.json") + " --steps 500 --quiet --csv " + b.string()).code == 0);
  std::ifstream fa(a), fb(b);
  std::stringstream sa, sb;
  sa << fa.rdbuf();
  sb << fb.rdbuf();
  CHECK(sa.str().size() > 1000);
  CHECK(sa.str() == sb.str());
}

TEST_CASE("bench runs a small table") {
  const Result r = run("bench --workload pendulum --workload chain10 --steps 5 --repeats 1");
  CHECK(r.code == 0);
  for (const lagrange::SolverInfo& info : lagrange::solver_table()) CHECK(r.out.find(info.id) != std::string::npos);
  CHECK(r.out.find("chain10") != std::string::npos);
}

TEST_CASE("run: a scene whose particles start inside an obstacle or each other says so, and runs") {
  const fs::path dir = fresh_dir("inside");
  const fs::path scene = dir / "inside.json";
  // A ball of 0.1 m whose centre lies 0.05 m above the floor: half its radius inside
  write_all(scene, R"({"dimension": 2, "particles": [{"position": [0, 0.05], "radius": 0.1}],
    "contacts": {"restitution": 0}, "obstacles": [{"type": "plane", "point": [0, 0], "normal": [0, 1]}]})");
  Result r = run("run " + scene.string() + " --duration 0.1");
  CHECK(r.code == 0);
  CHECK(r.out.find("note: '" + scene.string() +
                   "': particle 0 starts 0.5 of its radius behind obstacle 0 (a plane: particles stay on its "
                   "normal's side)") != std::string::npos);
  // A ball 2 radii beyond the wall of a box (which holds particles inside it) is outside it, not inside
  write_all(scene, R"({"dimension": 2, "particles": [{"position": [1.2, 0.5], "radius": 0.1}],
    "contacts": {"restitution": 0}, "obstacles": [{"type": "box", "min": [-1, 0], "max": [1, 1]}]})");
  r = run("run " + scene.string() + " --duration 0.1");
  CHECK(r.code == 0);
  CHECK(r.out.find("particle 0 starts 3 radii outside obstacle 0 (a box: particles stay inside it)") !=
        std::string::npos);
  // Balls that only touch (the shipped cradle): no note
  r = run("run " + asset("newtons_cradle.json") + " --duration 0.1");
  CHECK(r.code == 0);
  CHECK(r.out.find("note:") == std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("bench: a contact workload runs at the window's iteration cap and reports the overlap it left") {
  const fs::path dir = fresh_dir("bench-contacts");
  const auto cells = [&](const std::string& extra) {
    const fs::path json = dir / "cells.json";
    const Result r = run("bench --workload balls1000 --workload pendulum --solver projection --steps 10 --repeats 1 --json " +
                         json.string() + extra);
    REQUIRE(r.code == 0);
    const auto list = nlohmann::json::parse(read_all(json));
    REQUIRE(list.size() == 2);
    return list[0]["workload"] == "balls1000" ? list : nlohmann::json::array({list[1], list[0]});
  };
  const auto plain = cells(""), capped = cells(" --set max_iterations=100"), more = cells(" --set max_iterations=300");
  // Not bench's own 100 000: the same sweeps as the window's 100, step for step
  CHECK(plain[0]["iterations_per_step"] == capped[0]["iterations_per_step"]);
  CHECK(plain[0]["dE"] == capped[0]["dE"]);
  CHECK(more[0]["iterations_per_step"].get<double>() > plain[0]["iterations_per_step"].get<double>());
  // The overlap against the pile as the scene left it, in radii: a number for the balls, none for the pendulum
  REQUIRE(plain[0]["overlap"].is_number());
  CHECK(plain[0]["overlap"].get<double>() >= 0.0);
  CHECK(plain[0]["overlap"].get<double>() < 1.0);
  CHECK(plain[1]["overlap"].is_null());
  fs::remove_all(dir);
}

TEST_CASE("bench: JSON cells, cut cells marked, the degenerate workloads, and --compare against another build") {
  const fs::path dir = fresh_dir("bench");
  const fs::path json = dir / "bench.json";
  Result r = run("bench --workload pendulum --workload hub12 --workload truss40 --solver projection --steps 4 --repeats 2 "
                 "--json " + json.string());
  REQUIRE(r.code == 0);
  const std::string text = read_all(json);
  for (const char* key : {"\"workload\": \"hub12\"", "\"workload\": \"truss40\"", "\"cpu_mean_us\"",
                          "\"cpu_median_us\"", "\"steps\": 8", "\"cut\": false"})
    CHECK(text.find(key) != std::string::npos);
  // A budget too small for one step: the step is stopped part-way, not counted, and the cell says it was cut.
  r = run("bench --workload chain1000 --solver projection --steps 50 --repeats 1 --budget 0.000001");
  CHECK(r.code == 0);
  CHECK(r.out.find("0/50 cut") != std::string::npos);
  // This build against itself: both sides run, ratios are printed.
  r = run("bench --workload pendulum --solver projection --steps 3 --repeats 1 --compare " + std::string(LAGRANGE_EXE));
  CHECK(r.code == 0);
  CHECK(r.out.find("pendulum        projection") != std::string::npos);
  CHECK(r.out.find("(failed") == std::string::npos);
  r = run("bench --workload pendulum --compare " + (dir / "missing").string());
  CHECK(r.code == 2);
  fs::remove_all(dir);
}
