// VideoWriter's encoder on the desktop (capture/video_encoder.h: open_encoder): FFmpeg, in its module
// lagrange-video.so, loaded with dlopen when the first video starts. MP4 and GIF both.
#include <dlfcn.h>
#include <unistd.h>

#include <climits>
#include <filesystem>
#include <mutex>
#include <vector>

#include "capture/video_encoder.h"

namespace lagrange::video {
namespace {

// The FFmpeg module (video_encoder.h), loaded once: beside the program first (the program and its module are built
// into one folder), then where the build put it (the test programs live elsewhere in the build tree).
CreateEncoder load_encoder() {
  static std::once_flag once;
  static CreateEncoder create = nullptr;
  static std::string error;
  std::call_once(once, [] {
    std::vector<std::string> candidates;
    char self[PATH_MAX];
    const ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
    if (n > 0) {
      self[n] = '\0';
      candidates.push_back((std::filesystem::path(self).parent_path() / "lagrange-video.so").string());
    }
    candidates.push_back(LAGRANGE_VIDEO_MODULE);
    for (const std::string& path : candidates) {
      if (!std::filesystem::exists(path)) continue;
      void* module = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);  // kept loaded for the process's life
      if (!module) {
        const char* why = ::dlerror();
        error = why ? why : path + ": cannot be loaded";
        return;
      }
      create = reinterpret_cast<CreateEncoder>(::dlsym(module, kCreateEncoder));
      if (!create) error = path + ": has no " + kCreateEncoder;
      return;
    }
    error = "lagrange-video.so was not found beside the program nor at " LAGRANGE_VIDEO_MODULE;
  });
  if (!create) throw VideoError("cannot load the video encoder (FFmpeg): " + error);
  return create;
}

}  // namespace

std::unique_ptr<Encoder> open_encoder(const VideoSpec& spec, const std::string& name) {
  return std::unique_ptr<Encoder>(load_encoder()(spec, name));
}

}  // namespace lagrange::video
