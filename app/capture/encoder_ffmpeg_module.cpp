// VideoWriter's encoder on the desktop (capture/video_encoder.h: open_encoder): FFmpeg, in its module
// lagrange-video.so, loaded with dlopen when the first video starts. MP4 and GIF both.
#include <mutex>
#include <string>

#include "capture/module_file.h"
#include "capture/video_encoder.h"

namespace lagrange::video {
namespace {

// The FFmpeg module (video_encoder.h), loaded once (capture/module_file.h: beside the program, then where the build
// put it).
CreateEncoder load_encoder() {
  static std::once_flag once;
  static CreateEncoder create = nullptr;
  static std::string error;
  std::call_once(once, [] {
    create = reinterpret_cast<CreateEncoder>(
        io::load_module_symbol("lagrange-video.so", LAGRANGE_VIDEO_MODULE, kCreateEncoder, error));
  });
  if (!create) throw VideoError("cannot load the video encoder (FFmpeg): " + error);
  return create;
}

}  // namespace

std::unique_ptr<Encoder> open_encoder(const VideoSpec& spec, const std::string& name) {
  return std::unique_ptr<Encoder>(load_encoder()(spec, name));
}

}  // namespace lagrange::video
