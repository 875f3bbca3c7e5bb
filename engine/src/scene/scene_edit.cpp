// Scene editing (scene_edit.h): the editor's operations as plain functions on a Scene.
#include "lagrange/scene_edit.h"

#include <algorithm>
#include <cmath>
#include <deque>

namespace lagrange::edit {
namespace {

bool valid_particle(const Scene& scene, int p) { return p >= 0 && static_cast<std::size_t>(p) < scene.particles.size(); }

bool is_rod(const ConstraintDef& def) { return has_role(def, KindRole::Rod) && def.particles.size() == 2; }

bool joins(const ConstraintDef& def, int p) {
  return std::find(def.particles.begin(), def.particles.end(), p) != def.particles.end();
}

// Held in place: fixed, or pinned.
std::vector<bool> anchored(const Scene& scene) {
  std::vector<bool> held(scene.particles.size(), false);
  for (std::size_t i = 0; i < scene.particles.size(); ++i) held[i] = scene.particles[i].fixed;
  for (const ConstraintDef& def : scene.constraints)
    if (has_role(def, KindRole::Pin) && def.particles.size() == 1 && valid_particle(scene, def.particles[0]))
      held[static_cast<std::size_t>(def.particles[0])] = true;
  return held;
}

// Hops from the nearest anchored particle, along every constraint joining two or more particles (-1: none reaches).
std::vector<int> hops_from_anchor(const Scene& scene) {
  const std::vector<bool> held = anchored(scene);
  std::vector<int> hops(scene.particles.size(), -1);
  std::deque<int> queue;
  for (std::size_t i = 0; i < held.size(); ++i)
    if (held[i]) {
      hops[i] = 0;
      queue.push_back(static_cast<int>(i));
    }
  while (!queue.empty()) {
    const int p = queue.front();
    queue.pop_front();
    for (const ConstraintDef& def : scene.constraints) {
      if (!joins(def, p)) continue;
      for (int q : def.particles)
        if (valid_particle(scene, q) && hops[static_cast<std::size_t>(q)] < 0) {
          hops[static_cast<std::size_t>(q)] = hops[static_cast<std::size_t>(p)] + 1;
          queue.push_back(q);
        }
    }
  }
  return hops;
}

// The particle's position slid onto its line or plane constraints (the foot of the perpendicular), when they name
// their point; a constraint without one passes through wherever the particle starts.
Vec3 onto_constraints(const Scene& scene, int p, Vec3 x) {
  for (const ConstraintDef& def : scene.constraints) {
    if (def.particles.size() != 1 || def.particles[0] != p) continue;
    const auto point = def.vector("point");
    if (!point) continue;
    if (has_role(def, KindRole::Line)) {
      const auto d = def.vector("direction");
      if (d && glm::length(*d) > 0.0 && finite(*d)) {
        const Vec3 u = glm::normalize(*d);
        x = *point + glm::dot(x - *point, u) * u;
      }
    } else if (has_role(def, KindRole::Plane)) {
      const auto n = def.vector("normal");
      if (n && glm::length(*n) > 0.0 && finite(*n)) {
        const Vec3 u = glm::normalize(*n);
        x -= glm::dot(x - *point, u) * u;
      }
    }
  }
  return x;
}

// After particle p moved: its rods with a length take the new distance, its pins with a point move with it.
void follow(Scene& scene, int p) {
  for (ConstraintDef& def : scene.constraints) {
    if (!joins(def, p)) continue;
    if (is_rod(def) && def.has("length")) {
      const int a = def.particles[0], b = def.particles[1];
      if (valid_particle(scene, a) && valid_particle(scene, b))
        def.set("length", glm::length(scene.particles[static_cast<std::size_t>(a)].position -
                                      scene.particles[static_cast<std::size_t>(b)].position));
    } else if (has_role(def, KindRole::Pin) && def.has("point")) {
      def.set("point", scene.particles[static_cast<std::size_t>(p)].position);
    }
  }
}

void renumber_after_removal(Scene& scene, const std::vector<bool>& removed) {
  std::vector<int> new_index(removed.size(), -1);
  int next = 0;
  for (std::size_t i = 0; i < removed.size(); ++i)
    if (!removed[i]) new_index[i] = next++;
  std::vector<ConstraintDef> kept;
  for (ConstraintDef& def : scene.constraints) {
    bool touches = false;
    for (int& q : def.particles) {
      if (!valid_particle(scene, q)) continue;
      if (removed[static_cast<std::size_t>(q)]) touches = true;
      else q = new_index[static_cast<std::size_t>(q)];
    }
    if (!touches) kept.push_back(std::move(def));
  }
  scene.constraints = std::move(kept);
  std::vector<ParticleDef> particles;
  for (std::size_t i = 0; i < removed.size(); ++i)
    if (!removed[i]) particles.push_back(scene.particles[i]);
  scene.particles = std::move(particles);
}

}  // namespace

int add_particle(Scene& scene, Vec3 position, double mass, bool fixed) {
  ParticleDef p;
  p.position = position;
  p.mass = mass;
  p.fixed = fixed;
  scene.particles.push_back(p);
  return static_cast<int>(scene.particles.size()) - 1;
}

int find_constraint(const Scene& scene, std::string_view type, std::span<const int> particles) {
  std::vector<int> wanted(particles.begin(), particles.end());
  std::sort(wanted.begin(), wanted.end());
  for (std::size_t c = 0; c < scene.constraints.size(); ++c) {
    const ConstraintDef& def = scene.constraints[c];
    if (def.type != type) continue;
    std::vector<int> have = def.particles;
    std::sort(have.begin(), have.end());
    if (have == wanted) return static_cast<int>(c);
  }
  return -1;
}

int add_obstacle(Scene& scene, const Obstacle& obstacle) {
  scene.contacts.obstacles.push_back(obstacle);
  return static_cast<int>(scene.contacts.obstacles.size()) - 1;
}

void remove_obstacle(Scene& scene, int obstacle) {
  auto& list = scene.contacts.obstacles;
  if (obstacle < 0 || static_cast<std::size_t>(obstacle) >= list.size()) return;
  list.erase(list.begin() + obstacle);
  if (scene.state) {  // the saved contacts name obstacles by index
    auto& contacts = scene.state->contacts;
    std::erase_if(contacts, [&](const Contact& c) { return c.obstacle == obstacle; });
    for (Contact& c : contacts)
      if (c.obstacle > obstacle) --c.obstacle;
  }
}

int add_rod(Scene& scene, int a, int b) {
  if (a == b || !valid_particle(scene, a) || !valid_particle(scene, b)) return -1;
  const int ends[] = {a, b};
  if (find_constraint(scene, kind_name(KindRole::Rod), ends) >= 0) return -1;
  ConstraintDef def;
  def.type = kind_name(KindRole::Rod);
  def.particles = {a, b};
  scene.constraints.push_back(def);
  return static_cast<int>(scene.constraints.size()) - 1;
}

void remove_particles(Scene& scene, std::span<const int> particles) {
  std::vector<bool> removed(scene.particles.size(), false);
  for (int p : particles)
    if (valid_particle(scene, p)) removed[static_cast<std::size_t>(p)] = true;
  renumber_after_removal(scene, removed);
}

void remove_constraints(Scene& scene, std::span<const int> constraints) {
  std::vector<bool> removed(scene.constraints.size(), false);
  for (int c : constraints)
    if (c >= 0 && static_cast<std::size_t>(c) < removed.size()) removed[static_cast<std::size_t>(c)] = true;
  std::vector<ConstraintDef> kept;
  for (std::size_t c = 0; c < removed.size(); ++c)
    if (!removed[c]) kept.push_back(std::move(scene.constraints[c]));
  scene.constraints = std::move(kept);
}

std::vector<int> constraints_on(const Scene& scene, int p) {
  std::vector<int> out;
  for (std::size_t c = 0; c < scene.constraints.size(); ++c)
    if (joins(scene.constraints[c], p)) out.push_back(static_cast<int>(c));
  return out;
}

void move_particles(Scene& scene, std::span<const int> particles, Vec3 delta) {
  std::vector<int> moved;
  for (int p : particles)
    if (valid_particle(scene, p) && std::find(moved.begin(), moved.end(), p) == moved.end()) moved.push_back(p);
  for (int p : moved) {
    ParticleDef& def = scene.particles[static_cast<std::size_t>(p)];
    def.position = onto_constraints(scene, p, def.position + delta);
    if (scene.dimension == 2) def.position.z = 0.0;
  }
  for (int p : moved) follow(scene, p);
}

void set_position(Scene& scene, int p, Vec3 position) {
  if (!valid_particle(scene, p)) return;
  const int one[] = {p};
  move_particles(scene, one, position - scene.particles[static_cast<std::size_t>(p)].position);
}

int pin_of(const Scene& scene, int p) {
  const int one[] = {p};
  return find_constraint(scene, kind_name(KindRole::Pin), one);
}

void set_fixed(Scene& scene, int p, bool fixed) {
  if (!valid_particle(scene, p)) return;
  if (fixed)
    for (int c = pin_of(scene, p); c >= 0; c = pin_of(scene, p)) {
      const int one[] = {c};
      remove_constraints(scene, one);
    }
  ParticleDef& def = scene.particles[static_cast<std::size_t>(p)];
  def.fixed = fixed;
  if (fixed) def.velocity = Vec3(0.0);
}

void set_pinned(Scene& scene, int p, bool pinned) {
  if (!valid_particle(scene, p)) return;
  const int existing = pin_of(scene, p);
  if (!pinned) {
    if (existing >= 0) {
      const int one[] = {existing};
      remove_constraints(scene, one);
    }
    return;
  }
  if (existing >= 0) return;
  scene.particles[static_cast<std::size_t>(p)].fixed = false;
  ConstraintDef def;
  def.type = kind_name(KindRole::Pin);
  def.particles = {p};
  scene.constraints.push_back(def);
}

std::optional<RodFrame> rod_frame(const Scene& scene, int constraint) {
  if (constraint < 0 || static_cast<std::size_t>(constraint) >= scene.constraints.size()) return std::nullopt;
  const ConstraintDef& def = scene.constraints[static_cast<std::size_t>(constraint)];
  if (!is_rod(def) || !valid_particle(scene, def.particles[0]) || !valid_particle(scene, def.particles[1]))
    return std::nullopt;
  const std::vector<int> hops = hops_from_anchor(scene);
  int pivot = def.particles[0], end = def.particles[1];
  const int ha = hops[static_cast<std::size_t>(pivot)], hb = hops[static_cast<std::size_t>(end)];
  if (hb >= 0 && (ha < 0 || hb < ha)) std::swap(pivot, end);
  const ParticleDef& o = scene.particles[static_cast<std::size_t>(pivot)];
  const ParticleDef& e = scene.particles[static_cast<std::size_t>(end)];
  const Vec3 r = e.position - o.position;
  RodFrame frame;
  frame.pivot = pivot;
  frame.end = end;
  frame.length = glm::length(r);
  if (!(frame.length > 0.0) || std::abs(r.z) > 1e-12 * frame.length) return std::nullopt;
  frame.angle = std::atan2(r.x, -r.y);
  const Vec3 v = e.velocity - o.velocity;
  frame.angular_velocity = (r.x * v.y - r.y * v.x) / (frame.length * frame.length);
  return frame;
}

std::vector<int> beyond(const Scene& scene, int constraint) {
  const auto frame = rod_frame(scene, constraint);
  if (!frame) return {};
  std::vector<bool> seen(scene.particles.size(), false);
  std::vector<int> out{frame->end}, stack{frame->end};
  seen[static_cast<std::size_t>(frame->end)] = true;
  while (!stack.empty()) {
    const int p = stack.back();
    stack.pop_back();
    for (std::size_t c = 0; c < scene.constraints.size(); ++c) {
      if (static_cast<int>(c) == constraint || !joins(scene.constraints[c], p)) continue;
      for (int q : scene.constraints[c].particles) {
        if (!valid_particle(scene, q) || seen[static_cast<std::size_t>(q)]) continue;
        if (q == frame->pivot || scene.particles[static_cast<std::size_t>(q)].fixed) return {frame->end};
        seen[static_cast<std::size_t>(q)] = true;
        out.push_back(q);
        stack.push_back(q);
      }
    }
  }
  return out;
}

void set_rod_angle(Scene& scene, int constraint, double angle) {
  const auto frame = rod_frame(scene, constraint);
  if (!frame || !std::isfinite(angle)) return;
  const Vec3 pivot = scene.particles[static_cast<std::size_t>(frame->pivot)].position;
  const Vec3 end = scene.particles[static_cast<std::size_t>(frame->end)].position;
  const Vec3 target = pivot + frame->length * Vec3(std::sin(angle), -std::cos(angle), 0.0) + Vec3(0.0, 0.0, end.z - pivot.z);
  const std::vector<int> moved = beyond(scene, constraint);
  move_particles(scene, moved, target - end);
}

void set_rod_angular_velocity(Scene& scene, int constraint, double angular_velocity) {
  const auto frame = rod_frame(scene, constraint);
  if (!frame || !std::isfinite(angular_velocity)) return;
  const ParticleDef& o = scene.particles[static_cast<std::size_t>(frame->pivot)];
  const ParticleDef& e = scene.particles[static_cast<std::size_t>(frame->end)];
  const Vec3 r = e.position - o.position;
  const Vec3 wanted = o.velocity + angular_velocity * Vec3(-r.y, r.x, 0.0);
  const Vec3 change = wanted - e.velocity;
  for (int p : beyond(scene, constraint)) {
    ParticleDef& def = scene.particles[static_cast<std::size_t>(p)];
    if (!def.fixed) def.velocity += change;
  }
}

void set_rod_length(Scene& scene, int constraint, double length) {
  const auto frame = rod_frame(scene, constraint);
  if (!frame || !(length > 0.0) || !std::isfinite(length)) return;
  const Vec3 pivot = scene.particles[static_cast<std::size_t>(frame->pivot)].position;
  const Vec3 end = scene.particles[static_cast<std::size_t>(frame->end)].position;
  const Vec3 target = pivot + (end - pivot) * (length / frame->length);
  move_particles(scene, beyond(scene, constraint), target - end);
  ConstraintDef& def = scene.constraints[static_cast<std::size_t>(constraint)];
  if (def.has("length")) def.set("length", length);
}

std::string scene_problem(const Scene& scene, const std::string& source, const SceneLimits& limits) {
  try {
    const Scene read = parse_scene(write_scene(scene), source, limits);
    (void)make_world(read);
    return {};
  } catch (const std::exception& error) {  // SceneError, or Error from building the world
    return error.what();
  }
}

Scene displayable(const Scene& scene, std::vector<int>* dropped) {
  Scene out = scene;
  out.state.reset();
  for (ParticleDef& p : out.particles) {
    if (!p.fixed && (!std::isfinite(p.mass) || p.mass <= 0.0)) p.mass = 1.0;
    if (!finite(p.position)) p.position = Vec3(0.0);
    if (!finite(p.velocity)) p.velocity = Vec3(0.0);
    if (out.dimension == 2) p.position.z = p.velocity.z = 0.0;
  }
  std::vector<ConstraintDef> kept;
  for (std::size_t c = 0; c < scene.constraints.size(); ++c) {
    if (constraint_problem(scene.constraints[c], out.particles, out.dimension)) {
      if (dropped) dropped->push_back(static_cast<int>(c));
      continue;
    }
    kept.push_back(scene.constraints[c]);
  }
  out.constraints = std::move(kept);
  return out;
}

}  // namespace lagrange::edit
