// capture/gif_encoder (the page's recordings): frames made here, the GIF read back by giflib's own decoder
// (gif_decode.h: DGif*) and by ffprobe, never by the encoder's code. Each decoded frame is compared with the frame
// handed over: exactly where it has at most 256 colours, within a stated bound where it has more.
#include <doctest/doctest.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "capture/gif_encoder.h"
#include "gif_decode.h"
#include "video_util.h"

using namespace lagrange;
namespace fs = std::filesystem;
namespace tg = lagrange::test::gif;
namespace tv = lagrange::test::video;

namespace {

using Frame = std::vector<std::uint8_t>;  // RGBA

Frame flat(int width, int height, std::uint32_t rgb) {
  Frame f(static_cast<std::size_t>(width) * height * 4);
  for (std::size_t i = 0; i < f.size(); i += 4) {
    f[i] = static_cast<std::uint8_t>(rgb >> 16);
    f[i + 1] = static_cast<std::uint8_t>(rgb >> 8);
    f[i + 2] = static_cast<std::uint8_t>(rgb);
    f[i + 3] = 255;
  }
  return f;
}

void set(Frame& f, int width, int x, int y, int r, int g, int b) {
  std::uint8_t* p = &f[(static_cast<std::size_t>(y) * width + x) * 4];
  p[0] = static_cast<std::uint8_t>(r);
  p[1] = static_cast<std::uint8_t>(g);
  p[2] = static_cast<std::uint8_t>(b);
}

void fill_rect(Frame& f, int width, int x0, int y0, int x1, int y1, std::uint32_t rgb) {
  for (int y = y0; y < y1; ++y)
    for (int x = x0; x < x1; ++x) set(f, width, x, y, rgb >> 16 & 0xFF, rgb >> 8 & 0xFF, rgb & 0xFF);
}

// A disc of radius 9 at (cx, cy) over a dark background, its edge antialiased (4x4 supersampling: 17 levels of
// coverage, so at most 17 colours in the frame).
Frame disc(int width, int height, double cx, double cy) {
  Frame f = flat(width, height, 0x181A1F);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      int inside = 0;
      for (int sy = 0; sy < 4; ++sy)
        for (int sx = 0; sx < 4; ++sx) {
          const double dx = x + (sx + 0.5) / 4 - cx, dy = y + (sy + 0.5) / 4 - cy;
          inside += dx * dx + dy * dy <= 81.0;
        }
      if (inside == 0) continue;
      const auto blend = [&](int a, int b) { return (a * (16 - inside) + b * inside + 8) / 16; };
      set(f, width, x, y, blend(0x18, 230), blend(0x1A, 120), blend(0x1F, 40));
    }
  return f;
}

// Every pair of red and green levels: width × height colours (more than 256), red steps of 4, green of 5.
Frame gradient(int width, int height, int shift) {
  Frame f = flat(width, height, 0);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) set(f, width, x, y, ((x + shift) % width) * 4, y * 5, 128);
  return f;
}

std::size_t colours(const Frame& f) {
  std::set<std::uint32_t> seen;
  for (std::size_t i = 0; i < f.size(); i += 4) seen.insert(std::uint32_t(f[i]) << 16 | f[i + 1] << 8 | f[i + 2]);
  return seen.size();
}

struct Difference {
  int max = 0;
  double mean = 0.0;
};

Difference difference(const std::vector<std::uint8_t>& rgb, const Frame& rgba) {
  REQUIRE(rgb.size() / 3 == rgba.size() / 4);
  Difference d;
  for (std::size_t i = 0, j = 0; i < rgb.size(); i += 3, j += 4)
    for (int c = 0; c < 3; ++c) {
      const int e = std::abs(int(rgb[i + c]) - int(rgba[j + c]));
      d.max = std::max(d.max, e);
      d.mean += e;
    }
  d.mean /= static_cast<double>(rgb.size());
  return d;
}

std::string encode(int width, int height, int fps, const std::vector<Frame>& frames) {
  video::VideoSpec spec;
  spec.format = video::Format::Gif;
  spec.width = width;
  spec.height = height;
  spec.fps = fps;
  REQUIRE(video::check_spec(spec).empty());
  const auto encoder = video::make_gif_encoder(spec, "test.gif");
  CHECK(encoder->passes() == 1);
  for (const Frame& f : frames) encoder->add_frame(f.data(), static_cast<std::size_t>(width) * 4);
  CHECK(encoder->frame_count() == static_cast<long>(frames.size()));
  return encoder->finish();
}

// What every GIF of this encoder must be: the size, one image per frame, loop forever, frame k shown from
// round(100 k / fps) cs (video_writer.h), the last until round(100 n / fps), so the delays sum to the video's
// duration within 1 cs; and ffprobe (FFmpeg's decoder) reads as many frames of the same size.
tg::Decoded check_gif(const std::string& bytes, int width, int height, int fps, std::size_t frames) {
  REQUIRE(bytes.rfind("GIF89a", 0) == 0);
  const tg::Decoded gif = tg::decode(bytes);
  CHECK(gif.width == width);
  CHECK(gif.height == height);
  REQUIRE(gif.images.size() == frames);
  CHECK(gif.loops_forever);
  long shown = 0;  // cs
  for (std::size_t k = 0; k < frames; ++k) {
    INFO("frame " << k);
    CHECK(shown == std::lround(100.0 * static_cast<double>(k) / fps));
    CHECK(gif.images[k].delay_cs >= 1);
    shown += gif.images[k].delay_cs;
  }
  CHECK(std::abs(static_cast<double>(shown) - 100.0 * static_cast<double>(frames) / fps) <= 1.0);
  const fs::path dir = fs::temp_directory_path() / ("lagrange-gif-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path file = dir / "test.gif";
  std::ofstream(file, std::ios::binary) << bytes;
  tv::check_video(tv::probe(file), "gif", width, height, static_cast<long>(frames));
  fs::remove_all(dir);
  return gif;
}

}  // namespace

TEST_CASE("GIF: flat colours decode exactly, and a frame equal to the one before or with one pixel changed "
          "are written as 1x1 images") {
  const int w = 61, h = 37;  // odd sizes: only MP4 needs even ones
  std::vector<Frame> frames;
  Frame f = flat(w, h, 0x202428);
  fill_rect(f, w, 3, 4, 20, 30, 0xE04030);
  fill_rect(f, w, 30, 10, 58, 20, 0x30C060);
  frames.push_back(f);
  fill_rect(f, w, 10, 2, 40, 8, 0x3050F0);  // a bar over both
  frames.push_back(f);
  frames.push_back(f);  // equal to the one before
  set(f, w, 44, 29, 255, 255, 0);  // one pixel
  frames.push_back(f);
  const tg::Decoded gif = check_gif(encode(w, h, 30, frames), w, h, 30, frames.size());
  for (std::size_t k = 0; k < frames.size(); ++k) {
    INFO("frame " << k);
    CHECK(difference(gif.frames[k], frames[k]).max == 0);
  }
  CHECK(gif.images[0].width == w);  // the first frame whole
  CHECK(gif.images[0].height == h);
  CHECK(gif.images[1].left == 10);  // then only what changed
  CHECK(gif.images[1].top == 2);
  CHECK(gif.images[1].width == 30);
  CHECK(gif.images[1].height == 6);
  CHECK(gif.images[2].width * gif.images[2].height == 1);
  CHECK(gif.images[3].left == 44);
  CHECK(gif.images[3].top == 29);
  CHECK(gif.images[3].width * gif.images[3].height == 1);
}

TEST_CASE("GIF: a moving antialiased disc decodes exactly, each frame after the first written as the rectangle "
          "around the disc's old and new place") {
  const int w = 97, h = 61, fps = 30, n = 24;
  std::vector<Frame> frames;
  for (int k = 0; k < n; ++k) frames.push_back(disc(w, h, 12.3 + 3.1 * k, 30.0 + 8.0 * std::sin(0.4 * k)));
  REQUIRE(colours(frames[0]) <= 256);
  REQUIRE(colours(frames[0]) > 2);  // antialiased
  const tg::Decoded gif = check_gif(encode(w, h, fps, frames), w, h, fps, frames.size());
  for (int k = 0; k < n; ++k) {
    INFO("frame " << k);
    CHECK(difference(gif.frames[static_cast<std::size_t>(k)], frames[static_cast<std::size_t>(k)]).max == 0);
    if (k > 0) {  // the disc (radius 9) moves ≤ 3.1 px right and ≤ 3.2 px up or down: its box and the last one
      CHECK(gif.images[static_cast<std::size_t>(k)].width <= 2 * 10 + 4);
      CHECK(gif.images[static_cast<std::size_t>(k)].height <= 2 * 10 + 4);
    }
  }
}

TEST_CASE("GIF: a gradient of more than 256 colours is quantised within a bound, in the first frame and later") {
  // 64 x 48 = 3072 colours, equally many pixels each, red in steps of 4 and green in steps of 5. Median cut halves
  // boxes at their weighted median: 256 boxes (the first frame) are 4 x 3 colours each (a span of 12 x 10 levels,
  // every colour within 6 + rounding of its box's mean); with 255 (a later frame: one slot is the transparent index)
  // one box stays unsplit, twice as wide (a span of 28 levels: within 14). Bounds: 14 levels per channel at most,
  // 4 on average.
  const int w = 64, h = 48, fps = 25;
  std::vector<Frame> frames{gradient(w, h, 0), gradient(w, h, 0), gradient(w, h, 5)};
  REQUIRE(colours(frames[0]) == static_cast<std::size_t>(w * h));
  const tg::Decoded gif = check_gif(encode(w, h, fps, frames), w, h, fps, frames.size());
  for (std::size_t k = 0; k < frames.size(); ++k) {
    INFO("frame " << k);
    const Difference d = difference(gif.frames[k], frames[k]);
    INFO("max " << d.max << ", mean " << d.mean);
    CHECK(d.max <= 14);
    CHECK(d.mean <= 4.0);
  }
  CHECK(gif.images[0].palette_size == 256);
  CHECK(gif.images[1].width * gif.images[1].height == 1);  // unchanged
}

TEST_CASE("GIF: the delays keep the frame rate for rates that do not divide 100, and at least 1 cs above 100 fps") {
  const int w = 16, h = 16;
  for (int fps : {24, 30, 60, 7, 120}) {
    INFO(fps << " fps");
    std::vector<Frame> frames;
    for (int k = 0; k < 13; ++k) {
      Frame f = flat(w, h, 0x101010);
      fill_rect(f, w, k % 16, 0, k % 16 + 1, 16, 0xFFFFFF);
      frames.push_back(f);
    }
    if (fps <= 100) {
      check_gif(encode(w, h, fps, frames), w, h, fps, frames.size());
    } else {  // two frames would fall on one centisecond: all are kept, each shown for 1 cs (slower than real time)
      const tg::Decoded gif = tg::decode(encode(w, h, fps, frames));
      REQUIRE(gif.images.size() == frames.size());
      for (const tg::Image& image : gif.images) CHECK(image.delay_cs == 1);
    }
  }
}

TEST_CASE("GIF: the encoder takes one pass, refuses a second and a finish without frames") {
  video::VideoSpec spec;
  spec.format = video::Format::Gif;
  spec.width = spec.height = 16;
  const auto encoder = video::make_gif_encoder(spec, "out.gif");
  CHECK_THROWS_WITH_AS(encoder->next_pass(), "out.gif: a GIF is encoded in one pass", video::VideoError);
  CHECK_THROWS_WITH_AS(encoder->finish(), "out.gif: no frames to encode", video::VideoError);
}
