#include "lagrange/model.h"

#include <atomic>
#include <cmath>
#include <string>

#include "lagrange/constraint_kinds.h"
#include "lagrange/solver.h"

namespace lagrange {
namespace {

unsigned next_version() { return new_topology_version(); }

}  // namespace

// Topology versions are drawn from one counter for all models and row sets, so a solver's cached pattern can never be
// taken for another's (a copy gets a version of its own too).
unsigned new_topology_version() {
  static std::atomic<unsigned> counter{0};
  return ++counter;
}

Model::Model(int dimension, Settings settings) : dimension_(dimension) {
  if (dimension != 2 && dimension != 3) throw Error("dimension must be 2 or 3, got " + std::to_string(dimension));
  set_settings(settings);
}

Model::Model(const Model& other)
    : dimension_(other.dimension_),
      settings_(other.settings_),
      solver_info_(other.solver_info_),
      mass_(other.mass_),
      inv_mass_(other.inv_mass_),
      radius_(other.radius_),
      contacts_(other.contacts_) {
  constraints_.reserve(other.constraints_.size());
  for (const auto& c : other.constraints_) constraints_.push_back(c->clone());
  rebuild_rows();
  refresh_compliance();
}

Model& Model::operator=(const Model& other) {
  if (this != &other) *this = Model(other);
  return *this;
}

Model::Model(Model&&) noexcept = default;
Model& Model::operator=(Model&&) noexcept = default;
Model::~Model() = default;

void Model::set_settings(const Settings& settings) {
  if (std::string problem = validate(settings); !problem.empty()) throw Error(problem);
  settings_ = settings;
  solver_info_ = find_solver(settings.solver);
}

int Model::add_particle(double mass, bool fixed) {
  if (!fixed && !(mass > 0.0 && std::isfinite(mass)))
    throw Error("particle mass must be a positive finite number, got " + std::to_string(mass));
  mass_.push_back(mass);
  inv_mass_.push_back(fixed ? 0.0 : 1.0 / mass);
  radius_.push_back(0.0);
  topology_version_ = next_version();
  return static_cast<int>(mass_.size()) - 1;
}

void Model::set_mass(int particle, double mass, bool fixed) {
  if (particle < 0 || static_cast<std::size_t>(particle) >= particle_count())
    throw Error("no particle " + std::to_string(particle));
  if (!fixed && !(mass > 0.0 && std::isfinite(mass)))
    throw Error("particle mass must be a positive finite number, got " + std::to_string(mass));
  mass_[particle] = mass;
  inv_mass_[particle] = fixed ? 0.0 : 1.0 / mass;
  topology_version_ = next_version();  // fixed particles couple no rows: the pattern changes
}

void Model::set_radius(int particle, double radius) {
  if (particle < 0 || static_cast<std::size_t>(particle) >= particle_count())
    throw Error("no particle " + std::to_string(particle));
  if (!(radius >= 0.0 && std::isfinite(radius)))
    throw Error("particle radius must be a finite number >= 0, got " + std::to_string(radius));
  radius_[particle] = radius;
}

void Model::set_contacts(ContactSettings contacts) {
  std::string field;
  if (std::string problem = contact_settings_problem(contacts, field); !problem.empty())
    throw Error("contacts." + field + ": " + problem);
  for (std::size_t k = 0; k < contacts.obstacles.size(); ++k)
    if (std::string problem = obstacle_problem(contacts.obstacles[k], dimension_, field); !problem.empty())
      throw Error("obstacles[" + std::to_string(k) + "]" + (field.empty() ? "" : "." + field) + ": " + problem);
  contacts_ = std::move(contacts);
}

int Model::add_constraint(std::unique_ptr<Constraint> constraint) {
  if (!constraint) throw Error("null constraint");
  const std::string name = constraint->kind().name;
  const auto ids = constraint->particles();
  if (ids.empty() || ids.size() > static_cast<std::size_t>(kMaxRowParticles))
    throw Error(name + " constraint must touch 1 to " + std::to_string(kMaxRowParticles) + " particles");
  for (std::size_t k = 0; k < ids.size(); ++k) {
    if (ids[k] < 0 || static_cast<std::size_t>(ids[k]) >= particle_count())
      throw Error(name + " constraint names particle " + std::to_string(ids[k]) + ", but there are " +
                  std::to_string(particle_count()) + " particles");
    for (std::size_t j = 0; j < k; ++j)
      if (ids[j] == ids[k]) throw Error(name + " constraint names particle " + std::to_string(ids[k]) + " twice");
  }
  for (int r = 0; r < constraint->rows(); ++r)
    if (!(constraint->length_scale(r) > 0.0 && std::isfinite(constraint->length_scale(r))))
      throw Error(name + " constraint must have a positive finite length");
  const double alpha = constraint->compliance(), beta = constraint->damping();
  if (!(alpha >= 0.0 && std::isfinite(alpha)) || !(beta >= 0.0 && std::isfinite(beta)) ||
      (alpha > 0.0 && !std::isfinite(1.0 / alpha)))
    throw Error(name + " constraint: compliance and damping must be finite and >= 0 (and 1/compliance finite)");
  constraints_.push_back(std::move(constraint));
  const int index = static_cast<int>(constraints_.size()) - 1;
  append_rows(index);
  tool_rows_ = tool_rows_ || constraints_[index]->tool();
  if (alpha > 0.0)
    for (int r = 0; r < constraints_[index]->rows(); ++r) compliant_rows_.push_back(row_offset_[index] + r);
  return index;
}

void Model::set_compliance(int index, double compliance, double damping) {
  if (index < 0 || static_cast<std::size_t>(index) >= constraints_.size())
    throw Error("no constraint " + std::to_string(index));
  if (!(compliance >= 0.0 && std::isfinite(compliance)) || !(damping >= 0.0 && std::isfinite(damping)) ||
      (compliance > 0.0 && !std::isfinite(1.0 / compliance)))
    throw Error("compliance and damping must be finite and >= 0 (and 1/compliance finite)");
  constraints_[index]->set_compliance(compliance, damping);
  refresh_compliance();
}

void Model::refresh_compliance() {
  compliant_rows_.clear();
  tool_rows_ = false;
  for (std::size_t c = 0; c < constraints_.size(); ++c) {
    const Constraint& constraint = *constraints_[c];
    tool_rows_ = tool_rows_ || constraint.tool();
    if (constraint.compliance() > 0.0)
      for (int r = 0; r < constraint.rows(); ++r) compliant_rows_.push_back(row_offset_[c] + r);
  }
}

void Model::remove_constraint(int index) {
  if (index < 0 || static_cast<std::size_t>(index) >= constraints_.size())
    throw Error("no constraint " + std::to_string(index));
  constraints_.erase(constraints_.begin() + index);
  rebuild_rows();
  refresh_compliance();
}

void Model::append_rows(int index) {
  const Constraint& constraint = *constraints_[index];
  row_offset_.push_back(static_cast<int>(rows_.size()));
  const auto ids = constraint.particles();
  for (int r = 0; r < constraint.rows(); ++r) {
    Row row{&constraint, index, r, static_cast<int>(ids.size()), {}, constraint.length_scale(r), constraint.unilateral()};
    unilateral_rows_ = unilateral_rows_ || row.unilateral != 0;
    for (int k = 0; k < kMaxRowParticles; ++k) row.particle[k] = k < row.count ? ids[k] : -1;
    rows_.push_back(row);
  }
  topology_version_ = next_version();
}

void Model::rebuild_rows() {
  rows_.clear();
  unilateral_rows_ = false;
  row_offset_.clear();
  for (std::size_t c = 0; c < constraints_.size(); ++c) append_rows(static_cast<int>(c));
  topology_version_ = next_version();
}

void Model::external_forces(const Settings& settings, std::span<const Vec3> v, std::vector<Vec3>& force) const {
  const std::size_t n = particle_count();
  force.resize(n);
  for (std::size_t i = 0; i < n; ++i) force[i] = external_force(settings, i, v[i]);
}

}  // namespace lagrange
