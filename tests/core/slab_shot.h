// A ball shot at a thin slab (test_hard_impact.cpp, test_tunnelling.cpp): a 0.6 m x 2 cm slab of
// 12 x 1 x 12 cells with its top at 1.01 m and its rim pinned, and a 5 cm ball of 4 cells 0.1 m above
// it moving down at `speed` m/s, in a world with no gravity or ground (10 substeps).
#pragma once
#include <cmath>

#include "shapes/shapes.h"
#include "solver/world.h"

struct SlabShot {
  sb::SoftBody* slab;
  sb::SoftBody* ball;
};

inline SlabShot shoot_at_slab(sb::World& w, const sb::BodyParams& p, float speed) {
  w.settings.ground = false;
  w.settings.gravity[1] = 0.0f;
  const float size = 0.6f, thick = 0.02f, radius = 0.05f;  // m
  sb::SoftBody& slab = *w.body(w.add_body(sb::make_box(12, 1, 12, size, thick, size, 0.0f, 1.0f, 0.0f), p));
  for (uint32_t i = 0; i < slab.vertex_count(); ++i) {
    const float x = slab.positions()[3 * i], z = slab.positions()[3 * i + 2];
    if (std::fabs(x) > size / 2 - 1e-4f || std::fabs(z) > size / 2 - 1e-4f) slab.set_pinned(i, true);
  }
  sb::SoftBody& ball = *w.body(w.add_body(sb::make_ball(radius, 4, 0.013f, 1.0f + thick / 2 + radius + 0.1f, 0.007f), p));
  for (uint32_t i = 0; i < ball.vertex_count(); ++i) ball.velocities()[3 * i + 1] = -speed;
  return {&slab, &ball};
}
