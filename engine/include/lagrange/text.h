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
constexpr std::size_t kEchoPathLength = 120;
// The longest line a message may be (docs/cli.md): however long the input it quotes. Room for a path as a user's
// folders make it (~100 bytes) and the longest reason (a size limit's, 200): at 250, such a message lost the middle of
// its reason.
constexpr std::size_t kMaxMessage = 300;

// `text` with control characters (C0, DEL, C1) written as \n, \t, \xNN (\uNNNN for C1), bytes that are not UTF-8 as
// \xNN, and cut after `max` bytes (at a character boundary) with "…" appended.
std::string printable(std::string_view text, std::size_t max = kEchoLength);
// The shortest text that reads back as the same double ("0.1", "-2.5e-07", "1e+300"; "nan", "inf" for those): the
// one number formatter of files, messages and the command line, so a saved scene loads back to the same bits.
std::string format_number(double value);

// `text` (already printable) no longer than `max` bytes: a longer one keeps its start and its end (where the reason
// is) around "…", cut at UTF-8 character boundaries.
std::string bounded_message(std::string_view text, std::size_t max = kMaxMessage);

// printable(text) in single quotes: 'text'.
std::string quoted(std::string_view text, std::size_t max = kEchoLength);

}  // namespace lagrange
