#include "meshing/surface_query.h"

#include <algorithm>
#include <cmath>

namespace sb {

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr int kLeafSize = 8;
// A cluster is "far" when the query is beyond this many radii from its centre; its dipole term
// then errs by O((r/d)^2) of its (already small) contribution.
constexpr double kFarRatio = 2.0;

inline double dot3(const double* a, const double* b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
inline void sub3(const double* a, const double* b, double* out) {
  out[0] = a[0] - b[0];
  out[1] = a[1] - b[1];
  out[2] = a[2] - b[2];
}
inline void cross3(const double* a, const double* b, double* out) {
  out[0] = a[1] * b[2] - a[2] * b[1];
  out[1] = a[2] * b[0] - a[0] * b[2];
  out[2] = a[0] * b[1] - a[1] * b[0];
}

}  // namespace

double point_triangle_distance2(const double p[3], const double a[3], const double b[3], const double c[3]) {
  // The closest point by Voronoi region of the triangle (vertex, edge or face).
  double ab[3], ac[3], ap[3];
  sub3(b, a, ab);
  sub3(c, a, ac);
  sub3(p, a, ap);
  auto dist2 = [&](const double* x) {
    double d[3];
    sub3(p, x, d);
    return dot3(d, d);
  };
  const double d1 = dot3(ab, ap), d2 = dot3(ac, ap);
  if (d1 <= 0 && d2 <= 0) return dist2(a);
  double bp[3];
  sub3(p, b, bp);
  const double d3 = dot3(ab, bp), d4 = dot3(ac, bp);
  if (d3 >= 0 && d4 <= d3) return dist2(b);
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) {
    const double v = d1 / (d1 - d3);
    const double x[3] = {a[0] + v * ab[0], a[1] + v * ab[1], a[2] + v * ab[2]};
    return dist2(x);
  }
  double cp[3];
  sub3(p, c, cp);
  const double d5 = dot3(ab, cp), d6 = dot3(ac, cp);
  if (d6 >= 0 && d5 <= d6) return dist2(c);
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) {
    const double w = d2 / (d2 - d6);
    const double x[3] = {a[0] + w * ac[0], a[1] + w * ac[1], a[2] + w * ac[2]};
    return dist2(x);
  }
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) {
    const double w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
    const double x[3] = {b[0] + w * (c[0] - b[0]), b[1] + w * (c[1] - b[1]), b[2] + w * (c[2] - b[2])};
    return dist2(x);
  }
  const double denom = 1.0 / (va + vb + vc);
  const double v = vb * denom, w = vc * denom;
  const double x[3] = {a[0] + ab[0] * v + ac[0] * w, a[1] + ab[1] * v + ac[1] * w, a[2] + ab[2] * v + ac[2] * w};
  return dist2(x);
}

SurfaceQuery::SurfaceQuery(const std::vector<double>& positions, const std::vector<uint32_t>& triangles)
    : pos_(positions), tri_(triangles) {
  const auto n = int32_t(tri_.size() / 3);
  order_.resize(size_t(n));
  for (int32_t i = 0; i < n; ++i) order_[size_t(i)] = i;
  nodes_.reserve(size_t(2 * (n / kLeafSize + 1)));
  if (n > 0) build(0, n);
}

int32_t SurfaceQuery::build(int32_t begin, int32_t end) {
  const auto id = int32_t(nodes_.size());
  nodes_.push_back(Node{});
  Node node{};
  for (int k = 0; k < 3; ++k) {
    node.lo[k] = HUGE_VAL;
    node.hi[k] = -HUGE_VAL;
  }
  node.left = node.right = -1;
  node.begin = begin;
  node.end = end;
  auto centroid = [&](int32_t t, int k) {
    return (pos_[3 * tri_[3 * size_t(t)] + size_t(k)] + pos_[3 * tri_[3 * size_t(t) + 1] + size_t(k)] +
            pos_[3 * tri_[3 * size_t(t) + 2] + size_t(k)]) / 3.0;
  };
  for (int32_t i = begin; i < end; ++i)
    for (int v = 0; v < 3; ++v)
      for (int k = 0; k < 3; ++k) {
        const double x = pos_[3 * tri_[3 * size_t(order_[size_t(i)]) + size_t(v)] + size_t(k)];
        node.lo[k] = std::min(node.lo[k], x);
        node.hi[k] = std::max(node.hi[k], x);
      }
  if (end - begin > kLeafSize) {
    int axis = 0;
    for (int k = 1; k < 3; ++k)
      if (node.hi[k] - node.lo[k] > node.hi[axis] - node.lo[axis]) axis = k;
    const int32_t mid = begin + (end - begin) / 2;
    // A strict total order (centroid, then id): every platform splits into the same two sets.
    std::nth_element(order_.begin() + begin, order_.begin() + mid, order_.begin() + end, [&](int32_t a, int32_t b) {
      const double ca = centroid(a, axis), cb = centroid(b, axis);
      return ca < cb || (ca == cb && a < b);
    });
    node.left = build(begin, mid);
    node.right = build(mid, end);
    // Aggregates from the children, in a fixed order, so sums round alike everywhere.
    const Node& l = nodes_[size_t(node.left)];
    const Node& r = nodes_[size_t(node.right)];
    node.area = l.area + r.area;
    for (int k = 0; k < 3; ++k) {
      node.dipole[k] = l.dipole[k] + r.dipole[k];
      node.center[k] = node.area > 0 ? (l.area * l.center[k] + r.area * r.center[k]) / node.area
                                     : 0.5 * (node.lo[k] + node.hi[k]);
    }
  } else {
    // Leaf: triangles in id order (the split leaves them in a platform-dependent order).
    std::sort(order_.begin() + begin, order_.begin() + end);
    double area_sum = 0, weighted[3] = {0, 0, 0};
    for (int32_t i = begin; i < end; ++i) {
      const int32_t t = order_[size_t(i)];
      const double* a = &pos_[3 * tri_[3 * size_t(t)]];
      const double* b = &pos_[3 * tri_[3 * size_t(t) + 1]];
      const double* c = &pos_[3 * tri_[3 * size_t(t) + 2]];
      double u[3], v[3], n[3];
      sub3(b, a, u);
      sub3(c, a, v);
      cross3(u, v, n);
      const double area = 0.5 * std::sqrt(dot3(n, n));
      area_sum += area;
      for (int k = 0; k < 3; ++k) {
        node.dipole[k] += 0.5 * n[k];
        weighted[k] += area * centroid(t, k);
      }
    }
    node.area = area_sum;
    for (int k = 0; k < 3; ++k) node.center[k] = area_sum > 0 ? weighted[k] / area_sum : 0.5 * (node.lo[k] + node.hi[k]);
  }
  double r2 = 0;
  for (int corner = 0; corner < 8; ++corner) {
    double d2 = 0;
    for (int k = 0; k < 3; ++k) {
      const double x = (corner >> k & 1) ? node.hi[k] : node.lo[k];
      d2 += (x - node.center[k]) * (x - node.center[k]);
    }
    r2 = std::max(r2, d2);
  }
  node.radius = std::sqrt(r2);
  nodes_[size_t(id)] = node;
  return id;
}

double SurfaceQuery::triangle_solid_angle(int32_t t, const double q[3]) const {
  // Van Oosterom and Strackee (1983): tan(omega / 2) = det[a b c] / (|a||b||c| + (a.b)|c| + ...).
  double a[3], b[3], c[3];
  sub3(&pos_[3 * tri_[3 * size_t(t)]], q, a);
  sub3(&pos_[3 * tri_[3 * size_t(t) + 1]], q, b);
  sub3(&pos_[3 * tri_[3 * size_t(t) + 2]], q, c);
  const double la = std::sqrt(dot3(a, a)), lb = std::sqrt(dot3(b, b)), lc = std::sqrt(dot3(c, c));
  double bc[3];
  cross3(b, c, bc);
  const double det = dot3(a, bc);
  const double denom = la * lb * lc + dot3(a, b) * lc + dot3(a, c) * lb + dot3(b, c) * la;
  return 2.0 * std::atan2(det, denom);
}

double SurfaceQuery::winding_number_exact(const double q[3]) const {
  double sum = 0;
  for (int32_t t = 0; t < int32_t(tri_.size() / 3); ++t) sum += triangle_solid_angle(t, q);
  return sum / (4.0 * kPi);
}

double SurfaceQuery::winding_number(const double q[3]) const { return winding_number(q, kFarRatio); }

double SurfaceQuery::winding_number(const double q[3], double far_ratio) const {
  if (nodes_.empty()) return 0.0;
  double sum = 0;  // solid angle, sr
  int32_t stack[128];
  int top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const Node& node = nodes_[size_t(stack[--top])];
    double d[3];
    sub3(node.center, q, d);
    const double dist2 = dot3(d, d);
    if (dist2 > far_ratio * far_ratio * node.radius * node.radius) {
      // Dipole: the solid angle of a small patch with area vector A at distance d is A.d / |d|^3.
      sum += dot3(node.dipole, d) / (dist2 * std::sqrt(dist2));
    } else if (node.left < 0) {
      for (int32_t i = node.begin; i < node.end; ++i) sum += triangle_solid_angle(order_[size_t(i)], q);
    } else {
      stack[top++] = node.right;
      stack[top++] = node.left;
    }
  }
  return sum / (4.0 * kPi);
}

double SurfaceQuery::ray_hit(const double o[3], const double d[3], int32_t skip, double t_min, double t_max,
                             int32_t* hit_triangle) const {
  double best = t_max;
  int32_t best_triangle = -1;
  if (hit_triangle) *hit_triangle = -1;
  if (nodes_.empty()) return HUGE_VAL;
  int32_t stack[128];
  int top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const Node& node = nodes_[size_t(stack[--top])];
    // Slab test: the ray's parameter interval inside the box, against [t_min, best).
    double t0 = t_min, t1 = best;
    for (int k = 0; k < 3 && t0 <= t1; ++k) {
      if (d[k] == 0) {
        if (o[k] < node.lo[k] || o[k] > node.hi[k]) t0 = HUGE_VAL;
        continue;
      }
      double a = (node.lo[k] - o[k]) / d[k], b = (node.hi[k] - o[k]) / d[k];
      if (a > b) std::swap(a, b);
      t0 = std::max(t0, a);
      t1 = std::min(t1, b);
    }
    if (!(t0 <= t1)) continue;
    if (node.left >= 0) {
      stack[top++] = node.right;
      stack[top++] = node.left;
      continue;
    }
    for (int32_t i = node.begin; i < node.end; ++i) {
      const int32_t t = order_[size_t(i)];
      if (t == skip) continue;
      // Moeller and Trumbore (1997): solve o + t d = a + u (b - a) + v (c - a).
      const double* a = &pos_[3 * tri_[3 * size_t(t)]];
      double e1[3], e2[3], s[3], p[3], q[3];
      sub3(&pos_[3 * tri_[3 * size_t(t) + 1]], a, e1);
      sub3(&pos_[3 * tri_[3 * size_t(t) + 2]], a, e2);
      cross3(d, e2, p);
      const double det = dot3(e1, p);
      if (det == 0) continue;  // the ray runs in the triangle's plane
      sub3(o, a, s);
      const double u = dot3(s, p) / det;
      if (u < 0 || u > 1) continue;
      cross3(s, e1, q);
      const double v = dot3(d, q) / det;
      if (v < 0 || u + v > 1) continue;
      const double hit = dot3(e2, q) / det;
      if (hit > t_min && hit < best) {
        best = hit;
        best_triangle = t;
      }
    }
  }
  if (!(best < t_max)) return HUGE_VAL;
  if (hit_triangle) *hit_triangle = best_triangle;
  return best;
}

bool SurfaceQuery::any_within(const double q[3], double distance) const {
  if (nodes_.empty()) return false;
  const double limit2 = distance * distance;
  int32_t stack[128];
  int top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const Node& node = nodes_[size_t(stack[--top])];
    double box2 = 0;  // squared distance from q to the node's box
    for (int k = 0; k < 3; ++k) {
      const double e = std::max({node.lo[k] - q[k], 0.0, q[k] - node.hi[k]});
      box2 += e * e;
    }
    if (box2 > limit2) continue;
    if (node.left < 0) {
      for (int32_t i = node.begin; i < node.end; ++i) {
        const int32_t t = order_[size_t(i)];
        if (point_triangle_distance2(q, &pos_[3 * tri_[3 * size_t(t)]], &pos_[3 * tri_[3 * size_t(t) + 1]],
                                     &pos_[3 * tri_[3 * size_t(t) + 2]]) <= limit2)
          return true;
      }
    } else {
      stack[top++] = node.right;
      stack[top++] = node.left;
    }
  }
  return false;
}

}  // namespace sb
