"""The package's speed against the command line's, measured in one run (docs/python.md, "Speed"):

  1. world.step(n) against `lagrange-lab run` on the same scene: both step lagrange::Simulation; run's own wall time
     of its loop (its summary line) against the time of the step(n) call, alternating, several repeats; the medians;
  2. the cost of one Python call: world.step() called n times against world.step(n) once, on a free particle (one
     substep: the step itself is tens of nanoseconds), and the cost of reading world.time and world.positions;
  3. the 256x256 flip map of examples/flip_map.ipynb (10 s each at 1/240 s) with ll.sweep on every core.

    scripts/python.sh scripts/python_bench.py [--repeats 5] [--flip-map 256 | --flip-map 0]
"""

import argparse
import math
import os
import pathlib
import re
import statistics
import subprocess
import time

import numpy as np

import lagrange_lab as ll

ROOT = pathlib.Path(os.environ.get("LAGRANGE_LAB_ROOT", pathlib.Path(__file__).resolve().parents[1]))
EXE = pathlib.Path(os.environ.get("LAGRANGE_LAB_EXE", ROOT / "build" / "app" / "lagrange-lab"))

SCENES = [("double_pendulum.json", 20000), ("hanging_chain.json", 2000), ("hanging_cloth.json", 300)]


def native_seconds(scene, steps):
    out = subprocess.run([str(EXE), "run", str(ROOT / "assets" / scene), "--steps", str(steps)], check=True,
                         capture_output=True, text=True).stdout
    return float(re.search(r"^wall time\s+(\S+) s", out, re.M).group(1))


def python_seconds(scene, steps):
    world = ll.load(ROOT / "assets" / scene)
    start = time.perf_counter()
    world.step(steps)
    return time.perf_counter() - start


def step_against_run(repeats):
    print(f"world.step(n) against lagrange-lab run (wall time of the stepping loop, median of {repeats})")
    print(f"{'scene':22s} {'steps':>6s} {'run s':>9s} {'step(n) s':>10s} {'ratio':>7s}  ratios")
    for scene, steps in SCENES:
        native, python = [], []
        for k in range(repeats):  # alternating, so a busy moment of the machine falls on both
            if k % 2 == 0:
                native.append(native_seconds(scene, steps))
                python.append(python_seconds(scene, steps))
            else:
                python.append(python_seconds(scene, steps))
                native.append(native_seconds(scene, steps))
        ratios = [p / n for p, n in zip(python, native)]
        print(f"{scene:22s} {steps:6d} {statistics.median(native):9.4f} {statistics.median(python):10.4f} "
              f"{statistics.median(ratios):7.3f}  {' '.join(f'{r:.3f}' for r in ratios)}")


def call_overhead(repeats):
    scene = ll.Scene(3, dt=1e-3, substeps=1)
    scene.add_particle((0, 0, 0))
    world = ll.World(scene)
    n = 200000
    per_call, in_loop, reads, arrays = [], [], [], []
    for _ in range(repeats):
        step = world.step
        start = time.perf_counter()
        for _ in range(n):
            step()
        per_call.append((time.perf_counter() - start) / n)
        start = time.perf_counter()
        world.step(n)
        in_loop.append((time.perf_counter() - start) / n)
        start = time.perf_counter()
        for _ in range(n):
            world.time
        reads.append((time.perf_counter() - start) / n)
        start = time.perf_counter()
        for _ in range(n // 10):
            world.positions
        arrays.append((time.perf_counter() - start) / (n // 10))
    us = lambda v: 1e6 * statistics.median(v)
    print(f"\none Python call (median of {repeats}, {n} calls each): world.step() {us(per_call):.2f} us, "
          f"a step inside step(n) {us(in_loop):.3f} us, so the call costs {us(per_call) - us(in_loop):.2f} us; "
          f"world.time {us(reads):.3f} us; world.positions (a copy) {us(arrays):.2f} us")


def double_pendulum(angles):
    a, b = angles
    scene = ll.Scene(2, dt=1 / 240, substeps=1, solver="projection")
    pivot = scene.add_particle((0, 0), fixed=True)
    x1 = (math.sin(a), -math.cos(a))
    x2 = (x1[0] + math.sin(b), x1[1] - math.cos(b))
    first, second = scene.add_particle(x1), scene.add_particle(x2)
    scene.add_constraint("distance", particles=[pivot, first])
    scene.add_constraint("distance", particles=[first, second])
    return ll.World(scene)


def flip_map(n):
    theta = np.linspace(-np.pi, np.pi, n)
    grid = np.array([(a, b) for b in theta for a in theta])
    start = time.perf_counter()
    flips = ll.sweep(double_pendulum, grid, 2400, ll.FirstFlip())
    seconds = time.perf_counter() - start
    print(f"\nflip map {n}x{n} (10 s each at 1/240 s, {os.cpu_count()} processes): {seconds:.1f} s wall, "
          f"{np.isnan(flips).mean():.0%} never flipped")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--flip-map", type=int, default=256, help="grid size; 0 skips it")
    args = parser.parse_args()
    step_against_run(args.repeats)
    call_overhead(args.repeats)
    if args.flip_map:
        flip_map(args.flip_map)


if __name__ == "__main__":
    main()
