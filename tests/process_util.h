// Running a shell command from a test and reading what it printed: one helper for the command-line tests
// (cli_util.h) and for reading videos back with FFmpeg's tools (video_util.h).
#pragma once

#include <doctest/doctest.h>

#include <sys/wait.h>

#include <cstdio>
#include <string>

namespace lagrange::test {

// The standard output of `command` (run by /bin/sh) and, in `code`, its exit code (-1 when a signal ended it).
inline std::string capture_output(const std::string& command, int* code = nullptr) {
  std::FILE* pipe = popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::string out;
  char buffer[65536];
  while (std::size_t n = std::fread(buffer, 1, sizeof buffer, pipe)) out.append(buffer, n);
  const int status = pclose(pipe);
  if (code) *code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return out;
}

}  // namespace lagrange::test
