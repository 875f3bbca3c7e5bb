// What `shot` and `record` share: the options that choose the scene, the solver or lanes, the view and the scripted
// drags; loading the scene before any graphics; a hidden sandbox set up from them (SDL's offscreen driver); stepping
// it with the drags, stopping at once with exit code 3 when the simulation fails (as `run` defines it, or as the
// window does: lane 1 rolled back to its last sound state).
#pragma once

#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "lagrange/drag.h"
#include "lagrange/lanes.h"
#include "lagrange/scene.h"
#include "options/args.h"
#include "options/drag_option.h"
#include "options/lanes_option.h"
#include "sandbox/sandbox_app.h"

namespace lagrange::app {

// The usage lines of the shared options (the drag options, cli::kDragUsage, come after them).
extern const char* const kRenderUsage;

struct RenderOptions {
  std::string scene, solver, out;
  bool panels = false, bare = false, measure = false, rest_lengths = false, length_labels = false;
  std::optional<std::string> lanes_text;
  std::vector<LaneSpec> lanes;  // from lanes_text, by load()
  LaneView lane_view = LaneView::Overlay;
  int exaggeration = 1;
  SceneLimits limits;
  cli::DragOptions drags;
  SandboxOptions window;  // size and appearance; hidden, no vsync
};

class HeadlessRender {
 public:
  // `command`: "shot" or "record", for messages ("lagrange-lab shot: ..."); `usage`: the command's whole usage text,
  // a printf format taking the solver ids, printed after a mistake in the command line.
  HeadlessRender(const char* command, std::string usage);
  ~HeadlessRender();

  RenderOptions options;
  // Called before any message is printed (record: the progress line is cleared first, so the message is not
  // written over it).
  std::function<void()> before_message;

  // Reads the command line: -h / --help (the usage, exit code 0), the command's own options through `own` (true when
  // it consumed the next item; a bad value throws cli::UsageError), the shared ones, the scene. Nothing to go on with
  // (the exit code) or, to go on, nothing.
  std::optional<int> parse(int argc, char** argv, const std::function<bool(cli::Args&)>& own);
  // Consumes the next item when it is a shared option (with its value); false when it is not one. Throws
  // cli::UsageError for a bad value.
  bool read_option(cli::Args& args);
  // The message, then the usage: exit code 2.
  int usage_error(const std::string& message) const;
  // One line, escaped: `code`.
  int fail(int code, const std::string& message) const;
  const char* usage() const { return usage_.c_str(); }

  // After the command line: a scene named, the lanes parsed, --out defaulting to the scene's name + `extension`, an
  // --out that is the scene refused (and for ".png" a name not ending in .png, io::png_name_problem), the scene
  // loaded (before any graphics, so a bad scene fails at once). 0, or the exit code after the message.
  int load(const std::string& extension);
  const Scene& scene() const { return scene_; }

  // A hidden sandbox with the loaded scene, the solver or lanes, the view options and the scripted drags, ready to
  // step from t = 0. Called again, it starts over (a second pass over the same frames). 0, or the exit code.
  int open();
  Sandbox& sandbox() { return *sandbox_; }
  SandboxState& state() { return sandbox_->state(); }

  // Step `i` (counted from 1) with the scripted drags. 0, or the exit code after the message: 3 when the simulation
  // failed ("no OUTPUT written"), 2 for a setting the step refused. Out of memory throws std::bad_alloc.
  int step(long i, const char* output);
  // After a step or a frame: 0, a setting's error (2), or std::bad_alloc.
  int check_step() const;
  // Auto-sized ImGui windows take a frame to measure themselves: three frames with no time passing.
  void settle();
  // A line for each lane that blew up and stopped where it was (the picture shows it stopped).
  void report_lanes(std::FILE* report) const;

 private:
  std::string command_;
  std::string usage_;
  Scene scene_;
  std::unique_ptr<Sandbox> sandbox_;
};

}  // namespace lagrange::app
