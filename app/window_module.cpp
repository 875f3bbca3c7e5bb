// lagrange-window.so's entry (window_module.h): the sandbox and the drawing commands, as a table for main.cpp.
#include "window_module.h"

#include "capture/output_file.h"
#include "capture/screenshot.h"
#include "cli/commands.h"
#include "sandbox/sandbox.h"

namespace {

using namespace lagrange;

// shot and record write files through this module's copy of the safe writer: its interrupt cleanup must be the one
// installed (main.cpp installed the program's, which knows nothing of them).
int shot(int argc, char** argv) {
  io::install_interrupt_cleanup();
  return app::shot_main(argc, argv);
}

int record(int argc, char** argv) {
  io::install_interrupt_cleanup();
  return app::record_main(argc, argv);
}

bool encode(int width, int height, const std::vector<std::uint8_t>& rgba, std::string& png) {
  return app::encode_png(app::Image{width, height, rgba}, png);
}

const app::WindowModule kModule = {app::sandbox_main, shot, record, app::render_convergence_plot, encode};

}  // namespace

extern "C" __attribute__((visibility("default"))) const lagrange::app::WindowModule* lagrange_window_module() {
  return &kModule;
}
