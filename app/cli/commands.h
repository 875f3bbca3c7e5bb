// The headless subcommands of lagrange-lab. Each takes the arguments after its own word and returns the exit code:
// options/exit_codes.h (docs/cli.md lists them).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "lagrange/convergence.h"
#include "options/exit_codes.h"

namespace lagrange::cli {

int run_main(int argc, char** argv);
int solvers_main(int argc, char** argv);
int bench_main(int argc, char** argv);
// RGBA pixels (rows top to bottom) to PNG bytes; false when out of memory. The window's build passes its encoder
// (capture/screenshot.h); without it `matrix --out FILE.png` is refused.
using PngEncoder = std::function<bool(int width, int height, const std::vector<std::uint8_t>& rgba, std::string& png)>;
// `lagrange-lab matrix SCENE [--time T] [--out FILE.csv|FILE.png]`: the constraint matrix of a state (cli/matrix.cpp).
int matrix_main(int argc, char** argv, const PngEncoder& encode_png);
// A convergence study's log-log picture (ui/convergence_plot.h) as PNG bytes, titled; "" or why it could not be
// drawn. The window's build passes one that draws as `shot` does (app::render_convergence_plot); without it
// `converge --plot` is refused.
using PlotRenderer =
    std::function<std::string(const ConvergenceReport& report, const std::string& title, std::string& png)>;
// `lagrange-lab converge SCENE --until T [--solvers A,B] [--levels N] [--csv FILE] [--plot FILE.png]`: fitted orders
// (cli/converge.cpp).
int converge_main(int argc, char** argv, const PlotRenderer& render_plot);

}  // namespace lagrange::cli

namespace lagrange::app {

// The headless commands that draw, with the window's drawing in a hidden window (cli/shot.cpp, cli/record.cpp,
// sharing cli/render_setup.h); built with the sandbox (LAGRANGE_BUILD_APP). Arguments as sandbox_main's
// (sandbox/sandbox.h): those after the command word.
// `lagrange-lab shot SCENE [--solver NAME] [--steps N | --time S] [--size WxH] [--out FILE.png]`.
int shot_main(int argc, char** argv);
// `lagrange-lab record SCENE --duration S [--fps N] [--out FILE.mp4|FILE.gif]` (and shot's options): a video.
int record_main(int argc, char** argv);
// converge --plot's picture (cli/convergence_figure.cpp): cli::PlotRenderer, drawn in a hidden sandbox window.
std::string render_convergence_plot(const ConvergenceReport& report, const std::string& title, std::string& png);

}  // namespace lagrange::app
