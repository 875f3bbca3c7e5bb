// The window's Record (F9, the timeline's Record button) in the browser: not available yet. The desktop recorder
// (app/sandbox/window_recorder.cpp) encodes with FFmpeg, loaded as a module (lagrange-video.so), which a page has
// not got; app/web/CMakeLists.txt builds this file in its place. The Sandbox's recording members are the same; a
// press says so in a toast and nothing is ever recorded, so no WindowRecorder is ever made here.
#include <memory>

#include "common/video_encoder.h"  // video::Encoder's (inline) destructor, for ~VideoWriter below
#include "common/video_writer.h"
#include "sandbox/sandbox_app.h"
#include "sandbox/window_recorder.h"

namespace lagrange::app {

// The message the page shows when asked to record.
constexpr const char* kNoRecordingHere =
    "Recording is not available in the browser yet: the desktop app records the window as an MP4 (F9), and "
    "`lagrange-lab record` an MP4 or GIF";

void Sandbox::toggle_recording() {
  state_.notice = kNoRecordingHere;
  state_.show_toast(state_.notice, false);
}

void Sandbox::stop_recording(const std::string&) {}  // never recording

void Sandbox::capture_recording() {}

// Sandbox keeps a std::unique_ptr<WindowRecorder> (always empty here), whose destructor needs these two; neither
// ever runs on a real object in the page.
WindowRecorder::~WindowRecorder() = default;

}  // namespace lagrange::app

namespace lagrange::video {
VideoWriter::~VideoWriter() = default;
}  // namespace lagrange::video
