// A convergence study on a thread of its own (convergence_job.h).
#include "tools/convergence_job.h"

#include <new>
#include <utility>

namespace lagrange::app {

ConvergenceJob::ConvergenceJob(Scene scene, ConvergenceStudy study)
    : scene_(std::move(scene)), study_(std::move(study)) {
  study_.progress = [this](double fraction) { progress_.store(fraction); };
  study_.cancel = &cancel_;
  thread_ = std::thread([this] { run(); });
}

ConvergenceJob::~ConvergenceJob() {
  cancel();
  if (thread_.joinable()) thread_.join();
}

void ConvergenceJob::run() {
  std::optional<ConvergenceReport> report;
  std::string error;
  try {
    report = convergence_study(scene_, study_);
  } catch (const ConvergenceCancelled&) {
    error = "cancelled";
  } catch (const std::bad_alloc&) {
    error = "out of memory";
  } catch (const std::exception& e) {
    error = e.what();
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    report_ = std::move(report);
    error_ = std::move(error);
  }
  if (report_) progress_.store(1.0);
  done_.store(true);
}

std::optional<ConvergenceReport> ConvergenceJob::report() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return report_;
}

std::string ConvergenceJob::error() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return error_;
}

}  // namespace lagrange::app
