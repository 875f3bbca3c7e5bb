// Reading videos back with FFmpeg's own command-line tools, independent of the code that wrote them: ffprobe for the
// codec, the size and the frame count it decodes (-count_frames), ffmpeg for a decoded frame's pixels. Both are found
// at configure time (tests/CMakeLists.txt: FFPROBE_EXE, FFMPEG_EXE; scripts/install-deps.sh installs them).
#pragma once

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "process_util.h"

namespace lagrange::test::video {

inline std::string quoted(const std::filesystem::path& path) {
  std::string out(1, '\'');
  out += path.string();
  out += '\'';
  return out;
}

struct Probe {
  std::string codec, pix_fmt;
  int width = 0, height = 0;
  long frames = -1;         // nb_read_frames: frames decoded from the whole file
  double duration = -1.0;   // the format's duration, seconds
  std::map<std::string, std::string> fields;
};

// ffprobe's reading of the first video stream.
inline Probe probe(const std::filesystem::path& file) {
  int code = 0;
  const std::string text = capture_output(std::string(FFPROBE_EXE) +
                                       " -v error -count_frames -select_streams v:0 -show_entries "
                                       "stream=codec_name,width,height,pix_fmt,nb_read_frames,avg_frame_rate:"
                                       "format=duration -of default=noprint_wrappers=1 " +
                                       quoted(file) + " 2>&1",
                                   &code);
  INFO("ffprobe: " << text);
  REQUIRE(code == 0);
  Probe p;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(start, end - start);
    const auto eq = line.find('=');
    if (eq != std::string::npos) p.fields[line.substr(0, eq)] = line.substr(eq + 1);
    start = end + 1;
  }
  p.codec = p.fields["codec_name"];
  p.pix_fmt = p.fields["pix_fmt"];
  p.width = std::atoi(p.fields["width"].c_str());
  p.height = std::atoi(p.fields["height"].c_str());
  if (!p.fields["nb_read_frames"].empty()) p.frames = std::atol(p.fields["nb_read_frames"].c_str());
  if (!p.fields["duration"].empty() && p.fields["duration"] != "N/A") p.duration = std::atof(p.fields["duration"].c_str());
  return p;
}

// What ffprobe reads of a video, checked against what it must be.
inline void check_video(const Probe& p, const std::string& codec, int width, int height, long frames) {
  INFO("ffprobe: " << p.codec << " " << p.width << "x" << p.height << ", " << p.frames << " frames");
  CHECK(p.codec == codec);
  CHECK(p.width == width);
  CHECK(p.height == height);
  CHECK(p.frames == frames);
  if (codec == "h264") CHECK(p.pix_fmt == "yuv420p");
}

// Decoded RGB pixels, rows top to bottom, 3 bytes each.
struct Rgb {
  int width = 0, height = 0;
  std::vector<std::uint8_t> pixels;
};

// RGBA pixels (a frame given to an encoder, a window's pixels) without their alpha.
inline Rgb rgb_of(const std::vector<std::uint8_t>& rgba, int width, int height) {
  Rgb image{width, height, {}};
  image.pixels.reserve(rgba.size() / 4 * 3);
  for (std::size_t i = 0; i + 3 < rgba.size(); i += 4) image.pixels.insert(image.pixels.end(), &rgba[i], &rgba[i + 3]);
  return image;
}

// Frame `index` of a video (or the picture of a PNG, index 0), decoded by ffmpeg to RGB24 at its own size.
inline Rgb decode(const std::filesystem::path& file, long index, int width, int height) {
  int code = 0;
  const std::string select = "select=eq(n\\," + std::to_string(index) + ")";
  std::string bytes = capture_output(std::string(FFMPEG_EXE) + " -v error -i " + quoted(file) + " -vf '" + select +
                                  "' -frames:v 1 -f rawvideo -pix_fmt rgb24 - 2>/dev/null",
                              &code);
  REQUIRE(code == 0);
  Rgb image;
  image.width = width;
  image.height = height;
  REQUIRE(bytes.size() == static_cast<std::size_t>(width) * height * 3);
  image.pixels.assign(bytes.begin(), bytes.end());
  return image;
}

// The mean absolute difference of two pictures' channels, 0..255.
inline double mean_difference(const Rgb& a, const Rgb& b) {
  REQUIRE(a.pixels.size() == b.pixels.size());
  double sum = 0.0;
  for (std::size_t i = 0; i < a.pixels.size(); ++i) sum += std::abs(int(a.pixels[i]) - int(b.pixels[i]));
  return sum / static_cast<double>(a.pixels.size());
}

inline std::size_t distinct_colours(const Rgb& image) {
  std::set<std::uint32_t> colours;
  for (std::size_t i = 0; i + 2 < image.pixels.size(); i += 3)
    colours.insert(std::uint32_t(image.pixels[i]) << 16 | std::uint32_t(image.pixels[i + 1]) << 8 |
                   image.pixels[i + 2]);
  return colours.size();
}

}  // namespace lagrange::test::video
