// `lagrange-lab converge`: the order of accuracy of each solver on a scene (lagrange/convergence.h), printed and as CSV.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "capture/output_file.h"
#include "cli/commands.h"
#include "lagrange/convergence.h"
#include "lagrange/scene.h"
#include "lagrange/text.h"
#include "options/args.h"

namespace lagrange::cli {
namespace {

constexpr const char* kConvergeUsage = R"usage(usage: lagrange-lab converge SCENE --until T [options]

The order of accuracy: runs SCENE to time T at the substep h, h/2, h/4 ... (one substep per step; h is the scene's
dt / substeps unless --dt says otherwise) with each solver, compares every particle's position at T with a reference
run (rattle, second order, at a substep 16 times finer than the finest level), and fits the slope P of log error
against log h. Prints
  reference rattle at dt R
  SOLVER  order P  error E at dt D     (one line per solver; E at the finest level D)
Projection and the acceleration level are first order, shake and rattle second; the penalty method converges to its
spring system, not the rigid one, so its error stops falling (order near 0).

options:
  --until T        the time the positions are compared at, seconds (required; > 0, at most 1e4)
  --solvers A,B    the solvers (default: all; lagrange-lab solvers lists them)
  --levels N       step sizes h, h/2, ... h/2^(N-1) (default 5, 2 .. 12)
  --dt S           the coarsest substep h (default: the scene's dt / substeps)
  --set KEY=VALUE  change a setting of the scene first (repeatable; run --help lists them)
  --csv FILE|-     one line per run: solver,dt,error (full precision), then the fitted orders as solver,order
  --plot FILE.png  the log-log picture: error against dt, a line per solver in its colour, the fitted orders in
                   the legend, slope triangles for orders 1 and 2 (drawn as `shot` draws, with no display)
  --allow-large    lift the limits on scene size (docs/cli.md)
  --help           this text
Exit codes: 0 ok, 1 could not write output, 2 bad command line or scene file, 3 a run became non-finite at every
level of a solver.
)usage";

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) out.push_back(item);
  return out;
}

}  // namespace

int converge_main(int argc, char** argv, const PlotRenderer& render_plot) {
  Args args(argc, argv);
  std::optional<std::string> scene_path, csv, plot;
  std::optional<double> until, dt;
  ConvergenceStudy study;
  SettingPairs sets;
  SceneLimits limits;
  while (!args.empty()) {
    if (args.flag("--help") || args.flag("-h")) {
      std::fputs(kConvergeUsage, stdout);
      return 0;
    }
    if (auto v = args.option("--until")) { until = parse_number("--until", *v); continue; }
    if (auto v = args.option("--solvers")) { study.solvers = split(*v); continue; }
    if (auto v = args.option("--levels")) { study.levels = static_cast<int>(parse_count("--levels", *v, 2, 12)); continue; }
    if (auto v = args.option("--dt")) { dt = parse_number("--dt", *v); continue; }
    if (auto v = args.option("--csv")) { csv = *v; continue; }
    if (auto v = args.option("--plot")) { plot = *v; continue; }
    if (set_option(args, sets)) continue;
    if (scene_option(args, limits)) continue;
    if (!scene_path) {
      if (auto p = args.positional()) { scene_path = *p; continue; }
    }
    args.finish();
  }
  if (!scene_path) throw UsageError("missing SCENE (see --help)");
  if (!until) throw UsageError("--until T is required (the time the positions are compared at)");
  if (!(*until > 0.0 && *until <= 1e4)) throw UsageError("--until: must be in > 0 .. 1e4 s, got " + format_number(*until));
  if (dt && !(*dt >= 1e-7 && *dt <= 1.0)) throw UsageError("--dt: must be in 1e-07 .. 1 s, got " + format_number(*dt));
  for (const std::string& id : study.solvers)
    if (!find_solver(id)) throw UsageError("--solvers: unknown solver " + lagrange::quoted(id) + " (" + solver_ids() + ")");
  if (csv && csv->empty()) throw UsageError("--csv needs a file name (or - for standard output)");
  if (csv) io::refuse_same_file(*scene_path, *csv);
  if (plot) {
    if (plot->empty()) throw UsageError("--plot needs a file name");
    if (std::string problem = io::png_name_problem("--plot", *plot, false); !problem.empty()) throw UsageError(problem);
    if (!render_plot) throw UsageError("--plot needs the sandbox's build (LAGRANGE_BUILD_APP); write a --csv");
    io::refuse_same_file(*scene_path, *plot);
    if (csv && !io::is_standard_output(*csv) && std::filesystem::path(*csv) == std::filesystem::path(*plot))
      throw UsageError("--csv and --plot name the same file");
  }
  Scene scene = load_scene_file(*scene_path, limits);
  apply_sets(scene.settings, sets);
  study.until = *until;
  if (dt) study.coarsest = *dt;
  // Both outputs opened before the study (a target that cannot be written fails at once), and renamed only once
  // everything is written and the summary has arrived (as shot's): a run that exits 1 leaves the previous files as
  // they were.
  std::optional<io::OutputFile> csv_file, plot_file;
  if (csv) csv_file.emplace(*csv);
  if (plot) plot_file.emplace(*plot, false);  // the summary owns standard output
  ConvergenceReport report;
  try {
    report = convergence_study(scene, study);
  } catch (const Error& error) {
    throw UsageError(error.what());
  }
  const bool data_on_stdout = csv && io::is_standard_output(*csv);
  std::FILE* summary = data_on_stdout ? stderr : stdout;
  if (csv_file) {
    io::OutputFile& file = *csv_file;
    file.write("solver,dt,error\n");
    for (const ConvergenceResult& r : report.results)
      for (const ConvergenceLevel& level : r.levels)
        file.print("%s,%s,%s\n", r.solver.c_str(), format_number(level.dt).c_str(), format_number(level.error).c_str());
    file.write("solver,order\n");
    for (const ConvergenceResult& r : report.results)
      file.print("%s,%s\n", r.solver.c_str(), format_number(r.order).c_str());
    file.finish();
  }
  if (plot_file) {
    const std::string title = "Order of accuracy: " + std::filesystem::path(*scene_path).filename().string() +
                              ", positions at T = " + format_number(*until) + " s";
    std::string png;
    if (std::string problem = render_plot(report, title, png); !problem.empty()) {
      std::fprintf(stderr, "lagrange-lab converge: --plot: %s; no PNG written\n", problem.c_str());
      return kExitOutputFailed;
    }
    plot_file->write(png);
    plot_file->finish();
  }
  std::fprintf(summary, "reference rattle at dt %.4g\n", report.reference_dt);
  bool failed = false;
  for (const ConvergenceResult& r : report.results) {
    const ConvergenceLevel& finest = r.levels.back();
    std::fprintf(summary, "%-13s order %.3f  error %.3e at dt %.4g\n", r.solver.c_str(), r.order, finest.error,
                 finest.dt);
    failed |= !std::isfinite(finest.error);
  }
  if (summary == stdout) io::check_standard_output();  // the system's reason, exit code 1
  if (csv_file) csv_file->commit();
  if (plot_file) plot_file->commit();
  return failed ? kExitSimulationFailed : 0;
}

}  // namespace lagrange::cli
