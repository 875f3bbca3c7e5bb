"""Scenes built in code: each piece is handed to the scene reader in a scene file's words (docs/scenes.md), so it
meets the same keys, ranges and messages as in a file, and numbers keep every bit."""

import json
import math
import numbers
import os

import numpy as np

from ._core import Scene


def _plain(value, where):
    """A keyword value as JSON data: numbers finite, arrays and tuples as lists."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        number = float(value)
        if not math.isfinite(number):
            raise ValueError(f"{where}: must be a finite number, got {number!r}")
        return number
    if isinstance(value, str):
        return value
    if isinstance(value, np.ndarray):
        value = value.tolist()
    if isinstance(value, (list, tuple)):
        return [_plain(item, f"{where}[{i}]") for i, item in enumerate(value)]
    raise TypeError(f"{where}: expected a number, a vector, a boolean or a string, got {type(value).__name__}")


def _piece(scene, path, fields):
    where = f"{scene.source or 'scene'}: {path}"
    return json.dumps({key: _plain(value, f"{where}.{key}") for key, value in fields.items() if value is not None})


def add_particle(self, position, mass=1.0, fixed=False, radius=None, velocity=None, colour=None):
    """Adds a particle; returns its index. position and velocity are (x, y) in 2D or (x, y, z); a fixed particle
    has no mass (nothing moves it); colour is "#rrggbb" or (r, g, b) in 0..1."""
    fields = {"position": position, "velocity": velocity, "radius": radius, "colour": colour}
    if fixed:
        fields["fixed"] = True
        if mass != 1.0:
            fields["mass"] = mass  # refused by the reader, with its message
    else:
        fields["mass"] = mass
    path = f"particles[{self.particle_count}]"
    return self._append_particle(_piece(self, path, fields), path)


def add_constraint(self, kind, **keys):
    """Adds a constraint with the keys of its kind in a scene file: add_constraint("distance", particles=[a, b]),
    add_constraint("pin", particle=0, point=(0, 1)), compliance=... for a soft one. Returns its index."""
    path = f"constraints[{self.constraint_count}]"
    return self._append_constraint(_piece(self, path, {"type": kind, **keys}), path)


def add_generator(self, kind, **keys):
    """Expands a generator of a scene file ("chain" or "cloth") with its keys; returns its first particle's index."""
    return self._append_generator(_piece(self, f"add_{kind}", {"type": kind, **keys}), f"add_{kind}")


def add_chain(self, **keys):
    """A chain, as the scene file's chain generator: links, link_length, particle_mass, anchor, direction,
    fixed_anchor, anchor_particle. Returns the first particle's index."""
    return add_generator(self, "chain", **keys)


def add_cloth(self, **keys):
    """A cloth, as the scene file's cloth generator: nx, ny, spacing, particle_mass, origin, u, v, shear,
    triangulate, shear_compliance, bend, bend_compliance, pin_two_corners. Returns the first particle's index."""
    return add_generator(self, "cloth", **keys)


def save(self, path):
    """Writes the scene file (every number at full precision: it loads back to the same bits)."""
    text = self.to_json()
    with open(os.fspath(path), "w", encoding="utf-8") as out:
        out.write(text)


def _repr(self):
    return (f"<lagrange_lab.Scene '{self.name}' {self.dimension}D, {self.particle_count} particles, "
            f"{self.constraint_count} constraints>")


Scene.add_particle = add_particle
Scene.add_constraint = add_constraint
Scene.add_generator = add_generator
Scene.add_chain = add_chain
Scene.add_cloth = add_cloth
Scene.save = save
Scene.__repr__ = _repr
Scene.load = staticmethod(lambda path: load_scene(path))


def load_scene(path):
    """A Scene from a scene file (FileNotFoundError, or ValueError with the loader's message)."""
    return Scene._load(os.fspath(path))
