// `lagrange-lab matrix` (app/cli/matrix.cpp): the printed rank, dependent rows and condition of known systems, its
// CSV against the hand-derived matrix, its PNG, and its refusals.
#include <cmath>

#include "cli_util.h"

using namespace lagrange::test;

namespace {
// A hub held by three fixed anchors in 2D: three rod gradients in a plane, the third dependent on the first two.
const char* kHub = R"({"name": "hub", "dimension": 2, "particles": [
  {"position": [0, 0]}, {"position": [1, 0], "fixed": true}, {"position": [-0.5, 0.9], "fixed": true},
  {"position": [-0.4, -1.1], "fixed": true}],
  "constraints": [{"type": "distance", "particles": [0, 1]}, {"type": "distance", "particles": [0, 2]},
                  {"type": "distance", "particles": [0, 3]}]})";
}  // namespace

TEST_CASE("matrix prints rows, rank, dependent rows and the condition of a hub of three rods in 2D") {
  const fs::path dir = fresh_dir("matrix-hub");
  write_all(dir / "hub.json", kHub);
  const CliResult r = cli("matrix " + quote(dir / "hub.json"));
  REQUIRE(r.code == 0);
  CHECK(r.out.find("rows 3\n") != std::string::npos);
  CHECK(r.out.find("rank 2\n") != std::string::npos);
  CHECK(r.out.find("dependent 1\n") != std::string::npos);
  CHECK(r.out.find("dependent row 2: distance #2 (particles 0, 3)") != std::string::npos);
  const auto at = r.out.find("condition ");
  REQUIRE(at != std::string::npos);
  const double condition = std::stod(r.out.substr(at + 10));
  CHECK(std::isfinite(condition));
  CHECK(condition > 1.0);
}

TEST_CASE("matrix --out FILE.csv writes the simple pendulum's 1x1 system: A = 1/m, b = -n.g, lambda = b/A") {
  const fs::path dir = fresh_dir("matrix-csv");
  const CliResult r = cli("matrix " + quote(asset("simple_pendulum.json")) + " --out " + quote(dir / "m.csv"));
  REQUIRE(r.code == 0);
  CHECK(r.out.find("rank 1\n") != std::string::npos);
  const std::string csv = read_all(dir / "m.csv");
  CHECK(csv.starts_with("row,constraint,kind,particles,b,lambda,A0\n"));
  // The bob (1 kg) at (0.6, -0.8) on a 1 m rod from the origin: n = (0.6, -0.8), F = (0, -9.81).
  const std::string line = csv.substr(csv.find('\n') + 1);
  double b = 0, lambda = 0, a = 0;
  REQUIRE(std::sscanf(line.c_str(), "0,0,distance,0 1,%lf,%lf,%lf", &b, &lambda, &a) == 3);
  CHECK(a == doctest::Approx(1.0));
  CHECK(b == doctest::Approx(-(-0.8 * -9.81)));
  CHECK(lambda == doctest::Approx(b / a));
}

#ifdef LAGRANGE_HAVE_SANDBOX
TEST_CASE("matrix --out FILE.png writes a heat map PNG of the cloth's matrix") {
  const fs::path dir = fresh_dir("matrix-png");
  const CliResult r = cli("matrix " + quote(asset("double_pendulum.json")) + " --time 1 --out " + quote(dir / "m.png"));
  REQUIRE(r.code == 0);
  CHECK(r.out.find("t 1") != std::string::npos);
  const std::string png = read_all(dir / "m.png");
  CHECK(png.starts_with("\x89PNG\r\n\x1a\n"));
}
#endif

TEST_CASE("matrix refuses a bad command line, a missing scene, and an output over its input, and takes the cloth (within the dense limit)") {
  const fs::path dir = fresh_dir("matrix-bad");
  CHECK(cli("matrix").code == 2);
  CHECK(cli("matrix " + quote(asset("simple_pendulum.json")) + " --bogus").code == 2);
  CHECK(cli("matrix " + quote(asset("simple_pendulum.json")) + " --time -1").code == 2);
  CHECK(cli("matrix " + quote(asset("simple_pendulum.json")) + " --out " + quote(dir / "m.txt")).code == 2);
  CHECK(cli("matrix " + quote(dir / "missing.json")).code == 2);
  write_all(dir / "hub.json", kHub);
  const CliResult same = cli("matrix " + quote(dir / "hub.json") + " --out " + quote(dir / "hub.json"));
  CHECK(same.code == 2);
  CHECK(read_all(dir / "hub.json") == kHub);
  const CliResult big = cli("matrix " + quote(asset("hanging_cloth.json")) + " --set solver=projection");
  CHECK(big.code == 0);  // 762 rods and pins: within the dense limit
  CHECK(big.out.find("rows ") != std::string::npos);
}
