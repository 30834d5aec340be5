// Piles in a bowl (issue 25): inverted tets recover while bodies touch, and a pile comes to rest.
// Through the C API, as the page builds its scenes (web/src/scenes/scene_presets.js).
#include <doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "bunny_surface.h"
#include "softbody.h"

namespace {

const float kFrame = 1.0f / 60.0f;  // s

// A hemispherical bowl of radius r (m), lowest point at the origin, open at the top: `rings` rings of
// `segments` vertices from near the bottom to the rim, and a fan closing the bottom (obstacle_shapes.js).
struct Shell {
  std::vector<float> positions;
  std::vector<uint32_t> triangles;
};
Shell bowl_shell(double r, int segments = 32, int rings = 10) {
  const double pi = 3.14159265358979323846;
  Shell s;
  for (int k = 1; k <= rings; ++k) {
    const double polar = double(k) / rings * (pi / 2);
    for (int i = 0; i < segments; ++i) {
      const double a = 2 * pi * i / segments;
      s.positions.insert(s.positions.end(), {float(r * std::sin(polar) * std::cos(a)), float(r - r * std::cos(polar)),
                                             float(r * std::sin(polar) * std::sin(a))});
    }
  }
  for (int ring = 0; ring + 1 < rings; ++ring)
    for (int i = 0; i < segments; ++i) {
      const auto a = uint32_t(ring * segments + i), b = uint32_t(ring * segments + (i + 1) % segments);
      const auto c = a + uint32_t(segments), d = b + uint32_t(segments);
      s.triangles.insert(s.triangles.end(), {a, c, b, b, c, d});
    }
  const auto centre = uint32_t(s.positions.size() / 3);
  s.positions.insert(s.positions.end(), {0.0f, 0.0f, 0.0f});
  for (int i = 0; i < segments; ++i) s.triangles.insert(s.triangles.end(), {centre, uint32_t(i), uint32_t((i + 1) % segments)});
  return s;
}

// The bunny's rest tets as the page makes them (sb_tetra_create at 10 cells, min quality 0.02, thin
// surface on).
struct Tets {
  std::vector<float> positions;
  std::vector<uint32_t> tets;
};
Tets bunny_tets() {
  testing_surfaces::Soup s = testing_surfaces::bunny_soup();
  // Placed like an import first (placement.js): longest side 1 m, centred in x and z, bottom 0.5 m up.
  double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
  for (size_t i = 0; i < s.positions.size(); ++i) {
    lo[i % 3] = std::min(lo[i % 3], double(s.positions[i]));
    hi[i % 3] = std::max(hi[i % 3], double(s.positions[i]));
  }
  const double scale = 1.0 / std::max({hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]});
  const double shift[3] = {-0.5 * (lo[0] + hi[0]) * scale, 0.5 - lo[1] * scale, -0.5 * (lo[2] + hi[2]) * scale};
  for (size_t i = 0; i < s.positions.size(); ++i) s.positions[i] = float(s.positions[i] * scale + shift[i % 3]);
  const sb_tetra job = sb_tetra_create(s.positions.data(), int32_t(s.vertex_count()), s.triangles.data(),
                                       int32_t(s.triangle_count()), 10, 0.02f, 1);
  REQUIRE(job > 0);
  int32_t r;
  while ((r = sb_tetra_run(job, 1 << 20)) == 0) {
  }
  REQUIRE(r == 1);
  Tets t;
  t.positions.assign(sb_tetra_positions(job), sb_tetra_positions(job) + 3 * sb_tetra_vertex_count(job));
  t.tets.assign(sb_tetra_tets(job), sb_tetra_tets(job) + 4 * sb_tetra_tet_count(job));
  sb_tetra_destroy(job);
  return t;
}

// A copy of `src` scaled so its largest side is `size` m, its box centred at `at` (scene_bodies.js placedCopy).
sb_body add_placed(sb_world w, const Tets& src, float size, const float at[3]) {
  float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
  for (size_t i = 0; i < src.positions.size(); ++i) {
    lo[i % 3] = std::min(lo[i % 3], src.positions[i]);
    hi[i % 3] = std::max(hi[i % 3], src.positions[i]);
  }
  const float scale = size / std::max({hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]});
  std::vector<float> p(src.positions.size());
  for (size_t i = 0; i < p.size(); ++i) p[i] = at[i % 3] + scale * (src.positions[i] - 0.5f * (lo[i % 3] + hi[i % 3]));
  return sb_body_create_tets(w, p.data(), int32_t(p.size() / 3), src.tets.data(), int32_t(src.tets.size() / 4));
}

// Root-mean-square vertex speed of a body, mass-weighted as sleep measures it (m/s).
double rms_speed(sb_world w, sb_body b) {
  sb_body_stats s;
  REQUIRE(sb_body_get_stats(w, b, &s) == SB_OK);
  return s.mass > 0 ? std::sqrt(2.0 * s.kinetic_energy / s.mass) : 0.0;
}

sb_body_stats stats_of(sb_world w, sb_body b) {
  sb_body_stats s;
  REQUIRE(sb_body_get_stats(w, b, &s) == SB_OK);
  return s;
}

// The page's pile: its default body (an 8-cell 1 m box at (0, 1, 0)), the bowl (radius 1.4 m, 6 cm
// shell), 20 drops in four layers (boxes 0.35 m of 4 cells, balls 0.35 m of 6 cells, bunnies 0.55 m),
// every body at the page's parameters, sleep at 2 cm/s for 0.5 s.
struct PageScene {
  sb_world w = 0;
  std::vector<sb_body> bodies;
  std::vector<int> kinds;  // 0 box, 1 ball, 2 bunny
};
PageScene page_pile(const Tets& bunny, bool sleep) {
  PageScene p;
  p.w = sb_world_create();
  const Shell shell = bowl_shell(1.4);
  REQUIRE(sb_collider_create_mesh(p.w, shell.positions.data(), int32_t(shell.positions.size() / 3), shell.triangles.data(),
                                  int32_t(shell.triangles.size() / 3), 0.06f, 0, 0, 0) > 0);
  if (sleep) REQUIRE(sb_world_set_sleep(p.w, 0.02f, 0.5f) == SB_OK);
  p.bodies.push_back(sb_body_create_box(p.w, 8, 8, 8, 1, 1, 1, 0, 1, 0));
  p.kinds.push_back(0);
  const double pi = 3.14159265358979323846;
  for (int k = 0; k < 20; ++k) {
    const int layer = k / 5;
    const double angle = 2 * pi * (k % 5) / 5 + 0.6 * layer;
    const float at[3] = {float(0.55 * std::cos(angle)), float(2.3 + 0.5 * layer), float(0.55 * std::sin(angle))};
    const int kind = k % 3;
    sb_body b = kind == 0 ? sb_body_create_box(p.w, 4, 4, 4, 0.35f, 0.35f, 0.35f, at[0], at[1], at[2])
                : kind == 1 ? sb_body_create_ball(p.w, 0.175f, 6, at[0], at[1], at[2])
                            : add_placed(p.w, bunny, 0.55f, at);
    REQUIRE(b > 0);
    p.bodies.push_back(b);
    p.kinds.push_back(kind);
  }
  for (sb_body b : p.bodies) {
    REQUIRE(sb_body_set_param(p.w, b, SB_PARAM_EDGE_COMPLIANCE, 1e-4f) == SB_OK);
    REQUIRE(sb_body_set_param(p.w, b, SB_PARAM_DAMPING, 1.0f) == SB_OK);
    REQUIRE(sb_body_set_param(p.w, b, SB_PARAM_FRICTION, 0.5f) == SB_OK);
    REQUIRE(sb_body_set_param(p.w, b, SB_PARAM_RESTITUTION, 0.2f) == SB_OK);
  }
  return p;
}

}  // namespace

TEST_CASE("Study: the page's pile replayed natively, per second: inverted tets and RMS speed per bunny, asleep" * doctest::skip()) {
  // ./build-native/softbody_tests --no-skip -tc='Study: the page*' (about a minute).
  const Tets bunny = bunny_tets();
  std::printf("bunny: %zu tets\n", bunny.tets.size() / 4);
  PageScene p = page_pile(bunny, true);
  const int frames = 15 * 60;
  for (int f = 1; f <= frames; ++f) {
    REQUIRE(sb_world_step(p.w, kFrame) == SB_OK);
    if (f % 60 != 0) continue;
    int inverted = 0, asleep = 0;
    double worst = 0.0, most = 0.0;  // J/kg, J
    std::printf("t=%2d s  bunnies (body: inverted / RMS mm/s):", f / 60);
    for (size_t i = 0; i < p.bodies.size(); ++i) {
      const sb_body_stats s = stats_of(p.w, p.bodies[i]);
      inverted += s.inverted_tets;
      asleep += s.asleep;
      worst = std::max(worst, s.kinetic_energy / s.mass);
      most = std::max(most, s.kinetic_energy);
      if (p.kinds[i] == 2) std::printf(" %zu: %d / %.1f", i, s.inverted_tets, 1e3 * rms_speed(p.w, p.bodies[i]));
    }
    std::printf("  | all: %d inverted, %d asleep, worst %.3g mJ/kg, %.3g mJ\n", inverted, asleep, 1e3 * worst, 1e3 * most);
  }
  sb_world_destroy(p.w);
}

// Bodies dropped into a 0.7 m bowl (a 4 cm shell) at the page's body parameters (edge compliance
// 1e-4 m/N, incompressible tets, damping 1/s, XPBD at 1 pass and 10 substeps); returns, from `late` s
// on, the most tets inverted in any body and the fastest root-mean-square speed of any body (m/s),
// and the first time all bodies sleep (s; sleep at 2 cm/s for 0.5 s as the page's pile; INFINITY if never).
struct BowlRun {
  int inverted_late = 0;
  double fastest_late = 0.0;
  double asleep_at = INFINITY;
};
BowlRun drop_in_bowl(const Tets& bunny, int bunnies, float seconds, float late) {
  sb_world w = sb_world_create();
  const Shell shell = bowl_shell(0.7, 24, 8);
  REQUIRE(sb_collider_create_mesh(w, shell.positions.data(), int32_t(shell.positions.size() / 3), shell.triangles.data(),
                                  int32_t(shell.triangles.size() / 3), 0.04f, 0, 0, 0) > 0);
  REQUIRE(sb_world_set_sleep(w, 0.02f, 0.5f) == SB_OK);
  std::vector<sb_body> bodies;
  const float at[3][3] = {{-0.12f, 0.55f, 0.0f}, {0.12f, 0.8f, 0.05f}, {0.0f, 1.05f, -0.08f}};
  for (int k = 0; k < bunnies; ++k) bodies.push_back(add_placed(w, bunny, 0.4f, at[k]));
  for (sb_body x : bodies) {
    REQUIRE(x > 0);
    REQUIRE(sb_body_set_param(w, x, SB_PARAM_EDGE_COMPLIANCE, 1e-4f) == SB_OK);
    REQUIRE(sb_body_set_param(w, x, SB_PARAM_DAMPING, 1.0f) == SB_OK);
  }
  BowlRun out;
  for (int f = 1; f <= int(seconds * 60); ++f) {
    REQUIRE(sb_world_step(w, kFrame) == SB_OK);
    int asleep = 0;
    for (sb_body x : bodies) {
      const sb_body_stats s = stats_of(w, x);
      asleep += s.asleep;
      if (f < int(late * 60)) continue;
      out.inverted_late = std::max(out.inverted_late, s.inverted_tets);
      out.fastest_late = std::max(out.fastest_late, rms_speed(w, x));
    }
    if (asleep == int(bodies.size()) && out.asleep_at == INFINITY) out.asleep_at = f * kFrame;
  }
  sb_world_destroy(w);
  return out;
}

TEST_CASE("a pile of three bunnies in a bowl comes to rest and sleeps, few tets left inverted") {
  // Measured 2026-11-29 (5,538 tets each): the pile sleeps 6.1 s after the drop with 13, 11 and 2
  // tets inverted (the bowl's contact, solved after the single pass, folds a tet against it again each
  // substep). With the repair skipping whole bodies in contact (before 2026-11-29) this scene slept at
  // 5.0 s with 14 inverted: it does not tell the two apart, it bounds them; the page's pile, replayed
  // natively, did (Study above: 185-200 inverted and not asleep at 15 s before, ~120 and asleep at
  // 10.5 s after). Rest: asleep (2 cm/s root-mean-square for 0.5 s) within 8 s. Inverted: at most
  // 0.5 % of a bunny's tets (28); the issue asks for none, not met yet (docs/limitations.md).
  const BowlRun r = drop_in_bowl(bunny_tets(), 3, 8.0f, 4.0f);
  CHECK(r.asleep_at < 8.0);
  CHECK(r.inverted_late <= 28);
}
