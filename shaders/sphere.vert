#version 330 core
// Sphere impostor: one camera-facing quad per particle, instanced. The fragment shader ray-traces the sphere.
layout(location = 0) in vec2 corner;        // quad corner in [-1, 1]²
layout(location = 1) in vec4 centre_radius; // world centre, radius
layout(location = 2) in vec4 colour;
layout(location = 3) in vec4 style;         // x: fixed (striped), y: highlight amount, z: outline, w: unused

uniform mat4 view;
uniform mat4 projection;
uniform int perspective;

out vec3 v_plane;      // view-space point on the quad
flat out vec3 v_centre;
flat out float v_radius;
flat out vec4 v_colour;
flat out vec4 v_style;

void main() {
  vec3 c = (view * vec4(centre_radius.xyz, 1.0)).xyz;
  float r = centre_radius.w;
  // Under perspective the silhouette is wider than r in the plane through the centre: r d / sqrt(d² − r²).
  float grow = 1.05;
  if (perspective == 1) {
    float d = length(c);
    grow = d > r * 1.01 ? 1.05 * d / sqrt(d * d - r * r) : 8.0;
  }
  vec3 p = c + vec3(corner * r * grow, 0.0);
  if (perspective == 0) p.z = c.z + r;  // in front of the centre so nothing at the centre's depth hides it
  v_plane = p;
  v_centre = c;
  v_radius = r;
  v_colour = colour;
  v_style = style;
  gl_Position = projection * vec4(p, 1.0);
}
