// The contact rows of one substep, apart from the fixed model (as MuJoCo's d->contact, Box2D's contact solver): a
// broad phase (a spatial hash, O(n)) finds the pairs of particles and the particle–obstacle faces that can touch
// within the substep; each becomes a unilateral row C(x) = gap ≥ 0 whose multiplier only pushes (λ ≥ 0, C λ = 0).
// The solvers see rows with bounds, never shapes: the gap, its gradient (±n), J̇q̇, the row's own root, its
// restitution and friction. docs/physics.md, "Contacts".
//
//   pair (a, b):            C = |x_a − x_b| − (r_a + r_b),  ∇_a C = n = (x_a − x_b)/|x_a − x_b|, ∇_b C = −n
//   plane face (p, n):      C = n · (x_a − p) − r_a,        ∇_a C = n          (a box: its 2·dim inward faces)
//   sphere face (c, R):     C = |x_a − c| − (R + r_a),      ∇_a C = (x_a − c)/|x_a − c|
//
// A ContactSet lives in the World; the World fills it at the start of every substep (gather), hands it to the solver
// in the StepContext, and records what the solver left in it into the State (record). Each solver resolves the
// impacts first (impacts.cpp: restitution and friction at the time of impact), then holds the rows at the position
// (or velocity, acceleration) level its own way.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include <Eigen/SparseCore>

#include "lagrange/constraint.h"
#include "lagrange/model.h"
#include "lagrange/settings.h"

namespace lagrange {

// A face of an obstacle as the rows see it: a plane (particles stay on the side of its unit normal) or a sphere
// (particles stay outside). A box is 2·dimension inward planes.
struct ObstacleFace {
  bool sphere = false;
  Vec3 point{0.0};   // plane: a point of it; sphere: the centre
  Vec3 normal{0.0};  // plane: unit normal
  double radius = 0.0;
  int obstacle = 0, face = 0;
  double restitution = 0.0, friction = 0.0;
};

struct ContactRow {
  int a = -1, b = -1;        // particles; b = -1 for an obstacle face
  int face = -1;             // index into ContactSet::faces (-1 for a pair)
  double reach = 0.0;        // r_a + r_b, or r_a
  double scale = 1.0;        // length scale of its tolerance: reach, or 1 m for a point on an obstacle
  double restitution = 0.0, friction = 0.0;
  // What the solver leaves: the mean normal force over the substep (N, ≥ 0) and friction force on a (N), and the
  // impulse of its impacts (N·s, on a). `lambda`, `lambda_t` are the position-level multipliers (N·s²) the
  // Gauss–Seidel projection accumulates, started from `warm`, `warm_t` (the same contact's in the last substep).
  double force = 0.0;
  Vec3 force_t{0.0};
  Vec3 impulse{0.0};
  double lambda = 0.0, warm = 0.0;
  Vec3 lambda_t{0.0}, warm_t{0.0};
  // The gap the projection holds the row at (m, ≤ 0): 0, or what was left overlapping at the start of the substep
  // (sweeps stopped short before it): that overlap is undone by stabilize(), by positions alone.
  double allowed = 0.0;
  int impacts = 0;
  int unilateral = 1;
  // A normal multiplier (N·s²) the row already carries from outside the projection — the acceleration solver's
  // contact force × h² — that bounds its friction with λ: |λ_t| ≤ μ (λ + normal_held). 0 for the other solvers.
  double normal_held = 0.0;
  // The work (J) its forces did in the substep, where the solver books it itself (ContactSet::work_booked).
  double work = 0.0;
  // The normal multiplier its friction answers to: the projection's λ and what it already carries.
  double normal_total() const { return lambda + normal_held; }
  // The sweeps' cached weight w_a + w_b and its inverse (weigh(), at the start of project() and stabilize()).
  double w = 0.0, inv_w = 0.0;
  // Where the projection solver holds a sticking contact by rows of its own (ContactSet::hold_tangents): the
  // tangents of its plane and the particles' relative position at the start of the substep (x_a − x_b, or x_a on an
  // obstacle), so that its rows t · ((x_a − x_b) − origin) = 0 allow no slip since then.
  Vec3 tangent[2] = {Vec3(0.0), Vec3(0.0)};
  Vec3 origin{0.0};
};

// The tangents of a contact's plane, orthonormal to its unit normal n: one in a 2D scene (t[0]), two in 3D.
inline void tangent_basis(const Vec3& n, int dimension, Vec3 (&t)[2]) {
  if (dimension == 2) {
    t[0] = Vec3(-n.y, n.x, 0.0);
    return;
  }
  t[0] = glm::normalize(std::abs(n.x) < 0.6 ? glm::cross(n, Vec3(1, 0, 0)) : glm::cross(n, Vec3(0, 1, 0)));
  t[1] = glm::cross(n, t[0]);
}

class ContactSet {
 public:
  // The contact tolerance, relative to a row's scale: what "touching" and "converged" mean for contact rows (tighter
  // than the 1e-6 of a radius the tests allow, looser than a rod's 1e-10: contacts come and go every step).
  static double tolerance(const Settings& settings);

  // Fills the rows for a substep of length h from `state` (positions at the start, velocities, the last contacts'
  // multipliers for warm starts): broad phase, narrow phase with a margin that covers the substep's motion.
  void gather(const Model& model, const State& state, const Settings& settings, double h);
  bool empty() const { return rows.empty(); }

  // The row's gap at positions x and its unit normal n (pointing towards particle a).
  double gap(const ContactRow& row, std::span<const Vec3> x, Vec3& n) const;  // inline, below: the sweeps' kernel
  // The effective inverse mass of a row along its normal: w_a + w_b.
  double weight(const ContactRow& row, std::span<const double> inv_mass) const {
    return inv_mass[row.a] + (row.b >= 0 ? inv_mass[row.b] : 0.0);
  }

  // --- the impact stage (impacts.cpp) ----------------------------------------------------------------------------
  // Resolves the impacts of this substep before the solver holds the rows: every row whose gap closes within the
  // substep along the particles' free trajectories (x + s u + a s²/2 with the external accelerations a), at its time
  // of impact, gets Newton's restitution and a Coulomb-bounded tangential impulse; events are processed in time
  // order, one contact at a time, so a chain of touching balls passes an impulse on ball by ball (Newton's cradle).
  // `staggered`: the solver's velocities are semi-implicit Euler's (the mean over the last substep: the true
  // velocity at the start is v + h a/2); false for velocity Verlet (RATTLE). Leaves, per particle, the change of its
  // end-of-substep position (dx) and velocity (dv) against the free trajectory; `moved` lists those with a change.
  void resolve_impacts(const Model& model, const State& state, const Settings& settings, double h, bool staggered);
  std::vector<Vec3> dx, dv;
  std::vector<int> moved;
  double impact_work = 0.0;  // J: the kinetic energy the substep's impacts changed, Σ p·(u⁻ + u⁺)/2 (≤ 0 for e ≤ 1)
  // The solver left each row's `work` (RATTLE: its two kicks, each at the velocities around it); otherwise record()
  // books the rows' forces at the substep's mean velocity.
  bool work_booked = false;
  // The stage was cut short (a pair's impact cap, or the event budget, with an elastic row still closing): the World
  // counts the substep as a failure.
  bool cut = false;

  // --- position-level Gauss–Seidel (contact_projection.cpp) -----------------------------------------------------
  // The sweeps project() and stabilize() may take this substep: `contact_sweeps`, or when 0 (automatic) max_iterations
  // or, for fewer rows, as many as 200 000 row updates allow (a pile of 60 balls, ~200 rows, ~1 000 sweeps: within
  // 100 its contacts ended 174 substeps in 3 s unfinished, 2.9e-4 of a radius into each other; a pile of 2 000, no
  // more than max_iterations). At ~50 ns a row update that bounds an unfinished substep to about 10 ms.
  int sweep_cap(const Settings& settings) const;
  // One sweep over the rows at positions x: each row's normal multiplier λ ≥ 0 and friction multiplier
  // |λ_t| ≤ μ λ (the slip measured from q), moving x. Returns the largest complementarity residual over the rows,
  // relative to their scale: |C| where λ > 0, max(0, −C) where λ = 0, and the friction multipliers' change.
  double sweep(std::span<const double> inv_mass, std::span<const Vec3> q, std::vector<Vec3>& x,
               bool backward = false);
  // x moved by every row's warm multipliers (the start of the iteration).
  void apply_warm(std::span<const double> inv_mass, std::vector<Vec3>& x) const;
  // Sweeps until the residual is below the contact tolerance or `max_sweeps` ran; returns the sweeps and sets
  // `converged`. Then every row's force is λ/h², its friction λ_t/h² (times `force_factor`).
  // `entry_velocity` (optional): each particle's velocity were x left as it is, so that the velocity the projection
  // gives is entry_velocity + (x' − x) / h. A projection started warm that raised the kinetic energy above the
  // entry's is started again cold (kWarmGain, contact_projection.cpp): a frictionless pile's warm multipliers, applied
  // where its balls had moved on, led the sweeps to a far root that threw a ball 9 cm in a substep.
  int project(std::span<const double> inv_mass, std::span<const Vec3> q, std::vector<Vec3>& x, double h,
              int max_sweeps, bool& converged, bool warm = true, std::span<const Vec3> entry_velocity = {});
  // After the substep's velocities are set: pushes apart, by positions alone, what project() left overlapping — the
  // overlap it carried in from the substep before (rows' `allowed` < 0) and any its sweeps did not finish (post-
  // stabilization, Cline & Pai 2003). Pushed out through the velocities instead, that overlap would launch the
  // particles: a pile the sweeps cannot finish in one substep gained energy every substep and blew apart. Runs only
  // when needed (`overlap_left`), for at most `max_sweeps` sweeps (the solver's own: with a quarter of them, a
  // 2000-ball pile sagged by 11 % of a radius instead of 3 %); returns the sweeps.
  int stabilize(std::span<const double> inv_mass, std::vector<Vec3>& x, int max_sweeps);
  // SHAKE's second half kick for the contacts alone (solver_shake.cpp, commit), after v has its first half, the drift
  // and the external forces' second half: each row that pushed in the position stage (λ > 0) gives a second impulse
  // κ/h along its normal at x (κ ≥ 0) and κ_t/h across it (|κ_t| ≤ μ κ), started from `kappa`, `kappa_t` (already in
  // v) and set by Gauss–Seidel on the velocities until the end velocity across every row that still pushes is zero
  // (the position stage held it plastically), and across every sticking contact's tangent plane too. A normal
  // update moves one pair's relative normal velocity towards zero, so it only takes kinetic energy. Kicked with κ = λ
  // alone, as if both halves were alike, a stopped approach came back as a departure at the same speed: a puck that
  // friction stopped on a floor kept 1 cm/s, reversed every substep. Returns the sweeps. `work` (J, one per row,
  // added to): the kinetic energy each row's updates changed, exactly (an impulse p between two particles changes
  // their kinetic energy by p · (u⁻ + u⁺)/2, u their relative velocity before and after).
  int second_half(std::span<const double> inv_mass, std::span<const Vec3> x, std::vector<Vec3>& v, double h,
                  int max_sweeps, std::vector<double>& kappa, std::vector<Vec3>& kappa_t,
                  std::vector<double>& work) const;
  // One subspace-minimization step of project(): Newton on the rows that push (contact_projection.cpp). Returns the
  // factor by which it lowered the rows' worst error (< 1), or 1 when it was not taken.
  double subspace_step(std::span<const double> inv_mass, std::span<const Vec3> q, std::vector<Vec3>& x);
  // Caches every row's weight w_a + w_b and 1 / (w_a + w_b) (0 for a row between fixed particles) for the sweeps.
  void weigh(std::span<const double> inv_mass);
  bool overlap_left = false;  // project() left rows below their gap (or held some at an overlap): stabilize() has work
  // Whether the last projection of the rows converged, or came so near that its multipliers are within 1e-3 of the
  // rows' scale of balance by the rate its sweeps converged at (contact_projection.cpp, kWarmResidual). Only then are
  // its multipliers forces: kept for the next
  // substep's warm start (record) and given to SHAKE's second half kick. A pile's unfinished multipliers are out of
  // balance by a fraction of its weight and carry the overlap the prediction made; started from them, the sweeps
  // pushed balls centimetres in a substep and the pile blew apart (2000 balls: 70 J → 370 J in 4 steps), and kicked
  // with them a third more (SHAKE: 12 J → 18 J). Cold, an unfinished pile sags (counted as failures) and loses energy.
  bool finished = true;

  // Back to the substep as gather() left it, before the impacts and any solve: every row's multipliers, forces,
  // impulse, impact count and held gap zeroed (its warm start kept), no impact work, the flags as gathered. For a
  // substep that a solver drops to do it again another way (SHAKE's and RATTLE's fallback to projection).
  void restart_substep();

  // One friction pass on rows whose λ the solver found: Coulomb at the position level (projection's, between its
  // projections). Returns its largest move relative to the row's scale.
  double friction_sweep(std::span<const double> inv_mass, std::span<const Vec3> q, std::vector<Vec3>& x);
  // The friction update of row k alone, at its λ and normal n (SHAKE's sweeps take it after the row's normal:
  // shake_positions), with the weights weigh() cached; returns the square of its move relative to the row's scale.
  double friction_row(std::size_t k, const Vec3& n, std::span<const double> inv_mass, std::span<const Vec3> q,
                      std::vector<Vec3>& x);
  // Whether any row has friction (or a friction multiplier to undo).
  bool has_friction() const {
    for (const ContactRow& row : rows)
      if (row.friction > 0.0 || row.lambda_t != Vec3(0.0)) return true;
    return false;
  }

  // --- rows for the generic solvers ----------------------------------------------------------------------------
  // One Constraint per row (value, gradient, J̇q̇, lone root, unilateral +1), for solvers that take every row
  // through the Constraint interface (projection's combined system, SHAKE, RATTLE): valid until the next gather().
  const Constraint& constraint(std::size_t k) const;
  // A Row for each contact row, for a combined row list (model rows, then these).
  void append_rows(std::vector<Row>& rows) const;
  // The tangent rows (dimension − 1 each) of the contact rows `held` marks, in order, for the projection solver's
  // combined list after the normal rows: equality rows that hold a sticking contact at no slip since q,
  // t · ((x_a − x_b) − origin) = 0, as hold_tangents has set them (docs/physics.md, "Friction").
  void append_tangent_rows(std::vector<Row>& rows, const std::vector<char>& held) const;
  int tangents_per_row() const { return dimension - 1; }
  // Sets row k's tangents ⟂ its normal at x, and its origin from the start positions q.
  void hold_tangents(std::size_t k, std::span<const Vec3> q, std::span<const Vec3> x);

  std::vector<ContactRow> rows;
  std::vector<ObstacleFace> faces;
  double tol = 1e-8;  // tolerance(settings)
  double h = 0.0;     // the substep being solved
  int dimension = 3;  // the model's (2: one tangent per contact, 3: two)
  // The world's wall-clock deadline (the window's frame budget, bench's --budget): project()'s sweeps stop there,
  // unconverged (a failure), as the solvers' own iterations do.
  std::optional<std::chrono::steady_clock::time_point> deadline;

  // --- recording (the World, after the solver) ------------------------------------------------------------------
  // Adds this substep's impulses (impacts, normal and friction forces × h) to the step's record in the state, and
  // returns the work the contacts did in the substep that took velocities v0 to the state's: the impacts'
  // (impact_work) and the rows' forces at the substep's mean velocity, h (f n + f_t) · (v̄_a − v̄_b), as the world
  // counts the mouse's (world.cpp, account_work): for semi-implicit Euler that is the kinetic energy the forces gave.
  double record(const Model& model, State& state, double h, std::span<const Vec3> v0) const;
  // The work of a row's forces over the substep at its mean velocity, h (f n + f_t) · (v̄_a − v̄_b), v̄ the mean of
  // the start (v0, and what the impacts changed) and the end (v1): for semi-implicit Euler exactly the kinetic energy
  // the forces gave. n: the row's normal at the end positions.
  double mean_velocity_work(const ContactRow& row, const Vec3& n, std::span<const Vec3> v0, std::span<const Vec3> v1,
                            double step) const;
  // Every row's `work` as mean_velocity_work books it with these velocities, and work_booked: for a substep whose
  // velocities are not the state's own kind (SHAKE's and RATTLE's fallback to projection: its velocities are the
  // mean over the substep, the state's those at its ends).
  void book_work(std::span<const Vec3> x, std::span<const Vec3> v0, std::span<const Vec3> v1, double step);
  // Starts a step's record: impulses zeroed, the multipliers kept for warm starts.
  static void begin_step(const Model& model, State& state, double dt);
  // Ends it: contacts that did not push in the step are dropped.
  static void end_step(State& state);

 private:
  void build_faces(const Model& model);
  void build_exclusions(const Model& model);
  // The candidates for pair rows: every pair (i, j), i < j, that may touch within the substep (within_reach, with the
  // kick where held_ holds one of them, or for every pair when `wide`), with its distance; gather() takes the rows
  // among them.
  void broad_phase(const Model& model, std::span<const Vec3> x, bool wide);
  // Whether particles i and j at positions x may touch within the substep (a row), with held_ as it is.
  bool may_touch(const Model& model, std::span<const Vec3> x, std::size_t i, std::size_t j) const;
  // Whether the pair can collide at all: radii, not both fixed, not joined by a constraint of the model.
  bool may_collide(const Model& model, std::size_t i, std::size_t j) const;
  // Whether a pair `distance` apart is within the reach of its particles' motion over the substep (their margins,
  // and the kick when one of them is held).
  bool within_reach(std::span<const double> radius, std::size_t i, std::size_t j, double distance, bool held) const {
    const double reach = radius[i] + radius[j];
    return distance - reach < margin_[i] + margin_[j] + (held ? kick_ : 0.0) + 10.0 * tol * reach;
  }
  // The spatial hash: cells of side `cell` (cell_size: the widest reach), counting-sorted into 2n buckets;
  // for_each_near visits every particle in p's cell and its neighbours (contact_set.cpp).
  using Cell = std::array<std::int64_t, 3>;
  void build_hash(const Model& model, std::span<const Vec3> x, double cell);
  Cell cell_of(const Vec3& p) const;
  std::uint32_t bucket(const Cell& c) const;
  template <class Visit>
  void for_each_near(const Vec3& p, Visit&& visit) const;
  // `kick`: as if a particle were held (the broad phase's candidates).
  double cell_size(const Model& model, bool kick) const;
  bool face_in_reach(const Vec3& x, double r, double reach, const ObstacleFace& f) const;
  ContactRow face_row(const Model& model, std::size_t i, std::size_t f) const;
  ContactRow pair_row(const Model& model, std::size_t i, std::size_t j) const;
  void match_warm(const State& state, std::vector<ContactRow>::iterator first,
                  std::vector<ContactRow>::iterator last) const;
  // After an impact stage: the particles whose path (`excursion`, m, from where the substep started) went beyond the
  // reach their rows were gathered for get the rows they can now reach, in key order. Returns whether it added any
  // (the impact stage then runs again from the start of the substep).
  bool add_reached_rows(const Model& model, const State& state, std::span<const double> excursion);
  // The rows the particles can reach (their margin_, and kick_ where held_) that are not rows yet, merged in key
  // order; returns whether there were any.
  bool add_rows_near(const Model& model, const State& state, std::span<const int> particles);
  void impact_pass(const Model& model, const State& state, const Settings& settings, double h, bool staggered);
  void add_constraints() const;

  unsigned faces_version_ = ~0u, exclusions_version_ = ~0u;
  std::vector<std::uint64_t> excluded_;  // pairs joined by a model constraint: (min << 32) | max, sorted
  std::vector<char> constrained_;        // particles of a model constraint
  std::vector<char> held_;               // ... and those touching a contact at the substep's start (gather)
  double kick_ = 0.0;                    // m: how much further than its free motion a held particle may go
  mutable std::vector<std::unique_ptr<Constraint>> tangent_constraints_;  // the same for the tangent rows
  mutable std::vector<std::unique_ptr<Constraint>> constraints_;  // made when first asked for (most substeps: never)
  // Broad-phase scratch: the candidate pairs by first particle (CSR), the hash's buckets.
  std::vector<std::uint32_t> bucket_of_, bucket_start_, bucket_items_;
  std::size_t buckets_ = 1;
  double inv_cell_ = 1.0;
  int hash_dim_ = 3;
  std::vector<Vec3> hash_x_;  // the positions the hash holds (empty: no hash)
  struct Candidate {
    std::uint32_t i, j;
    double distance;
  };
  std::vector<Candidate> pairs_;
  std::vector<std::uint32_t> neighbour_start_, neighbour_;  // gather(): each particle's candidates (CSR),
  std::vector<char> touching_;                               // the particles touching a row at the start,
  std::vector<int> queue_;                                   // the held ones still to look around
  std::vector<std::uint32_t> partner_start_;  // add_rows_near(): each particle's rows (CSR): the other particle, or
  std::vector<int> partner_;                   // −1 − face
  std::vector<double> margin_;  // each particle's reach over the substep (m): its free motion, or what impacts gave
  std::vector<Vec3> force_;
  std::vector<double> push_;  // stabilize()'s multipliers
  std::vector<double> residuals_;  // project()'s residual after each of its sweeps (how fast they converge)
  std::vector<Vec3> entry_x_;      // project()'s x on entry (a warm start that gained energy starts again from it)
  int project_once(std::span<const double> inv_mass, std::span<const Vec3> q, std::vector<Vec3>& x, double h,
                   int max_sweeps, bool& converged, bool warm);
  // subspace_step()'s scratch: its rows (normals and tangents), the rows at each particle, the state to undo a step.
  struct SubspaceRow {
    int row;
    Vec3 direction;   // the gradient on particle a: the normal, or a tangent
    double residual;  // −(C − allowed), or −(the slip along the tangent)
    bool normal;
  };
  std::vector<SubspaceRow> sub_;
  std::vector<int> slot_start_, slot_row_;
  std::vector<Vec3> saved_x_;
  std::vector<double> applied_;
  std::vector<Eigen::Triplet<double>> triplets_;
  // Impact-stage scratch (impacts.cpp).
  std::vector<double> seg_t_;
  std::vector<double> excursion_;  // the length of each particle's path so far in the substep (a bound of it)
  std::vector<Vec3> seg_p_, seg_u_, accel_, at_;
  std::vector<char> touched_;
  std::vector<int> row_start_, row_list_;
  std::vector<unsigned> stamp_;
};

// The sweeps call it for every row, thousands of times a substep: inline.
inline double ContactSet::gap(const ContactRow& row, std::span<const Vec3> x, Vec3& n) const {
  if (row.b >= 0) {
    const Vec3 d = x[row.a] - x[row.b];
    const double len = glm::length(d);
    n = len > 0.0 ? d * (1.0 / len) : Vec3(0.0, 1.0, 0.0);  // coincident: any direction keeps the row finite
    return len - row.reach;
  }
  const ObstacleFace& f = faces[row.face];
  if (f.sphere) {
    const Vec3 d = x[row.a] - f.point;
    const double len = glm::length(d);
    n = len > 0.0 ? d * (1.0 / len) : Vec3(0.0, 1.0, 0.0);
    return len - (f.radius + row.reach);
  }
  n = f.normal;
  return glm::dot(f.normal, x[row.a] - f.point) - row.reach;
}

}  // namespace lagrange
