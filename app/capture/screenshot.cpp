#include "capture/screenshot.h"
#include "capture/screenshot_folder.h"

#include <stb_image_write.h>

#include "capture/output_file.h"

#include <algorithm>
#include <cctype>
#include <ctime>
#include <system_error>

namespace lagrange::app {

bool encode_png(const Image& image, std::string& png) {
  // Encoded in memory through stb's callback (which cannot report a failed write); the caller writes the bytes with
  // an io::OutputFile, which checks every write, fsyncs and renames: a full disk leaves the previous file as it was.
  struct Encoded {
    std::string bytes;
    bool failed = false;
  } out;
  const auto append = [](void* context, void* data, int size) {
    auto& encoded = *static_cast<Encoded*>(context);
    try {  // nothing may be thrown through stb's C code
      encoded.bytes.append(static_cast<const char*>(data), static_cast<std::size_t>(size));
    } catch (...) {
      encoded.failed = true;
    }
  };
  if (!stbi_write_png_to_func(append, &out, image.width, image.height, 4, image.rgba.data(), image.width * 4) ||
      out.failed)
    return false;
  png = std::move(out.bytes);
  return true;
}

std::string write_png(const Image& image, const std::filesystem::path& file) {
  if (std::string error = make_parent_folder(file); !error.empty()) return error;
  std::string png;
  if (!encode_png(image, png)) return file.string() + ": cannot encode the PNG (out of memory)";
  return io::write_file(file.string(), png);
}

std::filesystem::path timestamped_path(const std::filesystem::path& folder, const std::string& scene_name,
                                       const std::string& extension) {
  std::string slug;
  for (char c : scene_name) {
    if (std::isalnum(static_cast<unsigned char>(c)))
      slug += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    else if (!slug.empty() && slug.back() != '-')
      slug += '-';
  }
  while (!slug.empty() && slug.back() == '-') slug.pop_back();
  if (slug.empty()) slug = "scene";
  const std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &local);
  const std::string base = "lagrange-" + slug + "-" + stamp;
  std::filesystem::path path = folder / (base + extension);
  // Taken when anything has the name, a link too, even one that leads nowhere (exists() follows links, and the
  // writer refuses a link: F12 failed at a dangling link instead of choosing another name).
  const auto taken = [](const std::filesystem::path& p) {
    std::error_code error;
    const auto type = std::filesystem::symlink_status(p, error).type();
    return type != std::filesystem::file_type::not_found && type != std::filesystem::file_type::none;  // none:
    // cannot tell (no permission): the writer then says why
  };
  for (int n = 2; taken(path); ++n) path = folder / (base + "-" + std::to_string(n) + extension);
  return path;
}

}  // namespace lagrange::app
