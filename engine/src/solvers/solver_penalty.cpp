// Stiff springs: the baseline seed 004 argues against ("I had implemented the connector as a stiff spring, which
// is not good, so I put it in as a constraint"). Every row becomes a spring with energy ½ k C², force
// −(k C + c Ċ) ∇C, integrated by semi-implicit Euler. Stable only while h < 2 / ω with ω = √(k / m_reduced): soft
// springs wobble and stretch under load (C ≈ m g / k), stiff ones need tiny steps or explode. A compliant row keeps
// its own spring: stiffness 1/α and damping β instead of the settings' stiffness and spring_damping. A cable
// (unilateral row) is a spring only while stretched past its length: slack, it has no force. Contacts: the impacts
// before the step and the contact rows' position projection after it (hold_contacts): they are held exactly.
#include "solvers.h"

namespace lagrange {
namespace {

class PenaltySolver final : public Solver {
 public:
  void substep(StepContext& context, double h, StepStats& stats) override {
    system_.prepare(context.model);
    State& particles = context.state;
    if (context.contacts) {
      x0_ = particles.position;
      context.contacts->resolve_impacts(context.model, particles, context.settings, h, true);
    }
    const auto inv_mass = context.inv_mass();
    const std::size_t n = particles.position.size();
    const auto rows = context.rows();
    const double k_spring = context.settings.stiffness;
    const double c_damper = context.settings.spring_damping;
    context.external_forces(particles.velocity, force_);
    system_.evaluate(context.model, particles.position, c_, g_);
    system_.velocity_rows(context.model, g_, particles.velocity, cdot_);
    auto& row_force = context.state.row_force;
    stiffness_.clear();
    if (!context.model.compliant_rows().empty()) {
      stiffness_.assign(rows.size(), -1.0);
      for (int k : context.model.compliant_rows()) stiffness_[k] = 1.0 / rows[k].constraint->compliance();
    }
    for (std::size_t k = 0; k < rows.size(); ++k) {
      const bool own = !stiffness_.empty() && stiffness_[k] > 0.0;
      const double f = own ? -(stiffness_[k] * c_[k] + rows[k].constraint->damping() * cdot_[k])
                           : -(k_spring * c_[k] + c_damper * cdot_[k]);
      row_force[k] = rows[k].unilateral != 0 && rows[k].unilateral * c_[k] >= 0.0 ? 0.0 : f;
    }
    system_.displace(context.model, g_, row_force, force_);  // F += Σ f_k ∇C_k
    for (std::size_t i = 0; i < n; ++i) {
      if (context.fixed(i)) continue;
      particles.velocity[i] += (h * inv_mass[i]) * force_[i];
      particles.position[i] += h * particles.velocity[i];
    }
    ++stats.iterations;
    if (context.contacts) hold_contacts(context, x0_, h, stats);
  }

 private:
  RowSystem system_;  // only its row evaluation and scatter
  std::vector<Vec3> force_, x0_;
  RowGradients g_;
  std::vector<double> c_, cdot_, stiffness_;
};

}  // namespace

std::unique_ptr<Solver> make_penalty_solver() { return std::make_unique<PenaltySolver>(); }

}  // namespace lagrange
