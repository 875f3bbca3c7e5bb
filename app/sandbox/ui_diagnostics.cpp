// The diagnostics panel (right): energy, constraint violation, iterations and solve time over a scrolling window,
// with the numbers a lesson quotes beside them.
#include <imgui.h>

#include <cmath>

#include "sandbox/ui.h"

namespace lagrange::app {

void draw_diagnostics(SandboxState& state) {
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  const float width = panel_width(state) * 1.1f;
  ImGui::SetNextWindowPos(ImVec2(viewport->Pos.x + viewport->Size.x - width, viewport->Pos.y));
  ImGui::SetNextWindowSize(ImVec2(width, viewport->Size.y));
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                                 ImGuiWindowFlags_NoSavedSettings;
  if (!ImGui::Begin("Diagnostics", nullptr, flags)) {
    ImGui::End();
    return;
  }
  const World& world = state.world;
  const StepStats& stats = world.stats();
  const EnergyBalance balance = energy_balance(state);
  const float plot_h = 95.0f * static_cast<float>(state.ui_scale);

  if (ImGui::BeginTable("numbers", 2, ImGuiTableFlags_SizingStretchProp)) {
    auto row = [](const char* name, const char* tip, auto&&... value) {
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      ImGui::TextDisabled("%s", name);
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tip);
      ImGui::TableSetColumnIndex(1);
      ImGui::Text(value...);
    };
    row("energy drift", "E - E0 - W_mouse - W_damping: the energy the solver made or lost since the last reset or load",
        "%+.4e J", balance.drift);
    if (std::abs(state.initial_energy) > 1e-12)
      row("", "drift relative to the initial total energy", "%+.3e %%",
          100.0 * balance.drift / std::abs(state.initial_energy));
    row("E - E0", "total energy now minus at the last reset or load", "%+.4e J", balance.change);
    row("mouse work", "work done by your drags and poses (W_mouse)", "%+.4e J", balance.mouse);
    if (balance.damping != 0.0)
      row("damping work", "work done by air drag and dampers (W_damping, never positive)", "%+.4e J", balance.damping);
    row("max |C|", "largest constraint violation after the step (length units)", "%.3e m", world.max_violation());
    row("max |J v|", "largest velocity along a constrained direction", "%.3e m/s", world.max_velocity_violation());
    row("iterations", "Newton iterations or sweeps in the last step (all substeps)", "%d", stats.iterations);
    row("solve time", "wall time of the last step", "%.3f ms", stats.solve_seconds * 1e3);
    if (stats.recoveries || stats.failures || stats.dependent_rows || stats.non_finite)
      row("warnings", "recoveries / substeps above tolerance / dropped dependent rows / NaN rolled back",
          "%d / %d / %d%s", stats.recoveries, stats.failures, stats.dependent_rows, stats.non_finite ? " / NaN" : "");
    if (state.timing.median_ms > 0.0)
      row("frame", "wall time of one frame: UI, physics and rendering (median of the last 120)", "%.1f ms (%d steps)",
          state.timing.median_ms, state.timing.steps_last_frame);
    ImGui::EndTable();
  }

  ImGui::Spacing();
  ImGui::TextUnformatted("Energy");
  if (state.history.size() > 1) {
    ImGui::SameLine();
    ImGui::TextDisabled("(plots: the last %.1f s, %zu steps)", state.history.back().time - state.history[0].time,
                        state.history.size());
  }
  plot_series("energy", state.history,
              {{"kinetic", &Sample::kinetic, IM_COL32(255, 170, 70, 255)},
               {"potential", &Sample::potential, IM_COL32(90, 170, 255, 255)},
               {"total", &Sample::total, IM_COL32(235, 235, 240, 255)}},
              plot_h * 1.3f, false, "J");
  ImGui::TextUnformatted("Total energy (zoomed)");
  plot_series("total", state.history, {{"total", &Sample::total, IM_COL32(235, 235, 240, 255)}}, plot_h * 0.8f, false,
              "J");
  ImGui::TextUnformatted("Constraint violation (log)");
  plot_series("violation", state.history,
              {{"max |C|", &Sample::violation, IM_COL32(255, 95, 85, 255)},
               {"max |Jv|", &Sample::velocity_violation, IM_COL32(200, 130, 255, 255)}},
              plot_h, true, "");
  ImGui::TextUnformatted("Solver effort");
  plot_series("iterations", state.history, {{"iterations", &Sample::iterations, IM_COL32(120, 220, 140, 255)}},
              plot_h * 0.7f, false, "");
  plot_series("solve", state.history, {{"solve time", &Sample::solve_ms, IM_COL32(240, 220, 100, 255)}},
              plot_h * 0.7f, false, "ms");
  ImGui::TextDisabled("%s", state.renderer_name.c_str());
  ImGui::End();
}

}  // namespace lagrange::app
