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
// A cable (unilateral row, C = |r| − L ≤ 0, λ ≤ 0) takes part while taut: at its length and not shortening; one
// whose λ would push leaves and the system is solved again (an active set). A slack cable that snaps taut while its
// ends fly apart gets the inelastic impulse that stops the stretching first (the velocity level).
// Contacts: the impacts (contact_set.h) before the step; where the model has rows, the contact rows in the C̈ system
// too, with an active set like the cables' (a contact only pushes): their multipliers are the resting contact forces,
// so rods and cables wrapped over an obstacle are held against it (a chain of cables over a peg came apart in 0.28 s
// when the peg's push was left to the projection). After the step, the contact rows' position projection
// (contact_projection.cpp), whose correction (x' − x)/h goes into the velocities as the position solvers' does, its
// friction bounded by both multipliers; then the rods' reaction keeps their rates through what the contacts did
// (keep_rod_rates).
#include <algorithm>

#include "solvers.h"

namespace lagrange {
namespace {

class AccelerationSolver final : public Solver {
 public:
  void substep(StepContext& context, double h, StepStats& stats) override {
    const Model& model = context.model;
    ContactSet* contacts = context.contacts;
    State& particles = context.state;
    if (contacts) {  // first: the impact stage may add rows (and remakes the rows' constraints)
      x0_ = particles.position;
      contacts->resolve_impacts(model, particles, context.settings, h, true);
    }
    // Contacts join the C̈ system where the model has rows of its own (the contact rows' multipliers bound below);
    // a scene of balls alone keeps the contacts' projection.
    const bool contact_rows = contacts && !contacts->empty() && !model.rows().empty();
    const bool unilateral = model.has_unilateral_rows() || contact_rows;
    RowSet rows = model;
    if (unilateral) {
      combine_rows(model, contact_rows ? contacts : nullptr, combined_, rows_version_, signature_);
      original_ = combined_;
      rows = RowSet(combined_, model, rows_version_);
    }
    system_.prepare(rows);
    stats.dependent_rows = std::max(stats.dependent_rows, system_.twins());  // repeated rows are redundant
    const std::size_t n = particles.position.size();
    const double beta = context.settings.baumgarte;
    const std::size_t own_rows = model.rows().size();
    if (unilateral) snap_taut_cables(context, own_rows);
    context.external_forces(particles.velocity, force_);
    const std::size_t m = rows.rows.size();
    active_.assign(m, 1);
    const double tolerance = context.settings.tolerance;
    if (unilateral) {
      RowGradient grad;
      for (std::size_t k = 0; k < m; ++k) {
        const Row& row = original_[k];
        if (row.unilateral == 0) continue;
        const double c = row.constraint->evaluate(row.row, particles.position, grad);
        double jv = 0.0;
        for (int s = 0; s < row.count; ++s) jv += glm::dot(grad[s], particles.velocity[row.particle[s]]);
        active_[k] = row.unilateral * c <= tolerance * row.scale && row.unilateral * jv <= tolerance * row.scale / h;
      }
    }
    for (int pass = 0; pass < (unilateral ? 32 : 1); ++pass) {
      int masked = 0;
      if (unilateral)
        for (std::size_t k = 0; k < m; ++k) {
          combined_[k] = original_[k];
          if (!active_[k]) {
            mask_row(combined_[k]);
            ++masked;
          }
        }
      solve_accelerations(context, rows, beta, masked, stats);
      if (!unilateral) break;
      bool changed = false;
      for (std::size_t k = 0; k < m; ++k)
        if (active_[k] && original_[k].unilateral != 0 && original_[k].unilateral * rhs_[k] < 0.0) {
          active_[k] = 0;
          changed = true;
        }
      if (!changed) break;
    }
    for (std::size_t i = 0; i < n; ++i) {
      if (context.fixed(i)) continue;
      particles.velocity[i] += h * accel_[i];
      particles.position[i] += h * particles.velocity[i];
    }
    ++stats.iterations;
    context.state.row_force.assign(rhs_.begin(), rhs_.begin() + static_cast<std::ptrdiff_t>(own_rows));
    for (std::size_t i = 0; i < diagonal_.size(); ++i)
      if (i < spring_.size()) context.state.row_force[diagonal_[i].row] = spring_[i];
    if (contact_rows)  // the contact forces the C̈ solve found: recorded with the projection's, and bound friction
      for (std::size_t j = 0; j < contacts->rows.size(); ++j) {
        const double force = rhs_[own_rows + j];
        contacts->rows[j].normal_held = force > 0.0 ? force * h * h : 0.0;
      }
    if (contacts) {
      v_before_ = particles.velocity;
      hold_contacts(context, x0_, h, stats);
      keep_rod_rates(rows, unilateral, v_before_, particles.position, particles.velocity);
    }
    if (unilateral)
      for (std::size_t k = 0; k < m; ++k) combined_[k] = original_[k];
  }

 private:
  // a = M⁻¹(F + Jᵀλ) with J M⁻¹ Jᵀ λ = −(J M⁻¹ F + J̇q̇ + 2βĊ + β²C) over the rows (masked ones give λ = 0).
  void solve_accelerations(StepContext& context, const RowSet& rows_set, double beta, int masked, StepStats& stats) {
    State& particles = context.state;
    const auto inv_mass = context.inv_mass();
    const std::size_t n = particles.position.size();
    const auto rows = rows_set.rows;
    forces_ = force_;
    system_.evaluate(rows_set, particles.position, c_, g_);
    diagonal_.clear();
    spring_.clear();
    for (int k : rows_set.compliant) {
      const Constraint& c = *rows[k].constraint;
      double rate = 0.0;
      for (int s = 0; s < rows[k].count; ++s) rate += glm::dot(g_[k].g[s], particles.velocity[rows[k].particle[s]]);
      const double f = -(c_[k] / c.compliance() + c.damping() * rate);
      for (int s = 0; s < rows[k].count; ++s) {
        forces_[rows[k].particle[s]] += f * g_[k].g[s];
        g_[k].g[s] = Vec3(0.0);
      }
      c_[k] = 0.0;
      diagonal_.push_back({k, 1.0});
      spring_.push_back(f);
    }
    accel_.resize(n);
    for (std::size_t i = 0; i < n; ++i) accel_[i] = inv_mass[i] * forces_[i];
    system_.velocity_rows(rows_set, g_, accel_, rhs_);   // J M⁻¹ F
    system_.velocity_rows(rows_set, g_, particles.velocity, cdot_);  // Ċ = J v
    for (std::size_t k = 0; k < rows.size(); ++k) {
      const double jdot_qdot = rows[k].constraint->jdot_qdot(rows[k].row, particles.position, particles.velocity);
      rhs_[k] = -(rhs_[k] + jdot_qdot + 2.0 * beta * cdot_[k] + beta * beta * c_[k]);
    }
    system_.weight(rows_set, g_, weighted_);
    for (const DiagonalTerm& term : diagonal_) rhs_[term.row] = 0.0;
    const int dependent = system_.factorize(g_, weighted_, diagonal_) - masked;
    if (dependent > stats.dependent_rows) stats.dependent_rows = dependent;
    system_.solve(rhs_);
    system_.displace(rows_set, weighted_, rhs_, accel_);  // a = M⁻¹ (F + Jᵀ λ)
  }

  // Contacts act on free particles — the impacts' impulses and the projection's (x' − x)/h — which would change a
  // rod's rate Ċ = J v. This method holds C̈ = 0, whose impulsive form is Ċ⁺ = Ċ⁻: after the contacts, the rods'
  // reaction puts each rod's rate back to its value at the substep's start, the smallest change in the mass metric,
  //     v −= M⁻¹Jᵀμ,  J M⁻¹Jᵀ μ = J v − Ċ⁻,  J where the substep ends (J M⁻¹Jᵀ factorized once more).
  // Left out, a cradle's struck balls climbed their rods (|C|/L past 1 within 3.2 s). Kept, the rods drift only as the
  // integration makes them (a ball stopped dead at the bottom keeps the rate its swing had drifted to there). The
  // contacts' moves are left as they are: taken back along the rods as well (J Δx = 0), they pushed a chain lying on
  // a floor back into it by 2e-3 of a radius. Cables are left out (masked): one an impact slackens may go slack, and
  // one it stretches gets its snap at the next substep's start (snap_taut_cables); taking taut ones in (an active set
  // on their pull) made a chain of cables over a peg come apart sooner (0.12 s instead of 0.28).
  void keep_rod_rates(const RowSet& rows_set, bool unilateral, const std::vector<Vec3>& v_before,
                      std::span<const Vec3> x, std::vector<Vec3>& v) {
    const auto rows = rows_set.rows;
    if (rows.empty() || v == v_before) return;
    if (unilateral)  // rows_set is over combined_
      for (std::size_t k = 0; k < rows.size(); ++k)
        if (original_[k].unilateral != 0) mask_row(combined_[k]);
    system_.evaluate(rows_set, x, c_, g_);
    for (int k : rows_set.compliant)  // springs: forces, not rows (their diagonal terms are the solve's)
      for (int s = 0; s < rows[k].count; ++s) g_[k].g[s] = Vec3(0.0);
    system_.weight(rows_set, g_, weighted_);
    system_.factorize(g_, weighted_, diagonal_);
    system_.velocity_rows(rows_set, g_, v, rate_);
    for (std::size_t k = 0; k < rate_.size(); ++k) rate_[k] -= cdot_[k];  // Ċ⁻, as solve_accelerations left it
    for (const DiagonalTerm& term : diagonal_) rate_[term.row] = 0.0;
    if (unilateral)
      for (std::size_t k = 0; k < rows.size(); ++k)
        if (original_[k].unilateral != 0) rate_[k] = 0.0;
    system_.solve(rate_);
    for (double& mu : rate_) mu = -mu;
    system_.displace(rows_set, weighted_, rate_, v);
  }

  // A cable at its length whose ends fly apart: the inelastic impulse along it that stops the stretching, for every
  // such cable at once (Gauss–Seidel on the impulses, each kept pulling).
  // The model's rows only (the first `own_rows`): the contacts' impacts are the impact stage's.
  void snap_taut_cables(StepContext& context, std::size_t own_rows) {
    State& particles = context.state;
    const auto inv_mass = context.inv_mass();
    RowGradient grad;
    impulse_.assign(own_rows, 0.0);
    for (int sweep = 0; sweep < 100; ++sweep) {
      double worst = 0.0;
      for (std::size_t k = 0; k < own_rows; ++k) {
        const Row& row = original_[k];
        if (row.unilateral == 0) continue;
        const double c = row.constraint->evaluate(row.row, particles.position, grad);
        if (row.unilateral * c > context.settings.tolerance * row.scale) continue;  // slack
        double jv = 0.0, w = 0.0;
        for (int s = 0; s < row.count; ++s) {
          jv += glm::dot(grad[s], particles.velocity[row.particle[s]]);
          w += inv_mass[row.particle[s]] * glm::dot(grad[s], grad[s]);
        }
        if (w == 0.0) continue;
        const double wanted = impulse_[k] - jv / w;  // the impulse that makes J v = 0
        const double kept = row.unilateral * wanted > 0.0 ? wanted : 0.0;
        const double change = kept - impulse_[k];
        if (change == 0.0) continue;
        worst = std::max(worst, std::abs(change) * w);
        impulse_[k] = kept;
        for (int s = 0; s < row.count; ++s)
          particles.velocity[row.particle[s]] += (change * inv_mass[row.particle[s]]) * grad[s];
      }
      if (worst <= 1e-12) break;
    }
  }

  RowSystem system_;
  std::vector<Vec3> force_, forces_, accel_, x0_, v_before_;
  RowGradients g_, weighted_;
  std::vector<double> c_, cdot_, rhs_, spring_, impulse_, rate_;
  std::vector<DiagonalTerm> diagonal_;
  std::vector<Row> combined_, original_;
  std::vector<char> active_;
  std::vector<int> signature_;
  unsigned rows_version_ = 0;
};

}  // namespace

std::unique_ptr<Solver> make_acceleration_solver() { return std::make_unique<AccelerationSolver>(); }

}  // namespace lagrange
