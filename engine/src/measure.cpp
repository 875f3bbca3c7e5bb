#include "lagrange/measure.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <queue>
#include <string>
#include <vector>

#include "lagrange/constraint_kinds.h"
#include "lagrange/solver.h"

namespace lagrange {

double spring_energy(const Model& model, const State& state) {
  const bool rigid_as_springs = model.solver_info().rods_are_springs;
  if (!rigid_as_springs && model.compliant_rows().empty()) return 0.0;
  double sum = 0.0;
  for (const Row& row : model.rows()) {
    const Constraint& c = *row.constraint;
    if (c.tool() || (c.compliance() == 0.0 && !rigid_as_springs)) continue;
    const double value = c.value(row.row, state.position);
    if (row.unilateral != 0 && row.unilateral * value >= 0.0) continue;  // a slack cable stores nothing
    sum += value * value * (c.compliance() > 0.0 ? 1.0 / c.compliance() : model.settings().stiffness);
  }
  return 0.5 * sum;
}

Energy energy(const Model& model, const State& state) {
  Energy e;
  const Vec3 g = model.settings().gravity;
  for (std::size_t i = 0; i < model.particle_count(); ++i) {
    if (model.fixed(i)) continue;
    const double m = model.mass(i);
    e.kinetic += 0.5 * m * glm::dot(state.velocity[i], state.velocity[i]);
    e.potential -= m * glm::dot(g, state.position[i]);
  }
  e.potential += spring_energy(model, state);
  return e;
}

Violation violation(const Model& model, const State& state) {
  Violation out;
  RowGradient grad;
  for (const Row& row : model.rows()) {
    // The mouse's rows, and compliant rows (springs, whose stretch is their physics, not an error), do not count.
    if (row.constraint->tool() || row.constraint->compliance() > 0.0) continue;
    const double value = row.constraint->evaluate(row.row, state.position, grad);
    double jv = 0.0;
    for (int s = 0; s < row.count; ++s) jv += glm::dot(grad[s], state.velocity[row.particle[s]]);
    if (row.unilateral != 0) {  // only past the bound; and J v only at the bound, moving past it
      const bool at_bound = row.unilateral * value <= 1e-9 * row.scale;
      jv = at_bound && row.unilateral * jv < 0.0 ? jv : 0.0;
    }
    const double c = row.unilateral != 0 ? std::max(0.0, -row.unilateral * value) : std::abs(value);
    // Written so that a NaN always wins.
    if (!(c <= out.absolute)) out.absolute = c;
    if (!(c / row.scale <= out.relative)) out.relative = c / row.scale;
    if (!(std::abs(jv) <= out.velocity)) out.velocity = std::abs(jv);
  }
  return out;
}

Vec3 obstacle_force(const State& state, int obstacle) {
  const ContactState& record = state.contacts;
  if (obstacle < 0 || static_cast<std::size_t>(obstacle) >= record.obstacle_impulse.size() || !(record.step_time > 0.0))
    return Vec3(0.0);
  return record.obstacle_impulse[static_cast<std::size_t>(obstacle)] / record.step_time;
}

int contact_count(const State& state) { return static_cast<int>(state.contacts.contacts.size()); }

double worst_overlap(const Model& model, const State& state) { return deepest_overlap(model, state).gap; }

std::string overlap_note(const Model& model, const State& state) {
  if (!model.contacts().any()) return {};
  const Overlap o = deepest_overlap(model, state);
  if (!(o.gap < -1e-6)) return {};
  char number[32];
  std::snprintf(number, sizeof number, "%.3g", -o.gap);
  const std::string depth = number;
  std::string how;
  if (o.other >= 0) {
    how = "particles " + std::to_string(o.particle) + " and " + std::to_string(o.other) + " start " + depth +
          (-o.gap < 1.0 ? " of a radius" : " radii") + " into each other";
  } else {
    // Which side is wrong depends on the shape: a box holds particles inside it, a plane on its normal's side, a
    // circle or sphere outside it.
    const ObstacleShape shape = model.contacts().obstacles[static_cast<std::size_t>(o.obstacle)].shape;
    const char* side = shape == ObstacleShape::Box     ? "outside"
                       : shape == ObstacleShape::Plane ? "behind"
                                                       : "inside";
    const char* rule = shape == ObstacleShape::Box     ? "particles stay inside it"
                       : shape == ObstacleShape::Plane ? "particles stay on its normal's side"
                                                       : "particles stay outside it";
    how = "particle " + std::to_string(o.particle) + " starts " + depth + (-o.gap < 1.0 ? " of its radius " : " radii ") +
          side + " obstacle " + std::to_string(o.obstacle) + " (a " +
          obstacle_type_name(shape, model.dimension()) + ": " + rule + ")";
  }
  return how + " (the deepest): the first step moves them apart, in position only";
}

Overlap deepest_overlap(const Model& model, const State& state) {
  const ContactSettings& contacts = model.contacts();
  const auto& x = state.position;
  const std::size_t n = x.size();
  Overlap worst;
  const auto take = [&worst](double gap, int particle, int other, int obstacle) {
    if (gap < worst.gap) worst = {gap, particle, other, obstacle};
  };
  if (contacts.particle_contacts()) {
    std::vector<std::pair<int, int>> joined;
    for (const auto& c : model.constraints()) {
      const auto ids = c->particles();
      for (std::size_t i = 0; i < ids.size(); ++i)
        for (std::size_t j = i + 1; j < ids.size(); ++j) joined.push_back(std::minmax(ids[i], ids[j]));
    }
    std::sort(joined.begin(), joined.end());
    // Sweep and prune along the axis the particles spread most on: a pair can touch only if their coordinates there
    // differ by at most the sum of their radii (a pile of 10 000 in a few milliseconds rather than a second).
    int axis = 0;
    double spread = -1.0;
    for (int k = 0; k < 3; ++k) {
      double lo = INFINITY, hi = -INFINITY;
      for (const Vec3& p : x) {
        if (!std::isfinite(p[k])) continue;
        lo = std::min(lo, p[k]);
        hi = std::max(hi, p[k]);
      }
      if (hi - lo > spread) {
        spread = hi - lo;
        axis = k;
      }
    }
    // A particle off the finite numbers has no finite gap to any other (the old pairwise loop skipped its NaN gaps)
    std::vector<int> order;
    for (std::size_t i = 0; i < n; ++i)
      if (std::isfinite(x[i].x) && std::isfinite(x[i].y) && std::isfinite(x[i].z)) order.push_back(static_cast<int>(i));
    std::sort(order.begin(), order.end(), [&](int a, int b) { return x[a][axis] < x[b][axis]; });
    double largest = 0.0;
    for (std::size_t i = 0; i < n; ++i) largest = std::max(largest, model.radius(i));
    for (std::size_t s = 0; s < order.size(); ++s) {
      const int i = order[s];
      for (std::size_t t = s + 1; t < order.size(); ++t) {
        const int j = order[t];
        if (x[j][axis] - x[i][axis] > model.radius(i) + largest) break;
        const double reach = model.radius(i) + model.radius(j);
        if (reach <= 0.0 || (model.fixed(i) && model.fixed(j))) continue;
        if (std::binary_search(joined.begin(), joined.end(), std::make_pair(std::min(i, j), std::max(i, j)))) continue;
        const double gap = glm::length(x[i] - x[j]) - reach;
        take(gap / std::max(model.radius(i), model.radius(j)), std::min(i, j), std::max(i, j), -1);
      }
    }
  }
  for (std::size_t k = 0; k < contacts.obstacles.size(); ++k)
    for (std::size_t i = 0; i < n; ++i) {
      const Obstacle& o = contacts.obstacles[k];
      if (model.fixed(i)) continue;
      const double r = model.radius(i), scale = r > 0.0 ? r : 1.0;
      double gap = INFINITY;
      switch (o.shape) {
        case ObstacleShape::Plane: gap = glm::dot(glm::normalize(o.normal), x[i] - o.point) - r; break;
        case ObstacleShape::Sphere: gap = glm::length(x[i] - o.center) - o.radius - r; break;
        case ObstacleShape::Box:
          for (int k = 0; k < model.dimension(); ++k)
            gap = std::min({gap, x[i][k] - o.min[k] - r, o.max[k] - x[i][k] - r});
          break;
      }
      take(gap / scale, static_cast<int>(i), -1, static_cast<int>(k));
    }
  return worst;
}

double slack(const Model& model, const State& state, int constraint) {
  if (constraint < 0 || static_cast<std::size_t>(constraint) >= model.constraints().size()) return 0.0;
  const Constraint& c = model.constraint(constraint);
  if (c.unilateral() == 0) return 0.0;
  return std::max(0.0, c.unilateral() * c.value(0, state.position));
}

Vec3 constraint_force(const Model& model, const State& state, int particle, int only) {
  Vec3 total(0.0);
  RowGradient grad;
  const auto rows = model.rows();
  for (std::size_t r = 0; r < rows.size() && r < state.row_force.size(); ++r) {
    const Row& row = rows[r];
    if (only >= 0 && row.constraint_index != only) continue;
    for (int s = 0; s < row.count; ++s) {
      if (row.particle[s] != particle) continue;
      row.constraint->evaluate(row.row, state.position, grad);
      total += state.row_force[r] * grad[s];
    }
  }
  return total;
}

void reach_bounds(const Model& model, const State& state, Vec3& lo, Vec3& hi) {
  const auto& x = state.position;
  lo = Vec3(std::numeric_limits<double>::infinity());
  hi = -lo;
  const std::size_t n = x.size();
  if (n == 0) {
    lo = Vec3(-1.0);
    hi = Vec3(1.0);
    return;
  }
  // Dijkstra from every anchor (a fixed particle, or one held by a pin, a wire or a plane) along the rods.
  std::vector<std::vector<std::pair<int, double>>> edges(n);
  std::vector<double> reach(n, std::numeric_limits<double>::infinity());
  std::vector<int> anchor(n, -1);
  using Item = std::pair<double, int>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> queue;
  const auto make_anchor = [&](int i) {
    if (reach[i] == 0.0) return;
    reach[i] = 0.0;
    anchor[i] = i;
    queue.push({0.0, i});
  };
  for (std::size_t i = 0; i < n; ++i)
    if (model.fixed(i)) make_anchor(static_cast<int>(i));
  for (const auto& c : model.constraints()) {
    if (c->tool()) continue;
    const auto ids = c->particles();
    // A rod, or a cable (|x_a − x_b| ≤ L, Constraint::unilateral() < 0): its particles stay within its length.
    if (has_role(*c, KindRole::Rod) || (c->unilateral() < 0 && ids.size() == 2)) {
      const double length = has_role(*c, KindRole::Rod) ? c->length() : c->length_scale(0);
      edges[ids[0]].push_back({ids[1], length});
      edges[ids[1]].push_back({ids[0], length});
    } else if (c->kind().arity == 1) {  // held at a point, on a wire or in a plane: what hangs from it swings about it
      make_anchor(ids[0]);
    }
  }
  while (!queue.empty()) {
    const auto [d, i] = queue.top();
    queue.pop();
    if (d > reach[i]) continue;
    for (const auto& [j, length] : edges[i])
      if (d + length < reach[j]) {
        reach[j] = d + length;
        anchor[j] = anchor[i];
        queue.push({reach[j], j});
      }
  }
  const bool flat = model.dimension() == 2;
  // The obstacles, where the particles go (a ball falls to its floor, a cloth onto its sphere).
  for (const Obstacle& o : model.contacts().obstacles) {
    Vec3 a = o.point, b = o.point;
    if (o.shape == ObstacleShape::Box) {
      a = o.min;
      b = o.max;
    } else if (o.shape == ObstacleShape::Sphere) {
      a = o.center - Vec3(o.radius);
      b = o.center + Vec3(o.radius);
    }
    if (flat) a.z = b.z = 0.0;
    lo = glm::min(lo, a);
    hi = glm::max(hi, b);
  }
  for (std::size_t i = 0; i < n; ++i) {
    lo = glm::min(lo, x[i]);
    hi = glm::max(hi, x[i]);
    if (anchor[i] >= 0 && reach[i] > 0.0) {
      const Vec3 a = x[anchor[i]];
      // Cap the swing by the straight distance (a little more): graph distances overestimate in a mesh.
      const double r = std::min(reach[i], 1.2 * glm::length(x[i] - a) + 1e-9);
      // 2D: the whole circle. 3D: mostly hanging below the anchor, so a narrower box frames it better.
      const double side = flat ? r : 0.35 * r;
      const Vec3 box(side, r, flat ? 0.0 : side);
      lo = glm::min(lo, a - box);
      hi = glm::max(hi, Vec3(a.x + side, std::max(a.y + (flat ? r : 0.0), x[i].y), a.z + box.z));
    }
  }
}

}  // namespace lagrange
