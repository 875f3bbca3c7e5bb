// SHAKE (seed 001, Tuckerman §3.9, eq. 3.9.15), with the same semi-implicit Euler prediction as `projection`, so
// both solve the same equations C(q* + M⁻¹∇C(q)ᵀλ) = 0 and converge to the same positions. SHAKE visits one row at
// a time: each correction δλ_k = −C_k(x) / Σ_p (1/m_p) ∇_p C_k(x)·∇_p C_k(q) fixes row k and disturbs its
// neighbours, so on a long chain the error diffuses one link per sweep: thousands of sweeps (the lesson of the
// benchmark). One update per row per sweep, as in Ryckaert's original; converged when a whole sweep finds every
// row within tolerance. A compliant row takes the XPBD step (solvers.h) with α̃ in its denominator.
#include <cmath>

#include "solvers.h"

namespace lagrange {
namespace {

// Smallest cosine between a row's gradient now and at q for which SHAKE still takes a step (about 87°).
constexpr double kMinCosine = 0.05;

}  // namespace

ShakeResult shake_positions(const StepContext& context, const RowSet& row_set, const RowGradients& g0,
                            std::vector<Vec3>& x, std::vector<double>& lambda, const std::vector<CompliantRow>& soft,
                            std::span<const Vec3> x0) {
  const auto rows = row_set.rows;
  const auto& inv_mass = row_set.inv_mass;
  const double tolerance = context.settings.tolerance;
  lambda.assign(rows.size(), 0.0);
  // Per-row α̃ and γ, only when some row is compliant (0 for rigid rows).
  std::vector<double> alpha_tilde, gamma;
  if (!soft.empty()) {
    alpha_tilde.assign(rows.size(), 0.0);
    gamma.assign(rows.size(), 0.0);
    for (const CompliantRow& row : soft) {
      alpha_tilde[row.row] = row.alpha_tilde;
      gamma[row.row] = row.gamma;
    }
  }
  ShakeResult result;
  RowGradient grad;
  while (result.sweeps < context.settings.max_iterations) {
    if ((result.sweeps & 63) == 63 && context.past_deadline()) break;  // the window's frame budget ran out
    ++result.sweeps;
    bool all_within = true;
    for (std::size_t k = 0; k < rows.size(); ++k) {
      const Row& row = rows[k];
      double c = row.constraint->evaluate(row.row, x, grad);
      const bool compliant = !alpha_tilde.empty() && alpha_tilde[k] > 0.0;
      if (compliant) {
        double damping = 0.0;
        for (int s = 0; s < row.count; ++s)
          damping += glm::dot(g0[k].g[s], x[row.particle[s]] - x0[row.particle[s]]);
        c += alpha_tilde[k] * lambda[k] + gamma[k] * damping;
      }
      const int sigma = row.unilateral;
      // A unilateral row within its bound and not pushing is done; one pushing must sit at its bound.
      if (sigma != 0 && lambda[k] == 0.0 && sigma * c >= -tolerance * row.scale) continue;
      if (std::abs(c) <= tolerance * row.scale) continue;
      all_within = false;
      double denominator = 0.0, scale = 0.0, own = 0.0;
      for (int s = 0; s < row.count; ++s) {
        const double w = inv_mass[row.particle[s]];
        denominator += w * glm::dot(grad[s], g0[k].g[s]);
        scale += w * glm::length(grad[s]) * glm::length(g0[k].g[s]);
        own += w * glm::dot(g0[k].g[s], g0[k].g[s]);
      }
      // A row whose particles cannot move, or that has turned by nearly 90° or more since q, has no SHAKE step:
      // dividing by the vanishing denominator would fling the particles away. It stays violated, and the substep
      // is reported as not converged. A compliant row always has one (α̃ > 0).
      if (compliant) denominator += gamma[k] * own + alpha_tilde[k];
      else if (!(denominator > kMinCosine * scale)) continue;
      double delta = -c / denominator;
      if (sigma != 0 && sigma * (lambda[k] + delta) < 0.0) delta = -lambda[k];  // it would pull: it lets go
      lambda[k] += delta;
      for (int s = 0; s < row.count; ++s) {
        const int p = row.particle[s];
        x[p] += (delta * inv_mass[p]) * g0[k].g[s];
      }
      if (context.trace) context.trace->record(IterateKind::RowCorrection, x, static_cast<int>(k), result.sweeps);
    }
    if (all_within) {
      result.converged = true;
      break;
    }
  }
  return result;
}

namespace {

class ShakeSolver final : public Solver {
 public:
  void substep(StepContext& context, double h, StepStats& stats) override {
    ContactSet* contacts = context.contacts;
    const Model& model = context.model;
    x0_ = context.state.position;
    if (contacts) contacts->resolve_impacts(model, context.state, context.settings, h, true);
    predict_semi_implicit(context, h, x_, v_);
    if (contacts)
      for (int i : contacts->moved) x_[i] += contacts->dx[i];
    if (context.trace) context.trace->predicted(x_);
    if (contacts && model.rows().empty()) {  // contacts alone: the contact rows' own Gauss–Seidel
      bool converged = false;
      stats.iterations += contacts->project(model.inv_mass(), x0_, x_, h, context.settings.max_iterations, converged,
                                            false);
      if (!converged) ++stats.failures;
      commit_with_impacts(context, x_, x0_, h);
      return;
    }
    RowSet rows = context.model;
    if (contacts) {
      combine_rows(model, contacts, combined_, rows_version_, signature_);
      rows = RowSet(combined_, model, rows_version_);
    }
    system_.prepare(rows);
    gather_compliant_rows(rows, h, 1.0, soft_);
    system_.evaluate(rows, x0_, c_, g0_);
    ShakeResult result = shake_positions(context, rows, g0_, x_, lambda_, soft_, x0_);
    stats.iterations += result.sweeps;
    if (contacts) {  // Coulomb friction on the contacts that push, then SHAKE again from there
      const std::size_t first = model.rows().size();
      for (std::size_t k = 0; k < contacts->rows.size(); ++k) contacts->rows[k].lambda = lambda_[first + k];
      if (contacts->friction_pass(model.inv_mass(), x0_, x_)) {
        std::vector<double> more;
        result = shake_positions(context, rows, g0_, x_, more, soft_, x0_);
        stats.iterations += result.sweeps;
        for (std::size_t k = 0; k < lambda_.size(); ++k) lambda_[k] += more[k];
      }
    }
    if (!result.converged) ++stats.failures;
    commit_with_impacts(context, x_, x0_, h);
    auto& force = context.state.row_force;
    for (std::size_t k = 0; k < force.size(); ++k) force[k] = lambda_[k] / (h * h);
    const double to_force = 1.0 / (h * h);
    if (contacts) {
      const std::size_t first = model.rows().size();
      for (std::size_t k = 0; k < contacts->rows.size(); ++k) {
        ContactRow& row = contacts->rows[k];
        row.lambda = std::max(0.0, lambda_[first + k]);
        row.force = row.lambda * to_force;
        row.force_t = row.lambda_t * to_force;
      }
    }
  }

 private:
  RowSystem system_;  // only its row evaluation; SHAKE needs no matrix
  std::vector<CompliantRow> soft_;
  std::vector<Vec3> x0_, x_, v_;
  RowGradients g0_;
  std::vector<double> c_, lambda_;
  std::vector<Row> combined_;
  std::vector<int> signature_;
  unsigned rows_version_ = 0;
};

}  // namespace

std::unique_ptr<Solver> make_shake_solver() { return std::make_unique<ShakeSolver>(); }

}  // namespace lagrange
