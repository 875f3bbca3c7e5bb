// GLSL sources from shaders/, embedded at build time (app/window/embed_shaders.cmake).
#pragma once

#include <string_view>

namespace lagrange::app {

// The text of shaders/<name>, or an empty view for an unknown name.
std::string_view shader_source(std::string_view name);

}  // namespace lagrange::app
