// The window adapter in the browser (app/window/platform.h): SDL2's Emscripten video driver draws into the page's
// <canvas id="canvas"> with a WebGL2 context (OpenGL ES 3.0). No loader: the GL functions are Emscripten's.
#include <emscripten.h>

#include <algorithm>
#include <stdexcept>
#include <system_error>

#include "window/platform.h"
#include "sandbox_gl.h"

namespace lagrange::app {

Platform::Platform(const WindowOptions& options) {
  SDL_SetHint(SDL_HINT_VIDEO_HIGHDPI_DISABLED, "0");
  if (SDL_Init(SDL_INIT_VIDEO | SDL_INIT_TIMER | SDL_INIT_EVENTS) != 0)
    throw std::runtime_error(std::string("SDL_Init failed: ") + SDL_GetError());
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_ES);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 0);
  SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
  SDL_GL_SetAttribute(SDL_GL_DEPTH_SIZE, 24);
  SDL_GL_SetAttribute(SDL_GL_STENCIL_SIZE, 8);

  // The page fills the browser window; SDL follows its resizes (a resizable window tracks the browser's size).
  const int width = std::max(emscripten_run_script_int("window.innerWidth|0"), 1);
  const int height = std::max(emscripten_run_script_int("window.innerHeight|0"), 1);
  Uint32 flags = SDL_WINDOW_OPENGL | SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI | SDL_WINDOW_SHOWN;
  window_ = SDL_CreateWindow(options.title.c_str(), SDL_WINDOWPOS_UNDEFINED, SDL_WINDOWPOS_UNDEFINED,
                             width > 1 ? width : options.width, height > 1 ? height : options.height, flags);
  if (!window_) {
    const std::string message = std::string("cannot open the canvas: ") + SDL_GetError();
    SDL_Quit();
    throw std::runtime_error(message);
  }
  context_ = SDL_GL_CreateContext(window_);
  if (!context_) {
    const std::string message = std::string("cannot create a WebGL2 context: ") + SDL_GetError();
    SDL_DestroyWindow(window_);
    SDL_Quit();
    throw std::runtime_error(message);
  }
  SDL_GL_MakeCurrent(window_, context_);
  // The frame rate is the browser's (requestAnimationFrame, web_main.cpp): no swap interval to set.
}

// The browser's devicePixelRatio is already in the drawable size (SDL_WINDOW_ALLOW_HIGHDPI): ImGui handles it.
float Platform::ui_scale() const { return 1.0f; }

const char* Platform::glsl_version() const { return "#version 300 es"; }

// The browser masks GL_RENDERER ("WebKit WebGL"); WEBGL_debug_renderer_info gives the real one where the browser
// allows it (Chromium does: "ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device ...))"), which tells software rendering.
std::string Platform::renderer_name() const {
  const char* unmasked = emscripten_run_script_string(
      "(function(){try{var e=GLctx.getExtension('WEBGL_debug_renderer_info');"
      "return e?String(GLctx.getParameter(e.UNMASKED_RENDERER_WEBGL)):''}catch(x){return ''}})()");
  const auto* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  const auto* version = reinterpret_cast<const char*>(glGetString(GL_VERSION));
  std::string name = unmasked && *unmasked ? unmasked : (renderer ? renderer : "?");
  return name + ", " + (version ? version : "?");
}

}  // namespace lagrange::app

// --- Files (docs/web.md, "Files"): out as browser downloads, in through the page's file picker or a drop.

// The file's bytes, out of the in-memory file system, become a Blob that an <a download="NAME"> click hands to the
// browser (its download bar, or the folder it is set to save into). 1 when the browser took it.
EM_JS(int, lagrange_download, (const char* path_utf8, const char* name_utf8), {
  const path = UTF8ToString(path_utf8);
  const name = UTF8ToString(name_utf8);
  try {
    const bytes = FS.readFile(path);
    const types = {png: "image/png", json: "application/json", csv: "text/csv", gif: "image/gif",
                   mp4: "video/mp4", webm: "video/webm"};
    const type = types[name.split(".").pop().toLowerCase()] || "application/octet-stream";
    const url = URL.createObjectURL(new Blob([bytes], {type: type}));
    const link = document.createElement("a");
    link.href = url;
    link.download = name;
    link.style.display = "none";
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(function() { URL.revokeObjectURL(url); }, 60000);  // the browser has read it by then
    console.log("lagrange-lab: downloaded " + name + " (" + bytes.length + " bytes)");
    return 1;
  } catch (error) {
    console.error("lagrange-lab: cannot download " + path + ": " + error +
                  (error.errno !== undefined ? " (errno " + error.errno + ")" : ""));
    return 0;
  }
});

// index.html's hidden <input type="file" id="scene-file">: its change handler copies the chosen file into /uploads/
// and calls lagrange_open_file (web_main.cpp). Browsers open a picker only shortly after a user's click or key press,
// which the button's click is.
EM_JS(int, lagrange_show_file_picker, (), {
  const input = document.getElementById("scene-file");
  if (!input) return 0;
  input.value = "";  // the same file chosen again opens again
  input.click();
  return 1;
});

namespace lagrange::app {

bool Platform::files_download() const { return true; }

std::string Platform::deliver_file(const std::filesystem::path& file) {
  const int ok = lagrange_download(file.string().c_str(), file.filename().string().c_str());
  std::error_code ignored;
  std::filesystem::remove(file, ignored);  // downloaded or not, nothing stays behind in the page's memory
  return ok ? std::string() : "the browser refused the download (see the console)";
}

bool Platform::pick_scene_file() { return lagrange_show_file_picker() != 0; }

bool Platform::has_scene_picker() const { return true; }

}  // namespace lagrange::app
