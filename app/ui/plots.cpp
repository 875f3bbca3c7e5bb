#include "ui/plots.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "window/theme.h"

namespace lagrange::app {

namespace {

constexpr double kLogFloor = 1e-16;

double transformed(double value, bool log_scale) {
  return log_scale ? std::log10(std::max(std::abs(value), kLogFloor)) : value;
}

void format_value(char* text, std::size_t size, double value, bool log_scale, const char* unit) {
  if (log_scale)
    std::snprintf(text, size, "1e%d%s%s", static_cast<int>(std::lround(value)), *unit ? " " : "", unit);
  else
    std::snprintf(text, size, "%.4g%s%s", value, *unit ? " " : "", unit);
}

// The value at fraction q (0..1) of the sorted values, interpolated.
double quantile(std::vector<double>& values, double q) {
  const double position = q * static_cast<double>(values.size() - 1);
  const std::size_t i = static_cast<std::size_t>(position);
  std::nth_element(values.begin(), values.begin() + i, values.end());
  const double a = values[i];
  if (i + 1 >= values.size()) return a;
  const double b = *std::min_element(values.begin() + i + 1, values.end());
  return a + (b - a) * (position - i);
}

}  // namespace

PlotRange plot_range(const History& plot_history, std::span<const Series> series, bool log_scale) {
  const History& history = plot_history;
  PlotRange range;
  const std::size_t n = history.size();
  if (n == 0) return range;
  std::vector<double> values;
  values.reserve(n * series.size());
  range.peak_lo = INFINITY;
  range.peak_hi = -INFINITY;
  double last_lo = INFINITY, last_hi = -INFINITY;
  for (const Series& s : series) {
    if (!s.scaled) continue;
    const History& h = s.history ? *s.history : history;
    for (std::size_t i = 0; i < h.size(); ++i) {
      const double v = transformed(h[i].*s.field, log_scale);
      if (!std::isfinite(v)) continue;
      values.push_back(v);
      range.peak_lo = std::min(range.peak_lo, v);
      range.peak_hi = std::max(range.peak_hi, v);
    }
    if (h.size() == 0) continue;
    const double last = transformed(h.back().*s.field, log_scale);
    if (std::isfinite(last)) {
      last_lo = std::min(last_lo, last);
      last_hi = std::max(last_hi, last);
    }
  }
  if (values.empty()) return range;
  // Robust to spikes: the 1st to 99th percentile of everything shown (a spike shorter than 1 % of the window does not
  // set the scale), always including the latest values, widened by 15 % of the span.
  double lo = std::min(quantile(values, kPlotLowQuantile), last_lo);
  double hi = std::max(quantile(values, kPlotHighQuantile), last_hi);
  if (log_scale) {
    lo = std::floor(lo - 0.3);  // at least a third of a decade of room, in whole decades
    hi = std::max(std::ceil(hi + 0.3), lo + 1.0);
  } else {
    const double pad = std::max((hi - lo) * 0.15, std::max(std::abs(hi), std::abs(lo)) * 1e-9 + 1e-12);
    lo -= pad;
    hi += pad;
  }
  range.lo = lo;
  range.hi = hi;
  range.clipped_low = range.peak_lo < lo;
  range.clipped_high = range.peak_hi > hi;
  if (log_scale) {  // report peaks as values, not exponents
    range.peak_lo = std::pow(10.0, range.peak_lo);
    range.peak_hi = std::pow(10.0, range.peak_hi);
  }
  return range;
}

namespace {

constexpr float kGap = 10.0f;  // between legend entries, and between the bottom value and the off-scale peak

using LegendRow = std::vector<std::pair<float, const Series*>>;  // each entry's width and its series
using LegendEntry = std::pair<ImVec2, const Series*>;           // an entry's top-left corner and its series

// Rows of entries in order, a new row when the next entry does not fit; the first row shares the band with the top
// value, so it has less room.
std::vector<LegendRow> legend_rows(std::span<const Series> series, float swatch, float first_room, float room) {
  std::vector<LegendRow> rows(1);
  float row_width = 0.0f;
  for (const Series& s : series) {
    const float w = swatch + 4 + ImGui::CalcTextSize(s.label).x;
    if (!rows.back().empty() && row_width + kGap + w > (rows.size() == 1 ? first_room : room)) {
      rows.emplace_back();
      row_width = 0.0f;
    }
    row_width += (rows.back().empty() ? 0.0f : kGap) + w;
    rows.back().push_back({w, &s});
  }
  return rows;
}

// Each row right-aligned, one line below the other from y. Returns the y of the last row.
float place_legend(const std::vector<LegendRow>& rows, float right, float y, float line,
                   std::vector<LegendEntry>& legend, PlotRects& rects) {
  for (const auto& row : rows) {
    float total = 0.0f;
    for (const auto& [w, s] : row) total += w + (total > 0.0f ? kGap : 0.0f);
    float x = right - 4 - total;
    for (const auto& [w, s] : row) {
      legend.push_back({ImVec2(x, y), s});
      rects.legend.push_back({x, y, x + w, y + line});
      x += w + kGap;
    }
    if (&row != &rows.back()) y += line;
  }
  return y;
}

void draw_legend(ImDrawList* draw, const std::vector<LegendEntry>& legend, float line, float swatch) {
  for (const auto& [at, s] : legend) {
    draw->AddRectFilled(ImVec2(at.x, at.y + 0.5f * (line - swatch)), ImVec2(at.x + swatch, at.y + 0.5f * (line + swatch)),
                        s->colour);
    draw->AddText(ImVec2(at.x + swatch + 4, at.y), s->colour, s->label);
  }
}

// From (time, value) to the screen: times t0 .. t1 across, values lo .. hi up the curves' rectangle.
struct PlotScale {
  double lo, hi, t0, t1;
  float left, right, top, bottom;

  ImVec2 at(double t, double v) const {
    const double clamped = std::clamp(v, lo, hi);  // off-scale values run along the edge
    return ImVec2(left + static_cast<float>((t - t0) / (t1 - t0)) * (right - left),
                  bottom - static_cast<float>((clamped - lo) / (hi - lo)) * (bottom - top));
  }
};

// Horizontal guide lines at the range ends and the middle (decades on a log scale).
void draw_guides(ImDrawList* draw, const PlotScale& scale, bool log_scale, ImU32 colour) {
  const double lo = scale.lo, hi = scale.hi;
  const int guides = log_scale ? static_cast<int>(std::min(hi - lo, 8.0)) : 2;
  for (int g = 0; g <= guides; ++g) {
    const double v = lo + (hi - lo) * g / std::max(guides, 1);
    const float gy = scale.at(scale.t0, v).y;
    draw->AddLine(ImVec2(scale.left, gy), ImVec2(scale.right, gy), colour);
  }
}

// At most one min/max pair per pixel column: the same picture, spikes kept, far fewer vertices.
void curve_points(const History& h, const Series& s, std::size_t buckets, const PlotScale& scale, bool log_scale,
                  std::vector<ImVec2>& points) {
  points.clear();
  const std::size_t n = h.size();
  for (std::size_t b = 0; b < buckets; ++b) {
    const std::size_t i0 = b * n / buckets, i1 = std::max((b + 1) * n / buckets, i0 + 1);
    if (i0 >= n) break;
    std::size_t lo_i = i0, hi_i = i0;
    for (std::size_t i = i0; i < std::min(i1, n); ++i) {
      if (h[i].*s.field < h[lo_i].*s.field) lo_i = i;
      if (h[i].*s.field > h[hi_i].*s.field) hi_i = i;
    }
    for (std::size_t i : {std::min(lo_i, hi_i), std::max(lo_i, hi_i)}) {
      const double v = transformed(h[i].*s.field, log_scale);
      if (!std::isfinite(v) || h[i].time < scale.t0) continue;
      const ImVec2 p = scale.at(h[i].time, v);
      if (points.empty() || points.back().x != p.x || points.back().y != p.y) points.push_back(p);
    }
  }
}

void draw_curves(ImDrawList* draw, const History& history, std::span<const Series> series, const PlotScale& scale,
                 bool log_scale) {
  draw->PushClipRect(ImVec2(scale.left, scale.top - 1), ImVec2(scale.right, scale.bottom + 1), true);
  const std::size_t buckets = std::max<std::size_t>(static_cast<std::size_t>(scale.right - scale.left), 1);
  std::vector<ImVec2> points;
  points.reserve(2 * buckets + 2);
  for (const Series& s : series) {
    curve_points(s.history ? *s.history : history, s, buckets, scale, log_scale, points);
    // 1.5 units at scale 1, thicker with the UI scale (the font size carries it): readable on a projector.
    draw->AddPolyline(points.data(), static_cast<int>(points.size()), s.colour, 0,
                      1.5f * ImGui::GetFontSize() / kBaseFontSize);
  }
  draw->PopClipRect();
}

// Scale labels outside the curves: the top value in the top band (at top_y), the bottom value and any off-scale peak
// below (at label_y).
void draw_scale_labels(ImDrawList* draw, const PlotRange& range, const PlotScale& scale, float top_y, float label_y,
                       const char* top_text, const char* bottom_text, const char* unit, const PlotPalette& colours) {
  const float left = scale.left, right = scale.right;
  draw->AddText(ImVec2(left + 3, top_y), colours.label, top_text);
  draw->AddText(ImVec2(left + 3, label_y), colours.label, bottom_text);
  if (!range.clipped_high && !range.clipped_low) return;
  char peak[96], value[48];
  format_value(value, sizeof value, range.clipped_high ? range.peak_hi : range.peak_lo, false, unit);
  std::snprintf(peak, sizeof peak, "%s %s off scale", range.clipped_high ? "\xe2\x86\x91 max" : "\xe2\x86\x93 min",
                value);
  const float w = ImGui::CalcTextSize(peak).x;
  draw->AddText(ImVec2(std::max(right - 4 - w, left + 3 + ImGui::CalcTextSize(bottom_text).x + kGap), label_y),
                colours.peak, peak);
}

// Under the mouse: a line at its time, and a tooltip with every series' value at the step nearest to it.
void hover_readout(ImDrawList* draw, const History& history, std::span<const Series> series, const PlotScale& scale,
                   const char* unit, ImU32 cursor_colour) {
  const std::size_t n = history.size();
  const float mx = ImGui::GetIO().MousePos.x;
  const double t = scale.t0 + (mx - scale.left) / (scale.right - scale.left) * (scale.t1 - scale.t0);
  std::size_t best = 0;
  for (std::size_t i = 0; i < n; ++i)
    if (std::abs(history[i].time - t) < std::abs(history[best].time - t)) best = i;
  draw->AddLine(ImVec2(mx, scale.top), ImVec2(mx, scale.bottom), cursor_colour);
  ImGui::BeginTooltip();
  ImGui::Text("t = %.3f s", history[best].time);
  for (const Series& s : series) {
    const History& h = s.history ? *s.history : history;
    for (std::size_t i = h.size(); i-- > 0;)  // the lane's sample at that time
      if (h[i].time <= history[best].time + 1e-12) {
        ImGui::TextColored(ImColor(s.colour), "%s: %.6g %s", s.label, h[i].*s.field, unit);
        break;
      }
  }
  ImGui::EndTooltip();
}

}  // namespace

PlotRects plot_series(const char* id, const History& history, std::span<const Series> series, float height,
                      bool log_scale, const char* unit) {
  PlotRects rects;
  ImGui::PushID(id);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float width = std::max(ImGui::GetContentRegionAvail().x, 50.0f);
  const float line = ImGui::GetTextLineHeight();
  const ImVec2 corner(origin.x + width, origin.y + height);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const float left = origin.x + 2, right = corner.x - 2;

  // Top band: the legend, right-aligned, wrapped onto more lines when it does not fit beside the top value.
  const std::size_t n = history.size();
  const PlotRange range = plot_range(history, series, log_scale);
  char top_text[64] = "", bottom_text[64] = "";
  if (n >= 2) {
    format_value(top_text, sizeof top_text, range.hi, log_scale, unit);
    format_value(bottom_text, sizeof bottom_text, range.lo, log_scale, unit);
  }
  const float swatch = line * 0.6f;
  const float top_label_end = left + 3 + ImGui::CalcTextSize(top_text).x + kGap;
  std::vector<LegendEntry> legend;
  const float y = place_legend(legend_rows(series, swatch, right - 4 - top_label_end, right - 4 - (left + 3)), right,
                               origin.y + 1, line, legend, rects);
  const float top = y + line + 2, bottom_band = n >= 2 ? line + 1 : 0.0f;
  const float plot_height = std::max(height, top - origin.y + bottom_band + 3.0f * line);
  const ImVec2 frame_corner(corner.x, origin.y + plot_height);
  const float bottom = frame_corner.y - bottom_band - 2;
  rects.frame = {origin.x, origin.y, frame_corner.x, frame_corner.y};
  rects.curves = {left, top, right, bottom};

  ImGui::InvisibleButton("plot", ImVec2(width, plot_height));
  const bool hovered = ImGui::IsItemHovered();
  const PlotPalette& colours = ui_palette().plot;  // the theme's (theme.h)
  draw->AddRectFilled(origin, frame_corner, colours.frame, 3.0f);
  draw->AddRect(origin, frame_corner, colours.frame_border, 3.0f);
  draw->AddRectFilled(ImVec2(left, top), ImVec2(right, bottom), colours.curves_bg);
  draw_legend(draw, legend, line, swatch);
  if (n < 2) {
    draw->AddText(ImVec2(left + 4, top + 2), colours.label, "waiting for steps...");
    ImGui::PopID();
    return rects;
  }
  const double t0 = history[0].time, t1 = std::max(history.back().time, t0 + 1e-9);
  const PlotScale scale{range.lo, range.hi, t0, t1, left, right, top, bottom};
  draw_guides(draw, scale, log_scale, colours.guide);
  draw_curves(draw, history, series, scale, log_scale);
  draw_scale_labels(draw, range, scale, origin.y + 1, frame_corner.y - line - 1, top_text, bottom_text, unit, colours);
  if (hovered) hover_readout(draw, history, series, scale, unit, colours.cursor);
  ImGui::PopID();
  return rects;
}

}  // namespace lagrange::app
