#include "solver/spring_forces.h"

#include <algorithm>

#include "shapes/tet_mesh.h"
#include "solver/strain_smoothing.h"
#include "math/vec3.h"
#include <cmath>

namespace sb {

namespace {

// Gradients of C = 6V of one tet (see xpbd_constraints.h) and C itself.
void add3(float* a, uint32_t i, Vec3 v) { store3(a, i, load3(a, i) + v); }

// For the energy (stats), in double from the float positions: a state that is still finite (an edge
// of 1e30 m) squares past float's range, and the energy would read inf while nothing diverged.
double edge_length_d(const float* x, uint32_t a, uint32_t b) {
  double s = 0.0;
  for (int k = 0; k < 3; ++k) {
    const double d = double(x[3 * size_t(a) + size_t(k)]) - double(x[3 * size_t(b) + size_t(k)]);
    s += d * d;
  }
  return std::sqrt(s);
}

double tet_volume6_d(const float* x, const uint32_t* id) {
  double e[3][3];
  for (int v = 0; v < 3; ++v)
    for (int k = 0; k < 3; ++k) e[v][k] = double(x[3 * size_t(id[v + 1]) + size_t(k)]) - double(x[3 * size_t(id[0]) + size_t(k)]);
  return e[0][0] * (e[1][1] * e[2][2] - e[1][2] * e[2][1]) - e[0][1] * (e[1][0] * e[2][2] - e[1][2] * e[2][0]) +
         e[0][2] * (e[1][0] * e[2][1] - e[1][1] * e[2][0]);
}

}  // namespace

void compute_forces(const ForceModel& m, const float* x, const float* v, float* f) {
  for (uint32_t i = 0; i < m.particle_count; ++i)
    store3(f, i, Vec3{m.gravity[0], m.gravity[1], m.gravity[2]} * m.mass[i]);
  if (m.edge_stiffness > 0.0f || m.edge_damping > 0.0f)
    for (uint32_t e = 0; e < m.edge_count; ++e) {
      const uint32_t a = m.edges[2 * e], b = m.edges[2 * e + 1];
      const Vec3 d = load3(x, a) - load3(x, b);
      const float len = length(d);
      if (len == 0.0f) continue;
      const Vec3 n = d * (1.0f / len);
      const float closing = dot(load3(v, a) - load3(v, b), n);  // m/s, > 0 when separating
      const Vec3 fa = n * (-m.edge_stiffness * scale_at(m.edge_scale, e) * (len - m.edge_rest[e]) - m.edge_damping * closing);
      add3(f, a, fa);
      add3(f, b, fa * -1.0f);
    }
  if (m.volume_stiffness > 0.0f)
    for (uint32_t t = 0; t < m.tet_count; ++t) {
      const uint32_t* id = m.tets + 4 * t;
      const TetGradients tg = tet_gradients(x, id);
      const float s = -m.volume_stiffness * scale_at(m.tet_scale, t) * (tg.vol6 - m.tet_rest6[t]);  // -kV C
      for (int k = 0; k < 4; ++k) add3(f, id[k], tg.g[k] * s);
    }
  if (m.neo_hookean && m.strain_smoothing > 0.0f) add_smoothing_forces(m, x, f);  // both shares (strain_smoothing.h)
  else if (m.neo_hookean)
    add_neo_hookean_forces(*m.neo_hookean, x, m.tets, m.tet_inverse_rest, m.tet_rest_volume, m.tet_count, f);
  add_bending_forces(m.bending, x, f);
  add_pressure_forces(m, x, f);
}

void add_pressure_forces(const ForceModel& m, const float* x, float* f) {
  if (m.pressure_nrt <= 0.0f || m.surface_count == 0) return;
  const double volume = enclosed_volume(x, m.surface, m.surface_count);
  if (!(volume > 0.0)) return;  // turned inside out: no meaningful pressure
  const float p = float(m.pressure_nrt / volume);  // Pa
  for (uint32_t t = 0; t < m.surface_count; ++t) {
    const uint32_t* id = m.surface + 3 * t;
    const Vec3 a = load3(x, id[0]);
    // p x (area vector) / 3 per corner; (b - a) x (c - a) / 2 is the outward area vector
    const Vec3 share = cross(load3(x, id[1]) - a, load3(x, id[2]) - a) * (p / 6.0f);
    for (int k = 0; k < 3; ++k) add3(f, id[k], share);
  }
}

void force_jacobian_product(const ForceModel& m, const float* x, const float* p, float kx, float kv, float* out) {
  std::fill(out, out + 3 * size_t(m.particle_count), 0.0f);
  for (uint32_t e = 0; e < m.edge_count; ++e) {
    const uint32_t a = m.edges[2 * e], b = m.edges[2 * e + 1];
    const Vec3 d = load3(x, a) - load3(x, b);
    const float len = length(d);
    if (len == 0.0f) continue;
    const Vec3 n = d * (1.0f / len);
    const Vec3 dp = load3(p, a) - load3(p, b);
    const float c = std::max(0.0f, 1.0f - m.edge_rest[e] / len);
    // kx * (-k [n n^T (1 - c) + c I]) dp + kv * (-cd n n^T) dp
    const Vec3 fa = (n * ((1.0f - c) * dot(n, dp)) + dp * c) * (-kx * m.edge_stiffness * scale_at(m.edge_scale, e)) +
                    n * (-kv * m.edge_damping * dot(n, dp));
    add3(out, a, fa);
    add3(out, b, fa * -1.0f);
  }
  if (m.volume_stiffness > 0.0f)
    for (uint32_t t = 0; t < m.tet_count; ++t) {
      const uint32_t* id = m.tets + 4 * t;
      const TetGradients tg = tet_gradients(x, id);
      float gp = 0.0f;  // grad C . p
      for (int k = 0; k < 4; ++k) gp += dot(tg.g[k], load3(p, id[k]));
      for (int k = 0; k < 4; ++k) add3(out, id[k], tg.g[k] * (-kx * m.volume_stiffness * scale_at(m.tet_scale, t) * gp));
    }
  if (m.neo_hookean && m.strain_smoothing > 0.0f) smoothing_jacobian_product(m, x, p, kx, out);  // both shares
  else if (m.neo_hookean)
    neo_hookean_jacobian_product(*m.neo_hookean, x, m.tets, m.tet_inverse_rest, m.tet_rest_volume, m.tet_count, p, kx, out);
  add_bending_jacobian_product(m.bending, p, kx, out);
}

void system_diagonal(const ForceModel& m, const float* x, float kx, float kv, float* diag) {
  for (uint32_t i = 0; i < m.particle_count; ++i) diag[i] = m.mass[i];
  for (uint32_t e = 0; e < m.edge_count; ++e) {
    // Each spring adds at most k (longitudinal) to a 3x3 diagonal block; use the block's mean.
    const float add = (kx * m.edge_stiffness * scale_at(m.edge_scale, e) + kv * m.edge_damping) / 3.0f;
    diag[m.edges[2 * e]] += add;
    diag[m.edges[2 * e + 1]] += add;
  }
  if (m.volume_stiffness > 0.0f)
    for (uint32_t t = 0; t < m.tet_count; ++t) {
      const TetGradients tg = tet_gradients(x, m.tets + 4 * t);
      for (int k = 0; k < 4; ++k)
        diag[m.tets[4 * t + k]] += kx * m.volume_stiffness * scale_at(m.tet_scale, t) * length_sq(tg.g[k]) / 3.0f;
    }
  // With strain smoothing the plain tets' diagonal at full weight stands in for the blend's (the
  // smoothed part spreads the same stiffness over more particles): a preconditioner only.
  if (m.neo_hookean)
    neo_hookean_stiffness_diagonal(*m.neo_hookean, x, m.tets, m.tet_inverse_rest, m.tet_rest_volume, m.tet_count, kx, diag);
  add_bending_diagonal(m.bending, kx, diag);
}

double elastic_energy(const ForceModel& m, const float* x) {
  double u = 0.0;
  for (uint32_t e = 0; e < m.edge_count; ++e) {
    const double s = edge_length_d(x, m.edges[2 * e], m.edges[2 * e + 1]) - m.edge_rest[e];
    u += 0.5 * m.edge_stiffness * scale_at(m.edge_scale, e) * s * s;
  }
  if (m.volume_stiffness > 0.0f)
    for (uint32_t t = 0; t < m.tet_count; ++t) {
      const double c = tet_volume6_d(x, m.tets + 4 * t) - m.tet_rest6[t];
      u += 0.5 * m.volume_stiffness * scale_at(m.tet_scale, t) * c * c;
    }
  if (m.neo_hookean) {
    if (m.strain_smoothing < 1.0f)
      u += (1.0 - m.strain_smoothing) * neo_hookean_energy(*m.neo_hookean, x, m.tets, m.tet_inverse_rest, m.tet_rest_volume, m.tet_count);
    if (m.strain_smoothing > 0.0f) u += smoothing_energy(m, x);
  }
  u += bending_energy(m.bending, x);
  if (m.pressure_nrt > 0.0f && m.surface_count && m.rest_volume > 0.0) {
    const double volume = enclosed_volume(x, m.surface, m.surface_count);
    if (volume > 0.0) u -= m.pressure_nrt * std::log(volume / m.rest_volume);
  }
  return u;
}

}  // namespace sb
