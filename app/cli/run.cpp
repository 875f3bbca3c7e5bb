// `lagrange-lab run`: simulate a scene with no window, print a summary, optionally write a CSV trajectory.
// `lagrange-lab solvers`: list the solver table.
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "cli/args.h"
#include "cli/commands.h"
#include "cli/drag_option.h"
#include "lagrange/drag.h"
#include "lagrange/scene.h"
#include "lagrange/solver.h"

namespace lagrange::cli {
namespace {

constexpr const char* kRunUsage = R"(usage: lagrange-lab run SCENE [options]

Simulates SCENE (a scene file, see docs/scenes.md) with no window and prints a summary:
steps, energy balance (work by the mouse and by damping, and the drift left over), max constraint violation,
mean iterations, wall time.

options:
  --solver NAME        constraint solver (lagrange-lab solvers lists them); default: the scene's
  --dt S               time step in seconds; default: the scene's
  --steps N            number of steps
  --duration S         simulated seconds (default 10; rounded up to whole steps)
  --every K            write every K-th step to the CSV (default 1); step 0 is always written
  --csv FILE|-         write a CSV trajectory (- for standard output; the summary then goes to stderr).
                       Columns: step,t,kinetic,potential,energy,violation then x0,y0,z0,vx0,vy0,vz0,x1,...
                       violation is max |C| in metres over the scene's constraints (never the mouse's pin).
                       Full double precision. The file appears complete or not at all.
%s  --set KEY=VALUE      change a setting (repeatable); keys:
%s  --quiet              no summary
  --help               this text
Exit codes: 0 ok, 1 could not write output, 2 bad command line or scene file.
)";

std::string settings_help() {
  std::string text;
  for (const SettingInfo& info : setting_table()) {
    char line[256];
    std::snprintf(line, sizeof line, "                         %-15s %s%s%s%s\n", info.key, info.description,
                  info.unit[0] ? " [" : "", info.unit, info.unit[0] ? "]" : "");
    text += line;
  }
  return text;
}

void write_row(std::FILE* out, const World& world) {
  const Energy e = world.energy();
  std::fprintf(out, "%ld,%.17g,%.17g,%.17g,%.17g,%.17g", world.step_count(), world.time(), e.kinetic, e.potential,
               e.total(), world.max_violation());
  const Particles& p = world.particles();
  for (std::size_t i = 0; i < p.size(); ++i) {
    const Vec3& x = p.position[i];
    const Vec3& v = p.velocity[i];
    std::fprintf(out, ",%.17g,%.17g,%.17g,%.17g,%.17g,%.17g", x.x, x.y, x.z, v.x, v.y, v.z);
  }
  std::fputc('\n', out);
}

void write_header(std::FILE* out, std::size_t particles) {
  std::fputs("step,t,kinetic,potential,energy,violation", out);
  for (std::size_t i = 0; i < particles; ++i)
    std::fprintf(out, ",x%zu,y%zu,z%zu,vx%zu,vy%zu,vz%zu", i, i, i, i, i, i);
  std::fputc('\n', out);
}

}  // namespace

int run_main(int argc, char** argv) {
  Args args(argc, argv);
  std::optional<std::string> scene_path, solver, csv;
  std::optional<double> dt, duration;
  std::optional<long> steps;
  long every = 1;
  bool quiet = false;
  std::vector<std::pair<std::string, std::string>> sets;
  DragOptions drag_options;
  while (!args.empty()) {
    if (args.flag("--help") || args.flag("-h")) {
      std::printf(kRunUsage, kDragUsage, settings_help().c_str());
      return 0;
    }
    if (auto v = args.option("--solver")) { solver = *v; continue; }
    if (auto v = args.option("--dt")) { dt = parse_number("--dt", *v); continue; }
    if (auto v = args.option("--steps")) { steps = parse_count("--steps", *v, 0); continue; }
    if (auto v = args.option("--duration")) { duration = parse_number("--duration", *v); continue; }
    if (auto v = args.option("--every")) { every = parse_count("--every", *v, 1); continue; }
    if (auto v = args.option("--csv")) { csv = *v; continue; }
    if (auto v = args.option("--set")) {
      const auto eq = v->find('=');
      if (eq == std::string::npos) throw UsageError("--set: expected KEY=VALUE, got '" + *v + "'");
      sets.emplace_back(v->substr(0, eq), v->substr(eq + 1));
      continue;
    }
    if (read_drag_option(args, drag_options)) continue;
    if (args.flag("--quiet")) { quiet = true; continue; }
    if (!scene_path) {
      if (auto p = args.positional()) { scene_path = *p; continue; }
    }
    args.finish();
  }
  if (!scene_path) throw UsageError("missing SCENE (see --help)");
  if (steps && duration) throw UsageError("give --steps or --duration, not both");
  if (duration && !(*duration >= 0.0)) throw UsageError("--duration: must be >= 0");

  const Scene scene = load_scene_file(*scene_path);  // SceneError is reported by main with exit code 2
  Settings settings = scene.settings;
  if (solver) {
    if (std::string problem = set_setting(settings, "solver", *solver); !problem.empty()) throw UsageError(problem);
  }
  if (dt) {
    if (!(*dt > 0.0)) throw UsageError("--dt: must be greater than 0");
    settings.dt = *dt;
  }
  for (const auto& [key, value] : sets)
    if (std::string problem = set_setting(settings, key, value); !problem.empty())
      throw UsageError("--set " + problem);
  World world = make_world(scene);
  world.set_settings(settings);
  check_drags(drag_options, world);
  DragSettings drag_settings;
  drag_settings.model = drag_options.model;
  DragScript script(drag_options.drags, drag_settings);
  DragController drag;
  const long total_steps = steps ? *steps : static_cast<long>(std::ceil(duration.value_or(10.0) / settings.dt - 1e-9));

  // The CSV goes to a temporary file renamed at the end, so a failed run never leaves half a file behind.
  std::FILE* out = nullptr;
  std::filesystem::path final_path, temp_path;
  const bool csv_stdout = csv && *csv == "-";
  if (csv_stdout) {
    out = stdout;
  } else if (csv) {
    final_path = *csv;
    temp_path = final_path;
    temp_path += ".partial";
    out = std::fopen(temp_path.c_str(), "w");
    if (!out) {
      std::fprintf(stderr, "lagrange-lab run: %s: cannot write: %s\n", csv->c_str(), std::strerror(errno));
      return 1;
    }
  }
  if (out) {
    write_header(out, world.particles().size());
    write_row(out, world);
  }

  const Energy e0 = world.energy();
  double worst_violation = world.max_violation(true), worst_velocity = 0.0, max_drift = 0.0;
  long iterations = 0, recoveries = 0, failures = 0, rollbacks = 0;
  int dependent = 0;
  const auto start = std::chrono::steady_clock::now();
  for (long s = 1; s <= total_steps; ++s) {
    script.before_step(world, drag);  // the scripted drags, through the sandbox's drag controller
    drag.before_step(world);
    world.step();
    drag.after_step(world);
    const StepStats& st = world.stats();
    worst_violation = std::max(worst_violation, st.max_relative_violation);
    worst_velocity = std::max(worst_velocity, st.max_velocity_violation);
    const Work& w = world.work();
    max_drift = std::max(max_drift, std::abs(st.energy.total() - e0.total() - w.mouse - w.damping));
    iterations += st.iterations;
    recoveries += st.recoveries;
    failures += st.failures;
    rollbacks += st.non_finite ? 1 : 0;
    dependent = std::max(dependent, st.dependent_rows);
    if (out && s % every == 0) write_row(out, world);
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  drag.release(world);  // a drag still held at the end lets go, so the summary counts the scene's constraints only

  if (out && !csv_stdout) {
    const bool write_failed = std::ferror(out) != 0;
    if (std::fclose(out) != 0 || write_failed) {
      std::filesystem::remove(temp_path);
      std::fprintf(stderr, "lagrange-lab run: %s: write failed\n", csv->c_str());
      return 1;
    }
    std::error_code ec;
    std::filesystem::rename(temp_path, final_path, ec);
    if (ec) {
      std::filesystem::remove(temp_path);
      std::fprintf(stderr, "lagrange-lab run: %s: %s\n", csv->c_str(), ec.message().c_str());
      return 1;
    }
  }
  if (quiet) return 0;
  std::FILE* report = csv_stdout ? stderr : stdout;
  const Energy e1 = world.energy();
  std::fprintf(report, "scene        %s (%s)\n", scene.name.c_str(), scene_path->c_str());
  std::fprintf(report, "solver       %s, dt %.6g s, %d substep(s), tolerance %.3g\n", world.solver_info().id,
               settings.dt, settings.substeps, settings.tolerance);
  std::fprintf(report, "particles    %zu, constraints %zu (%zu rows)\n", world.particles().size(),
               world.constraints().size(), world.rows().size());
  std::fprintf(report, "steps        %ld (%.6g s simulated)\n", total_steps, world.time());
  const Work& work = world.work();
  std::fprintf(report, "energy       start %.9g J, end %.9g J, change %+.6e J\n", e0.total(), e1.total(),
               e1.total() - e0.total());
  std::fprintf(report, "work         mouse %+.6e J, damping %+.6e J\n", work.mouse, work.damping);
  std::fprintf(report, "drift        %+.3e J (E - E0 - W_mouse - W_damping), max |drift| %.3e J\n",
               e1.total() - e0.total() - work.mouse - work.damping, max_drift);
  std::fprintf(report, "violation    max |C|/L %.3e over the run, %.3e at the end; max |J v| %.3e m/s\n",
               worst_violation, world.max_violation(true), worst_velocity);
  std::fprintf(report, "iterations   %.3g per step (mean)\n",
               total_steps ? static_cast<double>(iterations) / total_steps : 0.0);
  std::fprintf(report, "recoveries   %ld, convergence failures %ld, redundant rows %d\n", recoveries, failures,
               dependent);
  if (rollbacks)
    std::fprintf(report, "warning      %ld step(s) produced NaN/inf and were rolled back (lower dt or stiffness)\n",
                 rollbacks);
  std::fprintf(report, "wall time    %.3f s (%.2f us per step)\n", wall,
               total_steps ? 1e6 * wall / total_steps : 0.0);
  return 0;
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
