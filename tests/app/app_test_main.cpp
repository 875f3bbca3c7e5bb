// Test entry point for the sandbox tests. Unlike tests/test_main.cpp it does not trap floating-point exceptions:
// Mesa's software rasterizer and Dear ImGui compute with infinities on purpose.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "doctest_guard.h"

int main(int argc, char** argv) {
  setenv("SDL_VIDEODRIVER", "offscreen", 0);  // also when run by hand, outside ctest
  // Screenshots, saved scenes and remembered choices the tests trigger (every key, every button) go to a scratch
  // folder, never into the user's pictures, documents or config; so do the tests' own folders (TMPDIR).
  const lagrange::test::ScratchTmp scratch;
  if (!scratch.path().empty()) {
    setenv("XDG_PICTURES_DIR", (scratch.path() + "/pictures").c_str(), 1);
    setenv("XDG_DOCUMENTS_DIR", (scratch.path() + "/documents").c_str(), 1);
    setenv("XDG_CONFIG_HOME", (scratch.path() + "/config").c_str(), 1);  // the window's remembered theme and scale
  }
  doctest::Context context(argc, argv);
  const int result = lagrange::test::run_checked(context);
  scratch.finish(result);
  return result;
}
