#include "capture/output_file.h"

#include <fcntl.h>
#include <stdio_ext.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "lagrange/text.h"

namespace lagrange::io {
namespace {

// The temporary files of the OutputFiles now open, for the signal handler: plain char arrays, since the handler
// may only call async-signal-safe functions (unlink, write, _exit).
struct TempSlot {
  volatile std::sig_atomic_t used = 0;
  char path[PATH_MAX] = {};
};
std::array<TempSlot, 8> g_temps;

int register_temp(const std::string& path) {
  if (path.size() >= PATH_MAX) return -1;
  for (std::size_t i = 0; i < g_temps.size(); ++i) {
    if (g_temps[i].used) continue;
    std::memcpy(g_temps[i].path, path.c_str(), path.size() + 1);
    g_temps[i].used = 1;
    return static_cast<int>(i);
  }
  return -1;
}

void unregister_temp(const std::string& path) {
  for (TempSlot& slot : g_temps)
    if (slot.used && path == slot.path) slot.used = 0;
}

void on_interrupt(int signal) {
  for (TempSlot& slot : g_temps)
    if (slot.used) ::unlink(slot.path);
  const char* text = signal == SIGINT ? "lagrange-lab: interrupted (SIGINT); no unfinished output was left\n"
                                      : "lagrange-lab: terminated (SIGTERM); no unfinished output was left\n";
  [[maybe_unused]] const ssize_t ignored = ::write(STDERR_FILENO, text, std::strlen(text));
  ::_exit(128 + signal);
}

std::string reason(int error) { return error ? std::strerror(error) : "unknown error"; }

std::string folder_of(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

std::string name_of(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

mode_t new_file_mode() {
  const mode_t mask = ::umask(0);
  ::umask(mask);
  return 0666 & ~mask;
}

}  // namespace

void refuse_same_file(const std::string& input, const std::string& output) {
  if (output == "-") return;
  struct stat in {}, out {};
  if (::stat(input.c_str(), &in) != 0 || ::stat(output.c_str(), &out) != 0) return;
  if (in.st_dev == out.st_dev && in.st_ino == out.st_ino)
    throw SameFileError(printable(output, kEchoPathLength) + ": is the input file " +
                        printable(input, kEchoPathLength) + "; refusing to overwrite it");
}

OutputFile::OutputFile(std::string target) : target_(std::move(target)) {
  if (target_.empty()) throw OutputError("an output needs a file name");
  if (target_ == "-") {
    fd_ = STDOUT_FILENO;
    return;
  }
  struct stat st {};
  mode_t mode = new_file_mode();
  const bool found = ::stat(target_.c_str(), &st) == 0;
  struct stat link {};
  if (::lstat(target_.c_str(), &link) == 0 && S_ISLNK(link.st_mode) && !(found && !S_ISREG(st.st_mode) &&
                                                                        !S_ISDIR(st.st_mode)))
    // A link's target is not ours to replace (nor is the link, which someone made on purpose). A link to a device
    // or a FIFO (/dev/stdout) is written straight, below.
    throw OutputError(shown() + ": is a symbolic link" + (found ? "" : " to a missing file") +
                      "; refusing to write through it (give the file's own path, or - for standard output)");
  if (found) {
    if (S_ISDIR(st.st_mode)) throw OutputError(shown() + ": is a folder; give a file name");
    if (!S_ISREG(st.st_mode)) {
      // A device or a FIFO: write into it, never replace it. O_NONBLOCK so that a FIFO nobody reads fails at once
      // (ENXIO) instead of waiting forever; blocking writes afterwards.
      fd_ = ::open(target_.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC | O_NONBLOCK);
      if (fd_ < 0) {
        const int error = errno;
        if (error == ENXIO) throw OutputError(shown() + ": no process is reading from this FIFO or socket");
        throw OutputError(shown() + ": cannot open: " + reason(error));
      }
      owns_fd_ = true;
      const int flags = ::fcntl(fd_, F_GETFL);
      if (flags >= 0) ::fcntl(fd_, F_SETFL, flags & ~O_NONBLOCK);
      return;
    }
    // A regular file (not a link: refused above) is replaced by the rename.
    final_ = target_;
    mode = st.st_mode & 07777;
  } else {
    const int error = errno;
    if (error != ENOENT) throw OutputError(shown() + ": " + reason(error));
    final_ = target_;
  }
  std::string name = name_of(final_);
  if (name.size() > 200) name.resize(200);  // leaves room for the suffix within NAME_MAX
  std::string pattern = folder_of(final_) + "/." + name + ".tmp-XXXXXX";
  std::vector<char> buffer(pattern.begin(), pattern.end());
  buffer.push_back('\0');
  fd_ = ::mkostemp(buffer.data(), O_CLOEXEC);  // O_CREAT | O_EXCL: a unique new file, never a followed link
  if (fd_ < 0) {
    const int error = errno;
    throw OutputError(shown() + ": cannot create a file in " + folder_of(final_) + ": " + reason(error));
  }
  owns_fd_ = true;
  temp_ = buffer.data();
  register_temp(temp_);
  if (::fchmod(fd_, mode) != 0) fail("cannot set permissions", errno);
}

OutputFile::~OutputFile() { discard(); }

std::string OutputFile::shown() const { return printable(target_, kEchoPathLength); }

void OutputFile::discard() {
  if (owns_fd_ && fd_ >= 0) ::close(fd_);
  fd_ = -1;
  owns_fd_ = false;
  finished_ = false;
  buffer_.clear();
  if (!temp_.empty()) {
    ::unlink(temp_.c_str());
    unregister_temp(temp_);
    temp_.clear();
  }
}

void OutputFile::fail(const std::string& what, int error) {
  discard();
  throw OutputError(shown() + ": " + what + ": " + reason(error));
}

void OutputFile::write(std::string_view data) {
  if (fd_ < 0) throw OutputError(shown() + ": already closed");
  buffer_.append(data);
  if (buffer_.size() >= (1u << 16)) flush();
}

void OutputFile::print(const char* format, ...) {
  char local[512];
  va_list args;
  va_start(args, format);
  const int n = std::vsnprintf(local, sizeof local, format, args);
  va_end(args);
  if (n < 0) fail("cannot format", EINVAL);
  if (static_cast<std::size_t>(n) < sizeof local) {
    write(std::string_view(local, static_cast<std::size_t>(n)));
    return;
  }
  std::string big(static_cast<std::size_t>(n) + 1, '\0');
  va_start(args, format);
  std::vsnprintf(big.data(), big.size(), format, args);
  va_end(args);
  big.pop_back();
  write(big);
}

void OutputFile::flush() {
  std::size_t done = 0;
  while (done < buffer_.size()) {
    const ssize_t n = ::write(fd_, buffer_.data() + done, buffer_.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail("cannot write", errno);
    }
    if (n == 0) fail("cannot write", EIO);
    done += static_cast<std::size_t>(n);
  }
  buffer_.clear();
}

void OutputFile::finish() {
  if (finished_) return;
  if (fd_ < 0) throw OutputError(shown() + ": already closed");
  flush();
  if (temp_.empty()) {
    if (owns_fd_) {
      const int fd = fd_;
      fd_ = -1;
      owns_fd_ = false;
      if (::close(fd) != 0) fail("cannot write", errno);
    }
    fd_ = -1;
    finished_ = true;
    return;
  }
  if (::fsync(fd_) != 0) fail("cannot write", errno);
  const int fd = fd_;
  fd_ = -1;
  owns_fd_ = false;
  if (::close(fd) != 0) fail("cannot write", errno);
  finished_ = true;
}

void OutputFile::commit() {
  finish();
  finished_ = false;
  if (temp_.empty()) return;
  if (::rename(temp_.c_str(), final_.c_str()) != 0) {
    const int error = errno;
    discard();
    if (error == EISDIR) throw OutputError(shown() + ": is a folder; give a file name");
    throw OutputError(shown() + ": cannot replace the file: " + reason(error));
  }
  unregister_temp(temp_);
  temp_.clear();
  // The rename itself is only durable once the folder is synced; a failure here loses nothing already written.
  const int folder = ::open(folder_of(final_).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (folder >= 0) {
    ::fsync(folder);
    ::close(folder);
  }
}

bool is_standard_output(const std::string& path) {
  if (path == "-") return true;
  struct stat out {}, target {};
  return ::fstat(STDOUT_FILENO, &out) == 0 && ::stat(path.c_str(), &target) == 0 && !S_ISREG(target.st_mode) &&
         out.st_dev == target.st_dev && out.st_ino == target.st_ino;
}

void check_standard_output() {
  errno = 0;
  if (std::fflush(stdout) == 0 && !std::ferror(stdout)) return;
  const int error = errno;
  // Reported here, once: drop what cannot be written, so that main's last flush does not report it again.
  __fpurge(stdout);
  std::clearerr(stdout);
  throw OutputError("standard output: cannot write" + (error ? ": " + reason(error) : std::string()));
}

std::string write_file(const std::string& target, std::string_view data) {
  try {
    OutputFile file(target);
    file.write(data);
    file.commit();
    return {};
  } catch (const OutputError& error) {
    return error.what();
  }
}

void install_interrupt_cleanup() {
  struct sigaction action {};
  action.sa_handler = on_interrupt;
  sigemptyset(&action.sa_mask);
  ::sigaction(SIGINT, &action, nullptr);
  ::sigaction(SIGTERM, &action, nullptr);
}

}  // namespace lagrange::io
