// The solve order cut into parallel batches (core/solver/parallel_batches.h) and the C API a second
// solver implementation reads it through (emscripten/api_gpu.cpp).
#include <doctest.h>

#include <cstring>
#include <vector>

#include "shapes/shapes.h"
#include "softbody.h"
#include "solver/constraint_order.h"
#include "solver/parallel_batches.h"
#include "solver/soft_body.h"
#include "solver/xpbd_constraints.h"

using namespace sb;

namespace {

// Every constraint once; no two in a batch share a vertex; along each vertex the batches rise in
// solve order (so each constraint sees what the serial loop would have shown it).
void check_batches(const ParallelBatches& p, const uint32_t* ids, uint32_t count, int arity, uint32_t vertices) {
  REQUIRE(p.starts.size() == p.batches() + 1);
  CHECK(p.starts.front() == 0);
  CHECK(p.starts.back() == count);
  std::vector<int> batch_of(count, -1);
  for (uint32_t b = 0; b < p.batches(); ++b)
    for (uint32_t k = p.starts[b]; k < p.starts[b + 1]; ++k) {
      REQUIRE(batch_of[p.order[k]] == -1);
      batch_of[p.order[k]] = int(b);
    }
  std::vector<int> last(vertices, -1);  // batch of the last constraint (in solve order) on the vertex
  uint32_t bad = 0;
  for (uint32_t i = 0; i < count; ++i) {
    REQUIRE(batch_of[i] >= 0);
    for (int k = 0; k < arity; ++k) {
      const uint32_t v = ids[arity * i + k];
      if (batch_of[i] <= last[v]) ++bad;  // a shared vertex in one batch, or an earlier constraint run later
    }
    for (int k = 0; k < arity; ++k) last[ids[arity * i + k]] = batch_of[i];
  }
  CHECK(bad == 0);
}

}  // namespace

TEST_CASE("Parallel batches: a box's edges and tets, independent within a batch, in solve order along each vertex") {
  // Vertex groups of 16 vertices: the solve order has interiors, seams and a left-over set
  // (xpbd_partition.h), not one plain colouring.
  SoftBody body(make_box(8, 8, 8, 1.0f, 1.0f, 1.0f, 0, 1, 0), BodyParams{}, 16);
  REQUIRE(body.vertex_groups() >= 2);
  const ParallelBatches& e = body.parallel_batches(0);
  const ParallelBatches& t = body.parallel_batches(1);
  check_batches(e, body.edges(), body.edge_count(), 2, body.vertex_count());
  check_batches(t, body.tets(), body.tet_count(), 4, body.vertex_count());
  // Never more batches than the plan's phases have colours one after the other (plus one per overflow
  // chain; a box has no overflow): interiors, seams and the left-over set, each at most kMaxColors.
  CHECK(e.batches() >= 2);
  CHECK(e.batches() <= 3 * kMaxColors);
  CHECK(t.batches() <= 3 * kMaxColors);
  CHECK(&body.parallel_batches(0) == &e);  // built once
}

TEST_CASE("Parallel batches: a pass batch by batch moves every vertex to the same bits as the serial pass") {
  // The fact a GPU backend relies on: constraints of one batch share no vertex, so running them in
  // any order (at once) and the batches in turn gives each constraint the inputs the serial loop
  // gives it; every rounding is the same, so the positions agree to the bit, not just within a tolerance.
  for (const uint32_t group_min : {1u << 30, 16u}) {  // one group (one plain colouring); groups
  CAPTURE(group_min);
  SoftBody body(make_box(8, 8, 8, 1.0f, 1.0f, 1.0f, 0, 1, 0), BodyParams{}, group_min);
  CHECK((body.vertex_groups() > 1) == (group_min == 16u));
  const uint32_t n = body.vertex_count();
  std::vector<float> pos(body.positions(), body.positions() + 3 * n);
  for (uint32_t i = 0; i < n; ++i)  // a deformed shape, so every constraint has work to do
    for (int k = 0; k < 3; ++k) pos[3 * i + k] *= 1.0f + 0.05f * float((i * 7 + k * 3) % 5) / 5.0f;
  const float origin[3] = {0, 0, 0};
  std::vector<float> serial(4 * n), batched(4 * n);
  pack_positions(pos.data(), body.inverse_masses(), n, serial.data(), origin);
  batched = serial;
  std::vector<float> lambda_s(body.tet_count() + body.edge_count(), 0.0f), lambda_b = lambda_s;
  EdgePass edges;
  edges.ids = body.edges();
  edges.rest = body.edge_rest_lengths();
  edges.count = body.edge_count();
  edges.alpha = 1e-7f / (1e-3f * 1e-3f);  // a compliant spring at h = 1 ms, so multipliers matter
  VolumePass volumes;
  volumes.ids = body.tets();
  volumes.rest6 = body.tet_rest_volumes6();
  volumes.count = body.tet_count();
  volumes.alpha = 1e-8f / (1e-3f * 1e-3f);
  for (int pass = 0; pass < 2; ++pass) {
    edges.xw = volumes.xw = serial.data();
    edges.lambda = lambda_s.data();
    volumes.lambda = lambda_s.data() + body.edge_count();
    solve_edge_span(edges, 0, edges.count, false);
    solve_volume_span(volumes, 0, volumes.count, false);
    edges.xw = volumes.xw = batched.data();
    edges.lambda = lambda_b.data();
    volumes.lambda = lambda_b.data() + body.edge_count();
    for (uint32_t i : body.parallel_batches(0).order) solve_edge_span(edges, i, i + 1, false);
    for (uint32_t i : body.parallel_batches(1).order) solve_volume_span(volumes, i, i + 1, false);
  }
  CHECK(std::memcmp(serial.data(), batched.data(), serial.size() * sizeof(float)) == 0);
  CHECK(std::memcmp(lambda_s.data(), lambda_b.data(), lambda_s.size() * sizeof(float)) == 0);
  CHECK(serial != std::vector<float>(serial.size(), 0.0f));
  }
}

TEST_CASE("C API: the reads for a GPU backend are zero-copy, validated and leave the world unchanged") {
  const sb_world w = sb_world_create();
  const sb_body b = sb_body_create_box(w, 3, 2, 2, 1, 1, 1, 0, 1, 0);
  REQUIRE(b > 0);
  const int32_t edges = sb_body_edge_count(w, b), tets = sb_body_tet_count(w, b), verts = sb_body_vertex_count(w, b);
  CHECK(sb_body_velocities(w, b) != nullptr);
  const float* inv = sb_body_inverse_masses(w, b);
  REQUIRE(inv != nullptr);
  REQUIRE(sb_body_pin(w, b, 0, 1) == SB_OK);
  CHECK(inv[0] == 0.0f);  // a live view: the pin shows through it
  CHECK(inv[1] > 0.0f);
  const float* rest = sb_body_edge_rest_lengths(w, b);
  const float* rest6 = sb_body_tet_6_rest_volumes(w, b);
  REQUIRE(rest != nullptr);
  REQUIRE(rest6 != nullptr);
  CHECK(sb_body_inverse_rest_shapes(w, b) != nullptr);
  // A 1 m cube in 3 x 2 x 2 cells of 5 tets each... whatever the split, the 6 V0 sum to 6 m^3.
  double volume6 = 0;
  for (int32_t t = 0; t < tets; ++t) volume6 += rest6[t];
  CHECK(volume6 == doctest::Approx(6.0).epsilon(1e-5));
  for (int32_t kind : {SB_BATCH_EDGES, SB_BATCH_TETS}) {
    const int32_t count = sb_body_batch_count(w, b, kind);
    REQUIRE(count > 0);
    const uint32_t* starts = sb_body_batch_starts(w, b, kind);
    REQUIRE(starts != nullptr);
    CHECK(int32_t(starts[count]) == (kind == SB_BATCH_EDGES ? edges : tets));
    CHECK(sb_body_batch_order(w, b, kind) != nullptr);
  }
  CHECK(sb_body_batch_count(w, b, 2) == SB_ERR_OUT_OF_RANGE);
  CHECK(sb_body_batch_starts(w, b, -1) == nullptr);
  CHECK(sb_last_error_code() == SB_ERR_OUT_OF_RANGE);
  CHECK(std::strstr(sb_last_error(), "batch kind") != nullptr);
  CHECK(sb_body_inverse_masses(w, b + 1000) == nullptr);
  CHECK(sb_last_error_code() == SB_ERR_INVALID_BODY);
  CHECK(sb_body_batch_count(w + 1, b, 0) < 0);
  CHECK(sb_body_vertex_count(w, b) == verts);
  sb_world_destroy(w);
}
