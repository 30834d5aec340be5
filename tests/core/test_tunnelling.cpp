// No tunnelling through a thin body (issue 25): a 5 cm ball shot at a 2 cm slab with a pinned rim
// moves 1.7-2.5 cm per substep at 10-15 m/s (10 substeps at 60 Hz), about the slab's thickness, so
// at the end of a substep its front vertices can lie past the slab's mid-plane, nearest the far face
// and in front of it, where the nearest-face rule sees no contact at all. The swept test
// (body_contact_sweep.cpp) catches the face their path went through.
#include <doctest.h>

#include <algorithm>
#include <cmath>

#include "slab_shot.h"

using namespace sb;

namespace {

struct Shot {
  float lowest_centre = 1e9f;  // m, the ball's mean height at its lowest frame end
  float slab_bottom = 1e9f;    // m, the slab's lowest vertex then
  float slab_top = -1e9f;      // m, its highest vertex then
  int diverged = 0;
};

// The shot of slab_shot.h, 0.5 s at 60 Hz. `modulus` > 0: both Neo-Hookean of that E (Pa), nu 0.3;
// 0: the C API's defaults (simple model, compliance 0).
Shot shoot(float speed, float modulus) {
  World w;
  BodyParams p;
  if (modulus > 0.0f) {
    p.material = Material::NeoHookean;
    p.youngs_modulus = modulus;
    p.poisson_ratio = 0.3f;
  }
  const SlabShot shot = shoot_at_slab(w, p, speed);
  const SoftBody &slab = *shot.slab, &ball = *shot.ball;
  Shot s;
  for (int f = 0; f < 30; ++f) {
    s.diverged += w.step(1.0f / 60.0f, nullptr);
    double centre = 0.0;
    for (uint32_t i = 0; i < ball.vertex_count(); ++i) centre += ball.positions()[3 * i + 1];
    centre /= ball.vertex_count();
    if (centre >= s.lowest_centre) continue;
    s.lowest_centre = float(centre);
    s.slab_bottom = 1e9f;
    s.slab_top = -1e9f;
    for (uint32_t i = 0; i < slab.vertex_count(); ++i) {
      s.slab_bottom = std::min(s.slab_bottom, slab.positions()[3 * i + 1]);
      s.slab_top = std::max(s.slab_top, slab.positions()[3 * i + 1]);
    }
  }
  return s;
}

}  // namespace

TEST_CASE("a ball shot at a thin slab does not pass through it (swept contact)") {
  // Passed straight through before the swept test: at each speed the ball's centre ended below
  // the slab. Held, it never gets below the slab's top vertex (the slab dents where it is hit, so its
  // top there is lower than elsewhere; the centre stays a radius above the dent's bottom at most).
  struct Case {
    float speed, modulus;
  };
  for (const Case c : {Case{10.0f, 0.0f}, Case{10.0f, 5e5f}, Case{10.0f, 1e6f}, Case{15.0f, 1e6f}}) {
    CAPTURE(c.speed);
    CAPTURE(c.modulus);
    const Shot s = shoot(c.speed, c.modulus);
    CHECK(s.diverged == 0);
    CHECK(s.lowest_centre > s.slab_bottom);
  }
}
