// Collider contact with a per-frame candidate set (core/contact/collider_candidates.h): the same
// positions, bit for bit, as solve_collider's full test of every particle in every substep, for
// shells, solid meshes and analytic shapes, at rest and moving, with particles that follow their
// predicted paths and particles pushed far off them within the frame; and what it saves.
#include <doctest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <memory>
#include <vector>

#include "contact/collider.h"
#include "contact/collider_candidates.h"
#include "contact/mesh_shape.h"
#include "meshing/surface_cleanup.h"
#include "solver/world.h"
#include "shapes/shapes.h"
#include "surfaces.h"

using namespace sb;
using testing_surfaces::Soup;

namespace {

const float kFrame = 1.0f / 60.0f;  // s
const int kSubsteps = 10;

std::shared_ptr<const MeshShape> mesh_of(const Soup& soup, float thickness) {
  Surface s;
  CleanupReport report;
  int64_t at = 0;
  const SurfaceProblem problem =
      clean_surface(soup.positions.data(), soup.vertex_count(), soup.triangles.data(), soup.triangle_count(), s, report, at);
  REQUIRE((problem == SurfaceProblem::None || problem == SurfaceProblem::Flat));
  const bool closed = report.open_edges == 0 && report.closed_pieces == report.pieces && report.volume > 0.0;
  return std::make_shared<const MeshShape>(s.positions, s.triangles, closed, thickness);
}

uint32_t next_random(uint32_t& seed) {  // xorshift32
  seed ^= seed << 13;
  seed ^= seed >> 17;
  seed ^= seed << 5;
  return seed;
}
float uniform(uint32_t& seed, float lo, float hi) { return lo + (hi - lo) * float(next_random(seed) >> 8) / float(1u << 24); }

struct Outcome {
  uint32_t contacts = 0, frames_differing = 0;
  ColliderCandidateStats stats;  // summed over the frames
};

// Particles scattered about the collider at random velocities, a few frames of substeps in which
// each follows its velocity plus a little noise, and one in ten is pushed up to `jump` m off its
// path in some substep (a neighbour's constraint, a hit): both passes from the same states, compared
// bit for bit after every substep (positions and the contact record).
Outcome compare(const Collider& c, Vec3 lo, Vec3 hi, float speed, float jump, uint32_t seed) {
  const uint32_t n = 3000;
  std::vector<float> pos(3 * n), vel(3 * n), inv_mass(n, 1.0f);
  for (uint32_t i = 0; i < n; ++i) {
    store3(pos.data(), i, {uniform(seed, lo.x, hi.x), uniform(seed, lo.y, hi.y), uniform(seed, lo.z, hi.z)});
    store3(vel.data(), i, {uniform(seed, -speed, speed), uniform(seed, -speed, speed), uniform(seed, -speed, speed)});
    if (i % 97 == 0) inv_mass[i] = 0.0f;  // pinned: left alone by both
  }
  Outcome out;
  ColliderCandidates candidates;
  const float h = kFrame / float(kSubsteps);
  for (int frame = 0; frame < 3; ++frame) {
    candidates.begin_frame(pos.data(), vel.data(), inv_mass.data(), n, &c, 1, kFrame, kSubsteps);
    bool same = true;
    for (int sub = 0; sub < kSubsteps; ++sub) {
      const std::vector<float> prev = pos;
      for (uint32_t i = 0; i < n; ++i) {
        if (inv_mass[i] == 0.0f) continue;
        Vec3 x = load3(pos.data(), i) + load3(vel.data(), i) * h;
        x = x + Vec3{uniform(seed, -1e-3f, 1e-3f), uniform(seed, -1e-3f, 1e-3f), uniform(seed, -1e-3f, 1e-3f)};
        if (next_random(seed) % (10 * kSubsteps) == 0) x = x + Vec3{uniform(seed, -jump, jump), uniform(seed, -jump, jump), uniform(seed, -jump, jump)};
        store3(pos.data(), i, x);
      }
      std::vector<float> full = pos;
      std::vector<float> normal_a(3 * n, 0.0f), normal_b(3 * n, 0.0f), surface_a(3 * n, 0.0f), surface_b(3 * n, 0.0f);
      std::vector<float> restitution_a(n, -1.0f), restitution_b(n, -1.0f);
      ContactRecord ra{normal_a.data(), surface_a.data(), restitution_a.data()};
      ContactRecord rb{normal_b.data(), surface_b.data(), restitution_b.data()};
      const float t0 = float(sub) / kSubsteps, t1 = float(sub + 1) / kSubsteps;
      const uint32_t ca = candidates.solve(0, pos.data(), prev.data(), inv_mass.data(), n, c, t0, t1, h, &ra);
      const uint32_t cb = solve_collider(full.data(), prev.data(), inv_mass.data(), n, c, t0, t1, h, &rb);
      same = same && ca == cb && std::memcmp(pos.data(), full.data(), pos.size() * sizeof(float)) == 0 && normal_a == normal_b && surface_a == surface_b &&
             restitution_a == restitution_b && ra.max_depth == rb.max_depth;
      out.contacts += cb;
      pos = full;  // both continue from the full test's state
      // The velocity the next frame predicts from: this substep's motion (contacts included).
      for (uint32_t i = 0; i < 3 * n; ++i) vel[i] = inv_mass[i / 3] == 0.0f ? 0.0f : (pos[i] - prev[i]) / h;
    }
    out.frames_differing += same ? 0 : 1;
    const ColliderCandidateStats& s = candidates.stats();
    out.stats.particles += s.particles;
    out.stats.faces += s.faces;
    out.stats.fallbacks += s.fallbacks;
    out.stats.tested += s.tested;
  }
  return out;
}

}  // namespace

TEST_CASE("collider candidates: the same contacts, bit for bit, as testing every particle against the whole collider") {
  const auto bowl = mesh_of(testing_surfaces::bowl(1.0f, 24, 8), 0.06f);          // an open shell, 6 cm thick
  const auto ball = mesh_of(testing_surfaces::uv_sphere(0.5f, 24, 12), 0.0f);  // a solid
  REQUIRE(!bowl->closed());
  REQUIRE(ball->closed());
  struct Case {
    const char* name;
    Collider c;
  };
  std::vector<Case> cases;
  auto add = [&](const char* name, ShapeKind kind, const MeshShape* mesh, bool moving) {
    Collider c;
    c.kind = kind;
    c.mesh = mesh;
    c.size[0] = kind == ShapeKind::kBox ? 0.4f : 0.3f;
    c.size[1] = kind == ShapeKind::kBox ? 0.1f : 0.25f;
    c.size[2] = 0.3f;
    c.pose.position = {0.0f, 0.6f, 0.0f};
    c.previous = c.pose;
    if (moving) {  // a frame's sweep: 3 cm along x and 0.03 rad about a tilted axis (1.8 m/s, 1.8 rad/s)
      c.previous.position = {-0.03f, 0.6f, 0.0f};
      c.pose.rotation = axis_angle(Vec3{0.3f, 1.0f, 0.2f} * (1.0f / length(Vec3{0.3f, 1.0f, 0.2f})), 0.03f);
    }
    cases.push_back({name, c});
  };
  add("bowl at rest", ShapeKind::kMesh, bowl.get(), false);
  add("bowl moving", ShapeKind::kMesh, bowl.get(), true);
  add("solid ball at rest", ShapeKind::kMesh, ball.get(), false);
  add("solid ball moving", ShapeKind::kMesh, ball.get(), true);
  add("box moving", ShapeKind::kBox, nullptr, true);
  add("capsule at rest", ShapeKind::kCapsule, nullptr, false);
  add("sphere moving", ShapeKind::kSphere, nullptr, true);
  for (const Case& k : cases) {
    CAPTURE(std::string(k.name));
    // Slow particles (a pile settling: 0.5 m/s) and fast ones (3 m/s, 5 cm per frame), each with
    // one in ten pushed up to 10 cm off its path in some substep.
    for (const float speed : {0.5f, 3.0f}) {
      CAPTURE(speed);
      const Outcome o = compare(k.c, {-1.2f, -0.5f, -1.2f}, {1.2f, 1.3f, 1.2f}, speed, 0.1f, 7u);
      CHECK(o.frames_differing == 0);
      CHECK(o.contacts > 50);  // the scene has contacts to get right
      // Most particle substeps are skipped as clear (3 frames x 10 substeps x ~2,970 movable); a
      // moving collider's motion is taken off every clear radius (twice), so fewer are (the 1 m
      // bowl turning 0.03 rad moves its rim 3 cm: three quarters of its particles are tested).
      const bool moving = std::memcmp(&k.c.previous, &k.c.pose, sizeof(Pose)) != 0;
      CHECK(o.stats.tested < (moving ? 3u * kSubsteps * 3000u * 9u / 10u : 3u * kSubsteps * 3000u / 2u));
      if (k.c.kind == ShapeKind::kMesh) {
        CHECK(o.stats.particles > 0);
        CHECK(o.stats.fallbacks > 0);  // the pushed particles left their regions and took the full query
      }
    }
  }
}

TEST_CASE("collider candidates: a particle pushed off its predicted path late in the frame still meets a thin mesh wall") {
  // A 1 cm board (closed box mesh) at y in [0.5, 0.51]; the particle rests 5 cm above it at the
  // frame start (predicted path: none, so no candidate faces), then in the frame's last substep
  // something throws it 30 cm down, through the board. It must end on the board's top, as with the
  // full test, not below it.
  const auto board = mesh_of(testing_surfaces::box(1.0f, 0.01f, 1.0f), 0.0f);
  REQUIRE(board->closed());
  Collider c;
  c.kind = ShapeKind::kMesh;
  c.mesh = board.get();
  c.pose.position = {-0.5f, 0.5f, -0.5f};
  c.previous = c.pose;
  float pos[3] = {0.0f, 0.56f, 0.0f}, vel[3] = {0.0f, 0.0f, 0.0f};
  const float inv_mass[1] = {1.0f};
  ColliderCandidates candidates;
  candidates.begin_frame(pos, vel, inv_mass, 1, &c, 1, kFrame, kSubsteps);
  CHECK(candidates.stats().particles == 0);  // clear of the board for its predicted frame
  const float h = kFrame / kSubsteps;
  for (int sub = 0; sub < kSubsteps; ++sub) {
    const float prev[3] = {pos[0], pos[1], pos[2]};
    if (sub == kSubsteps - 1) pos[1] -= 0.3f;  // thrown through the board
    candidates.solve(0, pos, prev, inv_mass, 1, c, float(sub) / kSubsteps, float(sub + 1) / kSubsteps, h, nullptr);
  }
  CHECK(pos[1] == doctest::Approx(0.51f).epsilon(1e-4));
  CHECK(candidates.stats().fallbacks == 1);
}

TEST_CASE("collider candidates: a body resting in a mesh bowl tests a few faces per particle, not the tree, and the C API reports it") {
  // A 6 x 6 x 6-cell box settled in a shell bowl: its particles near the bowl get candidate faces
  // once per frame (a handful each), the others are skipped as clear in every substep.
  World w;
  const auto bowl = mesh_of(testing_surfaces::bowl(1.0f, 32, 10), 0.06f);
  Collider c;
  c.kind = ShapeKind::kMesh;
  c.mesh = bowl.get();
  c.size[0] = 0.06f;
  c.pose.position = {0.0f, 1.0f, 0.0f};
  w.add_collider(c, bowl);
  BodyParams p;
  p.edge_compliance = 1e-4f;
  p.damping = 1.0f;
  const BodyHandle b = w.add_body(make_box(6, 6, 6, 0.4f, 0.4f, 0.4f, 0.0f, 0.6f, 0.0f), p);
  for (int f = 0; f < 180; ++f) REQUIRE(w.step(kFrame, nullptr) == 0);
  const SoftBody& body = *w.body(b);
  CHECK(body.stats().min_y > 0.0);  // in the bowl, above its bottom (y = 0 less the half thickness)
  const ColliderCandidateStats& s = w.contact_report().colliders;
  CAPTURE(s.particles);
  CAPTURE(s.faces);
  CAPTURE(s.tested);
  CHECK(s.particles > 0);
  CHECK(s.particles < body.vertex_count() / 2);
  CHECK(s.faces <= 12 * s.particles);
  // At rest every particle stays within its region (a corner pressed into the curved wall by its
  // own tets moves 5 mm per substep without any velocity: the query's allowance must cover it).
  CHECK(s.fallbacks == 0);
  CHECK(s.tested <= kSubsteps * s.particles);
}
