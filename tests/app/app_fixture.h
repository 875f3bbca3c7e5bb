// Helpers shared by the sandbox tests: a hidden sandbox, SDL event injection, pixel checks.
#pragma once

#include <array>
#include <unistd.h>

#include <cstdlib>

#include <optional>

#include <SDL.h>
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "sandbox/sandbox.h"
#include "sandbox/sandbox_app.h"
#include "view/scene_draw.h"
#include "window/renderer.h"

namespace lagrange::app::test {

inline std::filesystem::path asset(const std::string& name) { return std::filesystem::path(LAGRANGE_ASSETS_DIR) / name; }

inline std::vector<std::filesystem::path> shipped_scenes() {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(LAGRANGE_ASSETS_DIR))
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

// A hidden 640x360 sandbox on the offscreen driver, no vsync.
// A fresh, empty folder for one test, private to this process: two test runs at once (two builds, CI beside a
// developer) never share one.
inline std::filesystem::path temp_dir(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("lagrange-app-tests-" + std::to_string(::getpid()) + "-" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

inline SandboxOptions test_options(int width = 640, int height = 360) {
  SandboxOptions options;
  options.width = width;
  options.height = height;
  options.hidden = true;
  options.vsync = false;
  return options;
}

inline void push_mouse_button(Uint32 type, glm::dvec2 pixel, Uint8 button = SDL_BUTTON_LEFT) {
  SDL_Event event{};
  event.type = type;
  event.button.button = button;
  event.button.state = type == SDL_MOUSEBUTTONDOWN ? SDL_PRESSED : SDL_RELEASED;
  event.button.clicks = 1;
  event.button.x = static_cast<int>(std::lround(pixel.x));
  event.button.y = static_cast<int>(std::lround(pixel.y));
  REQUIRE(SDL_PushEvent(&event) == 1);
}

inline void push_mouse_motion(glm::dvec2 pixel, glm::dvec2 previous, bool left_down) {
  SDL_Event event{};
  event.type = SDL_MOUSEMOTION;
  event.motion.state = left_down ? SDL_BUTTON_LMASK : 0;
  event.motion.x = static_cast<int>(std::lround(pixel.x));
  event.motion.y = static_cast<int>(std::lround(pixel.y));
  event.motion.xrel = event.motion.x - static_cast<int>(std::lround(previous.x));
  event.motion.yrel = event.motion.y - static_cast<int>(std::lround(previous.y));
  REQUIRE(SDL_PushEvent(&event) == 1);
}

// A key pressed and released, with modifiers held (KMOD_LCTRL for Ctrl+key).
inline void push_key(SDL_Keycode key, Uint16 modifiers = KMOD_NONE) {
  for (Uint32 type : {SDL_KEYDOWN, SDL_KEYUP}) {
    SDL_Event event{};
    event.type = type;
    event.key.state = type == SDL_KEYDOWN ? SDL_PRESSED : SDL_RELEASED;
    event.key.keysym.sym = key;
    event.key.keysym.scancode = SDL_GetScancodeFromKey(key);
    event.key.keysym.mod = modifiers;
    REQUIRE(SDL_PushEvent(&event) == 1);
  }
}

// Sets an environment variable for the lifetime of the object, then restores it.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::optional<std::string>& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value) setenv(name, value->c_str(), 1);
    else unsetenv(name);
  }
  ~ScopedEnv() {
    if (old_) setenv(name_, old_->c_str(), 1);
    else unsetenv(name_);
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};


// Window coordinates of a world point (the offscreen window has one pixel per unit).
inline glm::dvec2 screen_of(const Sandbox& sandbox, Vec3 world) {
  const auto p = sandbox.camera().project(world);
  REQUIRE(p.has_value());
  return glm::dvec2(p->x, p->y);
}

inline double colour_distance(Image::Pixel pixel, glm::vec3 colour) {
  const double dr = pixel.r - colour.r * 255.0, dg = pixel.g - colour.g * 255.0, db = pixel.b - colour.b * 255.0;
  return std::sqrt(dr * dr + dg * dg + db * db);
}

// The background's colour at row y of an image `height` rows tall (renderer.h): flat.
inline glm::vec3 background_at(int, int) { return kBackground; }

// Opens one side panel as a click on its bar does: it stays open, the other gives way first when the window is too
// small for both (ui/screen_layout.cpp).
inline void open_panel(SandboxState& state, ViewOptions::Side side) {
  state.view.panels = state.view.left_open = state.view.right_open = true;
  state.view.opened_last = side;
}

inline void run_frames(Sandbox& sandbox, int frames, double dt) {
  for (int i = 0; i < frames; ++i) {
    sandbox.pump_events();
    sandbox.frame(dt);
    sandbox.render();
  }
}

// Moves the pointer to the middle of a widget the panels drew, and clicks there.
// `lagrange-lab shot ARGS` and `lagrange-lab [gui] ARGS`, called in this process (their entry points, sandbox.h).
inline int call_main(int (*entry)(int, char**), std::vector<std::string> args) {
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  return entry(static_cast<int>(argv.size()), argv.data());
}
inline int run_shot(std::vector<std::string> args) { return call_main(shot_main, std::move(args)); }
inline int run_window(std::vector<std::string> args) { return call_main(sandbox_main, std::move(args)); }

// A left click that does not move: the pointer there, press and release at the same pixel, a frame each.
inline void click_at(Sandbox& sandbox, glm::dvec2 pixel) {
  push_mouse_motion(pixel, pixel, false);
  run_frames(sandbox, 1, 0.0);
  push_mouse_button(SDL_MOUSEBUTTONDOWN, pixel);
  run_frames(sandbox, 1, 0.0);
  push_mouse_button(SDL_MOUSEBUTTONUP, pixel);
  run_frames(sandbox, 1, 0.0);
}

// Scrolls the panel of the widget drawn as `name` (widget_rects) with the wheel, as a user would, until the widget is
// above the window's bottom edge; its rectangle.
inline std::array<float, 4> scroll_to_widget(Sandbox& sandbox, const std::string& name) {
  run_frames(sandbox, 2, 0.0);  // a popup that just opened is placed on its second frame
  const auto& rects = sandbox.state().widget_rects;
  auto it = rects.find(name);
  REQUIRE_MESSAGE(it != rects.end(), "widget not drawn: " << name);
  const double bottom = sandbox.state().window_height / sandbox.state().pixel_ratio;
  for (int wheel = 0; wheel < 60 && it->second[3] > bottom - 4.0; ++wheel) {
    // Near the bottom edge: over the panel itself, not a list inside it (which would scroll instead).
    const glm::dvec2 over(0.5 * (it->second[0] + it->second[2]), bottom - 30.0);
    push_mouse_motion(over, over, false);
    SDL_Event event{};
    event.type = SDL_MOUSEWHEEL;
    event.wheel.y = -2;
    event.wheel.direction = SDL_MOUSEWHEEL_NORMAL;
    sandbox.handle_event(event);
    run_frames(sandbox, 2, 0.0);
    it = rects.find(name);
    REQUIRE_MESSAGE(it != rects.end(), "widget no longer drawn after scrolling: " << name);
  }
  return it->second;
}

// Clicks the widget drawn as `name`, first scrolling its panel into view (scroll_to_widget).
inline void click_widget(Sandbox& sandbox, const std::string& name) {
  const std::array<float, 4> r = scroll_to_widget(sandbox, name);
  click_at(sandbox, glm::dvec2(0.5 * (r[0] + r[2]), 0.5 * (r[1] + r[3])));
}

}  // namespace lagrange::app::test
