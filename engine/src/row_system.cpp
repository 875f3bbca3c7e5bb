#include "row_system.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace lagrange {

void RowSystem::prepare(const World& world) {
  const Particles& particles = world.particles();
  if (version_ == world.topology_version() && particle_count_ == particles.size()) return;
  version_ = world.topology_version();
  particle_count_ = particles.size();
  const auto rows = world.rows();
  const int m = static_cast<int>(rows.size());

  // Which rows touch each movable particle, and through which slot.
  std::vector<std::vector<std::pair<int, int>>> touching(particles.size());
  for (int k = 0; k < m; ++k)
    for (int s = 0; s < rows[k].count; ++s)
      if (!particles.fixed(rows[k].particle[s])) touching[rows[k].particle[s]].push_back({k, s});

  diag_start_.assign(m + 1, 0);
  diag_terms_flat_.clear();
  for (int k = 0; k < m; ++k) {
    for (int s = 0; s < rows[k].count; ++s) {
      const int p = rows[k].particle[s];
      if (!particles.fixed(p))
        diag_terms_flat_.push_back({p, static_cast<unsigned char>(s), static_cast<unsigned char>(s)});
    }
    diag_start_[k + 1] = static_cast<int>(diag_terms_flat_.size());
  }

  std::unordered_map<long long, std::vector<Term>> coupling;
  for (std::size_t p = 0; p < touching.size(); ++p) {
    const auto& list = touching[p];
    for (std::size_t a = 0; a < list.size(); ++a)
      for (std::size_t b = a + 1; b < list.size(); ++b) {
        auto [k, sk] = list[a];
        auto [l, sl] = list[b];
        if (k == l) continue;
        if (k > l) {
          std::swap(k, l);
          std::swap(sk, sl);
        }
        coupling[static_cast<long long>(k) * m + l].push_back(
            {static_cast<int>(p), static_cast<unsigned char>(sk), static_cast<unsigned char>(sl)});
      }
  }
  std::vector<long long> keys;
  keys.reserve(coupling.size());
  for (const auto& entry : coupling) keys.push_back(entry.first);
  std::sort(keys.begin(), keys.end());  // deterministic order: same run, same bits
  pairs_.clear();
  pair_start_.assign(1, 0);
  pair_terms_.clear();
  for (long long key : keys) {
    pairs_.push_back({static_cast<int>(key / m), static_cast<int>(key % m)});
    const auto& terms = coupling[key];
    pair_terms_.insert(pair_terms_.end(), terms.begin(), terms.end());
    pair_start_.push_back(static_cast<int>(pair_terms_.size()));
  }
  diag_.assign(m, 0.0);
  upper_.assign(pairs_.size(), 0.0);
  lower_.assign(pairs_.size(), 0.0);
  ldu_.analyze(m, pairs_);
}

void RowSystem::evaluate(const World& world, std::span<const Vec3> x, std::vector<double>& c,
                         std::vector<RowGrad>& grad) const {
  const auto rows = world.rows();
  c.resize(rows.size());
  grad.resize(rows.size());
  for (std::size_t k = 0; k < rows.size(); ++k) c[k] = rows[k].constraint->evaluate(rows[k].row, x, grad[k].g);
}

void RowSystem::displace(const World& world, const std::vector<RowGrad>& grad, const std::vector<double>& lambda,
                         std::vector<Vec3>& x) const {
  const auto rows = world.rows();
  const auto& inv_mass = world.particles().inv_mass;
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const double l = lambda[k];
    for (int s = 0; s < rows[k].count; ++s) {
      const int p = rows[k].particle[s];
      x[p] += (l * inv_mass[p]) * grad[k].g[s];
    }
  }
}

void RowSystem::velocity_rows(const World& world, const std::vector<RowGrad>& grad, std::span<const Vec3> v,
                              std::vector<double>& jv) const {
  const auto rows = world.rows();
  jv.resize(rows.size());
  for (std::size_t k = 0; k < rows.size(); ++k) {
    double sum = 0.0;
    for (int s = 0; s < rows[k].count; ++s) sum += glm::dot(grad[k].g[s], v[rows[k].particle[s]]);
    jv[k] = sum;
  }
}

int RowSystem::factorize(const World& world, const std::vector<RowGrad>& left, const std::vector<RowGrad>& right) {
  const auto& inv_mass = world.particles().inv_mass;
  const int m = rows();
  for (int k = 0; k < m; ++k) {
    double sum = 0.0;
    for (int t = diag_start_[k]; t < diag_start_[k + 1]; ++t) {
      const Term& term = diag_terms_flat_[t];
      sum += inv_mass[term.particle] * glm::dot(left[k].g[term.slot_k], right[k].g[term.slot_k]);
    }
    diag_[k] = sum;
  }
  for (std::size_t e = 0; e < pairs_.size(); ++e) {
    const auto [k, l] = pairs_[e];
    double up = 0.0, low = 0.0;
    for (int t = pair_start_[e]; t < pair_start_[e + 1]; ++t) {
      const Term& term = pair_terms_[t];
      const double w = inv_mass[term.particle];
      up += w * glm::dot(left[k].g[term.slot_k], right[l].g[term.slot_l]);
      low += w * glm::dot(left[l].g[term.slot_l], right[k].g[term.slot_k]);
    }
    upper_[e] = up;
    lower_[e] = low;
  }
  return ldu_.factorize(diag_.data(), upper_.data(), lower_.data());
}

void predict_semi_implicit(const World& world, double h, std::vector<Vec3>& x_star, std::vector<Vec3>& v_star) {
  const Particles& particles = world.particles();
  const std::size_t n = particles.size();
  std::vector<Vec3> force;
  world.external_forces(particles.position, particles.velocity, force);
  x_star.resize(n);
  v_star.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double w = particles.inv_mass[i];
    v_star[i] = particles.velocity[i] + (h * w) * force[i];
    x_star[i] = particles.position[i] + h * v_star[i];
  }
}

double max_relative(const World& world, const std::vector<double>& c) {
  const auto rows = world.rows();
  double worst = 0.0;
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const double r = std::abs(c[k]) / rows[k].scale;
    if (!(r <= worst)) worst = r;  // NaN wins, so a non-finite residual is never taken for convergence
  }
  return worst;
}

}  // namespace lagrange
