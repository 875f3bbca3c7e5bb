// The contact set (contact_set.h): faces of the obstacles, the broad phase, the rows' gaps and their Constraint face,
// and the record of what the solver did with them.
//
// Broad phase: a spatial hash (Teschner et al. 2003). Every particle's reach over the substep is bounded by
//   m_i = h |u_i| + h² |a_i|      (u_i its velocity at the start of the substep, a_i its external acceleration)
// and an impulse within the substep can give a particle at most twice the fastest speed, so two particles can touch
// before the substep ends only if |x_i − x_j| − (r_i + r_j) < m_i + m_j + 2 h u_max. With cells of side
// 2 r_max + 2 m_max + 2 h u_max every such pair lies in neighbouring cells; a counting sort into 2n buckets makes
// the whole pass O(n) (tests/engine/test_contacts.cpp times it from 10³ to 10⁵ particles).
#include "contact_set.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "lagrange/constraint_kinds.h"

namespace lagrange {
namespace {

int contact_rows(int) { return 1; }

// Contact rows are no scene constraint: their kind is outside the table (KindRole::Other, nobody asks for it).
const ConstraintKind kContactKind = {"contact", "a contact row of one substep (not a scene constraint)", "contact",
                                     KindRole::Other, 2, Shape::Segment, {}, contact_rows, nullptr, nullptr};

// The key contacts are sorted and matched by: particle, other particle (-1 for an obstacle), obstacle, face.
struct Key {
  int particle, other, obstacle, face;
  auto operator<=>(const Key&) const = default;
};

Key key_of(const ContactRow& row, const std::vector<ObstacleFace>& faces) {
  if (row.face < 0) return {row.a, row.b, -1, 0};
  return {row.a, -1, faces[row.face].obstacle, faces[row.face].face};
}

Key key_of(const Contact& c) { return {c.particle, c.other, c.obstacle, c.face}; }

// One row as a Constraint, for the solvers that take every row through that interface.
class ContactConstraint final : public Constraint {
 public:
  ContactConstraint(const ContactSet& set, int row) : set_(&set), row_(row) {
    const ContactRow& r = set.rows[row];
    ids_[0] = r.a;
    ids_[1] = r.b;
    count_ = r.b >= 0 ? 2 : 1;
  }
  std::unique_ptr<Constraint> clone() const override { return std::make_unique<ContactConstraint>(*this); }
  int rows() const override { return 1; }
  std::span<const int> particles() const override { return std::span<const int>(ids_, count_); }
  double evaluate(int, std::span<const Vec3> x, GradientSlots grad) const override {
    Vec3 n;
    const double gap = set_->gap(set_->rows[row_], x, n);
    grad[0] = n;
    if (count_ == 2) grad[1] = -n;
    return gap;
  }
  double value(int, std::span<const Vec3> x) const override {
    Vec3 n;
    return set_->gap(set_->rows[row_], x, n);
  }
  double jdot_qdot(int, std::span<const Vec3> x, std::span<const Vec3> v) const override {
    const ContactRow& r = set_->rows[row_];
    Vec3 d, u;
    if (r.b >= 0) {
      d = x[r.a] - x[r.b];
      u = v[r.a] - v[r.b];
    } else if (set_->faces[r.face].sphere) {
      d = x[r.a] - set_->faces[r.face].point;
      u = v[r.a];
    } else {
      return 0.0;  // a plane: ∇C is constant
    }
    const double len = glm::length(d);
    if (len == 0.0) return 0.0;
    const double un = glm::dot(u, d) / len;
    return (glm::dot(u, u) - un * un) / len;
  }
  std::optional<double> lone_root(int, std::span<const Vec3> x, ConstGradientSlots e) const override {
    const ContactRow& r = set_->rows[row_];
    if (r.b >= 0) return DistanceConstraint::lone_root_of(x[r.a], x[r.b], e[0], e[1], r.reach);
    const ObstacleFace& f = set_->faces[r.face];
    if (f.sphere) return DistanceConstraint::lone_root_of(x[r.a], f.point, e[0], Vec3(0.0), f.radius + r.reach);
    const double slope = glm::dot(f.normal, e[0]);
    const double c = glm::dot(f.normal, x[r.a] - f.point) - r.reach;
    if (slope == 0.0) return c == 0.0 ? std::optional<double>(0.0) : std::nullopt;
    return -c / slope;
  }
  double length_scale(int) const override { return set_->rows[row_].scale; }
  int unilateral() const override { return 1; }
  const ConstraintKind& kind() const override { return kContactKind; }
  ConstraintDef definition() const override { return ConstraintDef{}; }
  Drawing drawing() const override { return {}; }

 private:
  const ContactSet* set_;
  int row_;
  int ids_[2];
  int count_;
};

}  // namespace

double ContactSet::tolerance(const Settings& settings) { return std::max(settings.tolerance, 1e-7); }

void ContactSet::build_faces(const Model& model) {
  faces.clear();
  const ContactSettings& settings = model.contacts();
  const int dim = model.dimension();
  for (std::size_t k = 0; k < settings.obstacles.size(); ++k) {
    const Obstacle& o = settings.obstacles[k];
    ObstacleFace f;
    f.obstacle = static_cast<int>(k);
    f.restitution = settings.restitution_of(o);
    f.friction = settings.friction_of(o);
    switch (o.shape) {
      case ObstacleShape::Plane:
        f.point = o.point;
        f.normal = glm::normalize(o.normal);
        faces.push_back(f);
        break;
      case ObstacleShape::Sphere:
        f.sphere = true;
        f.point = o.center;
        f.radius = o.radius;
        faces.push_back(f);
        break;
      case ObstacleShape::Box:
        // Faces 2k and 2k + 1 of axis k: the min side (normal +e_k) and the max side (normal −e_k); inside is kept.
        for (int axis = 0; axis < dim; ++axis) {
          f.face = 2 * axis;
          f.point = o.min;
          f.normal = Vec3(0.0);
          f.normal[axis] = 1.0;
          faces.push_back(f);
          f.face = 2 * axis + 1;
          f.point = o.max;
          f.normal[axis] = -1.0;
          faces.push_back(f);
        }
        break;
    }
  }
}

// Pairs joined by a constraint of the model do not collide (a chain's neighbours may be closer than their radii).
void ContactSet::build_exclusions(const Model& model) {
  if (exclusions_version_ == model.topology_version()) return;
  exclusions_version_ = model.topology_version();
  excluded_.clear();
  for (const auto& c : model.constraints()) {
    const auto ids = c->particles();
    for (std::size_t i = 0; i < ids.size(); ++i)
      for (std::size_t j = i + 1; j < ids.size(); ++j) {
        const auto lo = static_cast<std::uint64_t>(std::min(ids[i], ids[j]));
        const auto hi = static_cast<std::uint64_t>(std::max(ids[i], ids[j]));
        excluded_.push_back(lo << 32 | hi);
      }
  }
  std::sort(excluded_.begin(), excluded_.end());
  excluded_.erase(std::unique(excluded_.begin(), excluded_.end()), excluded_.end());
}

void ContactSet::broad_phase(const Model& model, std::span<const Vec3> x, std::span<const double> margin,
                             double kick) {
  const std::size_t n = x.size();
  const auto inv_mass = model.inv_mass();
  const auto radius = model.radii();
  const int dim = model.dimension();
  double largest = 0.0, widest = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    largest = std::max(largest, radius[i]);
    widest = std::max(widest, margin[i]);
  }
  pairs_.clear();
  if (largest <= 0.0) return;  // points never touch each other
  double cell = 2.0 * largest + 2.0 * widest + kick;
  if (!(cell > 0.0) || !std::isfinite(cell)) cell = 1.0;
  const double inv_cell = 1.0 / cell;
  std::size_t buckets = 1;
  while (buckets < 2 * n) buckets <<= 1;
  const auto cell_of = [&](const Vec3& p, int axis) {
    const double c = std::floor(p[axis] * inv_cell);
    return static_cast<std::int64_t>(std::clamp(c, -1e15, 1e15));
  };
  const auto hash = [&](std::int64_t cx, std::int64_t cy, std::int64_t cz) {
    const std::uint64_t h = static_cast<std::uint64_t>(cx) * 0x9E3779B97F4A7C15ull ^
                            static_cast<std::uint64_t>(cy) * 0xC2B2AE3D27D4EB4Full ^
                            static_cast<std::uint64_t>(cz) * 0x165667B19E3779F9ull;
    return static_cast<std::uint32_t>((h ^ (h >> 29)) & (buckets - 1));
  };
  // Counting sort of the particles into buckets.
  bucket_of_.resize(n);
  bucket_start_.assign(buckets + 1, 0);
  for (std::size_t i = 0; i < n; ++i) {
    bucket_of_[i] = hash(cell_of(x[i], 0), cell_of(x[i], 1), dim == 3 ? cell_of(x[i], 2) : 0);
    ++bucket_start_[bucket_of_[i] + 1];
  }
  for (std::size_t b = 0; b < buckets; ++b) bucket_start_[b + 1] += bucket_start_[b];
  bucket_items_.resize(n);
  {
    std::vector<std::uint32_t> fill(bucket_start_.begin(), bucket_start_.end() - 1);
    for (std::size_t i = 0; i < n; ++i) bucket_items_[fill[bucket_of_[i]]++] = static_cast<std::uint32_t>(i);
  }
  std::uint32_t seen[27];
  for (std::size_t i = 0; i < n; ++i) {
    if (radius[i] <= 0.0 && inv_mass[i] == 0.0) continue;
    const std::int64_t cx = cell_of(x[i], 0), cy = cell_of(x[i], 1), cz = dim == 3 ? cell_of(x[i], 2) : 0;
    int visited = 0;
    for (int dz = (dim == 3 ? -1 : 0); dz <= (dim == 3 ? 1 : 0); ++dz)
      for (int dy = -1; dy <= 1; ++dy)
        for (int dxc = -1; dxc <= 1; ++dxc) {
          const std::uint32_t b = hash(cx + dxc, cy + dy, cz + dz);
          if (std::find(seen, seen + visited, b) != seen + visited) continue;
          seen[visited++] = b;
          for (std::uint32_t t = bucket_start_[b]; t < bucket_start_[b + 1]; ++t) {
            const std::size_t j = bucket_items_[t];
            if (j <= i) continue;
            const double reach = radius[i] + radius[j];
            if (reach <= 0.0 || (inv_mass[i] == 0.0 && inv_mass[j] == 0.0)) continue;
            const double distance = glm::length(x[i] - x[j]);
            if (!(distance - reach < margin[i] + margin[j] + kick + 10.0 * tol * reach)) continue;
            const std::uint64_t key = static_cast<std::uint64_t>(i) << 32 | static_cast<std::uint64_t>(j);
            if (!excluded_.empty() && std::binary_search(excluded_.begin(), excluded_.end(), key)) continue;
            pairs_.push_back({static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(j)});
          }
        }
  }
}

void ContactSet::restart_substep() {
  for (ContactRow& row : rows) {
    row.force = 0.0;
    row.force_t = Vec3(0.0);
    row.impulse = Vec3(0.0);
    row.lambda = 0.0;
    row.lambda_t = Vec3(0.0);
    row.allowed = 0.0;
    row.impacts = 0;
  }
  dx.clear();
  dv.clear();
  moved.clear();
  impact_work = 0.0;
  overlap_left = false;
  finished = true;
}

void ContactSet::gather(const Model& model, const State& state, const Settings& settings, double step) {
  h = step;
  tol = tolerance(settings);
  dimension = model.dimension();
  rows.clear();
  constraints_.clear();
  restart_substep();  // no rows yet: the impacts' results and the flags
  build_faces(model);
  const std::size_t n = model.particle_count();
  const auto& x = state.position;
  const auto inv_mass = model.inv_mass();
  // Each particle's reach over the substep (a bound of its free motion) and the kick an impulse may add.
  model.external_forces(settings, state.velocity, force_);
  margin_.resize(n);
  double fastest = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const Vec3 a = inv_mass[i] * force_[i];
    const double speed = glm::length(state.velocity[i]) + h * glm::length(a);
    margin_[i] = h * speed + h * h * glm::length(a);
    if (!std::isfinite(margin_[i])) margin_[i] = 0.0;  // a NaN state is rolled back by the world
    if (std::isfinite(speed)) fastest = std::max(fastest, speed);
  }
  const double kick = 2.0 * h * fastest;
  pairs_.clear();
  if (model.contacts().particle_contacts()) {
    build_exclusions(model);
    broad_phase(model, x, margin_, kick);
  }
  std::sort(pairs_.begin(), pairs_.end());
  // The rows in key order (contact_set.h): each particle's obstacle faces, then its pairs with later particles.
  const auto radius = model.radii();
  const ContactSettings& contacts = model.contacts();
  std::size_t next = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (inv_mass[i] != 0.0)  // a fixed particle stays where it is, inside an obstacle or not
      for (std::size_t f = 0; f < faces.size(); ++f) {
        ContactRow row;
        row.a = static_cast<int>(i);
        row.face = static_cast<int>(f);
        row.reach = radius[i];
        row.scale = radius[i] > 0.0 ? radius[i] : 1.0;
        Vec3 normal;
        const double g = gap(row, x, normal);
        if (!(g < margin_[i] + kick + 10.0 * tol * row.scale)) continue;
        row.restitution = faces[f].restitution;
        row.friction = faces[f].friction;
        rows.push_back(row);
      }
    for (; next < pairs_.size() && pairs_[next].first == i; ++next) {
      ContactRow row;
      row.a = static_cast<int>(i);
      row.b = static_cast<int>(pairs_[next].second);
      row.reach = radius[row.a] + radius[row.b];
      row.scale = row.reach;
      row.restitution = contacts.restitution;
      row.friction = contacts.friction;
      rows.push_back(row);
    }
  }
  // Warm starts: the same contact's multipliers in the last substep (both lists are in key order).
  const auto& last = state.contacts.contacts;
  auto it = last.begin();
  for (ContactRow& row : rows) {
    if (it == last.end()) break;
    const Key key = key_of(row, faces);
    while (it != last.end() && key_of(*it) < key) ++it;
    if (it == last.end() || key_of(*it) != key) continue;
    row.warm = it->lambda;
    row.warm_t = it->lambda_t;
  }
}

const Constraint& ContactSet::constraint(std::size_t k) const {
  add_constraints();
  return *constraints_[k];
}

void ContactSet::add_constraints() const {
  if (constraints_.size() == rows.size()) return;
  constraints_.clear();
  constraints_.reserve(rows.size());
  for (std::size_t k = 0; k < rows.size(); ++k)
    constraints_.push_back(std::make_unique<ContactConstraint>(*this, static_cast<int>(k)));
}

void ContactSet::append_rows(std::vector<Row>& out) const {
  add_constraints();
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const ContactRow& r = rows[k];
    Row row{constraints_[k].get(), -1, 0, r.b >= 0 ? 2 : 1, {r.a, r.b, -1, -1}, r.scale, 1};
    out.push_back(row);
  }
}

void ContactSet::begin_step(const Model& model, State& state, double dt) {
  ContactState& record = state.contacts;
  for (Contact& c : record.contacts) {
    c.impulse = Vec3(0.0);
    c.impact = false;
    c.active = false;
  }
  record.obstacle_impulse.assign(model.contacts().obstacles.size(), Vec3(0.0));
  record.step_time = dt;
  record.impacts = 0;
}

void ContactSet::end_step(State& state) {
  auto& list = state.contacts.contacts;
  list.erase(std::remove_if(list.begin(), list.end(),
                            [](const Contact& c) { return !c.active && !c.impact && c.impulse == Vec3(0.0); }),
             list.end());
}

double ContactSet::record(const Model& model, State& state, double step, std::span<const Vec3> v0) const {
  ContactState& record = state.contacts;
  const auto& x = state.position;
  const auto& v1 = state.velocity;
  double work = impact_work;
  const auto radius = model.radii();
  std::vector<Contact> merged;
  merged.reserve(record.contacts.size() + rows.size());
  auto old = record.contacts.begin();
  const auto flush_until = [&](const Key& key) {
    for (; old != record.contacts.end() && key_of(*old) < key; ++old) {
      Contact c = *old;  // pushed earlier in this step (or the last one): no warm start any more
      c.lambda = 0.0;
      c.lambda_t = Vec3(0.0);
      c.active = false;
      merged.push_back(c);
    }
  };
  for (const ContactRow& row : rows) {
    const Key key = key_of(row, faces);
    flush_until(key);
    const bool existing = old != record.contacts.end() && key_of(*old) == key;
    Vec3 n;
    gap(row, x, n);
    const Vec3 impulse = row.impulse + (step * row.force) * n + step * row.force_t;
    if (row.force != 0.0 || row.force_t != Vec3(0.0)) {  // h (f n + f_t) · v̄ at the substep's mean velocity
      Vec3 rate = 0.5 * (v0[row.a] + v1[row.a]);
      if (row.b >= 0) rate -= 0.5 * (v0[row.b] + v1[row.b]);
      work += step * glm::dot(row.force * n + row.force_t, rate);
    }
    const bool pushed = row.force > 0.0 || row.impacts > 0 || row.force_t != Vec3(0.0);
    if (!pushed && !existing) continue;
    Contact c = existing ? *old : Contact{};
    if (existing) ++old;
    c.particle = key.particle;
    c.other = key.other;
    c.obstacle = key.obstacle;
    c.face = key.face;
    c.lambda = pushed && finished ? row.lambda : 0.0;
    c.lambda_t = pushed && finished ? row.lambda_t : Vec3(0.0);
    c.active = pushed;
    if (pushed) {
      c.normal = n;
      c.point = x[row.a] - radius[row.a] * n;
      c.impulse += impulse;
      c.impact = c.impact || row.impacts > 0;
      if (row.face >= 0) record.obstacle_impulse[static_cast<std::size_t>(key.obstacle)] -= impulse;
    }
    merged.push_back(c);
    record.impacts += row.impacts;
  }
  flush_until(Key{INT32_MAX, INT32_MAX, INT32_MAX, INT32_MAX});
  record.contacts.swap(merged);
  return work;
}

}  // namespace lagrange
