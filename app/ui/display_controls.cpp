// Projector mode in the View section: the theme (dark / light) and the UI scale (buttons, and a slider applied when
// it is released). They only edit state.appearance; the Sandbox rebuilds the style and the font atlas before the
// next frame, never in the middle of one, and remembers the choice (user_config.h).
#include <imgui.h>
#include <imgui_internal.h>  // GetActiveID: is the scale slider being dragged

#include <cmath>
#include <cstdio>
#include <string>

#include "ui/ui.h"

namespace lagrange::app {
namespace {

// "1x", "1.25x", "1.5x".
std::string scale_label(double scale) {
  char text[16];
  std::snprintf(text, sizeof text, "%gx", scale);
  return text;
}

}  // namespace

void draw_display_controls(SandboxState& state) {
  Appearance& wanted = state.appearance;
  const ImGuiStyle& style = ImGui::GetStyle();
  ImGui::TextUnformatted("Theme");
  for (Theme theme : {Theme::Dark, Theme::Light}) {
    same_line_if_fits(ImGui::GetFrameHeight() + style.ItemInnerSpacing.x + ImGui::CalcTextSize(theme_name(theme)).x);
    if (ImGui::RadioButton(theme_name(theme), wanted.theme == theme)) wanted.theme = theme;
    if (ImGui::IsItemHovered())
      tooltip(theme == Theme::Light ? "Dark lines on white: for a bright room and a projector"
                                              : "Light lines on a dark background (the default)");
    remember_rect(state, std::string("theme ") + theme_name(theme));
  }
  ImGui::TextUnformatted("UI scale");
  for (double scale : kUiScaleChoices) {
    const std::string label = scale_label(scale);
    same_line_if_fits(ImGui::CalcTextSize(label.c_str()).x + 2.0f * style.FramePadding.x);
    const bool current = std::abs(wanted.scale - scale) < 1e-9;
    if (current) ImGui::PushStyleColor(ImGuiCol_Button, style.Colors[ImGuiCol_ButtonActive]);
    if (ImGui::SmallButton(label.c_str())) wanted.scale = scale;
    if (current) ImGui::PopStyleColor();
    if (ImGui::IsItemHovered())
      tooltip("Fonts, widgets, lines and plots %s as large (for a projector)", label.c_str());
    remember_rect(state, "ui scale " + label);
  }
  // Finer steps: the slider shows its own value while it is dragged and the scale changes once, on release (each
  // change rasterizes the fonts again and moves every panel).
  const ImGuiID id = ImGui::GetID("##ui scale");
  float* edit = ImGui::GetStateStorage()->GetFloatRef(id, static_cast<float>(wanted.scale));
  if (ImGui::GetActiveID() != id) *edit = static_cast<float>(wanted.scale);
  ImGui::SetNextItemWidth(-FLT_MIN);
  ImGui::SliderFloat("##ui scale", edit, static_cast<float>(kMinUiScale), static_cast<float>(kMaxUiScale), "%.2fx");
  if (ImGui::IsItemDeactivatedAfterEdit()) wanted.scale = std::round(*edit * 20.0f) / 20.0;  // steps of 0.05
  if (ImGui::IsItemHovered()) tooltip("UI scale from 1x to 3x, applied when you let go");
  remember_rect(state, "ui scale slider");
}

}  // namespace lagrange::app
