// Wind and drag on cloth (solver/cloth_aero.h): a sheet face-on to a uniform wind follows the
// quadratic-drag solution up to the wind's speed, and a flag on a pole streams downwind.
#include <doctest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "shapes/cloth_mesh.h"
#include "softbody.h"
#include "solver/soft_body.h"
#include "solver/world.h"

using namespace sb;

TEST_CASE("Cloth wind: a free sheet face-on to a uniform wind reaches the wind's speed as quadratic drag says") {
  // No gravity, no damping. A flat sheet facing the wind (c = 1) stays flat and moves as one: with
  // k = rho_air C_d / (2 rho_A) (1/m), dv/dt = k (w - v)^2, so w - v(t) = 1 / (1/w + k t). Here
  // k = 1.2 x 1.2 / 0.4 = 3.6 /m and w = 5 m/s: after 0.5 s the sheet is 1.0 m/s slow, after 2 s
  // 0.13 m/s. The force is applied explicitly per substep (h = 1.7 ms, well under the drag's time
  // scale 1 / (k (w - v)) >= 56 ms): within 2 % of w at every check, never faster than the wind.
  BodyParams p;
  p.areal_density = 0.2f;
  p.drag_coefficient = 1.2f;
  SoftBody b(make_cloth_rectangle(8, 9, 0.5f, 0.5f, 0, 0, 0, true), p);  // faces +z
  StepSettings s;
  s.ground = false;
  s.gravity[1] = 0.0f;
  s.wind[2] = 5.0f;
  const double k = 1.2 * 1.2 / (2 * 0.2), w = 5.0;
  double fastest = 0;
  for (int f = 1; f <= 120; ++f) {
    REQUIRE(b.step(1.0f / 60, s));
    const double v = b.stats().momentum[2] / b.stats().mass;
    fastest = std::max(fastest, v);
    if (f == 30 || f == 120) {
      const double expected = w - 1.0 / (1.0 / w + k * f / 60.0);
      MESSAGE("after " << f / 60.0 << " s: " << v << " m/s, quadratic drag " << expected << " m/s");
      CHECK(std::fabs(v - expected) < 0.02 * w);
    }
  }
  CHECK(fastest < w);
}

TEST_CASE("Cloth wind: a flag on a pole streams downwind") {
  // A 0.6 x 0.4 m flag (0.1 kg/m^2) pinned along its left edge (the pole), gravity on, a 10 m/s wind
  // along +z, face-on at the start. Dragged by the wind it swings round the pole until it lies
  // along the wind, where the force on it vanishes, held against gravity by its edge: after 3 s its
  // free edge is downwind of the pole by more than half the flag's length (0.3 m), and higher than
  // it would hang in still air (straight down from the pole, 0.6 m below the pin row's middle).
  BodyParams p;
  p.areal_density = 0.1f;
  p.drag_coefficient = 1.2f;
  p.lift_coefficient = 0.5f;
  p.damping = 0.5f;
  const float W = 0.6f;
  World world;
  world.settings.ground = false;
  world.settings.wind[2] = 10.0f;
  const BodyHandle h = world.add_cloth(make_cloth_rectangle(12, 10, W, 0.4f, 0, 0, 0, true), p);
  SoftBody& b = *world.body(h);
  for (uint32_t i = 0; i < b.vertex_count(); ++i)
    if (b.rest_positions()[3 * i] < -W / 2 + 1e-5f) b.set_pinned(i, true);
  BodyHandle diverged;
  for (int f = 0; f < 180; ++f) REQUIRE(world.step(1.0f / 60, &diverged) == 0);
  double z = 0, y = 0;
  int n = 0;
  for (uint32_t i = 0; i < b.vertex_count(); ++i)
    if (b.rest_positions()[3 * i] > W / 2 - 1e-5f) z += b.positions()[3 * i + 2], y += b.positions()[3 * i + 1], ++n;
  z /= n, y /= n;
  MESSAGE("free edge: " << z << " m downwind of the pole, " << y << " m from the pole's middle height");
  CHECK(z > 0.5 * W);
  CHECK(y > -0.5 * W);
}

TEST_CASE("Cloth wind C API: sb_world_set_wind validates, changes nothing when refused; the coefficients are params") {
  const sb_world w = sb_world_create();
  REQUIRE(w > 0);
  const sb_body sheet = sb_body_create_cloth_rectangle(w, 4, 4, 0.5f, 0.5f, 0, 1, 0, 1);
  REQUIRE(sheet > 0);
  CHECK(sb_body_set_param(w, sheet, SB_PARAM_DRAG_COEFFICIENT, 1.2f) == SB_OK);
  CHECK(sb_body_set_param(w, sheet, SB_PARAM_LIFT_COEFFICIENT, 0.5f) == SB_OK);
  CHECK(sb_body_set_param(w, sheet, SB_PARAM_LIFT_COEFFICIENT, -0.5f) == SB_ERR_OUT_OF_RANGE);
  CHECK(sb_body_set_param(w, sheet, SB_PARAM_DRAG_COEFFICIENT, -1.0f) == SB_ERR_OUT_OF_RANGE);
  CHECK(sb_body_get_param(w, sheet, SB_PARAM_DRAG_COEFFICIENT) == doctest::Approx(1.2f));
  CHECK(sb_world_set_wind(w, 0, 0, 200.0f, 0, 2) == SB_ERR_OUT_OF_RANGE);
  CHECK(std::string(sb_last_error()).find("wind z") != std::string::npos);
  CHECK(sb_world_set_wind(w, 0, 0, 5, 1.5f, 2) == SB_ERR_OUT_OF_RANGE);
  CHECK(sb_world_set_wind(w, 0, 0, 5, 0.2f, 0.0f) == SB_ERR_OUT_OF_RANGE);
  CHECK(sb_world_set_wind(w, NAN, 0, 5, 0, 2) != SB_OK);
  CHECK(sb_world_set_wind(w + 1000, 0, 0, 5, 0, 2) != SB_OK);
  // Refused: no wind, so the sheet (no gravity) does not move.
  CHECK(sb_world_set_gravity(w, 0, 0, 0) == SB_OK);
  CHECK(sb_world_step(w, 1.0f / 60) == SB_OK);
  CHECK(sb_body_positions(w, sheet)[2] == 0.0f);
  CHECK(sb_world_set_wind(w, 0, 0, 5, 0.2f, 1.0f) == SB_OK);
  CHECK(sb_world_step(w, 1.0f / 60) == SB_OK);
  CHECK(sb_body_positions(w, sheet)[2] > 0.0f);  // blown downwind
  CHECK(sb_world_destroy(w) == SB_OK);
}
