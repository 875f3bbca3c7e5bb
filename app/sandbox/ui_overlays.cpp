// HUD line, rod colour legend, hover tooltip and the help overlay.
#include <imgui.h>

#include <cmath>
#include <cstdio>

#include "sandbox/scene_draw.h"
#include "sandbox/ui.h"

namespace lagrange::app {
namespace {

constexpr Shortcut kShortcuts[] = {
    {"Space", "pause / resume"},
    {"S or Right", "single step (pauses)"},
    {"R", "reset the scene (keeps your settings)"},
    {"1 .. 9", "switch solver (order of the solver list), live"},
    {"[ and ]", "halve / double the time scale (slow motion)"},
    {"D", "drag model: hard (pin) / spring"},
    {"F", "frame the scene"},
    {"T", "trails on / off"},
    {"C", "clear trails"},
    {"A", "constraint force arrows on / off"},
    {"G", "grid on / off"},
    {"Tab", "hide / show the panels"},
    {"F12 or P", "screenshot (PNG)"},
    {"H or F1", "this help"},
    {"Esc", "close help / drop the grabbed particle where it is"},
    {"Ctrl+Q", "quit"},
    {"Left-drag particle", "grab it; release to fling"},
    {"Shift+click particle", "trail on / off for it"},
    {"Left-drag empty", "2D: pan   3D: orbit"},
    {"Right / middle drag", "pan"},
    {"Wheel", "zoom"},
    {"Double-click empty", "frame the scene"},
    {"Drop a .json file", "open that scene"},
};

ImVec4 solver_colour(const SandboxState& state) {
  const Colour c = state.world.solver_info().colour;
  return ImVec4(c.r, c.g, c.b, 1.0f);
}

}  // namespace

std::span<const Shortcut> shortcuts() { return kShortcuts; }

void draw_ui(SandboxState& state) {
  if (state.view.panels) {
    draw_control_panel(state);
    draw_diagnostics(state);
  }
  draw_hud(state);
  if (state.view.legend) draw_legend(state);
  draw_hover(state);
  if (state.view.help) draw_help(state);
}

void draw_hud(SandboxState& state) {
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  const float margin = state.view.panels ? panel_width(state) + 12.0f : 12.0f;
  ImGui::SetNextWindowPos(ImVec2(viewport->Pos.x + margin, viewport->Pos.y + 10.0f));
  ImGui::SetNextWindowBgAlpha(0.55f);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                                 ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoInputs;
  if (ImGui::Begin("##hud", nullptr, flags)) {
    ImGui::TextColored(solver_colour(state), "\xe2\x97\x8f %s", state.world.solver_info().name);  // ●
    ImGui::SameLine();
    ImGui::TextDisabled("|");
    ImGui::SameLine();
    ImGui::Text("%s", state.scene.name.c_str());
    ImGui::SameLine();
    ImGui::TextDisabled("|");
    ImGui::SameLine();
    ImGui::Text("t = %.2f s", state.world.time());
    if (state.time_scale != 1.0) {
      ImGui::SameLine();
      ImGui::TextColored(ImVec4(0.6f, 0.85f, 1.0f, 1.0f), "x%.3g", state.time_scale);
    }
    if (state.paused) {
      ImGui::SameLine();
      ImGui::TextColored(ImVec4(1.0f, 0.8f, 0.3f, 1.0f), "PAUSED");
    }
    if (state.timing.slowed) {
      ImGui::SameLine();
      ImGui::TextColored(ImVec4(1.0f, 0.5f, 0.4f, 1.0f), "slower than real time");
    }
    if (!state.view.panels) {
      ImGui::SameLine();
      ImGui::TextDisabled("(Tab: panels, H: help)");
    }
    if (state.toast_seconds > 0.0 && !state.toast.empty()) {
      ImGui::PushTextWrapPos(ImGui::GetFontSize() * 40.0f);
      ImGui::TextColored(state.toast_is_error ? ImVec4(1.0f, 0.45f, 0.40f, 1.0f) : ImVec4(0.6f, 0.9f, 0.6f, 1.0f), "%s",
                         state.toast.c_str());
      ImGui::PopTextWrapPos();
    }
  }
  ImGui::End();
}

void draw_legend(SandboxState& state) {
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  const float margin = state.view.panels ? panel_width(state) + 12.0f : 12.0f;
  ImGui::SetNextWindowPos(ImVec2(viewport->Pos.x + margin, viewport->Pos.y + viewport->Size.y - 10.0f),
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
      gradient([&](double u) { return tension_colour((u * 2.0 - 1.0) * state.force_scale * -1.0, state.force_scale); });
      ImGui::TextColored(ImVec4(0.4f, 0.6f, 1.0f, 1.0f), "compression");
      ImGui::SameLine(bar_w * 0.5f - 4.0f);
      ImGui::TextDisabled("0");
      ImGui::SameLine(bar_w - 40.0f);
      ImGui::TextColored(ImVec4(0.95f, 0.35f, 0.2f, 1.0f), "tension");
      break;
    }
    case RodColouring::LengthError:
      ImGui::Text("Rod length error |C| / L");
      gradient([](double u) { return error_colour(std::pow(10.0, -12.0 + 10.0 * u)); });
      ImGui::TextDisabled("1e-12");
      ImGui::SameLine(bar_w * 0.5f - 14.0f);
      ImGui::TextDisabled("1e-7");
      ImGui::SameLine(bar_w - 30.0f);
      ImGui::TextDisabled("1e-2");
      break;
    case RodColouring::Plain:
      ImGui::TextDisabled("Rods: plain");
      break;
  }
  ImGui::TextColored(ImVec4(1.0f, 0.8f, 0.2f, 1.0f), "\xe2\x97\x8e pin");  // ◎
  ImGui::SameLine();
  ImGui::TextColored(ImVec4(0.6f, 0.62f, 0.66f, 1.0f), "  striped ball: fixed");
  if (state.view.gravity_arrows || state.view.constraint_arrows) {
    ImGui::TextColored(ImVec4(0.45f, 0.85f, 0.45f, 1.0f), "\xe2\x86\x92 gravity m g");
    ImGui::SameLine();
    ImGui::TextColored(ImVec4(0.95f, 0.45f, 0.95f, 1.0f), "  \xe2\x86\x92 constraint force J\xe1\xb5\x80\xce\xbb");
  }
  ImGui::End();
}

void draw_hover(SandboxState& state) {
  const World& world = state.world;
  if (state.hover.kind == Hover::Kind::None) return;
  ImGui::BeginTooltip();
  if (state.hover.kind == Hover::Kind::Particle) {
    const int i = state.hover.index;
    const Particles& p = world.particles();
    ImGui::Text("Particle %d", i);
    ImGui::Separator();
    if (p.fixed(i)) ImGui::Text("fixed (infinite mass)");
    else ImGui::Text("mass   %.4g kg", p.mass[i]);
    const Vec3 x = p.position[i], v = p.velocity[i];
    if (world.dimension() == 2) ImGui::Text("x      (%.4f, %.4f) m", x.x, x.y);
    else ImGui::Text("x      (%.3f, %.3f, %.3f) m", x.x, x.y, x.z);
    ImGui::Text("speed  %.4f m/s", glm::length(v));
    if (!p.fixed(i)) {
      ImGui::Text("|J\xe1\xb5\x80\xce\xbb|  %.4g N", glm::length(constraint_force(world, i)));
      ImGui::TextDisabled("drag to move, Shift+click: trail");
    } else {
      ImGui::TextDisabled("drag to move the anchor");
    }
  } else {
    const int c = state.hover.index;
    const Constraint& constraint = *world.constraints()[c];
    const auto ids = constraint.particles();
    const double error = constraint.value(0, world.particles().position);
    const double rest = constraint.length_scale(0);
    const std::size_t r = static_cast<std::size_t>(world.row_offset(c));
    const double lambda = r < world.row_force().size() ? world.row_force()[r] : 0.0;
    ImGui::Text("Rod %d: particles %d - %d", c, ids[0], ids[1]);
    ImGui::Separator();
    ImGui::Text("rest length   %.6g m", rest);
    ImGui::Text("length        %.9g m", rest + error);
    ImGui::Text("error C       %.3e m", error);
    ImGui::Text("\xce\xbb             %.5g N", lambda);
    if (std::abs(lambda) > 1e-12)
      ImGui::TextColored(lambda < 0 ? ImVec4(1.0f, 0.55f, 0.3f, 1.0f) : ImVec4(0.4f, 0.7f, 1.0f, 1.0f), "%s %.4g N",
                         lambda < 0 ? "tension" : "compression", std::abs(lambda));
  }
  ImGui::EndTooltip();
}

void draw_help(SandboxState& state) {
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(ImVec2(viewport->Pos.x + viewport->Size.x * 0.5f, viewport->Pos.y + viewport->Size.y * 0.5f),
                          ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowBgAlpha(0.96f);
  if (ImGui::Begin("Help — keys and mouse", &state.view.help,
                   ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoCollapse)) {
    if (ImGui::BeginTable("keys", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) {
      for (const Shortcut& s : shortcuts()) {
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        ImGui::TextColored(ImVec4(0.6f, 0.85f, 1.0f, 1.0f), "%s", s.keys);
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
