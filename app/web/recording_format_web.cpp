// The page records the window as a GIF (recording_format.h): there is no FFmpeg in a browser, and giflib encodes in
// process (common/gif_encoder.h, through common/encoder_in_process.cpp). The cap: see docs/web.md ("Recording").
#include "sandbox/recording_format.h"

#include <cstdio>
#include <filesystem>
#include <system_error>

#include "sandbox/window_recorder.h"

namespace lagrange::app {

const RecordingFormat& window_recording_format() {
  static const RecordingFormat format{video::Format::Gif, ".gif", "GIF", 120.0};
  return format;
}

// The GIF is now in the page's in-memory file system (window_recorder.cpp wrote it with io::write_file). A line on
// the console says where and what it cost (tests/web/page_test.py reads it; so can a user in the browser's console).
// THE DOWNLOAD HOOK for recordings belongs here: hand status.file to the page's "written output -> download" seam.
void on_recording_saved(const RecordingStatus& status) {
  std::error_code error;
  const auto bytes = std::filesystem::file_size(status.file, error);
  std::printf("lagrange-lab: recorded %s: %ld frames, %.2f s at %d fps, %lld bytes, %.2f ms a frame to encode\n",
              status.file.string().c_str(), status.frames, status.seconds, status.fps,
              error ? -1LL : static_cast<long long>(bytes), status.encode_ms);
  std::fflush(stdout);
}

}  // namespace lagrange::app
