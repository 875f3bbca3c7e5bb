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
