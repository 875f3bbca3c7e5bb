#!/usr/bin/env bash
# Fuzzes the scene loader (and a few steps of every solver on what it accepts): builds tests/fuzz with clang,
# libFuzzer, ASan and UBSan into build-fuzz/ (or $FUZZ_BUILD_DIR), then runs a fixed number of executions from a
# seed corpus copied from assets/. Any crash, sanitizer report, hang or broken invariant fails the script.
#   scripts/fuzz.sh [RUNS]     (default 20000; CI runs the default)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/install-deps.sh"
runs="${1:-20000}"
build="${FUZZ_BUILD_DIR:-$root/build-fuzz}"
CC=clang CXX=clang++ cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLAGRANGE_FUZZ=ON \
  -DLAGRANGE_BUILD_APP=OFF -DLAGRANGE_BUILD_TESTS=OFF >/dev/null
cmake --build "$build" -j "$(nproc)" --target fuzz_scene
corpus="$(mktemp -d)"
trap 'rm -rf "$corpus"' EXIT
cp "$root"/assets/*.json "$corpus"/
start=$(date +%s)
# -seed fixed: the same executions every time; crash files go to build-fuzz/, not the source tree.
"$build/tests/fuzz/fuzz_scene" -runs="$runs" -seed=1 -max_len=8192 -timeout=10 -rss_limit_mb=2048 \
  -artifact_prefix="$build/" -print_final_stats=1 "$corpus" 2>&1 | grep -v "# Uses:" | tail -n 12
echo "fuzz: $runs executions in $(( $(date +%s) - start )) s, no failure"
