// The FFmpeg side of common/video_writer.h, built as a module of its own (lagrange-video.so) that the program loads
// only when it records. FFmpeg's libraries bring in some 140 shared libraries more (OpenBLAS and its threads among
// them, through libavfilter): linked into the program they would cost every command (`run`, `solvers`, `bench`)
// 0.2 s and 37 MB at start, and a command under a small memory limit would not start at all.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "common/video_writer.h"

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

}  // namespace lagrange::video
