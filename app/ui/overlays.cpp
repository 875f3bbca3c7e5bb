// HUD line, rod colour legend, hover tooltip and the help overlay.
#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>

#include "ui/measure_panel.h"
#include "ui/ui.h"
#include "view/scene_draw.h"

namespace lagrange::app {
namespace {

constexpr Shortcut kShortcuts[] = {
    {"Space", "pause / resume", {SDLK_SPACE}},
    {"S or Right", "single step (pauses); in the past, one step forward through the history", {SDLK_s, SDLK_RIGHT}},
    {"Left", "one step back in time (pauses; the last 60 s are kept)", {SDLK_LEFT}},
    {"R", "reset the scene (keeps your settings)", {SDLK_r}},
    {"1 .. 9", "switch solver (order of the solver list), live", {SDLK_1, SDLK_9}, true},
    {"[ and ]", "halve / double the time scale (slow motion)", {SDLK_LEFTBRACKET, SDLK_RIGHTBRACKET}},
    {"D", "drag model: hard (stiff hand) / spring (soft, per kg moved)", {SDLK_d}},
    {"F", "frame the scene", {SDLK_f}},
    {"T", "trails on / off", {SDLK_t}},
    {"C", "clear trails", {SDLK_c}},
    {"A", "constraint force arrows on / off", {SDLK_a}},
    {"G", "grid on / off", {SDLK_g}},
    {"M", "measuring tools on / off (period timer, stopwatch, protractor, energy bars)", {SDLK_m}},
    {"Tab", "hide / show the panels", {SDLK_TAB}},
    {"F12 or P", "screenshot (PNG)", {SDLK_F12, SDLK_p}},
    {"F9", "record a video of the window at simulated time (MP4; a GIF in the browser) / stop and save it", {SDLK_F9}},
    {"H or F1", "this help", {SDLK_h, SDLK_F1}},
    {"Esc", "close help / drop the grabbed particle where it is", {SDLK_ESCAPE}},
    {"L", "add a lane: the scene again, from now, with another solver, stepped alongside (up to 4)", {SDLK_l}},
    {"Ctrl+L", "remove the last lane", {SDLK_l}, false, true},
    {"V", "lanes overlaid / side by side", {SDLK_v}},
    {"X", "draw rod length errors x1 / x10 / x100 / x1000", {SDLK_x}},
    {"E", "Edit mode on / off: build the scene with the mouse (keys below); off plays the edited scene", {SDLK_e}},
    {"Ctrl+S", "save the scene as it is now (to the last file saved, or a new one)", {SDLK_s}, false, true},
    {"Ctrl+Q", "quit", {SDLK_q}, false, true},
    {"Left-drag particle", "grab it; release to fling"},
    {"Shift+click particle", "trail on / off for it"},
    {"Left-drag empty", "2D: pan   3D: orbit"},
    {"Right / middle drag", "pan"},
    {"Wheel", "zoom"},
    {"Double-click empty", "frame the scene"},
    {"Drop a .json file", "open that scene"},
};

ImVec4 solver_colour(const SandboxState& state) {
  const Colour c = state.world().solver_info().colour;
  return ImVec4(c.r, c.g, c.b, 1.0f);
}

}  // namespace

std::span<const Shortcut> shortcuts() { return kShortcuts; }

std::vector<KeyPress> documented_keys() {
  std::vector<KeyPress> keys;
  for (const Shortcut& s : kShortcuts) {
    if (s.codes[0] == SDLK_UNKNOWN) continue;
    const bool quits = s.ctrl && s.codes[0] == SDLK_q;
    if (s.range) {
      for (SDL_Keycode k = s.codes[0]; k <= s.codes[1]; ++k) keys.push_back({k, s.ctrl, quits});
    } else {
      for (SDL_Keycode k : s.codes)
        if (k != SDLK_UNKNOWN) keys.push_back({k, s.ctrl, quits});
    }
  }
  return keys;
}

void draw_ui(SandboxState& state) {
  state.widget_rects.erase("tooltip");
  if (state.editor.active) {  // Edit mode: the Editor panel in place of the plots; no time, no lanes, no legend
    if (state.view.panels) {
      draw_control_panel(state);
      draw_editor_panel(state);
    }
    draw_edit_overlay(state);
    draw_hover(state);
    if (state.view.help) draw_help(state);
    return;
  }
  if (state.view.panels) {
    draw_control_panel(state);
    draw_diagnostics(state);
    if (state.measure.shown) draw_measure_panel(state);
  }
  draw_hud(state);
  draw_lane_overlay(state);
  draw_timeline(state);
  draw_recording_indicator(state);
  if (state.view.legend) draw_legend(state);
  draw_hover(state);
  if (state.view.help) draw_help(state);
}

namespace {

// Lays out text pieces left to right, starting a new line when the next would pass `width`: the HUD stays inside the
// scene's viewport however narrow it is.
class FlowLine {
 public:
  explicit FlowLine(float width) : width_(width) {}
  void text(const ImVec4& colour, const char* text, bool separator = true) {
    const float w = ImGui::CalcTextSize(text).x;
    const float sep = ImGui::CalcTextSize(" | ").x + 2.0f * ImGui::GetStyle().ItemSpacing.x;
    if (used_ > 0.0f) {
      if (used_ + (separator ? sep : ImGui::GetStyle().ItemSpacing.x) + w > width_) {
        used_ = 0.0f;  // a new line, no separator
      } else if (separator) {
        ImGui::SameLine();
        ImGui::TextDisabled("|");
        ImGui::SameLine();
        used_ += sep;
      } else {
        ImGui::SameLine();
        used_ += ImGui::GetStyle().ItemSpacing.x;
      }
    }
    ImGui::TextColored(colour, "%s", text);
    used_ += w;
  }

 private:
  float width_, used_ = 0.0f;
};

// The free width of the scene between the panels, in window units.
float scene_width(const SandboxState& state) {
  const PanelLayout layout = panel_layout(state);
  return static_cast<float>(state.window_width / state.pixel_ratio) - layout.left - layout.right;
}

}  // namespace

void draw_hud(SandboxState& state) {
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  const float margin = panel_layout(state).left + 12.0f;
  const float max_width = std::max(scene_width(state) - 24.0f, 80.0f);
  ImGui::SetNextWindowPos(ImVec2(viewport->Pos.x + margin, viewport->Pos.y + 10.0f));
  ImGui::SetNextWindowSizeConstraints(ImVec2(0.0f, 0.0f), ImVec2(max_width, FLT_MAX));
  ImGui::SetNextWindowBgAlpha(0.55f);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                                 ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoInputs;
  if (ImGui::Begin("##hud", nullptr, flags)) {
    const ImVec4 plain = ImGui::GetStyleColorVec4(ImGuiCol_Text);
    const Palette& colours = palette(state.appearance.theme);
    FlowLine line(max_width - 2.0f * ImGui::GetStyle().WindowPadding.x);
    char text[256];
    std::snprintf(text, sizeof text, "\xe2\x97\x8f %s", state.world().solver_info().name);  // ●
    line.text(solver_colour(state), text);
    line.text(plain, state.scene.name.c_str());
    std::snprintf(text, sizeof text, "t = %.2f s", state.world().time());
    line.text(plain, text);
    if (state.time_scale != 1.0) {
      std::snprintf(text, sizeof text, "x%.3g", state.time_scale);
      line.text(colours.accent, text, false);
    }
    if (state.paused) line.text(colours.paused, "PAUSED", false);
    if (state.timing.slowed) line.text(colours.slow, "slower than real time", false);
    if (!state.view.panels) line.text(ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled), "(Tab: panels, H: help)", false);
    state.widget_rects.erase("alert");
    if (!state.alert.empty()) {  // the roll-back's message: until the user acts, never faded
      ImGui::PushTextWrapPos(std::min(ImGui::GetFontSize() * 40.0f, max_width - ImGui::GetStyle().WindowPadding.x));
      ImGui::TextColored(colours.error_text, "%s", state.alert.c_str());
      ImGui::PopTextWrapPos();
      const ImVec2 lo = ImGui::GetItemRectMin(), hi = ImGui::GetItemRectMax();
      state.widget_rects["alert"] = {lo.x, lo.y, hi.x, hi.y};
    }
    if (state.toast_seconds > 0.0 && !state.toast.empty()) {
      ImGui::PushTextWrapPos(std::min(ImGui::GetFontSize() * 40.0f, max_width - ImGui::GetStyle().WindowPadding.x));
      ImGui::TextColored(state.toast_is_error ? colours.error_text : colours.ok_text, "%s",
                         state.toast.c_str());
      ImGui::PopTextWrapPos();
    }
    const ImVec2 pos = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
    state.widget_rects["hud"] = {pos.x, pos.y, pos.x + size.x, pos.y + size.y};
  }
  ImGui::End();
}

void draw_legend(SandboxState& state) {
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  const float margin = panel_layout(state).left + 12.0f;
  const float bottom = viewport->Pos.y + viewport->Size.y - panel_layout(state).bottom - timeline_height(state);
  ImGui::SetNextWindowPos(ImVec2(viewport->Pos.x + margin, bottom - 10.0f),
                          ImGuiCond_Always, ImVec2(0.0f, 1.0f));
  ImGui::SetNextWindowBgAlpha(0.55f);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                                 ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoInputs;
  if (!ImGui::Begin("##legend", nullptr, flags)) {
    ImGui::End();
    return;
  }
  const float bar_w = 220.0f * static_cast<float>(state.ui_scale), bar_h = 10.0f * static_cast<float>(state.ui_scale);
  const Theme theme = state.appearance.theme;
  const Palette& colours = palette(theme);
  // Labels under the bar: at its left end, centred at `at` (0..1 of the bar) or ending at its right end, whatever
  // the font size. SameLine's offset counts from the window's left edge.
  const float pad = ImGui::GetStyle().WindowPadding.x;
  const auto centred = [&](const char* text, float at) {
    ImGui::SameLine(pad + bar_w * at - 0.5f * ImGui::CalcTextSize(text).x);
  };
  const auto at_right = [&](const char* text) { ImGui::SameLine(pad + bar_w - ImGui::CalcTextSize(text).x); };
  auto gradient = [&](auto colour_at) {
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImVec2 p = ImGui::GetCursorScreenPos();
    constexpr int kSteps = 44;
    for (int k = 0; k < kSteps; ++k) {
      const glm::vec4 c = colour_at(static_cast<double>(k) / (kSteps - 1));
      draw->AddRectFilled(ImVec2(p.x + bar_w * k / kSteps, p.y), ImVec2(p.x + bar_w * (k + 1) / kSteps + 0.5f, p.y + bar_h),
                          ImGui::ColorConvertFloat4ToU32(ImVec4(c.r, c.g, c.b, 1.0f)));
    }
    ImGui::Dummy(ImVec2(bar_w, bar_h));
  };
  switch (state.view.rod_colouring) {
    case RodColouring::Tension: {
      ImGui::Text("Rod force  (|λ| scale %.3g N)", state.force_scale);
      gradient([&](double u) {
        return tension_colour((u * 2.0 - 1.0) * state.force_scale * -1.0, state.force_scale, theme);
      });
      ImGui::TextColored(colours.compression, "compression");
      centred("0", 0.5f);
      ImGui::TextDisabled("0");
      at_right("tension");
      ImGui::TextColored(colours.tension, "tension");
      break;
    }
    case RodColouring::LengthError:
      ImGui::Text("Rod length error |C| / L");
      gradient([&](double u) { return error_colour(std::pow(10.0, -12.0 + 10.0 * u), theme); });
      ImGui::TextDisabled("1e-12");
      centred("1e-7", 0.5f);
      ImGui::TextDisabled("1e-7");
      at_right("1e-2");
      ImGui::TextDisabled("1e-2");
      break;
    case RodColouring::Plain:
      ImGui::TextDisabled("Rods: plain");
      break;
  }
  ImGui::TextColored(colours.pin_label, "\xe2\x97\x8e pin");  // ◎
  ImGui::SameLine();
  ImGui::TextColored(colours.fixed_label, "  striped ball: fixed");
  if (state.view.gravity_arrows || state.view.constraint_arrows) {
    const auto vec4 = [](glm::vec4 c) { return ImVec4(c.r, c.g, c.b, 1.0f); };
    ImGui::TextColored(vec4(colours.gravity), "\xe2\x86\x92 gravity m g");
    ImGui::SameLine();
    ImGui::TextColored(vec4(colours.constraint_force), "  \xe2\x86\x92 constraint force J\xe1\xb5\x80\xce\xbb");
  }
  ImGui::End();
}

void draw_hover(SandboxState& state) {
  const std::size_t lane = static_cast<std::size_t>(state.hover.lane);
  const World& world = state.lane_world(lane);
  if (state.hover.kind == Hover::Kind::None) return;
  ImGui::BeginTooltip();
  if (state.hover.kind == Hover::Kind::Particle) {
    const int i = state.hover.index;
    const Model& model = world.model();
    ImGui::Text("Particle %d", i);
    ImGui::Separator();
    if (model.fixed(i)) ImGui::Text("fixed (infinite mass)");
    else ImGui::Text("mass   %.4g kg", model.mass(i));
    const Vec3 x = world.state().position[i], v = world.state().velocity[i];
    if (world.dimension() == 2) ImGui::Text("x      (%.4f, %.4f) m", x.x, x.y);
    else ImGui::Text("x      (%.3f, %.3f, %.3f) m", x.x, x.y, x.z);
    ImGui::Text("speed  %.4f m/s", glm::length(v));
    if (state.editor.active) {
      ImGui::TextDisabled(state.editor.tool == EditTool::Rod ? "drag to another particle: a rod"
                                                             : "click: select (Shift adds), drag: move");
    } else if (!model.fixed(i)) {
      ImGui::Text("|J\xe1\xb5\x80\xce\xbb|  %.4g N", glm::length(constraint_force(model, world.state(), i)));
      ImGui::TextDisabled("drag to move, Shift+click: trail");
    } else {
      ImGui::TextDisabled("drag to move the anchor");
    }
  } else {
    const int c = state.hover.index;
    const Constraint& constraint = *world.constraints()[c];
    const auto ids = constraint.particles();
    const double error = constraint.value(0, world.state().position);
    const double rest = constraint.length_scale(0);
    const std::size_t r = static_cast<std::size_t>(world.model().row_offset(c));
    const double lambda = r < world.state().row_force.size() ? world.state().row_force[r] : 0.0;
    ImGui::Text("Rod %d: particles %d - %d", c, ids[0], ids[1]);
    ImGui::Separator();
    ImGui::Text("rest length   %.6g m", rest);
    ImGui::Text("length        %.9g m", rest + error);
    ImGui::Text("error C       %.3e m", error);
    ImGui::Text("\xce\xbb             %.5g N", lambda);
    if (std::abs(lambda) > 1e-12)
      ImGui::TextColored(lambda < 0 ? palette(state.appearance.theme).tension : palette(state.appearance.theme).compression,
                         "%s %.4g N",
                         lambda < 0 ? "tension" : "compression", std::abs(lambda));
  }
  const ImVec2 pos = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
  state.widget_rects["tooltip"] = {pos.x, pos.y, pos.x + size.x, pos.y + size.y};
  ImGui::EndTooltip();
}

void draw_help(SandboxState& state) {
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(ImVec2(viewport->Pos.x + viewport->Size.x * 0.5f, viewport->Pos.y + viewport->Size.y * 0.5f),
                          ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowBgAlpha(0.96f);
  if (ImGui::Begin("Help — keys and mouse", &state.view.help,
                   ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoCollapse)) {
    if (state.editor.active && ImGui::BeginTable("edit keys", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) {
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      ImGui::TextColored(palette(state.appearance.theme).editing, "Edit mode");
      for (const EditKey& key : edit_keys()) {
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        ImGui::TextColored(palette(state.appearance.theme).key, "%s", key.keys);
        ImGui::TableSetColumnIndex(1);
        ImGui::TextUnformatted(key.what);
      }
      for (const EditTools& tool : kEditTools) {
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        ImGui::TextColored(palette(state.appearance.theme).key, "%s %s", tool.key, tool.name);
        ImGui::TableSetColumnIndex(1);
        ImGui::TextUnformatted(tool.help);
      }
      ImGui::EndTable();
      ImGui::Separator();
    }
    if (!state.editor.active && ImGui::BeginTable("keys", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) {
      for (const Shortcut& s : shortcuts()) {
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        ImGui::TextColored(palette(state.appearance.theme).key, "%s", s.keys);
        ImGui::TableSetColumnIndex(1);
        ImGui::TextUnformatted(s.action);
      }
      ImGui::EndTable();
    }
    ImGui::Separator();
    ImGui::TextDisabled("Solvers (number keys):");
    int k = 1;
    for (const SolverInfo& info : solver_table()) {
      ImGui::TextColored(ImVec4(info.colour.r, info.colour.g, info.colour.b, 1.0f), "%d  %s", k++, info.name);
      ImGui::SameLine();
      ImGui::TextDisabled("- %s", info.description);
    }
  }
  ImGui::End();
}

}  // namespace lagrange::app
