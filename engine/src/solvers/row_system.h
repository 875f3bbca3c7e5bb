// The pieces every solver shares: all constraint rows evaluated at once, and the sparse matrix
// A = J_left M⁻¹ J_rightᵀ (entry (k, l) couples rows k and l through each movable particle they share).
// Projection uses J_left = ∇C(current iterate), J_right = ∇C(q) (the Newton matrix of C(q* + M⁻¹∇C(q)ᵀλ) = 0);
// the acceleration solver and RATTLE's velocity step use J_left = J_right = ∇C(q).
#pragma once

#include <cmath>
#include <memory>
#include <span>
#include <vector>

#include "lagrange/constraint.h"
#include "lagrange/model.h"
#include "lagrange/solver.h"
#include "linear_solver.h"

namespace lagrange {

// The rows one solve works on: the model's rows (a Model converts to its RowSet), or the model's rows followed by a
// substep's contact rows (contacts/contact_set.h). `version` changes whenever the rows' particles or scales, or the
// particles' masses, change: RowSystem rebuilds its pattern then.
struct RowSet {
  std::span<const Row> rows;
  std::span<const double> inv_mass;
  std::span<const int> compliant;  // rows with compliance > 0, in row order
  unsigned version = 0;
  std::size_t particle_count = 0;

  RowSet() = default;
  RowSet(const Model& model)  // NOLINT: implicit on purpose, so every solver call on a model reads the same
      : rows(model.rows()),
        inv_mass(model.inv_mass()),
        compliant(model.compliant_rows()),
        version(model.topology_version()),
        particle_count(model.particle_count()) {}
  RowSet(std::span<const Row> all, const Model& model, unsigned version_)
      : rows(all),
        inv_mass(model.inv_mass()),
        compliant(model.compliant_rows()),
        version(version_),
        particle_count(model.particle_count()) {}
  bool fixed(std::size_t i) const { return inv_mass[i] == 0.0; }
};

// Every row's gradient slots, packed with a stride set by the model's widest row (1, 2, or kMaxRowParticles): rods
// and pins take two slots per row (what they took before rows could touch up to kMaxRowParticles particles), so
// chains and cloth stream through no more memory than they need. g[k].g[s] is row k's slot s.
class RowGradients {
 public:
  struct Slots {
    Vec3* g;
  };
  struct ConstSlots {
    const Vec3* g;
  };
  void resize(std::size_t rows, int stride) {
    stride_ = static_cast<std::size_t>(stride);
    slots_.resize(rows * stride_);
  }
  std::size_t size() const { return stride_ ? slots_.size() / stride_ : 0; }
  Vec3* data() { return slots_.data(); }
  const Vec3* data() const { return slots_.data(); }
  Slots operator[](std::size_t k) { return {slots_.data() + k * stride_}; }
  ConstSlots operator[](std::size_t k) const { return {slots_.data() + k * stride_}; }

 private:
  std::vector<Vec3> slots_;
  std::size_t stride_ = 0;
};

// An extra term on the diagonal of a row system: a compliant row's α̃ (docs/physics.md, "Compliance").
struct DiagonalTerm {
  int row;
  double value;
};

class RowSystem {
 public:
  // The linear solver behind factorize() and solve(): SparseLDU unless another is given.
  explicit RowSystem(std::unique_ptr<LinearSolver> linear = make_sparse_ldu_solver()) : linear_(std::move(linear)) {}

  // Rebuilds the coupling pattern and the symbolic factorization when the model's rows or particles changed.
  // evaluate() and values() need it too (they use the cached length scales).
  void prepare(const RowSet& model);
  int rows() const { return rows_; }
  // Rows kept out of the system as twins of earlier ones (the same rigid equation): redundant, with multiplier 0.
  int twins() const { return static_cast<int>(shadows_.size()); }
  // Gradient slots per row in RowGradients: the most particles any row touches.
  int stride() const { return stride_; }

  // C_k(x) and ∇C_k(x) for every row; returns max_k |C_k| / length scale (NaN if any C_k is NaN).
  double evaluate(const RowSet& model, std::span<const Vec3> x, std::vector<double>& c,
                  RowGradients& grad) const;
  // The same without gradients: C_k(x) and the max relative |C|.
  double values(const RowSet& model, std::span<const Vec3> x, std::vector<double>& c) const;
  // lambda[k] = row k's own root along weighted[k] from x (Constraint::lone_root), or 0 where it has none, and
  // out = x + Σ_k lambda[k] weighted[k] (the roots are all taken from x, so one pass does both).
  void lone_roots(const RowSet& model, std::span<const Vec3> x, const RowGradients& weighted,
                  std::vector<double>& lambda, std::vector<Vec3>& out) const;
  // ∇C_k(x) into grad and (1/m_p) ∇C_k(x) into weighted, in one pass (evaluate() then weight(), without C).
  void directions(const RowSet& model, std::span<const Vec3> x, RowGradients& grad, RowGradients& weighted) const;
  // weighted[k].g[s] = (1/m_p) grad[k].g[s]: each row's displacement per unit multiplier (0 for fixed particles).
  void weight(const RowSet& model, const RowGradients& grad, RowGradients& weighted) const;
  // x[p] += Σ_k λ_k weighted_k[p], i.e. x += M⁻¹ ∇Cᵀ λ.
  void displace(const RowSet& model, const RowGradients& weighted, const std::vector<double>& lambda,
                std::vector<Vec3>& x) const;
  // J v for every row.
  void velocity_rows(const RowSet& model, const RowGradients& grad, std::span<const Vec3> v,
                     std::vector<double>& jv) const;

  // Assembles A = left M⁻¹ rightᵀ + diag(extra) from `left` and the weighted right gradients (weight()) and
  // factorizes it; returns the number of dependent (redundant) rows. With a symmetric linear solver, `left` must be
  // the gradients `right_weighted` was weighted from (A is then symmetric and one triangle is assembled).
  int factorize(const RowGradients& left, const RowGradients& right_weighted,
                std::span<const DiagonalTerm> extra = {});
  // Solves A x = b in place with the last factorization.
  void solve(std::vector<double>& b) const;
  // A chain (every row a rod, each sharing particles only with the rows before and after it, so that the symmetric
  // factor is bidiagonal): one chord step fused into two passes over the rows. With δ = −A⁻¹c: λ += δ,
  // x += M⁻¹∇Cᵀδ (weighted), then c = C(x); returns max |C|/L and leaves δ in work. The same arithmetic as solve(), displace() and values()
  // except the order in which a shared particle sums its two rows' moves. Only when chain_kernel() is true.
  bool chain_kernel() {
    ensure_pattern();  // whether the factor is bidiagonal is known from the pattern's analysis
    return bidiagonal_rods();
  }
  // `own_factor`: with the factorization chain_setup() made (of its J) instead of the last factorize()'s;
  // `forward_done`: work already holds D⁻¹L⁻¹(−c) (chain_setup() leaves it so for the first step).
  double chain_chord_step(const RowGradients& weighted, std::vector<double>& c, std::vector<double>& lambda,
                          std::vector<double>& work, std::vector<Vec3>& x, bool own_factor = false,
                          bool forward_done = false) const;
  // A chain in its natural order (chain_kernel(), row k the rod from particle k to particle k + 1, particles
  // 0 .. m): the start of a projection from q in one pass over the rows. Writes weighted = M⁻¹∇C(q) (directions();
  // the gradients themselves are not kept), lambda and x (the lone roots from x_star, as lone_roots(), or, given
  // a `guess` of the multipliers, each row's root from x* moved by its neighbours' guesses; x = x* + M⁻¹∇C(q)ᵀλ),
  // c = C(x) (values()), and factors the chord matrix of this first guess x,
  //     J = ∇C(x) M⁻¹ ∇C(q)ᵀ      (tridiagonal, unsymmetric: L D U, kept here for chain_chord_step's own_factor)
  // — the Newton matrix at x, where the symmetric ∇C(q) M⁻¹ ∇C(q)ᵀ differs from the Jacobian at the root by the
  // rods' turn over the whole substep, J differs by their turn from the first guess to the root, so each chord step
  // gains several digits more. work = D⁻¹L⁻¹(−c), the first step's forward half (forward_done). Returns max |C|/L
  // and the dependent rows of J in `dependent` (J is then not to be used: its pivots say nothing of ∇C(q)'s rank).
  // With a guess, the pass stops as soon as a row's |C|/L is above `give_up_above` and returns it: the caller then
  // rejects the guess, and the rest of the pass would be discarded. Only when stream_chain() is true.
  bool stream_chain() {
    ensure_pattern();
    return stream_chain_;
  }
  double chain_setup(const RowSet& model, std::span<const Vec3> q, std::span<const Vec3> x_star,
                     RowGradients& weighted, std::vector<double>& lambda, std::vector<Vec3>& x,
                     std::vector<double>& c, std::vector<double>& work, int& dependent,
                     const double* guess = nullptr, double give_up_above = INFINITY);
  // Whether the last chain_setup() wrote `weighted` for every row, M⁻¹∇C(q) as directions() writes it (it stops
  // early only when it rejects the guess, after the block of rows it was in).
  bool chain_directions_complete() const { return chain_directions_complete_; }
  // A chain in its natural order (stream_chain()) under tension: whether a substep of length h is beyond the stability
  // limit of constraint forces along the substep's start directions (docs/physics.md, "Taut chains: the zigzag
  // limit"): some rod k carries a force f_k (row_force, a tension or a push) whose zigzag mode has
  // ω_k h > `limit`, ω_k² = 2 (w_a + w_b) |f_k| / L_k, while no rod turns at more than `turn` radians a substep
  // (|Δv⊥| h / L: a whip's tip, where splitting did not pay). One pass over force (and, only when the first test holds,
  // over the velocities).
  bool chain_beyond_zigzag_limit(std::span<const double> force, std::span<const Vec3> x, std::span<const Vec3> v,
                                 double h, double limit, double turn) const;
  // LinearSolver::null_combination: per row, its weight in the dependencies the last factorization found.
  void null_combination(std::vector<double>& v) const { linear_->null_combination(v); }

 private:
  // One movable particle shared by rows k < l: it adds ∇_p C_k · w_p ∇_p C_l to A_kl (and the mirror to A_lk).
  // Terms of the same pair are adjacent; only the first one assigns, the others accumulate.
  struct Coupling {
    int k, l;
    unsigned char slot_k, slot_l;
    bool accumulate;
    double* up;
    double* low;
  };
  unsigned version_ = ~0u;
  std::size_t particle_count_ = 0;
  int rows_ = 0;
  int stride_ = 1;
  std::vector<int> row_count_;               // particles per row
  std::vector<int> particle_;                // row k's particles at k·stride_ .. (a packed copy of Row::particle)
  std::vector<double> inv_scale_;            // 1 / length scale per row
  // Row k's ends and length when it is a rod (length < 0 otherwise): rods, most rows of every scene, are evaluated
  // from this packed copy with DistanceConstraint's own formulas, inlined, with no virtual call or pointer chase.
  struct RodRow {
    int a, b;
    double length;
  };
  std::vector<RodRow> rod_;
  bool chain_directions_complete_ = false;  // chain_directions_complete()
  std::vector<double> zigzag_factor_;  // (w_a + w_b) / L per rod, 0 for other rows (chain_beyond_zigzag_limit())
  bool all_rods_ = false;
  bool stream_chain_ = false;    // stream_chain()
  std::vector<char> coupled_;    // stream_chain(): rows k − 1 and k share a movable particle (A has that entry)
  // chain_setup()'s J = L D U: L[i+1, i], U[i, i+1] (0 where rows i, i + 1 do not couple) and 1/D_i.
  std::vector<double> chain_lower_, chain_upper_, chain_inv_d_;
  std::vector<Coupling> couplings_;
  // Row k's earlier twin (the same rigid equation), or -1; the rows that have one. A twin is kept out of the
  // couplings, gets A_kk = 1 and b_k = 0, so its multiplier is 0 (prepare()).
  std::vector<int> twin_, shadows_;
  bool twins_hold(const RowSet& model) const;
  // The coupling pattern, its symbolic factorization and stream_chain_, built from the rows prepare() copied the
  // first time they are needed (factorize(), stream_chain(), chain_kernel()): a projection whose chord converges
  // never analyses Newton's system (half of a 100 000-link chain's start-up).
  void ensure_pattern();
  // Every row a rod, no twin, and the analysed factor bidiagonal (chain_kernel() once the pattern is built).
  bool bidiagonal_rods() const { return all_rods_ && shadows_.empty() && linear_->bidiagonal_sub() != nullptr; }
  bool pattern_ready_ = false;
  std::vector<char> movable_;  // per particle: not fixed (fixed particles couple no rows)
  std::vector<double*> diag_entry_;  // where A_kk goes in the factor's storage
  std::unique_ptr<LinearSolver> linear_;
};

// Semi-implicit Euler prediction shared by projection and acceleration-free steps:
// v* = v + h M⁻¹ F(x, v), x* = x + h v*. Fixed particles stay where they are. `kick` = 1/2 gives velocity Verlet's
// half kick and drift instead (SHAKE): v½ = v + (h/2) M⁻¹ F(x, v), x* = x + h v½.
void predict_semi_implicit(const StepContext& context, double h, std::vector<Vec3>& x_star,
                           std::vector<Vec3>& v_star, double kick = 1.0);

}  // namespace lagrange
