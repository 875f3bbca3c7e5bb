// Edit mode (key E): the Sandbox side of the scene editor. The draft (editor_state.h) is shown as the world after every
// edit, checked with the loader's own messages; the mouse adds, joins, selects and moves particles; Play starts the
// simulation from the draft. The edits are lagrange::edit's (scene_edit.h).
#include <SDL.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "capture/output_file.h"
#include "capture/screenshot_folder.h"
#include "lagrange/scene_edit.h"
#include "sandbox/sandbox_app.h"
#include "view/picking.h"
#include "view/scene_draw.h"

namespace lagrange::app {
namespace {

// A press that moves less than this many pixels before its release is a click.
constexpr double kClickPixels = 3.0;

bool inside(const std::filesystem::path& file, const std::filesystem::path& folder) {
  if (file.empty() || folder.empty()) return false;
  std::error_code error;
  const auto f = std::filesystem::weakly_canonical(file, error);
  const auto d = std::filesystem::weakly_canonical(folder, error);
  const std::string fs = f.string(), ds = d.string();
  return !ds.empty() && fs.size() > ds.size() && fs.compare(0, ds.size(), ds) == 0;
}

}  // namespace

void Sandbox::enter_edit() {
  EditorState& e = state_.editor;
  if (e.active) return;
  end_drag();
  e.was_paused = state_.paused;
  e.lanes = state_.lane_specs();
  e.lanes.erase(e.lanes.begin());  // the later lanes come back on Play
  while (state_.lane_count() > 1) state_.sim.remove_lane(state_.lane_count() - 1);
  state_.displays.resize(1);
  e.gesture = EditorState::Gesture::None;
  e.field = 0;  // a value typed after this is a step of its own
  e.active = true;
  e.dirty = true;
  state_.paused = true;
  state_.view.help = false;
  if (e.played_opening == state_.scene_openings) {
    // Back from playing the draft: the draft as it was built (where the motion started, not the pose it swung to),
    // its document, selection, undo and redo, so the next edit and Ctrl+Z go on from the last edit. Only the
    // settings are taken as they are now: a solver or dt chosen while it played is kept, as for any scene.
    e.draft.settings = state_.world().settings();
    state_.show_toast("Edit mode: the scene as you built it, " + std::to_string(e.undo.size()) +
                          " steps to undo (Ctrl+Z); E or Space plays",
                      false);
    return;
  }
  // The scene as it is now (positions and velocities as shown), as a new scene: no time, no saved forces.
  Scene draft = scene_of(state_.world(), &state_.scene);
  draft.state.reset();
  draft.source.clear();
  draft.settings = state_.world().settings();
  e.draft = std::move(draft);
  // Save writes back to the file the scene came from, unless it is a shipped scene (those stay as they are).
  e.document = inside(state_.scene_path, state_.assets_dir) ? std::filesystem::path() : state_.scene_path;
  e.selected.clear();
  e.constraint = -1;
  e.undo.clear();
  e.redo.clear();
  e.modified = false;
  state_.show_toast("Edit mode: build with the mouse (1 Select, 2 Particle, 3 Rod, 4-7 obstacles); E or Space plays", false);
}

bool Sandbox::leave_edit() {
  EditorState& e = state_.editor;
  if (!e.active) return true;
  if (e.dirty) show_draft();
  e.gesture = EditorState::Gesture::None;
  if (!e.problem.empty()) {
    state_.show_toast("Cannot play yet: " + e.problem, true);
    return false;
  }
  try {
    start_scene(e.draft, e.document, false);
  } catch (const std::exception& error) {
    state_.show_toast(std::string("Cannot play yet: ") + error.what(), true);
    return false;
  }
  e.active = false;
  if (!state_.toast_is_error) state_.toast_seconds = 0.0;  // Edit mode's hint is done with: it would cover the scene
  e.played_opening = state_.scene_openings;
  for (const LaneSpec& spec : e.lanes) add_lane(spec);
  state_.timeline.clear();
  record_snapshot();
  state_.paused = false;
  state_.accumulator = 0.0;
  return true;
}

// The draft as the world (the valid part of it, when it has a problem), the selection kept in range, the problem
// named. The camera stays where the user put it.
void Sandbox::show_draft() {
  EditorState& e = state_.editor;
  e.dirty = false;
  const int particles = static_cast<int>(e.draft.particles.size());
  std::erase_if(e.selected, [&](int p) { return p < 0 || p >= particles; });
  if (e.constraint >= static_cast<int>(e.draft.constraints.size())) e.constraint = -1;
  // While a move is dragged the scene is only shown; it is checked when the button is let go (a cloth of 400
  // particles takes milliseconds to write, read back and build).
  if (e.gesture != EditorState::Gesture::Move) e.problem = edit::scene_problem(e.draft, document_name(e));
  e.problem_particle = index_named(e.problem, "particles");
  e.problem_constraint = index_named(e.problem, "constraints");
  e.dropped.clear();
  Scene shown = edit::displayable(e.draft, &e.dropped);
  const Camera camera = state_.camera;
  try {
    start_scene(std::move(shown), e.document, false);
  } catch (const std::exception& error) {  // nothing the displayable copy should reach; shown, never thrown on
    if (e.problem.empty()) e.problem = error.what();
  }
  state_.camera = camera;
  state_.displays[0].trails.clear();
  state_.paused = true;
  // Beads sized for an empty or rod-less draft too: a third of the snap grid when there is no rod to measure.
  if (state_.world().constraints().empty()) {
    state_.bead_radius = 0.3 * grid_step(state_);
    radii_ = display_radii(state_.scene, state_.world(), state_.view.size_by_mass, state_.bead_radius);
  }
  SDL_SetWindowTitle(platform_->window(),
                     ("Lagrange Lab \xe2\x80\x94 editing " + document_name(e) + (e.modified ? " *" : "")).c_str());
}

void Sandbox::new_draft(int dimension) {
  EditorState& e = state_.editor;
  e.change("new scene", [&](Scene& scene) {
    Settings settings = scene.settings;
    scene = Scene{};
    scene.name = "Untitled";
    scene.dimension = dimension;
    scene.settings = settings;
  });
  e.selected.clear();
  e.constraint = -1;
  e.document.clear();
  state_.camera.perspective = dimension == 3;
  // An empty view around the origin, a metre or two each way: room for a pendulum hanging from the top.
  state_.camera.frame(glm::dvec3(-2.5, -2.5, -1.0), glm::dvec3(2.5, 1.0, 1.0));
}

void Sandbox::save_draft(std::string path) {
  EditorState& e = state_.editor;
  if (e.dirty) show_draft();
  if (!e.problem.empty()) {
    state_.show_toast("Not saved: " + e.problem, true);
    return;
  }
  if (path.empty())
    path = !e.document.empty() ? e.document.string()
                               : timestamped_path(state_.save_dir, e.draft.name, ".json").string();
  try {
    if (std::string folder = make_parent_folder(path); !folder.empty()) throw io::OutputError(folder);
    const std::string error = io::write_file(path, write_scene(e.draft));
    if (!error.empty()) throw io::OutputError(error);
    e.document = path;
    e.modified = false;
    state_.saved_path = path;
    deliver_file(path, "Saved the scene to " + path);
    e.dirty = true;  // the title loses its *
  } catch (const std::exception& error) {
    state_.notice = std::string("Could not save: ") + error.what();
    state_.show_toast(state_.notice, true);
  }
}

std::optional<glm::dvec3> edit_point(const SandboxState& state, glm::dvec2 pixel, glm::dvec3 through, bool snapped) {
  const bool flat = state.editor.draft.dimension == 2;
  const glm::dvec3 normal = flat ? glm::dvec3(0.0, 0.0, 1.0) : -state.camera.forward();
  auto hit = intersect_plane(state.camera.ray(pixel), flat ? glm::dvec3(0.0) : through, normal);
  if (!hit) return std::nullopt;
  if (flat) hit->z = 0.0;
  if (snapped && state.editor.snap) *hit = snap_to_grid(state.editor, *hit);
  return hit;
}

glm::dvec3 snap_to_grid(const EditorState& editor, glm::dvec3 point) {
  const double step = editor.snap_step;
  if (!(step > 0.0)) return point;
  glm::dvec3 out = glm::round(point / step) * step;
  if (editor.draft.dimension == 2) out.z = 0.0;
  // -0.0 from rounding a small negative number is written "-0.0" in a file; 0 reads better.
  for (int k = 0; k < 3; ++k)
    if (out[k] == 0.0) out[k] = 0.0;
  return out;
}

std::optional<Obstacle> obstacle_from_gesture(EditTool tool, glm::dvec3 from, glm::dvec3 to, int dimension,
                                              glm::dvec3 middle, double step) {
  Obstacle o;
  const glm::dvec3 drag = to - from;
  const double length = glm::length(drag);
  switch (tool) {
    case EditTool::Floor:
      o.shape = ObstacleShape::Plane;
      o.point = from;
      o.normal = Vec3(0.0, 1.0, 0.0);
      if (length > 0.0 && dimension == 2 && std::abs(drag.x) > 1e-12) {  // a slope along the drag, its upper side
        o.normal = glm::normalize(Vec3(-drag.y, drag.x, 0.0));
        if (o.normal.y < 0.0) o.normal = -o.normal;
      }
      return o;
    case EditTool::Wall:
      o.shape = ObstacleShape::Plane;
      o.point = from;
      o.normal = Vec3(middle.x >= from.x ? 1.0 : -1.0, 0.0, 0.0);
      return o;
    case EditTool::Box: {
      o.shape = ObstacleShape::Box;
      o.min = glm::min(from, to);
      o.max = glm::max(from, to);
      if (dimension == 2) o.min.z = o.max.z = 0.0;
      else if (o.max.z - o.min.z < 1e-12) {  // drawn in a plane facing the camera: as deep as it is wide
        const double half = 0.5 * std::max(o.max.x - o.min.x, o.max.y - o.min.y);
        o.min.z = from.z - half;
        o.max.z = from.z + half;
      }
      for (int axis = 0; axis < dimension; ++axis)
        if (!(o.max[axis] - o.min[axis] > 1e-9)) return std::nullopt;
      return o;
    }
    case EditTool::Peg:
      o.shape = ObstacleShape::Sphere;
      o.center = from;
      o.radius = length > 0.0 ? length : std::max(step, 1e-3);
      return o;
    default: return std::nullopt;
  }
}

void Sandbox::edit_press(glm::dvec2 pixel, bool shift) {
  EditorState& e = state_.editor;
  if (e.dirty) show_draft();
  const Hover hit = pick(state_.world(), state_.camera, radii_, pixel);
  e.press_pixel = e.cursor_pixel = pixel;
  e.shift = shift;
  e.gesture_changed = false;
  e.press_particle = hit.kind == Hover::Kind::Particle ? hit.index : -1;
  const glm::dvec3 through =
      e.press_particle >= 0 ? e.draft.particles[static_cast<std::size_t>(e.press_particle)].position
                            : (state_.camera.perspective ? state_.camera.target : glm::dvec3(0.0));
  const auto point = edit_point(state_, pixel, through, false);
  e.press_point = point ? *point : through;
  switch (e.tool) {
    case EditTool::Floor:
    case EditTool::Wall:
    case EditTool::Box:
    case EditTool::Peg:
      e.gesture = EditorState::Gesture::Obstacle;
      if (const auto at = edit_point(state_, pixel, through, true)) e.press_point = *at;
      break;
    case EditTool::Select:
    case EditTool::Particle:
      if (hit.kind == Hover::Kind::Particle) {
        if (shift) {
          if (e.is_selected(hit.index)) std::erase(e.selected, hit.index);
          else e.selected.push_back(hit.index);
          e.constraint = -1;
        } else if (!e.is_selected(hit.index)) {
          e.select_only(hit.index);
        }
        e.grab_offset = e.draft.particles[static_cast<std::size_t>(hit.index)].position - e.press_point;
        e.gesture = e.is_selected(hit.index) ? EditorState::Gesture::Move : EditorState::Gesture::None;
      } else if (hit.kind == Hover::Kind::Rod && e.tool == EditTool::Select) {
        e.selected.clear();
        e.constraint = hit.index;
      } else if (e.tool == EditTool::Select) {
        e.gesture = EditorState::Gesture::Box;
      } else if (const auto at = edit_point(state_, pixel, through, true)) {  // Particle tool on empty space: a particle
        e.change("add particle", [&](Scene& scene) { e.select_only(edit::add_particle(scene, *at)); });
        e.press_particle = e.selected[0];
        e.grab_offset = glm::dvec3(0.0);
        e.gesture_changed = true;  // dragging it on is part of adding it
        e.gesture = EditorState::Gesture::Move;
      }
      break;
    case EditTool::Rod:
      e.gesture = EditorState::Gesture::Rod;
      if (hit.kind == Hover::Kind::Rod && e.press_particle < 0) {  // a rod pressed: select it, join nothing
        e.gesture = EditorState::Gesture::None;
        e.selected.clear();
        e.constraint = hit.index;
      }
      break;
  }
}

void Sandbox::edit_motion(glm::dvec2 pixel) {
  EditorState& e = state_.editor;
  e.cursor_pixel = pixel;
  if (e.gesture != EditorState::Gesture::Move || e.press_particle < 0) return;
  if (!e.gesture_changed && glm::length(pixel - e.press_pixel) <= kClickPixels) return;
  const Vec3 now = e.draft.particles[static_cast<std::size_t>(e.press_particle)].position;
  const auto point = edit_point(state_, pixel, now, false);
  if (!point) return;
  const glm::dvec3 target = e.snap ? snap_to_grid(e, *point + e.grab_offset) : *point + e.grab_offset;
  const glm::dvec3 delta = target - now;
  if (delta == glm::dvec3(0.0)) return;
  if (!e.gesture_changed) e.begin_change(e.selected.size() == 1 ? "move particle" : "move particles");
  e.gesture_changed = true;
  edit::move_particles(e.draft, e.selected, delta);
  e.mark_changed();
}

void Sandbox::edit_release(glm::dvec2 pixel) {
  EditorState& e = state_.editor;
  const EditorState::Gesture gesture = e.gesture;
  e.gesture = EditorState::Gesture::None;
  e.cursor_pixel = pixel;
  const bool click = glm::length(pixel - e.press_pixel) <= kClickPixels;
  if (gesture == EditorState::Gesture::Move && e.gesture_changed) e.dirty = true;  // now checked
  if (gesture == EditorState::Gesture::Box) {
    if (!e.shift) e.selected.clear();
    e.constraint = -1;
    if (click) return;
    const glm::dvec2 lo = glm::min(pixel, e.press_pixel), hi = glm::max(pixel, e.press_pixel);
    for (std::size_t p = 0; p < e.draft.particles.size(); ++p) {
      const auto at = state_.camera.project(e.draft.particles[p].position);
      if (at && at->x >= lo.x && at->x <= hi.x && at->y >= lo.y && at->y <= hi.y && !e.is_selected(int(p)))
        e.selected.push_back(static_cast<int>(p));
    }
    return;
  }
  if (gesture == EditorState::Gesture::Obstacle) {
    const auto to = edit_point(state_, pixel, e.press_point, true);
    glm::dvec3 middle(0.0);
    for (const ParticleDef& p : e.draft.particles) middle += p.position / static_cast<double>(e.draft.particles.size());
    const auto obstacle = obstacle_from_gesture(e.tool, e.press_point, click || !to ? e.press_point : *to,
                                                e.draft.dimension, middle, e.snap_step);
    if (!obstacle) {
      state_.show_toast("No box: drag from one corner to the opposite one", true);
      return;
    }
    const std::string label = "add " + std::string(obstacle_type_name(obstacle->shape, e.draft.dimension));
    e.change(label, [&](Scene& scene) { edit::add_obstacle(scene, *obstacle); });
    e.selected.clear();
    e.constraint = -1;
    return;
  }
  if (gesture != EditorState::Gesture::Rod) return;
  const int from = e.press_particle;
  if (click) {
    if (from >= 0) {
      e.select_only(from);
    } else if (const auto at = edit_point(state_, pixel, e.press_point, true)) {
      e.change("add particle", [&](Scene& scene) { e.select_only(edit::add_particle(scene, *at)); });
    }
    return;
  }
  if (e.dirty) show_draft();
  const Hover hit = pick(state_.world(), state_.camera, radii_, pixel);
  const int to = hit.kind == Hover::Kind::Particle ? hit.index : -1;
  if (to >= 0 && to == from) return;
  if (to >= 0 && from >= 0) {
    const int ends[] = {from, to};
    if (edit::find_constraint(e.draft, kind_name(KindRole::Rod), ends) >= 0) {
      state_.show_toast("Particles " + std::to_string(from) + " and " + std::to_string(to) +
                            " are already joined by a rod",
                        true);
      return;
    }
  }
  const auto start = edit_point(state_, e.press_pixel, e.press_point, true);
  const auto end = edit_point(state_, pixel, from >= 0 ? e.draft.particles[static_cast<std::size_t>(from)].position
                                                : e.press_point,
                              true);
  if ((from < 0 && !start) || (to < 0 && !end)) return;
  if (from < 0 && to < 0 && *start == *end) return;  // both ends snapped to one point: no rod of length zero
  if (to < 0 && from >= 0 && *end == e.draft.particles[static_cast<std::size_t>(from)].position) return;
  e.change("add rod", [&](Scene& scene) {
    const int a = from >= 0 ? from : edit::add_particle(scene, *start);
    const int b = to >= 0 ? to : edit::add_particle(scene, *end);
    e.constraint = edit::add_rod(scene, a, b);
    e.selected = {b};
  });
}

void Sandbox::delete_selection() {
  EditorState& e = state_.editor;
  if (!e.selected.empty()) {
    const std::vector<int> gone = e.selected;
    e.change(gone.size() == 1 ? "delete particle" : "delete particles",
             [&](Scene& scene) { edit::remove_particles(scene, gone); });
    e.selected.clear();
    e.constraint = -1;
  } else if (e.constraint >= 0) {
    const int gone[] = {e.constraint};
    e.change("delete constraint", [&](Scene& scene) { edit::remove_constraints(scene, gone); });
    e.constraint = -1;
  }
}

// Keys in Edit mode. Returns false for the keys that keep their meaning (frame, help, panels, screenshot, record,
// quit);
// every other key is the editor's or does nothing, so no play-mode key acts on the draft by surprise.
bool Sandbox::edit_key(const SDL_KeyboardEvent& key) {
  EditorState& e = state_.editor;
  const SDL_Keycode sym = key.keysym.sym;
  const bool ctrl = (key.keysym.mod & KMOD_CTRL) != 0, shift = (key.keysym.mod & KMOD_SHIFT) != 0;
  if (sym >= SDLK_1 && sym < SDLK_1 + static_cast<int>(std::size(kEditTools))) {
    e.tool = kEditTools[sym - SDLK_1].tool;
    return true;
  }
  switch (sym) {
    case SDLK_e:
    case SDLK_SPACE: leave_edit(); return true;
    case SDLK_z:
      if (ctrl) {
        e.gesture = EditorState::Gesture::None;
        if (shift) e.redo_last();
        else e.undo_last();
      }
      return true;
    case SDLK_y:
      if (ctrl) {
        e.gesture = EditorState::Gesture::None;
        e.redo_last();
      }
      return true;
    case SDLK_DELETE:
    case SDLK_BACKSPACE: delete_selection(); return true;
    case SDLK_a:
      if (ctrl) {
        e.selected.clear();
        for (std::size_t p = 0; p < e.draft.particles.size(); ++p) e.selected.push_back(static_cast<int>(p));
        e.constraint = -1;
      }
      return true;
    case SDLK_g: e.snap = !e.snap; return true;
    case SDLK_n:
      if (ctrl) new_draft(shift ? 3 : 2);
      return true;
    case SDLK_s:
      if (ctrl) save_draft("");
      return true;
    case SDLK_ESCAPE:
      // One level back at a time: the help; a text field or a popup (a combo, a generator's dialog) keeps ImGui's
      // meaning (leave the field, close the popup; ImGui sees the key next frame); the gesture; the selection; then
      // Edit mode itself, as E does.
      if (state_.view.help) state_.view.help = false;
      else if (ImGui::GetIO().WantTextInput ||
               ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId | ImGuiPopupFlags_AnyPopupLevel)) {
      } else if (e.gesture != EditorState::Gesture::None) e.gesture = EditorState::Gesture::None;
      else if (!e.selected.empty() || e.constraint >= 0) {
        e.selected.clear();
        e.constraint = -1;
      } else {
        leave_edit();
      }
      return true;
    case SDLK_f:
    case SDLK_h:
    case SDLK_F1:
    case SDLK_TAB:
    case SDLK_F5:
    case SDLK_F12:
    case SDLK_F9:
    case SDLK_p: return false;
    case SDLK_q: return !ctrl;
    default: return true;
  }
}

// Selection rings, the selected constraint, what the problem names (red) and what was left out of the shown world
// because it is invalid (red): on top of lane 1's draw list.
void Sandbox::add_editor_gizmos(DrawList& list) const {
  const EditorState& e = state_.editor;
  const Palette& colours = palette(state_.appearance.theme);
  const glm::vec4 selected = colours.selection, wrong{0.95f, 0.25f, 0.2f, 1.0f};
  const glm::dvec3 view = state_.camera.forward();
  const float width = static_cast<float>(2.0 * state_.ui_scale);
  const auto& particles = e.draft.particles;
  const auto ring = [&](int p, glm::vec4 colour, double grow) {
    if (p < 0 || static_cast<std::size_t>(p) >= particles.size() || static_cast<std::size_t>(p) >= radii_.size())
      return;
    add_ring(list.over, particles[static_cast<std::size_t>(p)].position, radii_[static_cast<std::size_t>(p)] * grow,
             view, colour, width, 28);
  };
  const auto mark_constraint = [&](int c, glm::vec4 colour) {
    if (c < 0 || static_cast<std::size_t>(c) >= e.draft.constraints.size()) return;
    const ConstraintDef& def = e.draft.constraints[static_cast<std::size_t>(c)];
    std::vector<Vec3> ends;
    for (int p : def.particles)
      if (p >= 0 && static_cast<std::size_t>(p) < particles.size()) ends.push_back(particles[static_cast<std::size_t>(p)].position);
    if (ends.size() >= 2) {
      for (std::size_t k = 0; k + 1 < ends.size(); ++k)
        list.over.push_back({glm::vec3(ends[k]), 3.0f * width, glm::vec3(ends[k + 1]), 0.0f, colour});
    } else {
      for (int p : def.particles) ring(p, colour, 1.9);
    }
  };
  // The obstacle a Floor, Wall, Box or Peg gesture would add, under the pointer while the button is held.
  if (e.gesture == EditorState::Gesture::Obstacle) {
    const auto to = edit_point(state_, e.cursor_pixel, e.press_point, true);
    const auto o = obstacle_from_gesture(e.tool, e.press_point, to ? *to : e.press_point, e.draft.dimension,
                                         glm::dvec3(0.0), e.snap_step);
    if (o && o->shape == ObstacleShape::Sphere) {
      add_ring(list.over, o->center, o->radius, view, selected, width, 40);
    } else if (o && o->shape == ObstacleShape::Box) {
      const Vec3 a = o->min, b = o->max;
      const Vec3 corners[] = {a, Vec3(b.x, a.y, a.z), Vec3(b.x, b.y, a.z), Vec3(a.x, b.y, a.z)};
      for (int k = 0; k < 4; ++k)
        list.over.push_back({glm::vec3(corners[k]), width, glm::vec3(corners[(k + 1) % 4]), 0.0f, selected});
    } else if (o) {
      const Vec3 n = glm::normalize(o->normal), u(-n.y, n.x, 0.0);
      const double reach = 20.0 * std::max(e.snap_step, 1e-3);
      list.over.push_back({glm::vec3(o->point - reach * u), width, glm::vec3(o->point + reach * u), 0.0f, selected});
    }
  }
  for (int p : e.selected) ring(p, selected, 1.5);
  mark_constraint(e.constraint, glm::vec4(glm::vec3(selected), 0.8f));
  for (int c : e.dropped) mark_constraint(c, wrong);
  mark_constraint(e.problem_constraint, wrong);
  ring(e.problem_particle, wrong, 1.7);
}

}  // namespace lagrange::app
