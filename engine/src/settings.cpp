// The settings table: one entry per key, used by --set, scene files ("settings" object), the app and the docs.
#include "lagrange/settings.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <string>

#include "lagrange/solver.h"
#include "lagrange/text.h"

namespace lagrange {
namespace {

// Parses a whole string as a finite double; false on trailing text, NaN or infinity.
bool parse_double(std::string_view text, double& out) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  const auto result = std::from_chars(text.data(), text.data() + text.size(), out);
  return result.ec == std::errc() && result.ptr == text.data() + text.size() && std::isfinite(out);
}

bool parse_int(std::string_view text, int& out) {
  const auto result = std::from_chars(text.data(), text.data() + text.size(), out);
  return result.ec == std::errc() && result.ptr == text.data() + text.size();
}

enum class Kind { Number, Count, Vector, SolverId };

// Every number has a range: beyond it a value is a typo, overflows a count (dt = 1e-300 is 10^300 steps per
// second), or makes a run last hours (substeps = 2^31). The ranges are documented by range_text (run --help,
// docs/cli.md).
struct Entry {
  SettingInfo info;
  Kind kind;
  double min;        // smallest allowed value (numbers and counts; vectors: of each component)
  bool min_open;     // value must be > min rather than >= min
  double max;        // largest allowed value
  double Settings::*number;
  int Settings::*count;
};

constexpr double kNone = 0.0;

const std::array<Entry, 12> kEntries{{
    {{"dt", "s", "time step: the length of one step"}, Kind::Number, 1e-7, false, 1.0, &Settings::dt, nullptr},
    {{"substeps", "", "solver substeps per step, each of dt / substeps"}, Kind::Count, 1, false, 1000, nullptr,
     &Settings::substeps},
    {{"solver", "", "constraint solver id (lagrange-lab solvers lists them)"}, Kind::SolverId, kNone, false, kNone,
     nullptr, nullptr},
    {{"tolerance", "", "target max |C| / rod length for projection, shake and rattle"}, Kind::Number, 1e-15, false,
     1e-2, &Settings::tolerance, nullptr},
    {{"max_iterations", "",
      "cap on the iterations of each projection attempt (chord or Newton) or on the sweeps (shake, rattle) per substep"},
     Kind::Count, 1, false, 1e6, nullptr, &Settings::max_iterations},
    {{"contact_sweeps", "",
      "cap on the contacts' projection sweeps per substep; 0 = automatic: max_iterations, or more for fewer rows "
      "(up to 200 000 row updates)"},
     Kind::Count, 0, false, 1e6, nullptr, &Settings::contact_sweeps},
    {{"baumgarte", "1/s", "acceleration solver: rate β of the C̈ + 2βĊ + β²C = 0 stabilization (0 = off)"},
     Kind::Number, 0.0, false, 1e6, &Settings::baumgarte, nullptr},
    {{"stiffness", "N/m", "penalty solver: spring constant of every rod and pin"}, Kind::Number, 0.0, true, 1e12,
     &Settings::stiffness, nullptr},
    {{"spring_damping", "N·s/m", "penalty solver: damper along every spring"}, Kind::Number, 0.0, false, 1e9,
     &Settings::spring_damping, nullptr},
    {{"gravity", "m/s²", "gravitational acceleration as x,y,z"}, Kind::Vector, -1e6, false, 1e6, nullptr, nullptr},
    {{"damping", "1/s", "linear drag: force −damping · m · v on every particle"}, Kind::Number, 0.0, false, 1e6,
     &Settings::damping, nullptr},
    {{"turn_limit", "°",
      "projection solver, scenes without contacts or cables: a substep in which a rod turned by more than this angle is "
      "done again as two halves, down to 1/64 of it (0 = off; SHAKE and RATTLE always split at 11.5°)"},
     Kind::Number, 0.0, false, 90.0, &Settings::turn_limit, nullptr},
}};

const Entry* find_entry(std::string_view key) {
  for (const Entry& e : kEntries)
    if (key == e.info.key) return &e;
  return nullptr;
}

std::string short_number(double value) {
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%g", value);
  return buffer;
}

std::string range_of(const Entry& e) {
  return (e.min_open ? "> " : "") + short_number(e.min) + " .. " + short_number(e.max);
}

std::string range_problem(const Entry& e, double value) {
  if ((e.min_open ? value > e.min : value >= e.min) && value <= e.max) return {};
  return std::string(e.info.key) + ": must be in " + range_of(e) + ", got " + format_number(value);
}

}  // namespace

std::span<const SettingInfo> setting_table() {
  static const auto infos = [] {
    std::array<SettingInfo, kEntries.size()> out{};
    for (std::size_t i = 0; i < kEntries.size(); ++i) out[i] = kEntries[i].info;
    return out;
  }();
  return infos;
}

std::string set_setting(Settings& settings, std::string_view key, std::string_view value) {
  const Entry* e = find_entry(key);
  if (!e) {
    std::string keys;
    for (const Entry& entry : kEntries) keys += (keys.empty() ? "" : ", ") + std::string(entry.info.key);
    return "unknown setting " + lagrange::quoted(key) + " (known: " + keys + ")";
  }
  const std::string k(key);
  switch (e->kind) {
    case Kind::Number: {
      double v = 0.0;
      if (!parse_double(value, v)) return k + ": must be a finite number, got " + lagrange::quoted(value);
      if (std::string p = range_problem(*e, v); !p.empty()) return p;
      settings.*(e->number) = v;
      return {};
    }
    case Kind::Count: {
      int v = 0;
      if (!parse_int(value, v)) {
        double x = 0.0;  // a whole number too large for an int is out of range, not malformed
        if (parse_double(value, x) && x == std::floor(x)) return range_problem(*e, x);
        return k + ": must be a whole number, got " + lagrange::quoted(value);
      }
      if (std::string p = range_problem(*e, v); !p.empty()) return p;
      settings.*(e->count) = v;
      return {};
    }
    case Kind::Vector: {
      Vec3 v{0.0};
      std::string_view rest = value;
      for (int i = 0; i < 3; ++i) {
        const std::size_t comma = rest.find(',');
        const std::string_view part = rest.substr(0, comma);
        if (!parse_double(part, v[i]) || (i < 2) == (comma == std::string_view::npos))
          return k + ": must be three finite numbers x,y,z, got " + lagrange::quoted(value);
        rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
      }
      for (int i = 0; i < 3; ++i)
        if (std::string p = range_problem(*e, v[i]); !p.empty()) return p;
      settings.gravity = v;
      return {};
    }
    case Kind::SolverId:
      if (!find_solver(value))
        return k + ": unknown solver " + lagrange::quoted(value) + " (known: " + solver_ids() + ")";
      settings.solver = std::string(value);
      return {};
  }
  return {};
}

std::string range_text(std::string_view key) {
  const Entry* e = find_entry(key);
  if (!e || e->kind == Kind::SolverId) return {};
  return e->kind == Kind::Vector ? "each " + range_of(*e) : range_of(*e);
}

SettingType setting_type(std::string_view key) {
  const Entry* e = find_entry(key);
  if (!e) return SettingType::Number;
  switch (e->kind) {
    case Kind::Number: return SettingType::Number;
    case Kind::Count: return SettingType::Count;
    case Kind::Vector: return SettingType::Vector;
    case Kind::SolverId: return SettingType::Solver;
  }
  return SettingType::Number;
}

std::string get_setting(const Settings& settings, std::string_view key) {
  const Entry* e = find_entry(key);
  if (!e) return {};
  switch (e->kind) {
    case Kind::Number: return format_number(settings.*(e->number));
    case Kind::Count: return std::to_string(settings.*(e->count));
    case Kind::Vector:
      return format_number(settings.gravity.x) + "," + format_number(settings.gravity.y) + "," +
             format_number(settings.gravity.z);
    case Kind::SolverId: return settings.solver;
  }
  return {};
}

std::string validate(const Settings& settings) {
  for (const Entry& e : kEntries) {
    if (e.kind == Kind::Number) {
      const double v = settings.*(e.number);
      if (!std::isfinite(v)) return std::string(e.info.key) + ": must be a finite number";
      if (std::string p = range_problem(e, v); !p.empty()) return p;
    } else if (e.kind == Kind::Count) {
      if (std::string p = range_problem(e, settings.*(e.count)); !p.empty()) return p;
    }
  }
  const Vec3 g = settings.gravity;
  if (!std::isfinite(g.x) || !std::isfinite(g.y) || !std::isfinite(g.z)) return "gravity: must be finite";
  if (std::string p = range_problem(*find_entry("gravity"), std::max({g.x, g.y, g.z})); !p.empty()) return p;
  if (std::string p = range_problem(*find_entry("gravity"), std::min({g.x, g.y, g.z})); !p.empty()) return p;
  if (!find_solver(settings.solver))
    return "solver: unknown solver " + lagrange::quoted(settings.solver) + " (known: " + solver_ids() + ")";
  // A substep too short to move anything: from rest a particle moves g h² in a substep of length h, and a position
  // x keeps only changes above half its rounding step (2^-53 |x|). At h = 1e-7 s, g h² = 9.8e-14 m is kept for
  // |x| up to about 880 m under Earth's gravity; at dt 1e-9 s nothing ever moved (the pendulum's speed stayed 0 for
  // 2·10^6 steps). docs/scenes.md, "Settings".
  if (settings.dt / settings.substeps < kMinSubstep)
    return "dt / substeps: " + format_number(settings.dt) + " s / " + std::to_string(settings.substeps) +
           " is a substep of " + format_number(settings.dt / settings.substeps) + " s, below the limit of " +
           format_number(kMinSubstep) + " s, where a step's motion is lost to rounding (a longer dt or fewer substeps)";
  return {};
}

}  // namespace lagrange
