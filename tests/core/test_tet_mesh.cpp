// Mesh checks, edges, boundaries, built-in shapes and constraint colouring.
#include <doctest.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "solver/constraint_order.h"
#include "shapes/shapes.h"
#include "shapes/tet_mesh.h"

using namespace sb;

namespace {

// Volume enclosed by a triangle surface (divergence theorem): positive for outward winding.
double enclosed_volume(const std::vector<float>& p, const std::vector<uint32_t>& tris) {
  double v = 0.0;
  for (size_t t = 0; t < tris.size(); t += 3) {
    const float* a = &p[3 * tris[t]];
    const float* b = &p[3 * tris[t + 1]];
    const float* c = &p[3 * tris[t + 2]];
    v += (double(a[0]) * (double(b[1]) * c[2] - double(b[2]) * c[1]) - double(a[1]) * (double(b[0]) * c[2] - double(b[2]) * c[0]) +
          double(a[2]) * (double(b[0]) * c[1] - double(b[1]) * c[0])) / 6.0;
  }
  return v;
}

double tet_volume_sum(const TetMesh& m) {
  double v = 0.0;
  for (size_t t = 0; t < m.tets.size(); t += 4) v += tet_volume6(m.positions.data(), &m.tets[t]) / 6.0;
  return v;
}

const std::vector<float> kUnitTet = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};

}  // namespace

TEST_CASE("tet_volume6 is six times the signed volume") {
  const uint32_t t[4] = {0, 1, 2, 3}, mirrored[4] = {0, 2, 1, 3};
  CHECK(tet_volume6(kUnitTet.data(), t) == doctest::Approx(1.0));
  CHECK(tet_volume6(kUnitTet.data(), mirrored) == doctest::Approx(-1.0));
}

TEST_CASE("check_tet_mesh names each problem and the offending element") {
  const std::vector<uint32_t> ok = {0, 1, 2, 3};
  CHECK(check_tet_mesh(kUnitTet.data(), 4, ok.data(), 1).problem == MeshProblem::None);

  std::vector<float> p = kUnitTet;
  p[7] = NAN;
  MeshCheck c = check_tet_mesh(p.data(), 4, ok.data(), 1);
  CHECK(c.problem == MeshProblem::NonFiniteVertex);
  CHECK(c.index == 2);
  p[7] = INFINITY;
  CHECK(check_tet_mesh(p.data(), 4, ok.data(), 1).problem == MeshProblem::NonFiniteVertex);

  const std::vector<uint32_t> out = {0, 1, 2, 4};
  CHECK(check_tet_mesh(kUnitTet.data(), 4, out.data(), 1).problem == MeshProblem::IndexOutOfRange);
  const std::vector<uint32_t> repeated = {0, 1, 1, 3};
  CHECK(check_tet_mesh(kUnitTet.data(), 4, repeated.data(), 1).problem == MeshProblem::RepeatedIndex);
  const std::vector<uint32_t> inverted = {0, 2, 1, 3};
  CHECK(check_tet_mesh(kUnitTet.data(), 4, inverted.data(), 1).problem == MeshProblem::InvertedTet);

  std::vector<float> flat = kUnitTet;
  flat[11] = 1e-7f;  // apex almost in the base plane: 6V/L^3 ~ 3.5e-8, below the 1e-6 bound
  CHECK(check_tet_mesh(flat.data(), 4, ok.data(), 1).problem == MeshProblem::DegenerateTet);
  flat[11] = 1e-4f;  // thin but a real tet (6V/L^3 ~ 3.5e-5): accepted
  CHECK(check_tet_mesh(flat.data(), 4, ok.data(), 1).problem == MeshProblem::None);

  std::vector<float> extra = kUnitTet;
  extra.insert(extra.end(), {5, 5, 5});
  c = check_tet_mesh(extra.data(), 5, ok.data(), 1);
  CHECK(c.problem == MeshProblem::UnusedVertex);
  CHECK(c.index == 4);
}

TEST_CASE("box lattice: positive tets, exact volume, conforming cells, outward watertight surface") {
  const int nx = 3, ny = 2, nz = 4;
  const TetMesh m = make_box(nx, ny, nz, 1.5f, 1.0f, 2.0f, 0.0f, 1.0f, 0.0f);
  REQUIRE(m.positions.size() == size_t(3 * (nx + 1) * (ny + 1) * (nz + 1)));
  REQUIRE(m.tets.size() == size_t(4 * 6 * nx * ny * nz));
  CHECK(check_tet_mesh(m.positions.data(), m.positions.size() / 3, m.tets.data(), m.tets.size() / 4).problem ==
        MeshProblem::None);
  CHECK(tet_volume_sum(m) == doctest::Approx(1.5 * 1.0 * 2.0).epsilon(1e-5));
  // If neighbouring cells split a shared face differently, inner faces would show up as boundary.
  const std::vector<uint32_t> surface = boundary_triangles(m.tets.data(), m.tets.size() / 4);
  CHECK(surface.size() / 3 == size_t(2 * 2 * (nx * ny + ny * nz + nx * nz)));
  CHECK(enclosed_volume(m.positions, surface) == doctest::Approx(3.0).epsilon(1e-5));
  // Each cell has 12 cube edges shared, 6 face diagonals, 1 inner diagonal: count the unique ones.
  const size_t lattice_edges = size_t(nx * (ny + 1) * (nz + 1) + (nx + 1) * ny * (nz + 1) + (nx + 1) * (ny + 1) * nz);
  const size_t face_diagonals = size_t(nx * ny * (nz + 1) + nx * (ny + 1) * nz + (nx + 1) * ny * nz);
  CHECK(unique_edges(m.tets.data(), m.tets.size() / 4).size() / 2 == lattice_edges + face_diagonals + nx * ny * nz);
}

TEST_CASE("ball: positive tets, round surface, volume close to 4/3 pi r^3") {
  const float r = 0.7f;
  const TetMesh m = make_ball(r, 8, 1.0f, 2.0f, 3.0f);
  const size_t nv = m.positions.size() / 3, nt = m.tets.size() / 4;
  CHECK(check_tet_mesh(m.positions.data(), nv, m.tets.data(), nt).problem == MeshProblem::None);
  const std::vector<uint32_t> surface = boundary_triangles(m.tets.data(), nt);
  std::set<uint32_t> on_surface(surface.begin(), surface.end());
  for (uint32_t v : on_surface) {
    const double dx = m.positions[3 * v] - 1.0, dy = m.positions[3 * v + 1] - 2.0, dz = m.positions[3 * v + 2] - 3.0;
    CHECK(std::sqrt(dx * dx + dy * dy + dz * dz) == doctest::Approx(r).epsilon(1e-5));
  }
  // An inscribed polyhedron with 8 cells across loses a little volume at the flat faces: within 5 %.
  const double sphere = 4.0 / 3.0 * M_PI * r * r * r;
  CHECK(tet_volume_sum(m) == doctest::Approx(sphere).epsilon(0.05));
  CHECK(tet_volume_sum(m) < sphere);
  CHECK(enclosed_volume(m.positions, surface) == doctest::Approx(tet_volume_sum(m)).epsilon(1e-5));
}

TEST_CASE("colouring: a permutation in which no colour touches a vertex twice") {
  const TetMesh m = make_box(5, 4, 3, 1, 1, 1, 0, 0, 0);
  const uint32_t nv = uint32_t(m.positions.size() / 3), nt = uint32_t(m.tets.size() / 4);
  const ConstraintOrder o = color_constraints(m.tets.data(), nt, 4, nv);
  REQUIRE(o.order.size() == nt);
  CHECK(std::set<uint32_t>(o.order.begin(), o.order.end()).size() == nt);
  CHECK(o.overflow_start == nt);  // a lattice needs far fewer than 64 colours
  for (size_t c = 0; c + 1 < o.color_starts.size(); ++c) {
    std::set<uint32_t> seen;
    for (uint32_t i = o.color_starts[c]; i < o.color_starts[c + 1]; ++i)
      for (int k = 0; k < 4; ++k) CHECK(seen.insert(m.tets[4 * o.order[i] + k]).second);
  }
}

TEST_CASE("colouring: within a colour, constraints in order of their smallest vertex, whatever the input order") {
  TetMesh m = make_box(6, 5, 4, 1, 1, 1, 0, 0, 0);
  const uint32_t nv = uint32_t(m.positions.size() / 3), nt = uint32_t(m.tets.size() / 4);
  for (uint32_t t = nt - 1; t > 0; --t)  // reversed and interleaved: any order but the lattice's
    if (t % 3 == 0) std::swap_ranges(&m.tets[4 * t], &m.tets[4 * t + 4], &m.tets[4 * (nt - 1 - t)]);
  const ConstraintOrder o = color_constraints(m.tets.data(), nt, 4, nv);
  const auto smallest = [&](uint32_t t) { return *std::min_element(&m.tets[4 * t], &m.tets[4 * t + 4]); };
  for (size_t c = 0; c + 1 < o.color_starts.size(); ++c)
    for (uint32_t i = o.color_starts[c] + 1; i < o.color_starts[c + 1]; ++i)
      CHECK(smallest(o.order[i - 1]) < smallest(o.order[i]));
}

TEST_CASE("colouring: a fan of 200 edges on one vertex overflows in order instead of slowing down") {
  std::vector<uint32_t> fan;
  for (uint32_t i = 1; i <= 200; ++i) fan.insert(fan.end(), {0, i});
  const ConstraintOrder o = color_constraints(fan.data(), 200, 2, 201);
  CHECK(o.color_starts.size() == size_t(kMaxColors + 1));
  CHECK(o.overflow_start == uint32_t(kMaxColors));
  for (uint32_t i = o.overflow_start; i < 200; ++i) CHECK(o.order[i] == i);
}
