#include "cli/args.h"

#include <charconv>
#include <cmath>

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
  next_ += 2;
  return items_[next_ - 1];
}

std::optional<std::string> Args::positional() {
  if (empty() || (items_[next_].size() > 1 && items_[next_][0] == '-')) return std::nullopt;
  return items_[next_++];
}

void Args::finish() const {
  if (empty()) return;
  const std::string& item = items_[next_];
  if (item.size() > 1 && item[0] == '-') throw UsageError("unknown option '" + item + "' (see --help)");
  throw UsageError("unexpected argument '" + item + "' (see --help)");
}

double parse_number(const std::string& flag, const std::string& text) {
  double value = 0.0;
  const auto result = std::from_chars(text.data(), text.data() + text.size(), value);
  if (result.ec != std::errc() || result.ptr != text.data() + text.size() || !std::isfinite(value))
    throw UsageError(flag + ": expected a finite number, got '" + text + "'");
  return value;
}

long parse_count(const std::string& flag, const std::string& text, long min) {
  long value = 0;
  const auto result = std::from_chars(text.data(), text.data() + text.size(), value);
  if (result.ec != std::errc() || result.ptr != text.data() + text.size())
    throw UsageError(flag + ": expected a whole number, got '" + text + "'");
  if (value < min) throw UsageError(flag + ": must be at least " + std::to_string(min) + ", got " + text);
  return value;
}

}  // namespace lagrange::cli
