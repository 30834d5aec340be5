// Skinning: a visual surface bound to tets follows them exactly under affine motion, vertices
// outside bind to the nearest tet, normals point outward, and the C API validates and updates it.
#include <doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "shapes.h"
#include "skinning.h"
#include "softbody.h"
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
  CHECK(sb_body_visual_vertex_count(w, box) == 4);
  CHECK(sb_body_visual_triangle_count(w, box) == 1);
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
