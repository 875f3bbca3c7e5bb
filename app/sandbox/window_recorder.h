// Recording the window (issue 11): F9 or the Record button. What the window shows, at the window's size (its drawable
// pixels, cut to even numbers for H.264), becomes an MP4 at simulated time: a frame each time the simulation has run
// another 1/fps seconds (steps × Δt, counted only while it runs), so slow motion, a loaded machine or a frame rate
// below the video's still give a video at true speed (a frame that covers two frames' time is repeated); while paused
// (and while scrubbing or stepping by hand) nothing is captured. Each frame is encoded as it comes (libx264, in
// memory: a few ms a frame at 1280x720); Stop writes the MP4 into the screenshot folder through io::OutputFile. The
// red dot of the indicator is drawn after the frame is taken, so the video shows the window without it.
#pragma once

#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "sandbox/screenshot.h"

namespace lagrange::video {
class VideoWriter;
}

namespace lagrange::app {

// What the panels and the indicator show of a recording (SandboxState::recording).
struct RecordingStatus {
  bool active = false;
  long frames = 0;
  int fps = 30;
  double seconds = 0.0;       // of video so far
  double encode_ms = 0.0;     // mean time to read back, convert and encode one frame (the window's cost)
  std::filesystem::path file;  // where Stop writes it
};

class WindowRecorder {
 public:
  static constexpr int kFps = 30;
  // A window recording stops itself (and is saved) after ten minutes of video: 18 000 frames, which at the sizes
  // of a screen stay within a few hundred MB of memory for the encoded file until it is written.
  static constexpr double kMaxSeconds = 600.0;

  // A video of `width` × `height` (cut to even numbers) to be written to `file`. Throws video::VideoError.
  WindowRecorder(int width, int height, std::filesystem::path file, int fps = kFps);
  ~WindowRecorder();

  // After a frame was drawn: the simulated time it ran (`steps` of `dt`; 0 while paused) moves the video's clock
  // on, and every frame now due is taken from `read` (called once). The first call takes frame 0 (t = 0 of the
  // video) and counts no time. Throws video::VideoError, std::bad_alloc.
  void after_frame(int steps, double dt, const std::function<Image()>& read);
  // The ten minutes are full: the caller stops the recording.
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
