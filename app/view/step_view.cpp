#include "view/step_view.h"

#include <algorithm>
#include <climits>
#include <cmath>

#include "lagrange/constraint_kinds.h"
#include "lagrange/model.h"
#include "view/scene_draw.h"

namespace lagrange::app {
namespace {

constexpr int kGhosts = 8;  // iterates drawn before the current one, fading

glm::vec3 to_f(const Vec3& v) { return glm::vec3(v); }

void add_segment(std::vector<SegmentInstance>& out, Vec3 a, Vec3 b, float width, glm::vec4 colour) {
  out.push_back({to_f(a), width, to_f(b), 0.0f, colour});
}


double nice_below(double x) {  // the largest 1-2-5 number ≤ x
  const double decade = std::pow(10.0, std::floor(std::log10(x)));
  for (double m : {5.0, 2.0, 1.0})
    if (m * decade <= x) return m * decade;
  return decade;
}

// The rods of the model (the mouse's pin left out), as particle pairs and row indices.
template <class F>
void for_each_rod(const Model& model, F&& f) {
  const auto rows = model.rows();
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const Row& row = rows[k];
    if (row.constraint->tool() || row.count != 2 || row.constraint->kind().role != KindRole::Rod) continue;
    f(static_cast<int>(k), row.particle[0], row.particle[1]);
  }
}

double weight_scale(const SandboxState& state, const Model& model) {
  const double g = glm::length(state.world().settings().gravity);
  double weight = 0.0;
  int moving = 0;
  for (std::size_t i = 0; i < model.particle_count(); ++i)
    if (!model.fixed(i)) {
      weight += model.mass(i) * g;
      ++moving;
    }
  weight = moving ? weight / moving : 0.0;
  return 0.6 * state.length_scale / std::max(weight, 1e-9);
}

}  // namespace

std::string open_step_view(SandboxState& state, std::string_view solver) {
  StepViewState& view = state.step_view;
  try {
    view.trace = trace_substep(state.world(), solver);
  } catch (const std::exception& error) {
    return error.what();
  }
  if (!view.active) {
    view.legend_was_shown = state.view.legend;
    view.trails_were_shown = state.view.trails;
  }
  view.active = true;
  view.iterate = static_cast<int>(view.trace.iterates.size()) - 1;
  double motion = 1.0, correction = 1.0;
  auto_magnification(state, motion, correction);
  view.chosen = view.magnification > 0.0 ? view.magnification : motion;
  view.correction_chosen = view.correction_magnification > 0.0 ? view.correction_magnification
                           : view.magnification > 0.0             ? std::max(view.magnification, correction)
                                                                  : correction;
  state.view.legend = false;
  state.view.trails = false;
  state.paused = true;
  return {};
}

void close_step_view(SandboxState& state) {
  if (!state.step_view.active) return;
  state.step_view.active = false;
  state.view.legend = state.step_view.legend_was_shown;
  state.view.trails = state.step_view.trails_were_shown;
  if (state.step_view.folded_panels) {  // the side panels the view folded come back
    state.view.left_open = state.step_view.left_was_open;
    state.view.right_open = state.step_view.right_was_open;
    state.step_view.folded_panels = false;
  }
  state.step_view.trace = StepTrace{};
}

bool step_view_current(const SandboxState& state) {
  return state.step_view.active && state.world().state().position == state.step_view.trace.start;
}

void step_view_move(SandboxState& state, int delta) {
  StepViewState& view = state.step_view;
  const int last = static_cast<int>(view.trace.iterates.size()) - 1;
  if (delta == INT_MIN) view.iterate = 0;
  else if (delta == INT_MAX) view.iterate = last;
  else view.iterate = std::clamp(view.iterate + delta, 0, std::max(last, 0));
}

void auto_magnification(const SandboxState& state, double& motion, double& correction) {
  const StepTrace& trace = state.step_view.trace;
  double moved = 0.0, corrected = 0.0;
  for (std::size_t i = 0; i < trace.prediction.size() && i < trace.start.size(); ++i)
    moved = std::max(moved, glm::length(trace.prediction[i] - trace.start[i]));
  for (const TraceIterate& it : trace.iterates)
    for (std::size_t i = 0; i < it.position.size() && i < trace.prediction.size(); ++i)
      corrected = std::max(corrected, glm::length(it.position[i] - trace.prediction[i]));
  motion = moved > 0.0 ? std::max(1.0, nice_below(0.4 * state.length_scale / moved)) : 1.0;
  correction = corrected > 0.0 ? std::max(motion, nice_below(0.3 * state.length_scale / corrected)) : motion;
}

Vec3 magnified_prediction(const StepViewState& view, std::size_t i) {
  const Vec3 q = view.trace.start[i];
  return q + view.chosen * (view.trace.prediction[i] - q);
}

Vec3 magnified(const StepViewState& view, std::size_t i, Vec3 x) {
  return magnified_prediction(view, i) + view.correction_chosen * (x - view.trace.prediction[i]);
}

void step_view_bounds(const SandboxState& state, glm::dvec3& lo, glm::dvec3& hi) {
  const StepViewState& view = state.step_view;
  const StepTrace& trace = view.trace;
  lo = glm::dvec3(1e300);
  hi = glm::dvec3(-1e300);
  const auto widen = [&](Vec3 p) {
    lo = glm::min(lo, p);
    hi = glm::max(hi, p);
  };
  for (std::size_t i = 0; i < trace.start.size(); ++i) {
    widen(trace.start[i]);
    if (i < trace.prediction.size()) widen(magnified_prediction(view, i));
    for (const TraceIterate& it : trace.iterates)
      if (i < it.position.size()) widen(magnified(view, i, it.position[i]));
  }
  const double pad = 0.15 * state.length_scale;
  lo -= glm::dvec3(pad);
  hi += glm::dvec3(pad);
  if (state.world().dimension() == 2) lo.z = hi.z = 0.0;
}

void frame_step_view(SandboxState& state, const std::array<int, 4>& free) {
  if (!state.step_view.active) return;
  glm::dvec3 lo, hi;
  step_view_bounds(state, lo, hi);
  state.camera.frame_into(lo, hi, free[0], free[1], std::max(free[2], 1), std::max(free[3], 1));
}

void velocity_scales(const SandboxState& state, double& velocity, double& change) {
  const StepTrace& trace = state.step_view.trace;
  const TraceIterate *before = nullptr, *after = nullptr;
  for (const TraceIterate& it : trace.iterates) {
    if (it.kind == IterateKind::HalfKick) before = &it;
    if (it.kind == IterateKind::VelocityCorrection) after = &it;
  }
  double fastest = 0.0, largest = 0.0;
  for (const TraceIterate* it : {before, after})
    if (it)
      for (const Vec3& v : it->velocity) fastest = std::max(fastest, glm::length(v));
  if (before && after)
    for (std::size_t i = 0; i < before->velocity.size() && i < after->velocity.size(); ++i)
      largest = std::max(largest, glm::length(after->velocity[i] - before->velocity[i]));
  velocity = fastest > 0.0 ? 0.5 * state.length_scale / fastest : 0.0;
  change = largest > 0.0 ? std::max(velocity, 0.3 * state.length_scale / largest) : velocity;
}

float step_view_panel_width(const SandboxState& state, float view_width) {
  const float wanted = std::max(0.26f * view_width, 180.0f * static_cast<float>(state.ui_scale));
  return std::min(wanted, 0.5f * view_width);
}

glm::vec4 prediction_colour(Theme theme) {
  return theme == Theme::Dark ? glm::vec4(0.95f, 0.62f, 0.20f, 0.55f) : glm::vec4(0.85f, 0.45f, 0.05f, 0.55f);
}

glm::vec4 iterate_colour(IterateKind kind, Theme theme) {
  const bool dark = theme == Theme::Dark;
  switch (kind) {
    case IterateKind::FirstGuess: return dark ? glm::vec4(0.70f, 0.55f, 0.95f, 1.0f) : glm::vec4(0.45f, 0.25f, 0.75f, 1.0f);
    case IterateKind::Chord: return dark ? glm::vec4(0.35f, 0.75f, 1.0f, 1.0f) : glm::vec4(0.10f, 0.40f, 0.80f, 1.0f);
    case IterateKind::Newton: return dark ? glm::vec4(0.40f, 0.90f, 0.50f, 1.0f) : glm::vec4(0.10f, 0.55f, 0.20f, 1.0f);
    case IterateKind::Relinearized: return dark ? glm::vec4(0.95f, 0.45f, 0.75f, 1.0f) : glm::vec4(0.75f, 0.15f, 0.50f, 1.0f);
    case IterateKind::RowCorrection: return dark ? glm::vec4(0.35f, 0.85f, 0.90f, 1.0f) : glm::vec4(0.05f, 0.50f, 0.55f, 1.0f);
    case IterateKind::HalfKick: return dark ? glm::vec4(0.95f, 0.60f, 0.30f, 1.0f) : glm::vec4(0.80f, 0.40f, 0.10f, 1.0f);
    case IterateKind::VelocityCorrection: return dark ? glm::vec4(0.40f, 0.90f, 0.50f, 1.0f) : glm::vec4(0.10f, 0.55f, 0.20f, 1.0f);
    case IterateKind::Explicit: return dark ? glm::vec4(0.35f, 0.75f, 1.0f, 1.0f) : glm::vec4(0.10f, 0.40f, 0.80f, 1.0f);
  }
  return glm::vec4(1.0f);
}

glm::vec4 correction_colour(Theme theme) {
  return theme == Theme::Dark ? glm::vec4(1.0f, 0.90f, 0.30f, 1.0f) : glm::vec4(0.75f, 0.55f, 0.0f, 1.0f);
}
glm::vec4 along_colour(Theme theme) {
  return theme == Theme::Dark ? glm::vec4(0.95f, 0.45f, 0.45f, 1.0f) : glm::vec4(0.80f, 0.15f, 0.15f, 1.0f);
}
glm::vec4 across_colour(Theme theme) {
  return theme == Theme::Dark ? glm::vec4(0.55f, 0.95f, 0.55f, 1.0f) : glm::vec4(0.10f, 0.55f, 0.15f, 1.0f);
}

void add_step_view(const SandboxState& state, std::span<const double> radii, DrawList& list) {
  const StepViewState& view = state.step_view;
  const StepTrace& trace = view.trace;
  if (!view.active || trace.iterates.empty()) return;
  const Model& model = state.world().model();
  const std::size_t n = std::min({trace.start.size(), model.particle_count(), radii.size()});
  const Theme theme = state.appearance.theme;
  const float line = static_cast<float>(state.ui_scale * state.pixel_ratio);
  const glm::dvec3 view_dir = state.camera.forward();
  const int current = std::clamp(view.iterate, 0, static_cast<int>(trace.iterates.size()) - 1);

  // A ghost of positions x: translucent beads and rods at the magnified positions.
  const auto ghost = [&](const std::vector<Vec3>& x, glm::vec4 colour, float alpha, float rod_width, float size,
                         bool prediction = false) {
    const auto at = [&](int i) { return prediction ? magnified_prediction(view, i) : magnified(view, i, x[i]); };
    for_each_rod(model, [&](int, int a, int b) {
      add_segment(list.segments, at(a), at(b), rod_width * line, glm::vec4(glm::vec3(colour), alpha * 0.8f));
    });
    for (std::size_t i = 0; i < n; ++i)
      if (!model.fixed(i))
        list.spheres.push_back({to_f(at(static_cast<int>(i))), static_cast<float>(radii[i] * size),
                                glm::vec4(glm::vec3(colour), alpha), glm::vec4(0.0f)});
  };

  // The predicted motion q → q* (thin), and q* as an orange ghost.
  for (std::size_t i = 0; i < n; ++i)
    if (!model.fixed(i))
      add_arrow(list.over, trace.start[i], magnified_prediction(view, i) - trace.start[i], view_dir,
                glm::vec4(glm::vec3(prediction_colour(theme)), 0.9f), 1.5f * line);
  ghost(trace.prediction, prediction_colour(theme), 0.85f, 2.0f, kGhostSize, true);

  // The iterates before the current one, fading; velocity stages are drawn at their positions once.
  const int first = std::max(0, current - kGhosts);
  for (int j = first; j < current; ++j) {
    const TraceIterate& it = trace.iterates[static_cast<std::size_t>(j)];
    if (is_velocity_stage(it.kind)) continue;
    const float fade = 0.15f + 0.35f * static_cast<float>(j - first + 1) / static_cast<float>(current - first + 1);
    ghost(it.position, iterate_colour(it.kind, theme), it.accepted ? fade : 0.5f * fade, 1.5f, kOlderGhostSize);
  }
  const TraceIterate& now = trace.iterates[static_cast<std::size_t>(current)];
  ghost(now.position, iterate_colour(now.kind, theme), 0.9f, 2.5f, kGhostSize);

  // The row SHAKE just made exact, outlined.
  if (now.kind == IterateKind::RowCorrection && now.row >= 0 && static_cast<std::size_t>(now.row) < model.rows().size()) {
    const Row& row = model.rows()[static_cast<std::size_t>(now.row)];
    if (row.count == 2)
      add_segment(list.over, magnified(view, row.particle[0], now.position[row.particle[0]]),
                  magnified(view, row.particle[1], now.position[row.particle[1]]), 6.0f * line,
                  glm::vec4(glm::vec3(correction_colour(theme)), 0.55f));
  }

  const bool velocity = is_velocity_stage(now.kind);
  if (!velocity) {
    // Each particle's correction so far: from q* to this iterate, magnified (at the last iterate M⁻¹∇Cᵀλ; for the
    // acceleration level h² M⁻¹Jᵀλ, what the rod forces moved it by in the step).
    for (std::size_t i = 0; i < n; ++i)
      if (!model.fixed(i))
        add_arrow(list.over, magnified_prediction(view, i),
                  view.correction_chosen * (now.position[i] - trace.prediction[i]), view_dir,
                  correction_colour(theme), 2.5f * line);
  }
  if (velocity) {  // RATTLE: the velocities before and after the correction at q', and the change between them
    double scale = 0.0, change_scale = 0.0;
    velocity_scales(state, scale, change_scale);
    const TraceIterate* before = nullptr;
    for (const TraceIterate& it : trace.iterates)
      if (it.kind == IterateKind::HalfKick) before = &it;
    for (const TraceIterate& it : trace.iterates) {
      if (!is_velocity_stage(it.kind) || (&it != &now && it.kind != IterateKind::HalfKick)) continue;
      for (std::size_t i = 0; i < n; ++i)
        if (!model.fixed(i))
          add_arrow(list.over, magnified(view, i, it.position[i]), scale * it.velocity[i], view_dir,
                    iterate_colour(it.kind, theme), (&it == &now ? 3.0f : 2.0f) * line);
    }
    if (before && now.kind == IterateKind::VelocityCorrection)
      for (std::size_t i = 0; i < n; ++i)
        if (!model.fixed(i))
          add_arrow(list.over, magnified(view, i, now.position[i]), change_scale * (now.velocity[i] - before->velocity[i]),
                    view_dir, correction_colour(theme), 2.5f * line);
  }
  if (trace.solver == "acceleration" || trace.solver == "penalty") {
    // The forces at q: the rods' Jᵀλ, and gravity split along and across each particle's first rod (the one toward
    // the pivot in a chain), on one scale: the largest force spans 0.6 of a typical rod.
    double largest = 0.0;
    for (std::size_t i = 0; i < n; ++i)
      if (!model.fixed(i))
        largest = std::max({largest, glm::length(trace.constraint_force[i]), glm::length(trace.applied_force[i])});
    const double scale = largest > 0.0 ? 0.6 * state.length_scale / largest : weight_scale(state, model);
    const Palette& colours = palette(theme);
    std::vector<char> split_drawn(n, 0);
    for (std::size_t i = 0; i < n; ++i)
      if (!model.fixed(i))
        add_arrow(list.over, trace.start[i], scale * trace.constraint_force[i], view_dir, colours.constraint_force,
                  3.0f * line);
    for (const GravitySplit& split : trace.gravity_split) {
      if (static_cast<std::size_t>(split.particle) >= n || split_drawn[static_cast<std::size_t>(split.particle)]) continue;
      split_drawn[static_cast<std::size_t>(split.particle)] = 1;
      const Vec3 at = trace.start[static_cast<std::size_t>(split.particle)];
      add_arrow(list.over, at, scale * split.along, view_dir, along_colour(theme), 2.0f * line);
      add_arrow(list.over, at, scale * split.across, view_dir, across_colour(theme), 2.0f * line);
    }
  }
}

}  // namespace lagrange::app
