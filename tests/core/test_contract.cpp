// The C API's last holes (issue 11), each found by fuzzing with ASan + UBSan: a reproducer per bug,
// kept so it stays closed. Several of these are undefined behaviour that only the sanitizer build
// (build-asan, `npm test`'s sanitizer layer) turns into a failure; the others fail in every build.
#include <doctest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

#include "api_state.h"
#include "math/point_grid.h"
#include "meshing/skinning.h"
#include "softbody.h"
#include "meshing/surface_query.h"

namespace {

const float kUnitTet[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
const uint32_t kTet[4] = {0, 1, 2, 3};

bool contains(const char* text, const char* part) { return std::string(text).find(part) != std::string::npos; }

// Bitwise copy of a body's positions: NaN != NaN, so a failed call on a corrupted buffer is
// compared by bytes.
std::vector<uint32_t> position_bits(sb_world w, sb_body b) {
  const float* p = sb_body_positions(w, b);
  std::vector<uint32_t> bits(3 * size_t(sb_body_vertex_count(w, b)));
  std::memcpy(bits.data(), p, 4 * bits.size());
  return bits;
}

// The binding's definition for a vertex outside every tet, by brute force: the tet at the smallest
// distance (point to the tet's faces), ties to the lower id. The fast search must agree exactly.
uint32_t nearest_tet_brute_force(const float* rest, const uint32_t* tets, uint32_t tet_count, const float* v) {
  const double q[3] = {v[0], v[1], v[2]};
  uint32_t best = 0;
  double best_d2 = HUGE_VAL;
  for (uint32_t t = 0; t < tet_count; ++t) {
    double c[4][3];
    for (int i = 0; i < 4; ++i)
      for (int k = 0; k < 3; ++k) c[i][k] = rest[3 * size_t(tets[4 * size_t(t) + size_t(i)]) + size_t(k)];
    double d2 = HUGE_VAL;
    for (int f = 0; f < 4; ++f)
      d2 = std::min(d2, sb::point_triangle_distance2(q, c[(f + 1) % 4], c[(f + 2) % 4], c[(f + 3) % 4]));
    if (std::sqrt(d2) < std::sqrt(best_d2)) {  // compared as the binding compares: by distance
      best = t;
      best_d2 = d2;
    }
  }
  return best;
}

}  // namespace

TEST_CASE("a point grid far finer than the distance to a stored point neither overflows nor loses neighbours") {
  // A 1e-20 m tet welds with cells of ~1e-26 m; an unused vertex at x = 1e6 m is 1e32 cells away,
  // beyond int64 (UBSan: "outside the range of representable values of type long").
  const double origin[3] = {0, 0, 0};
  sb::PointGrid grid(origin, 1e-26);
  const double near_origin[3] = {0.5e-26, 0, 0};
  const double far[3] = {1e6, 0, 0};
  const double far_neighbour[3] = {1e6, 0, 0};
  grid.insert(0, near_origin);
  grid.insert(1, far);
  std::vector<int64_t> seen;
  grid.any_near(far_neighbour, [&](int64_t id) {
    seen.push_back(id);
    return false;
  });
  // The far point is found again; the one near the origin may share a clamped chain, never more.
  CHECK(std::find(seen.begin(), seen.end(), int64_t(1)) != seen.end());
  const double nan_point[3] = {NAN, 0, 0};  // clamping must not turn NaN into a cast either
  grid.any_near(nan_point, [](int64_t) { return false; });
}

TEST_CASE("C API: a 1e-20 m surface with an unused vertex at 1e6 m is cleaned without undefined behaviour") {
  const float xyz[15] = {0, 0, 0, 1e-20f, 0, 0, 0, 1e-20f, 0, 0, 0, 1e-20f, 1e6f, 0, 0};
  const uint32_t tris[12] = {0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3};
  const sb_tetra job = sb_tetra_create(xyz, 5, tris, 4, 4, 0.0f, 1);
  if (job > 0) {  // either it is meshed (as a tiny tet) or refused with a documented code
    int32_t r = 0;
    for (int i = 0; i < 1000 && r == 0; ++i) r = sb_tetra_run(job, 100000);
    CHECK((r == 1 || r == SB_ERR_NO_INSIDE_TETS));
    CHECK(sb_tetra_destroy(job) == SB_OK);
  } else {
    CHECK(job < 0);
    CHECK(std::string(sb_last_error()).size() > 10);
  }
}

TEST_CASE("C API: a visual vertex at 1e20 m is refused with a message; at 3 m it binds (no undefined behaviour)") {
  const sb_world w = sb_world_create();
  const sb_body b = sb_body_create_tets(w, kUnitTet, 4, kTet, 1);
  REQUIRE(b > 0);
  float visual[6] = {1e20f, 0.5f, 0.5f, 0.1f, 0.1f, 0.1f};
  // The tet's box has a diagonal of sqrt(3) m: 1e20 m is beyond SB_MAX_VISUAL_DISTANCE x that.
  CHECK(sb_body_set_visual(w, b, visual, 2, nullptr, 0) == SB_ERR_OUT_OF_RANGE);
  CHECK(contains(sb_last_error(), "visual vertex 0 is 1e+20 m from the tets"));
  CHECK(sb_body_visual_vertex_count(w, b) == 0);  // nothing changed
  // The skinning core itself clamps its grid cells in double (UBSan: 6.7e19 was cast to int64).
  const std::vector<float> rest(kUnitTet, kUnitTet + 12);
  const sb::VisualSkin skin(rest.data(), 4, kTet, 1, visual, 2, nullptr, 0);
  CHECK(skin.outside_count() == 1);
  // 1e5 m is now refused as a unit mistake (the surface is ~6e4x the tet: issue 26); 3 m binds.
  visual[0] = 1e5f;
  CHECK(sb_body_set_visual(w, b, visual, 2, nullptr, 0) == SB_ERR_OUT_OF_RANGE);
  CHECK(contains(sb_last_error(), "wrong unit?"));
  visual[0] = 3.0f;
  CHECK(sb_body_set_visual(w, b, visual, 2, nullptr, 0) == 1);  // one vertex outside the tet
  const uint32_t* bound = sb_body_visual_bound_vertices(w, b);
  REQUIRE(bound != nullptr);
  for (int i = 0; i < 8; ++i) CHECK(bound[i] < 4u);
  CHECK(sb_body_visual_positions(w, b)[3] == doctest::Approx(0.1f));
  sb_world_destroy(w);
}

TEST_CASE("fuzz reproducer: a 3-vertex visual surface reaching 1e21 m is refused instead of binding for seconds") {
  const sb_world w = sb_world_create();
  const sb_body b = sb_body_create_ball(w, 1.6f, 5, 0, 1, 0);
  const float v[9] = {1.30697f, 1.30697f, 1.30697f, -1.30697f, -2.66421f, -1e20f, 4.97654f, 2.36137e21f, 4.97654f};
  const uint32_t t[9] = {0, 1, 2, 0, 2, 1, 1, 2, 0};
  CHECK(sb_body_set_visual(w, b, v, 3, t, 3) == SB_ERR_OUT_OF_RANGE);  // was 131,841 vertices in 11 s
  sb_world_destroy(w);
}

TEST_CASE("binding visual vertices far outside the tets is fast and finds the nearest tet exactly") {
  // A ball's own surface scaled 1.5x about a far origin (a file in the wrong unit): every vertex is
  // far outside the tets. The grid search used to visit every tet for each of them (103 s for this
  // 16-cell ball in wasm); the nearest tet must still be the brute-force one.
  const sb_world w = sb_world_create();
  const sb_body b = sb_body_create_ball(w, 0.5f, 16, 0, 1, 0);
  REQUIRE(b > 0);
  const int32_t nv = sb_body_vertex_count(w, b), nt = sb_body_tet_count(w, b), nf = sb_body_triangle_count(w, b);
  std::vector<float> rest(sb_body_positions(w, b), sb_body_positions(w, b) + 3 * size_t(nv));
  const std::vector<uint32_t> tets(sb_body_tets(w, b), sb_body_tets(w, b) + 4 * size_t(nt));
  const std::vector<uint32_t> tris(sb_body_triangles(w, b), sb_body_triangles(w, b) + 3 * size_t(nf));
  const float origin[3] = {40, 30, -20};  // m
  std::vector<float> visual(rest.size());
  for (size_t i = 0; i < rest.size(); ++i) visual[i] = origin[i % 3] + 1.5f * (rest[i] - origin[i % 3]);
  // Triangles left out: with them the surface (far coarser than the tets once scaled) is subdivided.
  // The binding's work bound (2^24 vertex-tet tests, then SB_ERR_LIMIT) is what catches a return of
  // the quadratic search: visiting every tet for each of these vertices is ~10x past it.
  REQUIRE(int64_t(nv) * nt > (int64_t(1) << 24));
  const int32_t outside = sb_body_set_visual(w, b, visual.data(), nv, nullptr, 0);
  CHECK(outside == nv);
  // Bound tets, checked against brute force: the body stores tets in solver order, so compare the
  // bound particles' set with the brute-force tet's.
  const uint32_t* bound = sb_body_visual_bound_vertices(w, b);
  for (int32_t v = 0; v < nv; v += 37) {
    CAPTURE(v);
    const uint32_t t = nearest_tet_brute_force(rest.data(), tets.data(), uint32_t(nt), &visual[3 * size_t(v)]);
    std::vector<uint32_t> want(&tets[4 * size_t(t)], &tets[4 * size_t(t)] + 4), got(bound + 4 * v, bound + 4 * v + 4);
    std::sort(want.begin(), want.end());
    std::sort(got.begin(), got.end());
    CHECK(want == got);
  }
  (void)tris;
  // Vertices a few cells outside the ball (found by the rings before, by the tree now when the first
  // two rings hold no tet): the same tets as brute force too. A fixed pseudo-random shell, 1.1-2x
  // the radius about the ball's centre.
  std::vector<float> shell;
  uint32_t seed = 12345;
  auto next = [&] {
    seed = seed * 1664525u + 1013904223u;
    return float(seed >> 8) / float(1u << 24);
  };
  while (shell.size() < 3 * 400) {
    const float d[3] = {2 * next() - 1, 2 * next() - 1, 2 * next() - 1};
    const float len = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    if (len < 0.1f || len > 1.0f) continue;
    const float r = 0.5f * (1.1f + 0.9f * next()) / len;
    shell.insert(shell.end(), {d[0] * r, 1.0f + d[1] * r, d[2] * r});
  }
  REQUIRE(sb_body_set_visual(w, b, shell.data(), 400, nullptr, 0) == 400);
  bound = sb_body_visual_bound_vertices(w, b);
  for (int32_t v = 0; v < 400; ++v) {
    CAPTURE(v);
    const uint32_t t = nearest_tet_brute_force(rest.data(), tets.data(), uint32_t(nt), &shell[3 * size_t(v)]);
    std::vector<uint32_t> want(&tets[4 * size_t(t)], &tets[4 * size_t(t)] + 4), got(bound + 4 * v, bound + 4 * v + 4);
    std::sort(want.begin(), want.end());
    std::sort(got.begin(), got.end());
    CHECK(want == got);
  }
  sb_world_destroy(w);
}

TEST_CASE("handles never repeat: 40,000 reuses of a world slot and of a body slot") {
  // With 15-bit generations the 32,768th reuse of a slot gave the first handle again, and a stale
  // handle reached the newer object.
  const sb_world first_world = sb_world_create();
  REQUIRE(first_world > 0);
  REQUIRE(sb_world_destroy(first_world) == SB_OK);
  int repeats = 0, reached = 0;
  for (int i = 0; i < 40000; ++i) {
    const sb_world w = sb_world_create();
    if (w <= 0) {
      FAIL("world creation failed: ", sb_last_error());
      break;
    }
    repeats += w == first_world;
    reached += sb_world_body_count(first_world) >= 0;
    sb_world_destroy(w);
  }
  CHECK(repeats == 0);
  CHECK(reached == 0);

  const sb_world w = sb_world_create();
  const sb_body first_body = sb_body_create_tets(w, kUnitTet, 4, kTet, 1);
  REQUIRE(first_body > 0);
  REQUIRE(sb_body_destroy(w, first_body) == SB_OK);
  repeats = reached = 0;
  for (int i = 0; i < 40000; ++i) {
    const sb_body b = sb_body_create_tets(w, kUnitTet, 4, kTet, 1);
    if (b <= 0) {
      FAIL("body creation failed: ", sb_last_error());
      break;
    }
    repeats += b == first_body;
    reached += sb_body_vertex_count(w, first_body) >= 0;
    sb_body_destroy(w, b);
  }
  CHECK(repeats == 0);
  CHECK(reached == 0);
  sb_world_destroy(w);
}

TEST_CASE("handles: a slot whose generations are used up is retired, never reused") {
  // Jump a slot to its last generation (a test hook), then destroy it: the next object gets another
  // slot, and the last handle of the retired one stays invalid.
  const sb_world w = sb_world_create();
  sb::World* world = sbapi::find_world(w);
  REQUIRE(world != nullptr);
  const sb_body b0 = sb_body_create_tets(w, kUnitTet, 4, kTet, 1);
  REQUIRE(b0 > 0);
  const sb::BodyHandle h0 = sbapi::decode_body(b0);
  REQUIRE(sb_body_destroy(w, b0) == SB_OK);
  world->set_slot_generation_for_test(h0.index, sb::World::kMaxGeneration);
  const sb_body last = sb_body_create_tets(w, kUnitTet, 4, kTet, 1);
  REQUIRE(last > 0);
  CHECK(sbapi::decode_body(last).index == h0.index);
  CHECK(sbapi::decode_body(last).generation == sb::World::kMaxGeneration);
  REQUIRE(sb_body_destroy(w, last) == SB_OK);
  const sb_body next = sb_body_create_tets(w, kUnitTet, 4, kTet, 1);
  REQUIRE(next > 0);
  CHECK(sbapi::decode_body(next).index != h0.index);
  CHECK(sb_body_vertex_count(w, last) == SB_ERR_INVALID_BODY);
  CHECK(sb_body_vertex_count(w, b0) == SB_ERR_INVALID_BODY);
  for (int i = 0; i < 3; ++i) {  // and the retired slot is never handed out again
    const sb_body b = sb_body_create_tets(w, kUnitTet, 4, kTet, 1);
    CHECK(sbapi::decode_body(b).index != h0.index);
  }
  CHECK(sb_world_body_count(w) == 4);
  sb_world_destroy(w);

  // The same for a world slot.
  const sb_world w0 = sb_world_create();
  REQUIRE(w0 > 0);
  const uint32_t slot = sbapi::world_slot(w0);
  REQUIRE(sb_world_destroy(w0) == SB_OK);
  sbapi::set_world_generation_for_test(slot, sbapi::kMaxWorldGeneration);
  const sb_world w_last = sb_world_create();
  REQUIRE(w_last > 0);
  CHECK(sbapi::world_slot(w_last) == slot);
  REQUIRE(sb_world_destroy(w_last) == SB_OK);
  const sb_world w_next = sb_world_create();
  REQUIRE(w_next > 0);
  CHECK(sbapi::world_slot(w_next) != slot);
  CHECK(sb_world_body_count(w_last) == SB_ERR_INVALID_WORLD);
  sb_world_destroy(w_next);
}

TEST_CASE("squash and press refuse a body whose shared positions were overwritten with NaN or huge values") {
  for (const float garbage : {NAN, 3e38f}) {
    for (const bool press : {false, true}) {
      CAPTURE(garbage);
      CAPTURE(press);
      const sb_world w = sb_world_create();
      const sb_body b = sb_body_create_box(w, 2, 2, 2, 1, 1, 1, 0, 1, 0);
      REQUIRE(sb_world_step(w, 1.0f / 60.0f) == SB_OK);
      float* pos = sb_body_positions(w, b);
      const float good_x = pos[0];
      pos[0] = garbage;  // x: widened by 1/sqrt(0.5), 3e38 overflows
      const std::vector<uint32_t> before = position_bits(w, b);
      const int32_t r = press ? sb_body_press(w, b, 0.5f, 0.5f) : sb_body_squash(w, b, 0.5f);
      CHECK(r == SB_ERR_NOT_FINITE);
      CHECK(sb_last_error_code() == SB_ERR_NOT_FINITE);
      CHECK(contains(sb_last_error(), "not finite"));
      CHECK(position_bits(w, b) == before);  // a failed call changes nothing
      // The step then finds the corruption (NaN) or the overflow it causes, and falls back to the
      // last verified shape, which must be finite: the failed squash did not overwrite it.
      const int32_t step = sb_world_step(w, 1.0f / 60.0f);
      sb_body_stats st;
      REQUIRE(sb_body_get_stats(w, b, &st) == SB_OK);
      if (step == SB_ERR_DIVERGED) {
        CHECK(st.finite == 0);
        CHECK(pos[0] == good_x);
      }
      for (int32_t i = 0; i < 3 * sb_body_vertex_count(w, b); ++i) CHECK(std::isfinite(pos[i]));
      sb_world_destroy(w);
    }
  }
}

TEST_CASE("fuzz reproducer: NaN written into a frozen body's buffer is undone by the next step") {
  // A frozen (diverged) body is not stepped, so the divergence check never saw what a program wrote
  // into its shared positions afterwards: a step returned SB_OK with NaN positions. It now shows its
  // last finite shape again.
  const sb_world w = sb_world_create();
  const sb_body b = sb_body_create_box(w, 2, 2, 2, 1, 1, 1, 0, 1, 0);
  REQUIRE(sb_world_step(w, 1.0f / 60.0f) == SB_OK);
  float* pos = sb_body_positions(w, b);
  pos[4] = NAN;
  REQUIRE(sb_world_step(w, 1.0f / 60.0f) == SB_ERR_DIVERGED);
  const float frozen_x = pos[0];
  pos[0] = NAN;
  pos[7] = INFINITY;
  CHECK(sb_world_step(w, 1.0f / 60.0f) == SB_OK);  // reported once; frozen until reset
  for (int32_t i = 0; i < 3 * sb_body_vertex_count(w, b); ++i) CHECK(std::isfinite(pos[i]));
  CHECK(pos[0] == frozen_x);
  sb_body_stats st;
  REQUIRE(sb_body_get_stats(w, b, &st) == SB_OK);
  CHECK(st.finite == 0);
  sb_world_destroy(w);
}

TEST_CASE("dt has a documented minimum: 1e-30 s is refused with the range, not reported as divergence") {
  const sb_world w = sb_world_create();
  const sb_body b = sb_body_create_box(w, 2, 2, 2, 1, 1, 1, 0, 0, 0);  // resting on the ground
  REQUIRE(sb_world_step(w, 1.0f / 60.0f) == SB_OK);
  const double t = sb_world_time(w);
  CHECK(sb_world_step(w, 1e-30f) == SB_ERR_OUT_OF_RANGE);
  CHECK(contains(sb_last_error(), "dt must be in [1e-06, 1] s"));
  CHECK(!contains(sb_last_error(), "Lower the time step"));
  CHECK(sb_world_time(w) == t);
  CHECK(sb_world_step(w, 0.99e-6f) == SB_ERR_OUT_OF_RANGE);
  // The minimum itself, at the most substeps, under every solver: finite, no divergence.
  REQUIRE(sb_world_set_substeps(w, SB_MAX_SUBSTEPS) == SB_OK);
  REQUIRE(sb_body_set_param(w, b, SB_PARAM_EDGE_COMPLIANCE, 1e-4f) == SB_OK);
  REQUIRE(sb_body_set_param(w, b, SB_PARAM_VOLUME_COMPLIANCE, 1e-4f) == SB_OK);
  for (int32_t s = 0; s < SB_SOLVER_COUNT; ++s) {
    CAPTURE(s);
    REQUIRE(sb_body_set_solver(w, b, s) == SB_OK);
    CHECK(sb_world_step(w, SB_MIN_DT) == SB_OK);
    sb_body_stats st;
    REQUIRE(sb_body_get_stats(w, b, &st) == SB_OK);
    CHECK(st.finite == 1);
  }
  sb_world_destroy(w);
}

TEST_CASE("stats: energies are doubles, finite while the state is finite") {
  const sb_world w = sb_world_create();
  const sb_body b = sb_body_create_box(w, 2, 2, 2, 1, 1, 1, 0, 1, 0);
  REQUIRE(sb_body_set_param(w, b, SB_PARAM_EDGE_COMPLIANCE, 1e-6f) == SB_OK);
  float* pos = sb_body_positions(w, b);
  pos[1] = 1e30f;  // finite, absurd: an edge of 1e30 m stores ~1e60 / compliance J, beyond float
  sb_body_stats st;
  REQUIRE(sb_body_get_stats(w, b, &st) == SB_OK);
  CHECK(st.finite == 1);
  CHECK(std::isfinite(st.elastic_energy));
  CHECK(st.elastic_energy > 1e60);
  CHECK(std::isfinite(st.potential_energy));
  CHECK(std::isfinite(st.kinetic_energy));
  // The layout the JS bridge reads (web/src/softbody.js: STATS_BYTES; bridge_body.js: Body.stats()'s offsets).
  CHECK(sizeof(sb_body_stats) == 104);
  CHECK(offsetof(sb_body_stats, inverted_tets) == 96);
  sb_world_destroy(w);
}

TEST_CASE("tets and triangles of a body with none: NULL, the count 0 and no error") {
  const sb_world w = sb_world_create();
  const sb_body rope = sb_body_create_rope(w, 8, 1.0f, 0, 2, 0);
  const sb_body jelly = sb_body_create_jelly(w, 2, 0.5f, 2, 1, 0);
  const sb_body ball = sb_body_create_pressure_ball(w, 0.3f, 4, -2, 1, 0);
  REQUIRE(rope > 0);
  REQUIRE(jelly > 0);
  REQUIRE(ball > 0);
  CHECK(sb_body_triangles(w, rope) == nullptr);
  CHECK(sb_last_error_code() == SB_OK);
  CHECK(sb_body_triangle_count(w, rope) == 0);
  for (const sb_body b : {rope, jelly, ball}) {
    CAPTURE(b);
    CHECK(sb_body_tets(w, b) == nullptr);
    CHECK(sb_last_error_code() == SB_OK);
    CHECK(std::string(sb_last_error()).empty());
    CHECK(sb_body_tet_count(w, b) == 0);
  }
  CHECK(sb_body_triangles(w, ball) != nullptr);  // the pressure ball has its skin
  // A bad handle is still an error, which is how a caller tells the two NULLs apart.
  CHECK(sb_body_tets(w, 12345) == nullptr);
  CHECK(sb_last_error_code() == SB_ERR_INVALID_BODY);
  sb_world_destroy(w);
}

TEST_CASE("fuzz reproducer: a 1e-20 m tet is refused by sb_body_create_tets and a 1e-20 m surface by sb_tetra_create") {
  // fuzz_tetra found a speck of a surface whose single tet was accepted and then diverged on its first
  // step: its float32 vertex masses (density x V0 / 4 ~ 1e-57 kg) underflow to 0.
  const sb_world w = sb_world_create();
  const float speck[12] = {1.4375e-20f, -3.0625e-20f, 0, -1.0625e-20f, 1.875e-20f, 4.0625e-21f,
                           2.8125e-20f, 0,            2.96875e-20f, 0, 1.4375e-20f, 1.5625e-21f};
  const uint32_t tet[4] = {2, 3, 0, 1};
  CHECK(sb_body_create_tets(w, speck, 4, tet, 1) == SB_ERR_DEGENERATE_TET);
  CHECK(contains(sb_last_error(), "SB_MIN_TET_EDGE"));
  const uint32_t tris[12] = {0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3};
  CHECK(sb_tetra_create(speck, 4, tris, 4, 3, 0.0f, 0) == SB_ERR_OUT_OF_RANGE);
  CHECK(contains(sb_last_error(), "SB_TETRA_MIN_SIZE"));
  // At the limits: a tet with 2e-6 m edges is a body that steps; a 1 mm surface is meshed.
  float small[12];
  for (int i = 0; i < 12; ++i) small[i] = 2e-6f * kUnitTet[i];
  const sb_body b = sb_body_create_tets(w, small, 4, kTet, 1);
  REQUIRE(b > 0);
  for (int i = 0; i < 30; ++i) REQUIRE(sb_world_step(w, 1.0f / 60.0f) == SB_OK);
  float mm[12];
  for (int i = 0; i < 12; ++i) mm[i] = 1e-3f * kUnitTet[i];
  const uint32_t out[12] = {0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3};
  const sb_tetra job = sb_tetra_create(mm, 4, out, 4, 4, 0.0f, 1);
  REQUIRE(job > 0);
  int32_t r = 0;
  while (r == 0) r = sb_tetra_run(job, 100000);
  CHECK(r == 1);
  const sb_body meshed = sb_body_create_tets(w, sb_tetra_positions(job), sb_tetra_vertex_count(job), sb_tetra_tets(job),
                                             sb_tetra_tet_count(job));
  CHECK(meshed > 0);
  sb_tetra_destroy(job);
  sb_world_destroy(w);
}

// Issue 26, "the contract's new holes": skinning weights that only sum to 1 in rounding, and a visual
// surface in the wrong unit.

namespace {

// The visual positions, bit for bit (a refused call must leave them exactly as they were).
std::vector<uint32_t> visual_bits(sb_world w, sb_body b) {
  const int32_t n = sb_body_visual_vertex_count(w, b);
  std::vector<uint32_t> bits(3 * size_t(std::max(n, 0)));
  if (n > 0) std::memcpy(bits.data(), sb_body_visual_positions(w, b), 4 * bits.size());
  return bits;
}

bool all_finite(const float* p, size_t n) {
  for (size_t i = 0; i < n; ++i)
    if (!std::isfinite(p[i])) return false;
  return true;
}

}  // namespace

TEST_CASE("fuzz reproducer: visual weights (3e38, -3e38, 1, 0) are refused, the visual stays finite and as it was") {
  const sb_world w = sb_world_create();
  const sb_body b = sb_body_create_ball(w, 0.5f, 4, 0, 1, 0);
  REQUIRE(b > 0);
  const float surface[6] = {0.1f, 1.1f, 0.0f, -0.1f, 0.9f, 0.1f};
  REQUIRE(sb_body_set_visual(w, b, surface, 2, nullptr, 0) >= 0);
  const std::vector<uint32_t> before = visual_bits(w, b);
  const uint32_t ids[8] = {0, 1, 2, 3, 0, 1, 2, 3};
  // Each weight finite, and the sum is 1 within the old tolerance (1e-4 x the magnitudes): the
  // vertex was -inf while the body reported finite, and every step returned SB_OK.
  const float huge[8] = {3e38f, -3e38f, 1, 0, 0.25f, 0.25f, 0.25f, 0.25f};
  CHECK(sb_body_set_visual_bound(w, b, 2, nullptr, 0, ids, huge, 0) == SB_ERR_OUT_OF_RANGE);
  CHECK(contains(sb_last_error(), "visual vertex 0 has weight 3e+38, outside [-1000, 1001]"));
  CHECK(visual_bits(w, b) == before);
  // The edges of the range: 1001 and -1000 pass (they sum to 1), one ulp beyond does not.
  const float edge[8] = {1001, -1000, 0, 0, 0.25f, 0.25f, 0.25f, 0.25f};
  CHECK(sb_body_set_visual_bound(w, b, 2, nullptr, 0, ids, edge, 0) == SB_OK);
  const float beyond[8] = {std::nextafter(1001.0f, 2000.0f), -1000, 0, 0, 0.25f, 0.25f, 0.25f, 0.25f};
  CHECK(sb_body_set_visual_bound(w, b, 2, nullptr, 0, ids, beyond, 0) == SB_ERR_OUT_OF_RANGE);
  // The sum-to-1 tolerance no longer grows past rounding: 1 + 1e-5 is not a barycentric sum.
  const float off[8] = {0.5f, 0.5f, 1e-5f, 0, 0.25f, 0.25f, 0.25f, 0.25f};
  CHECK(sb_body_set_visual_bound(w, b, 2, nullptr, 0, ids, off, 0) == SB_ERR_OUT_OF_RANGE);
  CHECK(contains(sb_last_error(), "sum to 1.00001"));
  // Weights in range, but positions (overwritten through the shared buffer) that overflow with them:
  // refused as not finite, the visual as it was.
  REQUIRE(sb_body_set_visual(w, b, surface, 2, nullptr, 0) >= 0);
  const std::vector<uint32_t> bound_before = visual_bits(w, b);
  float* x = sb_body_positions(w, b);
  const float saved = x[0];
  x[0] = 3e36f;
  CHECK(sb_body_set_visual_bound(w, b, 2, nullptr, 0, ids, edge, 0) == SB_ERR_NOT_FINITE);
  CHECK(contains(sb_last_error(), "visual vertex 0 would be at a NaN or infinite position"));
  CHECK(visual_bits(w, b) == bound_before);
  x[0] = saved;
  CHECK(sb_world_step(w, 1.0f / 60) == SB_OK);
  CHECK(all_finite(sb_body_visual_positions(w, b), 3 * size_t(sb_body_visual_vertex_count(w, b))));
  sb_world_destroy(w);
}

TEST_CASE("sb_body_set_visual refuses a vertex so far outside a thin tet that its weights leave the range") {
  // A tet 1 mm thick: a vertex 2 m above it needs a weight of ~2000 (before: bound, and its skinned
  // position amplified the tet's motion 2000-fold). Within SB_MAX_VISUAL_SCALE, so only the weights say so.
  const sb_world w = sb_world_create();
  const float flat[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1e-3f};
  const sb_body b = sb_body_create_tets(w, flat, 4, kTet, 1);
  REQUIRE(b > 0);
  const float far_above[6] = {0.2f, 0.2f, 2.0f, 0.2f, 0.2f, 0.0005f};
  CHECK(sb_body_set_visual(w, b, far_above, 2, nullptr, 0) == SB_ERR_OUT_OF_RANGE);
  CHECK(contains(sb_last_error(), "visual vertex 0 lies too far outside its nearest tet"));
  CHECK(sb_body_visual_vertex_count(w, b) == 0);
  const float near_above[6] = {0.2f, 0.2f, 0.5f, 0.2f, 0.2f, 0.0005f};  // weight ~500: binds
  CHECK(sb_body_set_visual(w, b, near_above, 2, nullptr, 0) == 1);
  sb_world_destroy(w);
}

TEST_CASE("a visual surface in the wrong unit (10x the body) is refused at once, naming the scale") {
  // Was silently subdivided to ~209k vertices, all outside the tets, and bound for 13 s.
  const sb_world w = sb_world_create();
  const sb_body b = sb_body_create_ball(w, 0.5f, 16, 0, 1, 0);
  REQUIRE(b > 0);
  const int32_t nv = sb_body_vertex_count(w, b), nf = sb_body_triangle_count(w, b);
  const std::vector<float> rest(sb_body_positions(w, b), sb_body_positions(w, b) + 3 * size_t(nv));
  const std::vector<uint32_t> tris(sb_body_triangles(w, b), sb_body_triangles(w, b) + 3 * size_t(nf));
  auto scaled = [&](float s) {
    std::vector<float> v(rest);
    for (size_t i = 0; i < v.size(); ++i) v[i] = i % 3 == 1 ? 1 + s * (v[i] - 1) : s * v[i];
    return v;
  };
  const std::vector<float> ten = scaled(10);
  // Refused by the size check, before any subdivision or binding: a binding that ran would end in
  // SB_ERR_LIMIT or bind, and neither says "wrong unit".
  CHECK(sb_body_set_visual(w, b, ten.data(), nv, tris.data(), nf) == SB_ERR_OUT_OF_RANGE);
  CHECK(contains(sb_last_error(), "the surface is about 10x the body's size"));
  CHECK(contains(sb_last_error(), "wrong unit? Scale it by 0.1"));
  CHECK(sb_body_visual_vertex_count(w, b) == 0);
  // A surface a little larger than the tets (as imported surfaces are) still binds.
  const std::vector<float> near = scaled(1.05f);
  CHECK(sb_body_set_visual(w, b, near.data(), nv, tris.data(), nf) > 0);
  sb_world_destroy(w);
}

TEST_CASE("the binding's work is bounded: a skin stops after max_tests vertex-tet tests and says so") {
  // Far vertices each test many tets (the tree's band of near-equal distances); SB_MAX_VISUAL_TESTS
  // caps the total so no surface the C API accepts binds for more than a few seconds.
  const sb_world w = sb_world_create();
  const sb_body b = sb_body_create_ball(w, 0.5f, 8, 0, 1, 0);
  REQUIRE(b > 0);
  const int32_t nv = sb_body_vertex_count(w, b), nt = sb_body_tet_count(w, b);
  const std::vector<float> rest(sb_body_positions(w, b), sb_body_positions(w, b) + 3 * size_t(nv));
  std::vector<float> far(rest);
  for (size_t i = 0; i < far.size(); ++i) far[i] += 30.0f;
  const sb::VisualSkin unbounded(rest.data(), uint32_t(nv), sb_body_tets(w, b), uint32_t(nt), far.data(), uint32_t(nv),
                                 nullptr, 0);
  CHECK(unbounded.complete());
  MESSAGE("far surface: ", unbounded.tests(), " tests for ", nv, " vertices");
  REQUIRE(unbounded.tests() > 1000u);
  const sb::VisualSkin bounded(rest.data(), uint32_t(nv), sb_body_tets(w, b), uint32_t(nt), far.data(), uint32_t(nv),
                               nullptr, 0, 1000);
  CHECK_FALSE(bounded.complete());
  CHECK(bounded.tests() < unbounded.tests());
  sb_world_destroy(w);
}
