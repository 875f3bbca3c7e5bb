// The timeline under the scene (time travel, issue 11): a step back, play/pause, and a slider over the snapshots
// of the last seconds. Dragging the slider shows the scene as it was then; Play (or a step, or a drag) resumes from
// the moment shown, and the later history is dropped.
#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "sandbox/ui.h"

namespace lagrange::app {

float timeline_height(const SandboxState& state) {
  if (!state.view.panels || state.timeline.size() < 2) return 0.0f;
  return ImGui::GetFrameHeight() + 2.0f * ImGui::GetStyle().WindowPadding.y + 8.0f;
}

void draw_timeline(SandboxState& state) {
  const Timeline& timeline = state.timeline;
  if (timeline_height(state) == 0.0f) return;
  const auto rect = scene_viewport(state);  // drawable pixels
  const float ratio = static_cast<float>(std::max(state.pixel_ratio, 1e-6));
  const float x0 = rect[0] / ratio + 12.0f, x1 = (rect[0] + rect[2]) / ratio - 12.0f;
  const float bottom = (rect[1] + rect[3]) / ratio - 8.0f;
  ImGui::SetNextWindowPos(ImVec2(x0, bottom), ImGuiCond_Always, ImVec2(0.0f, 1.0f));
  ImGui::SetNextWindowSize(ImVec2(std::max(x1 - x0, 200.0f), 0.0f));
  ImGui::SetNextWindowBgAlpha(0.8f);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoSavedSettings |
                                 ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav |
                                 ImGuiWindowFlags_NoMove;
  if (!ImGui::Begin("##timeline", nullptr, flags)) {
    ImGui::End();
    return;
  }
  if (ImGui::ArrowButton("##back", ImGuiDir_Left)) state.push(Command::Kind::StepBack);
  remember_rect(state, "timeline back");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("One step back in time (Left)");
  ImGui::SameLine();
  if (ImGui::Button(state.paused ? "Play" : "Pause")) state.push(Command::Kind::TogglePause);
  remember_rect(state, "timeline play");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(timeline.cursor() ? "Resume from the moment shown: what came after it is dropped (Space)"
                                        : "Space");
  ImGui::SameLine();
  const std::size_t last = timeline.size() - 1;
  const std::size_t shown = timeline.cursor().value_or(last);
  char status[96];
  if (timeline.cursor())
    std::snprintf(status, sizeof status, "%.2f s back", timeline.back().world.time - timeline.at(shown).world.time);
  else
    std::snprintf(status, sizeof status, "now");
  const float status_w = ImGui::CalcTextSize("00.00 s back").x;
  ImGui::SetNextItemWidth(std::max(ImGui::GetContentRegionAvail().x - status_w - ImGui::GetStyle().ItemSpacing.x, 60.0f));
  int index = static_cast<int>(shown);
  char label[48];
  std::snprintf(label, sizeof label, "t = %.2f s", timeline.at(shown).world.time);
  if (ImGui::SliderInt("##time", &index, 0, static_cast<int>(last), label, ImGuiSliderFlags_AlwaysClamp) &&
      static_cast<std::size_t>(index) != shown) {
    Command command;
    command.kind = Command::Kind::Scrub;
    command.index = index;
    state.commands.push_back(command);
  }
  remember_rect(state, "timeline slider");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("The last %.0f s of simulated time (%zu steps kept): drag to go back, Play to resume from there",
                      timeline.max_seconds, timeline.size());
  ImGui::SameLine();
  if (timeline.cursor()) ImGui::TextColored(ImVec4(0.95f, 0.7f, 0.3f, 1.0f), "%s", status);
  else ImGui::TextDisabled("%s", status);
  ImGui::End();
}

}  // namespace lagrange::app
