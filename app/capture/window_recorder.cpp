#include "capture/window_recorder.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <new>

#include "capture/output_file.h"
#include "capture/screenshot_folder.h"
#include "capture/video_writer.h"

namespace lagrange::app {

WindowRecorder::WindowRecorder(int width, int height, std::filesystem::path file, video::Format format,
                               double max_seconds, int fps)
    // H.264 (4:2:0) needs even sizes; a GIF takes the window's own.
    : width_(format == video::Format::Mp4 ? width & ~1 : width),
      height_(format == video::Format::Mp4 ? height & ~1 : height) {
  status_.fps = fps;
  status_.max_seconds = max_seconds;
  status_.file = std::move(file);
  video::VideoSpec spec;
  spec.format = format;
  spec.width = width_;
  spec.height = height_;
  spec.fps = fps;
  writer_ = std::make_unique<video::VideoWriter>(spec, status_.file.string());
  if (writer_->passes() != 1)  // FFmpeg's GIF makes its palette in a first pass: a window is drawn only once
    throw video::VideoError(status_.file.string() + ": this encoder needs every frame twice; a window is drawn once");
  status_.active = true;
}

WindowRecorder::~WindowRecorder() = default;

bool WindowRecorder::full() const { return status_.frames >= std::lround(status_.max_seconds * status_.fps); }

void WindowRecorder::after_frame(int steps, double dt, const std::function<Image()>& read) {
  if (started_) clock_ += steps * dt;
  started_ = true;
  // Frame k is due once the clock is nearer k / fps than a step before it: the lockstep rule (lanes.h, behind).
  const auto due = [&] {
    return !full() && !(clock_ + 0.5 * dt <= static_cast<double>(status_.frames) / status_.fps);
  };
  if (!due()) return;
  const auto start = std::chrono::steady_clock::now();
  const Image image = read();
  const std::uint8_t* pixels = image.rgba.data();
  std::size_t stride = static_cast<std::size_t>(image.width) * 4;
  if (image.width < width_ || image.height < height_) {
    // The window shrank while recording: its picture in the top-left corner, black around it.
    padded_.assign(static_cast<std::size_t>(width_) * height_ * 4, 0);
    for (std::size_t i = 3; i < padded_.size(); i += 4) padded_[i] = 255;
    const int w = std::min(image.width, width_), h = std::min(image.height, height_);
    for (int y = 0; y < h; ++y)
      std::memcpy(&padded_[static_cast<std::size_t>(y) * width_ * 4], &image.rgba[y * stride],
                  static_cast<std::size_t>(w) * 4);
    pixels = padded_.data();
    stride = static_cast<std::size_t>(width_) * 4;
  }
  // A larger picture (the window grew, or an odd size) is cut to the video's size at its top-left corner.
  do {  // a frame that covers the time of several is repeated: the video keeps simulated time
    writer_->add_frame(pixels, stride);
    ++status_.frames;
  } while (due());
  encode_total_ms_ += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  status_.seconds = static_cast<double>(status_.frames) / status_.fps;
  status_.encode_ms = encode_total_ms_ / static_cast<double>(status_.frames);
}

std::string WindowRecorder::finish() {
  status_.active = false;
  try {
    const std::string bytes = writer_->finish();
    writer_.reset();
    if (std::string error = make_parent_folder(status_.file); !error.empty()) return error;
    // The recording's one write: the whole file (an MP4, or the page's GIF) into the screenshot folder. In the page
    // that folder is in the in-memory file system: Sandbox::stop_recording hands the written file on (deliver_file).
    return io::write_file(status_.file.string(), bytes);
  } catch (const video::VideoError& error) {
    return error.what();
  } catch (const std::bad_alloc&) {
    return status_.file.string() + ": out of memory";
  }
}

}  // namespace lagrange::app
