// The measuring tools of the window (issue 10), as plain logic with no window: a rod's angle from the downward
// vertical and its angular velocity (the protractor), a stopwatch in simulated seconds, the phase-space trace, the
// energy bars and their steady scale, and what the Measure panel selects and times. measure_panel.cpp draws them;
// docs/app.md, "Measuring", says what each one measures.
#pragma once

#include <array>
#include <deque>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "lagrange/diagnostics.h"
#include "lagrange/period.h"
#include "lagrange/world.h"
#include "tools/force_scale.h"
#include "tools/measurement_table.h"

namespace lagrange::app {

// --- protractor -----------------------------------------------------------------------------------------------------
// The rod from `a` (its end toward the anchor) to `b`, against "down" = gravity / |gravity| (−y without gravity).
// planar (a 2D scene, in the z = 0 plane): θ = atan2((down × r)·ẑ, down·r), signed, in (−π, π], positive counter-
// clockwise as seen from +z; ω = dθ/dt = ((r × v)·ẑ) / |r|² with v = v_b − v_a (r and down in the plane).
// Otherwise the polar angle θ = atan2(|down × r|, down·r) in [0, π] and its rate, from the same quotient rule.
struct RodAngle {
  double angle = 0.0;             // radians
  double angular_velocity = 0.0;  // radians per second
};
RodAngle rod_angle(const Vec3& a, const Vec3& b, const Vec3& va, const Vec3& vb, const Vec3& gravity, bool planar);

// The rod's ends in protractor order: first the end nearer (in rods) to an anchor — a fixed particle, or one held by
// a one-particle constraint (pin, wire, plane) — so a pendulum's angle is the bob's about its pivot whatever order
// the file lists the ends in. Ties keep the file's order. Empty when `rod` is not a two-particle constraint.
std::optional<std::pair<int, int>> rod_ends(const Model& model, int rod);

// --- stopwatch ------------------------------------------------------------------------------------------------------
// Reads simulated time (World::time), so slow motion, pause and single steps behave: it measures the time the
// physics lived through, not the wall clock.
class Stopwatch {
 public:
  void start(double now);
  void stop(double now);
  void reset();
  void lap(double now);  // records the elapsed time now (while running)
  double elapsed(double now) const;
  bool running() const { return running_; }
  const std::vector<double>& laps() const { return laps_; }

 private:
  bool running_ = false;
  double started_at_ = 0.0;  // simulated time of the last start
  double banked_ = 0.0;      // seconds of earlier runs
  std::vector<double> laps_;
};

// --- phase-space trace ----------------------------------------------------------------------------------------------
// The last `capacity` (angle, angular velocity) samples, oldest first.
class PhaseTrace {
 public:
  explicit PhaseTrace(std::size_t capacity = 900) : capacity_(capacity) {}
  void push(double angle, double angular_velocity);
  void clear() { angle_.clear(); rate_.clear(); head_ = 0; }
  std::size_t size() const { return angle_.size(); }
  std::size_t capacity() const { return capacity_; }
  // k = 0 is the oldest sample kept.
  double angle(std::size_t k) const { return angle_[index(k)]; }
  double angular_velocity(std::size_t k) const { return rate_[index(k)]; }

 private:
  std::size_t index(std::size_t k) const { return (head_ + k) % angle_.size(); }
  std::size_t capacity_;
  std::size_t head_ = 0;  // the oldest sample once full
  std::vector<double> angle_, rate_;
};

// A plot scale that does not jump every frame: it follows the largest |sample| of the last `window` simulated seconds,
// rising at once to a new peak and easing down (time constant `tau`) only after the peak has left the window, never
// below `floor`. A steady swing keeps one scale; a swing that dies away shrinks it slowly.
class SteadyScale {
 public:
  SteadyScale(double window = 10.0, double tau = 2.0) : window_(window), tau_(tau) {}
  void reset(double value, double floor = 0.0);
  void update(double now, double sample, double seconds);
  double value() const { return value_; }

 private:
  double window_, tau_;
  double value_ = 0.0, floor_ = 0.0;
  std::deque<std::pair<double, double>> peaks_;  // (time, |sample|), decreasing |sample|: the window's maximum first
};
// The smallest of 1, 2, 2.5, 5 times a power of ten that is ≥ x (x > 0): axis ends that read at a glance.
double nice_ceil(double x);

// --- energy bars ----------------------------------------------------------------------------------------------------
// Where the potential energy is zero on the bars: at the lowest point the scene can reach (as PhET does: the bars of
// a pendulum trade kinetic for potential, the total stays level) or at the scene's origin, the world's own zero.
enum class EnergyZero { Lowest, Origin };

struct EnergyBars {
  double kinetic = 0.0, potential = 0.0, total = 0.0;  // J; total = kinetic + potential
  double mouse = 0.0, damping = 0.0;                   // J: work of the hand and of the dampers since the last reset
};
// potential_offset: the world's potential energy at the chosen zero (0 for EnergyZero::Origin); the bars show
// potential − offset and total − offset.
EnergyBars energy_bars(const Energy& energy, const Work& work, double potential_offset);
// The world's potential energy with every movable particle at the lowest point the scene can reach (measure.h,
// reach_bounds) along gravity: −(Σ m) g·p_low. 0 without gravity.
double lowest_potential(const World& world);

// --- period timer ---------------------------------------------------------------------------------------------------
// The last non-fixed particle (as `run --measure period` times), or −1 when every particle is fixed.
int default_timed_particle(const Model& model);
// The first rod (KindRole::Rod) that holds `particle`, not counting the mouse's; −1 when none.
int rod_of(const Model& model, int particle);
// Why simple_pendulum_period() gives no exact period for `particle`, in words for the panel.
std::string why_no_exact_period(const Model& model, const State& state, int particle);

// The angle of `particle` about `pivot` from straight down (along gravity; −y without), the polar angle in [0, π].
double angle_about(const World& world, int particle, int pivot);

// A simple-pendulum bob of the scene, watched from the start of the current motion (the scene, a reset, the end of
// a drag, a change of gravity or damping): its amplitude measured from the swing, for its name in the timer's list
// and for the table; and, while "Time every bob" waits for it, its own period timer.
struct BobWatch {
  int particle = -1;
  PendulumPeriod pendulum;            // its rod's length, its pivot, the small-angle period (amplitude unused)
  AmplitudeMeter amplitude;           // since the motion started
  std::optional<PeriodMeter> meter;   // "Time every bob": timing it until its row is in the table
  std::optional<glm::vec3> colour;    // its drawn colour and name when the timing started, for its row
  std::string name;
};

// Everything the Measure panel keeps between frames.
struct MeasureState {
  bool shown = false;          // the Measure strip under the scene (key M)
  int tool = 0;                // the tool shown when the strip shows one at a time: timer, protractor, energy, table,
                               // scale
  int particle = -1;           // the timed particle
  int rod = -1;                // the protractor's rod
  std::optional<std::pair<int, int>> ends;  // rod_ends() of that rod, found when it was selected

  PeriodMeter meter;
  // The timed particle as a simple pendulum, judged when timing (re)started: its rod's length and pivot and the
  // small-angle period. The amplitude for the exact period is measured from the swing (`amplitude`, the angle about
  // the pivot at the turning points), so the exact value does not depend on the instant timing started.
  std::optional<PendulumPeriod> pendulum;
  AmplitudeMeter amplitude;
  std::optional<PendulumPeriod> exact;  // 4 √(L/g) K(sin(θ_max/2)) with the measured θ_max; empty until a turn
  std::string no_exact_reason;
  double timing_since = 0.0;            // simulated time timing (re)started
  Vec3 timed_gravity{0.0};              // settings when timing started: a change restarts it
  double timed_damping = 0.0;
  double timed_mouse_work = 0.0;        // World::work().mouse then: a drag or a pose restarts it ...
  bool timed_held = false;              // ... and so does letting go (the hand's tool rows then)
  bool timer_full = false;              // kMaxSamples reached: sampling stopped until a restart
  static constexpr std::size_t kMaxSamples = 100000;  // 28 minutes at 60 steps/s; result() reads all of them

  Stopwatch stopwatch;
  PhaseTrace trace;
  SteadyScale energy_up, energy_down;   // the bars' positive and negative extents, J
  SteadyScale phase_angle, phase_rate;  // the phase plot's half-ranges, rad and rad/s
  EnergyZero energy_zero = EnergyZero::Lowest;
  double potential_offset = 0.0;        // lowest_potential() at the last (re)start, or 0 for Origin

  // The table of measurements (measurement_table.h) and what fills it: every simple-pendulum bob of the scene,
  // watched since the current motion started; "Time every bob" times them all at once, each row added after the
  // bob's first whole period. A new motion (Reset, a scene, a drag, gravity or damping) stops what is still timing.
  MeasurementTable table;
  std::vector<BobWatch> bobs;
  double every_bob_since = 0.0;         // simulated time "Time every bob" started
  std::string every_bob_note;           // why it stopped before every bob was in, "" otherwise

  // The scale (force_scale.h): the force on one obstacle against time, beside a reference.
  ForceScale scale;

  // What the panel showed in its last frame (the GUI tests read these).
  struct Readout {
    std::optional<double> period, exact, small_angle;
    std::optional<double> difference;  // measured / exact − 1, and as shown ("−0.0031 %")
    std::string difference_text;
    int intervals = 0;
    std::optional<RodAngle> rod;
    double stopwatch = 0.0;
    EnergyBars bars;
    // The energy plot: its ends (J), and the boxes (x0, y0, x1, y1 in pixels) of the texts it drew: the scale,
    // each bar's value and label.
    double energy_top = 0.0, energy_bottom = 0.0;
    std::vector<std::array<float, 4>> energy_values, energy_labels;
    std::optional<double> scale_force, scale_reference;  // the scale's means over the last half second, N
  } readout;
};

// A scene was loaded or reset: the timer on the scene's own particle (default_timed_particle: the one its lesson
// names), the protractor on its rod; restarts the timer, clears the stopwatch and the trace.
void measure_scene_started(MeasureState& measure, const World& world);
// Times `particle` from now on (and restarts the timer): whether it is a simple pendulum is judged on the current
// state; its amplitude is measured from the swing that follows.
void restart_timer(MeasureState& measure, const World& world);
void select_particle(MeasureState& measure, const World& world, int particle);  // and its rod
void select_rod(MeasureState& measure, const World& world, int rod);
// The scale reads obstacle k from now on, and the strip shows the Scale tool when it shows one tool at a time.
void select_obstacle(MeasureState& measure, const World& world, int obstacle);
// The index of the Scale tool among the strip's tools (MeasureState::tool).
inline constexpr int kScaleTool = 4;
// Moves the bars' zero of potential energy (and rescales them).
void set_energy_zero(MeasureState& measure, const World& world, EnergyZero zero);
// After every step: feeds the timer (restarted first when gravity, damping or the mouse's work changed, or the hand
// let go), the trace and the scales.
void measure_after_step(MeasureState& measure, const World& world);
// The state changed without a step (a pose while paused, a state shown from the timeline): the strip shows it at
// once. The timer restarts, the phase trace starts again from this state, and the scales are set to it.
void measure_state_moved(MeasureState& measure, const World& world);
// The selected rod's angle now; empty without a valid rod.
std::optional<RodAngle> selected_rod_angle(const MeasureState& measure, const World& world);

// --- the table ------------------------------------------------------------------------------------------------------
// The watched bob that is `particle`, or null.
const BobWatch* watched_bob(const MeasureState& measure, int particle);
// The timer's reading as a row of the table: empty until it has a measured period of a simple pendulum whose swing
// has turned (the exact period needs the amplitude). `colour` and `name` are the timed particle's (bob_names).
std::optional<TableRow> timer_row(const MeasureState& measure, const std::optional<glm::vec3>& colour,
                                  const std::string& name);
// "Time every bob": a period timer on every watched bob from now on; each bob's row is added after its first whole
// period (measure_after_step). colours / names: every particle's drawn colour and name, by number. False when the
// scene has no simple pendulum.
bool time_every_bob(MeasureState& measure, const World& world, std::span<const std::optional<glm::vec3>> colours,
                    std::span<const std::string> names);
// How many watched bobs "Time every bob" still waits for.
int bobs_timing(const MeasureState& measure);

}  // namespace lagrange::app
