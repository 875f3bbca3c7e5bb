// `shot --step-view` (docs/cli.md): the next substep frozen and drawn, its summary line, and its bad flags.
#include <doctest/doctest.h>

#include <cmath>

#include "cli_util.h"

using namespace lagrange::test;

#ifdef LAGRANGE_HAVE_SANDBOX

TEST_CASE("shot --step-view draws seed 003's projection and reports its iterates") {
  const fs::path dir = fresh_dir("shot-step-view");
  const fs::path png = dir / "seed.png", plain = dir / "plain.png";
  const CliResult r = cli("shot " + quote(asset("seed_pendulum.json")) + " --size 640x360 --step-view --out " + quote(png));
  REQUIRE(r.code == 0);
  CHECK(read_all(png).rfind("\x89PNG", 0) == 0);
  CHECK(r.out.find("step view: projection, h = 0.001 s") != std::string::npos);
  // The projection ends on the constraint: within the solver's tolerance (1e-10 of the rod's √2 m).
  const std::size_t at = r.out.find(" m first, ");
  REQUIRE(at != std::string::npos);
  CHECK(std::stod(r.out.substr(at + 10)) <= 1.5e-10);
  // It draws something over the scene: not the picture without it.
  REQUIRE(cli("shot " + quote(asset("seed_pendulum.json")) + " --size 640x360 --out " + quote(plain)).code == 0);
  CHECK(read_all(png) != read_all(plain));
}

TEST_CASE("shot --step-view takes the solver, an iterate and the magnification") {
  const fs::path dir = fresh_dir("shot-step-view-options");
  const CliResult r = cli("shot " + quote(asset("double_pendulum.json")) + " --size 640x360 --time 0.5 --solver shake " +
                          "--step-view --iterate 1 --magnify 10,500 --out " + quote(dir / "shake.png"));
  REQUIRE(r.code == 0);
  CHECK(r.out.find("step view: shake") != std::string::npos);
  CHECK(r.out.find("motion x10, corrections x500") != std::string::npos);
  CHECK(fs::exists(dir / "shake.png"));
  const CliResult a = cli("shot " + quote(asset("simple_pendulum.json")) + " --size 640x360 --time 0.5 " +
                          "--solver acceleration --step-view --out " + quote(dir / "acceleration.png"));
  CHECK(a.code == 0);
  CHECK(a.out.find("step view: acceleration") != std::string::npos);
}

TEST_CASE("shot --step-view: bad flags exit 2 and write nothing") {
  const fs::path dir = fresh_dir("shot-step-view-bad");
  const std::string scene = quote(asset("seed_pendulum.json"));
  const std::string out = " --size 320x180 --out " + quote(dir / "bad.png");
  const struct {
    const char* flags;
    const char* says;
  } cases[] = {
      {" --iterate 2", "--iterate and --magnify need --step-view"},
      {" --magnify 10", "--iterate and --magnify need --step-view"},
      {" --step-view --iterate 0", "--iterate"},
      {" --step-view --iterate x", "--iterate"},
      {" --step-view --magnify 0.5", "--magnify needs factors in 1..1e12"},
      {" --step-view --magnify 10,nan", "--magnify"},
      {" --step-view --iterate 1000", "this substep has"},
      {" --step-view --frames 3", "--step-view and --frames exclude each other"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.flags);
    const CliResult r = cli("shot " + scene + c.flags + out);
    CHECK(r.code == 2);
    CHECK(r.out.find(c.says) != std::string::npos);
    CHECK(!fs::exists(dir / "bad.png"));
  }
}

#endif
