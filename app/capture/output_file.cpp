#include "capture/output_file.h"

#include <fcntl.h>
#include <stdio.h>
#if defined(__linux__) && !defined(__EMSCRIPTEN__)
#include <linux/fs.h>  // RENAME_NOREPLACE, RENAME_EXCHANGE (the page's in-memory file system has plain rename only)
#define LAGRANGE_HAVE_RENAMEAT2 1
#endif
#include <stdio_ext.h>
#include <sys/stat.h>
#include <pthread.h>
#include <unistd.h>

#include <array>
#include <cctype>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
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

// The signals whose default action ends the process and that can be caught. Each removes the temporary files and
// exits 128 + signal, as SIGINT and SIGTERM always did: closing the terminal (SIGHUP), a timer (SIGALRM), a CPU
// limit (SIGXCPU), a user's kill -USR1. The faults (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGSYS, SIGTRAP) remove
// them too and then die of the signal, so a crash still shows as one (and dumps core where that is on).
struct SignalName {
  int signal;
  const char* name;
  bool fault;
};
constexpr SignalName kSignals[] = {
    {SIGHUP, "SIGHUP", false},     {SIGINT, "SIGINT", false},       {SIGQUIT, "SIGQUIT", false},
    {SIGTERM, "SIGTERM", false},   {SIGUSR1, "SIGUSR1", false},     {SIGUSR2, "SIGUSR2", false},
    {SIGALRM, "SIGALRM", false},   {SIGVTALRM, "SIGVTALRM", false}, {SIGPROF, "SIGPROF", false},
    {SIGXCPU, "SIGXCPU", false},   {SIGIO, "SIGIO", false},
#ifdef SIGPWR
    {SIGPWR, "SIGPWR", false},
#endif
#ifdef SIGSTKFLT
    {SIGSTKFLT, "SIGSTKFLT", false},
#endif
    {SIGSEGV, "SIGSEGV", true},    {SIGBUS, "SIGBUS", true},
    {SIGFPE, "SIGFPE", true},      {SIGILL, "SIGILL", true},        {SIGABRT, "SIGABRT", true},
    {SIGSYS, "SIGSYS", true},      {SIGTRAP, "SIGTRAP", true},
};

void say(const char* text) { [[maybe_unused]] const ssize_t ignored = ::write(STDERR_FILENO, text, std::strlen(text)); }

void on_signal(int signal) {
  for (TempSlot& slot : g_temps)
    if (slot.used) ::unlink(slot.path);
  const SignalName* known = nullptr;
  for (const SignalName& s : kSignals)
    if (s.signal == signal) known = &s;
  char number[16] = "signal ";
  if (!known) {  // a real-time signal: its number (async-signal-safe, no printf)
    int n = signal, digits = 0;
    char reversed[8];
    do reversed[digits++] = static_cast<char>('0' + n % 10); while ((n /= 10) > 0 && digits < 7);
    std::size_t at = 7;
    while (digits > 0) number[at++] = reversed[--digits];
    number[at] = '\0';
  }
  say(signal == SIGINT ? "lagrange-lab: interrupted (" : known && known->fault ? "lagrange-lab: crashed (" :
                                                                                  "lagrange-lab: terminated (");
  say(known ? known->name : number);
  say("); no unfinished output was left\n");
  if (known && known->fault) {  // die of it: the fault shows as what it is
    ::signal(signal, SIG_DFL);
    sigset_t only;
    sigemptyset(&only);
    sigaddset(&only, signal);
    ::pthread_sigmask(SIG_UNBLOCK, &only, nullptr);  // blocked while its handler runs
    ::raise(signal);
  }
  ::_exit(128 + signal);
}

// Signals held off while a temporary file is made or renamed, so the handler never misses one that exists.
struct HoldSignals {
  sigset_t old;
  HoldSignals() {
    sigset_t all;
    sigfillset(&all);
    ::pthread_sigmask(SIG_BLOCK, &all, &old);
  }
  ~HoldSignals() { ::pthread_sigmask(SIG_SETMASK, &old, nullptr); }
  HoldSignals(const HoldSignals&) = delete;
  HoldSignals& operator=(const HoldSignals&) = delete;
};

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

bool same_output(const std::string& a, const std::string& b) {
  if (a == "-" || b == "-") return a == b;
  struct stat sa {}, sb {};
  const bool found_a = ::stat(a.c_str(), &sa) == 0, found_b = ::stat(b.c_str(), &sb) == 0;
  if (found_a && found_b) return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  std::error_code error_a, error_b;
  // weakly_canonical: the part that exists with its links resolved, the rest normalised (".", "..").
  const std::filesystem::path pa = std::filesystem::weakly_canonical(std::filesystem::absolute(a, error_a), error_a);
  const std::filesystem::path pb = std::filesystem::weakly_canonical(std::filesystem::absolute(b, error_b), error_b);
  if (error_a || error_b) return a == b;
  return pa == pb;
}

OutputFile::OutputFile(std::string target, bool standard_output) : target_(std::move(target)) {
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
                      "; refusing to write through it (give the file's own path" +
                      (standard_output ? ", or - for standard output)" : ")"));
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
    // A regular file (not a link: refused above) is replaced by the rename, if it is ours to write: as cp would,
    // a read-only file or another user's is refused (the rename would replace it in a folder we may write, and
    // change its owner).
    if (::faccessat(AT_FDCWD, target_.c_str(), W_OK, AT_EACCESS) != 0) {
      const int error = errno;
      throw OutputError(shown() + ": cannot write: " + reason(error));
    }
    final_ = target_;
    mode = st.st_mode & 07777;
    existed_ = true;
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
  {
    const HoldSignals hold;  // made and registered at once: a signal never leaves it behind
    fd_ = ::mkostemp(buffer.data(), O_CLOEXEC);  // O_CREAT | O_EXCL: a unique new file, never a followed link
    if (fd_ >= 0) register_temp(buffer.data());
  }
  if (fd_ < 0) {
    const int error = errno;
    throw OutputError(shown() + ": cannot create a file in " + printable(folder_of(final_), kEchoPathLength) + ": " +
                      reason(error));
  }
  owns_fd_ = true;
  temp_ = buffer.data();
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

// What is at `path` now, not followed: a regular file we may write, or the reason it is not ours to replace.
std::string OutputFile::not_ours(const std::string& path) const {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return {};
  if (S_ISLNK(st.st_mode)) return "a symbolic link appeared at this path while it was written";
  if (S_ISDIR(st.st_mode)) return "a folder appeared at this path while it was written";
  if (!S_ISREG(st.st_mode)) return "something other than a file appeared at this path while it was written";
  if (::faccessat(AT_FDCWD, path.c_str(), W_OK, AT_EACCESS) != 0) return "cannot write: " + reason(errno);
  return {};
}

void OutputFile::commit() {
  finish();
  finished_ = false;
  if (temp_.empty()) return;
  // The target is replaced only by what we made, never what someone put there meanwhile (a link planted during a
  // long recording, another user's file): a name that was free at the start is taken only if still free
  // (RENAME_NOREPLACE); an existing file is swapped with ours atomically (RENAME_EXCHANGE) and what came out is
  // looked at: a regular file we may write is the old version and is removed, anything else is swapped back.
  const auto refuse = [&](const std::string& why) {
    discard();
    throw OutputError(shown() + ": " + why + "; left as it is, nothing written");
  };
  const HoldSignals hold;  // the temporary name is registered until it is gone
  int done = -1;
#ifndef LAGRANGE_HAVE_RENAMEAT2  // no atomic variants: checked just before a plain rename
  if (const std::string why = not_ours(final_); !why.empty()) refuse(why);
  done = ::rename(temp_.c_str(), final_.c_str());
  if (done != 0) {
    const int error = errno;
    discard();
    throw OutputError(shown() + ": cannot replace the file: " + reason(error));
  }
#else
  if (!existed_) {
    done = ::renameat2(AT_FDCWD, temp_.c_str(), AT_FDCWD, final_.c_str(), RENAME_NOREPLACE);
    if (done != 0 && errno != EEXIST && errno != EINVAL && errno != ENOSYS) {
      const int error = errno;
      discard();
      throw OutputError(shown() + ": cannot replace the file: " + reason(error));
    }
  }
  if (done != 0) {  // the target existed at the start, or appeared since (another run's complete file, or a link)
    if (const std::string why = not_ours(final_); !why.empty()) refuse(why);
    done = ::renameat2(AT_FDCWD, temp_.c_str(), AT_FDCWD, final_.c_str(), RENAME_EXCHANGE);
    if (done == 0) {
      // temp_ now names what was at the target: ours to remove if it is a regular file, else it goes back.
      if (const std::string why = not_ours(temp_); !why.empty()) {
        ::renameat2(AT_FDCWD, temp_.c_str(), AT_FDCWD, final_.c_str(), RENAME_EXCHANGE);
        refuse(why);
      }
      ::unlink(temp_.c_str());
    } else if (errno == ENOENT) {  // gone since the check: the name is free again
      done = ::renameat2(AT_FDCWD, temp_.c_str(), AT_FDCWD, final_.c_str(), RENAME_NOREPLACE);
    } else if (errno == EINVAL || errno == ENOSYS) {  // a file system without RENAME_EXCHANGE: checked just above
      done = ::rename(temp_.c_str(), final_.c_str());
    }
    if (done != 0) {
      const int error = errno;
      discard();
      if (error == EISDIR) throw OutputError(shown() + ": is a folder; give a file name");
      if (error == EEXIST) throw OutputError(shown() + ": something appeared at this path while it was written; "
                                                       "left as it is, nothing written");
      throw OutputError(shown() + ": cannot replace the file: " + reason(error));
    }
  }
#endif
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

std::string png_name_problem(const std::string& option, const std::string& path, bool standard_output) {
  const std::string_view name(path);
  if (name.size() >= 4) {
    std::string extension(name.substr(name.size() - 4));
    for (char& c : extension) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (extension == ".png" && name.size() > 4 && name[name.size() - 5] != '/') return {};
  }
  if (standard_output && is_standard_output(path)) return {};
  struct stat target {};
  if (::stat(path.c_str(), &target) == 0 && S_ISCHR(target.st_mode)) return {};  // /dev/null, /dev/full
  const std::size_t slash = path.find_last_of('/');
  std::string last = path.substr(slash == std::string::npos ? 0 : slash + 1);
  for (char& c : last) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (last == ".png")  // the extension alone: no name before it
    return option + ": needs a file name before .png, got " + lagrange::quoted(path);
  return option + ": the file name must end in .png (a PNG is written), got " + lagrange::quoted(path);
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
  action.sa_handler = on_signal;
  sigfillset(&action.sa_mask);  // one handler at a time
  const auto install = [&](int signal) {
    struct sigaction old {};
    // A signal ignored when the program started (nohup, a background job's SIGINT) stays ignored.
    if (::sigaction(signal, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) return;
    ::sigaction(signal, &action, nullptr);
  };
  for (const SignalName& s : kSignals) install(s.signal);
#ifdef SIGRTMIN
  for (int signal = SIGRTMIN; signal <= SIGRTMAX; ++signal) install(signal);
#endif
  // A file-size limit (ulimit -f): the write that would pass it fails with EFBIG ("File too large"), reported as
  // any failed write (exit 1, the temporary file removed), instead of the default SIGXFSZ killing the process
  // mid-write and leaving the temporary file.
  ::signal(SIGXFSZ, SIG_IGN);
}

}  // namespace lagrange::io
