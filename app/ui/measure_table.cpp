// The Measure strip's Table tool (issue 21): the table of periods against amplitude a class builds, one row per
// timed bob — its colour, amplitude, measured, exact and small-angle periods and measured / exact − 1 — filled by
// "Time every bob" (every simple pendulum of the scene at once) or "Add" (the timer's reading), copied to the
// clipboard as tab-separated text or exported as CSV. The rows and their text are measurement_table.h's; the names by
// colour are shared with the timer's list of particles.
#include <imgui.h>

#include <algorithm>
#include <array>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>
#include <vector>

#include "ui/measure_panel.h"
#include "ui/ui.h"
#include "view/scene_draw.h"
#include "window/theme.h"

namespace lagrange::app {
namespace {

constexpr double kDeg = 180.0 / std::numbers::pi;

ImU32 colour_u32(const glm::vec3& c) { return ImGui::ColorConvertFloat4ToU32(ImVec4(c.r, c.g, c.b, 1.0f)); }

// Draws a disc of `colour` in a box `size` wide and one text line high whose left edge is at `at`.
void swatch_at(ImDrawList* draw, ImVec2 at, float size, const glm::vec3& colour) {
  const float h = ImGui::GetTextLineHeight();
  const ImVec2 centre(at.x + 0.5f * size, at.y + 0.5f * h);
  const float r = 0.36f * h;
  draw->AddCircleFilled(centre, r, colour_u32(colour), 20);
  // A thin darker ring, so a white or a pale bob reads on the light theme's white too.
  draw->AddCircle(centre, r, colour_u32(colour * 0.6f), 20, 1.0f);
}

float button_width(const char* label) {
  return ImGui::CalcTextSize(label, nullptr, true).x + 2.0f * ImGui::GetStyle().FramePadding.x;
}

// SameLine when an item `width` wide fits on the line, else a new line: buttons wrap at the column's edge.
void next_fits(float width) {
  const float right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
  ImGui::SameLine();
  if (ImGui::GetCursorScreenPos().x + width > right) ImGui::NewLine();
}

// A tooltip that wraps at about 30 characters' width instead of running off the window.
void wrapped_tooltip(const char* text) {
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(30.0f * ImGui::GetFontSize());
  ImGui::TextUnformatted(text);
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

void tip(const char* text) {
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) wrapped_tooltip(text);
}

// A cell's text, right-aligned in a column `width` wide (numbers line up by their last digit).
void right_aligned(const std::string& text, float width) {
  const float free = width - ImGui::CalcTextSize(text.c_str()).x;
  if (free > 0.0f) ImGui::SetCursorPosX(ImGui::GetCursorPosX() + free);
  ImGui::TextUnformatted(text.c_str());
}

std::string seconds(double t) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4f s", t);
  return text;
}

std::string degrees(double angle) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f\xc2\xb0", angle * kDeg);
  return text;
}

// The buttons over the table: Time every bob, Add, Copy, Export CSV, Clear.
void table_buttons(SandboxState& state, const ParticleNames& names) {
  MeasureState& m = state.measure;
  const World& world = state.world();
  const bool dragging = state.dragging();
  ImGui::BeginDisabled(m.bobs.empty() || dragging);
  if (ImGui::Button("Time every bob")) time_every_bob(m, world, names.colours, names.names);
  ImGui::EndDisabled();
  remember_rect(state, "measure: time every bob");
  tip(m.bobs.empty() ? "This scene has no simple pendulum (one rigid rod to a fixed pivot, gravity, no air drag): "
                       "nothing to time at once. The timer still times any particle."
                     : "Times every simple pendulum of the scene at once, from now: each bob's row comes in after its "
                       "first whole period (all of them within one swing of the slowest and a bit). A drag, a "
                       "pose, Reset or a change of gravity or damping stops what is still timing.");
  const int timed = m.particle;
  const std::string name = timed >= 0 && static_cast<std::size_t>(timed) < names.names.size()
                               ? names.names[static_cast<std::size_t>(timed)]
                               : std::string("bob");
  const auto row = timer_row(m, timed >= 0 && static_cast<std::size_t>(timed) < names.colours.size()
                                    ? names.colours[static_cast<std::size_t>(timed)]
                                    : std::nullopt,
                             name);
  next_fits(button_width("Add"));
  ImGui::BeginDisabled(!row || dragging);
  if (ImGui::Button("Add") && row) m.table.rows.push_back(*row);
  ImGui::EndDisabled();
  remember_rect(state, "measure: table add");
  tip(row ? "Adds the period timer's reading as a row: its bob, the amplitude it swings to, the measured period "
            "(the mean of every whole period timed so far) and the exact and small-angle periods."
          : "Adds the period timer's reading, once it has timed a whole period of a simple pendulum and seen its "
            "swing turn (for the amplitude).");
  const bool empty = m.table.rows.empty();
  next_fits(button_width("Copy"));
  ImGui::BeginDisabled(empty);
  if (ImGui::Button("Copy")) {
    ImGui::SetClipboardText(table_text(m.table, '\t').c_str());
    state.show_toast("Copied the table (" + std::to_string(m.table.rows.size()) +
                         " rows, tab-separated): paste it into a spreadsheet",
                     false);
  }
  remember_rect(state, "measure: table copy");
  tip("Copies the table as tab-separated text with a header line, every number to more digits than shown: it "
      "pastes into a spreadsheet as columns.");
  next_fits(button_width("Export CSV"));
  if (ImGui::Button("Export CSV")) {
    Command command;
    command.kind = Command::Kind::ExportTable;
    state.commands.push_back(command);
  }
  remember_rect(state, "measure: table export");
  tip(state.downloads ? "Downloads the table as a CSV file, with the units in its header."
                      : "Writes the table as a new CSV file, with the units in its header, into the folder Save uses.");
  next_fits(button_width("Clear"));
  if (ImGui::Button("Clear##table")) m.table.rows.clear();
  remember_rect(state, "measure: table clear");
  tip("Removes every row (\xc3\x97 in a row removes that one).");
  ImGui::EndDisabled();
}

// What is timing, or what to do with an empty table.
void table_status(SandboxState& state) {
  const MeasureState& m = state.measure;
  if (const int waiting = bobs_timing(m); waiting > 0) {
    const int total = static_cast<int>(m.bobs.size());
    hint("timing every bob: %d of %d in, %.1f s so far", total - waiting, total,
         state.world().time() - m.every_bob_since);
  } else if (!m.every_bob_note.empty()) {
    hint("%s", m.every_bob_note.c_str());
  } else if (m.table.rows.empty()) {
    hint(m.bobs.empty() ? "Add puts the period timer's reading in the table."
                        : "Time every bob fills the table in one swing; Add puts in the timer's reading.");
  }
}

// The bob of a row: a button that removes the row, a swatch of its colour, its name. True when removed.
bool row_bob(SandboxState& state, const TableRow& row, std::size_t i, const std::string& suffix = {}) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const float h = ImGui::GetTextLineHeight();
  const bool remove = ImGui::SmallButton("\xc3\x97");
  remember_rect(state, "measure: table remove " + std::to_string(i));
  tip("Removes this row.");
  ImGui::SameLine();
  if (row.colour) swatch_at(ImGui::GetWindowDrawList(), ImGui::GetCursorScreenPos(), h, *row.colour);
  ImGui::Dummy(ImVec2(h, h));
  ImGui::SameLine(0.0f, style.ItemInnerSpacing.x);
  ImGui::TextUnformatted((row.name + suffix).c_str());
  if (ImGui::IsItemHovered()) {
    char text[256];
    std::snprintf(text, sizeof text,
                  "particle %d; L = %.4g m, g = %.4g m/s\xc2\xb2; %d whole period%s timed; measured / small-angle "
                  "period = %.4f",
                  row.particle, row.length, row.gravity, row.intervals, row.intervals == 1 ? "" : "s", row.ratio());
    wrapped_tooltip(text);
  }
  return remove;
}

void table_rows(SandboxState& state) {
  MeasureState& m = state.measure;
  auto& texts = state.widget_texts["measure: table"];
  texts.clear();
  const ImGuiStyle& style = ImGui::GetStyle();
  // The header, two lines a column so the columns stay as narrow as their numbers.
  static const char* kHeader[6][2] = {{"", "bob"},          {"", "amplitude"},
                                      {"T", "measured"},    {"T", "exact"},
                                      {"T small", "angle"}, {"measured/", "exact \xe2\x88\x92 1"}};
  // The same, on one line, in the stacked form of a narrow strip.
  static const char* kLabel[5] = {"amplitude", "measured", "exact", "small angle", "measured/exact \xe2\x88\x92 1"};
  static const char* kTips[6] = {
      "The bob, by the colour it is drawn in (\xc3\x97 removes the row).",
      "The swing's amplitude: its angle from straight down at the turning points, measured from the swing.",
      "The measured period: the mean interval between the bob's crossings of its swing's midline in the same "
      "direction (the tooltip of a row's bob says over how many periods).",
      "4 \xe2\x88\x9a(L/g) K(sin(amplitude/2)), K the complete elliptic integral of the first kind: the exact period of "
      "a simple pendulum swinging to that amplitude.",
      "2\xcf\x80 \xe2\x88\x9a(L/g): the period of a swing of vanishing amplitude.",
      "How far the measured period is from the exact one, in percent, with its sign: + when the measured one is "
      "longer."};
  // Every cell's text, and each column's width: the widest of its header and cells (given to the table every frame,
  // so it never waits a frame to fit a new row, and right-aligning in it cannot feed back into it).
  const std::size_t n = m.table.rows.size();
  std::vector<std::array<std::string, 5>> cells(n);
  std::array<float, 6> width{};
  for (int k = 0; k < 6; ++k)
    width[k] = std::max(ImGui::CalcTextSize(kHeader[k][0]).x, ImGui::CalcTextSize(kHeader[k][1]).x);
  const float h = ImGui::GetTextLineHeight();
  const float remove_w = button_width("\xc3\x97");
  for (std::size_t i = 0; i < n; ++i) {
    const TableRow& row = m.table.rows[i];
    cells[i] = {degrees(row.amplitude), seconds(row.period), seconds(row.exact), seconds(row.small_angle),
                signed_percent(row.difference())};
    width[0] = std::max(width[0], remove_w + style.ItemSpacing.x + h + style.ItemInnerSpacing.x +
                                      ImGui::CalcTextSize(row.name.c_str()).x);
    for (int k = 0; k < 5; ++k) width[k + 1] = std::max(width[k + 1], ImGui::CalcTextSize(cells[i][k].c_str()).x);
    std::string text = row.name;
    for (const std::string& cell : cells[i]) text += "\t" + cell;
    texts.push_back(text);
  }
  // The width the columns need: their text, padding and borders, and a scrollbar when the rows overflow.
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const float rows_height = (static_cast<float>(n) + 2.0f) * (h + 2.0f * style.CellPadding.y);
  float natural = rows_height > ImGui::GetContentRegionAvail().y ? style.ScrollbarSize + 2.0f : 2.0f;
  for (float w : width) natural += w + 2.0f * style.CellPadding.x + 1.0f;
  state.widget_texts["measure: table layout"] = {ImGui::GetContentRegionAvail().x >= natural ? "table" : "stacked"};
  int remove = -1;
  if (ImGui::GetContentRegionAvail().x < natural) {
    // Too narrow for the columns (a projector's scale): each row stacked, its bob on a line and then each number
    // beside its label, a pair moved whole to the next line when it does not fit, a number to the line under its
    // label when even that does not. Nothing cut, nothing broken; the strip scrolls down.
    const float start = ImGui::GetCursorScreenPos().y;
    for (std::size_t i = 0; i < n; ++i) {
      ImGui::PushID(static_cast<int>(i));
      if (i > 0) ImGui::Separator();
      if (row_bob(state, m.table.rows[i], i)) remove = static_cast<int>(i);
      ImGui::Indent(remove_w + style.ItemSpacing.x);
      for (int k = 0; k < 5; ++k) {
        const float value = ImGui::CalcTextSize(cells[i][k].c_str()).x;
        if (k > 0) next_fits(ImGui::CalcTextSize(kLabel[k]).x + style.ItemInnerSpacing.x + value);
        ImGui::TextDisabled("%s", kLabel[k]);
        tip(kTips[k + 1]);
        const float right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
        ImGui::SameLine(0.0f, style.ItemInnerSpacing.x);
        if (ImGui::GetCursorScreenPos().x + value > right) {
          ImGui::NewLine();
          ImGui::SetCursorPosX(ImGui::GetCursorPosX() + ImGui::GetFontSize());
        }
        ImGui::TextUnformatted(cells[i][k].c_str());
      }
      ImGui::Unindent(remove_w + style.ItemSpacing.x);
      ImGui::PopID();
    }
    const float x0 = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMin().x;
    state.widget_rects["measure: table"] = {x0, start, x0 + ImGui::GetContentRegionAvail().x,
                                            std::max(ImGui::GetCursorScreenPos().y, start + 1.0f)};
  } else {
    // Scrolls down inside the space left, the header kept.
    const ImVec2 size(0.0f, std::max(ImGui::GetContentRegionAvail().y, 5.0f * line + 8.0f * style.CellPadding.y));
    const ImGuiTableFlags flags = ImGuiTableFlags_ScrollY | ImGuiTableFlags_SizingFixedFit |
                                  ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_RowBg;
    if (ImGui::BeginTable("##periods", 6, flags, size)) {
      ImGui::TableSetupScrollFreeze(0, 1);
      for (int k = 0; k < 6; ++k) ImGui::TableSetupColumn(nullptr, ImGuiTableColumnFlags_WidthFixed, width[k]);
      ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
      for (int k = 0; k < 6; ++k) {
        ImGui::TableSetColumnIndex(k);
        const float x = ImGui::GetCursorPosX();
        // Each line right-aligned over the numbers (the bob's on the left).
        right_aligned(kHeader[k][0], k == 0 ? 0.0f : width[k]);
        ImGui::SetCursorPosX(x);
        right_aligned(kHeader[k][1], k == 0 ? 0.0f : width[k]);
        tip(kTips[k]);
      }
      for (std::size_t i = 0; i < n; ++i) {
        ImGui::PushID(static_cast<int>(i));
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        if (row_bob(state, m.table.rows[i], i)) remove = static_cast<int>(i);
        for (int k = 0; k < 5; ++k) {
          ImGui::TableSetColumnIndex(k + 1);
          right_aligned(cells[i][k], width[k + 1]);
        }
        ImGui::PopID();
      }
      ImGui::EndTable();
    }
    remember_rect(state, "measure: table");
  }
  if (remove >= 0) m.table.rows.erase(m.table.rows.begin() + remove);
}

}  // namespace

ParticleNames particle_names(const SandboxState& state) {
  const World& world = state.world();
  const std::size_t n = world.particle_count();
  ParticleNames out;
  out.colours.resize(n);
  out.names.resize(n);
  std::vector<int> listed;
  std::vector<std::optional<glm::vec3>> colours;
  for (std::size_t i = 0; i < n; ++i) {
    out.colours[i] = particle_colour(state.scene, static_cast<int>(i));
    if (world.model().fixed(i)) continue;
    listed.push_back(static_cast<int>(i));
    colours.push_back(out.colours[i]);
  }
  const std::vector<std::string> names = bob_names(listed, colours);
  for (std::size_t k = 0; k < listed.size(); ++k) out.names[static_cast<std::size_t>(listed[k])] = names[k];
  for (std::size_t i = 0; i < n; ++i)
    if (out.names[i].empty()) out.names[i] = "particle " + std::to_string(i);  // fixed: never timed
  return out;
}

std::string timer_choice(const SandboxState& state, const ParticleNames& names, int particle) {
  if (particle < 0 || static_cast<std::size_t>(particle) >= names.names.size()) return "none";
  std::string label = names.names[static_cast<std::size_t>(particle)];
  if (const BobWatch* bob = watched_bob(state.measure, particle)) {
    const auto swing = bob->amplitude.result();
    const double angle = swing ? swing->amplitude : angle_about(state.world(), particle, bob->pendulum.pivot);
    char text[32];
    std::snprintf(text, sizeof text, ", %.0f\xc2\xb0", angle * kDeg);
    label += text;
  }
  return label;
}

void colour_swatch(const std::optional<glm::vec3>& colour) {
  const float h = ImGui::GetTextLineHeight();
  const ImVec2 at = ImGui::GetCursorScreenPos();
  // As tall as a frame (a combo beside it), the disc centred in it.
  const float frame = ImGui::GetFrameHeight();
  ImGui::Dummy(ImVec2(h, frame));
  if (colour) swatch_at(ImGui::GetWindowDrawList(), ImVec2(at.x, at.y + 0.5f * (frame - h)), h, *colour);
}

bool swatch_selectable(const char* id, const std::optional<glm::vec3>& colour, const std::string& label,
                       bool selected) {
  // The label after enough spaces for the swatch, drawn over them: the row highlights across the list's width and
  // the list is as wide as its longest label.
  const float h = ImGui::GetTextLineHeight();
  const float gap = ImGui::GetStyle().ItemInnerSpacing.x;
  const auto spaces = static_cast<std::size_t>(std::ceil((h + gap) / std::max(ImGui::CalcTextSize(" ").x, 1.0f)));
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const bool clicked = ImGui::Selectable((std::string(spaces, ' ') + label + id).c_str(), selected);
  if (colour) swatch_at(ImGui::GetWindowDrawList(), at, h, *colour);
  return clicked;
}

void measure_table_tool(SandboxState& state) {
  const ParticleNames names = particle_names(state);
  ImGui::TextColored(palette(state.appearance.theme).title, "Periods");
  tip("The class's table of the period against the amplitude: one row per timed bob.");
  next_fits(button_width("Time every bob"));
  table_buttons(state, names);
  table_status(state);
  table_rows(state);
}

}  // namespace lagrange::app
