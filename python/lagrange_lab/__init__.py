"""Lagrange Lab from Python: the engine of the sandbox in notebooks and sweeps (docs/python.md).

    import lagrange_lab as ll
    world = ll.load("assets/double_pendulum.json", solver="rattle", dt=1/240)
    world.step(240)                       # the loop in C++, the GIL released
    data = world.run(2400, every=10)      # run --csv's columns as NumPy arrays, in one call

Everything steps through the engine's stepping unit (lagrange::Simulation), as `lagrange-lab run` does: the same
scene and settings give the same bits through both. Arrays handed out are read-only copies.
"""

from . import _core
from ._core import (Lanes, PeriodMeter, Scene, SimulationFailed, State, World, pendulum_period, setting_table,
                    solvers, trajectory_columns)
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


def solver_ids():
    """The solver ids in table order (keys 1-5 of the window)."""
    return [s["id"] for s in solvers()]
