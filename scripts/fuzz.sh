#!/usr/bin/env bash
# Fuzzes the scene loader (and a few steps of every solver on what it accepts), then the whole command line of `run`
# (arguments and scene together: tests/fuzz/fuzz_cli.cpp): builds tests/fuzz with clang, libFuzzer, ASan and UBSan
# into build-fuzz/ (or $FUZZ_BUILD_DIR), then runs a fixed number of executions of each from seed corpora: the
# shipped scenes, and pathological but legal ones (1000 identical pins on one particle, a rod listed 500 times, 300
# rods on one particle). Any crash, sanitizer report, hang or broken invariant fails the script.
#   scripts/fuzz.sh [RUNS]     (default 20000 executions of each target; CI runs the
#                              default: about three minutes: 5000 of the command line took 24 s)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/install-deps.sh"
runs="${1:-20000}"
build="${FUZZ_BUILD_DIR:-$root/build-fuzz}"
CC=clang CXX=clang++ cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLAGRANGE_FUZZ=ON \
  -DLAGRANGE_BUILD_APP=OFF -DLAGRANGE_BUILD_TESTS=OFF >/dev/null
cmake --build "$build" -j "$(nproc)" --target fuzz_scene fuzz_cli
corpus="$(mktemp -d)"
cli_corpus="$(mktemp -d)"
trap 'rm -rf "$corpus" "$cli_corpus"' EXIT
cp "$root"/assets/*.json "$corpus"/
# The command line's seeds: each shipped scene with a few arguments, and the pathological scenes.
python3 - "$root/assets" "$cli_corpus" <<'PY'
import json, math, os, sys
assets, out = sys.argv[1], sys.argv[2]
def seed(name, scene, args):
    with open(os.path.join(out, name), "wb") as f:
        f.write(scene.encode() + b"\0" + "\n".join(args).encode())
for k, name in enumerate(sorted(os.listdir(assets))):
    text = open(os.path.join(assets, name)).read()
    args = [["--steps", "3"], ["--steps", "2", "--csv", "o.csv", "--every", "2"],
            ["--steps", "2", "--lanes", "projection,acceleration"], ["--steps", "1", "--save-state", "s.json"],
            ["--steps", "3", "--drag", "1,0.5,0.5,0,0,0.02", "--drag-model", "spring"]][k % 5]
    seed("asset-" + name, text, args)
pins = {"dimension": 2, "particles": [{"position": [0, 0], "mass": 1}],
        "constraints": [{"type": "pin", "particle": 0, "point": [0, 0]}] * 1000}
seed("pins", json.dumps(pins), ["--steps", "2", "--csv", "o.csv"])
rods = {"particles": [{"position": [0, 0], "fixed": True}, {"position": [1, 0], "mass": 1}],
        "constraints": [{"type": "distance", "particles": [0, 1]}] * 500}
seed("rods", json.dumps(rods), ["--steps", "2", "--solver", "rattle"])
hub = {"dimension": 3, "particles": [{"position": [0, 0, 0], "mass": 1}] + [
    {"position": [math.cos(a), math.sin(a), 0], "fixed": True} for a in (2 * math.pi * k / 300 for k in range(300))],
    "constraints": [{"type": "distance", "particles": [0, k + 1]} for k in range(300)]}
seed("hub", json.dumps(hub), ["--steps", "1"])
PY
start=$(date +%s)
# -seed fixed: the same executions every time; crash files go to build-fuzz/, not the source tree.
"$build/tests/fuzz/fuzz_scene" -runs="$runs" -seed=1 -max_len=8192 -timeout=10 -rss_limit_mb=2048 \
  -artifact_prefix="$build/" -print_final_stats=1 "$corpus" 2>&1 | grep -v "# Uses:" | tail -n 12
echo "fuzz: scene loader, $runs executions in $(( $(date +%s) - start )) s, no failure"
start=$(date +%s)
cli_runs="$runs"
"$build/tests/fuzz/fuzz_cli" -runs="$cli_runs" -seed=1 -max_len=65536 -timeout=20 -rss_limit_mb=2048 \
  -artifact_prefix="$build/cli-" -print_final_stats=1 "$cli_corpus" 2>&1 | grep -v "# Uses:" | tail -n 12
echo "fuzz: command line, $cli_runs executions in $(( $(date +%s) - start )) s, no failure"
