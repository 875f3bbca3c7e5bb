#include "options/drag_option.h"

#include <charconv>
#include <cmath>

#include "lagrange/text.h"

namespace lagrange::cli {

const char* const kDragUsage =
    "  --drag P,X,Y,Z,T0,T1 drag particle P (numbered from 0 in file order) toward the point (X,Y,Z) from\n"
    "                       simulated time T0 to T1 (seconds), then release it; Z is 0 in 2D scenes. Repeatable\n"
    "                       (one drag at a time). The sandbox's own drag: docs/cli.md, docs/physics.md\n"
    "  --drag-model M       hard (a stiff compliant pin, default) or spring (critically damped, stiffness per kg\n"
    "                       of the mass it moves)\n";

ScriptedDrag parse_drag(const std::string& text) {
  std::vector<std::string> fields;
  std::size_t begin = 0;
  while (true) {
    const std::size_t comma = text.find(',', begin);
    fields.push_back(text.substr(begin, comma == std::string::npos ? std::string::npos : comma - begin));
    if (comma == std::string::npos) break;
    begin = comma + 1;
  }
  if (fields.size() != 6)
    throw UsageError("--drag: expected P,X,Y,Z,T0,T1 (6 comma-separated values), got " +
                     std::to_string(fields.size()) + " in " + lagrange::quoted(text));
  ScriptedDrag drag;
  long particle = -1;
  const std::string& p = fields[0];
  const auto result = std::from_chars(p.data(), p.data() + p.size(), particle);
  if (result.ec != std::errc() || result.ptr != p.data() + p.size() || particle < 0 || particle > 1'000'000'000)
    throw UsageError("--drag: P must be a particle number (0, 1, ...), got " + lagrange::quoted(p) + " in " + lagrange::quoted(text));
  drag.particle = static_cast<int>(particle);
  const char* names[] = {"X", "Y", "Z", "T0", "T1"};
  double values[5];
  for (int k = 0; k < 5; ++k) {
    const std::string& f = fields[k + 1];
    const auto r = std::from_chars(f.data(), f.data() + f.size(), values[k]);
    if (r.ec != std::errc() || r.ptr != f.data() + f.size() || !std::isfinite(values[k]))
      throw UsageError(std::string("--drag: ") + names[k] + " must be a finite number, got " + lagrange::quoted(f) + " in " +
                       lagrange::quoted(text));
  }
  drag.target = Vec3(values[0], values[1], values[2]);
  drag.start = values[3];
  drag.end = values[4];
  if (drag.start < 0.0) throw UsageError("--drag: T0 must be >= 0, got " + lagrange::quoted(fields[4]) + " in " + lagrange::quoted(text));
  if (drag.end < drag.start)
    throw UsageError("--drag: T1 (" + printable(fields[5]) + ") is before T0 (" + printable(fields[4]) + ") in " +
                     lagrange::quoted(text));
  return drag;
}

bool read_drag_option(Args& args, DragOptions& options) {
  if (auto v = args.option("--drag")) {
    options.drags.push_back(parse_drag(*v));
    return true;
  }
  if (auto v = args.option("--drag-model")) {
    const auto model = find_drag_model(*v);
    if (!model) throw UsageError("--drag-model: expected hard or spring, got " + lagrange::quoted(*v));
    options.model = *model;
    return true;
  }
  return false;
}

void check_drags(const DragOptions& options, const World& world) {
  if (std::string problem = DragScript::check(options.drags, world); !problem.empty())
    throw UsageError("--drag: " + problem);
}

}  // namespace lagrange::cli
