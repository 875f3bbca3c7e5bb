#version 330 core
in vec4 v_colour;
in float v_across;
flat in float v_half_width;
out vec4 frag_colour;

void main() {
  float coverage = clamp(v_half_width + 0.5 - abs(v_across), 0.0, 1.0);
  if (coverage <= 0.0) discard;
  frag_colour = vec4(v_colour.rgb, v_colour.a * coverage);
}
