// Emscripten 3.1.6's libc++ (LLVM 14) has std::from_chars and std::to_chars for integers only; the engine and the
// sandbox also parse and print doubles with them. This web-build-only header (force-included by app/web/CMakeLists.txt)
// supplies the floating-point overloads they use, on top of strtod / snprintf in the C locale:
// - from_chars: no leading whitespace, no '+', no hex, nothing read past `last`, the value untouched on failure; out
//   of range (overflow or underflow, as libstdc++ reports it) gives errc::result_out_of_range.
// - to_chars(double): the shortest digits that read back as the same double, written fixed or scientific, whichever
//   is shorter (fixed on a tie), with at least two exponent digits: "0.1", "-2.5e-07", "1e+300", "100000".
// Remove it once Debian's emscripten ships a libc++ with them (LLVM 20).
#pragma once

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <system_error>

namespace lagrange_web_compat {

template <class T>
std::from_chars_result float_from_chars(const char* first, const char* last, T& value) {
  const char* p = first;
  if (p != last && *p == '-') ++p;
  const bool digit_or_dot = p != last && ((*p >= '0' && *p <= '9') || *p == '.');
  const bool word = p != last && (*p == 'i' || *p == 'I' || *p == 'n' || *p == 'N');
  if (!digit_or_dot && !word) return {first, std::errc::invalid_argument};
  if (p + 1 < last && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {  // "0x1p3" reads as 0 followed by "x1p3"
    value = static_cast<T>(first[0] == '-' ? -0.0 : 0.0);
    return {p + 1, std::errc{}};
  }
  const std::string text(first, last);
  char* end = nullptr;
  errno = 0;
  const double parsed = std::strtod(text.c_str(), &end);
  if (end == text.c_str()) return {first, std::errc::invalid_argument};
  const char* stop = first + (end - text.c_str());
  // ERANGE: overflow (inf) and underflow to zero are out of range; a denormal result is a value.
  if (errno == ERANGE && (parsed == 0.0 || parsed - parsed != 0)) return {stop, std::errc::result_out_of_range};
  if constexpr (sizeof(T) < sizeof(double)) {
    const T narrowed = static_cast<T>(parsed);
    if ((parsed != 0.0 && narrowed == 0) || (narrowed - narrowed != 0 && parsed - parsed == 0))
      return {stop, std::errc::result_out_of_range};
    value = narrowed;
  } else {
    value = static_cast<T>(parsed);
  }
  return {stop, std::errc{}};
}

inline std::to_chars_result shortest_to_chars(char* first, char* last, double value) {
  std::string out;
  if (value != value) {
    out = "nan";
  } else if (value - value != 0) {
    out = value < 0 ? "-inf" : "inf";
  } else {
    char buffer[400];
    for (int precision = 0; precision <= 17; ++precision) {  // %.{p}e: p + 1 significant digits
      std::snprintf(buffer, sizeof buffer, "%.*e", precision, value);
      if (std::strtod(buffer, nullptr) == value) break;
    }
    std::string text = buffer;
    const bool negative = text[0] == '-';
    if (negative) text.erase(0, 1);
    const std::size_t e = text.find('e');
    const int exponent = std::atoi(text.c_str() + e + 1);
    std::string digits = text.substr(0, e);
    if (digits.size() > 1) digits.erase(1, 1);  // the '.'
    std::string scientific = digits.substr(0, 1);
    if (digits.size() > 1) scientific += "." + digits.substr(1);
    char tail[8];
    std::snprintf(tail, sizeof tail, "e%c%02d", exponent < 0 ? '-' : '+', exponent < 0 ? -exponent : exponent);
    scientific += tail;
    std::string fixed;
    if (exponent >= 0) {
      const std::size_t whole = static_cast<std::size_t>(exponent) + 1;
      if (digits.size() <= whole) {  // an integer: its exact digits (as std::to_chars), the same length
        std::snprintf(buffer, sizeof buffer, "%.0f", negative ? -value : value);
        fixed = std::strlen(buffer) == whole ? std::string(buffer) : digits + std::string(whole - digits.size(), '0');
      } else {
        fixed = digits.substr(0, whole) + "." + digits.substr(whole);
      }
    } else {
      fixed = "0." + std::string(static_cast<std::size_t>(-exponent - 1), '0') + digits;
    }
    out = (negative ? "-" : "") + (fixed.size() <= scientific.size() ? fixed : scientific);
  }
  if (static_cast<std::size_t>(last - first) < out.size()) return {last, std::errc::value_too_large};
  std::memcpy(first, out.data(), out.size());
  return {first + out.size(), std::errc{}};
}

}  // namespace lagrange_web_compat

namespace std {

inline from_chars_result from_chars(const char* first, const char* last, double& value,
                                    chars_format = chars_format::general) {
  return lagrange_web_compat::float_from_chars(first, last, value);
}
inline from_chars_result from_chars(const char* first, const char* last, float& value,
                                    chars_format = chars_format::general) {
  return lagrange_web_compat::float_from_chars(first, last, value);
}

inline to_chars_result to_chars(char* first, char* last, double value) {
  return lagrange_web_compat::shortest_to_chars(first, last, value);
}

}  // namespace std
