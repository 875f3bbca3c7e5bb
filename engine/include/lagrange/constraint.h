// Holonomic constraints C(q) = 0 behind one interface. A constraint is a small group of scalar rows; each row
// touches the same particles (at most kMaxRowParticles of them) and exposes its value, its gradient and the J̇q̇
// term. Solvers consume only this interface and never ask for the concrete type; what a constraint is called, how
// it is read from and written to a scene file and how the app draws it come from its kind (constraint_kinds.h).
#pragma once

#include <cmath>

#include <memory>
#include <optional>
#include <span>
#include <string>

#include "lagrange/types.h"

namespace lagrange {

struct ConstraintKind;
struct ConstraintDef;

// The most particles one row may touch (a rod: 2; an angle between two rods: 3; a dihedral bending row: 4).
inline constexpr int kMaxRowParticles = 4;

// The gradient of one row with respect to each particle it touches: g[k] = ∂C_row/∂x_p for p = particles()[k].
struct RowGradient {
  Vec3 g[kMaxRowParticles];
  Vec3& operator[](std::size_t k) { return g[k]; }
  const Vec3& operator[](std::size_t k) const { return g[k]; }
};

// Where evaluate() writes a row's gradient: a RowGradient, or a solver's packed array of rows (row_system.h), where
// a rod's row takes two slots whatever kMaxRowParticles is. Made from a reference or from the first of at least as
// many slots as the row has particles, so a caller cannot hand a constraint a null buffer: callers that need the
// value alone call Constraint::value().
class GradientSlots {
 public:
  GradientSlots(RowGradient& gradient) : g_(gradient.g) {}  // NOLINT: implicit on purpose
  explicit GradientSlots(Vec3& first) : g_(&first) {}
  Vec3& operator[](std::size_t k) const { return g_[k]; }

 private:
  Vec3* g_;
};
class ConstGradientSlots {
 public:
  ConstGradientSlots(const RowGradient& gradient) : g_(gradient.g) {}  // NOLINT: implicit on purpose
  explicit ConstGradientSlots(const Vec3& first) : g_(&first) {}
  const Vec3& operator[](std::size_t k) const { return g_[k]; }

 private:
  const Vec3* g_;
};

// What the app draws for a constraint, as plain data: it needs no idea of the constraint's type.
enum class Shape {
  Segment,  // a rod between the constraint's two particles
  Point,    // a fixed point the particle is held at (`point`)
  Line,     // a fixed straight line through `point` along the unit vector `axis` (a wire)
  Plane,    // a fixed plane through `point` with the unit normal `axis`
  Cable,    // a cable between the constraint's two particles: taut or slack (measure.h, cable_slack)
};
struct Drawing {
  Shape shape = Shape::Segment;
  Vec3 point{0.0};
  Vec3 axis{0.0};
};

class Constraint {
 public:
  virtual ~Constraint() = default;
  virtual std::unique_ptr<Constraint> clone() const = 0;

  // Number of scalar equations (rows).
  virtual int rows() const = 0;
  // Indices of the particles this constraint touches (at most kMaxRowParticles); every row uses all of them.
  virtual std::span<const int> particles() const = 0;

  // C_row(x); writes dC_row/dx_p into grad[k] for p = particles()[k]. x holds every particle's position.
  virtual double evaluate(int row, std::span<const Vec3> x, GradientSlots grad) const = 0;
  // C_row(x) alone (convergence checks, drawing, reports); the default calls evaluate() with a scratch gradient.
  virtual double value(int row, std::span<const Vec3> x) const;
  // The velocity-product term of C̈ = J a + J̇ q̇, i.e. (d/dt ∇C_row) · v.
  virtual double jdot_qdot(int row, std::span<const Vec3> x, std::span<const Vec3> v) const = 0;

  // Solve this row alone: the λ with C_row(x + λ e) = 0, where e[k] is the displacement of particles()[k] per
  // unit λ. Returns the root of smaller magnitude (the larger one flips the constraint: seed 000), or nothing
  // when no real root exists. The default runs a scalar Newton iteration.
  virtual std::optional<double> lone_root(int row, std::span<const Vec3> x, ConstGradientSlots e) const;

  // 0 (the default): every row holds C = 0. +1: C ≥ 0 and the multiplier only pushes (λ ≥ 0). −1: C ≤ 0 and λ ≤ 0
  // (a cable written as a rod, C = |x_a − x_b| − L: it only pulls). Solvers keep C λ = 0 (docs/physics.md).
  virtual int unilateral() const { return 0; }

  // Length that makes |C_row| dimensionless for tolerances and reports (the rod length for a distance).
  virtual double length_scale(int row) const = 0;

  // The kind's table entry (name, file format, drawing shape, role), the data this constraint was made from (the
  // inverse of ConstraintKind::create: write_scene saves it), and where the app draws it.
  virtual const ConstraintKind& kind() const = 0;
  virtual ConstraintDef definition() const = 0;
  virtual Drawing drawing() const = 0;

  // What the kind's role (KindRole, constraint_kinds.h) promises beyond the rows, for code that asks the role and
  // not the type: a rod's length (the row systems pack it beside the rod's ends), a pin's point (the mouse's pin
  // moves it every step). Only the kind with that role overrides them; asking another kind is a bug, and throws.
  virtual double length() const;
  virtual Vec3 point() const;
  virtual void set_point(Vec3 point);

  // Softness, the same for every row (docs/physics.md, "Compliance"). compliance α in m/N (C in metres, λ in
  // newtons): the row holds C + α λ = 0, i.e. it is a spring of stiffness 1/α; 0 (the default) is a rigid row.
  // damping β in N·s/m acts along a compliant row (force −β Ċ); rigid rows ignore it. Set both before
  // Model::add_constraint, or later through Model::set_compliance.
  double compliance() const { return compliance_; }
  double damping() const { return damping_; }
  void set_compliance(double compliance, double damping = 0.0) {
    compliance_ = compliance;
    damping_ = damping;
  }
  // A tool row (the mouse's pin) is not part of the scene: max |C|, max |J v|, the spring energy and the CSV's
  // violation skip it, the work its force does is reported as the mouse's (World::work()), and a saved scene
  // leaves it out.
  bool tool() const { return tool_; }
  void set_tool(bool tool) { tool_ = tool; }

 private:
  double compliance_ = 0.0;
  double damping_ = 0.0;
  bool tool_ = false;
};

// Rod of fixed length between two particles: C = |x_a − x_b| − length (length units, so λ is a force).
// Seeds 000/002/003 write the same constraint as |x_a − x_b|² − length²; the multipliers differ by the factor
// 2|x_a − x_b| and forces agree (docs/physics.md).
class DistanceConstraint final : public Constraint {
 public:
  DistanceConstraint(int a, int b, double length);
  std::unique_ptr<Constraint> clone() const override { return std::make_unique<DistanceConstraint>(*this); }
  int rows() const override { return 1; }
  std::span<const int> particles() const override { return ids_; }
  // The formulas, on the two end positions (and the two ends' moves per unit multiplier): the row systems call them
  // on their own packed copy of every rod's ends and length, so a rod row costs no virtual call and no pointer chase.
  static double value_of(const Vec3& xa, const Vec3& xb, double length) { return glm::length(xa - xb) - length; }
  static double evaluate_of(const Vec3& xa, const Vec3& xb, double length, Vec3& ga, Vec3& gb) {
    const Vec3 r = xa - xb;
    const double len = glm::length(r);
    // Coincident particles have no direction; any unit vector keeps the gradient finite.
    const Vec3 n = len > 0.0 ? r * (1.0 / len) : Vec3(1.0, 0.0, 0.0);
    ga = n;
    gb = -n;
    return len - length;
  }
  // The root of |r + λ d| = L (r = x_a − x_b, d = e_a − e_b) of smaller magnitude, if real.
  static std::optional<double> lone_root_of(const Vec3& xa, const Vec3& xb, const Vec3& ea, const Vec3& eb,
                                            double length) {
    const Vec3 r = xa - xb;
    const Vec3 d = ea - eb;
    const double a = glm::dot(d, d);
    const double b = glm::dot(r, d);  // half the linear coefficient
    const double c = glm::dot(r, r) - length * length;
    if (a == 0.0) {
      if (c == 0.0) return 0.0;
      return std::nullopt;  // neither end can move
    }
    const double disc = b * b - a * c;
    if (disc < 0.0) return std::nullopt;  // the line r + λ d misses the sphere |r| = L: no real root
    // Smaller-magnitude root, written so that nothing cancels: λ = −c / (b + sign(b) √disc).
    const double q = b + std::copysign(std::sqrt(disc), b);
    if (q == 0.0) return 0.0;  // b = 0 and disc = 0 imply c = 0
    return -c / q;
  }
  double evaluate(int, std::span<const Vec3> x, GradientSlots grad) const override {
    return evaluate_of(x[ids_[0]], x[ids_[1]], length_, grad[0], grad[1]);
  }
  double value(int, std::span<const Vec3> x) const override { return value_of(x[ids_[0]], x[ids_[1]], length_); }
  double jdot_qdot(int row, std::span<const Vec3> x, std::span<const Vec3> v) const override;
  std::optional<double> lone_root(int, std::span<const Vec3> x, ConstGradientSlots e) const override {
    return lone_root_of(x[ids_[0]], x[ids_[1]], e[0], e[1], length_);
  }
  double length_scale(int) const override { return length_; }
  const ConstraintKind& kind() const override;
  ConstraintDef definition() const override;
  Drawing drawing() const override { return {Shape::Segment, Vec3(0.0), Vec3(0.0)}; }
  double length() const override { return length_; }

 private:
  int ids_[2];
  double length_;
};

// A particle held at a world point, one row per coordinate (x, y in 2D; x, y, z in 3D): C_k = x_p[k] − point[k],
// exactly as the pivot in seeds 002/003. The point may move between steps (the mouse's pin).
class PinConstraint final : public Constraint {
 public:
  PinConstraint(int particle, Vec3 point, int dimension);
  std::unique_ptr<Constraint> clone() const override { return std::make_unique<PinConstraint>(*this); }
  int rows() const override { return dimension_; }
  std::span<const int> particles() const override { return std::span<const int>(&particle_, 1); }
  double evaluate(int row, std::span<const Vec3> x, GradientSlots grad) const override;
  double value(int row, std::span<const Vec3> x) const override;
  double jdot_qdot(int, std::span<const Vec3>, std::span<const Vec3>) const override { return 0.0; }
  std::optional<double> lone_root(int row, std::span<const Vec3> x, ConstGradientSlots e) const override;
  double length_scale(int) const override { return 1.0; }
  const ConstraintKind& kind() const override;
  ConstraintDef definition() const override;
  Drawing drawing() const override { return {Shape::Point, point_, Vec3(0.0)}; }

  Vec3 point() const override { return point_; }
  void set_point(Vec3 point) override { point_ = point; }

  int particle() const { return particle_; }

 private:
  int particle_;
  Vec3 point_;
  int dimension_;
};

}  // namespace lagrange
