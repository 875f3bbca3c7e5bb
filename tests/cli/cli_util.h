// Helpers for the command-line tests that run the real binary: a shell command (so a test can redirect to
// /dev/full or bound a run with `timeout`), a private folder per test, whole files read back byte for byte.
#pragma once

#include <doctest/doctest.h>

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "process_util.h"

namespace lagrange::test {

namespace fs = std::filesystem;

struct CliResult {
  int code;         // exit code; -1 when killed by a signal
  std::string out;  // what the command printed on stderr (and stdout unless redirected)
  double seconds;   // wall time
};

// Runs `lagrange-lab ARGS` through the shell, bounded by `timeout` so a hang fails instead of stalling CTest.
// `redirect` replaces the default "2>&1" (e.g. "> /dev/full 2>&1").
// The address space is capped at 2 GB (not under AddressSanitizer, which reserves far more), so that a binary
// that wrongly reads /dev/zero or allocates a giant scene fails its test instead of exhausting the machine.
inline CliResult cli(const std::string& args, const std::string& redirect = "2>&1", int timeout_s = 60) {
#if defined(__SANITIZE_ADDRESS__)
  const std::string cap;
#else
  const std::string cap = "ulimit -v 2000000; ";
#endif
  const std::string command = cap + "timeout " + std::to_string(timeout_s) + " " + std::string(LAGRANGE_EXE) + " " +
                              args + " " + redirect;
  const auto start = std::chrono::steady_clock::now();
  int code = 0;
  std::string out = capture_output(command, &code);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return {code, std::move(out), seconds};
}

// A private character device `name` in `dir` with the numbers of /dev/null (1, 3) or /dev/full (1, 7), so that a
// binary that wrongly replaces its output replaces the private node, never the system's. Falls back to the system's
// device where mknod is not allowed (not root), where no such binary could replace it either.
inline fs::path private_device(const fs::path& dir, const char* name, unsigned minor) {
  const fs::path node = dir / name;
  if (::mknod(node.c_str(), S_IFCHR | 0666, makedev(1, minor)) == 0) return node;
  return fs::path("/dev") / name;
}

// The number on the line "LABEL   NUMBER s" of a command's output (run --measure period's lines).
inline double number_after(const std::string& text, const std::string& label) {
  std::smatch m;
  const std::regex line("(^|\n)" + label + " +([-+0-9.eE]+) s");
  REQUIRE(std::regex_search(text, m, line));
  return std::stod(m[2]);
}

inline std::string asset(const char* name) { return std::string(LAGRANGE_ASSETS_DIR) + "/" + name; }

// A fresh, empty folder for one test.
inline fs::path fresh_dir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("lagrange-cli-" + std::to_string(::getpid()) + "-" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

inline std::string read_all(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

inline void write_all(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

// The names in a folder, sorted.
inline std::vector<std::string> listing(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

inline std::string quote(const fs::path& path) {
  std::string out(1, '\'');  // not "'" + ...: GCC 12 -O2 raises a false -Wrestrict on that form
  out += path.string();
  out += '\'';
  return out;
}

}  // namespace lagrange::test
