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

// Rounds of the velocity stage's friction and projection onto the rows (velocity_with_unilateral_rows): each is one
// pass over the contacts and one solve with the stage's factorization.
constexpr int kVelocityFrictionRounds = 32;

class RattleSolver final : public Solver {
 public:
  void substep(StepContext& context, double h, StepStats& stats) override { advance(context, h, stats, 0); }

 private:
  // One substep of length h; a lost one (docs/physics.md, "shake") is solved again by Newton on the same equations,
  // and if that fails too, done again as two substeps of h/2 (up to kShakeSplitDepth levels).
  void advance(StepContext& context, double h, StepStats& stats, int depth) {
    const Model& model = context.model;
    ContactSet* contacts = context.contacts;
    // Unilateral rows (cables, contacts) are solved in a copy of the rows that can mask them (solvers.h).
    const bool unilateral = contacts || model.has_unilateral_rows();
    // The impacts first: they may add the rows their impacts reach (contact_set.h).
    if (contacts) contacts->resolve_impacts(model, context.state, context.settings, h, false);
    RowSet rows = model;
    if (unilateral) {
      combine_rows(model, contacts, combined_, rows_version_, signature_);
      rows = RowSet(combined_, model, rows_version_);
    }
    system_.prepare(rows);
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
    if (contacts)
      for (int i : contacts->moved) x_star_[i] += contacts->dx[i];
    if (context.trace) context.trace->predicted(x_star_);
    system_.evaluate(rows, x0, c_, g_);
    x_ = x_star_;
    gather_compliant_rows(rows, h, 2.0, soft_);  // λ = (h²/2) Λ here, hence α̃ = 2α/h²
    const ShakeStage stage = shake_stage(context, rows, system_, g_, x_, lambda_, soft_, x0,
                                         !unilateral || newton_serves(model, contacts, soft_), depth,
                                         x_star_, newton_, stats);
    if (stage.split) {  // two half substeps instead
      advance(context, 0.5 * h, stats, depth + 1);
      advance(context, 0.5 * h, stats, depth + 1);
      return;
    }
    ShakeResult result = stage.result;
    if (lost(result)) return fall_back(fallback_, context, h, stats);
    if (!result.converged) ++stats.failures;  // stopped by the deadline
    for (std::size_t i = 0; i < n; ++i) v_[i] += (x_[i] - x_star_[i]) / h;

    context.external_forces(v_, force_);
    for (std::size_t i = 0; i < n; ++i) v_[i] += (0.5 * h * inv_mass[i]) * force_[i];
    if (contacts)
      for (int i : contacts->moved)
        if (!context.fixed(i)) v_[i] += contacts->dv[i];
    system_.evaluate(rows, x_, c_, g_);
    system_.weight(rows, g_, weighted_);
    // A compliant row is a spring, not a velocity constraint: its second half-kick is its force at q' (the
    // position stage solved for exactly that force, Λ = 2λ/h², so the kick (h/2)Λ is λ/h), and it is left out of
    // the velocity system (zero row and column, 1 on the diagonal, so its μ is 0).
    diagonal_.clear();
    for (const CompliantRow& soft : soft_) {
      const int k = soft.row;
      for (int s = 0; s < rows.rows[k].count; ++s) v_[rows.rows[k].particle[s]] += (lambda_[k] / h) * weighted_[k].g[s];
      diagonal_.push_back({k, 1.0});
    }
    if (context.trace) context.trace->record_velocity(IterateKind::HalfKick, x_, v_);
    if (contacts) v_kicked_ = v_;
    if (unilateral) {
      velocity_with_unilateral_rows(context, stats);
    } else {
      for (const CompliantRow& soft : soft_)
        for (int s = 0; s < rows.rows[soft.row].count; ++s) g_[soft.row].g[s] = weighted_[soft.row].g[s] = Vec3(0.0);
      system_.velocity_rows(rows, g_, v_, mu_);
      const int dependent = system_.factorize(g_, weighted_, diagonal_);
      if (dependent > stats.dependent_rows) stats.dependent_rows = dependent;
      for (double& value : mu_) value = -value;
      system_.solve(mu_);
      system_.displace(rows, weighted_, mu_, v_);
    }
    if (context.trace) context.trace->record_velocity(IterateKind::VelocityCorrection, x_, v_);

    // Each contact's two kicks at the velocities around each (book_verlet_contact_work): at the substep's mean
    // velocity, as the other solvers book them, a small pile's drift read up to 12.5 J.
    if (contacts)
      book_verlet_contact_work(*contacts, combined_.size() - contacts->rows.size(), lambda_, mu_, friction_kick_, 1.0,
                               particles.velocity, x0_, x_, x_star_, v_kicked_, v_, h);
    for (std::size_t i = 0; i < n; ++i) {
      if (context.fixed(i)) continue;
      particles.position[i] = x_[i];
      particles.velocity[i] = v_[i];
    }
    // The position multipliers are λ = (h²/2) Λ for the average constraint force Λ over the step.
    auto& force = context.state.row_force;
    for (std::size_t k = 0; k < force.size(); ++k) force[k] = 2.0 * lambda_[k] / (h * h);
    if (context.trace) context.trace->multipliers(lambda_);
    if (contacts) {
      // A contact's mean force over the substep is what its two half kicks gave, over h: λ/h in the position stage and
      // its velocity multiplier μ (and friction) in the velocity stage. Not 2λ/h², as for a rod: a contact's halves
      // are not alike where it stops an approach (a ball struck onto one resting on a table: the table's impulse came
      // out 16 % above the momentum the balls lost).
      // (velocity_with_unilateral_rows() has run: with contacts the velocity stage always has its unilateral rows.)
      const std::size_t first = model.rows().size();
      for (std::size_t k = 0; k < contacts->rows.size(); ++k) {
        ContactRow& row = contacts->rows[k];
        row.lambda = std::max(0.0, lambda_[first + k]);
        row.force = row.lambda / (h * h) + std::max(0.0, mu_[first + k]) / h;
        row.force_t = row.lambda_t / (h * h) + friction_kick_[k] / h;
        row.lambda = 0.0;  // RATTLE's multipliers are half the projection's: no warm start from them
        row.lambda_t = Vec3(0.0);
      }
    }
  }

  // The velocity stage with an active set: a unilateral row takes part when it pushed in the position stage (or sits
  // at its bound moving past it); one whose velocity multiplier would pull leaves and the system is solved again.
  void velocity_with_unilateral_rows(StepContext& context, StepStats& stats) {
    const std::size_t m = combined_.size();
    const double tolerance = std::max(context.settings.tolerance, ContactSet::tolerance(context.settings));
    active_.assign(m, 1);
    for (std::size_t k = 0; k < m; ++k)
      if (combined_[k].unilateral != 0) active_[k] = combined_[k].unilateral * lambda_[k] > 0.0;
    const std::vector<Vec3> v_start = v_;
    for (int pass = 0; pass < 32; ++pass) {
      // The system of the rows that take part, every bilateral row and the active unilateral ones: a gas's or a
      // pile's candidate contacts are mostly inactive, and factored with them (masked) a 10 000-disc gas's system
      // grew to 66 000 rows and 7.8 million factor entries a substep (a 100 000-disc gas ran out of memory).
      velocity_rows_.clear();
      velocity_of_.assign(m, -1);
      for (std::size_t k = 0; k < m; ++k) {
        if (combined_[k].unilateral != 0 && !active_[k]) continue;
        velocity_of_[k] = static_cast<int>(velocity_rows_.size());
        velocity_rows_.push_back(combined_[k]);
      }
      const RowSet taking_part(velocity_rows_, context.model, ++velocity_version_);
      velocity_system_.prepare(taking_part);
      velocity_system_.evaluate(taking_part, x_, c_, g_);
      velocity_system_.weight(taking_part, g_, weighted_);
      velocity_diagonal_.clear();
      for (const CompliantRow& soft : soft_) {
        const int j = velocity_of_[soft.row];
        if (j < 0) continue;
        for (int s = 0; s < velocity_rows_[j].count; ++s) g_[j].g[s] = weighted_[j].g[s] = Vec3(0.0);
        velocity_diagonal_.push_back({j, 1.0});
      }
      v_ = v_start;
      velocity_system_.velocity_rows(taking_part, g_, v_, velocity_mu_);
      const int dependent = velocity_system_.factorize(g_, weighted_, velocity_diagonal_);
      if (dependent > stats.dependent_rows) stats.dependent_rows = dependent;
      for (double& value : velocity_mu_) value = -value;
      velocity_system_.solve(velocity_mu_);
      velocity_system_.displace(taking_part, weighted_, velocity_mu_, v_);
      mu_.assign(m, 0.0);
      for (std::size_t k = 0; k < m; ++k)
        if (velocity_of_[k] >= 0) mu_[k] = velocity_mu_[velocity_of_[k]];
      bool changed = false;
      RowGradient grad;
      for (std::size_t k = 0; k < m; ++k) {
        const Row& row = combined_[k];
        if (row.unilateral == 0) continue;
        double w = 0.0;
        for (int s = 0; s < row.count; ++s) w += context.inv_mass()[row.particle[s]];
        if (active_[k]) {
          if (row.unilateral * mu_[k] * w < -1e-12 * row.scale / context.settings.dt) {
            active_[k] = 0;
            changed = true;
          }
          continue;
        }
        const double c = row.constraint->evaluate(row.row, x_, grad);
        if (row.unilateral * c > tolerance * row.scale) continue;
        double jv = 0.0;
        for (int s = 0; s < row.count; ++s) jv += glm::dot(grad[s], v_[row.particle[s]]);
        if (row.unilateral * jv < -1e-9 * row.scale / context.settings.dt) {
          active_[k] = 1;
          changed = true;
        }
      }
      if (!changed) break;
    }
    // Coulomb friction on the second half-kick: the contact's velocity multiplier is its normal impulse over that half
    // step, so its friction impulse may be up to μ times it, never more than stops the slip. A kick that stops a
    // particle's slip on its own mass leaves the rows it shares with particles off the contacts moving (a rigid
    // triangle on an incline: its apex): the velocities go back onto the rows with the factorization above, and
    // friction again, in rounds until a round changes no slip by more than the tolerance. One round let a triangle
    // that must stand on a 30° incline (μ = 0.7) creep 6 mm/s.
    ContactSet* contacts = context.contacts;
    if (!contacts) return;
    const auto inv_mass = context.inv_mass();
    const std::size_t first = m - contacts->rows.size();
    friction_kick_.assign(contacts->rows.size(), Vec3(0.0));
    if (!contacts->has_friction()) return;
    const RowSet taking_part(velocity_rows_, context.model, velocity_version_);
    for (int round = 0; round < kVelocityFrictionRounds; ++round) {
      double worst = 0.0;
      for (std::size_t k = 0; k < contacts->rows.size(); ++k) {
        ContactRow& row = contacts->rows[k];
        const double normal_impulse = active_[first + k] ? mu_[first + k] : 0.0;
        if (row.friction == 0.0 || (!(normal_impulse > 0.0) && friction_kick_[k] == Vec3(0.0))) continue;
        Vec3 n;
        contacts->gap(row, x_, n);
        const Vec3 rel = v_[row.a] - (row.b >= 0 ? v_[row.b] : Vec3(0.0));
        const Vec3 slip = rel - glm::dot(rel, n) * n;
        const double w = contacts->weight(row, inv_mass);
        if (w == 0.0) continue;
        // The whole friction impulse so far, and what would stop the slip on top of it, inside the cone.
        Vec3 impulse = friction_kick_[k] - slip / w;
        const double most = row.friction * std::max(0.0, normal_impulse), size = glm::length(impulse);
        if (size > most) impulse *= most / size;
        const Vec3 change = impulse - friction_kick_[k];
        if (change == Vec3(0.0)) continue;
        v_[row.a] += inv_mass[row.a] * change;
        if (row.b >= 0) v_[row.b] -= inv_mass[row.b] * change;
        friction_kick_[k] = impulse;  // recorded with the position stage's λ_t / h (the record, above)
        worst = std::max(worst, glm::length(change) * w / row.scale);
      }
      if (!(worst * context.settings.dt > 1e-9)) break;  // NaN stops too
      // Back onto the rows: J M⁻¹ Jᵀ δμ = −J v with the factorization of the rows taking part.
      velocity_system_.velocity_rows(taking_part, g_, v_, velocity_mu_);
      for (double& value : velocity_mu_) value = -value;
      velocity_system_.solve(velocity_mu_);
      velocity_system_.displace(taking_part, weighted_, velocity_mu_, v_);
      for (std::size_t k = 0; k < m; ++k)
        if (velocity_of_[k] >= 0) mu_[k] += velocity_mu_[velocity_of_[k]];
    }
  }

  RowSystem system_;
  NewtonScratch newton_;
  std::unique_ptr<Solver> fallback_;  // projection, for a substep still lost (solvers.h, fall_back)
  std::vector<CompliantRow> soft_;
  std::vector<DiagonalTerm> diagonal_;
  std::vector<Vec3> x0_, x_, x_star_, v_, force_;
  std::vector<Vec3> v_kicked_;  // the velocities before the velocity stage (its kicks: book_verlet_contact_work)
  RowGradients g_, weighted_;
  std::vector<double> c_, lambda_, mu_;
  std::vector<Vec3> friction_kick_;  // each contact's friction impulse in the velocity stage (N·s, on particle a)
  std::vector<Row> combined_;
  std::vector<char> active_;
  std::vector<int> signature_;
  unsigned rows_version_ = 0;
  // velocity_with_unilateral_rows(): the rows taking part in the velocity correction, row k's index among them (or
  // −1), their system and multipliers.
  std::vector<Row> velocity_rows_;
  std::vector<int> velocity_of_;
  unsigned velocity_version_ = 0;
  RowSystem velocity_system_;
  std::vector<DiagonalTerm> velocity_diagonal_;
  std::vector<double> velocity_mu_;
};

}  // namespace

std::unique_ptr<Solver> make_rattle_solver() { return std::make_unique<RattleSolver>(); }

}  // namespace lagrange
