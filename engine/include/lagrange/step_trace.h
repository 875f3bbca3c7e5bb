// One substep taken apart for a lesson (docs/app.md, "The step view"): the start q, the unconstrained prediction
// q*, every iterate of the solve as the solver really runs it (the first guess, chord and Newton steps, re-
// linearized "fast projection" steps; each single-rod correction of SHAKE's sweeps; RATTLE's velocity correction),
// max |C| after each, the multipliers and each particle's correction M⁻¹∇C(q)ᵀλ; for the acceleration level the
// constraint forces Jᵀλ and the split of gravity along and across each rod.
//
// A solver fills a StepTrace when StepContext::trace points to one (null by default: no cost but a pointer test).
// trace_substep() runs one substep on a copy of a world's state, so the live state never changes.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "lagrange/types.h"

namespace lagrange {

class World;

enum class IterateKind {
  FirstGuess,     // projection: every row's own root along its fixed direction (seed 000), all at once, or the
                  // last substep's multipliers when they are close (solver_projection.cpp)
  Chord,          // projection: λ ← λ − A⁻¹C with A = ∇C(q) M⁻¹ ∇C(q)ᵀ factored once (linear convergence)
  Newton,         // projection: the exact Jacobian ∇C(x) M⁻¹ ∇C(q)ᵀ (quadratic convergence near the root)
  Relinearized,   // projection: fast projection, the chord iteration again from the best iterate, along its gradients
  RowCorrection,  // SHAKE / RATTLE: one row made exact along its fixed direction (row, sweep)
  HalfKick,       // RATTLE: the velocities after the second half-kick, before the velocity correction
  VelocityCorrection,  // RATTLE: the velocities after ∇C(q') v' = 0 was solved for
  Explicit,       // acceleration, penalty: the one explicit update q' = q + h v'
};
const char* iterate_kind_name(IterateKind kind);
// Whether the kind is a velocity stage (its max_violation is max |J v| in m/s, not max |C|).
bool is_velocity_stage(IterateKind kind);

struct TraceIterate {
  IterateKind kind = IterateKind::Chord;
  std::vector<Vec3> position;
  std::vector<Vec3> velocity;  // velocity stages only; empty otherwise
  int row = -1;                // RowCorrection: the row corrected
  int sweep = 0;               // RowCorrection: the sweep it belongs to (from 1)
  bool accepted = true;        // false: the solver undid it (a chord step that made things worse, an overshot Newton step)
  // Filled by trace_substep from the model's rows (the mouse's pin left out): max |C| in metres (velocity stages:
  // max |J v| in m/s) and max |C| / length scale.
  double max_violation = 0.0;
  double max_relative = 0.0;
};

// Gravity on one end of a rod split along the rod (from the other end toward it) and across it.
struct GravitySplit {
  int row = -1;
  int particle = -1;
  Vec3 along{0.0};
  Vec3 across{0.0};
};

struct StepTrace {
  // Hooks for the solvers. Positions (and velocities) are copied only while the trace is under its size limit;
  // past it the iterates are counted (iterates_run) and `truncated` is set.
  void record(IterateKind kind, std::span<const Vec3> x, int row = -1, int sweep = 0, bool accepted = true);
  void record_velocity(IterateKind kind, std::span<const Vec3> x, std::span<const Vec3> v);
  // The prediction q*; a second call (projection split a lost substep in halves) counts in split_substeps.
  void predicted(std::span<const Vec3> x);
  // The position multipliers the solver committed, per row (the model's first; contact rows after them are left
  // out), when its reported force is not λ/h²: SHAKE and RATTLE (λ = (h²/2) F for RATTLE; SHAKE reports the force of
  // its second half-kick, 2κ/h², κ ≠ λ when the rows moved across themselves at the start). A split substep: the
  // last half's.
  void multipliers(std::span<const double> lambda);

  std::string solver;  // the solver's id
  double h = 0.0;      // the substep's length (s)
  std::vector<Vec3> start, start_velocity;  // q, v
  std::vector<Vec3> prediction;             // q*: the step with no constraint force (RATTLE: its half-kick drift)
  std::vector<TraceIterate> iterates;
  int iterates_run = 0;    // including those not kept
  bool truncated = false;  // more iterates ran than were kept (kMaxTraceValues)
  std::size_t kept_values = 0;  // Vec3 values kept in the iterates
  // What the substep commits (every solver, whatever it records).
  std::vector<Vec3> result, result_velocity;
  // Per model row, in each solver's convention: position level λ with q' = q* + M⁻¹∇C(q)ᵀλ (projection: λ = h²F;
  // SHAKE and RATTLE: the multipliers they solved for, from multipliers(), (h²/2) × the mean force); acceleration
  // level λ = F in newtons (C = |x_a − x_b| − L for a rod).
  std::vector<double> lambda;
  std::vector<double> row_force;  // the substep's constraint force per row (N), State::row_force
  // Position level: M⁻¹ ∇C(q)ᵀ λ per particle. It is q' − q* unless the projection re-linearized.
  std::vector<Vec3> correction;
  // Acceleration level (and, for comparison, every solver): the constraint force Jᵀλ on each particle from the
  // substep's row forces at q, the applied forces F (gravity, drag) at q, and gravity split along and across every
  // rod at each movable end.
  std::vector<Vec3> constraint_force;
  std::vector<Vec3> applied_force;
  std::vector<GravitySplit> gravity_split;
  int split_substeps = 0;  // projection split a lost substep into halves (their iterates follow each other)
};

// The most Vec3 values a trace keeps (positions and velocities of its iterates): 2·10⁶ (48 MB).
inline constexpr std::size_t kMaxTraceValues = 2'000'000;

// Runs the world's next substep (dt / substeps) with `solver` (its id; empty: the world's own) on a copy of its
// state and returns what it did. The live world is not changed. Throws Error for an unknown solver id.
StepTrace trace_substep(const World& world, std::string_view solver = {});

}  // namespace lagrange
