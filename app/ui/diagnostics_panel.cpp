// The diagnostics panel (right): energy, constraint violation, iterations and solve time over a scrolling window,
// with the numbers a lesson quotes beside them.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "lagrange/measure.h"
#include "ui/plots.h"
#include "ui/text_box.h"
#include "window/theme.h"
#include "ui/ui.h"

namespace lagrange::app {

namespace {

// One row of the numbers table: the name, its tip on hover, the value. The name's rect is kept as
// "diagnostics: NAME" for the GUI tests.
void name_cell(SandboxState& state, const char* name, const char* tip) {
  ImGui::TableNextRow();
  ImGui::TableSetColumnIndex(0);
  ImGui::TextDisabled("%s", name);
  if (ImGui::IsItemHovered()) tooltip(tip);
  const ImVec2 lo = ImGui::GetItemRectMin(), hi = ImGui::GetItemRectMax();
  if (*name) state.widget_rects[std::string("diagnostics: ") + name] = {lo.x, lo.y, hi.x, hi.y};
  ImGui::TableSetColumnIndex(1);
}
template <typename... Args>
void number_row(SandboxState& state, const char* name, const char* tip, const char* format, Args... args) {
  name_cell(state, name, tip);
  ImGui::Text(format, args...);
}
// A measured value with its unit, written to fit the cell (fit_number: fewer digits, an SI prefix), never wrapped.
void value_row(SandboxState& state, const char* name, const char* tip, double value, const char* unit,
               bool sign = false, int digits = 5) {
  name_cell(state, name, tip);
  ImGui::TextUnformatted(fit_number(value, unit, ImGui::GetContentRegionAvail().x, sign, digits).c_str());
}

void energy_rows(SandboxState& state) {
  const EnergyBalance balance = energy_balance(state);
  value_row(state, "energy drift",
            "E - E0 - W_mouse - W_damping - W_contacts: the energy the solver made or lost since the last reset or load",
            balance.drift, "J", true);
  const double e0 = state.sim.lane(0).accounts.start_energy;
  if (std::abs(e0) > 1e-12)
    value_row(state, "", "drift relative to the initial total energy", 100.0 * balance.drift / std::abs(e0), "%",
              true, 3);
  value_row(state, "E - E0", "total energy now minus at the last reset or load", balance.change, "J", true);
  value_row(state, "mouse work", "work done by your drags and poses (W_mouse)", balance.mouse, "J", true);
  if (balance.damping != 0.0)
    value_row(state, "damping work", "work done by air drag and dampers (W_damping, never positive)", balance.damping,
              "J", true);
  if (balance.contacts != 0.0)
    value_row(state, "contact work",
              "work done by contacts (W_contacts): impacts with restitution below 1, friction, and the contacts that "
              "stop an approach; zero for elastic contacts without friction",
              balance.contacts, "J", true);
}

// A scene with contacts: how many pushed in the last step and how many of them were impacts (as run --csv's
// contacts and impacts columns), and the deepest overlap now.
void contact_rows(SandboxState& state) {
  const World& world = state.world();
  if (!world.model().contacts().any()) return;
  number_row(state, "contacts",
             "contacts that pushed in the last step (a particle on an obstacle or on another particle), drawn as teal "
             "arrows of their normal force; in brackets those that were impacts (restitution)",
             "%d (%d impacts)", contact_count(world.state()), world.state().contacts.impacts);
  // O(n^2) over the particle pairs: only for scenes small enough to measure every frame.
  if (world.particle_count() <= 400) {
    const double overlap = worst_overlap(world.model(), world.state());
    if (std::isfinite(overlap))
      number_row(state, "worst gap", "the smallest gap between two particles that collide or a particle and an "
                                     "obstacle, in radii (negative: an overlap)",
                 "%+.2e r", overlap);
  }
}

void step_rows(SandboxState& state) {
  const World& world = state.world();
  const StepStats& stats = world.stats();
  const Violation violation = lagrange::violation(world.model(), world.state());  // one pass over the rows
  value_row(state, "max |C|", "largest constraint violation after the step (length units)", violation.absolute, "m");
  value_row(state, "max |J v|", "largest velocity along a constrained direction", violation.velocity, "m/s");
  number_row(state, "iterations", "iterates evaluated (projection) or sweeps in the last step (all substeps)", "%d",
             stats.iterations);
  value_row(state, "solve time", "wall time of the last step", stats.solve_seconds, "s");
  contact_rows(state);
}

// The engine's warnings for the last step, one labelled row each (only those that happened).
void warning_rows(SandboxState& state) {
  const StepStats& stats = state.world().stats();
  if (stats.recoveries)
    number_row(state, "recoveries", "substeps whose linearization lost its real solution and were re-linearized or "
                                    "split (last step)", "%d", stats.recoveries);
  if (stats.failures)
    number_row(state, "above tolerance", "substeps that ended with |C| above the tolerance (last step): the solver "
                                         "could not meet it within the iteration cap", "%d substeps", stats.failures);
  if (stats.fallbacks)
    number_row(state, "by projection", "SHAKE or RATTLE substeps that their sweeps and Newton could not finish, done "
                                       "again by projection (last step)", "%d substeps", stats.fallbacks);
  if (stats.held)
    number_row(state, "held flat", "substeps in which rigid rods lying flat or straight (a flat sheet, a taut edge) "
                                   "could not move as the step asked (they would need infinite tension) and were held; "
                                   "soft (compliant) rods let a sheet drape", "%d substeps", stats.held);
  if (stats.dependent_rows)
    number_row(state, "dropped rows", "redundant or contradictory constraint rows left out of the last linear solve",
               "%d", stats.dependent_rows);
  if (stats.non_finite)
    number_row(state, "NaN rolled back", "a NaN or infinity appeared; the substep was undone (the state stays finite)",
               "%s", "yes");
}

// Each lane's drift and largest rod error now, in its colour.
void lane_rows(SandboxState& state, const std::vector<LaneSpec>& specs) {
  for (std::size_t k = 1; k < specs.size(); ++k) {
    const SimLane& lane = state.sim.lane(k);
    const double drift = energy_balance(lane).drift;
    const std::string name = "lane " + std::to_string(k + 1);
    const Colour c = lane_colour(specs, static_cast<int>(k));
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    ImGui::TextColored(ImVec4(c.r, c.g, c.b, 1.0f), "%s", name.c_str());
    if (ImGui::IsItemHovered())
      tooltip("%s: energy drift since it started, and its largest constraint violation now",
                        lane.spec.display_name().c_str());
    const ImVec2 lo = ImGui::GetItemRectMin(), hi = ImGui::GetItemRectMax();
    state.widget_rects["diagnostics: " + name] = {lo.x, lo.y, hi.x, hi.y};
    ImGui::TableSetColumnIndex(1);
    if (!lane.running()) {
      ImGui::PushStyleColor(ImGuiCol_Text, palette(state.appearance.theme).error_text);
      words(lane.stopped.c_str());  // words: wrapped at spaces
      ImGui::PopStyleColor();
      continue;
    }
    // Both numbers on one line, as many digits as the cell takes; on two (between them) when even two digits do not.
    const float width = ImGui::GetContentRegionAvail().x;
    std::string text;
    for (int digits = 4; digits >= 2; --digits) {
      text = fit_number(drift, "J", 1e9f, true, digits) + ", |C|\xc2\xa0" +  // no break between |C| and its value
             fit_number(lane.world.max_violation(), "m", 1e9f, false, digits);
      if (ImGui::CalcTextSize(text.c_str()).x <= width) break;
    }
    words(text);
  }
}

void numbers_table(SandboxState& state, const std::vector<LaneSpec>& specs) {
  if (!ImGui::BeginTable("numbers", 2)) return;
  ImGui::TableSetupColumn("name", ImGuiTableColumnFlags_WidthFixed);  // as wide as the longest label
  ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch);
  for (auto it = state.widget_rects.begin(); it != state.widget_rects.end();)  // rows come and go
    it = it->first.starts_with("diagnostics: ") ? state.widget_rects.erase(it) : std::next(it);
  energy_rows(state);
  step_rows(state);
  warning_rows(state);
  lane_rows(state, specs);
  if (state.timing.median_ms > 0.0) {
    name_cell(state, "frame", "wall time of one frame: UI, physics and rendering (median of the last 120)");
    char text[64];
    std::snprintf(text, sizeof text, "%.1f ms, %d step%s", state.timing.median_ms, state.timing.steps_last_frame,
                  state.timing.steps_last_frame == 1 ? "" : "s");
    words(text);
  }
  ImGui::EndTable();
}

// Scaled up (projector mode), the plots give up to a quarter of their height so that more of them fit the window
// (4.5 plot heights, five headings, the renderer's line and the gaps); the rest scrolls. Their text bands keep
// their size, so shrinking further would leave too little of the curves.
float fitted_plot_height(const SandboxState& state, float plot_h) {
  if (state.ui_scale <= 1.0) return plot_h;
  const float fixed = 8.0f * ImGui::GetTextLineHeightWithSpacing() + 6.0f * ImGui::GetStyle().ItemSpacing.y;
  return std::clamp((ImGui::GetContentRegionAvail().y - fixed) / 4.5f, 0.75f * plot_h, plot_h);
}

void energy_heading(const SandboxState& state) {
  ImGui::TextUnformatted("Energy");
  if (state.displays[0].history.size() <= 1) return;
  ImGui::SameLine();
  ImGui::TextDisabled("(the last %.1f s)", state.displays[0].history.back().time - state.displays[0].history[0].time);
  if (ImGui::IsItemHovered())
    tooltip("The plots show the last %zu steps. Each scale covers the 1st to 99th percentile of what is "
                      "shown, so one spike does not flatten the rest; a value off scale runs along the edge and is "
                      "named below the plot.",
                      state.displays[0].history.size());
}

// A plot of lane 1's history, its frame, curves and legend entries kept as "plot ID ..." for the GUI tests.
void plot(SandboxState& state, const char* id, const std::vector<Series>& series, float height, bool log_scale,
          const char* unit) {
  const PlotRects rects = plot_series(id, state.displays[0].history, series, height, log_scale, unit);
  const std::string name = std::string("plot ") + id;
  state.widget_rects[name] = rects.frame;
  state.widget_rects[name + " curves"] = rects.curves;
  for (std::size_t k = 0; k < rects.legend.size(); ++k)
    state.widget_rects[name + " legend " + std::to_string(k)] = rects.legend[k];
}

// With lanes: one curve per lane in its colour (lane 1 is the plot's own history). `names` outlives the plot.
std::vector<Series> per_lane(const SandboxState& state, const std::vector<LaneSpec>& specs,
                             const std::vector<std::string>& names, double Sample::*field) {
  std::vector<Series> series;
  for (std::size_t k = 0; k < specs.size(); ++k) {
    const Colour c = lane_colour(specs, static_cast<int>(k));
    // A lane that stopped (blew up) is drawn but does not set the scale: lane 1's curves keep their size.
    series.push_back({names[k].c_str(), field, ImGui::GetColorU32(ImVec4(c.r, c.g, c.b, 1.0f)),
                      k == 0 ? nullptr : &state.displays[k].history, state.sim.lane(k).running()});
  }
  return series;
}

void plots(SandboxState& state, const std::vector<LaneSpec>& specs, float plot_h) {
  const PlotPalette& colours = palette(state.appearance.theme).plot;
  std::vector<std::string> names;
  for (std::size_t k = 0; k < specs.size(); ++k) names.push_back(std::to_string(k + 1) + " " + specs[k].display_name());
  const auto lane_series = [&](double Sample::*field) { return per_lane(state, specs, names, field); };
  const bool lanes = state.lane_count() > 1;
  plot(state, "energy",
       {{"kinetic", &Sample::kinetic, colours.kinetic},
        {"potential", &Sample::potential, colours.potential},
        {"total", &Sample::total, colours.total}},
       plot_h * 1.3f, false, "J");
  ImGui::TextUnformatted(lanes ? "Total energy of each lane" : "Total energy (zoomed)");
  plot(state, "total",
       lanes ? lane_series(&Sample::total) : std::vector<Series>{{"total", &Sample::total, colours.total}},
       plot_h * 0.8f, false, "J");
  ImGui::TextUnformatted(lanes ? "max |C| of each lane (log)" : "Constraint violation (log)");
  plot(state, "violation",
       lanes ? lane_series(&Sample::violation)
             : std::vector<Series>{{"max |C| [m]", &Sample::violation, colours.violation},
                                   {"max |Jv| [m/s]", &Sample::velocity_violation, colours.velocity_violation}},
       plot_h, true, lanes ? "m" : "");
  ImGui::TextUnformatted("Solver effort");
  plot(state, "iterations",
       lanes ? lane_series(&Sample::iterations)
             : std::vector<Series>{{"iterations", &Sample::iterations, colours.iterations}},
       plot_h * 0.7f, false, "");
  plot(state, "solve",
       lanes ? lane_series(&Sample::solve_ms) : std::vector<Series>{{"solve time", &Sample::solve_ms, colours.solve}},
       plot_h * 0.7f, false, "ms");
}

void renderer_line(SandboxState& state) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  words(state.renderer_name.c_str());  // wrapped: "llvmpipe (LLVM 15.0.6, 256 bits), OpenGL 4.5 ..."
  ImGui::PopStyleColor();
  const ImVec2 lo = ImGui::GetItemRectMin(), hi = ImGui::GetItemRectMax();
  state.widget_rects["renderer"] = {lo.x, lo.y, hi.x, hi.y};
}

}  // namespace

void draw_diagnostics(SandboxState& state) {
  if (!begin_right_panel(state, "Diagnostics", "diagnostics panel")) {
    ImGui::End();
    return;
  }
  const std::vector<LaneSpec> specs = state.lane_specs();  // lane 1's, then the other lanes'
  numbers_table(state, specs);
  ImGui::Spacing();
  const float plot_h = fitted_plot_height(state, 95.0f * static_cast<float>(state.ui_scale));
  energy_heading(state);
  plots(state, specs, plot_h);
  matrix_section(state);
  convergence_section(state);
  renderer_line(state);
  ImGui::End();
}

}  // namespace lagrange::app
