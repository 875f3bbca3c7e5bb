// Saved states (`run --save-state`, docs/scenes.md "Saved states"): running N steps, saving, then M steps from the
// saved file reproduces an uninterrupted N + M-step run to the last bit, for every solver. The comparison is
// independent of how the state is stored: the trajectories' CSV rows (every position, velocity, energy and the
// time, at full precision) must be the same text, and so must the final saved files.
#include <doctest/doctest.h>

#include <sstream>
#include <string>
#include <vector>

#include "cli/cli_util.h"
#include "lagrange/solver.h"

using namespace lagrange;
using namespace lagrange::test;

namespace {

// Every constraint kind, compliance with damping, air drag: a cart on an inclined wire with a pendulum under it, a
// particle in a tilted plane on a soft rod to a pinned anchor.
constexpr const char* kEveryKind = R"json({
  "name": "every kind", "dimension": 3,
  "settings": {"dt": 0.01, "substeps": 4, "damping": 0.05},
  "particles": [
    {"position": [0, 1, 0], "mass": 2},
    {"position": [0.6, 0.2, 0.1], "mass": 0.5, "velocity": [0, 0, 1]},
    {"position": [2, 0, 0], "mass": 1, "velocity": [0.3, 0, -0.2]},
    {"position": [2, 1, 0]}
  ],
  "constraints": [
    {"type": "line", "particle": 0, "direction": [1, -0.3, 0]},
    {"type": "distance", "particles": [0, 1]},
    {"type": "plane", "particle": 2, "normal": [0.2, 1, 0.1]},
    {"type": "distance", "particles": [2, 3], "compliance": 0.001, "damping": 0.5},
    {"type": "pin", "particle": 3}
  ]
})json";

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

void check_continuation(const fs::path& dir, const std::string& scene, const char* solver, int n, int m) {
  CAPTURE(scene);
  CAPTURE(solver);
  const std::string s = std::string(" --solver ") + solver + " --quiet";
  const fs::path full = dir / "full.json", half = dir / "half.json", rest = dir / "rest.json";
  const fs::path full_csv = dir / "full.csv", rest_csv = dir / "rest.csv";
  REQUIRE(cli("run " + scene + s + " --steps " + std::to_string(n + m) + " --save-state " + full.string() +
              " --csv " + full_csv.string()).code == 0);
  REQUIRE(cli("run " + scene + s + " --steps " + std::to_string(n) + " --save-state " + half.string()).code == 0);
  // The continued run is given no solver: the saved file names it.
  REQUIRE(cli("run " + half.string() + " --quiet --steps " + std::to_string(m) + " --save-state " + rest.string() +
              " --csv " + rest_csv.string()).code == 0);
  CHECK(read_all(full) == read_all(rest));
  const std::vector<std::string> a = lines(read_all(full_csv)), b = lines(read_all(rest_csv));
  REQUIRE(a.size() == static_cast<std::size_t>(n + m + 2));  // header, step 0 .. n + m
  REQUIRE(b.size() == static_cast<std::size_t>(m + 2));
  CHECK(b[0] == a[0]);
  for (int k = 0; k <= m; ++k) {
    CAPTURE(k);
    CHECK(b[static_cast<std::size_t>(k + 1)] == a[static_cast<std::size_t>(n + k + 1)]);
  }
}

}  // namespace

TEST_CASE("a run continued from a saved state equals the uninterrupted run to the last bit, for every solver") {
  const fs::path dir = fresh_dir("save-state");
  write_all(dir / "every_kind.json", kEveryKind);
  for (const SolverInfo& info : solver_table()) {
    check_continuation(dir, asset("double_pendulum.json"), info.id, 37, 25);
    check_continuation(dir, asset("hanging_chain.json"), info.id, 20, 13);
    check_continuation(dir, (dir / "every_kind.json").string(), info.id, 41, 30);
  }
  check_continuation(dir, asset("hanging_cloth.json"), "projection", 12, 9);
  fs::remove_all(dir);
}

TEST_CASE("a saved state is a scene file: it keeps time, step and work, and runs in any solver") {
  const fs::path dir = fresh_dir("save-state-file");
  const fs::path saved = dir / "saved.json";
  REQUIRE(cli("run " + asset("double_pendulum.json") + " --quiet --steps 90 --save-state " + saved.string()).code == 0);
  const std::string text = read_all(saved);
  CHECK(text.find("\"step\": 90") != std::string::npos);
  CHECK(text.find("\"time\": 1.5") != std::string::npos);  // 90 steps of 1/60 s
  const CliResult again = cli("run " + saved.string() + " --solver rattle --steps 30");
  CHECK(again.code == 0);
  CHECK(again.out.find("(2 s simulated)") != std::string::npos);  // it goes on from t = 1.5 s
  fs::remove_all(dir);
}

TEST_CASE("--save-state never replaces the scene, never goes to standard output, and a failed run saves nothing") {
  const fs::path dir = fresh_dir("save-state-safety");
  const fs::path scene = dir / "scene.json";
  write_all(scene, read_all(asset("simple_pendulum.json")));
  const std::string before = read_all(scene);
  CliResult r = cli("run " + scene.string() + " --steps 5 --save-state " + scene.string());
  CHECK(r.code == 2);
  CHECK(read_all(scene) == before);
  r = cli("run " + scene.string() + " --steps 5 --save-state -");
  CHECK(r.code == 2);
  CHECK(r.out.find("--save-state") != std::string::npos);
  // Penalty springs explode on the cloth at this stiffness: exit 3, and no file appears.
  const fs::path saved = dir / "state.json";
  r = cli("run " + asset("hanging_cloth.json") + " --solver penalty --set stiffness=1e9 --steps 60 --save-state " +
          saved.string());
  CHECK(r.code == 3);
  CHECK_FALSE(fs::exists(saved));
  fs::remove_all(dir);
}

TEST_CASE("a saved state keeps its clock: a run whose dt changed continues to the same bits") {
  const fs::path dir = fresh_dir("save-state-clock");
  const fs::path a = dir / "a.json", b = dir / "b.json", c = dir / "c.json", d = dir / "d.json";
  REQUIRE(cli("run " + asset("hanging_chain.json") + " --quiet --steps 30 --save-state " + a.string()).code == 0);
  // From a, with another dt: 30 steps at once against 13, saved, then 17. t is no longer step · dt.
  REQUIRE(cli("run " + a.string() + " --quiet --dt 0.005 --steps 30 --save-state " + d.string()).code == 0);
  REQUIRE(cli("run " + a.string() + " --quiet --dt 0.005 --steps 13 --save-state " + b.string()).code == 0);
  REQUIRE(cli("run " + b.string() + " --quiet --steps 17 --save-state " + c.string()).code == 0);
  CHECK(read_all(c) == read_all(d));
  CHECK(read_all(d).find("\"clock\"") != std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("--every counts steps from the start, so a continued run writes the same rows") {
  const fs::path dir = fresh_dir("save-state-every");
  const fs::path a = dir / "a.json", full = dir / "full.csv", rest = dir / "rest.csv";
  REQUIRE(cli("run " + asset("double_pendulum.json") + " --quiet --steps 60 --every 10 --csv " + full.string()).code == 0);
  REQUIRE(cli("run " + asset("double_pendulum.json") + " --quiet --steps 37 --save-state " + a.string()).code == 0);
  REQUIRE(cli("run " + a.string() + " --quiet --steps 23 --every 10 --csv " + rest.string()).code == 0);
  const std::vector<std::string> x = lines(read_all(full)), y = lines(read_all(rest));
  REQUIRE(x.size() == 8);  // header, steps 0, 10, .., 60
  REQUIRE(y.size() == 5);  // header, step 37 (the start), 40, 50, 60
  CHECK(y[1].rfind("37,", 0) == 0);
  for (int k = 0; k < 3; ++k) CHECK(y[static_cast<std::size_t>(2 + k)] == x[static_cast<std::size_t>(5 + k)]);
  fs::remove_all(dir);
}

TEST_CASE("--save-state refuses a state the mouse still holds, and odd values still make a loadable file") {
  const fs::path dir = fresh_dir("save-state-odd");
  const fs::path saved = dir / "saved.json";
  // The drag's window (0.2 s .. 0.6 s) covers the end of the run (0.5 s): exit 2, nothing written.
  CliResult r = cli("run " + asset("double_pendulum.json") + " --drag 1,1,1,0,0.2,0.6 --steps 30 --save-state " +
                    saved.string());
  CHECK(r.code == 2);
  CHECK(r.out.find("still held") != std::string::npos);
  CHECK_FALSE(fs::exists(saved));
  // A drag that ended before the last step is fine.
  CHECK(cli("run " + asset("double_pendulum.json") + " --quiet --drag 1,1,1,0,0.1,0.3 --steps 30 --save-state " +
            saved.string()).code == 0);
  // A subnormal setting is written and read back.
  REQUIRE(cli("run " + asset("double_pendulum.json") + " --quiet --set damping=1e-310 --steps 3 --save-state " +
              saved.string()).code == 0);
  CHECK(cli("run " + saved.string() + " --quiet --steps 2").code == 0);
  // A scene whose name is not UTF-8 (from its file name) is saved with the bad bytes replaced.
  const fs::path odd = dir / "caf\xe9.json";
  write_all(odd, R"({"particles": [{"position": [0, 0], "fixed": true}, {"position": [1, 0]}],
                     "constraints": [{"type": "distance", "particles": [0, 1]}]})");
  REQUIRE(cli("run '" + odd.string() + "' --quiet --steps 3 --save-state " + saved.string()).code == 0);
  CHECK(cli("run " + saved.string() + " --quiet --steps 2").code == 0);
  // Gravity out of the plane of a 2D scene is refused up front, as in a file.
  r = cli("run " + asset("double_pendulum.json") + " --set gravity=0,-9.81,1 --steps 3");
  CHECK(r.code == 2);
  CHECK(r.out.find("settings.gravity[2]: must be 0 in a 2D scene") != std::string::npos);
  fs::remove_all(dir);
}
