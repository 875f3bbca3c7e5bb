// The window adapter: everything the sandbox needs from SDL2 and the GL context, and nothing else. The rest of the
// sandbox sees pixel sizes and SDL events only. Two implementations, chosen by CMake: platform.cpp (desktop: OpenGL
// 3.3 core, glad) and app/web/platform_web.cpp (the browser: WebGL2, i.e. OpenGL ES 3.0).
#pragma once

#include <SDL.h>

#include <string>

namespace lagrange::app {

struct WindowOptions {
  std::string title = "Lagrange Lab";
  int width = 1280, height = 720;  // window size in screen units (points)
  bool hidden = false;             // no visible window: tests and `shot`
  bool vsync = true;
};

class Platform {
 public:
  // Initialises SDL video, opens the window with an OpenGL 3.3 core context and loads GL with glad.
  // Throws std::runtime_error naming what failed.
  explicit Platform(const WindowOptions& options);
  ~Platform();
  Platform(const Platform&) = delete;
  Platform& operator=(const Platform&) = delete;

  SDL_Window* window() const { return window_; }
  SDL_GLContext context() const { return context_; }
  // Size of the GL drawable in pixels (differs from the window size on HiDPI screens).
  void drawable_size(int& width, int& height) const;
  void window_size(int& width, int& height) const;
  // Pixels per window unit, to turn SDL mouse coordinates into drawable pixels.
  double pixel_ratio() const;
  // Content scale for fonts and widgets: the HiDPI factor the drawable size does not already carry.
  float ui_scale() const;
  void set_size(int width, int height);
  void swap() const;
  std::string renderer_name() const;
  // The #version line of the GLSL dialect the context takes ("#version 330 core"; "#version 300 es" on the web), for
  // ImGui's OpenGL backend. The sandbox's own shaders are rewritten to it at build time (embed_shaders.cmake).
  const char* glsl_version() const;

 private:
  SDL_Window* window_ = nullptr;
  SDL_GLContext context_ = nullptr;
};

}  // namespace lagrange::app
