// `--drag P,X,Y,Z,T0,T1` (repeatable) and `--drag-model hard|spring`, read in one place for `run` and `shot`.
// The drags themselves are played by the engine's DragScript on the engine's DragController, the sandbox's own
// drag code (lagrange/drag.h).
#pragma once

#include <string>
#include <vector>

#include "lagrange/drag.h"
#include "options/args.h"

namespace lagrange::cli {

struct DragOptions {
  std::vector<ScriptedDrag> drags;
  DragModel model = DragModel::Hard;
};

// The usage lines for both commands.
extern const char* const kDragUsage;

// Consumes `--drag ...` or `--drag-model ...` when it is the next item of `args`; returns whether it did.
// Throws UsageError naming the flag and the problem (wrong field count, a non-number, T1 before T0, ...).
bool read_drag_option(Args& args, DragOptions& options);
// One `P,X,Y,Z,T0,T1`; throws UsageError.
ScriptedDrag parse_drag(const std::string& text);
// Once the scene is loaded: every particle exists, windows do not overlap. Throws UsageError.
void check_drags(const DragOptions& options, const World& world);

}  // namespace lagrange::cli
