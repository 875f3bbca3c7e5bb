// Recording the window (issue 11): F9 or the Record button. What the window shows, at the window's size (its drawable
// pixels, cut to even numbers for H.264), becomes a video at simulated time, in the platform's format
// (recording_format.h: an MP4 on the desktop, a GIF in the page): a frame each time the simulation has run
// another 1/fps seconds (steps × Δt, counted only while it runs), so slow motion, a loaded machine or a frame rate
// below the video's still give a video at true speed (a frame that covers two frames' time is repeated); while paused
// (and while scrubbing or stepping by hand) nothing is captured. Each frame is encoded as it comes, in memory (an
// encoder that takes each frame once: libx264, or giflib in the page); Stop writes the file into the screenshot
// folder through io::OutputFile. The
// red dot of the indicator is drawn after the frame is taken, so the video shows the window without it.
#pragma once

#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "capture/screenshot.h"
#include "capture/video_writer.h"

namespace lagrange::app {

// What the panels and the indicator show of a recording (SandboxState::recording).
struct RecordingStatus {
  bool active = false;
  long frames = 0;
  int fps = 30;
  double seconds = 0.0;       // of video so far
  double encode_ms = 0.0;     // mean time to read back, convert and encode one frame (the window's cost)
  double max_seconds = 0.0;   // the recording stops itself after this much video (recording_format.h)
  std::filesystem::path file;  // where Stop writes it
};

class WindowRecorder {
 public:
  static constexpr int kFps = 30;

  // A video of `width` × `height` (cut to even numbers for an MP4) in `format`, to be written to `file`, at most
  // `max_seconds` long. Throws video::VideoError (also for an encoder that would need the frames twice).
  WindowRecorder(int width, int height, std::filesystem::path file, video::Format format, double max_seconds,
                 int fps = kFps);
  ~WindowRecorder();

  // After a frame was drawn: the simulated time it ran (`steps` of `dt`; 0 while paused) moves the video's clock
  // on, and every frame now due is taken from `read` (called once). The first call takes frame 0 (t = 0 of the
  // video) and counts no time. Throws video::VideoError, std::bad_alloc.
  void after_frame(int steps, double dt, const std::function<Image()>& read);
  // The most one recording holds (max_seconds) is recorded: the caller stops the recording.
  bool full() const;
  const RecordingStatus& status() const { return status_; }
  // Encodes what is left and writes the file ("" on success, else "FILE: REASON").
  std::string finish();

 private:
  std::unique_ptr<video::VideoWriter> writer_;
  RecordingStatus status_;
  int width_, height_;
  bool started_ = false;
  double clock_ = 0.0;  // simulated seconds since the start
  double encode_total_ms_ = 0.0;
  std::vector<std::uint8_t> padded_;  // a frame of a window that shrank, padded to the video's size
};

}  // namespace lagrange::app
