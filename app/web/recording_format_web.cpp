// The page records the window as a GIF (recording_format.h): there is no FFmpeg in a browser, and giflib encodes in
// process (capture/gif_encoder.h, through capture/encoder_in_process.cpp). The cap: see docs/web.md ("Recording").
#include "capture/recording_format.h"

namespace lagrange::app {

const RecordingFormat& window_recording_format() {
  static const RecordingFormat format{video::Format::Gif, ".gif", "GIF", 120.0};
  return format;
}

}  // namespace lagrange::app
