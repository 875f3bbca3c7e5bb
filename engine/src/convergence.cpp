// The order of accuracy, measured (convergence.h).
#include "lagrange/convergence.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "lagrange/model.h"
#include "lagrange/solver.h"
#include "lagrange/world.h"

namespace lagrange {

namespace {

// Counts the steps done against those the whole study takes, for ConvergenceStudy::progress and ::cancel.
struct StudyClock {
  const ConvergenceStudy& study;
  double total = 1.0, done = 0.0;
  void step() {
    done += 1.0;
    if (study.cancel && study.cancel->load(std::memory_order_relaxed)) throw ConvergenceCancelled();
    if (study.progress && std::fmod(done, 4096.0) == 0.0) study.progress(std::min(done / total, 1.0));
  }
};

// The scene run to T with this solver and substep h (one substep per step); the positions at T, or empty when a
// step went non-finite.
std::vector<Vec3> positions_at(const Scene& scene, const std::string& solver, double h, double until,
                               StudyClock& clock) {
  Scene copy = scene;
  copy.settings.solver = solver;
  copy.settings.substeps = 1;
  copy.settings.dt = h;
  World world = make_world(copy);
  const long steps = std::lround(until / h);
  const double end = clock.done + static_cast<double>(steps);
  for (long s = 0; s < steps; ++s) {
    clock.step();
    world.step();
    if (world.stats().non_finite) {
      clock.done = end;
      return {};
    }
  }
  if (clock.study.progress) clock.study.progress(std::min(clock.done / clock.total, 1.0));
  return world.state().position;
}

}  // namespace

double fitted_order(const std::vector<double>& x, const std::vector<double>& y) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  int n = 0;
  for (std::size_t i = 0; i < x.size() && i < y.size(); ++i) {
    if (!std::isfinite(x[i]) || !std::isfinite(y[i]) || !(x[i] > 0.0 && y[i] > 0.0)) continue;
    const double lx = std::log(x[i]), ly = std::log(y[i]);
    sx += lx, sy += ly, sxx += lx * lx, sxy += lx * ly;
    ++n;
  }
  if (n < 2) return std::numeric_limits<double>::quiet_NaN();
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

ConvergenceReport convergence_study(const Scene& scene, const ConvergenceStudy& study) {
  if (study.levels < 2 || study.levels > 12) throw Error("levels: must be in 2 .. 12, got " + std::to_string(study.levels));
  if (!(study.until > 0.0 && study.until <= 1e4)) throw Error("until: must be in > 0 .. 1e4 s");
  std::vector<std::string> solvers = study.solvers;
  if (solvers.empty())
    for (const SolverInfo& info : solver_table()) solvers.emplace_back(info.id);
  for (const std::string& id : solvers)
    if (!find_solver(id)) throw Error("unknown solver \"" + id + "\" (" + solver_ids() + ")");
  const double coarsest = study.coarsest > 0.0 ? study.coarsest : scene.settings.dt / scene.settings.substeps;
  // Whole steps to T at every level: the coarsest h is T over a whole number of steps.
  const double h0 = study.until / std::max(1.0, std::round(study.until / coarsest));
  const double finest = h0 / std::ldexp(1.0, study.levels - 1);
  if (std::lround(study.until / (finest / 16.0)) > 50'000'000L)
    throw Error("the reference run would take more than 5e7 steps: fewer levels, a larger dt or a shorter time");

  ConvergenceReport report;
  report.reference_dt = finest / 16.0;
  StudyClock clock{study};
  clock.total = static_cast<double>(std::lround(study.until / report.reference_dt));
  for (int level = 0; level < study.levels; ++level)
    clock.total += static_cast<double>(solvers.size()) *
                   static_cast<double>(std::lround(study.until / (h0 / std::ldexp(1.0, level))));
  const std::vector<Vec3> reference = positions_at(scene, "rattle", report.reference_dt, study.until, clock);
  if (reference.empty()) throw Error("the reference run (rattle) became non-finite");
  for (const std::string& id : solvers) {
    ConvergenceResult result;
    result.solver = id;
    std::vector<double> dts, errors;
    for (int level = 0; level < study.levels; ++level) {
      const double h = h0 / std::ldexp(1.0, level);
      const std::vector<Vec3> x = positions_at(scene, id, h, study.until, clock);
      double error = x.empty() ? std::numeric_limits<double>::quiet_NaN() : 0.0;
      for (std::size_t p = 0; p < x.size(); ++p) error = std::max(error, glm::length(x[p] - reference[p]));
      result.levels.push_back({h, error});
      dts.push_back(h);
      errors.push_back(error);
    }
    result.order = fitted_order(dts, errors);
    report.results.push_back(std::move(result));
  }
  return report;
}

}  // namespace lagrange
