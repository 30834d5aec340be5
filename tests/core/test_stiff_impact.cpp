// Stiff bodies hitting each other (issue 25): the contacts between bodies are solved between the
// passes of each substep, so the passes carry the contact into the body behind the surface. Solved
// only after the passes, a stiff body's passes dragged its stopped surface into the other body with
// the rest of it every substep (0.1 m balls of 1 MPa at 4 m/s each overlapped by 54 mm, 0.2 m ones by
// 133 mm, with up to 29 tets inverted), and more passes did not help.
#include <doctest.h>

#include <algorithm>
#include <cmath>

#include "math/closest_points.h"
#include "shapes/shapes.h"
#include "solver/world.h"

using namespace sb;

namespace {

const float kFrame = 1.0f / 60.0f;  // s

// The winding number of b's surface about p (1 inside, 0 outside; van Oosterom and Strackee's solid angle).
double winding(const SoftBody& b, Vec3 p) {
  double w = 0.0;
  const uint32_t* t = b.surface_triangles();
  for (uint32_t k = 0; k < b.surface_triangle_count(); ++k) {
    const Vec3 a = load3(b.positions(), t[3 * k]) - p, c1 = load3(b.positions(), t[3 * k + 1]) - p,
               c2 = load3(b.positions(), t[3 * k + 2]) - p;
    const double la = length(a), lb = length(c1), lc = length(c2);
    const double num = dot(a, cross(c1, c2));
    const double den = la * lb * lc + dot(a, c1) * lc + dot(c1, c2) * la + dot(c2, a) * lb;
    w += 2.0 * std::atan2(num, den);
  }
  return w / (4.0 * M_PI);
}

// How deep a's deepest surface vertex is inside b, m (0 when none is).
float depth_inside(const SoftBody& a, const SoftBody& b) {
  float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};  // b's bounds, m
  for (uint32_t i = 0; i < b.vertex_count(); ++i)
    for (int c = 0; c < 3; ++c) {
      lo[c] = std::min(lo[c], b.positions()[3 * i + c]);
      hi[c] = std::max(hi[c], b.positions()[3 * i + c]);
    }
  float deepest = 0.0f;
  for (uint32_t k = 0; k < a.surface_vertex_count(); ++k) {
    const Vec3 p = load3(a.positions(), a.surface_vertices()[k]);
    if (p.x < lo[0] || p.x > hi[0] || p.y < lo[1] || p.y > hi[1] || p.z < lo[2] || p.z > hi[2]) continue;  // outside b
    if (winding(b, p) < 0.5) continue;
    float nearest = INFINITY;
    const uint32_t* t = b.surface_triangles();
    for (uint32_t j = 0; j < b.surface_triangle_count(); ++j) {
      float w[3];
      bool in_face;
      const Vec3 q = closest_on_triangle(p, load3(b.positions(), t[3 * j]), load3(b.positions(), t[3 * j + 1]),
                                         load3(b.positions(), t[3 * j + 2]), w, &in_face);
      nearest = std::min(nearest, length(q - p));
    }
    deepest = std::max(deepest, nearest);
  }
  return deepest;
}

struct Impact {
  float deepest = 0.0f;     // m, over every frame
  uint32_t inverted = 0;    // most tets inverted at any frame end
  double momentum = 0.0;    // kg m/s, the largest change of a total momentum component at any frame end
  double energy_gain = 0.0; // J, the most the kinetic energy rose above its start
  double one_body = 0.0;    // kg m/s, one body's momentum at the start
};

// Two bodies meeting head-on along x at `speed` m/s each (no gravity, no ground), 0.25 s: they meet
// within 10 ms and have parted by 0.1 s.
Impact collide(TetMesh a_mesh, TetMesh b_mesh, const BodyParams& p, float speed) {
  World w;
  w.settings.gravity[1] = 0.0f;
  w.settings.ground = false;
  SoftBody& a = *w.body(w.add_body(std::move(a_mesh), p));
  SoftBody& b = *w.body(w.add_body(std::move(b_mesh), p));
  for (uint32_t i = 0; i < a.vertex_count(); ++i) a.velocities()[3 * i] = speed;
  for (uint32_t i = 0; i < b.vertex_count(); ++i) b.velocities()[3 * i] = -speed;
  Impact r;
  r.one_body = a.stats().mass * speed;
  const double start = a.stats().kinetic_energy + b.stats().kinetic_energy;
  double total[3];
  for (int k = 0; k < 3; ++k) total[k] = a.stats().momentum[k] + b.stats().momentum[k];
  for (int f = 0; f < 15; ++f) {
    REQUIRE(w.step(kFrame, nullptr) == 0);
    r.deepest = std::max({r.deepest, depth_inside(a, b), depth_inside(b, a)});
    const BodyStats sa = a.stats(), sb = b.stats();
    r.inverted = std::max(r.inverted, sa.inverted_tets + sb.inverted_tets);
    for (int k = 0; k < 3; ++k) r.momentum = std::max(r.momentum, std::fabs(sa.momentum[k] + sb.momentum[k] - total[k]));
    r.energy_gain = std::max(r.energy_gain, sa.kinetic_energy + sb.kinetic_energy - start);
  }
  return r;
}

BodyParams material(bool neo_hookean, float youngs_pa, int passes) {
  BodyParams p;
  if (neo_hookean) {
    p.material = Material::NeoHookean;
    p.youngs_modulus = youngs_pa;
    p.poisson_ratio = 0.3f;
  }
  p.iterations = passes;
  return p;
}

}  // namespace

TEST_CASE("stiff bodies meeting head-on at 8 m/s closing speed stay apart, with no tet inverted, from two passes") {
  // The bound: 2 mm (or 1 % of the smaller body) at the default substeps. The bodies keep a
  // 5 mm gap, so a vertex that ends a frame inside the other body got there through the contact.
  // Measured with contacts between the passes: 0 mm and none inverted in every case below; with
  // them after the passes only, 15-54 mm and 27-42 tets inverted on the 0.1 m balls, 133 mm on the 0.2 m ones.
  // Momentum: each contact moves both sides by their inverse masses, so the total stays what it was up
  // to float rounding (bound: 1e-3 of one body's momentum); a collision never adds kinetic energy.
  struct Case {
    bool neo_hookean;
    float youngs;  // Pa (Neo-Hookean)
    int passes;
    float radius;  // m
    int cells;
  };
  for (const Case& c : {Case{true, 1e6f, 2, 0.1f, 6}, Case{true, 5e6f, 4, 0.1f, 6}, Case{true, 1e6f, 2, 0.2f, 6},
                        Case{false, 0.0f, 2, 0.1f, 6}}) {
    CAPTURE(c.neo_hookean);
    CAPTURE(c.youngs);
    CAPTURE(c.passes);
    CAPTURE(c.radius);
    // Off-centre by a fifth of the radius, so the contact is not symmetric about the line of motion.
    const Impact r = collide(make_ball(c.radius, c.cells, -1.5f * c.radius, 1.0f, 0.0f),
                             make_ball(c.radius, c.cells, 1.5f * c.radius, 1.0f, 0.2f * c.radius), material(c.neo_hookean, c.youngs, c.passes),
                             4.0f);
    CHECK(r.deepest < 2e-3f);
    CHECK(r.inverted == 0);
    CHECK(r.momentum < 1e-3 * r.one_body);
    CHECK(r.energy_gain <= 0.0);
  }
}

TEST_CASE("stiff balls meeting head-on at the page's defaults (a stiffness target of 95 %, 4 passes at most) stay apart") {
  // The page and <soft-body> run Neo-Hookean bodies to a stiffness target (convergence.h) within a
  // budget of 4 passes; the world runs those passes round by round with the contacts between them.
  // Measured: 0 mm and none inverted at 1 and 5 MPa. Bounds as above.
  for (float youngs : {1e6f, 5e6f}) {
    CAPTURE(youngs);
    BodyParams p = material(true, youngs, 1);
    p.stiffness_target = 0.95f;
    p.max_iterations = 4;
    const Impact r = collide(make_ball(0.1f, 6, -0.15f, 1.0f, 0.0f), make_ball(0.1f, 6, 0.15f, 1.0f, 0.02f), p, 4.0f);
    CHECK(r.deepest < 2e-3f);
    CHECK(r.inverted == 0);
    CHECK(r.momentum < 1e-3 * r.one_body);
    CHECK(r.energy_gain <= 0.0);
  }
}

TEST_CASE("a stiff box thrown corner-first at a stiff ball stays out of it at four passes") {
  // A 0.16 m box of 4 cells, rotated so a corner leads, against a 0.12 m ball of 6 cells, 1 MPa, 4 m/s
  // each: a corner concentrates the contact on one vertex, and two passes let it 28 mm in (measured);
  // four hold it (0 mm). Same bounds as above.
  TetMesh box = make_box(4, 4, 4, 0.16f, 0.16f, 0.16f, 0.0f, 0.0f, 0.0f);
  const float c = std::cos(0.6f), s = std::sin(0.6f);
  for (size_t i = 0; i < box.positions.size(); i += 3) {
    const float x = box.positions[i], y = box.positions[i + 1];
    box.positions[i] = c * x - s * y - 0.2f;
    box.positions[i + 1] = s * x + c * y + 1.0f;
  }
  const Impact r = collide(std::move(box), make_ball(0.12f, 6, 0.2f, 1.0f, 0.01f), material(true, 1e6f, 4), 4.0f);
  CHECK(r.deepest < 2e-3f);
  CHECK(r.inverted == 0);
  CHECK(r.momentum < 1e-3 * r.one_body);
  CHECK(r.energy_gain <= 0.0);
}

TEST_CASE("at one pass the swept test keeps stiff 0.2 m balls from overlapping") {
  // One pass per substep (the C API's default): the contacts come after the pass, which pushes the
  // stopped surface on into the other ball; the swept test holds each such vertex in front of the
  // face it went through (body_contact_sweep.cpp). Measured: 0 mm and none inverted at 1 and 5 MPa;
  // 133 and 157 mm before it. The smaller 0.1 m balls still overlap by 2.8 mm and invert up to 20
  // tets for a few frames (docs/limitations.md). Same bounds as above.
  for (float youngs : {1e6f, 5e6f}) {
    CAPTURE(youngs);
    const Impact r = collide(make_ball(0.2f, 6, -0.3f, 1.0f, 0.0f), make_ball(0.2f, 6, 0.3f, 1.0f, 0.04f), material(true, youngs, 1), 4.0f);
    CHECK(r.deepest < 2e-3f);
    CHECK(r.inverted == 0);
    CHECK(r.momentum < 1e-3 * r.one_body);
    CHECK(r.energy_gain <= 0.0);
  }
}
