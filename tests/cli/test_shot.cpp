// `shot` keeps `run`'s promises (issue 7): the same scene limits and their --allow-large, out of memory exit 4, the
// same bound on the work, escaped messages, and the usage text only after a mistake in the command line.
#include <doctest/doctest.h>

#include <cstdio>

#include "cli_util.h"

using namespace lagrange::test;

#ifdef LAGRANGE_HAVE_SANDBOX
namespace {

// 320 × 320 = 102 400 particles: over the limit of 100 000, a few MB once built.
const char* kOverLimitScene = R"({"dimension": 3, "generators": [{"type": "cloth", "nx": 320, "ny": 320}]})";

// The output of `command` (run by bash, so that it can set ulimit) and its exit code.
CliResult shell(const std::string& command) {
  std::FILE* pipe = popen(("bash -c \"" + command + "\"").c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::string out;
  char buffer[4096];
  while (std::size_t n = std::fread(buffer, 1, sizeof buffer, pipe)) out.append(buffer, n);
  const int status = pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out, 0.0};
}

}  // namespace

TEST_CASE("shot --allow-large lifts the scene limits as run --allow-large does") {
  const fs::path dir = fresh_dir("shot-large");
  write_all(dir / "big.json", kOverLimitScene);
  const std::string shot = "shot " + quote(dir / "big.json") + " --size 64x64 --out " + quote(dir / "big.png");
  const CliResult refused = cli(shot);
  CHECK(refused.code == 2);
  CHECK(refused.out.find("more than the limit of 100000") != std::string::npos);
  CHECK(refused.out.find("--allow-large of lagrange-lab run and shot") != std::string::npos);
  CHECK(!fs::exists(dir / "big.png"));
  const CliResult allowed = cli(shot + " --allow-large");
  CHECK(allowed.code == 0);
  CHECK(read_all(dir / "big.png").rfind("\x89PNG", 0) == 0);
  // The same flag, the same meaning, for run.
  CHECK(cli("run " + quote(dir / "big.json") + " --steps 0 --quiet").code == 2);
  CHECK(cli("run " + quote(dir / "big.json") + " --steps 0 --quiet --allow-large").code == 0);
}

TEST_CASE("shot out of memory exits 4 like run, in loading as in stepping") {
#if defined(__SANITIZE_ADDRESS__)
  MESSAGE("skipped under AddressSanitizer, which cannot run with a limit on virtual memory");
#else
  const fs::path dir = fresh_dir("shot-memory");
  // 10^6 particles and 2·10^6 rods need well over 1 GB; the offscreen renderer alone fits in 800 MB.
  write_all(dir / "huge.json", R"({"dimension": 3, "generators": [{"type": "cloth", "nx": 1000, "ny": 1000}]})");
  const CliResult r = shell("ulimit -v 800000; timeout 60 " + std::string(LAGRANGE_EXE) +
                            " shot " + quote(dir / "huge.json") + " --allow-large --size 64x64 --out " +
                            quote(dir / "huge.png") + " 2>&1");
  CHECK(r.code == 4);
  CHECK(r.out.find("out of memory") != std::string::npos);
  CHECK(!fs::exists(dir / "huge.png"));
  // Within 2 GB the scene loads (about 1.3 GB) but its first step does not fit: the same exit code.
  const CliResult step = shell("ulimit -v 2000000; timeout 60 " + std::string(LAGRANGE_EXE) + " shot " +
                               quote(dir / "huge.json") + " --allow-large --steps 1 --size 64x64 --out " +
                               quote(dir / "huge.png") + " 2>&1");
  CHECK(step.code == 4);
  CHECK(step.out.find("out of memory") != std::string::npos);
  CHECK(step.out.find("std::bad_alloc") == std::string::npos);
  CHECK(!fs::exists(dir / "huge.png"));
#endif
}

TEST_CASE("shot prints its usage only after a mistake in the command line") {
  const fs::path dir = fresh_dir("shot-usage");
  const fs::path scene = dir / "s.json";
  fs::copy_file(asset("simple_pendulum.json"), scene);
  // Mistakes in the command line: the message, then the usage.
  const std::vector<std::string> mistakes{"shot --bogus", "shot " + quote(scene) + " --steps -1", "shot"};
  for (const std::string& args : mistakes) {
    CAPTURE(args);
    const CliResult r = cli(args);
    CHECK(r.code == 2);
    CHECK(r.out.find("usage: lagrange-lab shot") != std::string::npos);
  }
  // Everything else: one line.
  write_all(dir / "bad.json", "{");
  const std::string slow = R"({"substeps": 1000,
    "particles": [{"position": [0, 0], "fixed": true}, {"position": [1, 0]}],
    "constraints": [{"type": "distance", "particles": [0, 1]}]})";
  write_all(dir / "slow.json", slow);
  const std::string cases[] = {
      "shot " + quote(scene) + " --out " + quote(scene),       // the output is the input
      "shot " + quote(dir / "bad.json"),                        // a scene that does not load
      "shot " + quote(dir / "missing.json"),                    // a scene that does not exist
      "shot " + quote(dir / "slow.json") + " --steps 2000000",  // more work than the bound
  };
  for (const std::string& args : cases) {
    CAPTURE(args);
    const CliResult r = cli(args, "2>&1", 30);
    CHECK(r.code == 2);
    CHECK(r.out.find("usage:") == std::string::npos);
    CHECK(r.out.find("lagrange-lab shot: ") == 0);
    CHECK(r.out.find('\n') == r.out.size() - 1);
    CHECK(r.seconds < 10);
  }
  CHECK(read_all(scene) == read_all(asset("simple_pendulum.json")));
}

TEST_CASE("--ui-scale and --theme: a bad value exits 2 naming the option and what it allows, and shot ignores the config") {
  const fs::path dir = fresh_dir("shot-projector");
  const std::string shot = "shot " + asset("simple_pendulum.json") + " --size 64x64 --out " + quote(dir / "o.png");
  for (const char* bad : {"0.5", "3.01", "nan", "inf", "2x", "", "-1"}) {
    CAPTURE(bad);
    const CliResult r = cli(shot + " --ui-scale '" + bad + "'");
    CHECK(r.code == 2);
    CHECK(r.out.find("lagrange-lab shot: --ui-scale needs a factor from 1 to 3") == 0);
    CHECK(r.out.find("usage: lagrange-lab shot") != std::string::npos);
  }
  for (const char* bad : {"Light", "blue", ""}) {
    CAPTURE(bad);
    const CliResult r = cli(shot + " --theme '" + bad + "'");
    CHECK(r.code == 2);
    CHECK(r.out.find("lagrange-lab shot: --theme needs dark or light") == 0);
  }
  CHECK(!fs::exists(dir / "o.png"));
  // Good values; shot neither reads the user's config (a broken one would print a warning) nor writes it.
  fs::create_directories(dir / "config" / "lagrange-lab");
  write_all(dir / "config" / "lagrange-lab" / "settings.json", "{broken");
  const CliResult r = shell("XDG_CONFIG_HOME=" + (dir / "config").string() + " timeout 60 " +
                            std::string(LAGRANGE_EXE) + " " + shot + " --ui-scale 1.5 --theme light 2>&1");
  CHECK(r.code == 0);
  CHECK(r.out.find("settings.json") == std::string::npos);
  CHECK(read_all(dir / "config" / "lagrange-lab" / "settings.json") == "{broken");
  CHECK(fs::exists(dir / "o.png"));
}

TEST_CASE("the window warns in one line about a broken config file and opens with the defaults") {
  const fs::path dir = fresh_dir("window-config");
  fs::create_directories(dir / "lagrange-lab");
  write_all(dir / "lagrange-lab" / "settings.json", R"({"theme": "sepia"})");
  const std::string env = "XDG_CONFIG_HOME=" + dir.string() + " SDL_VIDEODRIVER=offscreen timeout 60 ";
  const CliResult r = shell(env + std::string(LAGRANGE_EXE) + " --quit-after 2 2>&1");
  CHECK(r.code == 0);
  CHECK(r.out == "lagrange-lab: ignoring " + (dir / "lagrange-lab" / "settings.json").string() +
                     ": \"theme\" must be \"dark\" or \"light\" (dark theme and scale 1 used where it is wrong)\n");
  const CliResult bad = shell(env + std::string(LAGRANGE_EXE) + " --ui-scale 5 2>&1");
  CHECK(bad.code == 2);
  CHECK(bad.out.find("lagrange-lab: --ui-scale needs a factor from 1 to 3") == 0);
}

TEST_CASE("shot bounds steps times substeps as run does") {
  const fs::path dir = fresh_dir("shot-work");
  write_all(dir / "slow.json", R"({"substeps": 1000, "particles": [{"position": [0, 0], "fixed": true},
    {"position": [1, 0]}], "constraints": [{"type": "distance", "particles": [0, 1]}]})");
  const CliResult r = cli("shot " + quote(dir / "slow.json") + " --steps 100000000 --out " + quote(dir / "o.png"),
                          "2>&1", 20);
  CHECK(r.code == 2);
  CHECK(r.out.find("more than 1000000000 substeps") != std::string::npos);
  CHECK(r.seconds < 10);
  CHECK(listing(dir) == std::vector<std::string>{"slow.json"});
  CHECK(cli("run " + quote(dir / "slow.json") + " --steps 100000000").code == 2);
}

TEST_CASE("shot --frames is bounded so that it ends within seconds") {
  const fs::path dir = fresh_dir("shot-frames");
  const std::string shot = "shot " + asset("simple_pendulum.json") + " --size 64x64 --out " + quote(dir / "o.png");
  const CliResult r = cli(shot + " --frames 1000000", "2>&1", 20);
  CHECK(r.code == 2);
  CHECK(r.out.find("--frames: must be at most 1000") != std::string::npos);
  CHECK(r.seconds < 10);
  CHECK(!fs::exists(dir / "o.png"));
  CHECK(cli(shot + " --frames 3").code == 0);
}

TEST_CASE("shot never prints an escape sequence from a value, a file name or a scene name") {
  const fs::path dir = fresh_dir("shot-escape");
  write_all(dir / "evil.json", R"({"name": "evil\u001b[2J", "particles": [{"position": [0, 0], "fixed": true},
    {"position": [1, 0]}], "constraints": [{"type": "distance", "particles": [0, 1]}]})");
  const std::string esc = "$(printf \"\\033[2J\")";
  const std::string scene = quote(dir / "evil.json");
  struct Case {
    std::string args;
    int code;
  };
  const Case cases[] = {
      {"shot " + scene + " --size 64x64 --out \"" + (dir / "evil").string() + esc + ".png\"", 0},
      {"shot " + scene + " --solver \"x" + esc + "\"", 2},
      {"shot " + scene + " --size \"x" + esc + "\"", 2},
      {"shot " + scene + " \"second" + esc + ".json\"", 2},
  };
  for (const Case& c : cases) {
    CAPTURE(c.args);
    const CliResult r = cli(c.args);
    CHECK(r.code == c.code);
    CHECK(r.out.find('\x1b') == std::string::npos);
    CHECK(r.out.find("\\x1b[2J") != std::string::npos);
  }
}

TEST_CASE("shot --out and converge --plot both write a PNG only to a .png name: exit 2 naming the option otherwise") {
  const fs::path dir = fresh_dir("png-names");
  const std::string pendulum = asset("simple_pendulum.json");
  for (const char* name : {"picture.jpg", "picture", "picture.png.txt", "png", ".png", ".PNG"}) {
    CAPTURE(name);
    // ".png" alone ends in .png but names nothing before it: said so, not "must end in .png"
    const std::string problem = name[0] == '.' ? "needs a file name before .png" : "the file name must end in .png";
    const CliResult shot = cli("shot " + pendulum + " --size 64x64 --out " + quote(dir / name));
    CHECK(shot.code == 2);
    CHECK(shot.out.find("lagrange-lab shot: --out: " + problem) != std::string::npos);
    CHECK(shot.out.find(name) != std::string::npos);
    CHECK(shot.out.find("usage:") == std::string::npos);  // one line, as for the other problems with the output
    const CliResult plot = cli("converge " + pendulum + " --until 0.1 --levels 2 --plot " + quote(dir / name));
    CHECK(plot.code == 2);
    CHECK(plot.out.find("lagrange-lab converge: --plot: " + problem) != std::string::npos);
  }
  // A link refused: only an option that takes "-" suggests it (converge's summary owns standard output).
  fs::create_symlink(dir / "elsewhere.png", dir / "link.png");
  const CliResult linked_plot = cli("converge " + pendulum + " --until 0.1 --levels 2 --plot " + quote(dir / "link.png"));
  CHECK(linked_plot.code != 0);
  CHECK(linked_plot.out.find("symbolic link") != std::string::npos);
  CHECK(linked_plot.out.find("or - for standard output") == std::string::npos);
  const CliResult linked_shot = cli("shot " + pendulum + " --size 64x64 --out " + quote(dir / "link.png"));
  CHECK(linked_shot.code != 0);
  CHECK(linked_shot.out.find("or - for standard output") != std::string::npos);  // shot --out - writes the PNG there
  fs::remove(dir / "link.png");
  CHECK(fs::is_empty(dir));  // nothing written under any of those names
  // A .png name in any case is a PNG file; a device takes one too (nothing kept).
  for (const char* name : {"a.png", "b.PNG"}) {
    CAPTURE(name);
    CHECK(cli("shot " + pendulum + " --size 64x64 --out " + quote(dir / name)).code == 0);
    CHECK(read_all(dir / name).rfind("\x89PNG", 0) == 0);
  }
  CHECK(cli("converge " + pendulum + " --until 0.1 --levels 2 --plot " + quote(dir / "c.Png")).code == 0);
  CHECK(read_all(dir / "c.Png").rfind("\x89PNG", 0) == 0);
  CHECK(cli("shot " + pendulum + " --size 64x64 --out /dev/null").code == 0);
}

TEST_CASE("shot --out into a folder that does not exist fails and creates nothing") {
  const fs::path dir = fresh_dir("shot-no-folder");
  const CliResult r = cli("shot " + asset("simple_pendulum.json") + " --size 64x64 --out " +
                          quote(dir / "missing" / "deeper" / "x.png"));
  CHECK(r.code == 1);
  CHECK(r.out.find("No such file or directory") != std::string::npos);
  CHECK(fs::is_empty(dir));
}
#endif
