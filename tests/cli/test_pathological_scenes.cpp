// Pathological but legal scenes (issue 22): one particle held by a thousand identical pins, a rod listed a thousand
// times, a thousand rods on one particle. They run in a fraction of a second, the window and `run` agree, and a
// dense block the solvers cannot make cheap is refused at load, naming its limit. Times are CPU seconds of the child
// (getrusage), with a bound far above the measured ~0.05 s, so a loaded two-core machine cannot fail them; before the
// fix the 2D pins took 8 s of CPU.
#include <doctest/doctest.h>

#include <sys/resource.h>

#include <cmath>
#include <cstdlib>
#include <sstream>

#include "cli_util.h"

using namespace lagrange::test;

namespace {

// The bound on a child's CPU seconds: generous on a loaded two-core machine, and five times that under the
// sanitizers, which slow everything by several times.
#if defined(__SANITIZE_ADDRESS__)
constexpr double kCpuBound = 15.0;
#else
constexpr double kCpuBound = 3.0;
#endif

// CPU seconds (user + system) that the children waited for so far have used.
double children_cpu() {
  struct rusage usage {};
  ::getrusage(RUSAGE_CHILDREN, &usage);
  return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         1e-6 * static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
}

// `lagrange-lab ARGS` and the CPU time it took.
CliResult timed_cli(const std::string& args, double& cpu, const std::string& redirect = "2>&1") {
  const double before = children_cpu();
  CliResult r = cli(args, redirect, 120);
  cpu = children_cpu() - before;
  return r;
}

// One particle at the origin held by `copies` identical pins (2D or 3D), like the issue's 60 KB file.
std::string pinned(int copies, int dimension, const char* extra = "") {
  std::string text = "{\"dimension\": " + std::to_string(dimension) +
                     ", \"particles\": [{\"position\": [0, 0, 0], \"mass\": 1}], \"constraints\": [";
  for (int k = 0; k < copies; ++k)
    text += std::string(k ? ", " : "") + "{\"type\": \"pin\", \"particle\": 0, \"point\": [0, 0, 0]" + extra + "}";
  return text + "]}";
}

// The double pendulum of assets/, with each rod listed `copies` times (the copies after the originals).
std::string repeated_rods(int copies) {
  std::string rods;
  for (int k = 0; k < copies; ++k)
    rods += R"(, {"type": "distance", "particles": [0, 1], "length": 1}, {"type": "distance", "particles": [1, 2], "length": 1})";
  return R"({"dimension": 2, "dt": 0.016666666666666666, "substeps": 8, "particles": [{"position": [0, 0], "fixed": true},
    {"position": [1, 0], "mass": 1}, {"position": [2, 0], "mass": 1}], "constraints": [
    {"type": "distance", "particles": [0, 1], "length": 1}, {"type": "distance", "particles": [1, 2], "length": 1})" +
         rods + "]}";
}

// The numbers of a CSV, row by row.
std::vector<std::vector<double>> csv_numbers(const std::string& text) {
  std::vector<std::vector<double>> rows;
  std::istringstream lines(text);
  std::string line;
  std::getline(lines, line);  // the header
  while (std::getline(lines, line)) {
    std::vector<double>& row = rows.emplace_back();
    std::istringstream cells(line);
    for (std::string cell; std::getline(cells, cell, ',');) row.push_back(std::stod(cell));
  }
  return rows;
}

}  // namespace

TEST_CASE("a particle held by 1000 identical pins steps in well under a second and keeps its zero energy") {
  const fs::path dir = fresh_dir("pins");
  for (const int dimension : {2, 3}) {
    CAPTURE(dimension);
    const fs::path scene = dir / ("pins" + std::to_string(dimension) + ".json");
    write_all(scene, pinned(1000, dimension));
    REQUIRE(fs::file_size(scene) > 50'000);  // the issue's file: 60 KB, within every limit
    double cpu = 0.0;
    const CliResult r = timed_cli("run " + quote(scene) + " --steps 1 --csv " + quote(dir / "pins.csv"), cpu);
    CHECK(r.code == 0);
    CHECK(cpu < kCpuBound);
    // Held at the origin at rest: no energy at all, and the copies are reported as the redundant rows they are
    // (1000 pins of `dimension` rows, of which one pin's rows are independent).
    const auto rows = csv_numbers(read_all(dir / "pins.csv"));
    REQUIRE(rows.size() == 2);
    for (const auto& row : rows)
      for (std::size_t c = 2; c < row.size(); ++c) CHECK(row[c] == 0.0);
    CHECK(r.out.find("redundant rows " + std::to_string(999 * dimension)) != std::string::npos);
  }
#ifdef LAGRANGE_HAVE_SANDBOX
  // The window: its first frames within the frame deadline, and at the end the same energy as `run`, 0 J (it showed
  // 13 339 J when its 250 ms deadline cut the frozen solve short).
  const fs::path scene = dir / "pins2.json";
  ::setenv("SDL_VIDEODRIVER", "offscreen", 0);  // as scripts/test.sh runs the window's tests
  double cpu = 0.0;
  const CliResult window = timed_cli("gui " + quote(scene) + " --quit-after 10 --no-vsync --report", cpu,
                                     "2>&1 | cat");
  CHECK(cpu < 20.0);  // ten software-rendered frames and start-up; 60 s and more before
  CHECK(window.out.find("energy=0 J") != std::string::npos);
  CHECK(window.out.find("state=finite") != std::string::npos);
#endif
}

TEST_CASE("rods listed many times move the scene as the rods listed once") {
  const fs::path dir = fresh_dir("rods");
  write_all(dir / "once.json", repeated_rods(0));
  write_all(dir / "many.json", repeated_rods(500));
  for (const char* solver : {"projection", "rattle", "acceleration", "shake"}) {
    CAPTURE(solver);
    double cpu_once = 0.0, cpu_many = 0.0;
    REQUIRE(timed_cli("run " + quote(dir / "once.json") + " --steps 120 --quiet --solver " + solver + " --csv " +
                          quote(dir / "once.csv"), cpu_once).code == 0);
    const CliResult many = timed_cli("run " + quote(dir / "many.json") + " --steps 120 --quiet --solver " + solver +
                                         " --csv " + quote(dir / "many.csv"), cpu_many);
    REQUIRE(many.code == 0);
    CHECK(cpu_many < kCpuBound);
    const auto a = csv_numbers(read_all(dir / "once.csv")), b = csv_numbers(read_all(dir / "many.csv"));
    REQUIRE(a.size() == b.size());
    double worst = 0.0;
    for (std::size_t i = 0; i < a.size(); ++i)
      for (std::size_t c = 0; c < a[i].size(); ++c) worst = std::max(worst, std::abs(a[i][c] - b[i][c]));
    // The same motion: only the order of a sum may differ. Except projection's: the rods listed once are a chain in
    // its natural order, whose chord matrix is the chain's own at its first guess (RowSystem::chain_setup), so the
    // two runs stop at different iterates within the tolerance (1e-10 of a rod's length), and the double
    // pendulum's chaos grows that to about 6e-8 in these 2 s.
    CHECK(worst < (std::string(solver) == "projection" ? 1e-6 : 1e-9));
  }
}

TEST_CASE("a thousand distinct rods on one particle run fast and a larger dense block is refused naming its limit") {
  const fs::path dir = fresh_dir("hub");
  std::string hub = R"({"dimension": 3, "particles": [{"position": [0, 0, 0], "mass": 1})";
  std::string rods;
  for (int k = 0; k < 1000; ++k) {
    const double a = 2.0 * M_PI * k / 1000.0;
    hub += ", {\"position\": [" + std::to_string(std::cos(a)) + ", " + std::to_string(std::sin(a)) + ", 0], \"fixed\": true}";
    rods += std::string(k ? ", " : "") + "{\"type\": \"distance\", \"particles\": [0, " + std::to_string(k + 1) + "]}";
  }
  write_all(dir / "hub.json", hub + "], \"constraints\": [" + rods + "]}");
  double cpu = 0.0;
  const CliResult r = timed_cli("run " + quote(dir / "hub.json") + " --steps 1", cpu);
  CHECK(r.code == 0);
  CHECK(cpu < kCpuBound);  // 4.5 s before (a dense 1000 x 1000 block of rank 3, factored as if of full rank)
  // 1000 compliant pins: springs side by side, 2000 rows of full rank on one particle (3.6 s a step): refused.
  write_all(dir / "soft.json", pinned(1000, 2, ", \"compliance\": 1e-6"));
  const CliResult soft = timed_cli("run " + quote(dir / "soft.json") + " --steps 1", cpu);
  CHECK(soft.code == 2);
  CHECK(soft.out.find("particle 0 is held by 2000 constraint rows") != std::string::npos);
  CHECK(soft.out.find("more than the limit of 1000") != std::string::npos);
  CHECK(cpu < kCpuBound);
}
