// SparseLDU against Eigen's dense LU on random matrices with a symmetric pattern and unsymmetric values, and its
// symmetric mode (L D Lᵀ) against Eigen's dense LDLᵀ. extra = 0 makes a chain: the bidiagonal solve. Last, the
// row system's chain kernel (the chord step fused with that solve) against the general passes.
#include <doctest/doctest.h>

#include <Eigen/Dense>
#include <Eigen/SparseCholesky>
#include <random>
#include <set>

#include "lagrange/scene.h"
#include "solvers/row_system.h"
#include "solvers/sparse_ldu.h"
#include "test_util.h"

using lagrange::SparseLDU;

namespace {

struct RandomSystem {
  int n;
  std::vector<std::pair<int, int>> pairs;
  std::vector<double> diag, upper, lower;
  Eigen::MatrixXd dense;
};

RandomSystem make_system(int n, int extra_pairs, std::mt19937& rng, bool symmetric = false) {
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  std::uniform_int_distribution<int> index(0, n - 1);
  RandomSystem s{n, {}, {}, {}, {}, Eigen::MatrixXd::Zero(n, n)};
  std::set<std::pair<int, int>> seen;
  for (int i = 0; i + 1 < n; ++i) seen.insert({i, i + 1});  // a chain, plus random long-range couplings
  for (int e = 0; e < extra_pairs; ++e) {
    int i = index(rng), j = index(rng);
    if (i == j) continue;
    seen.insert({std::min(i, j), std::max(i, j)});
  }
  s.pairs.assign(seen.begin(), seen.end());
  s.diag.resize(n);
  for (auto [i, j] : s.pairs) {
    const double a = value(rng);
    const double b = symmetric ? a : a + 0.3 * value(rng);  // close to symmetric, as the Newton matrix is
    s.upper.push_back(a);
    s.lower.push_back(b);
    s.dense(i, j) = a;
    s.dense(j, i) = b;
  }
  for (int i = 0; i < n; ++i) {  // diagonally dominant enough to need no pivoting
    s.diag[i] = 2.0 + s.dense.row(i).cwiseAbs().sum();
    s.dense(i, i) = s.diag[i];
  }
  return s;
}

}  // namespace

TEST_CASE("SparseLDU solves unsymmetric systems with a symmetric pattern like a dense LU") {
  std::mt19937 rng(12345);
  for (int n : {1, 2, 5, 40, 300}) {
    for (int extra : {0, n / 2, 2 * n}) {
      RandomSystem s = make_system(n, extra, rng);
      SparseLDU ldu;
      ldu.analyze(n, s.pairs);
      CHECK(ldu.factorize(s.diag.data(), s.upper.data(), s.lower.data()) == 0);
      Eigen::VectorXd b = Eigen::VectorXd::Random(n);
      std::vector<double> x(b.data(), b.data() + n);
      ldu.solve(x.data());
      const Eigen::VectorXd expected = s.dense.partialPivLu().solve(b);
      for (int i = 0; i < n; ++i) CHECK(x[i] == doctest::Approx(expected[i]).epsilon(1e-10));
    }
  }
}

TEST_CASE("SparseLDU refactorizes new values on the same pattern") {
  std::mt19937 rng(7);
  RandomSystem s = make_system(60, 60, rng);
  SparseLDU ldu;
  ldu.analyze(s.n, s.pairs);
  for (int round = 0; round < 3; ++round) {
    for (std::size_t e = 0; e < s.pairs.size(); ++e) {
      s.upper[e] *= 0.9;
      s.lower[e] *= 1.1;
      s.dense(s.pairs[e].first, s.pairs[e].second) = s.upper[e];
      s.dense(s.pairs[e].second, s.pairs[e].first) = s.lower[e];
    }
    ldu.factorize(s.diag.data(), s.upper.data(), s.lower.data());
    Eigen::VectorXd b = Eigen::VectorXd::Random(s.n);
    std::vector<double> x(b.data(), b.data() + s.n);
    ldu.solve(x.data());
    const Eigen::VectorXd residual = s.dense * Eigen::Map<Eigen::VectorXd>(x.data(), s.n) - b;
    CHECK(residual.norm() < 1e-12 * b.norm() * 100);
  }
}

TEST_CASE("SparseLDU marks a row that repeats another as dependent and still returns a finite solution") {
  // Rows 0 and 1 are the same equation (a particle pinned twice); row 2 couples to both.
  const std::vector<std::pair<int, int>> pairs{{0, 1}, {0, 2}, {1, 2}};
  const double diag[] = {1.0, 1.0, 2.0};
  const double upper[] = {1.0, 0.5, 0.5};
  const double lower[] = {1.0, 0.5, 0.5};
  SparseLDU ldu;
  ldu.analyze(3, pairs);
  CHECK(ldu.factorize(diag, upper, lower) == 1);
  // A consistent right-hand side (rows 0 and 1 equal): the solution must satisfy all three equations.
  double b[] = {1.0, 1.0, 3.0};
  double x[] = {1.0, 1.0, 3.0};
  ldu.solve(x);
  for (double v : x) CHECK(std::isfinite(v));
  const double a[3][3] = {{1.0, 1.0, 0.5}, {1.0, 1.0, 0.5}, {0.5, 0.5, 2.0}};
  for (int i = 0; i < 3; ++i) {
    const double row = a[i][0] * x[0] + a[i][1] * x[1] + a[i][2] * x[2];
    CHECK(row == doctest::Approx(b[i]).epsilon(1e-12));
  }
}

TEST_CASE("a chain's matrix factors with no fill: a grid's ordering keeps fill well below dense") {
  const int n = 1000;
  std::vector<std::pair<int, int>> chain;
  for (int i = 0; i + 1 < n; ++i) chain.push_back({i, i + 1});
  SparseLDU ldu;
  ldu.analyze(n, chain);
  CHECK(ldu.factor_nonzeros() == n - 1);  // exactly the matrix's own off-diagonal entries
  // A 30 x 30 grid graph (cloth-like coupling): the natural order fills a band of width 30 (about 30 entries per
  // row); the fill-reducing order must do no worse.
  const int side = 30;
  std::vector<std::pair<int, int>> grid;
  for (int y = 0; y < side; ++y)
    for (int x = 0; x < side; ++x) {
      const int i = y * side + x;
      if (x + 1 < side) grid.push_back({i, i + 1});
      if (y + 1 < side) grid.push_back({i, i + side});
    }
  ldu.analyze(side * side, grid);
  CHECK(ldu.factor_nonzeros() <= side * side * side);
  CHECK(ldu.factor_nonzeros() >= static_cast<int>(grid.size()));
}

TEST_CASE("a large sheet's matrix: nested dissection fills less than AMD, and the factor solves the system") {
  // The rows of a 64 x 64 cloth (8 064 rods; rows couple where rods share a particle), as the projection's matrix.
  // Eigen's simplicial LDLT with AMD is the independent reference: its factor's size, and the residual of our solve.
  const int side = 64;
  const auto particle = [&](int i, int j) { return i * side + j; };
  std::vector<std::pair<int, int>> rods;
  for (int i = 0; i < side; ++i)
    for (int j = 0; j + 1 < side; ++j) rods.push_back({particle(i, j), particle(i, j + 1)});
  for (int i = 0; i + 1 < side; ++i)
    for (int j = 0; j < side; ++j) rods.push_back({particle(i, j), particle(i + 1, j)});
  const int n = static_cast<int>(rods.size());
  std::vector<std::vector<int>> at(side * side);
  for (int r = 0; r < n; ++r) {
    at[rods[r].first].push_back(r);
    at[rods[r].second].push_back(r);
  }
  std::set<std::pair<int, int>> seen;
  for (const auto& rows : at)
    for (int a : rows)
      for (int b : rows)
        if (a < b) seen.insert({a, b});
  const std::vector<std::pair<int, int>> pairs(seen.begin(), seen.end());
  std::mt19937 rng(64);
  std::uniform_real_distribution<double> value(-0.5, 0.5);
  std::vector<double> diag(n, 2.0), upper;
  std::vector<Eigen::Triplet<double>> triplets;
  for (const auto& [i, j] : pairs) {
    upper.push_back(value(rng));
    triplets.emplace_back(i, j, upper.back());
    triplets.emplace_back(j, i, upper.back());
    diag[i] += std::abs(upper.back());
    diag[j] += std::abs(upper.back());
  }
  for (int i = 0; i < n; ++i) triplets.emplace_back(i, i, diag[i]);
  Eigen::SparseMatrix<double> a(n, n);
  a.setFromTriplets(triplets.begin(), triplets.end());
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>, Eigen::Lower, Eigen::AMDOrdering<int>> reference(a);
  REQUIRE(reference.info() == Eigen::Success);
  // Eigen keeps L's unit diagonal implicit: its entries are those strictly below the diagonal, as factor_nonzeros().
  const long amd_entries = reference.matrixL().nestedExpression().nonZeros();

  SparseLDU ldlt(true);
  ldlt.analyze(n, pairs);
  if (SparseLDU::nested_dissection_available())
    CHECK(ldlt.factor_nonzeros() < 0.97 * amd_entries);  // 139 737 against 147 193 measured (flops 0.84×)
  else
    CHECK(ldlt.factor_nonzeros() <= 1.01 * amd_entries);
  CHECK(ldlt.factorize(diag.data(), upper.data(), upper.data()) == 0);
  Eigen::VectorXd b = Eigen::VectorXd::Random(n);
  std::vector<double> x(b.data(), b.data() + n);
  ldlt.solve(x.data());
  const Eigen::Map<Eigen::VectorXd> solution(x.data(), n);
  CHECK((a * solution - b).cwiseAbs().maxCoeff() < 1e-12);
  CHECK((solution - reference.solve(b)).cwiseAbs().maxCoeff() < 1e-12);
}

TEST_CASE("SparseLDU in symmetric mode solves symmetric systems like a dense LDLT") {
  std::mt19937 rng(777);
  for (int n : {1, 2, 5, 40, 300}) {
    for (int extra : {0, n / 2, 2 * n}) {
      RandomSystem s = make_system(n, extra, rng, true);
      SparseLDU ldlt(true);
      CHECK(ldlt.symmetric());
      ldlt.analyze(n, s.pairs);
      CHECK(ldlt.factorize(s.diag.data(), s.upper.data(), s.upper.data()) == 0);
      Eigen::VectorXd b = Eigen::VectorXd::Random(n);
      std::vector<double> x(b.data(), b.data() + n);
      ldlt.solve(x.data());
      const Eigen::VectorXd expected = s.dense.ldlt().solve(b);
      for (int i = 0; i < n; ++i) CHECK(x[i] == doctest::Approx(expected[i]).epsilon(1e-10));
    }
  }
}

TEST_CASE("the chain kernel does one chord step exactly as solve, displace and values do") {
  // A 40-link chain whose particles have random masses, moved off its rods at random: the fused two-pass step of
  // RowSystem::chain_chord_step against the three general passes on the same factorization.
  using namespace lagrange;
  Settings settings = test::settings_for("projection", 1.0 / 60.0, {0.0, -9.81, 0.0});
  World world = test::chain(settings, 40, 0.3);
  const Model& model = world.model();
  std::mt19937 rng(99);
  std::uniform_real_distribution<double> d(-0.02, 0.02);
  std::vector<Vec3> x = world.state().position;
  for (std::size_t i = 1; i < x.size(); ++i) x[i] += Vec3(d(rng), d(rng), 0.0);
  RowSystem fused(make_sparse_ldlt_solver()), general(make_sparse_ldlt_solver());
  fused.prepare(model);
  general.prepare(model);
  REQUIRE(fused.chain_kernel());
  RowGradients g, w;
  fused.directions(model, world.state().position, g, w);
  CHECK(fused.factorize(g, w) == 0);
  CHECK(general.factorize(g, w) == 0);
  std::vector<double> c1, c2, lambda1(model.rows().size(), 0.0), work;
  fused.values(model, x, c1);
  general.values(model, x, c2);
  std::vector<Vec3> x1 = x, x2 = x;
  const double r1 = fused.chain_chord_step(w, c1, lambda1, work, x1);
  std::vector<double> delta(c2.size());
  for (std::size_t k = 0; k < c2.size(); ++k) delta[k] = -c2[k];
  general.solve(delta);
  general.displace(model, w, delta, x2);
  const double r2 = general.values(model, x2, c2);
  CHECK(r1 == doctest::Approx(r2).epsilon(1e-9));
  for (std::size_t k = 0; k < delta.size(); ++k) {
    CHECK(lambda1[k] == doctest::Approx(delta[k]).epsilon(1e-12));
    CHECK(work[k] == doctest::Approx(delta[k]).epsilon(1e-12));
    CHECK(std::abs(c1[k] - c2[k]) < 1e-14);  // metres, on 0.3 m rods: rounding of the moves only
  }
  for (std::size_t i = 0; i < x.size(); ++i) CHECK(glm::length(x1[i] - x2[i]) < 1e-14);
  // A cloth's factor is not bidiagonal, and a pin is not a rod: no kernel.
  World cloth = make_world(parse_scene(R"({"dimension":3,"generators":[{"type":"cloth","nx":4,"ny":4}]})", "cloth"));
  RowSystem sheet(make_sparse_ldlt_solver());
  sheet.prepare(cloth.model());
  CHECK_FALSE(sheet.chain_kernel());
}
