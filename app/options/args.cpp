#include "options/args.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>

#include "lagrange/settings.h"
#include "lagrange/text.h"

namespace lagrange::cli {

Args::Args(int argc, char** argv) : items_(argv, argv + argc) {}

bool Args::flag(const char* name) {
  if (empty() || items_[next_] != name) return false;
  ++next_;
  return true;
}

std::optional<std::string> Args::option(const char* name) {
  if (empty()) return std::nullopt;
  const std::string& item = items_[next_];
  const std::string prefix = std::string(name) + "=";
  if (item.rfind(prefix, 0) == 0) {
    ++next_;
    return item.substr(prefix.size());
  }
  if (item != name) return std::nullopt;
  if (next_ + 1 >= items_.size()) throw UsageError(std::string(name) + " needs a value");
  const std::string& value = items_[next_ + 1];
  const bool looks_like_option =
      value.size() > 1 && value[0] == '-' &&
      (value[1] == '-' || std::isalpha(static_cast<unsigned char>(value[1])));
  if (looks_like_option)
    throw UsageError(std::string(name) + " needs a value, got the option " + lagrange::quoted(value) + " (write " + name +
                     "=" + printable(value) + " if that is really the value)");
  next_ += 2;
  return value;
}

std::optional<std::string> Args::positional() {
  if (empty() || (items_[next_].size() > 1 && items_[next_][0] == '-')) return std::nullopt;
  return items_[next_++];
}

void Args::finish() const {
  if (empty()) return;
  const std::string& item = items_[next_];
  if (item.size() > 1 && item[0] == '-') throw UsageError("unknown option " + lagrange::quoted(item) + " (see --help)");
  throw UsageError("unexpected argument " + lagrange::quoted(item) + " (see --help)");
}

double parse_number(const std::string& flag, const std::string& text) {
  double value = 0.0;
  const auto result = std::from_chars(text.data(), text.data() + text.size(), value);
  if (result.ec != std::errc() || result.ptr != text.data() + text.size() || !std::isfinite(value))
    throw UsageError(flag + ": expected a finite number, got " + lagrange::quoted(text));
  return value;
}

long parse_count(const std::string& flag, const std::string& text, long min, long max) {
  long value = 0;
  const auto result = std::from_chars(text.data(), text.data() + text.size(), value);
  if (result.ec == std::errc::result_out_of_range && result.ptr == text.data() + text.size())
    throw UsageError(flag + ": must be at most " + std::to_string(max) + ", got " + printable(text));
  if (result.ec != std::errc() || result.ptr != text.data() + text.size())
    throw UsageError(flag + ": expected a whole number, got " + lagrange::quoted(text));
  if (value < min) throw UsageError(flag + ": must be at least " + std::to_string(min) + ", got " + printable(text));
  if (value > max) throw UsageError(flag + ": must be at most " + std::to_string(max) + ", got " + printable(text));
  return value;
}

long steps_for_duration(double seconds, double dt) {
  const double steps = std::ceil(seconds / dt - 1e-9);
  if (!(steps <= static_cast<double>(kMaxSteps)))
    throw UsageError("--duration " + format_number(seconds) + " at dt " + format_number(dt) + " is " +
                     format_number(steps) + " steps; at most " + std::to_string(kMaxSteps) +
                     " (a longer dt, or a shorter duration)");
  return std::max(0L, static_cast<long>(steps));
}

void check_substeps(long steps, int substeps) {
  if (static_cast<double>(steps) * substeps > static_cast<double>(kMaxSubsteps))
    throw UsageError(std::to_string(steps) + " steps of " + std::to_string(substeps) + " substeps each is more than " +
                     std::to_string(kMaxSubsteps) + " substeps (hours of work)");
}

bool scene_option(Args& args, SceneLimits& limits) {
  if (!args.flag("--allow-large")) return false;
  limits = SceneLimits::unlimited();
  return true;
}

bool set_option(Args& args, SettingPairs& sets) {
  const auto v = args.option("--set");
  if (!v) return false;
  const auto eq = v->find('=');
  if (eq == std::string::npos || eq == 0) throw UsageError("--set: expected KEY=VALUE, got " + lagrange::quoted(*v));
  sets.emplace_back(v->substr(0, eq), v->substr(eq + 1));
  return true;
}

void apply_sets(Settings& settings, const SettingPairs& sets) {
  for (const auto& [key, value] : sets)
    if (std::string problem = set_setting(settings, key, value); !problem.empty()) throw UsageError("--set " + problem);
}

}  // namespace lagrange::cli
