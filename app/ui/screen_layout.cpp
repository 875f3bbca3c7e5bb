// Where everything goes on the screen (issue 21, "the scene first"): the side panels open, collapsed to a thin bar or
// hidden, the timeline and the Measure strip under the scene, and the scene in the rest, which is always the largest
// thing on the screen. docs/app.md, "The window".
#include <imgui.h>
#include <imgui_internal.h>  // the title bar's rectangle: the panels' collapse buttons sit in it

#include <algorithm>
#include <cmath>

#include "ui/measure_panel.h"
#include "ui/text_box.h"
#include "ui/ui.h"
#include "window/theme.h"

namespace lagrange::app {
namespace {

constexpr float kBarWidth = 32.0f;  // ImGui's smallest window (WindowMinSize, scaled)  // a collapsed panel's bar, window units at scale 1

float window_width(const SandboxState& state) {
  return static_cast<float>(state.window_width / std::max(state.pixel_ratio, 1e-6));
}
float window_height(const SandboxState& state) {
  return static_cast<float>(state.window_height / std::max(state.pixel_ratio, 1e-6));
}

// Text drawn turned by a quarter turn about `pivot`: counter-clockwise (reading upward) or clockwise (downward).
void add_turned_text(ImDrawList* draw, ImVec2 pivot, ImU32 colour, const char* text, bool counter_clockwise) {
  draw->PushClipRect(ImVec2(-1e5f, -1e5f), ImVec2(1e5f, 1e5f));  // laid out across before it is turned: no clipping
  const int first = draw->VtxBuffer.Size;
  draw->AddText(pivot, colour, text);
  draw->PopClipRect();
  for (int i = first; i < draw->VtxBuffer.Size; ++i) {
    ImVec2& p = draw->VtxBuffer[i].pos;
    const float dx = p.x - pivot.x, dy = p.y - pivot.y;
    p = counter_clockwise ? ImVec2(pivot.x + dy, pivot.y - dx) : ImVec2(pivot.x - dy, pivot.y + dx);
  }
}

const char* panel_title(const SandboxState& state, ViewOptions::Side side) {
  if (side == ViewOptions::Side::Left) return "Lagrange Lab";
  return state.editor.active ? "Editor" : "Diagnostics";
}

void open_panel(SandboxState& state, ViewOptions::Side side) {
  (side == ViewOptions::Side::Left ? state.view.left_open : state.view.right_open) = true;
  state.view.opened_last = side;
  state.push(Command::Kind::FrameScene);  // the scene's room changed
}

}  // namespace

float panel_bar_width(const SandboxState& state) { return kBarWidth * static_cast<float>(state.ui_scale); }

PanelLayout panel_layout(const SandboxState& state) {
  PanelLayout layout;
  if (state.view.presentation || !state.view.panels) return layout;  // the scene alone (a shot without panels too)
  const float scale = static_cast<float>(state.ui_scale);
  const float w = window_width(state), h = window_height(state);
  layout.timeline = timeline_height(state);
  const float bar = panel_bar_width(state);
  // A quarter of the window for the controls, 240 to 330 units, and a tenth more for Diagnostics.
  const float want_left = std::clamp(0.24f * w, 240.0f * scale, 330.0f * scale), want_right = 1.1f * want_left;
  const float min_left = 200.0f * scale, min_right = 220.0f * scale;
  bool left_open = state.view.left_open, right_open = state.view.right_open;
  const ViewOptions::Side favoured = state.view.opened_last;
  for (;;) {
    float left = left_open ? want_left : bar, right = right_open ? want_right : bar;
    // Open panels shrink (down to their minimum) before the scene gets less than half the width.
    const float room = 0.5f * w - (left_open ? 0.0f : bar) - (right_open ? 0.0f : bar);
    const float open = (left_open ? left : 0.0f) + (right_open ? right : 0.0f);
    if (open > room && open > 0.0f) {
      const float k = std::max(room, 0.0f) / open;
      if (left_open) left = std::max(left * k, min_left);
      if (right_open) right = std::max(right * k, min_right);
    }
    // The panel the user opened last never takes more than 60 % of the window.
    if (left_open && favoured == ViewOptions::Side::Left) left = std::min(left, std::max(0.6f * w - bar, bar));
    if (right_open && favoured == ViewOptions::Side::Right) right = std::min(right, std::max(0.6f * w - bar, bar));
    // The Measure strip spans the scene's width, and is as tall as its lines need at that width.
    layout.bottom = state.editor.active ? 0.0f : measure_strip_height(state, w - left - right);
    const float scene_w = w - left - right, scene_h = h - layout.timeline - layout.bottom;
    const float scene = scene_w * scene_h;
    const bool fits = scene_w >= 0.5f * w - 0.5f && (!left_open || scene >= left * h) &&
                      (!right_open || scene >= right * h);
    const bool can_close_left = left_open && favoured != ViewOptions::Side::Left;
    const bool can_close_right = right_open && favoured != ViewOptions::Side::Right;
    if (fits || (!can_close_left && !can_close_right)) {
      layout.left = left;
      layout.right = right;
      layout.left_open = left_open;
      layout.right_open = right_open;
      break;
    }
    // Diagnostics gives way first, then the controls; never the one the user opened last.
    if (can_close_right && (favoured == ViewOptions::Side::Left || !can_close_left || right_open)) right_open = false;
    else left_open = false;
  }
  return layout;
}

std::array<int, 4> scene_viewport(const SandboxState& state) {
  const PanelLayout layout = panel_layout(state);
  const double ratio = state.pixel_ratio;
  const int left = static_cast<int>(std::lround(layout.left * ratio));
  const int right = static_cast<int>(std::lround(layout.right * ratio));
  const int bottom = static_cast<int>(std::lround((layout.bottom + layout.timeline) * ratio));
  return {left, 0, std::max(state.window_width - left - right, 1), std::max(state.window_height - bottom, 1)};
}

void draw_panel_bar(SandboxState& state, ViewOptions::Side side) {
  const bool left = side == ViewOptions::Side::Left;
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  const float width = panel_bar_width(state);
  const ImVec2 pos(left ? viewport->Pos.x : viewport->Pos.x + viewport->Size.x - width, viewport->Pos.y);
  ImGui::SetNextWindowPos(pos);
  ImGui::SetNextWindowSize(ImVec2(width, viewport->Size.y));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(0.0f, 0.0f));
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoScrollWithMouse;
  const bool shown = ImGui::Begin(left ? "##left bar" : "##right bar", nullptr, flags);
  ImGui::PopStyleVar();
  if (shown) {
    const std::string name = left ? "left bar" : "right bar";
    if (ImGui::InvisibleButton("##open", ImVec2(width, viewport->Size.y))) open_panel(state, side);
    const bool hovered = ImGui::IsItemHovered();
    remember_rect(state, name);
    if (hovered) tooltip("Click: open the panel (Tab: both)");
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImU32 text = ImGui::GetColorU32(hovered ? ImGuiCol_Text : ImGuiCol_TextDisabled);
    if (hovered) draw->AddRectFilled(pos, ImVec2(pos.x + width, pos.y + viewport->Size.y),
                                     ImGui::GetColorU32(ImGuiCol_ButtonHovered));
    const char* arrow = left ? "\xc2\xbb" : "\xc2\xab";  // » «
    const ImVec2 arrow_size = ImGui::CalcTextSize(arrow);
    draw->AddText(ImVec2(pos.x + 0.5f * (width - arrow_size.x), pos.y + 0.4f * width), text, arrow);
    const char* title = panel_title(state, side);
    const ImVec2 size = ImGui::CalcTextSize(title);
    const float top = pos.y + 0.4f * width + arrow_size.y + 0.5f * width;
    if (top + size.x <= pos.y + viewport->Size.y) {
      const float x = pos.x + 0.5f * (width - size.y);
      if (left) add_turned_text(draw, ImVec2(x, top + size.x), text, title, true);  // reads upward
      else add_turned_text(draw, ImVec2(x + size.y, top), text, title, false);      // reads downward
    }
  }
  ImGui::End();
}

void collapse_button(SandboxState& state, ViewOptions::Side side) {
  ImGuiWindow* window = ImGui::GetCurrentWindow();
  const ImRect title = window->TitleBarRect();
  if (title.GetHeight() <= 0.0f) return;
  const ImVec2 cursor = ImGui::GetCursorScreenPos();
  const bool left = side == ViewOptions::Side::Left;
  const char* label = left ? "\xc2\xab##collapse" : "\xc2\xbb##collapse";  // « »
  const float size = title.GetHeight();
  ImGui::PushClipRect(title.Min, title.Max, false);
  ImGui::SetCursorScreenPos(ImVec2(title.Max.x - size - ImGui::GetStyle().FramePadding.x, title.Min.y));
  ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, ImVec2(0.0f, 0.0f));
  if (ImGui::Button(label, ImVec2(size, size))) {
    (left ? state.view.left_open : state.view.right_open) = false;
    if (state.view.opened_last == side) state.view.opened_last = ViewOptions::Side::None;
    state.push(Command::Kind::FrameScene);
  }
  ImGui::PopStyleVar();
  remember_rect(state, left ? "collapse left" : "collapse right");
  if (ImGui::IsItemHovered()) tooltip("Collapse the panel to a bar (Tab: both; F5: the scene alone)");
  ImGui::PopClipRect();
  ImGui::SetCursorScreenPos(cursor);
}

bool begin_right_panel(SandboxState& state, const char* title, const char* rect_name) {
  const PanelLayout layout = panel_layout(state);
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  if (!layout.right_open) {
    // The bar in the panel's place; the caller's ImGui::End closes it.
    draw_panel_bar(state, ViewOptions::Side::Right);
    ImGui::Begin("##right bar");
    state.widget_rects.erase(rect_name);
    return false;
  }
  ImGui::SetNextWindowPos(ImVec2(viewport->Pos.x + viewport->Size.x - layout.right, viewport->Pos.y));
  ImGui::SetNextWindowSize(ImVec2(layout.right, viewport->Size.y));
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                                 ImGuiWindowFlags_NoSavedSettings;
  if (!ImGui::Begin(title, nullptr, flags)) return false;
  collapse_button(state, ViewOptions::Side::Right);
  const ImVec2 pos = ImGui::GetWindowPos();
  state.widget_rects[rect_name] = {pos.x + ImGui::GetWindowContentRegionMin().x, pos.y,
                                   pos.x + ImGui::GetWindowContentRegionMax().x, pos.y + ImGui::GetWindowHeight()};
  return true;
}

void tooltip(const std::string& text) {
  ImGui::BeginTooltip();
  // Never wider than 36 em nor than the window: a long tip wraps instead of running off the screen.
  const float width = std::min(36.0f * ImGui::GetFontSize(), 0.9f * ImGui::GetMainViewport()->Size.x);
  ImGui::PushTextWrapPos(width);
  ImGui::TextUnformatted(text.c_str());
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

}  // namespace lagrange::app
