#include "window/renderer.h"

#include <glm/gtc/type_ptr.hpp>

#include <cstddef>

namespace lagrange::app {
namespace {

void set_matrix(GLuint program, const char* name, const glm::dmat4& m) {
  const glm::mat4 f(m);
  glUniformMatrix4fv(glGetUniformLocation(program, name), 1, GL_FALSE, glm::value_ptr(f));
}

void instance_attribute(GLuint index, int components, std::size_t stride, std::size_t offset) {
  glEnableVertexAttribArray(index);
  glVertexAttribPointer(index, components, GL_FLOAT, GL_FALSE, static_cast<GLsizei>(stride),
                        reinterpret_cast<const void*>(offset));
  glVertexAttribDivisor(index, 1);
}

}  // namespace

Renderer::Renderer() {
  sphere_program_ = make_program("sphere.vert", "sphere.frag");
  segment_program_ = make_program("segment.vert", "segment.frag");

  const float quad[] = {-1, -1, 1, -1, -1, 1, 1, 1};
  const float segment_quad[] = {0, -1, 1, -1, 0, 1, 1, 1};

  glGenVertexArrays(1, &sphere_vao_);
  glBindVertexArray(sphere_vao_);
  glGenBuffers(1, &quad_vbo_);
  glBindBuffer(GL_ARRAY_BUFFER, quad_vbo_);
  glBufferData(GL_ARRAY_BUFFER, sizeof quad, quad, GL_STATIC_DRAW);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
  glGenBuffers(1, &sphere_vbo_);
  glBindBuffer(GL_ARRAY_BUFFER, sphere_vbo_);
  instance_attribute(1, 4, sizeof(SphereInstance), offsetof(SphereInstance, centre));
  instance_attribute(2, 4, sizeof(SphereInstance), offsetof(SphereInstance, colour));
  instance_attribute(3, 4, sizeof(SphereInstance), offsetof(SphereInstance, style));

  glGenVertexArrays(1, &segment_vao_);
  glBindVertexArray(segment_vao_);
  glGenBuffers(1, &segment_quad_vbo_);
  glBindBuffer(GL_ARRAY_BUFFER, segment_quad_vbo_);
  glBufferData(GL_ARRAY_BUFFER, sizeof segment_quad, segment_quad, GL_STATIC_DRAW);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
  glGenBuffers(1, &segment_vbo_);
  glBindBuffer(GL_ARRAY_BUFFER, segment_vbo_);
  instance_attribute(1, 4, sizeof(SegmentInstance), offsetof(SegmentInstance, a));
  instance_attribute(2, 4, sizeof(SegmentInstance), offsetof(SegmentInstance, b));
  instance_attribute(3, 4, sizeof(SegmentInstance), offsetof(SegmentInstance, colour));

  glBindVertexArray(0);
}

Renderer::~Renderer() {
  const GLuint buffers[] = {quad_vbo_, segment_quad_vbo_, sphere_vbo_, segment_vbo_};
  glDeleteBuffers(4, buffers);
  const GLuint arrays[] = {sphere_vao_, segment_vao_};
  glDeleteVertexArrays(2, arrays);
  glDeleteProgram(sphere_program_);
  glDeleteProgram(segment_program_);
}

void Renderer::draw_segments(const std::vector<SegmentInstance>& segments, const Camera& camera) {
  if (segments.empty()) return;
  glUseProgram(segment_program_);
  set_matrix(segment_program_, "view", camera.view());
  set_matrix(segment_program_, "projection", camera.projection());
  glUniform2f(glGetUniformLocation(segment_program_, "viewport"), static_cast<float>(camera.width()),
              static_cast<float>(camera.height()));
  glBindVertexArray(segment_vao_);
  glBindBuffer(GL_ARRAY_BUFFER, segment_vbo_);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(segments.size() * sizeof(SegmentInstance)), segments.data(),
               GL_STREAM_DRAW);
  glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, static_cast<GLsizei>(segments.size()));
}

void Renderer::draw(const DrawList& list, const Camera& camera, int samples, int window_width, int window_height,
                    bool clear_window) {
  // The whole window gets the background (the panels draw over their part of it); the scene only its viewport.
  // GL counts rows from the bottom.
  const int vx = camera.x(), vy = window_height - camera.y() - camera.height();
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDisable(GL_SCISSOR_TEST);
  glDisable(GL_CULL_FACE);
  glViewport(0, 0, window_width, window_height);
  glClearDepth(1.0);
  // A flat clear: a software rasterizer clears far faster than it fills a full-screen gradient.
  glClearColor(list.background.r, list.background.g, list.background.b, 1.0f);
  if (!clear_window) {  // only this view's rectangle: the views beside it are drawn already
    glEnable(GL_SCISSOR_TEST);
    glScissor(vx, vy, camera.width(), camera.height());
  }
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  glDisable(GL_SCISSOR_TEST);
  // Multisampled: into the offscreen target, resolved below. Otherwise straight into the window (one full-screen
  // copy less, which a software rasterizer notices).
  const bool offscreen = samples > 0;
  if (offscreen) {
    target_.resize(camera.width(), camera.height(), samples);
    target_.bind();
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  } else {
    glViewport(vx, vy, camera.width(), camera.height());
    // Nothing drawn for the scene spills outside its viewport (wide lines, sphere impostors at the edge).
    glEnable(GL_SCISSOR_TEST);
    glScissor(vx, vy, camera.width(), camera.height());
  }

  glEnable(GL_BLEND);
  glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_LEQUAL);
  glDepthMask(GL_FALSE);
  draw_segments(list.under, camera);
  glDepthMask(GL_TRUE);
  draw_segments(list.segments, camera);

  if (!list.spheres.empty()) {
    glUseProgram(sphere_program_);
    set_matrix(sphere_program_, "view", camera.view());
    set_matrix(sphere_program_, "projection", camera.projection());
    glUniform1i(glGetUniformLocation(sphere_program_, "perspective"), camera.perspective ? 1 : 0);
    glBindVertexArray(sphere_vao_);
    glBindBuffer(GL_ARRAY_BUFFER, sphere_vbo_);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(list.spheres.size() * sizeof(SphereInstance)),
                 list.spheres.data(), GL_STREAM_DRAW);
    glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, static_cast<GLsizei>(list.spheres.size()));
  }

  glDisable(GL_DEPTH_TEST);
  draw_segments(list.over, camera);
  glDisable(GL_BLEND);
  glBindVertexArray(0);
  glUseProgram(0);

  glDisable(GL_SCISSOR_TEST);
  if (offscreen) target_.resolve_to(0, vx, vy);
  glViewport(0, 0, window_width, window_height);
}

}  // namespace lagrange::app
