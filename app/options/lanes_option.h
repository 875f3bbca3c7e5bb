// The comparison lanes' options, as the window (sandbox/window_options.h), `shot` and `record` (cli/render_setup.h)
// read them: --lanes L1,L2[,..] (the engine's lane specs, lagrange/lanes.h) and --lane-view overlay|split.
#pragma once

#include <string_view>
#include <vector>

#include "lagrange/lanes.h"

namespace lagrange::app {

// How lanes beyond the first are shown: as translucent ghosts over the first, or each in its own view side by side.
enum class LaneView { Overlay, Split };

// The values of --lanes (2..kMaxLanes lanes, as `run --lanes` takes them) and --lane-view (overlay or split), as the
// window, `shot` and `record` read them. Throw cli::UsageError naming the option and the problem.
std::vector<LaneSpec> parse_lanes_option(std::string_view text);
LaneView parse_lane_view(std::string_view text);

}  // namespace lagrange::app
