// The Measure strip under the scene (key M): period timer, stopwatch, protractor, phase-space plot and energy bars,
// and the protractor's gizmo drawn in the scene. The logic is in measure_tools.h; docs/app.md, "Measuring".
#pragma once

#include <span>

#include "state/sandbox_state.h"
#include "window/renderer.h"

namespace lagrange::app {

// Height of the strip in window units when it is shown (0 when hidden or the panels are hidden).
float measure_strip_height(const SandboxState& state);
// The strip itself, between the side panels at the bottom of the window.
void draw_measure_panel(SandboxState& state);
// The protractor (a dashed line along gravity from the rod's upper end, an arc to the rod, a line along the rod)
// and a ring around the timed particle, on top of the scene. radii: the drawn particle radii.
void add_measure_gizmos(const SandboxState& state, std::span<const double> radii, DrawList& list);

}  // namespace lagrange::app
