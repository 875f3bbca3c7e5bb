"""States are plain values: taken, put back and pickled, they continue bit for bit."""

import pickle

import numpy as np
import pytest

import lagrange_lab as ll
from conftest import ASSETS


@pytest.mark.parametrize("solver", ll.solver_ids())
def test_a_state_put_back_continues_bit_for_bit(solver):
    world = ll.load(ASSETS / "triple_pendulum.json", solver=solver)
    world.step(20)
    saved = world.state()
    first = world.run(50)
    world.set_state(saved)
    assert world.state() == saved and world.time == saved.time and world.step_count == saved.step
    second = world.run(50)
    for key in first:
        assert first[key].tobytes() == second[key].tobytes(), key
    assert world.multipliers.tobytes() == world.state().multipliers.tobytes()


def test_a_pickled_state_continues_in_another_world_and_process_alike():
    world = ll.load(ASSETS / "hanging_chain.json")
    world.step(30)
    blob = pickle.dumps(world.state())
    expected = world.run(40)["positions"]
    other = ll.load(ASSETS / "hanging_chain.json")
    state = pickle.loads(blob)
    assert isinstance(state, ll.State) and state.positions.shape == (other.particle_count, 3)
    other.set_state(state)
    assert other.run(40)["positions"].tobytes() == expected.tobytes()


def test_a_state_is_a_copy_not_a_view():
    world = ll.load(ASSETS / "simple_pendulum.json")
    state = world.state()
    before = state.positions.copy()
    world.step(10)
    assert np.array_equal(state.positions, before) and state.time == 0.0 and world.time > 0


def test_a_pickled_world_continues_bit_for_bit():
    world = ll.load(ASSETS / "double_pendulum.json", solver="rattle")
    world.step(45)
    copy = pickle.loads(pickle.dumps(world))
    assert copy.time == world.time and copy.solver == "rattle" and copy.positions.tobytes() == world.positions.tobytes()
    assert copy.run(60)["positions"].tobytes() == world.run(60)["positions"].tobytes()
