// The Sandbox's side of recording the window (F9, the Record button): starting and stopping a recording, a frame
// after each drawing, and handing the written file to the user. The recorder itself, the video's clock and the
// encoding, is capture/window_recorder.{h,cpp}; the format is the platform's (capture/recording_format.h).
#include <cstdio>
#include <memory>
#include <string>

#include "capture/recording_format.h"
#include "capture/screenshot.h"
#include "capture/window_recorder.h"
#include "sandbox/sandbox_app.h"

namespace lagrange::app {

void Sandbox::toggle_recording() {
  if (recorder_) {
    stop_recording("");
    return;
  }
  int width = 0, height = 0;
  platform_->drawable_size(width, height);
  const RecordingFormat& format = window_recording_format();  // the platform's: MP4 on the desktop, GIF in the page
  try {
    recorder_ = std::make_unique<WindowRecorder>(
        width, height, timestamped_path(state_.screenshot_dir, state_.scene.name, format.extension), format.format,
        format.max_seconds);
    state_.recording = recorder_->status();
    recorded_frame_ = -1;
  } catch (const std::exception& error) {
    recorder_.reset();
    state_.notice = std::string("Could not record: ") + error.what();
    state_.show_toast(state_.notice, true);
  }
}

void Sandbox::stop_recording(const std::string& why) {
  if (!recorder_) return;
  const std::unique_ptr<WindowRecorder> recorder = std::move(recorder_);
  const std::string error = recorder->finish();
  const RecordingStatus& status = recorder->status();
  state_.recording = {};
  if (error.empty()) {
    char what[96];
    std::snprintf(what, sizeof what, "%ld frame%s, %.1f s at %d fps", status.frames, status.frames == 1 ? "" : "s",
                  status.seconds, status.fps);
    // The desktop: the toast says where it is; the page: a download (Platform::deliver_file).
    deliver_file(status.file, why + "Saved the recording (" + what + ") to " + status.file.string(), what);
    return;
  }
  state_.notice = why + "Could not save the recording: " + error;
  state_.show_toast(state_.notice, true);
}

void Sandbox::capture_recording() {
  if (!recorder_) return;
  // One capture per frame (a second render() of the same frame counts no time again).
  const int frame = ImGui::GetFrameCount();
  if (frame == recorded_frame_) return;
  recorded_frame_ = frame;
  try {
    recorder_->after_frame(state_.timing.steps_last_frame, state_.world().settings().dt,
                           [this] { return read_pixels(); });
  } catch (const std::exception& error) {
    recorder_.reset();
    state_.recording = {};
    state_.notice = std::string("The recording stopped: ") + error.what();
    state_.show_toast(state_.notice, true);
    return;
  }
  state_.recording = recorder_->status();
  if (recorder_->full())
    stop_recording(duration_text(recorder_->status().max_seconds) + " recorded, the most one recording holds. ");
}

}  // namespace lagrange::app
