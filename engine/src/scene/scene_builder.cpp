// The scene builder: Scene → World (make_world) and back (scene_of). Every check runs again here, so a scene built
// in code meets the same rules, with the same messages, as one read from a file.
#include <algorithm>
#include <cmath>
#include <optional>
#include <tuple>
#include <string>

#include "lagrange/scene.h"
#include "lagrange/text.h"
#include "scene_checks.h"

namespace lagrange {

using namespace scene_detail;

World make_world(const Scene& scene, const Settings& settings) {
  const std::string file = scene.source.empty() ? "scene " + in_quotes(scene.name) : scene.source;
  const auto fail = [&](const std::string& path, const std::string& problem) { scene_detail::fail(file, path, problem); };
  if (scene.dimension != 2 && scene.dimension != 3)
    fail("dimension", "must be 2 or 3, got " + std::to_string(scene.dimension));
  if (scene.dimension == 2 && settings.gravity.z != 0.0)
    fail("settings.gravity[2]", "must be 0 in a 2D scene, got " + format_number(settings.gravity.z) +
                                    " (set \"dimension\": 3 for a 3D scene)");
  std::optional<World> world;
  try {
    world.emplace(scene.dimension, settings);
  } catch (const Error& error) {
    fail("settings", error.what());
  }
  // Each item's path ("particles[12]") is spelled only when it has a problem: 100 000 of them cost a tenth of the
  // start-up of a 100 000-link chain.
  for (std::size_t i = 0; i < scene.particles.size(); ++i) {
    if (auto problem = particle_problem(scene.particles[i], scene.dimension))
      fail_on(file, join_index("particles", i), problem);
    try {
      world->add_particle(scene.particles[i]);
    } catch (const Error& error) {
      fail(join_index("particles", i), error.what());
    }
  }
  for (std::size_t i = 0; i < scene.constraints.size(); ++i) {
    const ConstraintDef& c = scene.constraints[i];
    if (auto problem = constraint_problem(c, scene.particles, scene.dimension))
      fail_on(file, join_index("constraints", i), problem);
    try {
      std::unique_ptr<Constraint> constraint = find_kind(c.type)->create(c, scene.particles, scene.dimension);
      constraint->set_compliance(c.compliance, c.damping);
      world->add_constraint(std::move(constraint));
    } catch (const Error& error) {
      fail(join_index("constraints", i), error.what());
    }
  }
  std::string field;
  if (std::string problem = contact_settings_problem(scene.contacts, field); !problem.empty())
    fail(join_key("contacts", field), problem);
  for (std::size_t k = 0; k < scene.contacts.obstacles.size(); ++k)
    if (std::string problem = obstacle_problem(scene.contacts.obstacles[k], scene.dimension, field); !problem.empty())
      fail(field.empty() ? join_index("obstacles", k) : join_key(join_index("obstacles", k), field), problem);
  world->model().set_contacts(scene.contacts);
  if (scene.state) {
    const SceneState& saved = *scene.state;
    State& state = world->state();
    // The contacts' warm starts: only those that name particles, obstacles and faces of this scene.
    const int n = static_cast<int>(scene.particles.size());
    const int obstacles = static_cast<int>(scene.contacts.obstacles.size());
    for (std::size_t k = 0; k < saved.contacts.size(); ++k) {
      const Contact& c = saved.contacts[k];
      const bool pair = c.other >= 0 && c.obstacle < 0;
      const bool face = c.other == -1 && c.obstacle >= 0 && c.obstacle < obstacles && c.face >= 0 && c.face < 6;
      if (c.particle < 0 || c.particle >= n || (pair && c.other >= n) || !(pair || face) ||
          (pair && c.other <= c.particle))
        fail(join_index("state.contacts", k), "names no contact of this scene (a particle, then a later particle "
                                              "and -1, or -1 and an obstacle with its face)");
      Contact kept = c;
      kept.impulse = Vec3(0.0);
      state.contacts.contacts.push_back(kept);
    }
    std::sort(state.contacts.contacts.begin(), state.contacts.contacts.end(), [](const Contact& a, const Contact& b) {
      return std::tie(a.particle, a.other, a.obstacle, a.face) < std::tie(b.particle, b.other, b.obstacle, b.face);
    });
    if (!saved.row_force.empty()) {
      if (saved.row_force.size() != state.row_force.size())
        fail("state.row_force", "must list one force per constraint row (" + std::to_string(state.row_force.size()) +
                                    "), got " + std::to_string(saved.row_force.size()));
      state.row_force = saved.row_force;
    }
    state.step = saved.step;
    state.time = saved.time;
    // The clock (model.h): time = clock_time + (step − clock_step) · dt. Saved files carry its origin; a state
    // written by hand without one starts the clock at 0 when its time is exactly step · dt, else at (time, step).
    if (saved.clock_time && saved.clock_step) {
      state.clock_time = *saved.clock_time;
      state.clock_step = *saved.clock_step;
    } else if (static_cast<double>(saved.step) * settings.dt == saved.time) {
      state.clock_time = 0.0;
      state.clock_step = 0;
    } else {
      state.clock_time = saved.time;
      state.clock_step = saved.step;
    }
    state.work = saved.work;
    state.start_energy = saved.start_energy;
    state.newton_lost = saved.newton_lost;
  }
  return std::move(*world);
}

World make_world(const Scene& scene) { return make_world(scene, scene.settings); }

Scene scene_of(const World& world, const Scene* original) {
  Scene scene;
  if (original) {
    scene.name = original->name;
    scene.description = original->description;
    scene.source = original->source;
  }
  scene.dimension = world.dimension();
  scene.settings = world.settings();
  const Model& model = world.model();
  const State& state = world.state();
  for (std::size_t i = 0; i < model.particle_count(); ++i) {
    ParticleDef p;
    if (original && i < original->particles.size()) p = original->particles[i];  // radius, colour
    p.position = state.position[i];
    p.velocity = model.fixed(i) ? Vec3(0.0) : state.velocity[i];
    p.fixed = model.fixed(i);
    p.mass = model.fixed(i) ? 1.0 : model.mass(i);
    p.radius = model.radius(i);
    scene.particles.push_back(p);
  }
  scene.contacts = model.contacts();
  SceneState saved;
  for (const Contact& c : state.contacts.contacts)
    if (c.lambda != 0.0 || c.lambda_t != Vec3(0.0)) saved.contacts.push_back(c);
  saved.step = state.step;
  saved.time = state.time;
  saved.work = state.work;
  saved.start_energy = state.start_energy;
  saved.newton_lost = state.newton_lost;
  saved.clock_time = state.clock_time;
  saved.clock_step = state.clock_step;
  const auto rows = model.rows();
  for (const auto& c : model.constraints()) {
    if (c->tool()) continue;
    ConstraintDef def = c->definition();
    def.compliance = c->compliance();
    def.damping = c->damping();
    scene.constraints.push_back(std::move(def));
  }
  for (std::size_t r = 0; r < rows.size(); ++r)
    if (!rows[r].constraint->tool()) saved.row_force.push_back(state.row_force[r]);
  scene.state = std::move(saved);
  return scene;
}

}  // namespace lagrange
