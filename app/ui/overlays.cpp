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
    {"Tab", "collapse the panels to thin bars / open them", {SDLK_TAB}},
    {"F5", "presentation: the scene alone, with one line of text / back", {SDLK_F5}},
    {"F12 or P", "screenshot (PNG)", {SDLK_F12, SDLK_p}},
    {"F9", "record a video of the window at simulated time (MP4; a GIF in the browser) / stop and save it", {SDLK_F9}},
    {"H or F1", "this help", {SDLK_h, SDLK_F1}},
    {"Esc", "close help / drop the grabbed particle where it is / leave presentation", {SDLK_ESCAPE}},
    {"L", "add a lane: the scene again, from now, with another solver, stepped alongside (up to 4)", {SDLK_l}},
    {"Ctrl+L", "remove the last lane", {SDLK_l}, false, true},
    {"V", "lanes overlaid / side by side", {SDLK_v}},
    {"X", "draw rod length errors x1 / x10 / x100 / x1000", {SDLK_x}},
    {"I", "step view on / off: the next substep frozen, its prediction, iterates, corrections and residuals (pauses)",
     {SDLK_i}},
    {"Left / Right (step view)", "previous / next iterate of the frozen substep", {SDLK_LEFT, SDLK_RIGHT}},
    {"Home / End (step view)", "first / last iterate", {SDLK_HOME, SDLK_END}},
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
  // What this frame may not draw is not left over from the last one.
  for (const char* name : {"tooltip", "control panel", "diagnostics panel", "editor panel", "measure panel", "left bar",
                           "right bar", "collapse left", "collapse right", "timeline slider", "timeline back",
                           "timeline play", "record button", "step view"})
    state.widget_rects.erase(name);
  if (state.convergence.figure) {  // `converge --plot`: the picture alone
    draw_convergence_figure(state);
    return;
  }
  if (state.editor.active) {  // Edit mode: the Editor panel in place of the plots; no time, no lanes, no legend
    if (!state.view.presentation && state.view.panels) {
      draw_control_panel(state);
      draw_editor_panel(state);
    }
    draw_edit_overlay(state);
    draw_scene_overlays(state);  // the banner and the messages
    draw_hover(state);
    if (state.view.help) draw_help(state);
    return;
  }
  if (!state.view.presentation && state.view.panels) {
    draw_control_panel(state);
    draw_diagnostics(state);
    if (state.measure.shown) draw_measure_panel(state);
  }
  draw_scene_overlays(state);
  draw_step_view_panel(state);
  draw_lane_overlay(state);
  draw_timeline(state);
  draw_hover(state);
  if (state.view.help) draw_help(state);
}

namespace {

// An obstacle under the pointer: its shape and size, its coefficients, the force on it and what a click does.
void hover_obstacle(const SandboxState& state, const World& world, int index) {
  const ContactSettings& contacts = world.model().contacts();
  if (index < 0 || static_cast<std::size_t>(index) >= contacts.obstacles.size()) return;
  const Obstacle& o = contacts.obstacles[static_cast<std::size_t>(index)];
  ImGui::Text("Obstacle: %s", obstacle_name(world, index).c_str());
  ImGui::Separator();
  switch (o.shape) {
    case ObstacleShape::Plane:
      ImGui::Text("through (%.3g, %.3g, %.3g) m", o.point.x, o.point.y, o.point.z);
      ImGui::Text("normal  (%.3g, %.3g, %.3g)", o.normal.x, o.normal.y, o.normal.z);
      break;
    case ObstacleShape::Box:
      ImGui::Text("from (%.3g, %.3g, %.3g) m", o.min.x, o.min.y, o.min.z);
      ImGui::Text("to   (%.3g, %.3g, %.3g) m", o.max.x, o.max.y, o.max.z);
      break;
    case ObstacleShape::Sphere:
      ImGui::Text("centre (%.3g, %.3g, %.3g) m, radius %.4g m", o.center.x, o.center.y, o.center.z, o.radius);
      break;
  }
  ImGui::Text("restitution %.3g, friction %.3g", contacts.restitution_of(o), contacts.friction_of(o));
  const Vec3 f = obstacle_force(world.state(), index);
  ImGui::Text("force on it  %.4g N (mean over the last step)", glm::length(f));
  if (!state.editor.active) ImGui::TextDisabled("click: the Measure strip's scale reads it (M)");
}

// A coordinate as the hover card prints it (`decimals` places): a value that rounds to zero is 0, so a particle
// resting at −1e-12 m reads 0.0000, not −0.0000.
double shown(double value, int decimals) { return std::abs(value) < 0.5 * std::pow(10.0, -decimals) ? 0.0 : value; }
Vec3 shown(Vec3 v, int decimals) { return {shown(v.x, decimals), shown(v.y, decimals), shown(v.z, decimals)}; }
}  // namespace

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
    const Vec3 x = shown(world.state().position[i], world.dimension() == 2 ? 4 : 3), v = world.state().velocity[i];
    if (world.dimension() == 2) ImGui::Text("x      (%.4f, %.4f) m", x.x, x.y);
    else ImGui::Text("x      (%.3f, %.3f, %.3f) m", x.x, x.y, x.z);
    ImGui::Text("speed  %.4f m/s", glm::length(v));
    const auto constraints = world.constraints();
    for (std::size_t c = 0; c < constraints.size(); ++c)  // its pins: where, and how hard they pull
      if (!constraints[c]->tool() && has_role(*constraints[c], KindRole::Pin) && constraints[c]->particles()[0] == i) {
        const Vec3 at = shown(constraints[c]->point(), world.dimension() == 2 ? 4 : 3);
        if (world.dimension() == 2) ImGui::Text("held by a pin at (%.4f, %.4f) m", at.x, at.y);
        else ImGui::Text("held by a pin at (%.3f, %.3f, %.3f) m", at.x, at.y, at.z);
        ImGui::Text("pin's force  %.4g N",
                    glm::length(constraint_force(model, world.state(), i, static_cast<int>(c))));
      }
    if (state.editor.active) {
      ImGui::TextDisabled(state.editor.tool == EditTool::Rod ? "drag to another particle: a rod"
                                                             : "click: select (Shift adds), drag: move");
    } else if (!model.fixed(i)) {
      ImGui::Text("|J\xe1\xb5\x80\xce\xbb|  %.4g N", glm::length(constraint_force(model, world.state(), i)));
      ImGui::TextDisabled("drag to move, Shift+click: trail");
    } else {
      ImGui::TextDisabled("drag to move the anchor");
    }
  } else if (state.hover.kind == Hover::Kind::Obstacle) {
    hover_obstacle(state, world, state.hover.index);
  } else {
    const int c = state.hover.index;
    const Constraint& constraint = *world.constraints()[c];
    const auto ids = constraint.particles();
    const double error = constraint.value(0, world.state().position);
    const double rest = constraint.length_scale(0);
    const std::size_t r = static_cast<std::size_t>(world.model().row_offset(c));
    const double lambda = r < world.state().row_force.size() ? world.state().row_force[r] : 0.0;
    if (constraint.unilateral() != 0) {  // a cable: its length and whether it is slack
      const double slack = lagrange::slack(world.model(), world.state(), c);
      ImGui::Text("Cable %d: particles %d - %d", c, ids[0], ids[1]);
      ImGui::Separator();
      ImGui::Text("length        %.6g m", rest);
      ImGui::Text("distance      %.9g m", rest + error);
      if (slack > 0.0) ImGui::Text("slack         %.4g m (no force)", slack);
      else ImGui::TextColored(palette(state.appearance.theme).tension, "taut: tension %.4g N", std::abs(lambda));
      ImGui::TextDisabled("a string: it pulls when taut, never pushes");
    } else {
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
  // At most 60 em wide and nine tenths of the window: the descriptions wrap, a long list scrolls.
  const float width = std::min(60.0f * ImGui::GetFontSize(), 0.94f * viewport->Size.x);
  ImGui::SetNextWindowSize(ImVec2(width, 0.9f * viewport->Size.y));
  const ImGuiTableFlags table = ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit;
  const auto columns = [] {
    ImGui::TableSetupColumn("keys", ImGuiTableColumnFlags_WidthFixed);
    ImGui::TableSetupColumn("what", ImGuiTableColumnFlags_WidthStretch);
  };
  if (ImGui::Begin("Help — keys and mouse", &state.view.help,
                   ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoCollapse)) {
    if (state.editor.active && ImGui::BeginTable("edit keys", 2, table)) {
      columns();
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      ImGui::TextColored(palette(state.appearance.theme).editing, "Edit mode");
      for (const EditKey& key : edit_keys()) {
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        ImGui::TextColored(palette(state.appearance.theme).key, "%s", key.keys);
        ImGui::TableSetColumnIndex(1);
        words(key.what);
      }
      for (const EditTools& tool : kEditTools) {
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        ImGui::TextColored(palette(state.appearance.theme).key, "%s %s", tool.key, tool.name);
        ImGui::TableSetColumnIndex(1);
        words(tool.help);
      }
      ImGui::EndTable();
      ImGui::Separator();
    }
    if (!state.editor.active && ImGui::BeginTable("keys", 2, table)) {
      columns();
      for (const Shortcut& s : shortcuts()) {
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        ImGui::TextColored(palette(state.appearance.theme).key, "%s", s.keys);
        ImGui::TableSetColumnIndex(1);
        words(s.action);
      }
      ImGui::EndTable();
    }
    ImGui::Separator();
    ImGui::TextDisabled("Solvers (number keys):");
    int k = 1;
    for (const SolverInfo& info : solver_table()) {
      ImGui::TextColored(ImVec4(info.colour.r, info.colour.g, info.colour.b, 1.0f), "%d  %s", k++, info.name);
      hint(info.description);
    }
  }
  ImGui::End();
}

}  // namespace lagrange::app
