"""Sweeps give the same numbers in one process, in a pool of processes and on a Dask cluster."""

import math

import numpy as np
import pytest

import lagrange_lab as ll

pytestmark = pytest.mark.filterwarnings("ignore:make_current is deprecated:DeprecationWarning")  # Debian's tornado


def double_pendulum(angles):
    a, b = angles
    scene = ll.Scene(2, dt=1 / 240, substeps=1)
    pivot = scene.add_particle((0, 0), fixed=True)
    x1 = (math.sin(a), -math.cos(a))
    x2 = (x1[0] + math.sin(b), x1[1] - math.cos(b))
    first, second = scene.add_particle(x1), scene.add_particle(x2)
    scene.add_constraint("distance", particles=[pivot, first])
    scene.add_constraint("distance", particles=[first, second])
    return ll.World(scene)


def energy_and_angle(world):
    p = world.positions
    return {"energy": world.energy()["total"], "x": p[2, 0]}


GRID = np.array([(a, b) for a in np.linspace(-3, 3, 6) for b in np.linspace(-3, 3, 6)])


def test_a_pool_gives_the_bits_of_one_process():
    one = ll.sweep(double_pendulum, GRID, 480, ll.FirstFlip(), processes=1, progress=False)
    pool = ll.sweep(double_pendulum, GRID, 480, ll.FirstFlip(), processes=2, progress=False)
    assert one.shape == (36,) and one.dtype == np.float64
    assert one.tobytes() == pool.tobytes()
    assert np.isnan(one).any() and not np.isnan(one).all()  # low starts never flip, high ones do
    # the flip is the first step at which an arm went over the top: that world, stepped there, shows it
    k = int(np.nanargmin(one))
    world = double_pendulum(GRID[k])
    assert world.first_flip(480, [(0, 1), (1, 2)]) == one[k]


def test_measures_returning_dicts_and_lambdas_travel_to_the_workers():
    start = ll.sweep(lambda a: double_pendulum((a, 0.0)), [0.1, 0.2, 0.3], 0, energy_and_angle, processes=2,
                     progress=False)
    assert set(start) == {"energy", "x"} and start["energy"].shape == (3,)
    expected = [9.81 * (3 - 2 * math.cos(a) - 1) for a in (0.1, 0.2, 0.3)]  # m g (h1 + h2) above the lowest pose
    np.testing.assert_allclose(start["energy"] + 3 * 9.81, expected, rtol=1e-12)


def module_out_of_reach(folder):
    """A module the workers cannot import (its folder is on no path): its functions must travel by value."""
    import importlib.util
    (folder / "far_away.py").write_text(
        "import lagrange_lab as ll\n"
        "def pendulum(a):\n"
        "    scene = ll.Scene(2, dt=0.01)\n"
        "    scene.add_particle((0, 0), fixed=True)\n"
        "    scene.add_particle((1, 0))\n"
        "    scene.add_constraint('distance', particles=[0, 1])\n"
        "    world = ll.World(scene)\n"
        "    world.velocities = [[0, 0, 0], [0, a, 0]]\n"
        "    return world\n")
    spec = importlib.util.spec_from_file_location("far_away", folder / "far_away.py")
    module = importlib.util.module_from_spec(spec)
    import sys
    sys.modules["far_away"] = module
    spec.loader.exec_module(module)
    return module


def test_a_local_dask_cluster_gives_the_bits_of_one_process(tmp_path):
    distributed = pytest.importorskip("distributed")
    far = module_out_of_reach(tmp_path)
    one = ll.sweep(double_pendulum, GRID, 240, ll.FirstFlip(), processes=1, progress=False)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        on_dask = ll.sweep(double_pendulum, GRID, 240, ll.FirstFlip(), client=client, progress=False)
        energies = ll.sweep(double_pendulum, GRID[:4], 100, energy_and_angle, client=client, chunk_size=1,
                            progress=False)
        remote = ll.sweep(far.pendulum, [0.5, 1.0], 50, lambda w: w.positions[1, 1], client=client, progress=False)
    assert remote.tobytes() == ll.sweep(far.pendulum, [0.5, 1.0], 50, lambda w: w.positions[1, 1], processes=1,
                                        progress=False).tobytes()
    assert on_dask.tobytes() == one.tobytes()
    local = ll.sweep(double_pendulum, GRID[:4], 100, energy_and_angle, processes=1, progress=False)
    assert energies["energy"].tobytes() == local["energy"].tobytes()
