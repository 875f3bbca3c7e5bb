// Test entry point. Invalid operations and divisions by zero trap, so a NaN born anywhere in the engine fails
// the test that produced it instead of propagating silently (as Jolt's test main does).
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cfenv>

#include "doctest_guard.h"

int main(int argc, char** argv) {
  feenableexcept(FE_INVALID | FE_DIVBYZERO);
  const lagrange::test::ScratchTmp scratch;
  doctest::Context context(argc, argv);
  const int result = lagrange::test::run_checked(context);
  scratch.finish(result);
  return result;
}
