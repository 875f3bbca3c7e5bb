#include "window/platform.h"

#include <glad/gl.h>

#include <algorithm>
#include <stdexcept>

namespace lagrange::app {

Platform::Platform(const WindowOptions& options) {
  SDL_SetHint(SDL_HINT_VIDEO_HIGHDPI_DISABLED, "0");
  SDL_SetHint(SDL_HINT_MOUSE_FOCUS_CLICKTHROUGH, "1");
  if (SDL_Init(SDL_INIT_VIDEO | SDL_INIT_TIMER | SDL_INIT_EVENTS) != 0)
    throw std::runtime_error(std::string("SDL_Init failed: ") + SDL_GetError());
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 3);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_FLAGS, SDL_GL_CONTEXT_FORWARD_COMPATIBLE_FLAG);
  SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
  SDL_GL_SetAttribute(SDL_GL_DEPTH_SIZE, 24);
  SDL_GL_SetAttribute(SDL_GL_STENCIL_SIZE, 8);

  Uint32 flags = SDL_WINDOW_OPENGL | SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI;
  flags |= options.hidden ? SDL_WINDOW_HIDDEN : SDL_WINDOW_SHOWN;
  window_ = SDL_CreateWindow(options.title.c_str(), SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, options.width,
                             options.height, flags);
  if (!window_) {
    const std::string message = std::string("cannot open a window: ") + SDL_GetError();
    SDL_Quit();
    throw std::runtime_error(message);
  }
  context_ = SDL_GL_CreateContext(window_);
  if (!context_) {
    const std::string message = std::string("cannot create an OpenGL 3.3 core context: ") + SDL_GetError();
    SDL_DestroyWindow(window_);
    SDL_Quit();
    throw std::runtime_error(message);
  }
  SDL_GL_MakeCurrent(window_, context_);
  if (!gladLoadGL(reinterpret_cast<GLADloadfunc>(SDL_GL_GetProcAddress))) {
    SDL_GL_DeleteContext(context_);
    SDL_DestroyWindow(window_);
    SDL_Quit();
    throw std::runtime_error("cannot load OpenGL 3.3 core functions");
  }
  // Adaptive vsync first (tears instead of stalling when late), then plain vsync.
  if (options.vsync && SDL_GL_SetSwapInterval(-1) != 0) SDL_GL_SetSwapInterval(1);
  if (!options.vsync) SDL_GL_SetSwapInterval(0);
}

float Platform::ui_scale() const {
  if (pixel_ratio() > 1.01) return 1.0f;  // the OS scales the drawable (macOS, Wayland): ImGui already handles it
  float ddpi = 0.0f;
  const int display = SDL_GetWindowDisplayIndex(window_);
  if (display < 0 || SDL_GetDisplayDPI(display, &ddpi, nullptr, nullptr) != 0 || ddpi <= 0.0f) return 1.0f;
  return std::clamp(ddpi / 96.0f, 1.0f, 3.0f);
}

const char* Platform::glsl_version() const { return "#version 330 core"; }

// Files stay in the folder they were written to; no picker (the scene list, the path field, a dropped file).
bool Platform::files_download() const { return false; }

std::string Platform::deliver_file(const std::filesystem::path&) { return {}; }

bool Platform::pick_scene_file() { return false; }

bool Platform::has_scene_picker() const { return false; }

std::string Platform::renderer_name() const {
  const auto* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  const auto* version = reinterpret_cast<const char*>(glGetString(GL_VERSION));
  return std::string(renderer ? renderer : "?") + ", OpenGL " + (version ? version : "?");
}

}  // namespace lagrange::app
