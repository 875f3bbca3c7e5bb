// `lagrange-lab run`: simulate a scene with no window, print a summary, optionally write a CSV trajectory.
// `lagrange-lab solvers`: list the solver table.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <optional>
#include <string>
#include <vector>

#include "capture/output_file.h"
#include "capture/trajectory_csv.h"
#include "cli/commands.h"
#include "lagrange/drag.h"
#include "lagrange/lanes.h"
#include "lagrange/period.h"
#include "lagrange/scene.h"
#include "lagrange/solver.h"
#include "lagrange/text.h"
#include "options/args.h"
#include "options/drag_option.h"

namespace lagrange::cli {
namespace {

constexpr const char* kRunUsage = R"(usage: lagrange-lab run SCENE [options]

Simulates SCENE (a scene file, see docs/scenes.md) with no window and prints a summary:
steps, energy balance (work by the mouse and by damping, and the drift left over), max constraint violation,
mean iterations, wall time.

options:
  --solver NAME        constraint solver (lagrange-lab solvers lists them); default: the scene's
  --lanes L1,L2[,..]   run 2-4 copies of SCENE from the same state, each with its own solver and settings
                       (a solver id, then :KEY=VALUE settings, e.g. projection,acceleration or
                       projection,projection:dt=0.004; a lane's settings go on top of lane 1's), stepped
                       together from the same state: a lane with another dt steps
                       until it reaches the first lane's time. The summary gets one line per lane; the CSV
                       one row per lane and step, with two more columns in front: lane (1-based) and solver.
                       Excludes --solver and --save-state
  --dt S               time step in seconds; default: the scene's
  --steps N            number of steps
  --duration S         simulated seconds (default 10; rounded up to whole steps)
  --every K            write the steps whose number is a multiple of K to the CSV (default 1; counted from the
                       start, so a run continued from a saved state keeps the numbering); the starting state
                       is always the first row
  --csv FILE|-         write a CSV trajectory (- for standard output; the summary then goes to stderr).
                       Columns: step,t,kinetic,potential,energy,violation then x0,y0,z0,vx0,vy0,vz0,x1,...
                       violation is max |C| in metres over the scene's constraints (never the mouse's pin).
                       Full double precision. The file appears complete or not at all.
  --save-state FILE    write the state at the end of the run as a scene file (docs/scenes.md, "Saved states"):
                       settings, particles, constraints, time, step, work and forces at full precision. Running
                       FILE for M more steps gives the same bits as running SCENE for all the steps at once.
                       Written only when the run succeeds; complete or not at all.
%s  --set KEY=VALUE      change a setting (repeatable); keys:
%s  --quiet              no summary (a failure is still reported)
  --allow-large        lift the limits on scene size (file size, particles, rows; docs/cli.md)
  --max-violation R    the run fails (exit 3) when max |C|/L goes above R (default 1: a rod stretched by its
                       whole length); raise it to record how far a drifting solver goes
  --measure period     measure the period of a particle's swing (its midline crossings along the axis where it
                       moves most, interpolated between steps) and print "period  T s" at full precision; when
                       the particle is a simple pendulum, also "exact  T s", 4 sqrt(L/g) K(sin(amplitude/2)),
                       and the small-angle 2 pi sqrt(L/g). Printed even with --quiet. Exit 5 when the run
                       holds no whole period (run longer)
  --particle P         the particle --measure times (numbered from 0 in file order; default: the last one that
                       is not fixed)
  --help               this text
Steps: at most %ld (from --steps or --duration / dt), and at most 10^9 substeps in all.
Exit codes: 0 ok, 1 could not write output, 2 bad command line or scene file, 3 the simulation failed
(a step became NaN/inf, or max |C|/L above --max-violation), 4 out of memory, 5 --measure found nothing to
measure, 130/143 interrupted (SIGINT/SIGTERM).
)";

std::string settings_help() {
  std::string text;
  for (const SettingInfo& info : setting_table()) {
    const std::string range = range_text(info.key);
    char line[320];
    std::snprintf(line, sizeof line, "                         %-15s %s%s%s%s%s%s\n", info.key, info.description,
                  info.unit[0] ? " [" : "", info.unit, info.unit[0] ? "]" : "", range.empty() ? "" : "; ",
                  range.c_str());
    text += line;
  }
  return text;
}

// One CSV row of a world (capture/trajectory_csv.h): `prefix` is the lane columns, or nothing.
void write_row(io::OutputFile& out, const World& world, std::string& line, const std::string& prefix) {
  io::write_trajectory_row(out, line, prefix, world.state(), world.energy(), world.max_violation());
}

// One lane of a run: its world, its drag, and its accounts for the summary.
struct RunLane {
  explicit RunLane(const Settings& s) : settings(s) {}
  Settings settings;
  std::string label;
  std::string prefix;  // the CSV's lane columns ("" for a run without lanes)
  std::optional<World> world;
  std::optional<DragScript> script;
  DragController drag;
  PeriodMeter meter;
  std::optional<PendulumPeriod> pendulum;  // the exact period, when the timed particle is a simple pendulum here
  double e0 = 0.0, worst_violation = 0.0, worst_velocity = 0.0, max_drift = 0.0;
  long done = 0, iterations = 0, recoveries = 0, failures = 0, rollbacks = 0, held = 0;
  int dependent = 0;
};

// The summary of a run with lanes: one line per lane.
void print_lanes(std::FILE* report, const std::vector<RunLane>& runs) {
  std::fprintf(report, "lane  %-28s %-9s %-10s %-13s %-13s %-10s %s\n", "solver and settings", "dt s", "steps",
               "drift J", "max |drift| J", "max |C|/L", "iterations  failures");
  for (std::size_t k = 0; k < runs.size(); ++k) {
    const RunLane& lane = runs[k];
    const World& w = *lane.world;
    const Work& work = w.work();
    const double drift = w.energy().total() - lane.e0 - work.mouse - work.damping;
    std::fprintf(report, "%-5zu %-28s %-9.6g %-10ld %+-13.3e %-13.3e %-10.3e %-11.3g %ld%s\n", k + 1,
                 printable(lane.label, 28).c_str(), lane.settings.dt, lane.done, drift, lane.max_drift,
                 lane.worst_violation, lane.done ? static_cast<double>(lane.iterations) / lane.done : 0.0,
                 lane.failures, lane.rollbacks ? " (rolled back)" : "");
  }
}

}  // namespace

// The lines of run --measure period. Returns false (and says why on stderr) when the run held no whole period.
bool report_period(std::FILE* report, const PeriodMeter& meter, const std::optional<PendulumPeriod>& pendulum,
                   int particle, double seconds) {
  const auto result = meter.result();
  if (!result) {
    std::fflush(report);
    std::fprintf(stderr,
                 "lagrange-lab run: --measure period: particle %d did not cross the middle of its swing twice in the "
                 "same direction in %s s; run longer (--duration)\n",
                 particle, format_number(seconds).c_str());
    return false;
  }
  constexpr const char* kAxes[] = {"x", "y", "z"};
  std::fprintf(report, "period       %s s (particle %d along %s: the mean of %d crossing intervals, spread %.2g s)\n",
               format_number(result->period).c_str(), particle, kAxes[result->axis], result->intervals,
               result->spread);
  if (pendulum) {
    std::fprintf(report,
                 "exact        %s s (simple pendulum, L %s m, amplitude %.6g deg: 4 sqrt(L/g) K(sin(amplitude/2))); "
                 "measured / exact - 1 = %+.3e\n",
                 format_number(pendulum->exact).c_str(), format_number(pendulum->length).c_str(),
                 pendulum->amplitude * 180.0 / std::numbers::pi, result->period / pendulum->exact - 1.0);
    std::fprintf(report, "small-angle  %s s (2 pi sqrt(L/g))\n", format_number(pendulum->small_angle).c_str());
  } else {
    std::fprintf(report, "exact        none: particle %d is not a simple pendulum (one rigid rod to a fixed pivot, "
                         "gravity, no air drag, a swing in one vertical plane)\n", particle);
  }
  return true;
}

int run_main(int argc, char** argv) {
  Args args(argc, argv);
  std::optional<std::string> scene_path, solver, csv, save_state;
  std::optional<double> dt, duration;
  std::optional<long> steps;
  long every = 1;
  bool quiet = false;
  SceneLimits limits;
  double max_violation = kFailedViolation;
  std::vector<std::pair<std::string, std::string>> sets;
  DragOptions drag_options;
  std::optional<std::string> measure;
  std::optional<long> measured_particle;
  std::optional<std::string> lanes;
  while (!args.empty()) {
    if (args.flag("--help") || args.flag("-h")) {
      std::printf(kRunUsage, kDragUsage, settings_help().c_str(), kMaxSteps);
      return 0;
    }
    if (auto v = args.option("--solver")) { solver = *v; continue; }
    if (auto v = args.option("--lanes")) { lanes = *v; continue; }
    if (auto v = args.option("--dt")) { dt = parse_number("--dt", *v); continue; }
    if (auto v = args.option("--steps")) { steps = parse_count("--steps", *v, 0, kMaxSteps); continue; }
    if (auto v = args.option("--duration")) { duration = parse_number("--duration", *v); continue; }
    if (auto v = args.option("--every")) { every = parse_count("--every", *v, 1, kMaxSteps); continue; }
    if (auto v = args.option("--csv")) { csv = *v; continue; }
    if (auto v = args.option("--save-state")) { save_state = *v; continue; }
    if (auto v = args.option("--set")) {
      const auto eq = v->find('=');
      if (eq == std::string::npos) throw UsageError("--set: expected KEY=VALUE, got " + lagrange::quoted(*v));
      sets.emplace_back(v->substr(0, eq), v->substr(eq + 1));
      continue;
    }
    if (read_drag_option(args, drag_options)) continue;
    if (args.flag("--quiet")) { quiet = true; continue; }
    if (scene_option(args, limits)) continue;
    if (auto v = args.option("--max-violation")) {
      max_violation = parse_number("--max-violation", *v);
      if (!(max_violation > 0.0 && max_violation <= 1e300))
        throw UsageError("--max-violation: must be in > 0 .. 1e300, got " + format_number(max_violation));
      continue;
    }
    if (auto v = args.option("--measure")) {
      if (*v != "period") throw UsageError("--measure: unknown measurement " + lagrange::quoted(*v) + " (period)");
      measure = *v;
      continue;
    }
    if (auto v = args.option("--particle")) { measured_particle = parse_count("--particle", *v, 0, 1'000'000'000); continue; }
    if (!scene_path) {
      if (auto p = args.positional()) { scene_path = *p; continue; }
    }
    args.finish();
  }
  if (!scene_path) throw UsageError("missing SCENE (see --help)");
  if (lanes && save_state)
    throw UsageError("--save-state and --lanes exclude each other: a saved state is one world; run the lane alone");
  if (measured_particle && !measure) throw UsageError("--particle: only with --measure");
  if (steps && duration) throw UsageError("give --steps or --duration, not both");
  if (duration && !(*duration >= 0.0)) throw UsageError("--duration: must be >= 0");
  if (csv && csv->empty()) throw UsageError("--csv needs a file name (or - for standard output)");
  if (csv) io::refuse_same_file(*scene_path, *csv);
  if (save_state) {
    if (save_state->empty()) throw UsageError("--save-state needs a file name");
    if (io::is_standard_output(*save_state)) throw UsageError("--save-state needs a file, not standard output");
    io::refuse_same_file(*scene_path, *save_state);
    if (csv && *csv == *save_state) throw UsageError("--save-state and --csv name the same file");
  }

  const Scene scene = load_scene_file(*scene_path, limits);  // SceneError is reported by main with exit code 2
  Settings settings = scene.settings;
  if (solver) {
    if (std::string problem = set_setting(settings, "solver", *solver); !problem.empty()) throw UsageError(problem);
  }
  if (dt) {
    if (std::string problem = set_setting(settings, "dt", format_number(*dt)); !problem.empty())
      throw UsageError("--" + problem);
  }
  for (const auto& [key, value] : sets)
    if (std::string problem = set_setting(settings, key, value); !problem.empty())
      throw UsageError("--set " + problem);
  // The lanes: one (the command line's settings) or each --lanes spec on top of them.
  std::vector<LaneSpec> specs;
  if (lanes) {
    if (solver) throw UsageError("--solver and --lanes exclude each other: the lanes name their solvers");
    try {
      specs = parse_lanes(*lanes);
    } catch (const Error& error) {
      throw UsageError(std::string("--lanes: ") + error.what());
    }
    if (specs.size() < 2)
      throw UsageError("--lanes: two to " + std::to_string(kMaxLanes) + " lanes, got one (" + lagrange::quoted(*lanes) +
                       "); for one solver use --solver and --set");
  }
  std::vector<RunLane> runs;
  if (specs.empty()) {
    runs.emplace_back(settings);
  } else {
    for (const LaneSpec& spec : specs) {
      try {  // lane 1 on top of the command line's settings, every later lane on top of lane 1's (as in the window)
        runs.emplace_back(lane_settings(runs.empty() ? settings : runs[0].settings, spec));
      } catch (const Error& error) {
        throw UsageError("--lanes: lane " + std::to_string(runs.size() + 1) + ": " + error.what());
      }
      runs.back().label = spec.label();
    }
  }
  const bool multi = runs.size() > 1;
  const double first_dt = runs[0].settings.dt;
  const long total_steps = steps ? *steps : steps_for_duration(duration.value_or(10.0), first_dt);
  for (const RunLane& lane : runs) {  // each lane runs the first lane's time: its own steps are of its own dt
    const long lane_steps = lane.settings.dt == first_dt
                                ? total_steps
                                : static_cast<long>(std::ceil(total_steps * first_dt / lane.settings.dt - 0.5));
    check_substeps(lane_steps, lane.settings.substeps);
  }
  // Every world starts with the settings of the command line: a solver chosen here is not a switch in mid-run.
  for (RunLane& lane : runs) {
    Scene configured = scene;
    configured.settings = lane.settings;
    lane.world.emplace(make_world(configured));
  }
  World& world = *runs[0].world;
  check_drags(drag_options, world);
  // The particle to time, and the simple pendulum's exact period from the starting state.
  int timed = -1;
  if (measure) {
    if (measured_particle) {
      if (*measured_particle >= static_cast<long>(world.particle_count()))
        throw UsageError("--particle: the scene has " + std::to_string(world.particle_count()) +
                         " particles (0 .. " + std::to_string(world.particle_count() - 1) + "), got " +
                         std::to_string(*measured_particle));
      timed = static_cast<int>(*measured_particle);
      if (world.model().fixed(timed))
        throw UsageError("--particle: particle " + std::to_string(timed) + " is fixed: it has no period");
    } else {
      for (int i = static_cast<int>(world.particle_count()) - 1; i >= 0 && timed < 0; --i)
        if (!world.model().fixed(i)) timed = i;
      if (timed < 0) throw UsageError("--measure: every particle of the scene is fixed");
    }
    for (RunLane& lane : runs) {  // each lane's own exact period: its gravity, its damping
      lane.pendulum = simple_pendulum_period(lane.world->model(), lane.world->state(), timed);
      lane.meter.sample(lane.world->time(), lane.world->state().position[timed]);
    }
  }
  DragSettings drag_settings;
  drag_settings.model = drag_options.model;
  for (RunLane& lane : runs) lane.script.emplace(drag_options.drags, drag_settings);

  // The CSV goes through an OutputFile: a temporary file renamed at the end (or straight into a device, a FIFO or
  // standard output), every write checked, so a failed run never leaves half a file behind.
  std::optional<io::OutputFile> out;
  const bool csv_stdout = csv && io::is_standard_output(*csv);  // `-`, or /dev/stdout: the summary goes to stderr
  if (csv) out.emplace(*csv);
  std::string line;  // one CSV row, reused
  for (std::size_t k = 0; k < runs.size() && multi; ++k)
    runs[k].prefix = io::lane_prefix(static_cast<int>(k) + 1, runs[k].settings.solver);
  const auto row = [&](int k) {
    const RunLane& lane = runs[static_cast<std::size_t>(k)];
    write_row(*out, *lane.world, line, lane.prefix);
  };
  if (out) {
    io::write_trajectory_header(*out, world.particle_count(), multi);
    for (std::size_t k = 0; k < runs.size(); ++k) row(static_cast<int>(k));
  }

  for (RunLane& lane : runs) {
    const World& w = *lane.world;
    // A saved state carries the energy its run started with, so the drift is the whole run's.
    lane.e0 = std::isfinite(w.state().start_energy) ? w.state().start_energy : w.energy().total();
    lane.worst_violation = w.max_violation(true);
  }
  long done = 0;
  std::string failure;
  const auto start = std::chrono::steady_clock::now();
  // One lane's step, its accounts and its CSV row; false when it failed (the reason in `failure`).
  const auto step_lane = [&](int k, long s) {
    RunLane& lane = runs[static_cast<std::size_t>(k)];
    World& w = *lane.world;
    lane.script->before_step(w, lane.drag);  // the scripted drags, through the sandbox's drag controller
    lane.drag.before_step(w);
    w.step();
    lane.drag.after_step(w);
    ++lane.done;
    const StepStats& st = w.stats();
    lane.worst_violation = std::max(lane.worst_violation, st.max_relative_violation);
    lane.worst_velocity = std::max(lane.worst_velocity, st.max_velocity_violation);
    const Work& work = w.work();
    lane.max_drift = std::max(lane.max_drift, std::abs(st.energy.total() - lane.e0 - work.mouse - work.damping));
    lane.iterations += st.iterations;
    lane.recoveries += st.recoveries;
    lane.held += st.held;
    lane.failures += st.failures;
    lane.rollbacks += st.non_finite ? 1 : 0;
    lane.dependent = std::max(lane.dependent, st.dependent_rows);
    if (timed >= 0) lane.meter.sample(w.time(), w.state().position[timed]);
    if (out && w.step_count() % every == 0) row(k);  // steps since the start: a continued run keeps the numbering
    // Stop at the first sign of failure: nothing after it means anything, and a blow-up only gets slower.
    char text[200];
    if (st.non_finite) {
      std::snprintf(text, sizeof text, "step %ld produced NaN or infinity and was rolled back", s);
      failure = text;
    } else if (!(st.max_relative_violation <= max_violation)) {
      std::snprintf(text, sizeof text, "at step %ld max |C|/L reached %.3g, above the limit %g", s,
                    st.max_relative_violation, max_violation);
      failure = text;
    }
    if (!failure.empty() && multi) failure = "lane " + std::to_string(k + 1) + " (" + lane.label + "): " + failure;
    return failure.empty();
  };
  for (long s = 1; s <= total_steps && failure.empty(); ++s) {
    const bool stepped = step_lane(0, s);
    done = s;
    if (!stepped) break;
    // The other lanes step until they reach the first lane's time (one step each when their dt is the same).
    for (std::size_t k = 1; k < runs.size() && failure.empty(); ++k) {
      World& w = *runs[k].world;
      while (failure.empty() && behind(w, world.time()))
        step_lane(static_cast<int>(k), runs[k].done + 1);
    }
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  for (RunLane& lane : runs) {
    // A saved state cannot hold the mouse: the hand's pin and its filtered cursor are not part of a scene, so a run
    // continued from it would differ from one that never stopped.
    if (save_state && failure.empty() && lane.drag.active())
      throw UsageError("--save-state: the drag of particle " + std::to_string(lane.drag.particle()) +
                       " is still held when the run ends (t = " + format_number(lane.world->time()) +
                       " s); a saved state cannot hold the mouse: end the drag (its T1) before the last step");
    // A drag still held at the end lets go, so the summary counts the scene's constraints only.
    lane.drag.release(*lane.world);
  }

  // A failed run's CSV is not committed: the previous file, if any, stays (standard output got what it got).
  // A sound run's CSV is written and synced now, but renamed only once the summary has arrived: a run that exits 1
  // because its standard output failed (`>&-`, a full disk) leaves the previous file as it was.
  if (out && failure.empty()) out->finish();
  if (out && !failure.empty()) out->discard();
  std::optional<io::OutputFile> state_out;
  if (save_state && failure.empty()) {
    state_out.emplace(*save_state);
    state_out->write(write_scene(scene_of(world, &scene)));
    state_out->finish();
  }
  std::FILE* report = csv_stdout ? stderr : stdout;
  if (!quiet) {
    const RunLane& lane = runs[0];
    const Energy e1 = world.energy();
    std::fprintf(report, "scene        %s (%s)\n", printable(scene.name).c_str(), printable(*scene_path).c_str());
    if (!multi)
      std::fprintf(report, "solver       %s, dt %.6g s, %d substep(s), tolerance %.3g\n", world.solver_info().id,
                   world.settings().dt, world.settings().substeps, world.settings().tolerance);
    std::fprintf(report, "particles    %zu, constraints %zu (%zu rows)\n", world.particle_count(),
                 world.constraints().size(), world.model().rows().size());
    if (done == total_steps)
      std::fprintf(report, "steps        %ld (%.6g s simulated)\n", done, world.time());
    else
      std::fprintf(report, "steps        %ld of %ld (%.6g s simulated; stopped: the simulation failed)\n", done,
                   total_steps, world.time());
    if (multi) {
      print_lanes(report, runs);
    } else {
      const Work& work = world.work();
      std::fprintf(report, "energy       start %.9g J, end %.9g J, change %+.6e J\n", lane.e0, e1.total(),
                   e1.total() - lane.e0);
      std::fprintf(report, "work         mouse %+.6e J, damping %+.6e J\n", work.mouse, work.damping);
      std::fprintf(report, "drift        %+.3e J (E - E0 - W_mouse - W_damping), max |drift| %.3e J\n",
                   e1.total() - lane.e0 - work.mouse - work.damping, lane.max_drift);
      std::fprintf(report, "violation    max |C|/L %.3e over the run, %.3e at the end; max |J v| %.3e m/s\n",
                   lane.worst_violation, world.max_violation(true), lane.worst_velocity);
      std::fprintf(report, "iterations   %.3g per step (mean)\n",
                   done ? static_cast<double>(lane.iterations) / done : 0.0);
      std::fprintf(report, "recoveries   %ld, convergence failures %ld, redundant rows %d, rolled back %ld step(s)\n",
                   lane.recoveries, lane.failures, lane.dependent, lane.rollbacks);
      if (lane.held)
        std::fprintf(report, "held         %ld substep(s): rigid rods lying flat or straight could not follow the "
                             "step and were held (docs/physics.md, \"Flat sheets\")\n", lane.held);
    }
    std::fprintf(report, "wall time    %.3f s (%.2f us per step)\n", wall, done ? 1e6 * wall / done : 0.0);
  }
  if (!failure.empty()) {
    std::fflush(report);
    std::fprintf(stderr, "lagrange-lab run: the simulation failed: %s%s\n", failure.c_str(),
                 csv && !csv_stdout ? "; no CSV written" : "");
    return kExitSimulationFailed;
  }
  bool measured = true;
  for (std::size_t k = 0; k < runs.size() && timed >= 0; ++k) {
    if (multi) std::fprintf(report, "lane %zu       %s\n", k + 1, printable(runs[k].label).c_str());
    measured = report_period(report, runs[k].meter, runs[k].pendulum, timed, runs[k].world->time()) && measured;
  }
  if (!csv_stdout) io::check_standard_output();  // throws OutputError (exit 1); `out` is discarded on the way
  if (out) out->commit();
  if (state_out) state_out->commit();
  return measured ? 0 : kExitNoMeasurement;
}

int solvers_main(int argc, char** argv) {
  Args args(argc, argv);
  if (args.flag("--help") || args.flag("-h")) {
    std::printf("usage: lagrange-lab solvers\n\nLists the constraint solvers: id, name and what it does.\n");
    return 0;
  }
  args.finish();
  for (const SolverInfo& info : solver_table())
    std::printf("%-13s %-20s %s\n", info.id, info.name, info.description);
  return 0;
}

}  // namespace lagrange::cli
