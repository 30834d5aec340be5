// Self-collision (core/contact/body_contact.h): a body folded, coiled or squashed onto itself must not
// pass through its own surface. The measure is topological, so it needs no tolerance: after the scene
// settles, no surface edge may cross a surface triangle it does not share a vertex with. Each scene is
// also run without self-collision, to show the count would catch the failure (it is large there).
#include <doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "meshing/tetrahedralizer.h"
#include "shapes/shapes.h"
#include "softbody.h"
#include "solver/world.h"
#include "surfaces.h"

using namespace sb;

namespace {

const float kFrame = 1.0f / 60.0f;  // s

struct D3 {
  double x, y, z;
};
D3 d3(const float* p, uint32_t v) { return {p[3 * v], p[3 * v + 1], p[3 * v + 2]}; }
double orient(D3 a, D3 b, D3 c, D3 d) {
  const double bx = b.x - a.x, by = b.y - a.y, bz = b.z - a.z;
  const double cx = c.x - a.x, cy = c.y - a.y, cz = c.z - a.z;
  const double dx = d.x - a.x, dy = d.y - a.y, dz = d.z - a.z;
  return bx * (cy * dz - cz * dy) - by * (cx * dz - cz * dx) + bz * (cx * dy - cy * dx);
}

// Segments pq that properly cross triangles abc: p and q strictly on opposite sides of the plane and
// the line through them strictly inside the three edges (double precision; a touch does not count).
bool crosses(D3 p, D3 q, D3 a, D3 b, D3 c) {
  const double sp = orient(a, b, c, p), sq = orient(a, b, c, q);
  if (!((sp > 0 && sq < 0) || (sp < 0 && sq > 0))) return false;
  const double e0 = orient(p, q, a, b), e1 = orient(p, q, b, c), e2 = orient(p, q, c, a);
  return (e0 > 0 && e1 > 0 && e2 > 0) || (e0 < 0 && e1 < 0 && e2 < 0);
}

double rest_distance(const SoftBody& b, uint32_t v, const uint32_t* f) {
  // Vertex to triangle in the rest shape, sampled (enough to tell "a cell apart" from "touching").
  const float* r = b.rest_positions();
  double best = INFINITY;
  for (int i = 0; i <= 8; ++i)
    for (int j = 0; i + j <= 8; ++j) {
      const double u = i / 8.0, w = j / 8.0, t = 1 - u - w;
      double d2 = 0;
      for (int c = 0; c < 3; ++c) {
        const double q = t * r[3 * f[0] + c] + u * r[3 * f[1] + c] + w * r[3 * f[2] + c] - r[3 * v + c];
        d2 += q * q;
      }
      best = std::min(best, std::sqrt(d2));
    }
  return best;
}

struct Crossings {
  int far = 0;   // the edge and the triangle were apart in the rest shape: the surface passed through itself
  int near = 0;  // within the self-collision reach of each other at rest (a crease's own tets inverting)
};

// How many (surface edge, surface triangle sharing no vertex with it) pairs cross: 0 for a body whose
// surface does not pass through itself. Pairs that were within twice the self-collision thickness of
// each other in the rest shape are counted apart: self-collision never acts between them
// (body_contact.h), so their crossing would be a crease folding its own tets inside out, not one part
// of the surface passing through another. (Every scene here has none of those either.)
Crossings self_crossings(const SoftBody& b) {
  const double near_m = 2.0 * b.self_thickness();
  const uint32_t* tri = b.surface_triangles();
  const uint32_t nt = b.surface_triangle_count();
  const float* x = b.positions();
  std::vector<std::pair<uint32_t, uint32_t>> edges;
  for (uint32_t t = 0; t < nt; ++t)
    for (int k = 0; k < 3; ++k) {
      const uint32_t u = tri[3 * t + k], v = tri[3 * t + (k + 1) % 3];
      edges.push_back({std::min(u, v), std::max(u, v)});
    }
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  struct Box {
    float lo[3], hi[3];
  };
  std::vector<Box> boxes(nt);
  for (uint32_t t = 0; t < nt; ++t)
    for (int c = 0; c < 3; ++c) {
      const float a = x[3 * tri[3 * t] + c], bb = x[3 * tri[3 * t + 1] + c], d = x[3 * tri[3 * t + 2] + c];
      boxes[t].lo[c] = std::min({a, bb, d});
      boxes[t].hi[c] = std::max({a, bb, d});
    }
  Crossings count;
  for (const auto& e : edges) {
    float lo[3], hi[3];
    for (int c = 0; c < 3; ++c) {
      lo[c] = std::min(x[3 * e.first + c], x[3 * e.second + c]);
      hi[c] = std::max(x[3 * e.first + c], x[3 * e.second + c]);
    }
    for (uint32_t t = 0; t < nt; ++t) {
      const Box& bx = boxes[t];
      if (hi[0] < bx.lo[0] || lo[0] > bx.hi[0] || hi[1] < bx.lo[1] || lo[1] > bx.hi[1] || hi[2] < bx.lo[2] || lo[2] > bx.hi[2])
        continue;
      const uint32_t* f = tri + 3 * t;
      if (f[0] == e.first || f[1] == e.first || f[2] == e.first || f[0] == e.second || f[1] == e.second || f[2] == e.second)
        continue;
      const bool c = crosses(d3(x, e.first), d3(x, e.second), d3(x, f[0]), d3(x, f[1]), d3(x, f[2]));
      if (!c) continue;
      if (std::min(rest_distance(b, e.first, f), rest_distance(b, e.second, f)) < near_m) ++count.near;
      else {
        ++count.far;
      }
    }
  }
  return count;
}

// A hairpin: two soft arms 0.9 m long, 0.1 m thick, one above the other with a 0.1 m slot between
// them, joined at x < 0.1 m (a 1.0 x 0.3 x 0.1 m lattice of 5 cm cells with the slot's tets removed),
// lying on the ground. The upper arm is a cantilever soft enough to sag far more than the slot, so it
// comes down onto the lower arm and must rest on it.
Crossings hairpin(bool self, float* upper_tip_y) {
  TetMesh box = make_box(20, 6, 2, 1.0f, 0.3f, 0.1f, 0.5f, 0.15f, 0.0f);
  TetMesh mesh;
  std::vector<int64_t> remap(box.positions.size() / 3, -1);
  for (size_t t = 0; t < box.tets.size(); t += 4) {
    float cx = 0, cy = 0;
    for (int k = 0; k < 4; ++k) {
      cx += 0.25f * box.positions[3 * box.tets[t + k]];
      cy += 0.25f * box.positions[3 * box.tets[t + k] + 1];
    }
    if (cx > 0.1f && cy > 0.1f && cy < 0.2f) continue;  // the slot
    for (int k = 0; k < 4; ++k) {
      const uint32_t v = box.tets[t + k];
      if (remap[v] < 0) {
        remap[v] = int64_t(mesh.positions.size() / 3);
        mesh.positions.insert(mesh.positions.end(), box.positions.begin() + 3 * v, box.positions.begin() + 3 * v + 3);
      }
      mesh.tets.push_back(uint32_t(remap[v]));
    }
  }
  World w;
  BodyParams p;
  p.edge_compliance = 2e-3f;
  p.damping = 2.0f;
  SoftBody& b = *w.body(w.add_body(mesh, p));
  b.set_self_collision(self, 0.005f);
  for (int f = 0; f < 180; ++f) w.step(kFrame, nullptr);
  REQUIRE(b.stats().finite);
  // The upper arm's tip: the lowest vertex at x = 1 m that was on the upper arm (rest y >= 0.2 m).
  *upper_tip_y = INFINITY;
  for (uint32_t i = 0; i < b.vertex_count(); ++i)
    if (b.rest_positions()[3 * i] > 0.99f && b.rest_positions()[3 * i + 1] > 0.19f)
      *upper_tip_y = std::min(*upper_tip_y, b.positions()[3 * i + 1]);
  const Crossings cr = self_crossings(b);
  MESSAGE("hairpin, self-collision " << std::string(self ? "on" : "off") << ": " << cr.far << " crossings (" << cr.near
          << " within a crease), upper arm's tip at y = " << *upper_tip_y << " m");
  return cr;
}

// A soft bar (1.2 x 0.1 x 0.1 m, 2.5 cm cells) lying on the ground with its far end pinned: the
// other end is picked up, carried over along an arc and held 0.22 m above x = -0.45 m, so the bar
// folds in two and its upper half lies on its lower half.
Crossings fold_bar(bool self) {
  World w;
  BodyParams p;
  p.edge_compliance = 5e-4f;
  p.damping = 1.0f;
  SoftBody& b = *w.body(w.add_body(make_box(48, 4, 4, 1.2f, 0.1f, 0.1f, 0.0f, 0.05f, 0.0f), p));
  b.set_self_collision(self, 0.01f);
  for (uint32_t i = 0; i < b.vertex_count(); ++i)
    if (b.rest_positions()[3 * i] < -0.55f) b.set_pinned(i, true);
  const float end[3] = {0.6f, 0.1f, 0.0f};
  b.grab_begin(b.nearest_vertex(end), end);
  // The arc never comes below 0.32 m until its end: a kinematic grab pressed into the bar would push
  // it through whatever the contact does.
  for (int f = 0; f <= 90; ++f) {
    const float a = 3.14159265f * float(f) / 90.0f;
    const float target[3] = {0.075f + 0.525f * std::cos(a), 0.1f + 0.22f * a / 3.14159265f + 0.4f * std::sin(a), 0.0f};
    b.grab_move(target);
    w.step(kFrame, nullptr);
  }
  for (int f = 0; f < 160; ++f) {  // lowered to 0.22 m and held while the upper half settles
    const float target[3] = {-0.45f, 0.22f + 0.1f * std::max(0.0f, 1.0f - float(f) / 40.0f), 0.0f};
    b.grab_move(target);
    w.step(kFrame, nullptr);
  }
  REQUIRE(b.stats().finite);
  const Crossings cr = self_crossings(b);
  MESSAGE("folded bar, self-collision " << std::string(self ? "on" : "off") << ": " << cr.far << " crossings (" << cr.near << " within a crease)");
  return cr;
}

// A torus (ring radius 0.3 m, tube radius 0.1 m, tetrahedralized at 16 cells) standing on its rim,
// pressed by a box collider coming down at 0.5 m/s to 0.3 m above the ground (less than the two tubes'
// 0.4 m, so the hole closes and its top wall is pressed onto its bottom wall), and held there.
Crossings squash_torus(bool self) {
  const testing_surfaces::Soup soup = testing_surfaces::torus(0.3f, 0.1f, 48, 16);
  TetraOptions o;
  o.resolution = 16;
  Tetrahedralizer t(soup.positions.data(), soup.vertex_count(), soup.triangles.data(), soup.triangle_count(), o);
  REQUIRE(t.problem() == SurfaceProblem::None);
  while (t.run(1 << 20) == TetraStatus::Working) {
  }
  TetMesh mesh;
  mesh.positions = t.positions();
  mesh.tets = t.tets();
  for (size_t i = 0; i < mesh.positions.size(); i += 3) {  // stand it up: (x, y, z) -> (x, z + 0.4, -y)
    const float y = mesh.positions[i + 1], z = mesh.positions[i + 2];
    mesh.positions[i + 1] = z + 0.401f;
    mesh.positions[i + 2] = -y;
  }
  World w;
  BodyParams p;
  p.edge_compliance = 1e-3f;
  p.volume_compliance = 0.0f;
  p.damping = 2.0f;
  p.friction = 0.8f;
  SoftBody& b = *w.body(w.add_body(mesh, p));
  b.set_self_collision(self, 0.005f);
  Collider plate;
  plate.kind = ShapeKind::kBox;
  plate.size[0] = 1.0f;
  plate.size[1] = 0.05f;
  plate.size[2] = 1.0f;
  plate.pose.position = Vec3{0.0f, 0.86f, 0.0f};
  const ColliderHandle c = w.add_collider(plate, nullptr);
  float bottom = 0.81f;  // m, the plate's underside
  for (int f = 0; f < 240; ++f) {
    bottom = std::max(0.3f, bottom - 0.25f * kFrame);
    Pose pose;
    pose.position = Vec3{0.0f, bottom + 0.05f, 0.0f};
    w.set_collider_pose(c, pose, false);
    w.step(kFrame, nullptr);
  }
  REQUIRE(b.stats().finite);
  const Crossings cr = self_crossings(b);
  MESSAGE("squashed torus, self-collision " << std::string(self ? "on" : "off") << ": " << cr.far << " crossings ("
          << cr.near << " within a crease)");
  return cr;
}

// A rope coil: a 4 cm square rod (2 x 2 cells across) wound three turns round a helix of radius
// 0.2 m with 6 cm pitch (2 cm between turns), soft enough that it cannot carry its own weight, dropped
// from 5 cm: the turns settle onto each other.
Crossings drop_coil(bool self) {
  const float radius = 0.2f, pitch = 0.06f, side = 0.04f;  // m
  const int turns = 3;
  const float length = 2.0f * 3.14159265f * radius * turns;
  TetMesh mesh = make_box(188, 2, 2, length, side, side, 0.5f * length, 0.0f, 0.0f);
  for (size_t i = 0; i < mesh.positions.size(); i += 3) {
    const float u = mesh.positions[i], v = mesh.positions[i + 1], w = mesh.positions[i + 2];
    const float angle = u / radius;  // rad
    mesh.positions[i] = (radius + w) * std::cos(angle);
    mesh.positions[i + 1] = 0.05f + 0.5f * side + v + pitch * angle / (2.0f * 3.14159265f);
    mesh.positions[i + 2] = (radius + w) * std::sin(angle);
  }
  // The map may mirror the lattice: keep every tet positively oriented.
  for (size_t t = 0; t < mesh.tets.size(); t += 4)
    if (tet_volume6(mesh.positions.data(), mesh.tets.data() + t) < 0.0f) std::swap(mesh.tets[t], mesh.tets[t + 1]);
  World w;
  BodyParams p;
  p.edge_compliance = 1e-2f;
  p.damping = 1.0f;
  SoftBody& b = *w.body(w.add_body(mesh, p));
  b.set_self_collision(self, 0.008f);
  for (int f = 0; f < 180; ++f) {
    w.step(kFrame, nullptr);
  }
  REQUIRE(b.stats().finite);
  const Crossings cr = self_crossings(b);
  float top = -INFINITY;
  for (uint32_t i = 0; i < b.vertex_count(); ++i) top = std::max(top, b.positions()[3 * i + 1]);
  MESSAGE("rope coil, self-collision " << std::string(self ? "on" : "off") << ": " << cr.far << " crossings (" << cr.near
          << " within a crease), top at " << top << " m");
  return cr;
}

}  // namespace

TEST_CASE("self-collision: the sagging arm of a soft hairpin rests on the other arm instead of passing through it") {
  float tip_without = 0, tip_with = 0;
  const Crossings without = hairpin(false, &tip_without);
  const Crossings with = hairpin(true, &tip_with);
  // Without self-collision the arm sinks into the lower one (whose top is at 0.1 m): the count sees it.
  CHECK(tip_without < 0.07f);
  CHECK(without.far > 10);
  // With it, no crossing, and the tip rests on the lower arm: above its top (0.1 m, less the few
  // millimetres the lower arm is compressed) and below where it started (0.2 m).
  CHECK(with.far == 0);
  CHECK(tip_with > 0.09f);
  CHECK(tip_with < 0.15f);
}

TEST_CASE("self-collision: a soft bar folded in two does not pass through itself") {
  const Crossings without = fold_bar(false);
  const Crossings with = fold_bar(true);
  CHECK(without.far > 10);
  CHECK(with.far == 0);
}

TEST_CASE("self-collision: a torus squashed flat does not pass through itself") {
  const Crossings without = squash_torus(false);
  const Crossings with = squash_torus(true);
  CHECK(without.far > 10);
  CHECK(with.far == 0);
}

TEST_CASE("self-collision: a soft rope coil settling onto itself does not pass through itself") {
  const Crossings without = drop_coil(false);
  const Crossings with = drop_coil(true);
  CHECK(without.far > 10);
  CHECK(with.far == 0);
}

TEST_CASE("self-collision does nothing to a body that does not meet itself: a ball rests identically with it on and off") {
  // Its surface's neighbourhoods are excluded and nothing else comes near: not one self contact, so
  // the two runs agree to the byte (the world only changes how it orders the same calls).
  std::vector<float> positions[2];
  for (int run = 0; run < 2; ++run) {
    World w;
    BodyParams p;
    p.edge_compliance = 1e-4f;
    SoftBody& b = *w.body(w.add_body(make_ball(0.3f, 8, 0.0f, 0.5f, 0.0f), p));
    b.set_self_collision(run == 1, 0.01f);
    for (int f = 0; f < 120; ++f) w.step(kFrame, nullptr);
    positions[run].assign(b.positions(), b.positions() + 3 * b.vertex_count());
  }
  CHECK(std::memcmp(positions[0].data(), positions[1].data(), positions[0].size() * sizeof(float)) == 0);
}

TEST_CASE("C API: self-collision is switched, read back and validated; a refused call changes nothing") {
  sb_world w = sb_world_create();
  sb_body b = sb_body_create_box(w, 4, 4, 4, 0.4f, 0.4f, 0.4f, 0.0f, 0.5f, 0.0f);
  REQUIRE(b > 0);
  int32_t enabled = -1;
  float thickness = -1.0f;
  REQUIRE(sb_body_get_self_collision(w, b, &enabled, &thickness) == SB_OK);
  CHECK(enabled == 0);  // off by default
  CHECK(thickness == doctest::Approx(0.005f));
  CHECK(sb_body_set_self_collision(w, b, 1, 0.02f) == SB_OK);
  REQUIRE(sb_body_get_self_collision(w, b, &enabled, &thickness) == SB_OK);
  CHECK(enabled == 1);
  CHECK(thickness == 0.02f);
  // Each refusal names its cause and leaves the setting as it was.
  CHECK(sb_body_set_self_collision(w, b, 2, 0.01f) == SB_ERR_OUT_OF_RANGE);
  CHECK(std::string(sb_last_error()).find("enabled") != std::string::npos);
  CHECK(sb_body_set_self_collision(w, b, 0, NAN) == SB_ERR_NOT_FINITE);
  CHECK(sb_body_set_self_collision(w, b, 0, -0.01f) == SB_ERR_OUT_OF_RANGE);
  CHECK(sb_body_set_self_collision(w, b, 0, 0.0f) == SB_ERR_OUT_OF_RANGE);
  CHECK(sb_body_set_self_collision(w, b, 0, 2.0f) == SB_ERR_OUT_OF_RANGE);
  CHECK(std::string(sb_last_error()).find("thickness") != std::string::npos);
  CHECK(sb_body_set_self_collision(w, 99999, 1, 0.01f) == SB_ERR_INVALID_BODY);
  CHECK(sb_body_set_self_collision(w + 1000, b, 1, 0.01f) == SB_ERR_INVALID_WORLD);
  CHECK(sb_body_get_self_collision(w, b, nullptr, &thickness) == SB_ERR_NULL_POINTER);
  CHECK(sb_body_get_self_collision(w, b, &enabled, nullptr) == SB_ERR_NULL_POINTER);
  REQUIRE(sb_body_get_self_collision(w, b, &enabled, &thickness) == SB_OK);
  CHECK(enabled == 1);
  CHECK(thickness == 0.02f);
  // A world stepping a self-colliding body stays finite and at rest on the ground, and reports what
  // its contact phases found (a resting box has candidates, its neighbours beyond the exclusion,
  // and no self contact).
  for (int f = 0; f < 120; ++f) REQUIRE(sb_world_step(w, kFrame) == SB_OK);
  sb_world_contact_stats cs;
  REQUIRE(sb_world_get_contact_stats(w, &cs) == SB_OK);
  CHECK(cs.contacts == 0);
  CHECK(cs.gather_ms >= 0.0f);
  CHECK(cs.solve_ms >= 0.0f);
  CHECK(sb_world_get_contact_stats(w, nullptr) == SB_ERR_NULL_POINTER);
  CHECK(sb_world_get_contact_stats(w + 1000, &cs) == SB_ERR_INVALID_WORLD);
  sb_body_stats st;
  REQUIRE(sb_body_get_stats(w, b, &st) == SB_OK);
  CHECK(st.finite == 1);
  CHECK(std::fabs(st.min_y) < 1e-3f);  // resting on the ground (within the ground's millimetre)
  sb_world_destroy(w);
}
