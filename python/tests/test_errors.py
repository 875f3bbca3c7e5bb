"""Bad input raises a Python exception with the loader's message (file, field, problem), never crashes the
interpreter, and never lets NaN into a state."""

import math

import numpy as np
import pytest

import lagrange_lab as ll
from conftest import ASSETS


def test_a_missing_file_is_file_not_found_with_the_loader_s_message(tmp_path):
    missing = tmp_path / "nowhere.json"
    with pytest.raises(FileNotFoundError) as error:
        ll.load(missing)
    assert str(missing) in str(error.value) and "No such file or directory" in str(error.value)


def test_a_bad_scene_file_names_file_field_and_problem(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"particles": [{"position": [0, 0]}, {"position": [1, 0], "mass": -1}]}')
    with pytest.raises(ValueError, match=r"bad\.json: particles\[1\]\.mass: .*-1"):
        ll.load(bad)
    bad.write_text('{"particles": [')
    with pytest.raises(ValueError, match=r"bad\.json"):
        ll.load(bad)
    with pytest.raises(ValueError, match="is a directory"):
        ll.load(tmp_path)


def test_unknown_settings_and_values_out_of_range_are_the_set_parser_s_messages():
    with pytest.raises(ValueError, match=r"unknown setting 'dtt'.*known: dt"):
        ll.load(ASSETS / "simple_pendulum.json", dtt=0.01)
    with pytest.raises(ValueError, match=r"dt.*1e-07 \.\. 1"):
        ll.load(ASSETS / "simple_pendulum.json", dt=5)
    with pytest.raises(ValueError, match=r"solver.*projection"):
        ll.load(ASSETS / "simple_pendulum.json", solver="magic")
    world = ll.load(ASSETS / "simple_pendulum.json")
    with pytest.raises(ValueError, match="substeps"):
        world.set_settings(substeps=0)
    with pytest.raises(ValueError):
        world.solver = "nope"
    assert world.solver == "projection" and world.settings["substeps"] == 4  # unchanged


def test_wrong_shapes_types_and_numbers_in_arrays_are_refused():
    world = ll.load(ASSETS / "double_pendulum.json")
    before = world.positions
    with pytest.raises(ValueError, match=r"expected an array of shape \(3, 3\), got \(3, 2\)"):
        world.positions = np.zeros((3, 2))
    with pytest.raises(ValueError, match=r"got \(9,\)"):
        world.velocities = np.zeros(9)
    with pytest.raises(ValueError, match=r"positions\[1\]: must be finite"):
        world.positions = np.array([[0, 0, 0], [np.nan, 0, 0], [1, 1, 0]])
    with pytest.raises(ValueError, match="z must be 0"):
        world.positions = np.array([[0, 0, 0], [1, 0, 1], [1, 1, 0]])
    with pytest.raises((TypeError, ValueError)):
        world.positions = "nonsense"
    with pytest.raises(ValueError, match="read-only"):
        world.positions[0, 0] = 1.0
    assert world.positions.tobytes() == before.tobytes()
    with pytest.raises(TypeError):
        world.step("ten")
    with pytest.raises(ValueError, match="steps"):
        world.step(-1)
    with pytest.raises(ValueError, match="every"):
        world.run(10, every=0)


def test_scene_pieces_get_the_reader_s_messages():
    scene = ll.Scene(2)
    a = scene.add_particle((0, 0), fixed=True)
    with pytest.raises(ValueError, match=r"scene: particles\[1\]\.mass: must be a positive"):
        scene.add_particle((1, 0), mass=0)
    with pytest.raises(ValueError, match=r"particles\[1\]\.position\[0\]: must be a finite number, got nan"):
        scene.add_particle((math.nan, 0))
    with pytest.raises(ValueError, match=r"particles\[1\]\.position\[2\]: must be 0 in a 2D scene"):
        scene.add_particle((1, 0, 2))
    b = scene.add_particle((1, 0))
    with pytest.raises(ValueError, match=r"constraints\[0\]\.type: unknown constraint type \"rod\""):
        scene.add_constraint("rod", particles=[a, b])
    with pytest.raises(ValueError, match=r"constraints\[0\]\.particles\[1\]: particle index 7"):
        scene.add_constraint("distance", particles=[a, 7])
    with pytest.raises(ValueError, match=r"constraints\[0\]\.lenght: unknown key \(did you mean \"length\"\?\)"):
        scene.add_constraint("distance", particles=[a, b], lenght=1)
    with pytest.raises(ValueError, match=r"add_cloth: a cloth in a 2D scene needs \"v\""):
        scene.add_cloth(nx=3, ny=3)
    with pytest.raises(TypeError):
        scene.add_constraint("distance", particles=[a, b], length=object())
    with pytest.raises(ValueError, match="dimension"):
        ll.Scene(4)
    assert scene.particle_count == 2 and scene.constraint_count == 0  # nothing half-added


def test_a_blow_up_is_simulation_failed_with_run_s_message_and_no_nan():
    world = ll.load(ASSETS / "double_pendulum.json", solver="penalty", stiffness=1e12, dt=0.05, substeps=1)
    with pytest.raises(ll.SimulationFailed, match=r"at step \d+ max \|C\|/L reached .* above the limit 1|NaN"):
        world.step(1000)
    assert isinstance(ll.SimulationFailed("x"), RuntimeError)
    assert np.isfinite(world.positions).all() and np.isfinite(world.velocities).all()
    world.max_violation_limit = 1e300
    with pytest.raises(ll.SimulationFailed, match="NaN or infinity and was rolled back|above the limit 1e"):
        world.step(1000)
    assert np.isfinite(world.positions).all()


def test_bad_drags_lanes_and_states_are_refused():
    world = ll.load(ASSETS / "double_pendulum.json")
    with pytest.raises(ValueError, match="particle"):
        world.set_drags([(9, (0, 0), 0, 1)])
    with pytest.raises(ValueError):
        world.set_drags(["1,2,3"])
    with pytest.raises(ValueError, match="lane"):
        ll.Lanes(ASSETS / "double_pendulum.json", "projection,warp")
    other = ll.load(ASSETS / "simple_pendulum.json").state()
    with pytest.raises(ValueError, match="particles"):
        world.set_state(other)
    with pytest.raises(ValueError, match="a lane steps with the others"):
        ll.Lanes(ASSETS / "double_pendulum.json", "projection,rattle")[1].step()


def test_ctrl_c_ends_a_long_step_with_keyboard_interrupt():
    import signal
    import time

    def interrupt(*_):
        raise KeyboardInterrupt
    previous = signal.signal(signal.SIGALRM, interrupt)
    world = ll.load(ASSETS / "hanging_chain.json")
    start = time.perf_counter()
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.2)
        with pytest.raises(KeyboardInterrupt):
            world.step(10**8)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert time.perf_counter() - start < 5 and 0 < world.step_count < 10**8
    assert np.isfinite(world.positions).all()
