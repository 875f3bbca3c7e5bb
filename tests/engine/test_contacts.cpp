// Contacts (engine/src/contacts/, docs/physics.md "Contacts"): the rows' gradients against finite differences, the
// broad phase against every pair, the impact law against the two-body closed form and the conservation laws, the time
// of impact against the parabola (apex heights e^(2n) h), Coulomb friction against g (sin θ − μ cos θ), the
// unilateral projection against its complementarity conditions in every solver, the cable's slack point against
// cos θ = −(v0² − 2gL)/(3gL), and the scene keys' round trip and messages.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "contacts/contact_set.h"
#include "lagrange/measure.h"
#include "lagrange/scene.h"
#include "solvers/row_system.h"
#include "test_util.h"

using namespace lagrange;

namespace {

constexpr double kG = 9.81;

Settings contact_settings(const char* solver = "projection", Vec3 gravity = {0.0, -kG, 0.0}) {
  Settings s;
  s.solver = solver;
  s.dt = 1.0 / 60.0;
  s.substeps = 4;
  s.gravity = gravity;
  return s;
}

// A pile to be: columns² balls of 1 cm and 10 g on a loose square grid (2.2 radii apart, jittered by 5 % of a radius)
// in a 2D box `columns` grid cells wide and twice as tall, e = 0, μ = 0.3.
constexpr double kPileRadius = 0.01;
void add_pile(World& world, int columns, unsigned seed) {
  const double r = kPileRadius, spacing = 2.2 * r;
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> jitter(-0.05 * r, 0.05 * r);
  for (int k = 0; k < columns * columns; ++k)
    world.add_particle({.position = {(k % columns + 0.5) * spacing + jitter(random), 1.05 * r + (k / columns) * spacing, 0.0},
                        .mass = 0.01,
                        .radius = r});
  ContactSettings contacts;
  contacts.given = true;
  contacts.friction = 0.3;
  Obstacle box;
  box.shape = ObstacleShape::Box;
  box.min = Vec3(0.0, 0.0, 0.0);
  box.max = Vec3(columns * spacing, 2.0 * columns * spacing, 0.0);
  contacts.obstacles.push_back(box);
  world.model().set_contacts(contacts);
}

Obstacle plane(Vec3 point, Vec3 normal) {
  Obstacle o;
  o.shape = ObstacleShape::Plane;
  o.point = point;
  o.normal = normal;
  return o;
}

// The parabola's apex through three equally spaced samples around a maximum.
double apex_of(double a, double b, double c) { return b - (a - c) * (a - c) / (8.0 * (a - 2.0 * b + c)); }

// A ball of radius r dropped with its lowest point h above a floor with restitution e; the apexes of its flights.
std::vector<double> bounce_apexes(const char* solver, double e, double h, double r, int bounces) {
  World world(2, contact_settings(solver));
  world.add_particle({.position = {0.0, h + r, 0.0}, .mass = 1.0, .radius = r});
  ContactSettings contacts;
  contacts.given = true;
  contacts.restitution = e;
  contacts.obstacles.push_back(plane({0, 0, 0}, {0, 1, 0}));
  world.model().set_contacts(contacts);
  std::vector<double> y{world.state().position[0].y}, apexes;
  while (static_cast<int>(apexes.size()) < bounces && world.time() < 20.0) {
    world.step();
    y.push_back(world.state().position[0].y);
    const std::size_t n = y.size();
    if (n >= 3 && y[n - 2] > y[n - 3] && y[n - 2] >= y[n - 1]) apexes.push_back(apex_of(y[n - 3], y[n - 2], y[n - 1]) - r);
  }
  return apexes;
}

// Row `row` of c: its gradient at x against central differences of its value (step `step`, relative `epsilon`).
void check_gradient(const Constraint& c, int row, const std::vector<Vec3>& x, double step, double epsilon) {
  RowGradient grad;
  c.evaluate(row, x, grad);
  const auto ids = c.particles();
  for (std::size_t s = 0; s < ids.size(); ++s)
    for (int axis = 0; axis < 3; ++axis) {
      auto plus = x, minus = x;
      plus[ids[s]][axis] += step;
      minus[ids[s]][axis] -= step;
      const double fd = (c.value(row, plus) - c.value(row, minus)) / (2.0 * step);
      CHECK(grad[s][axis] == doctest::Approx(fd).epsilon(epsilon).scale(epsilon));
    }
}

// Two balls in 3D, particle 0 touching the other, a tilted plane and a sphere (particle 1 too far from both).
World plane_and_sphere_world() {
  World world(3, contact_settings());
  world.add_particle({.position = {0.1, 0.05, -0.02}, .mass = 1.0, .radius = 0.1});
  world.add_particle({.position = {0.25, 0.1, 0.03}, .mass = 2.0, .radius = 0.08});
  ContactSettings contacts;
  contacts.given = true;
  contacts.obstacles.push_back(plane({0, 0, 0}, {0.2, 1.0, 0.1}));
  Obstacle ball;
  ball.shape = ObstacleShape::Sphere;
  ball.center = {0.0, -0.25, 0.0};
  ball.radius = 0.3;
  contacts.obstacles.push_back(ball);
  world.model().set_contacts(contacts);
  return world;
}

}  // namespace

TEST_CASE("contact rows: gap and gradient of a pair, a plane and a sphere against finite differences") {
  World world = plane_and_sphere_world();
  ContactSet set;
  set.gather(world.model(), world.state(), world.settings(), 1.0 / 240.0);
  REQUIRE(set.rows.size() == 3);  // the pair, and particle 0 against both obstacles (1 is too far from both)
  std::vector<Vec3> x = world.state().position;
  for (std::size_t k = 0; k < set.rows.size(); ++k) {
    const Constraint& c = set.constraint(k);
    CHECK(c.unilateral() == 1);
    check_gradient(c, 0, x, 1e-7, 1e-6);
  }
  // The pair's gap is the distance less the radii.
  const auto pair = std::find_if(set.rows.begin(), set.rows.end(), [](const ContactRow& r) { return r.b >= 0; });
  REQUIRE(pair != set.rows.end());
  Vec3 n;
  CHECK(set.gap(*pair, x, n) ==
        doctest::Approx(glm::length(x[0] - x[1]) - 0.18).epsilon(1e-15));
}

TEST_CASE("a contact's tangent rows: unit tangents across the normal, no slip at q, finite differences, no twins") {
  // The rows the projection holds a sticking contact by (docs/physics.md, "Friction"): t · ((x_a − x_b) − (q_a − q_b)),
  // two in 3D. Particle 0 touches a plane and a sphere: its tangent rows against the two are different equations,
  // though both come from no scene constraint — taken for twins, the sphere's were left out of the system.
  World world = plane_and_sphere_world();
  ContactSet set;
  set.gather(world.model(), world.state(), world.settings(), 1.0 / 240.0);
  REQUIRE(set.rows.size() == 3);  // the pair, and particle 0 against both obstacles (1 is too far from both)
  const std::vector<Vec3> q = world.state().position;
  std::vector<Vec3> x = q;
  x[0] += Vec3(1e-3, -2e-3, 0.5e-3);
  x[1] += Vec3(-1e-3, 0.7e-3, 2e-3);
  for (std::size_t k = 0; k < set.rows.size(); ++k) set.hold_tangents(k, q, x);
  std::vector<Row> rows;
  set.append_tangent_rows(rows, std::vector<char>(set.rows.size(), 1));
  REQUIRE(rows.size() == 2 * set.rows.size());
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const ContactRow& contact = set.rows[r / 2];
    Vec3 n;
    set.gap(contact, x, n);
    const Vec3& t = contact.tangent[rows[r].row];
    CAPTURE(r);
    CHECK(glm::length(t) == doctest::Approx(1.0).epsilon(1e-14));
    CHECK(std::abs(glm::dot(t, n)) < 1e-14);
    CHECK(std::abs(glm::dot(contact.tangent[0], contact.tangent[1])) < 1e-14);
    const Constraint& c = *rows[r].constraint;
    CHECK(rows[r].unilateral == 0);
    CHECK(std::abs(c.value(rows[r].row, q)) < 1e-17);  // no slip at the substep's start
    RowGradient grad;
    const double value = c.evaluate(rows[r].row, x, grad);
    const Vec3 slip = (x[contact.a] - q[contact.a]) - (contact.b >= 0 ? x[contact.b] - q[contact.b] : Vec3(0.0));
    CHECK(value == doctest::Approx(glm::dot(t, slip)).epsilon(1e-12));
    check_gradient(c, rows[r].row, x, 1e-6, 1e-8);
  }
  RowSystem system;
  system.prepare(RowSet(rows, world.model(), new_topology_version()));
  CHECK(system.twins() == 0);
}

TEST_CASE("broad phase: the spatial hash finds every pair a brute-force search finds, and no other") {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> where(-1.0, 1.0), size(0.005, 0.04);
  World world(2, contact_settings("projection", {0.0, 0.0, 0.0}));
  for (int i = 0; i < 600; ++i)
    world.add_particle({.position = {where(rng), where(rng), 0.0}, .mass = 1.0, .radius = size(rng)});
  ContactSettings contacts;
  contacts.given = true;
  world.model().set_contacts(contacts);
  ContactSet set;
  set.gather(world.model(), world.state(), world.settings(), 1.0 / 240.0);
  std::set<std::pair<int, int>> found;
  for (const ContactRow& row : set.rows) found.insert({row.a, row.b});
  const auto& x = world.state().position;
  int touching = 0;
  for (int i = 0; i < 600; ++i)
    for (int j = i + 1; j < 600; ++j) {
      const double gap = glm::length(x[i] - x[j]) - world.model().radius(i) - world.model().radius(j);
      if (gap < 0.0) {  // every overlapping pair must be a row
        ++touching;
        CHECK(found.count({i, j}) == 1);
      }
      if (found.count({i, j})) CHECK(gap < 1e-6);  // at rest, the margin is the tolerance only
    }
  CHECK(touching > 10);
  CHECK(found.size() == static_cast<std::size_t>(touching));
}

TEST_CASE("worst_overlap: sweep and prune gives what every pair and every wall give, joined pairs left out") {
  for (int dimension : {2, 3}) {
    std::mt19937 rng(17 + dimension);
    std::uniform_real_distribution<double> where(-1.0, 1.0), size(0.005, 0.06);
    World world(dimension, contact_settings("projection", {0.0, 0.0, 0.0}));
    const int n = 800;
    for (int i = 0; i < n; ++i)
      world.add_particle({.position = {where(rng), 0.3 * where(rng), dimension == 3 ? where(rng) : 0.0},
                          .mass = 1.0,
                          .fixed = i % 50 == 0,
                          .radius = size(rng)});
    ContactSettings contacts;
    contacts.given = true;
    Obstacle box;
    box.shape = ObstacleShape::Box;
    const double deep = dimension == 3 ? 1.02 : 0.0;  // a few particles reach past the walls
    box.min = Vec3(-1.02, -0.32, -deep);
    box.max = Vec3(1.02, 0.32, deep);
    contacts.obstacles.push_back(box);
    world.model().set_contacts(contacts);
    const auto& x = world.state().position;
    // Join the pair deepest into each other by a rod: it no longer counts
    int ja = -1, jb = -1;
    double closest = INFINITY;
    for (int i = 0; i < n; ++i)
      for (int j = i + 1; j < n; ++j)
        if (const double g = (glm::length(x[i] - x[j]) - world.model().radius(i) - world.model().radius(j)) /
                             std::max(world.model().radius(i), world.model().radius(j));
            g < closest) {
          closest = g;
          ja = i;
          jb = j;
        }
    ConstraintDef def;
    def.type = "distance";
    def.particles = {ja, jb};
    std::vector<ParticleDef> defs(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) defs[static_cast<std::size_t>(i)].position = x[i];
    world.add_constraint(find_kind("distance")->create(def, defs, dimension));
    const auto brute = [&] {  // every pair and every wall
      double worst = INFINITY;
      const auto& p = world.state().position;
      for (int i = 0; i < n; ++i) {
        const double r = world.model().radius(i);
        for (int j = i + 1; j < n; ++j) {
          if ((i == ja && j == jb) || (world.model().fixed(i) && world.model().fixed(j))) continue;
          const double rj = world.model().radius(j);
          worst = std::min(worst, (glm::length(p[i] - p[j]) - r - rj) / std::max(r, rj));
        }
        if (world.model().fixed(i)) continue;
        for (int k = 0; k < dimension; ++k)
          worst = std::min({worst, (p[i][k] - box.min[k] - r) / r, (box.max[k] - p[i][k] - r) / r});
      }
      return worst;
    };
    const double expected = brute();
    CHECK(expected < 0.0);
    CHECK(worst_overlap(world.model(), world.state()) == doctest::Approx(expected).epsilon(1e-12));
    CHECK(closest < expected);  // left out: else the worst
  }
}

TEST_CASE("worst_overlap: a small ball into a large one from the side, among others apart: the closed form") {
  // Along the axis the sweep sorts on, the pair's centres lie further apart than the small one's radius
  World world(2, contact_settings("projection", {0.0, 0.0, 0.0}));
  for (int k = 0; k < 200; ++k)
    world.add_particle({.position = {0.1 * (k % 20), 0.1 * (k / 20) + 1.0, 0.0}, .mass = 1.0, .radius = 0.02});
  world.add_particle({.position = {0.3, 0.0, 0.0}, .mass = 1.0, .radius = 0.01});
  world.add_particle({.position = {0.355, 0.0, 0.0}, .mass = 1.0, .radius = 0.05});
  ContactSettings contacts;
  contacts.given = true;
  world.model().set_contacts(contacts);
  CHECK(worst_overlap(world.model(), world.state()) == doctest::Approx(-0.005 / 0.05).epsilon(1e-9));
  const Overlap deepest = deepest_overlap(world.model(), world.state());
  CHECK(deepest.particle == 200);
  CHECK(deepest.other == 201);
  CHECK(deepest.obstacle == -1);
  CHECK(overlap_note(world.model(), world.state()).find("particles 200 and 201 start 0.1 of a radius") == 0);
}

TEST_CASE("small piles with friction and restitution: no step gains energy, no ball thrown into another, every solver") {
  // Found by a re-probe: 4 and 6 balls dropped into a box (e = 0.2, μ = 0.5, the scene's defaults). A subspace step
  // judged only by its own rows' error pushed a ball into one that was not pushing and friction far out of its
  // cone; the sweeps after it settled on a far complementarity point: a ball thrown 0.12 m in one substep, 3.6 J to
  // 41 J (projection), a ball 2.1 m out of the box (SHAKE), 5.7 J to 68 kJ (RATTLE). With no work from outside and
  // e < 1, μ > 0, the energy can only fall.
  const char* scenes[] = {
      R"({"dimension": 2, "particles": [{"position": [-0.072, 0.259], "radius": 0.05}, {"position": [-0.122, 0.47], "radius": 0.05}, {"position": [-0.094, 0.089], "radius": 0.05}, {"position": [0.047, 0.444], "radius": 0.05}], "contacts": {"restitution": 0.2, "friction": 0.5}, "obstacles": [{"type": "box", "min": [-0.2, 0.0], "max": [0.2, 0.8]}]})",
      R"({"dimension": 2, "particles": [{"position": [0.034728886440729856, 0.45195840694470435], "radius": 0.05}, {"position": [-0.14808313754905397, 0.4352046748023552], "radius": 0.05}, {"position": [-0.03058209107959481, 0.06108618294274415], "radius": 0.05}, {"position": [0.13393508896088335, 0.6772079160625719], "radius": 0.05}], "contacts": {"restitution": 0.2, "friction": 0.5}, "obstacles": [{"type": "box", "min": [-0.2, 0.0], "max": [0.2, 0.8]}]})",
      R"({"dimension": 2, "particles": [{"position": [0.003546487410077015, 0.7153245874281549], "radius": 0.05}, {"position": [0.13459483414117318, 0.26828201640733984], "radius": 0.05}, {"position": [-0.1417322660270795, 0.5774591760723647], "radius": 0.05}, {"position": [-0.013950633155804554, 0.14382918807301534], "radius": 0.05}, {"position": [-0.08896342779715513, 0.23361933830929466], "radius": 0.05}, {"position": [-0.06587737260418804, 0.38963368210214455], "radius": 0.05}], "contacts": {"restitution": 0.2, "friction": 0.5}, "obstacles": [{"type": "box", "min": [-0.2, 0.0], "max": [0.2, 0.8]}]})"};
  for (const char* text : scenes)
    for (const char* solver : {"projection", "shake", "rattle", "acceleration", "penalty"}) {
      Scene scene = parse_scene(text, "pile.json");
      scene.settings.solver = solver;
      World world = make_world(scene);
      const double start = world.energy().total();
      double energy = start, worst_rise = 0.0, worst_gap = INFINITY;
      for (int s = 0; s < 180; ++s) {  // 3 s
        world.step();
        const double now = world.energy().total();
        worst_rise = std::max(worst_rise, now - energy);
        energy = now;
        worst_gap = std::min(worst_gap, worst_overlap(world.model(), world.state()));
      }
      CAPTURE(std::string(solver));
      CAPTURE(std::string(text).substr(40, 40));
      CHECK(worst_rise < 1e-3 * start);
      CHECK(worst_gap >= -1e-6);
      CHECK(energy < start);
      // What the energy lost is what the contacts' work says: the drift E − E0 − W. The projection's forces are
      // booked at the substep's mean velocity after the impacts (booked at the one before, they counted the impacts'
      // change twice: +0.33 J here, +1.3e1 J in a pile of 40); RATTLE's two kicks each at the velocities around it
      // (booked at the mean velocity, as the others, they read up to +12.5 J).
      CHECK(std::abs(energy - start - world.work().total()) < 1e-3 * start);
    }
}

TEST_CASE("a pile's rows: one broad phase with the kick for every pair finds the rows the two-pass search finds") {
  // gather() takes a pile's rows from one broad phase in which every pair has the kick's reach (when the last
  // substep had rows for at least half the particles), a gas's from one without it and a second search around the
  // held particles. Both must give the same rows in the same order, with the same warm starts: a fresh set (no rows
  // before: the two-pass search) against one gathered twice (the single pass), on a pile that is landing (some balls
  // touching, some within the kick of one that does, some free), in 2D with a chain of rods through it and in 3D.
  for (int dimension : {2, 3}) {
    Settings settings = contact_settings("projection", {0.0, -9.81, 0.0});
    settings.substeps = 4;
    World world(dimension, settings);
    std::mt19937 random(7);
    std::uniform_real_distribution<double> jitter(-0.004, 0.004);
    for (int k = 0; k < 150; ++k) {
      const Vec3 p(0.021 * (k % 10) + jitter(random), 0.0105 + 0.024 * (k / 10),
                   dimension == 3 ? 0.021 * ((k / 3) % 3) + jitter(random) : 0.0);
      world.add_particle({.position = p, .mass = 0.01, .radius = 0.01});
    }
    for (int k = 0; k + 1 < 5; ++k) world.add_distance(100 + k, 101 + k, -1.0);
    ContactSettings contacts;
    contacts.given = true;
    contacts.friction = 0.3;
    contacts.obstacles.push_back(plane({0.0, 0.0, 0.0}, {0.0, 1.0, 0.0}));
    world.model().set_contacts(contacts);
    for (int s = 0; s < 6; ++s) world.step();  // landing: the lower rows resting, the upper ones falling onto them
    const double h = settings.dt / settings.substeps;
    ContactSet two_pass, single_pass;
    two_pass.gather(world.model(), world.state(), world.settings(), h);
    single_pass.gather(world.model(), world.state(), world.settings(), h);
    REQUIRE(2 * single_pass.rows.size() > world.model().particle_count());  // the second gather is the single pass
    single_pass.gather(world.model(), world.state(), world.settings(), h);
    std::size_t touching = 0, pairs = 0;
    for (const ContactRow& row : two_pass.rows) {
      Vec3 n;
      touching += two_pass.gap(row, world.state().position, n) <= 1e-6 * row.scale;
      pairs += row.b >= 0;
    }
    CAPTURE(dimension);
    CHECK(touching > 20);                     // a pile with held particles ...
    CHECK(pairs < two_pass.rows.size());      // ... and floor rows
    REQUIRE(two_pass.rows.size() == single_pass.rows.size());
    for (std::size_t k = 0; k < two_pass.rows.size(); ++k) {
      const ContactRow &a = two_pass.rows[k], &b = single_pass.rows[k];
      CHECK(a.a == b.a);
      CHECK(a.b == b.b);
      CHECK(a.face == b.face);
      CHECK(a.warm == b.warm);
    }
  }
}

TEST_CASE("RATTLE books its contacts' work exactly: a bounce, a small pile, a chain of cables on a table drift by rounding") {
  // Velocity Verlet changes the energy of a scene whose only other force is constant gravity by exactly the work of
  // its kicks: the position stage's impulse at the velocities before and after it, gravity's half kick taken out,
  // and the velocity stage's at the velocities around it (solver_rattle.cpp, book_contact_work). So E − E0 − W, the
  // drift, is rounding. Booked at the substep's mean velocity, as the semi-implicit solvers' are, these read 1.8e-4 J
  // (the bounce), 5.7e-5 J (the chain) and up to 12.5 J (piles that fell back to projection, booked at RATTLE's
  // velocities instead of projection's).
  const char* scenes[] = {
      R"({"dimension": 2, "substeps": 4, "particles": [{"position": [0, 1.1], "radius": 0.1}], "contacts": {"restitution": 0.8}, "obstacles": [{"type": "plane", "point": [0, 0], "normal": [0, 1]}]})",
      R"({"dimension": 2, "substeps": 4, "particles": [{"position": [-0.072, 0.259], "radius": 0.05}, {"position": [-0.122, 0.47], "radius": 0.05}, {"position": [-0.094, 0.089], "radius": 0.05}, {"position": [0.047, 0.444], "radius": 0.05}], "contacts": {"restitution": 0.2, "friction": 0.5}, "obstacles": [{"type": "box", "min": [-0.2, 0.0], "max": [0.2, 0.8]}]})",
      R"({"dimension": 2, "substeps": 4, "particles": [{"position": [0, 0.02], "radius": 0.01, "mass": 0.1}, {"position": [0, 0.07], "radius": 0.01, "mass": 0.1}, {"position": [0, 0.12], "radius": 0.01, "mass": 0.1}, {"position": [0, 0.17], "radius": 0.01, "mass": 0.1}, {"position": [0, 0.22], "radius": 0.01, "mass": 0.1}], "constraints": [{"type": "cable", "particles": [0, 1], "length": 0.05}, {"type": "cable", "particles": [1, 2], "length": 0.05}, {"type": "cable", "particles": [2, 3], "length": 0.05}, {"type": "cable", "particles": [3, 4], "length": 0.05}], "contacts": {"friction": 0.3, "particles": false}, "obstacles": [{"type": "plane", "point": [0, 0], "normal": [0, 1]}]})"};
  for (const char* text : scenes) {
    Scene scene = parse_scene(text, "scene.json");
    scene.settings.solver = "rattle";
    World world = make_world(scene);
    const double start = world.energy().total();
    double worst = 0.0;
    for (int s = 0; s < 120; ++s) {  // 2 s: the impacts, the landing, the rest
      world.step();
      worst = std::max(worst, std::abs(world.energy().total() - start - world.work().total()));
    }
    CAPTURE(std::string(text).substr(40, 60));
    CHECK(world.work().contacts < -0.1 * start);  // the contacts took energy away
    CHECK(worst < 1e-12 * start + 1e-12);
  }
}

TEST_CASE("a ball an impact sends beyond the reach it was gathered for meets what it can now reach, in the same substep") {
  // One substep of 1/240 s, no gravity, e = 1, equal balls of radius 0.1 on a line: A at 20 m/s hits B (at rest, its
  // free reach zero) after 1 cm; B, now at 20 m/s, crosses 4 cm to C (or to a wall) before the substep ends. The
  // rows B–C and B–wall were not gathered (B does not move freely); the impact stage finds them. Closed forms:
  // equal elastic balls exchange velocities, so C leaves at 20 m/s with A and B at rest; with the wall instead of C,
  // B comes back at 20 m/s (A, at rest, is 4 cm away: beyond this substep). No overlap, nothing through the wall.
  const double r = 0.1, v = 20.0;
  for (const char* solver : {"projection", "shake", "rattle", "acceleration", "penalty"}) {
    for (bool wall : {false, true}) {
      Settings settings = contact_settings(solver, {0.0, 0.0, 0.0});
      settings.dt = 1.0 / 240.0;
      settings.substeps = 1;
      World world(2, settings);
      world.add_particle({.position = {0.0, 0.0, 0.0}, .velocity = {v, 0.0, 0.0}, .mass = 1.0, .radius = r});
      world.add_particle({.position = {2 * r + 0.01, 0.0, 0.0}, .mass = 1.0, .radius = r});
      if (!wall) world.add_particle({.position = {4 * r + 0.05, 0.0, 0.0}, .mass = 1.0, .radius = r});
      ContactSettings contacts;
      contacts.given = true;
      contacts.restitution = 1.0;
      if (wall) contacts.obstacles.push_back(plane({3 * r + 0.05, 0.0, 0.0}, {-1.0, 0.0, 0.0}));
      world.model().set_contacts(contacts);
      ContactSet probe;  // what the broad phase alone gathers: not B's row
      probe.gather(world.model(), world.state(), world.settings(), settings.dt);
      for (const ContactRow& row : probe.rows) CHECK(row.a == 0);
      world.step();
      CAPTURE(std::string(solver));
      CAPTURE(wall);
      const auto& vel = world.state().velocity;
      const auto& x = world.state().position;
      if (wall) {
        CHECK(std::abs(vel[0].x) < 1e-9 * v);
        CHECK(vel[1].x == doctest::Approx(-v).epsilon(1e-9));
        CHECK(x[1].x + r <= 3 * r + 0.05 + 1e-6 * r);
      } else {
        CHECK(std::abs(vel[0].x) < 1e-9 * v);
        CHECK(std::abs(vel[1].x) < 1e-9 * v);
        CHECK(vel[2].x == doctest::Approx(v).epsilon(1e-9));
        CHECK(x[2].x - x[1].x >= 2 * r * (1.0 - 1e-6));
      }
      CHECK(x[1].x - x[0].x >= 2 * r * (1.0 - 1e-6));
    }
  }
}

TEST_CASE("impact law: equal balls exchange velocities, unequal ones follow the two-body closed form") {
  for (double e : {1.0, 0.5, 0.0}) {
    for (double m2 : {1.0, 3.0}) {
      World world(2, contact_settings("projection", {0.0, 0.0, 0.0}));
      const double u1 = 2.0;
      world.add_particle({.position = {-0.5, 0.0, 0.0}, .velocity = {u1, 0.0, 0.0}, .mass = 1.0, .radius = 0.1});
      world.add_particle({.position = {0.5, 0.0, 0.0}, .mass = m2, .radius = 0.1});
      ContactSettings contacts;
      contacts.given = true;
      contacts.restitution = e;
      world.model().set_contacts(contacts);
      for (int s = 0; s < 60; ++s) world.step();
      // Momentum m1 u1 = m1 v1 + m2 v2 and v2 − v1 = e u1.
      const double v1 = (u1 - m2 * e * u1) / (1.0 + m2), v2 = (u1 + e * u1) / (1.0 + m2);
      CAPTURE(e);
      CAPTURE(m2);
      CHECK(world.state().velocity[0].x == doctest::Approx(v1).epsilon(1e-12).scale(1.0));
      CHECK(world.state().velocity[1].x == doctest::Approx(v2).epsilon(1e-12));
      CHECK(glm::length(world.state().position[0] - world.state().position[1]) >= 0.2 * (1.0 - 1e-7));
    }
  }
}

TEST_CASE("time of impact: a dropped ball's apexes are e^(2n) h, every solver, to 1e-3 at the shipped step") {
  // The samples of a flight lie on the exact parabola (semi-implicit Euler's positions do), its apex found from three
  // of them; the bounce at the time of impact keeps the next flight on its own parabola. The start's half-step
  // velocity (g h_sub / 2, h_sub = 1/240 s) adds g h_sub²/8 = 2e-5 m to every height.
  const double e = 0.8, h = 1.0;
  for (const char* solver : {"projection", "shake", "rattle", "acceleration", "penalty"}) {
    const std::vector<double> apexes = bounce_apexes(solver, e, h, 0.1, 8);
    REQUIRE(apexes.size() == 8);
    for (std::size_t n = 0; n < apexes.size(); ++n) {
      CAPTURE(std::string(solver));
      CAPTURE(n);
      CHECK(apexes[n] == doctest::Approx(std::pow(e, 2.0 * (n + 1)) * h).epsilon(1e-3));
    }
  }
}

TEST_CASE("restitution 1 on a floor: no energy lost or gained over 25 bounces, and a ball at rest stays at rest") {
  const std::vector<double> apexes = bounce_apexes("projection", 1.0, 0.5, 0.05, 25);
  REQUIRE(apexes.size() == 25);
  for (double a : apexes) CHECK(a == doctest::Approx(apexes.front()).epsilon(1e-9));
  World world(2, contact_settings());
  world.add_particle({.position = {0.0, 0.05, 0.0}, .mass = 1.0, .radius = 0.05});
  ContactSettings contacts;
  contacts.given = true;
  contacts.restitution = 0.7;
  contacts.obstacles.push_back(plane({0, 0, 0}, {0, 1, 0}));
  world.model().set_contacts(contacts);
  for (int s = 0; s < 120; ++s) world.step();
  CHECK(std::abs(world.state().position[0].y - 0.05) < 1e-12);
  CHECK(glm::length(world.state().velocity[0]) < 1e-12);
  CHECK(obstacle_force(world.state(), 0).y == doctest::Approx(-kG).epsilon(1e-9));  // the table reads the weight
}

TEST_CASE("simultaneous contacts with two walls: a ball into a corner leaves with the same speed (no energy gain)") {
  World world(2, contact_settings("projection", {0.0, 0.0, 0.0}));
  world.add_particle({.position = {0.5, 0.5, 0.0}, .velocity = {-1.0, -1.0, 0.0}, .mass = 1.0, .radius = 0.1});
  ContactSettings contacts;
  contacts.given = true;
  contacts.restitution = 1.0;
  Obstacle box;
  box.shape = ObstacleShape::Box;
  box.min = {0.0, 0.0, 0.0};
  box.max = {2.0, 2.0, 0.0};
  contacts.obstacles.push_back(box);
  world.model().set_contacts(contacts);
  for (int s = 0; s < 60; ++s) world.step();
  CHECK(world.state().velocity[0].x == doctest::Approx(1.0).epsilon(1e-12));
  CHECK(world.state().velocity[0].y == doctest::Approx(1.0).epsilon(1e-12));
}

TEST_CASE("an elastic particle rattling in a small box: many bounces a substep, the unfolded path, and past the cap a failure") {
  // A particle of radius 1 cm in a 0.2 m box, no gravity, e = 1, one 1/60 s substep a step: at 200 m/s it meets each
  // wall about 9 times a substep. Its path is the straight line folded back at the walls (unfolding): along each axis
  // y = (x0 + 0.09 + v t) mod 0.36, position y or 0.36 − y, less 0.09. With a cap of 8 impacts a row and substep it
  // lost a quarter of its energy in 0.5 s, and no count showed it.
  const auto run = [](double speed, double& failures) {
    Settings settings = contact_settings("projection", {0.0, 0.0, 0.0});
    settings.substeps = 1;
    World world(2, settings);
    world.add_particle({.position = {0.0, 0.0, 0.0}, .velocity = {speed, 0.3 * speed, 0.0}, .mass = 1.0, .radius = 0.01});
    ContactSettings contacts;
    contacts.given = true;
    contacts.restitution = 1.0;
    Obstacle box;
    box.shape = ObstacleShape::Box;
    box.min = {-0.1, -0.1, 0.0};
    box.max = {0.1, 0.1, 0.0};
    contacts.obstacles.push_back(box);
    world.model().set_contacts(contacts);
    failures = 0.0;
    for (int s = 0; s < 30; ++s) {
      world.step();
      failures += world.stats().failures;
    }
    return world;
  };
  double failures = 0.0;
  const double speed = 200.0;
  const World world = run(speed, failures);
  const double t = world.time(), span = 0.18;
  for (int axis = 0; axis < 2; ++axis) {
    const double v = axis == 0 ? speed : 0.3 * speed;
    const double y = std::fmod(0.5 * span + v * t, 2.0 * span);
    const double expected = (y < span ? y : 2.0 * span - y) - 0.5 * span;
    CAPTURE(axis);
    CHECK(world.state().position[0][axis] == doctest::Approx(expected).epsilon(1e-9).scale(1.0));
    CHECK(std::abs(world.state().velocity[0][axis]) == doctest::Approx(v).epsilon(1e-12));
  }
  CHECK(failures == 0.0);
  // 5000 m/s: about 230 bounces a wall and substep, past the cap. The substeps count as failures, and the energy the
  // plastic hold takes is lost, never gained.
  const World fast = run(5000.0, failures);
  CHECK(failures > 0.0);
  CHECK(glm::length(fast.state().velocity[0]) <= std::hypot(5000.0, 1500.0) * (1.0 + 1e-12));
}

TEST_CASE("Newton's cradle of free balls: one in, one out and two in, two out, momentum and energy kept") {
  for (int moving : {1, 2}) {
    World world(2, contact_settings("projection", {0.0, 0.0, 0.0}));
    for (int k = 0; k < 5; ++k) {
      const bool incoming = k < moving;
      world.add_particle({.position = {0.1 * k - (incoming ? 0.3 : 0.0), 0.0, 0.0},
                          .velocity = {incoming ? 1.0 : 0.0, 0.0, 0.0}, .mass = 1.0, .radius = 0.05});
    }
    ContactSettings contacts;
    contacts.given = true;
    contacts.restitution = 1.0;
    world.model().set_contacts(contacts);
    const double energy = world.energy().kinetic;
    for (int s = 0; s < 60; ++s) world.step();
    CAPTURE(moving);
    for (int k = 0; k < 5; ++k) {
      const double v = world.state().velocity[k].x;
      CHECK(v == doctest::Approx(k >= 5 - moving ? 1.0 : 0.0).scale(1.0).epsilon(1e-12));
    }
    CHECK(world.energy().kinetic == doctest::Approx(energy).epsilon(1e-12));
  }
}

TEST_CASE("balls on a frictionless floor, e = 1, struck in turn: the two-body closed form, and none leaves the floor") {
  // A 0.4 kg ball at 1 m/s runs into four 0.2 kg balls resting 1 cm apart on a floor, under gravity. Each impact is
  // two-body and elastic, v1' = ((m1 − m2) u1 + 2 m2 u2)/(m1 + m2), v2' = ((m2 − m1) u2 + 2 m1 u1)/(m1 + m2), applied
  // below pair by pair until no ball is faster than the one ahead of it: 4/3 m/s for the last ball, 4/9 for the next,
  // and so on. The floor takes only their weight: a ball struck sideways late in a substep bounced off the floor it
  // rested on (its free fall since the substep began counted as an impact: it hopped at 3 g h).
  for (const char* solver : {"projection", "shake", "rattle", "acceleration", "penalty"}) {
    CAPTURE(std::string(solver));
    World world(2, contact_settings(solver));
    const double r = 0.05;
    const double mass[5] = {0.4, 0.2, 0.2, 0.2, 0.2};
    for (int k = 0; k < 5; ++k)
      world.add_particle({.position = {-0.22 + 0.11 * k, r, 0.0},
                          .velocity = {k == 0 ? 1.0 : 0.0, 0.0, 0.0},
                          .mass = mass[k],
                          .radius = r});
    ContactSettings contacts;
    contacts.given = true;
    contacts.restitution = 1.0;
    contacts.obstacles.push_back(plane({0, 0, 0}, {0, 1, 0}));
    world.model().set_contacts(contacts);
    std::vector<double> v = {1.0, 0.0, 0.0, 0.0, 0.0};
    for (bool again = true; again;) {
      again = false;
      for (int k = 0; k + 1 < 5; ++k)
        if (v[k] > v[k + 1]) {
          const double m1 = mass[k], m2 = mass[k + 1], u1 = v[k], u2 = v[k + 1];
          v[k] = ((m1 - m2) * u1 + 2.0 * m2 * u2) / (m1 + m2);
          v[k + 1] = ((m2 - m1) * u2 + 2.0 * m1 * u1) / (m1 + m2);
          again = true;
        }
    }
    const double e0 = world.energy().total();
    double lift = 0.0, vertical = 0.0;
    for (int s = 0; s < 90; ++s) {
      world.step();
      for (int k = 0; k < 5; ++k) {
        lift = std::max(lift, world.state().position[k].y - r);
        vertical = std::max(vertical, std::abs(world.state().velocity[k].y));
      }
    }
    CHECK(lift <= 1e-9);
    CHECK(vertical <= 1e-9);
    for (int k = 0; k < 5; ++k) {
      CAPTURE(k);
      CHECK(world.state().velocity[k].x == doctest::Approx(v[k]).epsilon(1e-9).scale(1.0));
    }
    CHECK(world.energy().total() == doctest::Approx(e0).epsilon(1e-9));
  }
}

TEST_CASE("Coulomb friction: a particle on a 30° incline stays with μ = 0.7 and slides at g (sin θ − μ cos θ) with 0.3") {
  const double theta = std::numbers::pi / 6.0;
  const Vec3 n(-std::sin(theta), std::cos(theta), 0.0), down(-std::cos(theta), -std::sin(theta), 0.0);
  for (const char* solver : {"projection", "shake", "rattle", "acceleration", "penalty"})
    for (double mu : {0.7, 0.3}) {
      World world(2, contact_settings(solver));
      world.add_particle({.position = 0.1 * n, .mass = 2.0, .radius = 0.1});
      ContactSettings contacts;
      contacts.given = true;
      contacts.friction = mu;
      contacts.obstacles.push_back(plane({0, 0, 0}, n));
      world.model().set_contacts(contacts);
      for (int s = 0; s < 120; ++s) world.step();
      const double speed = glm::dot(world.state().velocity[0], down);
      const double expected = std::max(0.0, kG * (std::sin(theta) - mu * std::cos(theta))) * world.time();
      CAPTURE(std::string(solver));
      CAPTURE(mu);
      CHECK(speed == doctest::Approx(expected).epsilon(1e-9).scale(1.0));
      // The plane takes the particle's weight and nothing else once it slides or sticks: normal m g cos θ, and along
      // the slope the friction μ m g cos θ (sliding) or m g sin θ (sticking).
      const Vec3 f = obstacle_force(world.state(), 0);
      CHECK(glm::dot(f, -n) == doctest::Approx(2.0 * kG * std::cos(theta)).epsilon(1e-9));
      const double along = mu > std::tan(theta) ? std::sin(theta) : mu * std::cos(theta);
      CHECK(glm::dot(f, down) == doctest::Approx(2.0 * kG * along).epsilon(1e-9));
    }
}

TEST_CASE("two balls stacked off centre stand where friction holds them and slide where it cannot, rods or not") {
  // A ball of 0.1 m on a floor, another on top of it 0.02 m to the side: the upper contact's normal leans by
  // tan α = 0.02 / √(0.2² − 0.02²) ≈ 0.1 from the vertical. Particles do not roll, so with μ = 0.5 > tan α at both
  // contacts the pair is in static equilibrium (the upper contact carries m g, 0.1 of it along its tangent; the floor
  // 2 m g straight up) and must not move at all (by 1e-5 m in 2 s: SHAKE's and RATTLE's friction stops at the
  // contact tolerance); with μ = 0.05 < tan α the upper ball slides off. Each solver alone
  // and with a swinging pendulum beside the pair, whose rod joins the contacts in one system: a friction pass after
  // the rows' solve, then the rows again, left the slip the rows' moves along the tilted normal made, and the pair
  // crept sideways by 4–8 mm in 2 s (projection, SHAKE, RATTLE). Both orders of the balls: with the upper one first,
  // its contact starts pushing only in the sweeps' second pass (the floor's row lifts the lower ball first), and
  // sweeps that ended friction on a first pass with nothing to do let RATTLE slide 1 cm.
  const double r = 0.1, dx = 0.02;
  for (const char* solver : {"projection", "shake", "rattle", "acceleration", "penalty"})
    for (bool pendulum : {false, true})
      for (bool upper_first : {false, true})
        for (double mu : {0.5, 0.05}) {
          CAPTURE(std::string(solver));
          CAPTURE(pendulum);
          CAPTURE(upper_first);
          CAPTURE(mu);
          World world(2, contact_settings(solver));
          const double above = std::sqrt(4 * r * r - dx * dx) + 1e-9;  // touching, not overlapping
          const int low = upper_first ? 1 : 0, high = 1 - low;
          if (upper_first) world.add_particle({.position = {dx, r + above, 0.0}, .mass = 1.0, .radius = r});
          world.add_particle({.position = {0.0, r, 0.0}, .mass = 1.0, .radius = r});
          if (!upper_first) world.add_particle({.position = {dx, r + above, 0.0}, .mass = 1.0, .radius = r});
          if (pendulum) {
            world.add_particle({.position = {1.0, 1.0, 0.0}, .fixed = true});
            world.add_particle({.position = {1.5, 1.0, 0.0}, .mass = 1.0, .radius = 0.05});
            world.add_distance(2, 3, -1.0);
          }
          ContactSettings contacts;
          contacts.given = true;
          contacts.friction = mu;
          contacts.obstacles.push_back(plane({0, 0, 0}, {0, 1, 0}));
          world.model().set_contacts(contacts);
          for (int s = 0; s < 120; ++s) world.step();  // 2 s
          const double lower = world.state().position[low].x, upper = world.state().position[high].x - dx;
          if (mu > 0.1) {
            CHECK(std::abs(lower) < 1e-5);
            CHECK(std::abs(upper) < 1e-5);
          } else {
            CHECK(std::abs(upper - lower) > 1e-2);  // the upper ball has slid off its support
          }
          const std::string name = solver;  // the position solvers keep the rod exact while the contacts act
          if (pendulum && name != "penalty" && name != "acceleration") CHECK(world.max_violation(true) < 1e-9);
        }
}

TEST_CASE("unilateral projection: every solver keeps C >= 0 and lambda >= 0, and rods exact while contacts act") {
  // A hanging chain of 8 rigid rods dropped onto a floor: the rods (bilateral) and the contacts (unilateral) in one
  // system. After every step: no gap below −1e-6 of a radius, every contact force pushing, rods exact (projection).
  for (const char* solver : {"projection", "shake", "rattle", "acceleration", "penalty"}) {
    World world(2, contact_settings(solver));
    for (int k = 0; k < 9; ++k)
      world.add_particle({.position = {0.1 * k, 0.3 + 0.02 * k, 0.0}, .mass = 1.0, .radius = 0.03});
    for (int k = 0; k < 8; ++k) world.add_distance(k, k + 1, -1.0);
    ContactSettings contacts;
    contacts.given = true;
    contacts.friction = 0.2;
    contacts.obstacles.push_back(plane({0, 0, 0}, {0, 1, 0}));
    world.model().set_contacts(contacts);
    double worst_rod = 0.0, worst_gap = INFINITY;
    int touching = 0;
    for (int s = 0; s < 90; ++s) {
      world.step();
      worst_gap = std::min(worst_gap, worst_overlap(world.model(), world.state()));
      worst_rod = std::max(worst_rod, world.max_violation(true));
      for (const Contact& c : world.state().contacts.contacts) {
        CHECK(c.lambda >= 0.0);
        CHECK(glm::dot(c.impulse, c.normal) >= -1e-12);
      }
      touching = std::max(touching, contact_count(world.state()));
    }
    CAPTURE(std::string(solver));
    CHECK(touching >= 9);
    CHECK(worst_gap >= -1e-6);
    if (std::string(solver) == "projection") CHECK(worst_rod < 1e-10);
    if (std::string(solver) == "shake" || std::string(solver) == "rattle") CHECK(worst_rod < 1e-9);
  }
}

TEST_CASE("a column of rods landing on a table in one substep a step: no link under the table, rods exact") {
  // 60 rods of 2 cm standing on a table as a zigzag column (links ±2 mm off the vertical), balls of 8 mm and 15 g at
  // the joints, μ = 0 and 0.5, e = 0, no particle–particle contacts, 1/60 s in a single substep: the column falls onto
  // its own foot and folds. The projection's active set went round there, rows joining and leaving for all 32 of its
  // passes, and the last pass counted as converged with joints under the table: 0.74 radii (projection, μ = 0.5),
  // 0.97 (SHAKE, which hands a lost contact substep to projection), 1.6 (RATTLE). A column that started 2 % off its
  // lengths ended a substep with rods at 3.1 times their length. Now an active set still changing is a lost
  // projection, and a lost substep with rods and contacts is done again as two halves (world.cpp). After every step
  // of 2 s: no joint under the table by 1e-6 of a radius, every rod within 1e-9 of its length, no failure left.
  for (const char* solver : {"projection", "shake", "rattle"}) {
    for (double mu : {0.0, 0.5}) {
      CAPTURE(std::string(solver));
      CAPTURE(mu);
      Settings settings = contact_settings(solver);
      settings.substeps = 1;
      World world(2, settings);
      const int links = 60;
      const double length = 0.02, offset = 0.002, r = 0.008;
      const double rise = std::sqrt(length * length - 4.0 * offset * offset);  // every link exactly `length`
      for (int k = 0; k <= links; ++k)
        world.add_particle({.position = {k % 2 == 0 ? offset : -offset, r + k * rise, 0.0}, .mass = 0.015, .radius = r});
      for (int k = 0; k < links; ++k) world.add_distance(k, k + 1, length);
      ContactSettings contacts;
      contacts.given = true;
      contacts.particles = false;
      contacts.friction = mu;
      contacts.obstacles.push_back(plane({0, 0, 0}, {0, 1, 0}));
      world.model().set_contacts(contacts);
      double deepest = 0.0, worst_rod = 0.0;
      int failures = 0;
      for (int s = 0; s < 120; ++s) {
        world.step();
        for (const Vec3& p : world.state().position) deepest = std::max(deepest, r - p.y);
        worst_rod = std::max(worst_rod, world.max_violation(true));
        failures += world.stats().failures;
      }
      CHECK(deepest <= 1e-6 * r);
      CHECK(worst_rod <= 1e-9);
      CHECK(failures == 0);
    }
  }
}

TEST_CASE("a pendulum leaning on a wall pushes it with m g tan(theta), every exact solver, and the rod holds") {
  // A bob of 2 kg on a rod of 1 m from a pivot, 30° from the vertical, held there by a frictionless wall on the side
  // it would swing to: at rest, tension T cos θ = m g and the wall's push N = T sin θ = m g tan θ (the wall reads −N
  // along x). The acceleration solver finds N in its C̈ system with the rod (the contact a row of it); the position
  // solvers find it in their projections. (Not `penalty`: its rod is an undamped stiff spring that rings on.)
  const double theta = std::numbers::pi / 6.0, mass = 2.0, r = 0.05;
  for (const char* solver : {"projection", "shake", "rattle", "acceleration"}) {
    CAPTURE(std::string(solver));
    World world(2, contact_settings(solver));
    world.add_particle({.position = {0.0, 0.0, 0.0}, .fixed = true});
    world.add_particle({.position = {std::sin(theta), -std::cos(theta), 0.0}, .mass = mass, .radius = r});
    world.add_distance(0, 1, -1.0);
    ContactSettings contacts;
    contacts.given = true;
    contacts.obstacles.push_back(plane({std::sin(theta) - r, 0, 0}, {1, 0, 0}));
    world.model().set_contacts(contacts);
    for (int s = 0; s < 120; ++s) world.step();
    CHECK(obstacle_force(world.state(), 0).x == doctest::Approx(-mass * kG * std::tan(theta)).epsilon(1e-3));
    CHECK(std::abs(obstacle_force(world.state(), 0).y) < 1e-9);
    CHECK(world.max_violation(true) < 1e-3);
    CHECK(world.state().position[1].x == doctest::Approx(std::sin(theta)).epsilon(1e-3));
  }
}

TEST_CASE("a cable goes slack where its tension reaches zero, cos θ = −(v0² − 2gL)/(3gL), then the ball is a projectile") {
  const double L = 1.0, v0 = std::sqrt(3.5 * kG * L);
  const double cos_slack = -(v0 * v0 - 2.0 * kG * L) / (3.0 * kG * L);
  const double slack_angle = std::acos(cos_slack), speed = std::sqrt(-kG * L * cos_slack);
  // The projectile from the slack point: its apex above the pivot.
  const double apex = -L * cos_slack + std::pow(speed * std::sin(slack_angle), 2) / (2.0 * kG);
  for (const char* solver : {"projection", "shake", "rattle"}) {
    World world(2, contact_settings(solver));
    world.add_particle({.position = {0.0, 0.0, 0.0}, .fixed = true});
    world.add_particle({.position = {0.0, -L, 0.0}, .velocity = {v0, 0.0, 0.0}, .mass = 0.5});
    ConstraintDef def;
    def.type = "cable";
    def.particles = {0, 1};
    def.set("length", L);
    std::vector<ParticleDef> defs(2);
    world.add_constraint(find_kind("cable")->create(def, defs, 2));
    double angle_at_zero = -1.0, previous_angle = 0.0, previous_force = 0.0;
    std::vector<double> y;
    for (int s = 0; s < 70; ++s) {
      world.step();
      const Vec3 x = world.state().position[1];
      const double angle = std::atan2(x.x, -x.y);
      const double force = world.state().row_force[0];  // negative: tension
      if (angle_at_zero < 0.0 && s > 0 && force == 0.0 && previous_force < 0.0)
        angle_at_zero = previous_angle;
      previous_angle = angle < 0.0 ? angle + 2.0 * std::numbers::pi : angle;
      previous_force = force;
      y.push_back(x.y);
      CHECK(glm::length(x) <= L * (1.0 + 1e-10));  // never longer than the cable
    }
    double highest = -INFINITY;
    for (std::size_t i = 1; i + 1 < y.size(); ++i)
      if (y[i] >= y[i - 1] && y[i] >= y[i + 1]) highest = std::max(highest, apex_of(y[i - 1], y[i], y[i + 1]));
    CAPTURE(std::string(solver));
    // Tension goes to zero within one step of the closed-form angle (the ball moves 0.05 rad per step there).
    CHECK(angle_at_zero == doctest::Approx(slack_angle).epsilon(0.05));
    CHECK(highest == doctest::Approx(apex).epsilon(1e-3));
  }
}

TEST_CASE("a slack cable does nothing: two particles joined by one fall freely and approach") {
  World world(2, contact_settings());
  world.add_particle({.position = {0.0, 0.0, 0.0}, .velocity = {1.0, 0.0, 0.0}, .mass = 1.0});
  world.add_particle({.position = {0.5, 0.0, 0.0}, .velocity = {-1.0, 0.0, 0.0}, .mass = 1.0});
  ConstraintDef def;
  def.type = "cable";
  def.particles = {0, 1};
  def.set("length", 1.0);
  std::vector<ParticleDef> defs(2);
  world.add_constraint(find_kind("cable")->create(def, defs, 2));
  for (int s = 0; s < 6; ++s) world.step();
  CHECK(world.state().velocity[0].x == doctest::Approx(1.0).epsilon(1e-15));
  CHECK(world.state().row_force[0] == 0.0);
  CHECK(slack(world.model(), world.state(), 0) > 0.5);
}

TEST_CASE("contacts: the same run twice gives the same bits") {
  const auto run = [] {
    Scene scene = load_scene_file(std::string(LAGRANGE_ASSETS_DIR) + "/gas_in_a_box.json");
    World world = make_world(scene);
    for (int s = 0; s < 60; ++s) world.step();
    return world.state().position;
  };
  const auto a = run(), b = run();
  for (std::size_t i = 0; i < a.size(); ++i) CHECK(a[i] == b[i]);
}

TEST_CASE("scene keys: contacts, obstacles, radius and cable round-trip through the writer, and a saved run continues") {
  const std::string text = R"({"dimension": 2, "gravity": [0, -9.81],
    "particles": [{"position": [0, 0.2], "mass": 1, "radius": 0.1}, {"position": [0.15, 0.5], "mass": 2, "radius": 0.05}],
    "constraints": [{"type": "cable", "particles": [0, 1], "length": 0.5}],
    "contacts": {"restitution": 0.25, "friction": 0.5, "particles": false},
    "obstacles": [{"type": "plane", "point": [0, 0], "normal": [0, 2], "restitution": 0.75},
                  {"type": "box", "min": [-1, -1], "max": [1, 2], "friction": 0.1},
                  {"type": "circle", "center": [0.4, 0.1], "radius": 0.05}]})";
  const Scene scene = parse_scene(text, "keys.json");
  CHECK(scene.contacts.given);
  CHECK(scene.contacts.restitution == 0.25);
  CHECK(scene.contacts.friction == 0.5);
  CHECK_FALSE(scene.contacts.particles);
  REQUIRE(scene.contacts.obstacles.size() == 3);
  CHECK(scene.contacts.obstacles[0].restitution == 0.75);
  CHECK_FALSE(scene.contacts.obstacles[0].friction);
  CHECK(scene.contacts.obstacles[2].shape == ObstacleShape::Sphere);
  World world = make_world(scene);
  for (int s = 0; s < 30; ++s) world.step();
  const Scene saved = parse_scene(write_scene(scene_of(world, &scene)), "saved.json");
  CHECK(write_scene(saved) == write_scene(scene_of(world, &scene)));
  CHECK(saved.particles[0].radius == 0.1);
  CHECK(saved.constraints[0].type == "cable");
  CHECK(saved.contacts.obstacles[1].friction == 0.1);
  // Continued from the saved state: the same bits as one run.
  World continued = make_world(saved);
  for (int s = 0; s < 30; ++s) {
    world.step();
    continued.step();
  }
  for (std::size_t i = 0; i < 2; ++i) {
    CHECK(continued.state().position[i] == world.state().position[i]);
    CHECK(continued.state().velocity[i] == world.state().velocity[i]);
  }
}

TEST_CASE("scene keys: bad contact input is refused with the file, the JSON path and the problem") {
  const auto problem = [](const std::string& extra, const char* dimension = "2") {
    try {
      parse_scene(std::string(R"({"dimension": )") + dimension +
                      R"(, "particles": [{"position": [0, 0, 0], "mass": 1, "radius": 0.1}])" + extra + "}",
                  "bad.json");
    } catch (const SceneError& error) {
      return std::string(error.what());
    }
    return std::string("accepted");
  };
  CHECK(problem(R"(, "contacts": {"restitution": 1.5})").find("bad.json: contacts.restitution: must be a number in [0, 1]") == 0);
  CHECK(problem(R"(, "contacts": {"restitution": -0.1})").find("contacts.restitution") != std::string::npos);
  CHECK(problem(R"(, "contacts": {"friction": -1})").find("bad.json: contacts.friction: must be a number >= 0") == 0);
  CHECK(problem(R"(, "contacts": {"bounce": 1})").find("contacts.bounce: unknown key") != std::string::npos);
  CHECK(problem(R"(, "obstacles": [{"type": "plane", "point": [0, 0], "normal": [0, 0]}])")
            .find("bad.json: obstacles[0].normal: must be a non-zero vector") == 0);
  CHECK(problem(R"(, "obstacles": [{"type": "box", "min": [0, 0], "max": [1, 0]}])")
            .find("bad.json: obstacles[0].max[1]: must be greater than min[1]") == 0);
  CHECK(problem(R"(, "obstacles": [{"type": "circle", "center": [0, 0], "radius": -1}])")
            .find("obstacles[0].radius: must be a positive number") != std::string::npos);
  CHECK(problem(R"(, "obstacles": [{"type": "circle", "center": [0, 0, 0], "radius": 1}])", "3")
            .find("obstacles[0].type: \"circle\" is for a 2D scene") != std::string::npos);
  CHECK(problem(R"(, "obstacles": [{"type": "sphere", "center": [0, 0], "radius": 1}])")
            .find("obstacles[0].type: \"sphere\" is for a 3D scene") != std::string::npos);
  CHECK(problem(R"(, "obstacles": [{"type": "plane", "point": [0, 0], "normal": [0, 1], "friction": -2}])")
            .find("obstacles[0].friction") != std::string::npos);
  CHECK(problem(R"(, "obstacles": [{"type": "wedge"}])").find("obstacles[0].type: unknown obstacle type") !=
        std::string::npos);
  CHECK(problem(R"(, "obstacles": {"type": "plane"})").find("obstacles: must be an array") != std::string::npos);
  std::string radius;
  try {
    parse_scene(R"({"particles": [{"position": [0, 0], "mass": 1, "radius": -0.1}]})", "r.json");
  } catch (const SceneError& error) {
    radius = error.what();
  }
  CHECK(radius.find("r.json: particles[0].radius: must be zero or a positive number") == 0);
}

TEST_CASE("a pile whose contact sweeps stop short never gains energy: it sags, it does not blow apart") {
  // 676 balls of 1 cm (26 columns, 26 rows) released from a loose square grid in a box, e = 0, μ = 0.3, with 8 sweeps
  // a substep: far too few for a pile 26 balls high, so every substep ends unfinished (counted as failures). With
  // no impact elastic and friction only taking, the energy K + U may only fall; the fastest ball may not outrun a
  // free fall from the top of the grid (√(2 g H)). Started warm from unfinished multipliers, or pushing a carried
  // overlap out as velocity, such a pile blew apart (2000 balls: 70 J to 370 J in 4 steps).
  for (const std::string solver : {"projection", "shake", "acceleration"}) {
    CAPTURE(solver);
    Settings settings = contact_settings(solver.c_str());
    settings.max_iterations = 8;
    settings.contact_sweeps = 8;  // (automatic, a pile this small gets 100)
    World world(2, settings);
    const double r = kPileRadius, spacing = 2.2 * r;
    const int columns = 26;
    add_pile(world, columns, 7);
    const double top = 1.05 * r + (columns - 1) * spacing, fastest = std::sqrt(2.0 * kG * top);
    const double e0 = world.energy().total();
    double highest = e0, speed = 0.0;
    long failures = 0;
    for (int s = 0; s < 45; ++s) {
      world.step();
      failures += world.stats().failures;
      highest = std::max(highest, world.energy().total());
      for (const Vec3& v : world.state().velocity) speed = std::max(speed, glm::length(v));
    }
    CHECK(failures > 0);  // the case this test is about: sweeps that stop short
    CHECK(std::isfinite(highest));
    CHECK(highest <= e0 + 1e-9 * std::abs(e0));
    CHECK(speed < fastest);
    CHECK(world.energy().total() < e0);
  }
}

TEST_CASE("a pile at 3000 sweeps a substep comes to rest with nothing thrown: no warm start from a crawl") {
  // 576 balls of 1 cm (24 columns, 24 rows) released from a loose grid into a box, e = 0, μ = 0.3, with 3 000 sweeps
  // a substep. With no elastic impact and friction only taking, the energy K + U may not rise above its start, and no
  // ball may outrun a free fall from the top of the grid (√(2 g H)). Where the sweeps ended short of the tolerance
  // but within 1e-3 of a radius, crawling (0.996 a sweep), their multipliers were kept for the warm start as if near
  // balance, and they threw this pile at its 13th step: 0.3 J of kinetic energy to 12.7 J, the total from 14.9 J to
  // 25.6 J. (Either rule alone stops that here: the warm start kept only near balance by the sweeps' rate, or dropped
  // when the projection it starts gains energy, next test.)
  Settings settings = contact_settings("projection");
  settings.contact_sweeps = 3000;
  World world(2, settings);
  const int columns = 24;
  add_pile(world, columns, 7);
  const double top = 1.05 * kPileRadius + (columns - 1) * 2.2 * kPileRadius, fastest = std::sqrt(2.0 * kG * top);
  const double e0 = world.energy().total();
  double highest = e0, speed = 0.0;
  for (int s = 0; s < 14; ++s) {
    world.step();
    highest = std::max(highest, world.energy().total());
    for (const Vec3& v : world.state().velocity) speed = std::max(speed, glm::length(v));
  }
  CHECK(highest <= e0 + 1e-9 * std::abs(e0));
  CHECK(speed < fastest);
}

TEST_CASE("warm multipliers that would throw a frictionless pile apart are dropped: it only loses energy") {
  // 150 balls of radii 0.7–1.3 × 3 cm and masses 0.2–5 kg released from a loose grid (6 columns of 25, 9 cm apart)
  // into a box 0.6 m wide, e = 0, μ = 0, four random draws of radii, masses and jitter. With no elastic impact, no
  // friction and no work done on it, the pile's energy K + U may only fall, except by what the stabilization restores
  // of an unfinished substep's sag (far below 1 J here). Started from the last substep's multipliers where the balls
  // had moved on, the sweeps converged on far roots (a ball 9 cm from its prediction) and each of these piles gained
  // 55 to 330 J in one step (acceleration, whose contacts take the same path: the same).
  for (const std::string solver : {"projection", "acceleration"}) {
    for (const unsigned seed : {4u, 5u, 15u, 21u}) {
      CAPTURE(solver);
      CAPTURE(seed);
      World world(2, contact_settings(solver.c_str()));
      std::mt19937 random(seed);
      std::uniform_real_distribution<double> unit(0.0, 1.0);
      const double r = 0.03, spacing = 2.3 * 1.3 * r, width = 0.6;
      const int columns = static_cast<int>(width / spacing);
      for (int k = 0; k < 150; ++k) {
        const double x = -0.5 * width + spacing * (k % columns + 0.5) + (unit(random) - 0.5) * 0.2 * r;
        world.add_particle({.position = {x, 1.5 * r + spacing * (k / columns), 0.0},
                            .mass = 0.2 + 4.8 * unit(random),
                            .radius = r * (0.7 + 0.6 * unit(random))});
      }
      ContactSettings contacts;
      contacts.given = true;
      Obstacle box;
      box.shape = ObstacleShape::Box;
      box.min = Vec3(-0.5 * width, 0.0, 0.0);
      box.max = Vec3(0.5 * width, 4.0, 0.0);
      contacts.obstacles.push_back(box);
      world.model().set_contacts(contacts);
      const double e0 = world.energy().total();
      double last = e0, rise = 0.0;
      for (int s = 0; s < 60; ++s) {
        world.step();
        const double e = world.energy().total();
        rise = std::max(rise, e - last);
        last = e;
      }
      CHECK(rise < 1.0);
      CHECK(last < e0);
    }
  }
}

TEST_CASE("the table's force is the momentum the balls on it lose: a ball struck onto one resting on the table") {
  // A 1 kg ball of 5 cm rests on a table; a 3 kg ball of 5 cm falls onto it from 0.3 m (e = 0, with and without
  // friction, the upper ball a little off centre). Newton's second law for the two balls over every step: the change
  // of their momentum is gravity's impulse plus the table's, so the table's mean force over the step (the obstacle
  // columns) is −(ΔP/dt + M g), to rounding. RATTLE booked each contact as twice its first half kick, 2λ/h², and
  // reported 16 % more impulse than the balls lost in the step the impact passed through the lower ball.
  for (const std::string solver : {"projection", "shake", "rattle", "acceleration"}) {
    for (const double mu : {0.0, 0.5}) {
      CAPTURE(solver);
      CAPTURE(mu);
      World world(2, contact_settings(solver.c_str()));
      const double r = 0.05;
      world.add_particle({.position = {0.0, r, 0.0}, .mass = 1.0, .radius = r});
      world.add_particle({.position = {0.01, 0.4, 0.0}, .mass = 3.0, .radius = r});
      ContactSettings contacts;
      contacts.given = true;
      contacts.friction = mu;
      contacts.obstacles.push_back(plane({0, 0, 0}, {0, 1, 0}));
      world.model().set_contacts(contacts);
      const double dt = world.settings().dt, weight = 4.0 * kG;
      const auto momentum = [&world] {
        Vec3 p(0.0);
        const auto inv_mass = world.model().inv_mass();
        for (std::size_t i = 0; i < inv_mass.size(); ++i) p += world.state().velocity[i] / inv_mass[i];
        return p;
      };
      double worst = 0.0, largest = 0.0;
      for (int s = 0; s < 60; ++s) {
        const Vec3 before = momentum();
        world.step();
        const Vec3 table = obstacle_force(world.state(), 0);  // on the table
        const Vec3 expected = -((momentum() - before) / dt - Vec3(0.0, -weight, 0.0));
        worst = std::max(worst, glm::length(table - expected));
        largest = std::max(largest, glm::length(expected));
      }
      CHECK(largest > 5.0 * weight);  // the impact's step is among them
      CHECK(worst <= 1e-9 * largest);
    }
  }
}

TEST_CASE("a pile 20 balls high with friction finishes every substep within the scene's 100 sweeps: no overlap") {
  // 400 balls of 1 cm (20 columns, 20 rows) released from a loose grid into a box exactly 22 balls wide, e = 0,
  // μ = 0.3, the default 100 sweeps a substep. Gauss–Seidel alone needs the pile's height squared of sweeps and left
  // it unfinished in 712 of 720 substeps, overlapping by 0.2 % of a radius; with the subspace steps every substep
  // must end at the contact tolerance: no two balls closer than the sum of their radii, nor a ball through a wall,
  // by more than 1e-6 of a radius, after any step; and with no elastic impact, the energy may only fall. (Projection:
  // SHAKE's contacts still end 453 substeps unfinished here.)
  for (const std::string solver : {"projection"}) {
    CAPTURE(solver);
    World world(2, contact_settings(solver.c_str()));
    const double r = kPileRadius, spacing = 2.2 * r;
    const int columns = 20, n = columns * columns;
    add_pile(world, columns, 11);
    const double width = columns * spacing;
    const double e0 = world.energy().total();
    long failures = 0;
    double deepest = 0.0;
    for (int s = 0; s < 120; ++s) {
      world.step();
      failures += world.stats().failures;
      const auto& x = world.state().position;
      for (int i = 0; i < n; ++i) {
        for (int j = i + 1; j < n; ++j) deepest = std::max(deepest, 2.0 * r - glm::length(x[i] - x[j]));
        deepest = std::max({deepest, r - x[i].x, x[i].x + r - width, r - x[i].y});
      }
    }
    CHECK(failures == 0);
    CHECK(deepest <= 1e-6 * r);
    CHECK(world.energy().total() < e0);
  }
}

TEST_CASE("a small frictionless pile at the default settings: no ball into another or a wall by 1e-6 of a radius") {
  // 60 balls of 5 cm and 1 kg released from a loose grid (7 columns, 0.13 m apart, rows nudged by up to 4 mm) into a
  // 1 m wide box, e = 0, no friction, every setting the default but the 4 substeps. Frictionless balls roll into
  // their pockets for seconds; with the contact sweeps capped at max_iterations (100) 174 substeps in 3 s ended
  // unfinished and balls 2.9e-4 of a radius into each other. The automatic cap gives a pile this small about
  // 1 000 sweeps (sweep_cap): after every step, no two balls closer than the sum of their radii, nor a ball past a
  // wall, by more than 1e-6 of a radius, in every solver (each failed it with the cap at 100).
  for (const char* solver : {"projection", "shake", "rattle", "acceleration", "penalty"}) {
    CAPTURE(std::string(solver));
    World world(2, contact_settings(solver));
    const double r = 0.05;
    const int n = 60;
    for (int i = 0; i < n; ++i)
      world.add_particle({.position = {-0.4 + 0.13 * (i % 7) + 0.002 * ((i * 7) % 5 - 2), 0.2 + 0.13 * (i / 7), 0.0},
                          .mass = 1.0,
                          .radius = r});
    ContactSettings contacts;
    contacts.given = true;
    Obstacle box;
    box.shape = ObstacleShape::Box;
    box.min = {-0.5, 0.0, 0.0};
    box.max = {0.5, 5.0, 0.0};
    contacts.obstacles.push_back(box);
    world.model().set_contacts(contacts);
    double deepest = 0.0;
    for (int s = 0; s < 180; ++s) {
      world.step();
      const auto& x = world.state().position;
      for (int i = 0; i < n; ++i) {
        for (int j = i + 1; j < n; ++j) deepest = std::max(deepest, 2.0 * r - glm::length(x[i] - x[j]));
        deepest = std::max({deepest, r - x[i].y, x[i].x + r - 0.5, -0.5 - (x[i].x - r)});
      }
    }
    CHECK(deepest <= 1e-6 * r);
  }
}

TEST_CASE("a pile whose contact sweeps stop short still weighs what it weighs on the floor") {
  // 100 balls of 1 cm (20 columns, 5 rows) settle in a box with 4 sweeps a substep: every substep ends unfinished.
  // Once they lie still, the floor carries their weight (Newton's third law on the settled pile): the mean force over
  // the last second, against n m g. SHAKE reported 2λ/h² for an unfinished substep whose second half kick it had not
  // given: 16.0 N for a 9.81 N pile (and booked the contacts as taking energy the pile never lost).
  for (const std::string solver : {"projection", "shake"}) {
    CAPTURE(solver);
    Settings settings = contact_settings(solver.c_str());
    settings.max_iterations = 4;
    settings.contact_sweeps = 4;  // (automatic, a pile this small gets hundreds)
    World world(2, settings);
    const double r = 0.01, spacing = 2.35 * r, m = 0.01;
    const int columns = 20, n = 100;
    for (int k = 0; k < n; ++k)
      world.add_particle({.position = {(k % columns + 0.5) * spacing, 1.2 * r + (k / columns) * spacing, 0.0},
                          .mass = m,
                          .radius = r});
    ContactSettings contacts;
    contacts.given = true;
    contacts.restitution = 0.3;
    contacts.friction = 0.3;
    Obstacle box;
    box.shape = ObstacleShape::Box;
    box.min = Vec3(0.0, 0.0, 0.0);
    box.max = Vec3(columns * spacing, 1.0, 0.0);
    contacts.obstacles.push_back(box);
    world.model().set_contacts(contacts);
    const int steps = static_cast<int>(std::lround(3.0 / settings.dt)), last = static_cast<int>(std::lround(1.0 / settings.dt));
    double floor = 0.0;
    long failures = 0;
    for (int s = 0; s < steps; ++s) {
      world.step();
      failures += world.stats().failures;
      if (s >= steps - last) floor += obstacle_force(world.state(), 0).y / last;
    }
    CHECK(failures > 0);  // unfinished, the case this test is about
    CHECK(-floor == doctest::Approx(n * m * kG).epsilon(0.01));
  }
}
