#version 330 core
in vec2 v_uv;
uniform vec3 top;
uniform vec3 bottom;
out vec4 frag_colour;
void main() { frag_colour = vec4(mix(bottom, top, v_uv.y), 1.0); }
