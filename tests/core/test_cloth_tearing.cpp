// Cloth tearing (shapes/cloth_tear.h, solver/cloth_tearing.cpp): a sheet pulled apart at two opposite
// edges tears across the pull where it is weakest, stays a manifold with its mass, and tears the same
// way every run; below the threshold nothing breaks; the C API checks the parameter.
#include <doctest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "shapes/cloth_mesh.h"
#include "shapes/cloth_tear.h"
#include "softbody.h"
#include "solver/soft_body.h"

using namespace sb;

namespace {

// A 1.2 m x 0.6 m sheet in the xz plane (12 x 6 cells: the horizontal edges run along x), its
// columns at x = -0.6 and x = +0.6 pinned; the middle band |x| < 0.1 m at a third of the stiffness
// (a vertex group), so the pull concentrates there. No gravity: only the pull strains it.
struct Pull {
  SoftBody body;
  std::vector<uint32_t> left, right;
  explicit Pull(float tear_strain) : body(make_cloth_rectangle(12, 6, 1.2f, 0.6f, 0, 1, 0, false), params(tear_strain)) {
    std::vector<uint32_t> band;
    for (uint32_t i = 0; i < body.vertex_count(); ++i) {
      const float x = body.positions()[3 * i];
      if (x < -0.599f) left.push_back(i);
      if (x > 0.599f) right.push_back(i);
      if (std::fabs(x) < 0.1f) band.push_back(i);
    }
    for (uint32_t i : left) body.set_pinned(i, true);
    for (uint32_t i : right) body.set_pinned(i, true);
    body.set_vertex_scales(band.data(), uint32_t(band.size()), 1.0f, 1.0f / 3.0f);
  }
  static BodyParams params(float tear_strain) {
    BodyParams p;
    p.edge_compliance = 1e-3f;  // Y = 1000 N/m
    p.damping = 2.0f;
    p.tear_strain = tear_strain;
    return p;
  }
  // Moves the right edge out by `speed` m/s for `frames` frames of 1/60 s.
  void run(int frames, float speed) {
    StepSettings s;
    s.gravity[1] = 0.0f;
    s.ground = false;
    for (int f = 0; f < frames; ++f) {
      for (uint32_t i : right) body.positions()[3 * i] += speed / 60.0f;
      REQUIRE(body.step(1.0f / 60.0f, s));
    }
  }
};

// The pieces of the surface: vertices joined by the triangles (union-find). piece[v] per vertex.
std::vector<uint32_t> pieces(const SoftBody& b) {
  std::vector<uint32_t> parent(b.vertex_count());
  for (uint32_t i = 0; i < parent.size(); ++i) parent[i] = i;
  auto root = [&](uint32_t v) {
    while (parent[v] != v) v = parent[v] = parent[parent[v]];
    return v;
  };
  const uint32_t* t = b.surface_triangles();
  for (uint32_t k = 0; k < b.surface_triangle_count(); ++k)
    for (int i = 1; i < 3; ++i) parent[root(t[3 * k + i])] = root(t[3 * k]);
  for (uint32_t i = 0; i < parent.size(); ++i) parent[i] = root(i);
  return parent;
}

}  // namespace

TEST_CASE("Cloth tearing: a sheet pulled apart tears across the pull in its weak band, a manifold with its mass") {
  Pull p(0.3f);
  const double mass = p.body.stats().mass;
  const uint32_t n = p.body.vertex_count();
  // 0.5 m/s for 2 s: the ends 1 m further apart. In series, the band (0.2 m at a third of the
  // stiffness) strains 3 d / (1.0 + 3 x 0.2) for an extension d: 30 % at d = 0.16 m, well inside.
  p.run(120, 0.5f);
  const SoftBody& b = p.body;
  MESSAGE("torn edges ", b.torn_edges(), ", vertices ", n, " -> ", b.vertex_count(), ", mass change ", b.stats().mass - mass, " kg of ", mass);
  CHECK(b.torn_edges() > 0);
  CHECK(b.topology_version() > 0);
  CHECK(b.vertex_count() > n);
  CHECK(b.vertex_count() <= b.tear_vertex_capacity());
  // Finite, and a valid cloth mesh on the rest shape: every edge on at most two triangles wound
  // alike, no unused vertex, no flat triangle.
  CHECK(b.stats().finite);
  for (uint32_t i = 0; i < 3 * b.vertex_count(); ++i) REQUIRE(std::isfinite(b.positions()[i]));
  const ClothCheck c = check_cloth_mesh(b.rest_positions(), b.vertex_count(), b.surface_triangles(), b.surface_triangle_count());
  CHECK(c.problem == ClothProblem::None);
  // No vertex joins two fans (a bowtie): each vertex's triangles are one fan.
  for (uint32_t v = 0; v < b.vertex_count(); ++v) {
    CAPTURE(v);
    REQUIRE(vertex_fans(b.surface_triangles(), b.surface_triangle_count(), v) == 1);
  }
  // The mass is the areal density times the area, split by triangle: kept to float rounding
  // (a sum of ~100 float thirds-of-areas, each rounded at 6e-8 relative).
  CHECK(std::fabs(b.stats().mass - mass) <= 1e-6 * mass);
  // Torn across: the pinned left and right edges are now in different pieces, and every copy made
  // (a vertex on the crack) lies within a cell (0.1 m) of the weak band |x| < 0.1 m, at rest.
  const std::vector<uint32_t> piece = pieces(b);
  for (uint32_t l : p.left)
    for (uint32_t r : p.right) REQUIRE(piece[l] != piece[r]);
  for (uint32_t v = n; v < b.vertex_count(); ++v) {
    CAPTURE(v);
    CHECK(std::fabs(b.rest_positions()[3 * v]) <= 0.2f + 1e-4f);
  }
  // Reset mends it: the mesh it was made from, back at rest.
  p.body.reset();
  CHECK(p.body.vertex_count() == n);
  CHECK(p.body.torn_edges() == 0);
  CHECK(std::fabs(p.body.stats().mass - mass) <= 1e-6 * mass);
}

TEST_CASE("Cloth tearing: below the tear strain nothing breaks") {
  // 0.05 m/s for 1 s: d = 5 cm; the band strains 3 d / 1.6 = 9.4 % in series (the lattice's
  // slanted edges and the pinned corners add some), well below the 30 % threshold.
  Pull p(0.3f);
  const uint32_t n = p.body.vertex_count(), t = p.body.surface_triangle_count();
  p.run(60, 0.05f);
  CHECK(p.body.stats().max_edge_strain > 0.03);  // it is strained, just not enough
  CHECK(p.body.torn_edges() == 0);
  CHECK(p.body.topology_version() == 0);
  CHECK(p.body.vertex_count() == n);
  CHECK(p.body.surface_triangle_count() == t);
}

TEST_CASE("Cloth tearing: two identical runs tear identically, to the byte") {
  Pull a(0.3f), b(0.3f);
  a.run(90, 0.5f);
  b.run(90, 0.5f);
  REQUIRE(a.body.torn_edges() > 0);
  REQUIRE(a.body.vertex_count() == b.body.vertex_count());
  REQUIRE(a.body.surface_triangle_count() == b.body.surface_triangle_count());
  CHECK(std::memcmp(a.body.positions(), b.body.positions(), 12 * size_t(a.body.vertex_count())) == 0);
  CHECK(std::memcmp(a.body.surface_triangles(), b.body.surface_triangles(), 12 * size_t(a.body.surface_triangle_count())) == 0);
}

TEST_CASE("Cloth tearing C API: the tear strain is checked and the topology version counts the tears") {
  const sb_world w = sb_world_create();
  REQUIRE(w > 0);
  const sb_body sheet = sb_body_create_cloth_rectangle(w, 8, 4, 0.8f, 0.4f, 0, 1, 0, 0);
  REQUIRE(sheet > 0);
  CHECK(sb_body_get_param(w, sheet, SB_PARAM_TEAR_STRAIN) == 0.0f);  // documented default: off
  for (float bad : {-0.1f, 0.005f, 10.5f}) {
    CAPTURE(bad);
    CHECK(sb_body_set_param(w, sheet, SB_PARAM_TEAR_STRAIN, bad) == SB_ERR_OUT_OF_RANGE);
    CHECK(sb_body_get_param(w, sheet, SB_PARAM_TEAR_STRAIN) == 0.0f);  // unchanged
  }
  CHECK(sb_body_set_param(w, sheet, SB_PARAM_TEAR_STRAIN, NAN) == SB_ERR_NOT_FINITE);
  CHECK(sb_body_set_param(w, sheet, 25, 0.3f) == SB_ERR_UNKNOWN_PARAM);  // reserved
  CHECK(sb_body_set_param(w, sheet, SB_PARAM_TEAR_STRAIN, 0.3f) == SB_OK);
  CHECK(sb_body_get_param(w, sheet, SB_PARAM_TEAR_STRAIN) == 0.3f);
  CHECK(sb_body_topology_version(w, sheet) == 0);
  CHECK(sb_body_topology_version(w, sheet + 1) < 0);  // a bad handle is an error
  // Pin the left column and throw the right one: it tears, and the counts and version follow.
  const int32_t n = sb_body_vertex_count(w, sheet);
  const float* x = sb_body_positions(w, sheet);
  std::vector<int32_t> right;
  for (int32_t i = 0; i < n; ++i) {
    if (x[3 * i] < -0.399f) CHECK(sb_body_pin(w, sheet, i, 1) == SB_OK);
    if (x[3 * i] > 0.399f) right.push_back(i);
  }
  CHECK(sb_world_set_gravity(w, 0, 0, 0) == SB_OK);
  // Self-contact on: the world's interleaved step and its per-frame contact surfaces meet the torn mesh.
  CHECK(sb_body_set_self_collision(w, sheet, 1, 0.005f) == SB_OK);
  for (int f = 0; f < 60 && sb_body_topology_version(w, sheet) == 0; ++f) {
    float* pos = sb_body_positions(w, sheet);
    for (int32_t i : right) pos[3 * i + 0] += 0.03f;  // 1.8 m/s: the whole sheet 30 % longer in 10 frames
    for (int32_t i : right) CHECK(sb_body_pin(w, sheet, i, 1) == SB_OK);
    CHECK(sb_world_step(w, 1.0f / 60.0f) == SB_OK);
  }
  CHECK(sb_body_topology_version(w, sheet) > 0);
  CHECK(sb_body_vertex_count(w, sheet) > n);
  for (int f = 0; f < 10; ++f) CHECK(sb_world_step(w, 1.0f / 60.0f) == SB_OK);  // steps on, torn
  sb_body_stats stats;
  CHECK(sb_body_get_stats(w, sheet, &stats) == SB_OK);
  CHECK(stats.finite == 1);
  sb_world_destroy(w);
}
