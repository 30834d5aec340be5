#include "math/closest_points.h"

#include <algorithm>
#include <cmath>

namespace sb {

Vec3 closest_on_triangle(Vec3 p, Vec3 a, Vec3 b, Vec3 c, float w[3], bool* in_face) {
  *in_face = false;
  const Vec3 ab = b - a, ac = c - a, ap = p - a;
  const float d1 = dot(ab, ap), d2 = dot(ac, ap);
  if (d1 <= 0.0f && d2 <= 0.0f) { w[0] = 1; w[1] = 0; w[2] = 0; return a; }
  const Vec3 bp = p - b;
  const float d3 = dot(ab, bp), d4 = dot(ac, bp);
  if (d3 >= 0.0f && d4 <= d3) { w[0] = 0; w[1] = 1; w[2] = 0; return b; }
  const float vc = d1 * d4 - d3 * d2;
  if (vc <= 0.0f && d1 >= 0.0f && d3 <= 0.0f) {
    const float t = d1 / (d1 - d3);
    w[0] = 1 - t; w[1] = t; w[2] = 0;
    return a + ab * t;
  }
  const Vec3 cp = p - c;
  const float d5 = dot(ab, cp), d6 = dot(ac, cp);
  if (d6 >= 0.0f && d5 <= d6) { w[0] = 0; w[1] = 0; w[2] = 1; return c; }
  const float vb = d5 * d2 - d1 * d6;
  if (vb <= 0.0f && d2 >= 0.0f && d6 <= 0.0f) {
    const float t = d2 / (d2 - d6);
    w[0] = 1 - t; w[1] = 0; w[2] = t;
    return a + ac * t;
  }
  const float va = d3 * d6 - d5 * d4;
  if (va <= 0.0f && (d4 - d3) >= 0.0f && (d5 - d6) >= 0.0f) {
    const float t = (d4 - d3) / ((d4 - d3) + (d5 - d6));
    w[0] = 0; w[1] = 1 - t; w[2] = t;
    return b + (c - b) * t;
  }
  const float denom = 1.0f / (va + vb + vc);
  w[1] = vb * denom;
  w[2] = vc * denom;
  w[0] = 1.0f - w[1] - w[2];
  *in_face = true;
  return a + ab * w[1] + ac * w[2];
}

float closest_between_segments(Vec3 p0, Vec3 p1, Vec3 q0, Vec3 q1, float* s_out, float* t_out) {
  const Vec3 d1 = p1 - p0, d2 = q1 - q0, r = p0 - q0;
  const float a = dot(d1, d1), e = dot(d2, d2), f = dot(d2, r);
  float s = 0.0f, t = 0.0f;
  if (a <= 1e-20f && e <= 1e-20f) {
    // both points
  } else if (a <= 1e-20f) {
    t = std::clamp(f / e, 0.0f, 1.0f);
  } else {
    const float c = dot(d1, r);
    if (e <= 1e-20f) {
      s = std::clamp(-c / a, 0.0f, 1.0f);
    } else {
      const float b = dot(d1, d2), denom = a * e - b * b;
      s = denom > 0.0f ? std::clamp((b * f - c * e) / denom, 0.0f, 1.0f) : 0.0f;  // parallel: any s; take 0
      t = (b * s + f) / e;
      if (t < 0.0f) {
        t = 0.0f;
        s = std::clamp(-c / a, 0.0f, 1.0f);
      } else if (t > 1.0f) {
        t = 1.0f;
        s = std::clamp((b - c) / a, 0.0f, 1.0f);
      }
    }
  }
  *s_out = s;
  *t_out = t;
  return length_sq((p0 + d1 * s) - (q0 + d2 * t));
}

float closest_segment_triangle(Vec3 a0, Vec3 a1, Vec3 p0, Vec3 p1, Vec3 p2, Vec3* on_segment, float w[3]) {
  // Does the segment pierce the triangle? (ends strictly on opposite sides of its plane, crossing
  // point inside): distance 0, no direction.
  const Vec3 n = cross(p1 - p0, p2 - p0);
  const float s0 = dot(a0 - p0, n), s1 = dot(a1 - p0, n);
  if ((s0 < 0.0f && s1 > 0.0f) || (s0 > 0.0f && s1 < 0.0f)) {
    const Vec3 x = a0 + (a1 - a0) * (s0 / (s0 - s1));
    float wx[3];
    bool in_face;
    closest_on_triangle(x, p0, p1, p2, wx, &in_face);
    if (in_face) return 0.0f;
  }
  // Otherwise the closest pair has a segment end against the triangle, or a triangle edge against
  // the segment.
  float best = INFINITY;
  const Vec3 ends[2] = {a0, a1};
  for (const Vec3& e : ends) {
    float we[3];
    bool in_face;
    const Vec3 q = closest_on_triangle(e, p0, p1, p2, we, &in_face);
    const float d2 = length_sq(e - q);
    if (d2 < best) {
      best = d2;
      *on_segment = e;
      std::copy(we, we + 3, w);
    }
  }
  const Vec3 corner[3] = {p0, p1, p2};
  for (int i = 0; i < 3; ++i) {
    const int j = (i + 1) % 3;
    float s, t;
    const float d2 = closest_between_segments(a0, a1, corner[i], corner[j], &s, &t);
    if (d2 < best) {
      best = d2;
      *on_segment = a0 + (a1 - a0) * s;
      w[0] = w[1] = w[2] = 0.0f;
      w[i] = 1.0f - t;
      w[j] = t;
    }
  }
  return best;
}

}  // namespace sb
