// printable(): what a message may echo of untrusted text.
#include <doctest/doctest.h>

#include <string>

#include "lagrange/text.h"

using lagrange::printable;

TEST_CASE("printable escapes control characters and keeps other text") {
  CHECK(printable("plain key") == "plain key");
  CHECK(printable("a\nb\tc") == "a\\nb\\tc");
  CHECK(printable("\x1b[31mred\x1b[0m") == "\\x1b[31mred\\x1b[0m");
  CHECK(printable(std::string("nul\0byte", 8)) == "nul\\x00byte");
  CHECK(printable("del\x7f") == "del\\x7f");
  CHECK(printable("\xc2\x9b" "2J") == "\\u009b2J");  // U+009B, CSI, in UTF-8
  CHECK(printable("grüße €") == "grüße €");
  // Bytes that are not UTF-8 are escaped: a lone C1 byte (CSI for a terminal in an 8-bit mode), a stray
  // continuation byte, an overlong form, a surrogate, a sequence cut short; valid 3- and 4-byte forms are kept.
  CHECK(printable("a\x9b" "2Jb") == "a\\x9b2Jb");
  CHECK(printable("\xbf\xc0\xaf") == "\\xbf\\xc0\\xaf");
  CHECK(printable("\xed\xa0\x80") == "\\xed\\xa0\\x80");
  CHECK(printable("cut \xe2\x82") == "cut \\xe2\\x82");
  CHECK(printable("\xf0\x9f\x98\x80 \xe2\x82\xac") == "\xf0\x9f\x98\x80 \xe2\x82\xac");
  CHECK(lagrange::quoted("x\ny") == "'x\\ny'");
}

TEST_CASE("printable cuts long text at a character boundary and marks the cut") {
  const std::string key(10'000'000, 'k');
  const std::string shown = printable(key);
  CHECK(shown == std::string(80, 'k') + "…");
  // "é" is two bytes: a cut that would split it backs up before it.
  const std::string accents = std::string(79, 'a') + "é";
  CHECK(printable(accents) == std::string(79, 'a') + "…");
  CHECK(printable(std::string(80, 'a')) == std::string(80, 'a'));
}

TEST_CASE("bounded_message keeps a message whole up to its limit, and a longer one's start and end") {
  using lagrange::bounded_message;
  using lagrange::kMaxMessage;
  CHECK(bounded_message(std::string(kMaxMessage, 'a')) == std::string(kMaxMessage, 'a'));
  // A path of 100 bytes and the reason of a size limit (~200 bytes): whole.
  const std::string path = "/home/teacher/Documents/physics lessons/week 12 (contacts and collisions)/scenes/many pins.json";
  const std::string reason = "too many constraints share particles: their coupled system would hold 400000000 row "
                             "pairs, more than the limit of 4000000 (--allow-large of lagrange-lab run and shot lifts "
                             "the limits)";
  CHECK(bounded_message(path + ": " + reason) == path + ": " + reason);
  // Longer: the start (the file) and the end (the reason's last words) around the mark.
  const std::string longer = bounded_message(path + "/" + path + ": " + reason);
  CHECK(longer.size() <= kMaxMessage);
  CHECK(longer.starts_with(path));
  CHECK(longer.find("…") != std::string::npos);
  CHECK(longer.ends_with("(--allow-large of lagrange-lab run and shot lifts the limits)"));
  // Cut at character boundaries on both sides of the mark: no character is broken.
  std::string accents;
  for (int k = 0; k < 300; ++k) accents += "é";
  const std::string cut = bounded_message(accents);
  CHECK(cut.size() <= kMaxMessage);
  CHECK(lagrange::printable(cut, 4096) == cut);  // nothing to escape: still UTF-8
}
