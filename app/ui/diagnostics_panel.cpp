// The diagnostics panel (right): energy, constraint violation, iterations and solve time over a scrolling window,
// with the numbers a lesson quotes beside them.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "lagrange/measure.h"
#include "ui/plots.h"
#include "ui/ui.h"

namespace lagrange::app {

void draw_diagnostics(SandboxState& state) {
  if (!begin_right_panel(state, "Diagnostics", "diagnostics panel")) {
    ImGui::End();
    return;
  }
  const World& world = state.world();
  const std::vector<LaneSpec> specs = state.lane_specs();  // lane 1's, then the other lanes'
  const StepStats& stats = world.stats();
  const EnergyBalance balance = energy_balance(state);
  float plot_h = 95.0f * static_cast<float>(state.ui_scale);
  const PlotPalette& colours = palette(state.appearance.theme).plot;

  if (ImGui::BeginTable("numbers", 2)) {
    ImGui::TableSetupColumn("name", ImGuiTableColumnFlags_WidthFixed);  // as wide as the longest label
    ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch);
    for (auto it = state.widget_rects.begin(); it != state.widget_rects.end();)  // rows come and go
      it = it->first.starts_with("diagnostics: ") ? state.widget_rects.erase(it) : std::next(it);
    auto row = [&state](const char* name, const char* tip, auto&&... value) {
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      ImGui::TextDisabled("%s", name);
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tip);
      const ImVec2 lo = ImGui::GetItemRectMin(), hi = ImGui::GetItemRectMax();
      if (*name) state.widget_rects[std::string("diagnostics: ") + name] = {lo.x, lo.y, hi.x, hi.y};
      ImGui::TableSetColumnIndex(1);
      ImGui::TextWrapped(value...);  // a narrow panel wraps "2.452e-03 m/s" before the unit instead of cutting it
    };
    row("energy drift", "E - E0 - W_mouse - W_damping: the energy the solver made or lost since the last reset or load",
        "%+.4e J", balance.drift);
    const double e0 = state.sim.lane(0).accounts.start_energy;
    if (std::abs(e0) > 1e-12)
      row("", "drift relative to the initial total energy", "%+.3e %%", 100.0 * balance.drift / std::abs(e0));
    row("E - E0", "total energy now minus at the last reset or load", "%+.4e J", balance.change);
    row("mouse work", "work done by your drags and poses (W_mouse)", "%+.4e J", balance.mouse);
    if (balance.damping != 0.0)
      row("damping work", "work done by air drag and dampers (W_damping, never positive)", "%+.4e J", balance.damping);
    const Violation violation = lagrange::violation(world.model(), world.state());  // one pass over the rows
    row("max |C|", "largest constraint violation after the step (length units)", "%.3e m", violation.absolute);
    row("max |J v|", "largest velocity along a constrained direction", "%.3e m/s", violation.velocity);
    row("iterations", "iterates evaluated (projection) or sweeps in the last step (all substeps)", "%d", stats.iterations);
    row("solve time", "wall time of the last step", "%.3f ms", stats.solve_seconds * 1e3);
    // The engine's warnings for the last step, one labelled row each (only those that happened).
    if (stats.recoveries)
      row("recoveries", "substeps whose linearization lost its real solution and were re-linearized or split "
                        "(last step)", "%d", stats.recoveries);
    if (stats.failures)
      row("above tolerance", "substeps that ended with |C| above the tolerance (last step): the solver could not "
                             "meet it within the iteration cap", "%d substeps", stats.failures);
    if (stats.held)
      row("held flat", "substeps in which rigid rods lying flat or straight (a flat sheet, a taut edge) could not move "
                       "as the step asked (they would need infinite tension) and were held; soft (compliant) rods "
                       "let a sheet drape", "%d substeps", stats.held);
    if (stats.dependent_rows)
      row("dropped rows", "redundant or contradictory constraint rows left out of the last linear solve",
          "%d", stats.dependent_rows);
    if (stats.non_finite)
      row("NaN rolled back", "a NaN or infinity appeared; the substep was undone (the state stays finite)", "%s", "yes");
    // Each lane's drift and largest rod error now, in its colour.
    for (std::size_t k = 1; k < specs.size(); ++k) {
      const SimLane& lane = state.sim.lane(k);
      const double drift = energy_balance(lane).drift;
      const std::string name = "lane " + std::to_string(k + 1);
      const Colour c = lane_colour(specs, static_cast<int>(k));
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      ImGui::TextColored(ImVec4(c.r, c.g, c.b, 1.0f), "%s", name.c_str());
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s: energy drift since it started, and its largest constraint violation now",
                          lane.spec.label().c_str());
      const ImVec2 lo = ImGui::GetItemRectMin(), hi = ImGui::GetItemRectMax();
      state.widget_rects["diagnostics: " + name] = {lo.x, lo.y, hi.x, hi.y};
      ImGui::TableSetColumnIndex(1);
      if (!lane.running()) ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "%s", lane.stopped.c_str());
      else ImGui::TextWrapped("%+.3e J, |C| %.2e m", drift, lane.world.max_violation());
    }
    if (state.timing.median_ms > 0.0)
      row("frame", "wall time of one frame: UI, physics and rendering (median of the last 120)", "%.1f ms (%d steps)",
          state.timing.median_ms, state.timing.steps_last_frame);
    ImGui::EndTable();
  }

  ImGui::Spacing();
  // Scaled up (projector mode), the plots give up to a quarter of their height so that more of them fit the window
  // (4.5 plot heights, five headings, the renderer's line and the gaps); the rest scrolls. Their text bands keep
  // their size, so shrinking further would leave too little of the curves.
  if (state.ui_scale > 1.0) {
    const float fixed = 8.0f * ImGui::GetTextLineHeightWithSpacing() + 6.0f * ImGui::GetStyle().ItemSpacing.y;
    plot_h = std::clamp((ImGui::GetContentRegionAvail().y - fixed) / 4.5f, 0.75f * plot_h, plot_h);
  }
  ImGui::TextUnformatted("Energy");
  if (state.displays[0].history.size() > 1) {
    ImGui::SameLine();
    ImGui::TextDisabled("(the last %.1f s)", state.displays[0].history.back().time - state.displays[0].history[0].time);
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("The plots show the last %zu steps. Each scale covers the 1st to 99th percentile of what is "
                        "shown, so one spike does not flatten the rest; a value off scale runs along the edge and is "
                        "named below the plot.",
                        state.displays[0].history.size());
  }
  auto plot = [&](const char* id, const std::vector<Series>& series, float height, bool log_scale,
                  const char* unit) {
    const PlotRects rects = plot_series(id, state.displays[0].history, series, height, log_scale, unit);
    const std::string name = std::string("plot ") + id;
    state.widget_rects[name] = rects.frame;
    state.widget_rects[name + " curves"] = rects.curves;
    for (std::size_t k = 0; k < rects.legend.size(); ++k)
      state.widget_rects[name + " legend " + std::to_string(k)] = rects.legend[k];
  };
  // With lanes: one curve per lane in its colour (lane 1 is the plot's own history).
  std::vector<std::string> names;
  for (std::size_t k = 0; k < specs.size(); ++k) names.push_back(std::to_string(k + 1) + " " + specs[k].label());
  const auto per_lane = [&](double Sample::*field) {
    std::vector<Series> series;
    for (std::size_t k = 0; k < specs.size(); ++k) {
      const Colour c = lane_colour(specs, static_cast<int>(k));
      series.push_back({names[k].c_str(), field, ImGui::GetColorU32(ImVec4(c.r, c.g, c.b, 1.0f)),
                        k == 0 ? nullptr : &state.displays[k].history});
    }
    return series;
  };
  const bool lanes = state.lane_count() > 1;
  plot("energy",
       {{"kinetic", &Sample::kinetic, colours.kinetic},
        {"potential", &Sample::potential, colours.potential},
        {"total", &Sample::total, colours.total}},
       plot_h * 1.3f, false, "J");
  ImGui::TextUnformatted(lanes ? "Total energy of each lane" : "Total energy (zoomed)");
  plot("total", lanes ? per_lane(&Sample::total) : std::vector<Series>{{"total", &Sample::total, colours.total}},
       plot_h * 0.8f, false, "J");
  ImGui::TextUnformatted(lanes ? "max |C| of each lane (log)" : "Constraint violation (log)");
  plot("violation",
       lanes ? per_lane(&Sample::violation)
             : std::vector<Series>{{"max |C| [m]", &Sample::violation, colours.violation},
                                   {"max |Jv| [m/s]", &Sample::velocity_violation, colours.velocity_violation}},
       plot_h, true, lanes ? "m" : "");
  ImGui::TextUnformatted("Solver effort");
  plot("iterations",
       lanes ? per_lane(&Sample::iterations) : std::vector<Series>{{"iterations", &Sample::iterations, colours.iterations}},
       plot_h * 0.7f, false, "");
  plot("solve", lanes ? per_lane(&Sample::solve_ms) : std::vector<Series>{{"solve time", &Sample::solve_ms, colours.solve}},
       plot_h * 0.7f, false, "ms");
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextWrapped("%s", state.renderer_name.c_str());  // wrapped: "llvmpipe (LLVM 15.0.6, 256 bits), OpenGL 4.5 ..."
  ImGui::PopStyleColor();
  const ImVec2 lo = ImGui::GetItemRectMin(), hi = ImGui::GetItemRectMax();
  state.widget_rects["renderer"] = {lo.x, lo.y, hi.x, hi.y};
  ImGui::End();
}

}  // namespace lagrange::app
