"""Pictures: `lagrange-lab shot`'s hidden sandbox (app/cli/render_setup.h) drawing into a NumPy array."""

import math
import os

import numpy as np

from ._core import Lanes, Scene, World
from ._scene import load_scene


class Picture(np.ndarray):
    """An (h, w, 4) uint8 RGBA array, rows top to bottom, that a notebook shows inline and that saves as a PNG."""

    def _repr_png_(self):
        return _renderer().encode_png(np.ascontiguousarray(self, dtype=np.uint8))

    def save(self, path):
        """Writes the picture as a PNG file (shot's encoder)."""
        with open(os.fspath(path), "wb") as out:
            out.write(self._repr_png_())


def _renderer():
    try:
        from . import _render  # SDL, OpenGL and ImGui load here, with the first picture
    except ImportError as error:
        raise ImportError("lagrange_lab: pictures need the sandbox, which this build left out "
                          "(-DLAGRANGE_BUILD_APP=OFF)") from error
    return _render


def _render_shot(lane_scenes, lanes="", solver="", steps=0, drags=(), drag_model="hard", size=(1280, 720),
                 panels=False, measure=False, bare=False, lane_view="overlay", exaggerate=1, rest_lengths=False,
                 length_labels=False, ui_scale=1.0, theme="dark"):
    _render = _renderer()
    try:
        width, height = (int(v) for v in size)
    except (TypeError, ValueError):
        raise TypeError(f"size: expected (width, height), got {size!r}") from None
    if not isinstance(lanes, str):
        lanes = ",".join(lanes)
    drag_texts = []
    for drag in drags:
        if isinstance(drag, str):
            drag_texts.append(drag)
        else:
            particle, target, start, end = drag
            target = list(target) + [0.0] * (3 - len(target))
            drag_texts.append(",".join([str(int(particle))] + [repr(float(v)) for v in (*target, start, end)]))
    pixels = _render.shot([scene.to_json() for scene in lane_scenes], lanes, solver, int(steps), drag_texts,
                          drag_model, width, height, bool(panels), bool(measure), bool(bare), str(lane_view),
                          int(exaggerate), bool(rest_lengths), bool(length_labels), float(ui_scale), str(theme))
    return pixels.view(Picture)


def shot(scene, steps=None, time=None, solver=None, lanes=None, drags=(), drag_model="hard", size=(1280, 720),
         **view):
    """`lagrange-lab shot SCENE` as a function: the scene (a path or a Scene) from its start, `steps` steps (or
    `time` seconds of its dt) with the scripted drags, then the picture, the trails of the steps included; the same
    pixels as the command's PNG. View options: panels, measure, bare, lane_view, exaggerate, rest_lengths,
    length_labels, ui_scale, theme."""
    if not isinstance(scene, Scene):
        scene = load_scene(scene)
    if steps is not None and time is not None:
        raise ValueError("steps and time exclude each other")
    if time is not None:
        steps = math.floor(float(time) / scene.settings["dt"] + 0.5)  # shot --time: std::round, halves up
    return _render_shot([scene], lanes or "", solver or "", steps or 0, drags, drag_model, size, **view)


def world_shot(self, size=(1280, 720), **view):
    """The picture `shot` draws of this world as it is now (no trail: the sandbox opens at this state): an
    (h, w, 4) uint8 array, shown inline by a notebook. View options as shot's flags: panels, measure, bare,
    exaggerate (1, 10, 100, 1000), rest_lengths, length_labels, ui_scale (1..3), theme ("dark" or "light")."""
    return _render_shot([self.scene()], size=size, **view)


def lanes_shot(self, size=(1280, 720), **view):
    """The picture of every lane as it is now (shot --lanes), lane_view="overlay" or "split"; see World.shot."""
    return _render_shot(self._scenes(), self._lane_specs(), size=size, **view)


World.shot = world_shot
Lanes.shot = lanes_shot
