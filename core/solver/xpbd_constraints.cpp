#include "solver/xpbd_constraints.h"

#include <algorithm>
#include <cmath>

#include "math/vec3.h"
#include "math/vec4.h"

namespace sb {

// The loops take their multipliers as a template switch, not a runtime test per constraint: a single
// pass per substep (the default) neither reads nor stores them, which measured ~8 % of the XPBD frame.
template <bool kMultipliers>
static void edge_pass(float* pos, const float* inv_mass, const uint32_t* edge_ids, const float* rest_length,
                      uint32_t edge_count, float alpha_tilde, float* lambda) {
  for (uint32_t e = 0; e < edge_count; ++e) {
    const uint32_t a = edge_ids[2 * e], b = edge_ids[2 * e + 1];
    const float wa = inv_mass[a], wb = inv_mass[b];
    const float w = wa + wb;
    if (w == 0.0f) continue;
    const Vec3 xa = load3(pos, a), xb = load3(pos, b);
    const Vec3 d = xa - xb;
    const float len = length(d);
    if (len == 0.0f) continue;  // no direction to push along; the volume constraints separate them
    const float C = len - rest_length[e];
    const float rhs = kMultipliers ? -C - alpha_tilde * lambda[e] : -C;
    const float s = rhs / ((w + alpha_tilde) * len);  // delta_lambda / |d|
    if (kMultipliers) lambda[e] += s * len;
    store3(pos, a, xa + d * (s * wa));
    store3(pos, b, xb - d * (s * wb));
  }
}

void solve_edges(float* pos, const float* inv_mass, const uint32_t* edge_ids, const float* rest_length,
                 uint32_t edge_count, float alpha_tilde, float* lambda) {
  if (lambda) edge_pass<true>(pos, inv_mass, edge_ids, rest_length, edge_count, alpha_tilde, lambda);
  else edge_pass<false>(pos, inv_mass, edge_ids, rest_length, edge_count, alpha_tilde, nullptr);
}

void solve_edges_damped(float* pos, const float* prev, const float* inv_mass, const uint32_t* edge_ids,
                        const float* rest_length, uint32_t edge_count, float alpha_tilde, float gamma,
                        float scale, float* lambda) {
  for (uint32_t e = 0; e < edge_count; ++e) {
    const uint32_t a = edge_ids[2 * e], b = edge_ids[2 * e + 1];
    const float wa = inv_mass[a], wb = inv_mass[b];
    const float w = wa + wb;
    if (w == 0.0f) continue;
    const Vec3 xa = load3(pos, a), xb = load3(pos, b);
    const Vec3 d = xa - xb;
    const float len = length(d);
    if (len == 0.0f) continue;  // no direction to push along; the volume constraints separate them
    const float C = len - rest_length[e];
    // gamma * dC/dt * h: the constraint's change over this substep, grad C . (x - prev)
    const float damp = gamma * dot(d, (xa - load3(prev, a)) - (xb - load3(prev, b))) / len;
    const float lam = lambda ? lambda[e] : 0.0f;
    const float s = scale * (-C - alpha_tilde * lam - damp) / (((1.0f + gamma) * w + alpha_tilde) * len);
    if (lambda) lambda[e] = lam + s * len;
    store3(pos, a, xa + d * (s * wa));
    store3(pos, b, xb - d * (s * wb));
  }
}

template <bool kMultipliers>
static void volume_pass(float* pos, const float* inv_mass, const uint32_t* tet_ids, const float* rest_volume6,
                        uint32_t tet_count, float alpha_tilde, float scale, float* lambda) {
  for (uint32_t t = 0; t < tet_count; ++t) {
    const uint32_t* id = tet_ids + 4 * t;
    const float w0 = inv_mass[id[0]], w1 = inv_mass[id[1]], w2 = inv_mass[id[2]], w3 = inv_mass[id[3]];
    const Vec3 x0 = load3(pos, id[0]), x1 = load3(pos, id[1]), x2 = load3(pos, id[2]), x3 = load3(pos, id[3]);
    const Vec3 e1 = x1 - x0, e2 = x2 - x0, e3 = x3 - x0;
    const Vec3 g1 = cross(e2, e3);
    const Vec3 g2 = cross(e3, e1);
    const Vec3 g3 = cross(e1, e2);
    const Vec3 g0 = (g1 + g2 + g3) * -1.0f;
    const float w = w0 * length_sq(g0) + w1 * length_sq(g1) + w2 * length_sq(g2) + w3 * length_sq(g3);
    if (w == 0.0f) continue;
    const float C = dot(g3, e3) - rest_volume6[t];  // 6V - 6V0
    const float rhs = kMultipliers ? -C - alpha_tilde * lambda[t] : -C;
    const float s = scale * rhs / (w + alpha_tilde);  // delta_lambda
    if (kMultipliers) lambda[t] += s;
    store3(pos, id[0], x0 + g0 * (s * w0));
    store3(pos, id[1], x1 + g1 * (s * w1));
    store3(pos, id[2], x2 + g2 * (s * w2));
    store3(pos, id[3], x3 + g3 * (s * w3));
  }
}

void solve_volumes(float* pos, const float* inv_mass, const uint32_t* tet_ids, const float* rest_volume6,
                   uint32_t tet_count, float alpha_tilde, float scale, float* lambda) {
  if (lambda) volume_pass<true>(pos, inv_mass, tet_ids, rest_volume6, tet_count, alpha_tilde, scale, lambda);
  else volume_pass<false>(pos, inv_mass, tet_ids, rest_volume6, tet_count, alpha_tilde, scale, nullptr);
}

// x, y, z of v with w = 0: a correction along it leaves the inverse mass in w untouched.
static inline V4 xyz0(V4 v) { return __builtin_shufflevector(v, V4{0.0f, 0.0f, 0.0f, 0.0f}, 0, 1, 2, 4); }

template <bool kMultipliers>
static void edge_pass_packed(float* xw, const uint32_t* edge_ids, const float* rest_length, uint32_t edge_count,
                             float alpha_tilde, float* lambda) {
  for (uint32_t e = 0; e < edge_count; ++e) {
    const uint32_t a = edge_ids[2 * e], b = edge_ids[2 * e + 1];
    const V4 xa = load4(xw, a), xb = load4(xw, b);
    const float wa = xa[3], wb = xb[3];
    const float w = wa + wb;
    if (w == 0.0f) continue;
    const V4 d = xyz0(xa - xb);
    const float len = std::sqrt(dot3(d, d));
    if (len == 0.0f) continue;  // no direction to push along; the volume constraints separate them
    const float C = len - rest_length[e];
    const float rhs = kMultipliers ? -C - alpha_tilde * lambda[e] : -C;
    const float s = rhs / ((w + alpha_tilde) * len);  // delta_lambda / |d|
    if (kMultipliers) lambda[e] += s * len;
    store4(xw, a, xa + d * splat4(s * wa));
    store4(xw, b, xb - d * splat4(s * wb));
  }
}

void solve_edges_packed(float* xw, const uint32_t* edge_ids, const float* rest_length, uint32_t edge_count,
                        float alpha_tilde, float* lambda) {
  if (lambda) edge_pass_packed<true>(xw, edge_ids, rest_length, edge_count, alpha_tilde, lambda);
  else edge_pass_packed<false>(xw, edge_ids, rest_length, edge_count, alpha_tilde, nullptr);
}

template <bool kMultipliers>
static void volume_pass_packed(float* xw, const uint32_t* tet_ids, const float* rest_volume6, uint32_t tet_count,
                               float alpha_tilde, float* lambda) {
  for (uint32_t t = 0; t < tet_count; ++t) {
    const uint32_t* id = tet_ids + 4 * t;
    const V4 x0 = load4(xw, id[0]), x1 = load4(xw, id[1]), x2 = load4(xw, id[2]), x3 = load4(xw, id[3]);
    const float w0 = x0[3], w1 = x1[3], w2 = x2[3], w3 = x3[3];
    const V4 e1 = x1 - x0, e2 = x2 - x0, e3 = x3 - x0;  // w lanes: differences of inverse masses
    const V4 g1 = cross3(e2, e3);  // w lanes 0
    const V4 g2 = cross3(e3, e1);
    const V4 g3 = cross3(e1, e2);
    const V4 g0 = (g1 + g2 + g3) * splat4(-1.0f);
    const float w = w0 * dot3(g0, g0) + w1 * dot3(g1, g1) + w2 * dot3(g2, g2) + w3 * dot3(g3, g3);
    if (w == 0.0f) continue;
    const float C = dot3(g3, e3) - rest_volume6[t];  // 6V - 6V0
    const float rhs = kMultipliers ? -C - alpha_tilde * lambda[t] : -C;
    const float s = rhs / (w + alpha_tilde);  // delta_lambda
    if (kMultipliers) lambda[t] += s;
    store4(xw, id[0], x0 + g0 * splat4(s * w0));
    store4(xw, id[1], x1 + g1 * splat4(s * w1));
    store4(xw, id[2], x2 + g2 * splat4(s * w2));
    store4(xw, id[3], x3 + g3 * splat4(s * w3));
  }
}

void solve_volumes_packed(float* xw, const uint32_t* tet_ids, const float* rest_volume6, uint32_t tet_count,
                          float alpha_tilde, float* lambda) {
  if (lambda) volume_pass_packed<true>(xw, tet_ids, rest_volume6, tet_count, alpha_tilde, lambda);
  else volume_pass_packed<false>(xw, tet_ids, rest_volume6, tet_count, alpha_tilde, nullptr);
}

void pack_positions(const float* pos, const float* inv_mass, uint32_t count, float* xw) {
  for (uint32_t i = 0; i < count; ++i) {
    xw[4 * i] = pos[3 * i];
    xw[4 * i + 1] = pos[3 * i + 1];
    xw[4 * i + 2] = pos[3 * i + 2];
    xw[4 * i + 3] = inv_mass[i];
  }
}

void unpack_positions(const float* xw, uint32_t count, float* pos) {
  for (uint32_t i = 0; i < count; ++i) {
    pos[3 * i] = xw[4 * i];
    pos[3 * i + 1] = xw[4 * i + 1];
    pos[3 * i + 2] = xw[4 * i + 2];
  }
}

float simple_residual(const float* pos, const uint32_t* edge_ids, const float* rest_length, uint32_t edge_count,
                      float edge_alpha_tilde, const float* edge_lambda, const uint32_t* tet_ids,
                      const float* rest_volume6, uint32_t tet_count, float volume_alpha_tilde,
                      const float* volume_lambda) {
  float worst = 0.0f;
  for (uint32_t e = 0; e < edge_count; ++e) {
    if (!(rest_length[e] > 0.0f)) continue;
    const float C = length(load3(pos, edge_ids[2 * e]) - load3(pos, edge_ids[2 * e + 1])) - rest_length[e];
    worst = std::max(worst, std::fabs(C + edge_alpha_tilde * edge_lambda[e]) / rest_length[e]);
  }
  for (uint32_t t = 0; t < tet_count; ++t) {
    const uint32_t* id = tet_ids + 4 * t;
    const Vec3 x0 = load3(pos, id[0]);
    const float v6 = dot(cross(load3(pos, id[1]) - x0, load3(pos, id[2]) - x0), load3(pos, id[3]) - x0);
    const float C = v6 - rest_volume6[t];
    worst = std::max(worst, std::fabs(C + volume_alpha_tilde * volume_lambda[t]) / rest_volume6[t]);
  }
  return worst;
}

float solve_ground(float* pos, const float* prev, const float* inv_mass, uint32_t particle_count,
                   float friction, uint32_t* contacts) {
  float deepest = 0.0f;
  uint32_t touching = 0;
  for (uint32_t i = 0; i < particle_count; ++i) {
    float* x = pos + 3 * i;
    if (x[1] >= 0.0f || inv_mass[i] == 0.0f) continue;
    const float depth = -x[1];  // normal correction of this substep, m
    deepest = std::max(deepest, depth);
    ++touching;
    x[1] = 0.0f;
    const float* p = prev + 3 * i;
    const float dx = x[0] - p[0], dz = x[2] - p[2];
    const float slide_sq = dx * dx + dz * dz;
    const float limit = friction * depth;
    if (slide_sq <= limit * limit) {  // static: inside the friction cone, undo the sliding
      x[0] = p[0];
      x[2] = p[2];
    } else {  // kinetic: remove friction * depth of the sliding distance
      const float k = limit / std::sqrt(slide_sq);
      x[0] -= dx * k;
      x[2] -= dz * k;
    }
  }
  if (contacts) *contacts = touching;
  return deepest;
}

void solve_plate(float* pos, const float* inv_mass, uint32_t particle_count, float plate_y) {
  for (uint32_t i = 0; i < particle_count; ++i) {
    float* x = pos + 3 * i;
    if (x[1] > plate_y && inv_mass[i] != 0.0f) x[1] = plate_y;
  }
}

}  // namespace sb
