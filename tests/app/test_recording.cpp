// Recording the window (issue 11): F9 and the Record button, a frame per 1/30 s of simulated time that passed while
// running (none while paused, true speed in slow motion), at the window's size cut to even numbers; the MP4 read
// back by ffprobe and ffmpeg (tests/video_util.h), not by the code that wrote it.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include <array>
#include <vector>

#include "app_fixture.h"
#include "video_util.h"

using namespace lagrange;
using namespace lagrange::app;
using namespace lagrange::app::test;
namespace tv = lagrange::test::video;

namespace {

// The frames a recording at `fps` holds after `elapsed` simulated seconds with steps of `dt`: frame k is taken once
// the simulation is nearer k / fps than a step before it, k = 0 at the start.
long frames_due(double elapsed, double dt, int fps) {
  long k = 0;
  while (elapsed + 0.5 * dt > static_cast<double>(k) / fps) ++k;
  return k;
}

std::vector<std::filesystem::path> videos_in(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> files;
  if (!std::filesystem::exists(dir)) return files;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    if (entry.path().extension() == ".mp4") files.push_back(entry.path());
  return files;
}

// Strongly red pixels inside a rectangle (window units = pixels on the offscreen driver) of an RGB picture.
long red_pixels(const tv::Rgb& image, const std::array<float, 4>& rect) {
  long n = 0;
  for (int y = static_cast<int>(rect[1]); y < static_cast<int>(rect[3]) && y < image.height; ++y)
    for (int x = static_cast<int>(rect[0]); x < static_cast<int>(rect[2]) && x < image.width; ++x) {
      const std::uint8_t* p = &image.pixels[(static_cast<std::size_t>(y) * image.width + x) * 3];
      if (p[0] > 180 && p[1] < 80 && p[2] < 80) ++n;
    }
  return n;
}

}  // namespace

TEST_CASE("F9 records the window at simulated time into the screenshot folder: none while paused, true speed in slow motion") {
  const auto dir = temp_dir("recording-key");
  Sandbox sandbox(test_options(642, 361));  // an odd height: the video is 642x360
  REQUIRE(sandbox.load_scene(asset("double_pendulum.json")).empty());
  SandboxState& state = sandbox.state();
  state.screenshot_dir = dir / "pictures";  // made when the video is saved
  run_frames(sandbox, 2, 0.0);
  push_key(SDLK_F9);
  run_frames(sandbox, 1, 0.0);  // frame 0 of the video: the window as it is now
  REQUIRE(state.recording.active);
  const double t0 = sandbox.world().time(), dt = sandbox.world().settings().dt;
  // The indicator: in the window (from the next frame's UI on), at the scene's top right, with its red dot.
  run_frames(sandbox, 1, 0.0);
  REQUIRE(state.widget_rects.count("recording indicator") == 1);
  const auto indicator = state.widget_rects.at("recording indicator");
  {
    const Image window = sandbox.read_pixels();
    CHECK(red_pixels(tv::rgb_of(window.rgba, window.width, window.height), indicator) > 10);
  }
  run_frames(sandbox, 40, 1.0 / 60.0);  // 2/3 s of wall time, run at real speed
  const double running = sandbox.world().time() - t0;
  CHECK(running == doctest::Approx(40.0 / 60.0).epsilon(0.05));
  const long after_running = state.recording.frames;
  CHECK(after_running == frames_due(running, dt, 30));
  push_key(SDLK_SPACE);  // paused: the window still draws, the video waits
  run_frames(sandbox, 20, 1.0 / 60.0);
  CHECK(state.recording.frames == after_running);
  push_key(SDLK_SPACE);
  state.time_scale = 0.25;  // slow motion: a quarter of the simulated time per wall second, the video at true speed
  run_frames(sandbox, 40, 1.0 / 60.0);
  const double elapsed = sandbox.world().time() - t0;
  CHECK(elapsed - running == doctest::Approx(10.0 / 60.0).epsilon(0.1));
  const long expected = frames_due(elapsed, dt, 30);
  CHECK(state.recording.frames == expected);
  CHECK(state.recording.seconds == doctest::Approx(expected / 30.0));
  // Stop with the button: the MP4 is in the screenshot folder and the toast says where.
  click_widget(sandbox, "record button");
  CHECK(!state.recording.active);
  run_frames(sandbox, 1, 0.0);
  CHECK(state.widget_rects.count("recording indicator") == 0);
  const auto files = videos_in(dir / "pictures");
  REQUIRE(files.size() == 1);
  CHECK(files[0].filename().string().rfind("lagrange-double-pendulum-", 0) == 0);
  CHECK(state.toast.find("Saved the recording (" + std::to_string(expected) + " frames") != std::string::npos);
  CHECK(state.toast.find(files[0].string()) != std::string::npos);
  const tv::Probe p = tv::probe(files[0]);
  tv::check_video(p, "h264", 642, 360, expected);
  CHECK(p.fields.at("avg_frame_rate") == "30/1");
  // The video shows the window without the indicator.
  CHECK(red_pixels(tv::decode(files[0], 0, 642, 360), indicator) < 3);
}

TEST_CASE("the Record button starts a recording, and a window closed while recording keeps it") {
  const auto dir = temp_dir("recording-button");
  long frames = 0;
  {
    Sandbox sandbox(test_options());
    REQUIRE(sandbox.load_scene(asset("simple_pendulum.json")).empty());
    sandbox.state().screenshot_dir = dir;
    run_frames(sandbox, 2, 1.0 / 60.0);
    click_widget(sandbox, "record button");
    REQUIRE(sandbox.state().recording.active);
    run_frames(sandbox, 12, 1.0 / 30.0);
    frames = sandbox.state().recording.frames;
    CHECK(frames >= 12);
    CHECK(videos_in(dir).empty());  // nothing written before Stop
  }
  const auto files = videos_in(dir);
  REQUIRE(files.size() == 1);
  tv::check_video(tv::probe(files[0]), "h264", 640, 360, frames);
}

TEST_CASE("the window's recorder takes an encoder that needs each frame once: the desktop's GIF (FFmpeg's two passes) "
          "is refused with the reason, and an MP4 is cut to even sizes") {
  // The page records GIFs in one pass (giflib: tests/capture, tests/web/page_test.py); the desktop's FFmpeg cannot.
  const auto dir = temp_dir("recording-gif");
  try {
    WindowRecorder recorder(65, 47, dir / "window.gif", video::Format::Gif, 10.0);
    FAIL("a GIF recorder was made over a two-pass encoder");
  } catch (const video::VideoError& error) {
    CHECK(std::string(error.what()).find("needs every frame twice; a window is drawn once") != std::string::npos);
  }
  WindowRecorder mp4(65, 47, dir / "window.mp4", video::Format::Mp4, 10.0);  // H.264: cut to even sizes
  int calls = 0;
  mp4.after_frame(0, 0.01, [&] {
    ++calls;
    Image image;
    image.width = 65;
    image.height = 47;
    image.rgba.assign(static_cast<std::size_t>(65) * 47 * 4, 200);
    return image;
  });
  CHECK(calls == 1);
  CHECK(mp4.finish().empty());
  tv::check_video(tv::probe(dir / "window.mp4"), "h264", 64, 46, 1);
}
