// The Measure strip's Scale tool (issue 23): the force on an obstacle against time, as a scale under it would read,
// beside a reference curve the class sets (k times the scene's weight, k times the weight touching the obstacle, or a
// constant), with the reading and the reference averaged over the last half second, Export CSV and Clear. The
// numbers are force_scale.h's; a click on an obstacle in the scene picks it.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "tools/force_scale.h"
#include "ui/measure_panel.h"
#include "ui/ui.h"
#include "window/theme.h"

namespace lagrange::app {
namespace {

constexpr double kPlotSeconds = 10.0;  // the plot's window of simulated time
constexpr double kMeanSeconds = 0.5;   // the readout's mean

float button_width(const char* label) {
  return ImGui::CalcTextSize(label, nullptr, true).x + 2.0f * ImGui::GetStyle().FramePadding.x;
}

// A number field's box (not its label) as `name`: the tests click into the box.
void remember_box(SandboxState& state, const std::string& name, float width) {
  const ImVec2 lo = ImGui::GetItemRectMin(), hi = ImGui::GetItemRectMax();
  state.widget_rects[name] = {lo.x, lo.y, lo.x + width, hi.y};
}

void tip(const char* text) {
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) tooltip(text);
}

// The force (solid) and the reference (dashed) over the last kPlotSeconds, from 0 N up to a round value.
void scale_plot(SandboxState& state, ImVec2 size) {
  const ForceScale& scale = state.measure.scale;
  const Palette& p = palette(state.appearance.theme);
  const ImU32 force_colour = ImGui::ColorConvertFloat4ToU32(p.accent), reference_colour = p.plot.peak;
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton("##scale plot", size);
  remember_rect(state, "measure: scale plot");
  const ImVec2 p1(p0.x + size.x, p0.y + size.y);
  draw->AddRectFilled(p0, p1, p.plot.curves_bg, 3.0f);
  if (scale.samples.empty()) return;
  // The last kPlotSeconds, or all the samples when they span less (a chain falls in half a second).
  const double now = scale.samples.back().time;
  const double span = std::clamp(now - scale.samples.front().time, 1e-9, kPlotSeconds), start = now - span;
  double top = 0.0;
  for (const ScaleSample& s : scale.samples)
    if (s.time >= start) top = std::max({top, s.force, s.reference});
  top = nice_ceil(std::max(top, 1e-6));
  const float label_h = ImGui::GetFontSize();
  const float left = p0.x + 4.0f, right = p1.x - 4.0f, upper = p0.y + label_h + 2.0f, lower = p1.y - label_h - 2.0f;
  const auto at = [&](double t, double f) {
    const double x = std::clamp((t - start) / span, 0.0, 1.0), y = std::clamp(f / top, -0.1, 1.0);
    return ImVec2(left + static_cast<float>(x) * (right - left), lower - static_cast<float>(y) * (lower - upper));
  };
  draw->AddLine(ImVec2(left, lower), ImVec2(right, lower), p.plot.guide);
  char text[64];
  std::snprintf(text, sizeof text, "%g N", top);
  draw->AddText(ImVec2(left + 2.0f, p0.y + 1.0f), p.plot.label, text);
  std::snprintf(text, sizeof text, "last %.3g s", span);
  draw->AddText(ImVec2(right - ImGui::CalcTextSize(text).x, lower + 1.0f), p.plot.label, text);
  draw->AddText(ImVec2(left + 2.0f, lower + 1.0f), p.plot.label, "0 N");
  draw->PushClipRect(p0, p1, true);
  const ScaleSample* last = nullptr;
  int k = 0;
  for (const ScaleSample& s : scale.samples) {
    if (s.time < start) continue;
    if (last) {
      draw->AddLine(at(last->time, last->force), at(s.time, s.force), force_colour, 1.5f);
      if ((k++ / 4) % 2 == 0)  // the reference dashed, four samples on, four off
        draw->AddLine(at(last->time, last->reference), at(s.time, s.reference), reference_colour, 2.0f);
    }
    last = &s;
  }
  draw->PopClipRect();
  if (ImGui::IsItemHovered())
    tooltip("The force on the obstacle (solid), the mean over each step, and the reference (dashed), over the last "
            "%g s of simulated time (or since the samples started).",
            kPlotSeconds);
}

}  // namespace

void measure_scale_tool(SandboxState& state) {
  MeasureState& m = state.measure;
  ForceScale& scale = m.scale;
  const World& world = state.world();
  const Palette& p = palette(state.appearance.theme);
  const auto& obstacles = world.model().contacts().obstacles;
  ImGui::TextColored(p.title, "Scale");
  remember_rect(state, "measure: scale heading");
  if (obstacles.empty()) {
    hint("This scene has no obstacle to stand on. Open one with a floor (bouncing ball, falling chain), or add a "
         "floor in Edit mode (E).");
    return;
  }
  // The obstacle read.
  const std::string current = obstacle_name(world, scale.obstacle);
  if (begin_fitted_combo("##scale obstacle", current,
                         std::min(ImGui::GetContentRegionAvail().x, 16.0f * ImGui::GetFontSize()))) {
    for (std::size_t k = 0; k < obstacles.size(); ++k) {
      const std::string name = obstacle_name(world, static_cast<int>(k));
      if (ImGui::Selectable(name.c_str(), scale.obstacle == static_cast<int>(k)))
        scale_select(scale, world, static_cast<int>(k));
      remember_rect(state, "measure: scale obstacle " + std::to_string(k));
    }
    ImGui::EndCombo();
  }
  remember_rect(state, "measure: scale obstacle");
  tip("The obstacle the scale reads (or click one in the scene). A plane reads the force pushed into it along its "
      "normal, a box or a ball the size of the force.");
  // The readout: the means over the last half second.
  double force = 0.0, reference = 0.0;
  const bool any = scale_means(scale, kMeanSeconds, force, reference);
  m.readout.scale_force = any ? std::optional<double>(force) : std::nullopt;
  m.readout.scale_reference = any ? std::optional<double>(reference) : std::nullopt;
  if (any) {
    ImGui::TextColored(p.accent, "F %.4g N", force);
    remember_rect(state, "measure: scale reading");
    tip("The force on the obstacle, the mean over the last half second of simulated time (run --csv's "
        "obstacle<k>_f columns, per step).");
    ImGui::SameLine();
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(p.plot.peak), "ref %.4g N", reference);
    if (std::abs(reference) > 1e-12) {
      ImGui::SameLine();
      ImGui::Text("F/ref %.3f", force / reference);
    }
  } else {
    hint("Run the scene: the scale reads after every step.");
  }
  // The reference.
  int chosen = 0;
  for (std::size_t k = 0; k < std::size(kScaleReferences); ++k)
    if (kScaleReferences[k].value == scale.reference) chosen = static_cast<int>(k);
  if (begin_fitted_combo("##scale reference", kScaleReferences[chosen].label,
                         std::min(ImGui::GetContentRegionAvail().x, 16.0f * ImGui::GetFontSize()))) {
    for (std::size_t k = 0; k < std::size(kScaleReferences); ++k) {
      if (ImGui::Selectable(kScaleReferences[k].label, static_cast<int>(k) == chosen))
        scale.reference = kScaleReferences[k].value;
      remember_rect(state, std::string("measure: scale reference ") + std::to_string(k));
      tip(kScaleReferences[k].tip);
    }
    ImGui::EndCombo();
  }
  remember_rect(state, "measure: scale reference");
  tip(kScaleReferences[chosen].tip);
  const float field = std::min(ImGui::GetContentRegionAvail().x, 7.0f * ImGui::GetFontSize());
  ImGui::SetNextItemWidth(field);
  if (scale.reference == ScaleReference::Constant) {
    double value = scale.constant;
    if (ImGui::InputDouble("N##scale constant", &value, 0.0, 0.0, "%.6g") && std::isfinite(value))
      scale.constant = value;
    remember_box(state, "measure: scale constant", field);
    tip("The reference force in newtons.");
  } else {
    double value = scale.factor;
    if (ImGui::InputDouble("k##scale factor", &value, 0.0, 0.0, "%.6g") && std::isfinite(value))
      scale.factor = value;
    remember_box(state, "measure: scale k", field);
    tip("The reference is k times the weight: 1 for a scale under a resting load, 3 for a chain falling on a table.");
  }
  // The plot, then the buttons under it.
  const float buttons = ImGui::GetFrameHeightWithSpacing();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  scale_plot(state, ImVec2(avail.x, std::max(avail.y - buttons, 3.5f * ImGui::GetFontSize())));
  ImGui::BeginDisabled(scale.samples.empty());
  if (ImGui::Button("Export CSV##scale")) {
    Command command;
    command.kind = Command::Kind::ExportScale;
    state.commands.push_back(command);
  }
  remember_rect(state, "measure: scale export");
  tip(state.downloads ? "Downloads the samples (t, force, reference) as a CSV file."
                      : "Writes the samples (t, force, reference) as a new CSV file into the folder Save uses.");
  same_line_if_fits(button_width("Clear"));
  if (ImGui::Button("Clear##scale")) scale.samples.clear();
  remember_rect(state, "measure: scale clear");
  tip("Forgets the samples: the plot starts again from now.");
  ImGui::EndDisabled();
}

}  // namespace lagrange::app
