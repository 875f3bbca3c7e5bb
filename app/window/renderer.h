// Draws primitives with OpenGL 3.3: shaded sphere impostors and pixel-wide segments, both instanced. Knows nothing
// of the engine: scene_draw.cpp turns a World into these lists.
#pragma once

#include "sandbox_gl.h"
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include <vector>

#include "window/camera.h"
#include "window/gl_util.h"

namespace lagrange::app {

struct SphereInstance {
  glm::vec3 centre;
  float radius;
  glm::vec4 colour;
  glm::vec4 style;  // x: fixed (striped), y: highlight 0..1, z: outline 0..1
};

struct SegmentInstance {
  glm::vec3 a;
  float width;  // pixels
  glm::vec3 b;
  float depth_bias;  // view units toward the camera: draws on top of what lies at the same depth
  glm::vec4 colour;
};

// Background colour of the dark theme (the default), shared with the pixel tests; the light theme's is in theme.cpp.
inline constexpr glm::vec3 kBackground{0.094f, 0.102f, 0.122f};

struct DrawList {
  glm::vec3 background = kBackground;  // the window is cleared to it (the theme's)
  std::vector<SegmentInstance> under;  // grid: drawn first, without depth writes
  std::vector<SegmentInstance> segments;
  std::vector<SphereInstance> spheres;
  std::vector<SegmentInstance> over;   // gizmos drawn on top of everything (drag line, arrows, selection)
  void clear() {
    under.clear();
    segments.clear();
    spheres.clear();
    over.clear();
  }
};

class Renderer {
 public:
  Renderer();
  ~Renderer();
  Renderer(const Renderer&) = delete;
  Renderer& operator=(const Renderer&) = delete;

  // Clears the window (window_width x window_height pixels) and draws the scene into the camera's viewport: through a
  // multisampled target when samples > 0. With clear_window false only the viewport is cleared (split views: one
  // draw per view).
  void draw(const DrawList& list, const Camera& camera, int samples, int window_width, int window_height,
            bool clear_window = true);

 private:
  void draw_segments(const std::vector<SegmentInstance>& segments, const Camera& camera);

  SceneTarget target_;
  GLuint sphere_program_ = 0, segment_program_ = 0;
  GLuint quad_vbo_ = 0, segment_quad_vbo_ = 0;
  GLuint sphere_vao_ = 0, sphere_vbo_ = 0;
  GLuint segment_vao_ = 0, segment_vbo_ = 0;
};

}  // namespace lagrange::app
