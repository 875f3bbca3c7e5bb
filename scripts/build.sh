#!/usr/bin/env bash
# Installs what is missing (scripts/install-deps.sh), then configures and builds into build/ (or $BUILD_DIR).
# Extra arguments go to CMake's configure step, e.g. -DLAGRANGE_SANITIZE=ON.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/install-deps.sh"
build="${BUILD_DIR:-$root/build}"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-Release}" "$@" >/dev/null
cmake --build "$build" -j "$(nproc)"
