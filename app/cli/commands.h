// The headless subcommands of lagrange-lab. Each takes the arguments after its own word and returns the exit code:
// 0 success, 1 a runtime failure (cannot write a file), 2 bad input (usage, scene file, settings).
#pragma once

namespace lagrange::cli {

int run_main(int argc, char** argv);
int solvers_main(int argc, char** argv);
int bench_main(int argc, char** argv);

}  // namespace lagrange::cli
