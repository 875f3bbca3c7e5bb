// A small, strict argument reader shared by the subcommands: every unknown flag or bad value is an error that
// names the flag (exit code 2), never ignored.
#pragma once

#include "lagrange/text.h"

#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "lagrange/scene.h"

namespace lagrange::cli {

// Thrown for bad command lines; the message is printed after "lagrange-lab COMMAND: ".
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Args {
 public:
  Args(int argc, char** argv);  // the arguments after the subcommand word
  bool empty() const { return next_ >= items_.size(); }
  // True (and consumed) when the next item is exactly `flag`.
  bool flag(const char* name);
  // The value after `name` when the next item is `name VALUE` or `name=VALUE`. A separate VALUE that looks like an
  // option ("--quiet", "-x"; a negative number is fine) is refused, so `--csv --quiet` never writes a file "--quiet".
  std::optional<std::string> option(const char* name);
  // The next item if it does not start with '-'.
  std::optional<std::string> positional();
  const std::string& peek() const { return items_[next_]; }
  // Throws UsageError("unknown option X") when items remain.
  void finish() const;

 private:
  std::vector<std::string> items_;
  std::size_t next_ = 0;
};

// The most steps one command may run (run --steps, --duration / dt; shot --steps, --time / dt): 10^8 steps of the
// smallest scene take about a minute; more is a typo, or an overflow waiting to happen.
constexpr long kMaxSteps = 100'000'000;
// And at most this many substeps in one run (steps × substeps): the same bound on the work, whatever the split.
constexpr long kMaxSubsteps = 1'000'000'000;

double parse_number(const std::string& flag, const std::string& text);  // finite double
// An integer in min..max; a message naming the flag and the range otherwise (no silent wrap-around).
// Without a max, kMaxCount: no count is ever allowed to wrap around or silently truncate.
constexpr long kMaxCount = 1'000'000'000;
long parse_count(const std::string& flag, const std::string& text, long min, long max = kMaxCount);
// ceil(seconds / dt) steps; UsageError when that is more than kMaxSteps.
long steps_for_duration(double seconds, double dt);
// The work bound of every command that steps (run, shot): UsageError when steps × substeps > kMaxSubsteps.
void check_substeps(long steps, int substeps);
// The options that choose how a scene file is read, shared by every command that reads one (run, shot):
// `--allow-large` lifts the size limits (docs/cli.md, "Limits"). True (and consumed) when the next item is one.
bool scene_option(Args& args, SceneLimits& limits);
// `--set KEY=VALUE`, repeatable, shared by the commands that take settings: true (and consumed, the pair appended)
// when the next item is one; UsageError when it has no '='. apply_sets then applies them in order, throwing
// UsageError("--set " + the setting's problem).
using SettingPairs = std::vector<std::pair<std::string, std::string>>;
bool set_option(Args& args, SettingPairs& sets);
void apply_sets(Settings& settings, const SettingPairs& sets);
using lagrange::format_number;  // text.h: the one number formatter

// By default a run whose relative violation exceeds this failed: a rod stretched or squeezed by more than its own
// length has lost its meaning (docs/cli.md, exit code 3). run's --max-violation changes it; shot uses it as it is.
inline constexpr double kFailedViolation = 1.0;

}  // namespace lagrange::cli
