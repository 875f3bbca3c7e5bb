// Chain and cloth builders (engine/src/scene/builders.cpp): counts from the formulas in builders.h, positions and rod
// lengths from hand geometry, and clean failures.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "lagrange/builders.h"

using namespace lagrange;

namespace {

int count_type(const Scene& scene, const std::string& type) {
  int n = 0;
  for (const ConstraintDef& c : scene.constraints) n += c.type == type ? 1 : 0;
  return n;
}

std::string builder_error(Scene& scene, const ChainDef& def) {
  try {
    append_chain(scene, def);
  } catch (const Error& error) {
    return error.what();
  }
  return "(no error)";
}

std::string builder_error(Scene& scene, const ClothDef& def) {
  try {
    append_cloth(scene, def);
  } catch (const Error& error) {
    return error.what();
  }
  return "(no error)";
}

bool starts_with(const std::string& text, const std::string& prefix) { return text.rfind(prefix, 0) == 0; }

}  // namespace

TEST_CASE("scene builders: a chain has links + 1 particles and links rods along its direction") {
  Scene scene;
  ChainDef def;
  def.links = 5;
  def.link_length = 0.5;
  def.particle_mass = 0.25;
  def.anchor = Vec3(1.0, 2.0, 3.0);
  def.direction = Vec3(0.0, 0.0, 2.0);  // not unit: the builder normalizes it
  CHECK(append_chain(scene, def) == 0);
  REQUIRE(scene.particles.size() == 6);
  REQUIRE(scene.constraints.size() == 5);
  CHECK(count_type(scene, "distance") == 5);
  CHECK(scene.particles[0].fixed);
  CHECK(scene.particles[0].position == Vec3(1.0, 2.0, 3.0));
  for (int k = 1; k <= 5; ++k) {
    CHECK_FALSE(scene.particles[k].fixed);
    CHECK(scene.particles[k].mass == 0.25);
    // Multiples of 0.5 are exact in binary, so the positions are too.
    CHECK(scene.particles[k].position == Vec3(1.0, 2.0, 3.0 + 0.5 * k));
    const ConstraintDef& rod = scene.constraints[k - 1];
    CHECK(rod.particles[0] == k - 1);
    CHECK(rod.particles[1] == k);
    REQUIRE(rod.has("length"));
    CHECK(*rod.number("length") == 0.5);
  }
}

TEST_CASE("scene builders: a chain with a pinned anchor adds one pin at the anchor") {
  Scene scene;
  ChainDef def;
  def.links = 3;
  def.anchor = Vec3(0.0, 4.0, 0.0);
  def.fixed_anchor = false;
  append_chain(scene, def);
  CHECK(scene.particles.size() == 4);
  CHECK_FALSE(scene.particles[0].fixed);
  CHECK(count_type(scene, "distance") == 3);
  REQUIRE(count_type(scene, "pin") == 1);
  for (const ConstraintDef& c : scene.constraints) {
    if (c.type != "pin") continue;
    CHECK(c.particles[0] == 0);
    REQUIRE(c.has("point"));
    CHECK(*c.vector("point") == Vec3(0.0, 4.0, 0.0));
  }
}

TEST_CASE("scene builders: a chain appended to a scene numbers its particles after the existing ones") {
  Scene scene;
  scene.particles.resize(2);
  ChainDef def;
  def.links = 2;
  CHECK(append_chain(scene, def) == 2);
  REQUIRE(scene.constraints.size() == 2);
  CHECK(scene.constraints[0].particles[0] == 2);
  CHECK(scene.constraints[0].particles[1] == 3);
  CHECK(scene.constraints[1].particles[0] == 3);
  CHECK(scene.constraints[1].particles[1] == 4);
}

TEST_CASE("scene builders: a chain can hang from an existing particle") {
  Scene scene;
  ParticleDef bob;
  bob.position = Vec3(1.0, 0.0, 0.0);
  scene.particles.push_back(bob);
  ChainDef def;
  def.links = 3;
  def.link_length = 0.25;
  def.direction = Vec3(0.0, -1.0, 0.0);
  def.anchor_particle = 0;
  CHECK(append_chain(scene, def) == 0);
  REQUIRE(scene.particles.size() == 4);  // only `links` new particles
  CHECK(scene.constraints.size() == 3);
  CHECK(scene.constraints[0].particles[0] == 0);
  CHECK(scene.constraints[0].particles[1] == 1);
  CHECK(scene.particles[3].position == Vec3(1.0, -0.75, 0.0));
  CHECK_FALSE(scene.particles[0].fixed);
}

TEST_CASE("scene builders: cloth counts, positions and rod lengths") {
  Scene scene;
  ClothDef def;
  def.nx = 4;
  def.ny = 3;
  def.spacing = 0.5;
  def.origin = Vec3(1.0, 1.0, 1.0);
  def.u = Vec3(2.0, 0.0, 0.0);
  def.v = Vec3(0.0, -3.0, 0.0);
  def.pin_two_corners = false;

  SUBCASE("structural rods only") {
    append_cloth(scene, def);
    CHECK(scene.particles.size() == 12u);
    CHECK(scene.constraints.size() == static_cast<std::size_t>((4 - 1) * 3 + 4 * (3 - 1)));
    for (const ConstraintDef& rod : scene.constraints) CHECK(*rod.number("length") == 0.5);
  }
  SUBCASE("with shear: two diagonals per cell, sqrt(2) times the spacing") {
    def.shear = true;
    append_cloth(scene, def);
    CHECK(scene.constraints.size() == static_cast<std::size_t>(17 + 2 * 3 * 2));
    int diagonals = 0;
    for (const ConstraintDef& rod : scene.constraints)
      if (*rod.number("length") != 0.5) {
        ++diagonals;
        CHECK(*rod.number("length") == doctest::Approx(0.5 * std::sqrt(2.0)).epsilon(1e-15));
      }
    CHECK(diagonals == 12);
  }
  // Grid point (i, j) is particle i + nx j at origin + spacing (i û + j v̂).
  CHECK(scene.particles[0].position == Vec3(1.0, 1.0, 1.0));
  CHECK(scene.particles[3].position == Vec3(2.5, 1.0, 1.0));
  CHECK(scene.particles[1 + 4 * 2].position == Vec3(1.5, 0.0, 1.0));
  for (const ParticleDef& p : scene.particles) {
    CHECK_FALSE(p.fixed);
    CHECK(p.mass == def.particle_mass);
  }
  // Every rod starts at its rest length.
  for (const ConstraintDef& rod : scene.constraints)
    CHECK(glm::length(scene.particles[rod.particles[0]].position - scene.particles[rod.particles[1]].position) ==
          doctest::Approx(*rod.number("length")).epsilon(1e-14));
}

TEST_CASE("scene builders: cloth diagonals and bending rods carry their compliance") {
  Scene scene;
  ClothDef def;
  def.nx = 5;
  def.ny = 4;
  def.spacing = 0.2;
  def.pin_two_corners = false;
  def.shear = true;
  def.shear_compliance = 1e-3;
  def.bend = true;
  def.bend_compliance = 2e-2;
  append_cloth(scene, def);
  int structural = 0, shear = 0, bend = 0;
  for (const ConstraintDef& rod : scene.constraints) {
    const double length = *rod.number("length");
    const Vec3 d = scene.particles[rod.particles[1]].position - scene.particles[rod.particles[0]].position;
    CHECK(glm::length(d) == doctest::Approx(length).epsilon(1e-14));
    if (length == doctest::Approx(0.2).epsilon(1e-12)) {
      ++structural;
      CHECK(rod.compliance == 0.0);
    } else if (length == doctest::Approx(0.4).epsilon(1e-12)) {
      ++bend;
      CHECK(rod.compliance == 2e-2);
    } else {
      ++shear;
      CHECK(length == doctest::Approx(0.2 * std::sqrt(2.0)).epsilon(1e-12));
      CHECK(rod.compliance == 1e-3);
    }
  }
  CHECK(structural == 4 * 4 + 5 * 3);
  CHECK(shear == 2 * 4 * 3);
  CHECK(bend == 3 * 4 + 5 * 2);
  def.bend_compliance = -1.0;
  CHECK(builder_error(scene, def) == "bend_compliance: must be a number >= 0 (m/N; 0 is rigid), got -1");
  def.bend_compliance = 0.0;
  def.triangulate = true;  // with shear: refused
  CHECK(builder_error(scene, def) == "triangulate: cannot be combined with \"shear\" (which adds both diagonals)");
  Scene triangles;
  def.shear = false;
  def.bend = false;
  append_cloth(triangles, def);
  CHECK(triangles.constraints.size() == static_cast<std::size_t>(4 * 4 + 5 * 3 + 4 * 3));  // one diagonal per cell
}

TEST_CASE("scene builders: cloth pins its two top corners, and skips a rod between them") {
  Scene scene;
  ClothDef def;
  def.nx = 3;
  def.ny = 2;
  append_cloth(scene, def);
  for (int i = 0; i < 6; ++i) CHECK(scene.particles[i].fixed == (i == 0 || i == 2));
  CHECK(scene.constraints.size() == 7u);  // (nx − 1) ny + nx (ny − 1): no rod joins the corners

  Scene narrow;
  def.nx = 2;
  append_cloth(narrow, def);
  CHECK(narrow.constraints.size() == 3u);  // 2 + 2 minus the top rod, which joins two fixed particles
  for (const ConstraintDef& rod : narrow.constraints)
    CHECK_FALSE((narrow.particles[rod.particles[0]].fixed && narrow.particles[rod.particles[1]].fixed));
}

TEST_CASE("scene builders: invalid defs throw Error(\"FIELD: PROBLEM\") and leave the scene untouched") {
  Scene scene;
  scene.particles.resize(1);
  ChainDef chain;
  chain.links = 0;
  CHECK(starts_with(builder_error(scene, chain), "links: must be at least 1, got 0"));
  chain = ChainDef{};
  chain.link_length = -1.0;
  CHECK(starts_with(builder_error(scene, chain), "link_length: must be a positive number, got -1"));
  chain = ChainDef{};
  chain.particle_mass = 0.0;
  CHECK(starts_with(builder_error(scene, chain), "particle_mass: must be a positive number"));
  chain = ChainDef{};
  chain.direction = Vec3(0.0);
  CHECK(starts_with(builder_error(scene, chain), "direction: "));
  chain = ChainDef{};
  chain.anchor_particle = 1;
  CHECK(starts_with(builder_error(scene, chain), "anchor_particle: particle 1 does not exist"));

  ClothDef cloth;
  cloth.nx = 1;
  CHECK(starts_with(builder_error(scene, cloth), "nx: must be at least 2, got 1"));
  cloth = ClothDef{};
  cloth.ny = 100000;
  CHECK(starts_with(builder_error(scene, cloth), "ny: must be at most"));
  cloth = ClothDef{};
  cloth.spacing = 0.0;
  CHECK(starts_with(builder_error(scene, cloth), "spacing: must be a positive number, got 0"));
  cloth = ClothDef{};
  cloth.v = Vec3(-2.0, 0.0, 0.0);
  CHECK(starts_with(builder_error(scene, cloth), "v: must not be parallel to u"));

  CHECK(scene.particles.size() == 1u);
  CHECK(scene.constraints.empty());
}

TEST_CASE("scene builders: built scenes make worlds that start on the constraint manifold") {
  Scene scene;
  scene.dimension = 3;
  ChainDef chain;
  chain.links = 8;
  chain.direction = Vec3(1.0, 1.0, 1.0);
  append_chain(scene, chain);
  ClothDef cloth;
  cloth.nx = 5;
  cloth.ny = 4;
  cloth.shear = true;
  cloth.origin = Vec3(0.0, 3.0, 0.0);
  cloth.u = Vec3(1.0, 0.0, 1.0);
  append_cloth(scene, cloth);
  World world = make_world(scene);
  CHECK(world.particle_count() == scene.particles.size());
  CHECK(world.constraints().size() == scene.constraints.size());
  CHECK(world.max_violation() < 1e-14);
}
