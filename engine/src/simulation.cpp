// The stepping unit (simulation.h): lanes stepped in lockstep with their drags and accounts. The order inside a
// lane's step is the one the drag controller's contract asks for (drag.h): the script may begin or end a drag, the
// controller moves its pin's point and compliance, the world steps, the controller measures the pin's stretch.
#include "lagrange/simulation.h"

#include <exception>

#include "lane_workers.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <new>
#include <string_view>

#include "lagrange/text.h"

namespace lagrange {

double LaneAccounts::drift(const World& world) const { return drift(world.energy().total(), world.work()); }

void SimLane::restart_accounts() {
  accounts = LaneAccounts{};
  accounts.start_energy = world.energy().total() - world.work().total();
  accounts.worst_violation = world.max_violation(true);
}

void SimLane::start_accounts() {
  accounts = LaneAccounts{};
  const double saved = world.state().start_energy;
  accounts.start_energy = std::isfinite(saved) ? saved : world.energy().total();
  accounts.worst_violation = world.max_violation(true);
}

std::string run_failure(const SimLane& lane, double max_violation) {
  const StepStats& st = lane.world.stats();
  const long s = lane.accounts.steps;
  char text[200];
  if (st.non_finite)
    std::snprintf(text, sizeof text, "step %ld produced NaN or infinity and was rolled back", s);
  else if (!(st.max_relative_violation <= max_violation)) {
    // Three digits, or as many as tell it from the limit ("reached 10, above the limit 10" was 10.04)
    char reached[40], limit[40];
    std::snprintf(limit, sizeof limit, "%g", max_violation);
    for (int digits = 3; digits <= 17; ++digits) {
      std::snprintf(reached, sizeof reached, "%.*g", digits, st.max_relative_violation);
      if (std::string_view(reached) != limit) break;
    }
    std::snprintf(text, sizeof text, "at step %ld max |C|/L reached %s, above the limit %s", s, reached, limit);
  }
  else
    return {};
  return text;
}

Simulation::Simulation(World world) { restart(std::move(world)); }

void Simulation::restart(World world) {
  if (lanes_.empty()) {
    lanes_.reserve(kMaxLanes);
    lanes_.push_back(SimLane{LaneSpec{}, World(world.dimension()), {}, {}, {}, {}});
  }
  lanes_.erase(lanes_.begin() + 1, lanes_.end());
  SimLane& lane = lanes_[0];
  lane.spec = LaneSpec{world.settings().solver, {}};
  lane.world = std::move(world);
  lane.drag = DragController();
  lane.script.reset();
  lane.stopped.clear();
  lane.start_accounts();
}

std::vector<Settings> Simulation::plan(const Settings& settings, std::span<const LaneSpec> specs) {
  std::vector<Settings> planned;
  if (specs.empty()) planned.push_back(settings);
  for (const LaneSpec& spec : specs) {
    try {  // lane 1 on top of the given settings, every later lane on top of lane 1's
      planned.push_back(lane_settings(planned.empty() ? settings : planned[0], spec));
    } catch (const Error& error) {
      throw Error("lane " + std::to_string(planned.size() + 1) + ": " + error.what());
    }
  }
  return planned;
}

Simulation::Simulation(const Scene& scene, const Settings& settings, std::span<const LaneSpec> specs) {
  const std::vector<Settings> planned = plan(settings, specs);
  lanes_.reserve(kMaxLanes);
  for (std::size_t k = 0; k < planned.size(); ++k) {
    // Every world starts with its own settings: a solver chosen here is not a switch in mid-run.
    LaneSpec spec = specs.empty() ? LaneSpec{planned[k].solver, {}} : specs[k];
    lanes_.push_back(SimLane{std::move(spec), make_world(scene, planned[k]), {}, {}, {}, {}});
    lanes_.back().start_accounts();
  }
}

std::vector<LaneSpec> Simulation::specs() const {
  std::vector<LaneSpec> specs;
  for (const SimLane& lane : lanes_) specs.push_back(lane.spec);
  if (!specs.empty()) specs[0] = LaneSpec{lanes_[0].world.settings().solver, specs[0].sets};
  return specs;
}

SimLane& Simulation::add_lane(const LaneSpec& spec) {
  if (lanes_.size() >= static_cast<std::size_t>(kMaxLanes))
    throw Error("at most " + std::to_string(kMaxLanes) + " lanes");
  World world = lanes_.at(0).world;
  world.set_settings(lane_settings(lanes_[0].world.settings(), spec));
  lanes_.push_back(SimLane{spec, std::move(world), {}, {}, {}, {}});
  lanes_.back().restart_accounts();
  return lanes_.back();
}

void Simulation::restart_lane(std::size_t k, const LaneSpec& spec) {
  World world = lanes_.at(0).world;
  world.set_settings(lane_settings(lanes_[0].world.settings(), spec));
  SimLane& lane = lanes_.at(k);
  lane.spec = spec;
  lane.world = std::move(world);
  lane.drag = DragController();
  lane.stopped.clear();
  lane.restart_accounts();
}

void Simulation::remove_lane(std::size_t k) {
  if (k >= 1 && k < lanes_.size()) lanes_.erase(lanes_.begin() + static_cast<std::ptrdiff_t>(k));
}

void Simulation::set_drag_settings(const DragSettings& settings) {
  for (SimLane& lane : lanes_) lane.drag.set_settings(settings);
}

std::string Simulation::set_script(const std::vector<ScriptedDrag>& drags, const DragSettings& settings) {
  if (std::string problem = DragScript::check(drags, lanes_.at(0).world); !problem.empty()) return problem;
  for (SimLane& lane : lanes_) lane.script.emplace(drags, settings);
  return {};
}

std::string Simulation::step_lane(std::size_t k, const std::function<void(std::size_t)>& after_lane_step) {
  advance_lane(k);
  return finish_lane(k, after_lane_step);
}

std::string Simulation::finish_lane(std::size_t k, const std::function<void(std::size_t)>& after_lane_step) {
  if (after_lane_step) after_lane_step(k);
  return rules_.failed ? rules_.failed(k, lanes_[k]) : std::string();
}

void Simulation::advance_lane(std::size_t k) {
  SimLane& lane = lanes_[k];
  World& world = lane.world;
  if (lane.script) lane.script->before_step(world, lane.drag);
  lane.drag.before_step(world);
  world.step();
  lane.drag.after_step(world);
  LaneAccounts& a = lane.accounts;
  ++a.steps;
  const StepStats& st = world.stats();
  a.worst_violation = std::max(a.worst_violation, st.max_relative_violation);
  a.worst_velocity = std::max(a.worst_velocity, st.max_velocity_violation);
  const Work& work = world.work();
  a.max_drift = std::max(a.max_drift, std::abs(a.drift(st.energy.total(), work)));
  a.iterations += st.iterations;
  a.recoveries += st.recoveries;
  a.fallbacks += st.fallbacks;
  a.held += st.held;
  a.failures += st.failures;
  a.rollbacks += st.non_finite ? 1 : 0;
  a.dependent = std::max(a.dependent, st.dependent_rows);
}

void Simulation::catch_up_lane(std::size_t k, const std::function<void(std::size_t)>& after_lane_step,
                               SimulationStep& result) {
  SimLane& lane = lanes_[k];
  World& world = lane.world;
  const double time = lanes_[0].world.time();
  if (rules_.stop_all) {  // run: every step counts, the first failure ends the whole simulation
    for (int n = 0; n < rules_.max_catch_up && behind(world, time); ++n) {
      if (std::string failure = step_lane(k, after_lane_step); !failure.empty()) {
        result.failed_lane = static_cast<int>(k);
        result.failure = std::move(failure);
        return;
      }
    }
    return;
  }
  // The window: a lane that fails, throws or cannot keep up stops where it was before this step; the others go on.
  const State before = world.state();
  std::string failure;
  try {
    for (int n = 0; n < rules_.max_catch_up && behind(world, time) && failure.empty(); ++n)
      failure = step_lane(k, after_lane_step);
    if (failure.empty() && behind(world, time)) {
      char message[240];
      std::snprintf(message, sizeof message,
                    "cannot keep up: its \xce\x94t %.3g s needs more than %d steps per step of lane 1 (stopped at "
                    "t = %.3f s)", world.settings().dt, rules_.max_catch_up, world.time());
      lane.stopped = message;
      return;
    }
  } catch (const std::exception& error) {
    if (!rules_.catch_lane_errors) throw;
    if (dynamic_cast<const std::bad_alloc*>(&error)) result.out_of_memory = true;
    lane.stopped = error.what();
    return;
  }
  if (failure.empty()) return;
  // The lane shows its last sound state, all of it (work, forces, clock, the statistics measured again), and says
  // when that was.
  world.restore(before);
  char when[80];
  std::snprintf(when, sizeof when, " after t = %.3f s (stopped there)", before.time);
  lane.stopped = failure + when;
  if (result.failed_lane < 0) {
    result.failed_lane = static_cast<int>(k);
    result.failure = lane.stopped;
  }
}

bool Simulation::side_by_side() const {
  if (!rules_.parallel || lanes_.size() < 2 || rules_.max_catch_up < 1) return false;
  const World& first = lanes_[0].world;
  const State& clock = first.state();
  double took = 0.0;
  int running = 0;
  for (const SimLane& lane : lanes_) {
    if (!lane.running()) continue;
    ++running;
    if ((lane.script && !lane.script->empty()) || lane.drag.active()) return false;  // a hand changes the model
    const World& world = lane.world;
    const State& s = world.state();
    // Lane 1's clock, so one step brings it to lane 1's time exactly as the serial catch-up's one step would.
    if (world.settings().dt != first.settings().dt || s.step != clock.step || s.time != clock.time ||
        s.clock_time != clock.clock_time || s.clock_step != clock.clock_step)
      return false;
    took += world.stats().solve_seconds;
  }
  return running >= 2 && took >= rules_.parallel_above && LaneWorkers::useful_threads(lanes_.size()) > 0;
}

SimulationStep Simulation::step_side_by_side(const std::function<void(std::size_t)>& after_lane_step) {
  std::vector<std::size_t> stepping;
  for (std::size_t k = 0; k < lanes_.size(); ++k)
    if (k == 0 || lanes_[k].running()) stepping.push_back(k);
  // What a later lane was, to put it back when the serial order would not have stepped it.
  struct Before {
    State state;
    LaneAccounts accounts;
    DragController drag;
  };
  std::vector<Before> before;
  before.reserve(stepping.size());
  for (std::size_t k : stepping) before.push_back({lanes_[k].world.state(), lanes_[k].accounts, lanes_[k].drag});
  std::vector<std::exception_ptr> errors(stepping.size());
  if (!workers_) workers_ = std::make_shared<LaneWorkers>(LaneWorkers::useful_threads(kMaxLanes));
  workers_->run(stepping.size(), [&](std::size_t t) {
    try {
      advance_lane(stepping[t]);
    } catch (...) {
      errors[t] = std::current_exception();
    }
  });
  const auto put_back = [&](std::size_t from) {  // the lanes from stepping[from] on, as the serial order left them
    for (std::size_t t = from; t < stepping.size(); ++t) {
      SimLane& lane = lanes_[stepping[t]];
      lane.world.restore(before[t].state);
      lane.accounts = before[t].accounts;
      lane.drag = before[t].drag;
    }
  };
  SimulationStep result;
  // Lane 1 first, as step() would see it.
  if (errors[0]) {
    put_back(1);
    std::rethrow_exception(errors[0]);
  }
  if (std::string failure = finish_lane(0, after_lane_step); !failure.empty()) {
    put_back(1);
    result.failed_lane = 0;
    result.failure = std::move(failure);
    return result;
  }
  for (std::size_t t = 1; t < stepping.size(); ++t) {
    const std::size_t k = stepping[t];
    SimLane& lane = lanes_[k];
    if (errors[t]) {
      if (!rules_.catch_lane_errors) {
        put_back(t + 1);
        std::rethrow_exception(errors[t]);
      }
      try {
        std::rethrow_exception(errors[t]);
      } catch (const std::exception& error) {
        if (dynamic_cast<const std::bad_alloc*>(&error)) result.out_of_memory = true;
        lane.stopped = error.what();
      }
      continue;
    }
    std::string failure = finish_lane(k, after_lane_step);
    if (failure.empty()) continue;
    if (rules_.stop_all) {  // run: the first failure ends the step, and no later lane would have stepped
      result.failed_lane = static_cast<int>(k);
      result.failure = std::move(failure);
      put_back(t + 1);
      return result;
    }
    // The window: this lane alone stops where it was before the step (catch_up_lane's rule).
    lane.world.restore(before[t].state);
    char when[80];
    std::snprintf(when, sizeof when, " after t = %.3f s (stopped there)", before[t].state.time);
    lane.stopped = failure + when;
    if (result.failed_lane < 0) {
      result.failed_lane = static_cast<int>(k);
      result.failure = lane.stopped;
    }
  }
  return result;
}

SimulationStep Simulation::step(const std::function<void(std::size_t lane)>& after_lane_step) {
  if (side_by_side()) return step_side_by_side(after_lane_step);
  SimulationStep result;
  if (std::string failure = step_lane(0, after_lane_step); !failure.empty()) {
    result.failed_lane = 0;
    result.failure = std::move(failure);
    return result;
  }
  for (std::size_t k = 1; k < lanes_.size(); ++k) {
    if (!lanes_[k].running()) continue;
    catch_up_lane(k, after_lane_step, result);
    if (result.failed() && rules_.stop_all) break;
  }
  return result;
}

}  // namespace lagrange
