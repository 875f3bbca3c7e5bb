#include "sandbox/window_options.h"

#include <cstdio>
#include <span>

#include "lagrange/text.h"
#include "options/cli_options.h"

namespace lagrange::app {

void read_window_option(cli::Args& args, WindowCommandLine& line) {
  if (args.flag("-h") || args.flag("--help")) {
    line.help = true;
  } else if (auto v = args.option("--solver")) {
    if (!find_solver(*v)) throw cli::UsageError("unknown solver " + lagrange::quoted(*v));
    line.solver = *v;
  } else if (auto v = args.option("--size")) {
    if (!parse_size(*v, line.width, line.height)) throw cli::UsageError("--size needs WIDTHxHEIGHT, e.g. 1280x720");
  } else if (args.flag("--paused")) {
    line.paused = true;
  } else if (args.flag("--measure")) {
    line.measure = true;
  } else if (auto v = args.option("--quit-after")) {
    line.quit_after = cli::parse_count("--quit-after", *v, 1);
  } else if (args.flag("--report")) {
    line.report = true;
  } else if (args.flag("--list-keys")) {
    line.list_keys = true;
  } else if (auto v = args.option("--ui-scale")) {
    line.ui_scale = parse_ui_scale(*v);
    if (!line.ui_scale) throw cli::UsageError(ui_scale_error(*v));
  } else if (auto v = args.option("--theme")) {
    line.theme = parse_theme(*v);
    if (!line.theme) throw cli::UsageError(theme_error(*v));
  } else if (auto v = args.option("--msaa")) {
    if (*v != "0" && *v != "2" && *v != "4" && *v != "8")
      throw cli::UsageError("--msaa needs 0, 2, 4 or 8 samples, got " + lagrange::quoted(*v));
    line.msaa = (*v)[0] - '0';
  } else if (args.flag("--no-vsync")) {
    line.vsync = false;
  } else if (auto v = args.option("--lanes")) {
    line.lanes = parse_lanes_option(*v);
    line.lanes_text = *v;
  } else if (auto v = args.option("--lane-view")) {
    line.lane_view = parse_lane_view(*v);
  } else if (auto p = args.positional()) {
    if (!line.scene.empty()) throw cli::UsageError("one scene at a time (got '" + line.scene + "' and '" + *p + "')");
    line.scene = *p;
  } else {
    args.finish();  // throws: an unknown option
  }
}

void check_window_command_line(const WindowCommandLine& line) {
  if (!line.solver.empty() && !line.lanes.empty())
    throw cli::UsageError("--solver and --lanes exclude each other: the lanes name their solvers");
}

std::vector<std::string> start_window(Sandbox& sandbox, const WindowCommandLine& line) {
  std::vector<std::string> problems;
  const auto problem = [&](const std::string& message) {
    std::fprintf(stderr, "lagrange-lab: %s\n", message.c_str());
    problems.push_back(message);
  };
  SandboxState& state = sandbox.state();
  const std::string fallback = (find_assets_dir() / "double_pendulum.json").string();
  const std::string error = sandbox.load_scene(line.scene.empty() ? fallback : line.scene);
  if (!error.empty()) {
    problem(error);
    if (!line.scene.empty()) {  // keep the message on screen over the default scene
      sandbox.load_scene(fallback);
      state.scene_error = error;
    }
  }
  if (!line.solver.empty()) {
    Settings settings = sandbox.world().settings();
    settings.solver = line.solver;
    state.commands.push_back(Command::apply_settings(settings));
  }
  if (!line.lanes.empty()) {  // lane 1 is the sandbox's world; the others are added as the "+ lane" button does
    try {
      state.commands.push_back(Command::apply_settings(lane_settings(sandbox.world().settings(), line.lanes[0])));
      for (std::size_t k = 1; k < line.lanes.size(); ++k) {
        Command command;
        command.kind = Command::Kind::AddLane;  // a lane that cannot start says so in the window (its toast)
        command.path = lagrange::lanes_text(std::span<const LaneSpec>(&line.lanes[k], 1));
        state.commands.push_back(command);
      }
    } catch (const Error& error) {
      problem(std::string("--lanes: lane 1: ") + error.what());
      state.show_toast(problems.back(), true);
    }
  }
  if (line.lane_view) state.lane_view = *line.lane_view;
  if (line.msaa) state.view.msaa = *line.msaa;
  state.paused = line.paused;
  if (line.measure) {
    state.measure.shown = true;
    state.push(Command::Kind::FrameScene);  // into the viewport above the strip
  }
  return problems;
}

}  // namespace lagrange::app
