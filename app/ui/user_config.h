// The user's remembered choices: $XDG_CONFIG_HOME/lagrange-lab/settings.json (~/.config/lagrange-lab/ when
// XDG_CONFIG_HOME is unset or not absolute), today the projector mode's theme and UI scale:
//   {"theme": "light", "ui_scale": 1.5}
// Read when the window opens; written (atomically, io::write_file) when the user changes them in the window. The
// command line's --theme and --ui-scale override the file for that session and are not written. `shot` neither reads
// nor writes it: a picture depends on its command line only.
#pragma once

#include <filesystem>
#include <string>

#include "window/theme.h"

namespace lagrange::app {

// The folder, or "" when neither XDG_CONFIG_HOME nor HOME gives one.
std::filesystem::path config_dir();
// config_dir() / "settings.json", or "" without a folder.
std::filesystem::path settings_file();

// Reads the remembered appearance from `file`. A missing file gives the defaults silently; anything wrong (not
// JSON, not an object, a theme that is not dark or light, a scale outside 1..3) gives the defaults for what is wrong
// and one line in `warning` naming the file and the problem. Never throws.
Appearance read_appearance(const std::filesystem::path& file, std::string& warning);
// Writes `appearance` into `file` (creating its folder), keeping any other keys the file holds. Returns "" on
// success, else the reason.
std::string write_appearance(const std::filesystem::path& file, const Appearance& appearance);

}  // namespace lagrange::app
