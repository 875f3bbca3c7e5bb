// The entry point of the interactive sandbox, called by app/main.cpp (issue 3). The headless commands that draw,
// `shot` and `record`, are cli/commands.h's.
//
// It takes only the arguments after the program name and after the subcommand word, if any: for
// `lagrange-lab gui pendulum.json --solver shake` argv is {"pendulum.json", "--solver", "shake"}; for
// `lagrange-lab pendulum.json` it is {"pendulum.json"}; for `lagrange-lab` argc is 0. argv[argc] need not be null.
// Exit codes: 0 success, 1 a runtime failure (no window), 2 a usage error.
#pragma once

namespace lagrange::app {

// `lagrange-lab [SCENE.json] [options]` and `lagrange-lab gui [SCENE.json] [options]`: opens the window.
int sandbox_main(int argc, char** argv);

}  // namespace lagrange::app
