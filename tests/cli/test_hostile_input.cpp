// Hostile or absurd input ends fast with exit code 2 and a short, safe message (issue 7): counts that overflow,
// settings out of range, scene paths that are not files, scenes too large for memory, keys built to make the error
// path slow, escape sequences meant for the terminal.
#include <doctest/doctest.h>

#include <sys/stat.h>

#include "cli_util.h"

using namespace lagrange::test;

namespace {

struct Case {
  std::string args, expect;
};

void check_refused(const std::vector<Case>& cases) {
  for (const Case& c : cases) {
    CAPTURE(c.args.substr(0, 300));
    const CliResult r = cli(c.args, "2>&1", 30);
    CHECK(r.code == 2);
    CHECK(r.out.find(c.expect) != std::string::npos);
    CHECK(r.seconds < 5);
    CHECK(r.out.size() < 4000);  // the message and at most the usage text (shot's is 2.2 KB): no echo of a huge value
    CHECK(r.out.find('\x1b') == std::string::npos);
  }
}

std::string repeat(const std::string& text, std::size_t times) {
  std::string out;
  out.reserve(text.size() * times);
  for (std::size_t i = 0; i < times; ++i) out += text;
  return out;
}

}  // namespace

TEST_CASE("counts and settings out of their documented ranges exit 2 at once") {
  const fs::path dir = fresh_dir("ranges");
  write_all(dir / "tiny_dt.json", R"({"dt": 1e-300, "particles": [{"position": [0, 0]}]})");
  write_all(dir / "tiny_rod.json", R"({"particles": [{"position": [0, 0], "fixed": true}, {"position": [1, 0]}],
    "constraints": [{"type": "distance", "particles": [0, 1], "length": 5e-324}]})");
  write_all(dir / "tiny_link.json", R"({"generators": [{"type": "chain", "links": 3, "link_length": 5e-324}]})");
  write_all(dir / "huge_substeps.json", R"({"substeps": 2147483647, "particles": [{"position": [0, 0]}]})");
  const std::string pendulum = "run " + asset("simple_pendulum.json");
  std::vector<Case> cases{
      {pendulum + " --dt 1e-18 --duration 1", "--dt: must be in 1e-07 .. 1"},
      {pendulum + " --dt 1e-7 --duration 11", "at most 100000000"},
      {pendulum + " --dt 1e-6 --set substeps=100", "below the limit of 1e-07 s"},
      {pendulum + " --duration 1e19", "at most 100000000"},
      {pendulum + " --steps 4294967297", "--steps: must be at most 100000000"},
      {pendulum + " --steps 99999999999999999999999", "--steps: must be at most"},
      {pendulum + " --every 0", "--every: must be at least 1"},
      {pendulum + " --steps 100000000 --set substeps=100", "more than 1000000000 substeps"},
      {pendulum + " --csv ''", "--csv needs a file name"},
      {pendulum + " --set substeps=2147483647", "substeps: must be in 1 .. 1000"},
      {pendulum + " --set substeps=4294967297", "substeps: must be in 1 .. 1000"},
      {pendulum + " --set max_iterations=2000000000", "max_iterations: must be in 1 .. 1e+06"},
      {pendulum + " --set tolerance=5e-324", "tolerance: must be in 1e-15 .. 0.01"},
      {pendulum + " --set tolerance=0.5", "tolerance: must be in"},
      {pendulum + " --set dt=5e-324", "dt: must be in"},
      {pendulum + " --set stiffness=1e300", "stiffness: must be in"},
      {pendulum + " --set gravity=0,-1e300,0", "gravity: must be in"},
      {"run " + quote(dir / "tiny_dt.json"), "dt: must be in 1e-07 .. 1, got 1e-300"},
      {"run " + quote(dir / "tiny_rod.json"), "constraints[0].length: must be a number of at least 1e-6"},
      {"run " + quote(dir / "tiny_link.json"), "generators[0].link_length: must be at least 1e-6"},
      {"run " + quote(dir / "huge_substeps.json"), "substeps: must be in 1 .. 1000"},
      {"bench --budget -1", "--budget: must be in > 0 .. 3600"},
      {"bench --steps 4294967297", "--steps: must be at most"},
  };
#ifdef LAGRANGE_HAVE_SANDBOX
  cases.push_back({"shot " + asset("simple_pendulum.json") + " --steps 4294967297", "--steps: must be at most"});
  write_all(dir / "small_dt.json", R"({"dt": 1e-5, "particles": [{"position": [0, 0]}]})");
  cases.push_back({"shot " + quote(dir / "small_dt.json") + " --time 1e4", "at most 100000000"});
#endif
  check_refused(cases);
}

TEST_CASE("a scene path must be a regular file of at most 16 MiB") {
  const fs::path dir = fresh_dir("paths");
  REQUIRE(::mkfifo((dir / "fifo.json").c_str(), 0600) == 0);
  write_all(dir / "big.json", "");
  fs::resize_file(dir / "big.json", (std::uintmax_t{16} << 20) + 1);  // sparse: costs no disk
  check_refused({
      {"run " + quote(dir / "fifo.json"), "is not a regular file"},
      {"run /dev/zero", "is not a regular file"},
      {"run /dev/stdin < /dev/zero", "is not a regular file"},
      {"run " + quote(dir / "big.json"), "more than the limit of 16777216"},
      {"run " + quote(dir), "is a directory"},
  });
}

TEST_CASE("scenes too large for memory are refused before anything is allocated") {
  const fs::path dir = fresh_dir("sizes");
  // 20 maximal cloth generators in a few hundred bytes; one 1000 x 1000 cloth; 10 000 distinct pins on one particle
  // (a coupled system of 9·10^8 row pairs); too many listed particles.
  write_all(dir / "cloths.json",
            R"({"dimension": 3, "generators": [)" +
                repeat(R"({"type": "cloth", "nx": 1000, "ny": 1000, "shear": true}, )", 19) +
                R"({"type": "cloth", "nx": 1000, "ny": 1000, "shear": true}]})");
  write_all(dir / "cloth.json", R"({"dimension": 3, "generators": [{"type": "cloth", "nx": 1000, "ny": 1000}]})");
  // (Each pin holds its own point: identical rigid pins are one equation, counted once.)
  std::string pins = R"({"particles": [{"position": [0, 0]}], "constraints": [)";
  for (int k = 0; k < 10000; ++k)
    pins += (k ? ", " : "") + std::string(R"({"type": "pin", "particle": 0, "point": [)") + std::to_string(k) + ", 0]}";
  write_all(dir / "pins.json", pins + "]}");
  write_all(dir / "chain.json", R"({"generators": [{"type": "chain", "links": 100000}]})");
  check_refused({
      {"run " + quote(dir / "cloths.json"), "generators[0]: the scene would have 1000000 particles"},
      {"run " + quote(dir / "cloth.json"), "more than the limit of 100000"},
      {"run " + quote(dir / "pins.json"), "row pairs, more than the limit of 4000000"},
      {"run " + quote(dir / "chain.json"), "the scene would have 100001 particles"},
  });
  // --allow-large lifts the limits for those who know what they do.
  const CliResult large = cli("run " + quote(dir / "chain.json") + " --allow-large --steps 0");
  CHECK(large.code == 0);
  CHECK(large.out.find("particles    100001") != std::string::npos);
}

TEST_CASE("hostile keys end fast with a short message and escape sequences are never printed raw") {
  const fs::path dir = fresh_dir("keys");
  // An unknown 10 MB key: the suggester must not try it, and the message must not echo it.
  write_all(dir / "long_key.json", R"({"particles": [{"position": [0, 0]}], ")" + std::string(10'000'000, 'k') + R"(": 1})");
  // A duplicate key 10^6 levels deep, and one at a depth a scene could have.
  write_all(dir / "deep.json", repeat(R"({"a": )", 1'000'000) + "1" + std::string(1'000'000, '}'));
  write_all(dir / "duplicate.json", R"({"particles": [{"position": [0, 0], "mass": 1, "mass": 2}]})");
  // Terminal escape sequences in a key and in a value.
  write_all(dir / "escape.json", "{\"particles\": [{\"position\": [0, 0]}], \"\\u001b]0;owned\\u0007\\u001b[2J\": 1}");
  write_all(dir / "escape_type.json", "{\"generators\": [{\"type\": \"\\u001b[31mred\"}]}");
  check_refused({
      {"run " + quote(dir / "long_key.json"), "kkkk…: unknown key"},
      {"run " + quote(dir / "deep.json"), "nested more than 64 levels deep"},
      {"run " + quote(dir / "duplicate.json"), "particles[0].mass: key given twice"},
      {"run " + quote(dir / "escape.json"), "\\x1b]0;owned\\x07\\x1b[2J: unknown key"},
      {"run " + quote(dir / "escape_type.json"), "unknown generator type \"\\x1b[31mred\""},
      {"run " + asset("simple_pendulum.json") + " --set \"$(printf '\\033[2Jx=1')\"", "unknown setting '\\x1b[2Jx'"},
      {"run " + asset("simple_pendulum.json") + " --" + std::string(100'000, 'z'), "zzz…' (see --help)"},
  });
  // A name with escape sequences is escaped in the summary.
  write_all(dir / "name.json", "{\"name\": \"\\u001b[31mred\", \"particles\": [{\"position\": [0, 0]}]}");
  const CliResult named = cli("run " + quote(dir / "name.json") + " --steps 1");
  CHECK(named.code == 0);
  CHECK(named.out.find('\x1b') == std::string::npos);
  CHECK(named.out.find("\\x1b[31mred") != std::string::npos);
}

TEST_CASE("bytes that are not UTF-8 are escaped in every message: a lone 0x9B is CSI to an 8-bit terminal") {
  const fs::path dir = fresh_dir("not-utf8");
  // The JSON parser refuses the string and quotes what it last read, the lone byte among it.
  write_all(dir / "c1.json", "{\"name\": \"c1\x9b" "2J\", \"particles\": [{\"position\": [0, 0]}]}");
  std::vector<std::string> commands{"run " + quote(dir / "c1.json"),
                                    "run " + asset("simple_pendulum.json") + " --solver \"$(printf 'x\\233')\""};
#ifdef LAGRANGE_HAVE_SANDBOX
  commands.push_back("shot " + quote(dir / "c1.json"));
#endif
  for (const std::string& command : commands) {
    CAPTURE(command);
    const CliResult r = cli(command);
    CHECK(r.code == 2);
    CHECK(r.out.find('\x9b') == std::string::npos);
    CHECK(r.out.find("\\x9b") != std::string::npos);
  }
}

TEST_CASE("an option value that looks like an option is refused") {
  const fs::path dir = fresh_dir("flag-values");
  check_refused({
      {"run " + asset("simple_pendulum.json") + " --steps 3 --csv --quiet", "--csv needs a value, got the option '--quiet'"},
      {"run " + asset("simple_pendulum.json") + " --solver --quiet", "--solver needs a value"},
  });
  CHECK_FALSE(fs::exists("--quiet"));
  // A negative number is a value (refused for its range, not as an option), and NAME=VALUE takes anything.
  const CliResult negative = cli("run " + asset("simple_pendulum.json") + " --dt -1");
  CHECK(negative.code == 2);
  CHECK(negative.out.find("dt: must be in") != std::string::npos);
  const CliResult explicit_value = cli("run " + asset("simple_pendulum.json") + " --steps 3 --quiet --csv=" +
                                       quote(dir / "-odd.csv"));
  CHECK(explicit_value.code == 0);
  CHECK(fs::exists(dir / "-odd.csv"));
}
