// A small, strict argument reader shared by the subcommands: every unknown flag or bad value is an error that
// names the flag (exit code 2), never ignored.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

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
  // The value after `name` when the next item is `name VALUE` or `name=VALUE`.
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

double parse_number(const std::string& flag, const std::string& text);      // finite double
long parse_count(const std::string& flag, const std::string& text, long min);  // integer >= min

}  // namespace lagrange::cli
