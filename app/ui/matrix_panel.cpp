// Diagnostics' Matrix section (issue 25): A = J M⁻¹ Jᵀ of lane 1's state as a heat map (red positive, blue negative,
// the numbers in the cells up to 12 rows, the sparsity pattern beyond), the acceleration level's right-hand side b
// and the multipliers λ beside it, the rank, the dependent rows and the condition number. The numbers are
// lagrange-lab matrix's: one analysis, analyse_matrix (lagrange/matrix_analysis.h). The dependent rows' rods are
// drawn highlighted on the scene while the section is open; a row under the pointer highlights its rod.
#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>

#include "lagrange/text.h"
#include "ui/ui.h"
#include "window/theme.h"

namespace lagrange::app {
namespace {

// Up to this many rows the cells carry their numbers; beyond, the pattern of nonzero entries.
constexpr int kNumberedRows = 12;
// Above this many rows the analysis (O(rows³)) is redone at most twice a second while the scene moves (refresh).
constexpr int kLiveRows = 150;

void refresh(SandboxState& state) {
  MatrixView& m = state.matrix;
  m.wall_age += ImGui::GetIO().DeltaTime;
  const World& world = state.world();
  const bool same = m.openings == state.scene_openings && m.time == world.time() &&
                    m.position == world.state().position && m.velocity == world.state().velocity;
  // A large analysis waits at least half a second, and four times as long as the last one took, so the window keeps
  // most of its frames for the scene.
  const bool large = m.analysis && m.analysis->rows > kLiveRows;
  if ((m.analysis || !m.error.empty()) && (same || (large && m.wall_age < std::max(0.5, 4.0 * m.cost)))) return;
  m.time = world.time();
  m.openings = state.scene_openings;
  m.position = world.state().position;
  m.velocity = world.state().velocity;
  m.wall_age = 0.0;
  const auto start = std::chrono::steady_clock::now();
  try {
    m.analysis = std::make_shared<const MatrixAnalysis>(analyse_matrix(world));
    m.cost = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    m.error.clear();
  } catch (const Error& error) {
    m.analysis.reset();
    m.error = error.what();
  }
}

std::string row_name(const MatrixRow& row) {
  std::string text = row.kind + " #" + std::to_string(row.constraint);
  if (row.row > 0) text += " row " + std::to_string(row.row);
  text += " (particle" + std::string(row.particles.size() == 1 ? " " : "s ");
  for (std::size_t i = 0; i < row.particles.size(); ++i) text += (i ? ", " : "") + std::to_string(row.particles[i]);
  return text + ")";
}

// The diverging scale: white (light theme) or the panel's background (dark) at 0, red for positive, blue for
// negative, full at max |A|; square-rooted so that small entries still show.
ImU32 cell_colour(double v, double largest, bool light, float& strength) {
  strength = largest > 0.0 ? static_cast<float>(std::sqrt(std::min(std::abs(v) / largest, 1.0))) : 0.0f;
  const ImVec4 zero = light ? ImVec4(1.0f, 1.0f, 1.0f, 1.0f) : ImVec4(0.16f, 0.17f, 0.20f, 1.0f);
  const ImVec4 full = v >= 0.0 ? ImVec4(0.80f, 0.12f, 0.16f, 1.0f) : ImVec4(0.12f, 0.32f, 0.85f, 1.0f);
  const float t = strength;
  return ImGui::ColorConvertFloat4ToU32(ImVec4(zero.x + t * (full.x - zero.x), zero.y + t * (full.y - zero.y),
                                               zero.z + t * (full.z - zero.z), 1.0f));
}

// A value written in at most `width` units at a font no smaller than 0.7 em: the most digits that fit, else "".
struct FittedText {
  std::string text;
  float size = 0.0f;
};
FittedText fit_cell(double v, float width) {
  const float fs = ImGui::GetFontSize();
  for (int digits = 3; digits >= 1; --digits) {
    char text[32];
    std::snprintf(text, sizeof text, "%.*g", digits, std::abs(v) < 1e-12 ? 0.0 : v);
    for (float size = fs; size >= 0.7f * fs; size -= 0.1f * fs) {
      const float w = ImGui::GetFont()->CalcTextSizeA(size, FLT_MAX, 0.0f, text).x;
      if (w <= width) return {text, size};
    }
  }
  return {};
}

void cell_text(ImDrawList* list, ImVec2 lo, ImVec2 hi, double v, float strength, bool light) {
  const FittedText t = fit_cell(v, hi.x - lo.x - 0.2f * ImGui::GetFontSize());
  if (t.text.empty() || t.size > hi.y - lo.y) return;
  const ImVec2 size = ImGui::GetFont()->CalcTextSizeA(t.size, FLT_MAX, 0.0f, t.text.c_str());
  const bool light_text = !light || strength > 0.6f;  // the dark theme's zero is dark
  list->AddText(ImGui::GetFont(), t.size, {0.5f * (lo.x + hi.x - size.x), 0.5f * (lo.y + hi.y - size.y)},
                light_text ? IM_COL32(255, 255, 255, 255) : IM_COL32(15, 15, 20, 255), t.text.c_str());
}

void summary(SandboxState& state, const MatrixAnalysis& m) {
  // Its three counts on as many lines as they take: at 3x on one line they ran past the panel's edge.
  ImGui::BeginGroup();
  const std::string parts[] = {"rows " + std::to_string(m.rows), "rank " + std::to_string(m.rank),
                               "dependent " + std::to_string(m.dependent.size())};
  for (const std::string& part : parts) {
    if (&part != &parts[0]) same_line_if_fits(ImGui::CalcTextSize(part.c_str()).x);
    ImGui::TextUnformatted(part.c_str());
  }
  ImGui::EndGroup();
  remember_rect(state, "matrix: summary");
  if (ImGui::IsItemHovered())
    tooltip("rows: the constraint rows of the scene (the mouse's pin is not one); rank: how many of them are "
            "independent; dependent: rows whose gradient is a combination of the rows before them (redundant: "
            "drawn in orange on the scene while this section is open). As lagrange-lab matrix prints them.");
  ImGui::Text("condition %.4g", m.condition);
  remember_rect(state, "matrix: condition");
  if (ImGui::IsItemHovered())
    tooltip("The largest over the smallest nonzero eigenvalue of A: how much a solve J M^-1 J^T lambda = b can "
            "magnify an error in b. A long chain of light beads under heavy ones has a large one.");
}

// The heat map of A with b and λ as two columns beside it, `n` rows; returns the row under the pointer or -1.
int heat_map(SandboxState& state, const MatrixAnalysis& m) {
  const int n = m.rows;
  const float fs = ImGui::GetFontSize();
  const bool numbered = n <= kNumberedRows;
  const float avail = ImGui::GetContentRegionAvail().x;
  const float mark = 0.4f * fs;                    // the dependent rows' mark, left of the rows
  const float column = numbered ? 3.2f * fs : 0.8f * fs;  // b and λ, each
  const float gap = 0.4f * fs;
  const float cell = std::min(numbered ? 3.0f * fs : 2.0f * fs,
                              std::max(0.0f, (avail - mark - gap - 2.0f * column - gap) / static_cast<float>(n)));
  const float head = fs * 1.2f;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float width = mark + cell * n + gap + 2.0f * column + gap;
  const float height = head + cell * n;
  ImGui::InvisibleButton("##matrix", ImVec2(std::max(1.0f, width), std::max(1.0f, height)));
  remember_rect(state, "matrix: heat map");
  const bool hovered = ImGui::IsItemHovered();
  ImDrawList* list = ImGui::GetWindowDrawList();
  const bool light = state.appearance.theme == Theme::Light;
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
  const ImVec2 a0(origin.x + mark, origin.y + head);
  const float bx = a0.x + cell * n + gap, lx = bx + column + gap;
  // The columns' names over them.
  const auto centred = [&](float x0, float w, const char* label) {
    const float tw = ImGui::CalcTextSize(label).x;
    list->AddText({x0 + 0.5f * (w - tw), origin.y}, text, label);
  };
  if (cell * n >= ImGui::CalcTextSize("A").x) centred(a0.x, cell * n, n >= 4 && cell * n > ImGui::CalcTextSize("J M⁻¹ Jᵀ").x ? "J M⁻¹ Jᵀ" : "A");
  centred(bx, column, "b");
  centred(lx, column, "λ");
  double largest = 0.0, largest_b = 0.0, largest_l = 0.0;
  for (double v : m.a) largest = std::max(largest, std::abs(v));
  for (int k = 0; k < n; ++k) largest_b = std::max(largest_b, std::abs(m.rhs[k])), largest_l = std::max(largest_l, std::abs(m.lambda[k]));
  std::vector<bool> dependent(static_cast<std::size_t>(n), false);
  for (int k : m.dependent) dependent[static_cast<std::size_t>(k)] = true;
  const ImU32 orange = IM_COL32(240, 140, 20, 255);
  for (int k = 0; k < n; ++k) {
    const float y = a0.y + cell * k;
    if (k < kNumberedRows) state.widget_rects["matrix: row " + std::to_string(k)] = {a0.x, y, lx + column, y + cell};
    if (dependent[static_cast<std::size_t>(k)]) list->AddRectFilled({origin.x, y}, {origin.x + mark * 0.75f, y + cell}, orange);
    for (int l = 0; l < n; ++l) {
      const double v = m.a[static_cast<std::size_t>(k) * n + l];
      if (!numbered && v == 0.0) continue;  // the pattern: only the nonzero entries
      float strength = 0.0f;
      const ImVec2 lo(a0.x + cell * l, y), hi(lo.x + cell, y + cell);
      list->AddRectFilled(lo, hi, cell_colour(v, largest, light, strength));
      if (numbered) cell_text(list, lo, hi, v, strength, light);
    }
    for (int col = 0; col < 2; ++col) {
      const double v = col == 0 ? m.rhs[k] : m.lambda[k];
      float strength = 0.0f;
      const ImVec2 lo(col == 0 ? bx : lx, y), hi(lo.x + column, y + cell);
      list->AddRectFilled(lo, hi, cell_colour(v, col == 0 ? largest_b : largest_l, light, strength));
      if (numbered) cell_text(list, lo, hi, v, strength, light);
    }
  }
  const ImU32 frame = ImGui::GetColorU32(ImGuiCol_Border);
  list->AddRect(a0, {a0.x + cell * n, a0.y + cell * n}, frame);
  list->AddRect({bx, a0.y}, {bx + column, a0.y + cell * n}, frame);
  list->AddRect({lx, a0.y}, {lx + column, a0.y + cell * n}, frame);
  if (!hovered || cell <= 0.0f) return -1;
  const ImVec2 mouse = ImGui::GetMousePos();
  const int k = static_cast<int>(std::floor((mouse.y - a0.y) / cell));
  if (k < 0 || k >= n) return -1;
  list->AddRect({a0.x, a0.y + cell * k}, {lx + column, a0.y + cell * (k + 1)}, text, 0.0f, 0, 2.0f);
  const int l = static_cast<int>(std::floor((mouse.x - a0.x) / cell));
  std::string tip = "row " + std::to_string(k) + ": " + row_name(m.row_info[static_cast<std::size_t>(k)]);
  if (dependent[static_cast<std::size_t>(k)]) tip += ", dependent on the rows before it";
  if (l >= 0 && l < n) {
    char entry[96];
    std::snprintf(entry, sizeof entry, "\nA[%d][%d] = %.6g", k, l, m.a[static_cast<std::size_t>(k) * n + l]);
    tip += entry;
  }
  char values[128];
  std::snprintf(values, sizeof values, "\nb = %.6g   lambda = %.6g", m.rhs[k], m.lambda[k]);
  tip += values;
  tooltip(tip + "\n(its rod is drawn highlighted on the scene)");
  return k;
}

}  // namespace

void matrix_section(SandboxState& state) {
  MatrixView& m = state.matrix;
  if (state.expand_sections) ImGui::SetNextItemOpen(true);
  m.open = ImGui::CollapsingHeader("Matrix J M⁻¹ Jᵀ");
  remember_rect(state, "matrix: header");
  for (const char* name : {"matrix: heat map", "matrix: summary", "matrix: condition"}) state.widget_rects.erase(name);
  for (int k = 0; k < kNumberedRows; ++k) state.widget_rects.erase("matrix: row " + std::to_string(k));
  m.highlighted.clear();
  m.hovered_row = -1;
  m.hovered_constraint = -1;
  if (!m.open) return;
  refresh(state);
  if (!m.analysis) {
    hint("%s", m.error.c_str());
    return;
  }
  const MatrixAnalysis& a = *m.analysis;
  hint("Lane 1 now (t = %.3f s): the matrix the acceleration level solves, A λ = b; as lagrange-lab matrix prints "
       "it.", state.world().time());
  summary(state, a);
  if (a.rows == 0) {
    hint("No constraint rows: nothing to solve.");
    return;
  }
  m.hovered_row = heat_map(state, a);
  if (a.rows > kNumberedRows) hint("%d rows: the pattern of nonzero entries (hover a row for its numbers).", a.rows);
  if (!a.dependent.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.94f, 0.55f, 0.08f, 1.0f));
    words(std::to_string(a.dependent.size()) + " dependent row" + (a.dependent.size() == 1 ? "" : "s") +
          " (orange mark, orange on the scene): the solver leaves them out.");
    ImGui::PopStyleColor();
  }
  for (int k : a.dependent) m.highlighted.push_back(a.row_info[static_cast<std::size_t>(k)].constraint);
  if (m.hovered_row >= 0) {
    m.hovered_constraint = a.row_info[static_cast<std::size_t>(m.hovered_row)].constraint;
    m.highlighted.push_back(m.hovered_constraint);
  }
}

}  // namespace lagrange::app
