// Factories of the solvers listed in solver_registry.cpp, and the SHAKE iteration shared by shake and rattle.
#pragma once

#include <memory>
#include <vector>

#include "../contacts/contact_set.h"
#include "lagrange/solver.h"
#include "lagrange/step_trace.h"
#include "row_system.h"

namespace lagrange {

std::unique_ptr<Solver> make_projection_solver();
std::unique_ptr<Solver> make_shake_solver();
std::unique_ptr<Solver> make_rattle_solver();
std::unique_ptr<Solver> make_acceleration_solver();
std::unique_ptr<Solver> make_penalty_solver();

// A compliant row's terms for one substep of length h (docs/physics.md, "Compliance"): the row holds
//     C(x) + α̃ λ + γ ∇C(q)·(x − q) = 0,   α̃ = factor · α / h²,   γ = α β / h
// where λ is the position-level multiplier (λ = h² F for projection and SHAKE: factor 1; λ = h² F / 2 for RATTLE:
// factor 2). `base` is the multiplier already applied before the current Newton run (re-linearization).
struct CompliantRow {
  int row;
  double alpha_tilde;
  double gamma;
  double base = 0.0;
};
// The model's compliant rows for a substep of length h; fills `diagonal` with their α̃ when given.
void gather_compliant_rows(const RowSet& model, double h, double factor, std::vector<CompliantRow>& rows,
                           std::vector<DiagonalTerm>* diagonal = nullptr);

struct ShakeResult {
  int sweeps = 0;
  bool converged = false;
  bool stopped = false;    // the deadline passed (the window's frame budget)
  bool diverged = false;   // the iterate grew (solvers.cpp: kGrowth): stopped before the cap, the root is lost
  double residual = 0.0;   // max |C| / length scale over the rows the last sweep corrected (0 when converged)
};
// SHAKE (seed 001, eq. 3.9.15): sweeps over the rows, moving the particles of each violated row along the fixed
// directions M⁻¹ ∇C(q) (gradients `g0`) by δλ = −C(x) / Σ_p (1/m_p) ∇_p C(x) · ∇_p C(q), accumulating λ, until
// every row is within tolerance (relative to its length scale) or the sweep cap is reached. A compliant row
// (`soft`, with the start positions x0) takes the XPBD step δλ = −(C + α̃λ + γ∇C(q)·(x − q)) / ((1 + γ) w + α̃).
// A unilateral row (Row::unilateral = ±1) keeps its accumulated σλ ≥ 0 (projected Gauss–Seidel) and counts as
// within tolerance when λ = 0 and σC ≥ −tolerance.
// The sweeps stop early as diverged when the iterate grows (ShakeResult::diverged), and, with `newton_follows`, when
// the rate seen so far would not reach the tolerance within 1.5 × max_iterations sweeps (the caller then solves the
// same equations by newton_positions).
ShakeResult shake_positions(const StepContext& context, const RowSet& rows, const RowGradients& g0,
                            std::vector<Vec3>& x, std::vector<double>& lambda,
                            const std::vector<CompliantRow>& soft = {}, std::span<const Vec3> x0 = {},
                            bool newton_follows = false);

// The same equations as shake_positions (model rows only: no unilateral row) solved by Newton, for a substep whose
// sweeps did not converge (a long chain needs about as many sweeps as it has links squared; a whip's tip turning far
// within the substep loses the one-row-at-a-time iteration): from (x, lambda), x = x* + M⁻¹∇C(q)ᵀλ, the exact
// Jacobian ∇C(x) M⁻¹ ∇C(q)ᵀ (+ the compliant rows' α̃ and γ) factored by `system` (prepared for `rows`) at every
// step, a step that raises the residual halved up to 4 times. The same root SHAKE converges to, so the scheme and
// its order stay SHAKE's. Returns whether max |residual| / length ≤ tolerance; x, lambda hold the best iterate.
struct NewtonScratch {
  RowGradients weighted, grad;
  std::vector<double> c, delta;
  std::vector<DiagonalTerm> diagonal;
  bool factorized = false;  // newton_positions factorized its matrix in its last call
  // newton_active_set(): the rows with the inactive unilateral ones masked, their gradients at q, which rows are on
  std::vector<Row> rows;
  RowGradients g0;
  std::vector<char> active;
  // newton_with_friction(): the prediction moved by friction so far, the rows' M⁻¹∇C(q), one friction pass's undo,
  // and the rows with the sticking contacts' tangent rows: their system, gradients at q, multipliers, and the normal
  // row each follows
  std::vector<Vec3> base, before, lambda_t;
  RowGradients base_weighted;
  std::vector<Row> held_rows;
  unsigned held_version = 0;
  std::vector<int> held_signature, follows;
  RowSystem held_system;
  RowGradients held_g0;
  std::vector<double> held_lambda, c0;
  std::vector<char> sticking, pinned;
  // After newton_active_set or newton_with_friction converged: the system holding its last matrix (masked as `rows`,
  // `active`), and whether the sticking contacts' tangent rows follow the rows (held_g0 then has every row's gradient).
  RowSystem* factored = nullptr;
  bool held = false;
};
bool newton_positions(const StepContext& context, const RowSet& rows, RowSystem& system, const RowGradients& g0,
                      std::vector<Vec3>& x, std::vector<double>& lambda, const std::vector<CompliantRow>& soft,
                      std::span<const Vec3> x0, NewtonScratch& scratch, int& iterations);
// The same for rows with unilateral ones among them (cables, frictionless contacts): an active set around
// newton_positions. The unilateral rows that push (σλ > 0) or that x violates are equations, the others are masked
// (multiplier 0); Newton solves SHAKE's equations on those from the prediction x* (`predicted`) moved by the active
// rows' multipliers; then rows that pull leave, rows the root violates join, and it runs again until neither happens
// (at most kMaxActiveSetPasses times). Returns whether it settled with every row within tolerance (a unilateral row's:
// the contacts' where it is a contact); x and lambda hold the last iterate.
// A row k with follows[k] ≥ 0 (a contact's tangent row) is on exactly when row follows[k] (its normal) is.
inline constexpr int kMaxActiveSetPasses = 32;  // an active set still changing after these is lost (projection's too)
bool newton_active_set(const StepContext& context, const RowSet& rows, RowSystem& system, const RowGradients& g0,
                       std::vector<Vec3>& x, std::vector<double>& lambda, std::span<const Vec3> predicted,
                       NewtonScratch& scratch, int& iterations, std::span<const int> follows = {});
// The same with the contacts' Coulomb friction (context.contacts, its rows last in `rows`), in rounds as the
// projection takes it (docs/physics.md, "Friction"): newton_active_set from the prediction moved by the sweeps'
// friction; a friction pass at its multipliers (ContactSet::friction_row, across each normal at q as the sweeps take
// it), undone and done if it moves nothing beyond the contact tolerance; else its moves join the prediction and
// newton_active_set runs again with the contacts that stick held at no slip since q by tangent rows of their own
// (hold_sticking), whose multipliers join λ_t (holds outside the cone are dropped and the round done without them);
// rounds go on as kFrictionRounds and kFrictionRoundGain say. x and lambda come in as the sweeps left them
// (friction's moves in x, λ_t in the contact rows).
// Rounds of rows and friction pass (projection's unilateral_substep and newton_with_friction): at most this many, and
// another only while a pass moves at most 1/kFrictionRoundGain of what the one before moved (after one that does not,
// the rows' solve that follows it is the last).
inline constexpr int kFrictionRounds = 8;
inline constexpr double kFrictionRoundGain = 4.0;
bool newton_with_friction(const StepContext& context, const RowSet& rows, RowSystem& system, const RowGradients& g0,
                          std::vector<Vec3>& x, std::vector<double>& lambda, std::span<const Vec3> x0,
                          NewtonScratch& scratch, int& iterations);

// SHAKE's position stage with its recovery, as shake and rattle both run it (docs/physics.md, "shake"): the sweeps
// (shake_positions, told whether Newton follows); a substep they lose, unless the deadline stopped them or it has
// contacts Newton does not take, counts in stats.recoveries and, with `newton` (newton_serves), is solved again by
// newton_positions — by newton_active_set or newton_with_friction where rows are unilateral — from the sweeps' iterate,
// or from the prediction (`predicted`, x*) when they went astray. `split`: Newton too lost it at a depth below
// kShakeSplitDepth, so the caller does the substep again as two halves of h/2 (at depth + 1) and drops this one (never
// with unilateral rows); lost without Newton, it goes to fall_back at once. `newton_converged`: `system` (with
// unilateral rows, scratch.factored) holds Newton's last matrix. A substep that converged (by the sweeps or by Newton)
// with a row turned by more than kMaxTurnCosine's angle is split the same way (not with unilateral rows), and counted
// in stats.recoveries.
struct ShakeStage {
  ShakeResult result;
  bool newton_converged = false;  // with unilateral rows: scratch.factored holds the matrix
  bool active_set = false;        // Newton ran with an active set (newton_active_set, newton_with_friction)
  bool split = false;
};
inline constexpr int kMaxSplitDepth = 4;
// SHAKE's and RATTLE's own bound on those splits (and on the turn splits below): 6 levels, a substep as 64 pieces.
// A whip's tip outruns 4: on a released chain of 1000 links of 0.05 m the tip reaches ~300 m/s, a rod still turned 70°
// in a sixteenth of a substep, Newton lost that piece and projection, doing it again, gained 630 J — one step of +850 J
// at t = 9.8 s (SHAKE; RATTLE: max |drift| 67 J). With 6: max |drift| 22 J and 0.76 J, the same CPU time (the deeper
// pieces are taken only where a rod turns that far); a double pendulum of 0.05 m rods whose tip starts at 96 m/s
// (no gravity): 6.0 J → 0.90 J of its 230 J in 2 s. Projection and the world's contact splits keep kMaxSplitDepth.
inline constexpr int kShakeSplitDepth = 6;
// The cosine of the largest angle (about 11.5°) a row's gradient may turn within one SHAKE or RATTLE substep, ∇C(x)
// against ∇C(q) (for a rod, the rod itself). Their O(h²) energy error assumes a step short against the motion: the
// tip of a released chain whips through 60–120° in a substep of 1/240 s, and the energy then grew without bound, every
// rod exact (100 links of 0.05 m: +3.4e3 J in 10 s, ~120 J released by the fall; 20 links: +2.9 J of 5 J in 6 s).
// Split until each row turns less, the same chains hold to 0.9 J and 0.02 J (docs/physics.md, "shake").
inline constexpr double kMaxTurnCosine = 0.98;
// A SHAKE or RATTLE substep still lost after that recovery — not converged, and not stopped by the deadline — or
// lost at all where Newton does not serve (newton_serves: contacts alone, SHAKE's compliant rows) is done again,
// from its start, by one
// projection substep (`projection`, made at the first use): the same position equations from the same prediction,
// solved with the active set and Newton. Before, it was counted as a failure and went on from wherever the sweeps
// stopped: a chain over a peg gained 1e8 J, a hanging cloth 1e35 J. Counted in StepStats::fallbacks, never silent.
// The state must still be the substep's start; the contact rows go back to how they were gathered
// (ContactSet::restart_substep), so the impacts are not counted twice.
inline bool lost(const ShakeResult& result) { return !result.converged && !result.stopped; }
void fall_back(std::unique_ptr<Solver>& projection, StepContext& context, double h, StepStats& stats);
inline constexpr double kNewtonFromSweeps = 1e-2;  // max |C|/L below which Newton starts from the sweeps' iterate
// Whether a lost substep may be solved again by Newton (newton_positions, newton_active_set) before it is split or
// falls back: not with a compliant row (a soft sheet's Newton root came with velocities hundreds of m/s off and gained
// 370 J on soft_cloth in 5 s; there its halves alone keep the energy), and not for contacts alone (a pile's redundant
// rows; the fallback's projection has its own sweeps for those).
bool newton_serves(const Model& model, const ContactSet* contacts, const std::vector<CompliantRow>& soft);
ShakeStage shake_stage(const StepContext& context, const RowSet& rows, RowSystem& system, const RowGradients& g0,
                       std::vector<Vec3>& x, std::vector<double>& lambda, const std::vector<CompliantRow>& soft,
                       std::span<const Vec3> x0, bool newton, int depth, std::span<const Vec3> predicted,
                       NewtonScratch& scratch, StepStats& stats);

// The work of each contact's two halves of a velocity Verlet substep (SHAKE's and RATTLE's), each at the velocities
// around it, into its row's `work` (and work_booked): the position stage's impulse P₁ = (λ n(q) + λ_t)/h at
// v₀ + δv + Δv₁/2 (v₀ the velocity at the start, δv what the impacts changed, Δv₁ = (q' − q*)/h what the stage
// changed), and the second half's P₂ = (second n(q') + second_t) / second_per (h for SHAKE's κ, 1 for RATTLE's
// impulses) at the mean of the velocities `before` and `after` its kicks. Velocity Verlet changes a scene of contacts
// alone by exactly these (docs/physics.md, "W_contacts"). `first`: the contacts' first row in lambda and second.
void book_verlet_contact_work(ContactSet& contacts, std::size_t first, std::span<const double> lambda,
                              std::span<const double> second, std::span<const Vec3> second_t, double second_per,
                              std::span<const Vec3> v0, std::span<const Vec3> x0, std::span<const Vec3> x,
                              std::span<const Vec3> x_star, std::span<const Vec3> before,
                              std::span<const Vec3> after, double h);

// Copies x into the state's positions and (x − x0) / h into its velocities (movable particles only).
void commit_positions(StepContext& context, const std::vector<Vec3>& x, const std::vector<Vec3>& x0, double h);
// commit_positions, then the impacts' velocity change that the positions do not show: the velocity of a particle
// the impact stage moved is (x − x0)/h + dv − dx/h (contact_set.h).
void commit_with_impacts(StepContext& context, const std::vector<Vec3>& x, const std::vector<Vec3>& x0, double h);

// After an explicit solver's step (acceleration, penalty): the impacts' change of the end positions and velocities,
// then the contact rows' position projection from there (slip measured from x0, the positions at the start), its
// correction (x' − x)/h added to the velocities, as the position solvers' corrections are.
void hold_contacts(StepContext& context, const std::vector<Vec3>& x0, double h, StepStats& stats);

// --- unilateral rows ---------------------------------------------------------------------------------------------
// The model's rows followed by the contact rows (none when `contacts` is null) into `rows`, then the tangent rows of
// the contacts `held` marks (ContactSet::append_tangent_rows); `version` is kept when the rows' particles are the same
// as last time (`signature`), else a new topology version.
void combine_rows(const Model& model, const ContactSet* contacts, std::vector<Row>& rows, unsigned& version,
                  std::vector<int>& signature, const std::vector<char>* held = nullptr);
// Marks in `sticking` every contact to hold by its tangent rows, at no slip since q (ContactSet::hold_tangents, from
// the state's positions to x), and returns whether any: a contact whose normal row is `active` (one flag per contact)
// and pushes with its friction inside the cone, |λ_t| < μ λ (one at the edge slides). Not where the holds would leave
// a row of the model no freedom: a particle held against an obstacle (or a fixed particle) by its normal and tangent
// rows cannot move, so a rod between two such particles (or one and a fixed particle) is redundant at best and has no
// root where the friction pass left it off its length (a cloth draping a sphere: 55 % of its projections' holds
// lost, and the rest found their rows dependent, 2.3 times the time); those particles' contacts (`pinned` = 2) are
// left to friction passes.
bool hold_sticking(const StepContext& context, ContactSet& contacts, std::span<const char> active,
                   std::span<const Vec3> x, std::vector<char>& sticking, std::vector<char>& pinned);
// Makes a row inactive for one solve: value and gradient zero (its multiplier comes out 0, its pattern stays).
void mask_row(Row& row);

}  // namespace lagrange
