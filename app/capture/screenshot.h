// An image of the window (read back by window/gl_util.h: read_framebuffer) and writing it as a PNG safely through
// io::OutputFile (capture/output_file.h): a unique temporary file in the same folder, every write checked, fsync,
// then a rename, so a PNG is complete or absent and a failed write keeps the previous file. No GL here.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace lagrange::app {

struct Image {
  int width = 0, height = 0;
  std::vector<std::uint8_t> rgba;  // rows top to bottom

  struct Pixel {
    std::uint8_t r, g, b, a;
  };
  Pixel at(int x, int y) const {
    const std::size_t i = (static_cast<std::size_t>(y) * width + x) * 4;
    return {rgba[i], rgba[i + 1], rgba[i + 2], rgba[i + 3]};
  }
};

// `image` as PNG bytes; false when out of memory.
bool encode_png(const Image& image, std::string& png);

// Writes `image` to `file` atomically, creating its folder if missing (the window's screenshot folder). Returns an empty string on success, else "FILE: REASON".
std::string write_png(const Image& image, const std::filesystem::path& file);

// folder/lagrange-<scene>-YYYYmmdd-HHMMSS[-n].png, not yet existing.
std::filesystem::path timestamped_path(const std::filesystem::path& folder, const std::string& scene_name,
                                       const std::string& extension = ".png");

}  // namespace lagrange::app
