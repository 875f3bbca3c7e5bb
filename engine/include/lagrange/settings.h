// Every tunable of a simulation in one plain struct. The app edits a copy and hands it to the world between steps.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "lagrange/types.h"

namespace lagrange {

struct Settings {
  double dt = 1.0 / 60.0;        // seconds per step
  int substeps = 1;              // each step is `substeps` solver substeps of dt / substeps
  std::string solver = "projection";
  double tolerance = 1e-10;      // on max |C| / length scale, for the iterative position solvers
  int max_iterations = 100;      // iterations of each projection attempt, or sweeps (shake, rattle), per substep
  int contact_sweeps = 0;        // the contacts' projection sweeps per substep; 0: max(max_iterations, 2e5 / rows)
  double baumgarte = 0.0;        // 1/s; acceleration solver adds 2β Ċ + β² C to C̈ = 0. 0 = off (the drift shows)
  double stiffness = 1e4;        // N/m, penalty solver's spring constant
  double spring_damping = 0.0;   // N·s/m, penalty solver's damper along each spring
  Vec3 gravity{0.0, -9.81, 0.0}; // m/s²
  double damping = 0.0;          // 1/s, linear drag force −damping · m · v on every particle
  double turn_limit = 0.0;       // degrees; projection splits a substep in which a rod turned further. 0 = off
};

// One row of the settings table: the single list behind `--set KEY=VALUE`, `lagrange-lab run --help` and the docs.
struct SettingInfo {
  const char* key;
  const char* unit;
  const char* description;
};

std::span<const SettingInfo> setting_table();

// Sets `key` from text. Returns an empty string on success, otherwise a message naming the key and the problem.
// Values are checked against each key's range (range_text), finite numbers, a known solver id, ...
std::string set_setting(Settings& settings, std::string_view key, std::string_view value);
// The allowed range of `key` as text ("1e-06 .. 1", "> 0 .. 1e+12", "each -1e+06 .. 1e+06"); "" for the solver id.
std::string range_text(std::string_view key);
// The current value of `key` as text (full precision), or an empty string for an unknown key.
std::string get_setting(const Settings& settings, std::string_view key);
// What a key's value is, for callers that hand values out typed (the Python package's settings dict): a Number is a
// double, a Count an int, a Vector three doubles (x,y,z), the Solver an id. Number for an unknown key.
enum class SettingType { Number, Count, Vector, Solver };
SettingType setting_type(std::string_view key);
// The shortest substep (dt / substeps) a simulation may take, in seconds: below it a step's motion from rest, g h²,
// is lost to the rounding of positions (validate()).
inline constexpr double kMinSubstep = 1e-7;
// Checks a whole Settings struct; empty string when valid.
std::string validate(const Settings& settings);

}  // namespace lagrange
