// run --measure period: the measured period of pendulums written as scene files, against the exact period computed
// here by quadrature of the elliptic integral (not by the program), and the errors of the option.
#include <doctest/doctest.h>

#include <cmath>
#include <numbers>
#include <regex>
#include <string>

#include "cli_util.h"
#include "reference.h"

using lagrange::test::cli;
using lagrange::test::CliResult;
using lagrange::test::fresh_dir;
using lagrange::test::write_all;

TEST_CASE("run --measure period: pendulums of any amplitude against the exact elliptic-integral period") {
  // Bob of 0.4 kg on an L m rod from a fixed pivot, released from rest at θ₀, g = 9.81, the scene's own dt 1/60 s in 4
  // substeps: the printed period within 2e-4 of 4 √(L/g) K(sin(θ₀/2)), and the printed exact value within 1e-9.
  const auto dir = fresh_dir("measure");
  const double g = 9.81;
  struct Case { double length, degrees; };
  for (const Case c : {Case{1.0, 10.0}, Case{2.5, 75.0}, Case{0.6, 120.0}, Case{1.7, 160.0}}) {
    CAPTURE(c.degrees);
    const double theta = c.degrees * std::numbers::pi / 180.0;
    char scene[600];
    std::snprintf(scene, sizeof scene,
                  R"({"dimension": 2, "dt": 0.016666666666666666, "substeps": 4, "particles": [)"
                  R"({"position": [0, 0], "fixed": true}, {"position": [%.17g, %.17g], "mass": 0.4}],)"
                  R"("constraints": [{"type": "distance", "particles": [0, 1]}]})",
                  c.length * std::sin(theta), -c.length * std::cos(theta));
    const auto path = dir / "pendulum.json";
    write_all(path, scene);
    const CliResult r = cli("run " + path.string() + " --duration 30 --measure period --quiet");
    CHECK(r.code == 0);
    const double exact = lagrange::test::pendulum_period_by_quadrature(c.length, g, theta);
    CHECK(lagrange::test::number_after(r.out, "exact") == doctest::Approx(exact).epsilon(1e-9));
    CHECK(lagrange::test::number_after(r.out, "period") == doctest::Approx(exact).epsilon(2e-4));
    CHECK(lagrange::test::number_after(r.out, "small-angle") == doctest::Approx(2.0 * std::numbers::pi * std::sqrt(c.length / g)));
    CHECK(r.out.find("scene ") == std::string::npos);  // --quiet: only the measurement
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("run --measure period: a chosen particle, no closed form, and every way it can be refused") {
  // The double pendulum's lower bob has a period to measure but no closed form.
  CliResult r = cli("run " + lagrange::test::asset("double_pendulum.json") + " --duration 10 --measure period --particle 2");
  CHECK(r.code == 0);
  CHECK(r.out.find("exact        none: particle 2 is not a simple pendulum") != std::string::npos);
  r = cli("run " + lagrange::test::asset("simple_pendulum.json") + " --duration 1 --measure period");  // < 1 period
  CHECK(r.code == 5);
  CHECK(r.out.find("did not cross the middle of its swing twice") != std::string::npos);
  r = cli("run " + lagrange::test::asset("simple_pendulum.json") + " --measure speed");
  CHECK(r.code == 2);
  CHECK(r.out.find("--measure: unknown measurement 'speed' (period)") != std::string::npos);
  r = cli("run " + lagrange::test::asset("simple_pendulum.json") + " --particle 1");
  CHECK(r.code == 2);
  CHECK(r.out.find("--particle: only with --measure") != std::string::npos);
  r = cli("run " + lagrange::test::asset("simple_pendulum.json") + " --measure period --particle 0");
  CHECK(r.code == 2);
  CHECK(r.out.find("particle 0 is fixed") != std::string::npos);
  r = cli("run " + lagrange::test::asset("simple_pendulum.json") + " --measure period --particle 7");
  CHECK(r.code == 2);
  CHECK(r.out.find("the scene has 2 particles (0 .. 1), got 7") != std::string::npos);
}
