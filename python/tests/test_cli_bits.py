"""The same scene through the package and through `lagrange-lab run --csv` gives the same bits: every solver, settings
by their --set names, --every, scripted drags, lanes, saved states and the period meter."""

import re

import numpy as np
import pytest

import lagrange_lab as ll
from conftest import ASSETS, as_columns, assert_same_bits, cli_csv, run_cli

PENDULUM = ASSETS / "double_pendulum.json"


def test_the_csv_header_is_the_package_s_column_list_and_every_column_a_key():
    header, rows = cli_csv(PENDULUM, "--steps", 5)
    assert header == ll.trajectory_columns(3)
    run = ll.load(PENDULUM).run(5)
    for k, name in enumerate(header):
        assert run[name].tolist() == [int(row[k]) if name == "step" else float(row[k]) for row in rows], name


@pytest.mark.parametrize("solver", ll.solver_ids())
def test_every_solver_gives_run_s_bits(solver):
    header, rows = cli_csv(PENDULUM, "--solver", solver, "--steps", 90, "--every", 7)
    world = ll.load(PENDULUM, solver=solver)
    assert_same_bits(world.run(90, every=7), as_columns(header, rows))


def test_settings_by_their_set_names_give_run_s_bits():
    header, rows = cli_csv(ASSETS / "triple_pendulum.json", "--steps", 50, "--set", f"dt={1 / 240!r}", "--set",
                           "gravity=0,-1.62,0", "--set", "substeps=2", "--solver", "rattle")
    world = ll.load(ASSETS / "triple_pendulum.json", dt=1 / 240, gravity=(0, -1.62, 0), substeps=2, solver="rattle")
    assert world.settings["gravity"] == (0.0, -1.62, 0.0)
    assert_same_bits(world.run(50), as_columns(header, rows))


def test_a_run_continues_a_run_and_a_changed_solver_too():
    header, rows = cli_csv(PENDULUM, "--steps", 60)
    world = ll.load(PENDULUM)
    first = world.run(30)
    second = world.run(30)
    expected = as_columns(header, rows)
    assert first["step"].tobytes() == expected["step"][:31].tobytes()
    assert second["positions"].tobytes() == expected["positions"][30:].tobytes()  # its first row: step 30 again


def test_scripted_drags_give_run_s_bits():
    header, rows = cli_csv(PENDULUM, "--steps", 150, "--drag", "2,-1.9,-1.4,0,0,1", "--drag", "1,0.5,0.5,0,1.5,2")
    world = ll.load(PENDULUM)
    world.set_drags([(2, (-1.9, -1.4), 0, 1), "1,0.5,0.5,0,1.5,2"])
    run = world.run(150)
    assert_same_bits(run, as_columns(header, rows))
    assert world.work["mouse"] != 0.0


def test_spring_drags_give_run_s_bits():
    header, rows = cli_csv(PENDULUM, "--steps", 80, "--drag", "2,1,1,0,0,0.8", "--drag-model", "spring")
    world = ll.load(PENDULUM)
    world.set_drags([(2, (1, 1, 0), 0, 0.8)], model="spring")
    assert_same_bits(world.run(80), as_columns(header, rows))


def test_lanes_give_run_lanes_bits():
    spec = "projection,acceleration:baumgarte=10,projection:dt=0.004"
    header, rows = cli_csv(PENDULUM, "--steps", 40, "--lanes", spec)
    assert header[:2] == ["lane", "solver"]
    lanes = ll.Lanes(PENDULUM, spec)
    assert len(lanes) == 3 and lanes.labels == ["projection", "acceleration baumgarte=10", "projection dt=0.004"]
    runs = lanes.run(40)
    for k, run in enumerate(runs):
        mine = [row[2:] for row in rows if row[0] == str(k + 1)]
        assert_same_bits(run, as_columns(header[2:], mine))
    assert lanes[2].settings["dt"] == 0.004 and lanes[2].time == pytest.approx(lanes[0].time, abs=0.003)


def test_a_saved_state_is_run_s_file_and_continues_bit_for_bit(tmp_path):
    cli_state = tmp_path / "cli.json"
    run_cli("run", ASSETS / "cart_pendulum.json", "--steps", 75, "--quiet", "--save-state", cli_state)
    world = ll.load(ASSETS / "cart_pendulum.json")
    world.step(75)
    world.scene().save(tmp_path / "py.json")
    assert (tmp_path / "py.json").read_bytes() == cli_state.read_bytes()
    header, rows = cli_csv(cli_state, "--steps", 40)
    continued = ll.load(cli_state).run(40)
    assert_same_bits(continued, as_columns(header, rows))
    straight = world.run(40)
    assert straight["positions"].tobytes() == continued["positions"].tobytes()


def test_the_period_meter_gives_run_measure_period_s_numbers():
    _, out, _ = run_cli("run", ASSETS / "simple_pendulum.json", "--duration", 20, "--measure", "period", "--quiet")
    measured = float(re.search(r"^period\s+(\S+) s", out, re.M).group(1))
    exact = float(re.search(r"^exact\s+(\S+) s", out, re.M).group(1))
    world = ll.load(ASSETS / "simple_pendulum.json")
    period = world.run(1200, every=1200, period=1)["period"]
    assert period["period"] == measured and period["exact"] == exact
    assert period["intervals"] > 10 and period["axis"] == "x"


@pytest.mark.parametrize("scene", ["bouncing_ball.json", "falling_chain.json"])
def test_a_scene_with_contacts_gives_run_s_contact_columns(scene):
    header, rows = cli_csv(ASSETS / scene, "--steps", 60, "--every", 3)
    run = ll.load(ASSETS / scene).run(60, every=3)
    names = [name for name in header if name in ("contacts", "impacts") or name.startswith("obstacle")]
    assert names[:2] == ["contacts", "impacts"] and len(names) > 2
    for name in names:
        k = header.index(name)
        expected = [int(row[k]) if name in ("contacts", "impacts") else float(row[k]) for row in rows]
        assert run[name].tolist() == expected, name
    # The columns are the force on the obstacle: a floor is only ever pressed down, never pulled up.
    assert max(run["obstacle0_fy"]) <= 0.0 and min(run["obstacle0_fy"]) < 0.0
