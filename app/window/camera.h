// The view: an orthographic camera for 2D scenes (the z = 0 plane) and a perspective orbit camera for 3D scenes.
// Pixel coordinates are window coordinates: drawable pixels from the window's top-left corner. The camera draws into
// a viewport, a rectangle of the window (the free middle between the panels); projection, rays and framing use it.
#pragma once

#include <glm/mat4x4.hpp>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include <optional>

namespace lagrange::app {

struct Ray {
  glm::dvec3 origin;
  glm::dvec3 direction;  // unit
};

class Camera {
 public:
  bool perspective = false;
  // Orthographic: the visible rectangle is centre ± (aspect · half_height, half_height).
  glm::dvec2 centre{0.0};
  double half_height = 2.0;
  // Perspective orbit: the eye looks at target from yaw/pitch (radians) at distance.
  glm::dvec3 target{0.0};
  double yaw = 0.6, pitch = 0.35, distance = 6.0;
  double fov_y = 0.7853981633974483;  // 45°

  // The rectangle the scene is drawn into: left, top, width, height in drawable pixels of the window.
  void set_viewport(int x, int y, int width, int height);
  void set_viewport(int width, int height) { set_viewport(0, 0, width, height); }
  int x() const { return x_; }
  int y() const { return y_; }
  int width() const { return width_; }
  int height() const { return height_; }
  // The nearest window pixel inside the viewport, `margin` pixels from its edges.
  glm::dvec2 clamp_to_viewport(glm::dvec2 pixel, double margin = 0.0) const;
  bool in_viewport(glm::dvec2 pixel) const;

  glm::dmat4 view() const;
  glm::dmat4 projection() const;
  glm::dvec3 eye() const;
  glm::dvec3 forward() const;  // unit, from the eye into the scene

  // The ray through a window pixel.
  Ray ray(glm::dvec2 pixel) const;
  // Window pixel position of a world point and its depth (distance along forward); nothing when behind the camera.
  std::optional<glm::dvec3> project(glm::dvec3 world) const;
  // Pixels per world unit at a world point (for picking radii and pixel-sized gizmos).
  double pixels_per_unit(glm::dvec3 world) const;

  // Fits the box [lo, hi] in view with a margin; keeps the orbit angles.
  void frame(glm::dvec3 lo, glm::dvec3 hi);
  // The same into a rectangle of the viewport (x, y, width, height in pixels): the rest of the viewport is left to
  // what sits over the scene there (the top line, the legend), and the scene is still drawn in the whole viewport.
  void frame_into(glm::dvec3 lo, glm::dvec3 hi, int x, int y, int width, int height);
  // Mouse gestures, in pixels.
  void orbit(double dx, double dy);
  void pan(double dx, double dy);
  // Zooms by wheel notches toward the point under the pixel (orthographic) or the target (perspective).
  void zoom(double notches, glm::dvec2 pixel);
  // The same, by a factor of the view's size (< 1 zooms in): a pinch, whose fingers give the factor.
  void scale_view(double factor, glm::dvec2 pixel);

 private:
  int x_ = 0, y_ = 0, width_ = 1, height_ = 1;
};

}  // namespace lagrange::app
