// The order of accuracy (engine/src/convergence.cpp): the fitted slope against slopes known in closed form, and the
// solvers' orders on the simple pendulum against what their schemes are (docs/physics.md, "Order of accuracy").
#include <doctest/doctest.h>

#include <atomic>
#include <cmath>
#include <vector>

#include "lagrange/convergence.h"
#include "lagrange/scene.h"
#include "test_util.h"

using namespace lagrange;

TEST_CASE("converge: the fitted order of y = c x^p is p, and points that cannot be logged are left out") {
  const std::vector<double> x{0.1, 0.05, 0.025, 0.0125};
  for (double p : {1.0, 2.0, 0.5}) {
    std::vector<double> y;
    for (double v : x) y.push_back(3.0 * std::pow(v, p));
    CHECK(fitted_order(x, y) == doctest::Approx(p));
  }
  CHECK(fitted_order({0.1, 0.05, 0.025}, {0.2, NAN, 0.05}) == doctest::Approx(std::log(4.0) / std::log(4.0)));
  CHECK(std::isnan(fitted_order({0.1}, {0.2})));
}

TEST_CASE("converge: on the simple pendulum projection and the acceleration level are first order, rattle and shake second") {
  const Scene scene = load_scene_file(std::string(LAGRANGE_ASSETS_DIR) + "/simple_pendulum.json");
  ConvergenceStudy study;
  study.until = 1.0;
  study.levels = 4;
  study.coarsest = 1.0 / 200;
  study.solvers = {"projection", "acceleration", "rattle", "shake"};
  const ConvergenceReport report = convergence_study(scene, study);
  REQUIRE(report.results.size() == 4);
  CHECK(report.results[0].order == doctest::Approx(1.0).epsilon(0.15));
  CHECK(report.results[1].order == doctest::Approx(1.0).epsilon(0.15));
  CHECK(report.results[2].order == doctest::Approx(2.0).epsilon(0.15 / 2));
  // SHAKE's positions are Verlet's, second order, started with half a step of acceleration (x1 = x0 + h v0 +
  // h^2 a0 / 2 before the projection, as Taylor has). Projection's are the same leapfrog started with a whole step
  // (h^2 a0): that first step's O(h^2) slip stays as an O(h) velocity error, so it is first order (docs/physics.md).
  CHECK(report.results[3].order == doctest::Approx(2.0).epsilon(0.15 / 2));
  // Halving the step halves (first order) or quarters (second order) the error at the finest levels.
  const auto& r = report.results[2].levels;
  CHECK(r[2].error / r[3].error == doctest::Approx(4.0).epsilon(0.15));
}

TEST_CASE("converge: bad studies are refused with the reason") {
  const Scene scene = load_scene_file(std::string(LAGRANGE_ASSETS_DIR) + "/simple_pendulum.json");
  ConvergenceStudy study;
  study.levels = 1;
  CHECK_THROWS_AS(convergence_study(scene, study), Error);
  study.levels = 3;
  study.solvers = {"verlet"};
  CHECK_THROWS_AS(convergence_study(scene, study), Error);
}

TEST_CASE("converge: a study told its progress and given a cancel flag reports the same bits, and stops when cancelled") {
  const Scene scene = load_scene_file(std::string(LAGRANGE_ASSETS_DIR) + "/simple_pendulum.json");
  ConvergenceStudy study;
  study.until = 0.5;
  study.levels = 3;
  study.solvers = {"projection", "rattle"};
  const ConvergenceReport plain = convergence_study(scene, study);
  // The progress rises, never past 1, and ends at 1: the steps it counts are the study's own.
  std::vector<double> seen;
  std::atomic<bool> cancel{false};
  ConvergenceStudy watched = study;
  watched.progress = [&](double fraction) { seen.push_back(fraction); };
  watched.cancel = &cancel;
  const ConvergenceReport report = convergence_study(scene, watched);
  REQUIRE(report.results.size() == plain.results.size());
  for (std::size_t k = 0; k < plain.results.size(); ++k) {
    CHECK(report.results[k].order == plain.results[k].order);
    for (std::size_t l = 0; l < plain.results[k].levels.size(); ++l)
      CHECK(report.results[k].levels[l].error == plain.results[k].levels[l].error);
  }
  REQUIRE(!seen.empty());
  for (std::size_t i = 1; i < seen.size(); ++i) CHECK(seen[i] >= seen[i - 1]);
  CHECK(seen.back() == doctest::Approx(1.0));
  // Cancelled from the progress callback: the study stops with ConvergenceCancelled, before it is done.
  std::vector<double> partial;
  watched.progress = [&](double fraction) {
    partial.push_back(fraction);
    cancel.store(true);
  };
  CHECK_THROWS_AS(convergence_study(scene, watched), ConvergenceCancelled);
  REQUIRE(partial.size() == 1);
  CHECK(partial[0] < 1.0);
}
