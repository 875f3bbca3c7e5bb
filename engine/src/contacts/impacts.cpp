// The impact stage (contact_set.h, resolve_impacts; docs/physics.md, "Impacts").
//
// Within a substep of length h every particle follows its free trajectory under its external acceleration a (held
// over the substep, as the integrators hold it):
//     x(s) = x + s u + a s²/2,   u = v + c h a
// with c = 1/2 for the semi-implicit Euler solvers, whose stored v is the mean velocity over the last substep (their
// positions are exactly the points of this parabola at s = h, 2h, ...), and c = 0 for velocity Verlet (RATTLE).
// A row's gap along these trajectories is solved for its first zero in the substep (time of impact s_c; a safeguarded
// regula falsi, to rounding). There Newton's law of restitution acts on the normal relative velocity,
//     u_n⁺ = −e u_n⁻,   P_n = −(1 + e) u_n⁻ / (w_a + w_b)
// and friction on the tangential one, |P_t| ≤ μ P_n, never more than stops the slip (so it takes energy, never adds
// it). The particles go on from s_c along new parabolas. Events are taken in time order from a queue; the rows of
// the two particles involved are looked at again from s_c, so touching rows that now approach collide at once, one
// after another: a ball hitting a row of touching balls passes its momentum on ball by ball, the last one leaves
// (Newton's cradle), which simultaneous impulses would spread over the row. A pair collides at most kMaxImpacts
// times in one substep (a backstop: a Zeno sequence of ever smaller bounces ends at the resting speed below); a row
// still approaching there, or events left when the stage's budget runs out, make the substep a failure (`cut`): the
// projection then holds those rows plastically, and an elastic one loses the energy of the bounces it did not get.
//
// A row that starts the substep touching (|gap| within the contact tolerance) and approaches no faster than its
// relative acceleration can make it approach within one substep (h |Δa·n|) is resting, not colliding: the solver's
// unilateral projection holds it. That speed is what one substep's gravity gives, so no bounce that lasts longer than
// a substep is ever lost (no fixed restitution threshold).
//
// What the solver then needs is the difference the impacts made at the end of the substep: dx = x(h) − x_free(h),
// dv = u(h) − u_free(h) per particle; it starts its own prediction from there.
#include <algorithm>
#include <cmath>
#include <queue>

#include "contact_set.h"

namespace lagrange {
namespace {

// 64: an elastic particle crossing a 0.2 m box at 1000 m/s bounces off each wall about 46 times in a 1/60 s step
// (with 8, a 200 m/s one lost a quarter of its energy in 0.5 s, silently).
constexpr int kMaxImpacts = 64;
constexpr int kMaxRounds = 16;  // impact stages run again with the rows a stage's impacts reached

struct Event {
  double time;
  int row;
  unsigned stamp;
  bool operator>(const Event& other) const {
    return time != other.time ? time > other.time : row > other.row;
  }
};

}  // namespace

void ContactSet::resolve_impacts(const Model& model, const State& state, const Settings& settings, double step,
                                 bool staggered) {
  // The rows were gathered for each particle's free motion; an impact can send a particle further (a ball at rest,
  // struck, leaves at the striker's speed). Those reach rows that were not gathered: they are added and the stage is
  // run again from the start, until every particle's path stays within the reach of its rows.
  for (int round = 0;; ++round) {
    impact_pass(model, state, settings, step, staggered);
    if (round == kMaxRounds) {  // a long cascade: the struck particles get the kick's reach, one pass more
      for (int i : moved) held_[i] = 1;
      if (!add_rows_near(model, state, moved)) return;
    } else if (round > kMaxRounds || !add_reached_rows(model, state, excursion_)) {
      return;
    }
    for (ContactRow& r : rows) {
      r.impulse = Vec3(0.0);
      r.impacts = 0;
    }
    impact_work = 0.0;
  }
}

void ContactSet::impact_pass(const Model& model, const State& state, const Settings& settings, double step,
                             bool staggered) {
  dx.clear();
  dv.clear();
  moved.clear();
  cut = false;
  if (rows.empty()) return;
  const std::size_t n = model.particle_count();
  const auto inv_mass = model.inv_mass();
  const auto& x0 = state.position;
  std::vector<Vec3>& a = accel_;
  model.external_forces(settings, state.velocity, a);
  for (std::size_t i = 0; i < n; ++i) a[i] *= inv_mass[i];
  const double c = staggered ? 0.5 : 0.0;
  // Each particle's current segment: from time t at position p with velocity u (set when it first takes part).
  std::vector<double>& t = seg_t_;
  std::vector<Vec3>& p = seg_p_;
  std::vector<Vec3>& u = seg_u_;
  t.resize(n);
  p.resize(n);
  u.resize(n);
  std::vector<char>& touched = touched_;
  touched.assign(n, 0);
  std::vector<char> started(n, 0);
  std::vector<double>& excursion = excursion_;
  excursion.resize(n);
  const auto start_segment = [&](int i) {
    if (started[i]) return;
    started[i] = 1;
    excursion[i] = 0.0;
    t[i] = 0.0;
    p[i] = x0[i];
    u[i] = state.velocity[i] + (c * step) * a[i];
  };
  for (const ContactRow& r : rows) {
    start_segment(r.a);
    if (r.b >= 0) start_segment(r.b);
  }
  const auto position = [&](int i, double s) {
    const double dt = s - t[i];
    return p[i] + dt * u[i] + (0.5 * dt * dt) * a[i];
  };
  const auto velocity = [&](int i, double s) { return u[i] + (s - t[i]) * a[i]; };
  // The rows of each particle (CSR).
  std::vector<int>& start = row_start_;
  std::vector<int>& list = row_list_;
  start.assign(n + 1, 0);
  for (const ContactRow& r : rows) {
    ++start[r.a + 1];
    if (r.b >= 0) ++start[r.b + 1];
  }
  for (std::size_t i = 0; i < n; ++i) start[i + 1] += start[i];
  list.resize(static_cast<std::size_t>(start[n]));
  {
    std::vector<int> fill(start.begin(), start.end() - 1);
    for (std::size_t k = 0; k < rows.size(); ++k) {
      list[fill[rows[k].a]++] = static_cast<int>(k);
      if (rows[k].b >= 0) list[fill[rows[k].b]++] = static_cast<int>(k);
    }
  }
  std::vector<Vec3>& at = at_;  // scratch: positions at one instant, only the row's particles are read
  at.resize(n);
  const auto gap_at = [&](const ContactRow& r, double s, Vec3& normal) {
    at[r.a] = position(r.a, s);
    if (r.b >= 0) at[r.b] = position(r.b, s);
    return gap(r, at, normal);
  };
  const auto relative = [&](const ContactRow& r, double s) {
    return velocity(r.a, s) - (r.b >= 0 ? velocity(r.b, s) : Vec3(0.0));
  };
  const auto accel = [&](const ContactRow& r) { return a[r.a] - (r.b >= 0 ? a[r.b] : Vec3(0.0)); };

  std::vector<unsigned>& stamp = stamp_;
  stamp.assign(rows.size(), 0);
  std::priority_queue<Event, std::vector<Event>, std::greater<>> queue;
  // The row's next impact at or after s0, if any, into the queue.
  const auto schedule = [&](int k, double s0) {
    ContactRow& r = rows[k];
    if (weight(r, inv_mass) == 0.0) return;
    if (r.impacts >= kMaxImpacts) {
      // Cut, if it still closes (an elastic one: a plastic impact is what the projection gives anyway).
      Vec3 normal;
      gap_at(r, s0, normal);
      if (r.restitution > 0.0 && glm::dot(relative(r, s0), normal) < 0.0) cut = true;
      return;
    }
    Vec3 normal;
    const double g0 = gap_at(r, s0, normal);
    if (!std::isfinite(g0)) return;
    const double touching = 10.0 * tol * r.scale;
    if (g0 <= touching) {
      // Touching already: with e = 0 the projection's plastic impact is the same as Newton's, so only a bounce needs
      // the event. A resting contact is not one: the free motion closes it only by what the external forces added
      // since the substep began (the staggered half step, then s0), which the projection takes out — counted to s0, so
      // a ball on a floor struck sideways late in the substep does not bounce off the floor (it hopped by 3 g h).
      if (r.restitution == 0.0) return;
      const double un = glm::dot(relative(r, s0), normal);
      const double resting = (step + s0) * std::abs(glm::dot(accel(r), normal)) + touching / step;
      if (un < -resting) queue.push({s0, k, stamp[k]});
      return;
    }
    // Closing within the substep: at its end, or where the free motion comes closest (a fast grazing pass).
    double hi = step;
    double g_hi = gap_at(r, hi, normal);
    if (!(g_hi <= 0.0)) {
      const Vec3 w = relative(r, s0);
      double closest = s0;
      if (r.b >= 0 || faces[r.face].sphere) {
        Vec3 n0;
        gap_at(r, s0, n0);  // leaves the positions at s0 in `at`
        const Vec3 d0 = at[r.a] - (r.b >= 0 ? at[r.b] : faces[r.face].point);
        const double ww = glm::dot(w, w);
        if (ww > 0.0) closest = s0 - glm::dot(d0, w) / ww;
      } else {
        const double an = glm::dot(accel(r), faces[r.face].normal), un = glm::dot(w, faces[r.face].normal);
        if (an > 0.0 && un < 0.0) closest = s0 - un / an;
      }
      if (!(closest > s0 && closest < step)) return;
      hi = closest;
      g_hi = gap_at(r, hi, normal);
      if (!(g_hi <= 0.0)) return;
    }
    // Regula falsi with the Illinois modification: g(lo) > 0 ≥ g(hi).
    double lo = s0, g_lo = g0;
    int side = 0;
    for (int it = 0; it < 100 && hi - lo > 1e-15 * step; ++it) {
      double s = (lo * g_hi - hi * g_lo) / (g_hi - g_lo);
      if (!(s > lo && s < hi)) s = 0.5 * (lo + hi);
      const double g = gap_at(r, s, normal);
      if (g <= 0.0) {
        hi = s;
        g_hi = g;
        if (side == -1) g_lo *= 0.5;
        side = -1;
        if (g == 0.0) break;
      } else {
        lo = s;
        g_lo = g;
        if (side == 1) g_hi *= 0.5;
        side = 1;
      }
    }
    gap_at(r, hi, normal);
    if (glm::dot(relative(r, hi), normal) < 0.0) queue.push({hi, k, stamp[k]});
  };
  for (std::size_t k = 0; k < rows.size(); ++k) schedule(static_cast<int>(k), 0.0);
  std::size_t budget = 4 * kMaxImpacts * rows.size() + 64;
  while (!queue.empty()) {
    if (budget-- == 0) {  // events left that are not stale: cut short
      while (!queue.empty() && queue.top().stamp != stamp[queue.top().row]) queue.pop();
      cut = !queue.empty();
      break;
    }
    const Event event = queue.top();
    queue.pop();
    if (event.stamp != stamp[event.row]) continue;
    ContactRow& r = rows[event.row];
    const double s = event.time;
    for (int i : {r.a, r.b}) {
      if (i < 0) continue;
      const double dt = s - t[i];
      excursion[i] += dt * glm::length(u[i]) + 0.5 * dt * dt * glm::length(a[i]);
      const Vec3 pi = position(i, s), ui = velocity(i, s);
      p[i] = pi;
      u[i] = ui;
      t[i] = s;
    }
    Vec3 normal;
    gap_at(r, s, normal);
    const Vec3 rel = relative(r, s);
    const double un = glm::dot(rel, normal);
    if (!(un < 0.0)) continue;
    const double w = weight(r, inv_mass);
    const double pn = -(1.0 + r.restitution) * un / w;
    Vec3 impulse = pn * normal;
    const Vec3 slip = rel - un * normal;
    const double slip_speed = glm::length(slip);
    if (r.friction > 0.0 && slip_speed > 0.0)
      impulse -= (std::min(slip_speed / w, r.friction * pn) / slip_speed) * slip;
    // Its work on the pair: Σ m (|u⁺|² − |u⁻|²)/2 = p · (rel⁻ + rel⁺)/2 with rel⁺ = rel⁻ + w p along the impulse.
    impact_work += glm::dot(impulse, rel) + 0.5 * (inv_mass[r.a] + (r.b >= 0 ? inv_mass[r.b] : 0.0)) *
                                                glm::dot(impulse, impulse);
    u[r.a] += inv_mass[r.a] * impulse;
    touched[r.a] = 1;
    if (r.b >= 0) {
      u[r.b] -= inv_mass[r.b] * impulse;
      touched[r.b] = 1;
    }
    r.impulse += impulse;
    ++r.impacts;
    for (int i : {r.a, r.b}) {
      if (i < 0) continue;
      for (int e = start[i]; e < start[i + 1]; ++e) {
        const int k = list[e];
        ++stamp[k];
        schedule(k, s);
      }
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (!touched[i]) continue;
    if (dx.empty()) {
      dx.assign(n, Vec3(0.0));
      dv.assign(n, Vec3(0.0));
    }
    const Vec3 u0 = state.velocity[i] + (c * step) * a[i];
    const Vec3 x_free = x0[i] + step * u0 + (0.5 * step * step) * a[i];
    const Vec3 u_free = u0 + step * a[i];
    dx[i] = position(static_cast<int>(i), step) - x_free;
    const double dt = step - t[i];
    excursion[i] += dt * glm::length(u[i]) + 0.5 * dt * dt * glm::length(a[i]);
    dv[i] = velocity(static_cast<int>(i), step) - u_free;
    moved.push_back(static_cast<int>(i));
  }
}

}  // namespace lagrange
