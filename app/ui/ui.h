// The panels and overlays, drawn with Dear ImGui from SandboxState. They never touch the world directly: they push
// Commands (applied between steps) or edit view options.
#pragma once

#include <SDL_keycode.h>
#include <imgui.h>

#include <array>
#include <cstdio>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "state/sandbox_state.h"

namespace lagrange::app {

struct Shortcut {
  const char* keys;    // as the help overlay and docs/app.md show them
  const char* action;
  // The keys themselves: codes[0] alone, codes[0] and codes[1], or every key from codes[0] to codes[1] when `range`.
  // None for mouse gestures.
  SDL_Keycode codes[2] = {SDLK_UNKNOWN, SDLK_UNKNOWN};
  bool range = false;
  bool ctrl = false;
};
// Every keyboard and mouse shortcut, for the help overlay and docs/app.md.
std::span<const Shortcut> shortcuts();

struct KeyPress {
  SDL_Keycode key;
  bool ctrl;
  bool quits;  // Ctrl+Q
};
// Every key of shortcuts(), one entry per key (1 .. 9 gives nine): what the GUI tests and `--list-keys` press.
std::vector<KeyPress> documented_keys();

// The View section's on/off options, in the order the panel shows them: the panel is drawn from this table and the
// GUI tests toggle every entry, so a new option added here is drawn and tested.
struct ViewToggle {
  const char* label;
  bool ViewOptions::*member;
  const char* tip;
};
std::span<const ViewToggle> view_toggles();
struct RodColouringInfo {
  RodColouring value;
  const char* label;
  const char* tip;
};
std::span<const RodColouringInfo> rod_colourings();

// The whole UI for one frame: HUD, control panel, diagnostics, legend, hover tooltip, help.
void draw_ui(SandboxState& state);

void draw_control_panel(SandboxState& state);  // control_panel.cpp
void draw_diagnostics(SandboxState& state);    // diagnostics_panel.cpp
void draw_step_view_panel(SandboxState& state);  // step_view_panel.cpp: the step view's legend, residuals, keys
// Where that panel goes, in window units (x0, y0, x1, y1; its height is at most y1 − y0): at the right of the scene,
// step_view_panel_width wide, from the top down. All 0 while the step view is closed. The overlays and the framing
// of the views under it keep to its left (scene_overlays.cpp): it covers neither the top line nor the ghosts.
std::array<float, 4> step_view_panel_rect(const SandboxState& state);
// Diagnostics' sections that show the method (issue 25): J M⁻¹ Jᵀ of lane 1's state (matrix_panel.cpp) and the
// order of accuracy measured in the background (convergence_panel.cpp).
void matrix_section(SandboxState& state);
void convergence_section(SandboxState& state);
// The convergence picture alone, filling the window (state.convergence.figure): `converge --plot`.
void draw_convergence_figure(SandboxState& state);
// The texts over the scene (scene_overlays.cpp): the top line and messages, the legend, the lane names in their
// views, each in a corner where it covers nothing the scene can reach.
void draw_scene_overlays(SandboxState& state);
// The rectangle of lane view `view` (drawable pixels) to frame the scene's reach into, a box `aspect` times as wide
// as tall on the screen: what the overlays of that view leave free.
std::array<int, 4> framing_rect(SandboxState& state, std::size_t view, double aspect);
void draw_hover(SandboxState& state);
void draw_help(SandboxState& state);
// The View section's theme and UI scale controls (display_controls.cpp).
void draw_display_controls(SandboxState& state);

void lanes_section(SandboxState& state);     // lanes_panel.cpp
// Edit mode (defined above, in edit/editor_panel.cpp): the Editor panel on the right (tools, undo, file, generators,
// inspector) and the banner, frame, box and rubber band over the scene.
void draw_editor_panel(SandboxState& state);
struct EditKey {
  const char* keys;
  const char* what;
};
std::span<const EditKey> edit_keys();  // Edit mode's keys: the panel's list and the help
// How an Edit-mode number field shows a row of values (one box each): a round-off residue — |v| ≤ 1e-12 of `scale`
// (the scene's size for a position) or of the row's largest value — as 0 (never "-0"), and every value with one
// precision, the most significant digits up to `max_digits` (%g) for which each text `measure`s at most `width`
// (a box's inside): fewer digits, never a number cut short. At one digit it stops, whatever the width.
struct FieldText {
  std::vector<double> values;      // the values as shown: residues as 0
  int digits = 6;                  // %.<digits>g
  std::vector<std::string> texts;  // what each box shows
};
FieldText field_text(std::span<const double> values, double scale, float width,
                     const std::function<float(const std::string&)>& measure, int max_digits = 6);
void draw_edit_overlay(SandboxState& state);
void draw_timeline(SandboxState& state);     // timeline_bar.cpp: the time-travel bar under the scene
float timeline_height(const SandboxState& state);  // its height in window units (0 when not shown)
// The rod length labels over every lane's view (lanes_panel.cpp).
void draw_lane_overlay(SandboxState& state);
// The rectangles the lanes are drawn in (x, y, width, height in drawable pixels): the scene viewport, or with split
// lanes one per lane, the same size each: side by side for two, a 2 × 2 grid for three or four.
std::vector<std::array<int, 4>> lane_viewports(const SandboxState& state);
// The length-error exaggeration after `current`: 1, 10, 100, 1000, then 1 again.
int next_exaggeration(int current);
// Keeps the rectangle of the last widget as `name` (SandboxState::widget_rects: the GUI tests click it).
void remember_rect(SandboxState& state, const std::string& name);
// SameLine when an item `width` wide still fits before the window's right edge, else a new line.
void same_line_if_fits(float width);
// The width of a radio button or checkbox with this label (its box, the spacing, the text): for same_line_if_fits.
float toggle_width(const char* label);
// The preview of a combo box `width` wide (its arrow and padding taken off): `text`, or as much of it as fits with
// "…" after it. Dear ImGui drops the glyphs past the box whole, so a cut name looked whole: the lane's "Acceleration
// level" read "Acceleration leve" at 2x.
std::string combo_preview(const std::string& text, float width);
// ImGui::BeginCombo for a box `width` wide showing combo_preview(text, width) (written to `shown` when given).
bool begin_fitted_combo(const char* id, const std::string& text, float width, std::string* shown = nullptr);
// Text that wraps at the panel's edge between words, never inside one: a number is never broken across lines (Dear
// ImGui's own wrapping also breaks after '.' and ','). A word wider than the panel (a path) is broken at its '/'s.
void words(const std::string& text);
// A greyed hint that wraps at the panel's edge instead of running under it: hint(text), or hint(format, args...).
inline void hint(const char* text) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  words(text);  // not a format: no '%' is ever taken as a conversion
  ImGui::PopStyleColor();
}
template <typename Arg, typename... Args>
void hint(const char* format, Arg arg, Args... args) {
  char text[1024];
  std::snprintf(text, sizeof text, format, arg, args...);
  hint(static_cast<const char*>(text));
}

// Lists assets/*.json into state.scene_files.
void refresh_scene_files(SandboxState& state);

// Where everything goes on the screen (screen_layout.cpp), in window units. Each side holds its panel, the panel's
// thin bar when it is collapsed, or nothing (presentation); under the scene, between the sides, the timeline and
// under it the Measure strip. The scene gets the rest: at least half the width, and more room than any panel.
struct PanelLayout {
  float left = 0.0f, right = 0.0f;             // widths of what each side holds (0: nothing)
  bool left_open = false, right_open = false;  // an open panel (else its bar, when the width is not 0)
  float bottom = 0.0f;    // the Measure strip under the scene, between the two sides
  float timeline = 0.0f;  // the timeline bar, between the scene and the strip
};
PanelLayout panel_layout(const SandboxState& state);
float panel_bar_width(const SandboxState& state);
// A collapsed panel: a thin bar with the panel's name written along it; a click opens the panel.
void draw_panel_bar(SandboxState& state, ViewOptions::Side side);
// The « (left) or » (right) button in an open panel's title bar: collapses it to its bar.
void collapse_button(SandboxState& state, ViewOptions::Side side);
// A tooltip that wraps at 36 em (or the window's width) instead of running off the screen.
void tooltip(const std::string& text);
inline void tooltip(const char* text) { tooltip(std::string(text)); }
template <typename Arg, typename... Args>
void tooltip(const char* format, Arg arg, Args... args) {
  char text[1024];
  std::snprintf(text, sizeof text, format, arg, args...);
  tooltip(std::string(text));
}
// Begins the fixed panel on the right (Diagnostics, or the Editor in Edit mode), the full height of the window, and
// keeps its rectangle as `rect_name`. Returns ImGui::Begin's answer; call ImGui::End either way.
bool begin_right_panel(SandboxState& state, const char* title, const char* rect_name);
// The free middle between the panels (and above the Measure strip), where the scene is drawn: x, y, width, height in drawable pixels.
std::array<int, 4> scene_viewport(const SandboxState& state);

}  // namespace lagrange::app
