// One substep taken apart (lagrange/step_trace.h): the solvers' hooks, and trace_substep, which runs a substep on a
// copy of a world's state and measures every iterate against the model's rows.
#include "lagrange/step_trace.h"

#include <memory>

#include "contacts/contact_set.h"
#include "lagrange/constraint_kinds.h"
#include "lagrange/measure.h"
#include "lagrange/world.h"

namespace lagrange {

const char* iterate_kind_name(IterateKind kind) {
  switch (kind) {
    case IterateKind::FirstGuess: return "first guess";
    case IterateKind::Chord: return "chord";
    case IterateKind::Newton: return "Newton";
    case IterateKind::Relinearized: return "fast projection";
    case IterateKind::RowCorrection: return "one row";
    case IterateKind::HalfKick: return "velocity before correction";
    case IterateKind::VelocityCorrection: return "velocity correction";
    case IterateKind::Explicit: return "explicit step";
  }
  return "?";
}

bool is_velocity_stage(IterateKind kind) {
  return kind == IterateKind::HalfKick || kind == IterateKind::VelocityCorrection;
}

void StepTrace::record(IterateKind kind, std::span<const Vec3> x, int row, int sweep, bool accepted) {
  ++iterates_run;
  if (truncated || kept_values + x.size() > kMaxTraceValues) {
    truncated = true;
    return;
  }
  TraceIterate it;
  it.kind = kind;
  it.position.assign(x.begin(), x.end());
  it.row = row;
  it.sweep = sweep;
  it.accepted = accepted;
  kept_values += x.size();
  iterates.push_back(std::move(it));
}

void StepTrace::record_velocity(IterateKind kind, std::span<const Vec3> x, std::span<const Vec3> v) {
  ++iterates_run;
  if (truncated || kept_values + x.size() + v.size() > kMaxTraceValues) {
    truncated = true;
    return;
  }
  TraceIterate it;
  it.kind = kind;
  it.position.assign(x.begin(), x.end());
  it.velocity.assign(v.begin(), v.end());
  kept_values += x.size() + v.size();
  iterates.push_back(std::move(it));
}

void StepTrace::predicted(std::span<const Vec3> x) {
  if (!prediction.empty()) {
    ++split_substeps;
    return;
  }
  prediction.assign(x.begin(), x.end());
}

void StepTrace::multipliers(std::span<const double> values) { lambda.assign(values.begin(), values.end()); }

StepTrace trace_substep(const World& world, std::string_view solver_id) {
  const Model& model = world.model();
  Settings settings = model.settings();
  if (!solver_id.empty()) settings.solver = std::string(solver_id);
  const SolverInfo* info = find_solver(settings.solver);
  if (!info) throw Error("unknown solver \"" + settings.solver + "\" (one of " + solver_ids() + ")");
  const double h = settings.dt / settings.substeps;
  const std::size_t n = model.particle_count();

  StepTrace trace;
  trace.solver = info->id;
  trace.h = h;
  State state = world.state();
  trace.start = state.position;
  trace.start_velocity = state.velocity;
  std::unique_ptr<Solver> solver = info->create();
  StepContext context{model, settings, state};
  context.trace = &trace;
  std::unique_ptr<ContactSet> contacts;
  if (model.contacts().any()) {  // as World::step gathers them before a substep
    contacts = std::make_unique<ContactSet>();
    ContactSet::begin_step(model, state, settings.dt);
    contacts->gather(model, state, settings, h);
    context.contacts = contacts.get();
  }
  model.external_forces(settings, trace.start_velocity, trace.applied_force);
  StepStats stats;
  solver->substep(context, h, stats);
  trace.result = state.position;
  trace.result_velocity = state.velocity;
  trace.row_force = state.row_force;

  // The explicit solvers record nothing inside: their prediction is semi-implicit Euler with F alone, their one
  // iterate the result.
  if (trace.prediction.empty()) {
    trace.prediction.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      const Vec3 v = trace.start_velocity[i] + (h * model.inv_mass()[i]) * trace.applied_force[i];
      trace.prediction[i] = model.fixed(i) ? trace.start[i] : trace.start[i] + h * v;
    }
  }
  if (trace.iterates.empty()) trace.record(IterateKind::Explicit, trace.result);

  // Each iterate measured against the model's rows.
  State probe;
  for (TraceIterate& it : trace.iterates) {
    probe.position = it.position;
    probe.velocity = it.velocity.empty() ? trace.start_velocity : it.velocity;
    const Violation v = violation(model, probe);
    it.max_violation = is_velocity_stage(it.kind) ? v.velocity : v.absolute;
    it.max_relative = v.relative;
  }

  // λ per row in the solver's convention, the correction M⁻¹∇C(q)ᵀλ and the constraint force Jᵀλ at q. SHAKE and
  // RATTLE gave their λ (multipliers()): their reported force is a mean over the step, not λ/h². Projection's force
  // is exactly λ/h², the explicit solvers' λ is the force.
  const auto rows = model.rows();
  const bool position_level = !(trace.solver == "acceleration" || trace.solver == "penalty");
  if (trace.lambda.empty()) {
    const double to_lambda = position_level ? h * h : 1.0;
    trace.lambda.assign(rows.size(), 0.0);
    for (std::size_t k = 0; k < rows.size() && k < trace.row_force.size(); ++k)
      trace.lambda[k] = trace.row_force[k] * to_lambda;
  }
  trace.lambda.resize(rows.size(), 0.0);  // the contact rows' multipliers left out
  trace.correction.assign(n, Vec3(0.0));
  trace.constraint_force.assign(n, Vec3(0.0));
  RowGradient grad;
  for (std::size_t k = 0; k < rows.size() && k < trace.row_force.size(); ++k) {
    const Row& row = rows[k];
    row.constraint->evaluate(row.row, trace.start, grad);
    for (int s = 0; s < row.count; ++s) {
      const int p = row.particle[s];
      trace.constraint_force[p] += trace.row_force[k] * grad[s];
      if (position_level) trace.correction[p] += (model.inv_mass()[p] * trace.lambda[k]) * grad[s];
    }
  }
  // Gravity on each movable end of each rod, along the rod (pointing from the other end) and across it.
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const Row& row = rows[k];
    if (row.constraint->tool() || row.count != 2 || row.constraint->kind().role != KindRole::Rod) continue;
    for (int s = 0; s < 2; ++s) {
      const int p = row.particle[s], o = row.particle[1 - s];
      if (model.fixed(p)) continue;
      const Vec3 r = trace.start[p] - trace.start[o];
      const double length = glm::length(r);
      if (!(length > 0.0)) continue;
      const Vec3 u = r / length;
      const Vec3 weight = model.mass(p) * settings.gravity;
      GravitySplit split;
      split.row = static_cast<int>(k);
      split.particle = p;
      split.along = glm::dot(weight, u) * u;
      split.across = weight - split.along;
      trace.gravity_split.push_back(split);
    }
  }
  return trace;
}

}  // namespace lagrange
