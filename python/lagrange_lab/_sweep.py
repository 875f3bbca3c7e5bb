"""Sweeps: many independent simulations, on this machine's cores or on a Dask cluster (docs/python.md, "Sweeps").

Each simulation is make_world(p) for one parameter p, then `steps` steps and measure(world); or, for a measure that
steps the world itself in C++ and may stop early (FirstFlip), measure(world, steps). The simulations are sent in
chunks to worker processes (or to a distributed.Client's workers), the functions with cloudpickle so that those
defined in a notebook travel too; the results come back in the order of the parameters, as NumPy arrays. The engine
is deterministic: the same sweep gives the same bits in one process, in a pool or on a cluster.
"""

import math
import os
import sys
import time

import numpy as np


class FirstFlip:
    """Measure for sweep: the time at which an arm (anchor, bob) first turns over the top (its angle from the
    downward vertical reaches ±pi), stepping in C++ and stopping there; NaN when none did within the steps. The
    double pendulum's arms are (0, 1) and (1, 2)."""

    steps_itself = True

    def __init__(self, arms=((0, 1), (1, 2))):
        self.arms = [(int(a), int(b)) for a, b in arms]

    def __call__(self, world, steps):
        return world.first_flip(steps, self.arms)

    def __repr__(self):
        return f"FirstFlip(arms={self.arms})"


def _simulate(make_world, measure, steps, parameter):
    world = make_world(parameter)
    if getattr(measure, "steps_itself", False):
        return measure(world, steps)
    world.step(steps)
    return measure(world)


_loaded = {}  # in a worker: the last payload unpickled, so a chunk of the same sweep does not unpickle it again


def _payload(make_world, measure, steps):
    """The sweep's functions as bytes for the workers. Those of the user's own modules (a script, a test file, a
    notebook) travel by value, so a remote cluster's workers need not be able to import them; the package, NumPy and
    the standard library stay references."""
    import cloudpickle
    own = set()
    for item in (make_world, measure, type(measure)):
        name = getattr(item, "__module__", None)
        module = sys.modules.get(name or "")
        path = getattr(module, "__file__", None) or ""
        if module is None or name == "__main__" or name.split(".")[0] in ("lagrange_lab", "builtins", "numpy"):
            continue
        if not path or "-packages" in path or path.startswith(sys.prefix + "/lib/python"):
            continue  # installed packages: the workers have them
        own.add(module)
    for module in own:
        cloudpickle.register_pickle_by_value(module)
    try:
        return cloudpickle.dumps((make_world, measure, steps))
    finally:
        for module in own:
            cloudpickle.unregister_pickle_by_value(module)


def _run_chunk(payload, parameters):
    """A worker's share: the simulations of some parameters, in order."""
    import cloudpickle
    key = hash(payload)
    if key not in _loaded:
        _loaded.clear()
        _loaded[key] = cloudpickle.loads(payload)
    make_world, measure, steps = _loaded[key]
    return [_simulate(make_world, measure, steps, p) for p in parameters]


class _Progress:
    """One line on stderr redrawn in place: [#####.....]  45%  29491/65536  12.3 s (a notebook shows it too)."""

    def __init__(self, total, shown):
        self.total, self.shown, self.done = total, shown, 0
        self.start = self.last = time.monotonic()

    def advance(self, count):
        self.done += count
        now = time.monotonic()
        if self.shown and (now - self.last > 0.25 or self.done == self.total):
            self.last = now
            filled = int(30 * self.done / max(self.total, 1))
            sys.stderr.write(f"\rsweep [{'#' * filled}{'.' * (30 - filled)}] {100 * self.done // max(self.total, 1):3d}%"
                             f"  {self.done}/{self.total}  {now - self.start:.1f} s")
            if self.done == self.total:
                sys.stderr.write("\n")
            sys.stderr.flush()


def _chunks(parameters, workers, chunk_size):
    n = len(parameters)
    if chunk_size is None:
        chunk_size = max(1, min(1024, math.ceil(n / (8 * max(workers, 1)))))
    return [parameters[i:i + chunk_size] for i in range(0, n, chunk_size)]


def _assemble(values):
    if values and isinstance(values[0], dict):
        return {key: np.asarray([v[key] for v in values]) for key in values[0]}
    return np.asarray(values)


def sweep(make_world, parameters, steps, measure, client=None, processes=None, chunk_size=None, progress=True):
    """Runs make_world(p), `steps` steps and measure(world) for every p in `parameters`; returns the results as a
    NumPy array (or a dict of arrays when measure returns dicts), in the order of the parameters.

    client: a distributed.Client (a LocalCluster's, or Client("tcp://host:8786")), or a scheduler's address, to run
    on its workers; without one, a pool of `processes` worker processes on this machine (default: every core; 1 runs
    everything in this process). measure may step the world itself (FirstFlip: measure(world, steps)).
    """
    if isinstance(parameters, np.ndarray):
        parameters = [parameters[i] for i in range(parameters.shape[0])]
    else:
        parameters = list(parameters)
    steps = int(steps)
    if steps < 0:
        raise ValueError(f"steps: must be 0 or more, got {steps}")
    payload = _payload(make_world, measure, steps)
    bar = _Progress(len(parameters), progress)
    if isinstance(client, str):  # a scheduler's address
        import distributed
        with distributed.Client(client) as connected:
            return _assemble(_on_dask(connected, payload, parameters, chunk_size, bar))
    if client is not None:
        return _assemble(_on_dask(client, payload, parameters, chunk_size, bar))
    workers = (os.cpu_count() or 1) if processes is None else int(processes)
    if workers <= 1 or len(parameters) <= 1:
        values = []
        for chunk in _chunks(parameters, 1, chunk_size or 64):
            values.extend(_run_chunk(payload, chunk))
            bar.advance(len(chunk))
        return _assemble(values)
    return _assemble(_on_pool(workers, payload, parameters, chunk_size, bar))


def _on_pool(workers, payload, parameters, chunk_size, bar):
    import concurrent.futures
    import multiprocessing
    chunks = _chunks(parameters, workers, chunk_size)
    results = [None] * len(chunks)
    # fork: the workers start at once with this process's modules (a script needs no __main__ guard)
    with concurrent.futures.ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) as pool:
        futures = {pool.submit(_run_chunk, payload, chunk): i for i, chunk in enumerate(chunks)}
        for future in concurrent.futures.as_completed(futures):
            i = futures[future]
            results[i] = future.result()
            bar.advance(len(chunks[i]))
    return [value for chunk in results for value in chunk]


def _on_dask(client, payload, parameters, chunk_size, bar):
    import distributed
    workers = max(1, sum(client.nthreads().values()))
    chunks = _chunks(parameters, workers, chunk_size)
    shared = client.scatter(payload, broadcast=True)
    futures = client.map(_run_chunk, [shared] * len(chunks), chunks, pure=False)
    index = {future.key: i for i, future in enumerate(futures)}
    results = [None] * len(chunks)
    for future in distributed.as_completed(futures):
        i = index[future.key]
        results[i] = future.result()
        bar.advance(len(chunks[i]))
    return [value for chunk in results for value in chunk]
