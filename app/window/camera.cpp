#include "window/camera.h"

#include <glm/gtc/matrix_transform.hpp>

#include <algorithm>
#include <cmath>

namespace lagrange::app {
namespace {
constexpr double kNear = 0.02;
constexpr double kOrthoDepth = 1000.0;
}  // namespace

void Camera::set_viewport(int x, int y, int width, int height) {
  x_ = x;
  y_ = y;
  width_ = std::max(width, 1);
  height_ = std::max(height, 1);
}

glm::dvec2 Camera::clamp_to_viewport(glm::dvec2 pixel, double margin) const {
  const double mx = std::min(margin, 0.5 * width_), my = std::min(margin, 0.5 * height_);
  return {std::clamp(pixel.x, x_ + mx, x_ + width_ - mx), std::clamp(pixel.y, y_ + my, y_ + height_ - my)};
}

bool Camera::in_viewport(glm::dvec2 pixel) const {
  return pixel.x >= x_ && pixel.x < x_ + width_ && pixel.y >= y_ && pixel.y < y_ + height_;
}

glm::dvec3 Camera::forward() const {
  if (!perspective) return {0.0, 0.0, -1.0};
  return -glm::dvec3(std::cos(pitch) * std::sin(yaw), std::sin(pitch), std::cos(pitch) * std::cos(yaw));
}

glm::dvec3 Camera::eye() const {
  if (!perspective) return {centre.x, centre.y, kOrthoDepth * 0.5};
  return target - distance * forward();
}

glm::dmat4 Camera::view() const {
  if (!perspective) return glm::lookAt(eye(), glm::dvec3(centre, 0.0), glm::dvec3(0.0, 1.0, 0.0));
  return glm::lookAt(eye(), target, glm::dvec3(0.0, 1.0, 0.0));
}

glm::dmat4 Camera::projection() const {
  const double aspect = static_cast<double>(width_) / height_;
  if (!perspective) {
    const double hw = half_height * aspect;
    return glm::ortho(-hw, hw, -half_height, half_height, 0.0, kOrthoDepth);
  }
  const double far_plane = std::max(100.0, distance * 20.0);
  return glm::perspective(fov_y, aspect, kNear * std::max(distance, 1.0), far_plane);
}

Ray Camera::ray(glm::dvec2 pixel) const {
  const double ndc_x = 2.0 * (pixel.x - x_) / width_ - 1.0;
  const double ndc_y = 1.0 - 2.0 * (pixel.y - y_) / height_;
  const glm::dmat4 inverse = glm::inverse(projection() * view());
  glm::dvec4 near_point = inverse * glm::dvec4(ndc_x, ndc_y, -1.0, 1.0);
  glm::dvec4 far_point = inverse * glm::dvec4(ndc_x, ndc_y, 1.0, 1.0);
  near_point /= near_point.w;
  far_point /= far_point.w;
  return {glm::dvec3(near_point), glm::normalize(glm::dvec3(far_point - near_point))};
}

std::optional<glm::dvec3> Camera::project(glm::dvec3 world) const {
  const glm::dvec4 clip = projection() * view() * glm::dvec4(world, 1.0);
  if (clip.w <= 1e-9) return std::nullopt;
  const glm::dvec3 ndc = glm::dvec3(clip) / clip.w;
  const double depth = glm::dot(world - eye(), forward());
  return glm::dvec3(x_ + (ndc.x * 0.5 + 0.5) * width_, y_ + (0.5 - ndc.y * 0.5) * height_, depth);
}

double Camera::pixels_per_unit(glm::dvec3 world) const {
  if (!perspective) return height_ / (2.0 * half_height);
  const double depth = std::max(glm::dot(world - eye(), forward()), 1e-6);
  return height_ / (2.0 * depth * std::tan(fov_y * 0.5));
}

void Camera::frame(glm::dvec3 lo, glm::dvec3 hi) {
  const glm::dvec3 middle = 0.5 * (lo + hi);
  const glm::dvec3 size = glm::max(hi - lo, glm::dvec3(1e-3));
  const double aspect = static_cast<double>(width_) / height_;
  if (!perspective) {
    centre = glm::dvec2(middle);
    half_height = std::max(0.5 * size.y, 0.5 * size.x / aspect) * 1.08 + 0.02;
    return;
  }
  // Fit the box's corners as seen along the current view direction: near corners need the most room.
  target = middle;
  const glm::dvec3 f = forward();
  const glm::dvec3 right = glm::normalize(glm::cross(f, glm::dvec3(0.0, 1.0, 0.0)));
  const glm::dvec3 up = glm::cross(right, f);
  const double tan_y = std::tan(fov_y * 0.5), tan_x = tan_y * aspect;
  double needed = 0.0;
  for (int corner = 0; corner < 8; ++corner) {
    const glm::dvec3 p((corner & 1) ? hi.x : lo.x, (corner & 2) ? hi.y : lo.y, (corner & 4) ? hi.z : lo.z);
    const glm::dvec3 d = p - middle;
    const double toward = -glm::dot(d, f);  // how much nearer the eye this corner is than the target
    needed = std::max(needed, std::abs(glm::dot(d, up)) / tan_y + toward);
    needed = std::max(needed, std::abs(glm::dot(d, right)) / tan_x + toward);
  }
  distance = std::max(needed * 1.05, 0.5);
}

void Camera::frame_into(glm::dvec3 lo, glm::dvec3 hi, int x, int y, int width, int height) {
  const int vx = x_, vy = y_, vw = width_, vh = height_;
  width = std::clamp(width, 1, vw);
  height = std::clamp(height, 1, vh);
  set_viewport(x, y, width, height);
  frame(lo, hi);
  // Back to the whole viewport at the same pixels per unit (the view's size grows with the viewport's height), then
  // moved so that the box's middle sits at the rectangle's.
  const double grow = static_cast<double>(vh) / height;
  if (perspective) distance *= grow;
  else half_height *= grow;
  set_viewport(vx, vy, vw, vh);
  pan(x + 0.5 * width - (vx + 0.5 * vw), y + 0.5 * height - (vy + 0.5 * vh));
}

void Camera::orbit(double dx, double dy) {
  if (!perspective) return;
  yaw -= dx * 0.008;
  pitch = std::clamp(pitch + dy * 0.008, -1.5, 1.5);
}

void Camera::pan(double dx, double dy) {
  if (!perspective) {
    const double units = 2.0 * half_height / height_;
    centre += glm::dvec2(-dx * units, dy * units);
    return;
  }
  const glm::dvec3 f = forward();
  const glm::dvec3 right = glm::normalize(glm::cross(f, glm::dvec3(0.0, 1.0, 0.0)));
  const glm::dvec3 up = glm::cross(right, f);
  const double units = 1.0 / pixels_per_unit(target);
  target += (-dx * right + dy * up) * units;
}

void Camera::zoom(double notches, glm::dvec2 pixel) { scale_view(std::pow(0.88, notches), pixel); }

void Camera::scale_view(double factor, glm::dvec2 pixel) {
  if (!perspective) {
    // Keep the world point under the cursor fixed.
    const glm::dvec2 before = glm::dvec2(ray(pixel).origin);
    half_height = std::clamp(half_height * factor, 1e-3, 1e5);
    const glm::dvec2 after = glm::dvec2(ray(pixel).origin);
    centre += before - after;
    return;
  }
  distance = std::clamp(distance * factor, 0.05, 1e5);
}

}  // namespace lagrange::app
