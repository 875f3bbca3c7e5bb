// `converge --plot`'s picture: the convergence study's log–log plot (ui/convergence_plot.h) drawn by the window's
// renderer in a hidden sandbox window (SDL's offscreen driver, as `shot` draws), read back and encoded as PNG.
#include <cstdlib>
#include <exception>
#include <memory>
#include <new>

#include "capture/screenshot.h"
#include "cli/commands.h"
#include "sandbox/sandbox_app.h"

namespace lagrange::app {

namespace {
// A picture for a slide or a handout: 1600 × 1000 pixels at 1.5 times the panels' font, dark on white.
constexpr int kFigureWidth = 1600, kFigureHeight = 1000;
constexpr double kFigureScale = 1.5;
}  // namespace

std::string render_convergence_plot(const ConvergenceReport& report, const std::string& title, std::string& png) {
  setenv("SDL_VIDEODRIVER", "offscreen", 0);  // no display needed; respect an explicit choice
  SandboxOptions options;
  options.width = kFigureWidth;
  options.height = kFigureHeight;
  options.hidden = true;
  options.vsync = false;
  options.appearance = {Theme::Light, kFigureScale};
  std::unique_ptr<Sandbox> sandbox;
  try {
    sandbox = std::make_unique<Sandbox>(options);
  } catch (const std::bad_alloc&) {
    throw;
  } catch (const std::exception& error) {
    return std::string("no window to draw in: ") + error.what();
  }
  SandboxState& state = sandbox->state();
  state.convergence.figure = std::make_shared<const ConvergenceReport>(report);
  state.convergence.figure_title = title;
  for (int i = 0; i < 3; ++i) sandbox->frame(0.0);  // as `shot` settles: fonts and windows measured
  sandbox->render(true);
  if (!encode_png(sandbox->read_pixels(), png)) throw std::bad_alloc();
  return "";
}

}  // namespace lagrange::app
