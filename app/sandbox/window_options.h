// The window's command line, one parser for both builds: the desktop window reads it from argv (sandbox_main.cpp),
// the page from its URL (index.html turns ?theme=light&paused=1 into "--theme=light --paused"; web_main.cpp).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lagrange/lanes.h"
#include "options/args.h"
#include "options/lanes_option.h"
#include "sandbox/sandbox_app.h"
#include "window/theme.h"

namespace lagrange::app {

struct WindowCommandLine {
  std::string scene;                     // a scene file ("" = assets/double_pendulum.json)
  std::string solver;                    // --solver ID
  std::optional<std::string> lanes_text;  // --lanes L1,L2[,..]: the comparison lanes, as `run`, `shot` take them
  std::vector<LaneSpec> lanes;            // parsed from lanes_text (2..kMaxLanes)
  std::optional<LaneView> lane_view;      // --lane-view overlay|split
  int width = 1280, height = 720;         // --size WxH (the desktop window; the page fills the browser's)
  bool vsync = true;                      // --no-vsync clears it
  bool paused = false, measure = false, report = false;
  long quit_after = -1;                   // --quit-after N
  std::optional<double> ui_scale;         // --ui-scale S
  std::optional<Theme> theme;             // --theme dark|light
  std::optional<int> msaa;                // --msaa 0|2|4|8: the scene's samples (else the sandbox's own choice)
  bool help = false, list_keys = false;   // -h / --help, --list-keys: the caller prints and stops reading
};

// Reads the next item of the command line (an option with its value, or the scene) into `line`. Throws
// cli::UsageError with the message the window prints before its usage: a bad value, an unknown option, a second
// scene. After -h / --help or --list-keys (line.help / line.list_keys set) the caller stops reading.
void read_window_option(cli::Args& args, WindowCommandLine& line);
// What the options say together, once all are read: --solver and --lanes exclude each other. Throws cli::UsageError.
void check_window_command_line(const WindowCommandLine& line);

// Opens the command line's scene in `sandbox` (the default scene when none was named, or when it failed to open: the
// error stays on screen over it), then applies the solver or the lanes, the lane view, --paused and --measure.
// Every problem is printed to stderr as "lagrange-lab: ..." and shown in the window; the returned list holds them.
std::vector<std::string> start_window(Sandbox& sandbox, const WindowCommandLine& line);

}  // namespace lagrange::app
