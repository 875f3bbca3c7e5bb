// SHAKE (seed 001, Tuckerman §3.9, eq. 3.9.15) in velocity Verlet form: a half kick v½ = v + (h/2) M⁻¹F(q), the
// drift q* = q + h v½ and SHAKE's projection q' = q* + M⁻¹∇C(q)ᵀλ, as RATTLE's position stage (so λ is (h²/2) times
// the constraint force); then v' = (q' − q)/h + (h/2) M⁻¹F(q') + M⁻¹∇C(q')ᵀλ/h, the second half kick with the
// constraint force taken as the first half's, not solved for (RATTLE solves ∇C(q') v' = 0 instead: SHAKE's |J v| is
// O(h²), not rounding). The extra velocity lies along M⁻¹∇C(q')ᵀ, which the next projection takes out, so from step
// to step the positions are exactly those of Verlet's leapfrog with SHAKE — and of `projection`, which solves the
// same equations C(q* + M⁻¹∇C(q)ᵀλ) = 0 — only the start differs: the state's velocity is the velocity at the
// step's start, so SHAKE takes half a step of acceleration there and is second order, where projection's whole
// step makes it first order (docs/physics.md, "Order of accuracy").
// SHAKE visits one row at a time: each correction δλ_k = −C_k(x) / Σ_p (1/m_p) ∇_p C_k(x)·∇_p C_k(q) fixes row k
// and disturbs its neighbours, so on a long chain the error diffuses one link per sweep: thousands of sweeps (the
// lesson of the benchmark). One update per row per sweep, as in Ryckaert's original; converged when a whole sweep
// finds every row within tolerance. A compliant row takes the XPBD step (solvers.h) with α̃ in its denominator.
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
    if (contacts) contacts->resolve_impacts(model, context.state, context.settings, h, false);
    predict_semi_implicit(context, h, x_, v_, 0.5);  // velocity Verlet's half kick and drift
    if (contacts)
      for (int i : contacts->moved) x_[i] += contacts->dx[i];
    if (contacts && model.rows().empty()) {  // contacts alone: the contact rows' own Gauss–Seidel
      bool converged = false;
      stats.iterations += contacts->project(model.inv_mass(), x0_, x_, h, context.settings.max_iterations, converged,
                                            false);
      if (!converged) ++stats.failures;
      commit(context, h, nullptr);
      return;
    }
    RowSet rows = context.model;
    if (contacts) {
      combine_rows(model, contacts, combined_, rows_version_, signature_);
      rows = RowSet(combined_, model, rows_version_);
    }
    system_.prepare(rows);
    gather_compliant_rows(rows, h, 2.0, soft_);  // λ = (h²/2) Λ, hence α̃ = 2α/h² (as RATTLE)
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
    const double to_force = 2.0 / (h * h);  // λ = (h²/2) Λ for the mean constraint force Λ over the step
    auto& force = context.state.row_force;
    for (std::size_t k = 0; k < force.size(); ++k) force[k] = lambda_[k] * to_force;
    if (contacts) {
      const std::size_t first = model.rows().size();
      for (std::size_t k = 0; k < contacts->rows.size(); ++k) contacts->rows[k].lambda = std::max(0.0, lambda_[first + k]);
    }
    commit(context, h, &rows);
  }

 private:
  // The positions x_ and the velocity at the step's end: (x_ − x0)/h with the impacts' change, the second half kick
  // of the external forces at x_, and the second half of the constraint impulse, taken equal to the first: λ/h
  // along M⁻¹∇C(x_)ᵀ for every row (`rows`, with the contacts' normal rows), λ_t/h for the contacts' friction.
  // Contacts alone (`rows` null): their own multipliers. Every row reports the force 2λ/h².
  void commit(StepContext& context, double h, const RowSet* rows) {
    commit_with_impacts(context, x_, x0_, h);
    State& state = context.state;
    std::vector<Vec3>& v = state.velocity;
    context.external_forces(v, v_);
    const auto inv_mass = context.inv_mass();
    for (std::size_t i = 0; i < v.size(); ++i)
      if (!context.fixed(i)) v[i] += (0.5 * h * inv_mass[i]) * v_[i];
    const double inv_h = 1.0 / h;
    if (rows) {
      system_.evaluate(*rows, x_, c_, g0_);
      for (std::size_t k = 0; k < rows->rows.size(); ++k) {
        const Row& row = rows->rows[k];
        if (lambda_[k] == 0.0) continue;
        for (int s = 0; s < row.count; ++s) {
          const int p = row.particle[s];
          if (!context.fixed(p)) v[p] += (lambda_[k] * inv_h * inv_mass[p]) * g0_[k].g[s];
        }
      }
    }
    ContactSet* contacts = context.contacts;
    if (!contacts) return;
    const double to_force = 2.0 * inv_h * inv_h;
    for (ContactRow& row : contacts->rows) {
      Vec3 n;
      contacts->gap(row, x_, n);
      const Vec3 kick = (rows ? row.lambda_t : row.lambda * n + row.lambda_t) * inv_h;  // with rows: normal done
      if (kick != Vec3(0.0)) {
        if (!context.fixed(row.a)) v[row.a] += inv_mass[row.a] * kick;
        if (row.b >= 0 && !context.fixed(row.b)) v[row.b] -= inv_mass[row.b] * kick;
      }
      row.force = row.lambda * to_force;
      row.force_t = row.lambda_t * to_force;
    }
  }

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
