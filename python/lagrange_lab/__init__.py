"""Lagrange Lab from Python: the engine of the sandbox in notebooks and sweeps (docs/python.md).

    import lagrange_lab as ll
    world = ll.load("assets/double_pendulum.json", solver="rattle", dt=1/240)
    world.step(240)                       # the loop in C++, the GIL released
    data = world.run(2400, every=10)      # run --csv's columns as NumPy arrays, in one call

Everything steps through the engine's stepping unit (lagrange::Simulation), as `lagrange-lab run` does: the same
scene and settings give the same bits through both. Arrays handed out are read-only copies.
"""

from collections import namedtuple

from . import _core
from ._core import (Lanes, PeriodMeter, Scene, SimulationFailed, State, World, pendulum_period, setting_table,
                    trajectory_columns)
from ._scene import load_scene
from ._shot import Picture, shot
from ._sweep import FirstFlip, sweep

__all__ = ["load", "load_scene", "Scene", "World", "Lanes", "State", "SimulationFailed", "PeriodMeter", "Picture", "shot",
           "solvers", "solver_ids", "setting_table", "trajectory_columns", "pendulum_period", "sweep", "FirstFlip"]


def load(path, **settings):
    """A World from a scene file, with settings by their `--set` names on top: load(p, solver="rattle", dt=1/240).

    FileNotFoundError when there is no such file; ValueError with the loader's message (file, JSON path, problem)
    for a bad file, an unknown setting or a value out of its range.
    """
    return World(load_scene(path), **settings)


class Energy(namedtuple("Energy", "kinetic potential total")):
    """Energies in J: kinetic, potential (gravity, and springs' under penalty or compliance) and total. A tuple
    (k, p, e = world.energy()) whose fields also read by name: e.total, e["total"]."""

    __slots__ = ()

    def __getitem__(self, key):
        return getattr(self, key) if isinstance(key, str) else super().__getitem__(key)


def _energy(self):
    """kinetic, potential and total energy of the world now (an Energy), J."""
    return Energy(*self._energy())


World.energy = _energy


def _with_particle_columns(data):
    """run's per-particle CSV columns too (x0, y0, z0, vx0, ... : views into positions and velocities), so every
    column of `run --csv` is a key."""
    names = trajectory_columns(data["positions"].shape[1])[len(trajectory_columns(0)):]
    for k, name in enumerate(names):
        particle, c = divmod(k, 6)
        source = data["positions"] if c < 3 else data["velocities"]
        data[name] = source[:, particle, c % 3]
    return data


def _world_run(self, steps, every=1, period=None):
    """`run --csv --every` in one call, the loop in C++: a dict of NumPy arrays keyed by run's CSV columns (step,
    t, kinetic, potential, energy, violation, x0, y0, z0, vx0, ...) plus positions and velocities as (rows, n, 3);
    the starting row, then every step whose number is a multiple of `every`. period=P also times particle P as
    `run --measure period` does (data["period"]). SimulationFailed as run fails."""
    return _with_particle_columns(self._run(steps, every, period))


def _lanes_run(self, steps, every=1, period=None):
    """`run --lanes --csv` in one call: one dict per lane, as World.run's."""
    return [_with_particle_columns(d) for d in self._run(steps, every, period)]


World.run = _world_run
Lanes.run = _lanes_run
Lanes.__repr__ = lambda self: f"<lagrange_lab.Lanes {', '.join(self.labels)} t={self.time:g} s>"


class Solver(str):
    """A solver of the table: its id as a string ("rattle" in ll.solvers()), with .name, .description and .colour
    (also by key: s["name"])."""

    def __new__(cls, info):
        solver = super().__new__(cls, info["id"])
        solver.id, solver.name = info["id"], info["name"]
        solver.description, solver.colour = info["description"], info["colour"]
        return solver

    def __getitem__(self, key):
        return getattr(self, key) if isinstance(key, str) else super().__getitem__(key)

    def __reduce__(self):
        return Solver, ({"id": self.id, "name": self.name, "description": self.description, "colour": self.colour},)


def solvers():
    """The solver table in order (the window's keys 1-5, `lagrange-lab solvers`): Solver strings with name,
    description and colour."""
    return [Solver(info) for info in _core.solvers()]


def solver_ids():
    """The solver ids in table order."""
    return [str(s) for s in solvers()]
