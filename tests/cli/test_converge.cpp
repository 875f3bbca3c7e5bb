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

#ifdef LAGRANGE_HAVE_SANDBOX
namespace {
// The width and height in a PNG's IHDR chunk (bytes 16..23, big-endian); {0, 0} when the file is not a PNG.
std::pair<unsigned, unsigned> png_size(const std::string& png) {
  if (png.size() < 24 || !png.starts_with("\x89PNG\r\n\x1a\n") || png.substr(12, 4) != "IHDR") return {0, 0};
  const auto word = [&](std::size_t at) {
    unsigned v = 0;
    for (std::size_t i = 0; i < 4; ++i) v = (v << 8) | static_cast<unsigned char>(png[at + i]);
    return v;
  };
  return {word(16), word(20)};
}
}  // namespace

TEST_CASE("converge --plot writes the log-log picture as a 1600x1000 PNG beside the same summary") {
  const fs::path dir = fresh_dir("converge-plot");
  const std::string args = "converge " + quote(asset("simple_pendulum.json")) +
                           " --until 1 --levels 4 --solvers projection,rattle";
  const CliResult plain = cli(args);
  const CliResult r = cli(args + " --plot " + quote(dir / "orders.png"));
  REQUIRE(r.code == 0);
  CHECK(r.out == plain.out);  // the picture changes nothing printed
  CHECK(order_of(r.out, "rattle") == doctest::Approx(2.0).epsilon(0.075));
  const std::string png = read_all(dir / "orders.png");
  CHECK(png_size(png) == std::pair<unsigned, unsigned>{1600, 1000});
  CHECK(listing(dir) == std::vector<std::string>{"orders.png"});  // no temporary file left beside it
}

TEST_CASE("converge --plot writes nothing on bad input and never replaces a file with a half-written one") {
  const fs::path dir = fresh_dir("converge-plot-bad");
  const std::string pendulum = quote(asset("simple_pendulum.json"));
  const fs::path out = dir / "p.png";
  CHECK(cli("converge " + pendulum + " --until 1 --plot " + quote(dir / "p.jpg")).code == 2);  // not a PNG name
  CHECK(cli("converge " + pendulum + " --until 1 --plot ''").code == 2);
  CHECK(cli("converge " + pendulum + " --until 1 --solvers verlet --plot " + quote(out)).code == 2);
  CHECK(cli("converge " + quote(dir / "missing.json") + " --until 1 --plot " + quote(out)).code == 2);
  CHECK(cli("converge " + pendulum + " --plot " + quote(out)).code == 2);  // no --until
  CHECK(cli("converge " + pendulum + " --until 1 --csv " + quote(out) + " --plot " + quote(out)).code == 2);
  CHECK(listing(dir).empty());
  // An existing file stays as it was when the study is refused (a reference run of more than 5e7 steps).
  write_all(out, "keep");
  const CliResult refused = cli("converge " + pendulum + " --until 1000 --levels 12 --plot " + quote(out));
  CHECK(refused.code == 2);
  CHECK(read_all(out) == "keep");
  // The plot over its own scene is refused, the scene untouched.
  write_all(dir / "scene.png", read_all(asset("simple_pendulum.json")));
  CHECK(cli("converge " + quote(dir / "scene.png") + " --until 1 --plot " + quote(dir / "scene.png")).code == 2);
  CHECK(read_all(dir / "scene.png") == read_all(asset("simple_pendulum.json")));
}

TEST_CASE("converge exiting 1 leaves its previous --csv and --plot as they were: summary lost, a plot target refused") {
  const fs::path dir = fresh_dir("converge-exit-1");
  const std::string pendulum = quote(asset("simple_pendulum.json"));
  const fs::path csv = dir / "o.csv", png = dir / "p.png";
  write_all(csv, "keep csv");
  write_all(png, "keep png");
  const std::string study = "converge " + pendulum + " --until 0.2 --levels 2 --solvers projection,rattle";
  // The summary cannot be written (standard output full): exit 1 with the system's reason, both files unchanged.
  const CliResult lost = cli(study + " --csv " + quote(csv) + " --plot " + quote(png), "> /dev/full 2>&1");
  CHECK(lost.code == 1);
  CHECK(read_all(csv) == "keep csv");
  CHECK(read_all(png) == "keep png");
  // A --plot target that cannot be written (a folder): refused before the study, the --csv not replaced either.
  fs::create_directory(dir / "d.png");
  const CliResult folder = cli(study + " --csv " + quote(csv) + " --plot " + quote(dir / "d.png"));
  CHECK(folder.code == 1);
  CHECK(folder.out.find("is a folder") != std::string::npos);
  CHECK(read_all(csv) == "keep csv");
  // The same study with a writable standard output replaces both (so the checks above could fail).
  CHECK(cli(study + " --csv " + quote(csv) + " --plot " + quote(png)).code == 0);
  CHECK(read_all(csv).rfind("solver,dt,error", 0) == 0);
  CHECK(read_all(png).substr(1, 3) == "PNG");
}
#endif
