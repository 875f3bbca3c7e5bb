// The scene editor's state (Edit mode, key E): the scene being edited (the draft), the tool, the selection, undo and
// redo, and the gesture in progress. The edits themselves are lagrange::edit's (engine, scene_edit.h); the Sandbox
// shows the draft as its world between edits (edit/edit_mode.cpp), the Editor panel edits it (edit/editor_panel.cpp).
#pragma once

#include <array>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include "lagrange/builders.h"
#include "lagrange/lanes.h"
#include "lagrange/scene.h"

namespace lagrange::app {

enum class EditTool { Select, Particle, Rod, Floor, Wall, Box, Peg };

struct EditTools {
  EditTool tool;
  const char* name;
  const char* key;  // in Edit mode
  const char* help;
};
// The tools, in key order (1, 2, 3): one table for the toolbar, the help and the tests.
inline constexpr EditTools kEditTools[] = {
    {EditTool::Select, "Select", "1", "click a particle or rod to select it (Shift adds); drag it to move the "
                                      "selection; drag on empty space to box-select"},
    {EditTool::Particle, "Particle", "2", "click to add a particle; drag a particle to move it"},
    {EditTool::Rod, "Rod", "3", "drag from a particle to another to join them with a rod, or to empty space for a new "
                                "particle on the end; click to add a particle"},
    {EditTool::Floor, "Floor", "4", "click: a level floor through that point; drag: a slope along the drag (particles "
                                    "stay above it)"},
    {EditTool::Wall, "Wall", "5", "click: an upright wall through that point, facing the particles"},
    {EditTool::Box, "Box", "6", "drag from corner to corner: a box the particles stay inside"},
    {EditTool::Peg, "Peg", "7", "press at its centre and drag out its radius: a fixed peg (a circle; a sphere in 3D); "
                                "click: a peg one grid step wide"},
};
// The tools that add an obstacle (contacts.h) with a press, a drag and a release.
inline bool is_obstacle_tool(EditTool tool) { return tool >= EditTool::Floor; }

// One undo step: the draft and the selection before an edit.
struct EditSnapshot {
  Scene scene;
  std::vector<int> selected;
  int constraint = -1;
  std::string label;  // "add rod": the Undo button's tooltip
};

struct EditorState {
  bool active = false;
  EditTool tool = EditTool::Rod;
  Scene draft;                        // what Save writes and Play starts
  std::filesystem::path document;     // the file Save writes ("" until saved: untitled)
  std::vector<int> selected;          // selected particles
  int constraint = -1;                // the selected constraint (inspector), or -1
  std::vector<EditSnapshot> undo, redo;
  static constexpr std::size_t kMaxUndo = 500;
  bool snap = true;                   // snap placed and moved particles to the grid's minor lines
  double snap_step = 0.1;             // the grid's minor step, from the view (scene_draw grid_step)
  std::string problem;                // the loader's message for the draft, "" while it is valid
  std::vector<int> dropped;           // constraints not shown because they are invalid
  int problem_particle = -1, problem_constraint = -1;  // named in `problem`: drawn in red
  bool dirty = false;                 // the draft changed: the Sandbox shows it again and checks it
  bool modified = false;              // changed since it was opened or saved
  std::vector<LaneSpec> lanes;        // the lanes to bring back on Play
  // The scene opening (SandboxState::scene_openings) the draft was last played in: E on it again brings the draft
  // back with its undo and redo; a scene opened since starts a history of its own.
  std::optional<unsigned long> played_opening;
  bool was_paused = false;
  std::array<char, 1024> save_field{};  // Save as

  // The generators' dialogs (Chain..., Cloth...).
  ChainDef chain;
  ClothDef cloth;
  double chain_angle_degrees = 0.0;   // the chain's first direction, from +x, counter-clockwise
  std::string generator_error;

  // The gesture in progress (left button held in the scene).
  enum class Gesture { None, Box, Move, Rod, Obstacle } gesture = Gesture::None;
  glm::dvec2 press_pixel{0.0}, cursor_pixel{0.0};
  glm::dvec3 press_point{0.0};        // the press on the placing plane (snapped)
  glm::dvec3 grab_offset{0.0};        // grabbed particle − cursor point (Move)
  int press_particle = -1;            // the particle pressed (Move, Rod), or -1 for empty space (Rod)
  bool gesture_changed = false;       // the Move already pushed its undo step
  bool shift = false;                 // Shift at the press: add to the selection
  long edits_made = 0;                // since the window opened (--report)
  unsigned field = 0;                 // the inspector field being typed in (its ImGui id): one undo step per focus

  // Records an undo step (clearing redo) before an edit of the draft; the draft is then changed by the caller.
  void begin_change(const std::string& label);
  // begin_change, then `change(draft)`, then marks the draft dirty.
  void change(const std::string& label, const std::function<void(Scene&)>& change);
  bool undo_last();
  bool redo_last();
  void mark_changed() {
    dirty = true;
    modified = true;
  }
  bool is_selected(int p) const;
  void select_only(int p);
};

// Where a pixel of the scene view puts a particle: on the z = 0 plane in 2D; in 3D on the plane through `through`
// facing the camera. Snapped to the grid's minor lines (editor.snap_step) when `snapped` and snapping is on.
// (edit/edit_mode.cpp)
struct SandboxState;
// The obstacle an obstacle tool (Floor, Wall, Box, Peg) makes from a press at `from` to a release at `to` (snapped
// points), in a draft of `dimension` whose particles' middle is `middle` (a wall faces it); nothing when the gesture
// gives no valid one (a box of no area). (edit/edit_mode.cpp)
std::optional<Obstacle> obstacle_from_gesture(EditTool tool, glm::dvec3 from, glm::dvec3 to, int dimension,
                                              glm::dvec3 middle, double step);
std::optional<glm::dvec3> edit_point(const SandboxState& state, glm::dvec2 pixel, glm::dvec3 through, bool snapped);
glm::dvec3 snap_to_grid(const EditorState& editor, glm::dvec3 point);

// The title the editor gives the draft's file in messages and the window title: the document's name or "untitled".
std::string document_name(const EditorState& editor);
// "particles[3]..." → 3 (and the same for constraints) from a loader message for the draft, else -1.
int index_named(const std::string& problem, const std::string& what);

}  // namespace lagrange::app
