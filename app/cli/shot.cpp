// `lagrange-lab shot SCENE [--solver ID] [--steps N | --time S] [--size WxH] [--out FILE.png] [--panels] [--measure]
// [--bare]`:
// renders a scene after N steps with no display (SDL's offscreen driver: EGL on Mesa) and writes a PNG.
#include <cmath>
#include <cstdio>
#include <new>
#include <string>

#include "capture/output_file.h"
#include "capture/screenshot.h"
#include "cli/commands.h"
#include "cli/render_setup.h"
#include "lagrange/text.h"
#include "options/args.h"

namespace lagrange::app {
namespace {

constexpr const char* kUsage =
    "usage: lagrange-lab shot SCENE.json [options]\n"
    "  Renders SCENE.json after some steps, without a display, into a PNG.\n"
    "options:\n"
    "  --steps N       steps before the picture (default 0)\n"
    "  --time S        simulated seconds before the picture (instead of --steps)\n"
    "  --out FILE.png  output file (default: SCENE name .png in the current folder)\n"
    "  --frames N      then run N interactive frames (UI, one step of physics, drawing; 1..1000) and print the\n"
    "                  median frame time: a measure of the sandbox's speed on this machine\n"
    "  --step-view     the next substep frozen and taken apart (the window's key I): the prediction q*, the\n"
    "                  solver's iterates, each particle's correction, max |C| per iterate on a log scale\n"
    "  --iterate K     with --step-view: show iterate K (1 = the first; default: the last)\n"
    "  --magnify N[,M] with --step-view: draw the motion q -> q* x N and the corrections from q* x M (default M = N:\n"
    "                  one magnification about q; without it both are chosen from the substep)\n";

// --frames: the median is taken over the last 120 frames, so a thousand is plenty; 10^6 frames of a large window
// took hours.
constexpr long kMaxFrames = 1000;

}  // namespace

int shot_main(int argc, char** argv) {
  HeadlessRender render("shot", std::string(kUsage) + kRenderUsage + cli::kDragUsage);
  long steps = 0;
  double seconds = -1.0;
  long frames = 0;
  bool have_steps = false;
  bool step_view = false;
  long iterate = 0;
  double magnify = 0.0, magnify_correction = 0.0;
  const auto own = [&](cli::Args& args) {
    if (auto v = args.option("--steps")) {
      steps = cli::parse_count("--steps", *v, 0, cli::kMaxSteps);
      have_steps = true;
    } else if (auto v = args.option("--time")) {
      seconds = cli::parse_number("--time", *v);
      if (seconds < 0 || seconds > 1e6)
        throw cli::UsageError("--time needs seconds in 0..1e6, got " + lagrange::quoted(*v));
    } else if (args.flag("--step-view")) {
      step_view = true;
    } else if (auto v = args.option("--iterate")) {
      iterate = cli::parse_count("--iterate", *v, 1, 1000000);
    } else if (auto v = args.option("--magnify")) {
      const std::size_t comma = v->find(',');
      magnify = cli::parse_number("--magnify", v->substr(0, comma));
      magnify_correction = comma == std::string::npos ? magnify : cli::parse_number("--magnify", v->substr(comma + 1));
      if (!(magnify >= 1.0 && magnify <= 1e12) || !(magnify_correction >= 1.0 && magnify_correction <= 1e12))
        throw cli::UsageError("--magnify needs factors in 1..1e12 (N or N,M), got " + lagrange::quoted(*v));
    } else if (auto v = args.option("--frames")) {
      frames = cli::parse_count("--frames", *v, 1, kMaxFrames);
    } else {
      return false;
    }
    return true;
  };
  if (const auto code = render.parse(argc, argv, own)) return *code;
  if (have_steps && seconds >= 0 && !render.options.scene.empty())
    return render.usage_error("--steps and --time exclude each other");
  if ((iterate > 0 || magnify > 0.0) && !step_view && !render.options.scene.empty())
    return render.usage_error("--iterate and --magnify need --step-view");
  if (step_view && frames > 0 && !render.options.scene.empty())
    return render.usage_error("--step-view and --frames exclude each other");
  if (const int code = render.load(".png")) return code;
  const RenderOptions& options = render.options;
  const std::string& out = options.out;
  const Settings& settings = render.scene().settings;
  if (seconds >= 0) {  // the scene's dt: --solver changes the method, not the step
    const double wanted = std::round(seconds / settings.dt);
    if (!(wanted <= static_cast<double>(cli::kMaxSteps)))
      return render.fail(cli::kExitBadInput, "--time " + cli::format_number(seconds) + " is " +
                                                 cli::format_number(wanted) + " steps of this scene; at most " +
                                                 std::to_string(cli::kMaxSteps));
    steps = static_cast<long>(wanted);
  }
  try {  // the same bound on the work as `run`: --frames step the physics once each
    cli::check_substeps(steps + frames, settings.substeps);
  } catch (const cli::UsageError& error) {
    return render.fail(cli::kExitBadInput, error.what());
  }

  // `--out -` (or /dev/stdout): the PNG is standard output, so what is printed goes to stderr, as for `run --csv -`.
  std::FILE* const report = io::is_standard_output(out) ? stderr : stdout;
  if (const int code = render.open()) return code;
  Sandbox& sandbox = render.sandbox();
  SandboxState& state = render.state();
  for (long i = 1; i <= steps; ++i)
    if (const int code = render.step(i, "PNG")) return code;
  render.report_lanes(report);
  if (step_view) {
    state.step_view.magnification = magnify;
    state.step_view.correction_magnification = magnify_correction;
    if (const std::string error = sandbox.toggle_step_view(); !error.empty())
      return render.fail(cli::kExitBadInput, "--step-view: " + error);
    const StepTrace& trace = state.step_view.trace;
    const long count = static_cast<long>(trace.iterates.size());
    if (iterate > count)
      return render.fail(cli::kExitBadInput, "--iterate " + std::to_string(iterate) + ": this substep has " +
                                                 std::to_string(count) + " iterate" + (count == 1 ? "" : "s"));
    if (iterate > 0) state.step_view.iterate = static_cast<int>(iterate - 1);
    std::fprintf(report, "step view: %s, h = %s s, %ld iterates (%d run), max |C| %s m first, %s m last, "
                         "motion x%s, corrections x%s\n",
                 trace.solver.c_str(), cli::format_number(trace.h).c_str(), count, trace.iterates_run,
                 cli::format_number(count ? trace.iterates.front().max_violation : 0.0).c_str(),
                 cli::format_number(count ? trace.iterates.back().max_violation : 0.0).c_str(),
                 cli::format_number(state.step_view.chosen).c_str(),
                 cli::format_number(state.step_view.correction_chosen).c_str());
  }
  render.settle();
  if (frames > 0) {
    state.max_steps_per_frame = 1;
    for (long i = 0; i < frames; ++i) {
      sandbox.frame(sandbox.world().settings().dt);
      sandbox.render(!options.bare);
      if (const int code = render.check_step()) return code;
    }
    std::fprintf(report, "median frame time over the last %zu of %ld frames: %.2f ms (%dx%d, %s)\n",
                 state.timing.recent.size(), frames, state.timing.median_ms, options.window.width,
                 options.window.height, state.renderer_name.c_str());
    steps += frames;
  }
  sandbox.render(!options.bare);
  std::string png;
  if (!encode_png(sandbox.read_pixels(), png)) throw std::bad_alloc();
  // Through an io::OutputFile (OutputError: exit code 1, the previous file kept). Renamed only once the summary
  // line has arrived, so a run that exits 1 because standard output failed leaves the previous file as it was.
  // No folder is created: an --out in a folder that does not exist fails, as `run --csv` does.
  io::OutputFile file(out);
  file.write(png);
  file.finish();
  std::fprintf(report, "%s: %s after %ld steps (t = %.3f s), %s\n", printable(out, kEchoPathLength).c_str(),
               printable(state.scene.name).c_str(), steps, sandbox.world().time(),
               sandbox.world().solver_info().name);
  if (report == stdout) io::check_standard_output();
  file.commit();
  return 0;
}

}  // namespace lagrange::app
