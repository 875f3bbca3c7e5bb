#include "window/theme.h"

#include <charconv>
#include <cmath>
#include <filesystem>

#include "lagrange/text.h"
#include "window/renderer.h"

namespace lagrange::app {
namespace {

// The dark theme: the colours the sandbox always had.
const Palette kDark{
    .background = kBackground,
    .grid_minor = {1.0f, 1.0f, 1.0f, 0.055f},
    .grid_major = {1.0f, 1.0f, 1.0f, 0.12f},
    .grid_axis = {0.75f, 0.8f, 1.0f, 0.25f},
    .rod_neutral = {0.80f, 0.81f, 0.84f},
    .tension_mid = {1.0f, 0.62f, 0.20f},
    .tension_full = {0.95f, 0.18f, 0.15f},
    .compression_mid = {0.35f, 0.80f, 1.0f},
    .compression_full = {0.20f, 0.35f, 1.0f},
    .error_good = {0.35f, 0.85f, 0.45f},
    .error_mid = {0.95f, 0.85f, 0.25f},
    .error_bad = {0.95f, 0.20f, 0.15f},
    .pin = {1.0f, 0.80f, 0.20f, 1.0f},
    .gravity = {0.45f, 0.85f, 0.45f, 1.0f},
    .constraint_force = {0.95f, 0.45f, 0.95f, 1.0f},
    .drag = {0.55f, 0.90f, 1.0f, 1.0f},
    .selection = {0.35f, 1.0f, 0.55f, 1.0f},
    .obstacle = {0.62f, 0.68f, 0.78f, 1.0f},
    .cable = {0.88f, 0.72f, 0.48f, 1.0f},
    .contact_force = {0.30f, 0.95f, 0.85f, 1.0f},
    .trail_mix = {1.0f, 1.0f, 1.0f},
    .title = {0.95f, 0.95f, 1.0f, 1.0f},
    .description = {0.72f, 0.74f, 0.78f, 1.0f},
    .error_text = {1.0f, 0.45f, 0.40f, 1.0f},
    .ok_text = {0.6f, 0.9f, 0.6f, 1.0f},
    .accent = {0.6f, 0.85f, 1.0f, 1.0f},
    .paused = {1.0f, 0.8f, 0.3f, 1.0f},
    .slow = {1.0f, 0.5f, 0.4f, 1.0f},
    .key = {0.6f, 0.85f, 1.0f, 1.0f},
    .pin_label = {1.0f, 0.8f, 0.2f, 1.0f},
    .fixed_label = {0.6f, 0.62f, 0.66f, 1.0f},
    .compression = {0.4f, 0.6f, 1.0f, 1.0f},
    .tension = {0.95f, 0.35f, 0.2f, 1.0f},
    .editing = {1.0f, 0.62f, 0.15f, 1.0f},
    .plot = {.frame = IM_COL32(20, 22, 27, 255),
             .frame_border = IM_COL32(70, 74, 84, 255),
             .curves_bg = IM_COL32(14, 15, 19, 255),
             .guide = IM_COL32(45, 48, 56, 255),
             .label = IM_COL32(150, 152, 160, 255),
             .peak = IM_COL32(230, 180, 90, 255),
             .cursor = IM_COL32(200, 200, 210, 90),
             .kinetic = IM_COL32(255, 170, 70, 255),
             .potential = IM_COL32(90, 170, 255, 255),
             .total = IM_COL32(235, 235, 240, 255),
             .violation = IM_COL32(255, 95, 85, 255),
             .velocity_violation = IM_COL32(200, 130, 255, 255),
             .iterations = IM_COL32(120, 220, 140, 255),
             .solve = IM_COL32(240, 220, 100, 255)},
};

// The light theme, for bright rooms: a near-white background, dark and saturated lines that keep their contrast on
// it, darker text colours (a projector washes out pale ones).
const Palette kLight{
    .background = {0.965f, 0.965f, 0.955f},
    .grid_minor = {0.0f, 0.0f, 0.1f, 0.08f},
    .grid_major = {0.0f, 0.0f, 0.1f, 0.18f},
    .grid_axis = {0.15f, 0.25f, 0.6f, 0.45f},
    .rod_neutral = {0.30f, 0.32f, 0.37f},
    .tension_mid = {0.93f, 0.50f, 0.05f},
    .tension_full = {0.80f, 0.08f, 0.06f},
    .compression_mid = {0.10f, 0.55f, 0.85f},
    .compression_full = {0.10f, 0.18f, 0.85f},
    .error_good = {0.10f, 0.62f, 0.25f},
    .error_mid = {0.85f, 0.62f, 0.0f},
    .error_bad = {0.82f, 0.08f, 0.06f},
    .pin = {0.85f, 0.52f, 0.0f, 1.0f},
    .gravity = {0.10f, 0.60f, 0.15f, 1.0f},
    .constraint_force = {0.72f, 0.12f, 0.72f, 1.0f},
    .drag = {0.0f, 0.45f, 0.80f, 1.0f},
    .selection = {0.0f, 0.62f, 0.25f, 1.0f},
    .obstacle = {0.32f, 0.36f, 0.44f, 1.0f},
    .cable = {0.55f, 0.36f, 0.15f, 1.0f},
    .contact_force = {0.0f, 0.52f, 0.48f, 1.0f},
    .trail_mix = {0.0f, 0.0f, 0.0f},
    .title = {0.05f, 0.06f, 0.10f, 1.0f},
    .description = {0.20f, 0.22f, 0.26f, 1.0f},
    .error_text = {0.78f, 0.10f, 0.08f, 1.0f},
    .ok_text = {0.05f, 0.50f, 0.15f, 1.0f},
    .accent = {0.0f, 0.38f, 0.72f, 1.0f},
    .paused = {0.72f, 0.42f, 0.0f, 1.0f},
    .slow = {0.78f, 0.20f, 0.10f, 1.0f},
    .key = {0.0f, 0.35f, 0.70f, 1.0f},
    .pin_label = {0.72f, 0.45f, 0.0f, 1.0f},
    .fixed_label = {0.30f, 0.32f, 0.36f, 1.0f},
    .compression = {0.10f, 0.25f, 0.85f, 1.0f},
    .tension = {0.80f, 0.15f, 0.05f, 1.0f},
    .editing = {0.85f, 0.42f, 0.0f, 1.0f},
    .plot = {.frame = IM_COL32(236, 237, 240, 255),
             .frame_border = IM_COL32(160, 164, 172, 255),
             .curves_bg = IM_COL32(255, 255, 255, 255),
             .guide = IM_COL32(210, 213, 220, 255),
             .label = IM_COL32(70, 72, 80, 255),
             .peak = IM_COL32(170, 95, 0, 255),
             .cursor = IM_COL32(40, 40, 60, 110),
             .kinetic = IM_COL32(220, 110, 0, 255),
             .potential = IM_COL32(20, 100, 210, 255),
             .total = IM_COL32(25, 25, 30, 255),
             .violation = IM_COL32(210, 30, 25, 255),
             .velocity_violation = IM_COL32(130, 50, 200, 255),
             .iterations = IM_COL32(20, 140, 55, 255),
             .solve = IM_COL32(160, 120, 0, 255)},
};

const Palette* g_ui_palette = &kDark;

}  // namespace

const char* theme_name(Theme theme) { return theme == Theme::Light ? "light" : "dark"; }

std::optional<Theme> parse_theme(std::string_view text) {
  if (text == "dark") return Theme::Dark;
  if (text == "light") return Theme::Light;
  return std::nullopt;
}

std::optional<double> parse_ui_scale(std::string_view text) {
  double value = 0.0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  if (!(value >= kMinUiScale && value <= kMaxUiScale)) return std::nullopt;  // NaN fails too
  return value;
}

std::string ui_scale_error(std::string_view got) {
  return "--ui-scale needs a factor from 1 to 3 (e.g. 1.5), got " + lagrange::quoted(std::string(got));
}

std::string theme_error(std::string_view got) {
  return "--theme needs dark or light, got " + lagrange::quoted(std::string(got));
}

const Palette& palette(Theme theme) { return theme == Theme::Light ? kLight : kDark; }

const Palette& ui_palette() { return *g_ui_palette; }

void apply_imgui_style(Theme theme, float scale, bool software) {
  ImGuiStyle style;  // fresh: ScaleAllSizes multiplies, so it must never see an already scaled style
  style.WindowRounding = 6.0f;
  style.FrameRounding = 4.0f;
  style.GrabRounding = 4.0f;
  style.WindowBorderSize = 0.0f;
  style.FramePadding = ImVec2(6, 4);
  style.ItemSpacing = ImVec2(8, 5);
  if (theme == Theme::Light) {
    ImGui::StyleColorsLight(&style);
    style.Colors[ImGuiCol_WindowBg] = ImVec4(0.95f, 0.95f, 0.96f, 0.96f);
    style.Colors[ImGuiCol_Text] = ImVec4(0.04f, 0.04f, 0.06f, 1.0f);
    style.Colors[ImGuiCol_TextDisabled] = ImVec4(0.36f, 0.37f, 0.40f, 1.0f);
    style.Colors[ImGuiCol_Header] = ImVec4(0.72f, 0.80f, 0.92f, 1.0f);
    style.Colors[ImGuiCol_HeaderHovered] = ImVec4(0.62f, 0.74f, 0.90f, 1.0f);
    style.Colors[ImGuiCol_FrameBg] = ImVec4(0.86f, 0.87f, 0.90f, 1.0f);
    style.Colors[ImGuiCol_PopupBg] = ImVec4(0.99f, 0.99f, 0.99f, 0.98f);
    style.Colors[ImGuiCol_Border] = ImVec4(0.0f, 0.0f, 0.0f, 0.25f);
  } else {
    ImGui::StyleColorsDark(&style);
    style.Colors[ImGuiCol_WindowBg] = ImVec4(0.09f, 0.10f, 0.12f, 0.94f);
    style.Colors[ImGuiCol_Header] = ImVec4(0.20f, 0.25f, 0.33f, 1.0f);
    style.Colors[ImGuiCol_HeaderHovered] = ImVec4(0.26f, 0.33f, 0.44f, 1.0f);
    style.Colors[ImGuiCol_FrameBg] = ImVec4(0.16f, 0.17f, 0.20f, 1.0f);
  }
  style.ScaleAllSizes(scale);
  // software: a CPU rasterizer (llvmpipe), where every panel triangle costs: ImGui's anti-aliased lines and fills
  // (a feathered fringe around each) are turned off there, which halves the panels' triangles (measured: the
  // Simple pendulum's frame with panels from 10.4 to 8.4 ms).
  style.AntiAliasedLines = !software;
  style.AntiAliasedFill = !software;
  ImGui::GetStyle() = style;
  g_ui_palette = &palette(theme);
}

void build_fonts(float scale) {
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  io.FontGlobalScale = 1.0f;
  const char* font = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
  if (std::filesystem::exists(font)) {
    // Latin, Greek (λ, Δ, β), arrows, geometric shapes (● ◎), the superscript T of Jᵀ and the exponents of 10⁻³.
    // The ranges must outlive the atlas: built once.
    static ImVector<ImWchar> ranges;
    if (ranges.empty()) {
      ImFontGlyphRangesBuilder builder;
      builder.AddRanges(io.Fonts->GetGlyphRangesDefault());
      static const ImWchar extra[] = {0x0300, 0x036F, 0x0370, 0x03FF, 0x1D40, 0x1D40, 0x2010, 0x2027,
                                      0x2070, 0x207F, 0x2190, 0x21FF, 0x2200, 0x22FF, 0x25A0, 0x25FF, 0};
      builder.AddRanges(extra);
      builder.BuildRanges(&ranges);
    }
    // Whole pixels: a fractional size blurs every glyph's baseline.
    io.Fonts->AddFontFromFileTTF(font, std::round(kBaseFontSize * scale), nullptr, ranges.Data);
  } else {
    io.Fonts->AddFontDefault();
    io.FontGlobalScale = scale;
  }
}

}  // namespace lagrange::app
