// The one table of constraint kinds, like the solver table (solver.h): for every kind its name, how many particles
// it joins, how many rows it has, the keys it reads from and writes to a scene file, its checks, how it is built and
// how the app draws it, and its role: what it is to code that needs to know more than its rows. The scene reader and
// writer, the checks, make_world and the docs' key lists all go through this table; adding a kind means one entry
// (and its class) in engine/src/constraint_kinds.cpp, plus its tests and docs.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "lagrange/constraint.h"
#include "lagrange/particles.h"

namespace lagrange {

// What a kind is to code outside the solvers, which asks the role and never the type, the name or the drawing shape:
// the row systems pack rods, the measurements and the period find rods and pins, the mouse moves a pin, the editor
// recognises and writes pins, wires and planes. Each named role is one kind's; a kind nobody outside the solvers asks
// about is `Other`, so a new kind needs no new role: it is one class and one table entry. What a role promises beyond
// the rows is on the Constraint interface: a rod's length(), a pin's point() and set_point().
enum class KindRole {
  Other,  // nothing outside the solvers asks what it is (kind_of / kind_name never name it)
  Rod,    // two particles at a fixed distance: C = |x_a − x_b| − length(), DistanceConstraint's formulas
  Pin,    // one particle held at a point() that may move between steps (the mouse's pin)
  Line,   // one particle on a fixed straight line (a bead on a wire)
  Plane,  // one particle in a fixed plane
};

// The kind's name, as a scene file writes it: code that writes a definition says kind_name(KindRole::Pin), so the
// name is written once, in the table.
const char* kind_name(KindRole role);

// A constraint as the scene describes it: its kind's name, its particles and the values of its kind's fields
// (numbers are stored in .x). A field left out takes the kind's default (often read off the initial positions).
struct ConstraintDef {
  std::string type = kind_name(KindRole::Rod);
  std::vector<int> particles;
  std::map<std::string, Vec3, std::less<>> values;
  double compliance = 0.0;  // m/N; 0 = rigid (docs/physics.md, "Compliance")
  double damping = 0.0;     // N·s/m along a compliant constraint

  bool has(std::string_view key) const { return values.find(key) != values.end(); }
  std::optional<double> number(std::string_view key) const;
  std::optional<Vec3> vector(std::string_view key) const;
  void set(std::string_view key, double value) { values[std::string(key)] = Vec3(value, 0.0, 0.0); }
  void set(std::string_view key, Vec3 value) { values[std::string(key)] = value; }
};

// A problem with a definition: `field` is the JSON key below the constraint ("length", "particles[1]", or "" for
// the constraint as a whole), `text` what is wrong.
struct FieldProblem {
  std::string field;
  std::string text;
};

enum class FieldType { Number, Vector };

// One key of a kind in a scene file.
struct KindField {
  const char* key;
  FieldType type;
  bool required;
  const char* description;  // for docs and messages
};

struct ConstraintKind {
  const char* name;         // "distance": the "type" in a scene file
  const char* description;  // one line
  const char* noun;         // in messages: "a rod needs two different particles"
  KindRole role;
  int arity;                // particles joined: 1 is written "particle": P, more "particles": [A, B, ...]
  Shape shape;              // how the app draws it (Drawing)
  std::span<const KindField> fields;
  int (*rows)(int dimension);
  // Checks that need the kind's meaning (a rod's length, a line's direction), after the generic ones: particle
  // indices in range and distinct, numbers finite, vectors in the scene's dimension. Nothing when valid.
  std::optional<FieldProblem> (*check)(const ConstraintDef&, std::span<const ParticleDef> particles, int dimension);
  // Builds the constraint from a checked definition (defaults read off the particles' initial positions).
  std::unique_ptr<Constraint> (*create)(const ConstraintDef&, std::span<const ParticleDef> particles, int dimension);
};

std::span<const ConstraintKind> constraint_kinds();
// The entry with this name, or nullptr.
const ConstraintKind* find_kind(std::string_view name);
// The names in table order, for messages: "distance", "pin", ...
std::vector<std::string> kind_names();
// The kind with this role.
const ConstraintKind& kind_of(KindRole role);
// Whether a definition's kind (false for an unknown type) or a constraint's kind has this role.
bool has_role(const ConstraintDef& def, KindRole role);
inline bool has_role(const Constraint& constraint, KindRole role) { return constraint.kind().role == role; }

// Every check of a definition against the scene's particles: the generic ones, then the kind's. Used by the scene
// reader and by make_world (scenes built in code go through the same checks).
std::optional<FieldProblem> constraint_problem(const ConstraintDef& def, std::span<const ParticleDef> particles,
                                               int dimension);
// Rows the definition will make in a scene of this dimension (0 for an unknown kind).
int rows_of(const ConstraintDef& def, int dimension);

}  // namespace lagrange
