// The window's module, lagrange-window.so: the sandbox window and the commands that draw (shot, record, converge's
// and matrix's pictures), with SDL2, OpenGL and Dear ImGui, built beside the program and loaded with dlopen by
// main.cpp only for those commands (capture/module_file.h). The headless commands (run, bench, solvers, converge,
// matrix) then start without SDL2's ~50 shared libraries: `run` of a short scene started in 17 ms of CPU, now in 5.5.
//
// Both sides are built by one build with one compiler and standard library, so the table passes C++ types. The
// module carries its own copy of the engine and of the safe writer: exceptions cross back to main.cpp's handlers
// (matched by type name), and each drawing command installs the module's own interrupt cleanup for the files it
// writes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "lagrange/convergence.h"

namespace lagrange::app {

struct WindowModule {
  int (*sandbox_main)(int argc, char** argv);  // sandbox/sandbox.h
  int (*shot_main)(int argc, char** argv);     // cli/commands.h
  int (*record_main)(int argc, char** argv);
  // cli::PlotRenderer and cli::PngEncoder (cli/commands.h)
  std::string (*render_convergence_plot)(const ConvergenceReport& report, const std::string& title, std::string& png);
  bool (*encode_png)(int width, int height, const std::vector<std::uint8_t>& rgba, std::string& png);
};

// The module's one exported symbol: a function returning its table.
inline constexpr const char* kWindowModuleEntry = "lagrange_window_module";
using WindowModuleEntry = const WindowModule* (*)();

}  // namespace lagrange::app
