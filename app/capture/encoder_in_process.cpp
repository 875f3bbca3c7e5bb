// VideoWriter's encoder in the page (capture/video_encoder.h: open_encoder): no FFmpeg and no dlopen there, so GIF
// only, encoded in process with giflib (capture/gif_encoder.h). An MP4 is refused with a reason.
#include "capture/gif_encoder.h"
#include "capture/video_encoder.h"

namespace lagrange::video {

std::unique_ptr<Encoder> open_encoder(const VideoSpec& spec, const std::string& name) {
  if (spec.format != Format::Gif)
    throw VideoError(name + ": MP4 cannot be encoded here (there is no FFmpeg in the browser); GIF can");
  return make_gif_encoder(spec, name);
}

}  // namespace lagrange::video
