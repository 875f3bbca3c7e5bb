// The window adapter in the browser (app/sandbox/platform.h): SDL2's Emscripten video driver draws into the page's
// <canvas id="canvas"> with a WebGL2 context (OpenGL ES 3.0). No loader: the GL functions are Emscripten's.
#include <emscripten.h>

#include <algorithm>
#include <stdexcept>

#include "sandbox/platform.h"
#include "sandbox_gl.h"

namespace lagrange::app {

Platform::Platform(const WindowOptions& options) {
  SDL_SetHint(SDL_HINT_VIDEO_HIGHDPI_DISABLED, "0");
  if (SDL_Init(SDL_INIT_VIDEO | SDL_INIT_TIMER | SDL_INIT_EVENTS) != 0)
    throw std::runtime_error(std::string("SDL_Init failed: ") + SDL_GetError());
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_ES);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 0);
  SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
  SDL_GL_SetAttribute(SDL_GL_DEPTH_SIZE, 24);
  SDL_GL_SetAttribute(SDL_GL_STENCIL_SIZE, 8);

  // The page fills the browser window; SDL follows its resizes (a resizable window tracks the browser's size).
  const int width = std::max(emscripten_run_script_int("window.innerWidth|0"), 1);
  const int height = std::max(emscripten_run_script_int("window.innerHeight|0"), 1);
  Uint32 flags = SDL_WINDOW_OPENGL | SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI | SDL_WINDOW_SHOWN;
  window_ = SDL_CreateWindow(options.title.c_str(), SDL_WINDOWPOS_UNDEFINED, SDL_WINDOWPOS_UNDEFINED,
                             width > 1 ? width : options.width, height > 1 ? height : options.height, flags);
  if (!window_) {
    const std::string message = std::string("cannot open the canvas: ") + SDL_GetError();
    SDL_Quit();
    throw std::runtime_error(message);
  }
  context_ = SDL_GL_CreateContext(window_);
  if (!context_) {
    const std::string message = std::string("cannot create a WebGL2 context: ") + SDL_GetError();
    SDL_DestroyWindow(window_);
    SDL_Quit();
    throw std::runtime_error(message);
  }
  SDL_GL_MakeCurrent(window_, context_);
  // The frame rate is the browser's (requestAnimationFrame, web_main.cpp): no swap interval to set.
}

Platform::~Platform() {
  if (context_) SDL_GL_DeleteContext(context_);
  if (window_) SDL_DestroyWindow(window_);
  SDL_Quit();
}

void Platform::drawable_size(int& width, int& height) const {
  SDL_GL_GetDrawableSize(window_, &width, &height);
  width = std::max(width, 1);
  height = std::max(height, 1);
}

void Platform::window_size(int& width, int& height) const {
  SDL_GetWindowSize(window_, &width, &height);
  width = std::max(width, 1);
  height = std::max(height, 1);
}

double Platform::pixel_ratio() const {
  int dw, dh, ww, wh;
  drawable_size(dw, dh);
  window_size(ww, wh);
  return static_cast<double>(dw) / ww;
}

// The browser's devicePixelRatio is already in the drawable size (SDL_WINDOW_ALLOW_HIGHDPI): ImGui handles it.
float Platform::ui_scale() const { return 1.0f; }

void Platform::set_size(int width, int height) { SDL_SetWindowSize(window_, width, height); }

void Platform::swap() const { SDL_GL_SwapWindow(window_); }

const char* Platform::glsl_version() const { return "#version 300 es"; }

// The browser masks GL_RENDERER ("WebKit WebGL"); WEBGL_debug_renderer_info gives the real one where the browser
// allows it (Chromium does: "ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device ...))"), which tells software rendering.
std::string Platform::renderer_name() const {
  const char* unmasked = emscripten_run_script_string(
      "(function(){try{var e=GLctx.getExtension('WEBGL_debug_renderer_info');"
      "return e?String(GLctx.getParameter(e.UNMASKED_RENDERER_WEBGL)):''}catch(x){return ''}})()");
  const auto* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  const auto* version = reinterpret_cast<const char*>(glGetString(GL_VERSION));
  std::string name = unmasked && *unmasked ? unmasked : (renderer ? renderer : "?");
  return name + ", " + (version ? version : "?");
}

}  // namespace lagrange::app
