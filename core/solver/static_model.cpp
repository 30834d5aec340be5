#include "solver/static_model.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "solver/static_math.h"
#include "solver/strain_smoothing.h"

namespace sb {

using namespace static_math;

namespace {

// A tet's 6V and its gradients d(6V)/dx_k (cross products of the opposite faces' edges).
struct Volume6 {
  D3 e[3], g[4];
  double vol6;
};
Volume6 volume6(const StaticState& x, const uint32_t* id) {
  Volume6 v;
  for (int k = 0; k < 3; ++k) v.e[k] = edge(x, id[k + 1], id[0]);
  v.g[1] = cross(v.e[1], v.e[2]);
  v.g[2] = cross(v.e[2], v.e[0]);
  v.g[3] = cross(v.e[0], v.e[1]);
  v.g[0] = (v.g[1] + v.g[2] + v.g[3]) * -1.0;
  v.vol6 = dot(v.g[3], v.e[2]);
  return v;
}

}  // namespace

double static_energy(const ForceModel& m, const StaticState& x) {
  double e = 0.0;
  if (x.u)
    for (uint32_t i = 0; i < m.particle_count; ++i)
      for (int k = 0; k < 3; ++k) e -= double(m.mass[i]) * m.gravity[k] * x.u[3 * size_t(i) + k];
  if (m.edge_stiffness > 0.0f)
    for (uint32_t s = 0; s < m.edge_count; ++s) {
      const D3 d = edge(x, m.edges[2 * s], m.edges[2 * s + 1]);
      const double stretch = std::sqrt(dot(d, d)) - m.edge_rest[s];
      e += 0.5 * m.edge_stiffness * scale_at(m.edge_scale, s) * stretch * stretch;
    }
  if (m.volume_stiffness > 0.0f)
    for (uint32_t t = 0; t < m.tet_count; ++t) {
      const double c = volume6(x, m.tets + 4 * t).vol6 - m.tet_rest6[t];
      e += 0.5 * m.volume_stiffness * scale_at(m.tet_scale, t) * c * c;
    }
  if (m.neo_hookean) {
    const double tets = 1.0 - m.strain_smoothing;  // the plain tets' share (strain_smoothing.h)
    if (tets > 0.0)
      for (uint32_t t = 0; t < m.tet_count; ++t) {
        const Mat3 F = deformation(x, m.tets + 4 * t, m.tet_inverse_rest + 9 * size_t(t));
        e += tets * double(m.tet_rest_volume[t]) * neo_hookean_psi(*m.neo_hookean, F);
      }
    if (m.strain_smoothing > 0.0f) {
      std::vector<double> work(kSmoothingWork * size_t(m.particle_count));
      e += smoothing_energy(m, x, work.data());
    }
  }
  return e;
}

void static_gradient(const ForceModel& m, const StaticState& x, double* g) {
  for (uint32_t i = 0; i < m.particle_count; ++i)
    for (int k = 0; k < 3; ++k) g[3 * size_t(i) + k] = -double(m.mass[i]) * m.gravity[k];
  if (m.edge_stiffness > 0.0f)
    for (uint32_t s = 0; s < m.edge_count; ++s) {
      const uint32_t a = m.edges[2 * s], b = m.edges[2 * s + 1];
      const D3 d = edge(x, a, b);
      const double len = std::sqrt(dot(d, d));
      if (len == 0.0) continue;
      const D3 ga = d * (m.edge_stiffness * scale_at(m.edge_scale, s) * (len - m.edge_rest[s]) / len);  // k (l - l0) n
      add(g, a, ga);
      add(g, b, ga * -1.0);
    }
  if (m.volume_stiffness > 0.0f)
    for (uint32_t t = 0; t < m.tet_count; ++t) {
      const uint32_t* id = m.tets + 4 * t;
      const Volume6 v = volume6(x, id);
      const double s = double(m.volume_stiffness) * scale_at(m.tet_scale, t) * (v.vol6 - m.tet_rest6[t]);  // kV C
      for (int k = 0; k < 4; ++k) add(g, id[k], v.g[k] * s);
    }
  if (m.neo_hookean && m.strain_smoothing > 0.0f) {  // both shares in one pass (strain_smoothing.h)
    std::vector<double> work(kSmoothingWork * size_t(m.particle_count));
    smoothing_gradient(m, x, /*with_tets=*/true, work.data(), g);
  } else if (m.neo_hookean) {
    for (uint32_t t = 0; t < m.tet_count; ++t) {
      const uint32_t* id = m.tets + 4 * t;
      const float* B = m.tet_inverse_rest + 9 * size_t(t);
      scatter(neo_hookean_stress(*m.neo_hookean, deformation(x, id, B)), B, id, m.tet_rest_volume[t], g);
    }
  }
}

namespace {

// Each element's exact Hessian applied to a direction, on the element's own corners (p, out: 3 per
// corner). The assembled matrix (static_matrix.h) is built from these by unit directions, and the
// matrix-free product below is their sum, so the two cannot disagree.
void spring_product(const ForceModel& m, const StaticState& x, uint32_t s, const double* p, double* out) {
  const D3 d = edge(x, m.edges[2 * s], m.edges[2 * s + 1]);
  const double len = std::sqrt(dot(d, d));
  if (len == 0.0) return;
  const D3 n = d * (1.0 / len), dp = load(p, 0) - load(p, 1);
  // k [n n^T + (1 - l0/l)(I - n n^T)] dp: the exact Hessian, transverse part negative when compressed.
  const double k = double(m.edge_stiffness) * scale_at(m.edge_scale, s), c = 1.0 - m.edge_rest[s] / len;
  const D3 fa = (n * (dot(n, dp) * (1.0 - c)) + dp * c) * k;
  add(out, 0, fa);
  add(out, 1, fa * -1.0);
}

const uint32_t kCorners[4] = {0, 1, 2, 3};

void volume_product(const ForceModel& m, const StaticState& x, uint32_t t, const double* p, double* out) {
  const Volume6 v = volume6(x, m.tets + 4 * t);
  const D3 p0 = load(p, 0);
  const D3 de[3] = {load(p, 1) - p0, load(p, 2) - p0, load(p, 3) - p0};  // the direction's edge changes
  double gp = 0.0;
  for (uint32_t k = 0; k < 4; ++k) gp += dot(v.g[k], load(p, k));
  // kV (g g^T + C d^2(6V)/dx^2) p, with d g in the direction p from the cross products.
  D3 dg[4];
  dg[1] = cross(de[1], v.e[2]) + cross(v.e[1], de[2]);
  dg[2] = cross(de[2], v.e[0]) + cross(v.e[2], de[0]);
  dg[3] = cross(de[0], v.e[1]) + cross(v.e[0], de[1]);
  dg[0] = (dg[1] + dg[2] + dg[3]) * -1.0;
  const double kv = double(m.volume_stiffness) * scale_at(m.tet_scale, t), C = v.vol6 - m.tet_rest6[t];
  for (uint32_t k = 0; k < 4; ++k) add(out, k, (v.g[k] * gp + dg[k] * C) * kv);
}

void neo_hookean_product(const ForceModel& m, const StaticState& x, uint32_t t, const double* p, double* out) {
  const double tets = 1.0 - m.strain_smoothing;  // the plain tets' share (strain_smoothing.h)
  if (!(tets > 0.0)) return;
  const float* B = m.tet_inverse_rest + 9 * size_t(t);
  const Mat3 F = deformation(x, m.tets + 4 * t, B), dF = deformation(StaticState{p, nullptr}, kCorners, B);  // F is linear in x
  scatter(neo_hookean_stress_change(*m.neo_hookean, F, dF, false), B, kCorners, tets * m.tet_rest_volume[t], out);
}

void tet_product(const ForceModel& m, const StaticState& x, uint32_t t, const double* p, double* out) {
  if (m.neo_hookean) neo_hookean_product(m, x, t, p, out);
  else if (m.volume_stiffness > 0.0f) volume_product(m, x, t, p, out);
}

}  // namespace

void static_hessian_product(const ForceModel& m, const StaticState& x, const double* p, double* out) {
  std::fill(out, out + 3 * size_t(m.particle_count), 0.0);
  double local_p[12], local_out[12];
  if (m.edge_stiffness > 0.0f)
    for (uint32_t s = 0; s < m.edge_count; ++s) {
      const uint32_t* id = m.edges + 2 * s;
      for (int c = 0; c < 2; ++c)
        for (int k = 0; k < 3; ++k) local_p[3 * c + k] = p[3 * size_t(id[c]) + k], local_out[3 * c + k] = 0.0;
      spring_product(m, x, s, local_p, local_out);
      for (int c = 0; c < 2; ++c) add(out, id[c], load(local_out, c));
    }
  if (m.neo_hookean || m.volume_stiffness > 0.0f)
    for (uint32_t t = 0; t < m.tet_count; ++t) {
      const uint32_t* id = m.tets + 4 * t;
      for (int c = 0; c < 4; ++c)
        for (int k = 0; k < 3; ++k) local_p[3 * c + k] = p[3 * size_t(id[c]) + k], local_out[3 * c + k] = 0.0;
      tet_product(m, x, t, local_p, local_out);
      for (int c = 0; c < 4; ++c) add(out, id[c], load(local_out, c));
    }
  if (m.neo_hookean && m.strain_smoothing > 0.0f) {
    std::vector<double> work(kSmoothingWork * size_t(m.particle_count));
    smoothing_prepare(m, x, work.data());
    smoothing_hessian_product(m, x, p, /*gauss_newton=*/false, /*with_tets=*/false, work.data(), out);
  }
}

void static_tet_hessian(const ForceModel& m, const StaticState& x, uint32_t t, double* H) {
  double e[12] = {}, column[12];
  for (int j = 0; j < 12; ++j) {
    e[j] = 1.0;
    std::fill(column, column + 12, 0.0);
    tet_product(m, x, t, e, column);
    for (int i = 0; i < 12; ++i) H[12 * i + j] = column[i];
    e[j] = 0.0;
  }
}

void static_edge_hessian(const ForceModel& m, const StaticState& x, uint32_t s, double* H) {
  double e[6] = {}, column[6];
  for (int j = 0; j < 6; ++j) {
    e[j] = 1.0;
    std::fill(column, column + 6, 0.0);
    if (m.edge_stiffness > 0.0f) spring_product(m, x, s, e, column);
    for (int i = 0; i < 6; ++i) H[6 * i + j] = column[i];
    e[j] = 0.0;
  }
}

}  // namespace sb
