#include "solver/cloth_forces.h"

#include <cmath>

namespace sb {

namespace {

void add3(float* a, uint32_t i, Vec3 v) { store3(a, i, load3(a, i) + v); }

// The hinge's residual r = C - R b at x, and (curved rest shapes) the gradient of r . (R b) with r held
// fixed, per corner: the frame's part of dU/dx (D/A times it is subtracted from K_i r).
// The frame is cloth_constraints.cpp's: e = E/|E| (E = x1 - x0), n = N/|N| with
// N = E x (x2 - x0) + (x0 - x1) x (x3 - x1) (both triangles, area-weighted), t = n x e.
Vec3 residual(const BendingForces& b, const float* x, uint32_t h, Vec3 frame_grad[4]) {
  const uint32_t* id = b.ids + 4 * size_t(h);
  const float* k = b.k + 4 * size_t(h);
  const Vec3 p[4] = {load3(x, id[0]), load3(x, id[1]), load3(x, id[2]), load3(x, id[3])};
  Vec3 r = p[0] * k[0] + p[1] * k[1] + p[2] * k[2] + p[3] * k[3];
  for (int i = 0; i < 4; ++i) frame_grad[i] = Vec3{0.0f, 0.0f, 0.0f};
  if (!b.rest) return r;
  const Vec3 E = p[1] - p[0], u = p[2] - p[0], w = p[0] - p[1], z = p[3] - p[1];
  const Vec3 N = cross(E, u) + cross(w, z);
  const float lE = length(E), lN = length(N);
  if (!(lE > 0.0f) || !(lN > 0.0f)) return r;  // a collapsed hinge: no frame, the rest term is left out
  const Vec3 e = E * (1.0f / lE), n = N * (1.0f / lN), t = cross(n, e);
  const float* rb = b.rest + 3 * size_t(h);
  r = r - (e * rb[0] + n * rb[1] + t * rb[2]);
  // d(r . R b) = de . (b0 r + b2 r x n) + dn . (b1 r + b2 e x r), de = (I - e e^T) dE / |E|, likewise n.
  const Vec3 ge = r * rb[0] + cross(r, n) * rb[2], gn = r * rb[1] + cross(e, r) * rb[2];
  const Vec3 gE = (ge - e * dot(e, ge)) * (1.0f / lE), gN = (gn - n * dot(n, gn)) * (1.0f / lN);
  // Through E = x1 - x0 and N: gN . d(E x u) = dE . (u x gN) + du . (gN x E), and likewise for w x z.
  const Vec3 a = cross(u, gN), bE = cross(gN, E), c = cross(z, gN), d = cross(gN, w);
  frame_grad[0] = gE * -1.0f - a - bE + c;
  frame_grad[1] = gE + a - c - d;
  frame_grad[2] = bE;
  frame_grad[3] = d;
  return r;
}

}  // namespace

BendingForces bending_forces(const ClothModel& m, float D) {
  BendingForces b;
  if (m.empty() || m.hinge_count() == 0) return b;
  b.ids = m.hinge_ids.data();
  b.k = m.hinge_k.data();
  b.area = m.hinge_area.data();
  b.rest = m.hinge_rest.empty() ? nullptr : m.hinge_rest.data();
  b.count = m.hinge_count();
  b.stiffness = D;
  return b;
}

void hinge_energy_gradient(const BendingForces& b, const float* x, uint32_t h, Vec3 grad[4]) {
  Vec3 frame[4];
  const Vec3 r = residual(b, x, h, frame);
  const float s = b.stiffness / b.area[h];  // D / A, N/m
  const float* k = b.k + 4 * size_t(h);
  for (int i = 0; i < 4; ++i) grad[i] = (r * k[i] - frame[i]) * s;
}

void add_bending_forces(const BendingForces& b, const float* x, float* f) {
  if (!b.active()) return;
  for (uint32_t h = 0; h < b.count; ++h) {
    Vec3 g[4];
    hinge_energy_gradient(b, x, h, g);
    for (int i = 0; i < 4; ++i) add3(f, b.ids[4 * size_t(h) + i], g[i] * -1.0f);
  }
}

void add_bending_jacobian_product(const BendingForces& b, const float* p, float kx, float* out) {
  if (!b.active()) return;
  for (uint32_t h = 0; h < b.count; ++h) {
    const uint32_t* id = b.ids + 4 * size_t(h);
    const float* k = b.k + 4 * size_t(h);
    const Vec3 kp = load3(p, id[0]) * k[0] + load3(p, id[1]) * k[1] + load3(p, id[2]) * k[2] + load3(p, id[3]) * k[3];
    const float s = -kx * b.stiffness / b.area[h];
    for (int i = 0; i < 4; ++i) add3(out, id[i], kp * (s * k[i]));
  }
}

void add_bending_diagonal(const BendingForces& b, float kx, float* diag) {
  if (!b.active()) return;
  for (uint32_t h = 0; h < b.count; ++h) {
    const float s = kx * b.stiffness / b.area[h];
    for (int i = 0; i < 4; ++i) diag[b.ids[4 * size_t(h) + i]] += s * b.k[4 * size_t(h) + i] * b.k[4 * size_t(h) + i];
  }
}

double hinge_energy(const BendingForces& b, const float* x, uint32_t h) {
  Vec3 frame[4];
  const Vec3 r = residual(b, x, h, frame);
  return 0.5 * double(b.stiffness) * (double(r.x) * r.x + double(r.y) * r.y + double(r.z) * r.z) / b.area[h];
}

double bending_energy(const BendingForces& b, const float* x) {
  if (!b.active()) return 0.0;
  double u = 0.0;
  for (uint32_t h = 0; h < b.count; ++h) u += hinge_energy(b, x, h);
  return u;
}

HingeAdjacency hinge_adjacency(const uint32_t* ids, uint32_t hinge_count, uint32_t vertex_count) {
  HingeAdjacency a;
  a.start.assign(size_t(vertex_count) + 1, 0);
  for (size_t k = 0; k < 4 * size_t(hinge_count); ++k) ++a.start[ids[k] + 1];
  for (uint32_t v = 0; v < vertex_count; ++v) a.start[v + 1] += a.start[v];
  a.refs.resize(4 * size_t(hinge_count));
  std::vector<uint32_t> fill(a.start.begin(), a.start.end() - 1);
  for (uint32_t k = 0; k < 4 * hinge_count; ++k) a.refs[fill[ids[k]]++] = k;
  return a;
}

}  // namespace sb
