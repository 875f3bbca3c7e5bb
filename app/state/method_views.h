// What the window keeps for the two panels that show the method (issue 25): the Matrix panel (J M⁻¹ Jᵀ of lane 1's
// state, lagrange/matrix_analysis.h) and the Convergence panel (the order of accuracy, measured in the background:
// tools/convergence_job.h). Plain data apart from the job, held by a shared pointer so the state stays copyable.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "lagrange/convergence.h"
#include "lagrange/matrix_analysis.h"
#include "tools/convergence_job.h"

namespace lagrange::app {

struct MatrixView {
  bool open = false;  // the panel's section is open: its dependent rows are drawn highlighted on the scene
  // The analysis of lane 1's state, redone when the state changed (at most a few times a second for large scenes).
  std::shared_ptr<const MatrixAnalysis> analysis;
  std::string error;  // why there is none (more than kMaxMatrixRows rows)
  double time = -1.0;           // the world time it was taken at
  unsigned long openings = 0;   // and the scene opening (SandboxState::scene_openings)
  std::vector<Vec3> position, velocity;  // and the state (a pose or a drag moves it without time passing)
  double wall_age = 0.0;        // wall seconds since it was taken
  double cost = 0.0;            // wall seconds it took
  int hovered_row = -1;         // the row under the pointer in the heat map (its constraint highlighted), or -1
  // The constraints the scene draws in the highlight colour: the hovered row's, and the dependent rows' while the
  // section is open. Filled by the panel each frame; empty when it is closed.
  std::vector<int> highlighted;
  int hovered_constraint = -1;
};

struct ConvergenceView {
  bool open = false;
  double until = 1.0;  // T, seconds
  int levels = 5;
  std::shared_ptr<ConvergenceJob> job;                 // the study running or done (null before the first Run)
  std::shared_ptr<const ConvergenceReport> report;     // the last finished study's, drawn
  std::string scene_name;                              // what it was run on
  double report_until = 0.0;
  std::string message;                                  // "cancelled", or a refused study's message
  // `lagrange-lab converge --plot`: the window draws this picture alone, filling it, with this title.
  std::shared_ptr<const ConvergenceReport> figure;
  std::string figure_title;
};

}  // namespace lagrange::app
