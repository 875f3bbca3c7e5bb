// How the window shows a solver: by the solver table's display name wherever a person reads it (plot legends, lane
// labels, the Diagnostics' lane rows and their tooltips; ids are for the command line and CSV columns), and in its
// table colour, which must stand apart from every colour a scene gives its particles, from the other solvers' and
// from both themes' backgrounds (issue 21: a stiff-springs lane in blue over the double pendulum's blue bob, and
// plots that said "penalty" where the panel said "Stiff springs").
#include <imgui.h>

#include <map>

#include "app_fixture.h"
#include "ui/layout_check.h"
#include "lagrange/lanes.h"
#include "lagrange/scene.h"
#include "lagrange/solver.h"

namespace lagrange::app::test {
namespace {

constexpr double kDt = 1.0 / 60.0;

// CIELAB (D65 white) of an sRGB colour, by the sRGB standard's transfer curve and matrix.
glm::dvec3 lab(glm::dvec3 srgb) {
  const auto linear = [](double c) { return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4); };
  const double r = linear(srgb.r), g = linear(srgb.g), b = linear(srgb.b);
  const double x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
  const double y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  const double z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
  const auto f = [](double t) { return t > 216.0 / 24389.0 ? std::cbrt(t) : (24389.0 / 27.0 * t + 16.0) / 116.0; };
  return {116.0 * f(y) - 16.0, 500.0 * (f(x) - f(y)), 200.0 * (f(y) - f(z))};
}

// CIE 1976 colour difference: 2.3 is about the smallest difference an eye sees side by side; 20 is two colours a
// class names differently from the back row.
double delta_e(glm::dvec3 a, glm::dvec3 b) { return glm::length(lab(a) - lab(b)); }

constexpr double kMinDeltaE = 20.0;

struct Named {
  std::string what;
  glm::dvec3 colour;
};

// Every run of text the last frame drew, read back from the draw lists (ui/layout_check.h).
std::vector<std::string> drawn_text() {
  REQUIRE(ImGui::GetDrawData() != nullptr);
  std::vector<std::string> texts;
  for (const DrawnLine& line : drawn_lines(drawn_glyphs())) texts.push_back(line.text);
  return texts;
}

// A text that names a solver by its id where a person reads it: "acceleration ...", after a lane's number (and its
// colour's dot) if it has one.
bool names_by_id(const std::string& text) {
  std::string_view rest = text;
  const bool numbered = rest.size() > 1 && rest[0] >= '1' && rest[0] <= '9' && rest[1] == ' ';
  if (numbered) rest.remove_prefix(std::min(rest.find_first_not_of(' ', 1), rest.size()));
  if (rest.starts_with("\xe2\x97\x8f ")) rest.remove_prefix(4);  // ●
  for (const SolverInfo& info : solver_table()) {
    const std::string_view id = info.id;
    if (!rest.starts_with(id)) continue;
    const std::string_view after = rest.substr(id.size());
    if (after.empty() || after[0] == ':') return true;
    if (after[0] != ' ') continue;
    const std::string_view word = after.substr(1, after.find(' ', 1) - 1);
    if (numbered || word.find('=') != std::string_view::npos) return true;
  }
  return false;
}

bool drawn(const std::vector<std::string>& texts, const std::string& wanted) {
  return std::find(texts.begin(), texts.end(), wanted) != texts.end();
}

}  // namespace

TEST_CASE("each solver's colour, and each lane's lighter and darker one, stands apart from every particle colour") {
  // Every colour a particle can have on screen: the shipped scenes' own and the default palette's (a scene of eight
  // particles without colours gets all eight).
  std::vector<Named> particles;
  for (const auto& file : shipped_scenes()) {
    const Scene scene = load_scene_file(file);
    for (std::size_t i = 0; i < scene.particles.size(); ++i)
      particles.push_back({file.filename().string() + " particle " + std::to_string(i),
                           glm::dvec3(particle_colour(scene, static_cast<int>(i)))});
  }
  Scene plain;
  plain.particles.resize(8);
  for (int i = 0; i < 8; ++i)
    particles.push_back({"default particle colour " + std::to_string(i), glm::dvec3(particle_colour(plain, i))});
  // Each solver's colours as lanes show them: its own for the first lane that uses it, and lane_colour()'s variants
  // for a second, third and fourth lane of the same solver.
  std::vector<std::pair<std::string, std::vector<Named>>> solvers;
  for (const SolverInfo& info : solver_table()) {
    const std::vector<LaneSpec> same(kMaxLanes, LaneSpec{info.id, {}});
    std::vector<Named> lanes;
    for (int k = 0; k < kMaxLanes; ++k) {
      const Colour c = lane_colour(same, k);
      lanes.push_back({std::string(info.name) + " lane use " + std::to_string(k + 1), glm::dvec3(c.r, c.g, c.b)});
    }
    solvers.emplace_back(info.id, std::move(lanes));
  }
  const std::vector<Named> backgrounds{{"dark background", glm::dvec3(palette(Theme::Dark).background)},
                                       {"light background", glm::dvec3(palette(Theme::Light).background)}};
  for (const auto& [id, lanes] : solvers) {
    for (const Named& lane : lanes) {
      CAPTURE(lane.what);
      for (const Named& p : particles) {
        CAPTURE(p.what);
        CHECK(delta_e(lane.colour, p.colour) >= kMinDeltaE);
      }
      for (const auto& [other_id, others] : solvers) {
        if (other_id == id) continue;
        for (const Named& other : others) {
          CAPTURE(other.what);
          CHECK(delta_e(lane.colour, other.colour) >= kMinDeltaE);
        }
      }
      for (const Named& background : backgrounds) {  // seen in both themes
        CAPTURE(background.what);
        CHECK(delta_e(lane.colour, background.colour) >= kMinDeltaE);
      }
    }
  }
}

TEST_CASE("the window names lanes by the solver table's display names: legends, lane labels, rows and tooltips") {
  Sandbox sandbox(test_options(1280, 720));
  REQUIRE(sandbox.load_scene(asset("double_pendulum.json")) == "");
  SandboxState& state = sandbox.state();
  Command command;
  command.kind = Command::Kind::AddLane;
  command.path = "penalty:stiffness=1e5";
  state.commands.push_back(command);
  run_frames(sandbox, 30, kDt);
  REQUIRE(state.lane_count() == 2);
  const std::vector<LaneSpec> specs = state.lane_specs();
  CHECK(specs[1].display_name() == "Stiff springs stiffness=1e5");
  CHECK(specs[1].label() == "penalty stiffness=1e5");  // the command line's words stay the ids
  const std::vector<std::string> texts = drawn_text();
  REQUIRE(drawn(texts, "Total energy of each lane"));  // the reader finds what ImGui drew
  // The plots' legends and the lane labels over the scene.
  CHECK(drawn(texts, "1 Lagrange projection"));
  CHECK(drawn(texts, "2 Stiff springs stiffness=1e5"));
  // The top line names the overlaid lanes, each after its number and its colour's dot (1 ● Lagrange projection).
  const auto shown = [&](const std::string& name) {
    return std::any_of(texts.begin(), texts.end(), [&](const std::string& t) { return t.find(name) != t.npos; });
  };
  CHECK(shown("1 \xe2\x97\x8f Lagrange projection"));
  CHECK(shown("2 \xe2\x97\x8f Stiff springs stiffness=1e5"));
  // No id where a person reads: no text that starts with an id word, after a lane number if it has one.
  for (const std::string& text : texts) {
    CAPTURE(text);
    CHECK_FALSE(names_by_id(text));
  }
  // The Diagnostics' row of lane 2, and its tooltip.
  const auto row = state.widget_rects.find("diagnostics: lane 2");
  REQUIRE(row != state.widget_rects.end());
  const glm::dvec2 over(0.5 * (row->second[0] + row->second[2]), 0.5 * (row->second[1] + row->second[3]));
  push_mouse_motion(over, over, false);
  run_frames(sandbox, 3, kDt);
  const std::vector<std::string> hovered = drawn_text();
  const bool tooltip = std::any_of(hovered.begin(), hovered.end(), [](const std::string& text) {
    return text.starts_with("Stiff springs stiffness=1e5: energy drift");
  });
  CHECK(tooltip);
  for (const std::string& text : hovered) {
    CAPTURE(text);
    CHECK_FALSE(names_by_id(text));
  }
}

}  // namespace lagrange::app::test
