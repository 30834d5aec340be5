// Skinning: a visual surface bound to tets follows them exactly under affine motion, vertices
// outside bind to the nearest tet, normals point outward, and the C API validates and updates it.
#include <doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "shapes/shapes.h"
#include "meshing/skinning.h"
#include "softbody.h"
#include "meshing/surface_subdivision.h"
#include "surfaces.h"

using namespace sb;

namespace {

// An affine map x -> A x + t applied to xyz floats.
std::vector<float> affine(const std::vector<float>& p, const double A[3][3], const double t[3]) {
  std::vector<float> out(p.size());
  for (size_t i = 0; i < p.size(); i += 3)
    for (int r = 0; r < 3; ++r)
      out[i + size_t(r)] = float(A[r][0] * p[i] + A[r][1] * p[i + 1] + A[r][2] * p[i + 2] + t[r]);
  return out;
}

}  // namespace

TEST_CASE("skinning reproduces the rest shape and follows affine motion exactly, inside and outside") {
  const TetMesh box = make_box(3, 3, 3, 1, 1, 1, 0, 0, 0);
  // Visual vertices: the surface of a sphere inside the box, plus two points just outside it.
  const testing_surfaces::Soup sphere = testing_surfaces::uv_sphere(0.4f, 16, 8);
  std::vector<float> visual = sphere.positions;
  visual.insert(visual.end(), {0.52f, 0.1f, 0.0f, -0.1f, -0.51f, 0.2f});
  const auto nv = uint32_t(visual.size() / 3);
  VisualSkin skin(box.positions.data(), uint32_t(box.positions.size() / 3), box.tets.data(), uint32_t(box.tets.size() / 4),
                  visual.data(), nv, sphere.triangles.data(), uint32_t(sphere.triangles.size() / 3));
  CHECK(skin.outside_count() == 2);
  skin.update(box.positions.data());
  for (uint32_t i = 0; i < 3 * nv; ++i) REQUIRE(skin.positions()[i] == doctest::Approx(visual[i]).epsilon(1e-5));

  // Barycentric interpolation (and extrapolation) is exact for affine maps.
  const double A[3][3] = {{1.3, 0.2, 0.0}, {-0.1, 0.7, 0.3}, {0.0, 0.25, 1.1}};
  const double t[3] = {2.0, -1.0, 0.5};
  const std::vector<float> moved = affine(box.positions, A, t);
  const std::vector<float> expected = affine(visual, A, t);
  skin.update(moved.data());
  double worst = 0;
  for (uint32_t i = 0; i < 3 * nv; ++i) worst = std::max(worst, std::fabs(double(skin.positions()[i]) - expected[i]));
  CHECK(worst < 1e-5);  // m, float rounding of 1 m coordinates
}

TEST_CASE("skinned normals are unit length and point away from the centre of a sphere") {
  const TetMesh ball = make_ball(0.5f, 8, 0, 0, 0);
  const testing_surfaces::Soup sphere = testing_surfaces::uv_sphere(0.45f, 24, 12);
  VisualSkin skin(ball.positions.data(), uint32_t(ball.positions.size() / 3), ball.tets.data(), uint32_t(ball.tets.size() / 4),
                  sphere.positions.data(), uint32_t(sphere.positions.size() / 3), sphere.triangles.data(),
                  uint32_t(sphere.triangles.size() / 3));
  skin.update(ball.positions.data());
  int outward = 0, total = 0;
  for (uint32_t i = 0; i < skin.vertex_count(); ++i) {
    const float* n = &skin.normals()[3 * i];
    const float* p = &skin.positions()[3 * i];
    CHECK(std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]) == doctest::Approx(1.0f).epsilon(1e-5));
    // The test sphere is wound inward, so its area-weighted normals point in: what matters here is
    // that they are consistent and radial.
    const float radial = (n[0] * p[0] + n[1] * p[1] + n[2] * p[2]) / std::sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
    outward += radial < -0.95f;
    ++total;
  }
  CHECK(outward > total * 9 / 10);
}

TEST_CASE("C API: a visual surface is validated, bound, and moved by every step") {
  const sb_world w = sb_world_create();
  const sb_body box = sb_body_create_box(w, 2, 2, 2, 1, 1, 1, 0, 1, 0);
  const float visual[12] = {0, 1, 0, 0.2f, 1.2f, 0.1f, -0.3f, 0.8f, 0.2f, 0.49f, 1.49f, 0.49f};
  const uint32_t tri[3] = {0, 1, 2};
  const uint32_t bad_tri[3] = {0, 1, 4};
  CHECK(sb_body_visual_vertex_count(w, box) == 0);
  CHECK(sb_body_visual_positions(w, box) == nullptr);
  CHECK(sb_body_set_visual(w, box, nullptr, 4, tri, 1) == SB_ERR_NULL_POINTER);
  CHECK(sb_body_set_visual(w, box, visual, 0, tri, 1) == SB_ERR_BAD_COUNT);
  CHECK(sb_body_set_visual(w, box, visual, 4, nullptr, 1) == SB_ERR_NULL_POINTER);
  CHECK(sb_body_set_visual(w, box, visual, 4, bad_tri, 1) == SB_ERR_INDEX_OUT_OF_RANGE);
  float nan_visual[12];
  std::copy(visual, visual + 12, nan_visual);
  nan_visual[4] = NAN;
  CHECK(sb_body_set_visual(w, box, nan_visual, 4, tri, 1) == SB_ERR_NOT_FINITE);
  CHECK(sb_body_visual_vertex_count(w, box) == 0);  // failures change nothing
  const sb_body rope = sb_body_create_rope(w, 4, 1, 0, 2, 0);
  CHECK(sb_body_set_visual(w, rope, visual, 4, tri, 1) == SB_ERR_BAD_COUNT);
  CHECK(std::string(sb_last_error()).find("no tets") != std::string::npos);

  CHECK(sb_body_set_visual(w, box, visual, 4, tri, 1) == 0);  // all four lie inside the box
  // The triangle's edge from vertex 1 to 2 (0.65 m) is longer than the tets' mean edge (0.63 m: a 6-tet cell split
  // has 3 sides, 2 face diagonals and 1 body diagonal per tet, of a 0.5 m cell):
  // split once, so one more vertex and one more triangle.
  CHECK(sb_body_visual_vertex_count(w, box) == 5);
  CHECK(sb_body_visual_triangle_count(w, box) == 2);
  const float* vp = sb_body_visual_positions(w, box);
  REQUIRE(vp != nullptr);
  CHECK(vp[1] == doctest::Approx(1.0f));
  // Falling freely, the visual falls with the body: after 0.1 s both moved down by g t^2 / 2.
  sb_world_set_ground(w, 0);
  for (int i = 0; i < 6; ++i) sb_world_step(w, 1.0f / 60.0f);
  const float drop = 0.5f * 9.81f * 0.1f * 0.1f;
  CHECK(vp[1] == doctest::Approx(1.0f - drop).epsilon(0.01));
  CHECK(vp[10] == doctest::Approx(1.49f - drop).epsilon(0.01));
  CHECK(sb_body_reset(w, box) == SB_OK);
  CHECK(vp[1] == doctest::Approx(1.0f));
  sb_world_destroy(w);
}

TEST_CASE("C API: a binding read from one body and handed to another gives the same skinned surface") {
  const sb_world w = sb_world_create();
  sb_world_set_ground(w, 0);
  const sb_body a = sb_body_create_ball(w, 0.5f, 6, 0, 1, 0);
  const int32_t nv = sb_body_vertex_count(w, a);
  const int32_t nt = sb_body_tet_count(w, a);
  // The same tets, in their creation order, as a second body (a page's worker and main thread
  // each make the body from the same arrays).
  const TetMesh ball = make_ball(0.5f, 6, 0, 1, 0);
  REQUIRE(int32_t(ball.positions.size() / 3) == nv);
  const sb_body b = sb_body_create_tets(w, ball.positions.data(), nv, ball.tets.data(), int32_t(ball.tets.size() / 4));
  REQUIRE(b > 0);
  REQUIRE(nt == sb_body_tet_count(w, b));
  // Two copies in one place: keep them from touching each other (they would push apart).
  REQUIRE(sb_body_set_collision_filter(w, b, 1, 0) == SB_OK);
  // A visual sphere a little larger than the ball: most vertices bind to a tet outside them.
  const testing_surfaces::Soup sphere = testing_surfaces::uv_sphere(0.52f, 20, 10);
  std::vector<float> visual = sphere.positions;
  for (size_t i = 1; i < visual.size(); i += 3) visual[i] += 1.0f;
  const auto vc = int32_t(visual.size() / 3), tc = sphere.triangle_count();
  const int32_t outside = sb_body_set_visual(w, a, visual.data(), vc, sphere.triangles.data(), tc);
  REQUIRE(outside > 0);
  CHECK(sb_body_visual_bound_vertices(w, b) == nullptr);  // b has no visual yet
  const uint32_t* ids = sb_body_visual_bound_vertices(w, a);
  const float* weights = sb_body_visual_weights(w, a);
  REQUIRE(ids != nullptr);
  REQUIRE(weights != nullptr);
  const int32_t count = sb_body_visual_vertex_count(w, a);
  std::vector<uint32_t> id_copy(ids, ids + 4 * count);
  std::vector<float> weight_copy(weights, weights + 4 * count);
  std::vector<uint32_t> tri_copy(sb_body_visual_triangles(w, a), sb_body_visual_triangles(w, a) + 3 * sb_body_visual_triangle_count(w, a));
  const auto tcount = int32_t(tri_copy.size() / 3);

  // Refused, changing nothing: a particle id out of range, a NaN weight, weights not summing to 1,
  // a triangle out of range, NULLs, bad counts.
  std::vector<uint32_t> bad_ids = id_copy;
  bad_ids[5] = uint32_t(nv);
  CHECK(sb_body_set_visual_bound(w, b, count, tri_copy.data(), tcount, bad_ids.data(), weight_copy.data(), 0) == SB_ERR_INDEX_OUT_OF_RANGE);
  std::vector<float> bad_weights = weight_copy;
  bad_weights[7] = NAN;
  CHECK(sb_body_set_visual_bound(w, b, count, tri_copy.data(), tcount, id_copy.data(), bad_weights.data(), 0) == SB_ERR_NOT_FINITE);
  bad_weights = weight_copy;
  bad_weights[8] += 0.01f;  // the third vertex's weights now sum to 1.01
  CHECK(sb_body_set_visual_bound(w, b, count, tri_copy.data(), tcount, id_copy.data(), bad_weights.data(), 0) == SB_ERR_OUT_OF_RANGE);
  CHECK(std::string(sb_last_error()).find("visual vertex 2") != std::string::npos);
  std::vector<uint32_t> bad_tris = tri_copy;
  bad_tris[4] = uint32_t(count);
  CHECK(sb_body_set_visual_bound(w, b, count, bad_tris.data(), tcount, id_copy.data(), weight_copy.data(), 0) == SB_ERR_INDEX_OUT_OF_RANGE);
  CHECK(sb_body_set_visual_bound(w, b, count, tri_copy.data(), tcount, nullptr, weight_copy.data(), 0) == SB_ERR_NULL_POINTER);
  CHECK(sb_body_set_visual_bound(w, b, count, tri_copy.data(), tcount, id_copy.data(), nullptr, 0) == SB_ERR_NULL_POINTER);
  CHECK(sb_body_set_visual_bound(w, b, count, nullptr, tcount, id_copy.data(), weight_copy.data(), 0) == SB_ERR_NULL_POINTER);
  CHECK(sb_body_set_visual_bound(w, b, 0, tri_copy.data(), 0, id_copy.data(), weight_copy.data(), 0) == SB_ERR_BAD_COUNT);
  CHECK(sb_body_set_visual_bound(w, b, count, tri_copy.data(), tcount, id_copy.data(), weight_copy.data(), count + 1) == SB_ERR_OUT_OF_RANGE);
  CHECK(sb_body_set_visual_bound(w, 12345, count, tri_copy.data(), tcount, id_copy.data(), weight_copy.data(), 0) == SB_ERR_INVALID_BODY);
  CHECK(sb_body_visual_vertex_count(w, b) == 0);

  REQUIRE(sb_body_set_visual_bound(w, b, count, tri_copy.data(), tcount, id_copy.data(), weight_copy.data(), outside) == SB_OK);
  CHECK(sb_body_visual_vertex_count(w, b) == count);
  CHECK(sb_body_visual_triangle_count(w, b) == tcount);
  // Same binding, same particles: the same floats, at rest and after falling and being squashed.
  auto same = [&]() {
    const float* pa = sb_body_visual_positions(w, a);
    const float* pb = sb_body_visual_positions(w, b);
    const float* na = sb_body_visual_normals(w, a);
    const float* nb = sb_body_visual_normals(w, b);
    for (int32_t i = 0; i < 3 * count; ++i)
      if (pa[i] != pb[i] || na[i] != nb[i]) return false;
    return true;
  };
  CHECK(same());
  CHECK(sb_body_squash(w, a, 0.5f) == SB_OK);
  CHECK(sb_body_squash(w, b, 0.5f) == SB_OK);
  for (int i = 0; i < 20; ++i) REQUIRE(sb_world_step(w, 1.0f / 60.0f) == SB_OK);
  CHECK(same());
  sb_world_destroy(w);
}

namespace {

// A closed cube [lo, hi]^3 of 8 vertices and 12 outward triangles, like a minimal OBJ export.
testing_surfaces::Soup cube12(float lo, float hi) {
  testing_surfaces::Soup s;
  for (int i = 0; i < 8; ++i) s.positions.insert(s.positions.end(), {i & 1 ? hi : lo, i & 2 ? hi : lo, i & 4 ? hi : lo});
  s.triangles = {0, 2, 3, 0, 3, 1,  4, 5, 7, 4, 7, 6,  0, 1, 5, 0, 5, 4,  2, 6, 7, 2, 7, 3,  0, 4, 6, 0, 6, 2,  1, 3, 7, 1, 7, 5};
  return s;
}

double dist(const float* a, const float* b) {
  return std::sqrt(double(a[0] - b[0]) * (a[0] - b[0]) + double(a[1] - b[1]) * (a[1] - b[1]) + double(a[2] - b[2]) * (a[2] - b[2]));
}

// Every directed edge once and its reverse once: closed and consistently wound.
bool closed_and_oriented(const std::vector<uint32_t>& tris) {
  std::map<std::pair<uint32_t, uint32_t>, int> directed;
  for (size_t f = 0; f < tris.size(); f += 3)
    for (int e = 0; e < 3; ++e) ++directed[{tris[f + size_t(e)], tris[f + size_t((e + 1) % 3)]}];
  for (const auto& [edge, n] : directed) {
    const auto back = directed.find({edge.second, edge.first});
    if (n != 1 || back == directed.end() || back->second != 1) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("subdividing a 12-triangle cube: vertices across its faces about one spacing apart, closed, same shape") {
  const testing_surfaces::Soup cube = cube12(0.0f, 1.0f);
  REQUIRE(closed_and_oriented(cube.triangles));
  const double L = 0.125;  // m, the spacing asked for (a tet edge)
  const SubdividedSurface s = subdivide_long_edges(cube.positions.data(), 8, cube.triangles.data(), 12, L, 1u << 18);
  const auto nv = s.positions.size() / 3;
  CHECK_FALSE(s.capped);
  CHECK(s.passes == 4);  // the sides halve to 1/8 in 3 passes, the face diagonals need a 4th
  for (size_t i = 0; i < 24; ++i) CHECK(s.positions[i] == cube.positions[i]);  // the corners first, as given
  CHECK(closed_and_oriented(s.triangles));
  // Same surface: area 6 m^2 and volume 1 m^3 (divergence theorem), every vertex on the cube.
  double area = 0, volume = 0, longest = 0;
  for (size_t f = 0; f < s.triangles.size(); f += 3) {
    const float* a = &s.positions[3 * s.triangles[f]];
    const float* b = &s.positions[3 * s.triangles[f + 1]];
    const float* c = &s.positions[3 * s.triangles[f + 2]];
    const double u[3] = {double(b[0]) - a[0], double(b[1]) - a[1], double(b[2]) - a[2]};
    const double v[3] = {double(c[0]) - a[0], double(c[1]) - a[1], double(c[2]) - a[2]};
    const double n[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
    area += 0.5 * std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    volume += (a[0] * n[0] + a[1] * n[1] + a[2] * n[2]) / 6.0;
    longest = std::max({longest, dist(a, b), dist(b, c), dist(c, a)});
  }
  CHECK(area == doctest::Approx(6.0).epsilon(1e-6));
  CHECK(volume == doctest::Approx(1.0).epsilon(1e-6));
  CHECK(longest <= L);
  int interior = 0;
  for (size_t i = 0; i < nv; ++i) {
    int on_side = 0;
    for (int k = 0; k < 3; ++k) {
      const float x = s.positions[3 * i + size_t(k)];
      REQUIRE((x >= 0.0f && x <= 1.0f));
      on_side += x == 0.0f || x == 1.0f;
    }
    REQUIRE(on_side >= 1);
    interior += on_side == 1;
  }
  CHECK(interior >= 6 * 7 * 7);  // at least the 7 x 7 inner grid points of each face's sides
  // Every point of every face is within L / sqrt(3) of a vertex (a triangle with sides <= L has no
  // point farther than that from all three corners): the faces are covered at the spacing L.
  double gap = 0;
  for (int face = 0; face < 6; ++face)
    for (int i = 0; i <= 20; ++i)
      for (int j = 0; j <= 20; ++j) {
        float q[3];
        q[face % 3] = face < 3 ? 0.0f : 1.0f;
        q[(face + 1) % 3] = float(i) / 20;
        q[(face + 2) % 3] = float(j) / 20;
        double nearest = HUGE_VAL;
        for (size_t v = 0; v < nv; ++v) nearest = std::min(nearest, dist(q, &s.positions[3 * v]));
        gap = std::max(gap, nearest);
      }
  CHECK(gap <= L / std::sqrt(3.0) + 1e-6);

  // Deterministic; a surface already finer than L comes back as it is; the vertex cap holds.
  const SubdividedSurface again = subdivide_long_edges(cube.positions.data(), 8, cube.triangles.data(), 12, L, 1u << 18);
  CHECK(again.positions == s.positions);
  CHECK(again.triangles == s.triangles);
  const SubdividedSurface same = subdivide_long_edges(s.positions.data(), uint32_t(nv), s.triangles.data(), uint32_t(s.triangles.size() / 3), L, 1u << 18);
  CHECK(same.passes == 0);
  CHECK(same.triangles == s.triangles);
  const SubdividedSurface capped = subdivide_long_edges(cube.positions.data(), 8, cube.triangles.data(), 12, L, 200);
  CHECK(capped.capped);
  CHECK(capped.positions.size() / 3 <= 200);
  CHECK(closed_and_oriented(capped.triangles));

  // A cube with 4 corners per face (hard edges, 24 vertices): the faces share no vertex, but their
  // midpoints land on the same floats, so the drawn surface has no cracks either.
  const testing_surfaces::Soup split = testing_surfaces::cube(1.0f);
  const SubdividedSurface t = subdivide_long_edges(split.positions.data(), 24, split.triangles.data(), 12, L, 1u << 18);
  std::map<std::array<float, 3>, int> at;  // how many faces' vertices sit at each point
  for (size_t v = 0; v < t.positions.size() / 3; ++v) ++at[{t.positions[3 * v], t.positions[3 * v + 1], t.positions[3 * v + 2]}];
  int on_edges = 0;
  for (const auto& [point, n] : at) on_edges += n >= 2;
  CHECK(on_edges == 12 * 7 + 8);  // the 7 inner points of each cube edge and the corners, all shared
}

TEST_CASE("a 12-triangle cube skinned to bending tets bends with them: face vertices follow the tets around them") {
  const TetMesh box = make_box(8, 8, 8, 1, 1, 1, 0, 0, 0);  // [-0.5, 0.5]^3, cells of 0.125 m
  const testing_surfaces::Soup cube = cube12(-0.5f, 0.5f);  // its outer faces, as 12 triangles
  const auto np = uint32_t(box.positions.size() / 3), nt = uint32_t(box.tets.size() / 4);
  VisualSkin skin(box.positions.data(), np, box.tets.data(), nt, cube.positions.data(), 8, cube.triangles.data(), 12);
  const uint32_t nv = skin.vertex_count();
  CHECK(nv > 8 * 20);  // subdivided to about the tets' mean edge (~0.17 m): a few hundred vertices
  CHECK(skin.outside_count() == 0);  // on the tets' boundary faces
  std::vector<uint32_t> tris(skin.triangles(), skin.triangles() + 3 * skin.triangle_count());
  CHECK(closed_and_oriented(tris));
  skin.update(box.positions.data());
  const std::vector<float> rest(skin.positions(), skin.positions() + 3 * nv);
  for (uint32_t i = 0; i < 24; ++i) CHECK(rest[i] == doctest::Approx(cube.positions[i]).epsilon(1e-6));

  // Bend the box about the z axis through (0, -R, 0): phi(x, y, z) = ((R + y) sin(x/R), (R + y) cos(x/R) - R, z).
  const double R = 1.0;  // m
  auto phi = [&](const float* p, float* out) {
    out[0] = float((R + p[1]) * std::sin(p[0] / R));
    out[1] = float((R + p[1]) * std::cos(p[0] / R) - R);
    out[2] = p[2];
  };
  std::vector<float> bent(box.positions.size());
  for (uint32_t i = 0; i < np; ++i) phi(&box.positions[3 * i], &bent[3 * i]);
  skin.update(bent.data());
  // Each skinned vertex is phi's linear interpolation over the tet holding it, off phi by at most
  // M h^2 / 2 (Taylor about the vertex, for each corner), with h the tet's diameter (a cell's
  // diagonal, 0.2165 m) and M = 2 /m the largest second derivative of phi along a unit direction
  // (the eigenvalue of [[1.5, 1], [1, 0]] /m at y = 0.5): 0.047 m.
  double worst = 0;
  for (uint32_t i = 0; i < nv; ++i) {
    float expected[3];
    phi(&rest[3 * i], expected);
    worst = std::max(worst, dist(expected, skin.positions() + 3 * i));
  }
  CHECK(worst <= 0.047);  // measured: 0.005 m
  // The middle of the top face, a vertex now. Drawn with the 8 corners only it would sit on the
  // straight diagonal between two top corners, 1.5 cos(0.5) - 1 = 0.316 m high instead of 0.5 m:
  // the bend would not show.
  const float centre[3] = {0.0f, 0.5f, 0.0f};
  uint32_t middle = 0;
  for (uint32_t i = 0; i < nv; ++i)
    if (dist(&rest[3 * i], centre) < dist(&rest[3 * middle], centre)) middle = i;
  REQUIRE(dist(&rest[3 * middle], centre) < 1e-6);
  float expected[3];
  phi(centre, expected);
  const double error = dist(expected, skin.positions() + 3 * middle);
  CHECK(error <= 0.047);
  const float* c0 = skin.positions() + 3 * 2;  // corner (-0.5, 0.5, -0.5)
  const float* c1 = skin.positions() + 3 * 7;  // corner (0.5, 0.5, 0.5), across the top face's diagonal
  const float chord[3] = {0.5f * (c0[0] + c1[0]), 0.5f * (c0[1] + c1[1]), 0.5f * (c0[2] + c1[2])};
  CHECK(dist(expected, chord) > 0.18);
  CHECK(error < dist(expected, chord) / 4);
  // Normals follow the bend: inside the top face they tilt to (sin(x/R), cos(x/R), 0).
  double worst_angle = 0;  // degrees
  for (uint32_t i = 8; i < nv; ++i) {
    const float* p = &rest[3 * i];
    if (p[1] != 0.5f || std::fabs(p[0]) >= 0.5f || std::fabs(p[2]) >= 0.5f) continue;
    const float* n = skin.normals() + 3 * i;
    const double cosine = n[0] * std::sin(p[0] / R) + n[1] * std::cos(p[0] / R);
    worst_angle = std::max(worst_angle, std::acos(std::min(1.0, cosine)) * 180 / 3.14159265358979);
  }
  CHECK(worst_angle < 10.0);
}

TEST_CASE("C API: a coarse visual is subdivided before it is bound, its own vertices first") {
  const sb_world w = sb_world_create();
  const sb_body box = sb_body_create_box(w, 6, 6, 6, 1, 1, 1, 0, 1, 0);
  testing_surfaces::Soup cube = cube12(-0.5f, 0.5f);
  for (size_t i = 1; i < cube.positions.size(); i += 3) cube.positions[i] += 1.0f;
  REQUIRE(sb_body_set_visual(w, box, cube.positions.data(), 8, cube.triangles.data(), 12) == 0);
  const int32_t nv = sb_body_visual_vertex_count(w, box), nt = sb_body_visual_triangle_count(w, box);
  CHECK(nv > 8);
  CHECK(nt == 2 * (nv - 2));  // a closed surface of genus 0: Euler's V - E + F = 2 with E = 3F/2
  const float* p = sb_body_visual_positions(w, box);
  for (int i = 0; i < 24; ++i) CHECK(p[i] == doctest::Approx(cube.positions[size_t(i)]).epsilon(1e-6));
  const uint32_t* t = sb_body_visual_triangles(w, box);
  CHECK(closed_and_oriented(std::vector<uint32_t>(t, t + 3 * nt)));
  sb_world_destroy(w);
}
