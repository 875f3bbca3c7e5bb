// The encoder side of capture/video_writer.h: video::Encoder, what VideoWriter hands its frames to. On the desktop it
// is FFmpeg (video_encoder.cpp), built as a module of its own (lagrange-video.so) that the program loads only when it
// records. FFmpeg's libraries bring in some 140 shared libraries more (OpenBLAS and its threads among them, through
// libavfilter): linked into the program they would cost every command (`run`, `solvers`, `bench`) 0.2 s and 37 MB at
// start, and a command under a small memory limit would not start at all. In the page (no FFmpeg, no dlopen) it is
// the in-process GIF encoder (gif_encoder.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "capture/video_writer.h"

namespace lagrange::video {

// One video being encoded (VideoWriter's calls, after its checks). Throws VideoError, std::bad_alloc.
class Encoder {
 public:
  virtual ~Encoder() = default;
  virtual int passes() const = 0;
  virtual long frame_count() const = 0;
  virtual void add_frame(const std::uint8_t* rgba, std::size_t stride) = 0;
  virtual void next_pass() = 0;
  virtual std::string finish() = 0;
};

// The module's entry point, by this name: a new Encoder for a spec check_spec accepted. Throws.
using CreateEncoder = Encoder* (*)(const VideoSpec& spec, const std::string& name);
inline constexpr const char* kCreateEncoder = "lagrange_video_create_encoder";

// Where VideoWriter gets its encoder: a choice of the build (its source list), not of an #ifdef. A new Encoder for a
// spec check_spec accepted; throws VideoError (an encoder that cannot be had), std::bad_alloc.
//   capture/encoder_ffmpeg_module.cpp  the desktop: FFmpeg, this module (lagrange-video.so), loaded with dlopen
//   capture/encoder_in_process.cpp     the page: GIF only, with giflib (capture/gif_encoder.h); MP4 is refused
std::unique_ptr<Encoder> open_encoder(const VideoSpec& spec, const std::string& name);

}  // namespace lagrange::video
