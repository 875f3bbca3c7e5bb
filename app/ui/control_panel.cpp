// The control panel (left): scene browser, solver, simulation settings, interaction, view, screenshots.
#include <imgui.h>
#include <imgui_internal.h>  // GetActiveID: is the folder field being edited

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string_view>

#include "ui/measure_panel.h"
#include "ui/ui.h"

namespace lagrange::app {

void remember_rect(SandboxState& state, const std::string& name) {
  const ImVec2 lo = ImGui::GetItemRectMin(), hi = ImGui::GetItemRectMax();
  state.widget_rects[name] = {lo.x, lo.y, hi.x, hi.y};
  // Past the window's clip, what is drawn there is dropped.
  // Past its window's clip what it draws is dropped. Not a title bar's buttons (above the clip), nor a Selectable's
  // rectangle, which reaches half an item spacing past its window's work area and draws nothing there.
  const ImRect clip = ImGui::GetCurrentWindow()->InnerClipRect;
  const float slack = 0.5f * ImGui::GetStyle().ItemSpacing.x + 1.0f;
  if (hi.x > clip.Max.x + slack && lo.x < clip.Max.x && lo.y >= clip.Min.y) state.widgets_past_edge.insert(name);
  else state.widgets_past_edge.erase(name);
}

float toggle_width(const char* label) {
  return ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(label).x;
}

std::string combo_preview(const std::string& text, float width) {
  const float room = width - ImGui::GetFrameHeight() - 2.0f * ImGui::GetStyle().FramePadding.x;
  if (ImGui::CalcTextSize(text.c_str()).x <= room) return text;
  static const std::string kEllipsis = "\u2026";
  std::string cut = text;
  while (!cut.empty()) {
    // One whole UTF-8 character: its continuation bytes, then its lead (or ASCII) byte.
    while (!cut.empty() && (static_cast<unsigned char>(cut.back()) & 0xC0) == 0x80) cut.pop_back();
    if (!cut.empty()) cut.pop_back();
    while (!cut.empty() && cut.back() == ' ') cut.pop_back();
    if (ImGui::CalcTextSize((cut + kEllipsis).c_str()).x <= room) break;
  }
  return cut + kEllipsis;
}

bool begin_fitted_combo(const char* id, const std::string& text, float width, std::string* shown) {
  ImGui::SetNextItemWidth(width);
  const std::string preview = combo_preview(text, width);
  if (shown) *shown = preview;
  return ImGui::BeginCombo(id, preview.c_str());
}

void same_line_if_fits(float width) {
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  ImGui::SameLine();
  if (ImGui::GetCursorScreenPos().x + width > right) ImGui::NewLine();
}

void words(const std::string& text) {
  const float width = std::max(ImGui::GetContentRegionAvail().x, ImGui::GetFontSize());
  const auto fits = [&](const std::string& line) { return ImGui::CalcTextSize(line.c_str()).x <= width; };
  std::string line;
  const auto flush = [&] {
    ImGui::TextUnformatted(line.c_str());
    line.clear();
  };
  for (std::size_t at = 0; at <= text.size();) {
    std::size_t end = text.find_first_of(" \n", at);
    if (end == std::string::npos) end = text.size();
    std::string word = text.substr(at, end - at);
    if (!line.empty() && !fits(line + " " + word)) flush();
    // A word wider than the whole line (a path): broken after a '/' that fits, else where it must.
    while (line.empty() && !fits(word) && word.size() > 1) {
      std::size_t cut = word.size() - 1;
      while (cut > 1 && !fits(word.substr(0, cut))) --cut;
      const std::size_t slash = word.rfind('/', cut - 1);
      if (slash != std::string::npos && slash > 0) cut = slash + 1;
      line = word.substr(0, cut);
      flush();
      word = word.substr(cut);
    }
    line = line.empty() ? word : line + " " + word;
    if (end < text.size() && text[end] == '\n') flush();
    at = end + 1;
  }
  if (!line.empty()) flush();
}

namespace {

// Labels are sized by their text, never cut at the panel's edge. fit_label gives the next widget the width that
// leaves room for its label beside it; a label too long for that goes on a line of its own above a full-width widget.
// Returns the label to pass to the widget. Every labelled widget's rect is kept as "label: TEXT" for the GUI tests.
std::string fit_label(const std::string& label) {
  const std::string visible = label.substr(0, label.find("##"));
  const float avail = ImGui::GetContentRegionAvail().x;
  const float text = ImGui::CalcTextSize(visible.c_str()).x + ImGui::GetStyle().ItemInnerSpacing.x;
  const float widget = std::min(0.6f * avail, avail - text);
  if (widget >= 0.38f * avail) {
    ImGui::SetNextItemWidth(widget);
    return label;
  }
  words(visible.c_str());
  ImGui::SetNextItemWidth(-FLT_MIN);
  return "##" + label;
}

void remember_label(SandboxState& state, const std::string& label) {
  remember_rect(state, "label: " + label.substr(0, label.find("##")));
}


// A checkbox whose label wraps at the panel's edge when it is too long for one line.
bool checkbox(SandboxState& state, const char* label, bool* value) {
  const float box = ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x;
  bool changed;
  if (box + ImGui::CalcTextSize(label, nullptr, true).x <= ImGui::GetContentRegionAvail().x) {
    changed = ImGui::Checkbox(label, value);
  } else {
    changed = ImGui::Checkbox((std::string("##") + label).c_str(), value);
    ImGui::SameLine(0.0f, ImGui::GetStyle().ItemInnerSpacing.x);
    words(label);
  }
  remember_label(state, label);
  return changed;
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
  if (info && ImGui::IsItemHovered()) tooltip("%s: %s", info->key, info->description);
}

bool slider_double(SandboxState& state, std::string_view key, const char* label, double& value, double lo, double hi,
                   const char* format, bool log = false) {
  const std::string text = setting_label(key, label);
  const bool changed = ImGui::SliderScalar(fit_label(text).c_str(), ImGuiDataType_Double, &value, &lo, &hi, format,
                                           log ? ImGuiSliderFlags_Logarithmic : 0);
  setting_tooltip(key);
  remember_label(state, text);
  return changed;
}

bool slider_int(SandboxState& state, std::string_view key, const char* label, int& value, int lo, int hi) {
  const std::string text = setting_label(key, label);
  const bool changed = ImGui::SliderInt(fit_label(text).c_str(), &value, lo, hi);
  setting_tooltip(key);
  remember_label(state, text);
  return changed;
}

// A scene with contacts: its restitution and friction (every contact that has none of its own), applied to every
// lane between two steps (Command::SetContacts); the obstacles and whether particles collide with each other.
void contact_fields(SandboxState& state) {
  const ContactSettings& contacts = state.world().model().contacts();
  if (!contacts.any()) return;
  const std::size_t obstacles = contacts.obstacles.size();
  hint("%zu obstacle%s; particles %s", obstacles, obstacles == 1 ? "" : "s",
       contacts.particle_contacts() ? "collide with each other" : "pass through each other");
  struct Field {
    const char* label;
    const char* rect;
    double value;
    const char* tip;
  };
  const Field fields[] = {
      {"restitution e", "restitution field", contacts.restitution,
       "Normal speed after an impact over before, 0 (a dead stop) to 1 (elastic): a ball dropped from h bounces to "
       "e\xc2\xb2 h. Every contact without its own value (obstacles may have theirs)."},
      {"friction \xce\xbc", "friction field", contacts.friction,
       "Coulomb's coefficient: the tangential force is at most \xce\xbc times the normal force; 0 is ice. Every "
       "contact without its own value."},
  };
  for (int k = 0; k < 2; ++k) {
    const Field& f = fields[k];
    double value = f.value;
    const float width = std::min(ImGui::GetContentRegionAvail().x * 0.55f, 7.0f * ImGui::GetFontSize());
    ImGui::SetNextItemWidth(width);
    if (ImGui::InputDouble(f.label, &value, 0.0, 0.0, "%.3g", ImGuiInputTextFlags_EnterReturnsTrue) &&
        std::isfinite(value) && value != f.value) {
      Command command;
      command.kind = Command::Kind::SetContacts;
      command.index = k;
      command.value = value;
      state.commands.push_back(command);
    }
    const ImVec2 lo = ImGui::GetItemRectMin(), hi = ImGui::GetItemRectMax();
    state.widget_rects[f.rect] = {lo.x, lo.y, lo.x + width, hi.y};  // the box, not its label
    if (ImGui::IsItemHovered()) tooltip(f.tip);
  }
}

void scene_section(SandboxState& state) {
  if (!ImGui::CollapsingHeader("Scene", ImGuiTreeNodeFlags_DefaultOpen)) return;
  const Palette& colours = palette(state.appearance.theme);
  ImGui::TextColored(colours.title, "%s", state.scene.name.c_str());
  if (!state.scene.description.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, colours.description);
    words(state.scene.description.c_str());
    ImGui::PopStyleColor();
  }
  hint("%zu particles, %zu constraints, %dD", state.world().particle_count(), state.world().constraints().size(),
       state.world().dimension());
  contact_fields(state);
  ImGui::Spacing();
  if (ImGui::BeginListBox("##scenes", ImVec2(-FLT_MIN, ImGui::GetTextLineHeightWithSpacing() * 6.5f))) {
    for (const auto& file : state.scene_files) {
      const bool current = file == state.scene_path;
      if (ImGui::Selectable(file.stem().string().c_str(), current))
        state.commands.push_back(Command::load(file.string()));
      if (ImGui::IsItemHovered()) tooltip("%s", file.string().c_str());
    }
    if (state.scene_files.empty()) hint("no scenes in %s", state.assets_dir.string().c_str());
    ImGui::EndListBox();
  }
  auto& path = state.path_field;
  if (!state.open_path.empty()) {
    std::snprintf(path.data(), path.size(), "%s", state.open_path.c_str());
    state.open_path.clear();
  }
  const float open_width = ImGui::CalcTextSize("Open").x + 2.0f * ImGui::GetStyle().FramePadding.x;
  ImGui::SetNextItemWidth(-(open_width + ImGui::GetStyle().ItemSpacing.x));
  // Enter opens the file, as Open does.
  const bool enter = ImGui::InputTextWithHint("##path", "path/to/scene.json", path.data(), path.size(),
                                              ImGuiInputTextFlags_EnterReturnsTrue);
  remember_rect(state, "path field");
  ImGui::SameLine();
  const bool open = ImGui::Button("Open");
  if ((open || enter) && path[0]) state.commands.push_back(Command::load(std::string(path.data())));
  if (ImGui::IsItemHovered()) tooltip("Open the scene file named in the field (or press Enter there).");
  if (state.scene_picker) {  // the page: a scene from the user's own disk
    if (ImGui::Button("Open file...")) state.push(Command::Kind::PickSceneFile);
    remember_rect(state, "open file button");
    if (ImGui::IsItemHovered()) tooltip("Open a scene file (.json) from your computer.");
    ImGui::SameLine();
    hint("...or drop a .json file on the page");
  } else {
    hint("...or drop a .json file on the window");
  }
  // Save: the scene as it is now, state and settings, as a scene file that opens where it was saved.
  const float save_width = ImGui::CalcTextSize("Save as").x + 2.0f * ImGui::GetStyle().FramePadding.x;
  if (ImGui::Button("Save (Ctrl+S)")) state.commands.push_back(Command::save(""));
  remember_rect(state, "save button");
  if (ImGui::IsItemHovered() && state.downloads)
    tooltip("Download the scene as it is now (positions, velocities, time, settings) as a .json file");
  else if (ImGui::IsItemHovered())
    tooltip("Save the scene as it is now (positions, velocities, time, settings) to %s",
                      state.saved_path.empty() ? (state.save_dir.string() + "/...json").c_str()
                                               : state.saved_path.string().c_str());
  same_line_if_fits(ImGui::CalcTextSize("Export CSV").x + 2.0f * ImGui::GetStyle().FramePadding.x);
  if (ImGui::Button("Export CSV")) {
    Command command;
    command.kind = Command::Kind::ExportCsv;
    state.commands.push_back(command);
  }
  remember_rect(state, "export csv button");
  if (ImGui::IsItemHovered())
    tooltip("The timeline (the last %.0f s, every step, every lane) as a CSV with the columns of "
                      "lagrange-lab run --csv, %s%s",
                      state.timeline.max_seconds, state.downloads ? "as a download" : "to a new file in ",
                      state.downloads ? "" : state.save_dir.string().c_str());
  same_line_if_fits(ImGui::CalcTextSize("Edit (E)").x + 2.0f * ImGui::GetStyle().FramePadding.x);
  if (ImGui::Button("Edit (E)")) state.push(Command::Kind::ToggleEdit);
  remember_rect(state, "edit button");
  if (ImGui::IsItemHovered())
    tooltip("Edit mode: add, join, move, pin and delete particles with the mouse, type initial conditions, "
                      "undo and redo, save.");
  auto& save_path = state.save_field;
  ImGui::SetNextItemWidth(-(save_width + ImGui::GetStyle().ItemSpacing.x));
  const bool save_enter = ImGui::InputTextWithHint("##save path",
                                                   state.downloads ? "save as: name.json" : "save as: path/to/file.json",
                                                   save_path.data(),
                                                   save_path.size(), ImGuiInputTextFlags_EnterReturnsTrue);
  remember_rect(state, "save path field");
  ImGui::SameLine();
  const bool save_as = ImGui::Button("Save as");
  remember_rect(state, "save as button");
  if ((save_as || save_enter) && save_path[0]) state.commands.push_back(Command::save(std::string(save_path.data())));
  if (ImGui::IsItemHovered())
    tooltip(state.downloads ? "Download the scene as it is now under the name in the field."
                                      : "Save the scene as it is now to the file named in the field.");
  if (!state.scene_error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, colours.error_text);
    words("Could not open: " + state.scene_error);
    ImGui::PopStyleColor();
    hint("The previous scene keeps running.");
    if (ImGui::SmallButton("Dismiss")) state.scene_error.clear();
  }
}

void solver_section(SandboxState& state) {
  if (!ImGui::CollapsingHeader("Solver", ImGuiTreeNodeFlags_DefaultOpen)) return;
  const SolverInfo& current = state.world().solver_info();
  int k = 1;
  const bool open = begin_fitted_combo("##solver", current.name, ImGui::GetContentRegionAvail().x);
  if (!open) remember_rect(state, "solver combo");  // once open, the last item is inside the popup
  if (open) {
    for (const SolverInfo& info : solver_table()) {
      ImGui::PushID(info.id);
      ImGui::ColorButton("##c", ImVec4(info.colour.r, info.colour.g, info.colour.b, 1.0f),
                         ImGuiColorEditFlags_NoTooltip, ImVec2(0.8f * ImGui::GetFontSize(), 0.8f * ImGui::GetFontSize()));
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
      if (ImGui::IsItemHovered()) tooltip("%s", info.description);
      ImGui::PopID();
    }
    ImGui::EndCombo();
  }
  ImGui::PushStyleColor(ImGuiCol_Text, palette(state.appearance.theme).description);
  words(current.description);
  ImGui::PopStyleColor();
  hint("Keys 1..%zu switch live, without a reset.", solver_table().size());
}

// Run or pause, one step, reset: three buttons of one width across the panel.
void run_buttons(SandboxState& state) {
  const float w = (ImGui::GetContentRegionAvail().x - 2 * ImGui::GetStyle().ItemSpacing.x) / 3.0f;
  if (ImGui::Button(state.paused ? "Run" : "Pause", ImVec2(w, 0))) state.push(Command::Kind::TogglePause);
  remember_rect(state, "pause");
  if (ImGui::IsItemHovered()) tooltip("Space");
  ImGui::SameLine();
  if (ImGui::Button("Step", ImVec2(w, 0))) state.push(Command::Kind::StepOnce);
  if (ImGui::IsItemHovered()) tooltip("S or Right arrow: one step of dt, then paused");
  ImGui::SameLine();
  if (ImGui::Button("Reset", ImVec2(w, 0))) state.push(Command::Kind::Reset);
  if (ImGui::IsItemHovered()) tooltip("R: back to the scene's start, keeping your settings");
}

// How fast the window runs the simulation and how much of it the timeline keeps: the app's, not the world's settings.
void pace_controls(SandboxState& state) {
  double scale_lo = 1.0 / 64.0, scale_hi = 4.0;
  ImGui::SliderScalar(fit_label("time scale").c_str(), ImGuiDataType_Double, &state.time_scale, &scale_lo, &scale_hi,
                      "x%.3g", ImGuiSliderFlags_Logarithmic);
  if (ImGui::IsItemHovered()) tooltip("Slow motion below 1. Keys [ and ] halve and double it.");
  remember_label(state, "time scale");
  // Slow motion in one click, and back.
  const bool slow = state.time_scale < 1.0;
  if (ImGui::SmallButton(slow ? "real time" : "slow motion x1/4")) state.time_scale = slow ? 1.0 : 0.25;
  remember_rect(state, "slow motion");
  if (ImGui::IsItemHovered()) tooltip(slow ? "Back to time scale x1" : "Time scale x1/4");
  ImGui::SliderInt(fit_label("max steps / frame").c_str(), &state.max_steps_per_frame, 1, 64);
  if (ImGui::IsItemHovered())
    tooltip("A slow machine runs slower than real time instead of freezing.");
  remember_label(state, "max steps / frame");
  // Time travel: how far back the timeline under the scene reaches (and at most 256 MB of snapshots).
  double history_lo = 1.0, history_hi = 600.0;
  ImGui::SliderScalar(fit_label("history kept").c_str(), ImGuiDataType_Double, &state.timeline.max_seconds,
                      &history_lo, &history_hi, "%.0f s", ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp);
  if (ImGui::IsItemHovered())
    tooltip("How many seconds of simulated time the timeline under the scene keeps to scrub back to (Left "
                      "steps back); at most %.0f MB of snapshots, the oldest dropped first.",
                      static_cast<double>(state.timeline.max_bytes) / (1 << 20));
  remember_label(state, "history kept");
}

// Gravity's y in 2D, its three components in 3D. Returns whether it changed.
bool gravity_control(SandboxState& state, Settings& s) {
  if (state.world().dimension() == 2)
    return slider_double(state, "gravity", "gravity y", s.gravity.y, -30.0, 30.0, "%.3f");
  const double speed = 0.05;
  const std::string label = setting_label("gravity", "gravity");
  const bool changed = ImGui::DragScalarN(fit_label(label).c_str(), ImGuiDataType_Double, &s.gravity.x, 3,
                                          static_cast<float>(speed), nullptr, nullptr, "%.2f");
  setting_tooltip("gravity");
  remember_label(state, label);
  return changed;
}

// One click for another world's gravity, along the current direction (straight down when there is none).
bool planet_buttons(SandboxState& state, Settings& s) {
  struct Planet {
    const char* name;
    double g;
    const char* what;
  };
  static constexpr Planet kPlanets[] = {{"Earth", 9.81, "the Earth"},
                                        {"Moon", 1.62, "the Moon"},
                                        {"Mars", 3.71, "Mars"},
                                        {"Jupiter", 24.79, "Jupiter"},
                                        {"zero g", 0.0, "weightless"}};
  const double g = glm::length(s.gravity);
  const Vec3 down = g > 0.0 ? s.gravity / g : Vec3(0.0, -1.0, 0.0);
  bool changed = false;
  bool first = true;
  for (const Planet& planet : kPlanets) {
    if (!first) same_line_if_fits(ImGui::CalcTextSize(planet.name).x + 2.0f * ImGui::GetStyle().FramePadding.x);
    first = false;
    if (ImGui::SmallButton(planet.name)) {
      s.gravity = planet.g * down;
      changed = true;
    }
    remember_rect(state, std::string("gravity ") + planet.name);
    if (ImGui::IsItemHovered())
      tooltip("g = %.2f m/s\xc2\xb2, %s, along the current direction of gravity", planet.g, planet.what);
  }
  return changed;
}

// Air drag on and off in one click: off sets the damping to 0, on brings back the last non-zero value (0.5 1/s).
bool air_drag_checkbox(SandboxState& state, Settings& s) {
  if (s.damping > 0.0) state.air_drag = s.damping;
  bool drag_on = s.damping > 0.0;
  bool changed = false;
  if (checkbox(state, "air drag", &drag_on)) {
    s.damping = drag_on ? state.air_drag : 0.0;
    changed = true;
  }
  remember_rect(state, "air drag");
  if (ImGui::IsItemHovered()) tooltip("Linear air drag -damping m v on every particle: on or off");
  return changed;
}

// The world's settings, edited on a copy that is applied between steps when anything changed.
void settings_controls(SandboxState& state) {
  Settings s = state.edit;
  bool changed = false;
  changed |= slider_double(state, "dt", "\xce\x94t", s.dt, 1e-4, 0.05, "%.5f", true);
  changed |= slider_int(state, "substeps", "substeps", s.substeps, 1, 64);
  changed |= gravity_control(state, s);
  changed |= planet_buttons(state, s);
  changed |= slider_double(state, "damping", "damping", s.damping, 0.0, 5.0, "%.3f");
  changed |= air_drag_checkbox(state, s);
  changed |= slider_double(state, "tolerance", "tolerance", s.tolerance, 1e-14, 1e-2, "%.0e", true);
  changed |= slider_int(state, "max_iterations", "iteration cap", s.max_iterations, 1, 500);
  changed |= slider_double(state, "turn_limit", "turn limit", s.turn_limit, 0.0, 45.0, "%.1f");
  changed |= slider_double(state, "baumgarte", "Baumgarte \xce\xb2", s.baumgarte, 0.0, 100.0, "%.2f");
  changed |= slider_double(state, "stiffness", "penalty k", s.stiffness, 10.0, 1e7, "%.3g", true);
  changed |= slider_double(state, "spring_damping", "penalty damping", s.spring_damping, 0.0, 100.0, "%.3g");
  if (changed) {
    state.edit = s;
    state.commands.push_back(Command::apply_settings(s));
  }
}

void simulation_section(SandboxState& state) {
  if (!ImGui::CollapsingHeader("Simulation", ImGuiTreeNodeFlags_DefaultOpen)) return;
  run_buttons(state);
  pace_controls(state);
  settings_controls(state);
  if (ImGui::Button("Scene's own settings")) state.push(Command::Kind::RestoreSceneSettings);
  if (ImGui::IsItemHovered()) tooltip("Back to the values in the scene file (no reset).");
  for (const std::string* error : {&state.alert, &state.settings_error}) {
    if (error->empty()) continue;
    ImGui::PushStyleColor(ImGuiCol_Text, palette(state.appearance.theme).error_text);
    words(error->c_str());
    ImGui::PopStyleColor();
  }
}

void interaction_section(SandboxState& state) {
  if (!ImGui::CollapsingHeader("Mouse drag", ImGuiTreeNodeFlags_DefaultOpen)) return;
  int model = state.drag_model == DragModel::Hard ? 0 : 1;
  ImGui::RadioButton("hard", &model, 0);
  remember_rect(state, "drag model hard");
  if (ImGui::IsItemHovered())
    tooltip(
        "A stiff compliant hand: the particle sits on the cursor (within g h\xc2\xb2) and the rods stay exact. Beyond "
        "their reach it goes to the nearest point they reach and is held there; the pull is capped at 100 weights "
        "of what it moves.");
  same_line_if_fits(toggle_width("spring"));
  ImGui::RadioButton("spring", &model, 1);
  remember_rect(state, "drag model spring");
  if (ImGui::IsItemHovered())
    tooltip("A soft, critically damped spring toward the cursor, its stiffness per kg of the mass it moves: "
                      "a bead and a whole cloth follow alike.");
  ImGui::SameLine();
  ImGui::TextDisabled("(D)");
  state.drag_model = model == 0 ? DragModel::Hard : DragModel::Spring;
  if (state.drag_model == DragModel::Spring) {
    double lo = 5.0, hi = 5000.0;
    // Read by the drag controller before every step (per kg of the mass the drag moves).
    const std::string label = "stiffness per kg moved [N/m/kg]";
    ImGui::SliderScalar(fit_label(label).c_str(), ImGuiDataType_Double, &state.spring_stiffness, &lo, &hi, "%.0f",
                        ImGuiSliderFlags_Logarithmic);
    if (ImGui::IsItemHovered())
      tooltip("Spring stiffness per kilogram of the mass the drag moves (N/m per kg): the spring's own "
                        "frequency is its square root, 10 /s at 100.");
    remember_label(state, label);
  }
}

constexpr ViewToggle kViewToggles[] = {
    {"size particles by mass", &ViewOptions::size_by_mass, "Ignore the radii in the file: radius from the cube root of the mass."},
    {"gravity arrows", &ViewOptions::gravity_arrows, "Green: the weight m g of each particle."},
    {"constraint force (A)", &ViewOptions::constraint_arrows, "Magenta: the force the rods and pins exert, J\xe1\xb5\x80\xce\xbb."},
    {"contact forces", &ViewOptions::contact_arrows,
     "Teal: each contact's normal force on the particle it pushes, the mean over the last step (scenes with contacts)."},
    {"trails (T)", &ViewOptions::trails, "The last positions of the trailed particles. Shift+click a particle to trail it."},
    {"grid (G)", &ViewOptions::grid, "Metre grid (2D) or ground grid (3D)."},
    {"legend", &ViewOptions::legend, "What the colours mean, at the bottom of the scene."},
    {"rest lengths", &ViewOptions::rest_ghosts,
     "A thin line of each rod's rest length beside it: a rod that drifted is longer or shorter than its line."},
    {"rod length labels", &ViewOptions::length_labels,
     "Each rod's length now, in metres, beside it (the first 60 rods in view)."},
};

constexpr RodColouringInfo kRodColourings[] = {
    {RodColouring::Tension, "tension", "Grey to red: the rod pulls (tension); grey to blue: it pushes (compression)."},
    {RodColouring::LengthError, "length error", "Relative length error |C|/L, 1e-12 (green) to 1e-2 (red), log scale."},
    {RodColouring::Plain, "plain", "One grey for every rod."},
};

void view_section(SandboxState& state) {
  if (!ImGui::CollapsingHeader("View")) return;
  draw_display_controls(state);  // theme and UI scale: projector mode
  ImGui::Separator();
  ImGui::TextUnformatted("Rod colour");
  for (const RodColouringInfo& info : kRodColourings) {
    if (&info != &kRodColourings[0])
      same_line_if_fits(toggle_width(info.label));
    if (ImGui::RadioButton(info.label, state.view.rod_colouring == info.value)) state.view.rod_colouring = info.value;
    if (ImGui::IsItemHovered()) tooltip("%s", info.tip);
    remember_rect(state, std::string("rod colour ") + info.label);
  }
  for (const ViewToggle& toggle : kViewToggles) {
    checkbox(state, toggle.label, &(state.view.*toggle.member));
    if (ImGui::IsItemHovered()) tooltip("%s", toggle.tip);
  }
  if (ImGui::SmallButton("clear trails (C)")) state.push(Command::Kind::ClearTrails);
  remember_label(state, "clear trails (C)");
  ImGui::SliderInt(fit_label("trail length [steps]").c_str(), &state.view.trail_steps, 10, 2000);
  remember_label(state, "trail length [steps]");
  hint("Shift+click a particle to trail it.");
  ImGui::SliderFloat(fit_label("rod width [px]").c_str(), &state.view.rod_width, 0.0f, 12.0f,
                     state.view.rod_width <= 0 ? "auto" : "%.1f");
  remember_label(state, "rod width [px]");
  const char* msaa[] = {"off", "2x", "4x", "8x"};
  int msaa_index = state.view.msaa >= 8 ? 3 : state.view.msaa >= 4 ? 2 : state.view.msaa >= 2 ? 1 : 0;
  if (ImGui::Combo(fit_label("anti-aliasing").c_str(), &msaa_index, msaa, 4))
    state.view.msaa = msaa_index == 0 ? 0 : 1 << msaa_index;
  remember_label(state, "anti-aliasing");
  if (ImGui::Button("Frame the scene (F)")) state.push(Command::Kind::FrameScene);
}

void screenshot_section(SandboxState& state) {
  if (!ImGui::CollapsingHeader("Screenshot")) return;
  auto& folder = state.folder_field;
  if (state.downloads) {  // the page: no folder, the browser downloads the file
    hint("F12 or P downloads a PNG of the window.");
  } else {
    // The field follows the folder in use (the default is the pictures folder) except while it is being edited.
    if (ImGui::GetActiveID() != ImGui::GetID("##folder"))
      std::snprintf(folder.data(), folder.size(), "%s", state.screenshot_dir.string().c_str());
    hint("Folder (F12 or P saves a PNG there, F9 records an MP4):");
    ImGui::SetNextItemWidth(-FLT_MIN);
    if (ImGui::InputText("##folder", folder.data(), folder.size())) state.screenshot_dir = folder.data();
    if (ImGui::IsItemHovered()) tooltip("%s", state.screenshot_dir.string().c_str());
    remember_rect(state, "screenshot folder");
  }
  checkbox(state, "without panels", &state.screenshot_without_panels);
  if (ImGui::Button(state.downloads ? "Download PNG (F12)" : "Save PNG (F12)"))
    state.commands.push_back(Command::screenshot(state.screenshot_without_panels));
  remember_label(state, state.downloads ? "Download PNG (F12)" : "Save PNG (F12)");
  if (!state.notice.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, palette(state.appearance.theme).ok_text);
    words(state.notice.c_str());
    ImGui::PopStyleColor();
    remember_rect(state, "screenshot notice");
  }
}

}  // namespace

std::span<const ViewToggle> view_toggles() { return kViewToggles; }
std::span<const RodColouringInfo> rod_colourings() { return kRodColourings; }

void refresh_scene_files(SandboxState& state) {
  state.scene_files.clear();
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(state.assets_dir, error))
    if (entry.path().extension() == ".json") state.scene_files.push_back(entry.path());
  std::sort(state.scene_files.begin(), state.scene_files.end());
}

void draw_control_panel(SandboxState& state) {
  const PanelLayout layout = panel_layout(state);
  if (layout.left <= 0.0f) return;
  if (!layout.left_open) {
    draw_panel_bar(state, ViewOptions::Side::Left);
    return;
  }
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(viewport->Pos);
  ImGui::SetNextWindowSize(ImVec2(layout.left, viewport->Size.y));
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                                 ImGuiWindowFlags_NoSavedSettings;
  if (ImGui::Begin("Lagrange Lab", nullptr, flags)) {
    collapse_button(state, ViewOptions::Side::Left);
    const ImVec2 pos = ImGui::GetWindowPos();
    state.widget_rects["control panel"] = {pos.x + ImGui::GetWindowContentRegionMin().x, pos.y,
                                           pos.x + ImGui::GetWindowContentRegionMax().x, pos.y + ImGui::GetWindowHeight()};
    if (state.expand_sections)
      for (const char* header : {"View", "Screenshot"}) ImGui::GetStateStorage()->SetInt(ImGui::GetID(header), 1);
    scene_section(state);
    solver_section(state);
    if (!state.editor.active) lanes_section(state);  // editing: the lanes come back on Play
    simulation_section(state);
    interaction_section(state);
    view_section(state);
    screenshot_section(state);
    ImGui::Separator();
    if (ImGui::Button("Help (H)")) state.view.help = !state.view.help;
    same_line_if_fits(ImGui::CalcTextSize("Hide measure (M)").x + 2.0f * ImGui::GetStyle().FramePadding.x);
    if (ImGui::Button(state.measure.shown ? "Hide measure (M)" : "Measure (M)")) {
      state.measure.shown = !state.measure.shown;
      state.push(Command::Kind::FrameScene);  // the scene's viewport changed height
    }
    remember_rect(state, "measure button");
    if (ImGui::IsItemHovered())
      tooltip("Period timer, stopwatch, protractor, phase-space plot and energy bars, under the scene.");
    same_line_if_fits(ImGui::CalcTextSize("Tab hides the panels").x);
    ImGui::TextDisabled("Tab hides the panels");
    remember_label(state, "Tab hides the panels");
  }
  ImGui::End();
}

}  // namespace lagrange::app
