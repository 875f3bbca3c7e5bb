// The step view (docs/app.md, "The step view"): one substep of lane 1 frozen (lagrange/step_trace.h) and drawn over
// the scene: the start q solid (the scene itself), the prediction q* as a ghost, the iterates of the solve up to the
// current one as fading ghosts, each particle's correction as an arrow; for the acceleration level the forces Jᵀλ and
// gravity's split along and across each rod; for RATTLE's velocity stage the velocities before and after. One
// substep moves particles very little, so every displacement from q is drawn magnified (× chosen, said on screen).
#pragma once

#include <array>
#include <span>
#include <string>
#include <string_view>

#include <glm/vec4.hpp>

#include "state/sandbox_state.h"
#include "window/renderer.h"

namespace lagrange::app {

// Traces lane 1's next substep (with `solver`, empty: lane 1's own), pauses and shows it at its last iterate. Returns
// "" or why it could not (an unknown solver: lagrange::Error's message).
std::string open_step_view(SandboxState& state, std::string_view solver = {});
void close_step_view(SandboxState& state);  // and unfolds the side panels the view folded (Sandbox::toggle_step_view)
// Whether lane 1 is still where the trace started (a step, a reset, a drag or a pose ends the view).
bool step_view_current(const SandboxState& state);
// Moves the shown iterate by `delta` (clamped to the trace), or to the first (`delta` = INT_MIN) or the last.
void step_view_move(SandboxState& state, int delta);

// The factors chosen from the trace: the largest motion q → q* drawn as 0.4 of a typical rod, and the largest
// correction q* → iterate as 0.3 of one (never less than the motion's factor); 1-2-5 numbers, at least 1.
void auto_magnification(const SandboxState& state, double& motion, double& correction);
// Where the prediction is drawn: q + N (q* − q); where an iterate x is drawn: q + N (q* − q) + M (x − q*).
Vec3 magnified_prediction(const StepViewState& view, std::size_t i);
Vec3 magnified(const StepViewState& view, std::size_t i, Vec3 x);
// The box of everything the step view draws (q and the magnified ghosts and arrows).
void step_view_bounds(const SandboxState& state, glm::dvec3& lo, glm::dvec3& hi);
// Frames lane 1's camera on that box in `free` (drawable pixels: x, y, width, height), the part of the view the step
// view's panel and the top line leave (the caller's framing_rect, ui.h).
void frame_step_view(SandboxState& state, const std::array<int, 4>& free);
// The panel's width in window units for a scene `view_width` units wide: a compact column, so that a class sees
// the scene: 26 % of the view, at least 180 units × the UI scale (its text wraps), at most half the view.
float step_view_panel_width(const SandboxState& state, float view_width);

// RATTLE's velocity stage: the velocity arrows' scale (the fastest spans half a typical rod) and the velocity
// change's (the largest change spans 0.3 of one, never less than the velocities' scale), in metres per m/s.
void velocity_scales(const SandboxState& state, double& velocity, double& change);

// The colours: the prediction, the iterates by kind, the correction arrows, the forces.
glm::vec4 prediction_colour(Theme theme);
glm::vec4 iterate_colour(IterateKind kind, Theme theme);
glm::vec4 correction_colour(Theme theme);
glm::vec4 along_colour(Theme theme);
glm::vec4 across_colour(Theme theme);

// The ghosts' beads, as a fraction of their particle's drawn radius: q* and the current iterate, the iterates before.
inline constexpr float kGhostSize = 0.4f;
inline constexpr float kOlderGhostSize = 0.3f;

// Adds the step view's ghosts and arrows to lane 1's draw list.
void add_step_view(const SandboxState& state, std::span<const double> radii, DrawList& list);

}  // namespace lagrange::app
