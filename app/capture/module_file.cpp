// The program's modules (capture/module_file.h): found beside the program, checked, loaded with dlopen.
#include "capture/module_file.h"

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
#include <vector>

namespace lagrange::io {

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

void* load_module_symbol(const std::string& file_name, const std::string& built_at, const char* symbol,
                         std::string& error) {
  std::vector<std::string> candidates;
  char self[PATH_MAX];
  const ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
  if (n > 0) {
    self[n] = '\0';
    candidates.push_back((std::filesystem::path(self).parent_path() / file_name).string());
  }
  candidates.push_back(built_at);
  for (const std::string& path : candidates) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) continue;
    if (const std::string why = check_module(path); !why.empty()) {
      error = path + ": " + why;
      return nullptr;
    }
    void* module = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);  // kept loaded for the process's life
    if (!module) {
      const char* why = ::dlerror();
      error = why ? why : path + ": cannot be loaded";
      return nullptr;
    }
    void* found = ::dlsym(module, symbol);
    if (!found) error = path + ": has no " + symbol;
    return found;
  }
  error = file_name + " was not found beside the program nor at " + built_at;
  return nullptr;
}

}  // namespace lagrange::io
