// What the screen looks like to a reader, read back from the last frame's Dear ImGui draw lists (issue 21): every
// glyph drawn (its character, box, clip rectangle and window), put back together into lines of text, and the
// problems a person would see — text cut at the edge of its window or cell, a number broken across two lines, a
// window (a tooltip, a popup) running off the screen, a text over the scene lying on a particle. The GUI tests and
// the page's test (web_main.cpp) ask it after drawing a frame at projector sizes.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "state/sandbox_state.h"

namespace lagrange::app {

struct DrawnGlyph {
  unsigned codepoint = 0;
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;           // the glyph's quad on the screen (window units)
  float clip_x0 = 0, clip_y0 = 0, clip_x1 = 0, clip_y1 = 0;  // the draw command's clip rectangle
  bool trimmed = false;  // the quad holds only part of its glyph (Dear ImGui clipped it on the CPU) ...
  bool trimmed_across = false, trimmed_down = false;  // ... at its side, or at its top or bottom
  bool turned = false;   // drawn turned (a collapsed panel's name)
  std::string window;    // the draw list's owner window ("" for the background and foreground lists)
};
// Every glyph of the last frame (ImGui::GetDrawData(), after ImGui::Render()).
std::vector<DrawnGlyph> drawn_glyphs();

struct DrawnLine {
  std::string text;  // UTF-8; a gap wider than a third of the font size is a space
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  float clip_x1 = 0;
  std::string window;
};
// The glyphs put together into runs: the same window and clip rectangle, the same line, no wide gap.
std::vector<DrawnLine> drawn_lines(std::span<const DrawnGlyph> glyphs);

// The problems of the last frame, one line each, naming the window and the text:
// - "cut": a glyph partly outside its clip rectangle across (any window), or down in a window that cannot scroll;
// - "off screen": a glyph, or an open window (tooltip, popup), outside the display;
// - "number broken": a line ending inside a number whose digits go on at the start of the next line;
// - "overlaps": two texts over the scene (the top line, the legend, a lane's name, a message) on each other;
// - "covers": a text over the scene (the top line, the legend, a lane's name, a message) on a particle.
// Whether the widget rectangle of this name (SandboxState::widget_rects) is a text drawn over the scene: the top line,
// the legend, a message, a lane's name, the Edit banner, the recording's badge, a rod's length label. They keep off
// the particles and each other.
bool over_scene(const std::string& name);
std::vector<std::string> layout_problems(const SandboxState& state, std::span<const double> radii);

}  // namespace lagrange::app
