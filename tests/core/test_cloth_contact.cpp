// Cloth contact (contact/cloth_contact.h, body_contact.h): a sheet against a soft body both ways and
// against itself, never passing through (counted exactly at every frame), never gaining energy.
#include <doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "shapes/cloth_mesh.h"
#include "shapes/shapes.h"
#include "solver/soft_body.h"
#include "solver/world.h"
#include "surface_intersections.h"

using namespace sb;

namespace {

// Intersecting surface-triangle pairs among the given bodies, each with itself and with the others.
uint32_t intersections(const std::vector<const SoftBody*>& bodies) {
  std::vector<float> xyz;
  std::vector<uint32_t> tris;
  for (const SoftBody* b : bodies) {
    const uint32_t base = uint32_t(xyz.size() / 3);
    xyz.insert(xyz.end(), b->positions(), b->positions() + 3 * b->vertex_count());
    for (uint32_t k = 0; k < 3 * b->surface_triangle_count(); ++k) tris.push_back(base + b->surface_triangles()[k]);
  }
  return testing_surfaces::count_surface_intersections(xyz.data(), tris.data(), uint32_t(tris.size() / 3));
}

// The mean height of the body's vertices that start at its top (y >= top - 1 mm), m.
double top_height(const SoftBody& b, float top) {
  double sum = 0;
  int n = 0;
  for (uint32_t i = 0; i < b.vertex_count(); ++i)
    if (b.rest_positions()[3 * i + 1] > top - 1e-3f) sum += b.positions()[3 * i + 1], ++n;
  return sum / n;
}

}  // namespace

TEST_CASE("Cloth contact: a sheet dropped on a jelly drapes over it, presses it down, and never passes through it") {
  // A 0.3 m jelly cube (spring lattice, 100 kg/m^3: 2.7 kg) on the ground, and a 0.5 m sheet of
  // 2 kg/m^2 (0.5 kg) dropped from 0.15 m above its top; the sheet overhangs by 0.1 m a side, so the
  // jelly carries all of it. The jelly alone settles with its top delta_w lower than its rest
  // height; as a linear column, a uniformly loaded one's top drops W_j L / (2 E A) and a top load F's
  // drops F L / (E A), so the sheet adds 2 delta_w F / W_j. The sheet's load sits on the jelly's top
  // rim (it drapes over the edges), where the lattice is stiffer than the column average, so the
  // test asks for at least half the estimate and at most 1.5x it.
  const float size = 0.3f;
  double jelly_mass = 0, sheet_mass = 0;  // kg
  auto settle = [&](bool with_sheet, uint32_t* worst, double* top) {
    World w;
    BodyParams jp;
    jp.density = 100.0f;
    jp.edge_compliance = 2e-3f;
    jp.damping = 3.0f;
    const BodyHandle jh = w.add_body(make_jelly(4, size, 0, size / 2, 0), jp);
    BodyHandle sh{};
    if (with_sheet) {
      BodyParams cp;
      cp.areal_density = 2.0f;
      cp.edge_compliance = 1e-4f;
      cp.bending_stiffness = 1e-4f;
      cp.damping = 1.0f;
      cp.thickness = 0.004f;
      sh = w.add_cloth(make_cloth_rectangle(16, 18, 0.5f, 0.5f, 0, size + 0.15f, 0, false), cp);
      w.body(sh)->set_self_collision(true, 0.01f);
    }
    BodyHandle diverged;
    *worst = 0;
    for (int f = 0; f < 150; ++f) {
      REQUIRE(w.step(1.0f / 60, &diverged) == 0);
      std::vector<const SoftBody*> bodies{w.body(jh)};
      if (with_sheet) bodies.push_back(w.body(sh));
      *worst = std::max(*worst, intersections(bodies));
    }
    *top = top_height(*w.body(jh), size);
    jelly_mass = w.body(jh)->stats().mass;
    if (with_sheet) {
      sheet_mass = w.body(sh)->stats().mass;
      // Draped: the middle rests on the top, the rim hangs below it; nothing on the ground.
      const SoftBody& s = *w.body(sh);
      CHECK(s.stats().min_y < size - 0.03f);
      CHECK(s.stats().min_y > 0.05f);
    }
  };
  uint32_t alone_worst, with_worst;
  double alone_top, with_top;
  settle(false, &alone_worst, &alone_top);
  settle(true, &with_worst, &with_top);
  const double delta_w = size - alone_top;
  const double estimate = 2 * delta_w * sheet_mass / jelly_mass;
  MESSAGE("jelly top: " << alone_top * 1e3 << " mm alone, " << with_top * 1e3 << " mm under the sheet (estimate "
                        << (alone_top - estimate) * 1e3 << " mm); intersecting pairs at worst " << with_worst);
  CHECK(alone_worst == 0);
  CHECK(with_worst == 0);
  CHECK(alone_top - with_top > 0.5 * estimate);
  CHECK(alone_top - with_top < 1.5 * estimate);
}

TEST_CASE("Cloth self-contact: a sheet folded in three and dropped on the ground never passes through itself nor gains energy") {
  // A 0.6 m square sheet (24 triangles across: 2.5 cm spacing) laid out as a Z-fold: three layers
  // 6 cm apart joined by two half-cylinder turns (radius 3 cm, isometric to the flat sheet), 5 cm
  // above the ground, with a sideways velocity wave so the layers slide over each other as they fall
  // together and crumple. Self thickness 1 cm (0.4 x the spacing, body_contact.h), no damping.
  // Exact count of intersecting triangle pairs at every frame for 2 s: 0. Energy (kinetic + gravity
  // + elastic): never above its start, to float rounding of the potential energy (1e-5 relative):
  // the contacts, the ground and the bounded displacement only take motion away. Y = 10 N/m, as in
  // test_cloth.cpp's energy test: the springs' energy in the stats is the model's only where one
  // pass converges the substep (a stiffer sheet read more than it started with, contacts or not).
  BodyParams p;
  p.areal_density = 0.2f;
  p.edge_compliance = 0.1f;
  p.bending_stiffness = 1e-5f;
  p.thickness = 0.004f;
  p.friction = 0.3f;
  World w;
  const BodyHandle h = w.add_cloth(make_cloth_rectangle(24, 28, 0.6f, 0.6f, 0, 0, 0, false), p);
  SoftBody& b = *w.body(h);
  b.set_self_collision(true, 0.01f);
  const float L = 0.6f, r = 0.03f, y0 = 0.05f, pi = float(M_PI), a = (L - 2 * pi * r) / 3;
  for (uint32_t i = 0; i < b.vertex_count(); ++i) {
    const float* rest = b.rest_positions() + 3 * i;
    float* x = b.positions() + 3 * i;
    const float s = rest[2] + L / 2;  // arc length along the fold's path, m
    float z, y;
    if (s < a) z = -a / 2 + s, y = y0;
    else if (s < a + pi * r) {
      const float t = -pi / 2 + (s - a) / r;
      z = a / 2 + r * std::cos(t), y = y0 + r + r * std::sin(t);
    } else if (s < 2 * a + pi * r) z = a / 2 - (s - a - pi * r), y = y0 + 2 * r;
    else if (s < 2 * a + 2 * pi * r) {
      const float t = -pi / 2 + (s - 2 * a - pi * r) / r;
      z = -a / 2 - r * std::cos(t), y = y0 + 3 * r + r * std::sin(t);
    } else z = -a / 2 + (s - 2 * a - 2 * pi * r), y = y0 + 4 * r;
    x[1] = y, x[2] = z;
    b.velocities()[3 * i] = 0.4f * std::sin(10.0f * rest[2]);
  }
  REQUIRE(intersections({&b}) == 0);
  auto energy = [&] {
    const BodyStats st = b.stats(w.settings.gravity);
    return st.kinetic_energy + st.potential_energy + st.elastic_energy;
  };
  const double e0 = energy();
  double highest = e0;
  uint32_t worst = 0;
  BodyHandle diverged;
  for (int f = 0; f < 120; ++f) {
    REQUIRE(w.step(1.0f / 60, &diverged) == 0);
    worst = std::max(worst, intersections({&b}));
    highest = std::max(highest, energy());
    }
  const BodyStats end = b.stats(w.settings.gravity);
  MESSAGE("energy " << e0 << " J -> " << energy() << " J, highest " << highest << " J; centre of mass " << end.center[1] * 1e3
                    << " mm up, " << end.kinetic_energy << " J moving; intersecting pairs at worst " << worst);
  CHECK(worst == 0);
  CHECK(highest <= e0 * (1 + 1e-5));
  // The layers came down onto each other: the centre of mass below the middle layer's start
  // (0.11 m) and above a single layer on the ground (2 mm).
  CHECK(end.center[1] < 0.06);
  CHECK(end.center[1] > 0.005);
}
