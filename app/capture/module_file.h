// The program's own modules: shared objects built beside the program and loaded with dlopen only by the commands
// that need them, so that their libraries do not load with every command. FFmpeg's module (lagrange-video.so, ~140
// libraries: capture/encoder_ffmpeg_module.cpp) and the window's (lagrange-window.so: SDL2 and its ~50 libraries,
// OpenGL, Dear ImGui; app/window_module.h). `run` of a 10-link chain took 17 ms to start, nearly all of it loading
// SDL2's libraries, for a second of stepping that takes a millisecond.
#pragma once

#include <string>

namespace lagrange::io {

// "" when `path` looks like a whole shared object of this machine, else why not. dlopen maps a file and trusts its
// headers: a truncated module (a copy cut short, a full disk) made it read past the end of the mapping and die of
// SIGBUS. So the ELF header, the program headers and every loaded segment must lie within the file.
std::string check_module(const std::string& path);

// Loads the module `file_name` — beside the program first (the program and its modules are built into one folder),
// then at `built_at` (where the build put it: the test programs live elsewhere in the build tree) — and returns its
// symbol `symbol`, or nullptr with `error` saying why (not found, damaged, not loadable, no such symbol). The module
// stays loaded for the process's life.
void* load_module_symbol(const std::string& file_name, const std::string& built_at, const char* symbol,
                         std::string& error);

}  // namespace lagrange::io
