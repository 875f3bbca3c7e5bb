// The UI's draw data in two layers: everything but ImGui's foreground list, and that list (the recording
// indicator), so a screenshot or a video frame can be taken between them. Shared by the desktop and the web build,
// like the recorder that takes its frames between them (capture/window_recorder.h, sandbox/recording.cpp).
#pragma once

#include <vector>

#include <imgui.h>

namespace lagrange::app {

class UiLayers {
 public:
  explicit UiLayers(ImDrawData* data);
  ImDrawData* under() { return &layers_[0]; }
  ImDrawData* over() { return &layers_[1]; }

 private:
  std::vector<ImDrawList*> lists_[2];
  ImDrawData layers_[2];
};

}  // namespace lagrange::app
