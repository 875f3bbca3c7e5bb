"""Shared by the package's tests (run by CTest through scripts/test.sh, or `scripts/python.sh -m pytest python/tests`).

The command line's binary and the assets are found from the environment CTest sets (LAGRANGE_LAB_EXE,
LAGRANGE_LAB_ROOT), else from the source tree's build/."""

import csv
import io
import os
import pathlib
import subprocess

import numpy as np
import pytest

ROOT = pathlib.Path(os.environ.get("LAGRANGE_LAB_ROOT", pathlib.Path(__file__).resolve().parents[2]))
ASSETS = ROOT / "assets"
# The binary of the build the package was imported from (build/python/lagrange_lab/ -> build/app/lagrange-lab).
_BUILT = pathlib.Path(__import__("lagrange_lab").__file__).resolve().parents[2] / "app" / "lagrange-lab"
EXE = pathlib.Path(os.environ.get("LAGRANGE_LAB_EXE", _BUILT if _BUILT.exists() else ROOT / "build" / "app" / "lagrange-lab"))


def run_cli(*args, check=True):
    """`lagrange-lab ARGS...`: (exit code, stdout, stderr)."""
    done = subprocess.run([str(EXE), *map(str, args)], capture_output=True, text=True,
                          env={**os.environ, "SDL_VIDEODRIVER": "offscreen"})
    if check and done.returncode != 0:
        raise AssertionError(f"lagrange-lab {' '.join(map(str, args))}: exit {done.returncode}\n{done.stderr}")
    return done.returncode, done.stdout, done.stderr


def cli_csv(*args):
    """`lagrange-lab run ... --csv -` read back: the header and the rows as text (compared as doubles by the
    caller: every number is the shortest text that reads back to the same double, so float() is exact)."""
    _, out, _ = run_cli("run", *args, "--quiet", "--csv", "-")
    rows = list(csv.reader(io.StringIO(out)))
    return rows[0], rows[1:]


def as_columns(header, rows):
    """A CSV's rows as run's dict: the scalar columns, then positions and velocities as (rows, n, 3)."""
    table = {name: [row[k] for row in rows] for k, name in enumerate(header)}
    n = sum(1 for name in header if name.startswith("vx"))
    d = {"step": np.array([int(v) for v in table["step"]], dtype=np.int64)}
    for name in ("t", "kinetic", "potential", "energy", "violation"):
        d[name] = np.array([float(v) for v in table[name]])
    for key, names in (("positions", ("x", "y", "z")), ("velocities", ("vx", "vy", "vz"))):
        d[key] = np.array([[[float(table[f"{c}{i}"][r]) for c in names] for i in range(n)]
                           for r in range(len(rows))]).reshape(len(rows), n, 3)
    return d


def assert_same_bits(run, expected):
    """Every column of World.run equal to the CSV's, bit for bit (NaN never expected)."""
    assert set(expected) <= set(run)
    for key, value in expected.items():
        got = run[key]
        assert got.shape == value.shape, key
        assert got.tobytes() == value.tobytes(), f"{key} differs: {got} vs {value}"


@pytest.fixture
def assets():
    return ASSETS
