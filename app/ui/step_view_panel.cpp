// The step view's panel (docs/app.md, "The step view"): on the right of the scene while the view is open, the
// substep's legend, the current iterate (kind, row, sweep, max |C|), the residual of every iterate on a log scale
// (the convergence order shows as the slope: a straight line for chord and SHAKE, a steepening one for Newton), the
// multipliers or forces, and the keys.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <string>
#include <vector>

#include <imgui.h>

#include "lagrange/solver.h"
#include "ui/ui.h"
#include "view/scene_draw.h"
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

// Pieces never broken inside (a number with its unit) on one line while they fit, else on the next; a piece wider
// than the whole line (words) wraps between its words.
void flow(std::initializer_list<std::string> pieces) {
  bool first = true;
  for (const std::string& piece : pieces) {
    const float w = ImGui::CalcTextSize(piece.c_str()).x;
    if (!first) {
      const float right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
      ImGui::SameLine();
      if (ImGui::GetCursorScreenPos().x + w > right) ImGui::NewLine();
    }
    first = false;
    if (w > ImGui::GetContentRegionAvail().x) ImGui::TextWrapped("%s", piece.c_str());
    else ImGui::TextUnformatted(piece.c_str());
  }
}

std::string format(const char* format, double value) {
  char text[64];
  std::snprintf(text, sizeof text, format, value);
  return text;
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
    // Inset by the current iterate's ring (7.5 units × the scale), so that it stays inside the frame.
    const float inset = std::max(8.0f, 8.5f * static_cast<float>(state.ui_scale));
    return ImVec2(a.x + inset + fx * (b.x - a.x - 2.0f * inset), b.y - 4.0f - fy * (b.y - a.y - 8.0f));
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
  ImGui::TextWrapped("max |C| per iterate (m, log)%s; dashed: tolerance; hollow: undone%s",
                     velocity_stages ? ", |J v| (m/s) for velocities" : "", dense ? "; line: ends of sweeps" : "");
  ImGui::PopStyleColor();
}

// "q", "q*" and the iterate's name beside one particle (the one the substep corrects most), in the scene.
void label_particle(SandboxState& state) {
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
  // The three points as drawn: the solid bead at q, the ghosts of q* and of the iterate (smaller), in window units.
  const std::vector<double> radii =
      display_radii(state.scene, state.world(), state.view.size_by_mass, state.bead_radius);
  const double radius = best < radii.size() ? radii[best] : state.bead_radius;
  struct Disc {
    bool seen = false;
    ImVec2 centre;
    float radius = 0.0f;
  };
  const Vec3 points[3] = {trace.start[best], magnified_prediction(view, best),
                          magnified(view, best, now.position[best])};
  const float sizes[3] = {1.0f, kGhostSize, kGhostSize};
  Disc discs[3];
  for (int k = 0; k < 3; ++k)
    if (const auto p = state.camera.project(points[k]))
      discs[k] = {true, ImVec2(static_cast<float>(p->x) / r, static_cast<float>(p->y) / r),
                  static_cast<float>(sizes[k] * radius * state.camera.pixels_per_unit(points[k])) / r};
  // Each label beside its point, a margin clear of its bead: to the right, else the first side where it touches none
  // of the three beads, no label placed before it and not the panel.
  const float margin = 5.0f * static_cast<float>(state.ui_scale);
  const std::array<float, 4> panel = step_view_panel_rect(state);
  std::vector<std::array<float, 4>> placed;
  const auto clear = [&](const std::array<float, 4>& box) {
    for (const Disc& d : discs) {
      if (!d.seen) continue;
      const float dx = std::max({box[0] - d.centre.x, 0.0f, d.centre.x - box[2]});
      const float dy = std::max({box[1] - d.centre.y, 0.0f, d.centre.y - box[3]});
      if (dx * dx + dy * dy < d.radius * d.radius) return false;
    }
    const auto overlaps = [&](const std::array<float, 4>& o) {
      return box[0] < o[2] && o[0] < box[2] && box[1] < o[3] && o[1] < box[3];
    };
    return std::none_of(placed.begin(), placed.end(), overlaps) && !overlaps(panel);
  };
  const auto label = [&](int k, const char* text, glm::vec4 colour, const char* rect) {
    const Disc& d = discs[k];
    if (!d.seen) return;
    const ImVec2 size = ImGui::CalcTextSize(text);
    const float w = size.x + 4.0f, h = size.y + 2.0f, reach = d.radius + margin, diagonal = reach * 0.7071f;
    const ImVec2 corner[] = {  // the box's top-left: right, left, above, below, then the four diagonals
        {d.centre.x + reach, d.centre.y - 0.5f * h},          {d.centre.x - reach - w, d.centre.y - 0.5f * h},
        {d.centre.x - 0.5f * w, d.centre.y - reach - h},      {d.centre.x - 0.5f * w, d.centre.y + reach},
        {d.centre.x + diagonal, d.centre.y - diagonal - h},   {d.centre.x + diagonal, d.centre.y + diagonal},
        {d.centre.x - diagonal - w, d.centre.y - diagonal - h}, {d.centre.x - diagonal - w, d.centre.y + diagonal}};
    std::array<float, 4> box{corner[0].x, corner[0].y, corner[0].x + w, corner[0].y + h};
    for (const ImVec2& c : corner) {
      const std::array<float, 4> candidate{c.x, c.y, c.x + w, c.y + h};
      if (clear(candidate)) {
        box = candidate;
        break;
      }
    }
    placed.push_back(box);
    draw->AddRectFilled(ImVec2(box[0], box[1]), ImVec2(box[2], box[3]), ImGui::GetColorU32(ImGuiCol_WindowBg, 0.8f),
                        3.0f);
    draw->AddText(ImVec2(box[0] + 2.0f, box[1] + 1.0f), to_u32(glm::vec4(glm::vec3(colour), 1.0f)), text);
    state.widget_rects[rect] = box;
  };
  const ImVec4 text = ImGui::GetStyleColorVec4(ImGuiCol_Text);
  label(0, "q", glm::vec4(text.x, text.y, text.z, 1.0f), "step view label q");
  label(1, "q*", prediction_colour(theme), "step view label q*");
  const char* name = is_velocity_stage(now.kind) ? "q'" : (&now == &trace.iterates.back() ? "q'" : "iterate");
  label(2, name, iterate_colour(now.kind, theme), "step view label iterate");
}

}  // namespace

std::array<float, 4> step_view_panel_rect(const SandboxState& state) {
  if (!state.step_view.active) return {0.0f, 0.0f, 0.0f, 0.0f};
  // At the right of the whole scene: side by side, over the last lanes' views, lane 1 keeping its own for the ghosts.
  const std::array<int, 4> v = scene_viewport(state);
  const float r = static_cast<float>(std::max(state.pixel_ratio, 1e-6));
  const float x0 = v[0] / r, y0 = v[1] / r, w = v[2] / r, h = v[3] / r;
  const float margin = 8.0f * static_cast<float>(state.ui_scale);
  const float width = step_view_panel_width(state, w);
  return {x0 + w - margin - width, y0 + margin, x0 + w - margin, y0 + std::max(h - margin, 2.0f * margin)};
}

void draw_step_view_panel(SandboxState& state) {
  StepViewState& view = state.step_view;
  if (!view.active) return;
  const StepTrace& trace = view.trace;
  label_particle(state);
  const std::array<float, 4> rect = step_view_panel_rect(state);
  const float width = rect[2] - rect[0], h = rect[3] - rect[1];
  const float scale = static_cast<float>(state.ui_scale);
  ImGui::SetNextWindowPos(ImVec2(rect[0], rect[1]));
  // As tall as its content, never past the scene's bottom (it scrolls then). The top line keeps to its left.
  ImGui::SetNextWindowSizeConstraints(ImVec2(width, 0.0f), ImVec2(width, std::max(h, 100.0f)));
  ImGui::SetNextWindowBgAlpha(0.9f);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoMove | ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing;
  if (ImGui::Begin("Step view###step view", nullptr, flags)) {
    // A narrow column (step_view_panel_width): what changes with the iterate first, the legend under it, every line
    // short.
    remember_rect(state, "step view");
    const Theme theme = state.appearance.theme;
    const Palette& colours = palette(theme);
    const SolverInfo* info = find_solver(trace.solver);
    ImGui::PushStyleColor(ImGuiCol_Text, colours.title);
    ImGui::TextWrapped("One substep of %s", info ? info->name : trace.solver.c_str());
    ImGui::PopStyleColor();
    flow({format("h = %.4g s,", trace.h), format("t = %.4g s", state.world().time())});
    ImGui::PushStyleColor(ImGuiCol_Text, colours.accent);
    if (view.correction_chosen == view.chosen)
      flow({"moves from q", format("drawn x%g", view.chosen)});
    else
      flow({format("drawn: q to q* x%g,", view.chosen), format("corrections x%g", view.correction_chosen)});
    ImGui::PopStyleColor();
    ImGui::Separator();
    const bool explicit_solver = trace.solver == "acceleration" || trace.solver == "penalty";
    const int count = static_cast<int>(trace.iterates.size());
    if (count > 0) {
      const int k = std::clamp(view.iterate, 0, count - 1);
      const TraceIterate& it = trace.iterates[static_cast<std::size_t>(k)];
      ImGui::TextWrapped("iterate %d of %d: %s", k + 1, count, iterate_text(trace, k).c_str());
      if (is_velocity_stage(it.kind)) flow({"max |J v| =", format("%.3e m/s", it.max_violation)});
      else flow({"max |C| =", format("%.3e m", it.max_violation), format("(|C|/L %.2e)", it.max_relative)});
      if (k > 0 && !is_velocity_stage(it.kind)) {
        const TraceIterate& prev = trace.iterates[static_cast<std::size_t>(k - 1)];
        if (!is_velocity_stage(prev.kind) && prev.max_violation > 1e-15 && it.max_violation > 1e-15 &&
            prev.max_violation < 1.0)
        {
          ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
          flow({"log r_k / log r_k-1 =", format("%.2f", std::log(it.max_violation) / std::log(prev.max_violation)),
                "(1 linear, 2 quadratic)"});
          ImGui::PopStyleColor();
        }
      }
      const TraceIterate* last_position = nullptr;
      for (const TraceIterate& candidate : trace.iterates)
        if (!is_velocity_stage(candidate.kind)) last_position = &candidate;
      if (last_position && last_position->max_relative > state.world().settings().tolerance && !explicit_solver) {
        ImGui::PushStyleColor(ImGuiCol_Text, colours.slow);
        ImGui::TextWrapped("not converged: stopped at max_iterations %d above the tolerance",
                           state.world().settings().max_iterations);
        ImGui::PopStyleColor();
      }
      ImGui::PushStyleColor(ImGuiCol_Text, colours.slow);
      if (trace.truncated) ImGui::TextWrapped("%d iterates ran; the first %d are kept", trace.iterates_run, count);
      if (trace.split_substeps > 0)
        ImGui::TextWrapped("the projection split the substep in halves (%d)", trace.split_substeps);
      ImGui::PopStyleColor();
      const float plot_h = std::clamp(0.2f * h, 70.0f * scale, 180.0f * scale);
      residual_plot(state, ImGui::GetContentRegionAvail().x, plot_h);  // beside the scrollbar when there is one
    }
    if (explicit_solver) {
      int shown = 0;
      for (const GravitySplit& split : trace.gravity_split) {
        if (++shown > 4) break;
        const double force = std::abs(trace.row_force[static_cast<std::size_t>(split.row)]);
        flow({"rod " + std::to_string(split.row) + " at " + std::to_string(split.particle) + ":",
              format("|\xce\xbb| %.3g N,", force), format("m g along %.3g N,", glm::length(split.along)),
              format("across %.3g N", glm::length(split.across))});
      }
    } else if (!trace.lambda.empty() && trace.lambda.size() <= 6) {
      ImGui::TextUnformatted("\xce\xbb (m kg):");  // λ
      for (double l : trace.lambda) {  // each whole, as many on a line as fit
        const std::string value = format("%.3e", l);
        const float right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
        ImGui::SameLine();
        if (ImGui::GetCursorScreenPos().x + ImGui::CalcTextSize(value.c_str()).x > right) ImGui::NewLine();
        ImGui::TextUnformatted(value.c_str());
      }
    }
    ImGui::Separator();
    const ImVec4 text = ImGui::GetStyleColorVec4(ImGuiCol_Text);
    swatch(glm::vec4(text.x, text.y, text.z, 1.0f), "q: the start (solid)");
    swatch(prediction_colour(theme), "q*: no constraint force");
    if (!explicit_solver) {
      // M⁻¹∇Cᵀλ
      swatch(correction_colour(theme),
             "correction q* to iterate (last: M\xe2\x81\xbb\xc2\xb9\xe2\x88\x87" "C\xe1\xb5\x80\xce\xbb)");
      bool kinds[8] = {};
      for (const TraceIterate& it : trace.iterates) kinds[static_cast<int>(it.kind)] = true;
      for (int k = 0; k < 8; ++k)
        if (kinds[k] && !is_velocity_stage(static_cast<IterateKind>(k)))
          swatch(iterate_colour(static_cast<IterateKind>(k), theme), iterate_kind_name(static_cast<IterateKind>(k)));
      if (kinds[static_cast<int>(IterateKind::HalfKick)]) {
        swatch(iterate_colour(IterateKind::HalfKick, theme), "velocity before correction");
        swatch(iterate_colour(IterateKind::VelocityCorrection, theme),
               "velocity after: \xe2\x88\x87" "C(q') v' = 0");  // ∇C
        double v_scale = 0.0, change_scale = 0.0;
        velocity_scales(state, v_scale, change_scale);
        const std::string change =
            "its change M\xe2\x81\xbb\xc2\xb9\xe2\x88\x87" "C\xe1\xb5\x80\xce\xbc, x" +  // M⁻¹∇Cᵀμ
            std::to_string(static_cast<long>(std::lround(v_scale > 0 ? change_scale / v_scale : 1.0)));
        swatch(correction_colour(theme), change.c_str());
      }
    } else {
      swatch(iterate_colour(IterateKind::Explicit, theme), "q': v' = v + h a, q' = q + h v'");
      // h² M⁻¹Jᵀλ
      swatch(correction_colour(theme), "q* to q': h\xc2\xb2 M\xe2\x81\xbb\xc2\xb9J\xe1\xb5\x80\xce\xbb");
      swatch(colours.constraint_force, "rod forces J\xe1\xb5\x80\xce\xbb at q");
      swatch(along_colour(theme), "gravity along each rod");
      swatch(across_colour(theme), "gravity across each rod");
    }
    ImGui::Separator();
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("\xe2\x86\x90 \xe2\x86\x92 iterate, Home End, I or Esc leaves");  // ← →
    ImGui::PopStyleColor();
  }
  ImGui::End();
}

}  // namespace lagrange::app
