// Acceleration-level constraint forces (seeds 002 and 004).
// Requiring C̈ = J a + J̇q̇ = 0 with M a = F + Jᵀλ gives one linear system per substep
//     J M⁻¹ Jᵀ λ = −(J M⁻¹ F + J̇ q̇)                                          (seed 002; seed 004's 2×2 for a chain)
// then semi-implicit Euler: v' = v + h a, q' = q + h v'. Only C̈ is held at zero, so C and Ċ drift with the
// integration error: rods slowly stretch. That is the lesson; Baumgarte stabilization replaces C̈ = 0 by
// C̈ + 2βĊ + β²C = 0 (critically damped for rate β), which pulls the drift back.
// λ here is a force (newtons) because C = |x_a − x_b| − L; seed 002's squared form C = |x_a − x_b|² − L² gives
// λ_squared = λ / (2 |x_a − x_b|).
// A compliant row (compliance α, damping β) is a spring here: force −(C/α + βĊ)∇C added to F, explicit like the
// rest of this scheme, and left out of the linear system (zero row and column, 1 on the diagonal: λ = 0).
#include <algorithm>

#include "solvers.h"

namespace lagrange {
namespace {

class AccelerationSolver final : public Solver {
 public:
  void substep(StepContext& context, double h, StepStats& stats) override {
    system_.prepare(context.model);
    stats.dependent_rows = std::max(stats.dependent_rows, system_.twins());  // repeated rows are redundant
    State& particles = context.state;
    const auto inv_mass = context.inv_mass();
    const std::size_t n = particles.position.size();
    const auto rows = context.rows();
    const double beta = context.settings.baumgarte;
    context.external_forces(particles.velocity, force_);
    system_.evaluate(context.model, particles.position, c_, g_);
    diagonal_.clear();
    spring_.clear();
    for (int k : context.model.compliant_rows()) {
      const Constraint& c = *rows[k].constraint;
      double rate = 0.0;
      for (int s = 0; s < rows[k].count; ++s) rate += glm::dot(g_[k].g[s], particles.velocity[rows[k].particle[s]]);
      const double f = -(c_[k] / c.compliance() + c.damping() * rate);
      for (int s = 0; s < rows[k].count; ++s) {
        force_[rows[k].particle[s]] += f * g_[k].g[s];
        g_[k].g[s] = Vec3(0.0);
      }
      c_[k] = 0.0;
      diagonal_.push_back({k, 1.0});
      spring_.push_back(f);
    }
    accel_.resize(n);
    for (std::size_t i = 0; i < n; ++i) accel_[i] = inv_mass[i] * force_[i];
    system_.velocity_rows(context.model, g_, accel_, rhs_);   // J M⁻¹ F
    system_.velocity_rows(context.model, g_, particles.velocity, cdot_);  // Ċ = J v
    for (std::size_t k = 0; k < rows.size(); ++k) {
      const double jdot_qdot = rows[k].constraint->jdot_qdot(rows[k].row, particles.position, particles.velocity);
      rhs_[k] = -(rhs_[k] + jdot_qdot + 2.0 * beta * cdot_[k] + beta * beta * c_[k]);
    }
    system_.weight(context.model, g_, weighted_);
    for (const DiagonalTerm& masked : diagonal_) rhs_[masked.row] = 0.0;
    const int dependent = system_.factorize(g_, weighted_, diagonal_);
    if (dependent > stats.dependent_rows) stats.dependent_rows = dependent;
    system_.solve(rhs_);
    system_.displace(context.model, weighted_, rhs_, accel_);  // a = M⁻¹ (F + Jᵀ λ)
    for (std::size_t i = 0; i < n; ++i) {
      if (context.fixed(i)) continue;
      particles.velocity[i] += h * accel_[i];
      particles.position[i] += h * particles.velocity[i];
    }
    ++stats.iterations;
    context.state.row_force.assign(rhs_.begin(), rhs_.end());
    for (std::size_t i = 0; i < diagonal_.size(); ++i) context.state.row_force[diagonal_[i].row] = spring_[i];
  }

 private:
  RowSystem system_;
  std::vector<Vec3> force_, accel_;
  RowGradients g_, weighted_;
  std::vector<double> c_, cdot_, rhs_, spring_;
  std::vector<DiagonalTerm> diagonal_;
};

}  // namespace

std::unique_ptr<Solver> make_acceleration_solver() { return std::make_unique<AccelerationSolver>(); }

}  // namespace lagrange
