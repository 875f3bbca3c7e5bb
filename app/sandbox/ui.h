// The panels and overlays, drawn with Dear ImGui from SandboxState. They never touch the world directly: they push
// Commands (applied between steps) or edit view options.
#pragma once

#include <span>

#include "sandbox/sandbox_state.h"

namespace lagrange::app {

struct Shortcut {
  const char* keys;
  const char* action;
};
// Every keyboard and mouse shortcut, for the help overlay and docs/app.md.
std::span<const Shortcut> shortcuts();

// The whole UI for one frame: HUD, control panel, diagnostics, legend, hover tooltip, help.
void draw_ui(SandboxState& state);

void draw_control_panel(SandboxState& state);  // ui_panels.cpp
void draw_diagnostics(SandboxState& state);    // ui_diagnostics.cpp
void draw_hud(SandboxState& state);            // ui_overlays.cpp
void draw_legend(SandboxState& state);
void draw_hover(SandboxState& state);
void draw_help(SandboxState& state);

// Lists assets/*.json into state.scene_files.
void refresh_scene_files(SandboxState& state);

// Width of the side panels in pixels.
float panel_width(const SandboxState& state);

}  // namespace lagrange::app
