#version 330 core
// Thick line segments (rods, grid, arrows, trails): one quad per segment, widened in screen space so a width is in
// pixels at any zoom. Segments crossing the near plane are clipped here, before the perspective divide.
layout(location = 0) in vec2 corner;    // x: 0 at a, 1 at b; y: -1 or 1 across
layout(location = 1) in vec4 a_width;   // endpoint a, width in pixels
layout(location = 2) in vec4 b_depth;   // endpoint b, depth bias (view units toward the camera)
layout(location = 3) in vec4 colour;

uniform mat4 view;
uniform mat4 projection;
uniform vec2 viewport;  // pixels

out vec4 v_colour;
out float v_across;     // pixels from the centre line
flat out float v_half_width;

void main() {
  vec4 va = view * vec4(a_width.xyz, 1.0);
  vec4 vb = view * vec4(b_depth.xyz, 1.0);
  va.z += b_depth.w;
  vb.z += b_depth.w;
  vec4 ca = projection * va;
  vec4 cb = projection * vb;
  const float near_w = 1e-3;
  if (ca.w < near_w) ca = mix(ca, cb, (near_w - ca.w) / (cb.w - ca.w));
  if (cb.w < near_w) cb = mix(cb, ca, (near_w - cb.w) / (ca.w - cb.w));
  vec2 sa = ca.xy / ca.w * 0.5 * viewport;
  vec2 sb = cb.xy / cb.w * 0.5 * viewport;
  vec2 d = sb - sa;
  float len = length(d);
  vec2 dir = len > 1e-6 ? d / len : vec2(1.0, 0.0);
  vec2 normal = vec2(-dir.y, dir.x);
  float half_width = 0.5 * a_width.w;
  float extent = half_width + 1.0;  // one pixel more for the antialiased edge
  vec4 c = corner.x < 0.5 ? ca : cb;
  vec2 offset = normal * corner.y * extent + dir * (corner.x < 0.5 ? -half_width : half_width);
  gl_Position = c + vec4(offset / (0.5 * viewport) * c.w, 0.0, 0.0);
  v_colour = colour;
  v_across = corner.y * extent;
  v_half_width = half_width;
}
