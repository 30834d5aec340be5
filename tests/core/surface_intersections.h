// Counting where a body's boundary passes through itself, for tests: every pair of surface triangles
// that meet anywhere but where the mesh joins them. Brute force over all pairs (with a bounding-box
// reject), so meant for test bodies of up to a few thousand surface triangles.
//
// Exact: every decision is the sign of an orientation determinant (sb::orient3d, exact in sign), on
// the float coordinates widened to double. Two closed triangles intersect iff an edge of one meets
// the other triangle, or (coplanar) an edge of one meets an edge of the other or a vertex of one lies
// inside the other. Pairs that share vertices are judged on what they do not share:
//   - no shared vertex: any contact counts;
//   - one shared vertex v, (v, a, b) and (v, c, d): their meeting set is a segment from v along the
//     line of the two planes, which ends on ab or on cd, so they meet beyond v iff ab meets the second
//     triangle or cd the first (or, coplanar, the two wedges at v overlap);
//   - a shared edge uv, (u, v, a) and (u, v, b): they meet beyond uv only when folded flat onto each
//     other, coplanar with a and b on the same side of uv.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "math/predicates.h"

namespace testing_surfaces {

namespace detail {

struct P3 {
  double v[3];
};

inline P3 at(const float* xyz, uint32_t i) { return {{double(xyz[3 * i]), double(xyz[3 * i + 1]), double(xyz[3 * i + 2])}}; }

inline int orient(const P3& a, const P3& b, const P3& c, const P3& d) { return sb::orient3d(a.v, b.v, c.v, d.v); }

// The sign of the 2D orientation of a, b, c projected along axis k: orient3d(a, b, c, a + e_k) is
// the 3 x 3 determinant with d - a = e_k, i.e. exactly the 2 x 2 minor of the other two axes (a + 1 is
// exact in double for float coordinates below 2^29).
inline int orient2(const P3& a, const P3& b, const P3& c, int k) {
  P3 d = a;
  d.v[k] += 1.0;
  return orient(a, b, c, d);
}

// Closed segments pq and rs, all four points on one plane, projected along k.
inline bool segments_meet_2d(const P3& p, const P3& q, const P3& r, const P3& s, int k) {
  const int o1 = orient2(p, q, r, k), o2 = orient2(p, q, s, k), o3 = orient2(r, s, p, k), o4 = orient2(r, s, q, k);
  if (o1 * o2 < 0 && o3 * o4 < 0) return true;
  // Touching or collinear: a point on the other segment (collinear, within its box).
  const auto on = [k](const P3& a, const P3& b, const P3& x, int o) {
    if (o != 0) return false;
    for (int i = 0; i < 3; ++i) {
      if (i == k) continue;
      if (x.v[i] < std::min(a.v[i], b.v[i]) || x.v[i] > std::max(a.v[i], b.v[i])) return false;
    }
    return true;
  };
  if (o1 * o2 <= 0 && o3 * o4 <= 0 && (o1 != 0 || o2 != 0 || o3 != 0 || o4 != 0)) return true;
  return on(p, q, r, o1) || on(p, q, s, o2) || on(r, s, p, o3) || on(r, s, q, o4);
}

// Closed triangle abc contains x, all on one plane, projected along k (abc not degenerate there).
inline bool inside_2d(const P3& a, const P3& b, const P3& c, const P3& x, int k) {
  const int o1 = orient2(a, b, x, k), o2 = orient2(b, c, x, k), o3 = orient2(c, a, x, k);
  return !((o1 < 0 || o2 < 0 || o3 < 0) && (o1 > 0 || o2 > 0 || o3 > 0));
}

// The axis to project a plane along: its normal's largest component (any axis the triangle is not
// edge-on to would do; this one is safe). -1 for a degenerate (collinear) triangle.
inline int drop_axis(const P3& a, const P3& b, const P3& c) {
  const double u[3] = {b.v[0] - a.v[0], b.v[1] - a.v[1], b.v[2] - a.v[2]};
  const double w[3] = {c.v[0] - a.v[0], c.v[1] - a.v[1], c.v[2] - a.v[2]};
  const double n[3] = {std::fabs(u[1] * w[2] - u[2] * w[1]), std::fabs(u[2] * w[0] - u[0] * w[2]),
                       std::fabs(u[0] * w[1] - u[1] * w[0])};
  if (!(n[0] > 0 || n[1] > 0 || n[2] > 0)) return -1;
  return n[0] >= n[1] && n[0] >= n[2] ? 0 : n[1] >= n[2] ? 1 : 2;
}

// Closed segment pq against closed triangle abc (not coplanar: the caller checks that).
inline bool segment_crosses(const P3& p, const P3& q, const P3& a, const P3& b, const P3& c) {
  const int s1 = orient(a, b, c, p), s2 = orient(a, b, c, q);
  if (s1 * s2 > 0 || (s1 == 0 && s2 == 0)) return false;
  const int t1 = orient(p, q, a, b), t2 = orient(p, q, b, c), t3 = orient(p, q, c, a);
  return !((t1 < 0 || t2 < 0 || t3 < 0) && (t1 > 0 || t2 > 0 || t3 > 0));
}

// Two coplanar closed triangles.
inline bool coplanar_meet(const P3 t[3], const P3 u[3], int k) {
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      if (segments_meet_2d(t[i], t[(i + 1) % 3], u[j], u[(j + 1) % 3], k)) return true;
  return inside_2d(t[0], t[1], t[2], u[0], k) || inside_2d(u[0], u[1], u[2], t[0], k);
}

inline bool coplanar(const P3 t[3], const P3 u[3]) {
  return orient(t[0], t[1], t[2], u[0]) == 0 && orient(t[0], t[1], t[2], u[1]) == 0 && orient(t[0], t[1], t[2], u[2]) == 0;
}

}  // namespace detail

// Surface triangles (3 vertex ids each, in xyz positions) that pass through each other, as pairs;
// with `pairs`, each pair's two triangle indices are appended to it.
inline uint32_t count_surface_intersections(const float* xyz, const uint32_t* triangles, uint32_t triangle_count,
                                            std::vector<uint32_t>* pairs = nullptr) {
  using namespace detail;
  std::vector<double> box(6 * size_t(triangle_count));
  for (uint32_t t = 0; t < triangle_count; ++t) {
    double* b = &box[6 * size_t(t)];
    for (int k = 0; k < 3; ++k) b[k] = INFINITY, b[3 + k] = -INFINITY;
    for (int i = 0; i < 3; ++i)
      for (int k = 0; k < 3; ++k) {
        const double v = xyz[3 * triangles[3 * t + i] + k];
        b[k] = std::min(b[k], v), b[3 + k] = std::max(b[3 + k], v);
      }
  }
  // Sweep along x: triangles by their boxes' low x, each tested against those starting within its extent.
  std::vector<uint32_t> order(triangle_count);
  for (uint32_t t = 0; t < triangle_count; ++t) order[t] = t;
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return box[6 * size_t(a)] < box[6 * size_t(b)]; });
  uint32_t count = 0;
  for (uint32_t i = 0; i < triangle_count; ++i)
    for (uint32_t j = i + 1; j < triangle_count && box[6 * size_t(order[j])] <= box[6 * size_t(order[i]) + 3]; ++j) {
      const uint32_t s = order[i], t = order[j];
      const double *bs = &box[6 * size_t(s)], *bt = &box[6 * size_t(t)];
      if (bs[0] > bt[3] || bt[0] > bs[3] || bs[1] > bt[4] || bt[1] > bs[4] || bs[2] > bt[5] || bt[2] > bs[5]) continue;
      const uint32_t* a = triangles + 3 * s;
      const uint32_t* b = triangles + 3 * t;
      // Rotate both so the shared vertices come first, in the same order.
      uint32_t ia[3] = {a[0], a[1], a[2]}, ib[3] = {b[0], b[1], b[2]};
      int shared = 0;
      for (int i = 0; i < 3; ++i)
        for (int j = shared; j < 3; ++j)
          if (ia[i] == ib[j]) {
            std::swap(ia[shared], ia[i]);
            std::swap(ib[shared], ib[j]);
            ++shared;
            break;
          }
      if (shared == 3) continue;  // the same triangle twice
      P3 T[3], U[3];
      for (int i = 0; i < 3; ++i) T[i] = at(xyz, ia[i]), U[i] = at(xyz, ib[i]);
      const int k = drop_axis(T[0], T[1], T[2]);
      if (k < 0 || drop_axis(U[0], U[1], U[2]) < 0) continue;  // a collapsed triangle: nothing to pass through
      const bool flat = coplanar(T, U);
      bool meet = false;
      if (shared == 0) {
        if (flat) meet = coplanar_meet(T, U, k);
        else
          for (int i = 0; i < 3 && !meet; ++i)
            meet = segment_crosses(T[i], T[(i + 1) % 3], U[0], U[1], U[2]) ||
                   segment_crosses(U[i], U[(i + 1) % 3], T[0], T[1], T[2]);
      } else if (shared == 1) {
        if (flat) {
          // The wedges at v overlap iff an edge from v of one lies inside the other's angle, or the
          // opposite edges meet.
          meet = segments_meet_2d(T[1], T[2], U[1], U[2], k);
          for (int i = 1; i < 3 && !meet; ++i) {
            const int o1 = orient2(U[0], U[1], T[i], k), o2 = orient2(U[0], T[i], U[2], k), o = orient2(U[0], U[1], U[2], k);
            const int p1 = orient2(T[0], T[1], U[i], k), p2 = orient2(T[0], U[i], T[2], k), p = orient2(T[0], T[1], T[2], k);
            meet = (o1 == o && o2 == o) || (p1 == p && p2 == p);
          }
        } else {
          meet = segment_crosses(T[1], T[2], U[0], U[1], U[2]) || segment_crosses(U[1], U[2], T[0], T[1], T[2]);
        }
      } else {  // a shared edge: folded flat onto each other
        meet = flat && orient2(T[0], T[1], T[2], k) == orient2(T[0], T[1], U[2], k);
      }
      count += meet ? 1u : 0u;
      if (meet && pairs) pairs->insert(pairs->end(), {s, t});
    }
  return count;
}

}  // namespace testing_surfaces
