// `lagrange-lab bench`: workload × solver → CPU µs per step (mean and median over every step), iterations, accuracy,
// energy, failures; `--json` for machines, `--compare BINARY` to set this build beside another one in the same run.
// A step is one 1/60 s frame made of 4 substeps of 1/240 s. Its time is the CPU time of World::step; |C|/L and the
// energy are measured after the step, outside the timing.
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "capture/output_file.h"
#include "cli/commands.h"
#include "lagrange/builders.h"
#include "lagrange/measure.h"
#include "lagrange/contacts.h"
#include "lagrange/scene.h"
#include "lagrange/solver.h"
#include "options/args.h"

namespace lagrange::cli {
namespace {

constexpr const char* kBenchUsage = R"(usage: lagrange-lab bench [options]

Runs every workload with every solver and prints a table. One step = 1/60 s = 4 substeps of 1/240 s.
Workloads (--list-workloads describes each):
  pendulum, chain10 .. chain100000   1 kg particles, 1 m links, fixed anchor, released horizontally
  cloth32, cloth64, cloth128         n x n particles, 0.1 m spacing, 0.01 kg, held at two opposite corners, flat
  cloth32-tri, cloth32-braced        the same sheet with one / both diagonals per cell: redundant rods
  truss40                            a 2D bridge truss of 40 braced cells between two fixed nodes: redundant rods
  hub12                              a particle held by 12 rods from a ring of anchors, a pendulum under it
  balls1000, balls2000, balls10000   n balls of 1 cm settling into a pile in a 2D box (contacts)
  gas1000, gas10000, gas100000       n elastic discs in a box, no gravity: the broad phase's curve (contacts)

columns:
  cpu-mean   mean CPU time of one 1/60 s step in microseconds (World::step, its thread's CPU time), over
             every step of every repeat that ran
  cpu-med    the median of the same
  wall-med   median wall time of a step (what a window waits)
  iter/step  iterates evaluated (projection), sweeps (shake, rattle) or linear solves per step, mean
  max|C|/L   worst relative rod-length error after any step
  overlap    contact workloads: how deep a ball lay in another or in a wall after the last step of a repeat (the
             deepest over the repeats), in radii; "-" without contacts, "n/a" when the budget cut the first repeat
  dE         (E_end - E_start) / max |U(t) - U(0)|: energy gained (+) or lost (-) as a fraction of the
             potential energy that moved through the system
  fail       substeps that ended above tolerance (or rolled back after NaN)
  recov      substeps whose linearization lost its root and were split or re-linearized
  held       substeps in which rigid rods lying flat or straight (a flat sheet, a taut edge) were held
  steps      steps run; "41/180 cut" when the cell used up its --budget: its times then cover only the steps
             that ran (the slow phase may come later); the step the budget stopped part-way is not counted

options:
  --steps N            steps per repeat (default 60 = 1 s of simulated time; 1 .. 1000000)
  --repeats R          repeats per cell (default 3; 1 .. 1000)
  --budget S           wall-time budget per cell in seconds (default 30; > 0 .. 3600)
  --workload NAME      run only this workload (repeatable)
  --solver NAME        run only this solver (repeatable)
  --set KEY=VALUE      change a setting for every run (e.g. --set tolerance=1e-8); default max_iterations=100000
                       so that shake's sweep counts are measured rather than capped (the contact workloads keep
                       the window's 100: it also sets their sweeps, and an unfinished pile would get 100000)
  --json FILE|-        also write the results as JSON (one object per cell; - for standard output, the table
                       then goes to stderr)
  --compare BINARY     run every cell twice more as child processes, this build and BINARY (another build of
                       lagrange-lab, e.g. an older commit), alternating which goes first, and print the ratio of
                       their CPU times (whole child process) and of their per-step medians
  --jobs N             run N cells side by side, one thread each (default 1; 1 .. 8); the table keeps its order.
                       CPU times per step stay per-thread (each step's own thread's CPU clock), so they still
                       compare cells; the cells share the memory bandwidth and caches, and wall times include
                       waiting for a core when N is above the free cores. Not with --compare
  --list-workloads     describe the workloads and exit
  --help               this text
)";

struct Workload {
  std::string name;
  std::string description;
  std::function<Scene()> build;  // built when the workload runs: a bench of one cell pays for no other scene
  bool weightless = false;        // no gravity, whatever bench's settings say (the gas)
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

// Held at two opposite corners: two corners of one edge would hold that edge as a straight line of rods between
// fixed points, which no rigid rod can hold up against gravity (infinite tension).
Scene cloth_scene(int n, bool triangulate = false, bool braced = false) {
  Scene scene;
  scene.name = "cloth" + std::to_string(n);
  scene.dimension = 3;
  ClothDef def;
  def.nx = n;
  def.ny = n;
  def.spacing = 0.1;
  def.particle_mass = 0.01;
  def.triangulate = triangulate;
  def.shear = braced;
  def.pin_two_corners = false;
  const int first = append_cloth(scene, def);
  scene.particles[first].fixed = true;
  scene.particles[first + n * n - 1].fixed = true;
  return scene;
}

// A 2D bridge truss: nodes (i, 0) and (i, 1) for i = 0 .. cells, chords, verticals and both diagonals of every cell,
// the two bottom end nodes fixed. Every braced cell has one rod more than it needs.
Scene truss_scene(int cells) {
  Scene scene;
  scene.name = "truss" + std::to_string(cells);
  scene.dimension = 2;
  const auto node = [](int i, int j) { return 2 * i + j; };
  for (int i = 0; i <= cells; ++i)
    for (int j = 0; j < 2; ++j) {
      ParticleDef p;
      p.position = Vec3(static_cast<double>(i), static_cast<double>(j), 0.0);
      p.mass = 1.0;
      p.fixed = j == 0 && (i == 0 || i == cells);
      scene.particles.push_back(p);
    }
  const auto rod = [&](int a, int b) {
    ConstraintDef c;
    c.particles = {a, b};
    scene.constraints.push_back(c);
  };
  for (int i = 0; i <= cells; ++i) rod(node(i, 0), node(i, 1));
  for (int i = 0; i < cells; ++i) {
    for (int j = 0; j < 2; ++j) rod(node(i, j), node(i + 1, j));
    rod(node(i, 0), node(i + 1, 1));
    rod(node(i, 1), node(i + 1, 0));
  }
  return scene;
}

// A particle held by `spokes` rods from a ring of fixed anchors above it (3 rows would do), with a 1 m pendulum
// hanging from it, released sideways.
Scene hub_scene(int spokes) {
  Scene scene;
  scene.name = "hub" + std::to_string(spokes);
  scene.dimension = 3;
  ParticleDef hub;
  hub.mass = 1.0;
  scene.particles.push_back(hub);
  ParticleDef bob;
  bob.position = Vec3(1.0, 0.0, 0.0);
  bob.mass = 1.0;
  scene.particles.push_back(bob);
  ConstraintDef pendulum;
  pendulum.particles = {0, 1};
  scene.constraints.push_back(pendulum);
  for (int k = 0; k < spokes; ++k) {
    const double a = 2.0 * M_PI * k / spokes;
    ParticleDef anchor;
    anchor.position = Vec3(std::cos(a), 1.0, std::sin(a));
    anchor.fixed = true;
    scene.particles.push_back(anchor);
    ConstraintDef spoke;
    spoke.particles = {0, 2 + k};
    scene.constraints.push_back(spoke);
  }
  return scene;
}

// n balls of 1 cm radius and 10 g in a 2D box, released from a loose grid (2.2 radii apart, balls shifted by up to
// 5 % of a radius) under gravity: they fall, land and settle into a pile (restitution 0, friction 0.3). Every other
// row is shifted by half a spacing, so that each ball lands in a gap of the row below: from a square grid they land
// on top of each other, in columns that stand as long as every substep is solved (frictional particles that cannot
// roll: a ball resting on another a little off centre sticks), and they made a pile only where unfinished substeps
// toppled them (balls of 10 cm, whose substeps converge, stood in columns: 7 ms a step instead of 137 ms staggered).
Scene balls_scene(int n) {
  Scene scene;
  scene.name = "balls" + std::to_string(n);
  scene.dimension = 2;
  const double r = 0.01, spacing = 2.2 * r;
  const int columns = static_cast<int>(std::lround(std::sqrt(static_cast<double>(n))));
  const double width = columns * spacing;
  std::uint32_t seed = 12345;
  const auto jitter = [&seed] {  // a fixed sequence: the same scene every run
    seed = seed * 1664525u + 1013904223u;
    return (static_cast<double>(seed >> 8) / 16777216.0 - 0.5) * 0.1;
  };
  for (int k = 0; k < n; ++k) {
    ParticleDef p;
    const double stagger = (k / columns) % 2 == 1 ? 0.5 * spacing : 0.0;
    p.position = Vec3(-0.5 * width + ((k % columns) + 0.5) * spacing + stagger + jitter() * r,
                      1.05 * r + (k / columns) * spacing, 0.0);
    p.mass = 0.01;
    p.radius = r;
    scene.particles.push_back(p);
  }
  scene.contacts.given = true;
  scene.contacts.friction = 0.3;
  Obstacle box;
  box.shape = ObstacleShape::Box;
  box.min = Vec3(-0.5 * width, 0.0, 0.0);
  box.max = Vec3(0.5 * (width + spacing), 3.0 * (n / columns + 1) * spacing, 0.0);
  scene.contacts.obstacles.push_back(box);
  return scene;
}

// n discs of radius 0.2 / sqrt(1000) m (4 % of the area) with speed 1 m/s, elastic, no gravity, in a square box that
// grows with n (2 m for 1000 discs): the same density at every n, so every disc meets as many others per second and
// the work per disc — the broad phase and the impacts — is the same at every n.
Scene gas_scene(int n) {
  Scene scene;
  scene.name = "gas" + std::to_string(n);
  scene.dimension = 2;
  const int side = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(n))));
  const double half = std::sqrt(n / 1000.0), r = 0.2 / std::sqrt(1000.0);
  for (int k = 0; k < n; ++k) {
    ParticleDef p;
    p.position = Vec3(half * (-1.0 + ((k % side) + 0.5) * 2.0 / side), half * (-1.0 + ((k / side) + 0.5) * 2.0 / side),
                      0.0);
    const double angle = 2.399963229728653 * k;  // the golden angle: directions spread evenly
    p.velocity = Vec3(std::cos(angle), std::sin(angle), 0.0);
    p.mass = 1.0;
    p.radius = r;
    scene.particles.push_back(p);
  }
  scene.contacts.given = true;
  scene.contacts.restitution = 1.0;
  Obstacle box;
  box.shape = ObstacleShape::Box;
  box.min = Vec3(-half, -half, 0.0);
  box.max = Vec3(half, half, 0.0);
  scene.contacts.obstacles.push_back(box);
  return scene;
}

std::vector<Workload> all_workloads() {
  std::vector<Workload> list;
  list.push_back({"pendulum", "one 1 m link from a fixed anchor, released horizontally", [] { return chain_scene(1); }});
  for (int links : {10, 50, 100, 1000, 10000, 100000})
    list.push_back({"chain" + std::to_string(links),
                    std::to_string(links) + " links of 1 m, 1 kg particles, fixed anchor, released horizontally",
                    [links] { return chain_scene(links); }});
  for (int n : {32, 64, 128})
    list.push_back({"cloth" + std::to_string(n),
                    std::to_string(n) + "x" + std::to_string(n) +
                        " cloth, 0.1 m spacing, 10 g particles, two opposite corners fixed, released flat",
                    [n] { return cloth_scene(n); }});
  list.push_back({"cloth32-tri", "cloth32 with one diagonal per cell: a triangulated sheet (redundant when flat)",
                  [] { return cloth_scene(32, true, false); }});
  list.push_back({"cloth32-braced", "cloth32 with both diagonals per cell: a braced sheet (redundant rods)",
                  [] { return cloth_scene(32, false, true); }});
  list.push_back({"truss40", "2D bridge truss of 40 braced cells (201 rods for 160 degrees of freedom), ends fixed",
                  [] { return truss_scene(40); }});
  list.push_back({"hub12", "a particle held by 12 rods (3 would do) with a 1 m pendulum under it",
                  [] { return hub_scene(12); }});
  for (int n : {1000, 2000, 10000})
    list.push_back({"balls" + std::to_string(n),
                    std::to_string(n) + " balls of 1 cm in a 2D box, released from a loose staggered grid under "
                                        "gravity, settling into a pile (contacts: restitution 0, friction 0.3)",
                    [n] { return balls_scene(n); }});
  for (int n : {1000, 10000, 100000})
    list.push_back({"gas" + std::to_string(n),
                    std::to_string(n) + " elastic discs at 1 m/s, no gravity, in a box that keeps their density (2 m "
                                        "for 1000): the broad phase and the impacts, linear in n",
                    [n] { return gas_scene(n); }, true});
  return list;
}

struct Cell {
  std::string workload, solver;
  std::vector<double> step_cpu_us, step_wall_us;
  long steps = 0, planned = 0, iterations = 0, failures = 0, recoveries = 0, held = 0;
  bool cut = false;
  double worst = 0.0, energy_change = 0.0, potential_swing = 0.0;
  bool contacts = false;
  double overlap = NAN;  // contact workloads: the deepest a ball lay in another or a wall at a repeat's end, in radii
                         // (NaN: no repeat ran to its end)

  double mean_cpu() const {
    double sum = 0.0;
    for (double t : step_cpu_us) sum += t;
    return step_cpu_us.empty() ? 0.0 : sum / static_cast<double>(step_cpu_us.size());
  }
  static double median(std::vector<double> values) {
    if (values.empty()) return 0.0;
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
  }
  double de() const { return potential_swing > 0.0 ? energy_change / potential_swing : 0.0; }
  std::string steps_text() const {
    return cut ? std::to_string(steps) + "/" + std::to_string(planned) + " cut" : std::to_string(steps);
  }
};

// CPU seconds of this thread: what a noisy, shared machine lets two builds be compared by.
double thread_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

template <typename T>
bool selected(const std::vector<std::string>& filter, const T& name) {
  return filter.empty() || std::find(filter.begin(), filter.end(), name) != filter.end();
}

// A contact workload keeps the window's iteration cap unless --set gave one: the cap also sets the contact sweeps of a
// substep (contact_sweeps 0, automatic: max_iterations, or more for few rows), and bench's 100 000 would give an
// unfinished pile 100 000 sweeps a substep (3.9 s a step for balls2000, where the window spends 0.26 s).
Settings contact_workload_settings(const Settings& base, bool iterations_given) {
  Settings settings = base;
  if (!iterations_given) settings.max_iterations = Settings{}.max_iterations;
  return settings;
}

Cell run_cell(const Workload& workload, const Scene& built, const SolverInfo& info, const Settings& base, long steps,
              long repeats, double budget, bool iterations_given) {
  Cell cell;
  cell.workload = workload.name;
  cell.solver = info.id;
  cell.planned = steps * repeats;
  const auto cell_start = std::chrono::steady_clock::now();
  for (long r = 0; r < repeats; ++r) {
    Scene scene = built;
    scene.settings = built.contacts.given ? contact_workload_settings(base, iterations_given) : base;
    scene.settings.solver = info.id;
    if (workload.weightless) scene.settings.gravity = Vec3(0.0);
    World world = make_world(scene);
    // The budget also bounds a single step: SHAKE on 100 000 links would sweep for minutes. A step stopped by it
    // counts as a failure (above tolerance) and ends the cell.
    const auto deadline = cell_start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                           std::chrono::duration<double>(budget));
    world.set_deadline(deadline);
    const Energy e0 = world.energy();
    double swing = 0.0;
    for (long s = 0; s < steps; ++s) {
      const double cpu = thread_cpu_seconds();
      world.step();
      if (std::chrono::steady_clock::now() > deadline) {  // stopped part-way: its result means nothing, not counted
        cell.cut = true;
        break;
      }
      cell.step_cpu_us.push_back(1e6 * (thread_cpu_seconds() - cpu));
      const StepStats& st = world.stats();  // measured after the timing
      cell.worst = std::max(cell.worst, st.max_relative_violation);
      cell.step_wall_us.push_back(1e6 * st.solve_seconds);
      cell.iterations += st.iterations;
      cell.failures += st.failures;
      cell.recoveries += st.recoveries;
      cell.held += st.held;
      ++cell.steps;
      const Energy e = world.energy();
      swing = std::max(swing, std::abs(e.potential - e0.potential));
      cell.energy_change = e.total() - e0.total();  // of the last repeat, up to its last counted step
      cell.potential_swing = swing;
    }
    cell.contacts = world.model().contacts().any();
    if (cell.cut) break;
    if (cell.contacts) {  // the pile as it was left: how far the speed was bought with overlap
      const double depth = std::max(0.0, -worst_overlap(world.model(), world.state()));
      cell.overlap = std::isnan(cell.overlap) ? depth : std::max(cell.overlap, depth);
    }
  }
  return cell;
}

constexpr const char* kHeader = "%-15s %-13s %11s %11s %11s %10s %10s %10s %10s %6s %6s %6s %s\n";

std::string overlap_text(const Cell& cell) {
  if (!cell.contacts) return "-";
  if (!std::isfinite(cell.overlap)) return "n/a";  // cut before a repeat's end
  char text[32];
  std::snprintf(text, sizeof text, "%.2e", cell.overlap);
  return text;
}

void print_cell(std::FILE* out, const Cell& cell) {
  char de[32] = "n/a";  // an energy that overflowed (penalty cloth) has no meaningful ratio
  if (std::isfinite(cell.de())) std::snprintf(de, sizeof de, "%+.2e", cell.de());
  std::fprintf(out, "%-15s %-13s %11.1f %11.1f %11.1f %10.1f %10.2e %10s %10s %6ld %6ld %6ld %s\n", cell.workload.c_str(),
               cell.solver.c_str(), cell.mean_cpu(), Cell::median(cell.step_cpu_us), Cell::median(cell.step_wall_us),
               cell.steps ? static_cast<double>(cell.iterations) / cell.steps : 0.0, cell.worst,
               overlap_text(cell).c_str(), de, cell.failures,
               cell.recoveries, cell.held, cell.steps_text().c_str());
  std::fflush(out);
}

std::string json_cell(const Cell& cell) {
  std::ostringstream out;
  out << "{\"workload\": \"" << cell.workload << "\", \"solver\": \"" << cell.solver << "\", \"steps\": " << cell.steps
      << ", \"planned_steps\": " << cell.planned << ", \"cut\": " << (cell.cut ? "true" : "false")
      << ", \"cpu_mean_us\": " << format_number(cell.mean_cpu())
      << ", \"cpu_median_us\": " << format_number(Cell::median(cell.step_cpu_us))
      << ", \"wall_median_us\": " << format_number(Cell::median(cell.step_wall_us))
      << ", \"iterations_per_step\": "
      << format_number(cell.steps ? static_cast<double>(cell.iterations) / cell.steps : 0.0)
      << ", \"max_relative_violation\": " << (std::isfinite(cell.worst) ? format_number(cell.worst) : std::string("null"))
      << ", \"overlap\": "
      << (cell.contacts && std::isfinite(cell.overlap) ? format_number(cell.overlap) : std::string("null"))
      << ", \"dE\": " << (std::isfinite(cell.de()) ? format_number(cell.de()) : std::string("null"))
      << ", \"failures\": " << cell.failures << ", \"recoveries\": " << cell.recoveries << ", \"held\": " << cell.held << "}";
  return out.str();
}

// --- --compare -----------------------------------------------------------------------------------------------------

struct ChildRun {
  bool ok = false;
  double cpu_seconds = 0.0;                 // the child's user + system time
  std::optional<double> step_us;            // its per-step median from its table (cpu-med, or an old us/step)
  std::optional<double> violation;          // its max|C|/L
  std::string steps;                        // its steps column
};

// Runs `exe bench ARGS` and reads its table: the columns are found by their header names, so an older build whose
// table says "us/step" (a wall-time median) compares as well as this one's "cpu-med".
ChildRun run_child(const std::string& exe, const std::vector<std::string>& args, const std::string& workload,
                   const std::string& solver) {
  ChildRun result;
  int fds[2];
  if (::pipe(fds) != 0) return result;
  const pid_t pid = ::fork();
  if (pid < 0) return result;
  if (pid == 0) {
    ::dup2(fds[1], 1);
    ::close(fds[0]);
    ::close(fds[1]);
    std::vector<char*> argv;
    argv.push_back(const_cast<char*>(exe.c_str()));
    static char bench[] = "bench";
    argv.push_back(bench);
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(exe.c_str(), argv.data());
    ::_exit(127);
  }
  ::close(fds[1]);
  std::string text;
  char buffer[4096];
  for (ssize_t n; (n = ::read(fds[0], buffer, sizeof buffer)) > 0;) text.append(buffer, static_cast<std::size_t>(n));
  ::close(fds[0]);
  int status = 0;
  rusage usage{};
  if (::wait4(pid, &status, 0, &usage) < 0) return result;
  result.cpu_seconds = static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                       1e-6 * static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
  result.ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  std::istringstream lines(text);
  std::vector<std::string> header;
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::vector<std::string> row;
    for (std::string w; words >> w;) row.push_back(w);
    if (row.size() < 3) continue;
    if (row[0] == "workload") {
      header = row;
      continue;
    }
    if (header.empty() || row[0] != workload || row[1] != solver) continue;
    const auto column = [&](const char* name) -> std::optional<double> {
      const auto it = std::find(header.begin(), header.end(), name);
      const std::size_t k = static_cast<std::size_t>(it - header.begin());
      if (it == header.end() || k >= row.size()) return std::nullopt;
      try {
        return std::stod(row[k]);
      } catch (...) {
        return std::nullopt;
      }
    };
    result.step_us = column("cpu-med");
    if (!result.step_us) result.step_us = column("us/step");
    result.violation = column("max|C|/L");
    const auto steps = std::find(header.begin(), header.end(), "steps");
    const std::size_t k = static_cast<std::size_t>(steps - header.begin());
    for (std::size_t j = k; j < row.size(); ++j) result.steps += (j > k ? " " : "") + row[j];
  }
  return result;
}

std::string self_exe() {
  char path[4096];
  const ssize_t n = ::readlink("/proc/self/exe", path, sizeof path - 1);
  if (n <= 0) throw UsageError("--compare: cannot find this executable (/proc/self/exe)");
  return std::string(path, static_cast<std::size_t>(n));
}

std::string ratio_text(double a, double b) {
  if (!(a > 0.0) || !(b > 0.0)) return "n/a";
  char text[32];
  std::snprintf(text, sizeof text, "%.3f", a / b);
  return text;
}

int compare(const std::string& other, const std::vector<Workload>& list, const std::vector<std::string>& workloads,
            const std::vector<std::string>& solvers, const std::vector<std::string>& passed) {
  if (::access(other.c_str(), X_OK) != 0) throw UsageError("--compare: '" + other + "' is not an executable");
  const std::string self = self_exe();
  std::printf("this build: %s\nother:      %s\n", self.c_str(), other.c_str());
  std::printf("cpu ratio = this / other, CPU seconds of the whole child process (scene building included);\n"
              "step ratio = this / other, per-step medians from their tables (cpu-med here; an older build's\n"
              "us/step is a wall-time median). The order alternates cell by cell.\n\n");
  std::printf("%-15s %-13s %9s %9s %7s %11s %11s %7s %10s %10s  %s\n", "workload", "solver", "cpu-this", "cpu-other",
              "ratio", "step-this", "step-other", "ratio", "C/L-this", "C/L-other", "steps (this | other)");
  int order = 0;
  for (const Workload& workload : list) {
    if (!selected(workloads, workload.name)) continue;
    for (const SolverInfo& info : solver_table()) {
      if (!selected(solvers, std::string(info.id))) continue;
      std::vector<std::string> args = passed;
      args.insert(args.end(), {"--workload", workload.name, "--solver", info.id});
      ChildRun mine, theirs;
      if (order++ % 2 == 0) {
        mine = run_child(self, args, workload.name, info.id);
        theirs = run_child(other, args, workload.name, info.id);
      } else {
        theirs = run_child(other, args, workload.name, info.id);
        mine = run_child(self, args, workload.name, info.id);
      }
      const auto num = [](const std::optional<double>& v, const char* format) {
        if (!v) return std::string("n/a");
        char text[32];
        std::snprintf(text, sizeof text, format, *v);
        return std::string(text);
      };
      std::printf("%-15s %-13s %9.3f %9s %7s %11s %11s %7s %10s %10s  %s | %s\n", workload.name.c_str(), info.id,
                  mine.cpu_seconds, theirs.ok ? num(theirs.cpu_seconds, "%.3f").c_str() : "n/a",
                  theirs.ok ? ratio_text(mine.cpu_seconds, theirs.cpu_seconds).c_str() : "n/a",
                  num(mine.step_us, "%.1f").c_str(), theirs.ok ? num(theirs.step_us, "%.1f").c_str() : "n/a",
                  theirs.ok && mine.step_us && theirs.step_us ? ratio_text(*mine.step_us, *theirs.step_us).c_str()
                                                              : "n/a",
                  num(mine.violation, "%.2e").c_str(), theirs.ok ? num(theirs.violation, "%.2e").c_str() : "n/a",
                  mine.steps.c_str(), theirs.ok ? theirs.steps.c_str() : "(failed: unknown workload?)");
      std::fflush(stdout);
    }
  }
  return 0;
}

// One step is a 1/60 s frame of 4 substeps; the iteration cap is high so that shake's sweeps are counted, not capped.
// Not for the contact workloads (contact_workload_settings).
Settings bench_settings() {
  Settings base;
  base.dt = 1.0 / 60.0;
  base.substeps = 4;
  base.gravity = {0.0, -9.81, 0.0};
  base.max_iterations = 100000;
  return base;
}

// What the command line asked for.
struct BenchOptions {
  long steps = 60, repeats = 3;
  int jobs = 1;
  double budget = 30.0;
  std::vector<std::string> workloads, solvers, passed;  // passed: the options a --compare child gets
  std::optional<std::string> json, other;
  Settings base = bench_settings();  // with every --set
  bool iterations_given = false;     // --set max_iterations=...
};

// Reads the next option into `o`: false when the next item is none of bench's options with a value.
bool read_option(Args& args, BenchOptions& o) {
  if (auto v = args.option("--steps")) {
    o.steps = parse_count("--steps", *v, 1, 1'000'000);
    o.passed.insert(o.passed.end(), {"--steps", *v});
    return true;
  }
  if (auto v = args.option("--repeats")) {
    o.repeats = parse_count("--repeats", *v, 1, 1000);
    o.passed.insert(o.passed.end(), {"--repeats", *v});
    return true;
  }
  if (auto v = args.option("--budget")) {
    o.budget = parse_number("--budget", *v);
    if (!(o.budget > 0.0 && o.budget <= 3600.0))
      throw UsageError("--budget: must be in > 0 .. 3600 seconds, got " + format_number(o.budget));
    o.passed.insert(o.passed.end(), {"--budget", *v});
    return true;
  }
  if (auto v = args.option("--jobs")) {
    o.jobs = static_cast<int>(parse_count("--jobs", *v, 1, 8));
    return true;
  }
  if (auto v = args.option("--workload")) { o.workloads.push_back(*v); return true; }
  if (auto v = args.option("--solver")) {
    if (!find_solver(*v)) throw UsageError("--solver: unknown solver " + lagrange::quoted(*v));
    o.solvers.push_back(*v);
    return true;
  }
  if (auto v = args.option("--set")) {
    const auto eq = v->find('=');
    if (eq == std::string::npos || eq == 0) throw UsageError("--set: expected KEY=VALUE, got " + lagrange::quoted(*v));
    if (std::string p = set_setting(o.base, v->substr(0, eq), v->substr(eq + 1)); !p.empty())
      throw UsageError("--set " + p);
    if (v->substr(0, eq) == "max_iterations") o.iterations_given = true;
    o.passed.insert(o.passed.end(), {"--set", *v});
    return true;
  }
  if (auto v = args.option("--json")) {
    if (v->empty()) throw UsageError("--json needs a file name (or - for standard output)");
    o.json = *v;
    return true;
  }
  if (auto v = args.option("--compare")) {
    if (v->empty()) throw UsageError("--compare needs the path of another lagrange-lab");
    o.other = *v;
    return true;
  }
  return false;
}

void check_workloads(const std::vector<std::string>& workloads, const std::vector<Workload>& list) {
  for (const std::string& w : workloads) {
    std::string names;
    bool known = false;
    for (const Workload& item : list) {
      known = known || item.name == w;
      names += (names.empty() ? "" : ", ") + item.name;
    }
    if (!known) throw UsageError("--workload: unknown workload '" + w + "' (" + names + ")");
  }
}

void write_json(io::OutputFile& out, const std::vector<Cell>& cells) {
  out.write("[\n");
  for (std::size_t k = 0; k < cells.size(); ++k) out.write("  " + json_cell(cells[k]) + (k + 1 < cells.size() ? ",\n" : "\n"));
  out.write("]\n");
  out.commit();
}

// Every selected cell in this process, one table row as each finishes; with --json, the cells as JSON at the end.
int run_table(const BenchOptions& o, const std::vector<Workload>& list) {
  std::optional<io::OutputFile> out;
  const bool json_stdout = o.json && io::is_standard_output(*o.json);
  if (o.json) out.emplace(*o.json);
  std::FILE* table = json_stdout ? stderr : stdout;
  std::fprintf(table, kHeader, "workload", "solver", "cpu-mean", "cpu-med", "wall-med", "iter/step", "max|C|/L",
               "overlap", "dE", "fail", "recov", "held", "steps");
  // The cells in table order; with --jobs, N threads take them in that order and the rows are printed in it.
  std::vector<std::pair<const Workload*, const SolverInfo*>> tasks;
  for (const Workload& workload : list) {
    if (!selected(o.workloads, workload.name)) continue;
    for (const SolverInfo& info : solver_table())
      if (selected(o.solvers, std::string(info.id))) tasks.emplace_back(&workload, &info);
  }
  std::vector<Cell> cells(tasks.size());
  if (o.jobs <= 1) {
    const Workload* built_for = nullptr;
    Scene scene;
    for (std::size_t t = 0; t < tasks.size(); ++t) {
      if (tasks[t].first != built_for) scene = tasks[t].first->build(), built_for = tasks[t].first;
      cells[t] = run_cell(*tasks[t].first, scene, *tasks[t].second, o.base, o.steps, o.repeats, o.budget, o.iterations_given);
      print_cell(table, cells[t]);
    }
  } else {
    std::mutex mutex;
    std::size_t next = 0, printed = 0;
    std::vector<char> done(tasks.size(), 0);
    std::exception_ptr error;
    const auto worker = [&] {
      for (;;) {
        std::size_t t;
        {
          std::lock_guard<std::mutex> lock(mutex);
          if (next >= tasks.size() || error) return;
          t = next++;
        }
        try {
          const Scene scene = tasks[t].first->build();
          cells[t] = run_cell(*tasks[t].first, scene, *tasks[t].second, o.base, o.steps, o.repeats, o.budget, o.iterations_given);
        } catch (...) {
          std::lock_guard<std::mutex> lock(mutex);
          if (!error) error = std::current_exception();
          return;
        }
        std::lock_guard<std::mutex> lock(mutex);
        done[t] = 1;
        for (; printed < tasks.size() && done[printed]; ++printed) print_cell(table, cells[printed]);
        std::fflush(table);
      }
    };
    std::vector<std::thread> threads;
    for (int j = 0; j < std::min<int>(o.jobs, static_cast<int>(tasks.size())); ++j) threads.emplace_back(worker);
    for (std::thread& thread : threads) thread.join();
    if (error) std::rethrow_exception(error);
  }
  std::fprintf(table, "times in microseconds per 1/60 s step; \"cut\": the cell used up its --budget of %.3g s\n",
               o.budget);
  if (out) write_json(*out, cells);
  if (!json_stdout) io::check_standard_output();
  return 0;
}

}  // namespace

int bench_main(int argc, char** argv) {
  Args args(argc, argv);
  BenchOptions o;
  const auto list = all_workloads();
  while (!args.empty()) {
    if (args.flag("--help") || args.flag("-h")) {
      std::fputs(kBenchUsage, stdout);
      return 0;
    }
    if (args.flag("--list-workloads")) {
      for (const Workload& w : list) std::printf("%-15s %s\n", w.name.c_str(), w.description.c_str());
      return 0;
    }
    if (read_option(args, o)) continue;
    args.finish();
  }
  check_workloads(o.workloads, list);
  if (o.other && o.json) throw UsageError("--compare prints its own table; give --json without it");
  if (o.other && o.jobs > 1) throw UsageError("--compare runs its cells one at a time; give --jobs without it");
  if (o.other) return compare(*o.other, list, o.workloads, o.solvers, o.passed);
  return run_table(o, list);
}

}  // namespace lagrange::cli
