#!/usr/bin/env bash
# Runs Debian's Python with the built package lagrange_lab importable (docs/python.md), building it first when needed:
#   scripts/python.sh my_experiment.py
#   scripts/python.sh -m pytest python/tests
# Always /usr/bin/python3 (its NumPy, pytest, Jupyter and Dask are Debian's), even when another python3 comes first
# on the PATH. The build is build/ (or $BUILD_DIR), configured as scripts/build.sh does when it is not yet.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
# A build without the package's target (none yet, or configured before pybind11 was installed): configure it.
if ! grep -q lagrange_lab_python "$build/build.ninja" 2>/dev/null; then
  "$root/scripts/install-deps.sh" >&2
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-Release}" -DLAGRANGE_BUILD_PYTHON=ON >/dev/null
fi
# The package and the command line (what the tests compare with); quiet when up to date, the build's own output when
# something fails.
if ! log="$(cmake --build "$build" --target lagrange_lab_python lagrange-lab 2>&1)"; then
  echo "$log" >&2
  exit 1
fi
if [ ! -f "$build/python/lagrange_lab/__init__.py" ]; then
  echo "scripts/python.sh: the Python package was not built (pybind11-dev and python3-numpy missing? scripts/install-deps.sh)" >&2
  exit 1
fi
export PYTHONPATH="$build/python${PYTHONPATH:+:$PYTHONPATH}"
export LAGRANGE_LAB_ROOT="$root"
exec /usr/bin/python3 "$@"
