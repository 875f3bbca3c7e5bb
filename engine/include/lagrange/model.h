// The model and the state of a simulation, kept apart as MuJoCo keeps mjModel and mjData:
//   Model — what does not change as time runs: dimension, settings, particle masses, constraints and their rows.
//   State — what does: positions, velocities, time, step count, the last substep's row forces and the work done
//           from outside. A plain value: copy it with `=`, step both copies against the same model and they stay
//           bit-identical; save it (write_scene) and load it back to the same bits.
// Solvers step a State against a Model (solver.h, StepContext); World (world.h) bundles one of each with a solver
// for convenience.
#pragma once

#include <memory>
#include <span>
#include <stdexcept>
#include <vector>

#include "lagrange/constraint.h"
#include "lagrange/contacts.h"
#include "lagrange/diagnostics.h"
#include "lagrange/settings.h"
#include "lagrange/types.h"

namespace lagrange {

// Thrown for invalid arguments to the engine API (a zero mass, an out-of-range index, bad settings).
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct SolverInfo;

// One scalar constraint row, flattened from the constraints for the solvers.
struct Row {
  const Constraint* constraint;  // owned by the model
  int constraint_index;
  int row;       // row within the constraint
  int count;     // number of particles
  int particle[kMaxRowParticles];
  double scale;  // length_scale(row)
  // 0: C = 0. +1: C ≥ 0 with λ ≥ 0 (a contact: it only pushes). −1: C ≤ 0 with λ ≤ 0 (a cable, written as a rod
  // C = |x_a − x_b| − L: it only pulls). Constraint::unilateral().
  int unilateral = 0;
};

// A topology version no model or row set has had: solvers key their cached patterns on it (Model::topology_version).
unsigned new_topology_version();

class Model {
 public:
  explicit Model(int dimension = 3, Settings settings = {});
  Model(const Model& other);  // copies every constraint
  Model& operator=(const Model& other);
  Model(Model&&) noexcept;
  Model& operator=(Model&&) noexcept;
  ~Model();

  int dimension() const { return dimension_; }
  const Settings& settings() const { return settings_; }
  // Validates (throws Error with the message of validate()). Switching solvers is World's business.
  void set_settings(const Settings& settings);
  const SolverInfo& solver_info() const { return *solver_info_; }

  // --- particles ------------------------------------------------------------------------------------------------
  std::size_t particle_count() const { return inv_mass_.size(); }
  double mass(std::size_t i) const { return mass_[i]; }   // as given; ignored for a fixed particle
  bool fixed(std::size_t i) const { return inv_mass_[i] == 0.0; }
  std::span<const double> inv_mass() const { return inv_mass_; }  // 0 for fixed particles
  // Throws Error for a non-positive or non-finite mass of a particle that is not fixed.
  int add_particle(double mass, bool fixed);
  // The particle's collision radius (m; 0: a point). Particles collide with obstacles, and with each other when
  // contacts().particle_contacts(), by the sum of their radii.
  double radius(std::size_t i) const { return radius_[i]; }
  std::span<const double> radii() const { return radius_; }
  // Throws Error for a negative or non-finite radius.
  void set_radius(int particle, double radius);
  // Changes a particle's mass, or fixes it (mass kept for when it is freed again); the drag controller frees a
  // fixed particle while it is dragged. Throws Error like add_particle.
  void set_mass(int particle, double mass, bool fixed);

  // --- constraints ----------------------------------------------------------------------------------------------
  // Takes ownership; throws Error when it names a particle that does not exist or the same particle twice, or has
  // a non-positive length scale, a negative compliance.
  int add_constraint(std::unique_ptr<Constraint> constraint);
  void remove_constraint(int index);  // later constraints shift down by one
  // Makes every row of a constraint compliant: C + α λ = 0 with damping β along it (Constraint::compliance()).
  // α = 0 makes it rigid again. Throws Error for a negative or non-finite value.
  void set_compliance(int constraint_index, double compliance, double damping = 0.0);
  std::span<const std::unique_ptr<Constraint>> constraints() const { return constraints_; }
  Constraint& constraint(int index) { return *constraints_.at(index); }
  const Constraint& constraint(int index) const { return *constraints_.at(index); }

  // --- rows -----------------------------------------------------------------------------------------------------
  std::span<const Row> rows() const { return rows_; }
  int row_offset(int constraint_index) const { return row_offset_[constraint_index]; }  // the constraint's first row
  // Rows whose constraint has compliance > 0, in row order (empty in most scenes: rigid rods cost nothing extra).
  std::span<const int> compliant_rows() const { return compliant_rows_; }
  bool has_tool_rows() const { return tool_rows_; }
  // Increases whenever particles or rows are added or removed, so solvers know to rebuild cached patterns.
  unsigned topology_version() const { return topology_version_; }
  // Re-reads every constraint's compliance and tool flag (a caller that set them on a constraint directly).
  void refresh_compliance();

  // --- contacts -------------------------------------------------------------------------------------------------
  // The obstacles and contact coefficients (contacts.h). Throws Error with the problem when one is invalid.
  const ContactSettings& contacts() const { return contacts_; }
  void set_contacts(ContactSettings contacts);
  // Whether any row is unilateral (a cable).
  bool has_unilateral_rows() const { return unilateral_rows_; }

  // --- forces ---------------------------------------------------------------------------------------------------
  // Gravity and linear drag at velocities v under `settings` (the model's own, or a variant: posing has none).
  void external_forces(const Settings& settings, std::span<const Vec3> v, std::vector<Vec3>& force) const;
  // The same force on particle i alone (0 on a fixed one), for loops that use it at once.
  Vec3 external_force(const Settings& settings, std::size_t i, const Vec3& v) const {
    if (fixed(i)) return Vec3(0.0);
    const double m = mass_[i];
    return m * settings.gravity - (settings.damping * m) * v;
  }

 private:
  void append_rows(int constraint_index);
  void rebuild_rows();

  int dimension_;
  Settings settings_;
  const SolverInfo* solver_info_ = nullptr;
  std::vector<double> mass_, inv_mass_, radius_;
  ContactSettings contacts_;
  bool unilateral_rows_ = false;
  std::vector<std::unique_ptr<Constraint>> constraints_;
  std::vector<Row> rows_;
  std::vector<int> row_offset_;
  std::vector<int> compliant_rows_;
  bool tool_rows_ = false;
  unsigned topology_version_ = 0;
};

struct State {
  std::vector<Vec3> position;
  std::vector<Vec3> velocity;
  // Constraint force per row from the last substep, in newtons: the force on particle p is row_force[r] · ∂C_r/∂x_p.
  // For a rod (C = |x_a − x_b| − L) a negative value is tension. Shown by the app; the projection starts the next
  // substep from these multipliers when they are close (solver_projection.cpp).
  std::vector<double> row_force;
  // Projection of a large system (solver_projection.cpp, "Newton after a lost Newton"): in how many substeps in a
  // row its Newton along q's gradients was lost or left out since it last found the root; 0 when it found the root
  // the last time it ran. Kept in the state so that a saved run continues bit for bit.
  int newton_lost = 0;
  long step = 0;
  double time = 0.0;
  // The clock: time = clock_time + (step − clock_step) · dt, reset when dt changes, so t never accumulates rounding.
  double clock_time = 0.0;
  long clock_step = 0;
  Work work;  // done from outside since the start (diagnostics.h)
  // The last step's contacts and the impulse each obstacle took (contacts.h); empty in a scene without contacts.
  ContactState contacts;
  // The total energy when the run began (before the first step), kept so that a run continued from a saved state
  // reports the same energy drift as an uninterrupted one. NaN until set.
  double start_energy = NAN;
};

}  // namespace lagrange
