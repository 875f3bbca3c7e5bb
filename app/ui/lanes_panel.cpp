// Lanes and drift you can see: the control panel's "Lanes" section (add, remove and configure lanes, overlay or side
// by side, length-error exaggeration), the lane names over the scene, and the rod length labels.
#include <imgui.h>

#include <algorithm>
#include <array>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "lagrange/lanes.h"
#include "ui/layout_check.h"
#include "ui/ui.h"
#include "view/scene_draw.h"
#include "window/theme.h"

namespace lagrange::app {
namespace {

constexpr int kExaggerations[] = {1, 10, 100, 1000};

ImVec4 to_imgui(const Colour& c, float alpha = 1.0f) { return ImVec4(c.r, c.g, c.b, alpha); }

// Lane k's solver chooser: lane 1 switches the scene's solver (as the Solver section does), a later lane restarts
// from lane 1's state with the new solver and its own settings kept.
void lane_solver_combo(SandboxState& state, int k, const LaneSpec& spec) {
  const SolverInfo* current = find_solver(spec.solver);
  const float width =
      std::max(ImGui::GetContentRegionAvail().x - (k > 1 ? ImGui::GetFrameHeight() + 8.0f : 0.0f), 60.0f);
  const std::string id = "##lane solver " + std::to_string(k), name = "lane " + std::to_string(k) + " solver";
  std::string preview;
  const bool open = begin_fitted_combo(id.c_str(), current ? current->name : spec.solver, width, &preview);
  state.widget_texts[name] = {preview};
  if (!open) remember_rect(state, name);
  if (open) {
    for (const SolverInfo& info : solver_table()) {
      const bool chosen = ImGui::Selectable(info.name, spec.solver == info.id);
      remember_rect(state, name + " " + info.id);
      if (!chosen || spec.solver == info.id) continue;
      if (k == 1) {
        Settings settings = state.edit;
        settings.solver = info.id;
        state.commands.push_back(Command::apply_settings(settings));
      } else {
        LaneSpec next = spec;
        next.solver = info.id;
        Command command;
        command.kind = Command::Kind::SetLane;
        command.index = k;
        command.path = lanes_text(std::span<const LaneSpec>(&next, 1));
        state.commands.push_back(command);
      }
    }
    ImGui::EndCombo();
  }
}

}  // namespace

int next_exaggeration(int current) {
  for (std::size_t i = 0; i + 1 < std::size(kExaggerations); ++i)
    if (current == kExaggerations[i]) return kExaggerations[i + 1];
  return kExaggerations[0];
}

std::vector<std::array<int, 4>> lane_viewports(const SandboxState& state) {
  const std::array<int, 4> whole = scene_viewport(state);
  const int n = static_cast<int>(state.lane_count());
  if (n < 2 || state.lane_view != LaneView::Split) return {whole};
  // Two lanes next to each other, unless one above the other draws the scene's reach more than a quarter larger (a
  // tall window, a wide scene); three or four in a 2 × 2 grid. 2 px between.
  int columns = 2, rows = 2;
  if (n == 2) {
    glm::dvec3 lo, hi;
    reach_bounds(state.world(), lo, hi);
    const double aspect = state.world().dimension() == 2 ? std::max(hi.x - lo.x, 1e-6) / std::max(hi.y - lo.y, 1e-6)
                                                         : 1.0;
    const double beside = std::min<double>(whole[3], 0.5 * whole[2] / aspect);
    const double stacked = std::min<double>(0.5 * whole[3], whole[2] / aspect);
    columns = stacked > 1.25 * beside ? 1 : 2;
    rows = 3 - columns;
  }
  const int gap = 2;
  const int w = std::max((whole[2] - (columns - 1) * gap) / columns, 1), h = std::max((whole[3] - (rows - 1) * gap) / rows, 1);
  std::vector<std::array<int, 4>> views;
  for (int k = 0; k < n; ++k)
    views.push_back({whole[0] + (k % columns) * (w + gap), whole[1] + (k / columns) * (h + gap), w, h});
  return views;
}

void lanes_section(SandboxState& state) {
  if (!ImGui::CollapsingHeader("Lanes: compare solvers", ImGuiTreeNodeFlags_DefaultOpen)) return;
  remember_rect(state, "lanes header");
  const std::vector<LaneSpec> specs = state.lane_specs();
  for (std::size_t i = 0; i < specs.size(); ++i) {
    const int k = static_cast<int>(i) + 1;
    ImGui::PushID(k);
    ImGui::ColorButton("##colour", to_imgui(lane_colour(specs, static_cast<int>(i))), ImGuiColorEditFlags_NoTooltip,
                       ImVec2(ImGui::GetFrameHeight(), ImGui::GetFrameHeight()));
    ImGui::SameLine();
    ImGui::Text("%d", k);
    ImGui::SameLine();
    lane_solver_combo(state, k, specs[i]);
    if (k > 1) {
      ImGui::SameLine();
      if (ImGui::Button("x", ImVec2(ImGui::GetFrameHeight(), 0))) {
        Command command;
        command.kind = Command::Kind::RemoveLane;
        command.index = k;
        state.commands.push_back(command);
      }
      remember_rect(state, "lane " + std::to_string(k) + " remove");
      if (ImGui::IsItemHovered()) tooltip("Remove lane %d (Ctrl+L removes the last)", k);
      const SimLane& lane = state.sim.lane(static_cast<std::size_t>(i));
      // Its own settings on top of lane 1's, KEY=VALUE separated by spaces; Enter restarts the lane with them.
      LaneDisplay& display = state.displays[static_cast<std::size_t>(i)];
      ImGui::SetNextItemWidth(-FLT_MIN);
      if (ImGui::InputTextWithHint("##settings", "own settings, e.g. dt=0.004 substeps=2", display.settings_field.data(),
                                   display.settings_field.size(), ImGuiInputTextFlags_EnterReturnsTrue)) {
        std::string text = lane.spec.solver;
        std::string field = display.settings_field.data();
        for (char& c : field)
          if (c == '\t') c = ' ';
        for (std::size_t at = 0; at < field.size();) {
          const std::size_t end = std::min(field.find(' ', at), field.size());
          if (end > at) text += ":" + field.substr(at, end - at);
          at = end + 1;
        }
        Command command;
        command.kind = Command::Kind::SetLane;
        command.index = k;
        command.path = text;
        state.commands.push_back(command);
      }
      remember_rect(state, "lane " + std::to_string(k) + " settings");
      if (ImGui::IsItemHovered())
        tooltip("Lane %d's own settings on top of lane 1's (the keys of --set: dt, substeps, stiffness, "
                          "baumgarte, ...). Enter restarts the lane from lane 1's state with them.", k);
      if (!lane.running()) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.45f, 0.4f, 1.0f));
        words("   " + lane.stopped);
        ImGui::PopStyleColor();
      }
    }
    ImGui::PopID();
  }
  ImGui::BeginDisabled(specs.size() >= static_cast<std::size_t>(kMaxLanes));
  if (ImGui::Button("+ lane (L)")) state.push(Command::Kind::AddLane);
  ImGui::EndDisabled();
  remember_rect(state, "add lane");
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    tooltip("A copy of the scene as it is now, with the next solver, stepped alongside (up to %d lanes)",
                      kMaxLanes);
  // Each radio button on the line only where it fits (at 2x in a 1280x720 window "side by side" ran off the panel).
  same_line_if_fits(toggle_width("overlaid"));
  if (ImGui::RadioButton("overlaid", state.lane_view == LaneView::Overlay)) state.lane_view = LaneView::Overlay;
  remember_rect(state, "lanes overlaid");
  same_line_if_fits(toggle_width("side by side"));
  if (ImGui::RadioButton("side by side", state.lane_view == LaneView::Split)) state.lane_view = LaneView::Split;
  remember_rect(state, "lanes side by side");
  if (ImGui::IsItemHovered()) tooltip("V switches");
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  words("Every lane is stepped together from the same state; a drag moves the same particle in each. R "
                     "restarts them all.");
  ImGui::PopStyleColor();

  ImGui::TextUnformatted("Rod length errors drawn");
  for (int factor : kExaggerations) {
    char label[16];
    std::snprintf(label, sizeof label, "x%d", factor);
    if (factor != kExaggerations[0]) same_line_if_fits(toggle_width(label));  // at 2x "x1000" went past the edge
    if (ImGui::RadioButton(label, state.view.error_exaggeration == factor)) state.view.error_exaggeration = factor;
    remember_rect(state, std::string("exaggerate ") + label);
    if (ImGui::IsItemHovered())
      tooltip("Each rod is drawn with its length error |d| - L times %d, about its middle: a rod that "
                        "grew pokes out of its beads, one that shrank leaves a gap (X cycles)", factor);
  }
}

// Over the scene: the rod length labels. (The lanes' names are overlays of their own: scene_overlays.cpp.)
void draw_lane_overlay(SandboxState& state) {
  ImDrawList* draw = ImGui::GetBackgroundDrawList();
  const double ratio = std::max(state.pixel_ratio, 1e-6);
  const auto views = lane_viewports(state);
  const std::vector<LaneSpec> specs = state.lane_specs();
  // Text over the scene sits on the panels' own background, a little see-through; on the light theme the lane
  // colours are darkened to read on white.
  ImVec4 panel = ImGui::GetStyleColorVec4(ImGuiCol_WindowBg);
  panel.w = 0.85f;
  const ImU32 backdrop = ImGui::GetColorU32(panel);
  const bool light = state.appearance.theme == Theme::Light;
  const auto text_colour = [light](const Colour& c) {
    const float k = light ? 0.7f : 1.0f;
    return ImVec4(c.r * k, c.g * k, c.b * k, 1.0f);
  };
  // The labels of the last frame are not this one's (the layout check reads those drawn).
  std::erase_if(state.widget_rects, [](const auto& entry) { return entry.first.starts_with("length label "); });
  if (!state.view.length_labels) return;
  // What a label must keep off: every particle drawn in its view (UI units: centre and radius), the texts over the
  // scene (the top line, the legend, a message, the lanes' names) and the labels placed before it.
  using Box = std::array<float, 4>;
  std::vector<Box> taken;
  for (const auto& [name, rect] : state.widget_rects)
    if (over_scene(name)) taken.push_back(rect);
  const std::vector<double> radii =
      display_radii(state.scene, state.world(), state.view.size_by_mass, state.bead_radius);
  struct Disc {
    double x, y, r;
  };
  std::vector<std::vector<Disc>> discs(views.size());
  for (std::size_t k = 0; k < specs.size(); ++k) {
    const std::size_t v = std::min(k, views.size() - 1);
    Camera camera = state.view_camera(k);
    camera.set_viewport(views[v][0], views[v][1], views[v][2], views[v][3]);
    const World& world = state.lane_world(k);
    // Widened by the way a particle goes in one step: the frame is drawn before its steps are taken.
    const double dt = world.settings().dt * std::max(state.time_scale, 1.0);
    for (std::size_t i = 0; i < world.particle_count() && i < radii.size(); ++i) {
      const Vec3 p = world.state().position[i];
      const double reach = radii[i] + dt * glm::length(world.state().velocity[i]);
      if (const auto at = camera.project(p))
        discs[v].push_back({at->x / ratio, at->y / ratio, reach * camera.pixels_per_unit(p) / ratio + 1.0});
    }
  }
  const auto clear = [&](const Box& box, std::size_t v) {
    for (const Box& t : taken)
      if (std::min(box[2], t[2]) > std::max(box[0], t[0]) && std::min(box[3], t[3]) > std::max(box[1], t[1])) return false;
    for (const Disc& d : discs[v]) {
      const double cx = std::clamp(d.x, static_cast<double>(box[0]), static_cast<double>(box[2]));
      const double cy = std::clamp(d.y, static_cast<double>(box[1]), static_cast<double>(box[3]));
      if (std::hypot(d.x - cx, d.y - cy) < d.r) return false;
    }
    return true;
  };
  // Every lane's rods, in its view (overlaid: all in the one view; another lane's labels in its colour), the first
  // kMaxLengthLabels of each. A label goes right of its rod's middle, else left, above or below it (then the same
  // beside the points at 0.3 and 0.7 of the rod), wherever it lies on no particle and no other text; where none is
  // free it is left out (the rod's tooltip has its length).
  for (std::size_t k = 0; k < specs.size(); ++k) {
    const World& world = state.lane_world(k);
    const std::size_t v = std::min(k, views.size() - 1);
    const auto& view = views[v];
    const bool overlaid = views.size() == 1 && k > 0;
    Camera camera = state.view_camera(k);
    camera.set_viewport(view[0], view[1], view[2], view[3]);
    const Box inside{static_cast<float>(view[0] / ratio), static_cast<float>(view[1] / ratio),
                     static_cast<float>((view[0] + view[2]) / ratio), static_cast<float>((view[1] + view[3]) / ratio)};
    int labelled = 0;
    for (const auto& c : world.constraints()) {
      if (!is_rod(*c) || labelled == kMaxLengthLabels) continue;
      const auto ids = c->particles();
      const Vec3 a = world.state().position[ids[0]], b = world.state().position[ids[1]];
      const auto at = camera.project(0.5 * (a + b));
      if (!at || !camera.in_viewport(glm::dvec2(at->x, at->y))) continue;
      ++labelled;
      char text[48];
      std::snprintf(text, sizeof text, "%.4f m", glm::length(b - a));
      const ImVec2 size = ImGui::CalcTextSize(text);
      std::optional<ImVec2> place;
      for (const double t : {0.5, 0.3, 0.7}) {  // beside the rod's middle, else nearer one end or the other
        const auto point = camera.project(a + t * (b - a));
        if (!point) continue;
        const float mx = static_cast<float>(point->x / ratio), my = static_cast<float>(point->y / ratio), gap = 6.0f;
        for (const ImVec2 corner : {ImVec2(mx + gap, my - size.y * 0.5f), ImVec2(mx - gap - size.x, my - size.y * 0.5f),
                                    ImVec2(mx - size.x * 0.5f, my - gap - size.y), ImVec2(mx - size.x * 0.5f, my + gap)}) {
          const Box box{corner.x - 2, corner.y - 1, corner.x + size.x + 2, corner.y + size.y + 1};
          if (box[0] >= inside[0] && box[1] >= inside[1] && box[2] <= inside[2] && box[3] <= inside[3] &&
              clear(box, v)) {
            place = corner;
            break;
          }
        }
        if (place) break;
      }
      if (!place) continue;
      const float x = place->x, y = place->y;
      taken.push_back({x - 2, y - 1, x + size.x + 2, y + size.y + 1});
      state.widget_rects["length label " + std::to_string(k + 1) + "." + std::to_string(labelled)] = taken.back();
      draw->AddRectFilled(ImVec2(x - 2, y - 1), ImVec2(x + size.x + 2, y + size.y + 1), backdrop, 2.0f);
      const double error = std::abs(glm::length(b - a) - c->length_scale(0)) / c->length_scale(0);
      const glm::vec4 colour = error_colour(error, state.appearance.theme);
      draw->AddText(ImVec2(x, y),
                    overlaid      ? ImGui::GetColorU32(text_colour(lane_colour(specs, static_cast<int>(k))))
                    : error > 1e-4 ? ImGui::GetColorU32(text_colour({colour.r, colour.g, colour.b}))
                                   : ImGui::GetColorU32(ImGuiCol_Text),
                    text);
    }
  }
}

}  // namespace lagrange::app
