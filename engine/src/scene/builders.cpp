// Chains and cloth: the one place that builds them, for scene-file generators, tests, the benchmark and the app.
//
// Every problem with a def is thrown as Error("FIELD: PROBLEM"), FIELD being the def's member name, which is also
// the generator's key in a scene file, so the loader only has to prefix the JSON path (docs/scenes.md).
#include "lagrange/builders.h"
#include "lagrange/text.h"

#include <cmath>
#include <cstdio>
#include <string>

namespace lagrange {
namespace {

// Guards against a typo allocating millions of particles; far beyond anything that runs in real time.
constexpr int kMaxChainLinks = 100000;
constexpr int kMaxClothSide = 1000;

[[noreturn]] void fail(const char* field, const std::string& problem) {
  throw Error(std::string(field) + ": " + problem);
}

void check_count(const char* field, int value, int min, int max) {
  if (value < min) fail(field, "must be at least " + std::to_string(min) + ", got " + std::to_string(value));
  if (value > max) fail(field, "must be at most " + std::to_string(max) + ", got " + std::to_string(value));
}

void check_positive(const char* field, double value) {
  if (!std::isfinite(value)) fail(field, "must be a finite number");
  if (value <= 0.0) fail(field, "must be a positive number, got " + format_number(value));
}

// A mass below a microgram is a typo (5e-324, a subnormal, made 1/m overflow and the run fail at its first step):
// 1/m stays within the 1e9 that bounds every number of a scene.
void check_mass(const char* field, double value) {
  check_positive(field, value);
  if (value < kMinMass) fail(field, "must be at least 1e-9 (kg), got " + format_number(value));
}

// Lengths below this are typos: below rounding next to positions of 1e9, and 1/L overflows.
void check_length(const char* field, double value) {
  check_positive(field, value);
  if (value < 1e-6) fail(field, "must be at least 1e-6 (m), got " + format_number(value));
}

void check_compliance(const char* field, double value) {
  if (!std::isfinite(value) || value < 0.0)
    fail(field, "must be a number >= 0 (m/N; 0 is rigid), got " + format_number(value));
  if (value > 0.0 && value < 1e-300) fail(field, "must be 0 (rigid) or at least 1e-300 m/N, got " + format_number(value));
}

void check_point(const char* field, Vec3 point) {
  if (!finite(point)) fail(field, "must have finite coordinates");
}

// The unit vector along `direction`.
Vec3 unit(const char* field, Vec3 direction) {
  if (!finite(direction)) fail(field, "must have finite coordinates");
  const double length = glm::length(direction);
  if (!(length > 0.0) || !std::isfinite(length)) fail(field, "must be a non-zero vector");
  return direction / length;
}

ConstraintDef rod(int a, int b, double length) {
  ConstraintDef c;
  c.type = kind_name(KindRole::Rod);
  c.particles = {a, b};
  c.set("length", length);
  return c;
}

}  // namespace

int append_chain(Scene& scene, const ChainDef& def) {
  check_count("links", def.links, 1, kMaxChainLinks);
  check_length("link_length", def.link_length);
  check_mass("particle_mass", def.particle_mass);
  const Vec3 direction = unit("direction", def.direction);
  const int existing = static_cast<int>(scene.particles.size());
  if (def.anchor_particle < -1) fail("anchor_particle", "must be a particle index, or -1 for none");
  if (def.anchor_particle >= existing)
    fail("anchor_particle", "particle " + std::to_string(def.anchor_particle) + " does not exist (there are " +
                                std::to_string(existing) + " particles before this chain)");

  int first = def.anchor_particle;
  Vec3 start = def.anchor;
  if (def.anchor_particle >= 0) {
    start = scene.particles[def.anchor_particle].position;
  } else {
    check_point("anchor", def.anchor);
    ParticleDef anchor;
    anchor.position = def.anchor;
    anchor.mass = def.particle_mass;
    anchor.fixed = def.fixed_anchor;
    first = existing;
    scene.particles.push_back(anchor);
    if (!def.fixed_anchor) {
      ConstraintDef pin;
      pin.type = kind_name(KindRole::Pin);
      pin.particles = {first};
      pin.set("point", def.anchor);
      scene.constraints.push_back(pin);
    }
  }

  // Room for every link at once: growing a vector of ConstraintDef (a string, a vector and a map each) copies it.
  scene.particles.reserve(scene.particles.size() + static_cast<std::size_t>(def.links));
  scene.constraints.reserve(scene.constraints.size() + static_cast<std::size_t>(def.links));
  int previous = first;
  for (int k = 1; k <= def.links; ++k) {
    ParticleDef link;
    link.position = start + (static_cast<double>(k) * def.link_length) * direction;
    link.mass = def.particle_mass;
    scene.particles.push_back(link);
    const int current = static_cast<int>(scene.particles.size()) - 1;
    scene.constraints.push_back(rod(previous, current, def.link_length));
    previous = current;
  }
  return first;
}

int append_cloth(Scene& scene, const ClothDef& def) {
  check_count("nx", def.nx, 2, kMaxClothSide);
  check_count("ny", def.ny, 2, kMaxClothSide);
  check_length("spacing", def.spacing);
  check_mass("particle_mass", def.particle_mass);
  check_compliance("shear_compliance", def.shear_compliance);
  check_compliance("bend_compliance", def.bend_compliance);
  check_point("origin", def.origin);
  const Vec3 u = unit("u", def.u);
  const Vec3 v = unit("v", def.v);
  // Parallel directions would stack the rows on top of each other.
  if (glm::length(glm::cross(u, v)) < 1e-6) fail("v", "must not be parallel to u");
  if (def.shear && def.triangulate) fail("triangulate", "cannot be combined with \"shear\" (which adds both diagonals)");

  const int first = static_cast<int>(scene.particles.size());
  const auto index = [&](int i, int j) { return first + i + def.nx * j; };
  const std::size_t nx = static_cast<std::size_t>(def.nx), ny = static_cast<std::size_t>(def.ny);
  scene.particles.reserve(scene.particles.size() + nx * ny);  // as in append_chain
  scene.constraints.reserve(scene.constraints.size() + (nx - 1) * ny + nx * (ny - 1) +
                            (def.shear ? 2 : def.triangulate ? 1 : 0) * (nx - 1) * (ny - 1) +
                            (def.bend ? (nx > 2 ? (nx - 2) * ny : 0) + (ny > 2 ? nx * (ny - 2) : 0) : 0));
  for (int j = 0; j < def.ny; ++j) {
    for (int i = 0; i < def.nx; ++i) {
      ParticleDef p;
      p.position = def.origin + def.spacing * (static_cast<double>(i) * u + static_cast<double>(j) * v);
      p.mass = def.particle_mass;
      p.fixed = def.pin_two_corners && j == 0 && (i == 0 || i == def.nx - 1);
      scene.particles.push_back(p);
    }
  }

  const auto add_rod = [&](int a, int b, double compliance) {
    if (scene.particles[a].fixed && scene.particles[b].fixed) return;
    ConstraintDef c = rod(a, b, glm::length(scene.particles[a].position - scene.particles[b].position));
    c.compliance = compliance;
    scene.constraints.push_back(c);
  };
  // Structural rods get exactly `spacing`; only the diagonals depend on the angle between u and v.
  const auto add_structural = [&](int a, int b) {
    if (scene.particles[a].fixed && scene.particles[b].fixed) return;
    scene.constraints.push_back(rod(a, b, def.spacing));
  };
  for (int j = 0; j < def.ny; ++j)
    for (int i = 0; i + 1 < def.nx; ++i) add_structural(index(i, j), index(i + 1, j));
  for (int j = 0; j + 1 < def.ny; ++j)
    for (int i = 0; i < def.nx; ++i) add_structural(index(i, j), index(i, j + 1));
  if (def.shear) {
    for (int j = 0; j + 1 < def.ny; ++j) {
      for (int i = 0; i + 1 < def.nx; ++i) {
        add_rod(index(i, j), index(i + 1, j + 1), def.shear_compliance);
        add_rod(index(i + 1, j), index(i, j + 1), def.shear_compliance);
      }
    }
  }
  if (def.triangulate)
    for (int j = 0; j + 1 < def.ny; ++j)
      for (int i = 0; i + 1 < def.nx; ++i) add_rod(index(i, j), index(i + 1, j + 1), def.shear_compliance);
  if (def.bend) {
    for (int j = 0; j < def.ny; ++j)
      for (int i = 0; i + 2 < def.nx; ++i) add_rod(index(i, j), index(i + 2, j), def.bend_compliance);
    for (int j = 0; j + 2 < def.ny; ++j)
      for (int i = 0; i < def.nx; ++i) add_rod(index(i, j), index(i, j + 2), def.bend_compliance);
  }
  return first;
}

}  // namespace lagrange
