// The constraint matrix taken apart (matrix_analysis.h): dense, by Eigen's symmetric eigensolver and an elimination
// in row order, so it shares nothing with the solvers' sparse factorization but the rows' own gradients.
#include "lagrange/matrix_analysis.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>

#include "lagrange/constraint_kinds.h"

namespace lagrange {

MatrixAnalysis analyse_matrix(const World& world) {
  const Model& model = world.model();
  const State& state = world.state();
  std::vector<const Row*> rows;
  for (const Row& row : model.rows())
    if (!row.constraint->tool()) rows.push_back(&row);
  const int n = static_cast<int>(rows.size());
  if (n > kMaxMatrixRows)
    throw Error("the scene has " + std::to_string(n) + " constraint rows; the matrix is analysed for at most " +
                std::to_string(kMaxMatrixRows));

  MatrixAnalysis out;
  out.rows = n;
  const std::span<const double> inv_mass = model.inv_mass();
  std::vector<Vec3> force;
  model.external_forces(model.settings(), state.velocity, force);

  // Every row's gradient as a dense row of J (3 per particle), and J M⁻¹ F + J̇ q̇.
  const Eigen::Index dofs = 3 * static_cast<Eigen::Index>(model.particle_count());
  Eigen::MatrixXd jw = Eigen::MatrixXd::Zero(n, dofs);  // J M^(-1/2): A = (J M^(-1/2)) (J M^(-1/2))ᵀ
  Eigen::VectorXd b(n);
  for (int k = 0; k < n; ++k) {
    const Row& row = *rows[k];
    RowGradient g{};
    row.constraint->evaluate(row.row, state.position, g);
    double jmf = 0.0;
    MatrixRow info{row.constraint_index, row.row, row.constraint->kind().name, {}};
    for (int s = 0; s < row.count; ++s) {
      const int p = row.particle[s];
      info.particles.push_back(p);
      const double w = inv_mass[p];
      jmf += w * glm::dot(g[s], force[p]);
      for (int c = 0; c < 3; ++c) jw(k, 3 * p + c) += std::sqrt(w) * g[s][c];
    }
    b(k) = -(jmf + row.constraint->jdot_qdot(row.row, state.position, state.velocity));
    out.row_info.push_back(std::move(info));
  }
  const Eigen::MatrixXd a = jw * jw.transpose();
  out.a.resize(static_cast<std::size_t>(n) * n);
  for (int k = 0; k < n; ++k)
    for (int l = 0; l < n; ++l) out.a[static_cast<std::size_t>(k) * n + l] = a(k, l);
  out.rhs.assign(b.data(), b.data() + n);
  if (n == 0) return out;

  // Rank and condition from the eigenvalues; λ from the pseudo-inverse built on the same eigenvectors.
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(a);
  const Eigen::VectorXd values = eigen.eigenvalues();
  const double largest = std::max(values.cwiseAbs().maxCoeff(), 0.0);
  const double tolerance = 1e-10 * largest;
  double smallest = largest;
  Eigen::VectorXd lambda = Eigen::VectorXd::Zero(n);
  const Eigen::VectorXd projected = eigen.eigenvectors().transpose() * b;
  for (int k = 0; k < n; ++k) {
    out.eigenvalues.push_back(values(k));
    if (values(k) > tolerance) {
      ++out.rank;
      smallest = std::min(smallest, values(k));
      lambda += eigen.eigenvectors().col(k) * (projected(k) / values(k));
    }
  }
  out.lambda.assign(lambda.data(), lambda.data() + n);
  out.condition = out.rank > 0 ? largest / smallest : 0.0;

  // Dependent rows: eliminate in row order; a row whose pivot (its part not explained by the kept rows before it,
  // the Schur complement A_kk − a_kᵀ A_SS⁻¹ a_k) is below the tolerance of its own diagonal is dependent.
  std::vector<int> kept;
  Eigen::MatrixXd factor(n, n);  // lower Cholesky factor of A over the kept rows
  for (int k = 0; k < n; ++k) {
    const int m = static_cast<int>(kept.size());
    Eigen::VectorXd y(m);
    for (int i = 0; i < m; ++i) {
      double s = a(kept[i], k);
      for (int j = 0; j < i; ++j) s -= factor(i, j) * y(j);
      y(i) = s / factor(i, i);
    }
    const double pivot = a(k, k) - (m > 0 ? y.squaredNorm() : 0.0);
    if (!(pivot > 1e-10 * std::max(a(k, k), 1e-300))) {
      out.dependent.push_back(k);
      continue;
    }
    for (int j = 0; j < m; ++j) factor(m, j) = y(j);
    factor(m, m) = std::sqrt(pivot);
    kept.push_back(k);
  }
  return out;
}

}  // namespace lagrange
