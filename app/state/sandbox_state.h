// Everything the sandbox knows between frames, as plain data: the static scene (from a file) apart from the world
// that changes, the settings copy the UI edits, view options and the queue of UI actions. The panels read this and
// push Commands; the Sandbox applies them between physics steps.
#pragma once

#include <array>
#include <deque>
#include <filesystem>
#include <map>
#include <set>
#include <optional>
#include <string>
#include <vector>

#include "capture/window_recorder.h"
#include "lagrange/drag.h"
#include "lagrange/lanes.h"
#include "lagrange/scene.h"
#include "lagrange/simulation.h"
#include "lagrange/world.h"
#include "lagrange/step_trace.h"
#include "options/lanes_option.h"
#include "state/editor_state.h"
#include "state/history.h"
#include "state/method_views.h"
#include "tools/measure_tools.h"
#include "tools/timeline.h"
#include "window/camera.h"
#include "window/theme.h"

namespace lagrange::app {

using lagrange::DragModel;  // hard or spring: the engine's drag controller (lagrange/drag.h) does the dragging
enum class RodColouring { Tension, LengthError, Plain };

struct ViewOptions {
  bool size_by_mass = false;  // ignore the file's radii and size every particle by its mass
  RodColouring rod_colouring = RodColouring::Tension;
  float rod_width = 0.0f;     // pixels; 0: automatic (thinner for many rods)
  bool grid = true;
  bool gravity_arrows = false;
  bool constraint_arrows = false;
  bool contact_arrows = true;  // the contacts' normal forces, in a scene with contacts
  bool trails = true;
  int trail_steps = 300;
  int msaa = 4;
  // The side panels (docs/app.md, "The window"): Tab collapses both to thin bars and opens them again; each panel
  // collapses to its bar by its own button and opens again by a click on the bar. Open panels still give way to the
  // scene (screen_layout.cpp): when the window is too small for them at the UI scale, the one the user did not open
  // last collapses first. Presentation (F5) shows the scene alone, with one line of text over it.
  bool panels = true;
  bool left_open = true, right_open = true;
  enum class Side { None, Left, Right } opened_last = Side::None;
  bool presentation = false;
  bool help = false;
  bool legend = true;
  // Drift you can see: each rod drawn with its length error |d| − L multiplied by this (1, 10, 100, 1000), centred
  // on the rod, beside a thin ghost of its rest length; labels of every rod's length (the first kMaxLengthLabels).
  int error_exaggeration = 1;
  bool rest_ghosts = false;
  bool length_labels = false;
};
inline constexpr int kMaxLengthLabels = 60;

// The step view (key I, `shot --step-view`; view/step_view.h): one substep of lane 1 frozen and taken apart.
struct StepViewState {
  bool active = false;
  StepTrace trace;       // the substep from lane 1's state when the view opened
  int iterate = 0;       // the iterate shown (0 .. trace.iterates.size() − 1)
  // One substep moves a particle by v h, and the constraint corrects it by far less (g h², v² h² / L): the motion
  // q → q* is drawn × `magnification` about q, the corrections q* → iterate × `correction_magnification` about the
  // drawn q* (0: each chosen from the trace; equal factors: one magnification about q).
  double magnification = 0.0, correction_magnification = 0.0;
  double chosen = 1.0, correction_chosen = 1.0;  // the factors in use
  bool legend_was_shown = true, trails_were_shown = true;  // hidden while the view is open (its panel has a legend)
  // The side panels, folded while the view is open when they left its panel more than a third of a narrow scene.
  bool folded_panels = false, left_was_open = false, right_was_open = false;
};

// A UI action, applied between physics steps.
struct Command {
  enum class Kind {
    ApplySettings,   // settings
    Reset,           // rebuild the world from the scene, keep the edited settings
    RestoreSceneSettings,
    LoadScene,       // path
    StepOnce,
    TogglePause,
    Screenshot,      // flag: without panels
    FrameScene,
    ClearTrails,
    SaveScene,       // path ("" = Save: the last file saved to, or a new one in save_dir)
    AddLane,         // path: the lane's spec (lanes.h; "" = the next solver no lane uses, of the other family
                     // than lane 1's first: position level against force level); a copy of lane 1 now
    RemoveLane,      // index (2.. for the extra lanes; -1 = the last one)
    SetLane,         // index, path: a new spec for that lane (2..); it restarts from lane 1's state now
    Scrub,           // index: show that snapshot of the timeline (pauses)
    ExportCsv,       // path ("" = a new file in save_dir): the timeline as run's CSV
    StepBack,        // one snapshot back (pauses)
    ToggleEdit,      // Edit mode on (from the scene as it is now) / off (play the draft, when it is valid)
    EditNew,         // index: 2 or 3, a new empty scene of that dimension in the editor (undoable)
    Undo,
    Redo,
    DeleteSelection,
    ToggleRecording, // start or stop recording the window as a video (F9, Record; window_recorder.h)
    PickSceneFile,   // ask the platform for a scene file from the user's disk (the page's "Open file..."); it comes
                     // back as an SDL_DROPFILE event, like a file dropped on the window
    ExportTable,     // path ("" = a new file in save_dir): the Measure strip's table of periods as CSV
    ExportScale,     // path ("" = a new file in save_dir): the Measure strip's scale (force_scale.h) as CSV
    SetContacts,     // index 0: restitution, 1: friction = value, in every lane and the scene (contacts.h)
  };
  Kind kind = Kind::Reset;
  Settings settings;
  std::string path;
  bool flag = false;
  int index = -1;
  double value = 0.0;

  static Command apply_settings(const Settings& settings) {
    Command c;
    c.kind = Kind::ApplySettings;
    c.settings = settings;
    return c;
  }
  static Command load(const std::string& path) {
    Command c;
    c.kind = Kind::LoadScene;
    c.path = path;
    return c;
  }
  static Command save(const std::string& path) {
    Command c;
    c.kind = Kind::SaveScene;
    c.path = path;
    return c;
  }
  static Command screenshot(bool without_panels) {
    Command c;
    c.kind = Kind::Screenshot;
    c.flag = without_panels;
    return c;
  }
};

struct Hover {
  // Rod: any constraint drawn as a line between two particles (a rod, a cable); Obstacle: contacts.h's, by index.
  enum class Kind { None, Particle, Rod, Obstacle } kind = Kind::None;
  int index = -1;  // particle, constraint or obstacle index
  int lane = 0;    // the lane whose world it is in (0: lane 1; k: lane k + 1, split views)
};

// A drag: what only the screen knows, the plane the cursor moves the particle in. The hand itself, the engine's
// controller (the pin, its compliance, the cursor filter, the fling cap, the work done), is each lane's
// SimLane::drag, lane 1's first (SandboxState::hand()).
struct Drag {
  glm::dvec3 plane_point{0.0};  // the drag plane: through the particle, facing the camera
  glm::dvec3 plane_normal{0.0, 0.0, 1.0};
  glm::dvec3 offset{0.0};       // particle − cursor hit at grab time, so the particle does not jump
};

struct Trail {
  int particle;
  std::deque<glm::dvec3> points;
};

struct FrameTiming {
  double frame_ms = 0.0;    // wall time of the last frame() + render()
  double median_ms = 0.0;   // over the last 120 frames
  int steps_last_frame = 0;
  bool slowed = false;      // the per-frame step cap was hit: the simulation runs slower than real time
  double slowest_ms = 0.0;  // the longest frame since the window opened
  std::deque<double> recent;
};

// What the pointer did since the window opened: `--report` prints it, so a scripted session shows what it reached.
struct InputCounts {
  long particle_hover_frames = 0;  // frames with the pointer resting on a particle
  long rod_hover_frames = 0;       // ... on a rod
  long grabs = 0;                  // particles grabbed with the mouse
};

// What the window keeps of each lane beside its SimLane (simulation.h): its plots, its trails, and the Lanes
// panel's field for its own settings ("dt=0.004 substeps=2", filled when the lane starts).
struct LaneDisplay {
  History history;
  // The lane's own camera when the lanes are side by side, framed on the lane's own reach (lane 1 uses
  // SandboxState::camera): a lane that drifted or blew up is framed and scaled on its own.
  Camera camera;
  std::vector<Trail> trails;
  std::array<char, 256> settings_field{};
};

struct SandboxState {
  Scene scene;                       // the static model, as loaded
  std::filesystem::path scene_path;  // "" when built in code
  // Counts the scenes opened from a file or code (not the editor's Play or a Reset): the editor's undo history
  // belongs to one opening and survives a play of it (EditorState::played_opening).
  unsigned long scene_openings = 0;
  // Every lane, lane 1 first: its world, its drag, its scripted drags and its accounts, stepped by one call
  // (simulation.h). Lane 1 is the scene the panels edit and the tools measure; later lanes are copies of it with
  // their own solver or settings (lanes.h).
  Simulation sim{World(2)};
  std::vector<LaneDisplay> displays = std::vector<LaneDisplay>(1);  // one per lane of `sim`, in the same order
  Settings edit;                     // what the panels edit; handed to lane 1 between steps
  Timeline timeline;                 // the last seconds, one snapshot per step: scrub back, step back, resume
  RecordingStatus recording;         // the window's recording, while there is one (window_recorder.h)
  LaneView lane_view = LaneView::Overlay;

  World& world() { return sim.world(); }
  const World& world() const { return sim.world(); }
  std::size_t lane_count() const { return sim.size(); }
  // Lane k's world, counted from 0 (lane 1); lane 1's when there is no such lane.
  const World& lane_world(std::size_t k) const { return sim.world(k < sim.size() ? k : 0); }
  // Every lane's spec, lane 1 first (its spec is its solver): what lane colours and labels come from.
  std::vector<LaneSpec> lane_specs() const { return sim.specs(); }
  // The mouse's hand in lane 1 (the other lanes' drags follow the same cursor).
  DragController& hand() { return sim.lane(0).drag; }
  const DragController& hand() const { return sim.lane(0).drag; }
  bool dragging() const { return hand().active(); }

  ViewOptions view;
  Camera camera;  // lane 1's view (and every lane's when overlaid)
  // The camera lane view k is drawn and picked with: side by side, each lane's own; overlaid, lane 1's.
  Camera& view_camera(std::size_t k) {
    return lane_view == LaneView::Split && k > 0 && k < displays.size() ? displays[k].camera : camera;
  }
  const Camera& view_camera(std::size_t k) const {
    return lane_view == LaneView::Split && k > 0 && k < displays.size() ? displays[k].camera : camera;
  }
  // Where each overlay over the scene sat last frame (its name → overlay_layout.h's Anchor): kept while it covers
  // nothing, so the texts do not hop from corner to corner.
  std::map<std::string, int> overlay_anchors;
  float legend_width = 1.0f;  // the legend's widest, a fraction of its view, as the last framing chose it
  float hud_width = 1.0f;     // the top line's widest, the same
  // Lanes side by side: where the framing put the legend, the one that draws the lanes largest (they share one scale):
  // in the last view, in a band across the bottom of the scene under every view, or nowhere when either costs the
  // lanes more than a fifth of their scale (a cramped window). One view: always in it.
  enum class LegendPlace { View, Band, None } legend_place = LegendPlace::View;
  DragModel drag_model = DragModel::Hard;
  double spring_stiffness = DragSettings{}.spring_stiffness;  // N/m per kg of the mass the drag moves
  bool paused = false;
  double time_scale = 1.0;
  double air_drag = 0.5;  // 1/s: what the "air drag" checkbox turns on (the last non-zero damping used)
  int max_steps_per_frame = 8;
  double accumulator = 0.0;

  double ground_y = 0.0;
  double force_scale = 1.0;          // rod colour scale, newtons, eased toward the current max |λ|
  double length_scale = 1.0;         // typical rod length, for arrows
  double bead_radius = 0.1;          // drawn radius of a particle of median mass

  std::string scene_error;           // last failed load (SceneError::what()), shown until the next load
  std::string settings_error;
  std::string notice;                // last screenshot result
  std::string toast;                 // a one-line message over the scene (screenshot saved, scene failed)
  bool toast_is_error = false;
  double toast_seconds = 0.0;        // wall seconds it stays
  // Why lane 1 was rolled back to its last sound state (Sandbox::roll_back): shown over the scene and under the
  // settings until the user acts (a key, a click, Play, Reset), never timed out.
  std::string alert;

  void show_toast(const std::string& text, bool error) {
    toast = text;
    toast_is_error = error;
    toast_seconds = error ? 8.0 : 4.0;
  }
  // Files reach the user as browser downloads (the page, Platform::files_download): no folder to show or type.
  bool downloads = false;
  // An "Open file..." button asks the platform for a scene file from the user's disk (the page's file picker).
  bool scene_picker = false;
  std::filesystem::path screenshot_dir = "screenshots";
  std::filesystem::path save_dir = "scenes";   // where Save puts a new file (the user's documents folder)
  std::filesystem::path saved_path;           // the file the last Save wrote ("" before the first)
  std::array<char, 1024> save_field{};        // Save as: the path field's text
  bool screenshot_without_panels = false;
  std::filesystem::path assets_dir;
  std::vector<std::filesystem::path> scene_files;
  std::string open_path;              // put into the path field at the next frame
  std::array<char, 1024> path_field{};    // the scene path field's text
  std::array<char, 1024> folder_field{};  // the screenshot folder field's text
  bool expand_sections = false;  // open every section of the control panel (GUI tests of the whole panel)

  std::vector<Command> commands;
  // Where some widgets were drawn in the last frame (x0, y0, x1, y1 in window units): the GUI tests click them.
  std::map<std::string, std::array<float, 4>> widget_rects;
  // The remembered widgets (remember_rect) whose right edge lay past their panel's content in the last frame they were
  // drawn: Dear ImGui drops the glyphs beyond whole, so the layout check reads them here (a radio row at 2x showed
  // "x1 x10 x100 x").
  std::set<std::string> widgets_past_edge;
  // What some number fields showed in the last frame, one text per box (Edit mode's inspector): the tests read them.
  std::map<std::string, std::vector<std::string>> widget_texts;
  Hover hover;
  Drag drag;
  EditorState editor;    // Edit mode (key E): the scene editor
  StepViewState step_view;  // the step view (key I): one substep frozen, its iterates stepped through
  MeasureState measure;  // the Measure strip: period timer, stopwatch, protractor, energy bars (key M)
  MatrixView matrix;            // Diagnostics' Matrix section: J M⁻¹ Jᵀ of lane 1's state (method_views.h)
  ConvergenceView convergence;  // Diagnostics' Convergence section: the order of accuracy, in the background
  FrameTiming timing;
  InputCounts input_counts;
  std::string renderer_name;
  // Projector mode (theme.h): the theme and the user's scale factor. The panels edit it; the Sandbox applies a
  // change (style, font atlas) before the next frame and remembers it in the user's config folder.
  Appearance appearance;
  double ui_scale = 1.0;     // effective scale of fonts, widgets and lines: the HiDPI factor × appearance.scale
  double pixel_ratio = 1.0;  // drawable pixels per window unit (2 on a Retina-style screen)
  int window_width = 1, window_height = 1;  // the window's drawable size in pixels; the scene gets the middle

  void push(Command::Kind kind) {
    Command command;
    command.kind = kind;
    commands.push_back(std::move(command));
  }
  DragSettings drag_settings() const {
    DragSettings settings;
    settings.model = drag_model;
    settings.spring_stiffness = spring_stiffness;
    return settings;
  }
};

// The Diagnostics panel's energy lines: E − E₀ since the lane started, the work of the mouse and of the dampers
// (the world's own accounts), and the drift left over (LaneAccounts, simulation.h).
struct EnergyBalance {
  double change = 0.0, mouse = 0.0, damping = 0.0, contacts = 0.0, drift = 0.0;
};
inline EnergyBalance energy_balance(const SimLane& lane) {
  const double energy = lane.world.energy().total();
  EnergyBalance b;
  b.change = energy - lane.accounts.start_energy;
  b.mouse = lane.world.work().mouse;
  b.damping = lane.world.work().damping;
  b.contacts = lane.world.work().contacts;
  b.drift = lane.accounts.drift(energy, lane.world.work());
  return b;
}
inline EnergyBalance energy_balance(const SandboxState& state) { return energy_balance(state.sim.lane(0)); }

}  // namespace lagrange::app
