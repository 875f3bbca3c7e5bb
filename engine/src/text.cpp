#include "lagrange/text.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace lagrange {
namespace {

// The length of the well-formed UTF-8 sequence at text[i] (RFC 3629: no overlong forms, no surrogates, at most
// U+10FFFF), or 0 when the byte there starts none: such a byte is escaped, since a terminal in an 8-bit mode reads a
// lone 0x9B as CSI.
std::size_t utf8_length(std::string_view text, std::size_t i) {
  const auto at = [&](std::size_t k) { return k < text.size() ? static_cast<unsigned char>(text[k]) : 0u; };
  const unsigned c = at(i);
  const auto cont = [&](std::size_t k, unsigned lo = 0x80, unsigned hi = 0xBF) { return at(k) >= lo && at(k) <= hi; };
  if (c >= 0xC2 && c <= 0xDF) return cont(i + 1) ? 2 : 0;
  if (c == 0xE0) return cont(i + 1, 0xA0) && cont(i + 2) ? 3 : 0;
  if (c == 0xED) return cont(i + 1, 0x80, 0x9F) && cont(i + 2) ? 3 : 0;
  if (c >= 0xE1 && c <= 0xEF) return cont(i + 1) && cont(i + 2) ? 3 : 0;
  if (c == 0xF0) return cont(i + 1, 0x90) && cont(i + 2) && cont(i + 3) ? 4 : 0;
  if (c >= 0xF1 && c <= 0xF3) return cont(i + 1) && cont(i + 2) && cont(i + 3) ? 4 : 0;
  if (c == 0xF4) return cont(i + 1, 0x80, 0x8F) && cont(i + 2) && cont(i + 3) ? 4 : 0;
  return 0;
}

}  // namespace

std::string bounded_message(std::string_view text, std::size_t max) {
  const std::string_view ellipsis = "…";
  if (text.size() <= max) return std::string(text);
  const auto boundary = [&](std::size_t at) {  // back to the start of the character at `at`
    while (at > 0 && at < text.size() && (static_cast<unsigned char>(text[at]) & 0xC0) == 0x80) --at;
    return at;
  };
  if (max < 2 * ellipsis.size() + 8) return std::string(text.substr(0, boundary(max)));
  const std::size_t room = max - ellipsis.size();
  const std::size_t head = boundary(room * 2 / 3);
  std::size_t tail = text.size() - (room - room * 2 / 3);
  while (tail < text.size() && (static_cast<unsigned char>(text[tail]) & 0xC0) == 0x80) ++tail;
  return std::string(text.substr(0, head)) + std::string(ellipsis) + std::string(text.substr(tail));
}

std::string printable(std::string_view text, std::size_t max) {
  std::string out;
  const bool cut = text.size() > max;
  if (cut) {
    std::size_t end = max;
    // Never cut a UTF-8 character in two: back up over continuation bytes.
    while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
    text = text.substr(0, end);
  }
  out.reserve(text.size() + 8);
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    char escape[8];
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c == 0x7F) {
      std::snprintf(escape, sizeof escape, "\\x%02x", c);
      out += escape;
    } else if (c == 0xC2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
               static_cast<unsigned char>(text[i + 1]) <= 0x9F) {
      // U+0080..U+009F, the C1 controls (CSI among them) in UTF-8
      std::snprintf(escape, sizeof escape, "\\u%04x", static_cast<unsigned char>(text[i + 1]));
      out += escape;
      ++i;
    } else if (c < 0x80) {
      out += static_cast<char>(c);
    } else if (const std::size_t n = utf8_length(text, i)) {
      out.append(text.substr(i, n));
      i += n - 1;
    } else {  // not UTF-8: a stray continuation byte, a lone C1 byte (0x9B), a cut sequence
      std::snprintf(escape, sizeof escape, "\\x%02x", c);
      out += escape;
    }
  }
  if (cut) out += "…";
  return out;
}

std::string quoted(std::string_view text, std::size_t max) {
  std::string out(1, '\'');  // not "'" + ...: GCC 12 -O2 raises a false -Wrestrict on that form
  out += printable(text, max);
  out += '\'';
  return out;
}

std::string format_number(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, result.ptr);
}

}  // namespace lagrange
