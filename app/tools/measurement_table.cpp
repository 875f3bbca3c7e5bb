#include "tools/measurement_table.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <exception>
#include <limits>
#include <map>
#include <numbers>

#include "capture/output_file.h"
#include "capture/screenshot_folder.h"

namespace lagrange::app {
namespace {

struct Lab {
  double l, a, b;
};

// sRGB (0..1) to CIELAB under D65.
Lab to_lab(const glm::vec3& colour) {
  auto linear = [](double c) {
    c = std::clamp(c, 0.0, 1.0);
    return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
  };
  const double r = linear(colour.r), g = linear(colour.g), b = linear(colour.b);
  const double x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
  const double y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  const double z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
  auto f = [](double t) { return t > 216.0 / 24389.0 ? std::cbrt(t) : (24389.0 / 27.0 * t + 16.0) / 116.0; };
  const double fx = f(x), fy = f(y), fz = f(z);
  return {116.0 * fy - 16.0, 500.0 * (fx - fy), 200.0 * (fy - fz)};
}

struct Named {
  const char* name;
  unsigned rgb;  // 0xrrggbb
};
// Each word's typical sRGB colours: a few per word, so that pure blue #0000ff, a sky blue and the scenes' mid blue
// are all "blue" (a single blue sits closer to purple than pure blue does in CIELAB).
constexpr Named kNamed[] = {
    {"red", 0xd7302b},    {"red", 0xff0000},    {"red", 0xb41e28},    {"orange", 0xf08228}, {"orange", 0xff8000},
    {"yellow", 0xebc828}, {"yellow", 0xffff00}, {"green", 0x50af46},  {"green", 0x00c800},  {"green", 0x008000},
    {"teal", 0x28aaa0},   {"teal", 0x008080},   {"blue", 0x3278dc},   {"blue", 0x0000ff},   {"blue", 0x1e3caa},
    {"blue", 0x64aaf0},   {"blue", 0x87c3eb},   {"purple", 0x8c50c8}, {"purple", 0x800080}, {"purple", 0x8000ff},
    {"pink", 0xeb64a0},   {"pink", 0xff69b4},   {"pink", 0xffaac8},   {"brown", 0x8c5a32},  {"brown", 0x8b4513},
    {"grey", 0x808080},   {"grey", 0xbebebe},   {"grey", 0x505050},   {"white", 0xf5f5f5},  {"black", 0x141414},
};

glm::vec3 from_hex(unsigned rgb) {
  return glm::vec3(static_cast<float>((rgb >> 16) & 0xff), static_cast<float>((rgb >> 8) & 0xff),
                   static_cast<float>(rgb & 0xff)) / 255.0f;
}

std::string hex(const glm::vec3& colour) {
  auto byte = [](float c) { return static_cast<int>(std::lround(std::clamp(c, 0.0f, 1.0f) * 255.0f)); };
  char text[16];
  std::snprintf(text, sizeof text, "#%02x%02x%02x", byte(colour.r), byte(colour.g), byte(colour.b));
  return text;
}

// One field of a row: quoted (quotes doubled) when it holds the separator, a quote or a line end.
std::string field(const std::string& text, char separator) {
  if (text.find_first_of(std::string{separator, '"', '\n', '\r'}) == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

template <typename... Args>
std::string format(const char* pattern, Args... args) {
  char text[64];
  std::snprintf(text, sizeof text, pattern, args...);
  return text;
}

}  // namespace

std::string colour_name(const glm::vec3& colour) {
  const Lab lab = to_lab(colour);
  const char* best = "grey";
  double nearest = std::numeric_limits<double>::infinity();
  for (const Named& named : kNamed) {
    const Lab ref = to_lab(from_hex(named.rgb));
    const double d = (lab.l - ref.l) * (lab.l - ref.l) + (lab.a - ref.a) * (lab.a - ref.a) + (lab.b - ref.b) * (lab.b - ref.b);
    if (d < nearest) {
      nearest = d;
      best = named.name;
    }
  }
  return best;
}

std::vector<std::string> bob_names(std::span<const int> particles, std::span<const std::optional<glm::vec3>> colours) {
  std::vector<std::string> words(particles.size());
  std::map<std::string, int> count;
  std::map<std::array<float, 3>, std::string> named;  // a cloth's thousand particles share one colour: named once
  for (std::size_t i = 0; i < particles.size(); ++i) {
    if (i >= colours.size() || !colours[i]) continue;
    const glm::vec3& c = *colours[i];
    auto [it, added] = named.try_emplace({c.r, c.g, c.b});
    if (added) it->second = colour_name(c);
    ++count[words[i] = it->second];
  }
  std::vector<std::string> names(particles.size());
  for (std::size_t i = 0; i < particles.size(); ++i) {
    const std::string number = std::to_string(particles[i]);
    if (words[i].empty()) names[i] = "bob " + number;
    else if (count[words[i]] > 1) names[i] = words[i] + " bob " + number;
    else names[i] = words[i] + " bob";
  }
  return names;
}

std::string signed_percent(double fraction, bool ascii) {
  const double percent = 100.0 * fraction;
  if (!std::isfinite(percent)) return "?";
  if (percent == 0.0) return "0 %";
  const int decimals = std::clamp(1 - static_cast<int>(std::floor(std::log10(std::abs(percent)))), 0, 5);
  char text[48];
  std::snprintf(text, sizeof text, "%.*f %%", decimals, std::abs(percent));
  return std::string(percent > 0.0 ? "+" : (ascii ? "-" : "\xe2\x88\x92")) + text;
}

std::string table_text(const MeasurementTable& table, char separator) {
  constexpr double kDeg = 180.0 / std::numbers::pi;
  const char* header[] = {"bob", "particle", "colour", "amplitude (deg)", "measured T (s)", "exact T (s)",
                          "small-angle T (s)", "measured/exact - 1 (%)", "T/T0", "L (m)", "g (m/s^2)",
                          "periods timed"};
  std::string text;
  for (const char* name : header) text += field(name, separator) + separator;
  text.back() = '\n';
  for (const TableRow& row : table.rows) {
    const std::string fields[] = {
        row.name,
        std::to_string(row.particle),
        row.colour ? hex(*row.colour) : std::string(),
        format("%.4f", row.amplitude * kDeg),
        format("%.7f", row.period),
        format("%.7f", row.exact),
        format("%.7f", row.small_angle),
        format("%+.5f", 100.0 * row.difference()),
        format("%.6f", row.ratio()),
        format("%.6g", row.length),
        format("%.6g", row.gravity),
        std::to_string(row.intervals),
    };
    for (const std::string& value : fields) text += field(value, separator) + separator;
    text.back() = '\n';
  }
  return text;
}

std::string write_table_csv(const MeasurementTable& table, const std::string& path,
                            const std::filesystem::path& scene_file) {
  try {
    if (table.rows.empty()) return "the table is empty: add a measurement first";
    if (!scene_file.empty()) io::refuse_same_file(scene_file.string(), path);
    if (std::string folder = make_parent_folder(path); !folder.empty()) return folder;
    return io::write_file(path, table_text(table, ','));
  } catch (const std::exception& error) {
    return error.what();
  }
}

}  // namespace lagrange::app
