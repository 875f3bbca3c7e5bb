#include "options/lanes_option.h"

#include <string>

#include "lagrange/text.h"
#include "options/args.h"

namespace lagrange::app {

std::vector<LaneSpec> parse_lanes_option(std::string_view text) {
  std::vector<LaneSpec> lanes;
  try {
    lanes = parse_lanes(text);
  } catch (const Error& error) {
    throw cli::UsageError(std::string("--lanes: ") + error.what());
  }
  if (lanes.size() < 2)
    throw cli::UsageError("--lanes: two to " + std::to_string(kMaxLanes) + " lanes, got one (" +
                          lagrange::quoted(text) + ")");
  return lanes;
}

LaneView parse_lane_view(std::string_view text) {
  if (text == "overlay") return LaneView::Overlay;
  if (text == "split") return LaneView::Split;
  throw cli::UsageError("--lane-view needs overlay or split, got " + lagrange::quoted(text));
}

}  // namespace lagrange::app
