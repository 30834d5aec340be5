// Hard and fast hits between bodies at the default 10 substeps: stiff balls meeting head-on, and a
// fast ball thrown at a thin soft slab with a pinned rim. What is checked is where it shows: at each
// frame's end no surface vertex of one body is inside the other (an exact inside test, the winding
// number of the other's surface), nothing passes through, and no tet stays inverted.
#include <doctest.h>

#include <algorithm>
#include <cmath>

#include "math/closest_points.h"
#include "shapes/shapes.h"
#include "solver/world.h"

using namespace sb;

namespace {

const float kFrame = 1.0f / 60.0f;  // s

// Winding number of body b's closed surface around p: 1 inside, 0 outside (solid angles of its
// triangles, Van Oosterom and Strackee's formula).
double winding(const SoftBody& b, Vec3 p) {
  double sum = 0.0;
  const uint32_t* t = b.surface_triangles();
  for (uint32_t k = 0; k < b.surface_triangle_count(); ++k) {
    const Vec3 a = load3(b.positions(), t[3 * k]) - p, c = load3(b.positions(), t[3 * k + 1]) - p,
               d = load3(b.positions(), t[3 * k + 2]) - p;
    const double la = length(a), lc = length(c), ld = length(d);
    const double num = dot(a, cross(c, d));
    const double den = la * lc * ld + dot(a, c) * ld + dot(c, d) * la + dot(d, a) * lc;
    sum += 2.0 * std::atan2(num, den);
  }
  return sum / (4.0 * M_PI);
}

// How deep the deepest surface vertex of a is inside b, m (0 if none is).
float depth_inside(const SoftBody& a, const SoftBody& b) {
  float deepest = 0.0f;
  const uint32_t* tri = b.surface_triangles();
  for (uint32_t k = 0; k < a.surface_vertex_count(); ++k) {
    const Vec3 p = load3(a.positions(), a.surface_vertices()[k]);
    if (winding(b, p) < 0.5) continue;
    float nearest = INFINITY;
    for (uint32_t t = 0; t < b.surface_triangle_count(); ++t) {
      float w[3];
      bool in_face;
      const Vec3 q = closest_on_triangle(p, load3(b.positions(), tri[3 * t]), load3(b.positions(), tri[3 * t + 1]),
                                         load3(b.positions(), tri[3 * t + 2]), w, &in_face);
      nearest = std::min(nearest, length(p - q));
    }
    deepest = std::max(deepest, nearest);
  }
  return deepest;
}

BodyParams neo_hookean(float youngs_pa, float poisson) {
  BodyParams p;
  p.material = Material::NeoHookean;
  p.youngs_modulus = youngs_pa;
  p.poisson_ratio = poisson;
  return p;
}

void set_velocity(SoftBody& b, float vx) {
  for (uint32_t i = 0; i < b.vertex_count(); ++i) store3(b.velocities(), i, Vec3{vx, 0.0f, 0.0f});
}

}  // namespace

TEST_CASE("stiff balls meeting head-on at 8 m/s closing speed stay out of each other") {
  // The target: bodies up to 5 MPa colliding at up to 8 m/s closing speed, penetration under
  // 2 mm (1 % of these 0.24 m balls is 2.4 mm), no tet left inverted. Balls of radius 0.12 m, 7
  // cells across, slightly off-centre (1.5 cm) so the hit is not symmetric, under XPBD (the pages'
  // solver) at one pass. A vertex that a substep's motion carried through the other's surface is
  // pushed back out through the face it entered by; before that rule a vertex the passes dragged in
  // past the 25 mm search reach was lost and these balls overlapped by 67-77 mm at a frame's end.
  // Measured now: 15 mm at 1 MPa and 2.3 mm at 5 MPa for a frame (0 on 0.2 m balls of 8 cells and
  // 0.1 m balls of 6, both moduli): the bound is 20 mm, short of the 2 mm (docs/limitations.md).
  // They must also bounce apart, with no tet left inverted, and conserve momentum (zero here).
  for (float youngs : {1.0e6f, 5.0e6f}) {
    CAPTURE(youngs);
    World w;
    w.settings.gravity[1] = 0.0f;
    w.settings.ground = false;
    const BodyParams p = neo_hookean(youngs, 0.3f);
    SoftBody& a = *w.body(w.add_body(make_ball(0.12f, 7, -0.2f, 1.0f, 0.0f), p));
    SoftBody& b = *w.body(w.add_body(make_ball(0.12f, 7, 0.2f, 1.0f, 0.015f), p));
    set_velocity(a, 4.0f);
    set_velocity(b, -4.0f);
    const double one_ball = a.stats().mass * 4.0;  // kg m/s
    float deepest = 0.0f;
    for (int f = 0; f < 45; ++f) {
      REQUIRE(w.step(kFrame, nullptr) == 0);
      deepest = std::max({deepest, depth_inside(a, b), depth_inside(b, a)});
      CHECK(std::fabs(a.stats().momentum[0] + b.stats().momentum[0]) < 1e-3 * one_ball);
    }
    CHECK(deepest < 2e-2f);
    CHECK(a.stats().inverted_tets == 0);
    CHECK(b.stats().inverted_tets == 0);
    CHECK(a.stats().momentum[0] < -0.2 * one_ball);  // bounced back
  }
}

TEST_CASE("a fast ball thrown at a thin soft slab with a pinned rim does not pass through it") {
  // A 2 cm slab (0.5 x 0.5 m, 20 x 2 x 20 cells, 100 kPa, its rim pinned) standing across the path
  // of a 1 MPa ball (radius 5 cm) at 10 and 20 m/s: 17 and 33 mm per substep, more than the slab's
  // 10 mm cells and, at 20 m/s, its whole thickness. Before the swept rule the ball's front vertices
  // ended a substep nearer the slab's back face than its front one, were pushed on out of the back
  // and the ball went through at 10 m/s. Now it never gets past the slab's middle where it hits (the
  // slab bulges with it) nor 2 mm into it; at 10 m/s it is back on its own side after 0.5 s with no
  // tet of either left inverted. (At 20 m/s the slab's flattened tets may stay inverted and hold the
  // ball in its bulge: Neo-Hookean tets are not repaired, docs/limitations.md.)
  for (float speed : {10.0f, 20.0f}) {
    CAPTURE(speed);
    World w;
    w.settings.gravity[1] = 0.0f;
    w.settings.ground = false;
    // The slab is made flat (in x and z) and turned a quarter about z to stand in the plane x = 0.
    TetMesh slab_mesh = make_box(20, 2, 20, 0.5f, 0.02f, 0.5f, 0.0f, 0.0f, 0.0f);
    for (size_t i = 0; i < slab_mesh.positions.size(); i += 3) {
      const float x = slab_mesh.positions[i], y = slab_mesh.positions[i + 1];
      slab_mesh.positions[i] = -y;
      slab_mesh.positions[i + 1] = x + 1.0f;
    }
    SoftBody& ball = *w.body(w.add_body(make_ball(0.05f, 4, -0.2f, 1.0f, 0.0f), neo_hookean(1.0e6f, 0.3f)));
    SoftBody& slab = *w.body(w.add_body(slab_mesh, neo_hookean(1.0e5f, 0.3f)));
    for (uint32_t i = 0; i < slab.vertex_count(); ++i) {
      const float y = slab.positions()[3 * i + 1] - 1.0f, z = slab.positions()[3 * i + 2];
      if (std::fabs(y) > 0.24f || std::fabs(z) > 0.24f) slab.set_pinned(i, true);
    }
    set_velocity(ball, speed);
    for (int f = 0; f < 30; ++f) {
      REQUIRE(w.step(kFrame, nullptr) == 0);
      // The slab's middle where the ball hits it (its vertices within 3 cm of the ball's path).
      double middle = 0.0;
      int near = 0;
      for (uint32_t i = 0; i < slab.vertex_count(); ++i) {
        const float* x = slab.positions() + 3 * i;
        if (std::hypot(x[1] - 1.0f, x[2]) > 0.03f) continue;
        middle += x[0];
        ++near;
      }
      REQUIRE(near > 0);
      CHECK(ball.stats().center[0] < middle / near);
      CHECK(depth_inside(ball, slab) < 2e-3f);
    }
    if (speed > 10.0f) continue;  // (see above)
    CHECK(ball.stats().center[0] < -0.06);  // back on its side: more than its radius from the plane
    CHECK(ball.stats().momentum[0] < 0.0);
    CHECK(ball.stats().inverted_tets == 0);
    CHECK(slab.stats().inverted_tets == 0);
  }
}
