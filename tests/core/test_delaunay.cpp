// Incremental Delaunay: the empty-sphere property on random and grid (massively cospherical) point
// sets, positive tets, consistent neighbour links, duplicates reported, determinism.
#include <doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>

#include "meshing/delaunay.h"
#include "math/predicates.h"
#include "surfaces.h"

using namespace sb;
using testing_surfaces::random_points;

namespace {

const double* at(const std::vector<double>& p, int32_t i) { return &p[3 * size_t(i)]; }

// Brute force: no input point strictly inside any tet's circumsphere. Returns the violations.
int64_t empty_sphere_violations(const std::vector<double>& p, const std::vector<int32_t>& tets) {
  int64_t bad = 0;
  const auto n = int32_t(p.size() / 3);
  for (size_t t = 0; t < tets.size(); t += 4)
    for (int32_t q = 0; q < n; ++q) {
      if (q == tets[t] || q == tets[t + 1] || q == tets[t + 2] || q == tets[t + 3]) continue;
      bad += insphere(at(p, tets[t]), at(p, tets[t + 1]), at(p, tets[t + 2]), at(p, tets[t + 3]), at(p, q)) > 0;
    }
  return bad;
}

// Local test: across every shared face, the other tet's far vertex is not inside this tet's sphere.
// (Locally Delaunay everywhere <=> Delaunay, for a triangulation.) O(n log n), for big sets.
int64_t local_violations(const std::vector<double>& p, const std::vector<int32_t>& tets, int64_t* shared_faces) {
  std::map<std::array<int32_t, 3>, std::vector<std::pair<size_t, int32_t>>> faces;
  for (size_t t = 0; t < tets.size(); t += 4)
    for (int skip = 0; skip < 4; ++skip) {
      std::array<int32_t, 3> f{};
      int m = 0;
      for (int k = 0; k < 4; ++k)
        if (k != skip) f[size_t(m++)] = tets[t + size_t(k)];
      std::sort(f.begin(), f.end());
      faces[f].push_back({t, tets[t + size_t(skip)]});
    }
  int64_t bad = 0;
  *shared_faces = 0;
  for (const auto& [face, users] : faces) {
    if (users.size() != 2) continue;
    ++*shared_faces;
    for (int side = 0; side < 2; ++side) {
      const size_t t = users[size_t(side)].first;
      const int32_t far = users[size_t(1 - side)].second;
      bad += insphere(at(p, tets[t]), at(p, tets[t + 1]), at(p, tets[t + 2]), at(p, tets[t + 3]), at(p, far)) > 0;
    }
  }
  return bad;
}

int64_t non_positive(const std::vector<double>& p, const std::vector<int32_t>& tets) {
  int64_t bad = 0;
  for (size_t t = 0; t < tets.size(); t += 4)
    bad += orient3d(at(p, tets[t]), at(p, tets[t + 1]), at(p, tets[t + 2]), at(p, tets[t + 3])) <= 0;
  return bad;
}

double total_volume(const std::vector<double>& p, const std::vector<int32_t>& tets) {
  double v6 = 0;
  for (size_t t = 0; t < tets.size(); t += 4) {
    const double *a = at(p, tets[t]), *b = at(p, tets[t + 1]), *c = at(p, tets[t + 2]), *d = at(p, tets[t + 3]);
    const double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, v[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]},
                 w[3] = {d[0] - a[0], d[1] - a[1], d[2] - a[2]};
    v6 += u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0]) + u[2] * (v[0] * w[1] - v[1] * w[0]);
  }
  return v6 / 6;
}

}  // namespace

TEST_CASE("Delaunay: 1000 random points, checked against every point") {
  const auto p = random_points(1000, 1);
  Delaunay d(p.data(), 1000);
  d.insert_all();
  CHECK(d.rejected().empty());
  CHECK(d.check_links());
  const auto tets = d.tets();
  CHECK(tets.size() / 4 > 5000);  // about 6.5 tets per point in 3D
  CHECK(non_positive(p, tets) == 0);
  CHECK(empty_sphere_violations(p, tets) == 0);
}

TEST_CASE("Delaunay: 10^4 random points are locally Delaunay across every shared face") {
  const auto p = random_points(10000, 2);
  Delaunay d(p.data(), 10000);
  d.insert_all();
  CHECK(d.rejected().empty());
  const auto tets = d.tets();
  int64_t shared = 0;
  CHECK(local_violations(p, tets, &shared) == 0);
  CHECK(shared > 100000);
  CHECK(non_positive(p, tets) == 0);
}

TEST_CASE("Delaunay: a 10x10x10 grid (every cell's 8 corners cospherical) fills its cube exactly") {
  std::vector<double> p;
  for (int k = 0; k < 10; ++k)
    for (int j = 0; j < 10; ++j)
      for (int i = 0; i < 10; ++i) p.insert(p.end(), {0.1 * i, 0.1 * j, 0.1 * k});
  Delaunay d(p.data(), 1000);
  d.insert_all();
  CHECK(d.rejected().empty());
  CHECK(d.check_links());
  const auto tets = d.tets();
  CHECK(non_positive(p, tets) == 0);  // symbolic perturbation: no flat tet despite the degeneracy
  CHECK(empty_sphere_violations(p, tets) == 0);
  // The grid's hull is the cube of side 0.9 (up to the rounding of 0.1 * i).
  CHECK(total_volume(p, tets) == doctest::Approx(0.729).epsilon(1e-9));
  CHECK(predicate_counters().insphere_exact > 0);
}

TEST_CASE("Delaunay: 2x10^4 grid points, locally Delaunay") {
  std::vector<double> p;
  for (int k = 0; k < 20; ++k)
    for (int j = 0; j < 25; ++j)
      for (int i = 0; i < 40; ++i) p.insert(p.end(), {double(i), double(j), double(k)});
  Delaunay d(p.data(), int64_t(p.size() / 3));
  d.insert_all();
  CHECK(d.rejected().empty());
  const auto tets = d.tets();
  int64_t shared = 0;
  CHECK(local_violations(p, tets, &shared) == 0);
  CHECK(non_positive(p, tets) == 0);
  CHECK(total_volume(p, tets) == doctest::Approx(39.0 * 24.0 * 19.0).epsilon(1e-12));
}

TEST_CASE("Delaunay: duplicate points are reported, not inserted, and the rest is unaffected") {
  auto p = random_points(500, 3);
  const std::vector<double> clean = p;
  for (int i = 0; i < 20; ++i) p.insert(p.end(), &clean[3 * size_t(7 * i)], &clean[3 * size_t(7 * i)] + 3);
  Delaunay d(p.data(), int64_t(p.size() / 3));
  d.insert_all();
  CHECK(d.rejected().size() == 20);
  Delaunay reference(clean.data(), 500);
  reference.insert_all();
  auto a = d.tets(), b = reference.tets();
  CHECK(a.size() == b.size());  // same mesh: with the perturbation, the Delaunay mesh is unique
  CHECK(empty_sphere_violations(p, a) == 0);
}

TEST_CASE("Delaunay: two runs give the same tets in the same order") {
  const auto p = random_points(3000, 4);
  Delaunay a(p.data(), 3000), b(p.data(), 3000);
  a.insert_all();
  b.insert_all();
  CHECK(a.tets() == b.tets());
}

TEST_CASE("Delaunay: points on a sphere and its centre: the centre joins every surface triangle") {
  // The centre lies inside the circumsphere of any four sphere points, so no tet of four sphere
  // points survives: the mesh is the centre's star over the hull, 2n - 4 tets for n points in
  // convex position. Inserted last, the centre opens a cavity of about a thousand tets at once,
  // too many boundary vertices for the edge table: the new tets' links are found by turning about
  // edges instead. In the spatial order it comes early, and the mesh must be the same.
  const int n = 500;
  auto p = random_points(n, 11);
  for (int i = 0; i < n; ++i) {
    double* q = &p[3 * size_t(i)];
    for (int k = 0; k < 3; ++k) q[k] = 2.0 * q[k] - 1.0;
    const double r = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2]);
    for (int k = 0; k < 3; ++k) q[k] /= r;
  }
  p.insert(p.end(), {0.0, 0.0, 0.0});
  Delaunay d(p.data(), n + 1, Delaunay::Order::kGiven);
  d.insert_all();
  CHECK(d.check_links());
  CHECK(d.large_cavities() == 1);
  Delaunay spatial(p.data(), n + 1);
  spatial.insert_all();
  CHECK(spatial.large_cavities() == 0);
  auto sorted_tets = [](std::vector<int32_t> t) {  // as sets of vertex ids (both are all positive)
    std::vector<std::array<int32_t, 4>> out;
    for (size_t i = 0; i < t.size(); i += 4) {
      std::array<int32_t, 4> q = {t[i], t[i + 1], t[i + 2], t[i + 3]};
      std::sort(q.begin(), q.end());
      out.push_back(q);
    }
    std::sort(out.begin(), out.end());
    return out;
  };
  CHECK(sorted_tets(d.tets()) == sorted_tets(spatial.tets()));
  const auto tets = d.tets();
  CHECK(tets.size() / 4 == size_t(2 * n - 4));
  size_t with_centre = 0;
  for (size_t t = 0; t < tets.size(); t += 4)
    with_centre += std::count(tets.begin() + long(t), tets.begin() + long(t) + 4, n) == 1;
  CHECK(with_centre == tets.size() / 4);
  CHECK(empty_sphere_violations(p, tets) == 0);
}
