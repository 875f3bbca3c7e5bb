// `lagrange-lab record SCENE --duration S [--fps N] [--out FILE.mp4|FILE.gif] [shot's options]`: a video of the scene
// at simulated time, with no display: exactly round(duration × fps) frames, frame k showing the picture `shot` takes
// at t = k / fps, whatever the machine's speed, so a recording is the same every time.
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <new>
#include <string>

#include "capture/output_file.h"
#include "capture/video_writer.h"
#include "cli/commands.h"
#include "cli/render_setup.h"
#include "lagrange/lanes.h"
#include "lagrange/text.h"
#include "options/args.h"

namespace lagrange::app {
namespace {

constexpr const char* kUsage =
    "usage: lagrange-lab record SCENE.json --duration S [options]\n"
    "  Records SCENE.json from t = 0, without a display, into an MP4 (H.264) or a GIF. Frames are taken at simulated\n"
    "  time: exactly round(S x fps) frames, frame k showing the scene at t = k / fps (the step nearest to it), however\n"
    "  fast the machine is; the same command gives the same file.\n"
    "options:\n"
    "  --duration S    seconds of video (and of simulated time), > 0 and at most 600\n"
    "  --fps N         frames per second, 1..120 (default 30)\n"
    "  --out FILE      FILE.mp4 (H.264) or FILE.gif (a palette made from every frame); default: SCENE name .mp4\n"
    "                  in the current folder; - for standard output (with --format)\n"
    "  --format F      mp4 or gif, whatever --out's name (needed for --out - or a name without .mp4 / .gif)\n";

constexpr double kMaxDuration = 600.0;  // ten minutes of video: 18 000 frames at 30 fps

// The progress of a recording, on stderr: one line redrawn in place on a terminal, else a line at each quarter.
class Progress {
 public:
  Progress(long frames, int passes, bool shown)
      : frames_(frames), passes_(passes), shown_(shown), terminal_(::isatty(STDERR_FILENO) == 1),
        start_(std::chrono::steady_clock::now()) {}

  // Frame k (from 0) of pass p (from 0) is done.
  void update(int pass, long k) {
    if (!shown_) return;
    const long done = pass * frames_ + k + 1, total = passes_ * frames_;
    const int percent = static_cast<int>(100 * done / total);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    char what[48] = "";
    if (passes_ > 1)
      std::snprintf(what, sizeof what, "%spass %d/%d%s", terminal_ ? "  " : ", ", pass + 1, passes_,
                    pass == 0 ? " (palette)" : "");
    if (terminal_) {
      const auto now = std::chrono::steady_clock::now();
      if (done != total && now - last_ < std::chrono::milliseconds(100)) return;  // ~10 redraws a second
      last_ = now;
      constexpr int kWidth = 30;
      const int filled = static_cast<int>(kWidth * done / total);
      drawn_ = true;
      std::fprintf(stderr, "\rrecording [%s%s] %3d%%  frame %ld/%ld%s  %.1f s\x1b[K",
                   std::string(static_cast<std::size_t>(filled), '#').c_str(),
                   std::string(static_cast<std::size_t>(kWidth - filled), '.').c_str(), percent, k + 1, frames_, what,
                   seconds);
    } else if (percent >= next_percent_) {
      while (next_percent_ <= percent) next_percent_ += 25;
      std::fprintf(stderr, "recording: %d%% (frame %ld/%ld%s, %.1f s)\n", percent, k + 1, frames_, what, seconds);
    }
    std::fflush(stderr);
  }
  ~Progress() { end(); }
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;
  // Clears the redrawn line, so a message or the summary starts on a clean one (the next update draws it again).
  void end() {
    if (drawn_) std::fputs("\r\x1b[K", stderr);
    drawn_ = false;
  }

 private:
  long frames_;
  int passes_;
  bool shown_, terminal_;
  bool drawn_ = false;  // the line is on the terminal now
  int next_percent_ = 25;
  std::chrono::steady_clock::time_point start_, last_{};
};

}  // namespace

namespace {

// What `record` reads beside the shared options.
struct RecordOptions {
  double duration = -1.0;
  long fps = 30;
  std::optional<video::Format> format;
};

// The video's format: --format, else the extension of --out (MP4 without --out). 0, or the exit code.
int choose_format(HeadlessRender& render, RecordOptions& o) {
  const RenderOptions& options = render.options;
  if (o.format) return 0;
  if (options.out.empty()) {
    o.format = video::Format::Mp4;
    return 0;
  }
  if ((o.format = video::format_for_path(options.out))) return 0;
  const std::string name = std::filesystem::path(options.out).filename().string();
  const auto dot = name.rfind('.');
  if (options.out == "-" || dot == std::string::npos || dot == 0)
    return render.usage_error("--out " + lagrange::quoted(options.out) +
                              " has no .mp4 or .gif extension: add one, or say --format mp4|gif");
  return render.usage_error("--out: unknown extension " + lagrange::quoted(name.substr(dot)) +
                            ": .mp4 (H.264) or .gif, or say --format mp4|gif");
}

// The last frame's time in steps of the scene's dt, bounded as `run` and `shot` are (a GIF steps it all twice).
// 0, or the exit code.
int check_step_budget(HeadlessRender& render, const RecordOptions& o, long frames, int passes) {
  const Settings& settings = render.scene().settings;
  const double last_time = static_cast<double>(frames - 1) / static_cast<double>(o.fps);
  const double steps = std::round(last_time / settings.dt);
  if (!(steps <= static_cast<double>(cli::kMaxSteps)))
    return render.fail(cli::kExitBadInput, "--duration " + cli::format_number(o.duration) + " is " +
                                               cli::format_number(steps) + " steps of this scene; at most " +
                                               std::to_string(cli::kMaxSteps));
  try {
    cli::check_substeps(static_cast<long>(steps) * passes, settings.substeps);
  } catch (const cli::UsageError& error) {
    return render.fail(cli::kExitBadInput, error.what());
  }
  return 0;
}

// One pass over the frames: the scene from t = 0, a frame at each k / fps. 0, or the exit code.
int record_pass(HeadlessRender& render, video::VideoWriter& writer, Progress& progress, const video::VideoSpec& spec,
                long frames, int pass) {
  // The same scene from t = 0 again for a second pass: the same steps, the same frames.
  if (const int code = render.open()) return code;
  Sandbox& sandbox = render.sandbox();
  SandboxState& state = render.state();
  render.settle();
  long step = 0;
  for (long k = 0; k < frames; ++k) {
    // Frame k: the state after the step nearest to k / fps (the lockstep rule, lanes.h: a world steps while a
    // step brings it nearer to that time).
    const double t = static_cast<double>(k) / static_cast<double>(spec.fps);
    while (behind(sandbox.world(), t))
      if (const int code = render.step(++step, "video")) return code;
    // This moment's rod colour scale, as `shot` draws it (not the window's easing over wall time): the first
    // frame measures it, the second draws the legend with it.
    state.force_scale = 1e-9;
    sandbox.frame(0.0);
    sandbox.frame(0.0);
    if (const int code = render.check_step()) return code;
    sandbox.render(!render.options.bare);
    const Image image = sandbox.read_pixels();
    if (image.width != spec.width || image.height != spec.height)
      return render.fail(1, "the offscreen window is " + std::to_string(image.width) + "x" +
                                std::to_string(image.height) + ", not the size asked");
    writer.add_frame(image.rgba.data());
    progress.update(pass, k);
  }
  return 0;
}

// Every pass, the video made in memory into `bytes`. 0, or the exit code.
int record_video(HeadlessRender& render, const video::VideoSpec& spec, long frames, int passes, double duration,
                 const std::string& shown, std::string& bytes) {
  try {
    video::VideoWriter writer(spec, shown);
    Progress progress(frames, passes, duration > 1.0);
    render.before_message = [&progress] { progress.end(); };
    // The hook refers to `progress`: it goes with it, however this block is left.
    struct Unhook {
      HeadlessRender& render;
      ~Unhook() { render.before_message = nullptr; }
    } unhook{render};
    for (int pass = 0; pass < passes; ++pass) {
      if (pass > 0) writer.next_pass();
      if (const int code = record_pass(render, writer, progress, spec, frames, pass)) return code;
    }
    bytes = writer.finish();
  } catch (const video::VideoError& error) {
    return render.fail(cli::kExitOutputFailed, error.what());
  }
  return 0;
}

}  // namespace

int record_main(int argc, char** argv) {
  HeadlessRender render("record", std::string(kUsage) + kRenderUsage + cli::kDragUsage);
  RecordOptions o;
  const auto own = [&](cli::Args& args) {
    if (auto v = args.option("--duration")) {
      o.duration = cli::parse_number("--duration", *v);
      if (!(o.duration > 0.0 && o.duration <= kMaxDuration))
        throw cli::UsageError("--duration needs seconds of video, more than 0 and at most 600, got " +
                              lagrange::quoted(*v));
    } else if (auto v = args.option("--fps")) {
      o.fps = cli::parse_count("--fps", *v, 1, 120);
    } else if (auto v = args.option("--format")) {
      o.format = video::parse_format(*v);
      if (!o.format) throw cli::UsageError("--format needs mp4 or gif, got " + lagrange::quoted(*v));
    } else {
      return false;
    }
    return true;
  };
  if (const auto code = render.parse(argc, argv, own)) return *code;
  RenderOptions& options = render.options;
  if (options.scene.empty())
    return render.usage_error("which scene? e.g. lagrange-lab record assets/double_pendulum.json --duration 10");
  if (o.duration < 0) return render.usage_error("how long? --duration SECONDS (e.g. --duration 10)");
  if (const int code = choose_format(render, o)) return code;
  const long frames = std::lround(o.duration * static_cast<double>(o.fps));
  if (frames < 1)
    return render.usage_error("--duration " + cli::format_number(o.duration) + " at " + std::to_string(o.fps) +
                              " fps is no frame at all; at least 1 / fps seconds");
  video::VideoSpec spec;
  spec.format = *o.format;
  spec.width = options.window.width;
  spec.height = options.window.height;
  spec.fps = static_cast<int>(o.fps);
  if (const std::string problem = video::check_spec(spec); !problem.empty())
    return render.usage_error("--size: " + problem);
  if (const int code = render.load(*o.format == video::Format::Mp4 ? ".mp4" : ".gif")) return code;
  if (*o.format == video::Format::Gif && o.fps > 50)
    std::fprintf(stderr, "lagrange-lab record: note: a GIF's delays are whole centiseconds and browsers show those "
                         "under 2 cs as 10 cs: at %ld fps it plays slower than real time (50 fps or less plays true)\n",
                 o.fps);
  const int passes = *o.format == video::Format::Gif ? 2 : 1;
  if (const int code = check_step_budget(render, o, frames, passes)) return code;

  // `--out -` (or /dev/stdout): the video is standard output, so the summary goes to stderr.
  const std::string& out = options.out;
  std::FILE* const report = io::is_standard_output(out) ? stderr : stdout;
  // The output is opened before the long part, so a path that cannot be written fails at once; nothing reaches it
  // until the whole recording has succeeded (the video is made in memory), and a failure removes the temporary file.
  io::OutputFile file(out);
  const std::string shown = printable(out, kEchoPathLength);
  std::string bytes;
  if (const int code = record_video(render, spec, frames, passes, o.duration, shown, bytes)) return code;
  render.report_lanes(report);
  // Renamed into place only once the summary has arrived (as `shot`): a run that exits 1 leaves the previous file.
  file.write(bytes);
  file.finish();
  std::fprintf(report, "%s: %s, %ld frames at %ld fps (%s s: t = 0 to %.3f s simulated), %dx%d, %s, %zu bytes, %s\n",
               shown.c_str(), printable(render.state().scene.name).c_str(), frames, o.fps,
               cli::format_number(static_cast<double>(frames) / static_cast<double>(o.fps)).c_str(),
               render.sandbox().world().time(), spec.width,
               spec.height, video::codec_name(spec.format), bytes.size(), render.sandbox().world().solver_info().name);
  if (report == stdout) io::check_standard_output();
  file.commit();
  return 0;
}

}  // namespace lagrange::app
