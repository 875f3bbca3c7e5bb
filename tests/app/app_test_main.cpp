// Test entry point for the sandbox tests. Unlike tests/test_main.cpp it does not trap floating-point exceptions:
// Mesa's software rasterizer and Dear ImGui compute with infinities on purpose.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdlib>

#include "doctest_guard.h"

int main(int argc, char** argv) {
  setenv("SDL_VIDEODRIVER", "offscreen", 0);  // also when run by hand, outside ctest
  doctest::Context context(argc, argv);
  return lagrange::test::run_checked(context);
}
