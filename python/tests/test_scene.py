"""Scenes built in code are scene files: the same checks, the same worlds, the same bits; saved and loaded back."""

import json
import pickle

import pytest

import lagrange_lab as ll
from conftest import ASSETS


def simple_pendulum_in_code():
    scene = ll.Scene(2, name="Simple pendulum", dt=1 / 60, substeps=4, solver="projection", gravity=(0, -9.81, 0))
    pivot = scene.add_particle((0, 0), fixed=True)
    bob = scene.add_particle((0.6, -0.8), mass=1, colour="#e8773a")
    assert (pivot, bob) == (0, 1)
    assert scene.add_constraint("distance", particles=[pivot, bob], length=1) == 0
    return scene


def test_a_scene_built_in_code_steps_as_its_file():
    from_file = ll.load(ASSETS / "simple_pendulum.json").run(300, every=50)
    in_code = ll.World(simple_pendulum_in_code()).run(300, every=50)
    for key in from_file:
        assert from_file[key].tobytes() == in_code[key].tobytes(), key


def test_save_and_load_give_the_same_scene_and_bits(tmp_path):
    scene = ll.Scene(3, name="rig", description="a chain on a wire", damping=0.1)
    bead = scene.add_particle((0, 1, 0), mass=0.5, velocity=(0.3, 0, 0))
    scene.add_constraint("line", particle=bead, point=(0, 1, 0), direction=(1, 0, 0))
    first = scene.add_chain(links=4, link_length=0.25, particle_mass=0.2, anchor_particle=bead, direction=(0, -1, 0))
    assert first == bead + 1 and scene.particle_count == 5 and scene.constraint_count == 5
    scene.add_constraint("distance", particles=[0, 4], compliance=1e-3, damping=0.5)
    scene.save(tmp_path / "rig.json")
    loaded = ll.load_scene(tmp_path / "rig.json")
    assert json.loads(loaded.to_json()) == json.loads(scene.to_json())
    assert loaded.settings == scene.settings and loaded.settings["damping"] == 0.1
    a, b = ll.World(scene).run(200), ll.World(loaded).run(200)
    assert a["positions"].tobytes() == b["positions"].tobytes()
    again = pickle.loads(pickle.dumps(scene))
    assert again.to_json() == scene.to_json()


def test_generators_in_code_are_the_file_s_generators(tmp_path):
    keys = {"nx": 5, "ny": 4, "spacing": 0.1, "particle_mass": 0.02, "shear": True, "v": [0, 0, 1]}
    (tmp_path / "cloth.json").write_text(json.dumps({"dimension": 3, "generators": [{"type": "cloth", **keys}]}))
    scene = ll.Scene(3)
    assert scene.add_cloth(**keys) == 0
    from_file = ll.load_scene(tmp_path / "cloth.json")
    assert from_file.particle_count == 20 == scene.particle_count
    assert (from_file.positions.tobytes(), from_file.constraint_count) == (scene.positions.tobytes(),
                                                                           scene.constraint_count)


def test_a_loaded_scene_can_be_changed_and_run():
    scene = ll.load_scene(ASSETS / "double_pendulum.json")
    assert scene.name == "Double pendulum" and scene.dimension == 2 and scene.particle_count == 3
    scene.set_settings(solver="rattle", dt=1 / 240, substeps=1)
    third = scene.add_particle((2.0, 2.0))
    scene.add_constraint("distance", particles=[2, third])
    world = ll.World(scene)
    world.step(240)
    assert world.solver == "rattle" and world.max_violation() < 1e-9
    with pytest.raises(ValueError):
        scene.settings = {"dt": -1}
