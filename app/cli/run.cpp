// `lagrange-lab run`: simulate a scene with no window, print a summary, optionally write a CSV trajectory.
// `lagrange-lab solvers`: list the solver table.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <numbers>
#include <optional>
#include <string>
#include <vector>

#include "capture/output_file.h"
#include "capture/trajectory_csv.h"
#include "cli/commands.h"
#include "lagrange/drag.h"
#include "lagrange/lanes.h"
#include "lagrange/measure.h"
#include "lagrange/period.h"
#include "lagrange/scene.h"
#include "lagrange/simulation.h"
#include "lagrange/solver.h"
#include "lagrange/text.h"
#include "options/args.h"
#include "options/drag_option.h"

namespace lagrange::cli {
namespace {

constexpr const char* kRunUsage = R"(usage: lagrange-lab run SCENE [options]

Simulates SCENE (a scene file, see docs/scenes.md) with no window and prints a summary:
steps, energy balance (work by the mouse, by damping and by contacts, and the drift left over), max constraint violation,
mean iterations, wall time.

options:
  --solver NAME        constraint solver (lagrange-lab solvers lists them); default: the scene's
  --lanes L1,L2[,..]   run 2-4 copies of SCENE from the same state, each with its own solver and settings
                       (a solver id, then :KEY=VALUE settings, e.g. projection,acceleration or
                       projection,projection:dt=0.004; a lane's settings go on top of lane 1's), stepped
                       together from the same state: a lane with another dt steps
                       until it reaches the first lane's time. The summary gets one line per lane; the CSV
                       one row per lane and step, with two more columns in front: lane (1-based) and solver.
                       Excludes --solver and --save-state. Lanes that step together (the same dt) and
                       take long enough (0.2 ms a step together) step side by side on the machine's cores,
                       with results identical to one after another, bit for bit
  --serial             step the lanes one after another (to compare: the same results, more wall time)
  --dt S               time step in seconds; default: the scene's
  --steps N            number of steps
  --duration S         simulated seconds (default 10; rounded up to whole steps)
  --every K            write the steps whose number is a multiple of K to the CSV (default 1; counted from the
                       start, so a run continued from a saved state keeps the numbering); the starting state
                       is always the first row
  --csv FILE|-         write a CSV trajectory (- for standard output; the summary then goes to stderr).
                       Columns: step,t,kinetic,potential,energy,violation then x0,y0,z0,vx0,vy0,vz0,x1,...
                       violation is max |C| in metres over the scene's constraints (never the mouse's pin).
                       A scene with contacts adds contacts,impacts (in the step) and, per obstacle k
                       (numbered from 0 in file order), obstacle<k>_fx,_fy,_fz: the mean force the
                       particles pushed on it over the step, in newtons (a table under a weight reads -mg).
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

// The contact columns of a scene with contacts (docs/cli.md): contacts and impacts in the step, then the mean
// force on each obstacle over the step; "" for a scene without contacts, whose CSV stays as it was.
std::string contact_header(const Model& model) {
  if (!model.contacts().any()) return {};
  std::string text = ",contacts,impacts";
  for (std::size_t k = 0; k < model.contacts().obstacles.size(); ++k)
    for (const char* axis : {"x", "y", "z"}) {
      text += ",obstacle";
      text += std::to_string(k);
      text += "_f";
      text += axis;
    }
  return text;
}

std::string contact_columns(const World& world) {
  const Model& model = world.model();
  if (!model.contacts().any()) return {};
  const State& state = world.state();
  std::string text(1, ',');  // not "," + ...: GCC 12 -O2 raises a false -Wrestrict on that form
  text += std::to_string(contact_count(state));
  text += ',';
  text += std::to_string(state.contacts.impacts);
  for (std::size_t k = 0; k < model.contacts().obstacles.size(); ++k) {
    const Vec3 f = obstacle_force(state, static_cast<int>(k));
    for (int axis = 0; axis < 3; ++axis) {
      text += ',';
      text += format_number(f[axis]);
    }
  }
  return text;
}

// One CSV row of a world (capture/trajectory_csv.h): `prefix` is the lane columns, or nothing.
void write_row(io::OutputFile& out, const World& world, std::string& line, const std::string& prefix) {
  io::write_trajectory_row(out, line, prefix, world.state(), world.energy(), world.max_violation(),
                           contact_columns(world));
}

// What a run keeps beside each lane of its simulation: how the lane is named, and its period meter.
struct RunLane {
  std::string label;
  std::string prefix;  // the CSV's lane columns ("" for a run without lanes)
  PeriodMeter meter;
  std::optional<PendulumPeriod> pendulum;  // the exact period, when the timed particle is a simple pendulum here
};

// The summary of a run with lanes: one line per lane.
void print_lanes(std::FILE* report, const Simulation& sim, const std::vector<RunLane>& runs) {
  std::fprintf(report, "lane  %-28s %-9s %-10s %-13s %-13s %-10s %s\n", "solver and settings", "dt s", "steps",
               "drift J", "max |drift| J", "max |C|/L", "iterations  failures");
  for (std::size_t k = 0; k < runs.size(); ++k) {
    const SimLane& lane = sim.lane(k);
    const LaneAccounts& a = lane.accounts;
    std::fprintf(report, "%-5zu %-28s %-9.6g %-10ld %+-13.3e %-13.3e %-10.3e %-11.3g %ld%s\n", k + 1,
                 printable(runs[k].label, 28).c_str(), lane.world.settings().dt, a.steps, a.drift(lane.world),
                 a.max_drift, a.worst_violation, a.mean_iterations(), a.failures, a.rollbacks ? " (rolled back)" : "");
  }
  // What a lane's solver did again, as the summary of a run without lanes says it
  for (std::size_t k = 0; k < runs.size(); ++k) {
    const LaneAccounts& a = sim.lane(k).accounts;
    if (a.recoveries)
      std::fprintf(report, "lane %zu: recoveries %ld substep(s) (lost its root, or a rod turned beyond turn_limit: split or re-linearized)\n",
                   k + 1, a.recoveries);
    if (a.fallbacks)
      std::fprintf(report, "lane %zu: fallbacks %ld substep(s): lost by the solver's sweeps and Newton, done again by "
                           "projection (docs/physics.md, \"When the sweeps do not converge\")\n", k + 1, a.fallbacks);
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

namespace {

// What the command line asked for.
struct RunOptions {
  std::optional<std::string> scene_path, solver, csv, save_state, measure, lanes;
  std::optional<double> dt, duration;
  std::optional<long> steps, measured_particle;
  long every = 1;
  bool quiet = false;
  bool serial = false;  // --serial: lanes one after another
  SceneLimits limits;
  double max_violation = kFailedViolation;
  SettingPairs sets;
  DragOptions drag;
};

// Reads the command line; true when it asked for --help (printed).
bool parse_run_options(int argc, char** argv, RunOptions& o) {
  Args args(argc, argv);
  while (!args.empty()) {
    if (args.flag("--help") || args.flag("-h")) {
      std::printf(kRunUsage, kDragUsage, settings_help().c_str(), kMaxSteps);
      return true;
    }
    if (auto v = args.option("--solver")) { o.solver = *v; continue; }
    if (auto v = args.option("--lanes")) { o.lanes = *v; continue; }
    if (auto v = args.option("--dt")) { o.dt = parse_number("--dt", *v); continue; }
    if (auto v = args.option("--steps")) { o.steps = parse_count("--steps", *v, 0, kMaxSteps); continue; }
    if (auto v = args.option("--duration")) { o.duration = parse_number("--duration", *v); continue; }
    if (auto v = args.option("--every")) { o.every = parse_count("--every", *v, 1, kMaxSteps); continue; }
    if (auto v = args.option("--csv")) { o.csv = *v; continue; }
    if (auto v = args.option("--save-state")) { o.save_state = *v; continue; }
    if (set_option(args, o.sets)) continue;
    if (read_drag_option(args, o.drag)) continue;
    if (args.flag("--quiet")) { o.quiet = true; continue; }
    if (args.flag("--serial")) { o.serial = true; continue; }
    if (scene_option(args, o.limits)) continue;
    if (auto v = args.option("--max-violation")) {
      o.max_violation = parse_number("--max-violation", *v);
      if (!(o.max_violation > 0.0 && o.max_violation <= 1e300))
        throw UsageError("--max-violation: must be in > 0 .. 1e300, got " + format_number(o.max_violation));
      continue;
    }
    if (auto v = args.option("--measure")) {
      if (*v != "period") throw UsageError("--measure: unknown measurement " + lagrange::quoted(*v) + " (period)");
      o.measure = *v;
      continue;
    }
    if (auto v = args.option("--particle")) { o.measured_particle = parse_count("--particle", *v, 0, 1'000'000'000); continue; }
    if (!o.scene_path) {
      if (auto p = args.positional()) { o.scene_path = *p; continue; }
    }
    args.finish();
  }
  return false;
}

// The options that exclude each other or name files that may not be written.
void check_run_options(const RunOptions& o) {
  if (!o.scene_path) throw UsageError("missing SCENE (see --help)");
  if (o.lanes && o.save_state)
    throw UsageError("--save-state and --lanes exclude each other: a saved state is one world; run the lane alone");
  if (o.serial && !o.lanes) throw UsageError("--serial: only with --lanes (one world has no lanes to step in turn)");
  if (o.measured_particle && !o.measure) throw UsageError("--particle: only with --measure");
  if (o.steps && o.duration) throw UsageError("give --steps or --duration, not both");
  if (o.duration && !(*o.duration >= 0.0)) throw UsageError("--duration: must be >= 0");
  if (o.csv && o.csv->empty()) throw UsageError("--csv needs a file name (or - for standard output)");
  if (o.csv) io::refuse_same_file(*o.scene_path, *o.csv);
  if (o.save_state) {
    if (o.save_state->empty()) throw UsageError("--save-state needs a file name");
    if (io::is_standard_output(*o.save_state)) throw UsageError("--save-state needs a file, not standard output");
    io::refuse_same_file(*o.scene_path, *o.save_state);
    // By any spelling: "./o.json", a hard or symbolic link to it, "d/../o.json".
    if (o.csv && io::same_output(*o.csv, *o.save_state))
      throw UsageError("--save-state and --csv name the same file (" + lagrange::quoted(*o.save_state) + " and " +
                       lagrange::quoted(*o.csv) + ")");
  }
}

// The scene's settings with the command line's on top.
Settings run_settings(const RunOptions& o, const Scene& scene) {
  Settings settings = scene.settings;
  if (o.solver) {
    if (std::string problem = set_setting(settings, "solver", *o.solver); !problem.empty()) throw UsageError(problem);
  }
  if (o.dt) {
    if (std::string problem = set_setting(settings, "dt", format_number(*o.dt)); !problem.empty())
      throw UsageError("--" + problem);
  }
  apply_sets(settings, o.sets);
  return settings;
}

// The --lanes specs (none without --lanes).
std::vector<LaneSpec> run_lane_specs(const RunOptions& o) {
  if (!o.lanes) return {};
  if (o.solver) throw UsageError("--solver and --lanes exclude each other: the lanes name their solvers");
  std::vector<LaneSpec> specs;
  try {
    specs = parse_lanes(*o.lanes);
  } catch (const Error& error) {
    throw UsageError(std::string("--lanes: ") + error.what());
  }
  if (specs.size() < 2)
    throw UsageError("--lanes: two to " + std::to_string(kMaxLanes) + " lanes, got one (" + lagrange::quoted(*o.lanes) +
                     "); for one solver use --solver and --set");
  return specs;
}

// The particle --measure period times: --particle, or the last one that is not fixed.
int timed_particle(const RunOptions& o, const World& world) {
  if (o.measured_particle) {
    if (*o.measured_particle >= static_cast<long>(world.particle_count()))
      throw UsageError("--particle: the scene has " + std::to_string(world.particle_count()) + " particles (0 .. " +
                       std::to_string(world.particle_count() - 1) + "), got " + std::to_string(*o.measured_particle));
    const int timed = static_cast<int>(*o.measured_particle);
    if (world.model().fixed(timed))
      throw UsageError("--particle: particle " + std::to_string(timed) + " is fixed: it has no period");
    return timed;
  }
  for (int i = static_cast<int>(world.particle_count()) - 1; i >= 0; --i)
    if (!world.model().fixed(i)) return i;
  throw UsageError("--measure: every particle of the scene is fixed");
}

// The summary of a run with one lane.
void print_one_lane(std::FILE* report, const SimLane& lane) {
  const World& world = lane.world;
  const LaneAccounts& a = lane.accounts;
  const Energy e1 = world.energy();
  const Work& work = world.work();
  std::fprintf(report, "energy       start %.9g J, end %.9g J, change %+.6e J\n", a.start_energy, e1.total(),
               e1.total() - a.start_energy);
  std::fprintf(report, "work         mouse %+.6e J, damping %+.6e J, contacts %+.6e J\n", work.mouse, work.damping,
               work.contacts);
  std::fprintf(report, "drift        %+.3e J (E - E0 - W_mouse - W_damping - W_contacts), max |drift| %.3e J\n",
               a.drift(e1.total(), work), a.max_drift);
  std::fprintf(report, "violation    max |C|/L %.3e over the run, %.3e at the end; max |J v| %.3e m/s\n",
               a.worst_violation, world.max_violation(true), a.worst_velocity);
  std::fprintf(report, "iterations   %.3g per step (mean)\n", a.mean_iterations());
  std::fprintf(report, "recoveries   %ld, convergence failures %ld, redundant rows %d, rolled back %ld step(s)\n",
               a.recoveries, a.failures, a.dependent, a.rollbacks);
  const ContactSettings& contacts = world.model().contacts();
  if (contacts.any()) {
    std::fprintf(report, "contacts     %d in the last step (%d impacts)", contact_count(world.state()),
                 world.state().contacts.impacts);
    for (std::size_t k = 0; k < contacts.obstacles.size(); ++k) {
      const Vec3 f = obstacle_force(world.state(), static_cast<int>(k));
      std::fprintf(report, "%s obstacle %zu %.6g %.6g %.6g N", k ? "," : ";", k, f.x, f.y, f.z);
    }
    std::fprintf(report, "\n");
  }
  if (a.held)
    std::fprintf(report, "held         %ld substep(s): rigid rods lying flat or straight could not follow the "
                         "step and were held (docs/physics.md, \"Flat sheets\")\n", a.held);
  if (a.fallbacks)
    std::fprintf(report, "fallbacks    %ld substep(s): lost by the solver's sweeps and Newton, done again by "
                         "projection (docs/physics.md, \"When the sweeps do not converge\")\n", a.fallbacks);
}

// The summary: the scene, the steps done, then each lane's balance.
void print_summary(std::FILE* report, const RunOptions& o, const Scene& scene, const Simulation& sim,
                   const std::vector<RunLane>& runs, long done, long total_steps, double wall) {
  const World& world = sim.world();
  std::fprintf(report, "scene        %s (%s)\n", printable(scene.name).c_str(), printable(*o.scene_path).c_str());
  if (sim.size() == 1)
    std::fprintf(report, "solver       %s, dt %.6g s, %d substep(s), tolerance %.3g\n", world.solver_info().id,
                 world.settings().dt, world.settings().substeps, world.settings().tolerance);
  std::fprintf(report, "particles    %zu, constraints %zu (%zu rows)\n", world.particle_count(),
               world.constraints().size(), world.model().rows().size());
  if (done == total_steps)
    std::fprintf(report, "steps        %ld (%.6g s simulated)\n", done, world.time());
  else
    std::fprintf(report, "steps        %ld of %ld (%.6g s simulated; stopped: the simulation failed)\n", done,
                 total_steps, world.time());
  if (sim.size() > 1) print_lanes(report, sim, runs);
  else print_one_lane(report, sim.lane(0));
  std::fprintf(report, "wall time    %.3f s (%.2f us per step)\n", wall, done ? 1e6 * wall / done : 0.0);
}

// What the steps of a run came to.
struct RunOutcome {
  long done = 0;        // steps of lane 1 taken
  std::string failure;  // why the run stopped early ("" when it ran every step)
  double wall = 0.0;    // seconds
};

// Steps the simulation `total_steps` times, stopping at the first sign of failure (nothing after it means anything,
// and a blow-up only gets slower). After each lane's step: its period meter and `row(k)` on the steps --every
// keeps.
RunOutcome step_run(Simulation& sim, std::vector<RunLane>& runs, const RunOptions& o, long total_steps, int timed,
                    const std::function<void(std::size_t)>& row) {
  const bool multi = sim.size() > 1;
  sim.rules().failed = [&](std::size_t k, const SimLane& lane) -> std::string {
    std::string text = run_failure(lane, o.max_violation);
    if (text.empty() || !multi) return text;
    return "lane " + std::to_string(k + 1) + " (" + runs[k].label + "): " + text;
  };
  const auto after_lane_step = [&](std::size_t k) {
    const World& w = sim.world(k);
    if (timed >= 0) runs[k].meter.sample(w.time(), w.state().position[timed]);
    if (row && w.step_count() % o.every == 0) row(k);  // steps since the start: a continued run keeps the numbering
  };
  RunOutcome outcome;
  const auto start = std::chrono::steady_clock::now();
  for (long s = 1; s <= total_steps; ++s) {
    const SimulationStep step = sim.step(after_lane_step);
    outcome.done = s;
    if (step.failed()) {
      outcome.failure = step.failure;
      break;
    }
  }
  outcome.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  sim.rules().failed = nullptr;  // it refers to this frame's locals
  return outcome;
}

}  // namespace

int run_main(int argc, char** argv) {
  RunOptions o;
  if (parse_run_options(argc, argv, o)) return 0;
  check_run_options(o);
  const Scene scene = load_scene_file(*o.scene_path, o.limits);  // SceneError is reported by main with exit code 2
  const Settings settings = run_settings(o, scene);
  // The lanes: one (the command line's settings) or each --lanes spec on top of them.
  const std::vector<LaneSpec> specs = run_lane_specs(o);
  std::vector<Settings> planned;
  try {
    planned = Simulation::plan(settings, specs);
  } catch (const Error& error) {
    throw UsageError(std::string("--lanes: ") + error.what());
  }
  const bool multi = planned.size() > 1;
  const double first_dt = planned[0].dt;
  const long total_steps = o.steps ? *o.steps : steps_for_duration(o.duration.value_or(10.0), first_dt);
  for (const Settings& lane : planned) {  // each lane runs the first lane's time: its own steps are of its own dt
    const long lane_steps = lane.dt == first_dt ? total_steps
                                                : static_cast<long>(std::ceil(total_steps * first_dt / lane.dt - 0.5));
    check_substeps(lane_steps, lane.substeps);
  }
  Simulation sim(scene, settings, specs);
  sim.rules().parallel = !o.serial;
  std::vector<RunLane> runs(sim.size());
  for (std::size_t k = 0; k < runs.size() && multi; ++k) {
    runs[k].label = specs[k].label();
    runs[k].prefix = io::lane_prefix(static_cast<int>(k) + 1, sim.world(k).settings().solver);
  }
  World& world = sim.world();
  check_drags(o.drag, world);
  if (const std::string note = overlap_note(world.model(), world.state()); !note.empty())
    std::fprintf(stderr, "lagrange-lab run: note: %s: %s\n", lagrange::quoted(*o.scene_path).c_str(), note.c_str());
  // The particle to time, and the simple pendulum's exact period from the starting state.
  const int timed = o.measure ? timed_particle(o, world) : -1;
  for (std::size_t k = 0; k < runs.size() && timed >= 0; ++k) {  // each lane's own exact period: its gravity, damping
    runs[k].pendulum = simple_pendulum_period(sim.world(k).model(), sim.world(k).state(), timed);
    runs[k].meter.sample(sim.world(k).time(), sim.world(k).state().position[timed]);
  }
  DragSettings drag_settings;
  drag_settings.model = o.drag.model;
  if (std::string problem = sim.set_script(o.drag.drags, drag_settings); !problem.empty()) throw UsageError(problem);

  // The CSV goes through an OutputFile: a temporary file renamed at the end (or straight into a device, a FIFO or
  // standard output), every write checked, so a failed run never leaves half a file behind.
  std::optional<io::OutputFile> out;
  const bool csv_stdout = o.csv && io::is_standard_output(*o.csv);  // `-`, or /dev/stdout: the summary goes to stderr
  if (o.csv) out.emplace(*o.csv);
  std::string line;  // one CSV row, reused
  const auto row = [&](std::size_t k) { write_row(*out, sim.world(k), line, runs[k].prefix); };
  if (out) {
    io::write_trajectory_header(*out, world.particle_count(), multi, contact_header(world.model()));
    for (std::size_t k = 0; k < runs.size(); ++k) row(k);
  }

  const RunOutcome outcome = step_run(sim, runs, o, total_steps, timed,
                                      out ? std::function<void(std::size_t)>(row) : std::function<void(std::size_t)>());
  const long done = outcome.done;
  const std::string& failure = outcome.failure;
  const double wall = outcome.wall;
  for (SimLane& lane : sim.lanes()) {
    // A saved state cannot hold the mouse: the hand's pin and its filtered cursor are not part of a scene, so a run
    // continued from it would differ from one that never stopped.
    if (o.save_state && failure.empty() && lane.drag.active())
      throw UsageError("--save-state: the drag of particle " + std::to_string(lane.drag.particle()) +
                       " is still held when the run ends (t = " + format_number(lane.world.time()) +
                       " s); a saved state cannot hold the mouse: end the drag (its T1) before the last step");
    // A drag still held at the end lets go, so the summary counts the scene's constraints only.
    lane.drag.release(lane.world);
  }

  // A failed run's CSV is not committed: the previous file, if any, stays (standard output got what it got).
  // A sound run's CSV is written and synced now, but renamed only once the summary has arrived: a run that exits 1
  // because its standard output failed (`>&-`, a full disk) leaves the previous file as it was.
  if (out && failure.empty()) out->finish();
  if (out && !failure.empty()) out->discard();
  std::optional<io::OutputFile> state_out;
  if (o.save_state && failure.empty()) {
    state_out.emplace(*o.save_state);
    state_out->write(write_scene(scene_of(world, &scene)));
    state_out->finish();
  }
  std::FILE* report = csv_stdout ? stderr : stdout;
  if (!o.quiet) print_summary(report, o, scene, sim, runs, done, total_steps, wall);
  if (!failure.empty()) {
    std::fflush(report);
    std::fprintf(stderr, "lagrange-lab run: the simulation failed: %s%s\n", failure.c_str(),
                 o.csv && !csv_stdout ? "; no CSV written" : "");
    return kExitSimulationFailed;
  }
  bool measured = true;
  for (std::size_t k = 0; k < runs.size() && timed >= 0; ++k) {
    if (multi) std::fprintf(report, "lane %zu       %s\n", k + 1, printable(runs[k].label).c_str());
    measured = report_period(report, runs[k].meter, runs[k].pendulum, timed, sim.world(k).time()) && measured;
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
