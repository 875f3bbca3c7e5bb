#!/usr/bin/env bash
# Quick start, command 2: install what is missing, build, and run every test through CTest.
#   scripts/test.sh             all tests (engine, command line, sandbox offscreen)
#   scripts/test.sh --sanitize  the engine and command-line tests again under AddressSanitizer + UBSan
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
jobs="$(nproc)"
if [ "${1:-}" = "--sanitize" ]; then
  BUILD_DIR="$root/build-sanitize" BUILD_TYPE=RelWithDebInfo "$root/scripts/build.sh" \
    -DLAGRANGE_SANITIZE=ON -DLAGRANGE_BUILD_APP=OFF
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir "$root/build-sanitize" --output-on-failure -j "$jobs"
  exit 0
fi
"$root/scripts/build.sh"
# The sandbox tests open real OpenGL contexts through SDL's offscreen driver on Mesa: no display needed.
SDL_VIDEODRIVER=offscreen ctest --test-dir "$root/build" --output-on-failure -j "$jobs"
