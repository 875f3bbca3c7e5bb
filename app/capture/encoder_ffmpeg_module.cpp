// VideoWriter's encoder on the desktop (capture/video_encoder.h: open_encoder): FFmpeg, in its module
// lagrange-video.so, loaded with dlopen when the first video starts. MP4 and GIF both.
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <vector>

#include "capture/video_encoder.h"

namespace lagrange::video {
namespace {

// "" when `path` looks like a whole shared object of this machine, else why not. dlopen maps a file and trusts its
// headers: a truncated module (a copy cut short, a full disk) made it read past the end of the mapping and die of
// SIGBUS. So the ELF header, the program headers and every loaded segment must lie within the file.
std::string check_module(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::strerror(errno);
  struct stat st {};
  std::string why;
  Elf64_Ehdr header{};
  const auto read_at = [&](void* into, std::size_t size, off_t offset) {
    return ::pread(fd, into, size, offset) == static_cast<ssize_t>(size);
  };
  const auto within = [&](std::uint64_t offset, std::uint64_t size) {
    return offset <= static_cast<std::uint64_t>(st.st_size) && size <= static_cast<std::uint64_t>(st.st_size) - offset;
  };
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    why = "not a regular file";
  } else if (!read_at(&header, sizeof header, 0) || std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0 ||
             header.e_ident[EI_CLASS] != ELFCLASS64 || header.e_type != ET_DYN) {
    why = "not a 64-bit ELF shared object";
  } else if (header.e_phentsize != sizeof(Elf64_Phdr) ||
             !within(header.e_phoff, std::uint64_t{header.e_phnum} * sizeof(Elf64_Phdr)) ||
             (header.e_shoff != 0 && !within(header.e_shoff, std::uint64_t{header.e_shnum} * header.e_shentsize))) {
    why = "truncated or damaged (its headers point past its end, " + std::to_string(st.st_size) + " bytes)";
  } else {
    for (int i = 0; i < header.e_phnum && why.empty(); ++i) {
      Elf64_Phdr segment{};
      if (!read_at(&segment, sizeof segment, static_cast<off_t>(header.e_phoff + i * sizeof(Elf64_Phdr))))
        why = "truncated or damaged (cannot read its program headers)";
      else if (segment.p_type == PT_LOAD && !within(segment.p_offset, segment.p_filesz))
        why = "truncated or damaged (a segment lies past its end, " + std::to_string(st.st_size) + " bytes)";
    }
  }
  ::close(fd);
  return why;
}

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
      if (const std::string why = check_module(path); !why.empty()) {
        error = path + ": " + why;
        return;
      }
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
