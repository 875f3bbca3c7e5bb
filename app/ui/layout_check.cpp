#include "ui/layout_check.h"

#include <imgui.h>
#include <imgui_internal.h>  // the windows of the frame: where each is, whether it scrolls

#include <algorithm>
#include <cmath>
#include <array>
#include <map>
#include <tuple>

#include "ui/ui.h"
#include "view/scene_draw.h"

namespace lagrange::app {
namespace {

void append_utf8(std::string& out, unsigned c) {
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    out += static_cast<char>(0xE0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  }
}

struct GlyphAt {
  DrawnGlyph glyph;
  float line_top = 0.0f;  // the text's line: the quad's top less the glyph's offset in its line
  float pen = 0.0f, advance = 0.0f;
};

std::vector<GlyphAt> glyphs_at() {
  std::vector<GlyphAt> out;
  const ImDrawData* data = ImGui::GetDrawData();
  ImFontAtlas* atlas = ImGui::GetIO().Fonts;
  if (!data || !data->Valid || atlas->Fonts.empty()) return out;
  const ImFont* font = atlas->Fonts[0];
  // The atlas rectangle of every visible glyph, keyed by its top-left texel.
  std::map<std::pair<int, int>, const ImFontGlyph*> by_corner;
  const float tw = static_cast<float>(atlas->TexWidth), th = static_cast<float>(atlas->TexHeight);
  for (const ImFontGlyph& g : font->Glyphs)
    if (g.Visible) by_corner[{static_cast<int>(std::lround(g.U0 * tw)), static_cast<int>(std::lround(g.V0 * th))}] = &g;
  const auto containing = [&](float u0, float v0, float u1, float v1) -> const ImFontGlyph* {
    const auto exact = by_corner.find({static_cast<int>(std::lround(u0 * tw)), static_cast<int>(std::lround(v0 * th))});
    if (exact != by_corner.end()) return exact->second;
    const float eps = 0.25f / std::max(tw, th);
    for (const ImFontGlyph& g : font->Glyphs)  // a trimmed glyph: its quad's texels lie inside its glyph's
      if (g.Visible && u0 >= g.U0 - eps && v0 >= g.V0 - eps && u1 <= g.U1 + eps && v1 <= g.V1 + eps) return &g;
    return nullptr;
  };
  for (int l = 0; l < data->CmdListsCount; ++l) {
    const ImDrawList* list = data->CmdLists[l];
    const std::string owner = list->_OwnerName ? list->_OwnerName : "";
    for (const ImDrawCmd& cmd : list->CmdBuffer) {
      if (cmd.UserCallback || cmd.TextureId != atlas->TexID) continue;
      const ImDrawIdx* idx = list->IdxBuffer.Data + cmd.IdxOffset;
      const ImDrawVert* vtx = list->VtxBuffer.Data + cmd.VtxOffset;
      for (unsigned i = 0; i + 6 <= cmd.ElemCount;) {
        const unsigned a = idx[i];
        if (!(idx[i + 1] == a + 1 && idx[i + 2] == a + 2 && idx[i + 3] == a && idx[i + 4] == a + 2 &&
              idx[i + 5] == a + 3)) {
          i += 3;  // a triangle of something else
          continue;
        }
        i += 6;
        const ImDrawVert* q = vtx + a;
        float u0 = q[0].uv.x, v0 = q[0].uv.y, u1 = u0, v1 = v0;
        float x0 = q[0].pos.x, y0 = q[0].pos.y, x1 = x0, y1 = y0;
        for (int k = 1; k < 4; ++k) {
          u0 = std::min(u0, q[k].uv.x), v0 = std::min(v0, q[k].uv.y), u1 = std::max(u1, q[k].uv.x);
          v1 = std::max(v1, q[k].uv.y);
          x0 = std::min(x0, q[k].pos.x), y0 = std::min(y0, q[k].pos.y), x1 = std::max(x1, q[k].pos.x);
          y1 = std::max(y1, q[k].pos.y);
        }
        if (u1 - u0 <= 0.0f || v1 - v0 <= 0.0f) continue;  // the white texel: a filled shape
        const ImFontGlyph* g = containing(u0, v0, u1, v1);
        if (!g) continue;
        GlyphAt at;
        DrawnGlyph& d = at.glyph;
        d.codepoint = g->Codepoint;
        d.x0 = x0, d.y0 = y0, d.x1 = x1, d.y1 = y1;
        d.clip_x0 = cmd.ClipRect.x, d.clip_y0 = cmd.ClipRect.y, d.clip_x1 = cmd.ClipRect.z, d.clip_y1 = cmd.ClipRect.w;
        const float texel = 0.5f / std::max(tw, th);
        d.trimmed_across = u0 > g->U0 + texel || u1 < g->U1 - texel;
        d.trimmed_down = v0 > g->V0 + texel || v1 < g->V1 - texel;
        d.trimmed = d.trimmed_across || d.trimmed_down;
        d.turned = std::abs(q[0].pos.y - q[1].pos.y) > 0.01f;  // the quad's top edge is not across
        d.window = owner;
        // Where the pen was, from the part of the glyph the quad holds (all of it, or what the clipping left).
        const float fx0 = (u0 - g->U0) / std::max(g->U1 - g->U0, 1e-9f), fx1 = (u1 - g->U0) / std::max(g->U1 - g->U0, 1e-9f);
        const float fy0 = (v0 - g->V0) / std::max(g->V1 - g->V0, 1e-9f), fy1 = (v1 - g->V0) / std::max(g->V1 - g->V0, 1e-9f);
        const float sx = (x1 - x0) / std::max((fx1 - fx0) * (g->X1 - g->X0), 1e-6f);
        const float sy = (y1 - y0) / std::max((fy1 - fy0) * (g->Y1 - g->Y0), 1e-6f);
        at.line_top = y0 - (g->Y0 + fy0 * (g->Y1 - g->Y0)) * sy;
        at.pen = x0 - (g->X0 + fx0 * (g->X1 - g->X0)) * sx;
        at.advance = g->AdvanceX * sx;
        out.push_back(std::move(at));
      }
    }
  }
  return out;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

std::vector<DrawnGlyph> drawn_glyphs() {
  std::vector<DrawnGlyph> out;
  for (GlyphAt& g : glyphs_at()) out.push_back(std::move(g.glyph));
  return out;
}

std::vector<DrawnLine> drawn_lines(std::span<const DrawnGlyph>) {
  std::vector<GlyphAt> glyphs = glyphs_at();
  const float em = ImGui::GetIO().Fonts->Fonts.empty() ? 15.0f : ImGui::GetIO().Fonts->Fonts[0]->FontSize;
  std::erase_if(glyphs, [](const GlyphAt& g) { return g.glyph.turned; });
  std::stable_sort(glyphs.begin(), glyphs.end(), [](const GlyphAt& a, const GlyphAt& b) {
    const auto key = [](const GlyphAt& g) {
      return std::tuple(g.glyph.window, g.glyph.clip_x0, g.glyph.clip_y0, g.glyph.clip_x1, g.glyph.clip_y1,
                        std::lround(g.line_top * 2.0f));
    };
    const auto ka = key(a), kb = key(b);
    return ka != kb ? ka < kb : a.pen < b.pen;
  });
  std::vector<DrawnLine> lines;
  const GlyphAt* last = nullptr;
  for (const GlyphAt& g : glyphs) {
    const bool same_line = last && last->glyph.window == g.glyph.window && last->glyph.clip_x0 == g.glyph.clip_x0 &&
                           last->glyph.clip_y0 == g.glyph.clip_y0 && last->glyph.clip_x1 == g.glyph.clip_x1 &&
                           std::abs(last->line_top - g.line_top) < 0.75f;
    const float gap = last ? g.pen - (last->pen + last->advance) : 0.0f;
    if (!same_line || gap > 1.0f * em || gap < -0.5f * em) {
      DrawnLine line;
      line.x0 = g.glyph.x0, line.y0 = g.line_top, line.x1 = g.glyph.x1, line.y1 = g.glyph.y1;
      line.clip_x1 = g.glyph.clip_x1;
      line.window = g.glyph.window;
      lines.push_back(line);
    } else if (gap > 0.1f * em) {
      lines.back().text += ' ';
    }
    DrawnLine& line = lines.back();
    append_utf8(line.text, g.glyph.codepoint);
    line.x1 = std::max(line.x1, g.glyph.x1);
    line.y1 = std::max(line.y1, g.glyph.y1);
    last = &g;
  }
  return lines;
}

bool over_scene(const std::string& name) {
  return name == "hud" || name == "legend" || name == "message" || name.starts_with("lane label ") ||
         name == "edit banner" || name == "recording indicator" || name.starts_with("length label ");
}

std::vector<std::string> layout_problems(const SandboxState& state, std::span<const double> radii) {
  std::vector<std::string> problems;
  const ImGuiIO& io = ImGui::GetIO();
  const float width = io.DisplaySize.x, height = io.DisplaySize.y, tolerance = 0.5f;
  const std::vector<DrawnGlyph> glyphs = drawn_glyphs();
  const std::vector<DrawnLine> lines = drawn_lines(glyphs);
  const auto line_of = [&](const DrawnGlyph& g) -> std::string {
    for (const DrawnLine& line : lines)
      if (line.window == g.window && g.y1 > line.y0 && g.y0 < line.y1 && g.x0 >= line.x0 - 0.5f && g.x1 <= line.x1 + 0.5f)
        return line.text;
    std::string one;
    append_utf8(one, g.codepoint);
    return one;
  };
  // Text fields scroll their text (a long path shows its start): what they clip is not cut.
  std::vector<std::array<float, 4>> fields;
  for (const auto& [name, rect] : state.widget_rects)
    if (name.find("field") != std::string::npos || name.find("folder") != std::string::npos ||
        (name.starts_with("lane ") && name.ends_with(" settings")))
      fields.push_back(rect);
  const auto in_field = [&](const DrawnGlyph& g) {
    for (const auto& r : fields)
      if (g.x0 >= r[0] - 1.0f && g.x1 <= r[2] + 1.0f && g.y0 >= r[1] - 1.0f && g.y1 <= r[3] + 1.0f) return true;
    return false;
  };
  std::map<std::string, bool> reported;  // one report per line of text
  const auto report = [&](const std::string& what) {
    if (!reported[what]) problems.push_back(what);
    reported[what] = true;
  };
  for (const DrawnGlyph& g : glyphs) {
    const std::string where = "[" + (g.window.empty() ? std::string("over the scene") : g.window) + "] ";
    // What lies wholly outside its clip rectangle is not drawn (a panel scrolled, a plot's label below the window).
    if (g.x1 <= g.clip_x0 || g.x0 >= g.clip_x1 || g.y1 <= g.clip_y0 || g.y0 >= g.clip_y1) continue;
    // Its visible part (inside its clip) past the screen's edge: cut by the screen.
    const float vx0 = std::max(g.x0, g.clip_x0), vy0 = std::max(g.y0, g.clip_y0);
    const float vx1 = std::min(g.x1, g.clip_x1), vy1 = std::min(g.y1, g.clip_y1);
    if (vx0 < -tolerance || vy0 < -tolerance || vx1 > width + tolerance || vy1 > height + tolerance) {
      report("off screen: " + where + line_of(g));
      continue;
    }
    if (g.turned) continue;
    const ImGuiWindow* window = g.window.empty() ? nullptr : ImGui::FindWindowByName(g.window.c_str());
    const bool scrolls = window && window->ScrollMax.y > 0.0f;
    // A glyph's bitmap may stand a pixel or so outside its pen's box (a large font's T): not a cut.
    const float slack = std::max(1.5f, 0.1f * g.y1 - 0.1f * g.y0);
    const bool across = g.x0 < g.clip_x0 - slack || g.x1 > g.clip_x1 + slack;
    const bool down = g.y0 < g.clip_y0 - slack || g.y1 > g.clip_y1 + slack;
    // Trimmed across: a widget too narrow for its text. Trimmed or past the clip downward: scrolled out of sight in
    // a window that scrolls, cut in one that cannot.
    if ((across || g.trimmed_across || (!scrolls && (down || g.trimmed_down))) && !in_field(g))
      report("cut: " + where + line_of(g));
  }
  // A number broken: a line ends in a number's digits or point, and the next line starts (at the same place) with
  // digits that did not fit beside it.
  const float em = io.Fonts->Fonts.empty() ? 15.0f : io.Fonts->Fonts[0]->FontSize;
  for (const DrawnLine& a : lines) {
    if (a.text.empty()) continue;
    // Ends in a digit, or a digit and its decimal point ("2." of "2.368"; not a sentence's full stop).
    const char end = a.text.back();
    const bool number_end = is_digit(end) || (end == '.' && a.text.size() >= 2 && is_digit(a.text[a.text.size() - 2]));
    if (!number_end) continue;
    for (const DrawnLine& b : lines) {
      if (b.window != a.window || b.text.empty() || !is_digit(b.text.front())) continue;
      if (std::abs(b.x0 - a.x0) > 1.5f || b.y0 <= a.y0 + 0.5f * em || b.y0 > a.y0 + 1.8f * em) continue;
      const std::string first = b.text.substr(0, b.text.find(' '));
      const float needed = ImGui::GetIO().Fonts->Fonts[0]->CalcTextSizeA(em, FLT_MAX, 0.0f, first.c_str()).x;
      if (a.x1 + needed > a.clip_x1 - em) report("number broken: [" + a.window + "] " + a.text + " / " + b.text);
    }
  }
  // Widgets past their panel's edge: their glyphs beyond it are not drawn at all, so the glyph check above cannot see
  // them (remember_rect notes them).
  for (const std::string& name : state.widgets_past_edge)
    if (state.widget_rects.count(name)) report("cut: widget " + name + " past its panel's edge");
  // Windows (tooltips, popups, panels) inside the display.
  for (const ImGuiWindow* w : GImGui->Windows) {
    if (!w->Active || w->Hidden || (w->Flags & ImGuiWindowFlags_ChildWindow)) continue;
    if (w->Pos.x < -tolerance || w->Pos.y < -tolerance || w->Pos.x + w->Size.x > width + tolerance ||
        w->Pos.y + w->Size.y > height + tolerance)
      report(std::string("off screen: window ") + w->Name);
  }
  // The texts over the scene against each other.
  for (auto a = state.widget_rects.begin(); a != state.widget_rects.end(); ++a)
    for (auto b = std::next(a); b != state.widget_rects.end(); ++b) {
      if (!over_scene(a->first) || !over_scene(b->first)) continue;
      const auto& p = a->second;
      const auto& q = b->second;
      if (std::min(p[2], q[2]) - std::max(p[0], q[0]) > tolerance && std::min(p[3], q[3]) - std::max(p[1], q[1]) > tolerance)
        report("overlaps: " + a->first + " on " + b->first);
    }
  // The texts over the scene against every particle drawn in their view.
  const auto views = lane_viewports(state);
  const double ratio = std::max(state.pixel_ratio, 1e-6);
  for (const auto& [name, rect] : state.widget_rects) {
    if (!over_scene(name)) continue;
    for (std::size_t k = 0; k < views.size(); ++k) {
      const auto& v = views[k];
      // Overlaid lanes draw every lane's particles in the one view; a lane that ran away (out of lane 1's scale)
      // is not the layout's to keep clear of.
      const std::size_t lanes = views.size() == 1 ? state.lane_count() : 1;
      for (std::size_t lane = 0; lane < lanes; ++lane) {
        if (!lane_in_scale(state, views.size() == 1 ? lane : k)) continue;
        const World& world = state.lane_world(views.size() == 1 ? lane : k);
        Camera camera = state.view_camera(k);
        camera.set_viewport(v[0], v[1], v[2], v[3]);
        for (std::size_t i = 0; i < world.particle_count() && i < radii.size(); ++i) {
          const Vec3 p = world.state().position[i];
          const auto at = camera.project(p);
          if (!at || !camera.in_viewport(glm::dvec2(at->x, at->y))) continue;
          const double r = radii[i] * camera.pixels_per_unit(p) / ratio;
          const double x = at->x / ratio, y = at->y / ratio;
          const double cx = std::clamp(x, static_cast<double>(rect[0]), static_cast<double>(rect[2]));
          const double cy = std::clamp(y, static_cast<double>(rect[1]), static_cast<double>(rect[3]));
          if (std::hypot(x - cx, y - cy) < r)
            report("covers: " + name + " on particle " + std::to_string(i) + (views.size() > 1 ? " of lane " + std::to_string(k + 1) : ""));
        }
      }
    }
  }
  return problems;
}

}  // namespace lagrange::app
