// Collider geometry and contact projection (core/collider.h): exact distances on every shape, normals
// that are the distance's gradient, particles put on the surface, Coulomb friction, and a moving
// collider carrying what rests on it.
#include <doctest.h>

#include <cmath>
#include <string>
#include <random>
#include <vector>

#include "contact/collider.h"

using namespace sb;

namespace {

Collider make(ShapeKind kind, float a, float b = 0.0f, float c = 0.0f) {
  Collider col;
  col.kind = kind;
  col.size[0] = a;
  col.size[1] = b;
  col.size[2] = c;
  return col;
}

float sd(const Collider& c, Vec3 p) {
  Vec3 n;
  return signed_distance(c, c.pose, p, &n);
}

// Random points in a cube of half size s about the origin.
std::vector<Vec3> random_points(int n, float s, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-s, s);
  std::vector<Vec3> out;
  for (int i = 0; i < n; ++i) out.push_back({u(rng), u(rng), u(rng)});
  return out;
}

}  // namespace

TEST_CASE("collider distances are exact on every shape, rotated and moved") {
  // Plane tilted 30 degrees about z, through (1, 2, 3): its normal is (-sin 30, cos 30, 0).
  Collider plane = make(ShapeKind::kPlane, 0);
  plane.pose.position = {1, 2, 3};
  plane.pose.rotation = axis_angle({0, 0, 1}, float(M_PI / 6));
  Vec3 n;
  CHECK(signed_distance(plane, plane.pose, {1, 3, 3}, &n) == doctest::Approx(std::cos(M_PI / 6)).epsilon(1e-6));
  CHECK(n.x == doctest::Approx(-0.5).epsilon(1e-6));
  CHECK(n.y == doctest::Approx(std::cos(M_PI / 6)).epsilon(1e-6));

  Collider sphere = make(ShapeKind::kSphere, 0.5f);
  sphere.pose.position = {0, 1, 0};
  CHECK(sd(sphere, {1, 1, 0}) == doctest::Approx(0.5));
  CHECK(sd(sphere, {0, 1.2f, 0}) == doctest::Approx(-0.3));

  // Box 1 x 0.5 x 2 m, turned 90 degrees about y: its local x runs along world -z.
  Collider box = make(ShapeKind::kBox, 0.5f, 0.25f, 1.0f);
  box.pose.rotation = axis_angle({0, 1, 0}, float(M_PI / 2));
  CHECK(sd(box, {0, 0, 0.8f}) == doctest::Approx(0.3).epsilon(1e-5));   // beyond the local-x face
  CHECK(sd(box, {1.2f, 0, 0}) == doctest::Approx(0.2).epsilon(1e-5));   // beyond the local-z face
  CHECK(sd(box, {0, 0.1f, 0}) == doctest::Approx(-0.15).epsilon(1e-5)); // inside, nearest the top
  // Outside a corner: the distance to the corner point (0.5, 0.25, 1) in local coordinates.
  const Vec3 corner = to_world(box.pose, {0.5f, 0.25f, 1.0f});
  const Vec3 out = to_world(box.pose, {0.8f, 0.65f, 1.0f + 1.2f});
  CHECK(sd(box, out) == doctest::Approx(length(out - corner)).epsilon(1e-5));

  // Capsule of radius 0.2 and half length 0.5, lying along world x (local y turned onto x).
  Collider capsule = make(ShapeKind::kCapsule, 0.2f, 0.5f);
  capsule.pose.rotation = axis_angle({0, 0, 1}, float(-M_PI / 2));
  CHECK(sd(capsule, {0.3f, 0.5f, 0}) == doctest::Approx(0.3).epsilon(1e-5));  // beside the segment
  CHECK(sd(capsule, {1.0f, 0, 0}) == doctest::Approx(0.3).epsilon(1e-5));     // beyond the end cap
  CHECK(sd(capsule, {0, 0.05f, 0}) == doctest::Approx(-0.15).epsilon(1e-5));  // inside
}

TEST_CASE("the normal is the gradient of the distance, and has unit length") {
  // Central differences of the distance against the returned normal at random points away from the
  // medial axis (where the gradient jumps): |grad - n| < 1e-3 with h = 1e-3 m in float32 (rounding
  // error ~ 1e-7 / 1e-3, curvature error ~ h / radius).
  Collider shapes[3] = {make(ShapeKind::kSphere, 0.4f), make(ShapeKind::kBox, 0.5f, 0.3f, 0.2f), make(ShapeKind::kCapsule, 0.25f, 0.4f)};
  shapes[1].pose.rotation = axis_angle({0.6f, 0.8f, 0}, 0.7f);
  shapes[2].pose.rotation = axis_angle({0, 0.6f, 0.8f}, 1.1f);
  const float h = 1e-3f;
  int checked = 0;
  for (const Collider& c : shapes) {
    for (Vec3 p : random_points(400, 1.2f, 7)) {
      Vec3 n;
      const float d = signed_distance(c, c.pose, p, &n);
      if (std::fabs(d) < 0.02f) continue;
      const Vec3 g{(sd(c, {p.x + h, p.y, p.z}) - sd(c, {p.x - h, p.y, p.z})) / (2 * h),
                   (sd(c, {p.x, p.y + h, p.z}) - sd(c, {p.x, p.y - h, p.z})) / (2 * h),
                   (sd(c, {p.x, p.y, p.z + h}) - sd(c, {p.x, p.y, p.z - h})) / (2 * h)};
      if (std::fabs(length(g) - 1.0f) > 0.01f) continue;  // on the medial axis: no gradient to match
      CHECK(length(n) == doctest::Approx(1.0).epsilon(1e-5));
      CHECK(length(g - n) < 1e-3f);
      ++checked;
    }
  }
  CHECK(checked > 600);
}

TEST_CASE("particles inside a collider end on its surface; those outside are left alone") {
  Collider box = make(ShapeKind::kBox, 0.5f, 0.3f, 0.4f);
  box.pose.position = {0.1f, 0.5f, -0.2f};
  box.pose.rotation = axis_angle({0, 0.8f, 0.6f}, 0.5f);
  box.previous = box.pose;
  box.friction = 0.0f;
  std::vector<Vec3> points = random_points(2000, 1.0f, 3);
  std::vector<float> pos, inv_mass(points.size(), 1.0f);
  for (Vec3 p : points) pos.insert(pos.end(), {p.x + 0.1f, p.y + 0.5f, p.z - 0.2f});
  const std::vector<float> prev = pos;  // no motion in this substep: friction has nothing to undo
  const uint32_t inside = solve_collider(pos.data(), prev.data(), inv_mass.data(), uint32_t(points.size()), box, 0.0f, 1.0f, 1.0f / 600.0f, nullptr);
  CHECK(inside > 100);
  for (size_t i = 0; i < points.size(); ++i) {
    const Vec3 before = load3(prev.data(), unsigned(i));
    const Vec3 after = load3(pos.data(), unsigned(i));
    if (sd(box, before) >= 0.0f) {
      CHECK(length(after - before) == 0.0f);
    } else {
      CHECK(std::fabs(sd(box, after)) < 2e-6f);  // on the surface, to float32 rounding of ~1 m
    }
  }
}

TEST_CASE("Coulomb friction: sticking inside the cone, sliding outside it") {
  Collider floor = make(ShapeKind::kPlane, 0);
  floor.previous = floor.pose;
  floor.friction = 0.5f;
  const float inv_mass[1] = {1.0f};
  // Penetration 1 cm: the friction limit is 0.5 cm of tangential travel in this substep.
  float prev[3] = {0, 0, 0};
  float stick[3] = {0.004f, -0.01f, 0};
  solve_collider(stick, prev, inv_mass, 1, floor, 0, 1, 1.0f / 600.0f, nullptr);
  CHECK(stick[0] == doctest::Approx(0.0).epsilon(1e-7));
  CHECK(stick[1] == doctest::Approx(0.0).epsilon(1e-7));
  float slide[3] = {0.02f, -0.01f, 0};
  solve_collider(slide, prev, inv_mass, 1, floor, 0, 1, 1.0f / 600.0f, nullptr);
  CHECK(slide[0] == doctest::Approx(0.015).epsilon(1e-6));  // 2 cm of travel, 0.5 cm taken by friction
  CHECK(slide[1] == doctest::Approx(0.0).epsilon(1e-7));
  // Pinned or grabbed particles (inverse mass 0) are never moved.
  const float pinned[1] = {0.0f};
  float held[3] = {0.0f, -0.5f, 0.0f};
  CHECK(solve_collider(held, prev, pinned, 1, floor, 0, 1, 1.0f / 600.0f, nullptr) == 0);
  CHECK(held[1] == -0.5f);
}

TEST_CASE("friction is measured against the moving surface: a box carries what moves with it") {
  // The box's top (y = 0) moves 1 cm along +x per substep (0.6 m/s at 60 frames of 10 substeps).
  // A particle already riding along (1 cm per substep) sinks 1 mm per substep and is put back on
  // the top: relative to the surface it has not moved, so static friction keeps it exactly with the
  // box. (Measured against a fixed floor, its 1 cm of travel would exceed the 0.4 mm that friction
  // allows and it would be dragged back every substep.) A particle at rest on a frictionless box
  // stays where it is while the box slides away under it.
  for (float mu : {0.4f, 0.0f}) {
    Collider box = make(ShapeKind::kBox, 1.0f, 0.5f, 1.0f);
    box.previous.position = {0.0f, -0.5f, 0.0f};
    box.pose.position = {0.1f, -0.5f, 0.0f};  // 10 substeps of 1 cm
    box.friction = mu;
    const float inv_mass[1] = {1.0f};
    float x[3] = {0.0f, 0.0f, 0.0f};
    float v = mu > 0.0f ? 0.01f : 0.0f;  // m per substep along x
    for (int s = 0; s < 10; ++s) {
      const float prev[3] = {x[0], x[1], x[2]};
      x[0] += v;
      x[1] -= 0.001f;  // the substep's predicted fall
      solve_collider(x, prev, inv_mass, 1, box, s / 10.0f, (s + 1) / 10.0f, 1.0f / 600.0f, nullptr);
      CHECK(x[1] == doctest::Approx(0.0).epsilon(1e-6));
      v = x[0] - prev[0];
    }
    if (mu > 0.0f) {
      CHECK(x[0] == doctest::Approx(0.1).epsilon(1e-5));  // carried the whole 10 cm
    } else {
      CHECK(std::fabs(x[0]) < 1e-6f);
    }
  }
}

// ---- colliders in the world: whole bodies against obstacles -----------------------------------

#include "shapes/shapes.h"
#include "solver/world.h"

namespace {

const float kFrame = 1.0f / 60.0f;  // s

// The deepest any particle of b sits inside c, m (0 when none is inside).
float deepest(const SoftBody& b, const Collider& c) {
  float worst = 0.0f;
  Vec3 n;
  for (uint32_t i = 0; i < b.vertex_count(); ++i) worst = std::min(worst, signed_distance(c, c.pose, load3(b.positions(), i), &n));
  return -worst;
}

Vec3 centre_of(const SoftBody& b) {
  Vec3 sum{0, 0, 0};
  for (uint32_t i = 0; i < b.vertex_count(); ++i) sum = sum + load3(b.positions(), i);
  return sum * (1.0f / float(b.vertex_count()));
}

}  // namespace

TEST_CASE("a soft box dropped on a sphere comes to rest on it, never inside, under XPBD and semi-implicit Euler") {
  for (Solver solver : {Solver::Xpbd, Solver::SemiImplicitEuler}) {
    World w;
    w.settings.ground = false;
    Collider sphere = make(ShapeKind::kSphere, 0.5f);
    sphere.pose.position = {0, 0, 0};
    const ColliderHandle h = w.add_collider(sphere);
    BodyParams p;
    p.edge_compliance = 1e-4f;  // k = 10^4 N/m: soft enough for the force-based solver at 10 substeps
    p.volume_compliance = solver == Solver::Xpbd ? 0.0f : 1e-6f;
    p.damping = 2.0f;
    SoftBody* b = w.body(w.add_body(make_box(4, 4, 4, 0.6f, 0.6f, 0.6f, 0, 1.0f, 0), p));
    REQUIRE(b->set_solver(solver));
    float worst = 0.0f;
    for (int f = 0; f < 180; ++f) {
      w.step(kFrame, nullptr);
      worst = std::max(worst, deepest(*b, *w.collider(h)));
    }
    // Particles are put back on the surface every substep; what is left at a frame's end is at
    // most one substep's motion at rest speeds (<< 1 mm). 2 mm allows for the pile-up on impact.
    CHECK(worst < 2e-3f);
    // At rest on top: above the sphere's centre, balanced over it, and still.
    const Vec3 c = centre_of(*b);
    CHECK(c.y > 0.5f);
    CHECK(std::fabs(c.x) < 0.05f);
    CHECK(std::fabs(c.z) < 0.05f);
    float vmax = 0.0f;
    for (uint32_t i = 0; i < b->vertex_count(); ++i) vmax = std::max(vmax, length(load3(b->velocities(), i)));
    CHECK(vmax < 0.2f);
  }
}

TEST_CASE("on a slope, a box sticks below the friction angle and slides with g (sin - mu cos) above it") {
  // A plane tilted 30 degrees about z (tan 30 = 0.577). With mu = 0.8 the box must stay put; with
  // mu = 0.2 it slides down the slope with a = g (sin 30 - 0.2 cos 30) = 3.204 m/s^2, s = a t^2 / 2.
  // The box is nearly rigid (compliance 1e-6 m/N) so its sliding is that of a block. Measured:
  // 1.6066 m against 1.6029 m (0.2 %); 3 % leaves room for the first frames, where the body
  // settles onto the slope, and for position-level friction's first-order error in h.
  const float angle = float(M_PI / 6);
  const Vec3 down_slope{-std::cos(angle), -std::sin(angle), 0.0f};
  for (float mu : {0.8f, 0.2f}) {
    World w;
    w.settings.ground = false;
    Collider slope = make(ShapeKind::kPlane, 0);
    slope.pose.rotation = axis_angle({0, 0, 1}, angle);
    slope.friction = mu;
    w.add_collider(slope);
    BodyParams p;
    p.edge_compliance = 1e-6f;
    // The box's bottom face rests on the slope: rotated like it, 0.2 m thick, its centre 0.101 m above.
    TetMesh mesh = make_box(4, 2, 4, 0.4f, 0.2f, 0.4f, 0, 0, 0);
    const Vec3 up = rotate(slope.pose.rotation, {0, 0.101f, 0});
    for (size_t i = 0; i < mesh.positions.size() / 3; ++i) {
      const Vec3 q = rotate(slope.pose.rotation, load3(mesh.positions.data(), unsigned(i))) + up;
      store3(mesh.positions.data(), unsigned(i), q);
    }
    SoftBody* b = w.body(w.add_body(mesh, p));
    const Vec3 start = centre_of(*b);
    for (int f = 0; f < 60; ++f) w.step(kFrame, nullptr);
    const float travelled = dot(centre_of(*b) - start, down_slope);
    if (mu > 0.6f) {
      CHECK(std::fabs(travelled) < 0.01f);
    } else {
      const float expected = 0.5f * 9.81f * (std::sin(angle) - mu * std::cos(angle));  // after 1 s
      // .scale(0): doctest's epsilon is then a fraction of the larger side alone; by default it adds an
      // absolute epsilon too, which swamps quantities well below 1 (m, m^3).
      CHECK(travelled == doctest::Approx(expected).epsilon(0.03).scale(0));
    }
  }
}

TEST_CASE("a paddle moving at 10 m/s hits a body without tunnelling through it and throws it") {
  // A 0.1 m thick paddle sweeps along +x at 10 m/s (1.7 cm per substep at 10 substeps) into a resting
  // box. No particle may be left inside it at a frame's end (the sweep is followed substep by
  // substep). The box leaves in the paddle's direction faster than half the paddle's speed and
  // slower than twice it (the limit of a perfectly elastic hit by an infinitely heavy paddle; the
  // contact's restitution is 0.2, the body's own elasticity adds to the rebound: measured 15.2 m/s).
  World w;
  Collider paddle = make(ShapeKind::kBox, 0.05f, 0.3f, 0.4f);
  paddle.pose.position = {-0.5f, 0.3f, 0.0f};
  const ColliderHandle h = w.add_collider(paddle);
  BodyParams p;
  p.edge_compliance = 1e-5f;
  p.friction = 0.0f;
  SoftBody* b = w.body(w.add_body(make_box(3, 3, 3, 0.3f, 0.3f, 0.3f, 0.0f, 0.15f, 0.0f), p));
  for (int f = 0; f < 20; ++f) w.step(kFrame, nullptr);  // settle on the ground
  float worst = 0.0f;
  for (int f = 0; f < 12; ++f) {
    Pose next = w.collider(h)->pose;
    next.position.x += 10.0f * kFrame;
    w.set_collider_pose(h, next, false);
    w.step(kFrame, nullptr);
    worst = std::max(worst, deepest(*b, *w.collider(h)));
  }
  CHECK(worst < 1e-3f);
  float vx = 0.0f;
  for (uint32_t i = 0; i < b->vertex_count(); ++i) vx += b->velocities()[3 * i];
  vx /= float(b->vertex_count());
  CHECK(vx > 5.0f);
  CHECK(vx < 20.0f);
  CHECK(centre_of(*b).x > 0.5f);
}

TEST_CASE("continuous detection: a ball at 30 m/s does not pass through a 1 cm board") {
  // At 10 substeps of 1/600 s the ball's particles move 5 cm per substep, five times the board's
  // thickness: tested only at substep ends, most would jump from above the board to below it.
  // Traced along their paths they stop on its top. Without continuous detection the ball falls
  // through (the check on the lowest particle fails by metres).
  World w;
  w.settings.ground = false;
  Collider board = make(ShapeKind::kBox, 1.0f, 0.005f, 1.0f);  // 2 m x 1 cm x 2 m, top at y = 0
  board.pose.position = {0.0f, -0.005f, 0.0f};
  const ColliderHandle h = w.add_collider(board);
  BodyParams p;
  p.edge_compliance = 1e-4f;
  SoftBody* b = w.body(w.add_body(make_ball(0.25f, 5, 0, 0.5f, 0), p));
  for (uint32_t i = 0; i < b->vertex_count(); ++i) b->velocities()[3 * i + 1] = -30.0f;  // m/s
  float lowest = 1.0f, worst = 0.0f;
  for (int f = 0; f < 60; ++f) {
    REQUIRE(w.step(kFrame, nullptr) == 0);
    lowest = std::min(lowest, float(b->stats().min_y));
    worst = std::max(worst, deepest(*b, *w.collider(h)));
  }
  // Every particle ends every frame on or above the board's top: 2 mm allows the last substep's
  // constraint pushes at the impact, far below the 1 cm that would put a particle inside.
  CHECK(lowest > -2e-3f);
  CHECK(worst < 2e-3f);
  CHECK(centre_of(*b).y > 0.1f);  // it is still above the board
}

TEST_CASE("continuous detection: a 5 mm paddle at 10 m/s sweeps a body along instead of passing it") {
  // The paddle moves 1.7 cm per substep, more than three times its thickness; its sweep is traced
  // relative to each particle, so none lands behind it.
  World w;
  Collider paddle = make(ShapeKind::kBox, 0.0025f, 0.3f, 0.4f);
  paddle.pose.position = {-0.3f, 0.25f, 0.0f};  // reaching 5 cm into the ground: nothing passes under it
  const ColliderHandle h = w.add_collider(paddle);
  BodyParams p;
  p.edge_compliance = 1e-5f;
  p.friction = 0.0f;
  SoftBody* b = w.body(w.add_body(make_box(3, 3, 3, 0.3f, 0.3f, 0.3f, 0.0f, 0.15f, 0.0f), p));
  for (int f = 0; f < 20; ++f) w.step(kFrame, nullptr);
  for (int f = 0; f < 12; ++f) {
    Pose next = w.collider(h)->pose;
    next.position.x += 10.0f * kFrame;
    w.set_collider_pose(h, next, false);
    w.step(kFrame, nullptr);
    // Nothing behind the paddle: every particle stays ahead of its centre plane (on its front face
    // at contact, 2.5 mm ahead of the centre; behind the back face if it had tunnelled).
    float behind = 0.0f;
    for (uint32_t i = 0; i < b->vertex_count(); ++i)
      behind = std::max(behind, w.collider(h)->pose.position.x - b->positions()[3 * i]);
    CHECK(behind < 1e-3f);
  }
  CHECK(centre_of(*b).x > 0.5f);
}

TEST_CASE("collider restitution: a vertex hitting a collider leaves with e times its approach speed") {
  // The same set-up as the ground's restitution test, on a box collider whose top is y = 0: the
  // collider's rule is the ground's rule.
  for (float e : {0.0f, 0.5f, 1.0f}) {
    World w;
    w.settings.ground = false;
    w.settings.substeps = 1;
    Collider floor = make(ShapeKind::kBox, 1.0f, 0.5f, 1.0f);
    floor.pose.position = {0.0f, -0.5f, 0.0f};
    floor.restitution = e;
    w.add_collider(floor);
    BodyParams p;
    TetMesh mesh;
    mesh.positions = {0, 0.001f, 0, 0.1f, 0.001f, 0, 0, 0.001f, 0.1f, 0, 0.101f, 0};
    mesh.tets = {0, 1, 3, 2};
    SoftBody* b = w.body(w.add_body(mesh, p));
    for (uint32_t i = 0; i < 4; ++i) b->velocities()[3 * i + 1] = -2.0f;
    REQUIRE(w.step(kFrame, nullptr) == 0);
    const double incoming = 2.0 + 9.81 * kFrame;  // m/s, gravity of this step included
    CAPTURE(e);
    CHECK(std::fabs(b->positions()[1]) < 1e-6f);
    CHECK(b->velocities()[1] == doctest::Approx(e * incoming).epsilon(1e-4));
  }
}

TEST_CASE("a body bounces on a box collider as it bounces on the ground") {
  // Same body, same restitution and friction: once on the ground plane, once on a box whose top is
  // y = 0 with the ground off. The two contact codes differ only in rounding (the box's distance is
  // computed in its frame), so the heights agree to well under a millimetre over 1.5 s of bounces.
  float heights[2][90];
  for (int run = 0; run < 2; ++run) {
    World w;
    BodyParams p;
    p.edge_compliance = 1e-4f;
    p.restitution = 0.6f;
    p.friction = 0.5f;
    if (run == 1) {
      w.settings.ground = false;
      Collider floor = make(ShapeKind::kBox, 2.0f, 0.5f, 2.0f);
      floor.pose.position = {0.0f, -0.5f, 0.0f};
      floor.restitution = 0.6f;
      floor.friction = 0.5f;
      w.add_collider(floor);
    }
    SoftBody* b = w.body(w.add_body(make_box(3, 3, 3, 0.3f, 0.3f, 0.3f, 0.0f, 1.0f, 0.0f), p));
    for (int f = 0; f < 90; ++f) {
      w.step(kFrame, nullptr);
      heights[run][f] = centre_of(*b).y;
    }
  }
  float apex = 0.0f, gap = 0.0f;
  for (int f = 30; f < 90; ++f) {
    apex = std::max(apex, heights[0][f]);
    gap = std::max(gap, std::fabs(heights[0][f] - heights[1][f]));
  }
  CHECK(apex > 0.25f);  // it did bounce (rest height 0.15 m; measured 0.311 m, 5e-5 m apart)
  CHECK(gap < 1e-3f);
}

TEST_CASE("collider handles: a removed collider is gone, its stale handle refused, and bodies fall through where it was") {
  World w;
  w.settings.ground = false;
  const ColliderHandle h = w.add_collider(make(ShapeKind::kBox, 1.0f, 0.1f, 1.0f));
  CHECK(w.collider_count() == 1);
  CHECK(w.remove_collider(h));
  CHECK_FALSE(w.remove_collider(h));
  CHECK(w.collider(h) == nullptr);
  const ColliderHandle again = w.add_collider(make(ShapeKind::kSphere, 0.2f));
  CHECK(again.index == h.index);
  CHECK(again.generation != h.generation);
  CHECK(w.collider(h) == nullptr);  // the old handle does not reach the new collider
  CHECK(w.remove_collider(again));
  BodyParams p;
  SoftBody* b = w.body(w.add_body(make_box(2, 2, 2, 0.2f, 0.2f, 0.2f, 0, 0.5f, 0), p));
  for (int f = 0; f < 30; ++f) w.step(kFrame, nullptr);
  CHECK(centre_of(*b).y < 0.0f);  // nothing left to stop it
}

// ---- the C API's colliders --------------------------------------------------------------------

#include "softbody.h"

TEST_CASE("C API: colliders are made, posed, refused with a message, and stop a body") {
  const sb_world w = sb_world_create();
  REQUIRE(w > 0);
  REQUIRE(sb_world_set_ground(w, 0) == SB_OK);
  const sb_collider sphere = sb_collider_create_sphere(w, 0.5f, 0, 0, 0);
  REQUIRE(sphere > 0);
  CHECK(sb_world_collider_count(w) == 1);
  // Bad input: a code, a message, nothing made.
  CHECK(sb_collider_create_sphere(w, -1.0f, 0, 0, 0) == SB_ERR_OUT_OF_RANGE);
  CHECK(std::string(sb_last_error()).find("sphere radius") != std::string::npos);
  CHECK(sb_collider_create_box(w, 0.5f, NAN, 0.5f, 0, 0, 0) == SB_ERR_NOT_FINITE);
  CHECK(sb_collider_create_plane(w, 0, 0, 0, 0, 0, 0) == SB_ERR_OUT_OF_RANGE);
  CHECK(sb_collider_create_capsule(w, 0.1f, 0.5f, 2e6f, 0, 0) == SB_ERR_OUT_OF_RANGE);
  CHECK(sb_collider_create_sphere(w + 1000, 0.5f, 0, 0, 0) == SB_ERR_INVALID_WORLD);
  CHECK(sb_world_collider_count(w) == 1);
  CHECK(sb_collider_set_pose(w, sphere, 0, 0, 0, 0, 0, 0, 0, 0) == SB_ERR_OUT_OF_RANGE);  // no rotation
  CHECK(sb_collider_set_pose(w, sphere, 0, 0, 0, 0, 0, 0, 1, 2) == SB_ERR_OUT_OF_RANGE);  // teleport flag
  CHECK(sb_collider_set_friction(w, sphere, 11.0f) == SB_ERR_OUT_OF_RANGE);
  CHECK(sb_collider_set_friction(w, 12345, 0.5f) == SB_ERR_INVALID_COLLIDER);
  CHECK(std::string(sb_error_name(SB_ERR_INVALID_COLLIDER)) == "SB_ERR_INVALID_COLLIDER");
  // A plane along any normal: a tilted floor through (0, -1, 0) holds a body above the sphere's level.
  const sb_collider plane = sb_collider_create_plane(w, 0, -1.0f, 0, 0.2f, 1.0f, 0);
  REQUIRE(plane > 0);
  const sb_body box = sb_body_create_box(w, 3, 3, 3, 0.4f, 0.4f, 0.4f, 0, 1.0f, 0);
  REQUIRE(box > 0);
  REQUIRE(sb_body_set_param(w, box, SB_PARAM_EDGE_COMPLIANCE, 1e-4f) == SB_OK);
  for (int f = 0; f < 60; ++f) REQUIRE(sb_world_step(w, 1.0f / 60.0f) == SB_OK);
  sb_body_stats st;
  REQUIRE(sb_body_get_stats(w, box, &st) == SB_OK);
  CHECK(st.center[1] > 0.4f);  // resting on the sphere (top at 0.5 m), not fallen past it
  // Moved away (teleported), the sphere no longer holds it: it falls to the plane below.
  REQUIRE(sb_collider_set_pose(w, sphere, 5, 0, 0, 0, 0, 0, 1, 1) == SB_OK);
  for (int f = 0; f < 90; ++f) REQUIRE(sb_world_step(w, 1.0f / 60.0f) == SB_OK);
  REQUIRE(sb_body_get_stats(w, box, &st) == SB_OK);
  CHECK(st.center[1] < 0.0f);
  CHECK(st.center[1] > -1.5f);  // held by the tilted plane through y = -1
  CHECK(sb_collider_destroy(w, sphere) == SB_OK);
  CHECK(sb_collider_destroy(w, sphere) == SB_ERR_INVALID_COLLIDER);
  CHECK(sb_world_collider_count(w) == 1);
  CHECK(sb_world_destroy(w) == SB_OK);
}

TEST_CASE("C API: collider parameters are set, read back, and refused with a message") {
  const sb_world w = sb_world_create();
  REQUIRE(w > 0);
  const sb_collider box = sb_collider_create_box(w, 0.5f, 0.5f, 0.5f, 0, 0, 0);
  REQUIRE(box > 0);
  CHECK(sb_collider_get_param(w, box, SB_COLLIDER_PARAM_FRICTION) == doctest::Approx(0.5));
  CHECK(sb_collider_get_param(w, box, SB_COLLIDER_PARAM_RESTITUTION) == doctest::Approx(0.2));
  CHECK(sb_collider_set_param(w, box, SB_COLLIDER_PARAM_RESTITUTION, 0.7f) == SB_OK);
  CHECK(sb_collider_set_param(w, box, SB_COLLIDER_PARAM_FRICTION, 0.1f) == SB_OK);
  CHECK(sb_collider_get_param(w, box, SB_COLLIDER_PARAM_RESTITUTION) == doctest::Approx(0.7));
  CHECK(sb_collider_get_param(w, box, SB_COLLIDER_PARAM_FRICTION) == doctest::Approx(0.1));
  // Refusals leave the values as they were.
  CHECK(sb_collider_set_param(w, box, SB_COLLIDER_PARAM_RESTITUTION, 1.5f) == SB_ERR_OUT_OF_RANGE);
  CHECK(std::string(sb_last_error()).find("restitution") != std::string::npos);
  CHECK(sb_collider_set_param(w, box, SB_COLLIDER_PARAM_RESTITUTION, NAN) == SB_ERR_NOT_FINITE);
  CHECK(sb_collider_set_param(w, box, SB_COLLIDER_PARAM_FRICTION, -1.0f) == SB_ERR_OUT_OF_RANGE);
  CHECK(sb_collider_set_param(w, box, 7, 0.5f) == SB_ERR_UNKNOWN_PARAM);
  CHECK(sb_collider_set_param(w, box + 4096, SB_COLLIDER_PARAM_FRICTION, 0.5f) == SB_ERR_INVALID_COLLIDER);
  CHECK(std::isnan(sb_collider_get_param(w, box, -1)));
  CHECK(sb_last_error_code() == SB_ERR_UNKNOWN_PARAM);
  CHECK(std::isnan(sb_collider_get_param(w + 1000, box, 0)));
  CHECK(sb_collider_get_param(w, box, SB_COLLIDER_PARAM_RESTITUTION) == doctest::Approx(0.7));
  CHECK(sb_collider_get_param(w, box, SB_COLLIDER_PARAM_FRICTION) == doctest::Approx(0.1));
  CHECK(sb_world_destroy(w) == SB_OK);
}

TEST_CASE("thin obstacles between particles: a sheet rests on a capsule or on balls thinner than its particle spacing") {
  // A 1 x 0.05 x 0.4 m sheet of 10 cm cells dropped across a 5 cm thick rod (a capsule along z), or
  // onto four 6 cm balls, each placed midway between columns of particles: no particle ever meets an
  // obstacle, so before the surface's triangles were tested the sheet fell straight through to the
  // ground. Now its faces rest on them: after 4 s its top is above the obstacles' tops and its centre
  // of mass well off the ground (on the rod it drapes and its ends reach the floor). The face
  // contact's friction keeps the rod's off-centre drape (0.55 m on one side, 0.45 m on the other)
  // from sliding off.
  for (ShapeKind kind : {ShapeKind::kCapsule, ShapeKind::kSphere}) {
    CAPTURE(int(kind));
    World w;
    BodyParams p;
    p.edge_compliance = 1e-5f;
    p.damping = 1.0f;
    SoftBody* b = w.body(w.add_body(make_box(10, 1, 4, 1.0f, 0.05f, 0.4f, 0.0f, 0.7f, 0.0f), p));
    float obstacle_top = 0.0f;
    if (kind == ShapeKind::kCapsule) {
      Collider rod = make(kind, 0.025f, 0.5f);
      rod.pose.position = {0.05f, 0.5f, 0.0f};
      rod.pose.rotation = axis_angle({1, 0, 0}, float(M_PI / 2));  // axis along z
      w.add_collider(rod);
      obstacle_top = 0.525f;
    } else {
      for (float x : {-0.25f, 0.25f})
        for (float z : {-0.15f, 0.15f}) {
          Collider ball = make(kind, 0.03f);
          ball.pose.position = {x, 0.5f, z};
          w.add_collider(ball);
        }
      obstacle_top = 0.53f;
    }
    for (int f = 0; f < 240; ++f) REQUIRE(w.step(kFrame, nullptr) == 0);
    float top = -INFINITY;
    for (uint32_t i = 0; i < b->vertex_count(); ++i) top = std::max(top, b->positions()[3 * i + 1]);
    MESSAGE("sheet on " << std::string(kind == ShapeKind::kCapsule ? "a 5 cm rod" : "four 6 cm balls") << ": top " << top
                        << " m, centre " << centre_of(*b).y << " m");
    CHECK(top > obstacle_top);
    CHECK(centre_of(*b).y > 0.15f);
  }
}
