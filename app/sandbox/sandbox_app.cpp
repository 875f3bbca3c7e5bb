#include "sandbox/sandbox_app.h"


#include <backends/imgui_impl_opengl3.h>
#include <backends/imgui_impl_sdl.h>
#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <new>

#include "capture/output_file.h"
#include "capture/screenshot_folder.h"
#include "capture/trajectory_csv.h"
#include "options/args.h"
#include "lagrange/measure.h"
#include "ui/measure_panel.h"
#include "ui/ui.h"
#include "ui/ui_layers.h"
#include "ui/user_config.h"
#include "view/picking.h"
#include "view/scene_draw.h"
#include "view/step_view.h"
#include "window/gl_util.h"

namespace lagrange::app {
namespace {

using Clock = std::chrono::steady_clock;

// A step that ran away: the energy not finite, or a position or velocity beyond 1e9 (metres, m/s: no lesson scene goes
// there). Read right after the step, from its statistics.
bool ran_away(const World& world) {
  constexpr double kRunaway = 1e9;
  if (!std::isfinite(world.stats().energy.total())) return true;
  for (std::size_t i = 0; i < world.particle_count(); ++i)
    if (!(glm::length(world.state().position[i]) < kRunaway) || !(glm::length(world.state().velocity[i]) < kRunaway))
      return true;
  return false;
}

// The largest max |C|/L (rows that count: not the mouse's, not compliant ones) a state of lane 1 may have and still be
// sound, for the solver and settings it runs (docs/app.md, "When a step fails"; the measured legitimate values are
// there). The solver table's own flags choose, never its name:
// - rigid rods, solved at the position level (projection, SHAKE, RATTLE): they end every substep within the
//   tolerance (1e-10); the shipped scenes never leave 2e-3 in a minute even where SHAKE converges slowly, so 1 % of
//   a rod (or 10 tolerances, when the tolerance was raised) is a solver that lost its rods, never one at work;
// - the acceleration level drifts, and that drift is its lesson (Lesson 1: rods of 1.1-1.5 m in 10 s): its bound is
//   `run`'s failure, kFailedViolation = 1, a rod off by its whole length;
// - springs (penalty) stretch by their load over k: at least run's 1, and for soft springs three times the stretch
//   the shortest rod would have holding the whole scene's weight and the hand's strongest pull, three being the
//   tension at the bottom of a swing released level (3 m g).
double sound_violation(const World& world) {
  const Settings& settings = world.settings();
  const SolverInfo& solver = world.solver_info();
  if (solver.implicit_compliance) return std::max(1e-2, 10.0 * settings.tolerance);
  if (!solver.rods_are_springs) return cli::kFailedViolation;
  const Model& model = world.model();
  const double g = glm::length(settings.gravity);
  double weight = 0.0, heaviest = 0.0;
  for (std::size_t i = 0; i < model.particle_count(); ++i)
    if (!model.fixed(i)) {
      weight += model.mass(i) * g;
      heaviest = std::max(heaviest, model.mass(i) * g);
    }
  double shortest = INFINITY;
  for (const Row& row : model.rows())
    if (!row.constraint->tool() && !(row.constraint->compliance() > 0.0)) shortest = std::min(shortest, row.scale);
  const double stretch = (weight + solver.mouse_force_cap * heaviest) / (settings.stiffness * shortest);
  return std::max(cli::kFailedViolation, std::isfinite(stretch) ? 3.0 * stretch : 0.0);
}

// Each trail gets the particle's position after a step, and keeps its last `max_points`.
void extend_trails(std::vector<Trail>& trails, const World& world, int max_points) {
  for (Trail& trail : trails) {
    trail.points.push_back(world.state().position[trail.particle]);
    while (static_cast<int>(trail.points.size()) > max_points) trail.points.pop_front();
  }
}

// What the plots keep of a step.
Sample sample_of(const World& world) {
  const StepStats& stats = world.stats();
  Sample sample;
  sample.time = world.time();
  sample.kinetic = stats.energy.kinetic;
  sample.potential = stats.energy.potential;
  sample.total = stats.energy.total();
  sample.violation = stats.max_violation;
  sample.velocity_violation = stats.max_velocity_violation;
  sample.iterations = stats.iterations;
  sample.solve_ms = stats.solve_seconds * 1e3;
  return sample;
}

}  // namespace

void Sandbox::take_screenshot(const Image& image) {
  const std::filesystem::path file = timestamped_path(state_.screenshot_dir, state_.scene.name);
  const std::string error = write_png(image, file);
  if (!error.empty()) {
    state_.notice = "Screenshot failed: " + error;
    state_.show_toast(state_.notice, true);
    return;
  }
  deliver_file(file, "Saved " + file.string());
}

// The one way out for every file the window writes (sandbox_app.h).
void Sandbox::deliver_file(const std::filesystem::path& file, const std::string& notice, const std::string& detail) {
  if (!state_.downloads) {  // the desktop: the file stays where it was written, the message says where
    state_.notice = notice;
    state_.show_toast(state_.notice, false);
    return;
  }
  const std::string name = file.filename().string();
  const std::string error = platform_->deliver_file(file);
  if (error.empty()) state_.notice = "Downloaded " + name + (detail.empty() ? "" : " (" + detail + ")");
  else state_.notice = "Could not download " + name + ": " + error;
  state_.show_toast(state_.notice, !error.empty());
}

std::filesystem::path find_assets_dir() {
  std::error_code error;
  const std::filesystem::path configured = LAGRANGE_ASSETS_DIR;
  if (std::filesystem::is_directory(configured, error)) return configured;
  if (char* base = SDL_GetBasePath()) {
    const std::filesystem::path exe_dir = base;
    SDL_free(base);
    for (const char* relative : {"assets", "../assets", "../../assets", "../share/lagrange-lab/assets"})
      if (std::filesystem::is_directory(exe_dir / relative, error)) return std::filesystem::weakly_canonical(exe_dir / relative);
  }
  return "assets";
}

Sandbox::Sandbox(const SandboxOptions& options) {
  platform_ = std::make_unique<Platform>(WindowOptions{"Lagrange Lab", options.width, options.height, options.hidden,
                                                       options.vsync});
  renderer_ = std::make_unique<Renderer>();
  state_.renderer_name = platform_->renderer_name();
  // Multisampling costs a software rasterizer more than the whole scene; the shaders antialias edges themselves.
  const bool software = state_.renderer_name.find("llvmpipe") != std::string::npos ||
                        state_.renderer_name.find("softpipe") != std::string::npos ||
                        state_.renderer_name.find("SwiftShader") != std::string::npos;
  state_.view.msaa = software ? 0 : 4;
  software_ = software;
  hidpi_scale_ = platform_->ui_scale();
  config_file_ = options.config_file;

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // same layout every start: a class sees what the docs show
  state_.appearance = options.appearance;
  apply_appearance();  // before the backend: it uploads this atlas on its first frame
  ImGui_ImplSDL2_InitForOpenGL(platform_->window(), platform_->context());
  ImGui_ImplOpenGL3_Init(platform_->glsl_version());
  imgui_ready_ = true;

  state_.assets_dir = find_assets_dir();
  refresh_scene_files(state_);
  state_.downloads = platform_->files_download();
  state_.scene_picker = platform_->has_scene_picker();
  state_.screenshot_dir = default_screenshot_dir();
  state_.save_dir = default_scene_dir();
  // A world exists before the first scene loads, so every accessor is valid.
  Scene empty;
  empty.name = "Empty";
  start_scene(empty, {});
}

Sandbox::~Sandbox() {
  if (recorder_) {  // the window closed while recording: the video is kept
    stop_recording("The window closed while recording. ");
    std::fprintf(stderr, "lagrange-lab: %s\n", state_.notice.c_str());
  }
  if (imgui_ready_) {
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplSDL2_Shutdown();
    ImGui::DestroyContext();
  }
  renderer_.reset();
}

void Sandbox::open_scene(Scene scene, const std::filesystem::path& path) {
  start_scene(std::move(scene), path);
  ++state_.scene_openings;
  state_.scene_error.clear();
  // The field shows the path as short as it can: relative to the working folder when the file lies under it.
  std::error_code error;
  const std::filesystem::path here = std::filesystem::current_path(error);
  const std::filesystem::path relative = error ? path : path.lexically_proximate(here);
  state_.open_path = !relative.empty() && !relative.string().starts_with("..") ? relative.string() : path.string();
}

std::string Sandbox::load_scene(const std::filesystem::path& path) {
  try {
    open_scene(load_scene_file(path), path);
    if (const std::string note = overlap_note(state_.world().model(), state_.world().state()); !note.empty())
      state_.show_toast("Note: " + note, false);
    return {};
  } catch (const std::exception& error) {  // SceneError, or lagrange::Error from building the world
    state_.scene_error = error.what();
    state_.show_toast("Could not open the scene: " + state_.scene_error, true);
    return state_.scene_error;
  }
}

std::string Sandbox::set_scene(const Scene& scene) {
  try {
    start_scene(scene, {});
    ++state_.scene_openings;
    state_.scene_error.clear();
    return {};
  } catch (const std::exception& error) {
    state_.scene_error = error.what();
    return state_.scene_error;
  }
}

void Sandbox::start_scene(Scene scene, const std::filesystem::path& path, bool reframe) {
  World world = make_world(scene);  // throws before anything changes
  end_drag();
  std::vector<LaneSpec> specs = state_.lane_specs();
  specs.erase(specs.begin());  // the later lanes come back on the new scene
  start_simulation(std::move(world));
  state_.scene = std::move(scene);
  state_.scene_path = path;
  state_.edit = state_.world().settings();
  state_.settings_error.clear();
  state_.camera.perspective = state_.world().dimension() == 3;
  state_.length_scale = typical_length(state_.world());
  state_.hover = {};
  const Model& p = state_.world().model();
  // Trail the last free particle of small scenes (the tip of a pendulum); larger scenes start without trails.
  if (p.particle_count() <= 64)
    for (int i = static_cast<int>(p.particle_count()) - 1; i >= 0; --i)
      if (!p.fixed(i)) {
        state_.displays[0].trails.push_back({i, {}});
        break;
      }
  glm::dvec3 lo, hi;
  reach_bounds(state_.world(), lo, hi);
  state_.ground_y = lo.y - 0.05 * glm::length(hi - lo);
  state_.force_scale = 1e-9;
  measure_scene_started(state_.measure, state_.world());
  state_.accumulator = 0.0;
  for (const LaneSpec& spec : specs) add_lane(spec);  // the same lanes on the new scene, from its start
  state_.timeline.clear();
  record_snapshot();  // t = 0: the first moment to scrub back to
  SDL_SetWindowTitle(platform_->window(), ("Lagrange Lab \xe2\x80\x94 " + state_.scene.name).c_str());
  state_.bead_radius = bead_radius(state_.world());
  radii_ = display_radii(state_.scene, state_.world(), state_.view.size_by_mass, state_.bead_radius);
  if (reframe) frame_scene();
}

void Sandbox::update_viewport() {
  int w, h;
  platform_->drawable_size(w, h);
  state_.window_width = w;
  state_.window_height = h;
  state_.pixel_ratio = platform_->pixel_ratio();
  const auto views = lane_viewports(state_);  // split lane views: each lane's camera gets its own
  for (std::size_t k = 0; k < views.size(); ++k)
    state_.view_camera(k).set_viewport(views[k][0], views[k][1], views[k][2], views[k][3]);
}

void Sandbox::frame_scene() {
  update_viewport();  // the free middle between the panels: the scene is framed into it
  const auto views = lane_viewports(state_);
  // Side by side the lanes share one scale, so the legend goes where it costs them least: in the last view, in a band
  // under every view, or (costing more than a fifth of the scale either way: a cramped window) nowhere.
  state_.legend_place = SandboxState::LegendPlace::View;
  if (views.size() > 1 && state_.view.legend && !state_.view.presentation && !state_.editor.active) {
    // Pixels per metre of the most zoomed-out lane compared, each framed beside its overlays.
    const auto common_scale = [&] {
      double scale = INFINITY;
      for (std::size_t k = 0; k < views.size(); ++k) {
        if (!lane_in_scale(state_, k)) continue;
        glm::dvec3 lo, hi;
        view_reach(state_, k, lo, hi);
        const double pad = std::max(state_.length_scale * 0.3, 0.06 * glm::length(hi - lo));
        const double w = hi.x - lo.x + 2.0 * pad, h = std::max(hi.y - lo.y + 2.0 * pad, 1e-9);
        const std::array<int, 4> free = framing_rect(state_, k, std::max(w, 1e-9) / h);
        scale = std::min(scale, std::min(free[2] / std::max(w, 1e-9), free[3] / h));
      }
      return scale;
    };
    using Place = SandboxState::LegendPlace;
    double best = -1.0, with_legend = -1.0;
    Place chosen = Place::View;
    for (const Place place : {Place::View, Place::Band}) {
      state_.legend_place = place;
      if (const double scale = common_scale(); scale > best * 1.001) {
        best = with_legend = scale;
        chosen = place;
      }
    }
    state_.legend_place = Place::None;
    if (common_scale() > 1.25 * with_legend) chosen = Place::None;
    state_.legend_place = chosen;
  }
  for (std::size_t k = 0; k < views.size(); ++k) {
    // Each view on its own lane's reach (side by side: a lane that drifted or blew up is framed on its own).
    const World& world = state_.lane_world(views.size() > 1 ? k : 0);
    Camera& camera = state_.view_camera(k);
    glm::dvec3 lo, hi;
    view_reach(state_, k, lo, hi);
    // A margin of a third of a rod, and at least 6 % of the scene (beads on wires have no rods to measure).
    const double pad = std::max(state_.length_scale * 0.3, 0.06 * glm::length(hi - lo));
    camera.perspective = world.dimension() == 3;
    if (camera.perspective) {
      camera.yaw = 0.6;
      camera.pitch = 0.35;
    }
    lo -= glm::dvec3(pad);
    hi += glm::dvec3(pad);
    // How wide the reach looks against how tall: what the overlays' corners are chosen for (scene_overlays.cpp).
    double aspect = std::max(hi.x - lo.x, 1e-9) / std::max(hi.y - lo.y, 1e-9);
    if (camera.perspective) {
      Camera trial = camera;
      trial.frame(lo, hi);
      glm::dvec2 a(1e300), b(-1e300);
      for (int corner = 0; corner < 8; ++corner)
        if (const auto p = trial.project({(corner & 1) ? hi.x : lo.x, (corner & 2) ? hi.y : lo.y,
                                          (corner & 4) ? hi.z : lo.z})) {
          a = glm::min(a, glm::dvec2(*p));
          b = glm::max(b, glm::dvec2(*p));
        }
      if (b.x > a.x && b.y > a.y) aspect = (b.x - a.x) / (b.y - a.y);
    }
    const std::array<int, 4> free = framing_rect(state_, k, aspect);
    camera.frame_into(lo, hi, free[0], free[1], free[2], free[3]);
  }
  // Side by side, the lanes are compared at one scale: every lane whose reach is within twice lane 1's is drawn with
  // the pixels per metre of the most zoomed-out of them (each still centred on its own reach). A lane that drifted
  // far or blew up keeps its own framing and never shrinks lane 1.
  if (views.size() > 1 && !state_.camera.perspective) {
    double units = 0.0;  // metres per pixel, the largest of the lanes compared
    for (std::size_t k = 0; k < views.size(); ++k)
      if (lane_in_scale(state_, k)) units = std::max(units, state_.view_camera(k).half_height / views[k][3]);
    for (std::size_t k = 0; k < views.size(); ++k)
      if (lane_in_scale(state_, k)) state_.view_camera(k).half_height = units * views[k][3];
  }
  if (state_.step_view.active) {  // the frozen substep beside its panel, clear of the top line
    glm::dvec3 lo, hi;
    step_view_bounds(state_, lo, hi);
    frame_step_view(state_, framing_rect(state_, 0, std::max(hi.x - lo.x, 1e-9) / std::max(hi.y - lo.y, 1e-9)));
  }
  views_ = views;  // framed for these views and overlays: check_layout frames again when they change
  overlays_ = overlay_signature();
}

// What the overlays' sizes depend on most (a lane added or stopped, the legend shown, Edit mode): a change frames the
// scene again, so that no overlay lands on it. Smaller changes (a number's digits, the rod colouring's legend) only
// move the overlays to a free corner.
std::vector<double> Sandbox::overlay_signature() const {
  double running = 0.0;
  for (const SimLane& lane : state_.sim.lanes()) running += lane.running() ? 1.0 : 0.0;
  return {running, static_cast<double>(state_.lane_count()), static_cast<double>(state_.lane_view == LaneView::Split),
          static_cast<double>(state_.view.legend), static_cast<double>(state_.view.presentation),
          static_cast<double>(state_.editor.active), static_cast<double>(state_.view.panels), state_.ui_scale};
}

// --- stepping -------------------------------------------------------------------------------------------------------

void Sandbox::apply_commands() {
  std::vector<Command> commands;
  commands.swap(state_.commands);
  for (const Command& command : commands) apply(command);
}

// Edit mode: time does not run; Save writes the draft, Open edits the file opened. True when the command was
// handled here (or is meaningless while editing); false to apply it as usual.
bool Sandbox::apply_while_editing(const Command& command) {
  EditorState& editor = state_.editor;
  switch (command.kind) {
    case Command::Kind::TogglePause:
    case Command::Kind::ToggleEdit: leave_edit(); return true;
    case Command::Kind::StepOnce:
    case Command::Kind::StepBack:
    case Command::Kind::Scrub:
    case Command::Kind::Reset:
    case Command::Kind::AddLane:
    case Command::Kind::RemoveLane:
    case Command::Kind::SetLane:
    case Command::Kind::ExportCsv:
    case Command::Kind::RestoreSceneSettings: return true;
    case Command::Kind::SaveScene: save_draft(command.path); return true;
    case Command::Kind::ExportScale: return true;
    case Command::Kind::SetContacts:  // the draft's coefficients, one undo step
      editor.change(command.index == 0 ? "restitution" : "friction", [&](Scene& draft) {
        if (!draft.contacts.given) draft.contacts.particles = false;
        draft.contacts.given = true;
        (command.index == 0 ? draft.contacts.restitution : draft.contacts.friction) = command.value;
      });
      return true;
    case Command::Kind::LoadScene:
      try {
        Scene opened = load_scene_file(command.path);
        opened.state.reset();
        editor.change("open " + std::filesystem::path(command.path).filename().string(),
                      [&](Scene& draft) { draft = std::move(opened); });
        editor.document = std::filesystem::path(command.path);
        if (editor.document.parent_path() == state_.assets_dir || state_.assets_dir.empty()) editor.document.clear();
        editor.selected.clear();
        editor.constraint = -1;
        show_draft();
        frame_scene();
      } catch (const std::exception& error) {
        state_.show_toast(std::string("Could not open the scene: ") + error.what(), true);
      }
      return true;
    default: return false;  // ApplySettings among them: the draft takes the settings too
  }
}

void Sandbox::apply_settings(const Settings& settings) {
  const std::string solver = state_.world().settings().solver;
  try {
    state_.world().set_settings(settings);
    state_.settings_error.clear();
  } catch (const std::exception& error) {
    state_.settings_error = error.what();
  }
  // A switch settles the state onto the rows (World::set_settings); what it could not settle is not kept.
  if (state_.world().settings().solver != solver)
    keep_if_sound(("switching to " + std::string(state_.world().solver_info().name)).c_str());
  state_.edit = state_.world().settings();
  if (state_.editor.active) state_.editor.draft.settings = state_.world().settings();
  for (std::size_t k = 1; k < state_.lane_count(); ++k) {  // a lane is lane 1's settings with its own on top
    SimLane& lane = state_.sim.lane(k);
    try {
      lane.world.set_settings(lane_settings(state_.world().settings(), lane.spec));
    } catch (const std::exception& error) {
      lane.stopped = error.what();
    }
  }
}

// A scene with obstacles only ("contacts" not given) keeps its particles apart from each other: given now, with
// particle contacts off. A refused value (the engine's check) shows its message and changes nothing.
void Sandbox::set_contacts(int which, double value) {
  ContactSettings contacts = state_.world().model().contacts();
  if (!contacts.given) contacts.particles = false;
  contacts.given = true;
  (which == 0 ? contacts.restitution : contacts.friction) = value;
  try {
    for (std::size_t k = 0; k < state_.lane_count(); ++k) state_.sim.lane(k).world.model().set_contacts(contacts);
    state_.scene.contacts = contacts;  // Reset and Save keep it, as they keep the settings
    state_.settings_error.clear();
  } catch (const std::exception& error) {
    state_.settings_error = error.what();
  }
}

// The lane "+ lane" (L) adds: the next solver of the table that no lane uses yet, of the other family first:
// against a position-level lane 1 (projection) the acceleration level, whose drift is the lesson, then the stiff
// springs.
LaneSpec Sandbox::next_lane_spec() const {
  const std::vector<LaneSpec> used = state_.lane_specs();
  const bool position_level = state_.world().solver_info().implicit_compliance;
  LaneSpec spec;
  spec.solver = state_.world().settings().solver;
  for (const bool other_family : {true, false})
    for (const SolverInfo& info : solver_table())
      if ((info.implicit_compliance != position_level) == other_family &&
          std::none_of(used.begin(), used.end(), [&](const LaneSpec& l) { return l.solver == info.id; })) {
        spec.solver = info.id;
        return spec;
      }
  return spec;
}

// AddLane: `text` is the lane's spec, or "" for the next one.
void Sandbox::add_lane_from(const std::string& text) {
  if (state_.lane_count() >= static_cast<std::size_t>(kMaxLanes)) {
    state_.show_toast("At most " + std::to_string(kMaxLanes) + " lanes: remove one first (Ctrl+L)", true);
    return;
  }
  if (text.empty()) {
    add_lane(next_lane_spec());
    return;
  }
  LaneSpec spec;
  try {
    const std::vector<LaneSpec> parsed = parse_lanes(text, static_cast<int>(state_.lane_count()) + 1);
    if (parsed.size() != 1) throw Error("one lane at a time");
    spec = parsed[0];
  } catch (const std::exception& error) {
    state_.show_toast(std::string("Could not add the lane: ") + error.what(), true);
    return;
  }
  add_lane(spec);
}

// RemoveLane: lane `number` (2.., −1 the last).
void Sandbox::remove_lane(int number) {
  const int k = number < 0 ? static_cast<int>(state_.lane_count()) : number;
  if (k < 2 || k > static_cast<int>(state_.lane_count())) return;
  state_.sim.remove_lane(static_cast<std::size_t>(k - 1));
  state_.displays.erase(state_.displays.begin() + (k - 1));
  state_.timeline.clear();
  record_snapshot();
}

// SetLane: lane `number` (2..) restarts from lane 1's state with the spec `text`.
void Sandbox::set_lane(int number, const std::string& text) {
  if (number < 2 || number > static_cast<int>(state_.lane_count())) return;
  try {
    const std::vector<LaneSpec> parsed = parse_lanes(text, number);
    if (parsed.size() != 1) throw Error("one lane at a time");
    restart_lane(static_cast<std::size_t>(number - 1), parsed[0]);
  } catch (const std::exception& error) {
    state_.show_toast(error.what(), true);
  }
}

// Reset: the scene again from its start, with the user's settings, camera and trailed particles kept.
void Sandbox::reset_scene() {
  Scene scene = state_.scene;
  const Settings from_file = scene.settings;
  scene.settings = state_.world().settings();  // a reset restarts the motion, not the user's choices
  const std::filesystem::path path = state_.scene_path;
  std::vector<int> trailed;
  for (const Trail& t : state_.displays[0].trails) trailed.push_back(t.particle);
  const Camera camera = state_.camera;
  try {
    start_scene(scene, path);
    state_.scene.settings = from_file;
  } catch (const std::exception& error) {
    state_.scene_error = error.what();
  }
  state_.camera = camera;
  state_.displays[0].trails.clear();
  for (int id : trailed) state_.displays[0].trails.push_back({id, {}});
  sync_lane_trails();
}

// StepOnce: in the past, one snapshot forward while there is one (a replay); then live steps.
void Sandbox::step_once() {
  if (const auto at = state_.timeline.cursor(); at && *at + 1 < state_.timeline.size()) {
    show_snapshot(*at + 1);
    return;
  }
  resume_from_snapshot();
  state_.paused = true;
  step_world();
}

void Sandbox::step_back() {
  const Timeline& timeline = state_.timeline;
  if (timeline.size() < 2) return;
  const std::size_t now = timeline.cursor().value_or(timeline.size() - 1);
  show_snapshot(now > 0 ? now - 1 : 0);
}

void Sandbox::apply(const Command& command) {
  EditorState& editor = state_.editor;
  // Play, a step or Reset, however asked for (a key or a click already did): the roll-back's message was read.
  if (command.kind == Command::Kind::TogglePause || command.kind == Command::Kind::StepOnce ||
      command.kind == Command::Kind::Reset)
    state_.alert.clear();
  if (editor.active && apply_while_editing(command)) return;
  switch (command.kind) {
    case Command::Kind::ApplySettings: apply_settings(command.settings); break;
    case Command::Kind::AddLane: add_lane_from(command.path); break;
    case Command::Kind::RemoveLane: remove_lane(command.index); break;
    case Command::Kind::SetLane: set_lane(command.index, command.path); break;
    case Command::Kind::Reset: reset_scene(); break;
    case Command::Kind::RestoreSceneSettings: apply(Command::apply_settings(state_.scene.settings)); break;
    case Command::Kind::LoadScene: load_scene(command.path); break;
    case Command::Kind::StepOnce: step_once(); break;
    case Command::Kind::TogglePause:
      state_.paused = !state_.paused;
      state_.accumulator = 0.0;
      if (!state_.paused) resume_from_snapshot();
      break;
    case Command::Kind::ExportCsv: export_csv(command.path); break;
    case Command::Kind::ExportTable: {  // the Measure strip's table (measurement_table.h), never over the scene file
      const MeasurementTable& table = state_.measure.table;
      const std::string path = !command.path.empty() ? command.path
                                                     : timestamped_path(state_.save_dir, state_.scene.name + " periods",
                                                                        ".csv").string();
      if (const std::string error = write_table_csv(table, path, state_.scene_path); !error.empty()) {
        state_.notice = "Could not export the table: " + error;
        state_.show_toast(state_.notice, true);
      } else {
        const std::string rows = std::to_string(table.rows.size()) + (table.rows.size() == 1 ? " row" : " rows");
        deliver_file(path, "Exported the table of periods (" + rows + ") to " + path, "the table, " + rows);
      }
      break;
    }
    case Command::Kind::ExportScale: {  // the Measure strip's scale (force_scale.h), never over the scene file
      const ForceScale& scale = state_.measure.scale;
      const std::string path = !command.path.empty() ? command.path
                                                     : timestamped_path(state_.save_dir, state_.scene.name + " scale",
                                                                        ".csv").string();
      if (const std::string error = write_scale_csv(scale, state_.world(), path, state_.scene_path); !error.empty()) {
        state_.notice = "Could not export the scale: " + error;
        state_.show_toast(state_.notice, true);
      } else {
        const std::string rows = std::to_string(scale.samples.size()) + " samples";
        deliver_file(path, "Exported the scale (" + rows + ") to " + path, "the scale, " + rows);
      }
      break;
    }
    case Command::Kind::SetContacts: set_contacts(command.index, command.value); break;
    case Command::Kind::Scrub:
      if (command.index >= 0) show_snapshot(static_cast<std::size_t>(command.index));
      break;
    case Command::Kind::StepBack: step_back(); break;
    case Command::Kind::Screenshot: screenshot_request_ = !command.flag; break;
    case Command::Kind::ToggleRecording: toggle_recording(); break;
    case Command::Kind::PickSceneFile:
      if (!platform_->pick_scene_file()) state_.show_toast("No file picker here: open a scene by its path", true);
      break;
    case Command::Kind::FrameScene: frame_scene(); break;
    case Command::Kind::ClearTrails:
      for (LaneDisplay& display : state_.displays)
        for (Trail& trail : display.trails) trail.points.clear();
      break;
    case Command::Kind::SaveScene: save_scene(command.path); break;
    case Command::Kind::ToggleEdit: enter_edit(); break;
    case Command::Kind::EditNew:
      if (!editor.active) enter_edit();
      new_draft(command.index == 3 ? 3 : 2);
      break;
    case Command::Kind::Undo:
      if (editor.active) editor.undo_last();
      break;
    case Command::Kind::Redo:
      if (editor.active) editor.redo_last();
      break;
    case Command::Kind::DeleteSelection:
      if (editor.active) delete_selection();
      break;
  }
}

// The scene as it is now (settings, positions, velocities, time, forces: write_scene) to a file: complete or not
// at all (io::OutputFile), never over the file the scene was opened from.
void Sandbox::save_scene(std::string path) {
  if (state_.dragging()) end_drag();  // the hand is not part of the scene
  if (path.empty())
    path = !state_.saved_path.empty() ? state_.saved_path.string()
                                      : timestamped_path(state_.save_dir, state_.scene.name, ".json").string();
  try {
    if (!state_.scene_path.empty()) io::refuse_same_file(state_.scene_path.string(), path);
    if (std::string folder = make_parent_folder(path); !folder.empty()) throw io::OutputError(folder);
    const std::string error = io::write_file(path, write_scene(scene_of(state_.world(), &state_.scene)));
    if (!error.empty()) throw io::OutputError(error);
    state_.saved_path = path;
    char time[32];
    std::snprintf(time, sizeof time, "%.3f", state_.world().time());
    deliver_file(path, "Saved the scene at t = " + std::string(time) + " s to " + path,
                 "the scene at t = " + std::string(time) + " s");
  } catch (const std::exception& error) {
    state_.notice = std::string("Could not save: ") + error.what();
    state_.show_toast(state_.notice, true);
  }
}

// One step of every lane through the simulation (simulation.h): lane 1, then each later lane to lane 1's time. A step
// of lane 1 that throws pauses with the reason; one that leaves lane 1 unsound (beyond sound_violation, or run away)
// ends the step before the later lanes take it and is rolled back (roll_back). A later lane that throws or runs away
// stops where it was, with the reason shown in its colour; the other lanes go on.
void Sandbox::step_world() {
  World& world = state_.world();
  state_.sim.set_drag_settings(state_.drag_settings());  // the panel may have changed the model or the stiffness
  SimulationStep step;
  try {
    step = state_.sim.step();
  } catch (const std::exception& error) {
    if (dynamic_cast<const std::bad_alloc*>(&error)) out_of_memory_ = true;
    state_.settings_error = error.what();
    state_.paused = true;
    return;
  }
  if (step.out_of_memory) out_of_memory_ = true;
  if (step.failed_lane == 0) {
    char what[160];
    std::snprintf(what, sizeof what, "the step to t = %.3f s with %s", world.time(), world.solver_info().name);
    roll_back(step.failure, what);
    return;
  }
  sound_ = world.state();
  record_step();
  measure_after_step(state_.measure, world);
  record_snapshot(true);
}

void Sandbox::record_snapshot(bool stepped) {
  // Right after a step the worlds' statistics hold these measurements already (the plots read them); otherwise
  // (a scene started, a lane changed, a state shown from the past) they are measured here. A lane that stopped was
  // rolled back, so its statistics are not its state's.
  const auto measured = [stepped](const World& world, bool running) -> Measured {
    if (stepped && running) return {world.stats().energy, world.stats().max_violation};
    return {world.energy(), world.max_violation()};
  };
  Snapshot snapshot;
  for (const SimLane& lane : state_.sim.lanes()) {
    snapshot.lanes.push_back(lane.world.state());
    snapshot.measured.push_back(measured(lane.world, lane.running()));
  }
  state_.timeline.record(std::move(snapshot));
}

// The timeline as a CSV, the columns of `run --csv` (with --lanes: lane and solver in front): one row per lane and
// snapshot, oldest first, complete or not at all, never over the scene file.
void Sandbox::export_csv(std::string path) {
  const Timeline& timeline = state_.timeline;
  if (path.empty()) path = timestamped_path(state_.save_dir, state_.scene.name, ".csv").string();
  try {
    if (timeline.empty()) throw io::OutputError("nothing to export yet");
    if (!state_.scene_path.empty()) io::refuse_same_file(state_.scene_path.string(), path);
    if (std::string folder = make_parent_folder(path); !folder.empty()) throw io::OutputError(folder);
    const bool lanes = state_.lane_count() > 1;
    const std::vector<LaneSpec> specs = state_.lane_specs();
    io::OutputFile out(path);
    io::write_trajectory_header(out, state_.world().particle_count(), lanes);
    std::vector<std::string> prefixes;
    for (std::size_t k = 0; k < specs.size(); ++k)
      prefixes.push_back(lanes ? io::lane_prefix(static_cast<int>(k) + 1, specs[k].solver) : "");
    std::string line;
    for (std::size_t i = 0; i < timeline.size(); ++i) {
      const Snapshot& s = timeline.at(i);
      for (std::size_t k = 0; k < s.lanes.size() && k < specs.size(); ++k)
        io::write_trajectory_row(out, line, prefixes[k], s.lanes[k], s.measured[k].energy, s.measured[k].violation);
    }
    out.finish();
    out.commit();
    char text[64];
    std::snprintf(text, sizeof text, "%.3f to %.3f s", timeline.at(0).time(), timeline.back().time());
    const std::string steps = std::to_string(timeline.size()) + " steps";
    deliver_file(path, "Exported " + std::string(text) + " (" + steps + ") to " + path,
                 std::string(text) + ", " + steps);
  } catch (const std::exception& error) {
    state_.notice = std::string("Could not export: ") + error.what();
    state_.show_toast(state_.notice, true);
  }
}

// Shows snapshot i: every lane's state as it was then (the same model: the hand's pin, the only row that comes and
// goes, is let go first, and a row force it left is dropped). Paused; the later history stays until play resumes.
void Sandbox::show_snapshot(std::size_t i) {
  Timeline& timeline = state_.timeline;
  if (timeline.empty()) return;
  if (state_.dragging()) end_drag();
  state_.paused = true;
  state_.accumulator = 0.0;
  timeline.set_cursor(i);
  const Snapshot& snapshot = timeline.at(*timeline.cursor());
  for (std::size_t k = 0; k < state_.lane_count() && k < snapshot.lanes.size(); ++k)
    state_.sim.world(k).restore(snapshot.lanes[k]);
  sound_ = state_.world().state();  // a step from here that fails comes back here, not to the later history
  for (LaneDisplay& display : state_.displays)
    for (Trail& trail : display.trails) trail.points.clear();
  measure_state_moved(state_.measure, state_.world());
}

// Play, a step or a drag from a snapshot: the history after it is dropped (and the plots after its time), and the
// run goes on from it.
void Sandbox::resume_from_snapshot() {
  if (!state_.timeline.cursor()) return;
  state_.timeline.resume();
  const double t = state_.world().time();
  for (LaneDisplay& display : state_.displays) display.history.drop_after(t);
}

// Every lane trails the particles lane 1 trails (a trail kept where it already exists).
void Sandbox::sync_lane_trails() {
  const std::vector<Trail>& wanted_trails = state_.displays[0].trails;
  for (std::size_t k = 1; k < state_.displays.size(); ++k) {
    std::vector<Trail>& own = state_.displays[k].trails;
    std::vector<Trail> trails;
    for (const Trail& wanted : wanted_trails) {
      const auto it = std::find_if(own.begin(), own.end(), [&](const Trail& t) { return t.particle == wanted.particle; });
      trails.push_back(it != own.end() ? std::move(*it) : Trail{wanted.particle, {}});
    }
    own = std::move(trails);
  }
}

// The simulation of a new scene: lane 1 alone, under the window's rules for a failed step (start_scene).
void Sandbox::start_simulation(World world) {
  state_.sim.restart(std::move(world));  // lane 1 stays the same object: references to it stay valid
  sound_ = state_.world().state();        // the start is sound by definition: there is nothing earlier to go back to
  state_.alert.clear();
  rolled_back_.clear();
  SimulationRules& rules = state_.sim.rules();
  // Lane 1 must stay sound (its step is rolled back to the last sound state); a later lane stops only when it runs
  // away, so a drifting lane beside it shows its drift as long as it has one.
  rules.failed = [this](std::size_t k, const SimLane& lane) {
    if (k == 0) return unsound(lane.world);
    return ran_away(lane.world) ? std::string("blew up") : std::string();
  };
  rules.stop_all = false;
  rules.catch_lane_errors = true;
  rules.max_catch_up = kLaneCatchUpSteps;
  state_.displays.clear();
  state_.displays.emplace_back();
}

// A lane is lane 1 as it is now, with the lane's settings: added, or restarted after its settings changed.
void Sandbox::add_lane(const LaneSpec& spec) {
  if (state_.dragging()) end_drag();  // lane 1's world holds the hand's pin while dragged: no copy of it
  try {
    state_.sim.add_lane(spec);
  } catch (const std::exception& error) {
    state_.show_toast("Could not start the lane " + spec.display_name() + ": " + error.what(), true);
    return;
  }
  state_.displays.emplace_back();
  start_lane_display(state_.lane_count() - 1);
  state_.timeline.clear();  // a snapshot holds every lane: the history starts again with the new one
  record_snapshot();
}

void Sandbox::restart_lane(std::size_t k, const LaneSpec& spec) {
  if (state_.dragging()) end_drag();  // lane 1's world holds the hand's pin while dragged: no copy of it
  try {
    state_.sim.restart_lane(k, spec);
  } catch (const std::exception& error) {
    state_.show_toast("Could not start the lane " + spec.display_name() + ": " + error.what(), true);
    return;
  }
  start_lane_display(k);
  state_.timeline.clear();
  record_snapshot();
}

// Lane k's plots and trails start empty (trailing what lane 1 trails), its settings field shows its own settings.
void Sandbox::start_lane_display(std::size_t k) {
  LaneDisplay& display = state_.displays[k];
  display.history.clear();
  display.trails.clear();
  for (const Trail& trail : state_.displays[0].trails) display.trails.push_back({trail.particle, {}});
  std::string sets;
  for (const auto& [key, value] : state_.sim.lane(k).spec.sets) sets += (sets.empty() ? "" : " ") + key + "=" + value;
  display.settings_field.fill('\0');
  sets.copy(display.settings_field.data(), display.settings_field.size() - 1);
}

// Why lane 1's state is not sound, or "" when it is: it ran away (penalty springs too stiff for Δt grow ×10¹⁰ a
// step until the energy overflows; the engine only rolls back NaN and infinite positions), or its rods are off by
// more than its solver keeps to (sound_violation).
std::string Sandbox::unsound(const World& world) const {
  if (ran_away(world)) return "ran away (energy or positions beyond 1e9)";
  const double violation = world.stats().max_relative_violation, bound = sound_violation(world);
  if (violation <= bound) return {};
  char text[160];
  std::snprintf(text, sizeof text, "left rods off by %.3g of their length (sound: at most %.3g)", violation, bound);
  return text;
}

// After a solver switch or a pose of lane 1: the state it left is kept as the last sound one, or rolled back.
void Sandbox::keep_if_sound(const char* what) {
  const std::string why = unsound(state_.world());
  if (why.empty()) sound_ = state_.world().state();
  else roll_back(why, what);
}

// Lane 1 back to its last sound state — positions, velocities, time, work and row forces, so the Diagnostics' drift
// and mouse work are that state's — with the hand let go and the simulation paused. The message stays until the user
// acts (a key, a click, Play, Reset): a toast that fades while the scene waits would leave nobody knowing why. The
// later lanes did not take the step that failed (Simulation::step ends at lane 1's failure), so they wait at its time.
void Sandbox::roll_back(const std::string& why, const char* what) {
  if (state_.dragging()) end_drag();
  World& world = state_.world();
  world.restore(sound_);
  state_.paused = true;
  state_.accumulator = 0.0;
  pose_pending_ = false;
  record_pose();
  char message[600];
  std::snprintf(message, sizeof message,
                "Rolled back to t = %.3f s, the last sound state, and paused: %s %s. A smaller \xce\x94t, more "
                "substeps or softer stiff springs keep it stable; R resets.",
                world.time(), what, why.c_str());
  state_.alert = message;
  rolled_back_ = std::string(what) + " " + why;
}

// What the plots and trails keep of a step, lane by lane (a stopped lane's stay where it stopped).
void Sandbox::record_step() {
  for (std::size_t k = 0; k < state_.lane_count(); ++k) {
    const SimLane& lane = state_.sim.lane(k);
    if (!lane.running()) continue;
    state_.displays[k].history.push(sample_of(lane.world));
    extend_trails(state_.displays[k].trails, lane.world, state_.view.trail_steps);
  }
}

void Sandbox::record_pose() {
  // A pose moves the scene without time passing: the trails and the Measure strip follow, the plots wait for the
  // next step.
  for (Trail& trail : state_.displays[0].trails)
    if (!trail.points.empty()) trail.points.back() = state_.world().state().position[trail.particle];
  measure_state_moved(state_.measure, state_.world());
}

void Sandbox::advance_steps(int steps) {
  apply_commands();
  for (int i = 0; i < steps; ++i) step_world();
}

void Sandbox::apply_appearance() {
  Appearance& wanted = state_.appearance;
  wanted.scale = std::isfinite(wanted.scale) ? std::clamp(wanted.scale, kMinUiScale, kMaxUiScale) : 1.0;
  if (wanted == applied_) return;
  const bool rescale = wanted.scale != applied_.scale;
  state_.ui_scale = hidpi_scale_ * wanted.scale;
  const float scale = static_cast<float>(state_.ui_scale);
  apply_imgui_style(wanted.theme, scale, software_);
  if (rescale) {
    // The atlas is rasterized again at the new size (sharp text, not a stretched bitmap) and uploaded again when the
    // backend already had it; otherwise the backend uploads it on its first frame.
    const bool uploaded = ImGui::GetIO().Fonts->TexID != ImTextureID{};
    if (uploaded) ImGui_ImplOpenGL3_DestroyFontsTexture();
    build_fonts(scale);
    if (uploaded) ImGui_ImplOpenGL3_CreateFontsTexture();
  }
  applied_ = wanted;
}

void Sandbox::frame(double wall_seconds) {
  const auto start = Clock::now();
  frame_start_ = start;
  // A theme or scale chosen in the last frame's panels: applied here, between frames, and remembered.
  if (state_.appearance != applied_) {
    const bool rescaled = state_.appearance.scale != applied_.scale;
    apply_appearance();
    if (!config_file_.empty()) {
      const std::string error = write_appearance(config_file_, state_.appearance);
      if (!error.empty()) state_.show_toast("Could not remember the display choice: " + error, true);
    }
    if (rescaled) frame_scene();  // the panels' widths changed: the scene is framed into the new middle
  }
  update_viewport();
  check_layout();
  // The step view shows the substep from the state it froze: a step, a reset, a drag or a pose since ends it.
  if (state_.step_view.active && (!step_view_current(state_) || state_.editor.active)) {
    close_step_view(state_);
    frame_scene();
  }

  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplSDL2_NewFrame();
  // Two frames within one tick of a coarse clock (a browser's reduced timer precision, headless timing) give the SDL
  // backend a zero frame time, which ImGui::NewFrame asserts against.
  if (ImGui::GetIO().DeltaTime <= 0.0f) ImGui::GetIO().DeltaTime = 1e-4f;
  // The pointer as the events say, in window units. The SDL backend reads it only while SDL says the window has
  // mouse or keyboard focus, which never happens on the offscreen driver (tests, `shot`) and not always under
  // Wayland; and on X11 it reads SDL's global mouse state, which SDL 2.26 refreshes only on XInput2 raw events, so
  // after a pointer jump by xdotool (no raw motion) it kept the old place and a click on a panel went to the scene.
  ImGuiIO& io = ImGui::GetIO();
  if (pointer_[0] >= 0 && mouse_.x >= 0.0) {
    io.MousePos = ImVec2(static_cast<float>(pointer_[0]), static_cast<float>(pointer_[1]));
    for (int b = 0; b < 3; ++b) io.MouseDown[b] = io.MouseDown[b] || buttons_down_[b];
  }
  ImGui::NewFrame();
  update_hover();
  draw_ui(state_);
  ImGui::Render();

  apply_commands();
  check_layout();  // a command that changed the views or their texts (a lane, Edit mode): framed before drawing
  if (state_.editor.active) {
    state_.editor.snap_step = grid_step(state_);
    if (state_.editor.dirty) show_draft();
  }
  if (pose_pending_ && state_.paused && state_.dragging()) {
    pose_pending_ = false;
    for (SimLane& lane : state_.sim.lanes())
      if (lane.drag.active()) pose_pending_ = !lane.drag.pose(lane.world, kPoseSeconds) || pose_pending_;
    record_pose();
    keep_if_sound("the pose");
  }
  state_.timing.steps_last_frame = 0;
  state_.timing.slowed = false;
  if (!state_.paused) {
    // A step that cannot finish in reasonable time (SHAKE on the cloth sweeps to its cap of 10^5 for seconds) stops
    // at the frame budget instead of freezing the window; `shot`, `run` and the tests set no deadline.
    for (SimLane& lane : state_.sim.lanes()) lane.world.set_deadline(start + std::chrono::milliseconds(250));
    const double dt = state_.world().settings().dt;
    state_.accumulator += std::min(wall_seconds, 0.25) * state_.time_scale;
    int steps = 0;
    while (state_.accumulator >= dt * (1.0 - 1e-9)) {
      if (steps == state_.max_steps_per_frame ||
          std::chrono::duration<double>(Clock::now() - start).count() > 0.1) {
        // Too slow for real time: drop the backlog and run slower instead of freezing.
        state_.timing.slowed = true;
        state_.accumulator = 0.0;
        break;
      }
      step_world();
      state_.accumulator -= dt;
      ++steps;
    }
    state_.accumulator = std::max(state_.accumulator, 0.0);
    state_.timing.steps_last_frame = steps;
    for (SimLane& lane : state_.sim.lanes()) lane.world.set_deadline(std::nullopt);
  }
  update_view_state(wall_seconds);
}

void Sandbox::check_layout() {
  const auto views = lane_viewports(state_);
  const bool moved = views != views_;
  if (!moved && overlay_signature() == overlays_) return;
  // The views moved or changed size (a window resized, a panel collapsed or opened, a lane added, V), or the texts
  // over them did: every view framed again into its new room.
  frame_scene();
  if (!moved) return;
  if (state_.dragging()) end_drag();
  gesture_ = Gesture::None;
  mouse_view_ = 0;
}

void Sandbox::update_hover() {
  state_.hover = {};
  if (state_.dragging() || gesture_ != Gesture::None || mouse_.x < 0.0) return;
  if (ImGui::GetIO().WantCaptureMouse || !mouse_camera().in_viewport(mouse_)) return;
  state_.hover = pick(view_world(), mouse_camera(), radii_, mouse_);
  if (&view_world() != &state_.world()) state_.hover.lane = mouse_view_;
  if (state_.hover.kind == Hover::Kind::Particle) ++state_.input_counts.particle_hover_frames;
  if (state_.hover.kind == Hover::Kind::Rod) ++state_.input_counts.rod_hover_frames;
}

void Sandbox::update_view_state(double wall_seconds) {
  const World& world = state_.world();
  state_.toast_seconds = std::max(state_.toast_seconds - wall_seconds, 0.0);
  radii_ = display_radii(state_.scene, world, state_.view.size_by_mass, state_.bead_radius);
  // Rod colour scale: jumps up to a new peak, eases down over a few seconds so colours stay readable.
  double peak = 0.0;
  const auto& forces = world.state().row_force;
  const auto constraints = world.constraints();
  for (std::size_t c = 0; c < constraints.size(); ++c) {
    const std::size_t r = static_cast<std::size_t>(world.model().row_offset(static_cast<int>(c)));
    if (is_rod(*constraints[c]) && r < forces.size()) peak = std::max(peak, std::abs(forces[r]));
  }
  if (peak > state_.force_scale) state_.force_scale = peak;
  else state_.force_scale += (peak - state_.force_scale) * (1.0 - std::exp(-wall_seconds / 2.0));
  // Floor: half the heaviest weight, so small or round-off forces do not look like a full load.
  const Model& model = world.model();
  double weight = 0.0;
  for (std::size_t i = 0; i < model.particle_count(); ++i)
    if (!model.fixed(i)) weight = std::max(weight, model.mass(i) * glm::length(world.settings().gravity));
  state_.force_scale = std::max(state_.force_scale, std::max(0.5 * weight, 1e-6));
  for (const Vec3& p : world.state().position)
    state_.ground_y = std::min(state_.ground_y, p.y - 0.05 * state_.length_scale);
}

// --- drawing --------------------------------------------------------------------------------------------------------

void Sandbox::render(bool with_panels) {
  update_viewport();
  const auto views = lane_viewports(state_);
  for (std::size_t k = 0; k < views.size(); ++k) {  // one view, or one per lane side by side (each its camera)
    build_draw_list(state_, radii_, draw_list_, static_cast<int>(k));
    if (k == 0 && state_.editor.active) add_editor_gizmos(draw_list_);
    else if (k == 0) add_measure_gizmos(state_, radii_, draw_list_);  // on lane 1, the world the tools measure
    if (k == 0 && state_.step_view.active) add_step_view(state_, radii_, draw_list_);
    Camera camera = state_.view_camera(k);
    camera.set_viewport(views[k][0], views[k][1], views[k][2], views[k][3]);
    renderer_->draw(draw_list_, camera, state_.view.msaa, state_.window_width, state_.window_height, k == 0);
  }
  if (screenshot_request_ && !*screenshot_request_) {
    screenshot_request_.reset();
    take_screenshot(read_pixels());
  }
  // The UI, and its foreground layer (the recording indicator) only after the screenshot and the video's frame.
  UiLayers ui(ImGui::GetDrawData());
  if (with_panels) ImGui_ImplOpenGL3_RenderDrawData(ui.under());
  if (screenshot_request_) {
    screenshot_request_.reset();
    take_screenshot(read_pixels());
  }
  capture_recording();
  if (with_panels && ui.over()->CmdListsCount > 0) ImGui_ImplOpenGL3_RenderDrawData(ui.over());
  glFinish();
  FrameTiming& timing = state_.timing;
  timing.frame_ms = std::chrono::duration<double, std::milli>(Clock::now() - frame_start_).count();
  timing.slowest_ms = std::max(timing.slowest_ms, timing.frame_ms);
  timing.recent.push_back(timing.frame_ms);
  if (timing.recent.size() > 120) timing.recent.pop_front();
  std::vector<double> sorted(timing.recent.begin(), timing.recent.end());
  std::nth_element(sorted.begin(), sorted.begin() + sorted.size() / 2, sorted.end());
  timing.median_ms = sorted[sorted.size() / 2];
}

void Sandbox::present() { platform_->swap(); }

Image Sandbox::read_pixels() const {
  int w, h;
  platform_->drawable_size(w, h);
  return read_framebuffer(w, h);
}

std::string Sandbox::save_screenshot(const std::filesystem::path& file) const { return write_png(read_pixels(), file); }

}  // namespace lagrange::app
