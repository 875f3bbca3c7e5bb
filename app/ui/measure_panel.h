// The Measure strip under the scene (key M): period timer, stopwatch, protractor, phase-space plot and energy bars,
// and the protractor's gizmo drawn in the scene. The logic is in measure_tools.h; docs/app.md, "Measuring".
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "state/sandbox_state.h"
#include "window/renderer.h"

namespace lagrange::app {

// Height of the strip in window units when it is shown between side panels `width` units apart (0 when hidden or the
// panels are hidden): tall enough for every line of the Timer tool as it is laid out at that width (its tallest tool
// of fixed content; measure_lines_height), at least a third of the window (255 to 340 units × the UI scale, at most
// 30 % of it), and never taller than the scene above it, which stays the largest thing on the screen (a tool that
// does not fit then scrolls). With lanes side by side it keeps that base height: their views need the scene's.
float measure_strip_height(const SandboxState& state, float width);
// The height the strip's lines need at that width, in window units: its padding, the row of tool buttons when the
// tools are shown one at a time, and the Timer's lines (the period, the exact values, the stopwatch; side by side in
// groups when the strip is wide), with room for a hint wrapped on two lines.
float measure_lines_height(const SandboxState& state, float width);
// The strip itself, between the side panels at the bottom of the window.
void draw_measure_panel(SandboxState& state);
// The protractor (a dashed line along gravity from the rod's upper end, an arc to the rod, a line along the rod)
// and a ring around the timed particle, on top of the scene. radii: the drawn particle radii.
void add_measure_gizmos(const SandboxState& state, std::span<const double> radii, DrawList& list);

// The Scale tool of the strip (measure_scale.cpp): the force on an obstacle against time beside a reference.
void measure_scale_tool(SandboxState& state);

// --- the table of periods (measure_table.cpp) ----------------------------------------------------------------------
// The Table tool of the strip: the class's table of periods against amplitude, Time every bob, Add, Copy, Export CSV.
void measure_table_tool(SandboxState& state);
// Every particle's drawn colour and its name in the strip (bob_names over the particles that are not fixed: "red
// bob", "blue bob 3"), by particle number.
struct ParticleNames {
  std::vector<std::optional<glm::vec3>> colours;
  std::vector<std::string> names;
};
ParticleNames particle_names(const SandboxState& state);
// The timer's choice of `particle`: its name and, for a simple-pendulum bob, its amplitude measured from the swing
// (or, before its first turn, its angle from its pivot now): "red bob, 150°".
std::string timer_choice(const SandboxState& state, const ParticleNames& names, int particle);
// A disc of the particle's drawn colour, one text line high, as an item at the cursor (nothing without a colour).
void colour_swatch(const std::optional<glm::vec3>& colour);
// A Selectable showing a swatch and `label`, its ImGui id `id` ("##..."); true when clicked.
bool swatch_selectable(const char* id, const std::optional<glm::vec3>& colour, const std::string& label, bool selected);

}  // namespace lagrange::app
