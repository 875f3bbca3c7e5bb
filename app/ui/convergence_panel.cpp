// Diagnostics' Convergence section (issue 25): `lagrange-lab converge` in the window. Run starts the same study
// (lagrange/convergence.h) in the background on a copy of the scene as loaded, with lane 1's settings
// (tools/convergence_job.h): a progress bar and Cancel while it runs, then the log–log picture
// (ui/convergence_plot.h) with each solver's fitted order. Also the picture alone, filling the window, for
// `converge --plot` (draw_convergence_figure).
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <new>
#include <string>
#include <system_error>

#include "ui/convergence_plot.h"
#include "ui/ui.h"
#include "window/theme.h"

namespace lagrange::app {
namespace {

// The window's study: at most this many levels, so one Run stays within seconds on the shipped scenes.
constexpr int kMaxWindowLevels = 8;

void start(SandboxState& state) {
  ConvergenceView& c = state.convergence;
  Scene scene = state.scene;
  scene.settings = state.world().settings();  // the Δt, gravity, tolerance ... lane 1 runs now
  ConvergenceStudy study;
  study.until = c.until;
  study.levels = c.levels;
  c.message.clear();
  try {
    c.job = std::make_shared<ConvergenceJob>(std::move(scene), std::move(study));
  } catch (const std::system_error&) {  // no thread could be started (the page has none)
    c.message = "no thread to run the study in here; lagrange-lab converge runs it";
  } catch (const std::bad_alloc&) {
    c.message = "out of memory for a copy of the scene";
  }
  c.scene_name = state.scene.name;
}

// A finished job hands over its report (or why there is none).
void collect(ConvergenceView& c) {
  if (!c.job || !c.job->done()) return;
  if (auto report = c.job->report()) {
    c.report = std::make_shared<const ConvergenceReport>(std::move(*report));
    c.report_until = c.job->study().until;
  } else {
    c.message = c.job->error();
  }
  c.job.reset();
}

void settings_rows(SandboxState& state) {
  ConvergenceView& c = state.convergence;
  const bool running = c.job != nullptr;
  ImGui::BeginDisabled(running);
  ImGui::TextUnformatted("until T (s)");
  same_line_if_fits(6.0f * ImGui::GetFontSize());
  ImGui::SetNextItemWidth(std::max(4.0f * ImGui::GetFontSize(), ImGui::GetContentRegionAvail().x));
  double until = c.until;
  if (ImGui::InputDouble("##until", &until, 0.0, 0.0, "%.3g", ImGuiInputTextFlags_EnterReturnsTrue))
    c.until = std::clamp(until, 0.01, 100.0);
  remember_rect(state, "convergence: until");
  if (ImGui::IsItemHovered()) tooltip("The time the positions are compared at (0.01 .. 100 s).");
  ImGui::TextUnformatted("levels");
  same_line_if_fits(6.0f * ImGui::GetFontSize());
  ImGui::SetNextItemWidth(std::max(4.0f * ImGui::GetFontSize(), ImGui::GetContentRegionAvail().x));
  ImGui::SliderInt("##levels", &c.levels, 2, kMaxWindowLevels, "%d", ImGuiSliderFlags_AlwaysClamp);
  remember_rect(state, "convergence: levels");
  if (ImGui::IsItemHovered()) tooltip("How many step sizes: Δt, Δt/2, ... Δt/2^(levels-1).");
  ImGui::EndDisabled();
}

}  // namespace

void convergence_section(SandboxState& state) {
  ConvergenceView& c = state.convergence;
  collect(c);
  if (state.expand_sections) ImGui::SetNextItemOpen(true);
  c.open = ImGui::CollapsingHeader("Convergence");
  remember_rect(state, "convergence: header");
  for (const char* name : {"convergence: until", "convergence: levels", "convergence: run", "convergence: progress",
                           "convergence: cancel", "convergence: plot", "convergence: axes"})
    state.widget_rects.erase(name);
  for (std::size_t k = 0; k < 8; ++k) state.widget_rects.erase("convergence: legend " + std::to_string(k));
  if (!c.open) return;
  hint("Runs the scene from its start to T with every solver at Δt, Δt/2, Δt/4 ... (Δt: lane 1's substep) against "
       "a much finer RATTLE run, and fits the slope of log error against log Δt: the order. As lagrange-lab "
       "converge; the live scene is not touched.");
  settings_rows(state);
  if (c.job) {
    char label[32];
    std::snprintf(label, sizeof label, "%.0f %%", 100.0 * c.job->progress());
    ImGui::ProgressBar(static_cast<float>(c.job->progress()), ImVec2(-1.0f, 0.0f), label);
    remember_rect(state, "convergence: progress");
    if (ImGui::Button("Cancel")) c.job->cancel();
    remember_rect(state, "convergence: cancel");
  } else {
    if (ImGui::Button("Run")) start(state);
    remember_rect(state, "convergence: run");
  }
  if (!c.message.empty()) hint("Last run: %s.", c.message.c_str());
  if (!c.report) return;
  hint("%s, positions at T = %.3g s:", c.scene_name.c_str(), c.report_until);
  const float width = ImGui::GetContentRegionAvail().x;
  const float height = 0.8f * width + convergence_legend_height(*c.report, width) + 3.0f * ImGui::GetFontSize();
  const ImVec2 lo = ImGui::GetCursorScreenPos();
  ImGui::Dummy(ImVec2(width, height));
  remember_rect(state, "convergence: plot");
  const ConvergencePlotRects rects = draw_convergence_plot(
      ImGui::GetWindowDrawList(), lo, ImVec2(lo.x + width, lo.y + height), *c.report,
      state.appearance.theme == Theme::Light);
  state.widget_rects["convergence: axes"] = rects.axes;
  for (std::size_t k = 0; k < rects.legend.size() && k < 8; ++k)
    state.widget_rects["convergence: legend " + std::to_string(k)] = rects.legend[k];
}

void draw_convergence_figure(SandboxState& state) {
  const ConvergenceView& c = state.convergence;
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(viewport->Pos);
  ImGui::SetNextWindowSize(viewport->Size);
  const bool light = state.appearance.theme == Theme::Light;
  ImGui::PushStyleColor(ImGuiCol_WindowBg, light ? ImVec4(1, 1, 1, 1) : ImVec4(0.09f, 0.10f, 0.12f, 1.0f));
  ImGui::Begin("##convergence figure", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoScrollWithMouse);
  ImGui::PopStyleColor();
  const float fs = ImGui::GetFontSize();
  const float margin = 1.5f * fs;
  ImDrawList* list = ImGui::GetWindowDrawList();
  const ImVec2 lo(viewport->Pos.x + margin, viewport->Pos.y + margin);
  const ImVec2 hi(viewport->Pos.x + viewport->Size.x - margin, viewport->Pos.y + viewport->Size.y - margin);
  const float title_size = 1.3f * fs;
  list->AddText(ImGui::GetFont(), title_size, lo, ImGui::GetColorU32(ImGuiCol_Text), c.figure_title.c_str());
  const ImVec2 plot_lo(lo.x, lo.y + 2.0f * title_size);
  const ConvergencePlotRects rects = draw_convergence_plot(list, plot_lo, hi, *c.figure, light);
  state.widget_rects["convergence figure: axes"] = rects.axes;
  ImGui::End();
}

}  // namespace lagrange::app
