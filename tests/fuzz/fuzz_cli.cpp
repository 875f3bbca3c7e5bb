// libFuzzer target: the whole command line of `lagrange-lab run`, arguments and scene together (scripts/fuzz.sh).
// An input is a scene file, a NUL byte, then the arguments after the scene, one per line. What must hold for any
// input: no crash, no sanitizer report, no hang; a refusal is one of the documented failures (a usage error, a scene
// error, an output error: exit 2 or 1) with a message that quotes no unbounded input and has no raw control
// character; a run ends with 0, 3 or 5; no temporary file is ever left behind.
//
// The work of one input is bounded so that every input stays fast while reaching pathological but legal scenes: the
// scene must load within limits below the command line's (2000 particles, 4000 rows, 300 rows on one particle; a
// particle held by 1000 identical pins passes, its repeats counting once), at most 10 steps, at most 4 substeps and
// 200 iterations a step (appended --set, which come last), and outputs only in the fuzzer's own folder.
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <new>
#include <string>
#include <string_view>
#include <vector>

#include "capture/output_file.h"
#include "cli/commands.h"
#include "lagrange/scene.h"
#include "options/args.h"

namespace {

namespace fs = std::filesystem;

const fs::path& folder() {
  static const fs::path dir = [] {
    const fs::path d = fs::temp_directory_path() / ("lagrange-fuzz-cli-" + std::to_string(::getpid()));
    fs::create_directories(d);
    fs::current_path(d);  // relative outputs land here
    std::atexit([] {      // and go with it when the fuzzer ends (a crash keeps it, with what caused it)
      std::error_code ignored;
      fs::remove_all(fs::temp_directory_path() / ("lagrange-fuzz-cli-" + std::to_string(::getpid())), ignored);
    });
    std::freopen("/dev/null", "w", stdout);  // summaries and CSVs on standard output go nowhere
    return d;
  }();
  return dir;
}

void check_message(std::string_view text) {
  if (text.size() > 1000) std::abort();  // echoed input is cut short where it is quoted
  for (char c : text)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) std::abort();  // escaped, never raw
}

bool has(std::string_view text, std::string_view part) { return text.find(part) != std::string_view::npos; }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace lagrange;
  const fs::path& dir = folder();
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::size_t nul = input.find('\0');
  const std::string_view scene_text = input.substr(0, nul);
  std::vector<std::string> args;
  if (nul != std::string_view::npos) {
    std::string_view rest = input.substr(nul + 1);
    while (!rest.empty() && args.size() < 64) {
      const std::size_t end = rest.find('\n');
      args.emplace_back(rest.substr(0, end));
      rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
    }
  }
  // The bounds on the work (see the header): anything that would take long is skipped, not run.
  SceneLimits limits;
  limits.max_particles = 2000;
  limits.max_rows = 4000;
  limits.max_coupling = 400'000;
  limits.max_particle_rows = 300;
  try {
    parse_scene(scene_text, "fuzz.json", limits);
  } catch (const SceneError& error) {
    check_message(error.what());
    return 0;
  } catch (const std::bad_alloc&) {
    return 0;
  }
  bool steps = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (has(a, "--duration") || has(a, "--allow-large") || has(a, "--dt") || has(a, "dt=") ||
        has(a, "substeps") || has(a, "max_iterations") || has(a, "tolerance") || has(a, "/") || has(a, "--measure"))
      return 0;
    if (a.rfind("--steps", 0) == 0) {
      const std::string value = a == "--steps" ? (i + 1 < args.size() ? args[i + 1] : "") : a.substr(7);
      const long n = std::strtol(value.c_str() + (value.rfind("=", 0) == 0), nullptr, 10);
      if (n > 10) return 0;
      steps = true;
    }
  }
  if (!steps) args.insert(args.end(), {"--steps", "3"});
  args.insert(args.end(), {"--set", "substeps=2", "--set", "max_iterations=200"});
  {
    std::ofstream out(dir / "scene.json", std::ios::binary | std::ios::trunc);
    out.write(scene_text.data(), static_cast<std::streamsize>(scene_text.size()));
  }
  std::vector<std::string> argv_text{"scene.json"};
  argv_text.insert(argv_text.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : argv_text) argv.push_back(a.data());
  argv.push_back(nullptr);
  int code = -1;
  try {
    code = cli::run_main(static_cast<int>(argv_text.size()), argv.data());
  } catch (const cli::UsageError& e) {
    check_message(e.what());
    code = 2;
  } catch (const io::SameFileError& e) {
    check_message(e.what());
    code = 2;
  } catch (const io::OutputError& e) {
    check_message(e.what());
    code = 1;
  } catch (const SceneError& e) {
    check_message(e.what());
    code = 2;
  } catch (const Error& e) {
    check_message(e.what());
    code = 2;
  } catch (const std::bad_alloc&) {
    code = 4;
  }
  if (code != 0 && code != 1 && code != 2 && code != 3 && code != 4 && code != 5) std::abort();
  std::fflush(stdout);
  std::clearerr(stdout);
  // Nothing half-written: no temporary file of any output is left; outputs are removed for the next input.
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind('.', 0) == 0 && name.find(".tmp-") != std::string::npos) std::abort();
    if (name != "scene.json") {
      std::error_code ignored;
      fs::remove_all(entry.path(), ignored);
    }
  }
  return 0;
}
