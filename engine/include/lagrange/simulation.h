// The stepping unit: one scene run as 1–4 lanes (lanes.h), each a world with its own solver or settings, its drag
// controller (the mouse, drag.h), its scripted drags, and its accounts for the summary (energy drift, worst
// violation, iterations). Lane 1 is lanes()[0], like every other lane: it steps once, then each later lane steps
// until it reaches lane 1's time (the lockstep rule, `behind` in lanes.h). `run`, `shot`, `record`, the window and
// the tests all step through `Simulation::step`, so the sequence — scripted drag, drag controller, World::step,
// drag controller again, accounts — is written here once.
//
// What a failed step means is the caller's rule (`SimulationRules`): `run` stops the whole simulation at the first
// lane that fails; the window stops only that lane (rolled back to where it was) and lets the others go on.
#pragma once

#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "lagrange/diagnostics.h"
#include "lagrange/drag.h"
#include "lagrange/lanes.h"
#include "lagrange/scene.h"
#include "lagrange/world.h"

namespace lagrange {

// A lane's accounts since it started (or restarted): what `run` prints and the window's Diagnostics show.
struct LaneAccounts {
  // E₀ of the energy balance E − E₀ = W_mouse + W_damping + drift, with W the world's work so far (a lane copied
  // from another mid-run carries that lane's work, so its E₀ is its energy less that work).
  double start_energy = 0.0;
  double worst_violation = 0.0;  // max |C|/L, the starting state included
  double worst_velocity = 0.0;   // max |J v|, m/s
  double max_drift = 0.0;        // max |drift| after any step, J
  long steps = 0, iterations = 0, recoveries = 0, failures = 0, rollbacks = 0, held = 0, fallbacks = 0;
  int dependent = 0;             // most redundant rows dropped in one step

  // The drift at total energy E with the work W done so far: E − E₀ − W_mouse − W_damping (the one place it is
  // written; the window's energy balance and run's summary read it here).
  double drift(double energy, const Work& work) const { return energy - start_energy - work.total(); }
  // The drift now.
  double drift(const World& world) const;
  double mean_iterations() const { return steps ? static_cast<double>(iterations) / static_cast<double>(steps) : 0.0; }
};

struct SimLane {
  LaneSpec spec;                     // its solver id (and, beyond lane 1, its own settings)
  World world;
  DragController drag;               // the hand: the window's cursor, or the scripted drags
  std::optional<DragScript> script;  // scripted drags (`--drag`), played before each step
  LaneAccounts accounts;
  std::string stopped;               // why this lane stopped (SimulationRules::stop_all false); "" while it runs

  bool running() const { return stopped.empty(); }
  // Starts the accounts from the world as it is now: E₀ is its energy less the work it already carries.
  void restart_accounts();
  // Starts the accounts as a run does: E₀ is the energy the state's run started with when it carries one (a saved
  // state continues its run's balance), else its energy now.
  void start_accounts();
};

// How a step treats failure.
struct SimulationRules {
  // After each step of a lane (its accounts already counting it): "" when the step is sound, otherwise why it
  // failed ("step 12 produced NaN or infinity and was rolled back"). Empty function: nothing fails.
  std::function<std::string(std::size_t lane, const SimLane&)> failed;
  // A failure in lane 1 always ends the step at once (no later lane steps) and is reported; what to do about it is
  // the caller's (run stops; the window undoes the step and pauses). A failure in a later lane ends the step too
  // when `stop_all` (run); otherwise (the window) that lane alone stops, rolled back to where it was before this
  // step, and the others go on: its `stopped` reads "<failure> after t = 1.234 s (stopped there)".
  bool stop_all = true;
  // Beyond lane 1, an exception in a lane's step stops that lane with the exception's text instead of leaving
  // step() (the window: the other lanes go on). Lane 1's exceptions always leave step().
  bool catch_lane_errors = false;
  // The most steps a later lane takes to catch up with lane 1 in one step(); a lane still behind then is stopped
  // ("cannot keep up") when stop_all is false. No cap by default (run).
  int max_catch_up = std::numeric_limits<int>::max();
  // Lanes stepped side by side on the machine's cores (a persistent pool of threads, one lane each), when every
  // running lane takes exactly one step with lane 1's clock (the same Δt, step count and time), no lane has a drag
  // or a script running, and the lanes' last steps took at least `parallel_above` seconds of wall time together
  // (below that, handing work to a thread costs more than it saves). The results are the serial ones, bit for bit:
  // each lane is its own world, and the callers' looks (`after_lane_step`), the failure checks and their
  // consequences run afterwards in lane order, a lane the serial order would not have stepped put back as it was.
  bool parallel = true;
  double parallel_above = 2e-4;
};

// `run`'s rule for a failed step (SimulationRules::failed), also the Python package's: "" when the lane's last step
// is sound, otherwise why not: "step 12 produced NaN or infinity and was rolled back", or "at step 22 max |C|/L
// reached 2.77e+07, above the limit 1" when the relative violation went above `max_violation`.
std::string run_failure(const SimLane& lane, double max_violation);

// What one Simulation::step did.
struct SimulationStep {
  int failed_lane = -1;  // the first lane (0-based) that failed in this step, -1 when none
  std::string failure;   // its reason, as SimulationRules::failed gave it
  bool out_of_memory = false;  // a later lane stopped on std::bad_alloc (catch_lane_errors)
  bool failed() const { return failed_lane >= 0; }
};

class Simulation {
 public:
  // One lane: this world, its solver named by the world's settings.
  explicit Simulation(World world);
  // Lanes from a scene: with no specs, one lane with `settings`; otherwise lane 1 is `settings` with specs[0] on
  // top and every later lane lane 1's settings with its own on top (lane_settings). Throws Error naming the lane
  // when a spec does not fit, or the scene's own error when it does not build.
  Simulation(const Scene& scene, const Settings& settings, std::span<const LaneSpec> specs = {});
  // The settings of each lane that constructor would build, without building anything (a caller checks them first:
  // the step budget). Throws Error("lane N: ...") when a spec does not fit.
  static std::vector<Settings> plan(const Settings& settings, std::span<const LaneSpec> specs);

  // Starts over with one lane, this world, keeping the rules. Lane 1 stays the same object: a reference to
  // world(0) or lane(0) taken before stays valid (the window's panels and tests hold one across a reset), and so does
  // it across add_lane (room for kMaxLanes is kept from the start).
  void restart(World world);

  std::size_t size() const { return lanes_.size(); }
  std::vector<SimLane>& lanes() { return lanes_; }
  const std::vector<SimLane>& lanes() const { return lanes_; }
  SimLane& lane(std::size_t k) { return lanes_[k]; }
  const SimLane& lane(std::size_t k) const { return lanes_[k]; }
  World& world(std::size_t k = 0) { return lanes_[k].world; }
  const World& world(std::size_t k = 0) const { return lanes_[k].world; }
  // Every lane's spec, lane 1 first: lane colours, labels and CSV prefixes come from them.
  std::vector<LaneSpec> specs() const;

  // Adds a lane: a copy of lane 1 as it is now (its time, its work) with `spec`'s settings on top of lane 1's, its
  // accounts starting now. Throws Error when the settings do not fit (nothing is added) or there are kMaxLanes.
  SimLane& add_lane(const LaneSpec& spec);
  // Lane k (≥ 1) again from lane 1 as it is now, with `spec`. Throws Error when the settings do not fit (the lane
  // is left as it was).
  void restart_lane(std::size_t k, const LaneSpec& spec);
  void remove_lane(std::size_t k);  // k ≥ 1

  SimulationRules& rules() { return rules_; }
  const SimulationRules& rules() const { return rules_; }
  // The drag settings every lane's controller uses from the next step on (the window's model and stiffness).
  void set_drag_settings(const DragSettings& settings);
  // The same scripted drags for every lane (each lane plays its own copy). Drags are checked against lane 1's
  // world: "" when they fit, else the problem (DragScript::check); nothing is set then.
  std::string set_script(const std::vector<ScriptedDrag>& drags, const DragSettings& settings);

  // Lane 1 steps once; then every running lane behind lane 1's time steps until it is not (one step each when the
  // Δt agree). `after_lane_step(k)` is called after each lane's step, with its accounts updated (a CSV row, a
  // period meter). See SimulationRules for what a failure does.
  SimulationStep step(const std::function<void(std::size_t lane)>& after_lane_step = {});

 private:
  // One step of lane k: the script, the drag, the world, the drag again, the accounts, the caller's look, the
  // failure check ("" or the reason).
  std::string step_lane(std::size_t k, const std::function<void(std::size_t)>& after_lane_step);
  // Lane k (≥ 1) until it reaches lane 1's time, under the rules; fills `result` when it fails.
  void catch_up_lane(std::size_t k, const std::function<void(std::size_t)>& after_lane_step, SimulationStep& result);

  // Whether this step may run the lanes side by side (SimulationRules::parallel).
  bool side_by_side() const;
  SimulationStep step_side_by_side(const std::function<void(std::size_t)>& after_lane_step);
  // A lane's step without the caller's look and the failure check (step_lane's first part).
  void advance_lane(std::size_t k);
  std::string finish_lane(std::size_t k, const std::function<void(std::size_t)>& after_lane_step);

  std::vector<SimLane> lanes_;
  SimulationRules rules_;
  std::shared_ptr<class LaneWorkers> workers_;  // started on the first parallel step; shared by copies
};

}  // namespace lagrange
