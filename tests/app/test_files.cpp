// Opening scene files (path, drag and drop, bad files), screenshots and the headless `shot` command.
#include <stb_image.h>

#include <fstream>

#include "app_fixture.h"
#include "lagrange/scene.h"
#include "sandbox/sandbox.h"
#include "sandbox/window_options.h"

namespace lagrange::app::test {
namespace {

void push_drop(const std::filesystem::path& file) {
  SDL_Event event{};
  event.type = SDL_DROPFILE;
  event.drop.file = SDL_strdup(file.string().c_str());  // freed by the sandbox, as SDL's own drops are
  REQUIRE(SDL_PushEvent(&event) == 1);
}


}  // namespace

TEST_CASE("a bad scene file shows its error and the current scene keeps running") {
  const auto dir = temp_dir("bad");
  const auto bad = dir / "broken.json";
  std::ofstream(bad) << R"({"name": "Broken", "dimension": 2, "particles": [{"position": [0, 0], "mass": -1}]})";
  std::string expected;
  try {
    load_scene_file(bad);
  } catch (const SceneError& error) {
    expected = error.what();
  }
  REQUIRE(!expected.empty());

  Sandbox sandbox(test_options());
  REQUIRE(sandbox.load_scene(asset("double_pendulum.json")) == "");
  run_frames(sandbox, 5, 1.0 / 60.0);
  const std::string name = sandbox.state().scene.name;

  push_drop(bad);  // the drag-and-drop path
  run_frames(sandbox, 1, 1.0 / 60.0);
  CHECK(sandbox.state().scene_error == expected);
  CHECK(sandbox.state().scene.name == name);
  const long steps = sandbox.world().step_count();
  run_frames(sandbox, 5, 1.0 / 60.0);
  CHECK(sandbox.world().step_count() == steps + 5);  // still running

  // The direct path reports the same message; a missing file is an error too.
  CHECK(sandbox.load_scene(bad) == expected);
  CHECK(!sandbox.load_scene(dir / "missing.json").empty());
  CHECK(sandbox.state().scene.name == name);

  // A good drop replaces the scene and clears the message.
  push_drop(asset("triple_pendulum.json"));
  run_frames(sandbox, 1, 1.0 / 60.0);
  CHECK(sandbox.state().scene_error.empty());
  CHECK(sandbox.state().scene.name != name);
  std::filesystem::remove_all(dir);
}

TEST_CASE("F12 writes a complete timestamped PNG into the folder the UI names") {
  const auto dir = temp_dir("screenshots");
  Sandbox sandbox(test_options());
  REQUIRE(sandbox.load_scene(asset("double_pendulum.json")) == "");
  sandbox.state().screenshot_dir = dir;
  for (bool without_panels : {false, true}) {
    sandbox.state().screenshot_without_panels = without_panels;
    push_key(SDLK_F12);
    run_frames(sandbox, 1, 1.0 / 60.0);
    if (!without_panels) SDL_Delay(1100);  // a new second, so a new name
  }
  std::vector<std::filesystem::path> pngs;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    CHECK(entry.path().extension() == ".png");  // no temp file left behind
    pngs.push_back(entry.path());
  }
  REQUIRE(pngs.size() == 2);
  CHECK(sandbox.state().notice.find(dir.string()) != std::string::npos);
  for (const auto& png : pngs) {
    int w = 0, h = 0, channels = 0;
    unsigned char* data = stbi_load(png.string().c_str(), &w, &h, &channels, 4);
    REQUIRE(data != nullptr);
    CHECK(w == 640);
    CHECK(h == 360);
    stbi_image_free(data);
    CHECK(png.filename().string().starts_with("lagrange-double-pendulum-"));
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("shot renders a scene after N steps into a PNG and bad flags exit with 2") {
  const auto dir = temp_dir("shot");
  const std::string out = (dir / "pendulum.png").string();
  CHECK(run_shot({asset("double_pendulum.json").string(), "--steps", "30", "--size", "320x200", "--out", out}) == 0);
  int w = 0, h = 0, channels = 0;
  unsigned char* data = stbi_load(out.c_str(), &w, &h, &channels, 4);
  REQUIRE(data != nullptr);
  CHECK(w == 320);
  CHECK(h == 200);
  stbi_image_free(data);
  CHECK(!std::filesystem::exists(out + ".part"));

  const std::string scene = asset("double_pendulum.json").string();
  CHECK(run_shot({scene, "--time", "0.5", "--solver", solver_table()[0].id, "--out", out, "--bare"}) == 0);
  CHECK(run_shot({scene, "--frobnicate"}) == 2);
  CHECK(run_shot({scene, "--steps", "-3"}) == 2);
  CHECK(run_shot({scene, "--steps", "ten"}) == 2);
  CHECK(run_shot({scene, "--size", "big"}) == 2);
  CHECK(run_shot({scene, "--solver", "no-such-solver"}) == 2);
  CHECK(run_shot({scene, "--steps", "3", "--time", "1"}) == 2);
  CHECK(run_shot({scene, "--out"}) == 2);
  CHECK(run_shot({}) == 2);
  CHECK(run_shot({(dir / "missing.json").string(), "--out", out}) == 2);  // bad input, as for `run`
  std::filesystem::remove_all(dir);
}

}  // namespace lagrange::app::test

namespace lagrange::app::test {

TEST_CASE("the window entry point opens a scene and runs frames and rejects bad options with 2") {
  const auto run = run_window;
  CHECK(run({asset("triple_pendulum.json").string(), "--solver", solver_table()[0].id, "--quit-after", "3"}) == 0);
  CHECK(run({"/no/such/scene.json", "--quit-after", "2"}) == 2);  // reported over the default scene; bad input: 2
  CHECK(run({"--quit-after", "2", "--paused", "--no-vsync", "--size", "800x600"}) == 0);
  CHECK(run({"--frobnicate"}) == 2);
  CHECK(run({"--solver", "no-such-solver"}) == 2);
  CHECK(run({"--size", "0x0"}) == 2);
  CHECK(run({"a.json", "b.json"}) == 2);
  CHECK(run({"--help"}) == 0);
}

}  // namespace lagrange::app::test

namespace lagrange::app::test {

// The window's options are read by one parser for both builds (window_options.h): the desktop's argv here, the web
// page's URL parameters (each one item, --NAME=VALUE) in app/web/web_main.cpp.
TEST_CASE("the window's command line starts comparison lanes, a lane view and paused, as a link does in the page") {
  CHECK(run_window({"--lanes", "projection,acceleration", "--lane-view", "split", "--quit-after", "3"}) == 0);
  CHECK(run_window({"--lanes", "projection"}) == 2);                            // one lane is no comparison
  CHECK(run_window({"--lanes", "projection,warp"}) == 2);                       // no such solver
  CHECK(run_window({"--lanes", "projection,shake", "--solver", "shake"}) == 2);  // they exclude each other
  CHECK(run_window({"--lane-view", "sideways"}) == 2);

  std::vector<std::string> items = {asset("double_pendulum.json").string(), "--lanes=projection,acceleration:dt=0.004",
                                    "--lane-view=split", "--paused", "--theme=light", "--ui-scale=1.5"};
  std::vector<char*> argv;
  for (std::string& item : items) argv.push_back(item.data());
  WindowCommandLine line;
  cli::Args args(static_cast<int>(argv.size()), argv.data());
  while (!args.empty()) read_window_option(args, line);
  check_window_command_line(line);
  REQUIRE(line.lanes.size() == 2);
  CHECK(line.theme == Theme::Light);
  CHECK(line.ui_scale == 1.5);
  Sandbox sandbox(test_options());
  CHECK(start_window(sandbox, line).empty());
  run_frames(sandbox, 2, 1.0 / 60.0);
  const SandboxState& state = sandbox.state();
  CHECK(state.scene_path == asset("double_pendulum.json"));
  REQUIRE(state.lane_count() == 2);  // lane 2 beside lane 1, the sandbox's world
  CHECK(state.sim.lane(1).spec.solver == "acceleration");
  CHECK(state.sim.world(1).settings().dt == doctest::Approx(0.004));
  CHECK(std::string(sandbox.world().solver_info().id) == "projection");
  CHECK(state.lane_view == LaneView::Split);
  CHECK(state.paused);
  CHECK(sandbox.world().time() == 0.0);

  WindowCommandLine bad;
  cli::Args unknown(1, argv.data() + 0);
  read_window_option(unknown, bad);  // the scene
  std::string wrong = "--theme=purple";
  char* wrong_item = wrong.data();
  cli::Args theme(1, &wrong_item);
  CHECK_THROWS_AS(read_window_option(theme, bad), cli::UsageError);
  CHECK(!bad.theme);
}

}  // namespace lagrange::app::test
