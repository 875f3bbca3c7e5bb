// The order of accuracy, measured (docs/physics.md, "Order of accuracy"): a scene run to time T at Δt, Δt/2, Δt/4 …
// by each solver, every run's positions at T compared with a reference run, and the slope of log error against
// log Δt fitted by least squares. The reference is RATTLE (second order) at a step 2^4 times finer than the finest
// level, so its own error is at least 256 times below the finest level's of a second-order solver.
#pragma once

#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include "lagrange/model.h"
#include "lagrange/scene.h"

namespace lagrange {

struct ConvergenceLevel {
  double dt = 0.0;     // the substep h = dt / substeps of this level
  double error = 0.0;  // max over particles of |x_p(T) − x_ref,p(T)| (m); NaN when the run failed
};

struct ConvergenceResult {
  std::string solver;
  std::vector<ConvergenceLevel> levels;
  double order = 0.0;  // the fitted slope over the levels with a finite, nonzero error
};

struct ConvergenceStudy {
  double until = 1.0;           // T, seconds
  int levels = 5;               // Δt, Δt/2, … Δt/2^(levels−1)
  std::vector<std::string> solvers;  // ids; empty: every solver in the table
  double coarsest = 0.0;        // the coarsest substep h; 0: the scene's dt / substeps
  // For a study run in the background (the window's Convergence panel): `progress` is told the fraction of all the
  // study's steps done (0 .. 1) every few thousand steps and after each run; when `cancel` turns true the study stops
  // within a step and throws ConvergenceCancelled. Both may be empty.
  std::function<void(double fraction)> progress;
  const std::atomic<bool>* cancel = nullptr;
};

// Thrown by convergence_study when ConvergenceStudy::cancel turned true.
struct ConvergenceCancelled : Error {
  ConvergenceCancelled() : Error("the convergence study was cancelled") {}
};

// The reference positions at T and one result per solver. Throws Error on a bad solver id or level count.
struct ConvergenceReport {
  double reference_dt = 0.0;
  std::vector<ConvergenceResult> results;
};
ConvergenceReport convergence_study(const Scene& scene, const ConvergenceStudy& study);

// The least-squares slope of log y against log x over the pairs with finite, positive x and y (NaN for fewer than 2).
double fitted_order(const std::vector<double>& x, const std::vector<double>& y);

}  // namespace lagrange
