#include "sandbox/plots.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace lagrange::app {

void History::push(const Sample& sample) {
  if (size_ < data_.size()) {
    data_[(start_ + size_) % data_.size()] = sample;
    ++size_;
  } else {
    data_[start_] = sample;
    start_ = (start_ + 1) % data_.size();
  }
}

namespace {

constexpr double kLogFloor = 1e-16;

double transformed(double value, bool log_scale) {
  return log_scale ? std::log10(std::max(std::abs(value), kLogFloor)) : value;
}

void format_tick(char* text, std::size_t size, double value, bool log_scale, const char* unit) {
  if (log_scale)
    std::snprintf(text, size, "1e%d %s", static_cast<int>(std::lround(value)), unit);
  else
    std::snprintf(text, size, "%.4g %s", value, unit);
}

}  // namespace

void plot_series(const char* id, const History& history, std::initializer_list<Series> series, float height,
                 bool log_scale, const char* unit) {
  ImGui::PushID(id);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float width = std::max(ImGui::GetContentRegionAvail().x, 50.0f);
  ImGui::InvisibleButton("plot", ImVec2(width, height));
  const bool hovered = ImGui::IsItemHovered();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 corner(origin.x + width, origin.y + height);
  draw->AddRectFilled(origin, corner, IM_COL32(20, 22, 27, 255), 3.0f);
  draw->AddRect(origin, corner, IM_COL32(70, 74, 84, 255), 3.0f);

  const std::size_t n = history.size();
  if (n < 2) {
    draw->AddText(ImVec2(origin.x + 6, origin.y + 4), IM_COL32(140, 140, 150, 255), "waiting for steps...");
    ImGui::PopID();
    return;
  }
  double lo = INFINITY, hi = -INFINITY;
  for (const Series& s : series)
    for (std::size_t i = 0; i < n; ++i) {
      const double v = transformed(history[i].*s.field, log_scale);
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
  if (log_scale) {
    lo = std::floor(lo);
    hi = std::max(std::ceil(hi), lo + 1.0);
  } else {
    const double pad = std::max((hi - lo) * 0.08, std::max(std::abs(hi), std::abs(lo)) * 1e-9 + 1e-12);
    lo -= pad;
    hi += pad;
  }
  const double t0 = history[0].time, t1 = std::max(history.back().time, t0 + 1e-9);
  const float left = origin.x + 2, right = corner.x - 2, top = origin.y + 4, bottom = corner.y - 4;
  auto to_screen = [&](double t, double v) {
    return ImVec2(left + static_cast<float>((t - t0) / (t1 - t0)) * (right - left),
                  bottom - static_cast<float>((v - lo) / (hi - lo)) * (bottom - top));
  };
  // Horizontal guide lines at the range ends and the middle (decades on a log scale).
  const int guides = log_scale ? static_cast<int>(std::min(hi - lo, 8.0)) : 2;
  for (int g = 0; g <= guides; ++g) {
    const double v = lo + (hi - lo) * g / std::max(guides, 1);
    const float y = to_screen(t0, v).y;
    draw->AddLine(ImVec2(left, y), ImVec2(right, y), IM_COL32(45, 48, 56, 255));
  }
  // At most one min/max pair per pixel column: the same picture, spikes kept, far fewer vertices.
  const std::size_t buckets = std::max<std::size_t>(static_cast<std::size_t>(right - left), 1);
  std::vector<ImVec2> points;
  points.reserve(2 * buckets + 2);
  for (const Series& s : series) {
    points.clear();
    for (std::size_t b = 0; b < buckets; ++b) {
      const std::size_t i0 = b * n / buckets, i1 = std::max((b + 1) * n / buckets, i0 + 1);
      if (i0 >= n) break;
      std::size_t lo_i = i0, hi_i = i0;
      for (std::size_t i = i0; i < std::min(i1, n); ++i) {
        if (history[i].*s.field < history[lo_i].*s.field) lo_i = i;
        if (history[i].*s.field > history[hi_i].*s.field) hi_i = i;
      }
      for (std::size_t i : {std::min(lo_i, hi_i), std::max(lo_i, hi_i)}) {
        const ImVec2 p = to_screen(history[i].time, transformed(history[i].*s.field, log_scale));
        if (points.empty() || points.back().x != p.x || points.back().y != p.y) points.push_back(p);
      }
    }
    draw->AddPolyline(points.data(), static_cast<int>(points.size()), s.colour, 0, 1.5f);
  }
  char text[64];
  format_tick(text, sizeof text, hi, log_scale, unit);
  draw->AddText(ImVec2(left + 3, origin.y + 1), IM_COL32(150, 152, 160, 255), text);
  format_tick(text, sizeof text, lo, log_scale, unit);
  draw->AddText(ImVec2(left + 3, corner.y - ImGui::GetTextLineHeight() - 1), IM_COL32(150, 152, 160, 255), text);
  // Legend, right-aligned at the top.
  float x = right - 4;
  for (auto it = std::rbegin(series); it != std::rend(series); ++it) {
    const float w = ImGui::CalcTextSize(it->label).x;
    x -= w;
    draw->AddText(ImVec2(x, origin.y + 1), it->colour, it->label);
    x -= 10;
  }
  if (hovered) {
    const float mx = ImGui::GetIO().MousePos.x;
    const double t = t0 + (mx - left) / (right - left) * (t1 - t0);
    std::size_t best = 0;
    for (std::size_t i = 0; i < n; ++i)
      if (std::abs(history[i].time - t) < std::abs(history[best].time - t)) best = i;
    draw->AddLine(ImVec2(mx, top), ImVec2(mx, bottom), IM_COL32(200, 200, 210, 90));
    ImGui::BeginTooltip();
    ImGui::Text("t = %.3f s", history[best].time);
    for (const Series& s : series) ImGui::TextColored(ImColor(s.colour), "%s: %.6g %s", s.label, history[best].*s.field, unit);
    ImGui::EndTooltip();
  }
  ImGui::PopID();
}

}  // namespace lagrange::app
