// The log–log picture of a convergence study (convergence_plot.h).
#include "ui/convergence_plot.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>

#include "lagrange/solver.h"

namespace lagrange::app {
namespace {

struct Ink {
  ImU32 text, faint, grid, minor_grid, frame, axes_bg, triangle_fill;
};

Ink ink(bool light) {
  if (light)
    return {IM_COL32(20, 20, 24, 255), IM_COL32(90, 90, 100, 255), IM_COL32(0, 0, 0, 48), IM_COL32(0, 0, 0, 20),
            IM_COL32(40, 40, 48, 255), IM_COL32(255, 255, 255, 255), IM_COL32(0, 0, 0, 22)};
  return {IM_COL32(235, 235, 240, 255), IM_COL32(170, 170, 180, 255), IM_COL32(255, 255, 255, 50),
          IM_COL32(255, 255, 255, 18), IM_COL32(200, 200, 210, 255), IM_COL32(22, 24, 30, 255),
          IM_COL32(255, 255, 255, 26)};
}

ImU32 solver_colour(const std::string& id, bool light) {
  const SolverInfo* info = find_solver(id);
  const Colour c = info ? info->colour : Colour{0.5f, 0.5f, 0.5f};
  const float k = light ? 0.75f : 1.0f;  // as the lanes' names over a light scene: darkened to read on white
  return ImGui::ColorConvertFloat4ToU32(ImVec4(c.r * k, c.g * k, c.b * k, 1.0f));
}

const char* solver_name(const std::string& id) {
  const SolverInfo* info = find_solver(id);
  return info ? info->name : id.c_str();
}

ImVec2 text_size(const char* text, float size) { return ImGui::GetFont()->CalcTextSizeA(size, FLT_MAX, 0.0f, text); }

void text_at(ImDrawList* list, float size, ImVec2 at, ImU32 colour, const std::string& text) {
  list->AddText(ImGui::GetFont(), size, at, colour, text.c_str());
}

// A marker of its own shape per solver (circle, square, triangle, diamond, ring, in the report's order), each a
// little smaller than the one before: markers that coincide show one inside the other.
void marker_at(ImDrawList* list, ImVec2 p, float r, std::size_t shape, ImU32 colour, ImU32 edge) {
  switch (shape % 5) {
    case 0:
      list->AddCircleFilled(p, r, colour);
      list->AddCircle(p, r, edge, 0, 1.0f);
      break;
    case 1:
      list->AddRectFilled({p.x - 0.85f * r, p.y - 0.85f * r}, {p.x + 0.85f * r, p.y + 0.85f * r}, colour);
      list->AddRect({p.x - 0.85f * r, p.y - 0.85f * r}, {p.x + 0.85f * r, p.y + 0.85f * r}, edge);
      break;
    case 2:
      list->AddTriangleFilled({p.x, p.y - r}, {p.x + 0.95f * r, p.y + 0.7f * r}, {p.x - 0.95f * r, p.y + 0.7f * r},
                              colour);
      list->AddTriangle({p.x, p.y - r}, {p.x + 0.95f * r, p.y + 0.7f * r}, {p.x - 0.95f * r, p.y + 0.7f * r}, edge);
      break;
    case 3:
      list->AddQuadFilled({p.x, p.y - r}, {p.x + r, p.y}, {p.x, p.y + r}, {p.x - r, p.y}, colour);
      list->AddQuad({p.x, p.y - r}, {p.x + r, p.y}, {p.x, p.y + r}, {p.x - r, p.y}, edge);
      break;
    default:
      list->AddCircle(p, r, colour, 0, std::max(2.0f, 0.35f * r));
      break;
  }
}

}  // namespace

std::string decade_label(int d) {
  switch (d) {
    case -2: return "0.01";
    case -1: return "0.1";
    case 0: return "1";
    case 1: return "10";
    case 2: return "100";
    default: break;
  }
  static const char* const kDigits[] = {"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"};
  std::string text = "10";
  if (d < 0) text += "⁻";
  const std::string digits = std::to_string(std::abs(d));
  for (char c : digits) text += kDigits[c - '0'];
  return text;
}

namespace {

// The legend's entries: a swatch (none for the reference's line) and pieces of text, on one line when they fit the
// width, else a piece a line (each piece in type small enough to fit, down to 0.7 em).
struct LegendEntry {
  bool swatch = true;
  std::vector<std::string> pieces;
};
struct LegendLine {
  std::size_t entry = 0;
  bool first = true;  // the entry's first line (the swatch's)
  std::string text;
  float size = 0.0f;  // the type's size
};
constexpr float kSwatchEm = 1.8f, kPadEm = 0.5f, kLineEm = 1.35f;

std::vector<LegendEntry> legend_entries(const ConvergenceReport& report) {
  std::vector<LegendEntry> entries;
  for (const ConvergenceResult& r : report.results) {
    char order[64];
    if (std::isfinite(r.order)) std::snprintf(order, sizeof order, "order %.2f", r.order);
    else std::snprintf(order, sizeof order, "no fit (the runs failed)");
    entries.push_back({true, {solver_name(r.solver), order}});
  }
  char dt[64];
  std::snprintf(dt, sizeof dt, "at Δt = %.3g s", report.reference_dt);
  entries.push_back({false, {"reference: RATTLE", dt}});
  return entries;
}

std::vector<LegendLine> legend_lines(const std::vector<LegendEntry>& entries, float width) {
  const float fs = ImGui::GetFontSize();
  const float indent = (kSwatchEm + kPadEm) * fs;
  std::vector<LegendLine> lines;
  for (std::size_t k = 0; k < entries.size(); ++k) {
    const LegendEntry& e = entries[k];
    std::string whole;
    for (const std::string& piece : e.pieces) whole += (whole.empty() ? "" : "   ") + piece;
    const float room = width - (e.swatch ? indent : 0.0f);
    if (text_size(whole.c_str(), fs).x <= room) {
      lines.push_back({k, true, whole, fs});
      continue;
    }
    for (std::size_t i = 0; i < e.pieces.size(); ++i) {
      float size = fs;
      while (size > 0.7f * fs && text_size(e.pieces[i].c_str(), size).x > room) size -= 0.05f * fs;
      lines.push_back({k, i == 0, e.pieces[i], size});
    }
  }
  return lines;
}

float legend_width(const std::vector<LegendEntry>& entries) {
  const float fs = ImGui::GetFontSize();
  float w = 0.0f;
  for (const LegendEntry& e : entries) {
    std::string whole;
    for (const std::string& piece : e.pieces) whole += (whole.empty() ? "" : "   ") + piece;
    w = std::max(w, (e.swatch ? (kSwatchEm + kPadEm) * fs : 0.0f) + text_size(whole.c_str(), fs).x);
  }
  return w;
}

}  // namespace

float convergence_legend_height(const ConvergenceReport& report, float width) {
  const float fs = ImGui::GetFontSize();
  return kLineEm * fs * static_cast<float>(legend_lines(legend_entries(report), width).size()) + 0.6f * fs;
}

ConvergencePlotRects draw_convergence_plot(ImDrawList* list, ImVec2 lo, ImVec2 hi, const ConvergenceReport& report,
                                           bool light) {
  ConvergencePlotRects rects;
  const Ink c = ink(light);
  const float fs = ImGui::GetFontSize();
  const float pad = 0.6f * fs;
  const float line = kLineEm * fs;

  // The data's range in whole decades.
  double x_min = INFINITY, x_max = -INFINITY, y_min = INFINITY, y_max = -INFINITY;
  for (const ConvergenceResult& r : report.results)
    for (const ConvergenceLevel& l : r.levels) {
      if (l.dt > 0.0 && std::isfinite(l.dt)) x_min = std::min(x_min, l.dt), x_max = std::max(x_max, l.dt);
      if (l.error > 0.0 && std::isfinite(l.error)) y_min = std::min(y_min, l.error), y_max = std::max(y_max, l.error);
    }
  if (!(x_min <= x_max)) x_min = 1e-3, x_max = 1e-2;
  if (!(y_min <= y_max)) y_min = 1e-6, y_max = 1e-2;
  int xd0 = static_cast<int>(std::floor(std::log10(x_min) + 1e-9));
  int xd1 = static_cast<int>(std::ceil(std::log10(x_max) - 1e-9));
  int yd0 = static_cast<int>(std::floor(std::log10(y_min) + 1e-9));
  int yd1 = static_cast<int>(std::ceil(std::log10(y_max) - 1e-9));
  if (xd1 <= xd0) ++xd1;
  if (yd1 <= yd0) ++yd1;
  yd0 -= 1;  // a decade of room under the lowest point: the slope triangles sit there, under the curves

  // The legend: a column at the right when wide, lines under the axes when narrow.
  const std::vector<LegendEntry> entries = legend_entries(report);
  const float legend_w = legend_width(entries);
  const bool beside = hi.x - lo.x > 50.0f * fs;
  const float legend_h = convergence_legend_height(report, hi.x - lo.x);

  float y_label_w = 0.0f;
  for (int d = yd0; d <= yd1; ++d) y_label_w = std::max(y_label_w, text_size(decade_label(d).c_str(), fs).x);
  const ImVec2 a0(lo.x + y_label_w + pad + 0.4f * fs, lo.y + line + 0.3f * fs);
  const ImVec2 a1(beside ? hi.x - legend_w - 3.0f * pad : hi.x - 0.8f * fs,
                  hi.y - 2.0f * line - 0.3f * fs - (beside ? 0.0f : legend_h));
  rects.axes = {a0.x, a0.y, a1.x, a1.y};
  if (a1.x - a0.x < 4.0f * fs || a1.y - a0.y < 3.0f * fs) return rects;  // no room to draw a plot

  const auto X = [&](double dt) {
    return a0.x + static_cast<float>((std::log10(dt) - xd0) / (xd1 - xd0)) * (a1.x - a0.x);
  };
  const auto Y = [&](double e) {
    return a1.y - static_cast<float>((std::log10(e) - yd0) / (yd1 - yd0)) * (a1.y - a0.y);
  };

  list->AddRectFilled(a0, a1, c.axes_bg);
  // Grid: a line at every decade, faint ones at 2..9 × each decade.
  for (int d = xd0; d <= xd1; ++d)
    for (int m = 1; m <= 9 && (d < xd1 || m == 1); ++m) {
      const float x = X(m * std::pow(10.0, d));
      list->AddLine({x, a0.y}, {x, a1.y}, m == 1 ? c.grid : c.minor_grid, 1.0f);
      list->AddLine({x, a1.y}, {x, a1.y - (m == 1 ? 0.5f : 0.25f) * fs}, c.frame, 1.0f);
    }
  const float decade_h = (a1.y - a0.y) / static_cast<float>(yd1 - yd0);
  const int y_step = decade_h < 1.2f * fs ? static_cast<int>(std::ceil(1.2f * fs / decade_h)) : 1;
  for (int d = yd0; d <= yd1; ++d)
    for (int m = 1; m <= 9 && (d < yd1 || m == 1); ++m) {
      if (m > 1 && decade_h < 2.5f * fs) continue;  // crowded: decades only
      const float y = Y(m * std::pow(10.0, d));
      list->AddLine({a0.x, y}, {a1.x, y}, m == 1 ? c.grid : c.minor_grid, 1.0f);
      list->AddLine({a0.x, y}, {a0.x + (m == 1 ? 0.5f : 0.25f) * fs, y}, c.frame, 1.0f);
    }
  list->AddRect(a0, a1, c.frame, 0.0f, 0, std::max(1.0f, fs / 12.0f));
  // Tick labels and the axes' names.
  for (int d = xd0; d <= xd1; ++d) {
    const std::string label = decade_label(d);
    const float w = text_size(label.c_str(), fs).x;
    text_at(list, fs, {std::clamp(X(std::pow(10.0, d)) - 0.5f * w, lo.x, hi.x - w), a1.y + 0.3f * fs}, c.text, label);
  }
  for (int d = yd0; d <= yd1; ++d) {
    if ((d - yd0) % y_step != 0) continue;
    const std::string label = decade_label(d);
    const float w = text_size(label.c_str(), fs).x;
    text_at(list, fs, {a0.x - pad - w, Y(std::pow(10.0, d)) - 0.5f * fs}, c.text, label);
  }
  // The axes' names, shorter where the long ones do not fit.
  const char* x_name = "time step Δt (s)   →  smaller steps to the left";
  if (text_size(x_name, fs).x > hi.x - lo.x) x_name = "time step Δt (s)";
  if (text_size(x_name, fs).x > hi.x - lo.x) x_name = "Δt (s)";
  const float x_name_w = text_size(x_name, fs).x;
  text_at(list, fs, {std::max(lo.x, 0.5f * (a0.x + a1.x - x_name_w)), a1.y + line + 0.3f * fs}, c.faint, x_name);
  const char* y_name = "error of the positions at T (m)";
  if (text_size(y_name, fs).x > hi.x - lo.x) y_name = "error at T (m)";
  text_at(list, fs, {lo.x, lo.y}, c.faint, y_name);

  // Slope triangles for orders 1 and 2, in the room under the curves at the right: a leg of a quarter of the decades
  // across, the other leg order × as many decades up, so each triangle's long side has the slope of that order.
  double leg = 0.25 * (xd1 - xd0);
  leg = std::min(leg, 0.45 * (yd1 - yd0) / 2.0);
  const float leg_w = static_cast<float>(leg / (xd1 - xd0)) * (a1.x - a0.x);
  const float per_decade_h = decade_h;
  float right = a1.x - 1.6f * fs;
  const float bottom = a1.y - 1.6f * fs;
  for (int k = 1; k >= 0; --k) {  // order 2 at the right, order 1 left of it
    const int order = k + 1;
    const float rise = static_cast<float>(order * leg) * per_decade_h;
    const ImVec2 p0(right - leg_w, bottom), p1(right, bottom), p2(right, bottom - rise);
    list->AddTriangleFilled(p0, p1, p2, c.triangle_fill);
    list->AddTriangle(p0, p1, p2, c.text, std::max(1.0f, fs / 10.0f));
    text_at(list, fs, {0.5f * (p0.x + p1.x) - 0.3f * fs, bottom + 0.1f * fs}, c.text, "1");
    text_at(list, fs, {right + 0.3f * fs, bottom - 0.5f * rise - 0.5f * fs}, c.text, std::to_string(order));
    const std::string name = "order " + std::to_string(order);
    const float name_w = text_size(name.c_str(), fs).x;
    text_at(list, fs, {right - name_w, bottom - rise - 1.15f * fs}, c.text, name);
    rects.triangles[static_cast<std::size_t>(k)] = {p0.x, p2.y - 1.15f * fs, p1.x + 1.0f * fs, p1.y + fs};
    right -= leg_w + std::max(2.2f * fs, name_w - leg_w + 1.5f * fs);
  }

  // The curves: a line through each solver's levels, a marker at each, in the solver's colour.
  const float base_thickness = std::max(2.0f, fs / 6.0f);
  const float base_marker = std::max(3.5f, fs / 3.5f);
  list->PushClipRect(a0, a1, true);
  // Drawn last solver first. A solver whose points coincide with an earlier one's (projection and SHAKE on a
  // pendulum) is drawn wider under it, so both show: a stripe inside a stripe, a marker inside a marker.
  const std::size_t count = report.results.size();
  const auto same_points = [&](const ConvergenceResult& a, const ConvergenceResult& b) {
    if (a.levels.size() != b.levels.size()) return false;
    for (std::size_t i = 0; i < a.levels.size(); ++i) {
      const double ea = a.levels[i].error, eb = b.levels[i].error;
      if (!(ea > 0.0 && eb > 0.0) || std::abs(std::log10(ea / eb)) * decade_h > 0.3f * fs) return false;
    }
    return true;
  };
  rects.points.resize(count);
  for (std::size_t k = count; k-- > 0;) {
    const ConvergenceResult& r = report.results[k];
    int under = 0;  // earlier solvers drawn over this one at the same places
    for (std::size_t j = 0; j < k; ++j) under += same_points(report.results[j], r) ? 1 : 0;
    const float wider = 1.0f + 1.3f * static_cast<float>(under);
    const float thickness = base_thickness * wider, marker = base_marker * (0.55f + 0.45f * wider);
    const ImU32 colour = solver_colour(r.solver, light);
    std::vector<ImVec2> points;
    std::vector<std::array<float, 2>> kept;
    for (const ConvergenceLevel& l : r.levels)
      if (l.error > 0.0 && std::isfinite(l.error) && l.dt > 0.0) {
        points.emplace_back(X(l.dt), Y(l.error));
        kept.push_back({points.back().x, points.back().y});
      }
    if (points.size() > 1) list->AddPolyline(points.data(), static_cast<int>(points.size()), colour, 0, thickness);
    for (const ImVec2& p : points) marker_at(list, p, marker, k, colour, c.axes_bg);
    rects.points[k] = std::move(kept);
  }
  list->PopClipRect();

  // The legend.
  const ImVec2 origin = beside ? ImVec2(a1.x + 2.0f * pad, a0.y) : ImVec2(lo.x, a1.y + 2.0f * line + 0.3f * fs);
  const float room = beside ? hi.x - origin.x : hi.x - lo.x;
  const float indent = (kSwatchEm + kPadEm) * fs;
  float y = origin.y;
  rects.legend.assign(report.results.size(), {});
  for (const LegendLine& l : legend_lines(entries, room)) {
    const bool swatched = entries[l.entry].swatch;
    const float x = origin.x + (swatched ? indent : 0.0f);
    if (swatched && l.first) {
      const ImU32 colour = solver_colour(report.results[l.entry].solver, light);
      const float mid = y + 0.5f * fs;
      list->AddLine({origin.x, mid}, {origin.x + kSwatchEm * fs, mid}, colour, base_thickness * 1.5f);
      marker_at(list, {origin.x + 0.5f * kSwatchEm * fs, mid}, base_marker, l.entry, colour, c.axes_bg);
      rects.legend[l.entry] = {origin.x, y, origin.x, y + fs};
    }
    text_at(list, l.size, {x, y + 0.5f * (fs - l.size)}, swatched ? c.text : c.faint, l.text);
    if (swatched)
      rects.legend[l.entry][2] = std::max(rects.legend[l.entry][2], x + text_size(l.text.c_str(), l.size).x),
      rects.legend[l.entry][3] = y + fs;
    y += kLineEm * fs;
  }
  return rects;
}

}  // namespace lagrange::app
