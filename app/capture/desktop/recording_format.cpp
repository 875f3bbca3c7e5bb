// The desktop records the window as an MP4 (recording_format.h). Ten minutes: 18 000 frames, which at the sizes of
// a screen stay within a few hundred MB of memory for the encoded file until it is written.
#include "capture/recording_format.h"

namespace lagrange::app {

const RecordingFormat& window_recording_format() {
  static const RecordingFormat format{video::Format::Mp4, ".mp4", "MP4", 600.0};
  return format;
}

}  // namespace lagrange::app
