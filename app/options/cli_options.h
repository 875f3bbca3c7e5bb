// Parsing helpers shared by the window and `shot` command lines.
#pragma once

#include <charconv>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>

#include "lagrange/solver.h"
#include "lagrange/text.h"

namespace lagrange::app {

// "1280x720" → width, height (each 16..8192).
inline bool parse_size(std::string_view text, int& width, int& height) {
  const auto x = text.find('x');
  if (x == std::string_view::npos) return false;
  const auto w = text.substr(0, x), h = text.substr(x + 1);
  auto [pw, ew] = std::from_chars(w.data(), w.data() + w.size(), width);
  auto [ph, eh] = std::from_chars(h.data(), h.data() + h.size(), height);
  return ew == std::errc() && eh == std::errc() && pw == w.data() + w.size() && ph == h.data() + h.size() &&
         width >= 16 && height >= 16 && width <= 8192 && height <= 8192;
}

// Prints "PREFIX: MESSAGE" and the usage text (a printf format taking the solver ids) to stderr; returns exit code 2.
inline int usage_error(const char* prefix, const char* usage, const std::string& message) {
  // Values may hold escape sequences, and be long: escaped, and the line kept short.
  std::fprintf(stderr, "%s: %s\n", prefix, bounded_message(printable(message, 4096)).c_str());
  std::fprintf(stderr, usage, solver_ids().c_str());
  return 2;
}

}  // namespace lagrange::app
