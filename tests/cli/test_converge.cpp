// `lagrange-lab converge` (app/cli/converge.cpp): the fitted orders of the schemes on the simple pendulum (first order
// for projection and the acceleration level, second for RATTLE and SHAKE), its CSV, and its refusals.
#include <cmath>
#include <regex>

#include "cli_util.h"

using namespace lagrange::test;

namespace {
double order_of(const std::string& out, const std::string& solver) {
  std::smatch m;
  REQUIRE(std::regex_search(out, m, std::regex("(^|\n)" + solver + " +order (-?[0-9.]+) +error ([0-9.e+-]+) at dt")));
  return std::stod(m[2]);
}
}  // namespace

TEST_CASE("converge prints one fitted order per solver: 1 for projection and acceleration, 2 for rattle") {
  const fs::path dir = fresh_dir("converge");
  const CliResult r = cli("converge " + quote(asset("simple_pendulum.json")) +
                          " --until 1 --levels 4 --solvers projection,acceleration,rattle --csv " + quote(dir / "c.csv"));
  REQUIRE(r.code == 0);
  CHECK(order_of(r.out, "projection") == doctest::Approx(1.0).epsilon(0.15));
  CHECK(order_of(r.out, "acceleration") == doctest::Approx(1.0).epsilon(0.15));
  CHECK(order_of(r.out, "rattle") == doctest::Approx(2.0).epsilon(0.075));
  CHECK(r.out.find("shake") == std::string::npos);
  // The CSV: 3 solvers x 4 levels, each level half the step of the one before; the errors fall with the step.
  const std::string csv = read_all(dir / "c.csv");
  REQUIRE(csv.starts_with("solver,dt,error\n"));
  std::istringstream in(csv.substr(16));
  std::string line;
  double last_dt = 0, last_error = 0;
  int rows = 0;
  while (std::getline(in, line) && line != "solver,order") {
    const auto a = line.find(','), b = line.rfind(',');
    const double dt = std::stod(line.substr(a + 1, b - a - 1)), error = std::stod(line.substr(b + 1));
    if (rows % 4) {
      CHECK(dt == doctest::Approx(last_dt / 2));
      CHECK(error < last_error);
    }
    last_dt = dt, last_error = error;
    ++rows;
  }
  CHECK(rows == 12);
}

TEST_CASE("converge refuses a missing --until, an unknown solver, a bad level count and a missing scene") {
  const std::string pendulum = quote(asset("simple_pendulum.json"));
  CHECK(cli("converge " + pendulum).code == 2);
  CHECK(cli("converge " + pendulum + " --until 1 --solvers projection,verlet").code == 2);
  CHECK(cli("converge " + pendulum + " --until 1 --levels 1").code == 2);
  CHECK(cli("converge " + pendulum + " --until -1").code == 2);
  CHECK(cli("converge " + pendulum + " --until 1 --wat").code == 2);
  CHECK(cli("converge /nonexistent/scene.json --until 1").code == 2);
}
