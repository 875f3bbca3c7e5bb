// Where screenshots go by default: the user's pictures folder, under "Lagrange Lab/". Kept apart from how PNGs are
// written (screenshot.*): this only chooses the folder.
#pragma once

#include <filesystem>
#include <string>

namespace lagrange::app {

// $XDG_PICTURES_DIR, else the XDG_PICTURES_DIR line of $XDG_CONFIG_HOME/user-dirs.dirs (~/.config when unset), else
// $HOME/Pictures; then "Lagrange Lab" inside it. With no HOME either: ./screenshots. The folder is not created here.
std::filesystem::path default_screenshot_dir();
// The same for saved scenes: $XDG_DOCUMENTS_DIR (or its user-dirs.dirs line, or $HOME/Documents), "Lagrange Lab"
// inside it; ./scenes without HOME.
std::filesystem::path default_scene_dir();

// Creates the folder `file` goes into when it is missing. Returns "" or "cannot create folder F: REASON".
std::string make_parent_folder(const std::filesystem::path& file);

}  // namespace lagrange::app
