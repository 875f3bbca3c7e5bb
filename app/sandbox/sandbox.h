// Entry points of the interactive sandbox, called by app/main.cpp. Owned by the sandbox (issue 3).
#pragma once

namespace lagrange::app {

// `lagrange-lab [SCENE.json] [options]` and `lagrange-lab gui [SCENE.json] [options]`: opens the window.
int sandbox_main(int argc, char** argv);
// `lagrange-lab shot SCENE [--solver NAME] [--steps N | --time S] [--size WxH] [--out FILE.png]`.
int shot_main(int argc, char** argv);

}  // namespace lagrange::app
