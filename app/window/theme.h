// Projector mode (issue 10): the UI scale and the colour theme, and everything drawn in a colour that has to change
// with the theme. One Palette per theme holds the scene's colours (background, grid, rods' colour maps, pins,
// arrows, trails) and the panels' own (plots, HUD, legend, hints), so a light room gets dark lines on white and a
// dark room keeps the default look unchanged.
//
// Scale: the effective UI scale is the HiDPI factor the platform reports times the user's projector factor (1..3).
// Fonts are rasterized at 15 px × that scale (the ImGui font atlas is rebuilt, never stretched by FontGlobalScale),
// widgets are sized by ImGuiStyle::ScaleAllSizes on a fresh style, and scene lines, plots and panels use the same
// factor (SandboxState::ui_scale).
#pragma once

#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include <optional>
#include <string>
#include <string_view>

#include <imgui.h>

namespace lagrange::app {

enum class Theme { Dark, Light };

// The user's projector factor: 1 (desk) to 3 (a large hall), fractions allowed.
inline constexpr double kMinUiScale = 1.0, kMaxUiScale = 3.0;
// The buttons of the View section.
inline constexpr double kUiScaleChoices[] = {1.0, 1.25, 1.5, 2.0, 2.5, 3.0};
// The panels' font size at scale 1, in pixels.
inline constexpr float kBaseFontSize = 15.0f;

// What the user chooses: the theme and the projector factor (the HiDPI factor comes from the platform).
struct Appearance {
  Theme theme = Theme::Dark;
  double scale = 1.0;
  bool operator==(const Appearance&) const = default;
};

const char* theme_name(Theme theme);  // "dark", "light"
std::optional<Theme> parse_theme(std::string_view text);
// A number in kMinUiScale..kMaxUiScale, e.g. "1.5"; nullopt otherwise (not a number, NaN, out of range, junk after).
std::optional<double> parse_ui_scale(std::string_view text);
// "--ui-scale needs a factor from 1 to 3 (e.g. 1.5), got 'X'", the message of a bad --ui-scale or --theme.
std::string ui_scale_error(std::string_view got);
std::string theme_error(std::string_view got);

struct PlotPalette {
  ImU32 frame, frame_border, curves_bg, guide, label, peak, cursor;
  ImU32 kinetic, potential, total, violation, velocity_violation, iterations, solve;
};

struct Palette {
  // The scene.
  glm::vec3 background;
  glm::vec4 grid_minor, grid_major, grid_axis;
  glm::vec3 rod_neutral;                      // plain rods, and the middle of the tension map
  glm::vec3 tension_mid, tension_full;        // the rod pulls
  glm::vec3 compression_mid, compression_full;
  glm::vec3 error_good, error_mid, error_bad;  // |C|/L from 1e-12 to 1e-2
  glm::vec4 pin, gravity, constraint_force, drag;
  glm::vec4 selection;   // the editor's selection rings
  glm::vec4 obstacle;    // floors, walls, boxes, pegs (contacts.h)
  glm::vec4 cable;       // cables: a rope colour apart from the rods' maps
  glm::vec4 contact_force;  // the contacts' normal forces
  glm::vec3 trail_mix;   // trails are the particle's colour mixed 30 % toward this
  // The panels.
  ImVec4 title, description, error_text, ok_text, accent, paused, slow, key, pin_label, fixed_label, compression,
      tension;
  ImVec4 editing;  // Edit mode's banner and frame
  PlotPalette plot;
};

const Palette& palette(Theme theme);
// The palette of the theme the ImGui style was last set to (apply_imgui_appearance): what code drawing with ImGui
// and no SandboxState at hand (the plots) uses, as it uses ImGui's own style.
const Palette& ui_palette();

// Sets ImGui's style to a fresh one for `theme`, sized by `scale` (ScaleAllSizes), with anti-aliasing off on a
// software rasterizer. Call between frames.
void apply_imgui_style(Theme theme, float scale, bool software);
// Replaces the font atlas with the UI font rasterized at kBaseFontSize × scale. Call between frames; the caller
// re-uploads the texture (ImGui_ImplOpenGL3_DestroyFontsTexture / CreateFontsTexture) when one existed.
// Without the font file (fonts-dejavu-core), ImGui's built-in bitmap font, scaled.
void build_fonts(float scale);

}  // namespace lagrange::app
