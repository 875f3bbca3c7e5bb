#include "sandbox/screenshot_folder.h"

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
std::string pictures_from_user_dirs(const std::string& home) {
  std::string config = env("XDG_CONFIG_HOME");
  if (config.empty()) {
    if (home.empty()) return {};
    config = home + "/.config";
  }
  std::ifstream file(config + "/user-dirs.dirs");
  std::string line;
  const std::string key = "XDG_PICTURES_DIR=";
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

}  // namespace

std::filesystem::path default_screenshot_dir() {
  const std::string home = env("HOME");
  std::string pictures = env("XDG_PICTURES_DIR");
  if (pictures.empty()) pictures = pictures_from_user_dirs(home);
  if (pictures.empty() && !home.empty()) pictures = home + "/Pictures";
  if (pictures.empty()) return std::filesystem::absolute("screenshots");
  return std::filesystem::path(pictures) / "Lagrange Lab";
}

}  // namespace lagrange::app
