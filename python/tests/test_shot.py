"""Pictures come from `lagrange-lab shot`'s own code: the same pixels as its PNG."""

import numpy as np
import pytest

import lagrange_lab as ll
from conftest import ASSETS, run_cli

pytest.importorskip("lagrange_lab._render", reason="built without the sandbox (-DLAGRANGE_BUILD_APP=OFF)")


def test_shot_gives_the_command_s_png(tmp_path):
    out = tmp_path / "cli.png"
    run_cli("shot", ASSETS / "double_pendulum.json", "--steps", 45, "--size", "320x200", "--lanes",
            "projection,acceleration", "--exaggerate", "10", "--drag", "2,-1.9,-1.4,0,0,0.5", "--out", out)
    picture = ll.shot(ASSETS / "double_pendulum.json", steps=45, size=(320, 200), lanes="projection,acceleration",
                      exaggerate=10, drags=[(2, (-1.9, -1.4), 0, 0.5)])
    assert picture.shape == (200, 320, 4) and picture.dtype == np.uint8
    assert picture._repr_png_() == out.read_bytes()


def test_a_world_s_picture_is_an_rgba_array_of_its_size():
    world = ll.load(ASSETS / "double_pendulum.json")
    world.step(30)
    picture = world.shot(size=(200, 120), theme="light", bare=True)
    assert isinstance(picture, np.ndarray) and picture.shape == (120, 200, 4) and picture.dtype == np.uint8
    assert picture._repr_png_().startswith(b"\x89PNG")
    assert len(np.unique(picture.reshape(-1, 4), axis=0)) > 10  # something was drawn
    lanes = ll.Lanes(ASSETS / "double_pendulum.json", ["projection", "acceleration"])
    lanes.step(60)
    assert lanes.shot(size=(200, 120), lane_view="split").shape == (120, 200, 4)
    with pytest.raises(ValueError, match="size"):
        world.shot(size=(4, 4))
    with pytest.raises(ValueError, match="exaggerate"):
        world.shot(size=(64, 64), exaggerate=7)


def test_shot_s_messages_become_exceptions():
    with pytest.raises(ValueError, match="lanes.*warp"):
        ll.shot(ASSETS / "double_pendulum.json", lanes="projection,warp", size=(64, 64))
    with pytest.raises(ValueError, match="drag"):
        ll.shot(ASSETS / "double_pendulum.json", drags=["7,0,0,0,0,1"], size=(64, 64))
    with pytest.raises(ll.SimulationFailed, match="the simulation failed"):
        scene = ll.load_scene(ASSETS / "double_pendulum.json")
        scene.set_settings(solver="penalty", stiffness=1e12, dt=0.05, substeps=1)
        ll.shot(scene, steps=200, size=(64, 64))
