#include "lagrange/lanes.h"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "lagrange/model.h"
#include "lagrange/solver.h"
#include "lagrange/text.h"

namespace lagrange {
namespace {

// A piece between commas that continues a vector value ("0,-1.62,0") rather than starting a lane.
bool continues_value(std::string_view piece) {
  return !piece.empty() && (std::isdigit(static_cast<unsigned char>(piece.front())) || piece.front() == '-' ||
                            piece.front() == '+' || piece.front() == '.');
}

std::vector<std::string> split(std::string_view text, char separator) {
  std::vector<std::string> pieces;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = text.find(separator, start);
    pieces.emplace_back(text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return pieces;
}

}  // namespace

std::string LaneSpec::label() const {
  std::string text = solver;
  for (const auto& [key, value] : sets) text += " " + key + "=" + value;
  return text;
}

std::string LaneSpec::display_name() const {
  const SolverInfo* info = find_solver(solver);
  std::string text = info ? info->name : solver;
  for (const auto& [key, value] : sets) text += " " + key + "=" + value;
  return text;
}

std::vector<LaneSpec> parse_lanes(std::string_view text, int first) {
  std::vector<std::string> lanes;
  for (std::string& piece : split(text, ',')) {
    if (!lanes.empty() && continues_value(piece)) lanes.back() += "," + piece;
    else lanes.push_back(std::move(piece));
  }
  std::vector<LaneSpec> specs;
  for (std::size_t k = 0; k < lanes.size(); ++k) {
    const std::string where = "lane " + std::to_string(static_cast<int>(k) + first) + " (" + quoted(lanes[k]) + ")";
    const std::vector<std::string> parts = split(lanes[k], ':');
    LaneSpec spec;
    spec.solver = parts[0];
    if (spec.solver.empty()) throw Error(where + ": empty; expected a solver id (" + solver_ids() + ")");
    if (!find_solver(spec.solver))
      throw Error(where + ": unknown solver " + quoted(spec.solver) + "; known: " + solver_ids());
    Settings probe;
    for (std::size_t i = 1; i < parts.size(); ++i) {
      const std::size_t eq = parts[i].find('=');
      if (eq == std::string::npos || eq == 0)
        throw Error(where + ": expected KEY=VALUE after ':', got " + quoted(parts[i]));
      std::string key = parts[i].substr(0, eq), value = parts[i].substr(eq + 1);
      if (key == "solver") throw Error(where + ": the solver is the lane's first word, not a setting");
      if (std::string problem = set_setting(probe, key, value); !problem.empty()) throw Error(where + ": " + problem);
      spec.sets.emplace_back(std::move(key), std::move(value));
    }
    specs.push_back(std::move(spec));
  }
  if (specs.size() > static_cast<std::size_t>(kMaxLanes))
    throw Error("at most " + std::to_string(kMaxLanes) + " lanes, got " + std::to_string(specs.size()));
  return specs;
}

std::string lanes_text(std::span<const LaneSpec> lanes) {
  std::string text;
  for (const LaneSpec& lane : lanes) {
    if (!text.empty()) text += ',';
    text += lane.solver;
    for (const auto& [key, value] : lane.sets) text += ":" + key + "=" + value;
  }
  return text;
}

Settings lane_settings(const Settings& base, const LaneSpec& lane) {
  Settings settings = base;
  if (std::string problem = set_setting(settings, "solver", lane.solver); !problem.empty()) throw Error(problem);
  for (const auto& [key, value] : lane.sets)
    if (std::string problem = set_setting(settings, key, value); !problem.empty()) throw Error(problem);
  return settings;
}

Colour lane_colour(std::span<const LaneSpec> lanes, int index) {
  const LaneSpec& lane = lanes[static_cast<std::size_t>(index)];
  const SolverInfo* info = find_solver(lane.solver);
  Colour colour = info ? info->colour : Colour{};
  int earlier = 0;
  for (int k = 0; k < index; ++k) earlier += lanes[static_cast<std::size_t>(k)].solver == lane.solver ? 1 : 0;
  // Lighter toward white for the second use, darker for the third, lighter still for the fourth.
  const float mix[] = {0.0f, 0.45f, -0.4f, 0.7f};
  const float t = mix[std::min(earlier, 3)];
  for (float* c : {&colour.r, &colour.g, &colour.b}) *c = t >= 0.0f ? *c + (1.0f - *c) * t : *c * (1.0f + t);
  return colour;
}

}  // namespace lagrange
