// Test entry point of tests/capture. Unlike tests/test_main.cpp it does not trap floating-point exceptions: FFmpeg's
// encoders and scalers compute with them on purpose (as Mesa does for tests/app).
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include "doctest_guard.h"

int main(int argc, char** argv) {
  const lagrange::test::ScratchTmp scratch;
  doctest::Context context(argc, argv);
  const int result = lagrange::test::run_checked(context);
  scratch.finish(result);
  return result;
}
