// The sandbox: one window, one world, the panels around it. Built so tests and `shot` can drive it without an
// event loop: push SDL events (or call handle_event), call frame(wall_seconds) and render(), read the pixels.
// Order inside frame(): UI → queued commands → fixed physics steps (drag targets applied between steps).
// render() only draws: it never changes the physics.
#pragma once

#include <SDL.h>

#include <chrono>
#include <deque>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "capture/screenshot.h"
#include "state/sandbox_state.h"
#include "window/platform.h"
#include "window/renderer.h"

namespace lagrange::app {

struct SandboxOptions {
  int width = 1280, height = 720;
  bool hidden = false;  // tests and `shot`
  bool vsync = true;
  Appearance appearance;              // theme and projector scale to start with (theme.h)
  std::filesystem::path config_file;  // where a change made in the window is remembered ("": nowhere; user_config.h)
};

// assets/: LAGRANGE_ASSETS_DIR when it exists, else a folder found next to the executable.
std::filesystem::path find_assets_dir();

class Sandbox {
 public:
  explicit Sandbox(const SandboxOptions& options = {});
  ~Sandbox();
  Sandbox(const Sandbox&) = delete;
  Sandbox& operator=(const Sandbox&) = delete;

  // Loads a scene file and starts it. On failure returns SceneError::what() (also shown in the UI) and keeps the
  // current scene running. Empty string on success.
  std::string load_scene(const std::filesystem::path& path);
  // Starts a scene read from `path`; every failure is thrown: SceneError, std::bad_alloc (`shot`'s exit codes).
  void open_scene(Scene scene, const std::filesystem::path& path);
  // Starts a scene built in code.
  std::string set_scene(const Scene& scene);

  void handle_event(const SDL_Event& event);
  // Polls SDL's queue and hands every event to handle_event. Returns false once the window was asked to close.
  bool pump_events();
  void frame(double wall_seconds);
  // Draws the scene, then the panels unless with_panels is false (the HUD line with the solver always shows).
  void render(bool with_panels = true);
  void present();
  // The window's pixels after render(), rows top to bottom.
  Image read_pixels() const;

  // Steps the world `steps` times now, outside any frame, with pending commands applied first (`shot`).
  void advance_steps(int steps);
  // Writes what the last render() drew. Empty string on success.
  std::string save_screenshot(const std::filesystem::path& file) const;

  SandboxState& state() { return state_; }
  const SandboxState& state() const { return state_; }
  const World& world() const { return state_.world(); }
  const Camera& camera() const { return state_.camera; }
  const std::vector<double>& radii() const { return radii_; }
  Platform& platform() { return *platform_; }
  bool quit_requested() const { return quit_; }
  // True once a step ran out of memory (the window pauses and shows it as an error; `shot` exits 4).
  bool out_of_memory() const { return out_of_memory_; }
  // What made the window last roll lane 1 back to its last sound state ("the step to t = 0.367 s with SHAKE left
  // rods off by ..."), "" when nothing did since the scene started. `shot` and `record` fail on it.
  const std::string& rolled_back() const { return rolled_back_; }
  void frame_scene();

 private:
  // Builds the world from `scene` and starts it; `reframe` fits the camera to it (the editor keeps its view).
  void start_scene(Scene scene, const std::filesystem::path& path, bool reframe = true);
  // Edit mode (edit/edit_mode.cpp).
  void enter_edit();
  bool leave_edit();  // false when the draft has a problem: it stays in Edit mode and says why
  void show_draft();
  void new_draft(int dimension);
  void save_draft(std::string path);
  void edit_press(glm::dvec2 pixel, bool shift);
  void edit_motion(glm::dvec2 pixel);
  void edit_release(glm::dvec2 pixel);
  void delete_selection();
  bool edit_key(const SDL_KeyboardEvent& key);
  void add_editor_gizmos(DrawList& list) const;
  void apply_commands();
  void save_scene(std::string path);
  void apply(const Command& command);
  // The commands' named steps (sandbox_app.cpp).
  bool apply_while_editing(const Command& command);
  void apply_settings(const Settings& settings);
  // The scene's restitution (which = 0) or friction (1): every lane's and the scene's, between two steps.
  void set_contacts(int which, double value);
  LaneSpec next_lane_spec() const;
  void add_lane_from(const std::string& text);
  void remove_lane(int number);
  void set_lane(int number, const std::string& text);
  void reset_scene();
  void step_once();
  void step_back();
  void step_world();
  void start_simulation(World world);  // lane 1 alone, under the window's rules for a failed step
  void add_lane(const LaneSpec& spec);
  void restart_lane(std::size_t k, const LaneSpec& spec);
  void start_lane_display(std::size_t k);
  void sync_lane_trails();
  // Time travel: a snapshot of every lane after each step; showing snapshot i (paused); leaving the past.
  void record_snapshot(bool stepped = false);
  void export_csv(std::string path);
  void take_screenshot(const Image& image);
  // The one way out for every file the window writes, once it is written completely (io::write_file /
  // io::OutputFile): hands it to the user through Platform::deliver_file and shows the toast. The desktop keeps the
  // file where it is and shows `notice` unchanged ("Saved ... to PATH"); the page downloads it and says
  // "Downloaded NAME (detail)" (or why the download failed, as an error). Called by the screenshot, Save, Edit mode's
  // Save / Save as and Export CSV; the window's recording calls it in stop_recording once the video is written.
  void deliver_file(const std::filesystem::path& file, const std::string& notice, const std::string& detail = {});
  void show_snapshot(std::size_t i);
  // Recording the window (window_recorder.cpp): F9 / Record starts or stops; a frame after each drawing.
  void toggle_recording();
  void stop_recording(const std::string& why);
  void capture_recording();
  void resume_from_snapshot();
  void record_step();
  void record_pose();
  // Lane 1's last sound state (docs/app.md, "When a step fails"): after a step, a solver switch or a pose, why the
  // state is not sound ("" when it is, and then it becomes the one kept); roll_back puts the kept one back.
  std::string unsound(const World& world) const;
  void keep_if_sound(const char* what);
  void roll_back(const std::string& why, const char* what);
  void begin_drag(int particle, glm::dvec2 pixel);
  void move_drag(glm::dvec2 pixel);
  void end_drag();
  void place_drag(glm::dvec3 point);
  void handle_key(const SDL_KeyboardEvent& key);
 public:
  // The step view (key I, view/step_view.h): opens on lane 1's next substep, framed beside its panel, or closes and
  // frames the scene again. `solver`: the trace's solver (empty: lane 1's). "" or why it could not open.
  std::string toggle_step_view(std::string_view solver = {});

 private:
  // handle_event's mouse and touch steps (sandbox_input.cpp).
  void mouse_motion(const SDL_MouseMotionEvent& motion);
  void mouse_press(const SDL_MouseButtonEvent& button);
  void press_in_scene(const SDL_MouseButtonEvent& button);
  void mouse_release(const SDL_MouseButtonEvent& button);
  void pinch(const SDL_MultiGestureEvent& gesture);
  void update_hover();
  // After the lane views changed (V, a lane added or removed): a drag or gesture that began in a view that moved or
  // went ends, so the cursor does not suddenly map half a scene away.
  void check_layout();
  // Sets the camera's viewport to the free middle between the panels (the whole window when they are hidden).
  void update_viewport();
  void update_view_state(double wall_seconds);
  // Style, fonts (rebuilt and uploaded when the scale changed) and state.ui_scale from state_.appearance. Between
  // frames only: never inside a NewFrame / Render pair.
  void apply_appearance();
  glm::dvec2 to_pixels(int x, int y) const;
  Camera& mouse_camera();  // the camera of the lane view under the mouse (split views), else lane 1's
  const Camera& mouse_camera() const;
  const World& view_world() const;  // the world of the lane view under the mouse (split views), else lane 1's

  std::unique_ptr<Platform> platform_;
  std::unique_ptr<Renderer> renderer_;
  SandboxState state_;
  std::vector<double> radii_;
  DrawList draw_list_;
  std::optional<bool> screenshot_request_;  // pending screenshot: with panels?
  State sound_;  // lane 1's last state within sound_violation (a plain copy, model.h)
  std::string rolled_back_;
  std::deque<SDL_Event> pending_;  // events held back to the next frame (pump_events)
  glm::dvec2 mouse_{-1.0, -1.0};     // drawable pixels, from the last mouse event (in lane 1's view: to_pixels)
  std::array<int, 2> pointer_{-1, -1};  // window units of the last motion or press, as SDL gave them
  mutable int mouse_view_ = 0;       // the lane view the mouse is in (split views)
  std::vector<std::array<int, 4>> views_;  // the lane views at the last framing
  std::vector<double> overlays_;           // and what its overlays' sizes depended on
  std::vector<double> overlay_signature() const;
  bool buttons_down_[3] = {false, false, false};  // left, right, middle, from events
  enum class Gesture { None, Orbit, Pan } gesture_ = Gesture::None;
  int obstacle_press_ = -1;       // the obstacle under a left press: released without moving, the scale reads it
  int rod_press_ = -1;            // the rod under a left press: released without moving, it is selected (Measure)
  glm::dvec2 press_pixel_{0.0};
  std::chrono::steady_clock::time_point frame_start_{};
  bool quit_ = false;
  // A pose of a large scene (the cloth) that has not come to rest within kPoseSeconds continues next frame.
  static constexpr double kPoseSeconds = 0.02;
  // A lane steps at most this many times per step of lane 1 (a Δt 1000 times smaller); beyond, it stops, saying so.
  static constexpr int kLaneCatchUpSteps = 1000;
  bool pose_pending_ = false;
  bool out_of_memory_ = false;
  bool imgui_ready_ = false;
  bool software_ = false;          // a CPU rasterizer: no anti-aliased ImGui geometry
  double hidpi_scale_ = 1.0;       // the platform's HiDPI factor; state_.ui_scale is it × the user's scale
  Appearance applied_{Theme::Dark, 0.0};  // what the style and font atlas were last built for (0: not yet)
  std::filesystem::path config_file_;
  std::unique_ptr<WindowRecorder> recorder_;  // while recording
  int recorded_frame_ = -1;                   // the ImGui frame last captured
};

}  // namespace lagrange::app
