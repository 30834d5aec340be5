// Threads (worker_pool.h, xpbd_schedule.h): a body stepped on 2 or 3 threads ends with the same
// position bits as on one, and the C API's thread count is checked.
#include <doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "shapes/shapes.h"
#include "shapes/tet_mesh.h"
#include "solver/constraint_order.h"
#include "solver/xpbd_partition.h"
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

// The box and fan, plus springs between far-apart vertices: with the body cut into vertex groups
// they span more than two groups and go to the left-over set.
TetMesh box_fan_and_springs() {
  TetMesh m = box_and_fan();
  const uint32_t n = uint32_t(m.positions.size() / 3);
  m.springs = {0, n - 1, 3, n / 2, 17, n - 40, 100, 300};
  return m;
}

// Steps the same body in worlds of 1, 2 and 3 threads (one world after the other: idle workers of
// a world spin for a while after each step) and compares the position bits every 50 frames.
// split_min 24: the box's colours (up to ~70 constraints) are cut into 2-3 chunks, its small last
// colours and the fan's one-tet colours are not. group_min_vertices: the default leaves this small
// body one vertex group (every constraint in the left-over set's colours); 16 cuts it into 4.
// sphere: a sphere collider under the box, so the per-vertex passes run serially around the job
// (without one they run inside it, on its threads).
void check_same_bits(const BodyParams& params, Solver solver, int frames,
                     uint32_t group_min_vertices = kDefaultGroupMinVertices, bool sphere = false) {
  const bool grouped = group_min_vertices != kDefaultGroupMinVertices;
  const TetMesh mesh = grouped ? box_fan_and_springs() : box_and_fan();
  std::vector<std::vector<float>> seen[3];
  for (int k = 0; k < 3; ++k) {
    World w;
    REQUIRE(w.set_threads(k + 1));
    w.settings.split_min = 24;
    w.settings.group_min_vertices = group_min_vertices;
    if (sphere) {
      Collider c;
      c.kind = ShapeKind::kSphere;
      c.size[0] = 0.05f;
      c.pose.position = {0.1f, 0.0f, 0.1f};
      w.add_collider(c);
    }
    SoftBody* body = w.body(w.add_body(mesh, params));
    REQUIRE(body->set_solver(solver));
    REQUIRE(body->vertex_groups() == (grouped ? 4u : 1u));
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

TEST_CASE("threads: the same bits for Neo-Hookean under XPBD (its block and dashpot passes run on the stepping thread)") {
  if (!WorkerPool::available()) return;
  BodyParams p;
  p.material = Material::NeoHookean;
  p.youngs_modulus = 1e5f;
  p.poisson_ratio = 0.45f;
  check_same_bits(p, Solver::Xpbd, 100);
  p.iterations = 2;  // multipliers, positions rebuilt after each pass
  check_same_bits(p, Solver::Xpbd, 50, 16);
  p.spring_damping = 2.0f;  // the edge dashpots after the blocks (also on the stepping thread)
  check_same_bits(p, Solver::Xpbd, 50, 16);
  p.iterations = 1;
  check_same_bits(p, Solver::Xpbd, 50);
}

TEST_CASE("threads: the same bits with the body cut into vertex groups (interiors, seams, left-over springs)") {
  if (!WorkerPool::available()) return;
  check_same_bits(BodyParams{}, Solver::Xpbd, 200, 16);
  BodyParams p;
  p.edge_compliance = 1e-4f;
  p.volume_compliance = 1e-7f;
  p.spring_damping = 1.0f;
  p.iterations = 2;
  check_same_bits(p, Solver::Xpbd, 100, 16);
  check_same_bits(BodyParams{}, Solver::Xpbd, 100, 16, true);
}

// Inverted tets put back on their rest shapes (inverted_tets.h): a box pressed to 5 % inverts hundreds
// of tets in its first frames. The threaded volume pass only flags them (each tet's own byte) and the
// repair runs after it on the stepping thread, so the bits stay those of one thread, with the body in
// one vertex group and cut into groups (split_min 24: its colours are cut into chunks).
TEST_CASE("threads: the same bits while inverted tets are put back (a box pressed to 5 %)") {
  if (!WorkerPool::available()) return;
  for (uint32_t group_min : {kDefaultGroupMinVertices, 16u}) {
    CAPTURE(group_min);
    std::vector<std::vector<float>> seen[3];
    uint32_t most_inverted = 0;
    for (int k = 0; k < 3; ++k) {
      World w;
      REQUIRE(w.set_threads(k + 1));
      w.settings.split_min = 24;
      w.settings.group_min_vertices = group_min;
      BodyParams p;
      p.edge_compliance = 1e-4f;
      p.damping = 1.0f;
      SoftBody* body = w.body(w.add_body(make_box(6, 5, 7, 0.6f, 0.5f, 0.7f, 0.0f, 0.25f, 0.0f), p));
      REQUIRE(body->press(0.05f, 0.5f));
      for (int f = 1; f <= 60; ++f) {
        REQUIRE(w.step(1.0f / 60.0f, nullptr) == 0);
        uint32_t inverted = 0;
        for (uint32_t t = 0; t < body->tet_count(); ++t) inverted += tet_volume6(body->positions(), body->tets() + 4 * t) <= 0.0;
        most_inverted = std::max(most_inverted, inverted);
        if (f % 10 == 0) seen[k].emplace_back(body->positions(), body->positions() + 3 * body->vertex_count());
      }
    }
    CHECK(most_inverted > 0);  // the repair ran
    for (size_t i = 0; i < seen[0].size(); ++i)
      for (int k = 1; k < 3; ++k) {
        CAPTURE(i);
        CAPTURE(k + 1);
        CHECK(std::memcmp(seen[0][i].data(), seen[k][i].data(), seen[0][i].size() * sizeof(float)) == 0);
      }
  }
}

// What makes the grouped order safe on threads: every constraint once, the units of a phase share
// no vertex, and within a unit's colour no two constraints share one.
TEST_CASE("threads: a plan's phases hold independent units") {
  const TetMesh mesh = box_fan_and_springs();
  const uint32_t n = uint32_t(mesh.positions.size() / 3);
  std::vector<uint32_t> edges = unique_edges(mesh.tets.data(), int64_t(mesh.tets.size() / 4));
  edges.insert(edges.end(), mesh.springs.begin(), mesh.springs.end());
  const std::vector<uint32_t> bounds =
      choose_vertex_groups(edges.data(), uint32_t(edges.size() / 2), mesh.tets.data(), uint32_t(mesh.tets.size() / 4), n, 16);
  REQUIRE(bounds.size() == 5);
  for (int arity : {2, 4}) {
    CAPTURE(arity);
    const std::vector<uint32_t>& ids = arity == 2 ? edges : mesh.tets;
    const uint32_t count = uint32_t(ids.size() / size_t(arity));
    const PassPlan plan = plan_constraints(ids.data(), count, arity, n, bounds);
    std::vector<uint32_t> sorted = plan.order;
    std::sort(sorted.begin(), sorted.end());
    for (uint32_t i = 0; i < count; ++i) REQUIRE(sorted[i] == i);
    CHECK(plan.phase_starts[1] == 4);  // one interior unit per group
    if (arity == 2) CHECK(plan.phases() >= 3);  // interiors, seams, the springs' left-over colours
    bool split = false;
    std::vector<int64_t> owner(n), colour_of(n);
    for (uint32_t p = 0; p < plan.phases(); ++p) {
      split = split || plan.splittable(p);
      std::fill(owner.begin(), owner.end(), -1);
      for (uint32_t u = plan.phase_starts[p]; u < plan.phase_starts[p + 1]; ++u) {
        const PassUnit& unit = plan.units[u];
        std::fill(colour_of.begin(), colour_of.end(), -1);
        for (uint32_t c = 0; c < unit.colours; ++c)
          for (uint32_t i = plan.colour_starts[unit.first_colour + c]; i < plan.colour_starts[unit.first_colour + c + 1]; ++i)
            for (int k = 0; k < arity; ++k) {
              const uint32_t v = ids[size_t(arity) * plan.order[i] + k];
              CHECK(colour_of[v] != int64_t(c));
              colour_of[v] = c;
            }
        for (uint32_t i = unit.begin; i < unit.end; ++i)
          for (int k = 0; k < arity; ++k) {
            const uint32_t v = ids[size_t(arity) * plan.order[i] + k];
            CHECK((owner[v] == -1 || owner[v] == int64_t(u)));
            owner[v] = u;
          }
      }
    }
    if (arity == 2) CHECK(split);
  }
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
