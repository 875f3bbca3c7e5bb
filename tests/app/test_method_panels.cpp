// The panels that show the method (issue 25), driven through the window: Diagnostics' Matrix section against the
// double pendulum's hand-derived 2x2 J M^-1 J^T and a hub's dependent row (drawn orange on the scene), and the
// Convergence section's background study against run_convergence's own answer and the orders 1 and 2.
#include <imgui.h>

#include <chrono>
#include <cmath>
#include <string>
#include <thread>

#include "app_fixture.h"
#include "lagrange/convergence.h"
#include "ui/layout_check.h"
#include "ui/ui.h"

namespace lagrange::app::test {
namespace {

constexpr double kDt = 1.0 / 60.0;

// A hub held by three fixed anchors in 2D: three rod gradients in a plane, the third dependent on the first two.
const char* kHub = R"({"name": "hub", "dimension": 2, "particles": [
  {"position": [0, 0]}, {"position": [1, 0], "fixed": true}, {"position": [-0.5, 0.9], "fixed": true},
  {"position": [-0.4, -1.1], "fixed": true}],
  "constraints": [{"type": "distance", "particles": [0, 1]}, {"type": "distance", "particles": [0, 2]},
                  {"type": "distance", "particles": [0, 3]}]})";


// The pointer over Diagnostics' title bar: over no widget of a section.
void rest_pointer(Sandbox& sandbox) {
  const auto& rects = sandbox.state().widget_rects;
  const auto it = rects.find("diagnostics panel");
  REQUIRE(it != rects.end());
  const glm::dvec2 at(0.5 * (it->second[0] + it->second[2]), it->second[1] + 4.0);
  push_mouse_motion(at, at, false);
  run_frames(sandbox, 2, 0.0);
}

void hover(Sandbox& sandbox, const std::string& name) {
  const std::array<float, 4> r = scroll_to_widget(sandbox, name);
  const glm::dvec2 middle(0.5 * (r[0] + r[2]), 0.5 * (r[1] + r[3]));
  push_mouse_motion(middle, middle, false);
  run_frames(sandbox, 2, 0.0);
}

// Every line of text Diagnostics drew in the last frame.
std::vector<std::string> diagnostics_lines() {
  std::vector<std::string> lines;
  for (const DrawnLine& line : drawn_lines(drawn_glyphs()))
    if (line.window.find("Diagnostics") != std::string::npos) lines.push_back(line.text);
  return lines;
}
bool drew(const std::vector<std::string>& lines, const std::string& text) {
  return std::find(lines.begin(), lines.end(), text) != lines.end();
}

// The colour drawn at the middle of rod `c` of lane 1.
Image::Pixel rod_pixel(Sandbox& sandbox, int c) {
  const World& world = sandbox.world();
  const auto ids = world.constraints()[static_cast<std::size_t>(c)]->particles();
  const Vec3 mid = 0.5 * (world.state().position[ids[0]] + world.state().position[ids[1]]);
  const glm::dvec2 at = screen_of(sandbox, mid);
  const Image image = sandbox.read_pixels();
  return image.at(static_cast<int>(std::lround(at.x)), static_cast<int>(std::lround(at.y)));
}

// Frames until the background study is over (or a minute passed).
void wait_for_study(Sandbox& sandbox) {
  const auto start = std::chrono::steady_clock::now();
  while (sandbox.state().convergence.job && std::chrono::steady_clock::now() - start < std::chrono::seconds(60)) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    run_frames(sandbox, 1, 0.0);
  }
  REQUIRE_FALSE(sandbox.state().convergence.job);
}

}  // namespace

TEST_CASE("the Matrix section shows the double pendulum's hand-derived 2x2 J M^-1 J^T, b and lambda at rest") {
  Sandbox sandbox(test_options(1280, 720));
  SandboxState& state = sandbox.state();
  REQUIRE(sandbox.load_scene(asset("double_pendulum.json")) == "");
  state.paused = true;
  open_panel(state, ViewOptions::Side::Right);
  run_frames(sandbox, 2, kDt);
  CHECK_FALSE(state.matrix.open);
  CHECK(state.widget_rects.count("matrix: heat map") == 0);
  click_widget(sandbox, "matrix: header");
  REQUIRE(state.matrix.open);
  scroll_to_widget(sandbox, "matrix: heat map");
  // By hand: unit rods u1 = (0.8, 0.6) from the pivot to bob 1, u2 = (0.6, 0.8) from bob 1 to bob 2, masses 1 kg.
  // A = [[1/m1, -u1.u2/m1], [-u1.u2/m1, 1/m1 + 1/m2]] = [[1, -0.96], [-0.96, 2]]. At rest J-dot q-dot = 0, so
  // b = -J M^-1 F: b1 = -u1.g = 0.6 g, b2 = -(u2.g - u2.g) = 0; lambda = A^-1 b.
  const double g = 9.81, c = 0.96, det = 2.0 - c * c;
  const double b0 = 0.6 * g, l0 = 2.0 * b0 / det, l1 = c * b0 / det;
  REQUIRE(state.matrix.analysis);
  const MatrixAnalysis& m = *state.matrix.analysis;
  REQUIRE(m.rows == 2);
  CHECK(m.a[0] == doctest::Approx(1.0));
  CHECK(m.a[1] == doctest::Approx(-c));
  CHECK(m.a[2] == doctest::Approx(-c));
  CHECK(m.a[3] == doctest::Approx(2.0));
  CHECK(m.rhs[0] == doctest::Approx(b0));
  CHECK(m.rhs[1] == doctest::Approx(0.0).epsilon(1e-9));
  CHECK(m.lambda[0] == doctest::Approx(l0));
  CHECK(m.lambda[1] == doctest::Approx(l1));
  // What the panel wrote: the counts, and the hand values in the cells (three digits).
  const std::vector<std::string> lines = diagnostics_lines();
  CHECK(drew(lines, "rows 2 rank 2 dependent 0"));
  for (const char* cell : {"1", "-0.96", "2", "5.89", "0", "10.9", "5.24"}) {
    CAPTURE(cell);
    CHECK(drew(lines, cell));
  }
  // The condition number: the eigenvalues of A are (3 ± sqrt(1 + 4 c^2)) / 2.
  const double root = std::sqrt(1.0 + 4.0 * c * c);
  CHECK(m.condition == doctest::Approx((3.0 + root) / (3.0 - root)));
  // Nothing dependent: no rod is highlighted; the section closed, nothing is analysed.
  CHECK(state.matrix.highlighted.empty());
}

TEST_CASE("the Matrix section finds the hub's dependent row and draws its rod orange while it is open") {
  const auto dir = temp_dir("matrix-hub");
  {
    std::FILE* f = std::fopen((dir / "hub.json").c_str(), "w");
    REQUIRE(f);
    std::fputs(kHub, f);
    std::fclose(f);
  }
  Sandbox sandbox(test_options(1280, 720));
  SandboxState& state = sandbox.state();
  REQUIRE(sandbox.load_scene(dir / "hub.json") == "");
  state.paused = true;
  open_panel(state, ViewOptions::Side::Right);
  state.view.rod_colouring = RodColouring::Plain;
  run_frames(sandbox, 3, kDt);
  const glm::vec3 orange(kMatrixHighlight);
  CHECK(colour_distance(rod_pixel(sandbox, 2), orange) > 60.0);  // closed: plain
  click_widget(sandbox, "matrix: header");
  scroll_to_widget(sandbox, "matrix: heat map");
  rest_pointer(sandbox);
  REQUIRE(state.matrix.analysis);
  CHECK(state.matrix.analysis->rank == 2);
  REQUIRE(state.matrix.analysis->dependent == std::vector<int>{2});
  CHECK(drew(diagnostics_lines(), "rows 3 rank 2 dependent 1"));
  CHECK(state.matrix.highlighted == std::vector<int>{2});
  CHECK(colour_distance(rod_pixel(sandbox, 2), orange) < 40.0);
  CHECK(colour_distance(rod_pixel(sandbox, 0), orange) > 60.0);
  // Hovering row 0 of the heat map highlights its rod too, and names it in the tooltip.
  hover(sandbox, "matrix: row 0");
  CHECK(state.matrix.hovered_row == 0);
  CHECK(state.matrix.hovered_constraint == 0);
  CHECK(colour_distance(rod_pixel(sandbox, 0), orange) < 40.0);
  bool named = false;
  for (const DrawnLine& line : drawn_lines(drawn_glyphs())) named |= line.text.find("distance #0") != std::string::npos;
  CHECK(named);
  // Closed again: nothing highlighted.
  click_widget(sandbox, "matrix: header");
  CHECK_FALSE(state.matrix.open);
  CHECK(state.matrix.highlighted.empty());
  CHECK(colour_distance(rod_pixel(sandbox, 2), orange) > 60.0);
  std::filesystem::remove_all(dir);
}

TEST_CASE("the Convergence section's background study gives run_convergence's orders, 1 and 2 on the simple pendulum") {
  Sandbox sandbox(test_options(1280, 720));
  SandboxState& state = sandbox.state();
  REQUIRE(sandbox.load_scene(asset("simple_pendulum.json")) == "");
  state.paused = true;
  open_panel(state, ViewOptions::Side::Right);
  run_frames(sandbox, 2, kDt);
  const std::vector<Vec3> before = state.world().state().position;
  const double time_before = state.world().time();
  click_widget(sandbox, "convergence: header");
  REQUIRE(state.convergence.open);
  state.convergence.until = 1.0;
  state.convergence.levels = 4;
  click_widget(sandbox, "convergence: run");
  wait_for_study(sandbox);
  REQUIRE(state.convergence.report);
  CHECK(state.convergence.message.empty());
  // The same study, run here directly on the scene with lane 1's settings.
  Scene scene = state.scene;
  scene.settings = state.world().settings();
  ConvergenceStudy study;
  study.until = 1.0;
  study.levels = 4;
  const ConvergenceReport direct = convergence_study(scene, study);
  const ConvergenceReport& shown = *state.convergence.report;
  REQUIRE(shown.results.size() == direct.results.size());
  for (std::size_t k = 0; k < direct.results.size(); ++k) {
    CAPTURE(direct.results[k].solver);
    CHECK(shown.results[k].solver == direct.results[k].solver);
    CHECK(shown.results[k].order == direct.results[k].order);  // the same runs, bit for bit
    const std::string name = find_solver(shown.results[k].solver)->name;
    if (name == "RATTLE") CHECK(shown.results[k].order == doctest::Approx(2.0).epsilon(0.075));
    if (shown.results[k].solver == "projection" || shown.results[k].solver == "acceleration")
      CHECK(shown.results[k].order == doctest::Approx(1.0).epsilon(0.15));
  }
  // The legend names each solver with the order the study fitted, not an order written in the code.
  scroll_to_widget(sandbox, "convergence: plot");
  const std::vector<std::string> lines = diagnostics_lines();
  for (const ConvergenceResult& r : direct.results) {
    char text[96];
    std::snprintf(text, sizeof text, "%s order %.2f", find_solver(r.solver)->name, r.order);
    CAPTURE(text);
    CHECK(drew(lines, text));
  }
  // The live world was never touched.
  CHECK(state.world().time() == time_before);
  CHECK(state.world().state().position == before);
}

TEST_CASE("Cancel stops the background study within moments, and the window goes on drawing meanwhile") {
  Sandbox sandbox(test_options(1280, 720));
  SandboxState& state = sandbox.state();
  REQUIRE(sandbox.load_scene(asset("hanging_chain.json")) == "");
  open_panel(state, ViewOptions::Side::Right);
  click_widget(sandbox, "convergence: header");
  state.convergence.until = 20.0;  // a reference run of millions of steps: many seconds of work
  state.convergence.levels = 6;
  click_widget(sandbox, "convergence: run");
  REQUIRE(state.convergence.job);
  CHECK(state.convergence.message.empty());
  const double t0 = state.world().time();
  run_frames(sandbox, 10, kDt);  // the live scene runs while the study does
  CHECK(state.world().time() > t0);
  REQUIRE(state.convergence.job);
  CHECK(state.widget_rects.count("convergence: progress") == 1);
  const double progress = state.convergence.job->progress();
  CHECK(progress >= 0.0);
  CHECK(progress < 1.0);
  click_widget(sandbox, "convergence: cancel");
  wait_for_study(sandbox);
  CHECK(state.convergence.message == "cancelled");
  CHECK_FALSE(state.convergence.report);
  CHECK(state.widget_rects.count("convergence: run") == 1);
}

TEST_CASE("at projector scales the Matrix and Convergence sections read whole, numbers or pattern") {
  for (double scale : {1.0, 2.0, 3.0}) {
    SandboxOptions options = test_options(1280, 720);
    options.appearance.scale = scale;
    Sandbox sandbox(options);
    SandboxState& state = sandbox.state();
    for (const char* scene : {"double_pendulum.json", "triple_pendulum.json", "rope_bridge.json"}) {
      REQUIRE(sandbox.load_scene(asset(scene)) == "");
      open_panel(state, ViewOptions::Side::Right);
      state.expand_sections = true;
      Scene copy = state.scene;
      ConvergenceStudy study;
      study.until = 0.2;
      study.levels = 3;
      state.convergence.report = std::make_shared<const ConvergenceReport>(convergence_study(copy, study));
      run_frames(sandbox, 6, kDt);
      for (const char* widget : {"matrix: heat map", "convergence: plot"}) {
        scroll_to_widget(sandbox, widget);
        // Diagnostics' own text (the rest of the screen is test_layout.cpp's).
        for (const std::string& problem : layout_problems(state, sandbox.radii())) {
          if (problem.find("[Diagnostics]") == std::string::npos) continue;
          CAPTURE(scale);
          CAPTURE(std::string(scene));
          CAPTURE(std::string(widget));
          FAIL_CHECK(problem);
        }
      }
    }
  }
}

}  // namespace lagrange::app::test
