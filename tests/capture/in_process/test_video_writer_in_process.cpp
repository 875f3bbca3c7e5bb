// The video writer as the page builds it (capture/encoder_in_process.cpp as its encoder source: GIF with giflib, no
// FFmpeg), built natively: a GIF in one pass, read back by giflib's decoder and ffprobe; an MP4 refused with a reason.
#include <doctest/doctest.h>

#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "capture/video_writer.h"
#include "gif_decode.h"
#include "video_util.h"

using namespace lagrange;
namespace fs = std::filesystem;

TEST_CASE("in process: the video writer encodes a GIF in one pass, exactly as handed over") {
  video::VideoSpec spec;
  spec.format = video::Format::Gif;
  spec.width = 33;
  spec.height = 21;
  spec.fps = 30;
  video::VideoWriter writer(spec, "window.gif");
  REQUIRE(writer.passes() == 1);
  std::vector<std::vector<std::uint8_t>> frames;
  for (int k = 0; k < 10; ++k) {
    // A background with a 4 x 4 square stepping right; a padded stride (the rows 40 bytes further apart).
    const std::size_t stride = static_cast<std::size_t>(spec.width) * 4 + 40;
    std::vector<std::uint8_t> rgba(stride * spec.height, 7);
    for (int y = 0; y < spec.height; ++y)
      for (int x = 0; x < spec.width; ++x) {
        std::uint8_t* p = &rgba[y * stride + x * 4];
        const bool square = x >= 2 * k && x < 2 * k + 4 && y >= 5 && y < 9;
        p[0] = square ? 250 : 20;
        p[1] = square ? 200 : 24;
        p[2] = square ? 10 : 30;
        p[3] = 255;
      }
    writer.add_frame(rgba.data(), stride);
    std::vector<std::uint8_t> rgb;
    for (int y = 0; y < spec.height; ++y)
      for (int x = 0; x < spec.width; ++x) rgb.insert(rgb.end(), &rgba[y * stride + x * 4], &rgba[y * stride + x * 4 + 3]);
    frames.push_back(rgb);
  }
  CHECK(writer.frames() == 10);
  const std::string bytes = writer.finish();
  const test::gif::Decoded gif = test::gif::decode(bytes);
  REQUIRE(gif.frames.size() == frames.size());
  for (std::size_t k = 0; k < frames.size(); ++k) CHECK(gif.frames[k] == frames[k]);
  const fs::path file = fs::temp_directory_path() / ("lagrange-in-process-" + std::to_string(::getpid()) + ".gif");
  std::ofstream(file, std::ios::binary) << bytes;
  test::video::check_video(test::video::probe(file), "gif", 33, 21, 10);
  fs::remove(file);
}

TEST_CASE("in process: an MP4 is refused, saying why") {
  video::VideoSpec spec;
  spec.format = video::Format::Mp4;
  spec.width = 32;
  spec.height = 16;
  CHECK_THROWS_WITH_AS(video::VideoWriter(spec, "window.mp4"),
                       "window.mp4: MP4 cannot be encoded here (there is no FFmpeg in the browser); GIF can",
                       video::VideoError);
}
