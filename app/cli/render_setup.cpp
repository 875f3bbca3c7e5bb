#include "cli/render_setup.h"

#include <cmath>
#include <cstdlib>
#include <new>
#include <span>

#include "capture/output_file.h"
#include "cli/commands.h"
#include "lagrange/text.h"
#include "options/cli_options.h"
#include "options/lanes_option.h"

namespace lagrange::app {

const char* const kRenderUsage =
    "  --solver ID     solver to step with (%s)\n"
    "  --size WxH      picture size in pixels (default 1280x720)\n"
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
    "  --theme T       dark (default) or light; the window's remembered choice is never read\n"
    "  --allow-large   lift the limits on scene size (file size, particles, rows; docs/cli.md)\n";

HeadlessRender::HeadlessRender(const char* command, std::string usage)
    : command_(command), usage_(std::move(usage)) {
  options.window.hidden = true;
  options.window.vsync = false;
}

HeadlessRender::~HeadlessRender() = default;

int HeadlessRender::usage_error(const std::string& message) const {
  if (before_message) before_message();
  return lagrange::app::usage_error(("lagrange-lab " + command_).c_str(), usage_.c_str(), message);
}

int HeadlessRender::fail(int code, const std::string& message) const {
  if (before_message) before_message();
  std::fprintf(stderr, "lagrange-lab %s: %s\n", command_.c_str(), bounded_message(printable(message, 4096)).c_str());
  return code;
}

std::optional<int> HeadlessRender::parse(int argc, char** argv, const std::function<bool(cli::Args&)>& own) {
  try {
    cli::Args args(argc, argv);
    while (!args.empty()) {
      if (args.flag("-h") || args.flag("--help")) {
        std::printf(usage(), solver_ids().c_str());
        return 0;
      }
      if (!own(args) && !read_option(args)) args.finish();  // throws: an unknown option
    }
  } catch (const cli::UsageError& error) {
    return usage_error(error.what());
  }
  return std::nullopt;
}

bool HeadlessRender::read_option(cli::Args& args) {
  RenderOptions& o = options;
  if (auto v = args.option("--solver")) {
    o.solver = *v;
    if (!find_solver(o.solver))
      throw cli::UsageError("unknown solver " + lagrange::quoted(o.solver) + "; known: " + solver_ids());
  } else if (auto v = args.option("--size")) {
    if (!parse_size(*v, o.window.width, o.window.height))
      throw cli::UsageError("--size needs WIDTHxHEIGHT (16..8192), got " + lagrange::quoted(*v));
  } else if (auto v = args.option("--out")) {
    o.out = *v;
    if (o.out.empty()) throw cli::UsageError("--out needs a file name");
  } else if (auto v = args.option("--ui-scale")) {
    const auto scale = parse_ui_scale(*v);
    if (!scale) throw cli::UsageError(ui_scale_error(*v));
    o.window.appearance.scale = *scale;
  } else if (auto v = args.option("--theme")) {
    const auto theme = parse_theme(*v);
    if (!theme) throw cli::UsageError(theme_error(*v));
    o.window.appearance.theme = *theme;
  } else if (args.flag("--panels")) {
    o.panels = true;
  } else if (args.flag("--measure")) {
    o.measure = o.panels = true;
  } else if (args.flag("--bare")) {
    o.bare = true;
  } else if (auto v = args.option("--lanes")) {
    o.lanes_text = *v;
  } else if (auto v = args.option("--lane-view")) {
    o.lane_view = parse_lane_view(*v);
  } else if (auto v = args.option("--exaggerate")) {
    o.exaggeration = static_cast<int>(cli::parse_count("--exaggerate", *v, 1, 1000));
    if (o.exaggeration != 1 && o.exaggeration != 10 && o.exaggeration != 100 && o.exaggeration != 1000)
      throw cli::UsageError("--exaggerate needs 1, 10, 100 or 1000, got " + lagrange::quoted(*v));
  } else if (args.flag("--rest-lengths")) {
    o.rest_lengths = true;
  } else if (args.flag("--length-labels")) {
    o.length_labels = true;
  } else if (cli::scene_option(args, o.limits)) {
  } else if (cli::read_drag_option(args, o.drags)) {
  } else if (auto p = args.positional()) {
    if (!o.scene.empty())
      throw cli::UsageError("one scene at a time (got " + lagrange::quoted(o.scene) + " and " + lagrange::quoted(*p) +
                            ")");
    o.scene = *p;
  } else {
    return false;
  }
  return true;
}

int HeadlessRender::load(const std::string& extension) {
  RenderOptions& o = options;
  if (o.scene.empty())
    return usage_error("which scene? e.g. lagrange-lab " + command_ + " assets/double_pendulum.json");
  if (o.lanes_text) {
    if (!o.solver.empty()) return usage_error("--solver and --lanes exclude each other: the lanes name their solvers");
    try {
      o.lanes = parse_lanes_option(*o.lanes_text);
    } catch (const cli::UsageError& error) {
      return usage_error(error.what());
    }
    o.solver = o.lanes[0].solver;  // lane 1 is the sandbox's world; its settings in open()
  }
  if (o.out.empty()) o.out = std::filesystem::path(o.scene).stem().string() + extension;
  try {
    io::refuse_same_file(o.scene, o.out);
  } catch (const io::SameFileError& error) {
    return fail(cli::kExitBadInput, error.what());
  }
  if (extension == ".png")  // as converge --plot: a PNG goes to a .png name (or standard output, or a device)
    if (std::string problem = io::png_name_problem("--out", o.out, true); !problem.empty())
      return fail(cli::kExitBadInput, problem);
  // Bad input, as for `run`: exit code 2; out of memory (std::bad_alloc) goes on to main: exit code 4.
  try {
    scene_ = load_scene_file(o.scene, o.limits);
  } catch (const SceneError& error) {
    return fail(cli::kExitBadInput, error.what());
  }
  return 0;
}

int HeadlessRender::open() {
  const RenderOptions& o = options;
  sandbox_.reset();  // one window at a time
  // No display needed: SDL's offscreen driver gives a GL context through EGL. Respect an explicit choice.
  setenv("SDL_VIDEODRIVER", "offscreen", 0);
  try {
    sandbox_ = std::make_unique<Sandbox>(o.window);
  } catch (const std::exception& first) {
    return fail(1, first.what());
  }
  try {
    sandbox_->open_scene(scene_, o.scene);
  } catch (const SceneError& error) {
    return fail(cli::kExitBadInput, error.what());
  } catch (const Error& error) {
    return fail(cli::kExitBadInput, error.what());
  }
  SandboxState& state = sandbox_->state();
  if (!o.solver.empty()) {
    Settings settings = sandbox_->world().settings();
    settings.solver = o.solver;
    if (!o.lanes.empty()) {
      try {
        settings = lane_settings(settings, o.lanes[0]);
      } catch (const Error& error) {
        return fail(cli::kExitBadInput, std::string("--lanes: lane 1: ") + error.what());
      }
    }
    state.commands.push_back(Command::apply_settings(settings));
  }
  for (std::size_t k = 1; k < o.lanes.size(); ++k) {
    Command command;
    command.kind = Command::Kind::AddLane;
    command.path = lagrange::lanes_text(std::span<const LaneSpec>(&o.lanes[k], 1));
    state.commands.push_back(command);
  }
  state.lane_view = o.lane_view;
  state.view.error_exaggeration = o.exaggeration;
  state.view.rest_ghosts = o.rest_lengths;
  state.view.length_labels = o.length_labels;
  state.view.panels = o.panels;
  state.measure.shown = o.measure;
  sandbox_->frame_scene();
  sandbox_->advance_steps(0);  // applies the solver choice
  if (const int code = check_step()) return code;  // a setting that --solver made invalid
  if (state.lane_count() != std::max<std::size_t>(o.lanes.size(), 1))  // a lane that did not start (its toast)
    return fail(cli::kExitBadInput, "--lanes: " + state.toast);
  try {
    cli::check_drags(o.drags, sandbox_->world());
  } catch (const cli::UsageError& error) {
    return usage_error(error.what());
  }
  // Scripted drags go through every lane's own drag, played by the simulation's step (simulation.h).
  state.drag_model = o.drags.model;
  if (std::string problem = state.sim.set_script(o.drags.drags, state.drag_settings()); !problem.empty())
    return usage_error(problem);
  return 0;
}

int HeadlessRender::check_step() const {
  if (sandbox_->out_of_memory()) throw std::bad_alloc();
  const SandboxState& state = sandbox_->state();
  return state.settings_error.empty() ? 0 : fail(cli::kExitBadInput, state.settings_error);
}

int HeadlessRender::step(long i, const char* output) {
  // Step by step, so that a simulation that fails (as `run` defines it: a step rolled back after NaN/inf, or
  // max |C|/L above 1; or as the window does: lane 1 beyond what its solver keeps to, rolled back to its last sound
  // state) ends at once with exit code 3 and writes nothing of a blown-up scene.
  sandbox_->advance_steps(1);
  if (const int code = check_step()) return code;
  if (const std::string& why = sandbox_->rolled_back(); !why.empty()) {  // the window would have gone back and paused
    if (before_message) before_message();
    std::fprintf(stderr, "lagrange-lab %s: the simulation failed: at step %ld %s; no %s written\n", command_.c_str(), i,
                 why.c_str(), output);
    return cli::kExitSimulationFailed;
  }
  const StepStats& stats = sandbox_->world().stats();
  if (stats.non_finite || !(stats.max_relative_violation <= cli::kFailedViolation)) {
    if (before_message) before_message();
    std::fprintf(stderr, "lagrange-lab %s: the simulation failed: at step %ld %s; no %s written\n", command_.c_str(), i,
                 stats.non_finite ? "the state became NaN or infinite and was rolled back" : "max |C|/L went above 1",
                 output);
    return cli::kExitSimulationFailed;
  }
  return 0;
}

void HeadlessRender::settle() {
  for (int i = 0; i < 3; ++i) sandbox_->frame(0.0);
}

void HeadlessRender::report_lanes(std::FILE* report) const {
  for (const SimLane& lane : sandbox_->state().sim.lanes())
    if (!lane.running()) std::fprintf(report, "lane %s: %s\n", lane.spec.label().c_str(), lane.stopped.c_str());
}

}  // namespace lagrange::app
