// Every constraint kind, and the table that lists them (constraint_kinds.h). A kind is its class (value, gradient,
// J̇q̇, lone root, drawing, definition) and its entry (name, role, arity, rows, file keys, checks, construction); the
// scene reader and writer, make_world, the app and the docs read the table. The derivations are in docs/physics.md.
//
// distance (seed 000 eq. `mu`, seed 004): C = |r| − L with r = x_a − x_b, n = r / |r|.
//   ∂C/∂x_a = n, ∂C/∂x_b = −n.
//   Ċ = n·u with u = v_a − v_b;  C̈ = n·(a_a − a_b) + (|u|² − (n·u)²) / |r|, so J̇q̇ = (|u|² − (n·u)²) / |r|.
//   Alone along a fixed direction: |r + λ e|² = L² with e = e_a − e_b is a quadratic
//   (e·e) λ² + 2 (r·e) λ + (r·r − L²) = 0; the root of smaller magnitude keeps the rod's orientation, the other
//   one mirrors it (seed 000 "UncoupledMu", seed 003's discarded second solution).
// pin (seeds 002/003): C_k = x_p[k] − point[k], gradient the k-th unit vector, J̇q̇ = 0.
// line (a bead on a straight wire through p along the unit vector d): C_k = n_k · (x − p) for an orthonormal basis
//   n_k of the directions across the wire (two in 3D, one in 2D: n = (−d_y, d_x, 0)). Linear in x: ∇C_k = n_k,
//   J̇q̇ = 0, and the lone root is exact.
// plane (a particle kept in the plane through p with unit normal n): C = n · (x − p), ∇C = n, J̇q̇ = 0.
// cable (a string of length L: |x_a − x_b| ≤ L): the rod's row C = |r| − L with its gradient, J̇q̇ and lone root,
//   bounded: C ≤ 0 and λ ≤ 0 (tension only, the rod's sign convention), C λ = 0 (unilateral() = −1). Taut, it is a
//   rod; slack, it does nothing (docs/physics.md, "Unilateral rows").
#include "lagrange/constraint_kinds.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "lagrange/text.h"

namespace lagrange {

std::optional<double> ConstraintDef::number(std::string_view key) const {
  const auto it = values.find(key);
  if (it == values.end()) return std::nullopt;
  return it->second.x;
}

std::optional<Vec3> ConstraintDef::vector(std::string_view key) const {
  const auto it = values.find(key);
  if (it == values.end()) return std::nullopt;
  return it->second;
}

namespace {

// Shorter rods are typos: relative to positions up to 1e9 they are below rounding, and 1/L overflows.
constexpr double kMinLength = 1e-6;

std::string index_text(int i) { return std::to_string(i); }

// Where a particle-held kind (pin, line, plane) puts its point when the file gives none: the particle's start.
Vec3 point_or_start(const ConstraintDef& def, std::span<const ParticleDef> particles) {
  return def.vector("point").value_or(particles[def.particles[0]].position);
}

std::optional<FieldProblem> held_particle_fixed(const ConstraintDef& def, std::span<const ParticleDef> particles,
                                                const char* noun) {
  const int p = def.particles[0];
  if (!particles[p].fixed) return std::nullopt;
  return FieldProblem{"", std::string("holds particle ") + index_text(p) + ", which is fixed, so the " + noun +
                              " can never do anything; remove the " + noun + " or the \"fixed\""};
}

std::optional<FieldProblem> unit_problem(const ConstraintDef& def, const char* key) {
  const Vec3 v = def.vector(key).value_or(Vec3(0.0));
  if (!(glm::length(v) >= 1e-9)) return FieldProblem{key, "must be a non-zero vector (its direction is used)"};
  return std::nullopt;
}

// ---- distance -------------------------------------------------------------------------------------------------

const KindField kDistanceFields[] = {
    {"length", FieldType::Number, false, "rod length in m; missing: the particles' initial distance"},
};

std::optional<FieldProblem> check_distance(const ConstraintDef& def, std::span<const ParticleDef> particles, int) {
  const int a = def.particles[0], b = def.particles[1];
  if (const auto length = def.number("length"); length && (!std::isfinite(*length) || *length < kMinLength))
    return FieldProblem{"length", "must be a number of at least 1e-6 (m), got " + format_number(*length)};
  if (!def.has("length") && particles[a].position == particles[b].position)
    return FieldProblem{"length", "is missing and particles " + index_text(a) + " and " + index_text(b) +
                                      " start at the same position, so the initial distance is 0; give a length"};
  if (!def.has("length") && !(glm::length(particles[a].position - particles[b].position) >= kMinLength))
    return FieldProblem{"length", "is missing and particles " + index_text(a) + " and " + index_text(b) +
                                      " start less than 1e-6 apart; give a length"};
  if (particles[a].fixed && particles[b].fixed)
    return FieldProblem{"", "both particles (" + index_text(a) + " and " + index_text(b) +
                                ") are fixed, so this rod can never move anything; remove it or unfix one of them"};
  return std::nullopt;
}

std::unique_ptr<Constraint> create_distance(const ConstraintDef& def, std::span<const ParticleDef> particles, int) {
  const int a = def.particles[0], b = def.particles[1];
  const double length =
      def.number("length").value_or(glm::length(particles[a].position - particles[b].position));
  return std::make_unique<DistanceConstraint>(a, b, length);
}

// ---- pin ------------------------------------------------------------------------------------------------------

const KindField kPinFields[] = {
    {"point", FieldType::Vector, false, "where the particle is held; missing: its initial position"},
};

std::optional<FieldProblem> check_pin(const ConstraintDef& def, std::span<const ParticleDef> particles, int) {
  const int p = def.particles[0];
  if (!particles[p].fixed) return std::nullopt;
  return FieldProblem{"", "pins particle " + index_text(p) + ", which is fixed, so the pin can never do anything; "
                          "remove the pin or the \"fixed\""};
}

std::unique_ptr<Constraint> create_pin(const ConstraintDef& def, std::span<const ParticleDef> particles,
                                       int dimension) {
  return std::make_unique<PinConstraint>(def.particles[0], point_or_start(def, particles), dimension);
}

// ---- line -----------------------------------------------------------------------------------------------------

// A particle held on a fixed affine subspace through `point`: rows C_k = n_k · (x − point) for the unit vectors n_k
// across it (a line: two in 3D, one in 2D; a plane: its normal). Linear in x: ∇C_k = n_k, J̇q̇ = 0, exact lone roots.
class AffineConstraint : public Constraint {
 public:
  int rows() const override { return rows_; }
  std::span<const int> particles() const override { return std::span<const int>(&particle_, 1); }
  double evaluate(int row, std::span<const Vec3> x, GradientSlots grad) const override {
    grad[0] = normal_[row];
    return glm::dot(normal_[row], x[particle_] - point_);
  }
  double value(int row, std::span<const Vec3> x) const override {
    return glm::dot(normal_[row], x[particle_] - point_);
  }
  double jdot_qdot(int, std::span<const Vec3>, std::span<const Vec3>) const override { return 0.0; }
  std::optional<double> lone_root(int row, std::span<const Vec3> x, ConstGradientSlots e) const override {
    const double slope = glm::dot(normal_[row], e[0]);
    const double c = value(row, x);
    if (slope == 0.0) return c == 0.0 ? std::optional<double>(0.0) : std::nullopt;
    return -c / slope;
  }
  double length_scale(int) const override { return 1.0; }

 protected:
  AffineConstraint(int particle, Vec3 point, Vec3 given) : particle_(particle), point_(point), given_(given) {}
  // The definition: the particle, the point, and the direction or normal as given (normalizing it again could
  // change the last bit of a saved file).
  ConstraintDef definition_as(const char* key) const {
    ConstraintDef def;
    def.type = kind().name;
    def.particles = {particle_};
    def.set("point", point_);
    def.set(key, given_);
    return def;
  }

  int particle_;
  Vec3 point_, given_;
  Vec3 normal_[2];
  int rows_ = 1;
};

class LineConstraint final : public AffineConstraint {
 public:
  LineConstraint(int particle, Vec3 point, Vec3 direction, int dimension)
      : AffineConstraint(particle, point, direction), direction_(glm::normalize(direction)) {
    rows_ = dimension - 1;
    if (dimension == 2) {
      normal_[0] = Vec3(-direction_.y, direction_.x, 0.0);
    } else {
      // Any orthonormal pair across the wire: start from the axis least aligned with it.
      const Vec3 d = direction_;
      const Vec3 axis = std::abs(d.x) <= std::abs(d.y) && std::abs(d.x) <= std::abs(d.z) ? Vec3(1, 0, 0)
                        : std::abs(d.y) <= std::abs(d.z)                                 ? Vec3(0, 1, 0)
                                                                                         : Vec3(0, 0, 1);
      normal_[0] = glm::normalize(glm::cross(d, axis));
      normal_[1] = glm::cross(d, normal_[0]);
    }
  }
  std::unique_ptr<Constraint> clone() const override { return std::make_unique<LineConstraint>(*this); }
  const ConstraintKind& kind() const override;
  ConstraintDef definition() const override { return definition_as("direction"); }
  Drawing drawing() const override { return {Shape::Line, point_, direction_}; }

 private:
  Vec3 direction_;
};

const KindField kLineFields[] = {
    {"direction", FieldType::Vector, true, "the wire's direction (any length; normalized)"},
    {"point", FieldType::Vector, false, "a point of the wire; missing: the particle's initial position"},
};

std::optional<FieldProblem> check_line(const ConstraintDef& def, std::span<const ParticleDef> particles, int) {
  if (auto problem = unit_problem(def, "direction")) return problem;
  return held_particle_fixed(def, particles, "line");
}

std::unique_ptr<Constraint> create_line(const ConstraintDef& def, std::span<const ParticleDef> particles,
                                        int dimension) {
  return std::make_unique<LineConstraint>(def.particles[0], point_or_start(def, particles),
                                          def.vector("direction").value_or(Vec3(1, 0, 0)), dimension);
}

// ---- plane ----------------------------------------------------------------------------------------------------

class PlaneConstraint final : public AffineConstraint {
 public:
  PlaneConstraint(int particle, Vec3 point, Vec3 normal) : AffineConstraint(particle, point, normal) {
    normal_[0] = glm::normalize(normal);
  }
  std::unique_ptr<Constraint> clone() const override { return std::make_unique<PlaneConstraint>(*this); }
  const ConstraintKind& kind() const override;
  ConstraintDef definition() const override { return definition_as("normal"); }
  Drawing drawing() const override { return {Shape::Plane, point_, normal_[0]}; }
};

const KindField kPlaneFields[] = {
    {"normal", FieldType::Vector, true, "the plane's normal (any length; normalized)"},
    {"point", FieldType::Vector, false, "a point of the plane; missing: the particle's initial position"},
};

std::optional<FieldProblem> check_plane(const ConstraintDef& def, std::span<const ParticleDef> particles, int) {
  if (auto problem = unit_problem(def, "normal")) return problem;
  return held_particle_fixed(def, particles, "plane");
}

std::unique_ptr<Constraint> create_plane(const ConstraintDef& def, std::span<const ParticleDef> particles, int) {
  return std::make_unique<PlaneConstraint>(def.particles[0], point_or_start(def, particles),
                                           def.vector("normal").value_or(Vec3(0, 0, 1)));
}

// ---- cable ------------------------------------------------------------------------------------------------------

class CableConstraint final : public Constraint {
 public:
  CableConstraint(int a, int b, double length) : ids_{a, b}, length_(length) {}
  std::unique_ptr<Constraint> clone() const override { return std::make_unique<CableConstraint>(*this); }
  int rows() const override { return 1; }
  std::span<const int> particles() const override { return ids_; }
  double evaluate(int, std::span<const Vec3> x, GradientSlots grad) const override {
    return DistanceConstraint::evaluate_of(x[ids_[0]], x[ids_[1]], length_, grad[0], grad[1]);
  }
  double value(int, std::span<const Vec3> x) const override {
    return DistanceConstraint::value_of(x[ids_[0]], x[ids_[1]], length_);
  }
  double jdot_qdot(int, std::span<const Vec3> x, std::span<const Vec3> v) const override {
    return DistanceConstraint(ids_[0], ids_[1], length_).jdot_qdot(0, x, v);
  }
  std::optional<double> lone_root(int, std::span<const Vec3> x, ConstGradientSlots e) const override {
    return DistanceConstraint::lone_root_of(x[ids_[0]], x[ids_[1]], e[0], e[1], length_);
  }
  double length_scale(int) const override { return length_; }
  int unilateral() const override { return -1; }
  const ConstraintKind& kind() const override;
  ConstraintDef definition() const override {
    ConstraintDef def;
    def.type = kind().name;
    def.particles = {ids_[0], ids_[1]};
    def.set("length", length_);
    return def;
  }
  Drawing drawing() const override { return {Shape::Cable, Vec3(0.0), Vec3(0.0)}; }

 private:
  int ids_[2];
  double length_;
};

const KindField kCableFields[] = {
    {"length", FieldType::Number, false, "the longest the cable lets the particles be apart, in m; missing: their "
                                         "initial distance"},
};

std::optional<FieldProblem> check_cable(const ConstraintDef& def, std::span<const ParticleDef> particles, int d) {
  if (auto problem = check_distance(def, particles, d)) {
    if (problem->field.empty()) problem->text.replace(problem->text.find("rod"), 3, "cable");
    return problem;
  }
  return std::nullopt;
}

std::unique_ptr<Constraint> create_cable(const ConstraintDef& def, std::span<const ParticleDef> particles, int) {
  const int a = def.particles[0], b = def.particles[1];
  const double length =
      def.number("length").value_or(glm::length(particles[a].position - particles[b].position));
  return std::make_unique<CableConstraint>(a, b, length);
}

// ---- the table ------------------------------------------------------------------------------------------------

int one_row(int) { return 1; }
int one_per_axis(int dimension) { return dimension; }
int across_a_line(int dimension) { return dimension - 1; }

const ConstraintKind kKinds[] = {
    {"distance", "a rod of fixed length between two particles", "rod", KindRole::Rod, 2, Shape::Segment,
     kDistanceFields, one_row, check_distance, create_distance},
    {"pin", "a particle held at a fixed point", "pin", KindRole::Pin, 1, Shape::Point, kPinFields, one_per_axis,
     check_pin, create_pin},
    {"line", "a particle that slides on a fixed straight line (a bead on a wire)", "line", KindRole::Line, 1,
     Shape::Line, kLineFields, across_a_line, check_line, create_line},
    {"plane", "a particle that stays in a fixed plane", "plane", KindRole::Plane, 1, Shape::Plane, kPlaneFields,
     one_row, check_plane, create_plane},
    {"cable", "a string between two particles: at most `length` apart, pulls when taut, slack otherwise", "cable",
     KindRole::Other, 2, Shape::Cable, kCableFields, one_row, check_cable, create_cable},
};

}  // namespace

const ConstraintKind& DistanceConstraint::kind() const { return kKinds[0]; }
const ConstraintKind& PinConstraint::kind() const { return kKinds[1]; }
const ConstraintKind& LineConstraint::kind() const { return kKinds[2]; }
const ConstraintKind& PlaneConstraint::kind() const { return kKinds[3]; }
const ConstraintKind& CableConstraint::kind() const { return kKinds[4]; }

std::span<const ConstraintKind> constraint_kinds() { return kKinds; }

const ConstraintKind* find_kind(std::string_view name) {
  for (const ConstraintKind& kind : kKinds)
    if (name == kind.name) return &kind;
  return nullptr;
}

std::vector<std::string> kind_names() {
  std::vector<std::string> names;
  for (const ConstraintKind& kind : kKinds) names.emplace_back(kind.name);
  return names;
}

const ConstraintKind& kind_of(KindRole role) {
  const auto it = std::find_if(std::begin(kKinds), std::end(kKinds),
                               [role](const ConstraintKind& kind) { return kind.role == role; });
  return *it;  // every named role is one kind's (tests/engine/test_constraint_kinds.cpp); never asked for Other
}

const char* kind_name(KindRole role) { return kind_of(role).name; }

bool has_role(const ConstraintDef& def, KindRole role) {
  const ConstraintKind* kind = find_kind(def.type);
  return kind && kind->role == role;
}

int rows_of(const ConstraintDef& def, int dimension) {
  const ConstraintKind* kind = find_kind(def.type);
  return kind ? kind->rows(dimension) : 0;
}

std::optional<FieldProblem> constraint_problem(const ConstraintDef& def, std::span<const ParticleDef> particles,
                                               int dimension) {
  const ConstraintKind* kind = find_kind(def.type);
  if (!kind) return FieldProblem{"type", "unknown constraint type \"" + printable(def.type) + "\""};
  const std::size_t arity = static_cast<std::size_t>(kind->arity);
  const bool one = arity == 1;
  if (def.particles.size() != arity)
    return FieldProblem{one ? "particle" : "particles",
                        one ? "needs one particle index"
                            : "must list exactly " + std::to_string(arity) + " particle indices"};
  for (std::size_t k = 0; k < arity; ++k) {
    const int i = def.particles[k];
    if (i >= 0 && static_cast<std::size_t>(i) < particles.size()) continue;
    return FieldProblem{one ? "particle" : "particles[" + std::to_string(k) + "]",
                        "particle index " + index_text(i) + " is out of range (the scene has " +
                            std::to_string(particles.size()) + " particles, numbered 0 to " +
                            std::to_string(particles.size() - 1) + ")"};
  }
  for (std::size_t k = 1; k < arity; ++k)
    for (std::size_t j = 0; j < k; ++j)
      if (def.particles[j] == def.particles[k])
        return FieldProblem{"particles", std::string("a ") + kind->noun + " needs " +
                                             (arity == 2 ? std::string("two") : std::to_string(arity)) +
                                             " different particles, got " + index_text(def.particles[k]) + " twice"};
  for (const KindField& field : kind->fields) {
    const auto value = def.vector(field.key);
    if (!value) {
      if (field.required) return FieldProblem{"", std::string("missing required key \"") + field.key + "\""};
      continue;
    }
    if (!finite(*value)) return FieldProblem{field.key, "must be finite"};
    if (field.type == FieldType::Vector && dimension == 2 && value->z != 0.0)
      return FieldProblem{std::string(field.key) + "[2]", "must be 0 in a 2D scene, got " + format_number(value->z) +
                                                              " (set \"dimension\": 3 for a 3D scene)"};
  }
  if (!(def.compliance >= 0.0 && std::isfinite(def.compliance)))
    return FieldProblem{"compliance", "must be a number >= 0 (m/N; 0 is rigid), got " + format_number(def.compliance)};
  if (def.compliance > 0.0 && !(def.compliance >= 1e-300))
    return FieldProblem{"compliance", "must be 0 (rigid) or at least 1e-300 m/N (a stiffness 1/compliance that fits "
                                      "in a double), got " + format_number(def.compliance)};
  if (!(def.damping >= 0.0 && std::isfinite(def.damping)))
    return FieldProblem{"damping", "must be a number >= 0 (N s/m), got " + format_number(def.damping)};
  return kind->check(def, particles, dimension);
}

// ---- distance and pin: the classes declared in constraint.h ---------------------------------------------------

DistanceConstraint::DistanceConstraint(int a, int b, double length) : ids_{a, b}, length_(length) {}

double DistanceConstraint::jdot_qdot(int, std::span<const Vec3> x, std::span<const Vec3> v) const {
  const Vec3 r = x[ids_[0]] - x[ids_[1]];
  const double len = glm::length(r);
  if (len == 0.0) return 0.0;
  const Vec3 u = v[ids_[0]] - v[ids_[1]];
  const double un = glm::dot(u, r) / len;
  return (glm::dot(u, u) - un * un) / len;
}

ConstraintDef DistanceConstraint::definition() const {
  ConstraintDef def;
  def.type = kind().name;
  def.particles = {ids_[0], ids_[1]};
  def.set("length", length_);
  return def;
}

PinConstraint::PinConstraint(int particle, Vec3 point, int dimension)
    : particle_(particle), point_(point), dimension_(dimension) {}

double PinConstraint::value(int row, std::span<const Vec3> x) const { return x[particle_][row] - point_[row]; }

double PinConstraint::evaluate(int row, std::span<const Vec3> x, GradientSlots grad) const {
  grad[0] = Vec3(0.0);
  grad[0][row] = 1.0;
  return x[particle_][row] - point_[row];
}

std::optional<double> PinConstraint::lone_root(int row, std::span<const Vec3> x, ConstGradientSlots e) const {
  const double c = x[particle_][row] - point_[row];
  const double slope = e[0][row];
  if (slope == 0.0) {
    if (c == 0.0) return 0.0;
    return std::nullopt;
  }
  return -c / slope;
}

ConstraintDef PinConstraint::definition() const {
  ConstraintDef def;
  def.type = kind().name;
  def.particles = {particle_};
  def.set("point", point_);
  return def;
}

}  // namespace lagrange
