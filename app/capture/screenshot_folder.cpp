#include "capture/screenshot_folder.h"

#include <cstdlib>
#include <fstream>
#include <string>

namespace lagrange::app {
namespace {

std::string env(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

// user-dirs.dirs holds shell assignments such as XDG_PICTURES_DIR="$HOME/Bilder" (xdg-user-dirs(1)).
std::string from_user_dirs(const std::string& home, const std::string& name) {
  std::string config = env("XDG_CONFIG_HOME");
  if (config.empty()) {
    if (home.empty()) return {};
    config = home + "/.config";
  }
  std::ifstream file(config + "/user-dirs.dirs");
  std::string line;
  const std::string key = name + "=";
  while (std::getline(file, line)) {
    if (line.rfind(key, 0) != 0) continue;
    std::string value = line.substr(key.size());
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"') value = value.substr(1, value.size() - 2);
    if (value.rfind("$HOME", 0) == 0) value = home + value.substr(5);
    if (value.empty() || value.front() != '/' || value == home || value == home + "/") return {};  // "$HOME/": unset
    return value;
  }
  return {};
}

// An XDG user folder ("XDG_PICTURES_DIR", falling back to $HOME/`fallback`), with "Lagrange Lab" inside it.
std::filesystem::path user_folder(const char* name, const char* fallback, const char* without_home) {
  const std::string home = env("HOME");
  std::string folder = env(name);
  if (folder.empty()) folder = from_user_dirs(home, name);
  if (folder.empty() && !home.empty()) folder = home + "/" + fallback;
  if (folder.empty()) return std::filesystem::absolute(without_home);
  return std::filesystem::path(folder) / "Lagrange Lab";
}

}  // namespace

std::filesystem::path default_screenshot_dir() { return user_folder("XDG_PICTURES_DIR", "Pictures", "screenshots"); }

std::filesystem::path default_scene_dir() { return user_folder("XDG_DOCUMENTS_DIR", "Documents", "scenes"); }

std::string make_parent_folder(const std::filesystem::path& file) {
  std::error_code error;
  if (!file.has_parent_path() || std::filesystem::is_directory(file.parent_path(), error)) return {};
  std::filesystem::create_directories(file.parent_path(), error);
  if (error) return "cannot create folder " + file.parent_path().string() + ": " + error.message();
  return {};
}

}  // namespace lagrange::app
