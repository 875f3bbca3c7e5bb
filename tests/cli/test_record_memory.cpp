// A GIF's memory does not grow with its length (issue 22, item 1): `record` at 1280x720 for 10 s peaks within twice
// what the MP4 of the same clip takes (1.25 GB against 247 MB before: FFmpeg's palettegen and paletteuse kept an
// entry per colour met, and the first pass queued every frame). Peak RSS as the kernel measured it (wait4).
#include <doctest/doctest.h>

#ifdef LAGRANGE_HAVE_SANDBOX

#include "probe_util.h"

using namespace lagrange::test;

TEST_CASE("a 10 s 1280x720 GIF peaks within twice the memory of the same MP4") {
  const fs::path dir = fresh_dir("gif-memory");
  const auto record = [&](const char* name) {
    const Child child = start({"record", asset("double_pendulum.json"), "--duration", "10", "--size", "1280x720",
                               "--out", (dir / name).string()},
                              dir / "err");
    return finish(child);
  };
  const Finished mp4 = record("clip.mp4");
  const Finished gif = record("clip.gif");
  REQUIRE(mp4.code == 0);
  REQUIRE(gif.code == 0);
  MESSAGE("peak RSS: MP4 " << mp4.max_rss_kb / 1024 << " MB, GIF " << gif.max_rss_kb / 1024 << " MB");
  CHECK(gif.max_rss_kb < 2 * mp4.max_rss_kb);
  CHECK(fs::file_size(dir / "clip.gif") > 100'000);  // a real clip was written
}

#endif
