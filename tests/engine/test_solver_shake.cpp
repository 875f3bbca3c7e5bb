// SHAKE against a second solver of the same equations: its sweep count grows with the chain, Newton's does not.
// (SHAKE's positions are compared with projection's in test_solver_projection.cpp.)
#include <doctest/doctest.h>

#include <cmath>

#include "test_util.h"

using namespace lagrange;
using lagrange::test::settings_for;

TEST_CASE("SHAKE needs many more sweeps as a chain grows: projection's Newton count does not grow") {
  auto chain = [](const char* solver, int links) {
    Settings s = settings_for(solver, 1.0 / 240.0, {0.0, -9.81, 0.0});
    s.max_iterations = 100000;
    World world = lagrange::test::chain(s, links, 1.0);
    long iterations = 0;
    for (int i = 0; i < 20; ++i) {
      world.step();
      iterations += world.stats().iterations;
      REQUIRE(world.stats().failures == 0);
    }
    return iterations / 20.0;
  };
  const double shake10 = chain("shake", 10), shake100 = chain("shake", 100);
  const double newton10 = chain("projection", 10), newton100 = chain("projection", 100);
  CHECK(shake100 > 5 * shake10);
  CHECK(shake100 > 100);
  CHECK(newton100 < 2 * newton10);
  CHECK(newton100 <= 6);
}

TEST_CASE("a deadline already past stops SHAKE and projection early, as a failure, and no deadline changes nothing") {
  // The window's frame budget (World::set_deadline): the solvers stop where they are once it has passed. Judged by
  // counts, not by time: a deadline in the past lets SHAKE do at most one block of 64 sweeps per substep, where the
  // same 100-link chain needs thousands (the test above); projection gives up each attempt after its first iterate.
  for (const char* solver : {"shake", "projection"}) {
    CAPTURE(solver);
    Settings s = settings_for(solver, 1.0 / 60.0, {0.0, -9.81, 0.0});
    s.max_iterations = 100000;
    World free_world = lagrange::test::chain(s, 100, 1.0);
    World late_world = lagrange::test::chain(s, 100, 1.0);
    for (int i = 0; i < 3; ++i) free_world.step();
    late_world.set_deadline(std::chrono::steady_clock::now() - std::chrono::seconds(1));
    for (int i = 0; i < 3; ++i) late_world.step();
    CHECK(free_world.stats().failures == 0);
    CHECK(late_world.stats().failures > 0);
    if (std::string(solver) == "shake") {
      CHECK(late_world.stats().iterations <= 64 * s.substeps);
      CHECK(late_world.stats().iterations < free_world.stats().iterations);
    }
    // Cleared, the late world converges again (projection first pulls the unfinished chain back onto its rods).
    late_world.set_deadline(std::nullopt);
    for (int i = 0; i < 3; ++i) late_world.step();
    CHECK(late_world.stats().failures == 0);
  }
}
