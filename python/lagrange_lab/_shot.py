"""World.shot and Lanes.shot: `lagrange-lab shot`'s picture of the world as it is now, as a NumPy array."""

import numpy as np

from ._core import Lanes, World


class Picture(np.ndarray):
    """An (h, w, 4) uint8 RGBA array that a notebook shows inline (as a PNG) and that saves as a PNG file."""

    def _repr_png_(self):
        from . import _render
        return _render.encode_png(np.ascontiguousarray(self, dtype=np.uint8))

    def save(self, path):
        """Writes the picture as a PNG file (the encoder of `lagrange-lab shot`)."""
        with open(path, "wb") as out:
            out.write(self._repr_png_())


def _shot(lane_scenes, lanes, size=(1280, 720), panels=False, measure=False, bare=False, lane_view="overlay",
          exaggerate=1, rest_lengths=False, length_labels=False, ui_scale=1.0, theme="dark"):
    from . import _render  # SDL, OpenGL and ImGui load here, with the first picture
    try:
        width, height = (int(v) for v in size)
    except (TypeError, ValueError):
        raise TypeError(f"size: expected (width, height), got {size!r}") from None
    pixels = _render.shot([scene.to_json() for scene in lane_scenes], lanes, width, height, bool(panels),
                          bool(measure), bool(bare), str(lane_view), int(exaggerate), bool(rest_lengths),
                          bool(length_labels), float(ui_scale), str(theme))
    return pixels.view(Picture)


def world_shot(self, size=(1280, 720), **view):
    """The picture `lagrange-lab shot` draws of this world as it is now: an (h, w, 4) uint8 array (rows top to
    bottom), shown inline by a notebook. View options as shot's flags: panels, measure, bare, exaggerate (1, 10, 100,
    1000), rest_lengths, length_labels, ui_scale (1..3), theme ("dark" or "light")."""
    return _shot([self.scene()], self._lane_specs(), size, **view)


def lanes_shot(self, size=(1280, 720), **view):
    """The picture of every lane (shot --lanes), lane_view="overlay" or "split"; see World.shot."""
    return _shot(self._scenes(), self._lane_specs(), size, **view)


World.shot = world_shot
Lanes.shot = lanes_shot
