// Helpers for the probes of issue 22 (tests/cli/test_probes.cpp, test_record_memory.cpp): the real binary started
// without a shell, so a test can signal it, limit it, time it and read its own peak memory from wait4().
#pragma once

#include <doctest/doctest.h>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "cli_util.h"

namespace lagrange::test {

struct Child {
  pid_t pid = -1;
  fs::path err;  // where its stderr went
};

// Starts lagrange-lab with `args` (no shell), stdout to /dev/null and stderr into `err`. `before_exec` runs in the
// child (a limit, a signal disposition).
template <class Setup>
Child start(const std::vector<std::string>& args, const fs::path& err, Setup before_exec) {
  Child child{::fork(), err};
  REQUIRE(child.pid >= 0);
  if (child.pid == 0) {
    std::vector<std::string> copy = args;
    std::string exe = LAGRANGE_EXE;
    std::vector<char*> argv{exe.data()};
    for (std::string& a : copy) argv.push_back(a.data());
    argv.push_back(nullptr);
    const int null = ::open("/dev/null", O_WRONLY);
    const int error = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(null, STDOUT_FILENO);
    ::dup2(error, STDERR_FILENO);
    before_exec();
    ::execv(exe.c_str(), argv.data());
    ::_exit(127);
  }
  return child;
}
inline Child start(const std::vector<std::string>& args, const fs::path& err) {
  return start(args, err, [] {});
}

struct Finished {
  int code = -1;    // exit code, or -1 when a signal ended it
  int signal = 0;   // the signal that ended it, or 0
  long max_rss_kb = 0;
  double cpu = 0.0;  // user + system seconds
  std::string err;
};

inline Finished finish(const Child& child) {
  int status = 0;
  struct rusage usage {};
  REQUIRE(::wait4(child.pid, &status, 0, &usage) == child.pid);
  Finished f;
  if (WIFEXITED(status)) f.code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) f.signal = WTERMSIG(status);
  f.max_rss_kb = usage.ru_maxrss;
  f.cpu = static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
          1e-6 * static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
  f.err = read_all(child.err);
  return f;
}

// Waits until `ready()` or about `seconds`; true when it became ready.
template <class Ready>
bool wait_for(Ready ready, double seconds = 30.0) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < end) {
    if (ready()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return ready();
}

// The names in `dir` that start with "." and hold ".tmp-": an OutputFile's temporary files.
inline std::vector<std::string> temporaries(const fs::path& dir) {
  std::vector<std::string> found;
  for (const std::string& name : listing(dir))
    if (name.rfind('.', 0) == 0 && name.find(".tmp-") != std::string::npos) found.push_back(name);
  return found;
}

}  // namespace lagrange::test
