#include "ui/text_box.h"

#include <algorithm>
#include <cfloat>
#include <algorithm>
#include <cmath>
#include <cstdio>

namespace lagrange::app {

ImVec2 text_size(const std::string& text) {
  ImFontAtlas* atlas = ImGui::GetIO().Fonts;
  if (atlas->Fonts.empty()) return ImVec2(0.0f, 0.0f);
  // Before the first frame the atlas may not be built yet (the backend builds it then): its glyphs are needed to
  // measure, and building it now changes nothing the backend uploads.
  if (!atlas->IsBuilt()) atlas->Build();
  ImFont* font = atlas->Fonts[0];  // the one font, at the size the panels use (FontGlobalScale stays 1)
  return font->CalcTextSizeA(font->FontSize, FLT_MAX, 0.0f, text.data(), text.data() + text.size());
}

namespace {

// The number with `digits` significant digits (and its unit).
std::string number_text(double value, const std::string& unit, bool sign, int digits) {
  char text[64];
  if (!std::isfinite(value)) {
    std::snprintf(text, sizeof text, "%s%s%s", std::isnan(value) ? "NaN" : (value > 0 ? "inf" : "-inf"),
                  unit.empty() ? "" : "\xc2\xa0", unit.c_str());
    return text;
  }
  if (value == 0.0) return std::string(sign ? "+0" : "0") + (unit.empty() ? "" : "\xc2\xa0" + unit);
  const double magnitude = std::abs(value);
  const bool prefixable = !unit.empty() && unit != "%";
  if (prefixable && magnitude >= 1e-9 && magnitude < 1e6) {
    static constexpr struct { double factor; const char* prefix; } kPrefixes[] = {
        {1e3, "k"}, {1.0, ""}, {1e-3, "m"}, {1e-6, "\xc2\xb5"}, {1e-9, "n"}};
    for (const auto& p : kPrefixes) {
      if (magnitude < p.factor * (1.0 - 0.5 * std::pow(10.0, -digits)) && p.factor > 1e-9) continue;
      const double scaled = value / p.factor;
      // Digits after the point so that `digits` are significant (123.45 → 2, 1.2345 → 4).
      const int whole = std::abs(scaled) >= 1.0 ? static_cast<int>(std::floor(std::log10(std::abs(scaled)))) + 1 : 1;
      const int decimals = std::max(digits - whole, 0);
      std::snprintf(text, sizeof text, sign ? "%+.*f\xc2\xa0%s%s" : "%.*f\xc2\xa0%s%s", decimals, scaled, p.prefix, unit.c_str());
      return text;
    }
  }
  if (magnitude >= 1e-3 && magnitude < 1e6) {  // no prefix to take: plain decimals
    const int whole = static_cast<int>(std::floor(std::log10(magnitude))) + 1;  // 0.0123 → −1: 5 digits, 6 decimals
    const int decimals = std::max(digits - whole, 0);
    std::snprintf(text, sizeof text, sign ? "%+.*f%s%s" : "%.*f%s%s", decimals, value, unit.empty() ? "" : "\xc2\xa0",
                  unit.c_str());
    return text;
  }
  // Far from 1: three digits at most ("9.09e-13 m"); more would only be noise at that size.
  std::snprintf(text, sizeof text, sign ? "%+.*e%s%s" : "%.*e%s%s", std::clamp(digits - 1, 1, 2), value,
                unit.empty() ? "" : "\xc2\xa0", unit.c_str());
  return text;
}

}  // namespace

std::string fit_number(double value, const std::string& unit, float width, bool sign, int max_digits,
                       const std::function<float(const std::string&)>& measure) {
  const auto width_of = [&](const std::string& text) { return measure ? measure(text) : text_size(text).x; };
  std::string text;
  for (int digits = std::max(max_digits, 2); digits >= 2; --digits) {
    text = number_text(value, unit, sign, digits);
    if (width_of(text) <= width) break;
  }
  return text;
}

ImVec2 TextBox::measure(const std::string& text) const {
  const ImVec2 size = text_size(text);
  return ImVec2(size.x * font_, size.y * font_);
}

void TextBox::place(Item item, float gap_before) {
  if (!line_empty_ && x_ + gap_before + item.w > max_width_) new_line();
  if (!line_empty_) x_ += gap_before;
  item.x = x_;
  item.y = y_;
  x_ += item.w;
  line_h_ = std::max(line_h_, item.h);
  width_ = std::max(width_, x_);
  line_empty_ = false;
  items_.push_back(std::move(item));
}

void TextBox::piece(ImU32 colour, const std::string& text, bool separator) {
  Item item;
  item.colour = colour;
  item.text = text;
  const ImVec2 size = measure(text);
  item.w = size.x;
  item.h = size.y;
  const float space = measure(" ").x;
  if (separator && !line_empty_) {
    const float sep = measure(" | ").x;
    if (x_ + sep + item.w <= max_width_) {  // the separator only between two pieces of one line
      Item bar;
      bar.colour = ImGui::GetColorU32(ImGuiCol_TextDisabled);
      bar.text = " | ";
      bar.w = sep;
      bar.h = item.h;
      place(std::move(bar), 0.0f);
      place(std::move(item), 0.0f);
      return;
    }
  }
  place(std::move(item), line_empty_ ? 0.0f : 2.0f * space);
}

void TextBox::words(ImU32 colour, const std::string& text) {
  if (!line_empty_) new_line();
  std::string line;
  const auto flush = [&] {
    if (line.empty()) return;
    Item item;
    item.colour = colour;
    item.text = line;
    const ImVec2 size = measure(line);
    item.w = size.x;
    item.h = size.y;
    place(std::move(item), 0.0f);
    new_line();
    line.clear();
  };
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t end = std::min(text.find(' ', at), text.size());
    const std::string word = text.substr(at, end - at);
    const std::string longer = line.empty() ? word : line + " " + word;
    if (!line.empty() && measure(longer).x > max_width_) {
      flush();
      line = word;
    } else {
      line = longer;
    }
    // A word wider than the box (a file path) is broken after its last '/' that fits, else at the last character
    // that fits (never inside a UTF-8 sequence), so the box keeps its width.
    while (measure(line).x > max_width_) {
      std::size_t fits = 0, slash = 0;
      for (std::size_t i = 1; i < line.size(); ++i) {
        if ((static_cast<unsigned char>(line[i]) & 0xC0) == 0x80) continue;
        if (measure(line.substr(0, i)).x > max_width_) break;
        fits = i;
        if (line[i - 1] == '/') slash = i;
      }
      const std::size_t cut = slash > 0 ? slash : fits;
      if (cut == 0) break;  // not even one character fits
      const std::string rest = line.substr(cut);
      line.resize(cut);
      flush();
      line = rest;
    }
    at = end + 1;
  }
  flush();
}

void TextBox::new_line() {
  if (line_empty_) return;
  y_ += line_h_ + 2.0f;
  x_ = 0.0f;
  line_h_ = 0.0f;
  line_empty_ = true;
}

void TextBox::bar(float width, float height, std::function<ImU32(float)> colour_at) {
  Item item;
  item.kind = Item::Kind::Bar;
  item.w = width;
  item.h = std::max(height, measure("Ag").y);  // the line's height; the bar itself is drawn `height` tall
  item.colour_at = std::move(colour_at);
  item.bar = static_cast<int>(bar_heights_.size());
  bar_heights_.push_back(height);
  place(std::move(item), measure(" ").x);
}

void TextBox::spread(float width, ImU32 colour_left, const std::string& left, ImU32 colour_middle,
                     const std::string& middle, ImU32 colour_right, const std::string& right) {
  new_line();
  const float h = measure("Ag").y;
  const ImVec2 l = measure(left), m = measure(middle), r = measure(right);
  const float space = measure(" ").x;
  // Wider than the bar when the labels need it: never on top of each other.
  width = std::max(width, l.x + m.x + r.x + 4.0f * space);
  float mid = 0.5f * (width - m.x);
  mid = std::clamp(mid, l.x + space, width - r.x - space - m.x);
  for (const auto& [text, colour, x, w] : {std::tuple{left, colour_left, 0.0f, l.x},
                                           std::tuple{middle, colour_middle, mid, m.x},
                                           std::tuple{right, colour_right, width - r.x, r.x}}) {
    Item item;
    item.colour = colour;
    item.text = text;
    item.x = x;
    item.y = y_;
    item.w = w;
    item.h = h;
    items_.push_back(std::move(item));
  }
  width_ = std::max(width_, width);
  line_h_ = h;
  line_empty_ = false;
  new_line();
}

ImVec2 TextBox::size() const {
  const float h = line_empty_ ? std::max(y_ - 2.0f, 0.0f) : y_ + line_h_;
  return ImVec2(width_ + 2.0f * pad_, h + 2.0f * pad_);
}

void TextBox::draw(ImDrawList* draw, ImVec2 at, ImU32 background, float rounding) const {
  const ImVec2 size = this->size();
  draw->AddRectFilled(at, ImVec2(at.x + size.x, at.y + size.y), background, rounding);
  for (const Item& item : items_) {
    const ImVec2 p(at.x + pad_ + item.x, at.y + pad_ + item.y);
    if (item.kind == Item::Kind::Text) {
      ImFont* font = ImGui::GetIO().Fonts->Fonts[0];
      draw->AddText(font, font->FontSize * font_, p, item.colour, item.text.c_str());
      continue;
    }
    constexpr int kSteps = 44;
    const float h = bar_heights_[static_cast<std::size_t>(item.bar)];
    const float y = p.y + 0.5f * (item.h - h);
    for (int k = 0; k < kSteps; ++k)
      draw->AddRectFilled(ImVec2(p.x + item.w * k / kSteps, y), ImVec2(p.x + item.w * (k + 1) / kSteps + 0.5f, y + h),
                          item.colour_at(static_cast<float>(k) / (kSteps - 1)));
  }
}

}  // namespace lagrange::app
