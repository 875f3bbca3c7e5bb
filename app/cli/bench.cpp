// `lagrange-lab bench`: workload × solver → µs per step (median), iterations, accuracy, energy, failures.
// A step is one 1/60 s frame made of 4 substeps of 1/240 s. Its time is the world's own solve time, which leaves out
// the observer that measures |C|/L after every substep.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "cli/args.h"
#include "cli/commands.h"
#include "lagrange/builders.h"
#include "lagrange/scene.h"
#include "lagrange/solver.h"

namespace lagrange::cli {
namespace {

constexpr const char* kBenchUsage = R"(usage: lagrange-lab bench [options]

Runs every workload with every solver and prints a table. One step = 1/60 s = 4 substeps of 1/240 s.
Workloads: pendulum (one 1 m link), chain10 .. chain10000 (1 kg particles, 1 m links, fixed anchor, released
horizontally), cloth64 (64x64 particles, 0.1 m spacing, 0.01 kg, held at two opposite corners, released flat).

columns:
  us/step    median wall time of one 1/60 s step (all 4 substeps: World::step's solve time), over every step of
             every repeat
  iter/step  Newton iterations (projection), sweeps (shake, rattle) or linear solves per step, mean
  max|C|/L   worst relative rod-length error after any substep
  dE         (E_end - E_start) / max |U(t) - U(0)|: energy gained (+) or lost (-) as a fraction of the
             potential energy that moved through the system
  fail       substeps that ended above tolerance (or rolled back after NaN)
  recov      substeps whose linearization lost its root and were split or re-linearized
  steps      steps run (a solver that exceeds --budget stops early)

options:
  --steps N            steps per repeat (default 60 = 1 s of simulated time; 1 .. 1000000)
  --repeats R          repeats per cell (default 3; 1 .. 1000)
  --budget S           wall-time budget per cell in seconds (default 5; > 0 .. 3600)
  --workload NAME      run only this workload (repeatable)
  --solver NAME        run only this solver (repeatable)
  --set KEY=VALUE      change a setting for every run (e.g. --set tolerance=1e-8); default max_iterations=100000
                       so that shake's sweep counts are measured rather than capped
  --help               this text
)";

struct Workload {
  std::string name;
  Scene scene;
};

Scene chain_scene(int links) {
  Scene scene;
  scene.name = "chain" + std::to_string(links);
  scene.dimension = 2;
  ChainDef def;
  def.links = links;
  def.link_length = 1.0;
  def.particle_mass = 1.0;
  def.direction = {1.0, 0.0, 0.0};
  append_chain(scene, def);
  return scene;
}

Scene cloth_scene(int n) {
  Scene scene;
  scene.name = "cloth" + std::to_string(n);
  scene.dimension = 3;
  ClothDef def;
  def.nx = n;
  def.ny = n;
  def.spacing = 0.1;
  def.particle_mass = 0.01;
  // Held at two opposite corners: two corners of one edge would hold that edge as a straight line of rods
  // between fixed points, which no rigid rod can hold up against gravity (infinite tension).
  def.pin_two_corners = false;
  const int first = append_cloth(scene, def);
  scene.particles[first].fixed = true;
  scene.particles[first + n * n - 1].fixed = true;
  return scene;
}

std::vector<Workload> all_workloads() {
  std::vector<Workload> list;
  Scene pendulum = chain_scene(1);
  list.push_back({"pendulum", pendulum});
  for (int links : {10, 100, 1000, 10000}) list.push_back({"chain" + std::to_string(links), chain_scene(links)});
  list.push_back({"cloth64", cloth_scene(64)});
  return list;
}

struct Cell {
  std::vector<double> step_us;
  long steps = 0, iterations = 0, failures = 0, recoveries = 0;
  double worst = 0.0, energy_change = 0.0, potential_swing = 0.0;
};

template <typename T>
bool selected(const std::vector<std::string>& filter, const T& name) {
  return filter.empty() || std::find(filter.begin(), filter.end(), name) != filter.end();
}

}  // namespace

int bench_main(int argc, char** argv) {
  Args args(argc, argv);
  long steps = 60, repeats = 3;
  double budget = 5.0;
  std::vector<std::string> workloads, solvers;
  Settings base;
  base.dt = 1.0 / 60.0;
  base.substeps = 4;
  base.gravity = {0.0, -9.81, 0.0};
  base.max_iterations = 100000;
  while (!args.empty()) {
    if (args.flag("--help") || args.flag("-h")) {
      std::fputs(kBenchUsage, stdout);
      return 0;
    }
    if (auto v = args.option("--steps")) { steps = parse_count("--steps", *v, 1, 1'000'000); continue; }
    if (auto v = args.option("--repeats")) { repeats = parse_count("--repeats", *v, 1, 1000); continue; }
    if (auto v = args.option("--budget")) {
      budget = parse_number("--budget", *v);
      if (!(budget > 0.0 && budget <= 3600.0))
        throw UsageError("--budget: must be in > 0 .. 3600 seconds, got " + format_number(budget));
      continue;
    }
    if (auto v = args.option("--workload")) { workloads.push_back(*v); continue; }
    if (auto v = args.option("--solver")) {
      if (!find_solver(*v)) throw UsageError("--solver: unknown solver '" + *v + "'");
      solvers.push_back(*v);
      continue;
    }
    if (auto v = args.option("--set")) {
      const auto eq = v->find('=');
      if (eq == std::string::npos) throw UsageError("--set: expected KEY=VALUE, got '" + *v + "'");
      if (std::string p = set_setting(base, v->substr(0, eq), v->substr(eq + 1)); !p.empty())
        throw UsageError("--set " + p);
      continue;
    }
    args.finish();
  }
  const auto list = all_workloads();
  for (const std::string& w : workloads) {
    std::string names;
    bool known = false;
    for (const Workload& item : list) {
      known = known || item.name == w;
      names += (names.empty() ? "" : ", ") + item.name;
    }
    if (!known) throw UsageError("--workload: unknown workload '" + w + "' (" + names + ")");
  }


  std::printf("%-11s %-13s %10s %10s %10s %10s %6s %6s %6s\n", "workload", "solver", "us/step", "iter/step",
              "max|C|/L", "dE", "fail", "recov", "steps");
  for (const Workload& workload : list) {
    if (!selected(workloads, workload.name)) continue;
    for (const SolverInfo& info : solver_table()) {
      if (!selected(solvers, std::string(info.id))) continue;
      Cell cell;
      const auto cell_start = std::chrono::steady_clock::now();
      bool out_of_time = false;
      for (long r = 0; r < repeats && !out_of_time; ++r) {
        World world = make_world(workload.scene);
        Settings settings = base;
        settings.solver = info.id;
        world.set_settings(settings);
        const Energy e0 = world.energy();
        double swing = 0.0;
        for (long s = 0; s < steps; ++s) {
          world.step([&cell](const World& w) { cell.worst = std::max(cell.worst, w.max_violation(true)); });
          const StepStats& st = world.stats();
          cell.step_us.push_back(1e6 * st.solve_seconds);
          cell.iterations += st.iterations;
          cell.failures += st.failures;
          cell.recoveries += st.recoveries;
          ++cell.steps;
          swing = std::max(swing, std::abs(world.energy().potential - e0.potential));
          if (std::chrono::duration<double>(std::chrono::steady_clock::now() - cell_start).count() > budget) {
            out_of_time = true;
            break;
          }
        }
        cell.energy_change = world.energy().total() - e0.total();
        cell.potential_swing = swing;
      }
      std::sort(cell.step_us.begin(), cell.step_us.end());
      const double median = cell.step_us.empty() ? 0.0 : cell.step_us[cell.step_us.size() / 2];
      const double de = cell.potential_swing > 0.0 ? cell.energy_change / cell.potential_swing : 0.0;
      char steps_text[32];
      const bool cut_short = out_of_time && cell.steps < steps * repeats;
      std::snprintf(steps_text, sizeof steps_text, "%ld%s", cell.steps, cut_short ? "*" : "");
      std::printf("%-11s %-13s %10.1f %10.1f %10.2e %+10.2e %6ld %6ld %6s\n", workload.name.c_str(), info.id, median,
                  cell.steps ? static_cast<double>(cell.iterations) / cell.steps : 0.0, cell.worst, de,
                  cell.failures, cell.recoveries, steps_text);
      std::fflush(stdout);
    }
  }
  std::printf("* stopped early: the cell used up its --budget of %.3g s\n", budget);
  return 0;
}

}  // namespace lagrange::cli
