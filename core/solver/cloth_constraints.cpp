#include "solver/cloth_constraints.h"

#include <algorithm>
#include <cmath>

#include "math/vec3.h"
#include "math/vec4.h"
#include "shapes/cloth_mesh.h"

namespace sb {

namespace {

// cot of the angle between u and v.
double cot(const double u[3], const double v[3]) {
  const double c[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
  return (u[0] * v[0] + u[1] * v[1] + u[2] * v[2]) / std::sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
}

// The hinge frame at positions x (edge, normal, edge x normal... as e, n, t = n x e), unit vectors.
void hinge_frame(Vec3 x0, Vec3 x1, Vec3 x2, Vec3 x3, Vec3* e, Vec3* n, Vec3* t) {
  const Vec3 edge = x1 - x0;
  const Vec3 normal = cross(edge, x2 - x0) + cross(x0 - x1, x3 - x1);  // both triangles, area-weighted
  const float le = length(edge), ln = length(normal);
  *e = edge * (le > 0.0f ? 1.0f / le : 0.0f);
  *n = normal * (ln > 0.0f ? 1.0f / ln : 0.0f);
  *t = cross(*n, *e);
}

// K x of hinge h.
Vec3 hinge_curvature(const uint32_t* id, const float* k, const float* x) {
  return load3(x, id[0]) * k[0] + load3(x, id[1]) * k[1] + load3(x, id[2]) * k[2] + load3(x, id[3]) * k[3];
}

// R b: the rest vector b (hinge frame) in the frame of the positions x.
Vec3 rotated_rest(const uint32_t* id, const float* b, const float* x) {
  Vec3 e, n, t;
  hinge_frame(load3(x, id[0]), load3(x, id[1]), load3(x, id[2]), load3(x, id[3]), &e, &n, &t);
  return e * b[0] + n * b[1] + t * b[2];
}

// Is the hinge flat at rest? Its curvature K x in double, from x0 (the weights sum to 0) with the
// unrounded weights, is at most 1e-5 of the edge's length (an angle of ~1e-5 rad) plus what rounding
// the positions to float can bend (half an ulp of the largest coordinate at each vertex, times the
// weights). K x in float, as stored, is not a test: at 0.7 m from the origin its rounding alone
// reached 2.8e-5 of a 16 mm edge, and a flat 64-across sheet paid the hinge frame in every projection.
bool flat_hinge(const double p[4][3], double c01, double c02, double c03, double c04) {
  const double k[4] = {c03 + c04, c01 + c02, -c01 - c03, -c02 - c04};
  double b[3] = {0.0, 0.0, 0.0}, edge2 = 0.0, largest = 0.0, weights = 0.0;
  for (int i = 0; i < 4; ++i) {
    weights += std::fabs(k[i]);
    for (int c = 0; c < 3; ++c) {
      b[c] += k[i] * (p[i][c] - p[0][c]);
      largest = std::max(largest, std::fabs(p[i][c]));
    }
  }
  for (int c = 0; c < 3; ++c) edge2 += (p[1][c] - p[0][c]) * (p[1][c] - p[0][c]);
  const double rounding = weights * largest * std::ldexp(1.0, -24);  // m: half an ulp per coordinate
  return std::sqrt(b[0] * b[0] + b[1] * b[1] + b[2] * b[2]) <= 1e-5 * std::sqrt(edge2) + rounding;
}

// Each triangle side as (low, high) with its triangle and position in it, sorted by edge.
struct Side {
  uint32_t lo, hi, tri, k;
};
std::vector<Side> sorted_sides(const uint32_t* tris, uint32_t count) {
  std::vector<Side> sides;
  sides.reserve(3 * size_t(count));
  for (uint32_t t = 0; t < count; ++t)
    for (uint32_t k = 0; k < 3; ++k) {
      const uint32_t a = tris[3 * t + k], b = tris[3 * t + (k + 1) % 3];
      sides.push_back({std::min(a, b), std::max(a, b), t, k});
    }
  std::sort(sides.begin(), sides.end(), [](const Side& p, const Side& q) {
    return p.lo != q.lo ? p.lo < q.lo : p.hi != q.hi ? p.hi < q.hi : p.tri < q.tri;
  });
  return sides;
}

}  // namespace

ClothModel make_cloth_model(const float* x, uint32_t vertex_count, const uint32_t* tris, uint32_t triangle_count) {
  ClothModel m;
  const std::vector<float> areas = triangle_areas(x, tris, triangle_count);
  m.vertex_area.assign(vertex_count, 0.0f);
  for (uint32_t t = 0; t < triangle_count; ++t)
    for (int k = 0; k < 3; ++k) m.vertex_area[tris[3 * t + k]] += areas[t] / 3.0f;
  const std::vector<Side> sides = sorted_sides(tris, triangle_count);
  bool flat = true;
  for (size_t s = 0; s + 1 < sides.size(); ++s) {
    if (sides[s].lo != sides[s + 1].lo || sides[s].hi != sides[s + 1].hi) continue;  // a border edge
    // The triangle that runs lo -> hi gives x0 x1 x2; the other (running hi -> lo) gives x3.
    const Side& f = tris[3 * sides[s].tri + sides[s].k] == sides[s].lo ? sides[s] : sides[s + 1];
    const Side& g = &f == &sides[s] ? sides[s + 1] : sides[s];
    const uint32_t id[4] = {f.lo, f.hi, tris[3 * f.tri + (f.k + 2) % 3], tris[3 * g.tri + (g.k + 2) % 3]};
    double p[4][3];
    for (int i = 0; i < 4; ++i)
      for (int c = 0; c < 3; ++c) p[i][c] = x[3 * size_t(id[i]) + c];
    double e[5][3];  // Bergou et al.: e0 = x1 - x0, e1 = x2 - x0, e2 = x3 - x0, e3 = x2 - x1, e4 = x3 - x1
    const int from[5] = {0, 0, 0, 1, 1}, to[5] = {1, 2, 3, 2, 3};
    for (int j = 0; j < 5; ++j)
      for (int c = 0; c < 3; ++c) e[j][c] = p[to[j]][c] - p[from[j]][c];
    const double minus_e0[3] = {-e[0][0], -e[0][1], -e[0][2]};
    const double c01 = cot(e[0], e[1]), c02 = cot(e[0], e[2]), c03 = cot(minus_e0, e[3]), c04 = cot(minus_e0, e[4]);
    const float k[4] = {float(c03 + c04), float(c01 + c02), float(-c01 - c03), float(-c02 - c04)};
    m.hinge_ids.insert(m.hinge_ids.end(), id, id + 4);
    m.hinge_k.insert(m.hinge_k.end(), k, k + 4);
    m.hinge_area.push_back(areas[f.tri] + areas[g.tri]);
    // The rest curvature in the hinge's frame.
    const Vec3 b = hinge_curvature(id, k, x);
    Vec3 fe, fn, ft;
    hinge_frame(load3(x, id[0]), load3(x, id[1]), load3(x, id[2]), load3(x, id[3]), &fe, &fn, &ft);
    m.hinge_rest.insert(m.hinge_rest.end(), {dot(b, fe), dot(b, fn), dot(b, ft)});
    if (!flat_hinge(p, c01, c02, c03, c04)) flat = false;
  }
  if (flat) m.hinge_rest.clear();
  m.hinge_lambda.assign(3 * size_t(m.hinge_count()), 0.0f);
  return m;
}

void plan_hinges(ClothModel& m, uint32_t vertex_count, const std::vector<uint32_t>& vertex_bounds) {
  m.bend_plan = plan_constraints(m.hinge_ids.data(), m.hinge_count(), 4, vertex_count, vertex_bounds);
  const std::vector<uint32_t>& order = m.bend_plan.order;
  const auto permute = [&](std::vector<float>& v, int arity) {
    if (v.empty()) return;
    std::vector<float> out(v.size());
    for (size_t i = 0; i < order.size(); ++i) std::copy_n(&v[arity * size_t(order[i])], arity, &out[arity * i]);
    v.swap(out);
  };
  std::vector<uint32_t> ids(m.hinge_ids.size());
  for (size_t i = 0; i < order.size(); ++i) std::copy_n(&m.hinge_ids[4 * size_t(order[i])], 4, &ids[4 * i]);
  m.hinge_ids.swap(ids);
  permute(m.hinge_k, 4);
  permute(m.hinge_area, 1);
  permute(m.hinge_rest, 3);
  std::vector<uint32_t>().swap(m.bend_plan.order);
}

std::vector<float> cloth_edge_weights(const float* x, const uint32_t* tris, uint32_t triangle_count,
                                      const uint32_t* edges, uint32_t edge_count) {
  const std::vector<float> areas = triangle_areas(x, tris, triangle_count);
  const std::vector<Side> sides = sorted_sides(tris, triangle_count);
  std::vector<float> weights(edge_count, 1.0f);
  for (uint32_t e = 0; e < edge_count; ++e) {
    const uint32_t lo = std::min(edges[2 * e], edges[2 * e + 1]), hi = std::max(edges[2 * e], edges[2 * e + 1]);
    auto it = std::lower_bound(sides.begin(), sides.end(), Side{lo, hi, 0, 0}, [](const Side& p, const Side& q) {
      return p.lo != q.lo ? p.lo < q.lo : p.hi < q.hi;
    });
    double area = 0.0;
    for (; it != sides.end() && it->lo == lo && it->hi == hi; ++it) area += areas[it->tri];
    const double l2 = length_sq(load3(x, lo) - load3(x, hi));
    if (area > 0.0 && l2 > 0.0) weights[e] = float(area / l2);
  }
  return weights;
}

void solve_bend_span(const BendPass& p, uint32_t begin, uint32_t end) {
  float* xw = p.xw;
  for (uint32_t h = begin; h < end; ++h) {
    const uint32_t* id = p.ids + 4 * h;
    const float* k = p.k + 4 * h;
    V4 x[4];
    for (int i = 0; i < 4; ++i) x[i] = load4(xw, id[i]);
    const float denom_w = k[0] * k[0] * x[0][3] + k[1] * k[1] * x[1][3] + k[2] * k[2] * x[2][3] + k[3] * k[3] * x[3][3];
    if (denom_w == 0.0f) continue;  // all four immovable
    V4 C = x[0] * splat4(k[0]) + x[1] * splat4(k[1]) + x[2] * splat4(k[2]) + x[3] * splat4(k[3]);
    if (p.rest) {
      const Vec3 pos[4] = {{x[0][0], x[0][1], x[0][2]}, {x[1][0], x[1][1], x[1][2]}, {x[2][0], x[2][1], x[2][2]},
                           {x[3][0], x[3][1], x[3][2]}};
      Vec3 e, n, t;
      hinge_frame(pos[0], pos[1], pos[2], pos[3], &e, &n, &t);
      const float* b = p.rest + 3 * h;
      const Vec3 rb = e * b[0] + n * b[1] + t * b[2];
      C = C - V4{rb.x, rb.y, rb.z, 0.0f};
    }
    const float alpha = p.alpha_per_area * p.area[h];
    if (p.pbd_passes > 0) {
      const float f = denom_w / (denom_w + alpha);  // XPBD's first-pass share, 0..1
      const float share = p.pbd_passes == 1 ? f : -std::expm1(std::log1p(-f) / float(p.pbd_passes));
      V4 d = (splat4(0.0f) - C) * splat4(p.scale * share / denom_w);
      d[3] = 0.0f;
      for (int i = 0; i < 4; ++i) store4(xw, id[i], x[i] + d * splat4(k[i] * x[i][3]));
      continue;
    }
    V4 lam{};
    if (p.lambda) lam = V4{p.lambda[3 * h], p.lambda[3 * h + 1], p.lambda[3 * h + 2], 0.0f};
    V4 d = (splat4(0.0f) - C - lam * splat4(alpha)) * splat4(1.0f / (denom_w + alpha));
    d[3] = 0.0f;  // w (the inverse masses) stays
    for (int i = 0; i < 4; ++i) store4(xw, id[i], x[i] + d * splat4(k[i] * x[i][3]));
    if (p.lambda) {
      p.lambda[3 * h] = lam[0] + d[0];
      p.lambda[3 * h + 1] = lam[1] + d[1];
      p.lambda[3 * h + 2] = lam[2] + d[2];
    }
  }
}

double cloth_bending_energy(const ClothModel& m, float D, const float* x) {
  double u = 0.0;
  for (uint32_t h = 0; h < m.hinge_count(); ++h) {
    const uint32_t* id = &m.hinge_ids[4 * size_t(h)];
    Vec3 c = hinge_curvature(id, &m.hinge_k[4 * size_t(h)], x);
    if (!m.hinge_rest.empty()) c = c - rotated_rest(id, &m.hinge_rest[3 * size_t(h)], x);
    u += 0.5 * double(D) * double(length_sq(c)) / m.hinge_area[h];
  }
  return u;
}

void vertex_normals(const float* x, uint32_t vertex_count, const uint32_t* tris, uint32_t triangle_count, float* normals) {
  std::fill(normals, normals + 3 * size_t(vertex_count), 0.0f);
  for (uint32_t t = 0; t < triangle_count; ++t) {
    const uint32_t* id = tris + 3 * t;
    const Vec3 a = load3(x, id[0]);
    const Vec3 n = cross(load3(x, id[1]) - a, load3(x, id[2]) - a);  // twice the area along the normal
    for (int k = 0; k < 3; ++k) store3(normals, id[k], load3(normals, id[k]) + n);
  }
  for (uint32_t i = 0; i < vertex_count; ++i) {
    const Vec3 n = load3(normals, i);
    const float l = length(n);
    store3(normals, i, l > 0.0f ? n * (1.0f / l) : Vec3{0.0f, 0.0f, 0.0f});
  }
}

}  // namespace sb
