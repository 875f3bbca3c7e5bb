// The lessons' command lines: every `lagrange-lab run assets/...` a lesson text tells a teacher to type runs as
// written, and the period-against-amplitude lesson's `--measure period` gives each bob's exact elliptic-integral
// period, computed here by quadrature from the scene file's own positions (not by the program).
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <numbers>
#include <regex>
#include <string>
#include <vector>

#include "cli_util.h"
#include "reference.h"
#include "lagrange/scene.h"

using lagrange::test::cli;
using lagrange::test::CliResult;

namespace {

// The lesson texts' command lines: "lagrange-lab run assets/FILE.json" and the options after it, with the asset's
// path as this build knows it.
std::vector<std::string> commands_in(const std::string& text) {
  std::vector<std::string> found;
  const std::regex command(R"(lagrange-lab run assets/([a-z0-9_]+\.json)((?: --[a-z-]+(?: [a-z0-9.,-]+)?)*))");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), command); it != std::sregex_iterator(); ++it)
    found.push_back("run " + lagrange::test::asset((*it)[1].str().c_str()) + (*it)[2].str());
  return found;
}

}  // namespace

TEST_CASE("lessons: every command line a lesson text gives runs as written") {
  int commands = 0;
  for (const auto& entry : std::filesystem::directory_iterator(LAGRANGE_ASSETS_DIR)) {
    if (entry.path().extension() != ".json") continue;
    for (const std::string& command : commands_in(lagrange::load_scene_file(entry.path()).description)) {
      CAPTURE(command);
      const CliResult r = cli(command + " --quiet");
      CHECK(r.code == 0);
      ++commands;
    }
  }
  CHECK(commands >= 2);  // at least the two period lessons (simple pendulum, period against amplitude)
}

TEST_CASE("lessons: period against amplitude, --measure period on every bob against the exact period") {
  // The scene's own dt (1/60 s in 4 substeps), 30 s: within 2e-4 of 4 √(L/g) K(sin(θ₀/2)), the timer's resolution at
  // 1/60 s sampling (the same bound as test_measure.cpp), and longer for every higher release.
  const auto file = std::filesystem::path(LAGRANGE_ASSETS_DIR) / "period_amplitude.json";
  const lagrange::Scene scene = lagrange::load_scene_file(file);
  REQUIRE(scene.description.find("lagrange-lab run assets/period_amplitude.json --duration 30 --measure period "
                                 "--particle 11") != std::string::npos);
  const double g = 9.81;
  REQUIRE(scene.settings.gravity.y == -g);
  double previous = 0.0;
  int bobs = 0;
  for (const lagrange::ConstraintDef& rod : scene.constraints) {
    const int pivot = rod.particles[0], bob = rod.particles[1];
    REQUIRE(scene.particles[pivot].fixed);
    const lagrange::Vec3 d = scene.particles[bob].position - scene.particles[pivot].position;
    const double length = rod.number("length").value(), theta = std::atan2(d.x, -d.y);
    CAPTURE(bob);
    CAPTURE(theta * 180.0 / std::numbers::pi);
    const CliResult r = cli("run " + file.string() + " --duration 30 --measure period --quiet --particle " +
                            std::to_string(bob));
    REQUIRE(r.code == 0);
    const double exact = lagrange::test::pendulum_period_by_quadrature(length, g, theta);
    const double measured = lagrange::test::number_after(r.out, "period");
    CHECK(lagrange::test::number_after(r.out, "exact") == doctest::Approx(exact).epsilon(1e-9));
    CHECK(measured == doctest::Approx(exact).epsilon(2e-4));
    CHECK(measured > previous);
    previous = measured;
    ++bobs;
  }
  CHECK(bobs == 6);
}
