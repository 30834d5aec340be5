#include "solver/xpbd_constraints.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "math/vec3.h"
#include "math/vec4.h"

namespace sb {

// x, y, z of v with w = 0: a correction along it leaves the inverse mass in w untouched.
static inline V4 xyz0(V4 v) { return __builtin_shufflevector(v, V4{0.0f, 0.0f, 0.0f, 0.0f}, 0, 1, 2, 4); }
// Vertex i of an xyz buffer with w = 0.
static inline V4 load_xyz(const float* a, uint32_t i) { return V4{a[3 * i], a[3 * i + 1], a[3 * i + 2], 0.0f}; }
// Vertex i of the substep's start, relative to the origin the packed positions are (damped path only).
static inline V4 load_prev(const EdgePass& p, uint32_t i) {
  return load_xyz(p.prev, i) - V4{p.origin[0], p.origin[1], p.origin[2], 0.0f};
}

// The loops take their multipliers and the damping/PBD extras as template switches, not runtime tests
// per constraint: a single pass per substep (the default) neither reads nor stores multipliers, which
// measured ~8 % of the XPBD frame, and the extras cost ~10 % of the plain edge loop.
//
// Edges one at a time, [begin, end) (colour tails and the overflow set).
template <bool kMultipliers, bool kDamped>
static void edge_range(const EdgePass& p, uint32_t begin, uint32_t end) {
  float* xw = p.xw;
  for (uint32_t e = begin; e < end; ++e) {
    const uint32_t a = p.ids[2 * e], b = p.ids[2 * e + 1];
    const V4 xa = load4(xw, a), xb = load4(xw, b);
    const float wa = xa[3], wb = xb[3];
    const float w = wa + wb;
    if (w == 0.0f) continue;
    const V4 d = xyz0(xa - xb);
    const float len = std::sqrt(dot3(d, d));
    if (len == 0.0f) continue;  // no direction to push along; the volume constraints separate them
    const float C = len - p.rest[e];
    const float lam = kMultipliers ? p.lambda[e] : 0.0f;
    // A branch the predictor always gets right: one mesh either has vertex groups or not.
    const float alpha = p.stiffness ? p.alpha / p.stiffness[e] : p.alpha;
    float s;  // delta_lambda / |d|
    if (kDamped) {
      // gamma * dC/dt * h: the constraint's change over this substep, grad C . (x - prev)
      // gamma = alpha~ h c: with the edge's own compliance, so the damping c stays what was asked.
      const float gamma = p.stiffness ? p.gamma / p.stiffness[e] : p.gamma;
      const float damp = gamma * dot3(d, (xa - load_prev(p, a)) - (xb - load_prev(p, b))) / len;
      s = p.scale * (-C - alpha * lam - damp) / (((1.0f + gamma) * w + alpha) * len);
    } else {
      s = (kMultipliers ? -C - alpha * lam : -C) / ((w + alpha) * len);
    }
    if (kMultipliers) p.lambda[e] = lam + s * len;
    store4(xw, a, xa + d * splat4(s * wa));
    store4(xw, b, xb - d * splat4(s * wb));
  }
}

// Four edges of one colour, e .. e + 3, one per lane. A lane whose edge the scalar loop would skip
// (both ends immovable, or zero length) gets s = 0: its vertices get + 0 * d, unchanged.
template <bool kMultipliers, bool kDamped>
static inline void edge_batch4(const EdgePass& p, uint32_t e) {
  float* xw = p.xw;
  const uint32_t* id = p.ids + 2 * e;
  V4 ax = load4(xw, id[0]), ay = load4(xw, id[2]), az = load4(xw, id[4]), aw = load4(xw, id[6]);
  V4 bx = load4(xw, id[1]), by = load4(xw, id[3]), bz = load4(xw, id[5]), bw = load4(xw, id[7]);
  transpose4(ax, ay, az, aw);  // now columns: ax = x of the four a ends, ...
  transpose4(bx, by, bz, bw);
  const V4 w = aw + bw;
  const V4 dx = ax - bx, dy = ay - by, dz = az - bz;
  const V4 len = sqrt4(dx * dx + dy * dy + dz * dz);
  V4 rest;
  std::memcpy(&rest, p.rest + e, sizeof rest);
  const V4 C = len - rest;
  V4 alpha = splat4(p.alpha);
  if (p.stiffness) {
    V4 k;
    std::memcpy(&k, p.stiffness + e, sizeof k);
    alpha = alpha / k;
  }
  V4 lam{};
  if (kMultipliers) std::memcpy(&lam, p.lambda + e, sizeof lam);
  V4 s;
  if (kDamped) {
    V4 pax = load_prev(p, id[0]), pay = load_prev(p, id[2]), paz = load_prev(p, id[4]), paw = load_prev(p, id[6]);
    V4 pbx = load_prev(p, id[1]), pby = load_prev(p, id[3]), pbz = load_prev(p, id[5]), pbw = load_prev(p, id[7]);
    transpose4(pax, pay, paz, paw);
    transpose4(pbx, pby, pbz, pbw);
    const V4 mx = (ax - pax) - (bx - pbx), my = (ay - pay) - (by - pby), mz = (az - paz) - (bz - pbz);
    V4 gamma = splat4(p.gamma);
    if (p.stiffness) {
      V4 k;
      std::memcpy(&k, p.stiffness + e, sizeof k);
      gamma = gamma / k;
    }
    const V4 damp = gamma * (dx * mx + dy * my + dz * mz) / len;
    s = splat4(p.scale) * (-C - alpha * lam - damp) / ((((splat4(1.0f) + gamma) * w) + alpha) * len);
  } else {
    s = (kMultipliers ? -C - alpha * lam : -C) / ((w + alpha) * len);
  }
  const V4 zero{};
  s = select_or_zero((w != zero) & (len != zero), s);
  if (kMultipliers) {
    lam = lam + s * len;
    std::memcpy(p.lambda + e, &lam, sizeof lam);
  }
  const V4 sa = s * aw, sb = s * bw;
  ax = ax + dx * sa, ay = ay + dy * sa, az = az + dz * sa;
  bx = bx - dx * sb, by = by - dy * sb, bz = bz - dz * sb;
  transpose4(ax, ay, az, aw);  // back to rows, w (the inverse masses) untouched
  transpose4(bx, by, bz, bw);
  store4(xw, id[0], ax), store4(xw, id[2], ay), store4(xw, id[4], az), store4(xw, id[6], aw);
  store4(xw, id[1], bx), store4(xw, id[3], by), store4(xw, id[5], bz), store4(xw, id[7], bw);
}

template <bool kMultipliers, bool kDamped>
static void edge_colors(const EdgePass& p, uint32_t e, uint32_t end) {
  for (; e + 4 <= end; e += 4) edge_batch4<kMultipliers, kDamped>(p, e);
  edge_range<kMultipliers, kDamped>(p, e, end);
}

template <bool kMultipliers, bool kDamped>
static void edge_span(const EdgePass& p, uint32_t begin, uint32_t end, bool in_colour) {
  if (in_colour) edge_colors<kMultipliers, kDamped>(p, begin, end);
  else edge_range<kMultipliers, kDamped>(p, begin, end);
}

void solve_edge_span(const EdgePass& p, uint32_t begin, uint32_t end, bool in_colour) {
  const bool damped = p.gamma != 0.0f || p.scale != 1.0f;
  if (p.lambda) damped ? edge_span<true, true>(p, begin, end, in_colour) : edge_span<true, false>(p, begin, end, in_colour);
  else damped ? edge_span<false, true>(p, begin, end, in_colour) : edge_span<false, false>(p, begin, end, in_colour);
}

// Tets one at a time, [begin, end).
template <bool kMultipliers, bool kScaled>
static void volume_range(const VolumePass& p, uint32_t begin, uint32_t end) {
  float* xw = p.xw;
  for (uint32_t t = begin; t < end; ++t) {
    const uint32_t* id = p.ids + 4 * t;
    const V4 x0 = load4(xw, id[0]), x1 = load4(xw, id[1]), x2 = load4(xw, id[2]), x3 = load4(xw, id[3]);
    const float w0 = x0[3], w1 = x1[3], w2 = x2[3], w3 = x3[3];
    const V4 e1 = x1 - x0, e2 = x2 - x0, e3 = x3 - x0;  // w lanes: differences of inverse masses
    const V4 g1 = cross3(e2, e3);  // w lanes 0
    const V4 g2 = cross3(e3, e1);
    const V4 g3 = cross3(e1, e2);
    const V4 g0 = (g1 + g2 + g3) * splat4(-1.0f);
    const float vol6 = dot3(g3, e3);  // 6V
    if (p.inverted && !(vol6 > 0.0f)) p.inverted[t] = 1;  // as the batches: before the mass test
    const float w = w0 * dot3(g0, g0) + w1 * dot3(g1, g1) + w2 * dot3(g2, g2) + w3 * dot3(g3, g3);
    if (w == 0.0f) continue;
    const float C = vol6 - p.rest6[t];  // 6V - 6V0
    const float alpha = p.stiffness ? p.alpha / p.stiffness[t] : p.alpha;
    const float rhs = kMultipliers ? -C - alpha * p.lambda[t] : -C;
    const float s = (kScaled ? p.scale * rhs : rhs) / (w + alpha);  // delta_lambda
    if (kMultipliers) p.lambda[t] += s;
    store4(xw, id[0], x0 + g0 * splat4(s * w0));
    store4(xw, id[1], x1 + g1 * splat4(s * w1));
    store4(xw, id[2], x2 + g2 * splat4(s * w2));
    store4(xw, id[3], x3 + g3 * splat4(s * w3));
  }
}

// Four tets of one colour, t .. t + 3, one per lane, as edge_batch4.
template <bool kMultipliers, bool kScaled>
static inline void volume_batch4(const VolumePass& p, uint32_t t) {
  float* xw = p.xw;
  const uint32_t* id = p.ids + 4 * t;  // id[4 * k + j]: corner j of tet t + k
  // Corner j of the four tets: rows k, then transposed to columns xj, yj, zj, wj.
  V4 x0 = load4(xw, id[0]), y0 = load4(xw, id[4]), z0 = load4(xw, id[8]), w0 = load4(xw, id[12]);
  V4 x1 = load4(xw, id[1]), y1 = load4(xw, id[5]), z1 = load4(xw, id[9]), w1 = load4(xw, id[13]);
  V4 x2 = load4(xw, id[2]), y2 = load4(xw, id[6]), z2 = load4(xw, id[10]), w2 = load4(xw, id[14]);
  V4 x3 = load4(xw, id[3]), y3 = load4(xw, id[7]), z3 = load4(xw, id[11]), w3 = load4(xw, id[15]);
  transpose4(x0, y0, z0, w0);
  transpose4(x1, y1, z1, w1);
  transpose4(x2, y2, z2, w2);
  transpose4(x3, y3, z3, w3);
  const V4 e1x = x1 - x0, e1y = y1 - y0, e1z = z1 - z0;
  const V4 e2x = x2 - x0, e2y = y2 - y0, e2z = z2 - z0;
  const V4 e3x = x3 - x0, e3y = y3 - y0, e3z = z3 - z0;
  // g1 = e2 x e3, g2 = e3 x e1, g3 = e1 x e2, g0 = -(g1 + g2 + g3), as cross() in vec3.h
  const V4 g1x = e2y * e3z - e2z * e3y, g1y = e2z * e3x - e2x * e3z, g1z = e2x * e3y - e2y * e3x;
  const V4 g2x = e3y * e1z - e3z * e1y, g2y = e3z * e1x - e3x * e1z, g2z = e3x * e1y - e3y * e1x;
  const V4 g3x = e1y * e2z - e1z * e2y, g3y = e1z * e2x - e1x * e2z, g3z = e1x * e2y - e1y * e2x;
  const V4 m1 = splat4(-1.0f);
  const V4 g0x = (g1x + g2x + g3x) * m1, g0y = (g1y + g2y + g3y) * m1, g0z = (g1z + g2z + g3z) * m1;
  const V4 w = w0 * (g0x * g0x + g0y * g0y + g0z * g0z) + w1 * (g1x * g1x + g1y * g1y + g1z * g1z) +
               w2 * (g2x * g2x + g2y * g2y + g2z * g2z) + w3 * (g3x * g3x + g3y * g3y + g3z * g3z);
  V4 rest;
  std::memcpy(&rest, p.rest6 + t, sizeof rest);
  const V4 vol6 = g3x * e3x + g3y * e3y + g3z * e3z;  // 6V
  const V4 C = vol6 - rest;                               // 6V - 6V0
  if (p.inverted) {  // rarely taken: one compare and one test per four tets on the common path
    const V4i upright = vol6 > V4{};
    if (__builtin_expect((upright[0] & upright[1] & upright[2] & upright[3]) == 0, 0))
      for (uint32_t k = 0; k < 4; ++k)
        if (!upright[k]) p.inverted[t + k] = 1;
  }
  V4 alpha = splat4(p.alpha);
  if (p.stiffness) {
    V4 k;
    std::memcpy(&k, p.stiffness + t, sizeof k);
    alpha = alpha / k;
  }
  V4 rhs = -C;
  V4 lam{};
  if (kMultipliers) {
    std::memcpy(&lam, p.lambda + t, sizeof lam);
    rhs = -C - alpha * lam;
  }
  if (kScaled) rhs = splat4(p.scale) * rhs;
  const V4 s = select_or_zero(w != V4{}, rhs / (w + alpha));  // delta_lambda; 0 where the scalar loop skips
  if (kMultipliers) {
    lam += s;
    std::memcpy(p.lambda + t, &lam, sizeof lam);
  }
  const V4 s0 = s * w0, s1 = s * w1, s2 = s * w2, s3 = s * w3;
  x0 = x0 + g0x * s0, y0 = y0 + g0y * s0, z0 = z0 + g0z * s0;
  x1 = x1 + g1x * s1, y1 = y1 + g1y * s1, z1 = z1 + g1z * s1;
  x2 = x2 + g2x * s2, y2 = y2 + g2y * s2, z2 = z2 + g2z * s2;
  x3 = x3 + g3x * s3, y3 = y3 + g3y * s3, z3 = z3 + g3z * s3;
  transpose4(x0, y0, z0, w0);
  transpose4(x1, y1, z1, w1);
  transpose4(x2, y2, z2, w2);
  transpose4(x3, y3, z3, w3);
  store4(xw, id[0], x0), store4(xw, id[4], y0), store4(xw, id[8], z0), store4(xw, id[12], w0);
  store4(xw, id[1], x1), store4(xw, id[5], y1), store4(xw, id[9], z1), store4(xw, id[13], w1);
  store4(xw, id[2], x2), store4(xw, id[6], y2), store4(xw, id[10], z2), store4(xw, id[14], w2);
  store4(xw, id[3], x3), store4(xw, id[7], y3), store4(xw, id[11], z3), store4(xw, id[15], w3);
}

template <bool kMultipliers, bool kScaled>
static void volume_colors(const VolumePass& p, uint32_t t, uint32_t end) {
  for (; t + 4 <= end; t += 4) volume_batch4<kMultipliers, kScaled>(p, t);
  volume_range<kMultipliers, kScaled>(p, t, end);
}

template <bool kMultipliers, bool kScaled>
static void volume_span(const VolumePass& p, uint32_t begin, uint32_t end, bool in_colour) {
  if (in_colour) volume_colors<kMultipliers, kScaled>(p, begin, end);
  else volume_range<kMultipliers, kScaled>(p, begin, end);
}

void solve_volume_span(const VolumePass& p, uint32_t begin, uint32_t end, bool in_colour) {
  const bool scaled = p.scale != 1.0f;
  if (p.lambda) scaled ? volume_span<true, true>(p, begin, end, in_colour) : volume_span<true, false>(p, begin, end, in_colour);
  else scaled ? volume_span<false, true>(p, begin, end, in_colour) : volume_span<false, false>(p, begin, end, in_colour);
}

// The origin in locals: through the pointer, every store to xw or pos could change it for the compiler.
void pack_positions(const float* pos, const float* inv_mass, uint32_t count, float* xw, const float origin[3]) {
  const float ox = origin[0], oy = origin[1], oz = origin[2];
  for (uint32_t i = 0; i < count; ++i) {
    xw[4 * i] = pos[3 * i] - ox;
    xw[4 * i + 1] = pos[3 * i + 1] - oy;
    xw[4 * i + 2] = pos[3 * i + 2] - oz;
    xw[4 * i + 3] = inv_mass[i];
  }
}

void unpack_positions(const float* xw, uint32_t count, float* pos, const float origin[3]) {
  // pos - origin is recomputed exactly as pack rounded it, so the difference is the passes' motion.
  const float ox = origin[0], oy = origin[1], oz = origin[2];
  for (uint32_t i = 0; i < count; ++i) {
    pos[3 * i] += xw[4 * i] - (pos[3 * i] - ox);
    pos[3 * i + 1] += xw[4 * i + 1] - (pos[3 * i + 1] - oy);
    pos[3 * i + 2] += xw[4 * i + 2] - (pos[3 * i + 2] - oz);
  }
}

float simple_residual(const float* pos, const uint32_t* edge_ids, const float* rest_length, uint32_t edge_count,
                      float edge_alpha_tilde, const float* edge_lambda, const uint32_t* tet_ids,
                      const float* rest_volume6, uint32_t tet_count, float volume_alpha_tilde,
                      const float* volume_lambda, const float* edge_stiffness, const float* tet_stiffness) {
  float worst = 0.0f;
  for (uint32_t e = 0; e < edge_count; ++e) {
    if (!(rest_length[e] > 0.0f)) continue;
    const float C = length(load3(pos, edge_ids[2 * e]) - load3(pos, edge_ids[2 * e + 1])) - rest_length[e];
    const float alpha = edge_stiffness ? edge_alpha_tilde / edge_stiffness[e] : edge_alpha_tilde;
    worst = std::max(worst, std::fabs(C + alpha * edge_lambda[e]) / rest_length[e]);
  }
  for (uint32_t t = 0; t < tet_count; ++t) {
    const uint32_t* id = tet_ids + 4 * t;
    const Vec3 x0 = load3(pos, id[0]);
    const float v6 = dot(cross(load3(pos, id[1]) - x0, load3(pos, id[2]) - x0), load3(pos, id[3]) - x0);
    const float C = v6 - rest_volume6[t];
    const float alpha = tet_stiffness ? volume_alpha_tilde / tet_stiffness[t] : volume_alpha_tilde;
    worst = std::max(worst, std::fabs(C + alpha * volume_lambda[t]) / rest_volume6[t]);
  }
  return worst;
}

float solve_ground(float* pos, const float* prev, const float* inv_mass, uint32_t particle_count,
                   float friction, uint32_t* contacts, float floor_y) {
  float deepest = 0.0f;
  uint32_t touching = 0;
  for (uint32_t i = 0; i < particle_count; ++i) {
    float* x = pos + 3 * i;
    if (x[1] >= floor_y || inv_mass[i] == 0.0f) continue;
    const float depth = floor_y - x[1];  // normal correction of this substep, m
    deepest = std::max(deepest, depth);
    ++touching;
    x[1] = floor_y;
    ground_friction(x, prev + 3 * i, friction * depth);
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
