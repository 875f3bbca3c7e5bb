#include "window/gl_util.h"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "window/shader_sources.h"

namespace lagrange::app {
namespace {

GLuint compile(GLenum kind, std::string_view name) {
  const std::string_view text = shader_source(name);
  if (text.empty()) throw std::runtime_error("missing embedded shader " + std::string(name));
  const GLuint shader = glCreateShader(kind);
  const char* source = text.data();
  const GLint length = static_cast<GLint>(text.size());
  glShaderSource(shader, 1, &source, &length);
  glCompileShader(shader);
  GLint ok = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    char log[2048];
    glGetShaderInfoLog(shader, sizeof log, nullptr, log);
    glDeleteShader(shader);
    throw std::runtime_error("shader " + std::string(name) + ": " + log);
  }
  return shader;
}

}  // namespace

GLuint make_program(std::string_view vertex, std::string_view fragment) {
  const GLuint vs = compile(GL_VERTEX_SHADER, vertex);
  const GLuint fs = compile(GL_FRAGMENT_SHADER, fragment);
  const GLuint program = glCreateProgram();
  glAttachShader(program, vs);
  glAttachShader(program, fs);
  glLinkProgram(program);
  glDeleteShader(vs);
  glDeleteShader(fs);
  GLint ok = 0;
  glGetProgramiv(program, GL_LINK_STATUS, &ok);
  if (!ok) {
    char log[2048];
    glGetProgramInfoLog(program, sizeof log, nullptr, log);
    glDeleteProgram(program);
    throw std::runtime_error("program " + std::string(vertex) + "+" + std::string(fragment) + ": " + log);
  }
  return program;
}

SceneTarget::~SceneTarget() { release(); }

void SceneTarget::release() {
  if (fbo_) glDeleteFramebuffers(1, &fbo_);
  if (colour_) glDeleteRenderbuffers(1, &colour_);
  if (depth_) glDeleteRenderbuffers(1, &depth_);
  if (resolved_fbo_) glDeleteFramebuffers(1, &resolved_fbo_);
  if (resolved_colour_) glDeleteRenderbuffers(1, &resolved_colour_);
  fbo_ = colour_ = depth_ = resolved_fbo_ = resolved_colour_ = 0;
}

int SceneTarget::resize(int width, int height, int samples) {
  if (fbo_ && width == width_ && height == height_ && samples == requested_) return samples_;
  release();
  width_ = width;
  height_ = height;
  requested_ = samples;
  GLint max_samples = 0;
  glGetIntegerv(GL_MAX_SAMPLES, &max_samples);
  samples_ = samples > max_samples ? max_samples : samples;
  for (;;) {
    glGenFramebuffers(1, &fbo_);
    glGenRenderbuffers(1, &colour_);
    glGenRenderbuffers(1, &depth_);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
    glBindRenderbuffer(GL_RENDERBUFFER, colour_);
    glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples_, GL_RGBA8, width, height);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, colour_);
    glBindRenderbuffer(GL_RENDERBUFFER, depth_);
    glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples_, GL_DEPTH_COMPONENT24, width, height);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, depth_);
    bool complete = glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
    if (complete && samples_ > 0 && kResolveNeedsSameBounds) {
      glGenFramebuffers(1, &resolved_fbo_);
      glGenRenderbuffers(1, &resolved_colour_);
      glBindFramebuffer(GL_FRAMEBUFFER, resolved_fbo_);
      glBindRenderbuffer(GL_RENDERBUFFER, resolved_colour_);
      glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
      glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, resolved_colour_);
      complete = glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
    }
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    if (complete) break;
    release();
    if (samples_ == 0) throw std::runtime_error("cannot create the scene framebuffer");
    samples_ = 0;
  }
  return samples_;
}

void SceneTarget::bind() const {
  glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
  glViewport(0, 0, width_, height_);
}

void SceneTarget::resolve_to(GLuint target, int x, int y) const {
  glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo_);
  if (resolved_fbo_) {  // resolve at the same bounds first (WebGL2), then copy at the offset
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, resolved_fbo_);
    glBlitFramebuffer(0, 0, width_, height_, 0, 0, width_, height_, GL_COLOR_BUFFER_BIT, GL_NEAREST);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, resolved_fbo_);
  }
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, target);
  glBlitFramebuffer(0, 0, width_, height_, x, y, x + width_, y + height_, GL_COLOR_BUFFER_BIT, GL_NEAREST);
  glBindFramebuffer(GL_FRAMEBUFFER, target);
}

Image read_framebuffer(int width, int height) {
  Image image;
  image.width = width;
  image.height = height;
  image.rgba.resize(static_cast<std::size_t>(width) * height * 4);
  std::vector<std::uint8_t> bottom_up(image.rgba.size());
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, bottom_up.data());
  const std::size_t row = static_cast<std::size_t>(width) * 4;
  for (int y = 0; y < height; ++y)
    std::copy_n(bottom_up.data() + (height - 1 - y) * row, row, image.rgba.data() + y * row);
  for (std::size_t i = 3; i < image.rgba.size(); i += 4) image.rgba[i] = 255;  // the window is opaque
  return image;
}

}  // namespace lagrange::app
