// Helpers for the command-line tests that run the real binary: a shell command (so a test can redirect to
// /dev/full or bound a run with `timeout`), a private folder per test, whole files read back byte for byte.
#pragma once

#include <doctest/doctest.h>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace lagrange::test {

namespace fs = std::filesystem;

struct CliResult {
  int code;         // exit code; -1 when killed by a signal
  std::string out;  // what the command printed on stderr (and stdout unless redirected)
  double seconds;   // wall time
};

// Runs `lagrange-lab ARGS` through the shell, bounded by `timeout` so a hang fails instead of stalling CTest.
// `redirect` replaces the default "2>&1" (e.g. "> /dev/full 2>&1").
inline CliResult cli(const std::string& args, const std::string& redirect = "2>&1", int timeout_s = 60) {
  const std::string command = "timeout " + std::to_string(timeout_s) + " " + std::string(LAGRANGE_EXE) + " " +
                              args + " " + redirect;
  const auto start = std::chrono::steady_clock::now();
  std::FILE* pipe = popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::string out;
  char buffer[4096];
  while (std::size_t n = std::fread(buffer, 1, sizeof buffer, pipe)) out.append(buffer, n);
  const int status = pclose(pipe);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out, seconds};
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
