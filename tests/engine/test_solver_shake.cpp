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
