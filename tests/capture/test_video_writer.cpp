// capture/video_writer: frames made here, read back by ffprobe and ffmpeg (not by this code). Small and fast, so it
// runs under the sanitizers too (scripts/test.sh --sanitize): every FFmpeg object is freed, on success and on failure.
#include <doctest/doctest.h>

#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <new>
#include <string>
#include <vector>

#include "capture/video_writer.h"
#include "video_util.h"

using namespace lagrange;
using namespace lagrange::test::video;
namespace fs = std::filesystem;

namespace {

fs::path scratch(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("lagrange-video-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir / name;
}

void save(const fs::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out << bytes;
}

// Frame k of a test pattern: a horizontal colour ramp (many colours) and a white square moving right by 2 px a frame.
std::vector<std::uint8_t> pattern(int width, int height, int k) {
  std::vector<std::uint8_t> rgba(static_cast<std::size_t>(width) * height * 4);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      std::uint8_t* p = &rgba[(static_cast<std::size_t>(y) * width + x) * 4];
      const bool square = x >= 2 * k && x < 2 * k + 8 && y >= 8 && y < 16;
      p[0] = square ? 255 : static_cast<std::uint8_t>(255 * x / (width - 1));
      p[1] = square ? 255 : static_cast<std::uint8_t>(255 * y / (height - 1));
      p[2] = square ? 255 : 96;
      p[3] = 255;
    }
  return rgba;
}

std::string encode(const video::VideoSpec& spec, int frames) {
  video::VideoWriter writer(spec, "test");
  for (int pass = 0; pass < writer.passes(); ++pass) {
    if (pass > 0) writer.next_pass();
    for (int k = 0; k < frames; ++k) writer.add_frame(pattern(spec.width, spec.height, k).data());
  }
  return writer.finish();
}

}  // namespace

TEST_CASE("an MP4 is H.264 yuv420p of the size asked, with exactly the frames handed over, at the frame rate asked") {
  video::VideoSpec spec;
  spec.format = video::Format::Mp4;
  spec.width = 64;
  spec.height = 48;
  spec.fps = 10;
  const std::string bytes = encode(spec, 15);
  const fs::path file = scratch("pattern.mp4");
  save(file, bytes);
  const Probe p = probe(file);
  check_video(p, "h264", 64, 48, 15);
  CHECK(p.fields.at("avg_frame_rate") == "10/1");
  CHECK(p.duration == doctest::Approx(1.5).epsilon(0.01));
  // +faststart: the index (moov) before the media data (mdat).
  CHECK(bytes.find("moov") < bytes.find("mdat"));
  // The last frame decoded is the last one given, within H.264's loss.
  const Rgb last = decode(file, 14, 64, 48);
  CHECK(mean_difference(last, rgb_of(pattern(64, 48, 14), 64, 48)) < 6.0);
  // The same frames, the same bytes.
  CHECK(encode(spec, 15) == bytes);
  fs::remove(file);
}

TEST_CASE("a GIF has a palette made from its frames, exactly the frames handed over, and the same bytes every time") {
  video::VideoSpec spec;
  spec.format = video::Format::Gif;
  spec.width = 63;  // odd sizes are fine for a GIF
  spec.height = 47;
  spec.fps = 30;
  const std::string bytes = encode(spec, 12);
  CHECK(bytes.rfind("GIF89a", 0) == 0);
  const fs::path file = scratch("pattern.gif");
  save(file, bytes);
  const Probe p = probe(file);
  check_video(p, "gif", 63, 47, 12);
  // 12 frames at 30 fps: shown at round(100 k / 30) cs, the last for the delay before it: 0.40 s.
  CHECK(p.duration == doctest::Approx(0.40).epsilon(0.03));
  const Rgb first = decode(file, 0, 63, 47);
  CHECK(distinct_colours(first) > 100);  // a real palette: the ramp keeps its colours
  CHECK(mean_difference(first, rgb_of(pattern(63, 47, 0), 63, 47)) < 4.0);
  CHECK(encode(spec, 12) == bytes);
  // Above 100 fps two frames would fall on one centisecond: every frame is kept, each shown for at least 1 cs.
  spec.fps = 120;
  save(file, encode(spec, 12));
  check_video(probe(file), "gif", 63, 47, 12);
  fs::remove(file);
}

TEST_CASE("the video writer refuses what it cannot encode, naming the output") {
  video::VideoSpec spec;
  spec.width = 65;
  spec.height = 48;
  CHECK_THROWS_WITH_AS(video::VideoWriter(spec, "out.mp4"),
                       "out.mp4: an MP4 (H.264, 4:2:0) needs an even width and height, got 65x48",
                       video::VideoError);
  spec.width = 64;
  spec.fps = 0;
  CHECK_THROWS_AS(video::VideoWriter(spec, "out.mp4"), video::VideoError);
  spec.fps = 30;
  {  // a GIF's second pass must bring as many frames as the first
    spec.format = video::Format::Gif;
    video::VideoWriter writer(spec, "out.gif");
    const std::vector<std::uint8_t> frame = pattern(64, 48, 0);
    writer.add_frame(frame.data());
    writer.add_frame(frame.data());
    CHECK_THROWS_AS(writer.finish(), video::VideoError);  // the second pass is missing
    writer.next_pass();
    writer.add_frame(frame.data());
    CHECK_THROWS_AS(writer.finish(), video::VideoError);
  }
  {  // abandoned half-way: everything is freed (the sanitizer run checks)
    spec.format = video::Format::Mp4;
    video::VideoWriter writer(spec, "out.mp4");
    const std::vector<std::uint8_t> frame = pattern(64, 48, 0);
    for (int k = 0; k < 5; ++k) writer.add_frame(frame.data());
  }
  CHECK(video::format_for_path("a/b.MP4") == video::Format::Mp4);
  CHECK(video::format_for_path("clip.Gif") == video::Format::Gif);
  CHECK(!video::format_for_path("clip.webm"));
  CHECK(!video::format_for_path("mp4"));
  CHECK(!video::format_for_path("dir.gif/clip"));
}
