#include "ui/user_config.h"

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "capture/output_file.h"
#include "capture/screenshot_folder.h"
#include "lagrange/text.h"

namespace lagrange::app {
namespace {

using nlohmann::json;

// A settings file is a few dozen bytes; anything far larger is not one (and is not read into memory).
constexpr std::uintmax_t kMaxConfigBytes = 64 * 1024;

std::string shown(const std::filesystem::path& file) { return lagrange::printable(file.string(), 200); }

// The file's JSON object, or an error: "" with `object` set, else the reason. A missing file is not an error.
std::string read_object(const std::filesystem::path& file, json& object, bool& exists) {
  std::error_code error;
  exists = std::filesystem::exists(file, error);
  object = json::object();
  if (!exists) return {};
  // Only a regular file is opened: a FIFO or a device there would block or never end.
  if (!std::filesystem::is_regular_file(file, error)) return "not a regular file";
  const std::uintmax_t size = std::filesystem::file_size(file, error);
  if (error) return error.message();
  if (size > kMaxConfigBytes) return "larger than 64 KB, not a settings file";
  std::ifstream in(file, std::ios::binary);
  if (!in) return "cannot be read";
  std::stringstream text;
  text << in.rdbuf();
  json parsed = json::parse(text.str(), nullptr, false);
  if (parsed.is_discarded()) return "not valid JSON";
  if (!parsed.is_object()) return "not a JSON object";
  object = std::move(parsed);
  return {};
}

}  // namespace

std::filesystem::path config_dir() {
  const char* xdg = std::getenv("XDG_CONFIG_HOME");
  // The XDG base directory specification: a relative XDG_CONFIG_HOME is invalid and ignored.
  if (xdg && *xdg == '/') return std::filesystem::path(xdg) / "lagrange-lab";
  const char* home = std::getenv("HOME");
  if (home && *home) return std::filesystem::path(home) / ".config" / "lagrange-lab";
  return {};
}

std::filesystem::path settings_file() {
  const std::filesystem::path dir = config_dir();
  return dir.empty() ? dir : dir / "settings.json";
}

Appearance read_appearance(const std::filesystem::path& file, std::string& warning) {
  warning.clear();
  Appearance appearance;
  if (file.empty()) return appearance;
  json object;
  bool exists = false;
  std::string problem = read_object(file, object, exists);
  if (problem.empty() && object.contains("theme")) {
    const json& theme = object["theme"];
    const auto parsed = theme.is_string() ? parse_theme(theme.get<std::string>()) : std::nullopt;
    if (parsed) appearance.theme = *parsed;
    else problem = "\"theme\" must be \"dark\" or \"light\"";
  }
  if (object.contains("ui_scale")) {
    const json& scale = object["ui_scale"];
    if (scale.is_number() && scale.get<double>() >= kMinUiScale && scale.get<double>() <= kMaxUiScale)
      appearance.scale = scale.get<double>();
    else if (problem.empty())
      problem = "\"ui_scale\" must be a number from 1 to 3";
  }
  if (!problem.empty())
    warning = "ignoring " + shown(file) + ": " + problem + " (dark theme and scale 1 used where it is wrong)";
  return appearance;
}

std::string write_appearance(const std::filesystem::path& file, const Appearance& appearance) {
  if (file.empty()) return "no configuration folder (neither XDG_CONFIG_HOME nor HOME is set)";
  json object;
  bool exists = false;
  read_object(file, object, exists);  // other keys are kept; a broken file is replaced
  object["theme"] = theme_name(appearance.theme);
  object["ui_scale"] = appearance.scale;
  if (std::string error = make_parent_folder(file); !error.empty()) return error;
  return io::write_file(file.string(), object.dump(2) + "\n");
}

}  // namespace lagrange::app
