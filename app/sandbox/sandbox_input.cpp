// Sandbox input: SDL events, keyboard shortcuts and dragging particles. Runs between frames, so between steps.
#include <backends/imgui_impl_sdl.h>
#include <imgui.h>
#include <imgui_internal.h>  // the windows of the last frame: over_imgui_window

#include <algorithm>
#include <climits>
#include <cmath>

#include "sandbox/sandbox_app.h"
#include "ui/ui.h"
#include "view/picking.h"
#include "view/scene_draw.h"
#include "view/step_view.h"

namespace lagrange::app {
namespace {

void toggle_trail(SandboxState& state, int particle) {
  std::vector<Trail>& trails = state.displays[0].trails;
  const auto it = std::find_if(trails.begin(), trails.end(), [&](const Trail& t) { return t.particle == particle; });
  if (it != trails.end()) trails.erase(it);
  else trails.push_back({particle, {}});
  state.view.trails = true;
}

// True when a window of Dear ImGui's last frame (a panel, the timeline, a tooltip, the help) that takes the mouse
// covers this point, in window units.
bool over_imgui_window(glm::ivec2 point) {
  const ImGuiContext& g = *ImGui::GetCurrentContext();
  const ImVec2 p(static_cast<float>(point.x), static_cast<float>(point.y));
  for (const ImGuiWindow* window : g.Windows)
    if (window->WasActive && !window->Hidden && !(window->Flags & ImGuiWindowFlags_NoMouseInputs) &&
        window->OuterRectClipped.Contains(p))
      return true;
  return false;
}

// A key (not a modifier alone), a click or a touch: the user acting, which dismisses the roll-back's message.
bool acts(const SDL_Event& event) {
  if (event.type == SDL_MOUSEBUTTONDOWN || event.type == SDL_FINGERDOWN) return true;
  if (event.type != SDL_KEYDOWN) return false;
  switch (event.key.keysym.sym) {
    case SDLK_LSHIFT: case SDLK_RSHIFT: case SDLK_LCTRL: case SDLK_RCTRL:
    case SDLK_LALT: case SDLK_RALT: case SDLK_LGUI: case SDLK_RGUI: return false;
    default: return true;
  }
}

}  // namespace

// Split lane views: mouse_view_ remembers which view the pointer is in, so picking looks at lane k's world with lane
// k's camera (each view is framed on its own lane). A drag or a gesture keeps the view it began in.
glm::dvec2 Sandbox::to_pixels(int x, int y) const {
  const double ratio = platform_->pixel_ratio();
  const glm::dvec2 pixel{x * ratio, y * ratio};
  const auto views = lane_viewports(state_);
  if (views.size() < 2) {
    mouse_view_ = 0;
    return pixel;
  }
  if (!state_.dragging() && gesture_ == Gesture::None) {
    mouse_view_ = 0;
    for (std::size_t k = 0; k < views.size(); ++k) {
      const auto& v = views[k];
      if (pixel.x >= v[0] && pixel.x < v[0] + v[2] && pixel.y >= v[1] && pixel.y < v[1] + v[3])
        mouse_view_ = static_cast<int>(k);
    }
  }
  return pixel;
}

Camera& Sandbox::mouse_camera() { return state_.view_camera(static_cast<std::size_t>(mouse_view_)); }
const Camera& Sandbox::mouse_camera() const { return state_.view_camera(static_cast<std::size_t>(mouse_view_)); }

const World& Sandbox::view_world() const {
  const std::size_t k = static_cast<std::size_t>(mouse_view_);
  return state_.lane_view == LaneView::Split ? state_.lane_world(k) : state_.world();
}

bool Sandbox::pump_events() {
  SDL_Event event;
  while (SDL_PollEvent(&event)) pending_.push_back(event);
  // Dear ImGui 1.86 samples which keys are down once per frame: a press and its release handled in the same frame
  // (a quick tap on a slow frame, xdotool, a script) never reach a focused text field, so Enter would not open the
  // typed path. While ImGui has the keyboard, a release whose press came in this frame waits for the next frame.
  // Likewise whether the panels own the mouse is known from the last frame, at the pointer's last position: a
  // button pressed right after the pointer jumped (from a panel onto a particle, as a script or a quick hand does)
  // waits one frame, so the panels first see where the pointer now is.
  std::vector<SDL_Scancode> pressed;
  bool moved = false;
  while (!pending_.empty()) {
    const SDL_Event& next = pending_.front();
    if (next.type == SDL_KEYUP && ImGui::GetIO().WantCaptureKeyboard &&
        std::find(pressed.begin(), pressed.end(), next.key.keysym.scancode) != pressed.end())
      break;
    if (next.type == SDL_MOUSEBUTTONDOWN && moved) break;
    if (next.type == SDL_MOUSEMOTION) moved = true;
    if (next.type == SDL_KEYDOWN) pressed.push_back(next.key.keysym.scancode);
    event = next;
    pending_.pop_front();
    handle_event(event);
  }
  return !quit_;
}

void Sandbox::handle_event(const SDL_Event& event) {
  check_layout();  // a V pressed in this batch of events changed the views
  if (acts(event)) state_.alert.clear();  // the user read the roll-back's message and does something
  ImGui_ImplSDL2_ProcessEvent(&event);
  const ImGuiIO& io = ImGui::GetIO();
  // The panels (or the help window) take the mouse, except in the middle of a drag that started in the scene. ImGui
  // knows where the pointer was at the last frame; a press can come where no motion said the pointer went (xdotool
  // clicks after a jump), so a press or wheel over one of last frame's windows is theirs too.
  bool over_ui = false;
  if (event.type == SDL_MOUSEBUTTONDOWN) over_ui = over_imgui_window({event.button.x, event.button.y});
  if (event.type == SDL_MOUSEWHEEL) over_ui = over_imgui_window({pointer_[0], pointer_[1]});
  const bool ui_mouse = (io.WantCaptureMouse || over_ui) && !state_.dragging() && gesture_ == Gesture::None;
  switch (event.type) {
    case SDL_QUIT:
      quit_ = true;
      break;
    case SDL_WINDOWEVENT:
      if (event.window.event == SDL_WINDOWEVENT_CLOSE) quit_ = true;
      if (event.window.event == SDL_WINDOWEVENT_LEAVE && !state_.dragging() &&
          gesture_ == Gesture::None)
        mouse_ = {-1.0, -1.0};
      break;
    case SDL_DROPFILE:
      state_.commands.push_back(Command::load(event.drop.file));
      SDL_free(event.drop.file);
      break;
    case SDL_KEYDOWN:
      if (!io.WantCaptureKeyboard || event.key.keysym.sym == SDLK_F12 || event.key.keysym.sym == SDLK_ESCAPE)
        handle_key(event.key);
      break;
    case SDL_MOUSEMOTION:
      mouse_motion(event.motion);
      break;
    case SDL_MOUSEBUTTONDOWN:
      mouse_press(event.button);
      if (!ui_mouse) press_in_scene(event.button);
      break;
    case SDL_MOUSEBUTTONUP:
      mouse_release(event.button);
      break;
    case SDL_MOUSEWHEEL:
      if (!ui_mouse && event.wheel.y != 0)
        mouse_camera().zoom(event.wheel.direction == SDL_MOUSEWHEEL_FLIPPED ? -event.wheel.y : event.wheel.y, mouse_);
      break;
    case SDL_FINGERDOWN:
      // A second finger: the first one's pan (its touch is the mouse, SDL_HINT_TOUCH_MOUSE_EVENTS) gives way to the
      // pinch below. A grabbed particle stays grabbed.
      if (SDL_GetNumTouchFingers(event.tfinger.touchId) >= 2 && gesture_ == Gesture::Pan) gesture_ = Gesture::None;
      break;
    case SDL_MULTIGESTURE:
      pinch(event.mgesture);
      break;
    default:
      break;
  }
}

// The pointer moved: an edit gesture, the drag or the camera's orbit or pan follows it.
void Sandbox::mouse_motion(const SDL_MouseMotionEvent& motion) {
  pointer_ = {motion.x, motion.y};
  const glm::dvec2 pixel = to_pixels(motion.x, motion.y);
  const glm::dvec2 delta = pixel - mouse_;
  mouse_ = pixel;
  if (state_.editor.active) state_.editor.cursor_pixel = pixel;
  if (state_.editor.gesture != EditorState::Gesture::None) {
    edit_motion(mouse_camera().clamp_to_viewport(pixel, 4.0));
    return;
  }
  // The grabbed particle stays in the scene's viewport: a cursor over a panel drags it along the edge.
  if (state_.dragging()) {
    move_drag(mouse_camera().clamp_to_viewport(pixel, 12.0));
  } else if (gesture_ == Gesture::Orbit) {
    // Every lane's view turns together: side by side they show the scene from one direction.
    for (std::size_t k = 0; k < state_.lane_count(); ++k) state_.view_camera(k).orbit(delta.x, delta.y);
  } else if (gesture_ == Gesture::Pan) {
    mouse_camera().pan(delta.x, delta.y);
  }
}

// A button went down: where, and which buttons are held (the scene gets the press unless a panel takes it).
void Sandbox::mouse_press(const SDL_MouseButtonEvent& button) {
  pointer_ = {button.x, button.y};
  mouse_ = to_pixels(button.x, button.y);
  if (button.button >= 1 && button.button <= 3) buttons_down_[button.button - 1] = true;
}

// A press over the scene: Edit mode's tools; a grab (which times the particle), Shift to trail it, a double click to
// frame the scene, or the start of an orbit or pan (a rod pressed and released without moving is a click).
void Sandbox::press_in_scene(const SDL_MouseButtonEvent& button) {
  const glm::dvec2 pixel = mouse_;
  if (button.button == SDL_BUTTON_LEFT && state_.editor.active) {
    if (button.clicks >= 2 && pick(state_.world(), mouse_camera(), radii_, pixel).kind == Hover::Kind::None &&
        state_.editor.tool == EditTool::Select)
      frame_scene();
    else
      edit_press(pixel, (SDL_GetModState() & KMOD_SHIFT) != 0);
    return;
  }
  if (button.button != SDL_BUTTON_LEFT) {
    gesture_ = Gesture::Pan;
    return;
  }
  const Hover hit = pick(view_world(), mouse_camera(), radii_, pixel);
  if (hit.kind == Hover::Kind::Particle && (SDL_GetModState() & KMOD_SHIFT)) {
    toggle_trail(state_, hit.index);
    sync_lane_trails();
  } else if (hit.kind == Hover::Kind::Particle) {
    // Grabbing a particle times it (and puts the protractor on its rod); an anchor keeps the selection.
    if (!state_.world().model().fixed(static_cast<std::size_t>(hit.index)))
      select_particle(state_.measure, state_.world(), hit.index);
    begin_drag(hit.index, pixel);
    ++state_.input_counts.grabs;
  } else if (button.clicks >= 2) {
    frame_scene();
  } else {
    gesture_ = mouse_camera().perspective ? Gesture::Orbit : Gesture::Pan;
    rod_press_ = hit.kind == Hover::Kind::Rod ? hit.index : -1;
    obstacle_press_ = hit.kind == Hover::Kind::Obstacle ? hit.index : -1;
    press_pixel_ = pixel;
  }
}

// A button let go: the edit gesture or the drag ends; a rod pressed and released without moving is selected.
void Sandbox::mouse_release(const SDL_MouseButtonEvent& button) {
  pointer_ = {button.x, button.y};
  mouse_ = to_pixels(button.x, button.y);
  if (button.button >= 1 && button.button <= 3) buttons_down_[button.button - 1] = false;
  if (button.button == SDL_BUTTON_LEFT && state_.editor.gesture != EditorState::Gesture::None)
    edit_release(mouse_camera().clamp_to_viewport(mouse_, 4.0));
  if (button.button == SDL_BUTTON_LEFT && state_.dragging()) end_drag();
  if (button.button == SDL_BUTTON_LEFT && rod_press_ >= 0 && glm::length(mouse_ - press_pixel_) <= 3.0)
    select_rod(state_.measure, state_.world(), rod_press_);
  if (button.button == SDL_BUTTON_LEFT && obstacle_press_ >= 0 && glm::length(mouse_ - press_pixel_) <= 3.0)
    select_obstacle(state_.measure, state_.world(), obstacle_press_);
  if (button.button == SDL_BUTTON_LEFT) rod_press_ = obstacle_press_ = -1;
  gesture_ = Gesture::None;
}

// Two fingers pinching (a touch screen; the page on a tablet): the scene grows as the fingers' distance does, about
// their middle. SDL's dDist is the change of each finger's distance from the middle (SDL_gesture.c): half their
// distance, read from the fingers themselves.
void Sandbox::pinch(const SDL_MultiGestureEvent& gesture) {
  SDL_Finger* a = SDL_GetTouchFinger(gesture.touchId, 0);
  SDL_Finger* b = SDL_GetTouchFinger(gesture.touchId, 1);
  if (gesture.numFingers != 2 || !a || !b || state_.dragging()) return;
  const double now = 0.5 * std::hypot(a->x - b->x, a->y - b->y), before = now - gesture.dDist;
  if (!(now > 1e-3 && before > 1e-3)) return;
  int width = 1, height = 1;
  platform_->window_size(width, height);
  const glm::dvec2 middle = to_pixels(static_cast<int>(gesture.x * width), static_cast<int>(gesture.y * height));
  mouse_camera().scale_view(before / now, middle);
}

std::string Sandbox::toggle_step_view(std::string_view solver) {
  if (state_.step_view.active) {
    close_step_view(state_);
    frame_scene();
    return {};
  }
  if (state_.editor.active) return "the step view shows a running scene: leave Edit mode first";
  if (state_.dragging()) end_drag();
  const std::string error = open_step_view(state_, solver);
  if (!error.empty()) {
    state_.show_toast("Step view: " + error, true);
    return error;
  }
  // A scene narrowed by a side panel (a projector's scale) would leave the ghosts a strip beside the view's panel:
  // the side panels fold while the view is open, and come back when it closes.
  const PanelLayout layout = panel_layout(state_);
  const std::array<float, 4> panel = step_view_panel_rect(state_);
  const double scene = scene_viewport(state_)[2] / std::max(state_.pixel_ratio, 1e-6);
  if ((layout.left_open || layout.right_open) && panel[2] - panel[0] > scene / 3.0) {
    StepViewState& view = state_.step_view;
    view.folded_panels = true;
    view.left_was_open = state_.view.left_open;
    view.right_was_open = state_.view.right_open;
    state_.view.left_open = state_.view.right_open = false;
  }
  frame_scene();  // framed on the substep's ghosts, beside the panel
  return {};
}

void Sandbox::handle_key(const SDL_KeyboardEvent& key) {
  const SDL_Keycode sym = key.keysym.sym;
  const bool ctrl = (key.keysym.mod & KMOD_CTRL) != 0;
  const auto solvers = solver_table();
  if (state_.editor.active && edit_key(key)) return;
  if (sym == SDLK_e && !state_.editor.active) {
    state_.push(Command::Kind::ToggleEdit);
    return;
  }
  if (sym == SDLK_i || (state_.step_view.active && sym == SDLK_ESCAPE && !state_.view.help)) {
    toggle_step_view();
    return;
  }
  if (state_.step_view.active) {  // the frozen substep's iterates
    switch (sym) {
      case SDLK_LEFT: step_view_move(state_, -1); return;
      case SDLK_RIGHT: step_view_move(state_, 1); return;
      case SDLK_HOME: step_view_move(state_, INT_MIN); return;
      case SDLK_END: step_view_move(state_, INT_MAX); return;
      default: break;
    }
  }
  if (sym >= SDLK_1 && sym <= SDLK_9) {
    const std::size_t k = static_cast<std::size_t>(sym - SDLK_1);
    if (k < solvers.size()) {
      Settings settings = state_.edit;
      settings.solver = solvers[k].id;
      state_.commands.push_back(Command::apply_settings(settings));
    }
    return;
  }
  switch (sym) {
    case SDLK_SPACE: state_.push(Command::Kind::TogglePause); break;
    case SDLK_s:
      if (ctrl) state_.commands.push_back(Command::save(""));
      else state_.push(Command::Kind::StepOnce);
      break;
    case SDLK_RIGHT: state_.push(Command::Kind::StepOnce); break;
    case SDLK_LEFT: state_.push(Command::Kind::StepBack); break;
    case SDLK_r: state_.push(Command::Kind::Reset); break;
    case SDLK_f: state_.push(Command::Kind::FrameScene); break;
    case SDLK_h:
    case SDLK_F1: state_.view.help = !state_.view.help; break;
    case SDLK_TAB: {  // both panels to their bars, or both open again
      const bool open = state_.view.left_open || state_.view.right_open;
      state_.view.presentation = false;
      state_.view.panels = true;
      state_.view.left_open = state_.view.right_open = !open;
      state_.view.opened_last = ViewOptions::Side::None;
      break;
    }
    case SDLK_F5: state_.view.presentation = !state_.view.presentation; break;
    case SDLK_F12:
    case SDLK_p: state_.commands.push_back(Command::screenshot(state_.screenshot_without_panels)); break;
    case SDLK_F9: state_.push(Command::Kind::ToggleRecording); break;
    case SDLK_d:
      state_.drag_model = state_.drag_model == DragModel::Hard ? DragModel::Spring : DragModel::Hard;
      break;
    case SDLK_t: state_.view.trails = !state_.view.trails; break;
    case SDLK_g: state_.view.grid = !state_.view.grid; break;
    case SDLK_m:
      state_.measure.shown = !state_.measure.shown;
      state_.push(Command::Kind::FrameScene);  // the scene's viewport changed height
      break;
    case SDLK_a: state_.view.constraint_arrows = !state_.view.constraint_arrows; break;
    case SDLK_c: state_.push(Command::Kind::ClearTrails); break;
    case SDLK_LEFTBRACKET: state_.time_scale = std::max(state_.time_scale * 0.5, 1.0 / 64.0); break;
    case SDLK_RIGHTBRACKET: state_.time_scale = std::min(state_.time_scale * 2.0, 4.0); break;
    case SDLK_ESCAPE:
      if (state_.view.help) state_.view.help = false;
      else if (state_.dragging()) end_drag();
      else if (state_.view.presentation) state_.view.presentation = false;
      break;
    case SDLK_q:
      if (ctrl) quit_ = true;
      break;
    case SDLK_l:
      if (ctrl) {
        Command command;
        command.kind = Command::Kind::RemoveLane;
        state_.commands.push_back(command);
      } else {
        state_.push(Command::Kind::AddLane);
      }
      break;
    case SDLK_v:
      state_.lane_view = state_.lane_view == LaneView::Overlay ? LaneView::Split : LaneView::Overlay;
      break;
    case SDLK_x: state_.view.error_exaggeration = next_exaggeration(state_.view.error_exaggeration); break;
    default: break;
  }
}

// --- dragging -------------------------------------------------------------------------------------------------------
// Thin wrappers over the engine's DragController (lagrange/drag.h), which `lagrange-lab run --drag` drives too: the
// sandbox only turns the cursor into a point on the drag plane.

void Sandbox::begin_drag(int particle, glm::dvec2 pixel) {
  World& world = state_.world();
  Drag& drag = state_.drag;
  end_drag();
  resume_from_snapshot();  // a drag in the past starts a new future from there
  const Vec3 position = world.state().position[particle];
  drag.plane_point = position;
  drag.plane_normal = world.dimension() == 2 ? glm::dvec3(0.0, 0.0, 1.0) : -mouse_camera().forward();
  const auto hit = intersect_plane(mouse_camera().ray(pixel), drag.plane_point, drag.plane_normal);
  drag.offset = hit ? position - *hit : glm::dvec3(0.0);
  for (SimLane& lane : state_.sim.lanes())  // the same particle in every lane, moved by the same cursor
    if (lane.running()) lane.drag.begin(lane.world, particle, state_.drag_settings());
}

void Sandbox::move_drag(glm::dvec2 pixel) {
  Drag& drag = state_.drag;
  const auto hit = intersect_plane(mouse_camera().ray(pixel), drag.plane_point, drag.plane_normal);
  if (!hit) return;
  glm::dvec3 target = *hit + drag.offset;
  if (state_.world().dimension() == 2) target.z = drag.plane_point.z;
  place_drag(target);
}

void Sandbox::place_drag(glm::dvec3 point) {
  for (SimLane& lane : state_.sim.lanes())
    if (lane.drag.active()) lane.drag.move(point);
  // Paused: pose. The particle goes to the point (or the nearest point its rods reach), everything else follows
  // with every rod exact and all velocities zero; play starts the motion from there.
  if (state_.paused) {
    pose_pending_ = false;
    for (SimLane& lane : state_.sim.lanes())
      if (lane.drag.active()) pose_pending_ = !lane.drag.pose(lane.world, kPoseSeconds) || pose_pending_;
    record_pose();
    keep_if_sound("the pose");
  }
}

void Sandbox::end_drag() {
  for (SimLane& lane : state_.sim.lanes()) lane.drag.release(lane.world);  // the fling: its own velocity, capped
}

}  // namespace lagrange::app
