// The control panel (left): scene browser, solver, simulation settings, interaction, view, screenshots.
#include <imgui.h>

#include <algorithm>
#include <cstring>
#include <string_view>

#include "sandbox/ui.h"

namespace lagrange::app {
namespace {

// A greyed hint that wraps at the panel's edge instead of running under it.
template <typename... Args>
void hint(const char* format, Args... args) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextWrapped(format, args...);
  ImGui::PopStyleColor();
}

void remember_rect(SandboxState& state, const std::string& name) {
  const ImVec2 lo = ImGui::GetItemRectMin(), hi = ImGui::GetItemRectMax();
  state.widget_rects[name] = {lo.x, lo.y, hi.x, hi.y};
}

const SettingInfo* setting_info(std::string_view key) {
  for (const SettingInfo& info : setting_table())
    if (key == info.key) return &info;
  return nullptr;
}

// "label [unit]" from the settings table, with its description as a tooltip.
std::string setting_label(std::string_view key, const char* fallback) {
  const SettingInfo* info = setting_info(key);
  std::string label = fallback;
  if (info && info->unit && *info->unit) label += std::string(" [") + info->unit + "]";
  return label + "##" + std::string(key);
}

void setting_tooltip(std::string_view key) {
  const SettingInfo* info = setting_info(key);
  if (info && ImGui::IsItemHovered()) ImGui::SetTooltip("%s: %s", info->key, info->description);
}

bool slider_double(std::string_view key, const char* label, double& value, double lo, double hi, const char* format,
                   bool log = false) {
  const bool changed = ImGui::SliderScalar(setting_label(key, label).c_str(), ImGuiDataType_Double, &value, &lo, &hi,
                                           format, log ? ImGuiSliderFlags_Logarithmic : 0);
  setting_tooltip(key);
  return changed;
}

void scene_section(SandboxState& state) {
  if (!ImGui::CollapsingHeader("Scene", ImGuiTreeNodeFlags_DefaultOpen)) return;
  ImGui::TextColored(ImVec4(0.95f, 0.95f, 1.0f, 1.0f), "%s", state.scene.name.c_str());
  if (!state.scene.description.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.72f, 0.74f, 0.78f, 1.0f));
    ImGui::TextWrapped("%s", state.scene.description.c_str());
    ImGui::PopStyleColor();
  }
  ImGui::TextDisabled("%zu particles, %zu constraints, %dD", state.world.particles().size(),
                      state.world.constraints().size(), state.world.dimension());
  ImGui::Spacing();
  if (ImGui::BeginListBox("##scenes", ImVec2(-FLT_MIN, ImGui::GetTextLineHeightWithSpacing() * 6.5f))) {
    for (const auto& file : state.scene_files) {
      const bool current = file == state.scene_path;
      if (ImGui::Selectable(file.stem().string().c_str(), current))
        state.commands.push_back(Command::load(file.string()));
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", file.string().c_str());
    }
    if (state.scene_files.empty()) hint("no scenes in %s", state.assets_dir.string().c_str());
    ImGui::EndListBox();
  }
  static char path[1024] = "";
  if (!state.open_path.empty()) {
    std::strncpy(path, state.open_path.c_str(), sizeof path - 1);
    state.open_path.clear();
  }
  ImGui::SetNextItemWidth(-70.0f * static_cast<float>(state.ui_scale));
  const bool enter = ImGui::InputTextWithHint("##path", "path/to/scene.json", path, sizeof path,
                                              ImGuiInputTextFlags_EnterReturnsTrue);
  ImGui::SameLine();
  if ((ImGui::Button("Open") || enter) && path[0])
    state.commands.push_back(Command::load(std::string(path)));
  hint("...or drop a .json file on the window");
  if (!state.scene_error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.45f, 0.40f, 1.0f));
    ImGui::TextWrapped("Could not open: %s", state.scene_error.c_str());
    ImGui::PopStyleColor();
    hint("The previous scene keeps running.");
    if (ImGui::SmallButton("Dismiss")) state.scene_error.clear();
  }
}

void solver_section(SandboxState& state) {
  if (!ImGui::CollapsingHeader("Solver", ImGuiTreeNodeFlags_DefaultOpen)) return;
  const SolverInfo& current = state.world.solver_info();
  int k = 1;
  ImGui::SetNextItemWidth(-FLT_MIN);
  const bool open = ImGui::BeginCombo("##solver", current.name);
  if (!open) remember_rect(state, "solver combo");  // once open, the last item is inside the popup
  if (open) {
    for (const SolverInfo& info : solver_table()) {
      ImGui::PushID(info.id);
      ImGui::ColorButton("##c", ImVec4(info.colour.r, info.colour.g, info.colour.b, 1.0f),
                         ImGuiColorEditFlags_NoTooltip, ImVec2(12, 12));
      ImGui::SameLine();
      char label[256];
      std::snprintf(label, sizeof label, "%d  %s", k++, info.name);
      const bool chosen = ImGui::Selectable(label, std::strcmp(info.id, current.id) == 0);
      remember_rect(state, std::string("solver ") + info.id);
      if (chosen) {
        Settings settings = state.edit;
        settings.solver = info.id;
        state.commands.push_back(Command::apply_settings(settings));
      }
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", info.description);
      ImGui::PopID();
    }
    ImGui::EndCombo();
  }
  ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.72f, 0.74f, 0.78f, 1.0f));
  ImGui::TextWrapped("%s", current.description);
  ImGui::PopStyleColor();
  hint("Keys 1..%zu switch live, without a reset.", solver_table().size());
}

void simulation_section(SandboxState& state) {
  if (!ImGui::CollapsingHeader("Simulation", ImGuiTreeNodeFlags_DefaultOpen)) return;
  const float w = (ImGui::GetContentRegionAvail().x - 2 * ImGui::GetStyle().ItemSpacing.x) / 3.0f;
  if (ImGui::Button(state.paused ? "Run" : "Pause", ImVec2(w, 0))) state.push(Command::Kind::TogglePause);
  remember_rect(state, "pause");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Space");
  ImGui::SameLine();
  if (ImGui::Button("Step", ImVec2(w, 0))) state.push(Command::Kind::StepOnce);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("S or Right arrow: one step of dt, then paused");
  ImGui::SameLine();
  if (ImGui::Button("Reset", ImVec2(w, 0))) state.push(Command::Kind::Reset);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("R: back to the scene's start, keeping your settings");

  ImGui::PushItemWidth(ImGui::GetContentRegionAvail().x * 0.55f);
  double scale_lo = 1.0 / 64.0, scale_hi = 4.0;
  ImGui::SliderScalar("time scale", ImGuiDataType_Double, &state.time_scale, &scale_lo, &scale_hi, "x%.3g",
                      ImGuiSliderFlags_Logarithmic);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Slow motion below 1. Keys [ and ] halve and double it.");
  ImGui::SliderInt("max steps / frame", &state.max_steps_per_frame, 1, 64);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("A slow machine runs slower than real time instead of freezing.");

  Settings s = state.edit;
  bool changed = false;
  changed |= slider_double("dt", "\xce\x94t", s.dt, 1e-4, 0.05, "%.5f", true);
  changed |= ImGui::SliderInt(setting_label("substeps", "substeps").c_str(), &s.substeps, 1, 64);
  setting_tooltip("substeps");
  if (state.world.dimension() == 2) {
    changed |= slider_double("gravity", "gravity y", s.gravity.y, -30.0, 30.0, "%.3f");
  } else {
    const double speed = 0.05;
    changed |= ImGui::DragScalarN(setting_label("gravity", "gravity").c_str(), ImGuiDataType_Double, &s.gravity.x, 3,
                                  static_cast<float>(speed), nullptr, nullptr, "%.2f");
    setting_tooltip("gravity");
  }
  changed |= slider_double("damping", "damping", s.damping, 0.0, 5.0, "%.3f");
  changed |= slider_double("tolerance", "tolerance", s.tolerance, 1e-14, 1e-2, "%.0e", true);
  changed |= ImGui::SliderInt(setting_label("max_iterations", "iteration cap").c_str(), &s.max_iterations, 1, 500);
  setting_tooltip("max_iterations");
  changed |= slider_double("baumgarte", "Baumgarte \xce\xb2", s.baumgarte, 0.0, 100.0, "%.2f");
  changed |= slider_double("stiffness", "penalty k", s.stiffness, 10.0, 1e7, "%.3g", true);
  changed |= slider_double("spring_damping", "penalty damping", s.spring_damping, 0.0, 100.0, "%.3g");
  ImGui::PopItemWidth();
  if (changed) {
    state.edit = s;
    state.commands.push_back(Command::apply_settings(s));
  }
  if (ImGui::Button("Scene's own settings")) state.push(Command::Kind::RestoreSceneSettings);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Back to the values in the scene file (no reset).");
  if (!state.settings_error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.45f, 0.40f, 1.0f));
    ImGui::TextWrapped("%s", state.settings_error.c_str());
    ImGui::PopStyleColor();
  }
}

void interaction_section(SandboxState& state) {
  if (!ImGui::CollapsingHeader("Mouse drag", ImGuiTreeNodeFlags_DefaultOpen)) return;
  int model = state.drag_model == DragModel::Hard ? 0 : 1;
  ImGui::RadioButton("hard (pin)", &model, 0);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("The grabbed particle is pinned to the cursor: a moving constraint the solver enforces.");
  ImGui::SameLine();
  ImGui::RadioButton("spring", &model, 1);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("A damped spring pulls the particle toward the cursor.");
  ImGui::SameLine();
  ImGui::TextDisabled("(D)");
  state.drag_model = model == 0 ? DragModel::Hard : DragModel::Spring;
  if (state.drag_model == DragModel::Spring) {
    double lo = 5.0, hi = 5000.0;
    ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x * 0.55f);
    // Read by the drag controller before every step (per kg of the mass the drag moves).
    ImGui::SliderScalar("stiffness [N/m/kg]", ImGuiDataType_Double, &state.spring_stiffness, &lo, &hi, "%.0f",
                        ImGuiSliderFlags_Logarithmic);
  }
}

void view_section(SandboxState& state) {
  if (!ImGui::CollapsingHeader("View")) return;
  ImGui::TextUnformatted("Rod colour");
  int colouring = static_cast<int>(state.view.rod_colouring);
  ImGui::RadioButton("tension", &colouring, 0);
  ImGui::SameLine();
  ImGui::RadioButton("length error", &colouring, 1);
  ImGui::SameLine();
  ImGui::RadioButton("plain", &colouring, 2);
  state.view.rod_colouring = static_cast<RodColouring>(colouring);
  ImGui::Checkbox("size particles by mass", &state.view.size_by_mass);
  ImGui::Checkbox("gravity arrows", &state.view.gravity_arrows);
  ImGui::SameLine();
  ImGui::Checkbox("constraint force (A)", &state.view.constraint_arrows);
  ImGui::Checkbox("trails (T)", &state.view.trails);
  ImGui::SameLine();
  if (ImGui::SmallButton("clear (C)")) state.push(Command::Kind::ClearTrails);
  ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x * 0.55f);
  ImGui::SliderInt("trail length [steps]", &state.view.trail_steps, 10, 2000);
  hint("Shift+click a particle to trail it.");
  ImGui::Checkbox("grid (G)", &state.view.grid);
  ImGui::SameLine();
  ImGui::Checkbox("legend", &state.view.legend);
  ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x * 0.55f);
  ImGui::SliderFloat("rod width [px]", &state.view.rod_width, 0.0f, 12.0f, state.view.rod_width <= 0 ? "auto" : "%.1f");
  const char* msaa[] = {"off", "2x", "4x", "8x"};
  int msaa_index = state.view.msaa >= 8 ? 3 : state.view.msaa >= 4 ? 2 : state.view.msaa >= 2 ? 1 : 0;
  ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x * 0.55f);
  if (ImGui::Combo("anti-aliasing", &msaa_index, msaa, 4)) state.view.msaa = msaa_index == 0 ? 0 : 1 << msaa_index;
  if (ImGui::Button("Frame the scene (F)")) state.push(Command::Kind::FrameScene);
}

void screenshot_section(SandboxState& state) {
  if (!ImGui::CollapsingHeader("Screenshot")) return;
  static char folder[1024] = "";
  if (!folder[0]) std::strncpy(folder, state.screenshot_dir.string().c_str(), sizeof folder - 1);
  ImGui::SetNextItemWidth(-FLT_MIN);
  if (ImGui::InputText("##folder", folder, sizeof folder)) state.screenshot_dir = folder;
  ImGui::Checkbox("without panels", &state.screenshot_without_panels);
  if (ImGui::Button("Save PNG (F12)"))
    state.commands.push_back(Command::screenshot(state.screenshot_without_panels));
  if (!state.notice.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.6f, 0.9f, 0.6f, 1.0f));
    ImGui::TextWrapped("%s", state.notice.c_str());
    ImGui::PopStyleColor();
  }
}

}  // namespace

float panel_width(const SandboxState& state) {
  // A quarter of a narrow window, 330 units in a wide one: the scene keeps at least half the width.
  const float scale = static_cast<float>(state.ui_scale);
  const float window = static_cast<float>(state.camera.width() / std::max(state.pixel_ratio, 1e-6));
  return std::clamp(0.24f * window, 240.0f * scale, 330.0f * scale);
}

void refresh_scene_files(SandboxState& state) {
  state.scene_files.clear();
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(state.assets_dir, error))
    if (entry.path().extension() == ".json") state.scene_files.push_back(entry.path());
  std::sort(state.scene_files.begin(), state.scene_files.end());
}

void draw_control_panel(SandboxState& state) {
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(viewport->Pos);
  ImGui::SetNextWindowSize(ImVec2(panel_width(state), viewport->Size.y));
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                                 ImGuiWindowFlags_NoSavedSettings;
  if (ImGui::Begin("Lagrange Lab", nullptr, flags)) {
    scene_section(state);
    solver_section(state);
    simulation_section(state);
    interaction_section(state);
    view_section(state);
    screenshot_section(state);
    ImGui::Separator();
    if (ImGui::Button("Help (H)")) state.view.help = !state.view.help;
    ImGui::SameLine();
    ImGui::TextDisabled("Tab hides the panels");
  }
  ImGui::End();
}

}  // namespace lagrange::app
