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
// The sweeps stop as diverged once the worst row is off by more than kGrowth times its error in the first sweep and by
// more than kDivergedAt of its length: the directions at q have lost the root, and more sweeps fling particles away.
constexpr double kGrowth = 1e3;
constexpr double kDivergedAt = 0.1;
constexpr int kNewtonIterations = 30;
// The second half of the constraint impulse, squared in the mass norm, beyond which it has run away: this many times
// what the first half and the start's velocity across the rows can account for (ShakeSolver::kick_velocities).
constexpr double kKickBound = 2.0;
constexpr int kMaxHalvings = 4;
// Sweeps of the contacts' second half, contacts alone (ContactSet::second_half): a resting or sliding contact's takes
// one or two; in a pile whose position stage stopped short they are a correction that never finishes, and at that
// stage's 100 sweeps they made `balls1000` and `balls2000` 1.4 times as slow (with 10: the same time, as deep).
constexpr int kSecondHalfSweeps = 10;

// Whether the rows end with the contacts' normal rows (combine_rows, no tangent rows) and some contact has friction:
// SHAKE's sweeps and Newton then take it.
bool friction_in(const StepContext& context, const RowSet& rows) {
  const ContactSet* contacts = context.contacts;
  return contacts && rows.rows.size() == context.model.rows().size() + contacts->rows.size() &&
         contacts->has_friction();
}

}  // namespace

ShakeResult shake_positions(const StepContext& context, const RowSet& row_set, const RowGradients& g0,
                            std::vector<Vec3>& x, std::vector<double>& lambda, const std::vector<CompliantRow>& soft,
                            std::span<const Vec3> x0, bool newton_follows) {
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
  // Coulomb friction inside the sweeps (docs/physics.md, "Friction"), when the rows end with the contacts' normal
  // rows (combine_rows): each contact's friction update right after its normal row, at its normal multiplier so far,
  // and the sweeps go on until friction too moves nothing beyond the contact tolerance. A friction pass once after
  // the sweeps, then the rows again, left the slip their moves along tilted normals made: two balls stacked off
  // centre crept sideways by 4 mm in 2 s where they must stand.
  ContactSet* contacts = context.contacts;
  const std::size_t contacts_first = context.model.rows().size();
  const bool friction = friction_in(context, row_set);
  const double friction_tolerance = ContactSet::tolerance(context.settings);
  if (friction) {  // from zero, as the rows' multipliers (a substep done again as two halves starts afresh)
    for (ContactRow& row : contacts->rows) row.lambda_t = Vec3(0.0);
    contacts->weigh(inv_mass);
  }
  bool friction_done = false;
  ShakeResult result;
  RowGradient grad;
  double first = -1.0;
  while (result.sweeps < context.settings.max_iterations) {
    if ((result.sweeps & 63) == 63 && context.past_deadline()) {  // the window's frame budget ran out
      result.stopped = true;
      break;
    }
    ++result.sweeps;
    bool all_within = true;
    double worst = 0.0;
    // A contact's friction right after its normal, as the contacts' own sweeps take it (contact_projection.cpp).
    // Friction is done after a sweep in which it moved nothing beyond the contact tolerance and no contact started to
    // push: the rows' last sweeps to the rods' tolerance would otherwise keep nudging it (a pile of 4 balls under
    // RATTLE then ended 201 substeps of 480 unfinished, at 1e-8 of a radius). A contact that starts pushing only in
    // the second sweep (a ball on another, lifted by the floor's row first) has had no friction yet: done after the
    // first sweep, RATTLE let it slide 1 cm in 2 s. After half the sweeps friction is done anyway: a contact about to
    // open can trade its push and its friction back and forth for good (5e-7 of a radius each sweep).
    double friction_moved2 = 0.0;  // the square of friction's largest move, relative to its row's scale
    bool started = false;
    const auto friction_after = [&](std::size_t k) {
      if (!friction || friction_done || k < contacts_first) return;
      const std::size_t j = k - contacts_first;
      if (contacts->rows[j].lambda == 0.0 && lambda[k] > 0.0 && contacts->rows[j].friction > 0.0) started = true;
      contacts->rows[j].lambda = lambda[k];
      // In the plane across the normal at q, along which SHAKE moves the row: the two moves do not undo each other.
      const double moved2 = contacts->friction_row(j, g0[k].g[0], inv_mass, x0, x);
      if (!(moved2 <= friction_moved2)) friction_moved2 = moved2;
    };
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
      if ((sigma != 0 && lambda[k] == 0.0 && sigma * c >= -tolerance * row.scale) ||
          std::abs(c) <= tolerance * row.scale) {
        friction_after(k);
        continue;
      }
      all_within = false;
      const double off = std::abs(c) / row.scale;
      if (!(off <= worst)) worst = off;  // NaN wins
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
      else if (!(denominator > kMinCosine * scale)) {
        friction_after(k);
        continue;
      }
      double delta = -c / denominator;
      if (sigma != 0 && sigma * (lambda[k] + delta) < 0.0) delta = -lambda[k];  // it would pull: it lets go
      lambda[k] += delta;
      for (int s = 0; s < row.count; ++s) {
        const int p = row.particle[s];
        x[p] += (delta * inv_mass[p]) * g0[k].g[s];
      }
      if (context.trace) context.trace->record(IterateKind::RowCorrection, x, static_cast<int>(k), result.sweeps);
      friction_after(k);
    }
    if (friction && !friction_done) {
      const bool quiet = friction_moved2 <= friction_tolerance * friction_tolerance;
      if ((quiet && !started) || 2 * result.sweeps >= context.settings.max_iterations) {
        friction_done = true;
      } else if (!quiet) {
        all_within = false;
        const double moved = std::sqrt(friction_moved2);
        if (!(moved <= worst)) worst = moved;  // NaN wins
      }
    }
    result.residual = worst;
    if (all_within) {
      result.converged = true;
      break;
    }
    if (first < 0.0) first = worst;
    if (!(worst <= std::max(kDivergedAt, kGrowth * first))) {
      result.diverged = true;
      break;
    }
    // Too slow to reach the tolerance within the cap at the rate seen so far (a long chain: the error diffuses one
    // link per sweep): the caller's Newton takes over now rather than after the cap.
    if (newton_follows && (result.sweeps & 7) == 0 && worst > 0.0 && first > 0.0) {
      const double rate = std::pow(worst / first, 1.0 / (result.sweeps - 1));
      const double needed = rate < 1.0 ? std::log(tolerance / worst) / std::log(rate) : INFINITY;
      if (result.sweeps + needed > 1.5 * context.settings.max_iterations) break;
    }
  }
  return result;
}

bool newton_positions(const StepContext& context, const RowSet& row_set, RowSystem& system, const RowGradients& g0,
                      std::vector<Vec3>& x, std::vector<double>& lambda, const std::vector<CompliantRow>& soft,
                      std::span<const Vec3> x0, NewtonScratch& s, int& iterations) {
  const auto rows = row_set.rows;
  const std::size_t m = rows.size();
  const double tolerance = context.settings.tolerance;
  s.factorized = false;
  system.weight(row_set, g0, s.weighted);
  s.diagonal.clear();
  for (const CompliantRow& row : soft) s.diagonal.push_back({row.row, row.alpha_tilde});
  // C(x) (+ α̃λ + γ∇C(q)·(x − q) on compliant rows) into s.c, gradients at x into s.grad; max |residual| / length.
  const auto residual = [&]() {
    double r = system.evaluate(row_set, x, s.c, s.grad);
    if (soft.empty()) return r;
    for (const CompliantRow& row : soft) {
      const int k = row.row;
      double damping = 0.0;
      for (int t = 0; t < rows[k].count; ++t) {
        const int p = rows[k].particle[t];
        damping += glm::dot(g0[k].g[t], x[p] - x0[p]);
      }
      s.c[k] += row.alpha_tilde * lambda[k] + row.gamma * damping;
    }
    r = 0.0;
    for (std::size_t k = 0; k < m; ++k)
      if (!(std::abs(s.c[k]) / rows[k].scale <= r)) r = std::abs(s.c[k]) / rows[k].scale;
    return r;
  };
  s.delta.assign(m, 0.0);
  double accepted = INFINITY;
  int halvings = 0;
  bool current_accepted = true;
  for (int it = 0; it < kNewtonIterations; ++it) {
    if (it > 0 && context.past_deadline()) break;
    const double r = residual();
    ++iterations;
    if (!(r <= accepted) && std::isfinite(accepted)) {
      if (halvings == kMaxHalvings) break;  // no step length helps: lost
      ++halvings;  // the full step overshot: go back half of it and look again
      for (std::size_t k = 0; k < m; ++k) {
        s.delta[k] *= -0.5;
        lambda[k] += s.delta[k];
      }
      system.displace(row_set, s.weighted, s.delta, x);
      for (double& d : s.delta) d = -d;
      current_accepted = false;
      continue;
    }
    halvings = 0;
    accepted = r;
    current_accepted = true;
    if (r <= tolerance) return true;
    if (!std::isfinite(r)) return false;
    for (const CompliantRow& row : soft)  // ∂/∂λ of γ∇C(q)·(x − q): the row's left gradient gains γ∇C(q)
      for (int t = 0; t < rows[row.row].count; ++t) s.grad[row.row].g[t] += row.gamma * g0[row.row].g[t];
    system.factorize(s.grad, s.weighted, s.diagonal);
    s.factorized = true;
    for (std::size_t k = 0; k < m; ++k) s.delta[k] = -s.c[k];
    system.solve(s.delta);
    for (std::size_t k = 0; k < m; ++k) lambda[k] += s.delta[k];
    system.displace(row_set, s.weighted, s.delta, x);
    current_accepted = false;
  }
  if (!current_accepted) {  // back to the last accepted (the best) iterate
    for (double& d : s.delta) d = -d;
    for (std::size_t k = 0; k < m; ++k) lambda[k] += s.delta[k];
    system.displace(row_set, s.weighted, s.delta, x);
  }
  return false;
}

bool newton_active_set(const StepContext& context, const RowSet& row_set, RowSystem& system, const RowGradients& g0,
                       std::vector<Vec3>& x, std::vector<double>& lambda, std::span<const Vec3> predicted,
                       NewtonScratch& s, int& iterations, std::span<const int> follows) {
  const auto rows = row_set.rows;
  const std::size_t m = rows.size();
  const double contact_tol = ContactSet::tolerance(context.settings);
  const auto tolerance = [&](const Row& row) {  // a contact's own tolerance, as the sweeps and projection take it
    return std::max(context.settings.tolerance, row.constraint->unilateral() > 0 ? contact_tol : 0.0) * row.scale;
  };
  s.factored = nullptr;
  s.held = false;
  s.rows.assign(rows.begin(), rows.end());
  s.active.assign(m, 1);
  for (std::size_t k = 0; k < m; ++k) {
    const Row& row = rows[k];
    if (row.unilateral != 0)
      s.active[k] = row.unilateral * lambda[k] > 0.0 ||
                    row.unilateral * row.constraint->value(row.row, x) < -tolerance(row);
  }
  const auto follow = [&] {
    for (std::size_t k = 0; k < follows.size(); ++k)
      if (follows[k] >= 0) s.active[k] = s.active[static_cast<std::size_t>(follows[k])];
  };
  follow();
  RowSet masked = row_set;
  masked.rows = s.rows;
  const int stride = system.stride();
  for (int pass = 0; pass < kMaxActiveSetPasses; ++pass) {
    // The inactive rows masked, with no multiplier and no gradient at q either (they neither move nor are moved).
    s.g0.resize(m, stride);
    std::copy(g0.data(), g0.data() + m * static_cast<std::size_t>(stride), s.g0.data());
    for (std::size_t k = 0; k < m; ++k) {
      s.rows[k] = rows[k];
      if (s.active[k]) continue;
      mask_row(s.rows[k]);
      lambda[k] = 0.0;
      for (int t = 0; t < stride; ++t) s.g0[k].g[t] = Vec3(0.0);
    }
    // From the prediction moved by the active rows' multipliers: x = x* + M⁻¹∇C(q)ᵀλ, as Newton keeps it.
    x.assign(predicted.begin(), predicted.end());
    system.weight(masked, s.g0, s.weighted);
    system.displace(masked, s.weighted, lambda, x);
    if (!newton_positions(context, masked, system, s.g0, x, lambda, {}, {}, s, iterations)) return false;
    bool changed = false;
    for (std::size_t k = 0; k < m; ++k) {
      const Row& row = rows[k];
      if (row.unilateral == 0) continue;
      if (s.active[k]) {
        double w = 0.0;
        for (int t = 0; t < row.count; ++t) w += row_set.inv_mass[row.particle[t]];
        if (row.unilateral * lambda[k] * w < -0.1 * tolerance(row)) {  // it pulls: it lets go
          s.active[k] = 0;
          changed = true;
        }
      } else if (row.unilateral * row.constraint->value(row.row, x) < -tolerance(row)) {  // violated: it holds
        s.active[k] = 1;
        changed = true;
      }
    }
    follow();
    if (!changed) {
      for (std::size_t k = 0; k < m; ++k)  // rounding's pulls of rows that stay on: none
        if (rows[k].unilateral != 0 && rows[k].unilateral * lambda[k] < 0.0) lambda[k] = 0.0;
      // The second half-kick solves with this pass's matrix (ShakeSolver): factored here if Newton found the root
      // at once (gradients at x, left by its last residual), not one left from another pass or substep.
      if (!s.factorized) system.factorize(s.grad, s.weighted, s.diagonal);
      s.factored = &system;
      s.held = !follows.empty();
      return true;
    }
    if (context.past_deadline()) return false;
  }
  return false;
}

bool newton_with_friction(const StepContext& context, const RowSet& rows, RowSystem& system, const RowGradients& g0,
                          std::vector<Vec3>& x, std::vector<double>& lambda, std::span<const Vec3> x0,
                          NewtonScratch& s, int& iterations) {
  ContactSet& contacts = *context.contacts;
  const Model& model = context.model;
  const std::size_t m = rows.rows.size(), first = model.rows().size(), count = contacts.rows.size();
  const std::size_t per = static_cast<std::size_t>(contacts.tangents_per_row());
  const double tolerance = ContactSet::tolerance(context.settings);
  system.weight(rows, g0, s.base_weighted);
  // The prediction moved by what friction (passes and holds) has moved so far: x − M⁻¹∇C(q)ᵀλ.
  const auto moved_prediction = [&] {
    s.base = x;
    for (double& l : lambda) l = -l;
    system.displace(rows, s.base_weighted, lambda, s.base);
    for (double& l : lambda) l = -l;
  };
  moved_prediction();
  contacts.weigh(rows.inv_mass);
  bool holding = false;
  int last_round = kFrictionRounds;
  double last_move = INFINITY;
  for (int round = 0;; ++round) {
    // The rows (and the held contacts' tangent rows) from the moved prediction. Holds that ask more of friction than
    // its cone gives are dropped, and the round done again without them, as projection does.
    bool solved = false;
    if (holding) {
      s.held_lambda.assign(s.held_rows.size(), 0.0);
      std::copy(lambda.begin(), lambda.end(), s.held_lambda.begin());
      s.before = x;
      solved = newton_active_set(context, RowSet(s.held_rows, model, s.held_version), s.held_system, s.held_g0, x,
                                 s.held_lambda, s.base, s, iterations, s.follows);
      for (std::size_t j = 0, t = m; solved && j < count; ++j) {
        if (!s.sticking[j]) continue;
        const ContactRow& row = contacts.rows[j];
        Vec3 friction = row.lambda_t;
        for (std::size_t i = 0; i < per; ++i) friction += s.held_lambda[t++] * row.tangent[i];
        solved = glm::length(friction) <= row.friction * std::max(0.0, s.held_lambda[first + j]) * (1.0 + 1e-9);
      }
      if (solved) {
        std::copy(s.held_lambda.begin(), s.held_lambda.begin() + static_cast<std::ptrdiff_t>(m), lambda.begin());
        for (std::size_t j = 0, t = m; j < count; ++j)
          if (s.sticking[j])
            for (std::size_t i = 0; i < per; ++i)
              contacts.rows[j].lambda_t += s.held_lambda[t++] * contacts.rows[j].tangent[i];
      } else {
        x.swap(s.before);
      }
    }
    if (!solved && !newton_active_set(context, rows, system, g0, x, lambda, s.base, s, iterations)) return false;
    for (std::size_t j = 0; j < count; ++j) contacts.rows[j].lambda = std::max(0.0, lambda[first + j]);
    if (round == last_round) return true;
    // A friction pass at these multipliers; one that moves nothing beyond the tolerance is undone, and the rows hold
    // exactly. More rounds while each cuts friction's move kFrictionRoundGain times (projection's rule).
    s.before = x;
    s.lambda_t.resize(count);
    for (std::size_t j = 0; j < count; ++j) s.lambda_t[j] = contacts.rows[j].lambda_t;
    double moved2 = 0.0;
    for (std::size_t j = 0; j < count; ++j) {
      const double m2 = contacts.friction_row(j, g0[first + j].g[0], rows.inv_mass, x0, x);
      if (!(m2 <= moved2)) moved2 = m2;  // NaN wins
    }
    if (moved2 <= tolerance * tolerance) {
      x.swap(s.before);
      for (std::size_t j = 0; j < count; ++j) contacts.rows[j].lambda_t = s.lambda_t[j];
      return true;
    }
    if (!std::isfinite(moved2) || context.past_deadline()) return false;
    const double moved = std::sqrt(moved2);
    if (round >= 1 && !(moved * kFrictionRoundGain <= last_move)) last_round = round + 1;
    last_move = moved;
    moved_prediction();
    // The contacts that stick now are held by tangent rows in the next round.
    s.sticking.assign(count, 0);
    for (std::size_t j = 0; j < count; ++j) s.sticking[j] = lambda[first + j] > 0.0;
    const std::vector<char> pushing = s.sticking;
    holding = hold_sticking(context, contacts, pushing, x, s.sticking, s.pinned);
    if (!holding) continue;
    combine_rows(model, &contacts, s.held_rows, s.held_version, s.held_signature, &s.sticking);
    const RowSet held(s.held_rows, model, s.held_version);
    s.held_system.prepare(held);
    s.held_system.evaluate(held, x0, s.c0, s.held_g0);
    s.follows.assign(s.held_rows.size(), -1);
    for (std::size_t j = 0, t = m; j < count; ++j)
      if (s.sticking[j])
        for (std::size_t i = 0; i < per; ++i) s.follows[t++] = static_cast<int>(first + j);
  }
}

void book_verlet_contact_work(ContactSet& contacts, std::size_t first, std::span<const double> lambda,
                              std::span<const double> second, std::span<const Vec3> second_t, double second_per,
                              std::span<const Vec3> v0, std::span<const Vec3> x0, std::span<const Vec3> x,
                              std::span<const Vec3> x_star, std::span<const Vec3> before,
                              std::span<const Vec3> after, double h) {
  const auto first_half = [&](int i) {  // the mean velocity across the position stage's kick
    Vec3 u = v0[i] + 0.5 * (x[i] - x_star[i]) / h;
    if (!contacts.dv.empty()) u += contacts.dv[i];
    return u;
  };
  const auto second_half = [&](int i) { return 0.5 * (after[i] + before[i]); };  // ... and across the second's
  for (std::size_t k = 0; k < contacts.rows.size(); ++k) {
    ContactRow& row = contacts.rows[k];
    Vec3 n0, n1;
    contacts.gap(row, x0, n0);
    contacts.gap(row, x, n1);
    const Vec3 p1 = (lambda[first + k] * n0 + row.lambda_t) / h;
    const Vec3 p2 = (second[first + k] * n1 + second_t[k]) / second_per;
    Vec3 u1 = first_half(row.a), u2 = second_half(row.a);
    if (row.b >= 0) {
      u1 -= first_half(row.b);
      u2 -= second_half(row.b);
    }
    row.work = glm::dot(p1, u1) + glm::dot(p2, u2);
  }
  contacts.work_booked = true;
}

bool newton_serves(const Model& model, const ContactSet* contacts, const std::vector<CompliantRow>& soft) {
  return soft.empty() && (!contacts || !model.rows().empty());
}

ShakeStage shake_stage(const StepContext& context, const RowSet& rows, RowSystem& system, const RowGradients& g0,
                       std::vector<Vec3>& x, std::vector<double>& lambda, const std::vector<CompliantRow>& soft,
                       std::span<const Vec3> x0, bool newton, int depth, std::span<const Vec3> predicted,
                       NewtonScratch& scratch, StepStats& stats) {
  ShakeStage stage;
  ShakeResult& result = stage.result;
  result = shake_positions(context, rows, g0, x, lambda, soft, x0, newton);
  stats.iterations += result.sweeps;
  // Whether a row turned further than kMaxTurnCosine allows within the substep: its gradient at x against at q.
  const auto turned = [&] {
    system.evaluate(rows, x, scratch.c, scratch.grad);
    for (std::size_t k = 0; k < rows.rows.size(); ++k) {
      double dot = 0.0, a = 0.0, b = 0.0;
      for (int t = 0; t < rows.rows[k].count; ++t) {
        dot += glm::dot(g0[k].g[t], scratch.grad[k].g[t]);
        a += glm::dot(g0[k].g[t], g0[k].g[t]);
        b += glm::dot(scratch.grad[k].g[t], scratch.grad[k].g[t]);
      }
      if (dot < kMaxTurnCosine * std::sqrt(a * b)) return true;
    }
    return false;
  };
  // Not past the window's deadline: its halves would stop at once, unfinished, where this substep converged.
  const auto split_turned = [&] { return depth < kShakeSplitDepth && !context.past_deadline() && turned(); };
  // Rows that only push or pull (contacts, cables) take Newton's active set and are never split: a contact's
  // impacts and rows belong to the whole substep (world.cpp splits those).
  bool unilateral = false;
  for (const Row& row : rows.rows) unilateral = unilateral || row.unilateral != 0;
  const bool split = newton && !unilateral;
  if (result.converged && split && split_turned()) {
    ++stats.recoveries;
    stage.split = true;
    return stage;
  }
  // Lost with contacts Newton does not take (contacts alone, a pile): straight to the fallback, not a recovery.
  if (result.converged || result.stopped || (context.contacts && !newton)) return stage;
  ++stats.recoveries;
  if (newton) {
    // Newton from the sweeps' iterate, or from the prediction when the sweeps went astray.
    ContactSet* contacts = context.contacts;
    const bool friction = friction_in(context, rows);
    if (result.diverged || !(result.residual < kNewtonFromSweeps)) {
      x.assign(predicted.begin(), predicted.end());
      lambda.assign(lambda.size(), 0.0);
      if (friction)
        for (ContactRow& row : contacts->rows) row.lambda_t = Vec3(0.0);
    }
    if (unilateral) {
      stage.active_set = true;
      result.converged =
          friction ? newton_with_friction(context, rows, system, g0, x, lambda, x0, scratch, stats.iterations)
                   : newton_active_set(context, rows, system, g0, x, lambda, predicted, scratch, stats.iterations);
      result.stopped = context.past_deadline();
      stage.newton_converged = result.converged && scratch.factored != nullptr;
      return stage;
    }
    result.converged = newton_positions(context, rows, system, g0, x, lambda, soft, x0, scratch, stats.iterations);
    result.stopped = context.past_deadline();
    stage.newton_converged = result.converged;
    if (result.converged && split_turned()) {
      stage.split = true;
      return stage;
    }
  }
  stage.split = !result.converged && !result.stopped && split && depth < kShakeSplitDepth;
  return stage;
}

void fall_back(std::unique_ptr<Solver>& projection, StepContext& context, double h, StepStats& stats) {
  if (!projection) projection = make_projection_solver();
  if (context.contacts) context.contacts->restart_substep();
  ++stats.fallbacks;
  // The state's velocity is velocity Verlet's, at the substep's start; projection's is the mean over the substep
  // before, half a kick of the outside forces behind. Converted there and back, so the substep is projection's own
  // and no kick is taken twice or lost.
  State& state = context.state;
  const auto half_kick = [&](double sign) {
    const auto inv_mass = context.inv_mass();
    for (std::size_t i = 0; i < state.velocity.size(); ++i)
      if (!context.fixed(i))
        state.velocity[i] += (sign * 0.5 * h * inv_mass[i]) *
                             context.model.external_force(context.settings, i, state.velocity[i]);
  };
  half_kick(-1.0);
  std::vector<Vec3> v0;
  if (context.contacts) v0 = state.velocity;
  projection->substep(context, h, stats);
  // Its contacts' work at its own mean velocity (booked at the state's, the ends', half a kick off: a resting pile
  // that fell back every step drifted by m g h · g h / 2 a ball and step, 0.08 J a step for 6 balls at 1/60 s).
  if (context.contacts) context.contacts->book_work(state.position, v0, state.velocity, h);
  half_kick(1.0);
}

namespace {

class ShakeSolver final : public Solver {
 public:
  void substep(StepContext& context, double h, StepStats& stats) override { advance(context, h, stats, 0); }

 private:
  // One substep of length h; a lost one (docs/physics.md, "shake") is solved again by Newton on the same equations,
  // and if that fails too, done again as two substeps of h/2 (up to kShakeSplitDepth levels).
  void advance(StepContext& context, double h, StepStats& stats, int depth) {
    ContactSet* contacts = context.contacts;
    const Model& model = context.model;
    x0_ = context.state.position;
    if (contacts) contacts->resolve_impacts(model, context.state, context.settings, h, false);
    predict_semi_implicit(context, h, x_, v_, 0.5);  // velocity Verlet's half kick and drift
    if (contacts)
      for (int i : contacts->moved) x_[i] += contacts->dx[i];
    if (context.trace) context.trace->predicted(x_);
    if (contacts && model.rows().empty()) {  // contacts alone: the contact rows' own Gauss–Seidel
      bool converged = false;
      const int sweeps = contacts->sweep_cap(context.settings);
      stats.iterations += contacts->project(model.inv_mass(), x0_, x_, h, sweeps, converged, false);
      if (!converged) ++stats.failures;
      stats.iterations += commit(context, h, nullptr);
      stats.iterations += contacts->stabilize(model.inv_mass(), context.state.position, sweeps);
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
    const bool newton = newton_serves(model, contacts, soft_);
    x_star_ = x_;
    const ShakeStage stage = shake_stage(context, rows, system_, g0_, x_, lambda_, soft_, x0_, newton, depth, x_star_,
                                         newton_, stats);
    if (stage.split) {  // two half substeps instead
      advance(context, 0.5 * h, stats, depth + 1);
      advance(context, 0.5 * h, stats, depth + 1);
      return;
    }
    ShakeResult result = stage.result;
    if (lost(result)) return fall_back(fallback_, context, h, stats);
    const bool factored = stage.newton_converged;  // system_ holds Newton's last matrix, ≈ ∇C(q) M⁻¹ ∇C(q)ᵀ
    if (!result.converged) ++stats.failures;  // stopped by the deadline
    if (stage.active_set) active_set_second_half(context, h, rows, factored);
    else second_half(context, h, rows, factored);
    if (!kick_velocities(context, h, rows)) return fall_back(fallback_, context, h, stats);
    // κ = (h²/2) Λ for the mean constraint force Λ over the step (λ too, unless the rows moved across themselves)
    const double to_force = 2.0 / (h * h);
    auto& force = context.state.row_force;
    for (std::size_t k = 0; k < force.size(); ++k) force[k] = kick_[k] * to_force;
    if (context.trace) context.trace->multipliers(lambda_);  // q' = q* + M⁻¹∇C(q)ᵀλ: λ, not κ
    if (contacts) {
      const std::size_t first = model.rows().size();
      for (std::size_t k = 0; k < contacts->rows.size(); ++k) contacts->rows[k].lambda = std::max(0.0, lambda_[first + k]);
    }
    commit(context, h, &rows);
  }

  // The second half of the constraint impulse, estimated from the first, into kick_: κ_k for every row. κ is λ less
  // the part that only took out the velocity u = ∇C(q)·v the model's rows had across themselves at the start,
  // λ_in = −h A⁻¹u (A = ∇C M⁻¹ ∇Cᵀ at q): with κ = λ that velocity would come back with the opposite sign at every
  // step, a mode that never decays. After Newton (`factored`) A⁻¹u is solved with its last matrix (∇C(x) M⁻¹ ∇C(q)ᵀ,
  // within O(h) of A): the mode is gone. Otherwise it is estimated row by row, h u_k / S_k with
  // S_k = Σ_p w_p |∇_p C_k| Σ_{l ∋ p} |∇_p C_l| ≥ Σ_l |A_kl|: the mode is then multiplied by −(I − S⁻¹A) per step,
  // whose eigenvalues lie in (−1, 0] because S⁻¹A's lie in (0, 1] (Gershgorin), so it decays — at once on a lone
  // rod, where S = A. A compliant row's κ is its λ (a spring's force); so is a contact's (its velocity at the start
  // is the impacts' business). κ/h² is also the force reported, whatever velocity the substep started with.
  void second_half(const StepContext& context, double h, const RowSet& rows, bool factored) {
    const auto inv_mass = context.inv_mass();
    const auto all = rows.rows;
    const std::size_t m = all.size(), own = context.model.rows().size();
    const std::vector<Vec3>& v0 = context.state.velocity;  // still the start's
    kick_.assign(lambda_.begin(), lambda_.end());
    compliant_.assign(m, 0);
    for (const CompliantRow& row : soft_) compliant_[row.row] = 1;
    contact_kicks(context);
    if (factored) {
      across_.assign(m, 0.0);
      for (std::size_t k = 0; k < own; ++k) {
        if (compliant_[k]) continue;
        for (int s = 0; s < all[k].count; ++s) across_[k] += glm::dot(g0_[k].g[s], v0[all[k].particle[s]]);
      }
      system_.solve(across_);
      for (std::size_t k = 0; k < own; ++k)
        if (!compliant_[k]) kick_[k] += h * across_[k];
      return;
    }
    spread(rows);
    for (std::size_t k = 0; k < own; ++k) {
      const Row& row = all[k];
      if (compliant_[k] || (row.unilateral != 0 && lambda_[k] == 0.0)) continue;  // a slack cable: no force
      double across = 0.0, bound = 0.0;
      for (int s = 0; s < row.count; ++s) {
        const int p = row.particle[s];
        across += glm::dot(g0_[k].g[s], v0[p]);
        bound += inv_mass[p] * glm::length(g0_[k].g[s]) * spread_[p];
      }
      if (bound > 0.0) kick_[k] += h * across / bound;
      if (row.unilateral != 0 && row.unilateral * kick_[k] < 0.0) kick_[k] = 0.0;  // it would pull
    }
  }

  // spread_[p] = Σ_{l ∋ p} |∇_p C_l| over the rows, gradients at q (g0_).
  void spread(const RowSet& rows) {
    spread_.assign(x0_.size(), 0.0);
    for (std::size_t k = 0; k < rows.rows.size(); ++k)
      for (int s = 0; s < rows.rows[k].count; ++s) spread_[rows.rows[k].particle[s]] += glm::length(g0_[k].g[s]);
  }

  // second_half() after Newton with an active set: with its last matrix when it converged (newton_.factored, the
  // inactive rows masked), κ = λ + h A⁻¹u for every row on, u = ∇C(q)·v the velocity across it at the start (after
  // the impacts), the held contacts' tangent rows too (their κ joins κ_t, friction's second half); a unilateral row's
  // κ keeps its sign. Else row by row, as second_half().
  void active_set_second_half(const StepContext& context, double h, const RowSet& rows, bool factored) {
    if (!factored) return second_half(context, h, rows, false);
    const std::size_t m = rows.rows.size();
    const std::vector<Row>& on = newton_.rows;  // the last pass's rows, the inactive ones masked
    const RowGradients& g = newton_.held ? newton_.held_g0 : g0_;
    const std::vector<Vec3>& v0 = context.state.velocity;  // still the start's
    ContactSet* contacts = context.contacts;
    const auto start = [&](int p) { return !contacts || contacts->dv.empty() ? v0[p] : v0[p] + contacts->dv[p]; };
    across_.assign(on.size(), 0.0);
    for (std::size_t k = 0; k < on.size(); ++k) {
      if (!newton_.active[k]) continue;
      for (int s = 0; s < on[k].count; ++s) across_[k] += glm::dot(g[k].g[s], start(on[k].particle[s]));
    }
    newton_.factored->solve(across_);
    kick_.assign(lambda_.begin(), lambda_.end());
    for (std::size_t k = 0; k < m; ++k) {
      if (!newton_.active[k]) continue;
      kick_[k] += h * across_[k];
      if (rows.rows[k].unilateral != 0 && rows.rows[k].unilateral * kick_[k] < 0.0) kick_[k] = 0.0;
    }
    friction_kick_.clear();
    if (!contacts) return;
    // The held contacts' friction with the matrix; the others' κ_t = λ_t: the rows' κ above already take out the
    // start's velocity along the rows, and a sticking contact's own estimate on top of it (contact_kicks) counted the
    // same velocity twice: a rigid triangle landing on a floor gained 2 400 J in 3 s.
    const std::size_t per = static_cast<std::size_t>(contacts->tangents_per_row());
    const std::size_t first = context.model.rows().size();
    for (std::size_t j = 0, t = m; j < contacts->rows.size(); ++j) {
      const ContactRow& row = contacts->rows[j];
      friction_kick_.push_back(row.lambda_t);
      if (!newton_.held || !newton_.sticking[j]) continue;
      for (std::size_t i = 0; i < per; ++i, ++t)
        if (newton_.active[t]) friction_kick_[j] += (h * across_[t]) * row.tangent[i];
      // Inside the cone of the normal's second half (on the cloth, 5 of 5 held second halves were outside it, up to
      // 14.5 times, 3 with no normal left).
      const double most = row.friction * kick_[first + j], size = glm::length(friction_kick_[j]);
      if (size > most) friction_kick_[j] *= most / size;
    }
  }

  // Without Newton's matrix a contact's second half is its first, κ = λ and κ_t = λ_t. (Row by row as above, the
  // contacts' normals took 1e-4 J of 50 from the falling chain in 5 s, where the halves' sum holds it to rounding; a
  // sticking contact's friction, taken out the same way, stopped a dumbbell sliding to rest on a floor, whose second
  // half reversed 5.5 mm/s every substep for good, but left a resting triangle more of the same: not kept.)
  void contact_kicks(const StepContext& context) {
    friction_kick_.clear();
    if (context.contacts)
      for (const ContactRow& row : context.contacts->rows) friction_kick_.push_back(row.lambda_t);
  }

  // The second half of the constraint impulse as velocities, κ/h along M⁻¹∇C(x_)ᵀ, into kick_v_, with the gradients
  // at x_ left in g0_ (commit() adds the kicks row by row, in the order it always has: the same bits where nothing
  // runs away). Returns false when it runs away: in the mass norm, h²|Δv|² may be at most kKickBound times the first
  // half's |x_ − x*|² plus h² Σ_p m_p u_p², u_p the particle's speed across its rows at the start (what κ's other part
  // takes out), as the two halves of one impulse are alike (ratio 0.98–1.47 on the shipped chains and pendulums). A
  // flat sheet's self-stress (multipliers that cancel along ∇C(q), so the positions are right) does not cancel along
  // ∇C(x_): a hanging cloth's kick took it from 17 J to 175 J in one substep with every rod at its length (ratio 253).
  bool kick_velocities(const StepContext& context, double h, const RowSet& rows) {
    const auto inv_mass = context.inv_mass();
    const std::vector<Vec3>& v0 = context.state.velocity;  // still the start's
    const std::size_t n = v0.size();
    // Each particle's speed across its rows at the start, Σ_k |∇C_k · v0| / |∇_p C_k| (gradients still at q).
    across_v_.assign(n, 0.0);
    for (std::size_t k = 0; k < rows.rows.size(); ++k) {
      const Row& row = rows.rows[k];
      double u = 0.0;
      for (int s = 0; s < row.count; ++s) u += glm::dot(g0_[k].g[s], v0[row.particle[s]]);
      for (int s = 0; s < row.count; ++s) {
        const double g = glm::length(g0_[k].g[s]);
        if (g > 0.0) across_v_[row.particle[s]] += std::abs(u) / g;
      }
    }
    kick_v_.assign(n, Vec3(0.0));
    system_.evaluate(rows, x_, c_, g0_);
    const double inv_h = 1.0 / h;
    for (std::size_t k = 0; k < rows.rows.size(); ++k) {
      const Row& row = rows.rows[k];
      if (kick_[k] == 0.0) continue;
      for (int s = 0; s < row.count; ++s) {
        const int p = row.particle[s];
        if (!context.fixed(p)) kick_v_[p] += (kick_[k] * inv_h * inv_mass[p]) * g0_[k].g[s];
      }
    }
    double second = 0.0, first = 0.0, across = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
      if (context.fixed(i) || inv_mass[i] == 0.0) continue;
      const double m = 1.0 / inv_mass[i];
      second += m * glm::dot(kick_v_[i], kick_v_[i]);
      first += m * glm::dot(x_[i] - x_star_[i], x_[i] - x_star_[i]);
      across += m * across_v_[i] * across_v_[i];
    }
    return h * h * second <= kKickBound * (first + h * h * across);
  }

  // The positions x_ and the velocity at the step's end: (x_ − x0)/h with the impacts' change, the second half kick
  // of the external forces at x_, and the second half of the constraint impulse: κ/h along M⁻¹∇C(x_)ᵀ for every row
  // (`rows`, with the contacts' normal rows; κ in kick_, second_half()), λ_t/h for the contacts' friction. Contacts
  // alone (`rows` null): κ from their end velocities (ContactSet::second_half); every contact reports the mean force
  // (λ + κ)/h². Returns the sweeps that took (0 with rows).
  int commit(StepContext& context, double h, const RowSet* rows) {
    const auto inv_mass = context.inv_mass();
    ContactSet* contacts = context.contacts;
    if (contacts) v_start_ = context.state.velocity;
    commit_with_impacts(context, x_, x0_, h);
    State& state = context.state;
    std::vector<Vec3>& v = state.velocity;
    context.external_forces(v, v_);
    for (std::size_t i = 0; i < v.size(); ++i)
      if (!context.fixed(i)) v[i] += (0.5 * h * inv_mass[i]) * v_[i];
    if (contacts) v_kicked_ = v;
    const double inv_h = 1.0 / h;
    if (rows) {  // row by row into v, as kick_velocities() summed them (g0_ holds the gradients at x_ from there)
      for (std::size_t k = 0; k < rows->rows.size(); ++k) {
        const Row& row = rows->rows[k];
        if (kick_[k] == 0.0) continue;
        for (int s = 0; s < row.count; ++s) {
          const int p = row.particle[s];
          if (!context.fixed(p)) v[p] += (kick_[k] * inv_h * inv_mass[p]) * g0_[k].g[s];
        }
      }
    }
    if (!contacts) return 0;
    const std::size_t first = context.model.rows().size();
    for (std::size_t j = 0; j < contacts->rows.size(); ++j) {
      ContactRow& row = contacts->rows[j];
      Vec3 n;
      contacts->gap(row, x_, n);
      // With rows the normal part is done and friction's second half is κ_t (contact_kicks). Contacts alone, the
      // second half starts from the first (κ = λ, κ_t = λ_t; after an unfinished projection, friction's alone), and
      // where the projection finished, second_half() finishes it below.
      const Vec3 friction = rows ? friction_kick_[j] : row.lambda_t;
      const Vec3 kick = (rows || !contacts->finished ? friction : row.lambda * n + friction) * inv_h;
      if (kick != Vec3(0.0)) {
        if (!context.fixed(row.a)) v[row.a] += inv_mass[row.a] * kick;
        if (row.b >= 0 && !context.fixed(row.b)) v[row.b] -= inv_mass[row.b] * kick;
      }
      // The mean over the substep: both halves (the first λ, the second κ) over h², as the rows' (second_half).
      if (rows) {
        row.force = (row.lambda + kick_[first + j]) * inv_h * inv_h;
        row.force_t = (row.lambda_t + friction) * inv_h * inv_h;
      }
    }
    if (!rows) {
      if (contacts->finished) return contact_second_half(context, *contacts, h, v);
      // An unfinished projection's λ is no force (contact_set.h): the first half alone, λ/h², no second half for the
      // normal rows (the pile's velocities are its positions' own), friction's λ_t both halves. Reported as 2λ/h², an
      // unfinished pile of 100 balls weighed 16 N on its floor for its 9.81 N; given a second half from the end
      // velocities as a finished one is, `balls2000` landed 1.45e-1 of a radius deep instead of 8.2e-2.
      for (ContactRow& row : contacts->rows) {
        row.force = row.lambda * inv_h * inv_h;
        row.force_t = 2.0 * row.lambda_t * inv_h * inv_h;
      }
      return 0;
    }
    // Each half at the velocities around it, as RATTLE (book_verlet_contact_work): at the substep's mean velocity a
    // rigid triangle landing on a floor, Newton doing each substep, booked 3 J more than it lost.
    book_verlet_contact_work(*contacts, combined_.size() - contacts->rows.size(), lambda_, kick_, friction_kick_, h,
                             v_start_, x0_, x_, x_star_, v_kicked_, v, h);
    return 0;
  }

  // Contacts alone, their projection finished: the second half from the end velocities v (ContactSet::second_half),
  // started from what commit() gave (κ = λ); each contact's mean force (λ + κ)/h², and its work booked in two parts:
  // the kicks as first given (both halves alike) at the substep's mean velocity, as the projection books its forces
  // (record), and what second_half() changed, exactly. Booked whole at the mean velocity, the small piles of
  // test_contacts.cpp drifted by up to 2.2e-2 J. Returns the sweeps.
  int contact_second_half(const StepContext& context, ContactSet& contacts, double h, std::vector<Vec3>& v) {
    const std::size_t count = contacts.rows.size();
    kappa_.resize(count);
    kappa_t_.resize(count);
    for (std::size_t j = 0; j < count; ++j) {
      kappa_[j] = contacts.rows[j].lambda;
      kappa_t_[j] = contacts.rows[j].lambda_t;
    }
    v_kicked_ = v;
    correction_work_.assign(count, 0.0);
    const int cap = std::min(kSecondHalfSweeps, contacts.sweep_cap(context.settings));
    const int sweeps = contacts.second_half(context.inv_mass(), x_, v, h, cap, kappa_, kappa_t_, correction_work_);
    const double inv_h2 = 1.0 / (h * h);
    for (std::size_t j = 0; j < count; ++j) {
      ContactRow& row = contacts.rows[j];
      Vec3 n;
      contacts.gap(row, x_, n);
      row.force = 2.0 * row.lambda * inv_h2;  // as first given
      row.force_t = 2.0 * row.lambda_t * inv_h2;
      row.work = contacts.mean_velocity_work(row, n, v_start_, v_kicked_, h) + correction_work_[j];
      row.force = (row.lambda + kappa_[j]) * inv_h2;
      row.force_t = (row.lambda_t + kappa_t_[j]) * inv_h2;
    }
    contacts.work_booked = true;
    return sweeps;
  }

  RowSystem system_;  // its row evaluation, and the matrix of the Newton fallback
  NewtonScratch newton_;
  std::unique_ptr<Solver> fallback_;  // projection, for a substep still lost (solvers.h, fall_back)
  std::vector<CompliantRow> soft_;
  std::vector<Vec3> x0_, x_, x_star_, v_, kick_v_;
  RowGradients g0_;
  std::vector<double> c_, lambda_, kick_, spread_, across_, across_v_;
  std::vector<Vec3> friction_kick_;  // contact_kicks(): each contact's second half of friction, κ_t
  std::vector<double> kappa_;  // commit(), contacts alone: each contact's second half, κ and κ_t (second_half)
  std::vector<Vec3> kappa_t_;
  std::vector<double> correction_work_;
  std::vector<Vec3> v_start_, v_kicked_;  // commit(): the substep's start velocities, those before the rows' kicks
  std::vector<char> compliant_;
  std::vector<Row> combined_;
  std::vector<int> signature_;
  unsigned rows_version_ = 0;
};

}  // namespace

std::unique_ptr<Solver> make_shake_solver() { return std::make_unique<ShakeSolver>(); }

}  // namespace lagrange
