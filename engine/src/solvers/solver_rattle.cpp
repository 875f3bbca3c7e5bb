// RATTLE (seed 001, Tuckerman §3.9, eqs. 3.9.16–3.9.19): velocity Verlet whose positions are corrected by SHAKE and
// whose velocities are then corrected so that the constraints' time derivatives vanish.
//   v½ = v + (h/2) M⁻¹F(q),  q* = q + h v½,  q' = SHAKE(q*, along M⁻¹∇C(q)),  v½ ← v½ + (q' − q*) / h   (3.9.16)
//   v' = v½ + (h/2) M⁻¹F(q'),  then v' ← v' + M⁻¹∇C(q')ᵀμ with ∇C(q') v' = 0                      (3.9.17–3.9.18)
// The velocity multipliers μ solve the linear system (3.9.19) [∇C(q') M⁻¹ ∇C(q')ᵀ] μ = −∇C(q') v' directly
// (SparseLDU), so |J v| ends at rounding level. Compliant rows: α̃ = 2α/h² in SHAKE (λ is h²/2 times the force), and
// a spring's half-kick instead of a velocity constraint. Symplectic and time-reversible: energy oscillates, never drifts.
#include <algorithm>

#include "solvers.h"

namespace lagrange {
namespace {

class RattleSolver final : public Solver {
 public:
  void substep(StepContext& context, double h, StepStats& stats) override {
    system_.prepare(context.model);
    stats.dependent_rows = std::max(stats.dependent_rows, system_.twins());  // repeated rows are redundant
    State& particles = context.state;
    const auto inv_mass = context.inv_mass();
    const std::size_t n = particles.position.size();
    x0_ = particles.position;
    const std::vector<Vec3>& x0 = x0_;
    context.external_forces(particles.velocity, force_);
    v_.resize(n);
    x_star_.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      v_[i] = particles.velocity[i] + (0.5 * h * inv_mass[i]) * force_[i];
      x_star_[i] = context.fixed(i) ? x0[i] : x0[i] + h * v_[i];
    }
    system_.evaluate(context.model, x0, c_, g_);
    x_ = x_star_;
    gather_compliant_rows(context.model, h, 2.0, soft_);  // λ = (h²/2) Λ here, hence α̃ = 2α/h²
    const ShakeResult result = shake_positions(context, g_, x_, lambda_, soft_, x0);
    stats.iterations += result.sweeps;
    if (!result.converged) ++stats.failures;
    for (std::size_t i = 0; i < n; ++i) v_[i] += (x_[i] - x_star_[i]) / h;

    context.external_forces(v_, force_);
    for (std::size_t i = 0; i < n; ++i) v_[i] += (0.5 * h * inv_mass[i]) * force_[i];
    system_.evaluate(context.model, x_, c_, g_);
    system_.weight(context.model, g_, weighted_);
    // A compliant row is a spring, not a velocity constraint: its second half-kick is its force at q' (the
    // position stage solved for exactly that force, Λ = 2λ/h², so the kick (h/2)Λ is λ/h), and it is left out of
    // the velocity system (zero row and column, 1 on the diagonal, so its μ is 0).
    diagonal_.clear();
    for (const CompliantRow& soft : soft_) {
      const int k = soft.row;
      for (int s = 0; s < context.rows()[k].count; ++s) {
        v_[context.rows()[k].particle[s]] += (lambda_[k] / h) * weighted_[k].g[s];
        g_[k].g[s] = weighted_[k].g[s] = Vec3(0.0);
      }
      diagonal_.push_back({k, 1.0});
    }
    system_.velocity_rows(context.model, g_, v_, mu_);
    const int dependent = system_.factorize(g_, weighted_, diagonal_);
    if (dependent > stats.dependent_rows) stats.dependent_rows = dependent;
    for (double& value : mu_) value = -value;
    system_.solve(mu_);
    system_.displace(context.model, weighted_, mu_, v_);

    for (std::size_t i = 0; i < n; ++i) {
      if (context.fixed(i)) continue;
      particles.position[i] = x_[i];
      particles.velocity[i] = v_[i];
    }
    // The position multipliers are λ = (h²/2) Λ for the average constraint force Λ over the step.
    auto& force = context.state.row_force;
    for (std::size_t k = 0; k < force.size(); ++k) force[k] = 2.0 * lambda_[k] / (h * h);
  }

 private:
  RowSystem system_;
  std::vector<CompliantRow> soft_;
  std::vector<DiagonalTerm> diagonal_;
  std::vector<Vec3> x0_, x_, x_star_, v_, force_;
  RowGradients g_, weighted_;
  std::vector<double> c_, lambda_, mu_;
};

}  // namespace

std::unique_ptr<Solver> make_rattle_solver() { return std::make_unique<RattleSolver>(); }

}  // namespace lagrange
