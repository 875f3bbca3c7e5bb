// The window adapter's SDL side, the same on both platforms (platform.h): sizes, the swap, closing. What differs —
// the GL context asked for, the HiDPI scale, the GLSL dialect, what becomes of a written file — is in platform.cpp
// (desktop) and app/web/platform_web.cpp (the page).
#include <algorithm>

#include "window/platform.h"

namespace lagrange::app {

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

void Platform::set_size(int width, int height) { SDL_SetWindowSize(window_, width, height); }

void Platform::swap() const { SDL_GL_SwapWindow(window_); }

}  // namespace lagrange::app
