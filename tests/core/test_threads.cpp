// Threads (worker_pool.h, xpbd_schedule.h): a body stepped on 2 or 3 threads ends with the same
// position bits as on one, and the C API's thread count is checked.
#include <doctest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "shapes/shapes.h"
#include "solver/constraint_order.h"
#include "softbody.h"
#include "solver/world.h"

using namespace sb;

namespace {

// A box lattice and, beside it in the same body, a fan of 100 tets around one axis: every fan tet
// shares the axis edge with every other, so 64 of them take one colour each and 36 go to the overflow
// set (and the axis vertices' 101 edges overflow the edge colours too).
TetMesh box_and_fan() {
  TetMesh m = make_box(6, 5, 7, 0.3f, 0.25f, 0.35f, 0.0f, 0.2f, 0.0f);
  const uint32_t base = uint32_t(m.positions.size() / 3);
  const int ring = 100;
  const float cx = 0.6f, radius = 0.2f;
  for (float y : {0.05f, 0.35f}) m.positions.insert(m.positions.end(), {cx, y, 0.0f});
  for (int i = 0; i < ring; ++i) {
    const float a = 2.0f * float(M_PI) * float(i) / float(ring);
    m.positions.insert(m.positions.end(), {cx + radius * std::cos(a), 0.2f, radius * std::sin(a)});
  }
  for (int i = 0; i < ring; ++i) {  // (bottom, top, r_{i+1}, r_i): positively oriented
    const uint32_t r0 = base + 2 + uint32_t(i), r1 = base + 2 + uint32_t((i + 1) % ring);
    m.tets.insert(m.tets.end(), {base, base + 1, r1, r0});
  }
  return m;
}

// Steps the same body in worlds of 1, 2 and 3 threads (one world after the other: idle workers of
// a world spin for a while after each step) and compares the position bits every 50 frames.
// split_min 24: the box's colours (up to ~70 constraints) are cut into 2-3 chunks, its small last
// colours and the fan's one-tet colours are not.
void check_same_bits(const BodyParams& params, Solver solver, int frames) {
  const TetMesh mesh = box_and_fan();
  std::vector<std::vector<float>> seen[3];
  for (int k = 0; k < 3; ++k) {
    World w;
    REQUIRE(w.set_threads(k + 1));
    w.settings.split_min = 24;
    SoftBody* body = w.body(w.add_body(mesh, params));
    REQUIRE(body->set_solver(solver));
    REQUIRE(body->edge_colors() == size_t(kMaxColors));  // the fan fills the palette: overflow
    REQUIRE(body->tet_colors() == size_t(kMaxColors));
    for (int f = 1; f <= frames; ++f) {
      REQUIRE(w.step(1.0f / 60.0f, nullptr) == 0);
      if (f % 50 == 0 || f == frames) seen[k].emplace_back(body->positions(), body->positions() + 3 * body->vertex_count());
    }
  }
  for (size_t i = 0; i < seen[0].size(); ++i) {
    CAPTURE(i);
    for (int k = 1; k < 3; ++k) {
      CAPTURE(k + 1);
      CHECK(std::memcmp(seen[0][i].data(), seen[k][i].data(), seen[0][i].size() * sizeof(float)) == 0);
    }
  }
  CHECK(seen[0].back()[1] < mesh.positions[1] - 0.01f);  // it moved: it fell onto the ground
}

}  // namespace

TEST_CASE("threads: XPBD on 2 and 3 threads gives the same position bits as on 1") {
  if (!WorkerPool::available()) return;  // the wasm build without -pthread
  check_same_bits(BodyParams{}, Solver::Xpbd, 300);
}

TEST_CASE("threads: the same bits with damping, two passes (multipliers) and PBD's scaled loops") {
  if (!WorkerPool::available()) return;
  BodyParams p;
  p.edge_compliance = 1e-4f;
  p.volume_compliance = 1e-7f;
  p.spring_damping = 1.0f;
  p.iterations = 2;
  check_same_bits(p, Solver::Xpbd, 100);
  BodyParams pbd;
  pbd.pbd_stiffness = 0.5f;
  check_same_bits(pbd, Solver::Pbd, 100);
}

TEST_CASE("threads: the world's thread count") {
  World w;
  CHECK(w.threads() == 1);
  CHECK_FALSE(w.set_threads(0));
  CHECK_FALSE(w.set_threads(WorkerPool::kMaxThreads + 1));
  CHECK(w.set_threads(1));
  CHECK(w.set_threads(2) == WorkerPool::available());
  CHECK(w.threads() == (WorkerPool::available() ? 2 : 1));
  CHECK(w.set_threads(1));
  CHECK(w.threads() == 1);
}

TEST_CASE("threads: sb_world_set_threads checks its range and keeps the count on failure") {
  const sb_world w = sb_world_create();
  REQUIRE(w > 0);
  CHECK(sb_world_get_threads(w) == 1);
  const int32_t most = sb_max_threads();
  CHECK(most >= 1);
  CHECK(most <= SB_MAX_THREADS);
  for (int32_t bad : {0, -1, most + 1, SB_MAX_THREADS + 1}) {
    CAPTURE(bad);
    CHECK(sb_world_set_threads(w, bad) == SB_ERR_OUT_OF_RANGE);
    CHECK(std::string(sb_last_error()).find("threads") != std::string::npos);
    CHECK(sb_world_get_threads(w) == 1);
  }
  if (most == 1) CHECK(std::string((sb_world_set_threads(w, 2), sb_last_error())).find("no threads") != std::string::npos);
  else {
    CHECK(sb_world_set_threads(w, 2) == SB_OK);
    CHECK(sb_world_get_threads(w) == 2);
    const sb_body b = sb_body_create_box(w, 3, 3, 3, 0.3f, 0.3f, 0.3f, 0, 0.5f, 0);
    REQUIRE(b > 0);
    CHECK(sb_world_step(w, 1.0f / 60.0f) == SB_OK);
    CHECK(sb_world_set_threads(w, 1) == SB_OK);
    CHECK(sb_world_get_threads(w) == 1);
  }
  CHECK(sb_world_set_threads(0, 1) == SB_ERR_INVALID_WORLD);
  CHECK(sb_world_get_threads(0) == SB_ERR_INVALID_WORLD);
  sb_world_destroy(w);
}
