#!/usr/bin/env python3
"""The engine in WebAssembly against the native build, on this machine, in the same run (docs/web.md).

  scripts/web_bench.py NATIVE_BINARY NODE_SCRIPT [--rounds N] [bench options...]

Runs `lagrange-lab bench` of the native build and of the same sources compiled to wasm (NODE_SCRIPT, run by node: V8,
the WebAssembly engine of Chromium) N times each (default 5), alternating which goes first, and prints per cell the
median over the rounds of each build's per-step wall-time median, and their ratio (wasm / native). Wall time, for
both: the wasm build has no thread CPU clock. The accuracy columns must agree (the same arithmetic): a cell whose
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
    return {(cell["workload"], cell["solver"]): cell for cell in json.loads(result.stdout)}


def main():
    args = sys.argv[1:]
    if len(args) < 2:
        sys.exit(__doc__)
    native, script, rest = args[0], args[1], args[2:]
    rounds = 5
    if rest[:1] == ["--rounds"]:
        rounds, rest = int(rest[1]), rest[2:]
    options = rest or DEFAULT
    env = dict(os.environ, NODE_PATH="/usr/share/nodejs")
    commands = {"native": [native, "bench"] + options,
                "wasm": ["node", "--no-experimental-fetch", script, "bench"] + options}
    times = {"native": {}, "wasm": {}}
    accuracy = {"native": {}, "wasm": {}}
    for r in range(rounds):
        order = ["native", "wasm"] if r % 2 == 0 else ["wasm", "native"]
        for build in order:
            for key, cell in run(commands[build], env).items():
                times[build].setdefault(key, []).append(cell["wall_median_us"])
                accuracy[build][key] = (cell["max_relative_violation"], cell["dE"], cell["iterations_per_step"])
    failed = False
    print(f"wall-time median of a 1/60 s step in µs, median of {rounds} alternating rounds")
    print(f"{'workload':<12}{'solver':<14}{'native':>10}{'wasm':>10}{'ratio':>8}  accuracy")
    for key in times["native"]:
        n = statistics.median(times["native"][key])
        w = statistics.median(times["wasm"].get(key, [float("nan")]))
        same = accuracy["native"].get(key) == accuracy["wasm"].get(key)
        failed |= not same
        print(f"{key[0]:<12}{key[1]:<14}{n:>10.1f}{w:>10.1f}{w / n if n else float('nan'):>8.2f}  "
              f"{'identical' if same else 'DIFFERS: ' + str(accuracy['native'].get(key)) + ' vs ' + str(accuracy['wasm'].get(key))}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
