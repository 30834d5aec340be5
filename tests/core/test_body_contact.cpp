// Contact between bodies (core/contact/body_contact.h): momentum exchanged and conserved, bodies that
// separate instead of passing through, stacks at rest with millimetre penetration, filters, corners
// on coarse faces, determinism, and the C API's filter and stats.
#include <doctest.h>

#include <cmath>
#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "contact/body_contact.h"
#include "math/closest_points.h"
#include "shapes/shapes.h"
#include "softbody.h"
#include "solver/world.h"

using namespace sb;

namespace {

const float kFrame = 1.0f / 60.0f;  // s

Vec3 centre_of(const SoftBody& b) {
  const BodyStats s = b.stats();
  return {float(s.center[0]), float(s.center[1]), float(s.center[2])};
}

float min_coord(const SoftBody& b, int axis) {
  float m = INFINITY;
  for (uint32_t i = 0; i < b.vertex_count(); ++i) m = std::min(m, b.positions()[3 * i + axis]);
  return m;
}

float max_coord(const SoftBody& b, int axis) {
  float m = -INFINITY;
  for (uint32_t i = 0; i < b.vertex_count(); ++i) m = std::max(m, b.positions()[3 * i + axis]);
  return m;
}

void set_velocity(SoftBody& b, Vec3 v) {
  for (uint32_t i = 0; i < b.vertex_count(); ++i) store3(b.velocities(), i, v);
}

}  // namespace

TEST_CASE("two boxes meeting head-on without gravity exchange momentum, conserve it, and bounce apart") {
  // Equal 0.4 m boxes 1 m apart approach at 2 m/s each. The contact is a zero-compliance constraint
  // between a vertex and a triangle of the other body, moving both by their inverse masses, so the
  // total momentum (zero) is kept to float32 rounding: the tolerance is 1e-3 of one box's momentum
  // (a one-sided push would leave all of it). At the impact a vertex is found up to one substep's
  // closing motion (6.7 mm) inside the other box, plus what the compression adds before the next
  // pass (measured 9.5 mm): 15 mm is the bound; at rest the 5 mm gap is kept. They must end apart.
  World w;
  w.settings.gravity[1] = 0.0f;
  w.settings.ground = false;
  BodyParams p;
  p.edge_compliance = 1e-5f;
  p.friction = 0.0f;
  SoftBody* a = w.body(w.add_body(make_box(4, 4, 4, 0.4f, 0.4f, 0.4f, -0.5f, 1.0f, 0.0f), p));
  SoftBody* b = w.body(w.add_body(make_box(4, 4, 4, 0.4f, 0.4f, 0.4f, 0.5f, 1.0f, 0.0f), p));
  set_velocity(*a, {2.0f, 0.0f, 0.0f});
  set_velocity(*b, {-2.0f, 0.0f, 0.0f});
  const double one_box = a->stats().mass * 2.0;  // kg m/s
  double deepest = 0.0;
  bool touched = false;
  for (int f = 0; f < 60; ++f) {
    REQUIRE(w.step(kFrame, nullptr) == 0);
    const double total = a->stats().momentum[0] + b->stats().momentum[0];
    CHECK(std::fabs(total) < 1e-3 * one_box);
    deepest = std::max({deepest, a->stats().max_penetration, b->stats().max_penetration});
    touched = touched || a->stats().contacts > 0;
  }
  CHECK(touched);
  CHECK(deepest < 1.5e-2);
  CHECK(a->stats().momentum[0] < -0.2 * one_box);  // moving back the way it came
  CHECK(b->stats().momentum[0] > 0.2 * one_box);
  CHECK(max_coord(*a, 0) < min_coord(*b, 0));  // apart
}

TEST_CASE("a stack of three soft boxes comes to rest with every contact under 2 mm") {
  // Three 0.3 m boxes dropped onto each other (2 cm gaps) at the default 10 substeps: after 3 s every
  // body's deepest contact (ground or body) is under 2 mm and they stand in order, each resting on the
  // one below (its bottom within the 5 mm contact gap plus 2 mm of the top below).
  World w;
  BodyParams p;
  p.edge_compliance = 1e-5f;
  p.damping = 0.5f;
  SoftBody* box[3];
  for (int k = 0; k < 3; ++k) box[k] = w.body(w.add_body(make_box(3, 3, 3, 0.3f, 0.3f, 0.3f, 0.0f, 0.16f + 0.32f * k, 0.0f), p));
  double top_before[3] = {0, 0, 0};
  for (int f = 0; f < 180; ++f) {
    REQUIRE(w.step(kFrame, nullptr) == 0);
    if (f == 149) {
      const BodyStats st = box[2]->stats();
      std::copy(st.center, st.center + 3, top_before);
    }
  }
  for (int k = 0; k < 3; ++k) {
    CAPTURE(k);
    CHECK(box[k]->stats().max_penetration < 2e-3);
    CHECK(box[k]->stats().contacts > 0);
    if (k > 0) {
      const float gap = min_coord(*box[k], 1) - max_coord(*box[k - 1], 1);
      CHECK(gap > -2e-3f);
      CHECK(gap < 7e-3f);
    }
  }
  // Still: the top box's centre moves under 1 mm in the last 0.5 s. (Its velocities need not be 0:
  // contacts between bodies can leave a substep-to-substep jitter of ~0.05 mm, measured as up to
  // 2.5 cm/s of rms speed, KE 0.009 J, while the centre stays put; whether a run shows it depends on
  // float rounding. Bounded loosely: rms speed under 5 cm/s.)
  const BodyStats last = box[2]->stats();
  const double* top_after = last.center;
  CHECK(std::hypot(top_after[0] - top_before[0], top_after[1] - top_before[1], top_after[2] - top_before[2]) < 1e-3);
  CHECK(last.kinetic_energy < 0.5 * 27.0 * 0.05 * 0.05);
}

TEST_CASE("rest is rest: a stack of four boxes offset 12 mm per level stays put for 30 s under both materials") {
  // Each box sits 12 mm further out than the one below, so every interface carries a tilting load
  // that only static friction (body-body and ground, mu = 0.5) resists. Settled for 15 s from a drop
  // of a millimetre (the 1 MPa stack, whose base sticks to the ground inside the passes, still leans
  // 1.3 mm at the top between 10 s and 25 s, then stops: 0.01 mm from 25 s to 40 s), no centre may
  // then move more than 1 mm in the next 30 s (the bound; the
  // creep it reported was 0.3-0.5 mm/s, 9-15 mm over that time), and the stack must still stand
  // (each centre a box height, 0.25 m less what the contact squeezes, above the one below).
  for (bool neo : {false, true}) {
    CAPTURE(neo);
    World w;
    BodyParams p;
    p.edge_compliance = 1e-5f;
    p.damping = 0.5f;
    if (neo) {
      p.material = Material::NeoHookean;
      p.youngs_modulus = 1e6f;  // Pa (at 100 kPa one XPBD pass leaves the jelly stack swaying until it falls)
      p.poisson_ratio = 0.3f;
    }
    SoftBody* box[4];
    for (int k = 0; k < 4; ++k)
      box[k] = w.body(w.add_body(make_box(3, 3, 3, 0.25f, 0.25f, 0.25f, 0.012f * k, 0.126f + 0.26f * k, 0.0f), p));
    for (int f = 0; f < 900; ++f) REQUIRE(w.step(kFrame, nullptr) == 0);
    Vec3 settled[4];
    for (int k = 0; k < 4; ++k) settled[k] = centre_of(*box[k]);
    for (int f = 0; f < 1800; ++f) REQUIRE(w.step(kFrame, nullptr) == 0);
    for (int k = 0; k < 4; ++k) {
      CAPTURE(k);
      CHECK(length(centre_of(*box[k]) - settled[k]) < 1e-3f);
      if (k > 0) CHECK(centre_of(*box[k]).y - centre_of(*box[k - 1]).y > 0.23f);  // still on the one below
    }
  }
}

TEST_CASE("rest is rest: a lattice ball set down at rest, once settled, stays put for 30 s") {
  // Issue 25's ball at the page's defaults: 0.3 m, 8 cells, edge compliance 1e-4, damping 1/s, one
  // pass, set down 1 mm above the ground. It first rolls (0.28 m, over ~5 s) from resting on a face
  // of its cubed-sphere lattice to resting near one of the lattice's 8 corners, where the mesh is
  // softer: it sags 26 mm there against 20 mm on the face, and its gravitational plus elastic energy
  // is ~7 J lower (limitations.md). Once there it must stay: after 15 s no further motion of the
  // centre above 1 mm in the next 30 s (the stack's bound above; measured 0.6 mm).
  World w;
  BodyParams p;
  p.edge_compliance = 1e-4f;
  p.damping = 1.0f;
  SoftBody* ball = w.body(w.add_body(make_ball(0.3f, 8, 0.0f, 0.301f, 0.0f), p));
  for (int f = 0; f < 900; ++f) REQUIRE(w.step(kFrame, nullptr) == 0);
  const Vec3 settled = centre_of(*ball);
  float worst = 0.0f;  // m
  for (int f = 0; f < 1800; ++f) {
    REQUIRE(w.step(kFrame, nullptr) == 0);
    worst = std::max(worst, length(centre_of(*ball) - settled));
  }
  CHECK(worst < 1e-3f);
  CHECK(min_coord(*ball, 1) > -1e-4f);  // on the ground, not in it
}

TEST_CASE("a light body does not push a heavy one through the ground, nor a heavy one crush through a light one") {
  // Densities 10x apart (200 and 2,000 kg/m^3), stacked both ways. After 2 s: no body below the
  // ground and the upper one resting on the lower: at the end of every frame the upper box's lowest
  // vertex is no more than 2 mm below the lower box's top under it. (Within a substep the lower box's own constraints
  // push its top back into the load before the contact pushes it down again: the overlap found and
  // corrected per substep, max_penetration, is the lower box's compression under the load, measured
  // under 2 mm for the light load and ~19 mm for the 10x load; bounded here at 3 cm.)
  for (bool heavy_on_top : {false, true}) {
    World w;
    BodyParams light;
    light.edge_compliance = 1e-5f;
    light.density = 200.0f;
    light.damping = 0.5f;
    BodyParams heavy = light;
    heavy.density = 2000.0f;
    SoftBody* bottom = w.body(w.add_body(make_box(3, 3, 3, 0.3f, 0.3f, 0.3f, 0.0f, 0.16f, 0.0f), heavy_on_top ? light : heavy));
    SoftBody* top = w.body(w.add_body(make_box(3, 3, 3, 0.3f, 0.3f, 0.3f, 0.0f, 0.5f, 0.0f), heavy_on_top ? heavy : light));
    double deepest = 0.0;
    float overlap = 0.0f;
    for (int f = 0; f < 120; ++f) {
      REQUIRE(w.step(kFrame, nullptr) == 0);
      if (f < 60) continue;
      deepest = std::max({deepest, top->stats().max_penetration, bottom->stats().max_penetration});
      // The lower box's highest vertex under the upper box (its top rim bulges out beside the load
      // and may rise there) against the upper box's lowest.
      float under = -INFINITY;
      for (uint32_t i = 0; i < bottom->vertex_count(); ++i) {
        const Vec3 x = load3(bottom->positions(), i);
        if (std::fabs(x.x) < 0.12f && std::fabs(x.z) < 0.12f) under = std::max(under, x.y);
      }
      overlap = std::max(overlap, under - min_coord(*top, 1));
      CHECK(min_coord(*bottom, 1) >= 0.0f);
    }
    CAPTURE(heavy_on_top);
    CHECK(deepest < (heavy_on_top ? 3e-2 : 2e-3));
    // The upper box stands on the lower one: their centres stay most of a box height (0.3 m) apart.
    CHECK(top->stats().center[1] - bottom->stats().center[1] > 0.25);
    // With the light load the surfaces stay within 2 mm; under the 10x load the soft lower box is
    // squeezed into a barrel whose rim wraps the load's edges, measured 12 mm (a limit, docs).
    CHECK(overlap < (heavy_on_top ? 2e-2f : 2e-3f));
    CHECK(top->stats().center[1] > 0.4);
  }
}

TEST_CASE("a box corner dropped onto a coarse face does not slip through it") {
  // A 45-degree-rotated small box falls corner first onto the middle of a big box made of one cell
  // per side (its top face is two triangles with no vertex nearby): the vertex-triangle test catches
  // the corner; a vertex-vertex test would let it through.
  World w;
  BodyParams p;
  p.edge_compliance = 1e-5f;
  SoftBody* slab = w.body(w.add_body(make_box(1, 1, 1, 1.0f, 0.2f, 1.0f, 0.0f, 0.1f, 0.0f), p));
  TetMesh small = make_box(2, 2, 2, 0.2f, 0.2f, 0.2f, 0.0f, 0.0f, 0.0f);
  const Quat q = axis_angle({0.707107f, 0.0f, 0.707107f}, 0.785398f);
  for (size_t i = 0; i < small.positions.size() / 3; ++i) {
    const Vec3 r = rotate(q, load3(small.positions.data(), unsigned(i))) + Vec3{0.05f, 0.6f, 0.03f};
    store3(small.positions.data(), unsigned(i), r);
  }
  SoftBody* corner = w.body(w.add_body(small, p));
  for (int f = 0; f < 90; ++f) REQUIRE(w.step(kFrame, nullptr) == 0);
  CHECK(min_coord(*corner, 1) > max_coord(*slab, 1) - 2e-3f);
}

TEST_CASE("collision filters: bodies whose groups and masks exclude each other pass through") {
  for (bool excluded : {false, true}) {
    World w;
    w.settings.gravity[1] = 0.0f;
    w.settings.ground = false;
    BodyParams p;
    p.edge_compliance = 1e-5f;
    SoftBody* a = w.body(w.add_body(make_box(3, 3, 3, 0.3f, 0.3f, 0.3f, -0.4f, 1.0f, 0.0f), p));
    SoftBody* b = w.body(w.add_body(make_box(3, 3, 3, 0.3f, 0.3f, 0.3f, 0.4f, 1.0f, 0.0f), p));
    if (excluded) {
      a->set_collision_filter(0x1, 0x1);  // group 1, touches group 1 only
      b->set_collision_filter(0x2, 0x3);  // group 2: a's mask excludes it
    }
    set_velocity(*a, {3.0f, 0.0f, 0.0f});
    for (int f = 0; f < 30; ++f) REQUIRE(w.step(kFrame, nullptr) == 0);
    CAPTURE(excluded);
    if (excluded) CHECK(centre_of(*a).x > centre_of(*b).x);  // went straight through
    else CHECK(centre_of(*a).x < centre_of(*b).x);            // pushed it instead
  }
}

TEST_CASE("determinism: two runs of a pile of bodies give identical bytes") {
  std::vector<float> runs[2];
  for (int run = 0; run < 2; ++run) {
    World w;
    BodyParams p;
    p.edge_compliance = 1e-4f;
    for (int k = 0; k < 6; ++k) {
      const float x = 0.12f * float(k % 3) - 0.12f, z = 0.1f * float(k % 2);
      const TetMesh m = k % 2 ? make_ball(0.15f, 4, x, 0.3f + 0.35f * k, z) : make_box(2, 2, 2, 0.25f, 0.25f, 0.25f, x, 0.3f + 0.35f * k, z);
      w.add_body(m, p);
    }
    for (int f = 0; f < 90; ++f) REQUIRE(w.step(kFrame, nullptr) == 0);
    for (uint32_t i = 0; i < 6; ++i) {
      SoftBody* b = w.body({i, 1});
      REQUIRE(b);
      runs[run].insert(runs[run].end(), b->positions(), b->positions() + 3 * b->vertex_count());
    }
  }
  REQUIRE(runs[0].size() == runs[1].size());
  CHECK(std::memcmp(runs[0].data(), runs[1].data(), runs[0].size() * sizeof(float)) == 0);
}

TEST_CASE("C API: collision filters are set and read back, stats report contacts and penetration") {
  const sb_world w = sb_world_create();
  REQUIRE(w > 0);
  const sb_body a = sb_body_create_box(w, 3, 3, 3, 0.3f, 0.3f, 0.3f, 0, 0.16f, 0);
  const sb_body b = sb_body_create_box(w, 3, 3, 3, 0.3f, 0.3f, 0.3f, 0, 0.5f, 0);
  REQUIRE(a > 0);
  REQUIRE(b > 0);
  uint32_t group = 0, mask = 0;
  REQUIRE(sb_body_get_collision_filter(w, a, &group, &mask) == SB_OK);
  CHECK(group == 1u);
  CHECK(mask == 0xffffffffu);
  CHECK(sb_body_set_collision_filter(w, b, 4u, 0xfffffffbu) == SB_OK);
  REQUIRE(sb_body_get_collision_filter(w, b, &group, &mask) == SB_OK);
  CHECK(group == 4u);
  CHECK(mask == 0xfffffffbu);
  CHECK(sb_body_set_collision_filter(w, 99999, 1, 1) == SB_ERR_INVALID_BODY);
  CHECK(sb_body_set_collision_filter(w + 1000, a, 1, 1) == SB_ERR_INVALID_WORLD);
  CHECK(sb_body_get_collision_filter(w, a, nullptr, &mask) == SB_ERR_NULL_POINTER);
  CHECK(std::string(sb_last_error()).find("group") != std::string::npos);
  REQUIRE(sb_body_get_collision_filter(w, a, &group, &mask) == SB_OK);
  CHECK(group == 1u);  // the failed calls changed nothing
  CHECK(sb_body_set_collision_filter(w, b, 1, 0xffffffffu) == SB_OK);
  REQUIRE(sb_body_set_param(w, a, SB_PARAM_EDGE_COMPLIANCE, 1e-5f) == SB_OK);
  REQUIRE(sb_body_set_param(w, b, SB_PARAM_EDGE_COMPLIANCE, 1e-5f) == SB_OK);
  for (int f = 0; f < 90; ++f) REQUIRE(sb_world_step(w, kFrame) == SB_OK);
  sb_body_stats sa, sbt;
  REQUIRE(sb_body_get_stats(w, a, &sa) == SB_OK);
  REQUIRE(sb_body_get_stats(w, b, &sbt) == SB_OK);
  CHECK(sa.contacts >= 16);   // its bottom face on the ground at least
  CHECK(sbt.contacts >= 4);   // b's bottom face on a (those within the 5 mm gap at the last substep)
  CHECK(sa.max_penetration >= 0.0f);
  CHECK(sa.max_penetration < 2e-3f);
  CHECK(sbt.max_penetration < 2e-3f);
  CHECK(sbt.min_y > 0.3f);    // resting on a, not fallen into it
  sb_world_destroy(w);
}

TEST_CASE("a body that goes non-finite is reported and frozen without poisoning the body it touches") {
  // Two boxes in contact; the lower one gets a NaN velocity (as a careless caller could write). It is
  // reported and frozen at its last finite shape, and stays an obstacle that does not move (its
  // inverse masses count as 0 in contacts), so the upper box stays finite and resting on it.
  World w;
  BodyParams p;
  p.edge_compliance = 1e-5f;
  const BodyHandle ha = w.add_body(make_box(3, 3, 3, 0.3f, 0.3f, 0.3f, 0.0f, 0.16f, 0.0f), p);
  SoftBody* a = w.body(ha);
  SoftBody* b = w.body(w.add_body(make_box(3, 3, 3, 0.3f, 0.3f, 0.3f, 0.0f, 0.5f, 0.0f), p));
  for (int f = 0; f < 60; ++f) REQUIRE(w.step(kFrame, nullptr) == 0);
  a->velocities()[3 * 5 + 1] = NAN;
  BodyHandle first;
  CHECK(w.step(kFrame, &first) == 1);
  CHECK(first.index == ha.index);
  CHECK_FALSE(a->stats().finite);
  for (int f = 0; f < 30; ++f) w.step(kFrame, nullptr);
  CHECK(b->stats().finite);
  for (uint32_t i = 0; i < b->vertex_count(); ++i) REQUIRE(std::isfinite(b->positions()[3 * i + 1]));
  CHECK(b->stats().center[1] > 0.4);  // still resting on the frozen box
}

TEST_CASE("broad phase: sweep and prune pairs exactly the bodies whose widened bounds meet, as comparing every pair does") {
  // 150 small boxes scattered over 1.5 m x 0.6 m x 1.5 m (many overlapping, most far apart), a few
  // filtered apart, one self-colliding, at rest: each body's bounds are its vertices' box widened by
  // the reach (thickness + search radius), so the pairs can be counted here by comparing every pair.
  const BodyContactSettings settings;
  const float reach = settings.thickness + settings.search_radius;  // m
  std::vector<std::unique_ptr<SoftBody>> owned;
  std::vector<SoftBody*> bodies;
  uint32_t seed = 12345u;
  auto next = [&]() {  // xorshift32 in [0, 1)
    seed ^= seed << 13, seed ^= seed >> 17, seed ^= seed << 5;
    return float(seed >> 8) / float(1u << 24);
  };
  BodyParams p;
  for (int k = 0; k < 150; ++k) {
    owned.push_back(std::make_unique<SoftBody>(make_box(1, 1, 1, 0.1f, 0.1f, 0.1f, 1.5f * next(), 0.05f + 0.6f * next(), 1.5f * next()), p));
    if (k % 17 == 3) owned.back()->set_collision_filter(2, 2);  // touches only its own group
    bodies.push_back(owned.back().get());
  }
  bodies[7]->set_self_collision(true, 0.005f);  // the reach stays thickness + search radius
  BodyContact contact;
  contact.begin_frame(bodies.data(), uint32_t(bodies.size()), kFrame, settings);
  uint32_t expected = 0;
  for (size_t i = 0; i < bodies.size(); ++i) {
    expected += bodies[i]->self_collision() ? 1 : 0;
    for (size_t j = 0; j < bodies.size(); ++j) {
      if (i == j) continue;
      const SoftBody& a = *bodies[i];
      const SoftBody& b = *bodies[j];
      if (!((a.collision_group() & b.collision_mask()) && (b.collision_group() & a.collision_mask()))) continue;
      bool meet = true;
      for (int axis = 0; axis < 3; ++axis)
        meet = meet && min_coord(a, axis) - reach <= max_coord(b, axis) + reach && min_coord(b, axis) - reach <= max_coord(a, axis) + reach;
      expected += meet ? 1 : 0;
    }
  }
  CAPTURE(expected);
  CHECK(expected > 150);  // the scene does have pairs to find
  CHECK(contact.neighbour_count() == expected);
}

TEST_CASE("two bodies overlapped on purpose: candidates only within the reach of what can be the nearest") {
  // Two 0.5 m balls of 16 cells (3 cm surface spacing) whose centres are 0.25 m apart (half of each
  // inside the other), at rest. The gathering keeps a triangle of the other body only if it can come
  // within the reach and as near as the vertex's nearest can be, each with 2 cm of slack for motion
  // the velocities do not predict. Counted here: the pairs within reach + 2 cm, an upper bound.
  BodyParams p;
  SoftBody a(make_ball(0.25f, 16, 0.0f, 1.0f, 0.0f), p), b(make_ball(0.25f, 16, 0.25f, 1.0f, 0.0f), p);
  SoftBody* bodies[2] = {&a, &b};
  const BodyContactSettings settings;
  BodyContact contact;
  contact.begin_frame(bodies, 2, kFrame, settings);
  uint32_t near_pairs = 0, near_vertices = 0;
  const float reach = settings.thickness + settings.search_radius + 0.02f;  // m
  for (int k = 0; k < 2; ++k) {
    const SoftBody& A = *bodies[k];
    const SoftBody& B = *bodies[1 - k];
    for (uint32_t i = 0; i < A.surface_vertex_count(); ++i) {
      const Vec3 x = load3(A.positions(), A.surface_vertices()[i]);
      uint32_t n = 0;
      for (uint32_t t = 0; t < B.surface_triangle_count(); ++t) {
        const uint32_t* tri = B.surface_triangles() + 3 * t;
        float w[3];
        bool in_face;
        const Vec3 q = closest_on_triangle(x, load3(B.positions(), tri[0]), load3(B.positions(), tri[1]), load3(B.positions(), tri[2]), w, &in_face);
        n += length(x - q) <= reach ? 1 : 0;
      }
      near_pairs += n;
      near_vertices += n > 0 ? 1 : 0;
    }
  }
  CAPTURE(near_pairs);
  CAPTURE(near_vertices);
  CAPTURE(contact.candidate_count());
  CHECK(near_vertices > 50);
  CHECK(contact.candidate_count() > 0);
  CHECK(contact.candidate_count() <= near_pairs);  // nothing beyond the reach + slack of its vertex
}
