// The step view's panel (docs/app.md, "The step view"): on the right of the scene while the view is open, the
// substep's legend, the current iterate (kind, row, sweep, max |C|), the residual of every iterate on a log scale
// (the convergence order shows as the slope: a straight line for chord and SHAKE, a steepening one for Newton), the
// multipliers or forces, and the keys.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <imgui.h>

#include "lagrange/solver.h"
#include "ui/ui.h"
#include "view/step_view.h"

namespace lagrange::app {
namespace {

ImU32 to_u32(glm::vec4 c) { return ImGui::GetColorU32(ImVec4(c.r, c.g, c.b, c.a)); }

void swatch(glm::vec4 colour, const char* text) {
  const float size = ImGui::GetTextLineHeight() * 0.8f;
  const ImVec2 p = ImGui::GetCursorScreenPos();
  ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(p.x, p.y + 0.1f * size), ImVec2(p.x + size, p.y + 1.1f * size),
                                            to_u32(glm::vec4(glm::vec3(colour), 1.0f)), 2.0f);
  ImGui::Dummy(ImVec2(size, size));
  ImGui::SameLine();
  ImGui::TextWrapped("%s", text);
}

std::string iterate_text(const StepTrace& trace, int k) {
  const TraceIterate& it = trace.iterates[static_cast<std::size_t>(k)];
  std::string text = iterate_kind_name(it.kind);
  if (it.kind == IterateKind::RowCorrection)
    text += " (row " + std::to_string(it.row) + ", sweep " + std::to_string(it.sweep) + ")";
  if (!it.accepted) text += ", undone";
  return text;
}

// max |C| of every iterate on a log scale, 1e-16 at the bottom; the tolerance dashed; the current iterate ringed.
void residual_plot(const SandboxState& state, float width, float height) {
  const StepTrace& trace = state.step_view.trace;
  const Theme theme = state.appearance.theme;
  const Palette& colours = palette(theme);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float label_w = ImGui::CalcTextSize("1e-16").x + 6.0f;
  const ImVec2 a(origin.x + label_w, origin.y + 4.0f), b(origin.x + width - 6.0f, origin.y + height - 4.0f);
  draw->AddRectFilled(a, b, colours.plot.curves_bg);
  draw->AddRect(a, b, colours.plot.frame_border);
  // The decades shown: from the smallest (at least 1e-16) to the largest residual, whole decades.
  double hi = -16.0, lo = 0.0;
  for (const TraceIterate& it : trace.iterates) {
    const double v = std::log10(std::max(it.max_violation, 1e-16));
    hi = std::max(hi, v);
    lo = std::min(lo, v);
  }
  hi = std::ceil(hi + 0.01);
  lo = std::floor(std::max(lo, -16.0));
  if (hi - lo < 2.0) lo = hi - 2.0;
  const int count = static_cast<int>(trace.iterates.size());
  const auto at = [&](int k, double value) {
    const float fx = count > 1 ? static_cast<float>(k) / static_cast<float>(count - 1) : 0.5f;
    const double v = std::log10(std::max(value, 1e-16));
    const float fy = static_cast<float>((v - lo) / (hi - lo));
    return ImVec2(a.x + 8.0f + fx * (b.x - a.x - 16.0f), b.y - 4.0f - fy * (b.y - a.y - 8.0f));
  };
  const int step = hi - lo > 8.0 ? 4 : (hi - lo > 4.0 ? 2 : 1);
  for (int d = static_cast<int>(lo); d <= static_cast<int>(hi); d += step) {
    const float y = at(0, std::pow(10.0, d)).y;
    draw->AddLine(ImVec2(a.x, y), ImVec2(b.x, y), colours.plot.guide);
    char label[16];
    std::snprintf(label, sizeof label, "1e%d", d);
    draw->AddText(ImVec2(origin.x, y - ImGui::GetTextLineHeight() * 0.5f), colours.plot.label, label);
  }
  // The tolerance (relative, on a length scale of the typical rod): where the solver stops.
  const double tolerance = state.world().settings().tolerance * state.length_scale;
  if (std::log10(tolerance) > lo && std::log10(tolerance) < hi) {
    const float y = at(0, tolerance).y;
    for (float x = a.x; x < b.x; x += 8.0f)
      draw->AddLine(ImVec2(x, y), ImVec2(std::min(x + 4.0f, b.x), y), colours.plot.peak);
  }
  const bool velocity_stages = std::any_of(trace.iterates.begin(), trace.iterates.end(),
                                           [](const TraceIterate& it) { return is_velocity_stage(it.kind); });
  // Many iterates (SHAKE's one-row steps on a chain): small dots, and a line through the end of each sweep only.
  const bool dense = count > 60;
  std::vector<ImVec2> sweeps;
  for (int k = 0; k < count; ++k) {
    const TraceIterate& it = trace.iterates[static_cast<std::size_t>(k)];
    const ImVec2 p = at(k, it.max_violation);
    const bool ends_sweep = it.kind == IterateKind::RowCorrection &&
                            (k + 1 == count || trace.iterates[static_cast<std::size_t>(k + 1)].sweep != it.sweep);
    if (dense) {
      if (ends_sweep) sweeps.push_back(p);
    } else if (k > 0 && !is_velocity_stage(it.kind)) {
      const TraceIterate& prev = trace.iterates[static_cast<std::size_t>(k - 1)];
      if (!is_velocity_stage(prev.kind)) draw->AddLine(at(k - 1, prev.max_violation), p, colours.plot.label, 1.0f);
    }
    const ImU32 colour = to_u32(iterate_colour(it.kind, theme));
    const float r = dense ? 1.2f : 3.5f;
    if (it.accepted) draw->AddCircleFilled(p, r * state.ui_scale, colour);
    else draw->AddCircle(p, r * state.ui_scale, colour, 0, 1.5f);
    if (k == state.step_view.iterate) draw->AddCircle(p, 7.5f * state.ui_scale, colours.plot.cursor, 0, 2.0f);
  }
  if (sweeps.size() > 1) draw->AddPolyline(sweeps.data(), static_cast<int>(sweeps.size()), colours.plot.total, 0, 2.5f);
  ImGui::Dummy(ImVec2(width, height));
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextWrapped("max |C| (m) per iterate%s, log scale; dashed: the tolerance; hollow: undone%s",
                     velocity_stages ? " (velocity stages: max |J v|, m/s)" : "",
                     dense ? "; the line joins the ends of the sweeps" : "");
  ImGui::PopStyleColor();
}

// "q", "q*" and the iterate's name beside one particle (the one the substep corrects most), in the scene.
void label_particle(const SandboxState& state) {
  const StepViewState& view = state.step_view;
  const StepTrace& trace = view.trace;
  if (trace.iterates.empty()) return;
  const TraceIterate& now = trace.iterates[static_cast<std::size_t>(std::clamp(view.iterate, 0, static_cast<int>(trace.iterates.size()) - 1))];
  const Model& model = state.world().model();
  std::size_t best = trace.start.size();
  double most = -1.0;
  for (std::size_t i = 0; i < trace.start.size() && i < now.position.size(); ++i)
    if (!model.fixed(i) && glm::length(trace.prediction[i] - trace.start[i]) + glm::length(now.position[i] - trace.prediction[i]) > most) {
      most = glm::length(trace.prediction[i] - trace.start[i]) + glm::length(now.position[i] - trace.prediction[i]);
      best = i;
    }
  if (best >= trace.start.size()) return;
  ImDrawList* draw = ImGui::GetBackgroundDrawList();
  const float r = static_cast<float>(std::max(state.pixel_ratio, 1e-6));
  const Theme theme = state.appearance.theme;
  const auto label = [&](Vec3 at, const char* text, glm::vec4 colour, float dy) {
    const auto p = state.camera.project(at);
    if (!p) return;
    const ImVec2 size = ImGui::CalcTextSize(text);
    const float offset = static_cast<float>(state.bead_radius * state.camera.pixels_per_unit(at)) / r;
    const ImVec2 pos(static_cast<float>(p->x) / r + 0.5f * offset + 4.0f, static_cast<float>(p->y) / r + dy * size.y);
    draw->AddRectFilled(ImVec2(pos.x - 2.0f, pos.y - 1.0f), ImVec2(pos.x + size.x + 2.0f, pos.y + size.y + 1.0f),
                        ImGui::GetColorU32(ImGuiCol_WindowBg, 0.8f), 3.0f);
    draw->AddText(pos, to_u32(glm::vec4(glm::vec3(colour), 1.0f)), text);
  };
  const ImVec4 text = ImGui::GetStyleColorVec4(ImGuiCol_Text);
  label(trace.start[best], "q", glm::vec4(text.x, text.y, text.z, 1.0f), -1.6f);
  label(magnified_prediction(view, best), "q*", prediction_colour(theme), -0.5f);
  const char* name = is_velocity_stage(now.kind) ? "q'" : (&now == &trace.iterates.back() ? "q'" : "iterate");
  label(magnified(view, best, now.position[best]), name, iterate_colour(now.kind, theme), 0.6f);
}

}  // namespace

void draw_step_view_panel(SandboxState& state) {
  StepViewState& view = state.step_view;
  if (!view.active) return;
  const StepTrace& trace = view.trace;
  label_particle(state);
  const auto views = lane_viewports(state);
  const float r = static_cast<float>(std::max(state.pixel_ratio, 1e-6));
  const auto& v = views[0];
  const float x0 = v[0] / r, y0 = v[1] / r, w = v[2] / r, h = v[3] / r;
  const float scale = static_cast<float>(state.ui_scale);
  const float top = 2.4f * kBaseFontSize * scale;
  const float width = step_view_panel_width(state, w) - 8.0f * scale;
  ImGui::SetNextWindowPos(ImVec2(x0 + w - width - 8.0f * scale, y0 + top));
  // As tall as its content (the top line or a message may sit under it), never past the scene's bottom.
  ImGui::SetNextWindowSizeConstraints(ImVec2(width, 0.0f), ImVec2(width, std::max(h - 2.0f * top, 100.0f)));
  ImGui::SetNextWindowBgAlpha(0.9f);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoMove | ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing;
  if (ImGui::Begin("Step view###step view", nullptr, flags)) {
    remember_rect(state, "step view");
    const Theme theme = state.appearance.theme;
    const Palette& colours = palette(theme);
    const SolverInfo* info = find_solver(trace.solver);
    ImGui::PushStyleColor(ImGuiCol_Text, colours.title);
    ImGui::TextWrapped("One substep of %s", info ? info->name : trace.solver.c_str());
    ImGui::PopStyleColor();
    ImGui::TextWrapped("h = %.4g s at t = %.4g s", trace.h, state.world().time());
    ImGui::PushStyleColor(ImGuiCol_Text, colours.accent);
    if (view.correction_chosen == view.chosen)
      ImGui::TextWrapped("displacements from q drawn x%g", view.chosen);
    else
      ImGui::TextWrapped("drawn: motion q to q* x%g, corrections from q* x%g", view.chosen, view.correction_chosen);
    ImGui::PopStyleColor();
    ImGui::Separator();
    const ImVec4 text = ImGui::GetStyleColorVec4(ImGuiCol_Text);
    swatch(glm::vec4(text.x, text.y, text.z, 1.0f), "q: the start (the scene, solid)");
    swatch(prediction_colour(theme), "q*: the prediction with no constraint force");
    const bool explicit_solver = trace.solver == "acceleration" || trace.solver == "penalty";
    if (!explicit_solver) {
      swatch(correction_colour(theme), "correction of each particle, q* to the iterate (at the last: M^-1 grad C^T lambda)");
      bool kinds[8] = {};
      for (const TraceIterate& it : trace.iterates) kinds[static_cast<int>(it.kind)] = true;
      for (int k = 0; k < 8; ++k)
        if (kinds[k] && !is_velocity_stage(static_cast<IterateKind>(k)))
          swatch(iterate_colour(static_cast<IterateKind>(k), theme),
                 (std::string("iterate: ") + iterate_kind_name(static_cast<IterateKind>(k))).c_str());
      if (kinds[static_cast<int>(IterateKind::HalfKick)]) {
        swatch(iterate_colour(IterateKind::HalfKick, theme), "velocity before the correction (arrows)");
        swatch(iterate_colour(IterateKind::VelocityCorrection, theme), "velocity after: grad C(q') v' = 0");
        double v_scale = 0.0, change_scale = 0.0;
        velocity_scales(state, v_scale, change_scale);
        const std::string change = "velocity change M^-1 grad C^T mu (yellow, at q'), x" +
                                   std::to_string(static_cast<long>(std::lround(v_scale > 0 ? change_scale / v_scale : 1.0))) +
                                   " the velocity arrows";
        swatch(correction_colour(theme), change.c_str());
      }
    } else {
      swatch(iterate_colour(IterateKind::Explicit, theme), "q': the explicit step v' = v + h a, q' = q + h v'");
      swatch(correction_colour(theme), "q* to q': what the rod forces moved, h^2 M^-1 J^T lambda");
      swatch(colours.constraint_force, "rod forces J^T lambda at q");
      swatch(along_colour(theme), "gravity along each rod");
      swatch(across_colour(theme), "gravity across each rod");
    }
    ImGui::Separator();
    const int count = static_cast<int>(trace.iterates.size());
    if (count > 0) {
      const int k = std::clamp(view.iterate, 0, count - 1);
      const TraceIterate& it = trace.iterates[static_cast<std::size_t>(k)];
      ImGui::TextWrapped("iterate %d of %d: %s", k + 1, count, iterate_text(trace, k).c_str());
      if (is_velocity_stage(it.kind)) ImGui::TextWrapped("max |J v| = %.3e m/s", it.max_violation);
      else ImGui::TextWrapped("max |C| = %.3e m  (|C|/L %.2e)", it.max_violation, it.max_relative);
      if (k > 0 && !is_velocity_stage(it.kind)) {
        const TraceIterate& prev = trace.iterates[static_cast<std::size_t>(k - 1)];
        if (!is_velocity_stage(prev.kind) && prev.max_violation > 1e-15 && it.max_violation > 1e-15 &&
            prev.max_violation < 1.0)
        {
          ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
          ImGui::TextWrapped("log r_k / log r_k-1 = %.2f (1: linear, 2: quadratic)",
                             std::log(it.max_violation) / std::log(prev.max_violation));
          ImGui::PopStyleColor();
        }
      }
      const TraceIterate* last_position = nullptr;
      for (const TraceIterate& candidate : trace.iterates)
        if (!is_velocity_stage(candidate.kind)) last_position = &candidate;
      if (last_position && last_position->max_relative > state.world().settings().tolerance &&
          trace.solver != "acceleration" && trace.solver != "penalty")
      {
        ImGui::PushStyleColor(ImGuiCol_Text, colours.slow);
        ImGui::TextWrapped("not converged: the solver stopped at its cap (max_iterations %d) above the tolerance",
                           state.world().settings().max_iterations);
        ImGui::PopStyleColor();
      }
      if (trace.truncated)
        ImGui::TextColored(colours.slow, "%d iterates ran; the first %d are kept", trace.iterates_run, count);
      if (trace.split_substeps > 0)
        ImGui::TextColored(colours.slow, "the projection split the substep in halves (%d)", trace.split_substeps);
      const float plot_h = std::clamp(0.22f * h, 80.0f * scale, 200.0f * scale);
      residual_plot(state, width - 2.0f * ImGui::GetStyle().WindowPadding.x, plot_h);
    }
    if (explicit_solver) {
      ImGui::Separator();
      const Model& model = state.world().model();
      int shown = 0;
      for (const GravitySplit& split : trace.gravity_split) {
        if (++shown > 4) break;
        const double force = std::abs(trace.row_force[static_cast<std::size_t>(split.row)]);
        ImGui::TextWrapped("rod %d at %d: |lambda| %.3g N, m g along %.3g N, across %.3g N", split.row, split.particle, force,
                    glm::length(split.along), glm::length(split.across));
      }
      (void)model;
    } else if (!trace.lambda.empty() && trace.lambda.size() <= 6) {
      ImGui::Separator();
      std::string text = "lambda (m kg):";
      char value[32];
      for (double l : trace.lambda) {
        std::snprintf(value, sizeof value, " %.3e", l);
        text += value;
      }
      ImGui::TextWrapped("%s", text.c_str());
    }
    ImGui::Separator();
    ImGui::TextWrapped("Left/Right: iterate  Home/End: first/last  I or Esc: leave");
  }
  ImGui::End();
}

}  // namespace lagrange::app
