// The exit codes of every command of lagrange-lab (docs/cli.md lists them): the headless commands (cli/commands.h)
// and what main.cpp returns for them.
#pragma once

namespace lagrange::cli {

constexpr int kExitOutputFailed = 1;      // an output could not be written (file, PNG, standard output)
constexpr int kExitBadInput = 2;          // usage, scene file, settings, limits, output path = input path
constexpr int kExitSimulationFailed = 3;  // a step became NaN/inf (rolled back) or max |C|/L went above 1
constexpr int kExitOutOfMemory = 4;       // std::bad_alloc
constexpr int kExitNoMeasurement = 5;     // run --measure: the run ended without what was to be measured
// 130 / 143: interrupted by SIGINT / SIGTERM (128 + the signal), unfinished output removed

}  // namespace lagrange::cli
