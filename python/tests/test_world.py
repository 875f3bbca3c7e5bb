"""World against closed forms and conservation laws, computed here independently of the engine."""

import math

import numpy as np
import pytest

import lagrange_lab as ll
from conftest import ASSETS


def agm_k(k):
    """K(k) = pi / (2 AGM(1, sqrt(1 - k^2))), the complete elliptic integral of the first kind."""
    a, b = 1.0, math.sqrt(1.0 - k * k)
    while abs(a - b) > 1e-16 * a:
        a, b = 0.5 * (a + b), math.sqrt(a * b)
    return math.pi / (2.0 * a)


def pendulum(angle, solver="rattle", dt=1 / 600, length=1.0, g=9.81):
    scene = ll.Scene(2, name="pendulum", dt=dt, substeps=1, solver=solver, gravity=(0, -g, 0))
    pivot = scene.add_particle((0, 0), fixed=True)
    bob = scene.add_particle((length * math.sin(angle), -length * math.cos(angle)), mass=2.0)
    scene.add_constraint("distance", particles=[pivot, bob])
    return ll.World(scene)


def test_arrays_have_the_documented_shapes_and_types():
    world = ll.load(ASSETS / "hanging_cloth.json")
    n = world.particle_count
    for name in ("positions", "velocities"):
        a = getattr(world, name)
        assert a.shape == (n, 3) and a.dtype == np.float64 and not a.flags.writeable
    assert world.masses.shape == (n,) and world.masses.dtype == np.float64
    assert world.fixed.dtype == np.bool_
    assert ll.load(ASSETS / "double_pendulum.json").fixed.tolist() == [True, False, False]  # as the file says
    world.step()
    assert world.multipliers.dtype == np.float64
    assert ll.load(ASSETS / "double_pendulum.json").multipliers.shape == (2,)  # one per row: two rods
    run = world.run(3)
    assert run["positions"].shape == (4, n, 3) and run["step"].dtype == np.int64 and run["t"].shape == (4,)


def test_free_fall_follows_the_integrators_closed_forms():
    scene = ll.Scene(3, dt=0.01, substeps=1, gravity=(0, -9.81, 0))
    scene.add_particle((0, 10, 0), velocity=(1, 2, 3))
    n, h = 100, 0.01
    euler = ll.World(scene)  # projection: semi-implicit Euler, x_n = x0 + n h v0 + g h^2 n (n + 1) / 2
    euler.step(n)
    expected = np.array([[n * h * 1, 10 + n * h * 2 - 9.81 * h * h * n * (n + 1) / 2, n * h * 3]])
    np.testing.assert_allclose(euler.positions, expected, rtol=0, atol=1e-11)  # 100 rounded additions
    verlet = ll.World(scene, solver="rattle")  # velocity Verlet: exact for constant gravity
    verlet.step(n)
    t = n * h
    np.testing.assert_allclose(verlet.positions, [[t, 10 + 2 * t - 9.81 * t * t / 2, 3 * t]], rtol=0, atol=1e-12)
    np.testing.assert_allclose(verlet.velocities, [[1, 2 - 9.81 * t, 3]], rtol=0, atol=1e-12)
    assert verlet.time == pytest.approx(t, abs=1e-15)


def test_a_hanging_bob_pulls_its_rod_with_its_weight():
    world = pendulum(0.0)
    world.step(10)
    assert world.multipliers[0] == pytest.approx(-2.0 * 9.81, rel=1e-9)  # negative: tension
    assert world.energy()["kinetic"] == pytest.approx(0.0, abs=1e-20)


@pytest.mark.parametrize("amplitude_deg", [10, 60, 120, 170])
def test_the_period_is_the_elliptic_integral_s(amplitude_deg):
    theta = math.radians(amplitude_deg)
    exact = 4 * math.sqrt(1 / 9.81) * agm_k(math.sin(theta / 2))
    world = pendulum(theta)
    run = world.run(round(4.2 * exact / (1 / 600)), period=1)
    assert run["period"]["exact"] == pytest.approx(exact, rel=1e-13)
    assert run["period"]["period"] == pytest.approx(exact, rel=2e-4)
    # and from the trajectory here: the bob crosses x = 0 downwards once a period
    x = run["positions"][:, 1, 0]
    t = run["t"]
    down = np.nonzero((x[:-1] > 0) & (x[1:] <= 0))[0]
    crossings = t[down] + (t[down + 1] - t[down]) * x[down] / (x[down] - x[down + 1])
    assert np.diff(crossings).mean() == pytest.approx(exact, rel=2e-4)
    assert ll.pendulum_period(1.0, 9.81, theta)["exact"] == pytest.approx(exact, rel=1e-13)


def test_rattle_keeps_energy_and_projection_keeps_the_rods():
    rattle = ll.load(ASSETS / "double_pendulum.json", solver="rattle")
    run = rattle.run(600, every=10)
    e = run["energy"]
    assert np.abs(e - e[0]).max() < 1e-2 * abs(e[0])
    assert rattle.drift == pytest.approx(run["energy"][-1] - e[0], abs=1e-12)
    projection = ll.load(ASSETS / "double_pendulum.json")
    run = projection.run(600, every=10)
    assert run["violation"].max() < 1e-9
    lengths = np.linalg.norm(np.diff(run["positions"], axis=1), axis=2)
    np.testing.assert_allclose(lengths, 1.0, atol=1e-9)


def test_the_acceleration_level_drifts_and_baumgarte_holds_it():
    plain = ll.load(ASSETS / "double_pendulum.json", solver="acceleration")
    held = ll.load(ASSETS / "double_pendulum.json", solver="acceleration", baumgarte=10)
    plain.step(600)
    held.step(600)
    assert plain.max_violation() > 10 * held.max_violation()


def test_the_solver_switches_live_and_settings_follow():
    world = ll.load(ASSETS / "double_pendulum.json")
    world.step(30)
    world.solver = "penalty"
    assert world.solver == "penalty" and world.settings["solver"] == "penalty"
    world.step(30)
    world.settings = {"dt": 0.01, "substeps": 2}
    assert world.settings["dt"] == 0.01 and world.settings["substeps"] == 2
    world.set_settings(stiffness=2e4)
    assert world.settings["stiffness"] == 2e4
    assert world.time == pytest.approx(1.0)
    assert [s["id"] for s in ll.solvers()] == ll.solver_ids() and len(ll.solver_ids()) == 5
    assert "rattle" in ll.solvers() and ll.solvers()[2].name and ll.solvers()[0] == "projection"
    kinetic, potential, total = world.energy()
    assert total == world.energy().total == world.energy()["total"] == kinetic + potential
    assert {s["key"] for s in ll.setting_table()} == set(world.settings)


def test_step_is_one_call_and_a_copy_steps_alike():
    world = ll.load(ASSETS / "double_pendulum.json")
    twin = world.copy()
    world.step(100)
    for _ in range(100):
        twin.step()
    assert world.positions.tobytes() == twin.positions.tobytes() and world.time == twin.time


def test_positions_and_velocities_can_be_assigned_whole():
    world = ll.load(ASSETS / "simple_pendulum.json")
    p = world.positions.copy()
    p[1] = (0.0, -1.0, 0.0)
    world.positions = p
    world.velocities = np.zeros((2, 3))
    world.step(5)
    assert world.positions[1][0] == 0.0 and world.energy()["kinetic"] == pytest.approx(0, abs=1e-20)


def test_the_first_flip_of_a_pendulum_sent_over_the_top():
    world = pendulum(0.0, solver="projection")
    world.velocities = np.array([[0, 0, 0], [8.0, 0, 0]])  # v^2 = 64 > 4 g L: it goes over the top
    flip = world.first_flip(2000, [(0, 1)])
    # the time to reach the top: t = integral dtheta / omega(theta), omega^2 = (v0^2 - 2 g L (1 - cos theta)) / L^2
    theta = np.linspace(0, math.pi, 200001)
    omega = np.sqrt(64 - 2 * 9.81 * (1 - np.cos(theta)))
    assert flip == pytest.approx(np.trapz(1 / omega, theta), abs=2 / 600)
    assert math.isnan(pendulum(0.3).first_flip(600, [(0, 1)]))
