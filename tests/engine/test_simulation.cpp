// The stepping unit (simulation.h), checked against the sequence it replaces written out by hand on bare worlds (a
// second computation of the same thing): every lane bit for bit, the accounts from the worlds' own measurements,
// and the failure rules of `run` and of the window.
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "lagrange/lanes.h"
#include "lagrange/measure.h"
#include "lagrange/scene.h"
#include "lagrange/simulation.h"
#include "test_util.h"

using namespace lagrange;

namespace {

Scene double_pendulum() { return load_scene_file(LAGRANGE_ASSETS_DIR "/double_pendulum.json"); }

}  // namespace

TEST_CASE("simulation: lanes stepped together are each the world stepped alone, bit for bit") {
  const Scene scene = double_pendulum();
  const auto specs = parse_lanes("projection,acceleration,rattle:dt=0.004");
  Simulation sim(scene, scene.settings, specs);
  REQUIRE(sim.size() == 3);
  CHECK(sim.world(0).settings().solver == "projection");
  CHECK(sim.world(2).settings().dt == 0.004);

  Scene alone[3] = {scene, scene, scene};
  alone[0].settings = lane_settings(scene.settings, specs[0]);
  alone[1].settings = lane_settings(alone[0].settings, specs[1]);
  alone[2].settings = lane_settings(alone[0].settings, specs[2]);
  World worlds[3] = {make_world(alone[0]), make_world(alone[1]), make_world(alone[2])};

  std::vector<long> seen(3, 0);
  for (int s = 0; s < 120; ++s) {
    const SimulationStep step = sim.step([&](std::size_t k) { ++seen[k]; });
    CHECK_FALSE(step.failed());
    CHECK(std::abs(sim.world(2).time() - sim.world(0).time()) <= 0.5 * 0.004 + 1e-12);
  }
  for (int s = 0; s < 120; ++s) worlds[0].step(), worlds[1].step();
  for (int s = 0; s < 500; ++s) worlds[2].step();  // 2 s of 0.004 s steps
  CHECK(seen == std::vector<long>{120, 120, 500});
  for (int k = 0; k < 3; ++k) {
    CHECK(sim.world(k).state().position == worlds[k].state().position);
    CHECK(sim.world(k).state().velocity == worlds[k].state().velocity);
    CHECK(sim.lane(k).accounts.steps == seen[k]);
  }
  // And the point of lanes: the acceleration-level lane has drifted off its rods where projection has not.
  CHECK(sim.world(0).max_violation(true) < 1e-9);
  CHECK(sim.world(1).max_violation(true) > 1e-4);
}

TEST_CASE("simulation: the accounts are the worlds' own measurements, gathered step by step") {
  World world = test::simple_pendulum("acceleration", 1.0, 1.0, 0.01);
  World by_hand = world;
  Simulation sim(world);
  const double e0 = by_hand.energy().total();
  double worst = by_hand.max_violation(true), max_drift = 0.0;
  long iterations = 0;
  for (int s = 0; s < 300; ++s) {
    sim.step();
    by_hand.step();
    worst = std::max(worst, by_hand.stats().max_relative_violation);
    max_drift = std::max(max_drift, std::abs(by_hand.stats().energy.total() - e0));
    iterations += by_hand.stats().iterations;
  }
  const LaneAccounts& a = sim.lane(0).accounts;
  CHECK(a.start_energy == e0);
  CHECK(a.worst_violation == worst);
  CHECK(a.max_drift == max_drift);
  CHECK(a.iterations == iterations);
  CHECK(a.drift(sim.world()) == doctest::Approx(by_hand.energy().total() - e0).epsilon(1e-15));
  CHECK(a.max_drift > 0.0);  // the acceleration level drifts: the accounts see it
}

TEST_CASE("simulation: scripted drags play on every lane as DragScript and the controller do on a bare world") {
  const Scene scene = double_pendulum();
  const auto specs = parse_lanes("projection,projection");
  Simulation sim(scene, scene.settings, specs);
  const std::vector<ScriptedDrag> drags{{2, Vec3(-1.9, -1.4, 0.0), 0.0, 1.0}};
  DragSettings settings;
  CHECK(sim.set_script(drags, settings).empty());
  CHECK_FALSE(sim.set_script({{99, Vec3(0.0), 0.0, 1.0}}, settings).empty());  // refused, with the reason

  World world = make_world(scene);
  DragController drag;
  DragScript script(drags, settings);
  for (int s = 0; s < 90; ++s) {  // 1.5 s: the drag begins, holds, and lets go
    sim.step();
    script.before_step(world, drag);
    drag.before_step(world);
    world.step();
    drag.after_step(world);
  }
  CHECK(sim.world(0).state().position == world.state().position);
  CHECK(sim.world(1).state().position == world.state().position);
  CHECK(sim.world(0).work().mouse == world.work().mouse);
  CHECK(world.work().mouse != 0.0);  // the hand did work: the script really played
}

TEST_CASE("simulation: run stops everything at the first failure, the window stops and rolls back one lane") {
  const Scene scene = double_pendulum();
  const auto specs = parse_lanes("projection,acceleration,rattle");
  // A rule that fails the acceleration lane once it passes t = 0.5 s: an independent, known moment.
  const auto rule = [](std::size_t, const SimLane& lane) -> std::string {
    return lane.world.settings().solver == "acceleration" && lane.world.time() > 0.5 ? "too late" : "";
  };
  SUBCASE("stop all (run)") {
    Simulation sim(scene, scene.settings, specs);
    sim.rules().failed = rule;
    SimulationStep step;
    int n = 0;
    while (!(step = sim.step()).failed()) ++n;
    CHECK(step.failed_lane == 1);
    CHECK(step.failure == "too late");
    CHECK(n == static_cast<int>(std::floor(0.5 * 60.0)));  // the step that passed 0.5 s is the one that failed
    CHECK(sim.world(2).time() < sim.world(0).time());      // lane 3 did not step after the failure
  }
  SUBCASE("stop one lane (window)") {
    Simulation sim(scene, scene.settings, specs);
    sim.rules().failed = rule;
    sim.rules().stop_all = false;
    State last_sound;  // lane 2's state before each step; the one before the failing step is where it stops
    for (int s = 0; s < 60; ++s) {
      if (sim.lane(1).running()) last_sound = sim.world(1).state();
      sim.step();
    }
    CHECK_FALSE(sim.lane(1).running());
    // All of that state comes back, not only positions and velocities, and the statistics describe it.
    CHECK(sim.world(1).state().position == last_sound.position);
    CHECK(sim.world(1).state().velocity == last_sound.velocity);
    CHECK(sim.world(1).state().row_force == last_sound.row_force);
    CHECK(sim.world(1).state().work.mouse == last_sound.work.mouse);
    CHECK(sim.world(1).state().work.damping == last_sound.work.damping);
    CHECK(sim.world(1).stats().energy.total() == sim.world(1).energy().total());
    CHECK(sim.lane(1).stopped.find("too late after t = 0.5") == 0);
    CHECK(sim.world(1).time() <= 0.5 + 1e-12);   // rolled back to its last sound state
    CHECK(sim.world(2).time() == sim.world(0).time());  // the others went on
    CHECK(sim.world(0).time() == doctest::Approx(1.0));
  }
}

TEST_CASE("simulation: an added lane starts as lane 1 is now, its balance from then, and a slow lane is stopped") {
  const Scene scene = double_pendulum();
  Simulation sim(scene, scene.settings);
  for (int s = 0; s < 30; ++s) sim.step();
  SimLane& lane = sim.add_lane(parse_lanes("rattle")[0]);
  CHECK(lane.world.state().position == sim.world(0).state().position);
  CHECK(lane.world.time() == sim.world(0).time());
  CHECK(lane.accounts.drift(lane.world) == doctest::Approx(0.0).scale(1.0));
  CHECK(sim.specs()[1].solver == "rattle");
  CHECK_THROWS_AS(sim.add_lane(LaneSpec{"projection", {{"dt", "-1"}}}), Error);
  CHECK(sim.size() == 2);  // nothing added on a refusal

  sim.rules().stop_all = false;
  sim.rules().max_catch_up = 3;
  sim.restart_lane(1, parse_lanes("projection:dt=0.001")[0]);  // 17 steps per 1/60 s: more than 3
  sim.step();
  CHECK(sim.lane(1).stopped.find("cannot keep up") == 0);
  sim.remove_lane(1);
  CHECK(sim.size() == 1);
}

TEST_CASE("simulation: lane 1 stays the same object through added lanes and a restart (references stay valid)") {
  const Scene scene = double_pendulum();
  Simulation sim(scene, scene.settings);
  const World* first = &sim.world(0);
  for (int k = 1; k < kMaxLanes; ++k) sim.add_lane(parse_lanes("rattle")[0]);
  CHECK(&sim.world(0) == first);
  for (int s = 0; s < 10; ++s) sim.step();
  sim.restart(make_world(scene));
  CHECK(&sim.world(0) == first);
  CHECK(sim.size() == 1);
  CHECK(sim.world(0).step_count() == 0);
  CHECK(sim.lane(0).accounts.steps == 0);
}

namespace {

// Two simulations of the same lanes, one stepped side by side (parallel_above 0: from the first step on, on a machine
// with two cores or more) and one one lane after another; every lane's state and accounts must agree bit for bit.
void check_side_by_side(const Scene& scene, const std::string& lanes, int steps,
                        const std::function<std::string(std::size_t, const SimLane&)>& failed = {}, bool stop_all = true) {
  const auto specs = parse_lanes(lanes);
  Simulation parallel(scene, scene.settings, specs), serial(scene, scene.settings, specs);
  parallel.rules().parallel_above = 0.0;
  serial.rules().parallel = false;
  for (Simulation* sim : {&parallel, &serial}) {
    sim->rules().failed = failed;
    sim->rules().stop_all = stop_all;
  }
  std::vector<std::vector<double>> looks_parallel, looks_serial;  // what the callers see after each lane's step
  for (int s = 0; s < steps; ++s) {
    const SimulationStep a = parallel.step([&](std::size_t k) {
      looks_parallel.push_back({double(k), parallel.world(k).time(), parallel.world(k).state().position.back().x});
    });
    const SimulationStep b = serial.step([&](std::size_t k) {
      looks_serial.push_back({double(k), serial.world(k).time(), serial.world(k).state().position.back().x});
    });
    CHECK(a.failed_lane == b.failed_lane);
    CHECK(a.failure == b.failure);
    if (a.failed() && stop_all) break;
  }
  CHECK(looks_parallel == looks_serial);
  for (std::size_t k = 0; k < serial.size(); ++k) {
    CAPTURE(k);
    const State& p = parallel.world(k).state();
    const State& q = serial.world(k).state();
    CHECK(p.position == q.position);
    CHECK(p.velocity == q.velocity);
    CHECK(p.row_force == q.row_force);
    CHECK(p.time == q.time);
    CHECK(p.step == q.step);
    CHECK(parallel.lane(k).accounts.iterations == serial.lane(k).accounts.iterations);
    CHECK(parallel.lane(k).accounts.steps == serial.lane(k).accounts.steps);
    CHECK(parallel.lane(k).accounts.max_drift == serial.lane(k).accounts.max_drift);
    CHECK(parallel.lane(k).stopped == serial.lane(k).stopped);
  }
}

}  // namespace

TEST_CASE("simulation: lanes stepped side by side on threads give the serial results bit for bit, every solver") {
  const Scene cloth = load_scene_file(LAGRANGE_ASSETS_DIR "/hanging_cloth.json");
  const Scene chain = load_scene_file(LAGRANGE_ASSETS_DIR "/hanging_chain.json");
  const Scene balls = load_scene_file(LAGRANGE_ASSETS_DIR "/newtons_cradle.json");  // contacts
  for (const SolverInfo& info : solver_table()) {
    CAPTURE(info.id);
    const std::string id = info.id;
    check_side_by_side(chain, id + ",rattle," + id + ",projection", 40);
    check_side_by_side(balls, id + "," + id, 40);
  }
  check_side_by_side(cloth, "projection,rattle", 6);
}

TEST_CASE("simulation: side by side, a failure is what the serial order makes of it (later lanes put back or stopped)") {
  const Scene chain = load_scene_file(LAGRANGE_ASSETS_DIR "/hanging_chain.json");
  // run's rule: lane 1 fails at its 7th step; the later lanes, which the serial order never stepped, are put back.
  const auto lane1_fails = [](std::size_t k, const SimLane& lane) {
    return k == 0 && lane.accounts.steps == 7 ? std::string("lane 1 failed") : std::string();
  };
  check_side_by_side(chain, "projection,rattle,shake", 20, lane1_fails);
  // Lane 2 fails: under run's rule lane 3 is put back; under the window's, lane 2 alone stops where it was.
  const auto lane2_fails = [](std::size_t k, const SimLane& lane) {
    return k == 1 && lane.accounts.steps == 5 ? std::string("lane 2 failed") : std::string();
  };
  check_side_by_side(chain, "projection,rattle,shake", 20, lane2_fails);
  check_side_by_side(chain, "projection,rattle,shake", 20, lane2_fails, false);
}
