// The Measure strip (key M), under the scene between the side panels, as PhET's Pendulum Lab has its tools: three
// columns, the period timer and the stopwatch, the protractor with its phase-space plot, the energy bars. Drawn
// only while shown (the panels cost rasterization time on a software renderer).
#include "ui/measure_panel.h"

#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>
#include <string_view>

#include "ui/ui.h"
#include "view/scene_draw.h"
#include "window/theme.h"

namespace lagrange::app {
namespace {

constexpr double kDeg = 180.0 / std::numbers::pi;

// The strip's colours in the current theme (theme.h): the plots' frame, guides and labels, the energy colours of the
// Diagnostics plots, and two of its own, darker in the light theme so they read on white.
struct Colours {
  ImVec4 timer;       // the timed particle's ring and its period
  ImVec4 protractor;  // the rod's arc, the angle, the phase trace
  ImVec4 heading, running;
  ImU32 frame, axis, label, kinetic, potential, total, mouse, damping;
};

Colours colours(Theme theme) {
  const Palette& p = palette(theme);
  const bool light = theme == Theme::Light;
  Colours c;
  c.timer = light ? ImVec4(0.78f, 0.10f, 0.48f, 1.0f) : ImVec4(1.0f, 0.50f, 0.78f, 1.0f);
  c.protractor = light ? ImVec4(0.05f, 0.50f, 0.15f, 1.0f) : ImVec4(0.55f, 0.95f, 0.60f, 1.0f);
  c.heading = p.title;
  c.running = light ? ImVec4(0.05f, 0.50f, 0.15f, 1.0f) : ImVec4(0.6f, 0.95f, 0.6f, 1.0f);
  c.frame = p.plot.curves_bg;
  c.axis = p.plot.guide;
  c.label = p.plot.label;
  c.kinetic = p.plot.kinetic;
  c.potential = p.plot.potential;
  c.total = p.plot.total;
  c.mouse = light ? IM_COL32(20, 130, 170, 255) : IM_COL32(140, 230, 255, 255);
  c.damping = light ? IM_COL32(170, 60, 60, 255) : IM_COL32(210, 120, 120, 255);
  return c;
}

void remember(SandboxState& state, const std::string& name) { remember_rect(state, "measure: " + name); }

// A number a class reads from the back row: the font drawn larger.
template <typename... Args>
void big(const ImVec4& colour, const char* format, Args... args) {
  ImGui::SetWindowFontScale(1.45f);
  ImGui::TextColored(colour, format, args...);
  ImGui::SetWindowFontScale(1.0f);
}

std::string rod_name(const World& world, int c) {
  if (c < 0 || static_cast<std::size_t>(c) >= world.constraints().size()) return "none";
  const auto ids = world.constraints()[static_cast<std::size_t>(c)]->particles();
  return "rod " + std::to_string(c) + " (" + std::to_string(ids[0]) + "\xe2\x80\x93" + std::to_string(ids[1]) + ")";
}

// SameLine when an item `width` wide still fits on the current line of the column; false (a new line) otherwise.
bool same_line_if_room(float width) {
  const float right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
  ImGui::SameLine();
  if (ImGui::GetCursorScreenPos().x + width <= right) return true;
  ImGui::NewLine();
  return false;
}

float button_width(const char* label) {
  return ImGui::CalcTextSize(label, nullptr, true).x + 2.0f * ImGui::GetStyle().FramePadding.x;
}

// The timer's Restart: a small button beside its heading, or (`small` false) a button as tall as the tools' buttons.
void restart_button(SandboxState& state, bool small) {
  MeasureState& m = state.measure;
  if (small ? ImGui::SmallButton("Restart") : ImGui::Button("Restart")) restart_timer(m, state.world());
  remember(state, "restart timer");
  if (ImGui::IsItemHovered())
    tooltip("Forget what was timed and time from now. Reset, a new scene, a drag and a change of gravity "
                      "or damping restart it too.");
}

// The heading and Restart (in a tab, whose button names the tool, Restart is in the row of tool buttons instead),
// and the choice of the timed particle.
void timer_header(SandboxState& state, bool heading) {
  const Colours c = colours(state.appearance.theme);
  MeasureState& m = state.measure;
  const World& world = state.world();
  if (heading) {
    ImGui::TextColored(c.heading, "Period timer");
    ImGui::SameLine(std::max(ImGui::GetCursorPosX(), ImGui::GetContentRegionMax().x - button_width("Restart")));
    restart_button(state, true);
  }
  // The timed particle by its colour and amplitude ("red bob, 150°"), a swatch of its colour beside the choice.
  const ParticleNames names = particle_names(state);
  const auto colour_of = [&](int p) {
    return p >= 0 && static_cast<std::size_t>(p) < names.colours.size() ? names.colours[static_cast<std::size_t>(p)]
                                                                         : std::nullopt;
  };
  const std::string chosen = timer_choice(state, names, m.particle);
  state.widget_texts["measure: timed particle"] = {chosen};
  colour_swatch(colour_of(m.particle));
  ImGui::SameLine(0.0f, ImGui::GetStyle().ItemInnerSpacing.x);
  // The combo's frame, kept open or closed (while open the last item is in its list).
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const float width = ImGui::GetContentRegionAvail().x;
  state.widget_rects["measure: timed particle"] = {at.x, at.y, at.x + width, at.y + ImGui::GetFrameHeight()};
  if (begin_fitted_combo("##timed", chosen, width)) {
    auto& listed = state.widget_texts["measure: timed particle list"];
    listed.clear();
    for (std::size_t i = 0; i < world.particle_count(); ++i) {
      if (world.model().fixed(i)) continue;
      const int p = static_cast<int>(i);
      const std::string label = timer_choice(state, names, p);
      listed.push_back(label);
      if (swatch_selectable(("##timed " + std::to_string(p)).c_str(), colour_of(p), label, p == m.particle))
        select_particle(m, world, p);
      remember(state, "timed choice " + std::to_string(p));
      if (ImGui::IsItemHovered())
        tooltip("particle %d (lagrange-lab run SCENE --measure period --particle %d)", p, p);
    }
    ImGui::EndCombo();
  }
  if (ImGui::IsItemHovered())
    tooltip("The particle timed (ringed in pink): its colour, and the amplitude\n"
                      "it swings to (its angle now, before it first turns). Grabbing\n"
                      "a particle times it.");
}

// The measured period, or why there is none yet.
void measured_period(SandboxState& state, const std::optional<PeriodMeter::Result>& result) {
  const ImVec4 kTimerColour = colours(state.appearance.theme).timer;
  MeasureState& m = state.measure;
  auto& out = m.readout;
  if (state.dragging()) {
    hint("timing starts again when you let go");
  } else if (result) {
    out.period = result->period;
    out.intervals = result->intervals;
    big(kTimerColour, "T = %.4f s", result->period);
    remember(state, "period");
    if (ImGui::IsItemHovered())
      tooltip("Measured: the mean of %d intervals between successive crossings of the swing's midline in the "
                        "same direction (along %c), each crossing interpolated between two steps. Spread %.2g s.",
                        result->intervals, "xyz"[result->axis], result->spread);
    if (m.exact)
      hint("measured, %d interval%s, amplitude %.1f\xc2\xb0", result->intervals, result->intervals == 1 ? "" : "s",
           m.exact->amplitude * kDeg);
    else hint("measured, %d interval%s", result->intervals, result->intervals == 1 ? "" : "s");
  } else if (m.particle >= 0) {
    big(kTimerColour, "%s", "T = ...");
    remember(state, "period");
    hint("timing for %.1f s: a whole swing is needed", state.world().time() - m.timing_since);
  } else {
    hint("every particle is fixed: nothing to time");
  }
  if (m.timer_full) hint("timer full (%zu steps): Restart to time again", MeasureState::kMaxSamples);
}

// "label  value" on one line, the values of a group starting `value_x` from the line's start when there is room, else
// right after the label; otherwise the value alone on the next line, indented: a number is never cut or broken.
void label_value(const char* label, const char* value, float value_x, bool grey_label = false, bool grey_value = false) {
  const float start = ImGui::GetCursorScreenPos().x;
  const float right = start + ImGui::GetContentRegionAvail().x;
  if (grey_label) ImGui::TextDisabled("%s", label);
  else ImGui::TextUnformatted(label);
  ImGui::SameLine();
  const float after = ImGui::GetCursorScreenPos().x, width = ImGui::CalcTextSize(value).x;
  const float x = std::max(after, start + value_x);
  if (x + width <= right) {
    ImGui::SetCursorScreenPos(ImVec2(x, ImGui::GetCursorScreenPos().y));
  } else if (after + width <= right) {
    // Not aligned with the others, but still on the label's line.
  } else {
    ImGui::NewLine();
    ImGui::SetCursorPosX(ImGui::GetCursorPosX() + ImGui::GetFontSize());
  }
  if (grey_value) ImGui::TextDisabled("%s", value);
  else ImGui::TextUnformatted(value);
}

// The simple pendulum's exact and small-angle periods beside the measured one, and measured / exact − 1 with its
// sign; or why there are none.
void exact_periods(SandboxState& state, const std::optional<PeriodMeter::Result>& result) {
  MeasureState& m = state.measure;
  auto& out = m.readout;
  const float value_x = std::max(ImGui::CalcTextSize("small angle").x, ImGui::CalcTextSize("exact").x) +
                        ImGui::GetFontSize();
  char text[48];
  if (m.pendulum) {
    if (m.exact) {
      out.exact = m.exact->exact;
      std::snprintf(text, sizeof text, "%.4f s", m.exact->exact);
      label_value("exact", text, value_x);
      remember(state, "exact");
      if (ImGui::IsItemHovered()) {
        const auto swing = m.amplitude.result();
        tooltip("Simple pendulum: T = 4 sqrt(L/g) K(sin(amplitude/2)), K the complete elliptic integral of "
                          "the first kind; amplitude %.2f deg, the swing's angle at its %d turning point%s, "
                          "L = %.4g m.",
                          m.exact->amplitude * kDeg, swing ? swing->turning_points : 0,
                          swing && swing->turning_points == 1 ? "" : "s", m.exact->length);
      }
      if (result && !state.dragging()) {
        out.difference = result->period / m.exact->exact - 1.0;
        out.difference_text = signed_percent(*out.difference);
        label_value("measured/exact \xe2\x88\x92 1", out.difference_text.c_str(), value_x, true);
        remember(state, "difference");
        if (ImGui::IsItemHovered())
          tooltip("How far the measured period is from the exact one: %+.3e (+: measured longer).",
                            *out.difference);
      }
    } else {
      label_value("exact", "...", value_x, true, true);
      remember(state, "exact");
      if (ImGui::IsItemHovered())
        tooltip("Shown once the swing has turned: the amplitude is its angle at the turning points.");
    }
    out.small_angle = m.pendulum->small_angle;
    std::snprintf(text, sizeof text, "%.4f s", m.pendulum->small_angle);
    label_value("small angle", text, value_x);
    remember(state, "small angle");
    if (ImGui::IsItemHovered())
      tooltip("2 pi sqrt(L/g) = %.6f s: the period of a swing of vanishing amplitude.",
                        m.pendulum->small_angle);
  } else if (!m.no_exact_reason.empty() && !state.dragging()) {
    hint("no exact value: %s", m.no_exact_reason.c_str());
    remember(state, "no exact");
  }
}

void stopwatch(SandboxState& state) {
  const Colours c = colours(state.appearance.theme);
  const ImVec4 kHeading = c.heading;
  MeasureState& m = state.measure;
  ImGui::TextColored(kHeading, "Stopwatch");
  if (ImGui::IsItemHovered())
    tooltip("Counts simulated seconds: slow motion slows it, pause stops it, a single step adds one \xce\x94t.");
  auto& out = m.readout;
  const double now = state.world().time();
  out.stopwatch = m.stopwatch.elapsed(now);
  char time[32];
  std::snprintf(time, sizeof time, "%.3f s", out.stopwatch);
  if (same_line_if_room(1.45f * ImGui::CalcTextSize(time).x))
    ImGui::SetCursorPosY(ImGui::GetCursorPosY() - 0.25f * ImGui::GetFontSize());
  big(m.stopwatch.running() ? c.running : kHeading, "%s", time);
  remember(state, "stopwatch time");
  if (ImGui::Button(m.stopwatch.running() ? "Stop" : "Start")) {
    if (m.stopwatch.running()) m.stopwatch.stop(now);
    else m.stopwatch.start(now);
  }
  remember(state, "stopwatch start");
  same_line_if_room(button_width("Lap"));
  if (ImGui::Button("Lap")) m.stopwatch.lap(now);
  remember(state, "stopwatch lap");
  same_line_if_room(button_width("Reset"));
  if (ImGui::Button("Reset##stopwatch")) m.stopwatch.reset();
  remember(state, "stopwatch reset");
  const auto& laps = m.stopwatch.laps();
  if (!laps.empty()) {
    const std::size_t k = laps.size() - 1;
    const double split = laps[k] - (k > 0 ? laps[k - 1] : 0.0);
    char text[64];
    std::snprintf(text, sizeof text, "lap %zu: %.3f s", k + 1, split);
    same_line_if_room(ImGui::CalcTextSize(text).x);
    ImGui::TextDisabled("%s", text);
    remember(state, "last lap");
  }
}

// The readout keeps only what is shown this frame.
void clear_timer_readout(SandboxState& state) {
  auto& out = state.measure.readout;
  out.period.reset();
  out.exact.reset();
  out.small_angle.reset();
  out.difference.reset();
  out.difference_text.clear();
  out.intervals = 0;
}

// The Timer as a column of the wide strip: its heading, the period, the exact values, the stopwatch under each other.
void timer_column(SandboxState& state) {
  timer_header(state, true);
  clear_timer_readout(state);
  const auto result = state.measure.meter.result();
  measured_period(state, result);
  exact_periods(state, result);
  ImGui::Spacing();
  stopwatch(state);
}

// How many groups of the Timer (the period; the exact values; the stopwatch) stand side by side in a tab `width`
// units wide: each about 165 units × the UI scale (the period's a tenth more), at most three.
constexpr float kTimerGroupWidth = 165.0f;
int timer_groups(float width, float scale) {
  const float units = width / (kTimerGroupWidth * scale);
  return units >= 3.1f ? 3 : units >= 2.1f ? 2 : 1;
}

// The Timer as a tab (its Restart in the row of tool buttons): the period, the exact values and the stopwatch side by
// side when the strip is wide, so that every line shows in a short strip (measure_lines_height).
// The width of the strip's tools shown one at a time, as the strip gives it (a tool's own scrollbar left out: the
// groups chosen from it are the ones measure_lines_height made room for).
float g_tool_width = 0.0f;

void timer_tab(SandboxState& state) {
  clear_timer_readout(state);
  const auto result = state.measure.meter.result();
  const int groups = timer_groups(g_tool_width, static_cast<float>(state.ui_scale));
  if (groups == 1 || !ImGui::BeginTable("timer groups", groups, ImGuiTableFlags_BordersInnerV)) {
    timer_header(state, false);
    measured_period(state, result);
    exact_periods(state, result);
    ImGui::Spacing();
    stopwatch(state);
    return;
  }
  ImGui::TableSetupColumn("period", ImGuiTableColumnFlags_WidthStretch, 1.1f);
  ImGui::TableSetupColumn("exact", ImGuiTableColumnFlags_WidthStretch, 1.0f);
  if (groups == 3) ImGui::TableSetupColumn("stopwatch", ImGuiTableColumnFlags_WidthStretch, 1.0f);
  ImGui::TableNextRow();
  ImGui::TableSetColumnIndex(0);
  timer_header(state, false);
  measured_period(state, result);
  ImGui::TableSetColumnIndex(1);
  exact_periods(state, result);
  if (groups == 3) ImGui::TableSetColumnIndex(2);
  else ImGui::Spacing();
  stopwatch(state);
  ImGui::EndTable();
}

// (angle, angular velocity) of the selected rod over the last steps, both axes symmetric about zero.
void phase_plot(SandboxState& state, ImVec2 size) {
  const Colours c = colours(state.appearance.theme);
  const ImU32 kAxis = c.axis, kLabel = c.label;
  const ImVec4 kProtractorColour = c.protractor;
  const MeasureState& m = state.measure;
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton("##phase", size);
  remember(state, "phase plot");
  const ImVec2 p1(p0.x + size.x, p0.y + size.y);
  draw->AddRectFilled(p0, p1, c.frame, 3.0f);
  const double a_max = nice_ceil(std::max(m.phase_angle.value() * kDeg, 1.0));
  const double w_max = nice_ceil(std::max(m.phase_rate.value() * kDeg, 1.0));
  const float pad = 4.0f, label_h = ImGui::GetFontSize();
  const float left = p0.x + pad, right = p1.x - pad, top = p0.y + label_h + 2.0f, bottom = p1.y - label_h - 2.0f;
  const float cx = 0.5f * (left + right), cy = 0.5f * (top + bottom);
  auto to_screen = [&](double a, double w) {
    const double x = std::clamp(a * kDeg / a_max, -1.0, 1.0), y = std::clamp(w * kDeg / w_max, -1.0, 1.0);
    return ImVec2(cx + static_cast<float>(x) * 0.5f * (right - left), cy - static_cast<float>(y) * 0.5f * (bottom - top));
  };
  draw->AddLine(ImVec2(left, cy), ImVec2(right, cy), kAxis);
  draw->AddLine(ImVec2(cx, top), ImVec2(cx, bottom), kAxis);
  char text[64];
  std::snprintf(text, sizeof text, "\xcf\x89 +%g\xc2\xb0/s", w_max);  // ω
  draw->AddText(ImVec2(cx + 4.0f, p0.y + 1.0f), kLabel, text);
  std::snprintf(text, sizeof text, "\xe2\x88\x92%g\xc2\xb0/s", w_max);
  draw->AddText(ImVec2(cx + 4.0f, bottom + 1.0f), kLabel, text);
  std::snprintf(text, sizeof text, "\xce\xb8 +%g\xc2\xb0", a_max);  // θ
  draw->AddText(ImVec2(right - ImGui::CalcTextSize(text).x, cy + 2.0f), kLabel, text);
  std::snprintf(text, sizeof text, "\xe2\x88\x92%g\xc2\xb0", a_max);
  draw->AddText(ImVec2(left + 1.0f, cy + 2.0f), kLabel, text);
  const PhaseTrace& trace = m.trace;
  const ImU32 colour = ImGui::ColorConvertFloat4ToU32(kProtractorColour);
  draw->PushClipRect(p0, p1, true);
  for (std::size_t k = 1; k < trace.size(); ++k) {
    if (std::abs(trace.angle(k) - trace.angle(k - 1)) > std::numbers::pi) continue;  // wrapped through ±180°
    const float age = static_cast<float>(k) / static_cast<float>(trace.size());
    const ImU32 faded = (colour & 0x00FFFFFFu) | (static_cast<ImU32>(60 + 195 * age) << 24);
    draw->AddLine(to_screen(trace.angle(k - 1), trace.angular_velocity(k - 1)),
                  to_screen(trace.angle(k), trace.angular_velocity(k)), faded, 1.5f);
  }
  if (trace.size() > 0) {
    const std::size_t k = trace.size() - 1;
    draw->AddCircleFilled(to_screen(trace.angle(k), trace.angular_velocity(k)), 4.0f, colour);
  }
  draw->PopClipRect();
  if (ImGui::IsItemHovered())
    tooltip("Phase space of the rod: angle \xce\xb8 (across) against angular velocity \xcf\x89 (up) over the "
                      "last %zu steps. A swing draws a closed loop; a loop that spirals in loses energy, one that "
                      "spirals out gains it.",
                      trace.capacity());
}

void protractor_column(SandboxState& state) {
  const Colours c = colours(state.appearance.theme);
  const ImVec4 kHeading = c.heading, kProtractorColour = c.protractor;
  MeasureState& m = state.measure;
  const World& world = state.world();
  ImGui::TextColored(kHeading, "Protractor");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(-FLT_MIN);
  // The rod's name and its ends when the box is wide enough, else the name alone: never cut.
  std::string preview = rod_name(world, m.rod);
  if (ImGui::CalcTextSize(preview.c_str()).x >
      ImGui::GetContentRegionAvail().x - ImGui::GetFrameHeight() - 2.0f * ImGui::GetStyle().FramePadding.x)
    preview = preview.substr(0, preview.find(" ("));
  if (ImGui::BeginCombo("##rod", preview.c_str())) {
    const auto constraints = world.constraints();
    for (std::size_t c = 0; c < constraints.size(); ++c) {
      if (!is_rod(*constraints[c]) || constraints[c]->tool()) continue;
      const int r = static_cast<int>(c);
      if (ImGui::Selectable(rod_name(world, r).c_str(), r == m.rod)) select_rod(m, world, r);
    }
    ImGui::EndCombo();
  } else {
    remember(state, "rod");
  }
  if (ImGui::IsItemHovered()) tooltip("The rod the protractor reads (click a rod in the scene to pick it).");
  const auto angle = selected_rod_angle(m, world);
  m.readout.rod = angle;
  if (angle) {
    big(kProtractorColour, "\xce\xb8 = %+.2f\xc2\xb0", angle->angle * kDeg);
    remember(state, "angle");
    if (ImGui::IsItemHovered())
      tooltip(world.dimension() == 2
                            ? "The rod's angle from straight down (along gravity), from its end nearer the anchor; "
                              "positive counter-clockwise."
                            : "The rod's angle from straight down (along gravity), 0 to 180 degrees, from its end "
                              "nearer the anchor.");
    char text[48];
    std::snprintf(text, sizeof text, "\xcf\x89 = %+.1f\xc2\xb0/s", angle->angular_velocity * kDeg);
    same_line_if_room(ImGui::CalcTextSize(text).x);
    ImGui::TextUnformatted(text);
    remember(state, "angular velocity");
    if (ImGui::IsItemHovered()) tooltip("Angular velocity d\xce\xb8/dt of the rod, degrees per second.");
  } else {
    hint("no rod: click a rod in the scene");
  }
  const float h = ImGui::GetContentRegionAvail().y - ImGui::GetStyle().ItemSpacing.y;
  phase_plot(state, ImVec2(ImGui::GetContentRegionAvail().x, std::max(h, 60.0f * static_cast<float>(state.ui_scale))));
}

void energy_column(SandboxState& state) {
  const Colours c = colours(state.appearance.theme);
  const ImVec4 kHeading = c.heading;
  const ImU32 kKinetic = c.kinetic, kPotential = c.potential, kTotal = c.total, kMouse = c.mouse,
              kDamping = c.damping, kAxis = c.axis, kLabel = c.label;
  MeasureState& m = state.measure;
  const World& world = state.world();
  ImGui::TextColored(kHeading, "Energy [J]");
  bool lowest = m.energy_zero == EnergyZero::Lowest;
  // The longest label that fits beside the box: never cut.
  const float room = ImGui::GetContentRegionAvail().x - ImGui::GetFrameHeight() - ImGui::GetStyle().ItemInnerSpacing.x;
  const char* zero_label = "U = 0 at lowest point";
  for (const char* label : {"U = 0 at lowest point", "U = 0 at lowest", "U = 0 lowest"})
    if (ImGui::CalcTextSize(label).x <= room - ImGui::CalcTextSize("Energy [J]").x - 2.0f * ImGui::GetStyle().ItemSpacing.x) {
      zero_label = label;
      break;
    } else {
      zero_label = label;
    }
  same_line_if_room(ImGui::GetFrameHeight() + ImGui::CalcTextSize(zero_label).x + 4.0f);
  if (ImGui::Checkbox((std::string(zero_label) + "##energy zero").c_str(), &lowest))
    set_energy_zero(m, world, lowest ? EnergyZero::Lowest : EnergyZero::Origin);
  remember(state, "energy zero");
  if (ImGui::IsItemHovered())
    tooltip("On: potential energy counted from the lowest point the scene can reach (as PhET does). Off: "
                      "from the scene's origin, the world's own zero (the Diagnostics panel's values).");
  const EnergyBars bars = energy_bars(world.energy(), world.work(), m.potential_offset);
  m.readout.bars = bars;
  struct Bar {
    const char* label;
    const char* tip;
    double value;
    ImU32 colour;
  };
  const Bar list[] = {
      {"K", "kinetic energy \xc2\xbd m v\xc2\xb2", bars.kinetic, kKinetic},
      {"U", "potential energy (gravity, springs)", bars.potential, kPotential},
      {"E", "total energy K + U", bars.total, kTotal},
      {"mouse", "work done by your drags and poses since the last reset", bars.mouse, kMouse},
      {"damp", "work done by air drag and dampers since the last reset (never positive)", bars.damping, kDamping},
  };
  const double up = nice_ceil(std::max(m.energy_up.value(), 1e-12));
  const double down = m.energy_down.value() > 1e-3 * up ? nice_ceil(m.energy_down.value()) : 0.0;
  m.readout.energy_top = up;
  m.readout.energy_bottom = -down;
  m.readout.energy_values.clear();
  m.readout.energy_labels.clear();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  const ImVec2 size(ImGui::GetContentRegionAvail().x,
                    std::max(ImGui::GetContentRegionAvail().y - ImGui::GetStyle().ItemSpacing.y,
                             60.0f * static_cast<float>(state.ui_scale)));
  ImGui::InvisibleButton("##energy bars", size);
  remember(state, "energy bars");
  const bool hovered = ImGui::IsItemHovered();
  const ImVec2 p1(p0.x + size.x, p0.y + size.y);
  draw->AddRectFilled(p0, p1, c.frame, 3.0f);
  // Rows, top to bottom: the scale's value alone; the value of a full bar; the bars; the value of a full negative
  // bar; the labels. No value can reach a label, whatever the bars do.
  const float line = ImGui::GetFontSize();
  const float top = p0.y + 2.0f * line + 4.0f, bottom = p1.y - 2.0f * line - 4.0f;
  const float zero_y = top + (bottom - top) * static_cast<float>(up / (up + down));
  const float slot = size.x / 5.0f;
  auto text_at = [&](std::vector<std::array<float, 4>>& boxes, ImVec2 at, float font, ImU32 colour, const char* text) {
    const ImVec2 extent = ImGui::GetFont()->CalcTextSizeA(font, FLT_MAX, 0.0f, text);
    draw->AddText(ImGui::GetFont(), font, at, colour, text);
    boxes.push_back({at.x, at.y, at.x + extent.x, at.y + extent.y});
  };
  draw->AddLine(ImVec2(p0.x + 2.0f, zero_y), ImVec2(p1.x - 2.0f, zero_y), kAxis);
  char text[64];
  std::snprintf(text, sizeof text, "%g J", up);
  text_at(m.readout.energy_labels, ImVec2(p0.x + 3.0f, p0.y + 1.0f), line, kLabel, text);
  draw->AddLine(ImVec2(p0.x + 2.0f, top), ImVec2(p0.x + 8.0f, top), kAxis);
  // Labels shrink (to 70 % at most) rather than run into each other in a narrow column.
  float widest = 0.0f;
  for (const Bar& bar : list) widest = std::max(widest, ImGui::CalcTextSize(bar.label).x);
  const float label_scale = std::clamp((slot - 4.0f) / widest, 0.7f, 1.0f);
  for (int k = 0; k < 5; ++k) {
    const Bar& bar = list[k];
    const float x0 = p0.x + slot * (static_cast<float>(k) + 0.2f), x1 = p0.x + slot * (static_cast<float>(k) + 0.8f);
    const float middle = 0.5f * (x0 + x1);
    const double fraction = bar.value >= 0.0 ? bar.value / up : (down > 0.0 ? bar.value / down : 0.0);
    const float extent = bar.value >= 0.0 ? zero_y - top : bottom - zero_y;
    const float y = zero_y - static_cast<float>(std::clamp(fraction, -1.0, 1.0)) * extent;
    draw->AddRectFilled(ImVec2(x0, std::min(y, zero_y)), ImVec2(x1, std::max(y, zero_y) + 0.5f), bar.colour);
    if (std::abs(fraction) > 1.0) {  // off scale (until the scale catches up): an arrow cut into the bar's end
      const float tip = fraction > 0 ? 2.0f : -2.0f, base = fraction > 0 ? 9.0f : -9.0f;
      draw->AddTriangleFilled(ImVec2(x0 + 3.0f, y + base), ImVec2(x1 - 3.0f, y + base), ImVec2(middle, y + tip),
                              c.frame);
    }
    // The value beside the bar's end, in its slot: fewer digits, then a smaller font, when the slot is narrow.
    float font = line;
    for (const char* format : {"%.2f", "%.1f", "%.0f"}) {
      std::snprintf(text, sizeof text, std::abs(bar.value) >= 100.0 ? "%.0f" : format, bar.value);
      if (ImGui::CalcTextSize(text).x <= slot - 2.0f) break;
    }
    const float width = ImGui::CalcTextSize(text).x;
    if (width > slot - 2.0f) font = line * std::max((slot - 2.0f) / width, 0.6f);
    const float tw = width * font / line;
    const float tx = std::clamp(middle - 0.5f * tw, p0.x + 1.0f, std::max(p1.x - 1.0f - tw, p0.x + 1.0f));
    const float ty = bar.value >= 0.0 ? std::max(y - font - 1.0f, top - line - 1.0f) : std::min(y + 1.0f, bottom + 1.0f);
    text_at(m.readout.energy_values, ImVec2(tx, ty), font, bar.colour, text);
    const float lw = ImGui::CalcTextSize(bar.label).x * label_scale;
    text_at(m.readout.energy_labels, ImVec2(middle - 0.5f * lw, p1.y - line - 2.0f), line * label_scale, kLabel,
            bar.label);
    if (hovered && ImGui::GetIO().MousePos.x >= p0.x + slot * k && ImGui::GetIO().MousePos.x < p0.x + slot * (k + 1))
      tooltip("%s: %+.6g J", bar.tip, bar.value);
  }
}

}  // namespace

namespace {

const char* const kTabNames[] = {"Timer", "Protractor", "Energy", "Table", "Scale"};

// The strip's height before its lines are counted: a third of the window, 255 to 340 units × the UI scale, at most
// 30 % of the window.
float base_height(const SandboxState& state) {
  const float scale = static_cast<float>(state.ui_scale);
  const float window = static_cast<float>(state.window_height / std::max(state.pixel_ratio, 1e-6));
  return std::min(std::clamp(0.32f * window, 255.0f * scale, 340.0f * scale), 0.3f * window);
}

// The lines of text, of framed widgets and of the large numbers, each with the spacing under it; the Timer's groups:
// the period (its heading and Restart, its choice, T, a hint of up to two lines), the exact values (exact, measured /
// exact − 1 with its value wrapped under it, small angle), the stopwatch (its heading and time, the buttons, a lap).
struct Lines {
  float text, frame, big, period, exact, watch;
};
Lines lines_of(const ImGuiStyle& style, float font) {
  Lines l;
  l.text = font + style.ItemSpacing.y;
  l.frame = font + 2.0f * style.FramePadding.y + style.ItemSpacing.y;
  l.big = 1.45f * font + style.ItemSpacing.y;  // the numbers read from the back row (big())
  l.period = l.text + l.frame + l.big + 2.0f * l.text;  // with its heading (in a tab: less its first line)
  l.exact = 4.0f * l.text;
  l.watch = l.big + l.frame + l.text;
  return l;
}

float font_size(const SandboxState& state) {
  const ImGuiIO& io = ImGui::GetIO();
  if (io.Fonts && io.Fonts->IsBuilt() && io.Fonts->Fonts.Size > 0) return io.Fonts->Fonts[0]->FontSize;
  return std::round(kBaseFontSize * static_cast<float>(state.ui_scale));  // build_fonts'
}

// The tools side by side in a strip whose content is `avail` units wide: four columns of at least ~200 units (the
// table ~510, its natural width; five with the Scale), when the Timer's column, its groups under each other, fits
// in the strip's base height. Else one tool at a time, chosen by buttons.
bool side_by_side(const SandboxState& state, float avail) {
  const float min_column = 200.0f * static_cast<float>(state.ui_scale);
  const bool scale = !state.world().model().contacts().obstacles.empty();
  if (avail < (scale ? 6.8f : 5.6f) * min_column) return false;
  const ImGuiStyle& style = ImGui::GetStyle();
  const Lines l = lines_of(style, font_size(state));
  const float column = 2.0f * style.WindowPadding.y + 2.0f * style.CellPadding.y + l.period + l.exact +
                       style.ItemSpacing.y + l.watch;
  return column <= base_height(state);
}

}  // namespace

float measure_lines_height(const SandboxState& state, float width) {
  const ImGuiStyle& style = ImGui::GetStyle();  // scaled with the UI (ScaleAllSizes)
  const float scale = static_cast<float>(state.ui_scale);
  const float font = font_size(state);
  const Lines l = lines_of(style, font);
  const float avail = width - 2.0f * style.WindowPadding.x;
  if (side_by_side(state, avail))  // a column of the table
    return 2.0f * style.WindowPadding.y + 2.0f * style.CellPadding.y + l.period + l.exact + style.ItemSpacing.y +
           l.watch;
  const ImGuiIO& io = ImGui::GetIO();
  const bool built = io.Fonts && io.Fonts->IsBuilt() && io.Fonts->Fonts.Size > 0;
  // The tools' buttons, wrapping as drawn (one row when the font is not there to measure them).
  int rows = 1;
  if (built) {
    const bool with_scale = !state.world().model().contacts().obstacles.empty();
    float x = 0.0f;
    // The Timer's Restart ends the row.
    for (std::size_t k = 0; k <= std::size(kTabNames) - (with_scale ? 0 : 1); ++k) {
      const char* name = k < std::size(kTabNames) - (with_scale ? 0 : 1) ? kTabNames[k] : "Restart";
      const float w = io.Fonts->Fonts[0]->CalcTextSizeA(font, FLT_MAX, 0.0f, name).x + 2.0f * style.FramePadding.x;
      if (k > 0 && x + style.ItemSpacing.x + w > avail) {
        ++rows;
        x = w;
      } else {
        x += (k > 0 ? style.ItemSpacing.x : 0.0f) + w;
      }
    }
  }
  const int groups = timer_groups(avail, scale);
  const float period = l.period - l.text;  // its heading is the tab's button
  // Grouped, the stopwatch's time may go under its heading in the narrower column.
  const float watch = groups > 1 ? l.text + l.watch : l.watch;
  const float timer = groups == 3 ? std::max({period, l.exact, watch})
                      : groups == 2 ? std::max(period, l.exact + style.ItemSpacing.y + watch)
                                    : period + l.exact + style.ItemSpacing.y + watch;
  return 2.0f * style.WindowPadding.y + static_cast<float>(rows) * l.frame +
         (groups > 1 ? 2.0f * style.CellPadding.y : 0.0f) + timer;
}

float measure_strip_height(const SandboxState& state, float width) {
  if (state.view.presentation || !state.view.panels || !state.measure.shown) return 0.0f;
  const float window = static_cast<float>(state.window_height / std::max(state.pixel_ratio, 1e-6));
  // The base height; taller when the Timer's lines need it, up to as tall as the scene left above it (the scene
  // stays the largest thing on the screen).
  const float base = base_height(state);
  // Lanes side by side need the scene's height more (each view is half of it or less): the strip keeps its base
  // height then, and a Timer taller than that scrolls.
  if (state.lane_view == LaneView::Split && state.lane_count() > 1) return base;
  const float most = std::max(base, std::floor(0.5f * (window - timeline_height(state))) - 1.0f);
  return std::min(std::max(base, std::ceil(measure_lines_height(state, width))), most);
}

void draw_measure_panel(SandboxState& state) {
  const PanelLayout layout = panel_layout(state);
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  const float height = layout.bottom;
  const ImVec2 pos(viewport->Pos.x + layout.left, viewport->Pos.y + viewport->Size.y - height);  // under the timeline
  ImGui::SetNextWindowPos(pos);
  ImGui::SetNextWindowSize(ImVec2(std::max(viewport->Size.x - layout.left - layout.right, 1.0f), height));
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoTitleBar |
                                 ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse;
  if (!ImGui::Begin("Measure", nullptr, flags)) {
    ImGui::End();
    return;
  }
  const ImVec2 wpos = ImGui::GetWindowPos(), wsize = ImGui::GetWindowSize();
  state.widget_rects["measure panel"] = {wpos.x, wpos.y, wpos.x + wsize.x, wpos.y + wsize.y};
  for (auto it = state.widget_rects.begin(); it != state.widget_rects.end();)  // widgets come and go
    it = it->first.starts_with("measure: ") ? state.widget_rects.erase(it) : std::next(it);
  // Four columns, each at least ~200 units wide (the table ~510, its natural width): a narrower strip has tabs.
  // A scene with obstacles has a fifth tool, the scale: side by side only when a fifth column fits too.
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const bool scale = !state.world().model().contacts().obstacles.empty();
  if (side_by_side(state, avail.x)) {
    // Wide enough (1920x1080 and up at scale 1): the four tools side by side.
    if (ImGui::BeginTable("measure", scale ? 5 : 4, ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingStretchProp,
                          avail)) {
      ImGui::TableSetupColumn("timer", ImGuiTableColumnFlags_WidthStretch, 1.0f);
      ImGui::TableSetupColumn("protractor", ImGuiTableColumnFlags_WidthStretch, 1.1f);
      ImGui::TableSetupColumn("energy", ImGuiTableColumnFlags_WidthStretch, 1.0f);
      ImGui::TableSetupColumn("table", ImGuiTableColumnFlags_WidthStretch, 2.5f);
      if (scale) ImGui::TableSetupColumn("scale", ImGuiTableColumnFlags_WidthStretch, 1.2f);
      ImGui::TableNextRow(0, avail.y);
      ImGui::TableSetColumnIndex(0);
      timer_column(state);
      ImGui::TableSetColumnIndex(1);
      protractor_column(state);
      ImGui::TableSetColumnIndex(2);
      energy_column(state);
      ImGui::TableSetColumnIndex(3);
      measure_table_tool(state);
      if (scale) {
        ImGui::TableSetColumnIndex(4);
        measure_scale_tool(state);
      }
      ImGui::EndTable();
    }
  } else {
    // Narrow (a small window, or a projector's scale of 2 or 3): one tool at a time, each the strip's whole width,
    // scrolling when it is taller than the strip, chosen by a row of buttons that wraps rather than cut a name.
    struct Tab {
      const char* name;
      void (*draw)(SandboxState&);
    };
    static constexpr Tab kTabs[] = {{"Timer", timer_tab}, {"Protractor", protractor_column}, {"Energy", energy_column},
                                    {"Table", measure_table_tool}, {"Scale", measure_scale_tool}};
    static_assert(std::string_view(kTabs[kScaleTool].name) == "Scale");
    static_assert(std::size(kTabs) == std::size(kTabNames));
    const int tabs = static_cast<int>(std::size(kTabs)) - (scale ? 0 : 1);  // the scale only with obstacles
    MeasureState& m = state.measure;
    m.tool = std::clamp(m.tool, 0, tabs - 1);
    for (int k = 0; k < tabs; ++k) {
      if (k > 0) (void)same_line_if_room(button_width(kTabs[k].name));
      const bool chosen = m.tool == k;
      if (chosen) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
      if (ImGui::Button(kTabs[k].name)) m.tool = k;
      if (chosen) ImGui::PopStyleColor();
      remember(state, std::string("tab ") + kTabs[k].name);
    }
    if (m.tool == 0) {  // the Timer's Restart, at the right end of the row (its heading would be the tab's name)
      const float restart_w = button_width("Restart");
      if (same_line_if_room(restart_w))
        ImGui::SetCursorPosX(std::max(ImGui::GetCursorPosX(), ImGui::GetContentRegionMax().x - restart_w));
      restart_button(state, false);
    }
    // No frame and so no padding around the tool: its lines get the strip's height (measure_lines_height).
    g_tool_width = ImGui::GetContentRegionAvail().x;
    if (ImGui::BeginChild(kTabs[m.tool].name, ImVec2(0.0f, 0.0f), false)) kTabs[m.tool].draw(state);
    ImGui::EndChild();
  }
  ImGui::End();
}

void add_measure_gizmos(const SandboxState& state, std::span<const double> radii, DrawList& list) {
  const MeasureState& m = state.measure;
  if (!m.shown || state.view.presentation || !state.view.panels) return;
  const Colours c = colours(state.appearance.theme);
  const ImVec4 kTimerColour = c.timer, kProtractorColour = c.protractor;
  const World& world = state.world();
  const float scale = static_cast<float>(state.ui_scale * state.pixel_ratio);
  auto add = [&](Vec3 a, Vec3 b, float width, const ImVec4& colour, float alpha = 1.0f) {
    list.over.push_back({glm::vec3(a), width * scale, glm::vec3(b), 0.0f,
                         glm::vec4(colour.x, colour.y, colour.z, colour.w * alpha)});
  };
  const glm::dvec3 view = state.camera.forward();
  // The timed particle: a pink ring.
  if (m.particle >= 0 && static_cast<std::size_t>(m.particle) < world.particle_count()) {
    const Vec3 centre = world.state().position[static_cast<std::size_t>(m.particle)];
    const double r = 1.6 * radii[static_cast<std::size_t>(m.particle)];
    add_ring(list.over, centre, r, view, glm::vec4(kTimerColour.x, kTimerColour.y, kTimerColour.z, kTimerColour.w),
             2.5f * scale, 28);
  }
  // The protractor on the selected rod: the vertical through its upper end (dashed), an arc from it to the rod.
  const auto& ends = m.ends;
  if (!ends || static_cast<std::size_t>(std::max(ends->first, ends->second)) >= world.particle_count()) return;
  const Vec3 a = world.state().position[static_cast<std::size_t>(ends->first)];
  const Vec3 b = world.state().position[static_cast<std::size_t>(ends->second)];
  const double length = glm::length(b - a);
  if (!(length > 0.0)) return;
  const Vec3 g = world.settings().gravity;
  const Vec3 down = glm::length(g) > 0.0 ? glm::normalize(g) : Vec3(0.0, -1.0, 0.0);
  constexpr int kDashes = 10;
  for (int k = 0; k < kDashes; ++k) {
    const double t0 = length * 1.1 * k / kDashes, t1 = t0 + 0.55 * length * 1.1 / kDashes;
    add(a + t0 * down, a + t1 * down, 1.5f, kProtractorColour, 0.8f);
  }
  const Vec3 dir = (b - a) / length;
  const Vec3 side = dir - glm::dot(dir, down) * down;
  const double angle = std::atan2(glm::length(side), glm::dot(dir, down));
  if (glm::length(side) > 1e-9) {
    const Vec3 e = glm::normalize(side);
    const double radius = 0.45 * length;
    const int pieces = std::max(2, static_cast<int>(std::ceil(angle / (std::numbers::pi / 36.0))));
    for (int k = 0; k < pieces; ++k) {
      const double f0 = angle * k / pieces, f1 = angle * (k + 1) / pieces;
      add(a + radius * (std::cos(f0) * down + std::sin(f0) * e), a + radius * (std::cos(f1) * down + std::sin(f1) * e),
          2.5f, kProtractorColour);
    }
    // Ticks every 10° along the arc, longer every 30°.
    for (int deg = 10; deg < angle * kDeg; deg += 10) {
      const double f = deg / kDeg, tick = deg % 30 == 0 ? 0.07 : 0.035;
      const Vec3 ray = std::cos(f) * down + std::sin(f) * e;
      add(a + radius * ray, a + (radius + tick * length) * ray, 1.5f, kProtractorColour, 0.8f);
    }
  }
  // A thin line along the rod between the two spheres: which rod is read.
  const double ra = radii[static_cast<std::size_t>(ends->first)], rb = radii[static_cast<std::size_t>(ends->second)];
  if (length > ra + rb) add(a + dir * ra, b - dir * rb, 1.5f, kProtractorColour);
}

}  // namespace lagrange::app
