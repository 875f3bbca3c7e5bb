#version 330 core
// Ray-traced sphere: exact silhouette and depth, Blinn-Phong shading. Fixed particles get stripes.
in vec3 v_plane;
flat in vec3 v_centre;
flat in float v_radius;
flat in vec4 v_colour;
flat in vec4 v_style;

uniform mat4 projection;
uniform int perspective;

out vec4 frag_colour;

void main() {
  vec3 origin = perspective == 1 ? vec3(0.0) : vec3(v_plane.xy, v_centre.z + 2.0 * v_radius + 1.0);
  vec3 dir = perspective == 1 ? normalize(v_plane) : vec3(0.0, 0.0, -1.0);
  vec3 oc = origin - v_centre;
  float b = dot(oc, dir);
  float c = dot(oc, oc) - v_radius * v_radius;
  float disc = b * b - c;
  // Antialiased silhouette without multisampling: coverage from the ray's distance to the centre, in pixels.
  float miss = sqrt(max(dot(oc, oc) - b * b, 0.0));
  float coverage = clamp((v_radius - miss) / max(fwidth(miss), 1e-6) + 0.5, 0.0, 1.0);
  if (coverage <= 0.0) discard;
  float t = disc > 0.0 ? -b - sqrt(disc) : -b;
  vec3 hit = origin + t * dir;
  vec3 n = normalize(hit - v_centre);

  vec3 base = v_colour.rgb;
  if (v_style.x > 0.5) {  // fixed: dark steel with diagonal stripes, reads as "anchored"
    float stripe = step(0.5, fract((n.x + n.y) * 3.0));
    base = mix(vec3(0.32, 0.34, 0.38), vec3(0.78, 0.80, 0.84), stripe);
  }
  vec3 light = normalize(vec3(-0.4, 0.7, 0.6));
  vec3 half_vec = normalize(light + vec3(0.0, 0.0, 1.0));
  float diffuse = max(dot(n, light), 0.0);
  float specular = pow(max(dot(n, half_vec), 0.0), 48.0);
  vec3 shaded = base * (0.30 + 0.75 * diffuse) + vec3(0.35) * specular;
  // Rim: white highlight for hover/grab, a dark outline otherwise so touching spheres stay distinct.
  float rim = 1.0 - abs(dot(n, -dir));
  float edge = smoothstep(0.55, 0.85, rim);
  shaded = mix(shaded, vec3(1.0, 0.95, 0.55), v_style.y * edge);
  shaded = mix(shaded, shaded * 0.55, v_style.z * (1.0 - v_style.y) * smoothstep(0.8, 0.98, rim));
  frag_colour = vec4(shaded, coverage * v_colour.a);

  vec4 clip = projection * vec4(hit, 1.0);
  gl_FragDepth = clamp(0.5 * clip.z / clip.w + 0.5, 0.0, 1.0);
}
