// Edit mode's panel and overlay: tools, undo and redo, New / Save / Save as, the generators, the check with the
// loader's message, and the inspector (typed positions, velocities, masses, rod lengths, angles and angular
// velocities, constraint kinds and their fields). Every change goes through EditorState::change or begin_change, so
// each is one undo step; the Sandbox shows and checks the draft before the next frame.
#include <imgui.h>
#include <imgui_internal.h>  // ImGui::GetItemID: one undo step per focused field

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <span>
#include <string>

#include "lagrange/constraint_kinds.h"
#include "lagrange/scene_edit.h"
#include "lagrange/text.h"
#include "ui/ui.h"

namespace lagrange::app {
namespace {

constexpr double kDegrees = 180.0 / std::numbers::pi;

// Edit mode's keys, for the panel's list and the help.
constexpr EditKey kEditKeys[] = {
    {"E or Space", "play the edited scene (when it is valid)"},
    {"1 / 2 / 3", "tools: Select, Particle, Rod"},
    {"Ctrl+Z", "undo"},
    {"Ctrl+Shift+Z or Ctrl+Y", "redo"},
    {"Delete or Backspace", "delete the selected particles (and their constraints) or constraint"},
    {"Ctrl+A", "select every particle"},
    {"G", "snap to the grid on / off"},
    {"Ctrl+N / Ctrl+Shift+N", "new empty 2D / 3D scene"},
    {"Ctrl+S", "save (to the scene's file, or a new one)"},
    {"Esc", "cancel the gesture, then clear the selection, then play"},
    {"Right / middle drag, wheel", "pan and zoom, as in play"},
};

float button_width(const char* label) {
  return ImGui::CalcTextSize(label).x + 2.0f * ImGui::GetStyle().FramePadding.x;
}

// A row of numbers typed into the draft: the first change while the field has focus opens one undo step; every
// change applies at once (the draft is checked as it is typed). Shown as field_text says (residues of `scale` as 0,
// digits that fit the box); a box left alone keeps its exact value, not the text it shows. Returns true when
// `values` changed to finite numbers.
bool numbers_field(SandboxState& state, const char* label, const char* undo_label, double* values, int count,
                   double scale = 0.0, int digits = 6) {
  EditorState& e = state.editor;
  const float width = ImGui::CalcItemWidth();
  const ImGuiStyle& style = ImGui::GetStyle();
  // InputScalarN's boxes share the width, ItemInnerSpacing apart (the last one takes the rounding); the text has a
  // box less its padding.
  const float box = std::floor((width - style.ItemInnerSpacing.x * float(count - 1)) / float(count));
  const FieldText shown =
      field_text(std::span<const double>(values, static_cast<std::size_t>(count)), scale,
                 box - 2.0f * style.FramePadding.x,
                 [](const std::string& text) { return ImGui::CalcTextSize(text.c_str()).x; }, digits);
  std::vector<double> typed = shown.values;
  char format[16];
  std::snprintf(format, sizeof format, "%%.%dg", shown.digits);
  const bool changed = ImGui::InputScalarN(label, ImGuiDataType_Double, typed.data(), count, nullptr, nullptr, format);
  const ImGuiID id = ImGui::GetItemID();
  const ImVec2 lo = ImGui::GetItemRectMin(), hi = ImGui::GetItemRectMax();
  state.widget_rects[std::string("edit ") + undo_label] = {lo.x, lo.y, lo.x + width, hi.y};  // the boxes, not the label
  state.widget_texts[std::string("edit ") + undo_label] = shown.texts;
  if (ImGui::IsItemDeactivated() && e.field == id) e.field = 0;
  if (!changed || typed == shown.values) return false;
  if (!std::all_of(typed.begin(), typed.end(), [](double v) { return std::isfinite(v); })) return false;
  if (e.field != id) {
    e.begin_change(undo_label);
    e.field = id;
  }
  for (int k = 0; k < count; ++k)
    if (typed[k] != shown.values[k]) values[k] = typed[k];
  e.mark_changed();
  return true;
}

// What a residue is measured against: the largest coordinate of the particles' positions (or velocities).
double largest(const Scene& scene, Vec3 ParticleDef::*member = &ParticleDef::position) {
  double size = 0.0;
  for (const ParticleDef& p : scene.particles)
    size = std::max({size, std::abs((p.*member).x), std::abs((p.*member).y), std::abs((p.*member).z)});
  return size;
}

bool vector_field(SandboxState& state, const char* label, const char* undo_label, Vec3& v, double scale) {
  double values[3] = {v.x, v.y, v.z};
  if (!numbers_field(state, label, undo_label, values, state.editor.draft.dimension, scale)) return false;
  v = Vec3(values[0], values[1], state.editor.draft.dimension == 3 ? values[2] : 0.0);
  return true;
}

bool tool_button(SandboxState& state, const EditTools& tool) {
  const bool current = state.editor.tool == tool.tool;
  const Palette& colours = palette(state.appearance.theme);
  if (current) ImGui::PushStyleColor(ImGuiCol_Button, ImVec4(colours.editing.x, colours.editing.y, colours.editing.z, 0.75f));
  const std::string label = std::string(tool.key) + " " + tool.name;
  const bool pressed = ImGui::Button(label.c_str());
  if (current) ImGui::PopStyleColor();
  remember_rect(state, std::string("tool ") + tool.name);
  if (ImGui::IsItemHovered()) tooltip("%s", tool.help);
  if (pressed) state.editor.tool = tool.tool;
  return pressed;
}

void file_section(SandboxState& state) {
  EditorState& e = state.editor;
  for (const int dimension : {2, 3}) {
    const std::string label = "New " + std::to_string(dimension) + "D";
    if (dimension == 3) ImGui::SameLine();
    if (ImGui::Button(label.c_str())) {
      Command command;
      command.kind = Command::Kind::EditNew;
      command.index = dimension;
      state.commands.push_back(command);
    }
    remember_rect(state, "new " + std::to_string(dimension) + "d button");
  }
  char name[256];
  std::snprintf(name, sizeof name, "%s", e.draft.name.c_str());
  ImGui::SetNextItemWidth(-FLT_MIN);
  if (ImGui::InputTextWithHint("##scene name", "scene name", name, sizeof name)) {
    if (e.field != ImGui::GetItemID()) {
      e.begin_change("rename");
      e.field = ImGui::GetItemID();
    }
    e.draft.name = name;
    e.mark_changed();
  }
  remember_rect(state, "edit scene name");
  if (ImGui::IsItemDeactivated() && e.field == ImGui::GetItemID()) e.field = 0;
  if (ImGui::Button("Save (Ctrl+S)")) state.commands.push_back(Command::save(""));
  remember_rect(state, "edit save button");
  if (ImGui::IsItemHovered() && state.downloads)
    tooltip("Download the edited scene as %s",
                      e.document.empty() ? "a .json file" : e.document.filename().string().c_str());
  else if (ImGui::IsItemHovered())
    tooltip("Save the edited scene to %s",
                      e.document.empty() ? (state.save_dir.string() + "/...json (a new file)").c_str()
                                         : e.document.string().c_str());
  ImGui::SameLine();
  hint("%s%s", document_name(e).c_str(), e.modified ? " (modified)" : "");
  auto& field = e.save_field;
  ImGui::SetNextItemWidth(-(button_width("Save as") + ImGui::GetStyle().ItemSpacing.x));
  const bool enter = ImGui::InputTextWithHint("##edit save path",
                                              state.downloads ? "save as: name.json" : "save as: path/to/file.json",
                                              field.data(),
                                              field.size(), ImGuiInputTextFlags_EnterReturnsTrue);
  remember_rect(state, "edit save path field");
  ImGui::SameLine();
  if ((ImGui::Button("Save as") || enter) && field[0]) state.commands.push_back(Command::save(field.data()));
  remember_rect(state, "edit save as button");
}

void status_line(SandboxState& state) {
  const EditorState& e = state.editor;
  const Palette& colours = palette(state.appearance.theme);
  if (e.problem.empty()) {
    int rows = 0;
    for (const ConstraintDef& def : e.draft.constraints) rows += rows_of(def, e.draft.dimension);
    char text[128];
    std::snprintf(text, sizeof text, "Valid: %zu particles, %zu constraints (%d rows)", e.draft.particles.size(),
                  e.draft.constraints.size(), rows);
    ImGui::PushStyleColor(ImGuiCol_Text, colours.ok_text);
    words(text);
    ImGui::PopStyleColor();
  } else {
    ImGui::PushStyleColor(ImGuiCol_Text, colours.error_text);
    words(e.problem.c_str());
    ImGui::PopStyleColor();
    hint("As opening the saved file would say. Play and Save wait until it is fixed (Ctrl+Z undoes).");
  }
  remember_rect(state, "edit status");
}

glm::dvec3 view_centre(const SandboxState& state) {
  const glm::dvec3 centre =
      state.camera.perspective ? state.camera.target : glm::dvec3(state.camera.centre, 0.0);
  return snap_to_grid(state.editor, centre);
}

// Adds what `generate` appends to the draft as one undo step, the new particles selected (a chain can then be moved
// as a whole); a builder's complaint ("links: ...") stays in the dialog.
void add_generated(EditorState& e, const char* label, const std::function<void(Scene&)>& generate) {
  Scene grown = e.draft;
  const std::size_t before = grown.particles.size();
  try {
    generate(grown);
  } catch (const std::exception& error) {
    e.generator_error = error.what();
    return;
  }
  e.change(label, [&](Scene& draft) { draft = std::move(grown); });
  e.selected.clear();
  for (std::size_t p = before; p < e.draft.particles.size(); ++p) e.selected.push_back(static_cast<int>(p));
  e.constraint = -1;
  ImGui::CloseCurrentPopup();
}

// The dialog's Add button's rectangle (for the tests), and Cancel (or Esc).
void generator_buttons(SandboxState& state, const char* add_name) {
  remember_rect(state, add_name);
  ImGui::SameLine();
  if (ImGui::Button("Cancel (Esc)") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape)))
    ImGui::CloseCurrentPopup();
}

void generators_section(SandboxState& state) {
  EditorState& e = state.editor;
  if (ImGui::Button("Chain...")) {
    e.generator_error.clear();
    ImGui::OpenPopup("Add a chain");
  }
  remember_rect(state, "chain button");
  ImGui::SameLine();
  if (ImGui::Button("Cloth...")) {
    e.generator_error.clear();
    ImGui::OpenPopup("Add a cloth");
  }
  remember_rect(state, "cloth button");
  const Palette& colours = palette(state.appearance.theme);
  const auto error_line = [&] {
    if (e.generator_error.empty()) return;
    ImGui::PushStyleColor(ImGuiCol_Text, colours.error_text);
    words(e.generator_error.c_str());
    ImGui::PopStyleColor();
  };
  const bool flat = e.draft.dimension == 2;
  const int hang_from = e.selected.size() == 1 ? e.selected[0] : -1;
  if (ImGui::BeginPopupModal("Add a chain", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
    ImGui::InputInt("links", &e.chain.links);
    e.chain.links = std::clamp(e.chain.links, 1, 1000);
    ImGui::InputDouble("link length (m)", &e.chain.link_length, 0.0, 0.0, "%.4g");
    ImGui::InputDouble("mass per particle (kg)", &e.chain.particle_mass, 0.0, 0.0, "%.4g");
    ImGui::InputDouble("direction (deg from +x)", &e.chain_angle_degrees, 0.0, 0.0, "%.4g");
    const glm::dvec3 centre = view_centre(state);
    if (hang_from >= 0) ImGui::Text("Hangs from the selected particle %d.", hang_from);
    else ImGui::Text("From a new fixed anchor at (%.3g, %.3g%s).", centre.x, centre.y, flat ? "" : ", ...");
    error_line();
    if (ImGui::Button("Add chain")) {
      ChainDef def = e.chain;
      const double a = e.chain_angle_degrees / kDegrees;
      def.direction = Vec3(std::cos(a), std::sin(a), 0.0);
      def.anchor = centre;
      def.anchor_particle = hang_from;
      add_generated(e, "add chain", [&](Scene& scene) { append_chain(scene, def); });
    }
    generator_buttons(state, "add chain button");
    ImGui::EndPopup();
  }
  if (ImGui::BeginPopupModal("Add a cloth", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
    ImGui::InputInt("particles across", &e.cloth.nx);
    ImGui::InputInt("particles down", &e.cloth.ny);
    e.cloth.nx = std::clamp(e.cloth.nx, 2, 200);
    e.cloth.ny = std::clamp(e.cloth.ny, 2, 200);
    ImGui::InputDouble("spacing (m)", &e.cloth.spacing, 0.0, 0.0, "%.4g");
    ImGui::InputDouble("mass per particle (kg)", &e.cloth.particle_mass, 0.0, 0.0, "%.4g");
    ImGui::Checkbox("fix the two top corners", &e.cloth.pin_two_corners);
    ImGui::Checkbox("shear rods (diagonals)", &e.cloth.shear);
    ImGui::Checkbox("bending rods", &e.cloth.bend);
    hint(flat ? "A net hanging in the view's plane, centred in the view."
              : "A horizontal sheet, centred on the view's target.");
    error_line();
    if (ImGui::Button("Add cloth")) {
      ClothDef def = e.cloth;
      def.u = Vec3(1.0, 0.0, 0.0);
      def.v = flat ? Vec3(0.0, -1.0, 0.0) : Vec3(0.0, 0.0, 1.0);
      const double w = (def.nx - 1) * def.spacing, h = (def.ny - 1) * def.spacing;
      def.origin = view_centre(state) - 0.5 * w * def.u - 0.5 * h * def.v;
      add_generated(e, "add cloth", [&](Scene& scene) { append_cloth(scene, def); });
    }
    generator_buttons(state, "add cloth button");
    ImGui::EndPopup();
  }
}

// "rod to particle 3" (seen from particle `from`), "rod 2-3" (from < 0), "pin"; with an ImGui id suffix when `id`.
std::string constraint_label(const Scene& scene, int c, int from, bool id = true) {
  const ConstraintDef& def = scene.constraints[static_cast<std::size_t>(c)];
  const ConstraintKind* kind = find_kind(def.type);
  char text[160];
  int n = std::snprintf(text, sizeof text, "%s", kind ? kind->noun : def.type.c_str());
  if (def.particles.size() == 2 && n > 0 && n < int(sizeof text)) {
    const int other = def.particles[0] == from ? def.particles[1] : def.particles[0];
    n += from >= 0 ? std::snprintf(text + n, sizeof text - n, " to particle %d", other)
                   : std::snprintf(text + n, sizeof text - n, " %d-%d", def.particles[0], def.particles[1]);
  }
  if (id && n > 0 && n < int(sizeof text)) std::snprintf(text + n, sizeof text - n, "##c%d", c);
  return text;
}

// The draft's obstacles, one line each with its numbers and a button that removes it (one undo step). The tools
// 4 to 7 add them; restitution and friction are the Scene panel's.
void obstacles_section(SandboxState& state) {
  EditorState& e = state.editor;
  auto& obstacles = e.draft.contacts.obstacles;
  int remove = -1;
  for (std::size_t k = 0; k < obstacles.size(); ++k) {
    const Obstacle& o = obstacles[k];
    ImGui::PushID(static_cast<int>(k));
    if (ImGui::SmallButton("\xc3\x97")) remove = static_cast<int>(k);  // ×
    remember_rect(state, "remove obstacle " + std::to_string(k));
    if (ImGui::IsItemHovered()) tooltip("Remove this obstacle.");
    ImGui::SameLine();
    char text[160];
    const char* type = obstacle_type_name(o.shape, e.draft.dimension);
    switch (o.shape) {
      case ObstacleShape::Plane:
        std::snprintf(text, sizeof text, "%zu %s through (%.3g, %.3g), normal (%.3g, %.3g)", k, type, o.point.x,
                      o.point.y, o.normal.x, o.normal.y);
        break;
      case ObstacleShape::Box:
        std::snprintf(text, sizeof text, "%zu %s (%.3g, %.3g) to (%.3g, %.3g)", k, type, o.min.x, o.min.y, o.max.x,
                      o.max.y);
        break;
      case ObstacleShape::Sphere:
        std::snprintf(text, sizeof text, "%zu %s at (%.3g, %.3g), radius %.3g", k, type, o.center.x, o.center.y,
                      o.radius);
        break;
    }
    words(text);
    ImGui::PopID();
  }
  if (remove >= 0) e.change("remove obstacle", [&](Scene& scene) { edit::remove_obstacle(scene, remove); });
}

void particle_inspector(SandboxState& state, int p) {
  EditorState& e = state.editor;
  ParticleDef& def = e.draft.particles[static_cast<std::size_t>(p)];
  ImGui::Text("Particle %d", p);
  Vec3 position = def.position;
  if (vector_field(state, "position (m)", "position", position, largest(e.draft)))
    edit::set_position(e.draft, p, position);
  vector_field(state, "velocity (m/s)", "velocity", def.velocity, largest(e.draft, &ParticleDef::velocity));
  double mass = def.mass;
  if (numbers_field(state, "mass (kg)", "mass", &mass, 1)) def.mass = mass;
  bool fixed = def.fixed;
  if (ImGui::Checkbox("fixed", &fixed)) e.change(fixed ? "fix" : "free", [&](Scene& s) { edit::set_fixed(s, p, fixed); });
  remember_rect(state, "edit fixed");
  ImGui::SameLine();
  bool pinned = edit::pin_of(e.draft, p) >= 0;
  if (ImGui::Checkbox("pinned", &pinned))
    e.change(pinned ? "pin" : "unpin", [&](Scene& s) { edit::set_pinned(s, p, pinned); });
  remember_rect(state, "edit pinned");
  if (ImGui::IsItemHovered())
    tooltip("Fixed: never moves. Pinned: held by a pin constraint (its force shows; the solvers keep it).");
  double radius = def.radius;
  if (numbers_field(state, "radius (0: auto)", "radius", &radius, 1) && radius >= 0.0) def.radius = radius;
  bool custom = def.has_colour;
  if (ImGui::Checkbox("own colour", &custom)) e.change("colour", [&](Scene& s) { s.particles[p].has_colour = custom; });
  remember_rect(state, "edit own colour");
  if (def.has_colour) {
    ImGui::SameLine();
    float rgb[3] = {def.colour.r, def.colour.g, def.colour.b};
    if (ImGui::ColorEdit3("##colour", rgb, ImGuiColorEditFlags_NoInputs)) {
      if (e.field != ImGui::GetItemID()) {
        e.begin_change("colour");
        e.field = ImGui::GetItemID();
      }
      def.colour = Colour{rgb[0], rgb[1], rgb[2]};
      e.mark_changed();
    }
    if (ImGui::IsItemDeactivated() && e.field == ImGui::GetItemID()) e.field = 0;
  }
  // A bead on a horizontal wire, or a particle in a horizontal plane: one constraint of that kind on p, selected so
  // its direction or normal can be typed next.
  struct Attach {
    const char* button;
    KindRole role;
    const char* key;
    Vec3 value;
    const char* tooltip;
  };
  const Attach attachments[] = {
      {"+ line", KindRole::Line, "direction", Vec3(1.0, 0.0, 0.0), "Put the particle on a straight wire (horizontal; change it below)."},
      {"+ plane", KindRole::Plane, "normal", Vec3(0.0, 1.0, 0.0), "Keep the particle in a plane (horizontal; change it below)."},
  };
  for (const Attach& a : attachments) {
    if (&a != attachments) ImGui::SameLine();
    const char* kind = kind_name(a.role);
    if (ImGui::Button(a.button))
      e.change(std::string("add ") + kind, [&](Scene& s) {
        ConstraintDef def;
        def.type = kind;
        def.particles = {p};
        def.set(a.key, a.value);
        s.constraints.push_back(def);
        e.constraint = static_cast<int>(s.constraints.size()) - 1;
      });
    remember_rect(state, std::string("add ") + kind + " button");
    if (ImGui::IsItemHovered()) tooltip("%s", a.tooltip);
  }
  for (int c : edit::constraints_on(e.draft, p))
    if (ImGui::Selectable(constraint_label(e.draft, c, p).c_str(), e.constraint == c)) e.constraint = c;
}

void constraint_inspector(SandboxState& state, int c) {
  EditorState& e = state.editor;
  ConstraintDef& def = e.draft.constraints[static_cast<std::size_t>(c)];
  const ConstraintKind* kind = find_kind(def.type);
  ImGui::Text("Constraint %d: %s", c, constraint_label(e.draft, c, -1, false).c_str());
  if (kind) hint("%s", kind->description);
  if (const auto frame = edit::rod_frame(e.draft, c)) {
    double length = frame->length;
    if (numbers_field(state, "length (m)", "rod length", &length, 1, largest(e.draft)) && length > 0.0)
      edit::set_rod_length(e.draft, c, length);
    hint("Seen from its pivot, particle %d:", frame->pivot);
    double angle = frame->angle * kDegrees;
    if (numbers_field(state, "angle (deg)", "rod angle", &angle, 1, 180.0))  // a residue of a half-turn is 0
      edit::set_rod_angle(e.draft, c, angle / kDegrees);
    if (ImGui::IsItemHovered()) tooltip("From straight down, counter-clockwise positive (0: hanging).");
    double rate = frame->angular_velocity;
    if (numbers_field(state, "ang. velocity (rad/s)", "rod angular velocity", &rate, 1))
      edit::set_rod_angular_velocity(e.draft, c, rate);
  }
  if (kind)
    for (const KindField& field : kind->fields) {
      if (kind->role == KindRole::Rod && std::string_view(field.key) == "length" && edit::rod_frame(e.draft, c))
        continue;
      const std::string label = std::string(field.key) + (field.required || def.has(field.key) ? "" : " (auto)");
      if (field.type == FieldType::Number) {
        double value = def.number(field.key).value_or(0.0);
        if (numbers_field(state, label.c_str(), field.key, &value, 1)) def.set(field.key, value);
      } else {
        Vec3 value = def.vector(field.key).value_or(
            def.particles.empty() ? Vec3(0.0) : e.draft.particles[static_cast<std::size_t>(def.particles[0])].position);
        if (vector_field(state, label.c_str(), field.key, value, largest(e.draft))) def.set(field.key, value);
      }
      if (ImGui::IsItemHovered()) tooltip("%s", field.description);
    }
  double compliance = def.compliance;
  if (numbers_field(state, "compliance (m/N)", "compliance", &compliance, 1, 0.0, 3)) def.compliance = compliance;
  if (ImGui::IsItemHovered()) tooltip("0: rigid. > 0: a spring of stiffness 1/compliance (docs/physics.md).");
  double damping = def.damping;
  if (numbers_field(state, "damping (N s/m)", "damping", &damping, 1, 0.0, 3)) def.damping = damping;
}

void inspector_section(SandboxState& state) {
  EditorState& e = state.editor;
  if (e.selected.size() == 1) {
    particle_inspector(state, e.selected[0]);
  } else if (e.selected.size() > 1) {
    ImGui::Text("%zu particles selected", e.selected.size());
    double mass = e.draft.particles[static_cast<std::size_t>(e.selected[0])].mass;
    if (numbers_field(state, "mass each (kg)", "masses", &mass, 1))
      for (int p : e.selected) e.draft.particles[static_cast<std::size_t>(p)].mass = mass;
    const std::vector<int> chosen = e.selected;
    if (ImGui::Button("Fix all")) e.change("fix", [&](Scene& s) { for (int p : chosen) edit::set_fixed(s, p, true); });
    remember_rect(state, "fix all button");
    ImGui::SameLine();
    if (ImGui::Button("Free all"))
      e.change("free", [&](Scene& s) {
        for (int p : chosen) {
          edit::set_fixed(s, p, false);
          edit::set_pinned(s, p, false);
        }
      });
    remember_rect(state, "free all button");
  } else if (e.constraint < 0) {
    hint("Select a particle or a rod to type its values: position, velocity, mass; a rod's length, angle and "
         "angular velocity.");
  }
  if (e.constraint >= 0 && static_cast<std::size_t>(e.constraint) < e.draft.constraints.size()) {
    ImGui::Separator();
    constraint_inspector(state, e.constraint);
  }
  if (!e.selected.empty() || e.constraint >= 0) {
    if (ImGui::Button("Delete (Del)")) state.push(Command::Kind::DeleteSelection);
    remember_rect(state, "delete button");
  }
}

}  // namespace

std::span<const EditKey> edit_keys() { return kEditKeys; }

FieldText field_text(std::span<const double> values, double scale, float width,
                     const std::function<float(const std::string&)>& measure, int max_digits) {
  FieldText shown;
  double size = std::abs(scale);
  for (double v : values) size = std::max(size, std::abs(v));
  for (double v : values) shown.values.push_back(std::abs(v) <= 1e-12 * size ? 0.0 : v);  // and -0 as 0
  const auto text = [](double v, int digits) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*g", digits, v);
    return std::string(buffer);
  };
  for (shown.digits = std::max(max_digits, 1); shown.digits > 1; --shown.digits)
    if (std::all_of(shown.values.begin(), shown.values.end(),
                    [&](double v) { return measure(text(v, shown.digits)) <= width; }))
      break;
  for (double v : shown.values) shown.texts.push_back(text(v, shown.digits));
  return shown;
}

void draw_editor_panel(SandboxState& state) {
  EditorState& e = state.editor;
  if (!begin_right_panel(state, "Editor", "editor panel")) {
    ImGui::End();
    return;
  }
  const Palette& colours = palette(state.appearance.theme);
  ImGui::TextColored(colours.editing, "EDIT MODE");
  ImGui::SameLine();
  if (ImGui::Button("Play (E)")) state.push(Command::Kind::ToggleEdit);
  remember_rect(state, "play button");
  if (ImGui::IsItemHovered()) tooltip("Run the edited scene from this state.");
  for (const EditTools& tool : kEditTools) {
    if (&tool != &kEditTools[0])
      same_line_if_fits(ImGui::CalcTextSize((std::string(tool.key) + " " + tool.name).c_str()).x +
                        2.0f * ImGui::GetStyle().FramePadding.x);
    tool_button(state, tool);
  }
  for (const EditTools& tool : kEditTools)
    if (tool.tool == e.tool) hint("%s", tool.help);
  ImGui::Checkbox("snap to grid (G)", &e.snap);
  remember_rect(state, "edit snap");
  ImGui::SameLine();
  hint("%g m", e.snap_step);
  struct History {
    const char* name;
    const std::vector<EditSnapshot>& steps;
    Command::Kind command;
    const char* keys;
  };
  for (const History& h : {History{"Undo", e.undo, Command::Kind::Undo, "Ctrl+Z"},
                           History{"Redo", e.redo, Command::Kind::Redo, "Ctrl+Shift+Z"}}) {
    if (h.command == Command::Kind::Redo) ImGui::SameLine();
    ImGui::BeginDisabled(h.steps.empty());
    if (ImGui::Button(h.name)) state.push(h.command);
    ImGui::EndDisabled();
    remember_rect(state, h.command == Command::Kind::Undo ? "undo button" : "redo button");
    if (!h.steps.empty() && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
      tooltip("%s %s (%s)", h.name, h.steps.back().label.c_str(), h.keys);
  }
  ImGui::SameLine();
  hint("%zu steps", e.undo.size());
  ImGui::Separator();
  status_line(state);
  ImGui::Separator();
  if (ImGui::CollapsingHeader("File", ImGuiTreeNodeFlags_DefaultOpen)) file_section(state);
  if (ImGui::CollapsingHeader("Add", ImGuiTreeNodeFlags_DefaultOpen)) generators_section(state);
  if (!e.draft.contacts.obstacles.empty() && ImGui::CollapsingHeader("Obstacles", ImGuiTreeNodeFlags_DefaultOpen))
    obstacles_section(state);
  if (ImGui::CollapsingHeader("Inspector", ImGuiTreeNodeFlags_DefaultOpen)) {
    ImGui::PushItemWidth(ImGui::GetContentRegionAvail().x * 0.5f);  // the other half for the labels
    inspector_section(state);
    ImGui::PopItemWidth();
  }
  if (ImGui::CollapsingHeader("Keys")) {
    for (const EditKey& key : kEditKeys) {
      ImGui::TextColored(colours.key, "%s", key.keys);
      ImGui::SameLine();
      hint("%s", key.what);
    }
  }
  ImGui::End();
}

void draw_edit_overlay(SandboxState& state) {
  const EditorState& e = state.editor;
  const Palette& colours = palette(state.appearance.theme);
  const auto rect = scene_viewport(state);
  const float ratio = static_cast<float>(std::max(state.pixel_ratio, 1e-6));
  const ImVec2 lo(rect[0] / ratio, rect[1] / ratio), hi((rect[0] + rect[2]) / ratio, (rect[1] + rect[3]) / ratio);
  const float scale = static_cast<float>(state.ui_scale);
  ImDrawList* draw = ImGui::GetBackgroundDrawList();
  const ImU32 edit_colour = ImGui::GetColorU32(colours.editing);
  draw->AddRect(ImVec2(lo.x + 1.5f * scale, lo.y + 1.5f * scale), ImVec2(hi.x - 1.5f * scale, hi.y - 1.5f * scale),
                edit_colour, 0.0f, 0, 3.0f * scale);
  const auto at = [&](glm::dvec2 pixel) { return ImVec2(float(pixel.x / ratio), float(pixel.y / ratio)); };
  if (e.gesture == EditorState::Gesture::Box) {
    draw->AddRectFilled(at(glm::min(e.press_pixel, e.cursor_pixel)), at(glm::max(e.press_pixel, e.cursor_pixel)),
                        ImGui::GetColorU32(ImVec4(colours.editing.x, colours.editing.y, colours.editing.z, 0.12f)));
    draw->AddRect(at(glm::min(e.press_pixel, e.cursor_pixel)), at(glm::max(e.press_pixel, e.cursor_pixel)),
                  edit_colour, 0.0f, 0, 1.5f * scale);
  }
  // Where a click or the end of a rod would put a particle (snapped), and the rod being drawn.
  const bool placing = e.tool != EditTool::Select && e.gesture != EditorState::Gesture::Move &&
                       state.camera.in_viewport(e.cursor_pixel) && !ImGui::GetIO().WantCaptureMouse &&
                       state.hover.kind != Hover::Kind::Particle;
  if (e.gesture == EditorState::Gesture::Rod) {
    const Vec3 from = e.press_particle >= 0 && static_cast<std::size_t>(e.press_particle) < e.draft.particles.size()
                          ? e.draft.particles[static_cast<std::size_t>(e.press_particle)].position
                          : (e.snap ? snap_to_grid(e, e.press_point) : e.press_point);
    const auto start = state.camera.project(from);
    std::optional<glm::dvec3> end;
    if (state.hover.kind == Hover::Kind::Particle)
      end = state.camera.project(state.world().state().position[static_cast<std::size_t>(state.hover.index)]);
    else if (const auto point = edit_point(state, e.cursor_pixel, from, true))
      end = state.camera.project(*point);
    if (start && end)
      draw->AddLine(at(glm::dvec2(*start)), at(glm::dvec2(*end)), edit_colour, 3.0f * scale);
  }
  if (placing)
    if (const auto point = edit_point(state, e.cursor_pixel, glm::dvec3(0.0), true))
      if (const auto pixel = state.camera.project(*point)) {
        const ImVec2 c = at(glm::dvec2(*pixel));
        draw->AddCircle(c, 6.0f * scale, edit_colour, 16, 1.5f * scale);
        draw->AddLine(ImVec2(c.x - 9 * scale, c.y), ImVec2(c.x + 9 * scale, c.y), edit_colour, 1.0f * scale);
        draw->AddLine(ImVec2(c.x, c.y - 9 * scale), ImVec2(c.x, c.y + 9 * scale), edit_colour, 1.0f * scale);
      }

  // The banner (what mode this is, what the tool does, how to leave) and the messages are overlays of their own,
  // placed where they cover no particle (ui/scene_overlays.cpp).
}


}  // namespace lagrange::app
