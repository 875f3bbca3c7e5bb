// `lagrange-lab record` (issue 11): videos at simulated time, read back with ffprobe and ffmpeg (tests/video_util.h),
// never with the code that wrote them; frames compared with `shot`'s pictures at the same simulated time; the output
// safety every writer keeps (docs/cli.md).
#include <doctest/doctest.h>

#include <sys/stat.h>

#include <cstdio>
#include <string>

#include "cli_util.h"
#include "video_util.h"

using namespace lagrange::test;

#ifdef LAGRANGE_HAVE_SANDBOX
namespace {

// A 1e-9 kg bob on the stiffest penalty spring, 1e9 m out: its first step overflows (test_failures.cpp).
const char* kOverflowScene = R"({"substeps": 64, "solver": "penalty", "settings": {"stiffness": 1e12},
  "particles": [{"position": [0, 0], "fixed": true}, {"position": [1e9, 0], "mass": 1e-9}],
  "constraints": [{"type": "distance", "particles": [0, 1], "length": 1}]})";

// `shot` of the same scene and size at simulated time `t`, decoded by ffmpeg.
video::Rgb shot_at(const fs::path& dir, const std::string& scene, const std::string& t, const std::string& extra = "") {
  const fs::path png = dir / ("shot-" + t + ".png");
  const CliResult r = cli("shot " + scene + " --time " + t + " --size 320x240 " + extra + " --out " + quote(png));
  REQUIRE(r.code == 0);
  return video::decode(png, 0, 320, 240);
}

}  // namespace

TEST_CASE("record MP4: H.264 yuv420p at the size asked, exactly duration x fps frames, each shot's picture at k/fps") {
  const fs::path dir = fresh_dir("record-mp4");
  const std::string scene = asset("double_pendulum.json");
  // 1.5 s at 20 fps: 30 frames, the last at t = 29/20 = 1.45 s.
  const CliResult r = cli("record " + scene + " --duration 1.5 --fps 20 --size 320x240 --out " + quote(dir / "a.mp4"));
  INFO(r.out);
  REQUIRE(r.code == 0);
  const video::Probe p = video::probe(dir / "a.mp4");
  video::check_video(p, "h264", 320, 240, 30);
  CHECK(p.fields.at("avg_frame_rate") == "20/1");
  CHECK(p.duration == doctest::Approx(1.5).epsilon(0.01));
  // The first and last frames are shot's pictures at t = 0 and t = 1.45 s, within H.264's loss (4:2:0 colour on thin
  // lines and small text: a mean of about 2.5 levels at this size). The frames are taken at simulated time, not near
  // it: of frames 28 and 29, shot's picture at 1.40 s is nearest frame 28 and the one at 1.45 s nearest frame 29.
  const video::Rgb first = video::decode(dir / "a.mp4", 0, 320, 240);
  const video::Rgb before = video::decode(dir / "a.mp4", 28, 320, 240), last = video::decode(dir / "a.mp4", 29, 320, 240);
  const video::Rgb shot_end = shot_at(dir, scene, "1.45"), shot_before = shot_at(dir, scene, "1.4");
  CHECK(video::mean_difference(first, shot_at(dir, scene, "0")) < 4.0);
  CHECK(video::mean_difference(last, shot_end) < 4.0);
  CHECK(video::mean_difference(last, shot_end) < video::mean_difference(before, shot_end) - 0.5);
  CHECK(video::mean_difference(before, shot_before) < video::mean_difference(last, shot_before) - 0.5);
  // The summary line names what was written.
  CHECK(r.out.find("a.mp4: Double pendulum, 30 frames at 20 fps") != std::string::npos);
  CHECK(r.out.find("320x240, h264") != std::string::npos);
  // The same command, the same bytes (x264 with a fixed thread count is deterministic).
  REQUIRE(cli("record " + scene + " --duration 1.5 --fps 20 --size 320x240 --out " + quote(dir / "b.mp4")).code == 0);
  CHECK(read_all(dir / "a.mp4") == read_all(dir / "b.mp4"));
}

TEST_CASE("record GIF: a palette made from the frames, exactly duration x fps frames, and the same bytes every time") {
  const fs::path dir = fresh_dir("record-gif");
  const std::string scene = asset("double_pendulum.json");
  const std::string args = "record " + scene + " --duration 1 --fps 12 --size 320x240 --lanes projection,acceleration";
  const CliResult r = cli(args + " --out " + quote(dir / "a.GIF"));  // the extension in any case
  INFO(r.out);
  REQUIRE(r.code == 0);
  const video::Probe p = video::probe(dir / "a.GIF");
  video::check_video(p, "gif", 320, 240, 12);
  // 12 frames at 12 fps: delays of round(100 k / 12) cs, 8 or 9 cs; 1 s in all within a centisecond.
  CHECK(p.duration == doctest::Approx(1.0).epsilon(0.02));
  // Frame 11 (t = 11/12 s): many colours (antialiased lines and text through a real palette), close to shot's.
  const video::Rgb last = video::decode(dir / "a.GIF", 11, 320, 240);
  CHECK(video::distinct_colours(last) > 32);
  const double close = video::mean_difference(last, shot_at(dir, scene, "0.9166666667", "--lanes projection,acceleration"));
  CHECK(close < 2.0);
  // Deterministic: the same command, the same bytes.
  REQUIRE(cli(args + " --out " + quote(dir / "b.gif")).code == 0);
  CHECK(read_all(dir / "a.GIF") == read_all(dir / "b.gif"));
  // --format for a name with no extension; standard output with the summary on stderr.
  const CliResult piped = cli(args + " --format gif --out - > " + quote(dir / "c") + " 2> " + quote(dir / "c.err"), "");
  CHECK(piped.code == 0);
  CHECK(read_all(dir / "c") == read_all(dir / "b.gif"));
  CHECK(read_all(dir / "c.err").find("-: Double pendulum, 12 frames at 12 fps") != std::string::npos);
}

TEST_CASE("record keeps every writer's output safety and refuses bad values with exit code 2") {
  const fs::path dir = fresh_dir("record-safety");
  const fs::path scene = dir / "s.json";
  fs::copy_file(asset("simple_pendulum.json"), scene);
  const std::string original = read_all(scene);
  const std::string record = "record " + quote(scene) + " --duration 0.5 --fps 10 --size 64x48";
  // The scene as the output: exit 2, the scene untouched.
  CHECK(cli(record + " --format mp4 --out " + quote(scene)).code == 2);
  CHECK(read_all(scene) == original);
  // A full device: exit 1 with the system's reason.
  const fs::path full = private_device(dir, "full", 7);
  const CliResult disk = cli(record + " --format mp4 --out " + quote(full));
  CHECK(disk.code == 1);
  CHECK(disk.out.find("No space left on device") != std::string::npos);
  // A planted link: refused, neither the link nor its target changed.
  write_all(dir / "target.mp4", "previous\n");
  fs::create_symlink(dir / "target.mp4", dir / "link.mp4");
  const CliResult link = cli(record + " --out " + quote(dir / "link.mp4"));
  CHECK(link.code == 1);
  CHECK(link.out.find("symbolic link") != std::string::npos);
  CHECK(fs::is_symlink(dir / "link.mp4"));
  CHECK(read_all(dir / "target.mp4") == "previous\n");
  // A FIFO is written straight (the reader gets the whole video) and stays a FIFO.
  REQUIRE(::mkfifo((dir / "pipe").c_str(), 0600) == 0);
  int fifo_code = -1;
  capture_output("cat " + quote(dir / "pipe") + " > " + quote(dir / "from-pipe.mp4") + " & sleep 0.3; timeout 60 " +
                     std::string(LAGRANGE_EXE) + " " + record + " --format mp4 --out " + quote(dir / "pipe") +
                     " >/dev/null 2>&1; code=$?; wait; exit $code",
                 &fifo_code);
  CHECK(fifo_code == 0);
  CHECK(fs::is_fifo(dir / "pipe"));
  video::check_video(video::probe(dir / "from-pipe.mp4"), "h264", 64, 48, 5);
  // A simulation that fails: exit 3, the previous file kept, no temporary file left.
  write_all(dir / "overflow.json", kOverflowScene);
  write_all(dir / "o.gif", "previous gif\n");
  const CliResult failed = cli("record " + quote(dir / "overflow.json") + " --duration 1 --size 64x48 --out " +
                               quote(dir / "o.gif"));
  CHECK(failed.code == 3);
  CHECK(failed.out.find("the simulation failed") != std::string::npos);
  CHECK(failed.out.find("no video written") != std::string::npos);
  CHECK(read_all(dir / "o.gif") == "previous gif\n");
  // A bad scene: exit 2, nothing written.
  write_all(dir / "bad.json", "{\"particles\": [}");
  CHECK(cli("record " + quote(dir / "bad.json") + " --duration 1 --out " + quote(dir / "bad.mp4")).code == 2);
  CHECK(!fs::exists(dir / "bad.mp4"));
  // Bad values: exit 2, naming what is wrong.
  const std::vector<std::pair<std::string, std::string>> mistakes{
      {record + " --out " + quote(dir / "x.webm"), "unknown extension '.webm'"},
      {record + " --out " + quote(dir / "noext"), "has no .mp4 or .gif extension"},
      {record + " --out -", "has no .mp4 or .gif extension"},
      {record + " --format avi --out " + quote(dir / "x.mp4"), "--format needs mp4 or gif"},
      {"record " + quote(scene) + " --fps 0 --duration 1", "--fps"},
      {"record " + quote(scene) + " --fps 121 --duration 1", "--fps"},
      {"record " + quote(scene) + " --fps 2.5 --duration 1", "--fps"},
      {"record " + quote(scene) + " --duration 0", "--duration needs seconds"},
      {"record " + quote(scene) + " --duration -1", "--duration needs seconds"},
      {"record " + quote(scene) + " --duration 601", "--duration needs seconds"},
      {"record " + quote(scene) + " --duration nan", "--duration"},
      {"record " + quote(scene) + " --duration 0.01 --fps 10", "no frame at all"},
      {"record " + quote(scene), "--duration SECONDS"},
      {"record --duration 1", "which scene?"},
      {"record " + quote(scene) + " --duration 1 --size 321x240 --out " + quote(dir / "odd.mp4"), "even width"},
      {"record " + quote(scene) + " --duration 1 --bogus", "--bogus"},
  };
  for (const auto& [args, message] : mistakes) {
    CAPTURE(args);
    const CliResult r = cli(args);
    CHECK(r.code == 2);
    CHECK(r.out.find(message) != std::string::npos);
    CHECK(r.out.find("usage: lagrange-lab record") != std::string::npos);
  }
  // A GIF above 50 fps: every frame, and a note that browsers play it slower.
  const CliResult fast = cli("record " + quote(scene) + " --duration 0.25 --fps 120 --size 32x32 --out " +
                             quote(dir / "fast.gif"));
  CHECK(fast.code == 0);
  CHECK(fast.out.find("at 120 fps it plays slower than real time") != std::string::npos);
  video::check_video(video::probe(dir / "fast.gif"), "gif", 32, 32, 30);
  // An odd size is fine for a GIF.
  CHECK(cli("record " + quote(scene) + " --duration 0.2 --fps 10 --size 33x17 --out " + quote(dir / "odd.gif")).code ==
        0);
  CHECK(video::probe(dir / "odd.gif").width == 33);
  // Nothing else was left behind: no temporary files.
  for (const std::string& name : listing(dir)) CHECK(name.find(".tmp-") == std::string::npos);
}

TEST_CASE("record shows its progress for recordings longer than a second, as plain lines when stderr is no terminal") {
  const fs::path dir = fresh_dir("record-progress");
  const std::string record = "record " + asset("simple_pendulum.json") + " --size 64x48 --fps 10 --out ";
  const CliResult longer = cli(record + quote(dir / "a.mp4") + " --duration 2");
  CHECK(longer.code == 0);
  for (const char* line : {"recording: 25% (frame 5/20", "recording: 50% (frame 10/20", "recording: 75% (frame 15/20",
                           "recording: 100% (frame 20/20"})
    CHECK(longer.out.find(line) != std::string::npos);
  CHECK(longer.out.find('\r') == std::string::npos);
  const CliResult gif = cli(record + quote(dir / "a.gif") + " --duration 2");
  CHECK(gif.out.find("recording: 50% (frame 20/20, pass 1/2 (palette)") != std::string::npos);
  CHECK(gif.out.find("recording: 100% (frame 20/20, pass 2/2") != std::string::npos);
  const CliResult second = cli(record + quote(dir / "b.mp4") + " --duration 1");
  CHECK(second.code == 0);
  CHECK(second.out.find("recording:") == std::string::npos);
}
#endif
