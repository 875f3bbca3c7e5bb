// The settings table: every key settable, every bad value refused with a message naming the key.
#include <doctest/doctest.h>

#include <cmath>

#include "test_util.h"

using namespace lagrange;
using lagrange::test::settings_for;

TEST_CASE("settings: every bad value is refused with a message naming the key") {
  Settings s;
  CHECK(set_setting(s, "dt", "0.002").empty());
  CHECK(s.dt == 0.002);
  CHECK(set_setting(s, "gravity", "0,-1.62,0").empty());
  CHECK(s.gravity.y == -1.62);
  CHECK(set_setting(s, "dt", "-1").find("dt") != std::string::npos);
  CHECK(set_setting(s, "dt", "nan").find("finite") != std::string::npos);
  CHECK(set_setting(s, "substeps", "2.5").find("whole") != std::string::npos);
  CHECK(set_setting(s, "gravity", "1,2").find("x,y,z") != std::string::npos);
  CHECK(set_setting(s, "solver", "magic").find("projection") != std::string::npos);
  CHECK(set_setting(s, "stifness", "1").find("unknown setting") != std::string::npos);
  CHECK(s.dt == 0.002);  // refused values change nothing
  for (const SettingInfo& info : setting_table()) CHECK_FALSE(get_setting(s, info.key).empty());
  Settings bad;
  bad.tolerance = -1.0;
  CHECK_THROWS_AS(World(2, bad), Error);
}
