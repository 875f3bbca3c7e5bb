// What the window's recorder (window_recorder.h: F9, the Record button) writes: the platform's choice, made by the
// build's source list, not an #ifdef, like the encoder behind it (capture/video_encoder.h: open_encoder).
//   desktop  app/capture/desktop/recording_format.cpp  MP4 (H.264 through the FFmpeg module), ten minutes at most
//   page     app/web/recording_format_web.cpp          GIF (giflib, in process), a lower cap (docs/web.md)
#pragma once

#include <cmath>
#include <string>

#include "capture/video_writer.h"

namespace lagrange::app {

struct RecordingFormat {
  video::Format format;
  const char* extension;  // of the file name: ".mp4", ".gif"
  const char* label;      // in the UI: "MP4", "GIF"
  // A recording stops itself (and is saved) after this much video: the encoded file is held in memory until Stop.
  double max_seconds;
};

const RecordingFormat& window_recording_format();

// A cap in words: "10 minutes", "90 s".
inline std::string duration_text(double seconds) {
  if (seconds >= 120.0 && std::fmod(seconds, 60.0) == 0.0) return std::to_string(std::lround(seconds / 60)) + " minutes";
  return std::to_string(std::lround(seconds)) + " s";
}

}  // namespace lagrange::app
