#!/usr/bin/env python3
"""The engine in WebAssembly against the native build, on this machine, in the same run (docs/web.md).

  scripts/web_bench.py NATIVE_BINARY NODE_SCRIPT [BENCH_PAGE_DIR] [--rounds N] [bench options...]

Runs `lagrange-lab bench` of the native build and of the same sources compiled to wasm — run by node (NODE_SCRIPT:
V8, the WebAssembly engine of Chromium) and, given BENCH_PAGE_DIR (build-web/bench), in headless Chromium itself
(tests/web/page_test.py --bench) — N times each (default 5), rotating which goes first, and prints per cell the
median over the rounds of each build's per-step wall-time median (in Chromium the bench page is served
cross-origin isolated, which gives performance.now() a 5 µs grain instead of 100 µs; a step shorter than that reads
as 0 or 5), and the ratios to native. Wall time, for all: the
wasm builds have no thread CPU clock. The accuracy columns must agree (the same arithmetic): a cell whose
max |C|/L or dE differ is flagged. Exit 1 when a run fails or a cell disagrees.
"""
import json
import os
import statistics
import subprocess
import sys

DEFAULT = ["--workload", "pendulum", "--workload", "chain100", "--workload", "cloth32",
           "--solver", "projection", "--solver", "acceleration", "--solver", "penalty",
           "--steps", "60", "--repeats", "3"]


def run(command, env):
    result = subprocess.run(command + ["--json", "-"], capture_output=True, text=True, env=env)
    if result.returncode != 0:
        sys.exit(f"web_bench: {' '.join(command[:3])} failed ({result.returncode}): {result.stderr[-400:]}")
    out = result.stdout  # the JSON array of --json -, alone on stdout, or among page_test's lines
    start, end = out.find("[\n"), out.rfind("\n]")
    return {(cell["workload"], cell["solver"]): cell for cell in json.loads(out[start:end + 2])}


def main():
    args = sys.argv[1:]
    if len(args) < 2:
        sys.exit(__doc__)
    native, script, rest = args[0], args[1], args[2:]
    page = None
    if rest and not rest[0].startswith("-"):
        page, rest = rest[0], rest[1:]
    rounds = 5
    if rest[:1] == ["--rounds"]:
        rounds, rest = int(rest[1]), rest[2:]
    options = rest or DEFAULT
    env = dict(os.environ, NODE_PATH="/usr/share/nodejs")
    commands = {"native": [native, "bench"] + options,
                "node": ["node", "--no-experimental-fetch", script, "bench"] + options}
    if page:
        test = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "web", "page_test.py")
        commands["chromium"] = [sys.executable, test, page, "--bench"] + options
    builds = list(commands)
    times = {build: {} for build in builds}
    accuracy = {build: {} for build in builds}
    for r in range(rounds):
        order = builds[r % len(builds):] + builds[:r % len(builds)]
        for build in order:
            for key, cell in run(commands[build], env).items():
                times[build].setdefault(key, []).append(cell["wall_median_us"])
                accuracy[build][key] = (cell["max_relative_violation"], cell["dE"], cell["iterations_per_step"])
    failed = False
    wasm = [b for b in builds if b != "native"]
    print(f"wall-time median of a 1/60 s step in µs, median of {rounds} rotating rounds")
    print(f"{'workload':<12}{'solver':<14}" + "".join(f"{b:>10}" for b in builds) +
          "".join(f"{b + '/native':>17}" for b in wasm) + "  accuracy")
    for key in times["native"]:
        medians = {b: statistics.median(times[b].get(key, [float("nan")])) for b in builds}
        same = all(accuracy[b].get(key) == accuracy["native"].get(key) for b in wasm)
        failed |= not same
        n = medians["native"]
        print(f"{key[0]:<12}{key[1]:<14}" + "".join(f"{medians[b]:>10.1f}" for b in builds) +
              "".join(f"{medians[b] / n if n else float('nan'):>17.2f}" for b in wasm) +
              f"  {'identical' if same else 'DIFFERS: ' + str({b: accuracy[b].get(key) for b in builds})}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
