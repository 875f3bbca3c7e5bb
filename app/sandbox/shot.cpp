// `lagrange-lab shot SCENE [--solver ID] [--steps N | --time S] [--size WxH] [--out FILE.png] [--panels] [--measure]
// [--bare]`:
// renders a scene after N steps with no display (SDL's offscreen driver: EGL on Mesa) and writes a PNG.
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <new>
#include <string>
#include <string_view>

#include "cli/args.h"
#include "cli/commands.h"
#include "common/output_file.h"
#include "cli/drag_option.h"
#include "lagrange/lanes.h"
#include "lagrange/text.h"
#include "sandbox/cli_options.h"
#include "sandbox/sandbox.h"
#include "sandbox/sandbox_app.h"
#include "sandbox/screenshot.h"

namespace lagrange::app {
namespace {

constexpr const char* kUsage =
    "usage: lagrange-lab shot SCENE.json [options]\n"
    "  Renders SCENE.json after some steps, without a display, into a PNG.\n"
    "options:\n"
    "  --solver ID     solver to step with (%s)\n"
    "  --steps N       steps before the picture (default 0)\n"
    "  --time S        simulated seconds before the picture (instead of --steps)\n"
    "  --size WxH      image size in pixels (default 1280x720)\n"
    "  --out FILE.png  output file (default: SCENE name .png in the current folder)\n"
    "  --panels        include the control and diagnostics panels\n"
    "  --measure       include the Measure strip under the scene (period timer, stopwatch, protractor, energy\n"
    "                  bars; implies --panels); the timer runs from the start\n"
    "  --bare          the scene only: no solver line, no legend\n"
    "  --lanes L1,L2   2-4 lanes stepped together from the same state, each a solver id with optional :KEY=VALUE\n"
    "                  settings (as for run --lanes), e.g. projection,acceleration; excludes --solver\n"
    "  --lane-view V   overlay (the other lanes as ghosts in their colours over lane 1; default) or split\n"
    "                  (each lane in its own view, side by side)\n"
    "  --exaggerate K  draw each rod's length error K times (1, 10, 100 or 1000; default 1)\n"
    "  --rest-lengths  a thin line of each rod's rest length beside it\n"
    "  --length-labels each rod's length in metres beside it\n"
    "  --ui-scale S    fonts, widgets, lines and plots S times as large, 1..3 (e.g. 2 for a projector)\n"
    "  --theme T       dark (default) or light; shot never reads the window's remembered choice\n"
    "  --allow-large   lift the limits on scene size (file size, particles, rows; docs/cli.md)\n"
    "  --frames N      then run N interactive frames (UI, one step of physics, drawing; 1..1000) and print the\n"
    "                  median frame time: a measure of the sandbox's speed on this machine\n";

// --frames: the median is taken over the last 120 frames, so a thousand is plenty; 10^6 frames of a large window
// took hours.
constexpr long kMaxFrames = 1000;

// The usage with the drag options (shared with `run`) appended; a printf format taking the solver ids.
const char* usage() {
  static const std::string text = std::string(kUsage) + cli::kDragUsage;
  return text.c_str();
}

// A mistake in the command line: the message, then the usage.
int usage_error(const std::string& message) { return lagrange::app::usage_error("lagrange-lab shot", usage(), message); }

// Anything else (an output that is the input, a scene that does not load, a count too large for this scene): one
// line, escaped, and the exit code (docs/cli.md).
int fail(int code, const std::string& message) {
  std::fprintf(stderr, "lagrange-lab shot: %s\n", printable(message, 4096).c_str());
  return code;
}

}  // namespace

int shot_main(int argc, char** argv) {
  std::string scene, solver, out;
  long steps = 0;
  double seconds = -1.0;
  long frames = 0;
  bool have_steps = false, panels = false, bare = false, measure = false, rest_lengths = false, length_labels = false;
  std::optional<std::string> lanes_text;
  LaneView lane_view = LaneView::Overlay;
  int exaggeration = 1;
  SceneLimits limits;
  cli::DragOptions drags;
  SandboxOptions options;
  options.hidden = true;
  options.vsync = false;
  try {
    cli::Args args(argc, argv);
    while (!args.empty()) {
      if (args.flag("-h") || args.flag("--help")) {
        std::printf(usage(), solver_ids().c_str());
        return 0;
      }
      if (auto v = args.option("--solver")) {
        solver = *v;
        if (!find_solver(solver))
          return usage_error("unknown solver " + lagrange::quoted(solver) + "; known: " + solver_ids());
      } else if (auto v = args.option("--steps")) {
        steps = cli::parse_count("--steps", *v, 0, cli::kMaxSteps);
        have_steps = true;
      } else if (auto v = args.option("--time")) {
        seconds = cli::parse_number("--time", *v);
        if (seconds < 0 || seconds > 1e6)
          return usage_error("--time needs seconds in 0..1e6, got " + lagrange::quoted(*v));
      } else if (auto v = args.option("--size")) {
        if (!parse_size(*v, options.width, options.height))
          return usage_error("--size needs WIDTHxHEIGHT (16..8192), got " + lagrange::quoted(*v));
      } else if (auto v = args.option("--out")) {
        out = *v;
        if (out.empty()) return usage_error("--out needs a file name");
      } else if (auto v = args.option("--frames")) {
        frames = cli::parse_count("--frames", *v, 1, kMaxFrames);
      } else if (auto v = args.option("--ui-scale")) {
        const auto scale = parse_ui_scale(*v);
        if (!scale) return usage_error(ui_scale_error(*v));
        options.appearance.scale = *scale;
      } else if (auto v = args.option("--theme")) {
        const auto theme = parse_theme(*v);
        if (!theme) return usage_error(theme_error(*v));
        options.appearance.theme = *theme;
      } else if (args.flag("--panels")) {
        panels = true;
      } else if (args.flag("--measure")) {
        measure = panels = true;
      } else if (args.flag("--bare")) {
        bare = true;
      } else if (auto v = args.option("--lanes")) {
        lanes_text = *v;
      } else if (auto v = args.option("--lane-view")) {
        if (*v == "overlay") lane_view = LaneView::Overlay;
        else if (*v == "split") lane_view = LaneView::Split;
        else return usage_error("--lane-view needs overlay or split, got " + lagrange::quoted(*v));
      } else if (auto v = args.option("--exaggerate")) {
        exaggeration = static_cast<int>(cli::parse_count("--exaggerate", *v, 1, 1000));
        if (exaggeration != 1 && exaggeration != 10 && exaggeration != 100 && exaggeration != 1000)
          return usage_error("--exaggerate needs 1, 10, 100 or 1000, got " + lagrange::quoted(*v));
      } else if (args.flag("--rest-lengths")) {
        rest_lengths = true;
      } else if (args.flag("--length-labels")) {
        length_labels = true;
      } else if (cli::scene_option(args, limits)) {
      } else if (cli::read_drag_option(args, drags)) {
      } else if (auto p = args.positional()) {
        if (!scene.empty())
          return usage_error("one scene at a time (got " + lagrange::quoted(scene) + " and " + lagrange::quoted(*p) +
                             ")");
        scene = *p;
      } else {
        args.finish();  // throws: an unknown option
      }
    }
  } catch (const cli::UsageError& error) {
    return usage_error(error.what());
  }
  if (scene.empty()) return usage_error("which scene? e.g. lagrange-lab shot assets/double_pendulum.json");
  if (have_steps && seconds >= 0) return usage_error("--steps and --time exclude each other");
  std::vector<LaneSpec> lanes;
  if (lanes_text) {
    if (!solver.empty()) return usage_error("--solver and --lanes exclude each other: the lanes name their solvers");
    try {
      lanes = parse_lanes(*lanes_text);
    } catch (const Error& error) {
      return usage_error(std::string("--lanes: ") + error.what());
    }
    if (lanes.size() < 2) return usage_error("--lanes: two to " + std::to_string(kMaxLanes) + " lanes, got one");
    solver = lanes[0].solver;  // lane 1 is the sandbox's world; its settings below
  }
  if (out.empty()) out = std::filesystem::path(scene).stem().string() + ".png";
  try {
    io::refuse_same_file(scene, out);
  } catch (const io::SameFileError& error) {
    return fail(cli::kExitBadInput, error.what());
  }

  // The scene first, before any graphics, so a bad or oversized scene fails at once: bad input, as for `run`, exit
  // code 2; out of memory (std::bad_alloc) goes on to main: exit code 4.
  Scene loaded;
  try {
    loaded = load_scene_file(scene, limits);
  } catch (const SceneError& error) {
    return fail(cli::kExitBadInput, error.what());
  }
  if (seconds >= 0) {  // the scene's dt: --solver changes the method, not the step
    const double wanted = std::round(seconds / loaded.settings.dt);
    if (!(wanted <= static_cast<double>(cli::kMaxSteps)))
      return fail(cli::kExitBadInput, "--time " + cli::format_number(seconds) + " is " + cli::format_number(wanted) +
                                          " steps of this scene; at most " + std::to_string(cli::kMaxSteps));
    steps = static_cast<long>(wanted);
  }
  try {  // the same bound on the work as `run`: --frames step the physics once each
    cli::check_substeps(steps + frames, loaded.settings.substeps);
  } catch (const cli::UsageError& error) {
    return fail(cli::kExitBadInput, error.what());
  }

  // `--out -` (or /dev/stdout): the PNG is standard output, so what is printed goes to stderr, as for `run --csv -`.
  std::FILE* const report = io::is_standard_output(out) ? stderr : stdout;

  // No display needed: SDL's offscreen driver gives a GL context through EGL. Respect an explicit choice.
  setenv("SDL_VIDEODRIVER", "offscreen", 0);
  std::unique_ptr<Sandbox> sandbox;
  try {
    sandbox = std::make_unique<Sandbox>(options);
  } catch (const std::exception& first) {
    return fail(1, first.what());
  }
  try {
    sandbox->open_scene(std::move(loaded), scene);
  } catch (const SceneError& error) {
    return fail(cli::kExitBadInput, error.what());
  } catch (const Error& error) {
    return fail(cli::kExitBadInput, error.what());
  }
  SandboxState& state = sandbox->state();
  if (!solver.empty()) {
    Settings settings = sandbox->world().settings();
    settings.solver = solver;
    if (!lanes.empty()) {
      try {
        settings = lane_settings(settings, lanes[0]);
      } catch (const Error& error) {
        return fail(cli::kExitBadInput, std::string("--lanes: lane 1: ") + error.what());
      }
    }
    state.commands.push_back(Command::apply_settings(settings));
  }
  for (std::size_t k = 1; k < lanes.size(); ++k) {
    Command command;
    command.kind = Command::Kind::AddLane;
    command.path = lagrange::lanes_text(std::span<const LaneSpec>(&lanes[k], 1));
    state.commands.push_back(command);
  }
  state.lane_view = lane_view;
  state.view.error_exaggeration = exaggeration;
  state.view.rest_ghosts = rest_lengths;
  state.view.length_labels = length_labels;
  state.view.panels = panels;
  state.measure.shown = measure;
  sandbox->frame_scene();
  sandbox->advance_steps(0);  // applies the solver choice
  // A step that threw: out of memory is exit code 4 (main reports it), anything else the bad input it came from.
  const auto check_step = [&]() -> int {
    if (sandbox->out_of_memory()) throw std::bad_alloc();
    return state.settings_error.empty() ? 0 : fail(cli::kExitBadInput, state.settings_error);
  };
  if (const int code = check_step()) return code;  // a setting that --solver made invalid
  if (state.lanes.size() + 1 != std::max<std::size_t>(lanes.size(), 1))  // a lane that did not start (its toast)
    return fail(cli::kExitBadInput, "--lanes: " + state.toast);
  try {
    cli::check_drags(drags, sandbox->world());
  } catch (const cli::UsageError& error) {
    return usage_error(error.what());
  }
  // Scripted drags go through the sandbox's own drag (its controller, stepped by the sandbox's step loop).
  state.drag_model = drags.model;
  DragScript script(drags.drags, state.drag_settings());
  for (Lane& lane : state.lanes) lane.script.emplace(drags.drags, state.drag_settings());  // the same drags, each lane
  // Step by step, so that a simulation that fails (as `run` defines it: a step rolled back after NaN/inf, or
  // max |C|/L above 1) ends at once with exit code 3 and writes no picture of a blown-up scene.
  for (long i = 1; i <= steps; ++i) {
    script.before_step(state.world, state.drag.controller);
    sandbox->advance_steps(1);
    if (const int code = check_step()) return code;
    const StepStats& stats = sandbox->world().stats();
    if (stats.non_finite || !(stats.max_relative_violation <= cli::kFailedViolation)) {
      std::fprintf(stderr, "lagrange-lab shot: the simulation failed: at step %ld %s; no PNG written\n", i,
                   stats.non_finite ? "the state became NaN or infinite and was rolled back"
                                    : "max |C|/L went above 1");
      return cli::kExitSimulationFailed;
    }
  }
  for (const Lane& lane : state.lanes)  // a lane that blew up stopped where it was; the picture shows it stopped
    if (!lane.stopped.empty()) std::fprintf(report, "lane %s: %s\n", lane.spec.label().c_str(), lane.stopped.c_str());
  // Auto-sized ImGui windows take a frame to measure themselves.
  for (int i = 0; i < 3; ++i) sandbox->frame(0.0);
  if (frames > 0) {
    state.max_steps_per_frame = 1;
    for (long i = 0; i < frames; ++i) {
      sandbox->frame(sandbox->world().settings().dt);
      sandbox->render(!bare);
      if (const int code = check_step()) return code;
    }
    std::fprintf(report, "median frame time over the last %zu of %ld frames: %.2f ms (%dx%d, %s)\n",
                 state.timing.recent.size(), frames, state.timing.median_ms, options.width, options.height,
                 state.renderer_name.c_str());
    steps += frames;
  }
  sandbox->render(!bare);
  std::string png;
  if (!encode_png(sandbox->read_pixels(), png)) throw std::bad_alloc();
  // Through an io::OutputFile (OutputError: exit code 1, the previous file kept). Renamed only once the summary
  // line has arrived, so a run that exits 1 because standard output failed leaves the previous file as it was.
  // No folder is created: an --out in a folder that does not exist fails, as `run --csv` does.
  io::OutputFile file(out);
  file.write(png);
  file.finish();
  std::fprintf(report, "%s: %s after %ld steps (t = %.3f s), %s\n",
               printable(out, kEchoPathLength).c_str(), printable(sandbox->state().scene.name).c_str(), steps,
               sandbox->world().time(), sandbox->world().solver_info().name);
  if (report == stdout) io::check_standard_output();
  file.commit();
  return 0;
}

}  // namespace lagrange::app
