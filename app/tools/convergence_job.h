// The window's Convergence panel runs `lagrange-lab converge`'s study (lagrange/convergence.h) in the background: a
// std::thread over its own copy of the scene, so the live world is never touched and the window keeps drawing. The
// panel reads the progress and the report; Cancel (or the job's end of life) stops the study within a step.
#pragma once

#include <atomic>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "lagrange/convergence.h"
#include "lagrange/scene.h"

namespace lagrange::app {

class ConvergenceJob {
 public:
  // Starts the study of `scene` (a copy, owned by the job) at once; `study.progress` and `study.cancel` are the job's.
  ConvergenceJob(Scene scene, ConvergenceStudy study);
  ~ConvergenceJob();  // cancels and waits for the thread
  ConvergenceJob(const ConvergenceJob&) = delete;
  ConvergenceJob& operator=(const ConvergenceJob&) = delete;

  void cancel() { cancel_.store(true); }
  bool cancelled() const { return cancel_.load(); }
  bool done() const { return done_.load(); }
  double progress() const { return progress_.load(); }  // 0 .. 1, the fraction of the study's steps done
  // Once done(): the report, or why there is none ("cancelled", a refused study's message).
  std::optional<ConvergenceReport> report() const;
  std::string error() const;
  const ConvergenceStudy& study() const { return study_; }

 private:
  void run();
  Scene scene_;
  ConvergenceStudy study_;
  std::atomic<bool> cancel_{false}, done_{false};
  std::atomic<double> progress_{0.0};
  mutable std::mutex mutex_;
  std::optional<ConvergenceReport> report_;
  std::string error_;
  std::thread thread_;  // last: started once everything above exists
};

}  // namespace lagrange::app
