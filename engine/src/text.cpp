#include "lagrange/text.h"

#include <cstdio>

namespace lagrange {

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
    } else {
      out += static_cast<char>(c);
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

}  // namespace lagrange
