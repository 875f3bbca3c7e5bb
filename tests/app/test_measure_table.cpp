// The Measure strip's table of periods (issue 21): Time every bob on the six pendulums of period_amplitude against
// the exact periods computed here by the arithmetic-geometric mean from the scene file's own release angles; the %
// column against measured / exact − 1; the clipboard's text and the exported CSV read back and parsed; the export
// never over the scene file and failing cleanly; the timer's choices named by colour and amplitude; measured /
// exact − 1 with its sign, and the timer and the table not cut at 1280x720 on a projector's scale. Also the table's
// logic without a window: names of colours, signed percentages, the text, the bobs' timing stopped by a new motion.
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <numbers>
#include <sstream>
#include <string>
#include <vector>

#include "app_fixture.h"
#include "lagrange/scene.h"
#include "tools/measure_tools.h"
#include "tools/measurement_table.h"

namespace lagrange::app::test {
namespace {

constexpr double kPi = std::numbers::pi;
constexpr double kDeg = 180.0 / kPi;
constexpr double kDt = 1.0 / 60.0;
using Rect = std::array<float, 4>;

// The exact period of a simple pendulum, T = 4 √(L/g) K(k), k = sin(θ₀/2), with K(k) = π / (2 M(1, √(1 − k²))) and M
// the arithmetic-geometric mean, iterated here to the last bit (the test's own, not the program's elliptic_k).
double exact_period(double length, double g, double amplitude) {
  const double k = std::sin(0.5 * amplitude);
  long double a = 1.0L, b = std::sqrt(1.0L - static_cast<long double>(k) * k);
  for (int i = 0; i < 64 && a != b; ++i) {
    const long double mean = 0.5L * (a + b);
    b = std::sqrt(a * b);
    a = mean;
  }
  return 4.0 * std::sqrt(length / g) * static_cast<double>(std::numbers::pi_v<long double> / (2.0L * a));
}

// The six bobs of period_amplitude.json: particle, the colour word a class uses for it, the release angle the scene
// text gives.
struct Bob {
  int particle;
  const char* name;
  double degrees;
};
constexpr Bob kBobs[] = {{1, "blue bob", 10.0},    {3, "teal bob", 30.0},    {5, "green bob", 60.0},
                         {7, "yellow bob", 90.0},  {9, "orange bob", 120.0}, {11, "red bob", 150.0}};

const Bob& bob_of(int particle) {
  for (const Bob& bob : kBobs)
    if (bob.particle == particle) return bob;
  FAIL("not a bob of the scene: particle " << particle);
  return kBobs[0];
}

// The release angle of `bob` about `pivot` in the scene file, from straight down (gravity −y).
double release_angle(const Scene& scene, int bob, int pivot) {
  const Vec3 r = scene.particles[static_cast<std::size_t>(bob)].position -
                 scene.particles[static_cast<std::size_t>(pivot)].position;
  return std::atan2(std::abs(r.x), -r.y);
}

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> out;
  std::string field;
  std::istringstream in(text);
  while (std::getline(in, field, separator)) out.push_back(field);
  if (!text.empty() && text.back() == separator) out.push_back("");
  return out;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::string line;
  std::istringstream in(text);
  while (std::getline(in, line)) out.push_back(line);
  return out;
}

// "−0.0031 %" or "+0.012 %" as a number of percent (the true minus sign read as '-').
double percent_of(std::string text) {
  const std::string minus = "\xe2\x88\x92";
  if (text.starts_with(minus)) text.replace(0, minus.size(), 1, '-');
  REQUIRE(text.ends_with(" %"));
  return std::stod(text.substr(0, text.size() - 2));
}

std::string read_text(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::filesystem::path> files_in(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

const char* const kHeader[] = {"bob", "particle", "colour", "amplitude (deg)", "measured T (s)", "exact T (s)",
                               "small-angle T (s)", "measured/exact - 1 (%)", "T/T0", "L (m)", "g (m/s^2)",
                               "periods timed"};

// The clipboard's or the CSV file's table against the scene: the header, one line per bob, each number against the
// test's own values and the others on its line.
void check_table_text(const std::string& text, char separator, const Scene& scene) {
  const auto lines = lines_of(text);
  REQUIRE(lines.size() == 7);
  const auto header = split(lines[0], separator);
  REQUIRE(header.size() == std::size(kHeader));
  for (std::size_t k = 0; k < header.size(); ++k) CHECK(header[k] == kHeader[k]);
  std::map<int, int> seen;
  for (std::size_t i = 1; i < lines.size(); ++i) {
    CAPTURE(lines[i]);
    const auto f = split(lines[i], separator);
    REQUIRE(f.size() == std::size(kHeader));
    const int particle = std::stoi(f[1]);
    const Bob& bob = bob_of(particle);
    ++seen[particle];
    CHECK(f[0] == bob.name);
    const Colour c = scene.particles[static_cast<std::size_t>(particle)].colour;
    char hex[16];
    std::snprintf(hex, sizeof hex, "#%02x%02x%02x", static_cast<int>(std::lround(c.r * 255)),
                  static_cast<int>(std::lround(c.g * 255)), static_cast<int>(std::lround(c.b * 255)));
    CHECK(f[2] == hex);
    const double amplitude = std::stod(f[3]), measured = std::stod(f[4]), exact = std::stod(f[5]);
    const double small = std::stod(f[6]), percent = std::stod(f[7]), ratio = std::stod(f[8]);
    const double release = release_angle(scene, particle, particle - 1);
    CHECK(std::abs(amplitude - release * kDeg) < 0.5);
    CHECK(measured == doctest::Approx(exact_period(1.0, 9.81, release)).epsilon(1e-3));
    CHECK(exact == doctest::Approx(exact_period(1.0, 9.81, amplitude / kDeg)).epsilon(2e-6));  // 1e-4° printed
    CHECK(small == doctest::Approx(2.0 * kPi * std::sqrt(1.0 / 9.81)).epsilon(1e-7));
    // Printed to 1e-7 s and 1e-5 %: the column is measured / exact − 1 of the printed periods, sign and all.
    CHECK(std::abs(percent - 100.0 * (measured / exact - 1.0)) < 3e-5);
    CHECK((percent > 0.0) == (measured > exact));
    CHECK(f[7][0] == (measured > exact ? '+' : '-'));
    CHECK(ratio == doctest::Approx(measured / small).epsilon(1e-6));
    CHECK(std::stod(f[9]) == 1.0);
    CHECK(std::stod(f[10]) == 9.81);
    CHECK(std::stoi(f[11]) >= 1);
  }
  CHECK(seen.size() == 6);
}

// Steps until "Time every bob" has every bob in, at most `seconds`.
void wait_for_every_bob(Sandbox& sandbox, double seconds) {
  const double end = sandbox.world().time() + seconds;
  while (bobs_timing(sandbox.state().measure) > 0 && sandbox.world().time() < end) sandbox.advance_steps(6);
  run_frames(sandbox, 2, 0.0);
}

}  // namespace

TEST_CASE("Time every bob fills the table with period_amplitude's six bobs, each at its exact period") {
  const auto dir = temp_dir("table");
  Sandbox sandbox(test_options(1920, 1080));
  REQUIRE(sandbox.load_scene(asset("period_amplitude.json")) == "");
  const Scene scene = load_scene_file(asset("period_amplitude.json"));
  SandboxState& state = sandbox.state();
  state.save_dir = dir;
  MeasureState& m = state.measure;
  push_key(SDLK_m);
  run_frames(sandbox, 2, 0.0);
  for (const Bob& bob : kBobs)  // the scene file releases them where its text says
    REQUIRE(release_angle(scene, bob.particle, bob.particle - 1) * kDeg == doctest::Approx(bob.degrees).epsilon(1e-12));
  REQUIRE(state.widget_texts["measure: table layout"] == std::vector<std::string>{"table"});  // four columns
  CHECK(m.table.rows.empty());
  click_widget(sandbox, "measure: time every bob");
  const double since = sandbox.world().time();
  CHECK(bobs_timing(m) == 6);
  // One swing of the slowest: each bob's first whole period (released at rest: its first crossing of the midline in
  // one direction a quarter period in, the next one period later).
  const double slowest = exact_period(1.0, 9.81, 150.0 / kDeg);
  wait_for_every_bob(sandbox, 10.0);
  CHECK(bobs_timing(m) == 0);
  MESSAGE("every bob in after " << sandbox.world().time() - since << " s; the slowest period " << slowest << " s");
  CHECK(sandbox.world().time() - since <= 1.25 * slowest + 0.1);
  CHECK(m.every_bob_note == "");
  REQUIRE(m.table.rows.size() == 6);
  double previous = 0.0;
  for (const TableRow& row : m.table.rows) {
    CAPTURE(row.name);
    const Bob& bob = bob_of(row.particle);
    const double release = release_angle(scene, row.particle, row.particle - 1);
    const double exact = exact_period(1.0, 9.81, release);
    MESSAGE(row.name << ": amplitude " << row.amplitude * kDeg << " deg (released at " << bob.degrees
                     << "), measured " << row.period << " s, exact " << exact << " s, measured/exact - 1 "
                     << row.period / exact - 1.0);
    CHECK(row.name == bob.name);
    REQUIRE(row.colour);
    const Colour c = scene.particles[static_cast<std::size_t>(row.particle)].colour;
    CHECK(*row.colour == glm::vec3(c.r, c.g, c.b));  // the swatch is the bob's own colour
    CHECK(std::abs(row.amplitude - release) * kDeg < 0.5);
    CHECK(row.period == doctest::Approx(exact).epsilon(1e-3));
    CHECK(row.exact == doctest::Approx(exact_period(1.0, 9.81, row.amplitude)).epsilon(1e-12));
    CHECK(row.exact == doctest::Approx(exact).epsilon(1e-4));
    CHECK(row.small_angle == doctest::Approx(2.0 * kPi * std::sqrt(1.0 / 9.81)).epsilon(1e-12));
    CHECK(row.intervals >= 1);
    CHECK(row.amplitude > previous);  // the quick small swings come in first: the rows read in order
    previous = row.amplitude;
  }

  // The rows as the strip shows them: the amplitude, the periods and the % column, measured / exact − 1 with its
  // sign, two significant digits.
  const auto& shown = state.widget_texts["measure: table"];
  REQUIRE(shown.size() == 6);
  for (std::size_t i = 0; i < shown.size(); ++i) {
    CAPTURE(shown[i]);
    const TableRow& row = m.table.rows[i];
    const auto cells = split(shown[i], '\t');
    REQUIRE(cells.size() == 6);
    CHECK(cells[0] == bob_of(row.particle).name);
    CHECK(cells[1].ends_with("\xc2\xb0"));
    CHECK(std::abs(std::stod(cells[1]) - bob_of(row.particle).degrees) < 0.5);
    CHECK(std::abs(std::stod(cells[2]) - row.period) <= 0.5e-4 + 1e-12);
    CHECK(std::abs(std::stod(cells[3]) - row.exact) <= 0.5e-4 + 1e-12);
    const double percent = percent_of(cells[5]), expected = 100.0 * (row.period / row.exact - 1.0);
    CHECK(percent == doctest::Approx(expected).epsilon(0.05));
    CHECK(cells[5].starts_with(row.period > row.exact ? "+" : "\xe2\x88\x92"));
    // And against the test's own exact period: within a hundredth of a percent.
    const double own = 100.0 * (row.period / exact_period(1.0, 9.81, release_angle(scene, row.particle,
                                                                                    row.particle - 1)) - 1.0);
    CHECK(std::abs(percent - own) < 0.01);
  }

  // Copy: tab-separated text with a header on the clipboard, for a spreadsheet.
  click_widget(sandbox, "measure: table copy");
  char* clipboard = SDL_GetClipboardText();
  REQUIRE(clipboard != nullptr);
  const std::string copied = clipboard;
  SDL_free(clipboard);
  CHECK(copied.find('\t') != std::string::npos);
  check_table_text(copied, '\t', scene);

  // Export CSV: a new file in the save folder, the same table with commas.
  click_widget(sandbox, "measure: table export");
  run_frames(sandbox, 2, 0.0);
  CHECK_MESSAGE(!state.toast_is_error, state.toast);
  auto files = files_in(dir);
  REQUIRE(files.size() == 1);
  CHECK(files[0].filename().string().starts_with("lagrange-period-against-amplitude-periods-"));
  CHECK(files[0].extension() == ".csv");
  const std::string csv = read_text(files[0]);
  check_table_text(csv, ',', scene);
  std::string commas = copied;
  std::replace(commas.begin(), commas.end(), '\t', ',');
  CHECK(csv == commas);
  CHECK(state.notice.find(files[0].string()) != std::string::npos);
  // In the page the file goes to the platform, which downloads it: the message names the download.
  state.downloads = true;
  click_widget(sandbox, "measure: table export");
  run_frames(sandbox, 2, 0.0);
  CHECK_MESSAGE(!state.toast_is_error, state.toast);
  CHECK(state.notice.starts_with("Downloaded lagrange-period-against-amplitude-periods-"));
  CHECK(state.notice.find("6 rows") != std::string::npos);
  CHECK(files_in(dir).size() == 2);  // a new file each time, never over the last

  // A row's × removes it; Clear removes them all.
  click_widget(sandbox, "measure: table remove 0");
  CHECK(m.table.rows.size() == 5);
  CHECK(m.table.rows[0].particle == 3);
  click_widget(sandbox, "measure: table clear");
  CHECK(m.table.rows.empty());
  std::filesystem::remove_all(dir);
}

TEST_CASE("Add puts the timer's reading in the table, and Export CSV never replaces the scene file and fails cleanly") {
  const auto dir = temp_dir("table-export");
  const auto scene_file = dir / "scene.json";
  std::filesystem::copy_file(asset("period_amplitude.json"), scene_file);
  const std::string scene_text = read_text(scene_file);
  Sandbox sandbox(test_options(1280, 720));
  REQUIRE(sandbox.load_scene(scene_file) == "");
  SandboxState& state = sandbox.state();
  MeasureState& m = state.measure;
  m.shown = true;
  run_frames(sandbox, 2, 0.0);
  click_widget(sandbox, "measure: tab Table");
  state.save_dir = dir / "out";
  // An empty table: its Export button does nothing; asked anyway, nothing to export, said so, no file.
  click_widget(sandbox, "measure: table export");
  run_frames(sandbox, 2, 0.0);
  CHECK(state.notice.empty());
  Command command;
  command.kind = Command::Kind::ExportTable;
  state.commands.push_back(command);
  run_frames(sandbox, 2, 0.0);
  CHECK(state.toast_is_error);
  CHECK(state.notice.find("empty") != std::string::npos);
  CHECK(!std::filesystem::exists(dir / "out"));

  // The timer on the red bob, then Add: its reading as a row.
  sandbox.advance_steps(600);
  run_frames(sandbox, 2, 0.0);
  click_widget(sandbox, "measure: table add");
  REQUIRE(m.table.rows.size() == 1);
  const TableRow& row = m.table.rows[0];
  const auto timed = m.meter.result();
  REQUIRE(timed);
  CHECK(row.particle == 11);
  CHECK(row.name == "red bob");
  CHECK(row.period == timed->period);
  CHECK(row.intervals == timed->intervals);
  CHECK(std::abs(row.amplitude * kDeg - 150.0) < 0.5);
  CHECK(row.period == doctest::Approx(exact_period(1.0, 9.81, 150.0 / kDeg)).epsilon(1e-3));
  CHECK(row.exact == doctest::Approx(exact_period(1.0, 9.81, row.amplitude)).epsilon(1e-12));

  // Never over the scene file: refused, the file as it was.
  command.path = scene_file.string();
  state.commands.push_back(command);
  run_frames(sandbox, 2, 0.0);
  CHECK(state.toast_is_error);
  CHECK(state.notice.starts_with("Could not export the table"));
  CHECK(read_text(scene_file) == scene_text);
  // The scene's own folder as the save folder: a new file beside it, the scene untouched.
  state.save_dir = dir;
  click_widget(sandbox, "measure: table export");
  run_frames(sandbox, 2, 0.0);
  CHECK_MESSAGE(!state.toast_is_error, state.toast);
  CHECK(files_in(dir).size() == 2);
  CHECK(read_text(scene_file) == scene_text);

  // A folder that cannot be made (under a file): the reason, no file and no temporary file left anywhere.
  const auto before = files_in(dir);
  state.save_dir = scene_file / "tables";
  click_widget(sandbox, "measure: table export");
  run_frames(sandbox, 2, 0.0);
  CHECK(state.toast_is_error);
  CHECK(state.notice.starts_with("Could not export the table"));
  CHECK(files_in(dir) == before);
  CHECK(read_text(scene_file) == scene_text);
  // A folder without write permission (root writes anyway: checked only for other users).
  if (::geteuid() != 0) {
    const auto locked = dir / "locked";
    std::filesystem::create_directory(locked);
    std::filesystem::permissions(locked, std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec);
    state.save_dir = locked;
    click_widget(sandbox, "measure: table export");
    run_frames(sandbox, 2, 0.0);
    CHECK(state.toast_is_error);
    CHECK(std::filesystem::is_empty(locked));
    std::filesystem::permissions(locked, std::filesystem::perms::owner_all);
  } else {
    MESSAGE("running as root: the read-only folder is not checked");
  }
  CHECK(m.table.rows.size() == 1);  // a failed export keeps the table
  std::filesystem::remove_all(dir);
}

TEST_CASE("the timer's choices are named by colour and amplitude, not by particle number") {
  Sandbox sandbox(test_options(1280, 720));
  REQUIRE(sandbox.load_scene(asset("period_amplitude.json")) == "");
  SandboxState& state = sandbox.state();
  state.measure.shown = true;
  run_frames(sandbox, 2, 0.0);
  const std::vector<std::string> expected = {"blue bob, 10\xc2\xb0",   "teal bob, 30\xc2\xb0",
                                             "green bob, 60\xc2\xb0",  "yellow bob, 90\xc2\xb0",
                                             "orange bob, 120\xc2\xb0", "red bob, 150\xc2\xb0"};
  CHECK(state.widget_texts["measure: timed particle"] == std::vector<std::string>{"red bob, 150\xc2\xb0"});
  // Before a turn: each bob's angle from its pivot now (released at rest: the release angle).
  click_widget(sandbox, "measure: timed particle");
  run_frames(sandbox, 1, 0.0);
  CHECK(state.widget_texts["measure: timed particle list"] == expected);
  click_widget(sandbox, "measure: timed particle");  // closes the list
  // After every bob has turned: the amplitude measured from the swing, the same to the degree.
  sandbox.advance_steps(300);
  click_widget(sandbox, "measure: timed particle");
  run_frames(sandbox, 1, 0.0);
  CHECK(state.widget_texts["measure: timed particle list"] == expected);
  for (const BobWatch& bob : state.measure.bobs) CHECK(bob.amplitude.result());
  // Choosing the blue one times it.
  click_widget(sandbox, "measure: timed choice 1");
  run_frames(sandbox, 1, 0.0);
  CHECK(state.measure.particle == 1);
  CHECK(state.widget_texts["measure: timed particle"] == std::vector<std::string>{"blue bob, 10\xc2\xb0"});

  // A double pendulum: its bobs by colour, no amplitude (neither is a simple pendulum).
  REQUIRE(sandbox.load_scene(asset("double_pendulum.json")) == "");
  run_frames(sandbox, 2, 0.0);
  click_widget(sandbox, "measure: timed particle");
  run_frames(sandbox, 1, 0.0);
  CHECK(state.widget_texts["measure: timed particle list"] == std::vector<std::string>{"blue bob", "orange bob"});
  click_widget(sandbox, "measure: timed particle");
  // The cloth: hundreds of particles drawn in one colour, told apart by their numbers.
  REQUIRE(sandbox.load_scene(asset("hanging_cloth.json")) == "");
  run_frames(sandbox, 2, 0.0);
  CHECK(state.widget_texts["measure: timed particle"] ==
        std::vector<std::string>{"blue bob " + std::to_string(state.measure.particle)});
}

TEST_CASE("measured/exact - 1 is shown with its sign, and the timer and the table are not cut at 1280x720 at 2x, 3x") {
  for (double scale : {2.0, 3.0}) {
    CAPTURE(scale);
    SandboxOptions options = test_options(1280, 720);
    options.appearance = {Theme::Light, scale};
    Sandbox sandbox(options);
    REQUIRE(sandbox.load_scene(asset("period_amplitude.json")) == "");
    SandboxState& state = sandbox.state();
    state.measure.shown = true;
    run_frames(sandbox, 2, 0.0);
    REQUIRE(state.widget_rects.count("measure: tab Timer"));
    click_widget(sandbox, "measure: tab Table");
    click_widget(sandbox, "measure: time every bob");
    sandbox.advance_steps(1200);  // 20 s: the timer on the red bob, every bob in the table
    click_widget(sandbox, "measure: tab Timer");
    run_frames(sandbox, 2, 0.0);
    const auto& out = state.measure.readout;
    REQUIRE(out.period);
    REQUIRE(out.exact);
    REQUIRE(out.difference);
    // The sign and two digits of measured / exact − 1, in percent.
    const double percent = percent_of(out.difference_text);
    MESSAGE("timer: measured " << *out.period << " s, exact " << *out.exact << " s, shown " << out.difference_text);
    CHECK(percent == doctest::Approx(100.0 * (*out.period / *out.exact - 1.0)).epsilon(0.05));
    CHECK(out.difference_text.starts_with(*out.period > *out.exact ? "+" : "\xe2\x88\x92"));
    CHECK(std::abs(percent - 100.0 * (*out.period / exact_period(1.0, 9.81, 150.0 / kDeg) - 1.0)) < 0.01);
    // Nothing of the timer reaches past the strip's edges, and no number is broken over two lines (each is one
    // item as tall as one line of text: the Restart button's).
    const auto check_inside = [&](const char* what) {
      CAPTURE(what);
      const Rect panel = state.widget_rects.at("measure panel");
      int widgets = 0;
      for (const auto& [name, rect] : state.widget_rects) {
        if (!name.starts_with("measure: ") || name.starts_with("measure: tab ")) continue;
        CAPTURE(name);
        CHECK(rect[0] >= panel[0] - 0.5f);
        CHECK(rect[2] <= panel[2] + 0.5f);
        ++widgets;
      }
      CHECK(widgets >= 5);
    };
    check_inside("timer");
    const Rect restart = state.widget_rects.at("measure: restart timer");
    for (const char* name : {"measure: exact", "measure: difference", "measure: small angle"}) {
      CAPTURE(name);
      REQUIRE(state.widget_rects.count(name));
      const Rect r = state.widget_rects.at(name);
      CHECK(r[3] - r[1] <= 1.2f * (restart[3] - restart[1]));
    }
    // The table: its rows whole, as a table or stacked, inside the strip.
    click_widget(sandbox, "measure: tab Table");
    run_frames(sandbox, 2, 0.0);
    CHECK(state.measure.table.rows.size() == 6);
    CHECK(state.widget_texts["measure: table"].size() == 6);
    check_inside("table");
  }
}

// --- the table's logic, no window -----------------------------------------------------------------------------------

TEST_CASE("colour names: the nearest of twelve named colours, the shipped scenes' colours as a class names them") {
  const auto rgb = [](unsigned hex) {
    return glm::vec3(((hex >> 16) & 0xff) / 255.0f, ((hex >> 8) & 0xff) / 255.0f, (hex & 0xff) / 255.0f);
  };
  const std::pair<unsigned, const char*> cases[] = {
      {0xff0000, "red"},    {0x00c000, "green"},  {0x0000ff, "blue"},   {0xffff00, "yellow"}, {0xff8000, "orange"},
      {0x8000ff, "purple"}, {0xff69b4, "pink"},   {0x8b4513, "brown"},  {0x008080, "teal"},   {0x808080, "grey"},
      {0xffffff, "white"},  {0x000000, "black"},
      // period_amplitude's six, blue to red, and the other scenes' colours
      {0x4f8fd8, "blue"},   {0x45b3a5, "teal"},   {0x7cba4a, "green"},  {0xe0b43a, "yellow"}, {0xe8773a, "orange"},
      {0xd8453f, "red"},    {0x3a8ee8, "blue"},   {0x5fc46a, "green"},  {0x4fb86a, "green"},  {0x7f8c9a, "grey"},
      {0xa0784f, "brown"}};
  for (const auto& [hex, name] : cases) {
    CAPTURE(hex);
    CHECK(colour_name(rgb(hex)) == name);
  }
  // Named by number when a name is shared, and "bob k" without a colour.
  const int particles[] = {1, 3, 5, 7};
  const std::optional<glm::vec3> colours[] = {rgb(0xd8453f), rgb(0x4f8fd8), rgb(0x3a8ee8), std::nullopt};
  CHECK(bob_names(particles, colours) == std::vector<std::string>{"red bob", "blue bob 3", "blue bob 5", "bob 7"});
}

TEST_CASE("signed percentages: two significant digits, a true minus sign, the plus sign shown") {
  const std::string minus = "\xe2\x88\x92";
  CHECK(signed_percent(1.2e-4) == "+0.012 %");
  CHECK(signed_percent(-3.1e-5) == minus + "0.0031 %");
  CHECK(signed_percent(-3.1e-5, true) == "-0.0031 %");
  CHECK(signed_percent(0.026) == "+2.6 %");
  CHECK(signed_percent(0.76) == "+76 %");
  CHECK(signed_percent(-0.25) == minus + "25 %");
  CHECK(signed_percent(2.0) == "+200 %");
  CHECK(signed_percent(0.0) == "0 %");
  CHECK(signed_percent(1e-9) == "+0.00000 %");  // at most five decimals, the sign still shown
}

TEST_CASE("the table as text: a header with units, one line per row, a field quoted when it holds the separator") {
  MeasurementTable table;
  TableRow row;
  row.particle = 4;
  row.colour = glm::vec3(1.0f, 0.0f, 0.0f);
  row.name = "red, again";
  row.amplitude = kPi / 3.0;
  row.period = 2.2;
  row.exact = 2.0;
  row.small_angle = 1.0;
  row.length = 0.5;
  row.gravity = 1.62;
  row.intervals = 3;
  table.rows.push_back(row);
  const auto lines = lines_of(table_text(table, ','));
  REQUIRE(lines.size() == 2);
  CHECK(lines[0] == "bob,particle,colour,amplitude (deg),measured T (s),exact T (s),small-angle T (s),"
                    "measured/exact - 1 (%),T/T0,L (m),g (m/s^2),periods timed");
  CHECK(lines[1] == "\"red, again\",4,#ff0000,60.0000,2.2000000,2.0000000,1.0000000,+10.00000,2.200000,0.5,1.62,3");
  const auto tabs = lines_of(table_text(table, '\t'));
  CHECK(tabs[1].starts_with("red, again\t4\t#ff0000\t60.0000\t"));
  CHECK(write_table_csv(MeasurementTable{}, "unused.csv", {}).find("empty") != std::string::npos);
}

TEST_CASE("Time every bob without a window: a row per simple pendulum, and a new motion stops what still times") {
  // Two pendulums (1 m and 0.5 m) released at rest at 40° and 20°, a double pendulum beside them (not timed).
  World world(2);
  auto add = [&](Vec3 position, bool fixed) {
    ParticleDef def;
    def.position = position;
    def.mass = 1.0;
    def.fixed = fixed;
    return world.add_particle(def);
  };
  const double a = 40.0 / kDeg, b = 20.0 / kDeg;
  add(Vec3(0.0), true);
  add(Vec3(std::sin(a), -std::cos(a), 0.0), false);
  add(Vec3(3.0, 0.0, 0.0), true);
  add(Vec3(3.0 + 0.5 * std::sin(b), -0.5 * std::cos(b), 0.0), false);
  add(Vec3(6.0, 0.0, 0.0), true);
  add(Vec3(6.5, -0.5, 0.0), false);
  add(Vec3(7.0, -1.0, 0.0), false);
  world.add_distance(0, 1, -1.0);
  world.add_distance(2, 3, -1.0);
  world.add_distance(4, 5, -1.0);
  world.add_distance(5, 6, -1.0);
  MeasureState m;
  measure_scene_started(m, world);
  REQUIRE(m.bobs.size() == 2);
  CHECK(m.bobs[0].particle == 1);
  CHECK(m.bobs[1].particle == 3);
  const std::optional<glm::vec3> colours[7] = {};
  const std::string names[7] = {"", "first bob", "", "second bob", "", "", ""};
  REQUIRE(time_every_bob(m, world, colours, names));
  CHECK(bobs_timing(m) == 2);
  while (bobs_timing(m) > 0 && world.time() < 5.0) {
    world.step();
    measure_after_step(m, world);
  }
  REQUIRE(m.table.rows.size() == 2);
  const double g = 9.81;
  CHECK(m.table.rows[0].name == "second bob");  // the shorter pendulum swings first
  CHECK(m.table.rows[0].period == doctest::Approx(exact_period(0.5, g, b)).epsilon(1e-3));
  CHECK(m.table.rows[1].name == "first bob");
  CHECK(m.table.rows[1].period == doctest::Approx(exact_period(1.0, g, a)).epsilon(1e-3));
  CHECK(std::abs(m.table.rows[1].amplitude - a) * kDeg < 0.5);
  CHECK(!m.table.rows[1].colour);

  // Timing again, then the Moon before a whole period: stopped, said why, no row from the old swing.
  REQUIRE(time_every_bob(m, world, colours, names));
  for (int i = 0; i < 10; ++i) {
    world.step();
    measure_after_step(m, world);
  }
  Settings moon = world.settings();
  moon.gravity = Vec3(0.0, -1.62, 0.0);
  world.set_settings(moon);
  world.step();
  measure_after_step(m, world);
  CHECK(bobs_timing(m) == 0);
  CHECK(m.every_bob_note.find("stopped before 2 bobs") != std::string::npos);
  CHECK(m.table.rows.size() == 2);
  // Earth again, chosen while paused, and Time every bob before the next step: it times the motion to come, the
  // step that follows does not stop it.
  Settings earth = world.settings();
  earth.gravity = Vec3(0.0, -g, 0.0);
  world.set_settings(earth);
  REQUIRE(time_every_bob(m, world, colours, names));
  CHECK(m.every_bob_note == "");
  world.step();
  measure_after_step(m, world);
  CHECK(bobs_timing(m) == 2);
  // A scene without a simple pendulum has nothing to time at once.
  World lone(2);
  ParticleDef free;
  free.mass = 1.0;
  lone.add_particle(free);
  MeasureState none;
  measure_scene_started(none, lone);
  CHECK(!time_every_bob(none, lone, {}, {}));
}

}  // namespace lagrange::app::test
