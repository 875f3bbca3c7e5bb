// The headless subcommands of lagrange-lab. Each takes the arguments after its own word and returns the exit code:
// options/exit_codes.h (docs/cli.md lists them).
#pragma once

#include "options/exit_codes.h"

namespace lagrange::cli {

int run_main(int argc, char** argv);
int solvers_main(int argc, char** argv);
int bench_main(int argc, char** argv);

}  // namespace lagrange::cli

namespace lagrange::app {

// The headless commands that draw, with the window's drawing in a hidden window (cli/shot.cpp, cli/record.cpp,
// sharing cli/render_setup.h); built with the sandbox (LAGRANGE_BUILD_APP). Arguments as sandbox_main's
// (sandbox/sandbox.h): those after the command word.
// `lagrange-lab shot SCENE [--solver NAME] [--steps N | --time S] [--size WxH] [--out FILE.png]`.
int shot_main(int argc, char** argv);
// `lagrange-lab record SCENE --duration S [--fps N] [--out FILE.mp4|FILE.gif]` (and shot's options): a video.
int record_main(int argc, char** argv);

}  // namespace lagrange::app
