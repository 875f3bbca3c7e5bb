// The plots drawn with ImDrawList from the scrolling history of what a world reports after each step
// (state/history.h): several series in one frame, optional log scale.
#pragma once

#include <imgui.h>

#include <array>
#include <cstddef>
#include <initializer_list>
#include <span>
#include <vector>

#include "state/history.h"

namespace lagrange::app {

struct Series {
  const char* label;
  double Sample::*field;
  ImU32 colour;
  const History* history = nullptr;  // another history than the plot's (a lane's, on the same times); null: the plot's
  // false: drawn but left out of the scale (a lane that blew up: its curve runs along the edge, never squashing the
  // others').
  bool scaled = true;
};

// The vertical range a plot shows. Robust to spikes: from the 1st to the 99th percentile of all the values shown
// (with the latest values always inside), widened by 15 % of that span; on a log scale in whole decades. A spike
// shorter than 1 % of the history (a fling, a reset: 12 of 1200 steps) therefore does not squash the rest of the plot;
// it runs along the edge and the plot names the value that went off scale.
inline constexpr double kPlotLowQuantile = 0.01, kPlotHighQuantile = 0.99;
struct PlotRange {
  double lo = 0.0, hi = 1.0;           // log10 of the values on a log scale
  bool clipped_low = false, clipped_high = false;
  double peak_lo = 0.0, peak_hi = 0.0;  // the extreme values shown (as values, also on a log scale)
};
PlotRange plot_range(const History& history, std::span<const Series> series, bool log_scale);
inline PlotRange plot_range(const History& history, std::initializer_list<Series> series, bool log_scale) {
  return plot_range(history, std::span<const Series>(series.begin(), series.size()), log_scale);
}

// Where a plot drew its parts, in window units (x0, y0, x1, y1): the legend sits in a band above the curves.
struct PlotRects {
  std::array<float, 4> frame{}, curves{};
  std::vector<std::array<float, 4>> legend;
};
// Draws the series over the history's time span, `height` units tall (at least; more when the legend wraps) and the
// available width: a band with the top value and the legend, the curves, a band with the bottom value.
// Log scale plots log10 of the values, floored at 1e-16.
PlotRects plot_series(const char* id, const History& history, std::span<const Series> series, float height,
                      bool log_scale, const char* unit);

}  // namespace lagrange::app
