// Dragging a particle with the mouse, as plain engine code: the sandbox's mouse and the command line's scripted
// drags (`lagrange-lab run|shot --drag`) drive the same controller, so a drag seen on screen can be reproduced in a
// test, a CSV or a picture. The app only maps the cursor onto a point in the world.
//
// The hand is a compliant pin, a tool row (Constraint::tool) from the grabbed particle to a point that follows the
// cursor (docs/physics.md, "The mouse"):
//   - hard: compliance α = h²/M (M: the mass of the grabbed particle's connected component, h the substep), so the
//     particle sits within g h² of the point while its rods stay rigid, and a point beyond the rods' reach gives a
//     well-posed problem whose answer is the reachable point nearest the cursor; critically damped, β = 2√(M/α);
//     the force is capped (DragSettings::max_force, string_limit) by letting α grow instead.
//   - spring: stiffness k = s M (s = DragSettings::spring_stiffness, N/m per kg of the moved mass), critically
//     damped β = 2√(k M): anything, a 10 g bead or a 4 kg cloth, follows in about the same time.
// The point chases the cursor (follow_time) with bounded speed and acceleration (max_speed, max_acceleration): the
// cursor's jerks are filtered out, and max_speed is also the fastest fling a release leaves behind. A fixed particle is made movable (as heavy as its component) for
// the drag; a particle the scene pins is dragged by its own pin, made compliant for the drag.
#pragma once

#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lagrange/world.h"

namespace lagrange {

enum class DragModel { Hard, Spring };
std::optional<DragModel> find_drag_model(std::string_view id);

struct DragSettings {
  DragModel model = DragModel::Hard;
  double spring_stiffness = 100.0;  // N/m per kg of the moved mass (spring model): ω₀² in 1/s², ω₀ = 10 /s
  double follow_time = 0.04;        // s: the held point chases the cursor at (cursor − point)/follow_time ...
  double max_speed = 10.0;          // m/s: ... never faster (also the fling cap on release) ...
  double max_acceleration = 1000.0;  // m/s²: ... and speeding up or slowing down at most this fast
  // The hard model's force cap, in weights of the moved mass (g ≥ 9.81 m/s²), at most the solver's own
  // (SolverInfo::mouse_force_cap: 100 for projection, 10 for the others). 100 lets the hand swing what it
  // holds at max_acceleration, so it follows a fast cursor; beyond reach gravity tilts a held chain by at most
  // (d − L)/(100 d) radians off the line to the cursor (d: the cursor's distance, L: the reach). Lower caps make
  // the solver's energy error, which grows with rod tension · h · v²/L, smaller (docs/physics.md).
  double max_force = 100.0;
  // ... and at most string_limit · m l / h² (m, l: the lightest particle and shortest rod of what is moved): a rod
  // under tension T between particles of mass m swings sideways at ω² ~ T/(m l), which the solvers follow while
  // ω h ≲ 2; at the limit an interior cloth particle dragged about blew the cloth up, so 1 (a cloth of 10 g particles
  // on 5 cm rods: 29 N at h = 1/240 s; a 1 kg pendulum: no limit in practice).
  double string_limit = 1.0;
};

class DragController {
 public:
  enum class Kind {
    None,
    Pin,       // a tool pin added on a movable particle
    Fixed,     // a fixed particle, made movable for the drag and held by a tool pin
    ScenePin,  // the scene's own pin on the particle, moved (compliant while dragged)
  };
  // Pose (paused): compliance h²/(kPoseStiffening M) within the force cap; at most kPoseIterations projection
  // substeps, fewer when nothing moves any more.
  static constexpr double kPoseStiffening = 100.0;
  static constexpr int kPoseIterations = 100;
  static constexpr double kPoseStringLimit = 0.3;  // the pose's tension limit, in m l/h² (DragSettings::string_limit)

  // Grabs `particle` (throws Error when it does not exist); the held point and the target start at its position.
  void begin(World& world, int particle, const DragSettings& settings);
  // Where the cursor wants the particle (world units). In 2D the z coordinate is kept at the particle's.
  void move(Vec3 target);
  // Before every World::step: advances the held point toward the target (filter, speed cap) and sets the pin's
  // point, compliance and damping for this step.
  void before_step(World& world);
  // After every World::step: measures the pin's stretch for the force cap.
  void after_step(const World& world);
  // Paused: the held point jumps to the target and World::pose() moves the particle there (or to the nearest
  // reachable point) with every rod exact and all velocities zero.
  // A large scene may take many projection substeps to come to rest: `max_seconds` bounds the wall time of one
  // call (the sandbox calls again next frame). Returns true when the pose has come to rest.
  bool pose(World& world, double max_seconds = INFINITY);
  // Lets go: removes the tool pin (or gives the scene's pin back, with its own compliance, at the particle). The
  // component keeps its velocity (a fling), scaled down when the grabbed particle is faster than max_speed. A fixed
  // particle is fixed again where it is. Whatever energy this changes is booked as the mouse's work.
  void release(World& world);
  // The same, with the settings changed mid-drag (the sandbox's model or stiffness).
  void set_settings(const DragSettings& settings) { settings_ = settings; }

  bool active() const { return kind_ != Kind::None; }
  Kind kind() const { return kind_; }
  int particle() const { return particle_; }
  int constraint() const { return constraint_; }  // the pin holding the particle, -1 when none
  Vec3 target() const { return target_; }          // the cursor
  Vec3 point() const { return point_; }            // the held point (filtered)
  double moved_mass() const { return moved_mass_; }
  double compliance() const { return compliance_; }  // α of the last step, m/N
  double damping() const { return damping_; }        // β of the last step, N·s/m
  const DragSettings& settings() const { return settings_; }

 private:
  void choose_compliance(World& world, bool posing);
  double max_force(const World& world, bool posing) const;  // the pin's force cap, N

  DragSettings settings_;
  Kind kind_ = Kind::None;
  int particle_ = -1;
  int constraint_ = -1;
  Vec3 target_{0.0}, point_{0.0}, point_velocity_{0.0};
  double moved_mass_ = 0.0;
  double fixed_mass_ = 0.0;  // a fixed particle's own mass, restored on release
  double scene_compliance_ = 0.0, scene_damping_ = 0.0;  // the scene's pin's own, restored on release
  double stretch_ = 0.0;     // |x − point| after the last step
  double lightest_ = 0.0, shortest_ = 0.0;  // of the moved component, for the force cap (m, l)
  double compliance_ = 0.0, damping_ = 0.0;
};

// A drag from the command line (`--drag P,X,Y,Z,T0,T1`): particle P pulled toward (X, Y, Z) from simulated time
// T0 to T1, then released.
struct ScriptedDrag {
  int particle = 0;
  Vec3 target{0.0};
  double start = 0.0, end = 0.0;
};

// Plays scripted drags on a controller, step by step: before a step that starts at time t, a drag whose window
// holds t (start ≤ t < end) is begun, and one whose end has come is released.
class DragScript {
 public:
  DragScript(std::vector<ScriptedDrag> drags, DragSettings settings);
  // "" when every drag names an existing particle, has end ≥ start ≥ 0, and no two windows overlap; otherwise
  // the problem, naming the drag by its position (1-based) on the command line.
  static std::string check(const std::vector<ScriptedDrag>& drags, const World& world);
  // Call before the controller's before_step().
  void before_step(World& world, DragController& controller);
  bool empty() const { return drags_.empty(); }

 private:
  std::vector<ScriptedDrag> drags_;
  DragSettings settings_;
  std::vector<bool> played_;
  int current_ = -1;  // index of the drag being played
};

}  // namespace lagrange
