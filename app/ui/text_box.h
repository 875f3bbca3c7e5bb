// A box of text drawn straight onto a draw list: the overlays over the scene (the top line, the legend, a lane's
// name, a message). It is measured before it is drawn, so that it can be placed first (overlay_layout.h). Text
// flows into lines no wider than a limit and breaks only between pieces or at a space inside a message: a number is
// one piece and is never broken.
#pragma once

#include <imgui.h>

#include <functional>
#include <string>
#include <vector>

namespace lagrange::app {

// The size of `text` in the panels' font (usable before the first frame: the atlas's font at its own size).
ImVec2 text_size(const std::string& text);

// A number and its unit as text no wider than `width` (window units; measured by `measure`, the panels' font when
// not given): the most significant digits, from `max_digits` down to 2, for which it fits. Between 1e-9 and 1e6 it
// is written with an SI prefix (n, µ, m, k: "+133.77 mJ", "1.8 µs"), outside that range in scientific notation with
// three digits at most ("7.77e-16 m"); a unit of "%" or "" takes no prefix ("+0.146 %"). At two digits it stops, however narrow the space: a number is
// shortened, never cut or broken across lines. `sign`: always show + or −.
std::string fit_number(double value, const std::string& unit, float width, bool sign = false, int max_digits = 5,
                       const std::function<float(const std::string&)>& measure = {});

class TextBox {
 public:
  // max_width: the widest a line may be (inside the padding); pad: the padding around the text.
  // font: the text's size as a fraction of the panels' font.
  TextBox(float max_width, float pad, float font = 1.0f) : max_width_(max_width), pad_(pad), font_(font) {}

  // A piece of text after the last one on the line (with a separator " | " when `separator`), or on a new line when
  // it does not fit.
  void piece(ImU32 colour, const std::string& text, bool separator = true);
  // A message: its words flow into lines, breaking only at spaces.
  void words(ImU32 colour, const std::string& text);
  // Ends the line (the next piece starts a new one).
  void new_line();
  // A bar `width` × `height` after the last piece (or on a new line when it does not fit), coloured along its length
  // by `colour_at(u)`, u in [0, 1], centred on the line's text.
  void bar(float width, float height, std::function<ImU32(float)> colour_at);
  // A line `width` wide with three labels: at its left end, centred, at its right end (a bar's scale).
  void spread(float width, ImU32 colour_left, const std::string& left, ImU32 colour_middle, const std::string& middle,
              ImU32 colour_right, const std::string& right);

  ImVec2 size() const;  // with the padding
  bool empty() const { return items_.empty(); }
  // Draws the box with its top-left corner at `at`.
  void draw(ImDrawList* draw, ImVec2 at, ImU32 background, float rounding) const;

 private:
  struct Item {
    enum class Kind { Text, Bar } kind = Kind::Text;
    float x = 0.0f, y = 0.0f, w = 0.0f, h = 0.0f;  // inside the padding
    ImU32 colour = 0;
    std::string text;
    std::function<ImU32(float)> colour_at;
    int bar = -1;  // a bar's index in bar_heights_
  };
  void place(Item item, float gap_before);
  ImVec2 measure(const std::string& text) const;
  float max_width_, pad_, font_ = 1.0f;
  float x_ = 0.0f, y_ = 0.0f, line_h_ = 0.0f, width_ = 0.0f;
  bool line_empty_ = true;
  std::vector<Item> items_;
  std::vector<float> bar_heights_;
};

}  // namespace lagrange::app
