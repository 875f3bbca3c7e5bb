// lagrange-lab: the sandbox window and the headless commands.
#include <fcntl.h>
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <new>
#include <string>

#include "capture/output_file.h"
#include "cli/commands.h"
#include "lagrange/scene.h"
#include "lagrange/text.h"
#include "options/args.h"
#ifdef LAGRANGE_HAVE_SANDBOX
#include <mutex>
#include <stdexcept>

#include "capture/module_file.h"
#include "window_module.h"
#endif

namespace {

constexpr const char* kUsage = R"(Lagrange Lab: particles, rods and pins; see what a Lagrange multiplier does.

usage: lagrange-lab [SCENE.json]            open the sandbox window (default scene: double pendulum)
       lagrange-lab gui [SCENE.json] ...    the same
       lagrange-lab run SCENE [options]     simulate with no window; summary and CSV
       lagrange-lab shot SCENE [options]    render a PNG with no display
       lagrange-lab record SCENE --duration S [options]   record an MP4 or GIF at simulated time, no display
       lagrange-lab matrix SCENE [options]  the constraint matrix J M^-1 J^T: rank, dependent rows, condition
       lagrange-lab converge SCENE --until T  the order of accuracy of every solver, fitted
       lagrange-lab solvers                 list the constraint solvers
       lagrange-lab bench [options]         benchmark workloads x solvers
       lagrange-lab COMMAND --help          options of a command
)";

#ifdef LAGRANGE_HAVE_SANDBOX
// The window's module (window_module.h), loaded by the first command that draws.
const lagrange::app::WindowModule& window() {
  static std::once_flag once;
  static const lagrange::app::WindowModule* module = nullptr;
  static std::string error;
  std::call_once(once, [] {
    const auto entry = reinterpret_cast<lagrange::app::WindowModuleEntry>(lagrange::io::load_module_symbol(
        "lagrange-window.so", LAGRANGE_WINDOW_MODULE, lagrange::app::kWindowModuleEntry, error));
    if (entry) module = entry();
  });
  if (!module) throw std::runtime_error("cannot load the window (SDL2, OpenGL): " + error);
  return *module;
}
#endif

int dispatch(int argc, char** argv) {
  using namespace lagrange;
  const std::string command = argc > 1 ? argv[1] : "";
  if (command == "--help" || command == "-h" || command == "help") {
    std::fputs(kUsage, stdout);
    return 0;
  }
  // The headless commands: SIGINT / SIGTERM remove unfinished output and exit 130 / 143 at once.
  // A reader that went away (`run --csv - | head`) is a write error, exit 1 with its reason, not a silent death.
  if (command == "run" || command == "bench" || command == "shot" || command == "record" || command == "matrix" ||
      command == "converge") {
    io::install_interrupt_cleanup();
    std::signal(SIGPIPE, SIG_IGN);
  }
  if (command == "run") return cli::run_main(argc - 2, argv + 2);
  if (command == "solvers") return cli::solvers_main(argc - 2, argv + 2);
  if (command == "bench") return cli::bench_main(argc - 2, argv + 2);
#ifdef LAGRANGE_HAVE_SANDBOX
  if (command == "converge")
    return cli::converge_main(argc - 2, argv + 2, [](const ConvergenceReport& report, const std::string& title,
                                                     std::string& png) {
      return window().render_convergence_plot(report, title, png);
    });
  if (command == "matrix")
    return cli::matrix_main(argc - 2, argv + 2, [](int w, int h, const std::vector<std::uint8_t>& rgba, std::string& png) {
      return window().encode_png(w, h, rgba, png);
    });
  if (command == "shot") return window().shot_main(argc - 2, argv + 2);
  if (command == "record") return window().record_main(argc - 2, argv + 2);
  if (command == "gui") return window().sandbox_main(argc - 2, argv + 2);
  if (command.empty() || command.ends_with(".json") || command[0] == '-')
    return window().sandbox_main(argc - 1, argv + 1);
#else
  if (command == "converge") return cli::converge_main(argc - 2, argv + 2, {});
  if (command == "matrix") return cli::matrix_main(argc - 2, argv + 2, {});
  if (command.empty() || command == "gui" || command == "shot" || command == "record" ||
      command.ends_with(".json")) {
    std::fputs("lagrange-lab: built without the sandbox (LAGRANGE_BUILD_APP=OFF)\n", stderr);
    return 2;
  }
#endif
  std::fprintf(stderr, "lagrange-lab: unknown command %s\n\n%s", lagrange::quoted(command).c_str(), kUsage);
  return 2;
}

// Messages may quote input: escape what is left of control characters, and keep the line short (a message quotes
// long input cut with an ellipsis; this bounds whatever got through: docs/cli.md, at most kMaxMessage (300) bytes a line after the command).
std::string safe(const char* text) { return lagrange::bounded_message(lagrange::printable(text, 4096)); }

int run_command(int argc, char** argv) {
  using namespace lagrange;
  const std::string command = argc > 1 ? lagrange::printable(argv[1]) : "";
  try {
    return dispatch(argc, argv);
  } catch (const cli::UsageError& e) {
    std::fprintf(stderr, "lagrange-lab %s: %s\n", command.c_str(), safe(e.what()).c_str());
    return cli::kExitBadInput;
  } catch (const io::SameFileError& e) {
    std::fprintf(stderr, "lagrange-lab %s: %s\n", command.c_str(), safe(e.what()).c_str());
    return cli::kExitBadInput;
  } catch (const io::OutputError& e) {
    std::fprintf(stderr, "lagrange-lab %s: %s\n", command.c_str(), safe(e.what()).c_str());
    return cli::kExitOutputFailed;
  } catch (const SceneError& e) {
    std::fprintf(stderr, "lagrange-lab: %s\n", safe(e.what()).c_str());
    return cli::kExitBadInput;
  } catch (const Error& e) {
    std::fprintf(stderr, "lagrange-lab: %s\n", safe(e.what()).c_str());
    return cli::kExitBadInput;
  } catch (const std::bad_alloc&) {
    std::fputs("lagrange-lab: out of memory (a smaller scene may fit; without --allow-large the scene limits keep "
               "scenes well within memory)\n", stderr);
    return cli::kExitOutOfMemory;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "lagrange-lab: error: %s\n", safe(e.what()).c_str());
    return 1;
  }
}

// A standard stream started closed (`>&-`) must stay unusable: otherwise the next file opened (a CSV's temporary
// file) would get its number, and the summary would be written into the CSV. Read-only /dev/null in its place makes
// every write to it fail (EBADF), as a closed stream would.
void hold_closed_standard_streams() {
  for (int fd = 0; fd <= 2; ++fd) {
    if (::fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
    const int held = ::open("/dev/null", O_RDONLY);
    if (held >= 0 && held != fd) {
      ::dup2(held, fd);
      ::close(held);
    }
  }
}

// The heap on transparent huge pages (2 MiB) where the kernel offers them on request (Debian's default, THP
// "madvise"): a scene is built and stepped in memory the program touches for the first time, and each first touch
// of a 4 KiB page is a page fault — on this machine (a VM) the most expensive thing a 100 000-link chain did before
// its first step (26 600 faults, 30 % of its start-up; 900 with huge pages, start-up 0.6 s -> 0.2 s), and its rows'
// passes then miss the TLB less. glibc asks for huge pages only through GLIBC_TUNABLES (glibc.malloc.hugetlb),
// which a program cannot set for itself, so this does what that tunable does for the heap: allocations up to
// 64 MiB come from the heap, the heap grows 256 MiB at a time (address space; only what is touched is memory) and
// does not shrink below 512 MiB of free top, and its first 256 MiB is marked MADV_HUGEPAGE. Where any of it is not
// available (no brk heap, a sanitizer's allocator, THP "never"), nothing changes but the speed.
void heap_on_huge_pages() {
  constexpr std::size_t kGrowth = std::size_t{256} << 20;
  if (mallopt(M_MMAP_THRESHOLD, 64 << 20) != 1 || mallopt(M_TRIM_THRESHOLD, 512 << 20) != 1 ||
      mallopt(M_TOP_PAD, static_cast<int>(kGrowth)) != 1)
    return;
  void* const before = sbrk(0);
  void* volatile grow = std::malloc(kGrowth / 8);  // volatile: a malloc freed unused may be optimized away
  std::free(grow);
  void* const after = sbrk(0);
  if (before == reinterpret_cast<void*>(-1) || after == reinterpret_cast<void*>(-1)) return;
  constexpr std::uintptr_t kHuge = std::uintptr_t{2} << 20;
  const std::uintptr_t start = (reinterpret_cast<std::uintptr_t>(before) + kHuge - 1) & ~(kHuge - 1);
  const std::uintptr_t end = reinterpret_cast<std::uintptr_t>(after);
  if (end > start) madvise(reinterpret_cast<void*>(start), end - start, MADV_HUGEPAGE);  // only a hint
}

}  // namespace

int main(int argc, char** argv) {
  heap_on_huge_pages();
  hold_closed_standard_streams();
  // Standard output into a file or a pipe is held in one 64 KiB buffer: what a command prints (--help, a summary,
  // a table) is then written at its end, where a failure is seen with its reason (`--help > /dev/full`: "No space
  // left on device"), not lost inside a printf that has no way to say it.
  static char stdout_buffer[std::size_t{1} << 16];  // glibc ignores the size when given no buffer of its own
  if (::isatty(STDOUT_FILENO) != 1) std::setvbuf(stdout, stdout_buffer, _IOFBF, sizeof stdout_buffer);
  const int code = run_command(argc, argv);
  // Whatever went to standard output (a summary, a table, --help) must have arrived: a full disk or a closed
  // pipe is a failure, not a success.
  errno = 0;
  const bool flushed = std::fflush(stdout) == 0;
  if (!flushed || std::ferror(stdout)) {
    const int error = errno;
    std::fprintf(stderr, "lagrange-lab: standard output: cannot write: %s\n",
                 error ? std::strerror(error) : "an earlier write to it failed");
    return code == 0 ? lagrange::cli::kExitOutputFailed : code;
  }
  return code;
}
