// Position-level Lagrange projection (seeds 003 and 000).
//
// Semi-implicit Euler predicts v* = v + h M⁻¹F, q* = q + h v*. The constraint forces act along the gradients at
// the start of the step, so the corrected positions are q' = q* + M⁻¹ ∇C(q)ᵀ λ and λ solves the m equations
//     F(λ) = C(q* + M⁻¹ ∇C(q)ᵀ λ) = 0                                                      (seed 003; seed 000 `mu`)
// The first guess is every row's own analytic root along its fixed direction, the smaller-magnitude one (seed 000):
// the other root is the mirrored configuration (seed 003's discarded solution), and an iteration started near the
// small root stays there. Then v' = (q' − q) / h. When the last substep left multipliers (State::row_force · h²) that
// already put every row within kReuseBelow of its length, they are the first guess instead: the forces change little
// from one substep to the next, so the iteration starts a few digits closer to the same root (a released chain: one
// chord step a substep instead of three). They are part of the state, so a saved state still continues bit for bit.
//
// The iteration (docs/physics.md, "How the projection is solved"). The Jacobian ∂F/∂λ = ∇C(q_λ) M⁻¹ ∇C(q)ᵀ is
// sparse (rows sharing a particle couple) and unsymmetric, but within one substep it stays close to the symmetric
// A = ∇C(q) M⁻¹ ∇C(q)ᵀ, because the rods turn little in one substep. So a chord iteration runs: A is factored once per
// substep with a symmetric L D Lᵀ (half the arithmetic of an LDU), and every step λ ← λ − A⁻¹ F(λ) costs one solve.
// It gains about a factor |turn angle| per step and converges to the same root as Newton.
//
// A chord step that gains less than a factor 1/kChordGain means the fixed directions are far from the root (large
// turns, a cloth's coupled rods) or have lost it. Then full Newton (the exact unsymmetric Jacobian, refactored by
// SparseLDU until the residual is below kReuseBelow, with step halvings) looks for that exact root once; only if it
// fails does the solver re-linearize at the best iterate — fast projection (Goldenthal et al. 2007): project again
// from there, along the gradients there, by the same chord iteration with A factored there; the λ add up. A re-
// linearization that gains less than kRelinearizedGain ends the attempts, and a substep that is still lost is split
// in halves (up to kMaxSplitDepth times). Newton comes first because a re-linearized projection lands elsewhere on
// the constraint surface and dissipates energy.
// Every recovery is counted in StepStats::recoveries; whatever stays above tolerance counts in StepStats::failures.
//
// Taut chains (docs/physics.md, "Taut chains: the zigzag limit"): forces along the start directions integrate a
// chain's zigzag mode explicitly, stable only for ω h < 2 (ω = 2 √(T/(m L)), the beaded string's fastest mode). A
// chain in natural order whose stiffest rod, by the last substep's row forces, is beyond kZigzagLimit is halved before
// it is projected (advance()), unless a rod turns fast (a whip, where it did not pay).
//
// Flat sheets (docs/physics.md, "Flat sheets"): when the chord factorization at q finds dependent rows and the
// projection is lost, the rows' gradients have lost rank (a flat sheet with rigid diagonals, rigid in its plane: no
// multipliers move it across the plane). The particles of the rows in those dependencies (their self-stresses) are
// held: their step displacement is scaled down, then to zero with them fixed for the substep (StepStats::held).
//
// Compliant rows (docs/physics.md, "Compliance"; XPBD, Macklin et al. 2016) solve C + α̃λ + γ∇C(q)·(x − q) = 0
// instead of C = 0: the residual gains α̃λ and the damping term, the Newton matrix gains α̃ on the diagonal and
// γ∇C(q)M⁻¹∇C(q)ᵀ in the row (the left gradient becomes ∇C(x) + γ∇C(q)), the chord matrix α̃/(1 + γ), and the first
// guess is the linear one. With no compliant row none of this runs.
#include <algorithm>
#include <cmath>
#include <numbers>
#include <optional>
#include <utility>
#include <vector>

#include "lagrange/constraint_kinds.h"
#include "solvers.h"

namespace lagrange {
namespace {

constexpr double kReuseBelow = 1e-3;  // max |C|/L at which a factorization may serve the following iterations
constexpr int kMaxHalvings = 4;       // step halvings when a Newton step increases the residual
constexpr double kSlowRatio = 0.2;    // residual ratio per step above which Newton counts as lost
constexpr int kRelinearizations = 16;
// Whipping chains with this many rows are solved by Newton first, then the chord (project(); docs/physics.md, "Short
// chains in a whip: Newton first").
constexpr std::pair<std::size_t, std::size_t> kNewtonFirstRows = {8, 128};
constexpr double kLostResidual = 1e-6;  // max |C|/L of a lost substep's best iterate beyond which it is not taken
constexpr int kDisplacementAttempts = 2;  // scaled displacements tried when the gradients lost rank, the last 0
constexpr double kChordGain = 0.25;        // residual ratio of a chord step above which the fixed directions are lost
constexpr double kRelinearizedGain = 0.7;  // residual ratio of a whole re-linearization below which Newton stays out
// A taut chain's zigzag limit (advance(); docs/physics.md, "Taut chains: the zigzag limit"): ω h of its stiffest rod
// above which the substep is halved before it is projected, unless a rod turns by more than kZigzagTurn (radians).
constexpr double kZigzagLimit = 1.8;
constexpr double kZigzagTurn = 0.1;
// Newton after a lost Newton (project(); docs/physics.md, "Newton after a lost Newton"): on systems of this many rows
// or more, a substep after one whose Newton lost the root tries Newton only every kNewtonProbe-th substep.
constexpr std::size_t kNewtonSkipRows = 1024;
constexpr int kNewtonProbe = 16;
// The count wraps below this, keeping its place between two tries (a saved state's count stays readable).
constexpr int kLostCap = kNewtonProbe * 65536;
int next_lost(int lost) { return lost >= kLostCap ? lost - kNewtonProbe + 1 : lost + 1; }
// A dependency whose held particles are at most 1/kChaseHeldPart of the scene's, held in vain, is re-linearized
// around (advance()).
constexpr std::size_t kChaseHeldPart = 16;

class ProjectionSolver final : public Solver {
 public:
  void substep(StepContext& context, double h, StepStats& stats) override {
    warm_start_ = !(context.contacts || context.model.has_unilateral_rows());
    if (!warm_start_) {
      unilateral_substep(context, h, stats);
      return;
    }
    rows_ = RowSet(context.model);
    system_.prepare(rows_);
    chord_system_.prepare(rows_);
    stats.dependent_rows = std::max(stats.dependent_rows, system_.twins());  // repeated rows are redundant
    advance(context, h, stats, 0);
  }

 private:
  int depth_ = 0;                    // the split depth of the substep being projected (advance())
  bool chase_rank_lost_ = false;    // project() re-linearizes even where the rows at q lost rank (advance())
  bool warm_start_ = false;          // the last substep's multipliers may start this one (substep())
  double h_ = 0.0;                   // this substep's length (advance())
  std::vector<double> last_lambda_;  // last_multipliers()
  double warm_residual_ = 0.0;       // warm_guess()
  struct NewtonResult {
    bool converged = false;
    bool stopped = false;  // the deadline passed
    double residual = INFINITY;
  };

  void advance(StepContext& context, double h, StepStats& stats, int depth) {
    h_ = h;
    depth_ = depth;
    const State& particles = context.state;
    // The state's positions stay q until commit_positions(), so they serve as x0 without a copy.
    const std::vector<Vec3>& x0 = particles.position;
    gather_compliant_rows(rows_, h, 1.0, soft_, &soft_diagonal_);
    if (depth < kMaxSplitDepth && soft_.empty() && chord_system_.stream_chain() &&
        chord_system_.chain_beyond_zigzag_limit(context.state.row_force, context.state.position,
                                                context.state.velocity, h, kZigzagLimit, kZigzagTurn)) {
      // A taut chain beyond the zigzag limit (see the header): two half steps from the start, before any projection.
      advance(context, 0.5 * h, stats, depth + 1);
      advance(context, 0.5 * h, stats, depth + 1);
      return;
    }
    predict_semi_implicit(context, h, x_star_, v_star_);
    if (context.trace) context.trace->predicted(x_star_);
    factored_at_q_ = false;
    NewtonResult result = project(context, stats, true);
    if (!result.converged && !result.stopped && rank_lost_) {
      mark_held(rows_);
      // The rows' gradients at q lost rank (a flat sheet whose rods cannot shorten in its plane: no multipliers reach
      // the prediction, see the header). Scale the step's displacement x* − q down until the projection converges:
      // the part of the motion the rods cannot follow is held, as an infinitely stiff rod would hold it.
      // The gap the rods cannot close grows as the square of the displacement, so the next scale is aimed at a
      // quarter of the tolerance from the last one's residual. Scale 0 (hold: x = q) ends the search.
      x_predicted_ = x_star_;
      double scale = 1.0;
      for (int attempt = 0; attempt < kDisplacementAttempts && !result.converged && !result.stopped; ++attempt) {
        const double aim = std::sqrt(0.25 * context.settings.tolerance / result.residual);
        scale = attempt + 1 == kDisplacementAttempts ? 0.0 : scale * std::clamp(aim, 1.0 / 64.0, 0.5);
        for (std::size_t i = 0; i < x0.size(); ++i)
          x_star_[i] = x0[i] + (held_[i] ? scale : 1.0) * (x_predicted_[i] - x0[i]);
        // At scale 0 the held part is fixed for this substep: no row moves it (the mouse's row then only stretches).
        result = project(context, stats, false, scale == 0.0);
      }
      if (result.converged) ++stats.held;
      if (!result.converged && !result.stopped && held_count() * kChaseHeldPart <= x0.size()) {
        // Held in vain, and the dependency is a small part of the scene: it is not what keeps the prediction out of
        // reach (a cloth in motion with a few cells folded shut, whose other rows need fast projection as in any
        // other substep; lost at every split, the whole cloth stopped dead). The whole prediction again,
        // re-linearized where the chord stalls despite the lost rank, before any split. (Where the dependency is
        // much of the scene, a sheet pinned flat, that found a folded root centimetres away: it stays held.)
        x_star_ = x_predicted_;
        chase_rank_lost_ = true;
        result = project(context, stats, false);
        chase_rank_lost_ = false;
      }
    }
    if (result.converged && !rank_lost_ && context.settings.turn_limit > 0.0 && depth < kShakeSplitDepth &&
        turned_beyond(x0, std::cos(context.settings.turn_limit * (std::numbers::pi / 180.0)))) {
      // A rod turned further than `turn_limit` (docs/physics.md, "Turn limit"): the root is exact, but its energy
      // error grows with the turn, so the substep is done again as two halves, as SHAKE and RATTLE do at 11.5°.
      ++stats.recoveries;
      advance(context, 0.5 * h, stats, depth + 1);
      advance(context, 0.5 * h, stats, depth + 1);
      return;
    }
    if (!result.converged && !result.stopped && depth < kMaxSplitDepth) {  // still lost: two half steps instead
      advance(context, 0.5 * h, stats, depth + 1);
      advance(context, 0.5 * h, stats, depth + 1);
      return;
    }
    if (!result.converged) ++stats.failures;
    // Lost at every split: its best iterate is off the rods, and the next substep would start from there with that
    // error as speed (a flat sheet pinned at four corners, lost in every substep, blew up at its second step). Further
    // than kLostResidual from the rods, the substep moves nothing and leaves every particle at rest (a failure, above).
    if (!result.converged && !result.stopped && !(result.residual <= kLostResidual)) {
      best_x_.assign(x0.begin(), x0.end());
      best_lambda_.assign(best_lambda_.size(), 0.0);
    }
    commit_positions(context, best_x_, x0, h);
    auto& force = context.state.row_force;
    for (std::size_t k = 0; k < force.size(); ++k) force[k] = best_lambda_[k] / (h * h);
  }

  // Projects x_star_ onto the constraints from the current positions q: the chord iteration, then full Newton once
  // (`with_newton`) when the chord stalls, then re-linearizations (fast projection, Goldenthal et al. 2007) while they
  // gain. Leaves
  // the best iterate in best_x_, best_lambda_ and whether ∇C(q) lost rank in rank_lost_. `freeze_held`: the
  // particles in held_ are fixed for this projection (the chord alone, no re-linearization).
  NewtonResult project(StepContext& context, StepStats& stats, bool with_newton, bool freeze_held = false) {
    const std::vector<Vec3>& x0 = context.state.position;
    // A chain in natural order: directions, the chord factorization, the lone roots and their residual in one pass
    // (RowSystem::chain_setup), below.
    const bool stream = soft_.empty() && !freeze_held && chord_system_.stream_chain();
    if (!stream) system_.directions(rows_, x0, g0_, r0_);
    if (freeze_held) {  // the held particles' moves per unit multiplier are zero: they act as fixed
      freeze_directions();
      factored_at_q_ = false;
    }
    if (!with_newton) {  // x* itself may already be close enough (at scale 0 it is q)
      x_ = x_star_;
      const double r = system_.values(rows_, x_, c_);
      if (r <= context.settings.tolerance && soft_.empty()) {
        best_x_ = x_;
        best_lambda_.assign(c_.size(), 0.0);
        NewtonResult held;
        held.converged = true;
        held.residual = r;
        return held;
      }
    }
    std::optional<Streamed> streamed;  // what chain_setup() found, or the residual of the last substep's multipliers
    // The last substep's multipliers as the first guess (see the header), for rows of one kind that a guess can
    // serve: no compliant row (its guess is linear), no twin (its multiplier stays 0), and no unilateral row (an
    // active set projects several times a substep, each time from another prediction).
    const double* warm = warm_start_ && with_newton && soft_.empty() && system_.twins() == 0
                             ? last_multipliers(context)
                             : nullptr;
    bool lone = !stream;  // the lone roots, from first_guess()
    if (stream) {
      int dependent = 0;
      const double first =
          chord_system_.chain_setup(rows_, x0, x_star_, r0_, lambda_, x_, c_, delta_, dependent, warm, kReuseBelow);
      if (warm && !(first <= kReuseBelow)) {
        // Too far from this substep's root (chain_setup() stopped at the first row above kReuseBelow): the lone
        // roots, and the chord at q. (chain_setup() again would factor the lone roots' own J, but on whipping chains,
        // where most rejections happen, they were never within kReuseBelow either: 0 of 9 482 substeps of a 50-link
        // chain's 60 s.) A short chain goes to Newton from the lone roots, which needs the moves M⁻¹∇C(q) alone:
        // chain_setup() wrote them, the same values, unless it stopped before the last rows; ∇C(q) itself is found
        // (with them again) only if Newton loses the root and the chord follows.
        const std::size_t rows = rows_.rows.size();
        const bool newton_first = rows >= kNewtonFirstRows.first && rows <= kNewtonFirstRows.second;
        if (!(newton_first && chord_system_.chain_directions_complete())) system_.directions(rows_, x0, g0_, r0_);
        lone = true;
      } else {
        // The chain's chord matrix J is Newton's at the first guess: it serves when the first guess is close to the
        // root, as newton() reuses a factorization made there (kReuseBelow). Otherwise (a whip's tip turning far
        // within the substep, where J may lead to another root than Newton from q's chord finds), or when a pivot of
        // J was lost (∇C(q) lost rank, or a rod turned by about 90°): the chord at q as everywhere else, whose
        // pivots tell the rows' rank, and Newton after it.
        streamed = Streamed{first, dependent == 0 && first <= kReuseBelow};
        if (!streamed->own_factor) system_.directions(rows_, x0, g0_, r0_);
      }
      factored_at_q_ = false;  // the chord system's own factorization is not at q
    } else if (warm && warm_guess()) {
      streamed = Streamed{warm_residual_, false};
      lone = false;
    }
    if (lone) first_guess(context);
    // A short chain whose first guess is not close (it whips) goes to Newton first (kNewtonFirstRows): its
    // factorizations cost little, and the chord stalled in most such substeps, so Newton came after it anyway, from the
    // chord's last iterate, and from there it sometimes reached another root (the hanging chain without damping gained
    // a tenth of its energy in one step). Not a sheet (a flat one's rows lose rank, which only the chord's
    // factorization at q tells), nor two or three rods (the chord takes a few steps there, and the step view shows it).
    NewtonResult result;
    const std::size_t m = rows_.rows.size();
    const bool close = streamed && streamed->residual <= kReuseBelow;  // the chord then takes a step or two
    if (stream && !close && m >= kNewtonFirstRows.first && m <= kNewtonFirstRows.second) {
      if (context.past_deadline(m)) {  // the window's frame budget ran out: lost, as in chord()
        result.stopped = true;
        best_x_ = x_;
        best_lambda_ = lambda_;
        return result;
      }
      if (context.trace) context.trace->record(IterateKind::FirstGuess, x_);
      result = newton(context, stats);
      if (result.converged) return result;
      // Lost from the first guess: the chord at q from the lone roots, as for a large system.
      system_.directions(rows_, x0, g0_, r0_);
      first_guess(context);
      streamed.reset();
    }
    result = chord(context, stats, !freeze_held, freeze_held, streamed);
    if (freeze_held) return result;
    if (result.converged && with_newton && depth_ == 0) context.state.newton_lost = 0;  // q's linearization serves
    rank_lost_ = chord_dependent_ - masked_ > 0;
    // Counted once per lost substep (a scaled retry is the same substep; half steps count their own).
    if (!result.converged && with_newton) ++stats.recoveries;
    if (rank_lost_) with_newton = false;  // its Jacobian is singular too
    // The exact root along q's gradients, when Newton reaches it, before any re-linearization: a re-linearized
    // projection lands elsewhere on the constraint surface and dissipates energy (measured: Pendulum with a chain lost
    // 5.6 J in 5.6 s without this step, and drifts +0.11 J with it; 039e54e +0.29 J).
    if (!result.converged && !result.stopped && with_newton) {
      // On a large system, after a substep whose Newton was lost, Newton is left out and tried again only every
      // kNewtonProbe-th substep (see the header): lost Newtons come in long runs there.
      // Counted once per whole substep (depth 0): split halves always try Newton and leave the count as it is.
      int& lost = context.state.newton_lost;
      const bool counted = warm_start_ && depth_ == 0 && rows_.rows.size() >= kNewtonSkipRows;
      if (counted && lost % kNewtonProbe != 0) {
        lost = next_lost(lost);
      } else {
        result = newton(context, stats);
        if (counted) lost = result.converged ? 0 : next_lost(lost);
      }
    }
    // Flat sheets: held (advance()), not chased here.
    return relinearize(context, stats, result, rank_lost_ && !chase_rank_lost_ ? 0 : kRelinearizations);
  }

  std::size_t held_count() const {
    std::size_t count = 0;
    for (char h : held_) count += h != 0;
    return count;
  }

  // The held particles (held_) fixed for this projection: their moves per unit multiplier are zero.
  void freeze_directions() {
    const auto rows = rows_.rows;
    for (std::size_t k = 0; k < rows.size(); ++k)
      for (int s = 0; s < rows[k].count; ++s)
        if (held_[rows[k].particle[s]]) r0_[k].g[s] = Vec3(0.0);
  }

  // Fast projection from the best iterate while it gains, up to `relinearizations` times.
  NewtonResult relinearize(StepContext& context, StepStats& stats, NewtonResult result, int relinearizations) {
    for (int attempt = 0; !result.converged && !result.stopped && attempt < relinearizations; ++attempt) {
      // Re-linearize: project again from the best iterate, along the gradients there, by the chord iteration with A
      // factored there. Its λ adds to the λ found so far.
      const double before = result.residual;
      x_star_ = best_x_;
      system_.directions(rows_, x_star_, g0_, r0_);
      lambda_before_ = best_lambda_;
      for (CompliantRow& row : soft_) row.base = lambda_before_[row.row];
      first_guess(context);
      result = chord(context, stats);
      for (std::size_t k = 0; k < best_lambda_.size(); ++k) best_lambda_[k] += lambda_before_[k];
      // A chord that made no headway from here: the prediction is out of reach (Newton was tried before the loop).
      if (!result.converged && !result.stopped && !(result.residual < kRelinearizedGain * before)) break;
    }
    return result;
  }

  // Whether a rod turned from q to best_x_ by an angle whose cosine is below `cosine` (Settings::turn_limit).
  bool turned_beyond(const std::vector<Vec3>& q, double cosine) const {
    for (const Row& row : rows_.rows) {
      if (!has_role(*row.constraint, KindRole::Rod)) continue;
      const int a = row.particle[0], b = row.particle[1];
      const Vec3 before = q[b] - q[a], after = best_x_[b] - best_x_[a];
      if (glm::dot(before, after) < cosine * std::sqrt(glm::dot(before, before) * glm::dot(after, after))) return true;
    }
    return false;
  }

  // held_[i]: particle i belongs to a row that takes part in a dependency of the chord factorization at q (a
  // self-stress: the flat sheet's rods, or a straight line of rods between two fixed points), found from the null
  // vectors of the dependent rows. The rest of the scene moves as usual: a cloth hanging from a taut edge hangs.
  void mark_held(const RowSet& model) {
    const auto rows = model.rows;
    chord_system_.null_combination(null_);
    double largest = 0.0;
    for (double v : null_) largest = std::max(largest, std::abs(v));
    held_.assign(model.particle_count, 0);
    for (std::size_t k = 0; k < rows.size(); ++k) {
      if (!(std::abs(null_[k]) > 1e-9 * largest)) continue;
      for (int s = 0; s < rows[k].count; ++s) held_[rows[k].particle[s]] = 1;
    }
  }

  // From G0 and r0_ (row k's particles' moves per unit λ_k, RowSystem::directions): the lone roots λ_k, and
  // x = x* + M⁻¹G0ᵀλ in lambda_, x_.
  void first_guess(StepContext& context) {
    const auto rows = rows_.rows;
    system_.lone_roots(rows_, x_star_, r0_, lambda_, x_);
    const std::vector<Vec3>& q = context.state.position;
    for (const CompliantRow& soft : soft_) {  // the linear first guess: C + α̃λ + γ∇C(q)·Δx = 0 along r0
      const int k = soft.row;
      const Row& row = rows[k];
      double slope = 0.0, damping = 0.0;
      for (int s = 0; s < row.count; ++s) {
        const int p = row.particle[s];
        x_[p] -= lambda_[k] * r0_[k].g[s];
        slope += glm::dot(g0_[k].g[s], r0_[k].g[s]);
        damping += glm::dot(g0_[k].g[s], x_star_[p] - q[p]);
      }
      const double residual = row.constraint->value(row.row, x_star_) + soft.alpha_tilde * soft.base +
                              soft.gamma * damping;
      const double lambda = -residual / ((1.0 + soft.gamma) * slope + soft.alpha_tilde);
      lambda_[k] = std::isfinite(lambda) ? lambda : 0.0;
      for (int s = 0; s < row.count; ++s) x_[row.particle[s]] += lambda_[k] * r0_[k].g[s];
    }
  }

  // λ_k = row_force_k · h² (the last substep's multipliers at this substep's length), or null where the state has
  // none (no substep yet, or all forces 0: x* itself would be the guess, worse than the lone roots).
  const double* last_multipliers(const StepContext& context) {
    const std::vector<double>& force = context.state.row_force;
    if (force.size() != rows_.rows.size()) return nullptr;
    last_lambda_.resize(force.size());
    bool any = false;
    for (std::size_t k = 0; k < force.size(); ++k) {
      last_lambda_[k] = force[k] * h_ * h_;
      if (!std::isfinite(last_lambda_[k])) return nullptr;
      any = any || last_lambda_[k] != 0.0;
    }
    return any ? last_lambda_.data() : nullptr;
  }

  // x = x* + M⁻¹G0ᵀλ for the last substep's multipliers, into lambda_, x_ and c_; true when every row is then within
  // kReuseBelow of its length (the residual in warm_residual_), false for the lone roots instead. (Not the lone roots
  // beside the others' multipliers, as on a chain: where four rods share a particle, as in cloth, that Jacobi step
  // can amplify the guess's error up to about 3 times.)
  bool warm_guess() {
    lambda_ = last_lambda_;
    x_ = x_star_;
    system_.displace(rows_, r0_, lambda_, x_);
    warm_residual_ = system_.values(rows_, x_, c_);
    return warm_residual_ <= kReuseBelow;
  }

  // Residual of the iterate in x_, lambda_ into c_; returns max |residual| / length scale.
  double residual(StepContext& context, bool with_gradients) {
    double r = with_gradients ? system_.evaluate(rows_, x_, c_, g_) : system_.values(rows_, x_, c_);
    return soft_.empty() ? r : soft_residual(context);
  }

  // The chord iteration with the symmetric A = G0 M⁻¹ G0ᵀ (+ α̃/(1+γ) on compliant rows), from lambda_, x_. On
  // convergence the result is in best_x_, best_lambda_; otherwise lambda_, x_ hold the best iterate for newton().
  // `at_q`: G0 = ∇C(q), whose factorization a second projection from the same q reuses. `frozen`: held particles'
  // weights are zero (project's freeze_held).
  // `streamed`: chain_setup() or warm_guess() left the first guess's residual and its c_, and, with own_factor
  // (chain_setup() only), the factorization of the chord matrix at the first guess and the forward half of the first
  // chord step in delta_.
  struct Streamed {
    double residual;
    bool own_factor;
  };
  NewtonResult chord(StepContext& context, StepStats& stats, bool at_q = false, bool frozen = false,
                     std::optional<Streamed> streamed = std::nullopt) {
    const std::size_t m = rows_.rows.size();
    const bool own = streamed && streamed->own_factor;
    NewtonResult result;
    double accepted = streamed ? streamed->residual : residual(context, false);
    ++stats.iterations;
    const IterateKind kind = at_q || frozen ? IterateKind::Chord : IterateKind::Relinearized;
    if (context.trace) context.trace->record(at_q || frozen ? IterateKind::FirstGuess : kind, x_);
    result.residual = accepted;
    if (accepted <= context.settings.tolerance) {
      result.converged = true;
      best_x_.swap(x_);
      best_lambda_.swap(lambda_);
      return result;
    }
    result.stopped = context.past_deadline(m);  // the window's frame budget ran out: lost, as in newton()
    if (!std::isfinite(accepted) || result.stopped) {
      best_x_ = x_;
      best_lambda_ = lambda_;
      return result;
    }
    // A compliant row's Jacobian row is (1 + γ) G0_k M⁻¹ G0ᵀ + α̃ e_k (its left gradient ∇C(x) + γ∇C(q) ≈ (1 + γ)
    // ∇C(q)): divided by 1 + γ it is symmetric.
    chord_diagonal_.clear();
    for (const CompliantRow& soft : soft_) chord_diagonal_.push_back({soft.row, soft.alpha_tilde / (1.0 + soft.gamma)});
    if (own) {
      chord_dependent_ = 0;  // chain_setup() found J regular, so ∇C(q) has full rank
    } else if (!(at_q && factored_at_q_)) {
      chord_dependent_ = chord_system_.factorize(g0_, r0_, chord_diagonal_);
      // A held part's frozen rows are dependent by construction, not redundant: they are not reported.
      if (!frozen && chord_dependent_ - masked_ > stats.dependent_rows) stats.dependent_rows = chord_dependent_ - masked_;
      factored_at_q_ = at_q;
    }
    delta_.resize(m);
    for (int it = 1; it < context.settings.max_iterations; ++it) {
      if (it > 1 && context.past_deadline(m)) {
        result.stopped = true;
        break;
      }
      double r;
      if (soft_.empty() && chord_system_.chain_kernel()) {  // a chain: the same step in two fused passes
        r = chord_system_.chain_chord_step(r0_, c_, lambda_, delta_, x_, own, own && it == 1);
      } else {
        for (std::size_t k = 0; k < m; ++k) delta_[k] = -c_[k];
        for (const CompliantRow& soft : soft_) delta_[soft.row] /= 1.0 + soft.gamma;
        chord_system_.solve(delta_);
        for (std::size_t k = 0; k < m; ++k) lambda_[k] += delta_[k];
        system_.displace(rows_, r0_, delta_, x_);
        r = residual(context, false);
      }
      ++stats.iterations;
      if (context.trace) context.trace->record(kind, x_, -1, 0, r <= accepted);
      if (r <= context.settings.tolerance) {
        result.converged = true;
        result.residual = r;
        best_x_.swap(x_);
        best_lambda_.swap(lambda_);
        return result;
      }
      if (!(r <= accepted)) {  // a step that made things worse: undo it and let Newton go on from the best iterate
        for (std::size_t k = 0; k < m; ++k) {
          lambda_[k] -= delta_[k];
          delta_[k] = -delta_[k];
        }
        system_.displace(rows_, r0_, delta_, x_);
        break;
      }
      const bool slow = r > kChordGain * accepted;
      accepted = r;
      result.residual = r;
      if (slow) break;
    }
    best_x_ = x_;  // newton() goes on from x_, lambda_
    best_lambda_ = lambda_;
    return result;
  }

  // Newton on F(λ) = C(x* + M⁻¹ G0ᵀ λ) from lambda_, x_. Leaves the best iterate in best_x_, best_lambda_.
  NewtonResult newton(StepContext& context, StepStats& stats) {
    const auto rows = rows_.rows;
    const std::size_t m = rows.size();
    NewtonResult result;
    const double tolerance = context.settings.tolerance;
    int slow = 0, halvings = 0;
    double factored_at = INFINITY;  // residual where the current factorization was made (∞: none yet)
    double accepted = INFINITY;     // residual of the last accepted iterate: accepted residuals never increase,
                                    // so the last accepted iterate is also the best one
    bool current_accepted = false;  // whether λ is that iterate (otherwise it is λ − δ)
    for (int it = 0; it < context.settings.max_iterations; ++it) {
      if (it > 0 && context.past_deadline()) break;  // the window's frame budget ran out: lost, as below
      // Gradients at the iterate are needed only to refactorize; a chord step or the final check needs C alone.
      const bool with_gradients = !(factored_at <= kReuseBelow);
      double residual = with_gradients ? system_.evaluate(rows_, x_, c_, g_) : system_.values(rows_, x_, c_);
      if (!soft_.empty()) residual = soft_residual(context);
      ++stats.iterations;
      if (context.trace && it > 0)  // it = 0 is the chord's best iterate, recorded already
        context.trace->record(IterateKind::Newton, x_, -1, 0, residual <= accepted || !std::isfinite(accepted));
      if (!(residual <= accepted) && std::isfinite(accepted) && halvings < kMaxHalvings) {
        // The full Newton step overshot (far from the root of a strongly coupled system, e.g. cloth): go back
        // half of it and look again.
        ++halvings;
        for (std::size_t k = 0; k < m; ++k) {
          delta_[k] *= -0.5;
          lambda_[k] += delta_[k];
        }
        system_.displace(rows_, r0_, delta_, x_);
        for (double& d : delta_) d = -d;
        current_accepted = false;
        continue;
      }
      if (!(residual <= accepted) && std::isfinite(accepted)) break;  // no step length helps: lost
      // A chord step (reused factorization) must gain two digits, or the next step refactorizes.
      const bool chord_ok = halvings == 0 && residual <= 1e-2 * accepted;
      halvings = 0;
      // Newton gains digits ever faster near a regular root. Two steps in a row that gain less than a factor of
      // kSlowRatio mean the linearization at q has (nearly) lost the root: e.g. a flat sheet of rods, whose
      // gradients at q have no component along the sag that gravity asks for.
      slow = residual > kSlowRatio * accepted ? slow + 1 : 0;
      accepted = residual;
      current_accepted = true;
      result.residual = residual;
      if (residual <= tolerance) {
        result.converged = true;
        best_x_.swap(x_);
        best_lambda_.swap(lambda_);
        return result;
      }
      if (!std::isfinite(residual) || slow >= 2) break;  // the real root is lost (or never existed)
      // Refactorize unless the last factorization was made close to the solution: there the Newton matrix changes
      // by about the residual, so reusing it (a chord step) still gains digits for the price of a solve.
      if (!(factored_at <= kReuseBelow && chord_ok)) {
        if (!with_gradients) {
          system_.evaluate(rows_, x_, c_, g_);
          if (!soft_.empty()) soft_residual(context);
        }
        for (const CompliantRow& soft : soft_)  // ∂/∂λ of γ∇C(q)·(x − q): the row's left gradient gains γ∇C(q)
          for (int s = 0; s < rows[soft.row].count; ++s) g_[soft.row].g[s] += soft.gamma * g0_[soft.row].g[s];
        const int dependent = system_.factorize(g_, r0_, soft_diagonal_) - masked_;
        if (dependent > stats.dependent_rows) stats.dependent_rows = dependent;
        factored_at = residual;
      }
      delta_.resize(m);
      for (std::size_t k = 0; k < m; ++k) delta_[k] = -c_[k];
      system_.solve(delta_);
      // λ += δ and x += M⁻¹G0ᵀδ, so x stays x* + M⁻¹G0ᵀλ.
      for (std::size_t k = 0; k < m; ++k) lambda_[k] += delta_[k];
      system_.displace(rows_, r0_, delta_, x_);
      current_accepted = false;
    }
    if (!current_accepted && delta_.size() == m)
      for (std::size_t k = 0; k < m; ++k) lambda_[k] -= delta_[k];
    if (!std::isfinite(result.residual)) lambda_.assign(m, 0.0);  // not even the first iterate was finite
    best_lambda_.swap(lambda_);
    best_x_ = x_star_;
    system_.displace(rows_, r0_, best_lambda_, best_x_);
    return result;
  }

  // Turns c_[k] of every compliant row into its residual C + α̃(base + λ) + γ∇C(q)·(x − q) and returns the largest
  // |residual| / length scale over all rows.
  double soft_residual(const StepContext& context) {
    const auto rows = rows_.rows;
    const std::vector<Vec3>& q = context.state.position;
    for (const CompliantRow& soft : soft_) {
      const int k = soft.row;
      double damping = 0.0;
      for (int s = 0; s < rows[k].count; ++s) {
        const int p = rows[k].particle[s];
        damping += glm::dot(g0_[k].g[s], x_[p] - q[p]);
      }
      c_[k] += soft.alpha_tilde * (soft.base + lambda_[k]) + soft.gamma * damping;
    }
    double worst = 0.0;
    for (std::size_t k = 0; k < rows.size(); ++k) {
      const double r = std::abs(c_[k]) / rows[k].scale;
      if (!(r <= worst)) worst = r;
    }
    return worst;
  }

  // --- unilateral rows (cables, contacts): the active set ---------------------------------------------------------
  // A substep with unilateral rows: the impacts first (contact_set.h), then the projection of the prediction onto
  // the equality rows and the active unilateral rows; rows that pull (σλ < 0) leave the active set, rows the result
  // violates (σC < 0) join it, and the projection runs again until neither happens (docs/physics.md, "The
  // unilateral projection"). Inactive rows stay in the system as masked rows (zero value and gradient: their
  // multiplier is 0), so the pattern is analysed once per substep. A scene of contacts alone (no model rows) is
  // projected by the contact rows' Gauss–Seidel with its subspace steps instead (contact_projection.cpp), at every
  // size: here a pile's redundant contacts kept the active set from settling (a pile of 100 balls, ~200 rows, gained
  // 9e6 J in 3 s), there it finishes in ~6 sweeps a substep.
  void unilateral_substep(StepContext& context, double h, StepStats& stats) {
    const Model& model = context.model;
    ContactSet* contacts = context.contacts;
    const std::vector<Vec3>& x0 = context.state.position;
    if (contacts) contacts->resolve_impacts(model, context.state, context.settings, h, true);
    predict_semi_implicit(context, h, x_star_, v_star_);
    if (contacts)
      for (int i : contacts->moved) x_star_[i] += contacts->dx[i];
    if (context.trace) context.trace->predicted(x_star_);
    if (contacts && model.rows().empty()) {
      bool converged = false;
      const int sweeps = contacts->sweep_cap(context.settings);
      // The velocities the prediction would commit (commit_with_impacts): the projection may only take energy away.
      entry_velocity_.resize(x0.size());
      for (std::size_t i = 0; i < x0.size(); ++i) entry_velocity_[i] = (x_star_[i] - x0[i]) / h;
      for (int i : contacts->moved) entry_velocity_[i] += contacts->dv[i] - contacts->dx[i] / h;
      stats.iterations += contacts->project(model.inv_mass(), x0, x_star_, h, sweeps, converged, true, entry_velocity_);
      if (!converged) ++stats.failures;
      commit_with_impacts(context, x_star_, x0, h);
      stats.iterations += contacts->stabilize(model.inv_mass(), context.state.position, sweeps);
      return;
    }
    combine_rows(model, contacts, combined_, rows_version_, signature_);
    prepare_rows(model, h, stats);
    std::size_t m = combined_.size();
    const std::size_t first = model.rows().size();
    const std::size_t contact_count = contacts ? contacts->rows.size() : 0;
    const std::size_t per = contacts ? static_cast<std::size_t>(contacts->tangents_per_row()) : 0;
    tangent_row_.assign(contact_count, -1);  // where contact k's tangent rows start in the rows, if it has them
    const auto set_tangents = [&](std::size_t contact, char on) {
      if (tangent_row_[contact] < 0) return;
      for (std::size_t j = 0; j < per; ++j) active_[static_cast<std::size_t>(tangent_row_[contact]) + j] = on;
    };
    active_.assign(m, 1);
    for (std::size_t k = 0; k < m; ++k)
      if (combined_[k].unilateral != 0)
        active_[k] = combined_[k].unilateral * combined_[k].constraint->value(combined_[k].row, x_star_) < 0.0;
    x_predicted_ = x_star_;
    const double contact_tol = ContactSet::tolerance(context.settings);
    NewtonResult result;
    total_lambda_.assign(m, 0.0);
    bool settled = true;
    const auto active_set = [&] {
      for (int pass = 0; pass < kMaxActiveSetPasses; ++pass) {
        masked_ = 0;
        for (std::size_t k = 0; k < m; ++k) {
          combined_[k] = original_[k];
          if (active_[k]) continue;
          mask_row(combined_[k]);
          ++masked_;
        }
        x_star_ = x_predicted_;
        factored_at_q_ = false;
        result = project(context, stats, true);
        if (result.stopped) break;
        bool changed = false;
        for (std::size_t k = 0; k < m; ++k) {
          const Row& row = original_[k];
          if (row.unilateral == 0) continue;
          const double tol = std::max(context.settings.tolerance, row.constraint->unilateral() > 0 ? contact_tol : 0.0);
          if (active_[k]) {
            double w = 0.0;
            for (int s = 0; s < row.count; ++s) w += model.inv_mass()[row.particle[s]];
            if (row.unilateral * best_lambda_[k] * w < -0.1 * tol * row.scale) {
              active_[k] = 0;
              if (k >= first && k < first + contact_count) set_tangents(k - first, 0);  // no push, no friction
              changed = true;
            }
          } else if (row.unilateral * row.constraint->value(row.row, best_x_) < -tol * row.scale) {
            active_[k] = 1;
            changed = true;
          }
        }
        settled = !changed;
        if (!changed) break;
      }
      // Still changing after the last pass (rows cycling in and out: a column of rods landing): the rows that pull or
      // overlap are not a projection, however well the last pass converged. Lost, so it is split (world.cpp).
      if (!settled) result.converged = false;
    };
    // The projection; then, if friction moves anything, Coulomb's law at the position level on the contacts that push
    // and the projection again from there, with the contacts that stick held by tangent rows of their own at no slip
    // since q (docs/physics.md, "Friction"). A friction pass between two projections alone left the slip the second
    // one's moves along tilted normals made: two balls stacked off centre beside a pendulum crept 8 mm in 2 s.
    bool holding = false;
    int last_round = kFrictionRounds;
    double last_move = INFINITY;
    for (int round = 0;; ++round) {
      active_set();
      // Holds that ask more of friction than its cone gives (links between held particles pulling them harder than
      // friction can hold, or rows with no common root): the substep ends as a projection without them, as the
      // contacts of a friction pass that slide.
      if (holding && !(result.converged && holds_within_cone(contacts, first, per))) {
        for (std::size_t k = first + contact_count; k < m; ++k) active_[k] = 0;
        holding = false;
        active_set();
      }
      for (std::size_t k = 0; k < m; ++k) total_lambda_[k] += active_[k] ? best_lambda_[k] : 0.0;
      if (!contacts) break;
      for (std::size_t k = 0; k < contact_count; ++k) {
        ContactRow& row = contacts->rows[k];
        row.lambda = total_lambda_[first + k];
        const int t = tangent_row_[k];
        if (t < 0 || !active_[static_cast<std::size_t>(t)]) continue;
        for (std::size_t j = 0; j < per; ++j)  // what the tangent rows held joins its friction
          row.lambda_t += best_lambda_[static_cast<std::size_t>(t) + j] * row.tangent[j];
      }
      if (round == last_round || !contacts->has_friction()) break;
      // Coulomb friction on the contacts that push (contact_projection.cpp). A pass that moves less than the contact
      // tolerance is undone and ends the substep, so the rows hold exactly.
      friction_x_ = best_x_;
      friction_lambda_.resize(contact_count);
      for (std::size_t k = 0; k < contact_count; ++k) friction_lambda_[k] = contacts->rows[k].lambda_t;
      const double moved = contacts->friction_sweep(model.inv_mass(), x0, best_x_);
      if (moved <= contact_tol) {
        best_x_.swap(friction_x_);
        for (std::size_t k = 0; k < contact_count; ++k) contacts->rows[k].lambda_t = friction_lambda_[k];
        break;
      }
      // More rounds while each cuts friction's move at least kFrictionRoundGain times: a rigid body on an incline,
      // whose contacts' particles are not held (their rod would repeat their holds) and whose friction the passes
      // alone carry (a triangle sliding: 6 to 9 times a round, done in about 6; with one round it slid 9 % fast, and
      // with μ above tan θ crept 5 cm in 2 s). Where they crawl (a cloth draping a sphere: 0.4–0.9 a round) the
      // projection after this pass is the last.
      if (round >= 1 && !(moved * kFrictionRoundGain <= last_move)) last_round = round + 1;
      last_move = moved;
      // The held contacts' tangent rows join the rows (only theirs: every contact's, masked, made cloth_on_a_sphere's
      // projections 1.6 times as slow with none held).
      // Each round holds the contacts that stick now; a round after a round with holds drops the ones that no
      // longer do (their tangent rows' multipliers are in λ_t already).
      const bool hold = hold_sticking(context, *contacts, std::span<const char>(active_).subspan(first, contact_count),
                                      best_x_, sticking_, pinned_);
      if (hold || holding) {
        combine_rows(model, contacts, combined_, rows_version_, signature_, &sticking_);
        prepare_rows(model, h, stats);
        tangent_row_.assign(contact_count, -1);
        std::size_t next = first + contact_count;
        for (std::size_t k = 0; k < contact_count; ++k)
          if (sticking_[k]) {
            tangent_row_[k] = static_cast<int>(next);
            next += per;
          }
        m = combined_.size();
        active_.resize(first + contact_count);
        active_.resize(m, 1);
        total_lambda_.resize(first + contact_count);
        total_lambda_.resize(m, 0.0);
        holding = hold;
      }
      x_predicted_ = best_x_;
    }
    for (std::size_t k = 0; k < m; ++k) combined_[k] = original_[k];
    masked_ = 0;
    if (!result.converged) ++stats.failures;
    if (contacts) contacts->finished = result.converged;  // contact_set.h: no warm start from an unfinished pile
    commit_with_impacts(context, best_x_, x0, h);
    const double to_force = 1.0 / (h * h);
    auto& force = context.state.row_force;
    for (std::size_t k = 0; k < force.size(); ++k) force[k] = total_lambda_[k] * to_force;
    if (contacts) {
      for (std::size_t k = 0; k < contacts->rows.size(); ++k) {
        ContactRow& row = contacts->rows[k];
        row.lambda = std::max(0.0, total_lambda_[first + k]);
        row.force = row.lambda * to_force;
        row.force_t = row.lambda_t * to_force;
      }
    }
  }

  // The rows in combined_ as the system to solve: patterns analysed, compliant rows found, original_ a copy.
  void prepare_rows(const Model& model, double h, StepStats& stats) {
    rows_ = RowSet(combined_, model, rows_version_);
    system_.prepare(rows_);
    chord_system_.prepare(rows_);
    stats.dependent_rows = std::max(stats.dependent_rows, system_.twins());  // repeated rows are redundant
    gather_compliant_rows(rows_, h, 1.0, soft_, &soft_diagonal_);
    original_.assign(combined_.begin(), combined_.end());
  }

  // Whether every contact its tangent rows hold (active) keeps its friction, with what they add, inside its cone:
  // |λ_t| ≤ μ λ with this projection's multipliers (best_lambda_) on top of the rounds' before it (total_lambda_).
  bool holds_within_cone(const ContactSet* contacts, std::size_t first, std::size_t per) const {
    for (std::size_t k = 0; k < contacts->rows.size(); ++k) {
      const int t = tangent_row_[k];
      if (t < 0 || !active_[static_cast<std::size_t>(t)]) continue;
      const ContactRow& row = contacts->rows[k];
      Vec3 friction = row.lambda_t;
      for (std::size_t j = 0; j < per; ++j) friction += best_lambda_[static_cast<std::size_t>(t) + j] * row.tangent[j];
      const double normal =
          total_lambda_[first + k] + (active_[first + k] ? best_lambda_[first + k] : 0.0) + row.normal_held;
      if (!(glm::length(friction) <= row.friction * normal)) return false;
    }
    return true;
  }

  std::vector<char> sticking_, pinned_;  // hold_sticking(): the contacts held, the particles they pin
  std::vector<int> tangent_row_;     // unilateral_substep(): each contact's first tangent row, or −1

  std::vector<Vec3> friction_x_, friction_lambda_;
  std::vector<Row> combined_, original_;
  std::vector<char> active_;
  std::vector<double> total_lambda_;
  std::vector<int> signature_;
  unsigned rows_version_ = 0;
  int masked_ = 0;  // masked rows in the system: they count as dependent in its factorizations, and are not
  RowSet rows_;     // the rows being solved: the model's, or the model's and the contacts' (unilateral_substep)

  int chord_dependent_ = 0;     // dependent rows in the last chord factorization
  bool factored_at_q_ = false;  // the chord system holds ∇C(q) M⁻¹ ∇C(q)ᵀ of this substep
  bool rank_lost_ = false;   // the rows' gradients at q are dependent
  std::vector<Vec3> x_predicted_;
  std::vector<double> null_;
  std::vector<char> held_;
  RowSystem system_;                                    // the Newton matrix: unsymmetric, SparseLDU
  RowSystem chord_system_{make_sparse_ldlt_solver()};   // the chord matrix: symmetric, L D Lᵀ
  std::vector<CompliantRow> soft_;
  std::vector<DiagonalTerm> soft_diagonal_, chord_diagonal_;
  std::vector<Vec3> x_star_, v_star_, x_, best_x_;
  std::vector<Vec3> entry_velocity_;  // unilateral_substep(): the velocities the prediction alone would commit
  RowGradients g0_, r0_, g_;
  std::vector<double> c_, lambda_, delta_, best_lambda_, lambda_before_;
};

}  // namespace

void commit_positions(StepContext& context, const std::vector<Vec3>& x, const std::vector<Vec3>& x0, double h) {
  State& particles = context.state;
  const double inv_h = 1.0 / h;
  for (std::size_t i = 0; i < particles.position.size(); ++i) {
    if (context.fixed(i)) continue;
    particles.velocity[i] = (x[i] - x0[i]) * inv_h;  // x0 may alias the positions: read before writing
    particles.position[i] = x[i];
  }
}

void commit_with_impacts(StepContext& context, const std::vector<Vec3>& x, const std::vector<Vec3>& x0, double h) {
  commit_positions(context, x, x0, h);
  const ContactSet* contacts = context.contacts;
  if (!contacts) return;
  const double inv_h = 1.0 / h;
  for (int i : contacts->moved)
    if (!context.fixed(i)) context.state.velocity[i] += contacts->dv[i] - contacts->dx[i] * inv_h;
}

void hold_contacts(StepContext& context, const std::vector<Vec3>& x0, double h, StepStats& stats) {
  ContactSet& contacts = *context.contacts;
  State& particles = context.state;
  for (int i : contacts.moved) {
    if (context.fixed(i)) continue;
    particles.position[i] += contacts.dx[i];
    particles.velocity[i] += contacts.dv[i];
  }
  std::vector<Vec3> x = particles.position;
  bool converged = false;
  const int sweeps = contacts.sweep_cap(context.settings);
  stats.iterations += contacts.project(context.inv_mass(), x0, x, h, sweeps, converged, true, particles.velocity);
  if (!converged) ++stats.failures;
  const double inv_h = 1.0 / h;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (context.fixed(i)) continue;
    particles.velocity[i] += (x[i] - particles.position[i]) * inv_h;
    particles.position[i] = x[i];
  }
  stats.iterations += contacts.stabilize(context.inv_mass(), particles.position, sweeps);
}

namespace {

// A masked row: C = 0 with a zero gradient on its `row` (= its particle count) slots.
class MaskedRow final : public Constraint {
 public:
  std::unique_ptr<Constraint> clone() const override { return std::make_unique<MaskedRow>(); }
  int rows() const override { return 1; }
  std::span<const int> particles() const override { return {}; }
  double evaluate(int count, std::span<const Vec3>, GradientSlots grad) const override {
    for (int k = 0; k < count; ++k) grad[k] = Vec3(0.0);
    return 0.0;
  }
  double value(int, std::span<const Vec3>) const override { return 0.0; }
  double jdot_qdot(int, std::span<const Vec3>, std::span<const Vec3>) const override { return 0.0; }
  std::optional<double> lone_root(int, std::span<const Vec3>, ConstGradientSlots) const override { return 0.0; }
  double length_scale(int) const override { return 1.0; }
  const ConstraintKind& kind() const override {
    static const ConstraintKind masked = {"masked", "an inactive unilateral row (inside a solve only)", "masked row",
                                          KindRole::Other, 1, Shape::Segment, {}, [](int) { return 1; }, nullptr,
                                          nullptr};
    return masked;
  }
  ConstraintDef definition() const override { return ConstraintDef{}; }
  Drawing drawing() const override { return {}; }
};

}  // namespace

void mask_row(Row& row) {
  static const MaskedRow masked;
  row.constraint = &masked;
  row.row = row.count;
}

void combine_rows(const Model& model, const ContactSet* contacts, std::vector<Row>& rows, unsigned& version,
                  std::vector<int>& signature, const std::vector<char>* held) {
  const auto own = model.rows();
  rows.assign(own.begin(), own.end());
  if (contacts) contacts->append_rows(rows);
  const std::size_t normals = rows.size();
  if (contacts && held) contacts->append_tangent_rows(rows, *held);
  std::vector<int> now;
  now.reserve(rows.size() * 3 + 3);
  now.push_back(static_cast<int>(model.topology_version()));
  now.push_back(static_cast<int>(rows.size()));
  now.push_back(static_cast<int>(rows.size() - normals));
  for (std::size_t k = own.size(); k < rows.size(); ++k) {
    now.push_back(rows[k].particle[0]);
    now.push_back(rows[k].particle[1]);
    now.push_back(static_cast<int>(std::lround(std::log2(rows[k].scale) * 64.0)));
  }
  if (now != signature || version == 0) {
    signature.swap(now);
    version = new_topology_version();
  }
}

void gather_compliant_rows(const RowSet& model, double h, double factor, std::vector<CompliantRow>& rows,
                           std::vector<DiagonalTerm>* diagonal) {
  rows.clear();
  if (diagonal) diagonal->clear();
  const auto all = model.rows;
  for (int k : model.compliant) {
    const Constraint& c = *all[k].constraint;
    const double alpha = c.compliance();
    rows.push_back({k, factor * alpha / (h * h), alpha * c.damping() / h});
    if (diagonal) diagonal->push_back({k, rows.back().alpha_tilde});
  }
}

bool hold_sticking(const StepContext& context, ContactSet& contacts, std::span<const char> active,
                   std::span<const Vec3> x, std::vector<char>& sticking, std::vector<char>& pinned) {
  const Model& model = context.model;
  const std::size_t count = contacts.rows.size();
  sticking.assign(count, 0);
  pinned.assign(model.particle_count(), 0);
  for (std::size_t k = 0; k < count; ++k) {
    const ContactRow& row = contacts.rows[k];
    const double normal = row.normal_total();
    sticking[k] = row.friction > 0.0 && normal > 0.0 && active[k] &&
                  glm::length(row.lambda_t) < row.friction * normal * (1.0 - 1e-9);
    if (!sticking[k]) continue;
    if (row.b < 0 || context.fixed(row.b)) pinned[row.a] = 1;  // against an obstacle or a fixed particle
    else if (context.fixed(row.a)) pinned[row.b] = 1;
  }
  for (const Row& row : model.rows()) {
    bool all = true;
    for (int s = 0; s < row.count && all; ++s) all = pinned[row.particle[s]] || context.fixed(row.particle[s]);
    if (!all) continue;
    for (int s = 0; s < row.count; ++s)
      if (pinned[row.particle[s]] == 1) pinned[row.particle[s]] = 2;  // its contacts are not held
  }
  bool any = false;
  for (std::size_t k = 0; k < count; ++k) {
    const ContactRow& row = contacts.rows[k];
    sticking[k] = sticking[k] && pinned[row.a] != 2 && (row.b < 0 || pinned[row.b] != 2);
    if (sticking[k]) contacts.hold_tangents(k, context.state.position, x);
    any = any || sticking[k];
  }
  return any;
}

std::unique_ptr<Solver> make_projection_solver() { return std::make_unique<ProjectionSolver>(); }

}  // namespace lagrange
