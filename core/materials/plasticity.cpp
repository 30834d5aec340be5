#include "materials/plasticity.h"

#include "materials/neo_hookean_xpbd.h"

#include <algorithm>
#include <cmath>

namespace sb {

namespace {

// Full 3x3 from the packed symmetric form G00 G11 G22 G01 G02 G12.
struct Sym3 {
  double m[3][3];
  explicit Sym3(const double G[6]) {
    m[0][0] = G[0], m[1][1] = G[1], m[2][2] = G[2];
    m[0][1] = m[1][0] = G[3];
    m[0][2] = m[2][0] = G[4];
    m[1][2] = m[2][1] = G[5];
  }
};

double det_sym(const double G[6]) {
  return G[0] * (G[1] * G[2] - G[5] * G[5]) - G[3] * (G[3] * G[2] - G[5] * G[4]) + G[4] * (G[3] * G[5] - G[1] * G[4]);
}

// Inverse of a symmetric matrix, packed the same way; false if singular.
bool inverse_sym(const double G[6], double out[6]) {
  const double c00 = G[1] * G[2] - G[5] * G[5];
  const double c01 = G[4] * G[5] - G[3] * G[2];
  const double c02 = G[3] * G[5] - G[4] * G[1];
  const double det = G[0] * c00 + G[3] * c01 + G[4] * c02;
  if (!(std::fabs(det) > 0.0)) return false;
  const double inv = 1.0 / det;
  out[0] = c00 * inv;
  out[1] = (G[0] * G[2] - G[4] * G[4]) * inv;
  out[2] = (G[0] * G[1] - G[3] * G[3]) * inv;
  out[3] = c01 * inv;
  out[4] = c02 * inv;
  out[5] = (G[3] * G[4] - G[0] * G[5]) * inv;
  return true;
}

}  // namespace

void tet_metric(const float* x, const uint32_t* id, double G[6]) {
  double e[3][3];
  for (int k = 0; k < 3; ++k)
    for (int c = 0; c < 3; ++c) e[k][c] = double(x[3 * id[k + 1] + c]) - double(x[3 * id[0] + c]);
  auto dot = [&](int a, int b) { return e[a][0] * e[b][0] + e[a][1] * e[b][1] + e[a][2] * e[b][2]; };
  G[0] = dot(0, 0), G[1] = dot(1, 1), G[2] = dot(2, 2);
  G[3] = dot(0, 1), G[4] = dot(0, 2), G[5] = dot(1, 2);
}

double equivalent_strain(const double G[6], const double g[6]) {
  double Gi[6];
  if (!inverse_sym(G, Gi)) return 0.0;
  const Sym3 a(Gi), b(g);
  double M[3][3];  // G^-1 g (similar to the symmetric C = F^T F)
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) M[i][j] = a.m[i][0] * b.m[0][j] + a.m[i][1] * b.m[1][j] + a.m[i][2] * b.m[2][j];
  for (int i = 0; i < 3; ++i) M[i][i] -= 1.0;
  double tr2 = 0.0;  // tr((M - I)^2) = sum_ij A_ij A_ji
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) tr2 += M[i][j] * M[j][i];
  return std::sqrt(std::max(0.0, tr2) / 6.0);
}

// G + f (g - G), scaled back to det G (the rest volume); false if not positive definite.
static bool blend(const double G[6], const double g[6], double det_rest, double f, double out[6]) {
  for (int k = 0; k < 6; ++k) out[k] = G[k] + f * (g[k] - G[k]);
  const double d = det_sym(out);
  if (!(d > 0.0)) return false;
  const double back = std::cbrt(det_rest / d);
  for (int k = 0; k < 6; ++k) out[k] *= back;
  return true;
}

bool plastic_flow(const double G0[6], double G[6], const double g_deformed[6], double yield, double creep_dt) {
  const double det_rest = det_sym(G);
  const double det_now = det_sym(g_deformed);
  if (!(det_rest > 0.0) || !(det_now > 0.0)) return false;  // inverted now: no plastic memory of that
  // The isochoric part of the deformation: volume change does not yield.
  double g[6];
  const double s = std::cbrt(det_rest / det_now);
  for (int k = 0; k < 6; ++k) g[k] = g_deformed[k] * s;
  const double eps = equivalent_strain(G, g);
  if (!(eps > yield)) return false;
  // The blend that leaves exactly the yield strain: r(f) = strain(blend(f), g) - yield falls from
  // eps - yield at f = 0 to -yield at f = 1 (blend(1) = g). Found by regula falsi (Illinois); the
  // first guess, (1 - yield/eps) / (1 + 2 yield), is exact for a 1D Green strain.
  double lo = 0.0, hi = 1.0, r_lo = eps - yield, r_hi = -yield;
  double f = (1.0 - yield / eps) / (1.0 + 2.0 * yield);
  double next[6];
  for (int it = 0; it < 8; ++it) {
    if (!blend(G, g, det_rest, f, next)) return false;
    const double r = equivalent_strain(next, g) - yield;
    if (std::fabs(r) <= 1e-4 * std::max(yield, 1e-3)) break;
    if (r > 0.0) {
      lo = f, r_lo = r;
      r_hi *= 0.5;
    } else {
      hi = f, r_hi = r;
      r_lo *= 0.5;
    }
    f = lo + (hi - lo) * r_lo / (r_lo - r_hi);
  }
  // creep dt < 1 takes that fraction of the way this frame. The blend is positive definite (both
  // ends are) and det^(1/3) is concave, so it is only ever scaled down to keep the rest volume.
  f *= std::min(1.0, creep_dt);
  for (int tries = 0; tries < 6; ++tries, f *= 0.5) {
    if (!blend(G, g, det_rest, f, next)) continue;
    if (equivalent_strain(G0, next) > kMaxPlasticStrain) continue;  // too far from the creation shape
    std::copy(next, next + 6, G);
    return true;
  }
  return false;
}

double metric_edge_sq(const double G[6], int k) {
  switch (k) {
    case 0: return G[0];                       // 01
    case 1: return G[1];                       // 02
    case 2: return G[2];                       // 03
    case 3: return G[0] + G[1] - 2.0 * G[3];  // 12
    case 4: return G[0] + G[2] - 2.0 * G[4];  // 13
    default: return G[1] + G[2] - 2.0 * G[5];  // 23
  }
}

bool metric_inverse_rest(const double G[6], float B[9]) {
  // G = L L^T, U = L^T upper triangular with U^T U = G.
  const double l00 = G[0] > 0.0 ? std::sqrt(G[0]) : 0.0;
  if (!(l00 > 0.0)) return false;
  const double l10 = G[3] / l00, l20 = G[4] / l00;
  const double d11 = G[1] - l10 * l10;
  if (!(d11 > 0.0)) return false;
  const double l11 = std::sqrt(d11);
  const double l21 = (G[5] - l20 * l10) / l11;
  const double d22 = G[2] - l20 * l20 - l21 * l21;
  if (!(d22 > 0.0)) return false;
  const double l22 = std::sqrt(d22);
  // U = [[l00, l10, l20], [0, l11, l21], [0, 0, l22]]; its inverse, also upper triangular.
  const double i00 = 1.0 / l00, i11 = 1.0 / l11, i22 = 1.0 / l22;
  const double i01 = -l10 * i00 * i11;
  const double i12 = -l21 * i11 * i22;
  const double i02 = -(l20 * i00 + l21 * i01) * i22;
  const double inv[9] = {i00, i01, i02, 0.0, i11, i12, 0.0, 0.0, i22};
  for (int k = 0; k < 9; ++k) B[k] = float(inv[k]);
  return true;
}

// The float yield test's data of tet t from its metric.
static void refresh_check(PlasticState& s, size_t t) {
  const double* G = &s.metric[6 * t];
  double inv[6];
  float* c = &s.check[7 * t];
  if (!inverse_sym(G, inv)) std::fill(inv, inv + 6, 0.0);  // never: rest metrics stay positive definite
  for (int k = 0; k < 6; ++k) c[k] = float(inv[k]);
  c[6] = float(det_sym(G));
}

// The equivalent strain of the tet at x against the float test data c (see PlasticState::check),
// all in float: M = s G^-1 g - I with s = (det G / det g)^(1/3), entries of order the strain. When a
// cheaper upper bound is already below `below`, that bound is returned instead.
static float quick_strain(const float* x, const uint32_t* id, const float* c, float below) {
  float e[3][3];
  for (int k = 0; k < 3; ++k)
    for (int j = 0; j < 3; ++j) e[k][j] = x[3 * id[k + 1] + j] - x[3 * id[0] + j];
  float g[3][3];
  for (int a = 0; a < 3; ++a)
    for (int b = a; b < 3; ++b) g[a][b] = g[b][a] = e[a][0] * e[b][0] + e[a][1] * e[b][1] + e[a][2] * e[b][2];
  const float Gi[3][3] = {{c[0], c[3], c[4]}, {c[3], c[1], c[5]}, {c[4], c[5], c[2]}};
  float A[3][3];  // G^-1 g: its eigenvalues are the squared principal stretches
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) A[i][j] = Gi[i][0] * g[0][j] + Gi[i][1] * g[1][j] + Gi[i][2] * g[2][j];
  // Without the isochoric scale first: eps_raw = sqrt(tr((A - I)^2) / 6) bounds every |lambda - 1| by
  // d = sqrt(6) eps_raw, and the scaled stretches then differ from 1 by at most 2d / (1 - d), so the
  // isochoric strain is at most 2 sqrt(3) eps_raw / (1 - d). Resting tets stop here, without a cbrt.
  float raw2 = 0.0f;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) raw2 += (A[i][j] - (i == j)) * (A[j][i] - (i == j));
  const float raw = std::sqrt(std::max(0.0f, raw2) / 6.0f);
  const float d = 2.4495f * raw;
  if (d < 0.5f) {
    const float bound = 3.4642f * raw / (1.0f - d);
    if (bound < below) return bound;
  }
  const float det_g = g[0][0] * (g[1][1] * g[2][2] - g[1][2] * g[1][2]) - g[0][1] * (g[0][1] * g[2][2] - g[1][2] * g[0][2]) +
                      g[0][2] * (g[0][1] * g[1][2] - g[1][1] * g[0][2]);
  if (!(det_g > 0.0f)) return 0.0f;  // inverted: plastic_flow would not flow it either
  const float scale = std::cbrt(c[6] / det_g);
  float tr2 = 0.0f;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) tr2 += (scale * A[i][j] - (i == j)) * (scale * A[j][i] - (i == j));
  return std::sqrt(std::max(0.0f, tr2) / 6.0f);
}

void reset_plastic_state(PlasticState& s) {
  s.metric = s.original_metric;
  for (size_t t = 0; t < s.metric.size() / 6; ++t) refresh_check(s, t);
}

PlasticState make_plastic_state(const float* rest, const uint32_t* tets, uint32_t tet_count, const uint32_t* edges,
                                uint32_t edge_count) {
  PlasticState s;
  s.metric.resize(6 * size_t(tet_count));
  for (uint32_t t = 0; t < tet_count; ++t) tet_metric(rest, tets + 4 * t, &s.metric[6 * size_t(t)]);
  s.original_metric = s.metric;
  s.check.resize(7 * size_t(tet_count));
  for (uint32_t t = 0; t < tet_count; ++t) refresh_check(s, t);
  // Edge index of each vertex pair, by a sorted list of (min, max, index); the first index wins if a
  // spring repeats a tet edge.
  struct Key {
    uint32_t a, b, e;
  };
  std::vector<Key> keys(edge_count);
  for (uint32_t e = 0; e < edge_count; ++e)
    keys[e] = {std::min(edges[2 * e], edges[2 * e + 1]), std::max(edges[2 * e], edges[2 * e + 1]), e};
  auto less = [](const Key& p, const Key& q) { return p.a != q.a ? p.a < q.a : p.b != q.b ? p.b < q.b : p.e < q.e; };
  std::sort(keys.begin(), keys.end(), less);
  static const int kLocal[6][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
  s.tet_edge.resize(6 * size_t(tet_count));
  s.edge_tets.assign(edge_count, 0);
  s.edge_sum.assign(edge_count, 0.0);
  for (uint32_t t = 0; t < tet_count; ++t)
    for (int k = 0; k < 6; ++k) {
      const uint32_t i = tets[4 * t + kLocal[k][0]], j = tets[4 * t + kLocal[k][1]];
      const Key probe{std::min(i, j), std::max(i, j), 0};
      const auto it = std::lower_bound(keys.begin(), keys.end(), probe, less);
      // Every tet edge is in the list (the body builds it from its tets).
      s.tet_edge[6 * size_t(t) + k] = it->e;
      ++s.edge_tets[it->e];
    }
  return s;
}

uint32_t apply_plastic_flow(PlasticState& s, const float* x, const uint32_t* tets, uint32_t tet_count, double yield,
                            double creep_dt, float* edge_rest, float* B, const FlowBound& bound) {
  uint32_t flowed = 0;
  for (uint32_t t = 0; t < tet_count; ++t) {
    // Float rounding of the quick test is ~1e-6 of the strain: a 1 % margin never skips a tet the
    // double-precision test would flow.
    const float threshold = 0.99f * float(yield);
    if (quick_strain(x, tets + 4 * t, &s.check[7 * size_t(t)], threshold) < threshold) continue;
    double g[6];
    tet_metric(x, tets + 4 * t, g);
    double* G = &s.metric[6 * size_t(t)];
    double old_metric[6];
    std::copy(G, G + 6, old_metric);
    if (!plastic_flow(&s.original_metric[6 * size_t(t)], G, g, yield, creep_dt)) continue;
    float flowed_B[9];
    metric_inverse_rest(G, flowed_B);  // G stays positive definite (plastic_flow)
    if (bound.max_trace_volume > 0.0 &&
        tet_inertia_trace(bound.inv_mass, tets + 4 * size_t(t), flowed_B) * bound.rest_volume[t] > bound.max_trace_volume) {
      std::copy(old_metric, old_metric + 6, G);  // past the bound: this tet keeps its rest shape
      continue;
    }
    ++flowed;
    refresh_check(s, t);
    std::copy(flowed_B, flowed_B + 9, B + 9 * size_t(t));
  }
  if (flowed == 0) return 0;
  // Each tet edge's rest length: the mean of what its tets say (neighbours' metrics differ once they
  // flowed differently). Springs of no tet keep theirs.
  std::fill(s.edge_sum.begin(), s.edge_sum.end(), 0.0);
  for (uint32_t t = 0; t < tet_count; ++t)
    for (int k = 0; k < 6; ++k)
      s.edge_sum[s.tet_edge[6 * size_t(t) + k]] += std::sqrt(std::max(0.0, metric_edge_sq(&s.metric[6 * size_t(t)], k)));
  for (size_t e = 0; e < s.edge_sum.size(); ++e)
    if (s.edge_tets[e] > 0) edge_rest[e] = float(s.edge_sum[e] / s.edge_tets[e]);
  return flowed;
}

}  // namespace sb
