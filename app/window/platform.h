// The window adapter: everything the sandbox needs from SDL2 and the GL context, and nothing else. The rest of the
// sandbox sees pixel sizes and SDL events only. Two implementations, chosen by CMake: platform.cpp (desktop: OpenGL
// 3.3 core, glad) and app/web/platform_web.cpp (the browser: WebGL2, i.e. OpenGL ES 3.0).
#pragma once

#include <SDL.h>

#include <filesystem>
#include <string>

namespace lagrange::app {

struct WindowOptions {
  std::string title = "Lagrange Lab";
  int width = 1280, height = 720;  // window size in screen units (points)
  bool hidden = false;             // no visible window: tests and `shot`
  bool vsync = true;
};

class Platform {
 public:
  // Initialises SDL video, opens the window with an OpenGL 3.3 core context and loads GL with glad.
  // Throws std::runtime_error naming what failed.
  explicit Platform(const WindowOptions& options);
  ~Platform();
  Platform(const Platform&) = delete;
  Platform& operator=(const Platform&) = delete;

  SDL_Window* window() const { return window_; }
  SDL_GLContext context() const { return context_; }
  // Size of the GL drawable in pixels (differs from the window size on HiDPI screens).
  void drawable_size(int& width, int& height) const;
  void window_size(int& width, int& height) const;
  // Pixels per window unit, to turn SDL mouse coordinates into drawable pixels.
  double pixel_ratio() const;
  // Content scale for fonts and widgets: the HiDPI factor the drawable size does not already carry.
  float ui_scale() const;
  void set_size(int width, int height);
  void swap() const;
  std::string renderer_name() const;
  // The #version line of the GLSL dialect the context takes ("#version 330 core"; "#version 300 es" on the web), for
  // ImGui's OpenGL backend. The sandbox's own shaders are rewritten to it at build time (embed_shaders.cmake).
  const char* glsl_version() const;

  // --- Files: how what the sandbox writes reaches the user, and how a scene file comes in (docs/web.md, "Files").
  // True when every file the sandbox writes is handed to the user as a download (the page: it has no folders the user
  // can see); false on the desktop, where a file stays in the folder it was written to. The UI hides or rewords what
  // names a folder when it is true (SandboxState::downloads).
  bool files_download() const;
  // Hands over a file the sandbox has just written completely (always through io::write_file or io::OutputFile, as on
  // the desktop). Desktop: nothing to do, the file stays where it is; returns "". Web: the browser downloads it under
  // its own name (file.filename()), then it is removed from the page's in-memory file system; returns "" or why it
  // failed. Every output goes through Sandbox::deliver_file, which calls this: the screenshot, Save, Edit mode's Save
  // and Save as, Export CSV (and the window's recording).
  std::string deliver_file(const std::filesystem::path& file);
  // Asks the user for a scene file from their own disk. Web: the page's file picker (index.html); the chosen file is
  // copied into the in-memory file system and arrives as an SDL_DROPFILE event, exactly like a file dropped on the
  // window. Returns false where there is no picker (desktop: the scene list, the path field and dropping a file).
  bool pick_scene_file();
  // Whether pick_scene_file has a picker to show (the UI's "Open file..." button): false on the desktop.
  bool has_scene_picker() const;

 private:
  SDL_Window* window_ = nullptr;
  SDL_GLContext context_ = nullptr;
};

}  // namespace lagrange::app
