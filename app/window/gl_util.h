// Small OpenGL helpers: shader programs from the embedded sources, a multisampled scene framebuffer, and reading the
// window's pixels back into an Image (capture/screenshot.h writes it as a PNG).
#pragma once

#include "sandbox_gl.h"

#include "capture/screenshot.h"

#include <string>
#include <string_view>

namespace lagrange::app {

// Compiles and links shaders/<vertex> and shaders/<fragment>. Throws std::runtime_error with the GL log.
GLuint make_program(std::string_view vertex, std::string_view fragment);

// Offscreen colour + depth target the scene is drawn into, then resolved (blitted) to the default framebuffer.
// Multisampled when the driver allows it; falls back to a single sample.
class SceneTarget {
 public:
  SceneTarget() = default;
  ~SceneTarget();
  SceneTarget(const SceneTarget&) = delete;
  SceneTarget& operator=(const SceneTarget&) = delete;

  // Re-creates the buffers when the size or sample count changed. Returns the samples actually in use.
  int resize(int width, int height, int samples);
  void bind() const;
  // Copies (resolving multisamples) into framebuffer `target` (0: the window) with its lower-left corner at (x, y).
  void resolve_to(GLuint target, int x = 0, int y = 0) const;
  int samples() const { return samples_; }

 private:
  void release();
  GLuint fbo_ = 0, colour_ = 0, depth_ = 0;
  GLuint resolved_fbo_ = 0, resolved_colour_ = 0;  // single-sampled copy, where a resolve needs the same bounds
  int width_ = 0, height_ = 0, samples_ = -1, requested_ = -1;
};

// Reads the bound framebuffer's colour (the window's back buffer after drawing), flipped to top-to-bottom rows.
Image read_framebuffer(int width, int height);

}  // namespace lagrange::app
