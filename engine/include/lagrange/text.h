// Untrusted text (a scene's keys and names, command-line values, file names) made safe to echo in a message:
// control characters escaped, so nothing can drive the terminal, and long text cut short, so a 10 MB key costs
// nothing to report.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace lagrange {

// How much of an echoed value a message shows; paths get more.
constexpr std::size_t kEchoLength = 80;
constexpr std::size_t kEchoPathLength = 240;

// `text` with control characters (C0, DEL, C1) written as \n, \t, \xNN (\uNNNN for C1), bytes that are not UTF-8 as
// \xNN, and cut after `max` bytes (at a character boundary) with "…" appended.
std::string printable(std::string_view text, std::size_t max = kEchoLength);
// printable(text) in single quotes: 'text'.
std::string quoted(std::string_view text, std::size_t max = kEchoLength);

}  // namespace lagrange
