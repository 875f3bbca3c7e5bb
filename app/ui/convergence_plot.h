// The order of accuracy as a picture (issue 25): error against the step Δt on log–log axes, one line with markers
// per solver in the solver table's colours, decade ticks, a legend with each solver's fitted order (read from the
// study, never assumed) and slope triangles for orders 1 and 2. Drawn with an ImDrawList, so the window's
// Convergence panel and `lagrange-lab converge --plot` (the same renderer as `shot`) draw the same picture.
#pragma once

#include <imgui.h>

#include <array>
#include <string>
#include <vector>

#include "lagrange/convergence.h"

namespace lagrange::app {

// Where the picture put its parts (x0, y0, x1, y1 in window units), for the GUI tests.
struct ConvergencePlotRects {
  std::array<float, 4> axes{};                    // the log–log frame
  std::vector<std::array<float, 4>> legend;       // one per solver, in the report's order
  std::array<std::array<float, 4>, 2> triangles{};  // the order-1 and order-2 slope triangles
  std::vector<std::vector<std::array<float, 2>>> points;  // each solver's markers (finite, positive errors only)
};

// The height the legend takes under a plot `width` units wide (the narrow layout: one line per solver and the
// reference's line), at the current font.
float convergence_legend_height(const ConvergenceReport& report, float width);

// Draws the picture into [lo, hi] with the current ImGui font. Wider than 50 em: the legend is a column at the
// right; narrower: under the axes. `light`: colours for a white background (the solver colours darkened to read).
ConvergencePlotRects draw_convergence_plot(ImDrawList* list, ImVec2 lo, ImVec2 hi, const ConvergenceReport& report,
                                           bool light);

// "10⁻³"-style label of the decade 10^d ("0.01", "1", "100" for |d| ≤ 2).
std::string decade_label(int d);

}  // namespace lagrange::app
