// The texts over the scene (issue 21): the top line with the solver, the scene, the time and the state of the run,
// the messages under it, the legend, and each lane's name in its own view. Each sits in a corner of its view where
// it covers nothing the scene can reach (overlay_layout.h); the camera frames the reach into what they leave free.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <span>

#include "lagrange/lanes.h"
#include "ui/layout_check.h"
#include "ui/overlay_layout.h"
#include "ui/text_box.h"
#include "ui/ui.h"
#include "view/scene_draw.h"
#include "window/theme.h"

namespace lagrange::app {
namespace {

ImU32 u32(const ImVec4& c) { return ImGui::ColorConvertFloat4ToU32(c); }
ImU32 u32(const glm::vec4& c) { return ImGui::ColorConvertFloat4ToU32(ImVec4(c.r, c.g, c.b, 1.0f)); }
ImU32 u32(const Colour& c, bool light) {
  const float k = light ? 0.7f : 1.0f;  // lane colours darkened to read on white
  return ImGui::ColorConvertFloat4ToU32(ImVec4(c.r * k, c.g * k, c.b * k, 1.0f));
}

float scale_of(const SandboxState& state) { return static_cast<float>(state.ui_scale); }
float pad_of(const SandboxState& state) { return 6.0f * scale_of(state); }
// The overlays' text, as a fraction of the panels' font: above 2.4× the scene needs the room more than the top line
// needs the size (36 px at 3× still reads from the back row).
float font_of(const SandboxState& state) { return state.ui_scale > 2.4 ? static_cast<float>(2.4 / state.ui_scale) : 1.0f; }
float margin_of(const SandboxState& state) { return 8.0f * scale_of(state); }

// A view's rectangle in window units.
TextBox legend(const SandboxState& state, float max_width);

// Side by side, the legend may be one band across the bottom of the whole scene, under every view (two lines where one
// view's width takes five, and every lane is drawn at that view's smaller scale): where the framing chose it
// (SandboxState::legend_place). Its box in window units; empty when it is not there.
Box legend_band(const SandboxState& state, float* text_width = nullptr) {
  if (!state.view.legend || state.view.presentation || state.editor.active || lane_viewports(state).size() < 2 ||
      state.legend_place != SandboxState::LegendPlace::Band)
    return {};
  const std::array<int, 4> s = scene_viewport(state);
  const float r = static_cast<float>(std::max(state.pixel_ratio, 1e-6));
  const Box scene{s[0] / r, s[1] / r, (s[0] + s[2]) / r, (s[1] + s[3]) / r};
  const float width = std::max(scene.width() - 2.0f * margin_of(state) - 2.0f * pad_of(state), 40.0f);
  if (text_width) *text_width = width;
  const TextBox box = legend(state, width);
  if (box.empty()) return {};
  const ImVec2 size = box.size();
  return overlay_box(scene, Anchor::BottomLeft, size.x, size.y, margin_of(state));
}

Box view_box(const SandboxState& state, std::size_t view) {
  const auto views = lane_viewports(state);
  const auto& v = views[std::min(view, views.size() - 1)];
  const float r = static_cast<float>(std::max(state.pixel_ratio, 1e-6));
  Box box{v[0] / r, v[1] / r, (v[0] + v[2]) / r, (v[1] + v[3]) / r};
  // The views side by side end above the legend's band: their overlays and framing keep clear of it.
  if (const Box band = legend_band(state); !band.empty() && box.y1 > band.y0)
    box.y1 = std::max(box.y0 + 1.0f, band.y0);
  // The step view's panel takes the right of the scene: the overlays and the framing of a view it lies over keep to
  // its left (a view it would leave less than a quarter of is covered, as it is).
  if (state.step_view.active && !state.editor.active) {
    const float panel = step_view_panel_rect(state)[0];
    if (panel < box.x1 && panel - box.x0 >= 0.25f * (box.x1 - box.x0)) box.x1 = panel;
  }
  return box;
}

std::string lane_name(const SandboxState& state, std::size_t k) {
  return std::to_string(k + 1) + " \xe2\x97\x8f " + state.lane_specs()[k].display_name();  // ●
}

// The top line: the solver in its colour, the scene, the time, and how the run goes; in presentation only the
// solver, the time and whether it is paused. Overlaid lanes add a line each, in their colours.
// compact: the solver, the time and the state of the run only (a narrow view: the scene's name and the hints go).
// reserve: as if paused and slower than real time (framing keeps room for what comes and goes).
TextBox hud(const SandboxState& state, float max_width, bool messages, bool compact, bool reserve) {
  const Palette& colours = palette(state.appearance.theme);
  const bool light = state.appearance.theme == Theme::Light;
  TextBox box(max_width, pad_of(state), font_of(state));
  const ImU32 plain = ImGui::GetColorU32(ImGuiCol_Text), faint = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  const std::vector<LaneSpec> specs = state.lane_specs();
  const bool split = state.lane_view == LaneView::Split && specs.size() > 1;
  if (!split && specs.size() > 1) {  // overlaid lanes: every lane's name in its colour, lane 1 first
    for (std::size_t k = 0; k < specs.size(); ++k)
      box.piece(u32(lane_colour(specs, static_cast<int>(k)), light), lane_name(state, k), false);
    box.new_line();
  } else {
    const Colour solver = state.world().solver_info().colour;
    box.piece(u32(solver, light), split ? lane_name(state, 0) : "\xe2\x97\x8f " + specs[0].display_name());
  }
  if (!state.view.presentation && !compact) box.piece(plain, state.scene.name);
  char text[64];
  std::snprintf(text, sizeof text, "t = %.2f s", state.world().time());
  box.piece(plain, text);
  if (state.time_scale != 1.0) {
    std::snprintf(text, sizeof text, "x%.3g", state.time_scale);
    box.piece(u32(colours.accent), text, false);
  }
  if (state.paused || reserve) box.piece(u32(colours.paused), "PAUSED", false);
  if (state.timing.slowed || reserve) box.piece(u32(colours.slow), compact ? "slow" : "slower than real time", false);
  if (!compact && state.view.presentation) box.piece(faint, "(F5: panels)", false);
  else if (!compact && state.view.panels && !state.view.left_open && !state.view.right_open)
    box.piece(faint, "(Tab: panels, H: help)", false);
  if (!split)
    for (std::size_t k = 1; k < specs.size(); ++k)
      if (const SimLane& lane = state.sim.lane(k); !lane.running())
        box.words(u32(colours.error_text), std::to_string(k + 1) + ": " + lane.stopped);
  (void)messages;
  return box;
}

// The roll-back's alert (until the user acts) and the last message (a few seconds): a box of their own.
TextBox message_box(const SandboxState& state, float max_width) {
  const Palette& colours = palette(state.appearance.theme);
  TextBox box(max_width, pad_of(state), font_of(state));
  if (!state.alert.empty()) box.words(u32(colours.error_text), state.alert);
  if (state.toast_seconds > 0.0 && !state.toast.empty())
    box.words(u32(state.toast_is_error ? colours.error_text : colours.ok_text), state.toast);
  return box;
}

// The recording's badge: a red dot and the video's length so far ("● REC 2.0 s"), white on dark in either theme.
TextBox recording_badge(const SandboxState& state) {
  TextBox box(1e6f, pad_of(state), font_of(state));
  char text[48];
  std::snprintf(text, sizeof text, "REC %.1f s", state.recording.seconds);
  box.piece(IM_COL32(230, 30, 30, 255), "\xe2\x97\x8f", false);
  box.piece(IM_COL32(255, 255, 255, 255), text, false);
  return box;
}

// The top line as full as fits on `most_lines` lines (with every state of the run shown), else the compact one. framing:
// the box the scene is framed beside, with room for the states that come and go.
TextBox hud(const SandboxState& state, float max_width, bool messages, bool framing, int most_lines = 2) {
  const TextBox widest = hud(state, max_width, false, false, true);
  const float lines = (widest.size().y - 2.0f * pad_of(state)) / (font_of(state) * text_size("Ag").y);
  const bool compact = lines > most_lines + 0.5f;
  return hud(state, max_width, messages, compact, framing);
}

// Lane k's name in its own view (side by side), and why it stopped.
TextBox lane_label(const SandboxState& state, std::size_t k, float max_width) {
  const bool light = state.appearance.theme == Theme::Light;
  TextBox box(max_width, pad_of(state), font_of(state));
  box.piece(u32(lane_colour(state.lane_specs(), static_cast<int>(k)), light), lane_name(state, k), false);
  if (const SimLane& lane = state.sim.lane(k); !lane.running())
    box.words(u32(palette(state.appearance.theme).error_text), lane.stopped);
  return box;
}

bool has_pin(const World& world) {
  for (const auto& c : world.constraints())
    if (!c->tool() && has_role(*c, KindRole::Pin)) return true;
  return false;
}
bool has_fixed(const World& world) {
  for (std::size_t i = 0; i < world.particle_count(); ++i)
    if (world.model().fixed(i)) return true;
  return false;
}

// Whether the scene has rods or cables to colour.
bool has_rods(const World& world) {
  for (const auto& c : world.constraints())
    if (!c->tool() && (is_rod(*c) || c->drawing().shape == Shape::Cable)) return true;
  return false;
}

// What the colours mean: the rod colouring's scale (with rods or cables to colour), pins, fixed particles, arrows.
// Empty for a scene with none of them (a gas, a pile): no legend then.
TextBox legend(const SandboxState& state, float max_width) {
  const Theme theme = state.appearance.theme;
  const Palette& colours = palette(theme);
  const ImU32 plain = ImGui::GetColorU32(ImGuiCol_Text), faint = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  // Scaled up for a projector, the legend is written a fifth smaller than the top line: it is read once, the scene
  // all the time.
  TextBox box(max_width, pad_of(state), font_of(state) * (state.ui_scale >= 1.5 ? 0.8f : 1.0f));
  // One flowing line that wraps between its pieces where the view is narrow: a band across the scene, not a block.
  const float bar_w = std::min(130.0f * scale_of(state), max_width), bar_h = 9.0f * scale_of(state);
  char text[96];
  if (has_rods(state.world())) switch (state.view.rod_colouring) {
    case RodColouring::Tension:
      box.piece(plain, "Rod force:", false);
      box.piece(u32(colours.compression), "compression", false);
      box.bar(bar_w, bar_h, [&](float u) {
        return u32(tension_colour((u * 2.0 - 1.0) * state.force_scale * -1.0, state.force_scale, theme));
      });
      box.piece(u32(colours.tension), "tension", false);
      std::snprintf(text, sizeof text, "(|\xce\xbb| up to %.3g N)", state.force_scale);
      box.piece(faint, text, false);
      break;
    case RodColouring::LengthError:
      box.piece(plain, "Rod length error |C| / L:", false);
      box.piece(faint, "1e-12", false);
      box.bar(bar_w, bar_h, [&](float u) { return u32(error_colour(std::pow(10.0, -12.0 + 10.0 * u), theme)); });
      box.piece(faint, "1e-2", false);
      break;
    case RodColouring::Plain: box.piece(faint, "Rods: plain", false); break;
  }
  if (has_pin(state.world())) box.piece(u32(colours.pin_label), "\xe2\x97\x8e pin", false);  // ◎
  if (has_fixed(state.world())) box.piece(u32(colours.fixed_label), "striped ball: fixed", false);
  if (state.view.gravity_arrows) box.piece(u32(colours.gravity), "\xe2\x86\x92 gravity m g", false);
  if (state.view.constraint_arrows)
    box.piece(u32(colours.constraint_force), "\xe2\x86\x92 constraint force J\xe1\xb5\x80\xce\xbb", false);
  if (state.view.contact_arrows && state.world().model().contacts().any())
    box.piece(u32(colours.contact_force), "\xe2\x86\x92 contact force", false);
  return box;
}

struct Item {
  std::string name;
  TextBox box;
  Overlay spec;
};

// Edit mode's banner: what mode this is, the tool, how to leave; the draft's problem and the last message.
TextBox edit_banner(const SandboxState& state, float max_width) {
  const Palette& colours = palette(state.appearance.theme);
  const ImU32 plain = ImGui::GetColorU32(ImGuiCol_Text);
  TextBox box(max_width, pad_of(state), font_of(state));
  const char* tool = "";
  for (const EditTools& t : kEditTools)
    if (t.tool == state.editor.tool) tool = t.name;
  box.piece(u32(colours.editing), "EDIT MODE", false);
  box.piece(plain, std::string("tool: ") + tool);
  box.piece(plain, "E or Space plays");
  box.piece(plain, "Ctrl+Z undoes");
  if (!state.editor.problem.empty()) box.words(u32(colours.error_text), state.editor.problem);
  if (state.toast_seconds > 0.0 && !state.toast.empty())
    box.words(u32(state.toast_is_error ? colours.error_text : colours.ok_text), state.toast);
  return box;
}

// The overlays of view `view`, in the order they are placed: lane 1's view has the top line (and the messages), at
// most `hud_width` of the view wide, every later view side by side its lane's name; the legend in the last view, at
// most `legend_width` of it wide (narrower, either takes more lines: framing tries a few widths), unless side by side
// the framing placed it in a band of its own or left it out (SandboxState::legend_place).
std::vector<Item> overlays(const SandboxState& state, std::size_t view, bool messages, float legend_width = 1.0f,
                           float hud_width = 1.0f) {
  std::vector<Item> items;
  const Box v = view_box(state, view);
  const float width = std::max(v.width() - 2.0f * margin_of(state) - 2.0f * pad_of(state), 40.0f);
  const std::size_t views = lane_viewports(state).size();
  const auto add = [&](std::string name, TextBox box, std::vector<Anchor> anchors) {
    const ImVec2 size = box.size();
    items.push_back({std::move(name), std::move(box), Overlay{size.x, size.y, std::move(anchors)}});
  };
  const std::vector<Anchor> corners = {Anchor::TopLeft, Anchor::TopRight, Anchor::BottomLeft, Anchor::BottomRight};
  // Messages wrap at 40 em: a long one is several short lines, not one across the scene.
  const float message_width = messages ? std::min(width, 40.0f * text_size("m").x) : width;
  if (state.editor.active) {
    add("edit banner", edit_banner(state, message_width),
        {Anchor::TopCentre, Anchor::TopLeft, Anchor::TopRight, Anchor::BottomCentre});
    return items;
  }
  // Narrowed, the top line may take a third line before it drops the scene's name.
  if (view == 0) {
    const float hud_max = std::max(width * hud_width, 60.0f * scale_of(state));
    add("hud", hud(state, hud_max, messages, !messages, hud_width < 1.0f ? 3 : 2), corners);
  } else {
    add("lane label " + std::to_string(view + 1), lane_label(state, view, width), corners);
  }
  // Messages come and go: placed where they cover least, never framed for.
  if (view == 0 && messages && (!state.alert.empty() || (state.toast_seconds > 0.0 && !state.toast.empty())))
    add("message", message_box(state, message_width),
        {Anchor::BottomCentre, Anchor::TopCentre, Anchor::TopRight, Anchor::BottomRight, Anchor::BottomLeft,
         Anchor::TopLeft});
  if (state.view.legend && !state.view.presentation && view + 1 == views && legend_width > 0.0f &&
      (views == 1 || state.legend_place == SandboxState::LegendPlace::View))
    if (TextBox box = legend(state, std::max(width * legend_width, 60.0f * scale_of(state))); !box.empty())
      add("legend", std::move(box), {Anchor::BottomLeft, Anchor::BottomRight, Anchor::TopRight, Anchor::TopLeft});
  // The recording's badge, last (the others keep their corners): in lane 1's view where it covers least, never framed
  // for. Alone in the scene's top right it lay on a pendulum's bob and, side by side, on lane 2's name.
  if (view == 0 && messages && state.recording.active)
    add("recording indicator", recording_badge(state),
        {Anchor::TopRight, Anchor::BottomRight, Anchor::TopLeft, Anchor::BottomLeft, Anchor::TopCentre,
         Anchor::BottomCentre});
  return items;
}

// The reach of lane view `view`'s world on the screen (window units), widened by a bead.
Box reach_on_screen(const SandboxState& state, std::size_t view) {
  glm::dvec3 lo, hi;
  view_reach(state, view, lo, hi);
  const double bead = state.bead_radius;
  lo -= glm::dvec3(bead);
  hi += glm::dvec3(bead);
  const Camera& camera = state.view_camera(view);
  const float r = static_cast<float>(std::max(state.pixel_ratio, 1e-6));
  Box box{1e30f, 1e30f, -1e30f, -1e30f};
  for (int corner = 0; corner < 8; ++corner) {
    const glm::dvec3 p((corner & 1) ? hi.x : lo.x, (corner & 2) ? hi.y : lo.y, (corner & 4) ? hi.z : lo.z);
    const auto at = camera.project(p);
    if (!at) continue;
    box.x0 = std::min(box.x0, static_cast<float>(at->x) / r);
    box.y0 = std::min(box.y0, static_cast<float>(at->y) / r);
    box.x1 = std::max(box.x1, static_cast<float>(at->x) / r);
    box.y1 = std::max(box.y1, static_cast<float>(at->y) / r);
  }
  return box;
}

}  // namespace

std::array<int, 4> framing_rect(SandboxState& state, std::size_t view, double aspect) {
  const auto views = lane_viewports(state);
  const auto& v = views[std::min(view, views.size() - 1)];
  // The legend as wide as the view, or half or a third of it on more lines: whichever leaves the scene most room.
  // The top line as wide as the view, or narrower on up to three lines when that draws the scene a tenth larger: in a
  // short view under a tall Measure strip the scene goes beside the top line, not under it.
  Framing best;
  best.scale = -1.0f;
  float chosen = 1.0f, chosen_hud = 1.0f;
  // Only lane 1's view has the top line.
  constexpr float kHudWidths[] = {1.0f, 0.7f, 0.55f};
  for (const float hud_width : std::span(kHudWidths, view == 0 ? 3 : 1)) {
    Framing best_here;
    best_here.scale = -1.0f;
    float chosen_here = 1.0f;
    // 0: no legend, when even the narrowest leaves the scene less than half the room it has without one.
    for (const float legend_width : {1.0f, 0.5f, 0.34f, 0.0f}) {
      std::vector<Overlay> specs;
      for (const Item& item : overlays(state, view, false, legend_width, hud_width)) specs.push_back(item.spec);
      const Framing framing = frame_beside(view_box(state, view), static_cast<float>(aspect), specs, margin_of(state),
                                           4.0f * scale_of(state), state.view_camera(view).perspective);
      const bool better = legend_width > 0.0f ? framing.scale > best_here.scale + 0.5f
                                              : framing.scale > 2.0f * best_here.scale;
      if (better) {
        best_here = framing;
        chosen_here = legend_width;
      }
    }
    if (hud_width == 1.0f || best_here.scale > 1.1f * best.scale) {
      best = best_here;
      chosen = chosen_here;
      chosen_hud = hud_width;
    }
  }
  if (view + 1 == views.size()) state.legend_width = chosen;  // the legend is in the last view
  if (view == 0) state.hud_width = chosen_hud;
  if (best.free.empty()) return v;
  const float r = static_cast<float>(std::max(state.pixel_ratio, 1e-6));
  const int x0 = static_cast<int>(std::lround(best.free.x0 * r)), y0 = static_cast<int>(std::lround(best.free.y0 * r));
  const int x1 = static_cast<int>(std::lround(best.free.x1 * r)), y1 = static_cast<int>(std::lround(best.free.y1 * r));
  return {x0, y0, std::max(x1 - x0, 1), std::max(y1 - y0, 1)};
}

void draw_scene_overlays(SandboxState& state) {
  for (auto it = state.widget_rects.begin(); it != state.widget_rects.end();)  // overlays come and go
    it = over_scene(it->first) || it->first == "alert" ? state.widget_rects.erase(it) : std::next(it);
  ImDrawList* draw = ImGui::GetBackgroundDrawList();
  ImVec4 panel = ImGui::GetStyleColorVec4(ImGuiCol_WindowBg);
  panel.w = 0.85f;  // on the panels' background, a little see-through
  const ImU32 backdrop = ImGui::GetColorU32(panel);
  const std::size_t views = lane_viewports(state).size();
  for (std::size_t view = 0; view < views; ++view) {
    std::vector<Item> items = overlays(state, view, true, state.legend_width, state.hud_width);
    std::vector<Overlay> specs;
    std::vector<Anchor> before;
    for (const Item& item : items) {
      specs.push_back(item.spec);
      const auto last = state.overlay_anchors.find(item.name);
      before.push_back(last != state.overlay_anchors.end() ? static_cast<Anchor>(last->second) : item.spec.anchors[0]);
    }
    const Box v = view_box(state, view);
    std::vector<Box> boxes;
    const std::vector<Anchor> anchors =
        place_overlays(v, reach_on_screen(state, view), specs, before, margin_of(state), &boxes);
    for (std::size_t k = 0; k < items.size(); ++k) {
      const Box& b = boxes[k];
      // The badge on the foreground layer, which the video leaves out: the window shows it, the recording does not.
      if (items[k].name == "recording indicator")
        items[k].box.draw(ImGui::GetForegroundDrawList(), ImVec2(b.x0, b.y0), IM_COL32(0, 0, 0, 170),
                          3.0f * scale_of(state));
      else
        items[k].box.draw(draw, ImVec2(b.x0, b.y0), backdrop, 3.0f * scale_of(state));
      state.widget_rects[items[k].name] = {b.x0, b.y0, b.x1, b.y1};
      state.overlay_anchors[items[k].name] = static_cast<int>(anchors[k]);
      if (items[k].name == "message" && !state.alert.empty()) state.widget_rects["alert"] = {b.x0, b.y0, b.x1, b.y1};
    }
  }
  float band_text = 0.0f;
  if (const Box band = legend_band(state, &band_text); !band.empty()) {
    legend(state, band_text).draw(draw, ImVec2(band.x0, band.y0), backdrop, 3.0f * scale_of(state));
    state.widget_rects["legend"] = {band.x0, band.y0, band.x1, band.y1};
  }
}

}  // namespace lagrange::app
