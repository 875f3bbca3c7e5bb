// The timeline under the scene (time travel, issue 11): a step back, play/pause, and a slider over the snapshots
// of the last seconds. Dragging the slider shows the scene as it was then; Play (or a step, or a drag) resumes from
// the moment shown, and the later history is dropped.
#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "capture/recording_format.h"
#include "ui/ui.h"
#include "window/theme.h"

namespace lagrange::app {
namespace {

constexpr float kPadding = 3.0f;  // above and below the bar's widgets, window units at scale 1: a thin bar

// Record / Stop (F9): the window as a video (the platform's format: recording_format.h) at simulated time
// (window_recorder.h).
void record_button(SandboxState& state) {
  const RecordingStatus& recording = state.recording;
  if (recording.active) {
    ImGui::PushStyleColor(ImGuiCol_Button, ImVec4(0.75f, 0.12f, 0.12f, 1.0f));
    ImGui::PushStyleColor(ImGuiCol_ButtonHovered, ImVec4(0.88f, 0.2f, 0.2f, 1.0f));
  }
  if (ImGui::Button(recording.active ? "Stop##record" : "Record##record"))
    state.push(Command::Kind::ToggleRecording);
  if (recording.active) ImGui::PopStyleColor(2);
  remember_rect(state, "record button");
  if (ImGui::IsItemHovered()) {
    if (recording.active)
      tooltip("Stop and save the video (F9): %ld frames so far, to %s", recording.frames,
                        recording.file.string().c_str());
    else
      tooltip("Record the window as a video (%s, F9): a frame every 1/%d s of simulated time while it "
                        "runs, at the window's size; none while paused. Stop %s%s (at most %s).",
                        window_recording_format().label, WindowRecorder::kFps,
                        state.downloads ? "downloads it" : "saves it into the screenshot folder, ",
                        state.downloads ? "" : state.screenshot_dir.string().c_str(),
                        duration_text(window_recording_format().max_seconds).c_str());
  }
}

}  // namespace

float timeline_height(const SandboxState& state) {
  if (state.view.presentation || !state.view.panels || state.editor.active || state.timeline.size() == 0) return 0.0f;
  const float scale = static_cast<float>(state.ui_scale);
  const ImGuiStyle& style = ImGui::GetStyle();  // scaled with the UI (ScaleAllSizes)
  return kBaseFontSize * scale + 2.0f * style.FramePadding.y + 2.0f * kPadding * scale;
}

void draw_timeline(SandboxState& state) {
  const Timeline& timeline = state.timeline;
  const float height = timeline_height(state);
  if (height == 0.0f) return;
  // Docked under the scene, between the side panels: it never covers the scene.
  const auto rect = scene_viewport(state);  // drawable pixels
  const float ratio = static_cast<float>(std::max(state.pixel_ratio, 1e-6));
  ImGui::SetNextWindowPos(ImVec2(rect[0] / ratio, (rect[1] + rect[3]) / ratio));
  ImGui::SetNextWindowSize(ImVec2(rect[2] / ratio, height));
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoSavedSettings |
                                 ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav |
                                 ImGuiWindowFlags_NoMove;
  const float scale = static_cast<float>(state.ui_scale);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(4.0f * kPadding * scale, kPadding * scale));
  // Thinner than ImGui's smallest window (32 units × the scale): else it would be 3 units (× the scale) taller than
  // the room the layout gave it, its bottom off the screen when nothing is under it.
  ImGui::PushStyleVar(ImGuiStyleVar_WindowMinSize, ImVec2(1.0f, 1.0f));
  const bool open = ImGui::Begin("##timeline", nullptr, flags);
  ImGui::PopStyleVar(2);
  if (!open) {
    ImGui::End();
    return;
  }
  if (ImGui::ArrowButton("##back", ImGuiDir_Left)) state.push(Command::Kind::StepBack);
  remember_rect(state, "timeline back");
  if (ImGui::IsItemHovered()) tooltip("One step back in time (Left)");
  ImGui::SameLine();
  if (ImGui::Button(state.paused ? "Play" : "Pause")) state.push(Command::Kind::TogglePause);
  remember_rect(state, "timeline play");
  if (ImGui::IsItemHovered())
    tooltip(timeline.cursor() ? "Resume from the moment shown: what came after it is dropped (Space)"
                                        : "Space");
  ImGui::SameLine();
  record_button(state);
  ImGui::SameLine();
  const std::size_t last = timeline.size() - 1;
  const std::size_t shown = timeline.cursor().value_or(last);
  char status[96];
  if (timeline.cursor())
    std::snprintf(status, sizeof status, "%.2f s back", timeline.back().time() - timeline.at(shown).time());
  else
    std::snprintf(status, sizeof status, "now");
  // The status beside the slider where both fit; else the slider alone (at 3x its 60-unit least width beside the
  // status ran past the bar's edge).
  const float status_w = ImGui::CalcTextSize("00.00 s back").x;
  const float avail = ImGui::GetContentRegionAvail().x;
  const bool beside = avail - status_w - ImGui::GetStyle().ItemSpacing.x >= 60.0f;
  const float slider_w = beside ? avail - status_w - ImGui::GetStyle().ItemSpacing.x : std::max(avail, 1.0f);
  ImGui::SetNextItemWidth(slider_w);
  int index = static_cast<int>(shown);
  // The time shown on the slider, with as many decimals as its width takes ("t = 12.34 s", "12.3 s", "12 s"):
  // fewer digits, never a number cut.
  const double t = timeline.at(shown).time();
  char label[48] = "";
  // Centred, clear of the grab at either end.
  const float inside = slider_w - 2.0f * ImGui::GetStyle().FramePadding.x - 2.0f * ImGui::GetStyle().GrabMinSize;
  for (const char* format : {"t = %.2f s", "%.2f s", "%.1f s", "%.0f s", "%.0f"}) {
    std::snprintf(label, sizeof label, format, t);
    if (ImGui::CalcTextSize(label).x <= inside) break;
  }
  if (ImGui::SliderInt("##time", &index, 0, static_cast<int>(last), label, ImGuiSliderFlags_AlwaysClamp) &&
      static_cast<std::size_t>(index) != shown) {
    Command command;
    command.kind = Command::Kind::Scrub;
    command.index = index;
    state.commands.push_back(command);
  }
  remember_rect(state, "timeline slider");
  if (ImGui::IsItemHovered())
    tooltip("The last %.0f s of simulated time (%zu steps kept): drag to go back, Play to resume from there",
                      timeline.max_seconds, timeline.size());
  if (beside) {
    ImGui::SameLine();
    if (timeline.cursor()) ImGui::TextColored(ImVec4(0.95f, 0.7f, 0.3f, 1.0f), "%s", status);
    else ImGui::TextDisabled("%s", status);
  }
  ImGui::End();
}

}  // namespace lagrange::app
