// Time travel: the timeline's limits, and scrubbing back and resuming in the window, against worlds stepped alone
// (a resumed run must be the uninterrupted run, bit for bit).
#include <fstream>
#include <sstream>

#include "app_fixture.h"
#include "capture/trajectory_csv.h"
#include "tools/timeline.h"

namespace lagrange::app::test {
namespace {

Snapshot snapshot_at(double time, std::size_t particles) {
  Snapshot s;
  State lane;
  lane.time = time;
  lane.position.assign(particles, Vec3(time));
  lane.velocity.assign(particles, Vec3(0.0));
  s.lanes.push_back(std::move(lane));
  s.measured.emplace_back();
  return s;
}

// A world built from the scene file and stepped `steps` times on its own.
World stepped_alone(const char* scene, long steps, const std::string& solver = "") {
  Scene s = load_scene_file(asset(scene));
  if (!solver.empty()) s.settings.solver = solver;
  World world = make_world(s);
  for (long i = 0; i < steps; ++i) world.step();
  return world;
}

// Queues a second lane stepped at the acceleration level (applied with the next steps).
void add_acceleration_lane(SandboxState& state) {
  Command command;
  command.kind = Command::Kind::AddLane;
  command.path = "acceleration";
  state.commands.push_back(command);
}

std::string read_text(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

TEST_CASE("the timeline keeps the last seconds within its memory, and resuming drops the later history") {
  Timeline timeline;
  timeline.max_seconds = 1.0;
  for (int k = 0; k <= 300; ++k) timeline.record(snapshot_at(k * 0.01, 10));  // 3 s of 10 ms steps
  REQUIRE(timeline.size() == 101);  // the last second: t = 2.00 .. 3.00
  CHECK(timeline.at(0).time() == doctest::Approx(2.0));
  CHECK(timeline.back().time() == doctest::Approx(3.0));
  CHECK(timeline.bytes() == 101 * Timeline::cost(timeline.at(0)));
  timeline.set_cursor(40);
  REQUIRE(timeline.cursor() == 40u);
  timeline.resume();
  CHECK(!timeline.cursor());
  CHECK(timeline.size() == 41);
  CHECK(timeline.back().time() == doctest::Approx(2.4));
  CHECK(timeline.bytes() == 41 * Timeline::cost(timeline.at(0)));
  // The memory bound: snapshots of a large scene are dropped oldest first, keeping at least two.
  Timeline small;
  small.max_bytes = 10 * Timeline::cost(snapshot_at(0.0, 1000));
  for (int k = 0; k < 50; ++k) small.record(snapshot_at(k * 0.01, 1000));
  CHECK(small.size() == 10);
  CHECK(small.back().time() == doctest::Approx(0.49));
  Timeline tiny;
  tiny.max_bytes = 1;
  for (int k = 0; k < 5; ++k) tiny.record(snapshot_at(k, 3));
  CHECK(tiny.size() == 2);
  timeline.set_cursor(1000);  // past the end: the newest
  CHECK(timeline.cursor() == timeline.size() - 1);
}

TEST_CASE("Left steps back through the last steps, and a run resumed there is the uninterrupted run, bit for bit") {
  Sandbox sandbox(test_options(1280, 720));
  REQUIRE(sandbox.load_scene(asset("double_pendulum.json")) == "");
  SandboxState& state = sandbox.state();
  add_acceleration_lane(state);
  sandbox.advance_steps(120);
  REQUIRE(state.lane_count() == 2);
  REQUIRE(state.timeline.size() == 121);  // t = 0 and every step
  for (int k = 0; k < 30; ++k) push_key(SDLK_LEFT);
  run_frames(sandbox, 1, 0.0);
  CHECK(state.paused);
  REQUIRE(state.timeline.cursor() == 90u);
  const World alone90 = stepped_alone("double_pendulum.json", 90);
  const World lane90 = stepped_alone("double_pendulum.json", 90, "acceleration");
  CHECK(sandbox.world().step_count() == 90);
  CHECK(sandbox.world().state().position == alone90.state().position);
  CHECK(sandbox.world().state().velocity == alone90.state().velocity);
  CHECK(state.sim.world(1).state().position == lane90.state().position);
  // Right replays forward through the history without computing; back again with Left.
  push_key(SDLK_RIGHT);
  run_frames(sandbox, 1, 0.0);
  CHECK(state.timeline.cursor() == 91u);
  CHECK(sandbox.world().step_count() == 91);
  push_key(SDLK_LEFT);
  run_frames(sandbox, 1, 0.0);
  CHECK(state.timeline.cursor() == 90u);
  // Resume: the later 30 steps are dropped (and their plot samples), then 60 new ones are the uninterrupted run's.
  push_key(SDLK_SPACE);
  run_frames(sandbox, 1, 0.0);
  CHECK(!state.timeline.cursor());
  CHECK(state.timeline.size() == 91);
  CHECK(state.displays[0].history.back().time == doctest::Approx(90.0 / 60.0));
  state.paused = true;
  sandbox.advance_steps(60);
  const World alone150 = stepped_alone("double_pendulum.json", 150);
  const World lane150 = stepped_alone("double_pendulum.json", 150, "acceleration");
  CHECK(sandbox.world().step_count() == 150);
  CHECK(sandbox.world().state().position == alone150.state().position);
  CHECK(sandbox.world().state().velocity == alone150.state().velocity);
  CHECK(state.sim.world(1).state().position == lane150.state().position);
  CHECK(state.sim.world(1).state().velocity == lane150.state().velocity);
}

TEST_CASE("the timeline under the scene: its slider scrubs back, its arrow steps back, Play resumes") {
  Sandbox sandbox(test_options(1280, 720));
  REQUIRE(sandbox.load_scene(asset("simple_pendulum.json")) == "");
  SandboxState& state = sandbox.state();
  sandbox.advance_steps(200);
  run_frames(sandbox, 2, 0.0);
  REQUIRE(state.widget_rects.count("timeline slider") == 1);
  // The left end of the slider: the oldest moment kept (the start, 200 steps ago).
  const auto slider = state.widget_rects.at("timeline slider");
  click_at(sandbox, glm::dvec2(slider[0] + 3.0, 0.5 * (slider[1] + slider[3])));
  CHECK(state.paused);
  REQUIRE(state.timeline.cursor().has_value());
  CHECK(*state.timeline.cursor() < 10u);
  const long shown = sandbox.world().step_count();
  CHECK(sandbox.world().state().position == stepped_alone("simple_pendulum.json", shown).state().position);
  click_widget(sandbox, "timeline back");
  CHECK(sandbox.world().step_count() == std::max(shown - 1, 0L));
  click_widget(sandbox, "timeline play");
  CHECK(!state.paused);
  CHECK(!state.timeline.cursor());
  CHECK(state.timeline.back().lanes[0].step <= shown);
}

TEST_CASE("Export CSV writes the timeline with run's columns: the rows of the worlds stepped alone, every lane") {
  const auto dir = temp_dir("export");
  Sandbox sandbox(test_options(1280, 720));
  REQUIRE(sandbox.load_scene(asset("double_pendulum.json")) == "");
  SandboxState& state = sandbox.state();
  add_acceleration_lane(state);
  sandbox.advance_steps(30);
  REQUIRE(state.lane_count() == 2);
  Command command;
  command.kind = Command::Kind::ExportCsv;
  command.path = (dir / "t.csv").string();
  state.commands.push_back(command);
  sandbox.advance_steps(0);
  CHECK_MESSAGE(!state.toast_is_error, state.toast);
  // The same rows written from two worlds stepped alone, step by step, through the writer `run --csv` uses.
  {
    io::OutputFile expected((dir / "expected.csv").string());
    io::write_trajectory_header(expected, 3, true);
    Scene scene = load_scene_file(asset("double_pendulum.json"));
    World first = make_world(scene);
    scene.settings.solver = "acceleration";
    World second = make_world(scene);
    std::string line;
    for (int s = 0; s <= 30; ++s) {
      if (s > 0) {
        first.step();
        second.step();
      }
      io::write_trajectory_row(expected, line, "1,projection,", first.state(), first.energy(), first.max_violation());
      io::write_trajectory_row(expected, line, "2,acceleration,", second.state(), second.energy(),
                               second.max_violation());
    }
    expected.finish();
    expected.commit();
  }
  const std::string exported = read_text(dir / "t.csv");
  CHECK(exported.starts_with("lane,solver,step,t,kinetic,potential,energy,violation,x0,"));
  CHECK(exported == read_text(dir / "expected.csv"));
  // Never over the scene file: refused, the file untouched.
  const std::string scene_text = read_text(asset("double_pendulum.json"));
  command.path = asset("double_pendulum.json").string();
  state.commands.push_back(command);
  sandbox.advance_steps(0);
  CHECK(state.toast_is_error);
  CHECK(read_text(asset("double_pendulum.json")) == scene_text);
}

}  // namespace lagrange::app::test
