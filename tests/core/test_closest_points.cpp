// Closest points (core/math/closest_points.h) against brute force: random segments and triangles,
// the distance each function returns checked against the minimum over a dense sampling of both
// shapes (which can only be larger: the sample grid's spacing bounds the gap).
#include <doctest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "math/closest_points.h"

using namespace sb;

namespace {

Vec3 random_point(std::mt19937& rng) {
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  return {u(rng), u(rng), u(rng)};
}

}  // namespace

TEST_CASE("closest points: segment-segment and segment-triangle distances match dense sampling") {
  std::mt19937 rng(7);
  const int n = 60;  // samples per segment; triangle samples on an n x n barycentric grid
  for (int trial = 0; trial < 200; ++trial) {
    const Vec3 a0 = random_point(rng), a1 = random_point(rng);
    const Vec3 q0 = random_point(rng), q1 = random_point(rng), q2 = random_point(rng);
    // Segment-segment: the returned distance is the sampled minimum or a little below it, and the
    // returned parameters give that distance.
    float s, t;
    const float d2 = closest_between_segments(a0, a1, q0, q1, &s, &t);
    float sampled = INFINITY;
    for (int i = 0; i <= n; ++i)
      for (int j = 0; j <= n; ++j) sampled = std::min(sampled, length_sq((a0 + (a1 - a0) * (i / float(n))) - (q0 + (q1 - q0) * (j / float(n)))));
    CHECK(std::sqrt(d2) <= std::sqrt(sampled) + 1e-5f);
    CHECK(std::sqrt(sampled) - std::sqrt(d2) < 0.05f);  // the grid is 2/60 m fine at most
    CHECK(length_sq((a0 + (a1 - a0) * s) - (q0 + (q1 - q0) * t)) == doctest::Approx(d2).epsilon(1e-4));
    // Segment-triangle.
    Vec3 on_segment;
    float w[3];
    const float e2 = closest_segment_triangle(a0, a1, q0, q1, q2, &on_segment, w);
    float tri_sampled = INFINITY;
    for (int i = 0; i <= n; ++i)
      for (int u = 0; u <= n; ++u)
        for (int v = 0; u + v <= n; ++v) {
          const Vec3 p = a0 + (a1 - a0) * (i / float(n));
          const Vec3 q = q0 * (1.0f - (u + v) / float(n)) + q1 * (u / float(n)) + q2 * (v / float(n));
          tri_sampled = std::min(tri_sampled, length_sq(p - q));
        }
    CHECK(std::sqrt(e2) <= std::sqrt(tri_sampled) + 1e-5f);
    CHECK(std::sqrt(tri_sampled) - std::sqrt(e2) < 0.08f);
    if (e2 > 0.0f) {
      // The reported pair is a real pair at that distance, with weights summing to 1.
      CHECK(w[0] + w[1] + w[2] == doctest::Approx(1.0f).epsilon(1e-5));
      const Vec3 q = q0 * w[0] + q1 * w[1] + q2 * w[2];
      CHECK(length_sq(on_segment - q) == doctest::Approx(e2).epsilon(1e-3));
    }
  }
}
