// The contact set (contact_set.h): faces of the obstacles, the broad phase, the rows' gaps and their Constraint face,
// and the record of what the solver did with them.
//
// Broad phase: a spatial hash (Teschner et al. 2003). Every particle's free motion over the substep stays within
//   m_i = h |u_i| + h² |a_i|      (u_i its velocity at the start of the substep, a_i its external acceleration)
// so two particles in free flight can touch before the substep ends only if |x_i − x_j| − (r_i + r_j) < m_i + m_j.
// A particle that is held (by the model's constraints, or by a contact it starts the substep touching) can be moved
// further by the projection: its pairs reach 2 h u_max further (u_max the fastest speed). With cells at least as
// wide as the widest reach every such pair lies in neighbouring cells; a counting sort into 2n buckets makes the pass
// O(n). An impact can send a particle further than its free motion too (a struck ball leaves at the striker's
// speed): the impact stage measures every struck particle's path and adds the rows it reaches (add_reached_rows),
// so a gas, whose particles fly free, keeps to the rows of its own motion — one per particle or so — at any size.
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

// What a contact row's Constraint faces share: the set and the row they read, its particles, its scale; no scene
// constraint (no definition, nothing to draw).
class ContactRowConstraint : public Constraint {
 public:
  ContactRowConstraint(const ContactSet& set, int row) : set_(&set), row_(row) {
    const ContactRow& r = set.rows[row];
    ids_[0] = r.a;
    ids_[1] = r.b;
    count_ = r.b >= 0 ? 2 : 1;
  }
  std::span<const int> particles() const override { return std::span<const int>(ids_, count_); }
  double length_scale(int) const override { return set_->rows[row_].scale; }
  const ConstraintKind& kind() const override { return kContactKind; }
  ConstraintDef definition() const override { return ConstraintDef{}; }
  Drawing drawing() const override { return {}; }

 protected:
  const ContactSet* set_;
  int row_;
  int ids_[2];
  int count_;
};

// One row as a Constraint, for the solvers that take every row through that interface.
class ContactConstraint final : public ContactRowConstraint {
 public:
  using ContactRowConstraint::ContactRowConstraint;
  std::unique_ptr<Constraint> clone() const override { return std::make_unique<ContactConstraint>(*this); }
  int rows() const override { return 1; }
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
  int unilateral() const override { return 1; }
};

// A contact's tangent rows as a Constraint (ContactSet::append_tangent_rows): row j is
// t_j · ((x_a − x_b) − origin), linear, with gradient t_j on a and −t_j on b.
class TangentConstraint final : public ContactRowConstraint {
 public:
  using ContactRowConstraint::ContactRowConstraint;
  std::unique_ptr<Constraint> clone() const override { return std::make_unique<TangentConstraint>(*this); }
  int rows() const override { return set_->tangents_per_row(); }
  double evaluate(int j, std::span<const Vec3> x, GradientSlots grad) const override {
    const Vec3& t = set_->rows[row_].tangent[j];
    grad[0] = t;
    if (count_ == 2) grad[1] = -t;
    return value(j, x);
  }
  double value(int j, std::span<const Vec3> x) const override {
    const ContactRow& r = set_->rows[row_];
    const Vec3 d = count_ == 2 ? x[r.a] - x[r.b] : x[r.a];
    return glm::dot(r.tangent[j], d - r.origin);
  }
  double jdot_qdot(int, std::span<const Vec3>, std::span<const Vec3>) const override { return 0.0; }
  std::optional<double> lone_root(int j, std::span<const Vec3> x, ConstGradientSlots e) const override {
    const Vec3& t = set_->rows[row_].tangent[j];
    const double slope = glm::dot(t, count_ == 2 ? e[0] - e[1] : e[0]);
    const double c = value(j, x);
    if (slope == 0.0) return c == 0.0 ? std::optional<double>(0.0) : std::nullopt;
    return -c / slope;
  }
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

// add_rows_near(): above one particle asked for per kIndexedAbove rows, each particle's rows are indexed.
constexpr std::size_t kIndexedAbove = 64;

// Pairs joined by a constraint of the model do not collide (a chain's neighbours may be closer than their radii).
void ContactSet::build_exclusions(const Model& model) {
  if (exclusions_version_ == model.topology_version() && constrained_.size() == model.particle_count()) return;
  exclusions_version_ = model.topology_version();
  excluded_.clear();
  constrained_.assign(model.particle_count(), 0);
  for (const auto& c : model.constraints()) {
    const auto ids = c->particles();
    for (int id : ids)
      if (id >= 0 && static_cast<std::size_t>(id) < constrained_.size()) constrained_[id] = 1;
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

void ContactSet::build_hash(const Model& model, std::span<const Vec3> x, double cell) {
  const std::size_t n = x.size();
  if (!(cell > 0.0) || !std::isfinite(cell)) cell = 1.0;
  inv_cell_ = 1.0 / cell;
  hash_dim_ = model.dimension();
  buckets_ = 1;
  while (buckets_ < 2 * n) buckets_ <<= 1;
  // Counting sort of the particles into buckets.
  bucket_of_.resize(n);
  bucket_start_.assign(buckets_ + 1, 0);
  for (std::size_t i = 0; i < n; ++i) {
    bucket_of_[i] = bucket(cell_of(x[i]));
    ++bucket_start_[bucket_of_[i] + 1];
  }
  for (std::size_t b = 0; b < buckets_; ++b) bucket_start_[b + 1] += bucket_start_[b];
  bucket_items_.resize(n);
  std::vector<std::uint32_t> fill(bucket_start_.begin(), bucket_start_.end() - 1);
  for (std::size_t i = 0; i < n; ++i) bucket_items_[fill[bucket_of_[i]]++] = static_cast<std::uint32_t>(i);
  hash_x_.assign(x.begin(), x.end());
}

ContactSet::Cell ContactSet::cell_of(const Vec3& p) const {
  Cell c{};
  for (int axis = 0; axis < hash_dim_; ++axis)
    c[axis] = static_cast<std::int64_t>(std::clamp(std::floor(p[axis] * inv_cell_), -1e15, 1e15));
  return c;
}

std::uint32_t ContactSet::bucket(const Cell& c) const {
  const std::uint64_t h = static_cast<std::uint64_t>(c[0]) * 0x9E3779B97F4A7C15ull ^
                          static_cast<std::uint64_t>(c[1]) * 0xC2B2AE3D27D4EB4Full ^
                          static_cast<std::uint64_t>(c[2]) * 0x165667B19E3779F9ull;
  return static_cast<std::uint32_t>((h ^ (h >> 29)) & (buckets_ - 1));
}

template <class Visit>
void ContactSet::for_each_near(const Vec3& p, Visit&& visit) const {
  const Cell c = cell_of(p);
  std::uint32_t seen[27];  // each bucket once (several cells can hash to one)
  int visited = 0;
  const int z_range = hash_dim_ == 3 ? 1 : 0;
  for (int dz = -z_range; dz <= z_range; ++dz)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        const std::uint32_t b = bucket({c[0] + dx, c[1] + dy, c[2] + dz});
        if (std::find(seen, seen + visited, b) != seen + visited) continue;
        seen[visited++] = b;
        for (std::uint32_t t = bucket_start_[b]; t < bucket_start_[b + 1]; ++t) visit(bucket_items_[t]);
      }
}

// The side of a cell that keeps every pair may_touch accepts in neighbouring cells: the widest reach of any pair.
// 0 when no particle has a radius (points never touch each other).
double ContactSet::cell_size(const Model& model, bool kick) const {
  const auto radius = model.radii();
  double largest = 0.0, widest = 0.0;
  for (std::size_t i = 0; i < radius.size(); ++i) {
    largest = std::max(largest, radius[i]);
    widest = std::max(widest, margin_[i]);
  }
  if (largest <= 0.0) return 0.0;
  const bool any_held = kick || std::find(held_.begin(), held_.end(), 1) != held_.end();
  return 2.0 * largest * (1.0 + 10.0 * tol) + 2.0 * widest + (any_held ? kick_ : 0.0);
}

bool ContactSet::may_touch(const Model& model, std::span<const Vec3> x, std::size_t i, std::size_t j) const {
  const double distance = glm::length(x[i] - x[j]);
  return within_reach(model.radii(), i, j, distance, held_[i] || held_[j]) && may_collide(model, i, j);
}

bool ContactSet::may_collide(const Model& model, std::size_t i, std::size_t j) const {
  const auto inv_mass = model.inv_mass();
  const auto radius = model.radii();
  if (radius[i] + radius[j] <= 0.0 || (inv_mass[i] == 0.0 && inv_mass[j] == 0.0)) return false;
  const std::uint64_t key = static_cast<std::uint64_t>(std::min(i, j)) << 32 | static_cast<std::uint64_t>(std::max(i, j));
  return excluded_.empty() || !std::binary_search(excluded_.begin(), excluded_.end(), key);
}

void ContactSet::broad_phase(const Model& model, std::span<const Vec3> x, bool wide) {
  const auto inv_mass = model.inv_mass();
  const auto radius = model.radii();
  pairs_.clear();
  hash_x_.clear();
  const double cell = cell_size(model, wide);
  if (cell <= 0.0) return;
  build_hash(model, x, cell);
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (radius[i] <= 0.0 && inv_mass[i] == 0.0) continue;
    for_each_near(x[i], [&](std::uint32_t j) {
      if (j <= i) return;
      const double distance = glm::length(x[i] - x[j]);
      if (within_reach(radius, i, j, distance, wide || held_[i] || held_[j]) && may_collide(model, i, j))
        pairs_.push_back({static_cast<std::uint32_t>(i), j, distance});
    });
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
    row.normal_held = 0.0;
    row.work = 0.0;
  }
  dx.clear();
  dv.clear();
  moved.clear();
  impact_work = 0.0;
  work_booked = false;
  cut = false;
  overlap_left = false;
  finished = true;
}

void ContactSet::gather(const Model& model, const State& state, const Settings& settings, double step) {
  h = step;
  tol = tolerance(settings);
  dimension = model.dimension();
  const std::size_t rows_before = rows.size();
  rows.clear();
  constraints_.clear();
  tangent_constraints_.clear();
  restart_substep();  // no rows yet: the impacts' results and the flags
  build_faces(model);
  const std::size_t n = model.particle_count();
  const auto& x = state.position;
  const auto inv_mass = model.inv_mass();
  // Each particle's reach over the substep: a bound of its free motion. What an impact inside the substep adds is
  // found by the impact stage itself (add_reached_rows). A particle that is held — by the model's constraints, or by
  // a contact it starts the substep touching — can be carried further by the projection (a cloth's edge pulled over a
  // ball by its neighbours, a pile pushed by a ball landing on it): its rows reach as far again as twice the fastest
  // speed in the scene over the substep (kick_). A particle in free flight (a gas) has only its own reach.
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
  kick_ = 2.0 * h * fastest;
  build_exclusions(model);
  // A particle touching a row at the start, and every particle a row joins to one (the projection can push it on, by
  // as much), is held: its rows reach as far again as the kick. In a pile nearly every particle is: there one broad
  // phase with the kick for every pair finds the candidates, and the held ones are found among them (`wide`). In a
  // gas few are: a broad phase without the kick, then the held ones' rows again with it (add_rows_near); the kick's
  // wider cells made a gas of 10 000 discs a third slower. Both give the same rows; the rows of the last substep
  // tell which is the cheaper one.
  const bool wide = kick_ > 0.0 && 2 * rows_before > n;
  held_.assign(constrained_.begin(), constrained_.end());
  pairs_.clear();
  hash_x_.clear();
  if (model.contacts().particle_contacts()) broad_phase(model, x, wide);
  std::sort(pairs_.begin(), pairs_.end(), [](const Candidate& p, const Candidate& q) {
    return p.i != q.i ? p.i < q.i : p.j < q.j;
  });
  const auto radius = model.radii();
  const auto face_row_now = [&](std::size_t i, std::size_t f) {  // a fixed particle stays where it is
    return inv_mass[i] != 0.0 && face_in_reach(x[i], radius[i], margin_[i] + (held_[i] ? kick_ : 0.0), faces[f]);
  };
  const auto pair_row_now = [&](const Candidate& c) {
    return within_reach(radius, c.i, c.j, c.distance, held_[c.i] || held_[c.j]);
  };
  // `wide`: the held particles, breadth first over the candidates, from the rows as they are before any contact
  // holds a particle.
  if (wide) {
    std::vector<int>& queue = queue_;
    std::vector<char>& touching = touching_;
    queue.clear();
    touching.assign(n, 0);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t f = 0; f < faces.size(); ++f)
        if (face_row_now(i, f)) {
          const ObstacleFace& face = faces[f];
          const double r = radius[i], scale = r > 0.0 ? r : 1.0;
          const double g = face.sphere ? glm::length(x[i] - face.point) - (face.radius + r)
                                       : glm::dot(face.normal, x[i] - face.point) - r;
          if (g <= 10.0 * tol * scale) touching[i] = 1;
        }
    for (const Candidate& c : pairs_) {
      const double reach = radius[c.i] + radius[c.j];
      if (pair_row_now(c) && c.distance - reach <= 10.0 * tol * reach) touching[c.i] = touching[c.j] = 1;
    }
    for (std::size_t i = 0; i < n; ++i)
      if (touching[i] && !held_[i]) {
        held_[i] = 1;
        queue.push_back(static_cast<int>(i));
      }
    if (!queue.empty()) {
      // Each particle's candidates (CSR, both ways).
      neighbour_start_.assign(n + 1, 0);
      for (const Candidate& c : pairs_) {
        ++neighbour_start_[c.i + 1];
        ++neighbour_start_[c.j + 1];
      }
      for (std::size_t i = 0; i < n; ++i) neighbour_start_[i + 1] += neighbour_start_[i];
      neighbour_.resize(neighbour_start_[n]);
      std::vector<std::uint32_t> fill(neighbour_start_.begin(), neighbour_start_.end() - 1);
      for (std::uint32_t k = 0; k < pairs_.size(); ++k) {
        neighbour_[fill[pairs_[k].i]++] = k;
        neighbour_[fill[pairs_[k].j]++] = k;
      }
      for (std::size_t next = 0; next < queue.size(); ++next) {
        const int i = queue[next];
        for (std::uint32_t t = neighbour_start_[i]; t < neighbour_start_[i + 1]; ++t) {
          const Candidate& c = pairs_[neighbour_[t]];
          const int j = static_cast<int>(c.i) == i ? static_cast<int>(c.j) : static_cast<int>(c.i);
          if (!held_[j] && pair_row_now(c)) {
            held_[j] = 1;
            queue.push_back(j);
          }
        }
      }
    }
  }
  // The rows in key order (contact_set.h): each particle's obstacle faces, then its pairs with later particles.
  std::size_t next = 0;
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t f = 0; f < faces.size(); ++f)
      if (face_row_now(i, f)) rows.push_back(face_row(model, i, f));
    for (; next < pairs_.size() && pairs_[next].i == i; ++next)
      if (pair_row_now(pairs_[next])) rows.push_back(pair_row(model, i, pairs_[next].j));
  }
  match_warm(state, rows.begin(), rows.end());
  // Not `wide`: the particles a row holds from the start, then every particle a row joins to a held one, their rows
  // again with the kick, until no row joins a held particle to a free one.
  if (!wide && kick_ > 0.0) {
    std::vector<int> touching;
    for (const ContactRow& row : rows) {
      Vec3 normal;
      if (!(gap(row, x, normal) <= 10.0 * tol * row.scale)) continue;
      for (int i : {row.a, row.b})
        if (i >= 0 && !held_[i]) {
          held_[i] = 1;
          touching.push_back(i);
        }
    }
    while (!touching.empty()) {
      add_rows_near(model, state, touching);
      touching.clear();
      for (const ContactRow& row : rows)
        if (row.b >= 0 && held_[row.a] != held_[row.b]) {
          const int i = held_[row.a] ? row.b : row.a;
          held_[i] = 1;
          touching.push_back(i);
        }
    }
  }
}

// Whether a particle at x with radius r can reach the face within `reach` (m): its gap, as gap() has it, below reach
// and the tolerance.
bool ContactSet::face_in_reach(const Vec3& x, double r, double reach, const ObstacleFace& f) const {
  const double scale = r > 0.0 ? r : 1.0;
  const double g = f.sphere ? glm::length(x - f.point) - (f.radius + r) : glm::dot(f.normal, x - f.point) - r;
  return g < reach + 10.0 * tol * scale;
}

ContactRow ContactSet::face_row(const Model& model, std::size_t i, std::size_t f) const {
  const double r = model.radii()[i];
  ContactRow row;
  row.a = static_cast<int>(i);
  row.face = static_cast<int>(f);
  row.reach = r;
  row.scale = r > 0.0 ? r : 1.0;
  row.restitution = faces[f].restitution;
  row.friction = faces[f].friction;
  return row;
}

ContactRow ContactSet::pair_row(const Model& model, std::size_t i, std::size_t j) const {
  const auto radius = model.radii();
  ContactRow row;
  row.a = static_cast<int>(std::min(i, j));
  row.b = static_cast<int>(std::max(i, j));
  row.reach = radius[i] + radius[j];
  row.scale = row.reach;
  row.restitution = model.contacts().restitution;
  row.friction = model.contacts().friction;
  return row;
}

// Warm starts: the same contact's multipliers in the last substep (both lists are in key order).
void ContactSet::match_warm(const State& state, std::vector<ContactRow>::iterator first,
                            std::vector<ContactRow>::iterator last_row) const {
  const auto& last = state.contacts.contacts;
  auto it = last.begin();
  for (auto row = first; row != last_row && it != last.end(); ++row) {
    const Key key = key_of(*row, faces);
    while (it != last.end() && key_of(*it) < key) ++it;
    if (it == last.end() || key_of(*it) != key) continue;
    row->warm = it->lambda;
    row->warm_t = it->lambda_t;
  }
}

bool ContactSet::add_reached_rows(const Model& model, const State& state, std::span<const double> excursion) {
  // The particles whose path over the substep (impacts included) left the reach the rows were gathered for.
  std::vector<int> grown;
  for (int i : moved)
    if (excursion[i] > margin_[i]) {
      margin_[i] = 1.5 * excursion[i];  // with room: another round is a whole impact stage again
      grown.push_back(i);
    }
  return add_rows_near(model, state, grown);
}

bool ContactSet::add_rows_near(const Model& model, const State& state, std::span<const int> particles) {
  if (particles.empty()) return false;
  const auto& x = state.position;
  const auto inv_mass = model.inv_mass();
  const auto by_key = [this](const ContactRow& p, const ContactRow& q) { return key_of(p, faces) < key_of(q, faces); };
  // Whether a row is one already: a search through the rows for a few particles; for many (a pile's impacts ask
  // for a thousand at a time) a scan of each particle's own few rows, indexed once (its partners, a face as −1 − f).
  const bool indexed = particles.size() * kIndexedAbove > rows.size();
  if (indexed) {
    const std::size_t n = x.size();
    partner_start_.assign(n + 1, 0);
    for (const ContactRow& r : rows) {
      ++partner_start_[r.a + 1];
      if (r.b >= 0) ++partner_start_[r.b + 1];
    }
    for (std::size_t i = 0; i < n; ++i) partner_start_[i + 1] += partner_start_[i];
    partner_.resize(partner_start_[n]);
    std::vector<std::uint32_t> fill(partner_start_.begin(), partner_start_.end() - 1);
    for (const ContactRow& r : rows) {
      partner_[fill[r.a]++] = r.b >= 0 ? r.b : -1 - r.face;
      if (r.b >= 0) partner_[fill[r.b]++] = r.a;
    }
  }
  const auto has_row = [&](const ContactRow& row) {
    if (!indexed) return std::binary_search(rows.begin(), rows.end(), row, by_key);
    const int code = row.b >= 0 ? row.b : -1 - row.face;
    const auto first = partner_.begin() + partner_start_[row.a], last = partner_.begin() + partner_start_[row.a + 1];
    return std::find(first, last, code) != last;
  };
  std::vector<ContactRow> found;
  for (int i : particles) {
    if (inv_mass[i] != 0.0)
      for (std::size_t f = 0; f < faces.size(); ++f)
        if (face_in_reach(x[i], model.radii()[i], margin_[i] + (held_[i] ? kick_ : 0.0), faces[f])) {
          ContactRow row = face_row(model, i, f);
          if (!has_row(row)) found.push_back(row);
        }
  }
  if (model.contacts().particle_contacts() && !hash_x_.empty()) {
    // The hash is the broad phase's, over the positions it was built from: rebuilt when the cells are too small for
    // the reaches now asked for, or the positions are others (RATTLE's half substeps).
    const double cell = cell_size(model, false);
    if (cell * inv_cell_ > 1.0 || !std::equal(x.begin(), x.end(), hash_x_.begin(), hash_x_.end()))
      build_hash(model, x, cell);
    for (int i : particles)
      for_each_near(x[i], [&](std::uint32_t j) {
        if (static_cast<int>(j) == i || !may_touch(model, x, i, j)) return;
        ContactRow row = pair_row(model, i, j);
        if (!has_row(row)) found.push_back(row);
      });
  }
  if (found.empty()) return false;
  std::sort(found.begin(), found.end(), by_key);
  found.erase(std::unique(found.begin(), found.end(),
                          [this](const ContactRow& p, const ContactRow& q) { return key_of(p, faces) == key_of(q, faces); }),
              found.end());
  match_warm(state, found.begin(), found.end());
  const std::size_t old = rows.size();
  rows.insert(rows.end(), found.begin(), found.end());
  std::inplace_merge(rows.begin(), rows.begin() + static_cast<std::ptrdiff_t>(old), rows.end(), by_key);
  constraints_.clear();
  tangent_constraints_.clear();
  return true;
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

void ContactSet::append_tangent_rows(std::vector<Row>& out, const std::vector<char>& held) const {
  tangent_constraints_.resize(rows.size());  // made for the held rows only
  for (std::size_t k = 0; k < rows.size(); ++k) {
    if (!held[k]) continue;
    if (!tangent_constraints_[k])
      tangent_constraints_[k] = std::make_unique<TangentConstraint>(*this, static_cast<int>(k));
    const ContactRow& r = rows[k];
    for (int j = 0; j < tangents_per_row(); ++j)
      out.push_back(Row{tangent_constraints_[k].get(), -1, j, r.b >= 0 ? 2 : 1, {r.a, r.b, -1, -1}, r.scale, 0});
  }
}

void ContactSet::hold_tangents(std::size_t k, std::span<const Vec3> q, std::span<const Vec3> x) {
  ContactRow& r = rows[k];
  Vec3 n;
  gap(r, x, n);
  r.origin = r.b >= 0 ? q[r.a] - q[r.b] : q[r.a];
  tangent_basis(n, dimension, r.tangent);
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

double ContactSet::mean_velocity_work(const ContactRow& row, const Vec3& n, std::span<const Vec3> v0,
                                      std::span<const Vec3> v1, double step) const {
  if (row.force == 0.0 && row.force_t == Vec3(0.0)) return 0.0;
  const auto start = [&](int i) { return dv.empty() ? v0[i] : v0[i] + dv[i]; };
  Vec3 rate = 0.5 * (start(row.a) + v1[row.a]);
  if (row.b >= 0) rate -= 0.5 * (start(row.b) + v1[row.b]);
  return step * glm::dot(row.force * n + row.force_t, rate);
}

void ContactSet::book_work(std::span<const Vec3> x, std::span<const Vec3> v0, std::span<const Vec3> v1, double step) {
  for (ContactRow& row : rows) {
    Vec3 n;
    gap(row, x, n);
    row.work = mean_velocity_work(row, n, v0, v1, step);
  }
  work_booked = true;
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
    work += work_booked ? row.work : mean_velocity_work(row, n, v0, v1, step);
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
