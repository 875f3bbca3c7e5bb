// The OpenGL API the sandbox draws with, desktop build: OpenGL 3.3 core through the glad loader generated at build
// time. The web build puts app/web/sandbox_gl.h (OpenGL ES 3.0 = WebGL2) first on the include path instead; CMake
// chooses, the sources include "sandbox_gl.h" and never name a loader.
#pragma once

#include <glad/gl.h>

// Desktop OpenGL resolves multisamples straight into the window at any offset (gl_util.cpp; the web differs).
inline constexpr bool kResolveNeedsSameBounds = false;
