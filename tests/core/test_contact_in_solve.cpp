// Contact inside the solve (issue 25): VBD holds vertices on the ground and the press plate inside its
// sweeps (vbd.h), implicit Euler holds their normal velocity through its linear solve (integrators.h,
// Baraff and Witkin's filter). Solved after the elastic step instead, the contact undid part of each
// step's correction, and the layers touching the planes stayed crushed by an amount that depended on
// the substep (a block pressed to 65 % at nu = 0.49 lost 3.5-4.3 % of its volume at 10 substeps and
// 1.2 % at 40). Friction and lifting off must still work.
#include <doctest.h>

#include <algorithm>
#include <cmath>

#include "shapes/shapes.h"
#include "solver/world.h"

using namespace sb;

namespace {

const float kFrame = 1.0f / 60.0f;  // s

BodyParams gel(float poisson) {
  BodyParams p;
  p.material = Material::NeoHookean;
  p.youngs_modulus = 1e5f;  // Pa
  p.poisson_ratio = poisson;
  return p;
}

// A box of nx x ny x nx cells, size x height x size (m), resting on the ground, pressed to 65 % of its
// height by the plate (held there: a release of 1000 s), 5 s: its volume ratio.
double pressed_volume(Solver solver, int iterations, int substeps, int nx, int ny, float size, float height) {
  World w;
  w.settings.substeps = substeps;
  BodyParams p = gel(0.49f);
  p.iterations = iterations;
  SoftBody& b = *w.body(w.add_body(make_box(nx, ny, nx, size, height, size, 0.0f, 0.5f * height, 0.0f), p));
  REQUIRE(b.set_solver(solver));
  REQUIRE(b.press(0.65f, 1000.0f));
  for (int f = 0; f < 300; ++f) REQUIRE(w.step(kFrame, nullptr) == 0);
  CHECK(b.stats().inverted_tets == 0);
  return b.stats().volume_ratio;
}

}  // namespace

TEST_CASE("a block pressed to 65 % at nu = 0.49 keeps its volume within 1.5 % under VBD and implicit Euler, at any substeps") {
  // E = 100 kPa, nu = 0.49: the press needs a pressure of a few tens of kPa, against a bulk modulus of
  // ~1.7 MPa, so about 1 % of the volume goes (measured 1.07 % on both boxes under both solvers, and
  // with VBD at 1 to 16 sweeps). The bound is 1.5 %. And the contact's share of the answer
  // no longer depends on the substep: 10 and 40 substeps within 0.2 % (they were 3.5 % and 1.2 %).
  struct Box {
    int nx, ny;
    float size, height;  // m
  };
  for (const Box& box : {Box{4, 4, 0.6f, 0.6f}, Box{6, 3, 1.0f, 0.3f}}) {
    for (Solver solver : {Solver::Vbd, Solver::ImplicitEuler}) {
      CAPTURE(box.nx);
      CAPTURE(int(solver));
      const int iterations = solver == Solver::Vbd ? 2 : 1;
      const double at10 = pressed_volume(solver, iterations, 10, box.nx, box.ny, box.size, box.height);
      const double at40 = pressed_volume(solver, iterations, 40, box.nx, box.ny, box.size, box.height);
      CHECK(at10 > 0.985);
      CHECK(at10 < 1.0);  // pressed: some volume goes
      CHECK(std::fabs(at10 - at40) < 0.002);
    }
  }
}

TEST_CASE("XPBD (Neo-Hookean) holds the ground and the press plate inside its passes: a block pressed to 65 % keeps its volume") {
  // The block of the test above under XPBD, whose block passes hold vertices on the planes
  // (neo_hookean_xpbd.h). Converged (4 passes) it loses what VBD and implicit Euler lose, about 1 %
  // (measured 0.99-1.07 % on both boxes, 10 and 40 substeps alike: within the 1.5 %). One
  // pass, the page's default, leaves the elastic solve itself short and loses a little more at 10
  // substeps: measured 1.34 % and 1.50 % (2.1 % and 3.5 % with the planes after the passes); bound 2 %.
  struct Box {
    int nx, ny;
    float size, height;  // m
  };
  for (const Box& box : {Box{4, 4, 0.6f, 0.6f}, Box{6, 3, 1.0f, 0.3f}}) {
    CAPTURE(box.nx);
    const double converged10 = pressed_volume(Solver::Xpbd, 4, 10, box.nx, box.ny, box.size, box.height);
    const double converged40 = pressed_volume(Solver::Xpbd, 4, 40, box.nx, box.ny, box.size, box.height);
    const double one_pass = pressed_volume(Solver::Xpbd, 1, 10, box.nx, box.ny, box.size, box.height);
    MESSAGE("4 passes: " << converged10 << " (10 substeps), " << converged40 << " (40); 1 pass: " << one_pass);
    CHECK(converged10 > 0.985);
    CHECK(converged10 < 1.0);
    CHECK(std::fabs(converged10 - converged40) < 0.002);
    CHECK(one_pass > 0.98);
  }
}

TEST_CASE("contact inside the solve: a sliding box still stops after v^2 / (2 mu g) under VBD and implicit Euler") {
  // As test_xpbd.cpp's friction case: a flat 1 m box sliding at 3 m/s; friction now comes from the
  // plane's force inside the solve (VBD: its support force after the sweeps, scaled to the impulse
  // the body received; implicit Euler: the filter's impulse). Frictionless it keeps its speed (3 s:
  // 9 m within 2 %); with mu = 0.3 and 0.6 it stops after v^2 / (2 mu g) within 5 % (measured within
  // 0.5 % at one VBD sweep and under implicit Euler, 1.8 % at 4 sweeps; one sweep with the vertices'
  // own forces stopped 22 % short on this 1 MPa box).
  const float v0 = 3.0f;  // m/s
  for (Solver solver : {Solver::Vbd, Solver::ImplicitEuler}) {
    for (float mu : {0.0f, 0.3f, 0.6f}) {
      CAPTURE(int(solver));
      CAPTURE(mu);
      World w;
      BodyParams p = gel(0.3f);
      p.youngs_modulus = 1e6f;
      p.friction = mu;
      p.restitution = 0.0f;
      SoftBody& b = *w.body(w.add_body(make_box(4, 2, 4, 1.0f, 0.25f, 1.0f, 0, 0.125f, 0), p));
      REQUIRE(b.set_solver(solver));
      for (int f = 0; f < 10; ++f) REQUIRE(w.step(kFrame, nullptr) == 0);
      const double x0 = b.stats().center[0];
      for (uint32_t i = 0; i < b.vertex_count(); ++i) b.velocities()[3 * i] = v0;
      for (int f = 0; f < 180; ++f) REQUIRE(w.step(kFrame, nullptr) == 0);
      const double travelled = b.stats().center[0] - x0;
      if (mu == 0.0f) CHECK(travelled == doctest::Approx(v0 * 3.0).epsilon(0.02));
      // .scale(0): doctest's epsilon is then a fraction of the larger side alone; by default it adds an
      // absolute epsilon too, which swamps quantities well below 1 (m, m^3).
      else CHECK(travelled == doctest::Approx(v0 * v0 / (2.0 * mu * 9.81)).epsilon(0.05).scale(0));
    }
  }
}

TEST_CASE("contact inside the solve: a body lifted by a grab leaves the ground; one that lands stays on it") {
  // The ground holds a resting vertex only while it pushes: a box grabbed at its top and lifted at
  // 1 m/s for 0.5 s must come off the ground (its lowest vertex above 5 cm; held for good it would stay
  // at 0), and a damped box dropped from 5 cm must end resting on it (lowest vertex within 0.1 mm of
  // the ground, kinetic energy under 1 mJ after 3 s).
  for (Solver solver : {Solver::Vbd, Solver::ImplicitEuler}) {
    CAPTURE(int(solver));
    {
      World w;
      BodyParams p = gel(0.3f);
      p.grab_radius = 0.15f;
      SoftBody& b = *w.body(w.add_body(make_box(4, 4, 4, 0.4f, 0.4f, 0.4f, 0, 0.2f, 0), p));
      REQUIRE(b.set_solver(solver));
      for (int f = 0; f < 30; ++f) REQUIRE(w.step(kFrame, nullptr) == 0);
      const float top[3] = {0.0f, 0.4f, 0.0f};
      b.grab_begin(b.nearest_vertex(top), top);
      for (int f = 1; f <= 30; ++f) {
        const float target[3] = {0.0f, 0.4f + f * kFrame, 0.0f};
        b.grab_move(target);
        REQUIRE(w.step(kFrame, nullptr) == 0);
      }
      CHECK(b.stats().min_y > 0.05);
    }
    {
      World w;
      BodyParams p = gel(0.3f);
      p.damping = 5.0f;  // 1/s
      SoftBody& b = *w.body(w.add_body(make_box(3, 3, 3, 0.3f, 0.3f, 0.3f, 0, 0.2f, 0), p));
      REQUIRE(b.set_solver(solver));
      for (int f = 0; f < 180; ++f) REQUIRE(w.step(kFrame, nullptr) == 0);
      CHECK(std::fabs(b.stats().min_y) < 1e-4);
      CHECK(b.stats().kinetic_energy < 1e-3);
    }
  }
}

