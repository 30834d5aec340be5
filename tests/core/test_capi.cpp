// The C API: every invalid input gets its documented error code and a message, and changes nothing.
#include <doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "softbody.h"

namespace {

const float kUnitTet[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
const uint32_t kTet[4] = {0, 1, 2, 3};

// Everything observable about a world with one body, to prove a failed call changed nothing.
struct Snapshot {
  std::vector<float> positions;
  std::vector<float> params;
  int32_t bodies = 0, substeps = 0;
  double time = 0.0;
  bool operator==(const Snapshot& o) const {
    return positions == o.positions && params == o.params && bodies == o.bodies && substeps == o.substeps &&
           time == o.time;
  }
};

// Ids inside SB_PARAM_COUNT that name no parameter (reserved: sb_body_get_param gives NaN).
bool reserved_param(int id) { return id == 25; }

Snapshot snapshot(sb_world w, sb_body b) {
  Snapshot s;
  const float* p = sb_body_positions(w, b);
  s.positions.assign(p, p + 3 * sb_body_vertex_count(w, b));
  for (int i = 0; i < SB_PARAM_COUNT; ++i)
    if (!reserved_param(i)) s.params.push_back(sb_body_get_param(w, b, i));
  s.bodies = sb_world_body_count(w);
  s.substeps = sb_world_get_substeps(w);
  s.time = sb_world_time(w);
  return s;
}

std::string g_message;  // the message of the last CHECK_FAILS (snapshots clear sb_last_error)

// A failed call: returns `code`, names it, leaves a message, and the world is as before.
#define CHECK_FAILS(call, code)               \
  do {                                        \
    const Snapshot before = snapshot(w, b);   \
    CHECK((call) == (code));                  \
    CHECK(sb_last_error_code() == (code));    \
    g_message = sb_last_error();              \
    CHECK(g_message.size() > 10);             \
    CHECK(snapshot(w, b) == before);          \
  } while (0)

struct Fixture {
  sb_world w = 0;
  sb_body b = 0;
  Fixture() {
    w = sb_world_create();
    REQUIRE(w > 0);
    b = sb_body_create_box(w, 2, 2, 2, 1, 1, 1, 0, 1, 0);
    REQUIRE(b > 0);
    REQUIRE(sb_world_step(w, 1.0f / 60.0f) == SB_OK);  // not the creation state: prove nothing resets
  }
  ~Fixture() { sb_world_destroy(w); }
};

}  // namespace

TEST_CASE_FIXTURE(Fixture, "a successful call clears the last error") {
  CHECK(sb_world_set_substeps(w, 0) == SB_ERR_OUT_OF_RANGE);
  CHECK(std::string(sb_last_error()).find("substeps") != std::string::npos);
  CHECK(sb_world_set_substeps(w, 12) == SB_OK);
  CHECK(sb_last_error_code() == SB_OK);
  CHECK(std::string(sb_last_error()).empty());
  CHECK(std::string(sb_error_name(SB_ERR_INVERTED_TET)) == "SB_ERR_INVERTED_TET");
  CHECK(std::string(sb_error_name(12345)) == "SB_ERR_UNKNOWN_CODE");
  for (int32_t code = SB_ERR_INVALID_WORLD; code >= SB_ERR_MATERIAL_SOLVER; --code) {  // every code has its name
    CAPTURE(code);
    const std::string name = sb_error_name(code);
    CHECK(name.rfind("SB_ERR_", 0) == 0);
    CHECK(name != "SB_ERR_UNKNOWN_CODE");
  }
}

TEST_CASE_FIXTURE(Fixture, "null, unknown and destroyed world handles") {
  for (sb_world bad : {0, -5, 12345, w + 1}) {
    CAPTURE(bad);
    CHECK_FAILS(sb_world_step(bad, 0.01f), SB_ERR_INVALID_WORLD);
    CHECK_FAILS(sb_world_set_gravity(bad, 0, -1, 0), SB_ERR_INVALID_WORLD);
    CHECK_FAILS(sb_body_create_box(bad, 1, 1, 1, 1, 1, 1, 0, 0, 0), SB_ERR_INVALID_WORLD);
    CHECK_FAILS(sb_body_vertex_count(bad, b), SB_ERR_INVALID_WORLD);
    CHECK(sb_body_positions(bad, b) == nullptr);
    CHECK(std::isnan(sb_world_time(bad)));
  }
  const sb_world other = sb_world_create();
  REQUIRE(sb_world_destroy(other) == SB_OK);
  CHECK_FAILS(sb_world_destroy(other), SB_ERR_INVALID_WORLD);
  // The freed slot is reused, with a new generation: the stale handle must not reach the new world.
  const sb_world reused = sb_world_create();
  CHECK(reused != other);
  CHECK_FAILS(sb_world_step(other, 0.01f), SB_ERR_INVALID_WORLD);
  sb_world_destroy(reused);
}

TEST_CASE_FIXTURE(Fixture, "null, unknown and destroyed body handles") {
  for (sb_body bad : {0, -1, 999, b + 1}) {
    CAPTURE(bad);
    CHECK_FAILS(sb_body_set_param(w, bad, SB_PARAM_DENSITY, 10), SB_ERR_INVALID_BODY);
    CHECK_FAILS(sb_body_grab_begin(w, bad, 0, 0, 0, 0), SB_ERR_INVALID_BODY);
    CHECK(sb_body_positions(w, bad) == nullptr);
    CHECK(sb_last_error_code() == SB_ERR_INVALID_BODY);
    CHECK(std::isnan(sb_body_get_param(w, bad, SB_PARAM_DENSITY)));
  }
  const sb_body gone = sb_body_create_ball(w, 0.3f, 4, 2, 1, 0);
  REQUIRE(gone > 0);
  REQUIRE(sb_body_destroy(w, gone) == SB_OK);
  CHECK_FAILS(sb_body_destroy(w, gone), SB_ERR_INVALID_BODY);
  const sb_body reused = sb_body_create_ball(w, 0.3f, 4, 2, 1, 0);
  CHECK(reused != gone);
  CHECK_FAILS(sb_body_reset(w, gone), SB_ERR_INVALID_BODY);
  sb_body_destroy(w, reused);
  // A body handle of another world is not a body of this one.
  const sb_world w2 = sb_world_create();
  CHECK_FAILS(sb_body_reset(w2, b), SB_ERR_INVALID_BODY);
  sb_world_destroy(w2);
}

TEST_CASE_FIXTURE(Fixture, "sb_body_create_tets rejects bad meshes with the right code") {
  CHECK(sb_body_create_tets(w, kUnitTet, 4, kTet, 1) > 0);
  CHECK_FAILS(sb_body_create_tets(w, nullptr, 4, kTet, 1), SB_ERR_NULL_POINTER);
  CHECK_FAILS(sb_body_create_tets(w, kUnitTet, 4, nullptr, 1), SB_ERR_NULL_POINTER);
  CHECK_FAILS(sb_body_create_tets(w, kUnitTet, 0, kTet, 1), SB_ERR_BAD_COUNT);
  CHECK_FAILS(sb_body_create_tets(w, kUnitTet, -4, kTet, 1), SB_ERR_BAD_COUNT);
  CHECK_FAILS(sb_body_create_tets(w, kUnitTet, SB_MAX_VERTICES + 1, kTet, 1), SB_ERR_BAD_COUNT);
  CHECK_FAILS(sb_body_create_tets(w, kUnitTet, 4, kTet, 0), SB_ERR_BAD_COUNT);
  CHECK_FAILS(sb_body_create_tets(w, kUnitTet, 4, kTet, SB_MAX_TETS + 1), SB_ERR_BAD_COUNT);

  const uint32_t out_of_range[4] = {0, 1, 2, 4};
  CHECK_FAILS(sb_body_create_tets(w, kUnitTet, 4, out_of_range, 1), SB_ERR_INDEX_OUT_OF_RANGE);
  const uint32_t huge_index[4] = {0, 1, 2, 0xffffffffu};
  CHECK_FAILS(sb_body_create_tets(w, kUnitTet, 4, huge_index, 1), SB_ERR_INDEX_OUT_OF_RANGE);
  const uint32_t repeated[4] = {0, 1, 1, 3};
  CHECK_FAILS(sb_body_create_tets(w, kUnitTet, 4, repeated, 1), SB_ERR_DEGENERATE_TET);
  const uint32_t inverted[4] = {0, 2, 1, 3};
  CHECK_FAILS(sb_body_create_tets(w, kUnitTet, 4, inverted, 1), SB_ERR_INVERTED_TET);
  CHECK(g_message.find("tet 0") != std::string::npos);

  float bad[12];
  std::memcpy(bad, kUnitTet, sizeof bad);
  bad[4] = NAN;
  CHECK_FAILS(sb_body_create_tets(w, bad, 4, kTet, 1), SB_ERR_NOT_FINITE);
  bad[4] = -INFINITY;
  CHECK_FAILS(sb_body_create_tets(w, bad, 4, kTet, 1), SB_ERR_NOT_FINITE);
  std::memcpy(bad, kUnitTet, sizeof bad);
  bad[11] = 0.0f;  // apex in the base plane
  CHECK_FAILS(sb_body_create_tets(w, bad, 4, kTet, 1), SB_ERR_DEGENERATE_TET);

  const float five[15] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 3, 3, 3};
  CHECK_FAILS(sb_body_create_tets(w, five, 5, kTet, 1), SB_ERR_UNUSED_VERTEX);
  // The second tet is the bad one: the first, valid, tet must not have been added either.
  const uint32_t second_bad[8] = {0, 1, 2, 3, 0, 2, 1, 4};
  CHECK_FAILS(sb_body_create_tets(w, five, 5, second_bad, 2), SB_ERR_INVERTED_TET);
  CHECK(g_message.find("tet 1") != std::string::npos);
}

TEST_CASE_FIXTURE(Fixture, "built-in shapes reject bad sizes and counts") {
  CHECK_FAILS(sb_body_create_box(w, 0, 2, 2, 1, 1, 1, 0, 0, 0), SB_ERR_BAD_COUNT);
  CHECK_FAILS(sb_body_create_box(w, 2, 129, 2, 1, 1, 1, 0, 0, 0), SB_ERR_BAD_COUNT);
  CHECK_FAILS(sb_body_create_box(w, 128, 128, 128, 1, 1, 1, 0, 0, 0), SB_ERR_BAD_COUNT);  // 12.6 M tets
  CHECK_FAILS(sb_body_create_box(w, 2, 2, 2, 0, 1, 1, 0, 0, 0), SB_ERR_OUT_OF_RANGE);
  CHECK_FAILS(sb_body_create_box(w, 2, 2, 2, -1, 1, 1, 0, 0, 0), SB_ERR_OUT_OF_RANGE);
  CHECK_FAILS(sb_body_create_box(w, 2, 2, 2, 1, NAN, 1, 0, 0, 0), SB_ERR_NOT_FINITE);
  CHECK_FAILS(sb_body_create_box(w, 2, 2, 2, 1, 1, 1, 0, INFINITY, 0), SB_ERR_NOT_FINITE);
  CHECK_FAILS(sb_body_create_box(w, 2, 2, 2, 1, 1, 1, 0, 1e9f, 0), SB_ERR_OUT_OF_RANGE);
  CHECK_FAILS(sb_body_create_ball(w, 0.5f, 1, 0, 1, 0), SB_ERR_BAD_COUNT);
  CHECK_FAILS(sb_body_create_ball(w, 0.5f, 65, 0, 1, 0), SB_ERR_BAD_COUNT);
  CHECK_FAILS(sb_body_create_ball(w, 0.0f, 8, 0, 1, 0), SB_ERR_OUT_OF_RANGE);
  CHECK_FAILS(sb_body_create_ball(w, NAN, 8, 0, 1, 0), SB_ERR_NOT_FINITE);
}

TEST_CASE_FIXTURE(Fixture, "world settings reject absurd values") {
  CHECK_FAILS(sb_world_set_substeps(w, 0), SB_ERR_OUT_OF_RANGE);
  CHECK_FAILS(sb_world_set_substeps(w, SB_MAX_SUBSTEPS + 1), SB_ERR_OUT_OF_RANGE);
  CHECK_FAILS(sb_world_set_gravity(w, 0, NAN, 0), SB_ERR_NOT_FINITE);
  CHECK_FAILS(sb_world_set_gravity(w, 0, -1e6f, 0), SB_ERR_OUT_OF_RANGE);
  CHECK_FAILS(sb_world_set_ground(w, 2), SB_ERR_OUT_OF_RANGE);
  for (float dt : {0.0f, -0.01f, 1.5f}) CHECK_FAILS(sb_world_step(w, dt), SB_ERR_OUT_OF_RANGE);
  for (float dt : {NAN, INFINITY, -INFINITY}) CHECK_FAILS(sb_world_step(w, dt), SB_ERR_NOT_FINITE);
  CHECK(sb_world_set_substeps(w, SB_MAX_SUBSTEPS) == SB_OK);
  CHECK(sb_world_set_gravity(w, 1, -20, 0.5f) == SB_OK);
  CHECK(sb_world_set_ground(w, 0) == SB_OK);
}

TEST_CASE_FIXTURE(Fixture, "body parameters: unknown, non-finite and out of range are refused") {
  CHECK_FAILS(sb_body_set_param(w, b, -1, 0.0f), SB_ERR_UNKNOWN_PARAM);
  CHECK_FAILS(sb_body_set_param(w, b, SB_PARAM_COUNT, 0.0f), SB_ERR_UNKNOWN_PARAM);
  CHECK(std::isnan(sb_body_get_param(w, b, 99)));
  CHECK(sb_last_error_code() == SB_ERR_UNKNOWN_PARAM);
  for (int param = 0; param < SB_PARAM_COUNT; ++param) {
    CAPTURE(param);
    if (reserved_param(param)) {
      CHECK_FAILS(sb_body_set_param(w, b, param, 0.0f), SB_ERR_UNKNOWN_PARAM);
      continue;
    }
    CHECK_FAILS(sb_body_set_param(w, b, param, NAN), SB_ERR_NOT_FINITE);
    CHECK_FAILS(sb_body_set_param(w, b, param, INFINITY), SB_ERR_NOT_FINITE);
    CHECK_FAILS(sb_body_set_param(w, b, param, -1.0f), SB_ERR_OUT_OF_RANGE);  // negative compliance etc.
    CHECK_FAILS(sb_body_set_param(w, b, param, param == SB_PARAM_YOUNGS_MODULUS ? 1e13f : 1e8f), SB_ERR_OUT_OF_RANGE);
  }
  CHECK(sb_body_set_param(w, b, SB_PARAM_EDGE_COMPLIANCE, 1e-3f) == SB_OK);
  CHECK(sb_body_get_param(w, b, SB_PARAM_EDGE_COMPLIANCE) == 1e-3f);
  CHECK(sb_body_get_param(w, b, SB_PARAM_DENSITY) == 1000.0f);  // documented default
  CHECK(sb_body_get_param(w, b, SB_PARAM_RESTITUTION) == 0.2f);
  CHECK(sb_body_get_param(w, b, SB_PARAM_FRICTION) == 0.5f);
}

TEST_CASE_FIXTURE(Fixture, "pin, squash, grab and stats validate their arguments") {
  const int32_t n = sb_body_vertex_count(w, b);
  CHECK_FAILS(sb_body_pin(w, b, -1, 1), SB_ERR_INDEX_OUT_OF_RANGE);
  CHECK_FAILS(sb_body_pin(w, b, n, 1), SB_ERR_INDEX_OUT_OF_RANGE);
  CHECK_FAILS(sb_body_pin(w, b, 0, 7), SB_ERR_OUT_OF_RANGE);
  CHECK_FAILS(sb_body_squash(w, b, 0.0f), SB_ERR_OUT_OF_RANGE);
  CHECK_FAILS(sb_body_squash(w, b, 1.5f), SB_ERR_OUT_OF_RANGE);
  CHECK_FAILS(sb_body_squash(w, b, NAN), SB_ERR_NOT_FINITE);
  CHECK_FAILS(sb_body_press(w, b, 0.0f, 0.5f), SB_ERR_OUT_OF_RANGE);
  CHECK_FAILS(sb_body_press(w, b, 1.5f, 0.5f), SB_ERR_OUT_OF_RANGE);
  CHECK_FAILS(sb_body_press(w, b, NAN, 0.5f), SB_ERR_NOT_FINITE);
  CHECK_FAILS(sb_body_press(w, b, 0.3f, -0.1f), SB_ERR_OUT_OF_RANGE);
  CHECK(g_message.find("release") != std::string::npos);
  CHECK_FAILS(sb_body_press(w, b, 0.3f, 10.5f), SB_ERR_OUT_OF_RANGE);
  CHECK_FAILS(sb_body_press(w, b, 0.3f, INFINITY), SB_ERR_NOT_FINITE);
  CHECK_FAILS(sb_body_press(w + 1, b, 0.3f, 0.5f), SB_ERR_INVALID_WORLD);
  CHECK_FAILS(sb_body_press(w, b + 1, 0.3f, 0.5f), SB_ERR_INVALID_BODY);
  CHECK_FAILS(sb_body_nearest_vertex(w, b, NAN, 0, 0), SB_ERR_NOT_FINITE);
  CHECK_FAILS(sb_body_grab_begin(w, b, n, 0, 1, 0), SB_ERR_INDEX_OUT_OF_RANGE);
  CHECK_FAILS(sb_body_grab_begin(w, b, 0, 0, NAN, 0), SB_ERR_NOT_FINITE);
  CHECK_FAILS(sb_body_grab_move(w, b, 0, 1, 0), SB_ERR_NOT_GRABBING);
  CHECK_FAILS(sb_body_grab_end(w, b, 0, 0, 0), SB_ERR_NOT_GRABBING);
  CHECK_FAILS(sb_body_get_stats(w, b, nullptr), SB_ERR_NULL_POINTER);

  REQUIRE(sb_body_grab_begin(w, b, 0, 0, 2, 0) == SB_OK);
  CHECK_FAILS(sb_body_grab_move(w, b, INFINITY, 2, 0), SB_ERR_NOT_FINITE);
  CHECK_FAILS(sb_body_grab_end(w, b, 0, 1e9f, 0), SB_ERR_OUT_OF_RANGE);
  sb_body_stats st;
  REQUIRE(sb_body_get_stats(w, b, &st) == SB_OK);
  CHECK(st.grabbed_vertex == 0);
  CHECK(sb_body_grab_end(w, b, 0, 0, 0) == SB_OK);
}

TEST_CASE("the same world through the C API: buffers, counts, stats and a grab") {
  const sb_world w = sb_world_create();
  const sb_body b = sb_body_create_box(w, 3, 3, 3, 1, 1, 1, 0, 0.5f, 0);
  REQUIRE(b > 0);
  CHECK(sb_body_vertex_count(w, b) == 64);
  CHECK(sb_body_tet_count(w, b) == 162);
  CHECK(sb_body_triangle_count(w, b) == 108);
  const uint32_t* tris = sb_body_triangles(w, b);
  for (int i = 0; i < 3 * 108; ++i) CHECK(tris[i] < 64u);
  const float* pos = sb_body_positions(w, b);
  sb_body_stats st;
  REQUIRE(sb_body_get_stats(w, b, &st) == SB_OK);
  CHECK(st.mass == doctest::Approx(1000.0f));
  CHECK(st.finite == 1);
  CHECK(st.grabbed_vertex == -1);
  const int32_t top = sb_body_nearest_vertex(w, b, 0.5f, 1.0f, 0.5f);
  REQUIRE(top >= 0);
  CHECK(pos[3 * top + 1] == doctest::Approx(1.0f));
  REQUIRE(sb_body_grab_begin(w, b, top, 0.5f, 1.0f, 0.5f) == SB_OK);
  for (int f = 0; f < 30; ++f) {
    REQUIRE(sb_body_grab_move(w, b, 0.5f, 1.0f + f * 0.05f, 0.5f) == SB_OK);
    REQUIRE(sb_world_step(w, 1.0f / 60.0f) == SB_OK);
  }
  CHECK(pos[3 * top + 1] == doctest::Approx(2.45f).epsilon(1e-4));  // same buffer, updated in place
  REQUIRE(sb_body_grab_end(w, b, 0, 0, 0) == SB_OK);
  // A grab target below the ground is lifted onto it (the ground is on by default).
  REQUIRE(sb_body_grab_begin(w, b, top, 0.5f, -3.0f, 0.5f) == SB_OK);
  REQUIRE(sb_world_step(w, 1.0f / 60.0f) == SB_OK);
  CHECK(pos[3 * top + 1] >= 0.0f);
  sb_world_destroy(w);
}

TEST_CASE("a body whose state goes non-finite is reported by step and stats, and recovers on reset") {
  const sb_world w = sb_world_create();
  const sb_body b = sb_body_create_box(w, 2, 2, 2, 1, 1, 1, 0, 1, 0);
  const sb_body healthy = sb_body_create_ball(w, 0.3f, 4, 3, 1, 0);
  REQUIRE(sb_world_step(w, 1.0f / 60.0f) == SB_OK);
  float* pos = sb_body_positions(w, b);
  const float good_y = pos[1];
  pos[1] = NAN;  // garbage written into the shared buffer, as a careless caller might
  CHECK(sb_world_step(w, 1.0f / 60.0f) == SB_ERR_DIVERGED);
  CHECK(std::string(sb_last_error()).find("non-finite") != std::string::npos);
  sb_body_stats st;
  REQUIRE(sb_body_get_stats(w, b, &st) == SB_OK);
  CHECK(st.finite == 0);
  CHECK(pos[1] == good_y);  // frozen at its last verified shape, not rendered as garbage
  CHECK(sb_body_grab_begin(w, b, 0, 0, 1, 0) == SB_ERR_DIVERGED);
  REQUIRE(sb_body_get_stats(w, healthy, &st) == SB_OK);
  CHECK(st.finite == 1);  // the other body kept stepping
  CHECK(sb_world_step(w, 1.0f / 60.0f) == SB_OK);  // reported once
  REQUIRE(sb_body_reset(w, b) == SB_OK);
  REQUIRE(sb_body_get_stats(w, b, &st) == SB_OK);
  CHECK(st.finite == 1);
  sb_world_destroy(w);
}

TEST_CASE("limits: worlds are capped and the cap is reported") {
  std::vector<sb_world> worlds;
  sb_world w;
  while ((w = sb_world_create()) > 0) worlds.push_back(w);
  CHECK(w == SB_ERR_LIMIT);
  CHECK(worlds.size() <= size_t(SB_MAX_WORLDS));
  for (sb_world x : worlds) sb_world_destroy(x);
  CHECK(sb_world_create() > 0);
}

TEST_CASE_FIXTURE(Fixture, "solvers: unknown values and infinite stiffness are refused, the switch keeps the state") {
  CHECK_FAILS(sb_body_set_solver(w, b, -1), SB_ERR_UNKNOWN_SOLVER);
  CHECK_FAILS(sb_body_set_solver(w, b, SB_SOLVER_COUNT), SB_ERR_UNKNOWN_SOLVER);
  CHECK_FAILS(sb_body_set_solver(w, b, SB_SOLVER_RK4), SB_ERR_NEEDS_COMPLIANCE);  // defaults are 0
  CHECK(g_message.find("compliance") != std::string::npos);
  CHECK(sb_body_get_solver(w, b) == SB_SOLVER_XPBD);
  REQUIRE(sb_body_set_param(w, b, SB_PARAM_EDGE_COMPLIANCE, 1e-4f) == SB_OK);
  REQUIRE(sb_body_set_param(w, b, SB_PARAM_VOLUME_COMPLIANCE, 1e-6f) == SB_OK);
  const Snapshot before = snapshot(w, b);
  REQUIRE(sb_body_set_solver(w, b, SB_SOLVER_IMPLICIT_EULER) == SB_OK);
  CHECK(snapshot(w, b) == before);  // switching moves nothing
  CHECK(sb_body_get_solver(w, b) == SB_SOLVER_IMPLICIT_EULER);
  CHECK_FAILS(sb_body_set_param(w, b, SB_PARAM_EDGE_COMPLIANCE, 0.0f), SB_ERR_NEEDS_COMPLIANCE);
  CHECK_FAILS(sb_body_set_param(w, b, SB_PARAM_PBD_STIFFNESS, 1.5f), SB_ERR_OUT_OF_RANGE);
  CHECK_FAILS(sb_body_set_param(w, b, SB_PARAM_SPRING_DAMPING, NAN), SB_ERR_NOT_FINITE);
  REQUIRE(sb_world_step(w, 1.0f / 60.0f) == SB_OK);
  sb_body_stats st;
  REQUIRE(sb_body_get_stats(w, b, &st) == SB_OK);
  CHECK(st.solver == SB_SOLVER_IMPLICIT_EULER);
  CHECK(st.cg_iterations > 0);
  CHECK(st.cg_iterations < 200);
  // Gravitational energy relative to y = 0: m g (centre height), 1000 kg at about 1 m.
  CHECK(st.potential_energy == doctest::Approx(1000.0 * 9.81 * st.center[1]).epsilon(1e-3));
  CHECK(st.elastic_energy >= 0.0f);
  REQUIRE(sb_body_set_solver(w, b, SB_SOLVER_XPBD) == SB_OK);
  CHECK(sb_body_set_param(w, b, SB_PARAM_EDGE_COMPLIANCE, 0.0f) == SB_OK);  // rigid is fine for XPBD
}

TEST_CASE("every solver runs through the C API and reports the same physical model's energy") {
  const sb_world w = sb_world_create();
  const sb_body b = sb_body_create_box(w, 3, 3, 3, 0.6f, 0.6f, 0.6f, 0, 1.0f, 0);
  REQUIRE(sb_body_set_param(w, b, SB_PARAM_EDGE_COMPLIANCE, 1e-3f) == SB_OK);
  REQUIRE(sb_body_set_param(w, b, SB_PARAM_VOLUME_COMPLIANCE, 1e-5f) == SB_OK);
  REQUIRE(sb_body_squash(w, b, 0.8f) == SB_OK);
  sb_body_stats st;
  REQUIRE(sb_body_get_stats(w, b, &st) == SB_OK);
  const float squashed_energy = st.elastic_energy;
  CHECK(squashed_energy > 0.0f);  // the squash stretched the springs: stored energy, J
  for (int32_t s = 0; s < SB_SOLVER_COUNT; ++s) {
    CAPTURE(s);
    REQUIRE(sb_body_reset(w, b) == SB_OK);
    REQUIRE(sb_body_set_solver(w, b, s) == SB_OK);
    REQUIRE(sb_world_step(w, 1.0f / 60.0f) == SB_OK);
    REQUIRE(sb_body_get_stats(w, b, &st) == SB_OK);
    CHECK(st.solver == s);
    CHECK(st.finite == 1);
    CHECK(st.momentum[1] < 0.0f);  // falling
  }
  sb_world_destroy(w);
}

TEST_CASE_FIXTURE(Fixture, "rope, jelly and pressure ball: created through the C API, bad sizes refused") {
  const sb_body rope = sb_body_create_rope(w, 10, 1.0f, 0, 2, 0);
  REQUIRE(rope > 0);
  CHECK(sb_body_vertex_count(w, rope) == 11);
  CHECK(sb_body_edge_count(w, rope) == 10);
  CHECK(sb_body_tet_count(w, rope) == 0);
  CHECK(sb_body_triangle_count(w, rope) == 0);
  REQUIRE(sb_world_step(w, 1.0f / 60.0f) == SB_OK);
  CHECK(sb_body_positions(w, rope)[1] == 2.0f);  // the anchor is pinned
  REQUIRE(sb_body_set_param(w, rope, SB_PARAM_EDGE_COMPLIANCE, 1e-4f) == SB_OK);
  CHECK(sb_body_set_solver(w, rope, SB_SOLVER_RK4) == SB_OK);  // no tets: no volume compliance needed
  const sb_body jelly = sb_body_create_jelly(w, 2, 0.5f, 2, 1, 0);
  REQUIRE(jelly > 0);
  CHECK(sb_body_triangle_count(w, jelly) == 6 * 2 * 2 * 2);
  const sb_body ball = sb_body_create_pressure_ball(w, 0.4f, 6, -2, 1, 0);
  REQUIRE(ball > 0);
  CHECK(sb_body_tet_count(w, ball) == 0);
  CHECK(sb_body_set_param(w, ball, SB_PARAM_PRESSURE, 1000.0f) == SB_OK);
  CHECK_FAILS(sb_body_set_param(w, ball, SB_PARAM_PRESSURE, -1.0f), SB_ERR_OUT_OF_RANGE);
  CHECK_FAILS(sb_body_create_rope(w, 0, 1.0f, 0, 2, 0), SB_ERR_BAD_COUNT);
  CHECK_FAILS(sb_body_create_rope(w, 10, NAN, 0, 2, 0), SB_ERR_NOT_FINITE);
  CHECK_FAILS(sb_body_create_jelly(w, 65, 1.0f, 0, 1, 0), SB_ERR_BAD_COUNT);
  CHECK_FAILS(sb_body_create_jelly(w, 2, -1.0f, 0, 1, 0), SB_ERR_OUT_OF_RANGE);
  CHECK_FAILS(sb_body_create_pressure_ball(w, 0.5f, 1, 0, 1, 0), SB_ERR_BAD_COUNT);
  CHECK_FAILS(sb_body_create_pressure_ball(w, 0.5f, 8, 0, INFINITY, 0), SB_ERR_NOT_FINITE);
}

TEST_CASE_FIXTURE(Fixture, "press squashes at once and holds the body under the rising plate") {
  const auto top = [&] {
    const float* p = sb_body_positions(w, b);
    float y = -INFINITY;
    for (int32_t i = 0; i < sb_body_vertex_count(w, b); ++i) y = std::max(y, p[3 * i + 1]);
    return y;
  };
  sb_body_stats st;
  REQUIRE(sb_body_get_stats(w, b, &st) == SB_OK);
  const float bottom = float(st.min_y), before = top();
  REQUIRE(sb_body_press(w, b, 0.5f, 1.0f) == SB_OK);
  CHECK(sb_last_error_code() == SB_OK);
  const float squashed = top();
  CHECK(squashed - bottom == doctest::Approx(0.5f * (before - bottom)).epsilon(1e-4));
  // One frame of the 1 s release: the plate has risen by 1/60 of the way back.
  REQUIRE(sb_world_step(w, 1.0f / 60.0f) == SB_OK);
  CHECK(top() <= squashed + (before - squashed) / 60.0f + 1e-6f);
}
