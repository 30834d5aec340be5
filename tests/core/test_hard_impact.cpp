// Hard constraints meeting: a ball and a rim-pinned slab with the default BodyParams (simple model,
// edge and volume compliance 0: inextensible, incompressible) collide. Their constraints and the
// contacts between them then have no common solution; XPBD's Gauss-Seidel passes still move each
// point by a bounded amount, so the impact must stay finite and add no energy beyond the passes'
// rounding of a non-converged solve.
#include <doctest.h>

#include <algorithm>
#include <cmath>

#include "slab_shot.h"

using namespace sb;

namespace {

// Kinetic energy of the movable vertices of both bodies, J.
double kinetic_energy(const SoftBody& a, const SoftBody& b) {
  double e = 0.0;
  for (const SoftBody* body : {&a, &b})
    for (uint32_t i = 0; i < body->vertex_count(); ++i) {
      const float w = body->inverse_masses()[i];
      if (w == 0.0f) continue;
      const float* v = body->velocities() + 3 * i;
      e += 0.5 / double(w) * (double(v[0]) * v[0] + double(v[1]) * v[1] + double(v[2]) * v[2]);
    }
  return e;
}

struct Impact {
  int diverged = 0;             // bodies reported diverged, summed over the frames
  double worst_energy = 0.0;    // largest kinetic energy at a frame's end / the initial one
};

// A 5 cm ball (4 cells) shot down at `speed` m/s from 0.1 m above a 0.6 m x 2 cm slab (12 x 1 x 12
// cells, rim pinned), no gravity or ground, 10 substeps, `passes` per substep, 0.5 s.
Impact shoot(float speed, int passes) {
  World w;
  BodyParams p;  // what sb_body_create gives: simple model, compliance 0
  p.iterations = passes;
  const SlabShot shot = shoot_at_slab(w, p, speed);
  const SoftBody &slab = *shot.slab, &ball = *shot.ball;
  const double e0 = kinetic_energy(ball, slab);
  Impact r;
  for (int f = 0; f < 30; ++f) {
    r.diverged += w.step(1.0f / 60.0f, nullptr);
    r.worst_energy = std::max(r.worst_energy, kinetic_energy(ball, slab) / e0);
  }
  return r;
}

}  // namespace

TEST_CASE("Hard impact: an incompressible ball meeting an inextensible pinned slab stays finite") {
  // Measured: kinetic energy at most 1.14x the initial (10 m/s, 1 pass: the ball tears through the
  // slab, edges stretched to 2x their rest length in a non-converged pass), 1.03x elsewhere. 1.5x leaves room for contact changes while a blow-up (which multiplies
  // the energy by orders of magnitude within a frame) still fails it.
  const struct {
    float speed;  // m/s
    int passes;
  } cases[] = {{3.0f, 1}, {10.0f, 1}, {20.0f, 1}, {30.0f, 1}, {10.0f, 4}};
  for (const auto& c : cases) {
    CAPTURE(c.speed);
    CAPTURE(c.passes);
    const Impact r = shoot(c.speed, c.passes);
    CHECK(r.diverged == 0);
    CHECK(r.worst_energy < 1.5);
  }
}
