// Projector mode (issue 10): the UI scale (fonts rasterized at the scale, wider panels, thicker lines), the light
// theme, the View section's buttons, the choice remembered in the user's config folder, and `shot --ui-scale/--theme`.
#include <imgui.h>
#include <stb_image.h>
#include <sys/stat.h>

#include <cstdlib>
#include <fstream>
#include <optional>

#include "app_fixture.h"
#include "sandbox/sandbox.h"
#include "ui/ui.h"
#include "ui/user_config.h"
#include "window/theme.h"

namespace lagrange::app::test {
namespace {

constexpr double kDt = 1.0 / 60.0;


void write_text(const std::filesystem::path& file, const std::string& text) { std::ofstream(file) << text; }

double brightness(const std::uint8_t* p) { return (p[0] + p[1] + p[2]) / 3.0; }

// The height in pixels of the first line of text from the top of the box x0..x1, y0..y1 of an RGBA image: the first
// run of rows holding a text pixel (light text on the dark theme, dark text on the light one).
int text_height(const std::uint8_t* rgba, int width, int x0, int x1, int y0, int y1, bool dark) {
  int first = -1, last = -1;
  for (int y = y0; y < y1; ++y) {
    bool text = false;
    for (int x = x0; x < x1 && !text; ++x) {
      const std::uint8_t* p = rgba + (static_cast<std::size_t>(y) * width + x) * 4;
      text = dark ? std::min({p[0], p[1], p[2]}) > 190 : std::max({p[0], p[1], p[2]}) < 70;
    }
    if (text && first < 0) first = y;
    if (text) last = y;
    if (!text && first >= 0) break;
  }
  return first < 0 ? 0 : last - first + 1;
}

double mean_brightness(const std::uint8_t* rgba, int width, int x0, int x1, int y0, int y1) {
  double sum = 0.0;
  for (int y = y0; y < y1; ++y)
    for (int x = x0; x < x1; ++x) sum += brightness(rgba + (static_cast<std::size_t>(y) * width + x) * 4);
  return sum / ((x1 - x0) * (y1 - y0));
}

struct Measured {
  float font = 0.0f, atlas_font = 0.0f, frame_padding = 0.0f;
  float left = 0.0f, right = 0.0f;  // the panels' widths
  float rod_width = 0.0f;           // a rod of the double pendulum, in pixels
  int title_text = 0;               // the control panel's title text, in pixels
};

Measured measure(double scale) {
  SandboxOptions options = test_options(1920, 1080);
  options.appearance.scale = scale;
  Sandbox sandbox(options);
  REQUIRE(sandbox.load_scene(asset("double_pendulum.json")) == "");
  SandboxState& state = sandbox.state();
  state.paused = true;
  run_frames(sandbox, 3, kDt);
  Measured m;
  m.font = ImGui::GetFont()->FontSize;
  m.atlas_font = ImGui::GetIO().Fonts->Fonts[0]->FontSize;
  m.frame_padding = ImGui::GetStyle().FramePadding.x;
  CHECK(ImGui::GetIO().FontGlobalScale == 1.0f);
  const auto& rects = state.widget_rects;
  m.left = panel_layout(state).left;
  m.right = panel_layout(state).right;
  CHECK(rects.at("control panel")[2] <= m.left);  // the panels are drawn that wide
  CHECK(rects.at("diagnostics panel")[0] >= 1920.0f - m.right);
  DrawList list;
  build_draw_list(state, sandbox.radii(), list);
  REQUIRE(!list.segments.empty());
  m.rod_width = list.segments[0].width;
  const Image image = sandbox.read_pixels();
  m.title_text = text_height(image.rgba.data(), image.width, 0, 200, 0, 80, true);
  return m;
}

}  // namespace

TEST_CASE("UI scale 2: fonts rasterized at twice the size, larger widgets, wider panels, thicker lines") {
  const Measured one = measure(1.0), two = measure(2.0), one_and_half = measure(1.5);
  CAPTURE(one.font);
  CAPTURE(two.font);
  // The atlas itself holds the larger font (rasterized, not stretched by FontGlobalScale).
  CHECK(two.atlas_font == doctest::Approx(2.0 * one.atlas_font).epsilon(0.04));
  CHECK(two.font == two.atlas_font);
  CHECK(one_and_half.atlas_font == doctest::Approx(1.5 * one.atlas_font).epsilon(0.05));
  CHECK(two.frame_padding == doctest::Approx(2.0 * one.frame_padding));
  CHECK(two.left > 1.3f * one.left);  // wider, but within half the window: the scene keeps the other half
  CHECK(two.right > 1.3f * one.right);
  CHECK(two.rod_width == doctest::Approx(2.0 * one.rod_width));
  // What reaches the pixels: the title's text is about twice as tall.
  CAPTURE(one.title_text);
  CAPTURE(two.title_text);
  CHECK(one.title_text >= 8);
  CHECK(two.title_text >= 1.7 * one.title_text);
  CHECK(two.title_text <= 2.3 * one.title_text);
}

TEST_CASE("at 2x and 3x on a 1920x1080 projector every label of both panels and the top line is complete") {
  for (const double scale : {2.0, 3.0}) {
    for (const char* scene : {"double_pendulum.json", "spherical_pendulum.json"}) {  // 2D and 3D settings
      CAPTURE(scale);
      CAPTURE(scene);
      SandboxOptions options = test_options(1920, 1080);
      options.appearance = {Theme::Light, scale};
      Sandbox sandbox(options);
      REQUIRE(sandbox.load_scene(asset(scene)) == "");
      SandboxState& state = sandbox.state();
      state.expand_sections = true;
      state.time_scale = 0.25;  // the top line's longest form
      state.drag_model = DragModel::Spring;
      state.paused = true;
      open_panel(state, ViewOptions::Side::Left);
      run_frames(sandbox, 3, kDt);
      const auto& rects = state.widget_rects;
      const auto control = rects.at("control panel");
      int labels = 0;
      for (const auto& [name, rect] : rects) {
        CAPTURE(name);
        if (name.starts_with("label: ") || name.starts_with("theme ") || name.starts_with("ui scale ") ||
            name == "lanes overlaid" || name == "lanes side by side") {
          CHECK(rect[0] >= control[0] - 0.5f);
          CHECK(rect[2] <= control[2] + 0.5f);
          ++labels;
        }
      }
      open_panel(state, ViewOptions::Side::Right);
      run_frames(sandbox, 3, kDt);
      const auto diagnostics = rects.at("diagnostics panel");
      for (const auto& [name, rect] : rects)
        if (name.starts_with("diagnostics: ") || name == "renderer") {
          CAPTURE(name);
          CHECK(rect[2] <= diagnostics[2] + 0.5f);
        }
      CHECK(labels >= 28);  // the expanded panel's labels, the two themes, six scale buttons and the slider
      const auto hud = rects.at("hud");
      const Camera& camera = sandbox.camera();
      CHECK(hud[0] >= camera.x());
      CHECK(hud[2] <= camera.x() + camera.width());
      CHECK(camera.width() >= 0.39 * 1920);  // the scene keeps its 40 % of the width, even beside an opened panel
    }
  }
}

TEST_CASE("the light theme: a light scene background and light panels, and the View section's radio buttons switch it") {
  Sandbox sandbox(test_options(1280, 2000));  // tall: the expanded control panel, View section included, fits
  REQUIRE(sandbox.load_scene(asset("double_pendulum.json")) == "");
  SandboxState& state = sandbox.state();
  state.paused = true;
  state.expand_sections = true;
  run_frames(sandbox, 3, kDt);
  auto check_theme = [&](Theme theme) {
    CAPTURE(theme_name(theme));
    CHECK(state.appearance.theme == theme);
    run_frames(sandbox, 1, 0.0);
    const Image image = sandbox.read_pixels();
    const Camera& camera = sandbox.camera();
    // The scene's background: the theme's, and light (or dark) in a corner of the viewport away from the HUD.
    const int x = camera.x() + camera.width() - 4, y = camera.y() + camera.height() - 4;
    CHECK(colour_distance(image.at(x, y), palette(theme).background) < 3.0);
    const double scene = mean_brightness(image.rgba.data(), image.width, camera.x(), camera.x() + camera.width(),
                                         0, image.height);
    const double panel = mean_brightness(image.rgba.data(), image.width, 0, camera.x(), 0, image.height);
    if (theme == Theme::Light) {
      CHECK(scene > 200.0);
      CHECK(panel > 180.0);
    } else {
      CHECK(scene < 60.0);
      CHECK(panel < 80.0);
    }
  };
  check_theme(Theme::Dark);  // the default
  click_widget(sandbox, "theme light");
  check_theme(Theme::Light);
  click_widget(sandbox, "theme dark");
  check_theme(Theme::Dark);
}

TEST_CASE("the UI scale buttons and slider rebuild the font atlas between frames, the slider on release") {
  // Tall: the expanded control panel, View section included, fits at 2x.
  Sandbox sandbox(test_options(1280, 4000));
  REQUIRE(sandbox.load_scene(asset("double_pendulum.json")) == "");
  SandboxState& state = sandbox.state();
  state.paused = true;
  state.expand_sections = true;
  run_frames(sandbox, 3, kDt);
  const float font = ImGui::GetIO().Fonts->Fonts[0]->FontSize;
  const float left = panel_layout(state).left;
  click_widget(sandbox, "ui scale 2x");
  CHECK(state.appearance.scale == 2.0);
  run_frames(sandbox, 2, 0.0);  // applied before the next frame
  CHECK(state.appearance.scale == 2.0);
  CHECK(state.ui_scale == doctest::Approx(2.0 * font / kBaseFontSize).epsilon(0.04));
  CHECK(ImGui::GetIO().Fonts->Fonts.Size == 1);
  CHECK(ImGui::GetIO().Fonts->Fonts[0]->FontSize == doctest::Approx(2.0 * font).epsilon(0.04));
  CHECK(ImGui::GetIO().Fonts->TexID != ImTextureID{});  // uploaded again
  CHECK(panel_layout(state).left > 1.15f * left);  // 60 % of the window's width at most: 1.19x here
  // The panels still draw complete text with the new atlas: the title is about twice as tall.
  const Image image = sandbox.read_pixels();
  const int title = text_height(image.rgba.data(), image.width, 0, 200, 0, 80, true);
  CHECK(title >= 16);
  click_widget(sandbox, "ui scale 1x");
  run_frames(sandbox, 1, 0.0);
  CHECK(state.appearance.scale == 1.0);
  CHECK(ImGui::GetIO().Fonts->Fonts[0]->FontSize == font);

  // The slider: pressed in its middle (2x) nothing changes yet; released, the scale is applied.
  run_frames(sandbox, 2, 0.0);
  const auto rect = state.widget_rects.at("ui scale slider");
  const glm::dvec2 centre(0.5 * (rect[0] + rect[2]), 0.5 * (rect[1] + rect[3]));
  REQUIRE(centre.y < 4000.0);
  push_mouse_motion(centre, centre, false);
  run_frames(sandbox, 1, 0.0);
  push_mouse_button(SDL_MOUSEBUTTONDOWN, centre);
  run_frames(sandbox, 2, 0.0);
  CHECK(state.appearance.scale == 1.0);
  CHECK(ImGui::GetIO().Fonts->Fonts[0]->FontSize == font);
  push_mouse_button(SDL_MOUSEBUTTONUP, centre);
  run_frames(sandbox, 2, 0.0);
  CHECK(state.appearance.scale == doctest::Approx(2.0).epsilon(0.03));
  CHECK(ImGui::GetIO().Fonts->Fonts[0]->FontSize > 1.9f * font);
}

TEST_CASE("the theme and scale chosen in the window are remembered in XDG_CONFIG_HOME and read back at the start") {
  const auto dir = temp_dir("config");
  ScopedEnv config("XDG_CONFIG_HOME", dir.string());
  const std::filesystem::path file = settings_file();
  CHECK(file == dir / "lagrange-lab" / "settings.json");
  std::string warning;
  CHECK(read_appearance(file, warning) == Appearance{});  // no file yet: the defaults, silently
  CHECK(warning.empty());
  {
    SandboxOptions options = test_options(1280, 2400);
    options.config_file = file;
    Sandbox sandbox(options);
    REQUIRE(sandbox.load_scene(asset("double_pendulum.json")) == "");
    sandbox.state().paused = true;
    sandbox.state().expand_sections = true;
    run_frames(sandbox, 3, kDt);
    CHECK(!std::filesystem::exists(file));  // nothing is written until the user changes something
    click_widget(sandbox, "theme light");
    click_widget(sandbox, "ui scale 1.5x");
    run_frames(sandbox, 1, 0.0);  // applied and remembered before the next frame
  }
  const Appearance saved = read_appearance(file, warning);
  CHECK(warning.empty());
  CHECK(saved.theme == Theme::Light);
  CHECK(saved.scale == 1.5);
  // The next start reads it: fonts rasterized at 1.5x, the light background.
  SandboxOptions options = test_options(640, 360);
  options.appearance = saved;
  Sandbox sandbox(options);
  REQUIRE(sandbox.load_scene(asset("double_pendulum.json")) == "");
  run_frames(sandbox, 2, kDt);
  CHECK(sandbox.state().appearance == saved);
  CHECK(ImGui::GetIO().Fonts->Fonts[0]->FontSize ==
        std::round(kBaseFontSize * static_cast<float>(sandbox.state().ui_scale)));
  CHECK(colour_distance(sandbox.read_pixels().at(sandbox.camera().x() + sandbox.camera().width() - 3,
                                                 sandbox.camera().y() + sandbox.camera().height() / 2),
                        palette(Theme::Light).background) < 3.0);
  // Other keys in the file are kept when it is written again.
  write_text(file, R"({"other": 7, "theme": "dark"})");
  CHECK(write_appearance(file, {Theme::Light, 2.5}).empty());
  std::ifstream in(file);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(text.find("\"other\": 7") != std::string::npos);
  CHECK(read_appearance(file, warning) == Appearance{Theme::Light, 2.5});
  std::filesystem::remove_all(dir);
}

TEST_CASE("a malformed config file gives the defaults and one line naming the file and the problem, never a crash") {
  const auto dir = temp_dir("bad-config");
  const auto file = dir / "settings.json";
  struct Case {
    const char* text;
    Appearance expected;
    const char* problem;
  };
  const Case cases[] = {
      {"{not json", {}, "not valid JSON"},
      {"", {}, "not valid JSON"},
      {"[1, 2]", {}, "not a JSON object"},
      {R"({"theme": "sepia"})", {}, "\"theme\" must be"},
      {R"({"theme": 3, "ui_scale": 2})", {Theme::Dark, 2.0}, "\"theme\" must be"},
      {R"({"theme": "light", "ui_scale": 9})", {Theme::Light, 1.0}, "\"ui_scale\" must be a number from 1 to 3"},
      {R"({"ui_scale": "big"})", {}, "\"ui_scale\" must be"},
      {R"({"ui_scale": 0.5})", {}, "\"ui_scale\" must be"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.text);
    write_text(file, c.text);
    std::string warning;
    const Appearance got = read_appearance(file, warning);
    CHECK(got == c.expected);
    CHECK(warning.find(c.problem) != std::string::npos);
    CHECK(warning.find(file.string()) != std::string::npos);
    CHECK(warning.find('\n') == std::string::npos);
  }
  // Not a regular file (a folder, a FIFO): never opened, so never a hang.
  std::filesystem::remove(file);
  std::filesystem::create_directory(file);
  std::string warning;
  CHECK(read_appearance(file, warning) == Appearance{});
  CHECK(warning.find("not a regular file") != std::string::npos);
  const auto fifo = dir / "fifo.json";
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  CHECK(read_appearance(fifo, warning) == Appearance{});
  CHECK(warning.find("not a regular file") != std::string::npos);
  // A write over a broken file replaces it with a good one.
  std::filesystem::remove(file);
  write_text(file, "{not json");
  CHECK(write_appearance(file, {Theme::Light, 3.0}).empty());
  CHECK(read_appearance(file, warning) == Appearance{Theme::Light, 3.0});
  CHECK(warning.empty());
  std::filesystem::remove_all(dir);
}

TEST_CASE("the window entry point reads the config, warns once about a broken one, and --theme is not saved") {
  const auto dir = temp_dir("window-config");
  ScopedEnv config("XDG_CONFIG_HOME", dir.string());
  const auto run = run_window;
  std::filesystem::create_directories(dir / "lagrange-lab");
  const auto file = dir / "lagrange-lab" / "settings.json";
  write_text(file, "{broken");
  CHECK(run({"--quit-after", "2"}) == 0);
  CHECK(run({"--quit-after", "2", "--theme", "light", "--ui-scale", "1.5"}) == 0);
  std::ifstream in(file);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(text == "{broken");  // the command line's choice is for the session only
  CHECK(run({"--ui-scale", "0.5"}) == 2);
  CHECK(run({"--ui-scale", "3.5"}) == 2);
  CHECK(run({"--ui-scale", "nan"}) == 2);
  CHECK(run({"--ui-scale", "2x"}) == 2);
  CHECK(run({"--theme", "sepia"}) == 2);
  std::filesystem::remove_all(dir);
}

TEST_CASE("shot --ui-scale 2 draws text twice as tall and --theme light a light picture, and shot ignores the config") {
  const auto dir = temp_dir("shot-projector");
  // A remembered light theme at 3x that shot must not read: its pictures depend on the command line only.
  ScopedEnv config("XDG_CONFIG_HOME", dir.string());
  REQUIRE(write_appearance(settings_file(), {Theme::Light, 3.0}).empty());
  struct Picture {
    int width = 0, height = 0;
    std::vector<std::uint8_t> rgba;
  };
  auto shot = [&](std::vector<std::string> extra) {
    const std::string out = (dir / "p.png").string();
    std::vector<std::string> args = {asset("double_pendulum.json").string(), "--time", "1", "--size", "1280x720",
                                     "--panels", "--out", out};
    args.insert(args.end(), extra.begin(), extra.end());
    REQUIRE(run_shot(args) == 0);
    Picture p;
    int channels = 0;
    unsigned char* data = stbi_load(out.c_str(), &p.width, &p.height, &channels, 4);
    REQUIRE(data != nullptr);
    p.rgba.assign(data, data + static_cast<std::size_t>(p.width) * p.height * 4);
    stbi_image_free(data);
    return p;
  };
  const Picture one = shot({}), two = shot({"--ui-scale", "2"}), light = shot({"--theme", "light"});
  const int h1 = text_height(one.rgba.data(), one.width, 0, 200, 0, 80, true);
  const int h2 = text_height(two.rgba.data(), two.width, 0, 200, 0, 80, true);
  CAPTURE(h1);
  CAPTURE(h2);
  CHECK(h1 >= 8);
  CHECK(h2 >= 1.7 * h1);
  CHECK(h2 <= 2.3 * h1);
  // Dark by default (the remembered light theme was not read), light when asked.
  CHECK(mean_brightness(one.rgba.data(), one.width, 0, one.width, 0, one.height) < 60.0);
  CHECK(mean_brightness(light.rgba.data(), light.width, 0, light.width, 0, light.height) > 190.0);
  const std::uint8_t* corner = light.rgba.data() + (static_cast<std::size_t>(700) * light.width + 700) * 4;
  CHECK(brightness(corner) > 200.0);
  // Nor written.
  std::string warning;
  CHECK(read_appearance(settings_file(), warning) == Appearance{Theme::Light, 3.0});
  std::filesystem::remove_all(dir);
}

}  // namespace lagrange::app::test
