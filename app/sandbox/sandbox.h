// Entry points of the interactive sandbox, called by app/main.cpp. Owned by the sandbox (issue 3).
//
// Both take only the arguments after the program name and after the subcommand word, if any: for
// `lagrange-lab gui pendulum.json --solver shake` argv is {"pendulum.json", "--solver", "shake"}; for
// `lagrange-lab pendulum.json` it is {"pendulum.json"}; for `lagrange-lab` argc is 0. argv[argc] need not be null.
// Exit codes: 0 success, 1 a runtime failure (no window, unreadable scene for `shot`), 2 a usage error.
#pragma once

namespace lagrange::app {

// `lagrange-lab [SCENE.json] [options]` and `lagrange-lab gui [SCENE.json] [options]`: opens the window.
int sandbox_main(int argc, char** argv);
// `lagrange-lab shot SCENE [--solver NAME] [--steps N | --time S] [--size WxH] [--out FILE.png]`.
int shot_main(int argc, char** argv);
// `lagrange-lab record SCENE --duration S [--fps N] [--out FILE.mp4|FILE.gif]` (and shot's options): a video.
int record_main(int argc, char** argv);

}  // namespace lagrange::app
