// The OpenGL API the sandbox draws with, web build: OpenGL ES 3.0 (WebGL2 in the browser), no loader. The few
// desktop calls the sandbox uses that ES spells differently are mapped here (app/window/desktop/sandbox_gl.h is the
// desktop side of this seam).
#pragma once

#include <GLES3/gl3.h>

inline void glClearDepth(double depth) { glClearDepthf(static_cast<float>(depth)); }

// WebGL2 resolves a multisampled framebuffer only into one of the same size and bounds: the scene's multisamples are
// resolved into a single-sampled buffer first, then copied to the canvas at the lane's offset (gl_util.cpp).
inline constexpr bool kResolveNeedsSameBounds = true;
