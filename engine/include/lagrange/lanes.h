// Lanes: copies of one scene stepped together, each with its own solver (or its own Δt or other settings), so two
// numerical methods can be compared on the same system from the same state (the classroom's "projection against
// acceleration"). The command line (`run --lanes`, `shot --lanes`) and the sandbox build their lanes from the same
// spec text and step them through one Simulation (simulation.h) by the same rule (`behind`): a lane with a
// different Δt steps until it reaches the first lane's time, so every lane shows the same moment.
//
// Spec text: lanes separated by commas, each a solver id followed by optional `:KEY=VALUE` settings (the keys of
// `--set`), e.g. "projection,acceleration", "projection,projection:dt=0.004,penalty:stiffness=1e5". A vector value
// keeps its commas: "projection,acceleration:gravity=0,-1.62,0". Lane 1's settings go on top of the scene's (and the
// command line's); every later lane's on top of lane 1's, so lane 1 is the reference the others differ from.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lagrange/settings.h"
#include "lagrange/types.h"
#include "lagrange/world.h"

namespace lagrange {

inline constexpr int kMaxLanes = 4;

struct LaneSpec {
  std::string solver;                                      // a solver id
  std::vector<std::pair<std::string, std::string>> sets;   // KEY=VALUE on top of the scene's settings
  // "acceleration", "projection dt=0.004": the solver's id and the settings, as the command line names the lane
  // (run's summary, shot's and record's reports; CSV files carry the id alone).
  std::string label() const;
  // "Acceleration level", "Lagrange projection dt=0.004": the solver's display name from the solver table and the
  // settings, as a person reads the lane in the window (legends, lane names, panels, tooltips, messages).
  std::string display_name() const;
};

// Parses the spec text; throws Error naming the lane and the problem (an unknown solver, a malformed KEY=VALUE,
// an unknown key or a value out of its range, more than kMaxLanes lanes, no lane at all). `first` numbers the lanes
// in messages (the window parses one lane at a time: lane 3's field says "lane 3").
std::vector<LaneSpec> parse_lanes(std::string_view text, int first = 1);
// The spec text that parses back to these lanes.
std::string lanes_text(std::span<const LaneSpec> lanes);

// The settings of a lane: `base` (the scene's, or what the user set) with the lane's solver and settings on top.
// Throws Error when a value does not fit.
Settings lane_settings(const Settings& base, const LaneSpec& lane);

// The colour of lane `index`: its solver's colour from the solver table. A lane whose solver an earlier lane
// already uses gets that colour lightened (second use) or darkened (third), so no two lanes look alike.
Colour lane_colour(std::span<const LaneSpec> lanes, int index);

// The lockstep rule: `world` is behind `time` while a step of its own would bring it nearer (its time more than half
// a step short).
inline bool behind(const World& world, double time) { return world.time() + 0.5 * world.settings().dt <= time; }

}  // namespace lagrange
