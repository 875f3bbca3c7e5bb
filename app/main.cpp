// lagrange-lab: the sandbox window and the headless commands.
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

#include "cli/args.h"
#include "cli/commands.h"
#include "lagrange/scene.h"
#ifdef LAGRANGE_HAVE_SANDBOX
#include "sandbox/sandbox.h"
#endif

namespace {

constexpr const char* kUsage = R"(Lagrange Lab: particles, rods and pins; see what a Lagrange multiplier does.

usage: lagrange-lab [SCENE.json]            open the sandbox window (default scene: double pendulum)
       lagrange-lab gui [SCENE.json] ...    the same
       lagrange-lab run SCENE [options]     simulate with no window; summary and CSV
       lagrange-lab shot SCENE [options]    render a PNG with no display
       lagrange-lab solvers                 list the constraint solvers
       lagrange-lab bench [options]         benchmark workloads x solvers
       lagrange-lab COMMAND --help          options of a command
)";

int dispatch(int argc, char** argv) {
  using namespace lagrange;
  const std::string command = argc > 1 ? argv[1] : "";
  if (command == "--help" || command == "-h" || command == "help") {
    std::fputs(kUsage, stdout);
    return 0;
  }
  if (command == "run") return cli::run_main(argc - 2, argv + 2);
  if (command == "solvers") return cli::solvers_main(argc - 2, argv + 2);
  if (command == "bench") return cli::bench_main(argc - 2, argv + 2);
#ifdef LAGRANGE_HAVE_SANDBOX
  if (command == "shot") return app::shot_main(argc - 2, argv + 2);
  if (command == "gui") return app::sandbox_main(argc - 2, argv + 2);
  if (command.empty() || command.ends_with(".json") || command[0] == '-')
    return app::sandbox_main(argc - 1, argv + 1);
#else
  if (command.empty() || command == "gui" || command == "shot" || command.ends_with(".json")) {
    std::fputs("lagrange-lab: built without the sandbox (LAGRANGE_BUILD_APP=OFF)\n", stderr);
    return 2;
  }
#endif
  std::fprintf(stderr, "lagrange-lab: unknown command '%s'\n\n%s", command.c_str(), kUsage);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  const char* command = argc > 1 ? argv[1] : "";
  try {
    return dispatch(argc, argv);
  } catch (const lagrange::cli::UsageError& e) {
    std::fprintf(stderr, "lagrange-lab %s: %s\n", command, e.what());
    return 2;
  } catch (const lagrange::SceneError& e) {
    std::fprintf(stderr, "lagrange-lab: %s\n", e.what());
    return 2;
  } catch (const lagrange::Error& e) {
    std::fprintf(stderr, "lagrange-lab: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "lagrange-lab: error: %s\n", e.what());
    return 1;
  }
}
