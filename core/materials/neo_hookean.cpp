#include "materials/neo_hookean.h"

#include <cmath>

#include "math/vec3.h"

namespace sb {

namespace {

// Gradient with respect to vertex i = 1..3 of a function whose F-gradient has columns p: p B_i^T,
// B_i the i-th row of B (dF/dx_i maps a vector v to v B_i). Vertex 0 gets minus their sum.
void vertex_gradients(const Vec3 p[3], const float* B, Vec3 g[4]) {
  for (int i = 0; i < 3; ++i) g[i + 1] = p[0] * B[3 * i] + p[1] * B[3 * i + 1] + p[2] * B[3 * i + 2];
  g[0] = (g[1] + g[2] + g[3]) * -1.0f;
}

}  // namespace

// Small-strain limit of Psi, with F = I + G and e = sym(G):
//   mu/2 (tr F^T F - 3)          = mu tr G + mu/2 |G|^2
//   lambda/2 (det F - gamma)^2   = const - mu tr G - mu/2 ((tr G)^2 - tr(G G)) + lambda/2 (tr G)^2 + O(G^3)
// (using 1 - gamma = -mu/lambda and det F = 1 + tr G + ((tr G)^2 - tr(G G))/2 + O(G^3)). The linear
// terms cancel (rest is stress-free) and the quadratic part is mu e:e + (lambda - mu)/2 (tr e)^2: linear
// elasticity with Lame parameters mu and lambda - mu. Hence lambda = lambda_L + mu_L.
NeoHookean neo_hookean_from(float youngs_modulus_pa, float poisson_ratio) {
  const double E = youngs_modulus_pa, nu = poisson_ratio;
  const double mu_l = E / (2.0 * (1.0 + nu));
  const double lambda_l = E * nu / ((1.0 + nu) * (1.0 - 2.0 * nu));
  NeoHookean m;
  m.mu = float(mu_l);
  m.lambda = float(lambda_l + mu_l);
  m.gamma = float(1.0 + mu_l / (lambda_l + mu_l));
  return m;
}

bool rest_shape_inverse(const float* rest, const uint32_t* tet, float B[9]) {
  double d[3][3];  // columns x_i - x_0
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 3; ++k) d[i][k] = double(rest[3 * tet[i + 1] + k]) - double(rest[3 * tet[0] + k]);
  // Dm[k][i] = d[i][k]; its inverse's rows are the cross products of its columns over det.
  const double c0[3] = {d[1][1] * d[2][2] - d[1][2] * d[2][1], d[1][2] * d[2][0] - d[1][0] * d[2][2], d[1][0] * d[2][1] - d[1][1] * d[2][0]};
  const double c1[3] = {d[2][1] * d[0][2] - d[2][2] * d[0][1], d[2][2] * d[0][0] - d[2][0] * d[0][2], d[2][0] * d[0][1] - d[2][1] * d[0][0]};
  const double c2[3] = {d[0][1] * d[1][2] - d[0][2] * d[1][1], d[0][2] * d[1][0] - d[0][0] * d[1][2], d[0][0] * d[1][1] - d[0][1] * d[1][0]};
  const double det = d[0][0] * c0[0] + d[0][1] * c0[1] + d[0][2] * c0[2];
  if (!(std::fabs(det) > 0) || !std::isfinite(det)) return false;
  for (int k = 0; k < 3; ++k) {
    B[k] = float(c0[k] / det);
    B[3 + k] = float(c1[k] / det);
    B[6 + k] = float(c2[k] / det);
  }
  return true;
}

double neo_hookean_energy(const NeoHookean& m, const float* x, const uint32_t* tets, const float* B,
                          const float* rest_volume, uint32_t tet_count) {
  const double rest = 0.5 * double(m.lambda) * (1.0 - m.gamma) * (1.0 - m.gamma);  // Psi(I), J/m^3
  double sum = 0.0;
  for (uint32_t t = 0; t < tet_count; ++t) {
    const Deformation F = deformation(x, tets + 4 * t, B + 9 * t);
    const double ic = double(length_sq(F.f[0])) + length_sq(F.f[1]) + length_sq(F.f[2]);
    const double J = dot(F.f[0], cross(F.f[1], F.f[2]));
    const double psi = 0.5 * m.mu * (ic - 3.0) + 0.5 * m.lambda * (J - m.gamma) * (J - m.gamma) - rest;
    sum += double(rest_volume[t]) * psi;
  }
  return sum;
}

void add_neo_hookean_forces(const NeoHookean& m, const float* x, const uint32_t* tets, const float* B,
                            const float* rest_volume, uint32_t tet_count, float* f) {
  for (uint32_t t = 0; t < tet_count; ++t) {
    const uint32_t* id = tets + 4 * t;
    const Deformation F = deformation(x, id, B + 9 * t);
    Vec3 c[3];
    cofactor(F, c);
    const float J = dot(F.f[0], c[0]);
    // First Piola-Kirchhoff stress P = mu F + lambda (J - gamma) cof F, Pa, times V0.
    const float s = m.lambda * (J - m.gamma);
    const float v0 = rest_volume[t];
    const Vec3 P[3] = {(F.f[0] * m.mu + c[0] * s) * v0, (F.f[1] * m.mu + c[1] * s) * v0, (F.f[2] * m.mu + c[2] * s) * v0};
    Vec3 g[4];
    vertex_gradients(P, B + 9 * t, g);
    for (int i = 0; i < 4; ++i) store3(f, id[i], load3(f, id[i]) - g[i]);
  }
}

void neo_hookean_jacobian_product(const NeoHookean& m, const float* x, const uint32_t* tets, const float* B,
                                  const float* rest_volume, uint32_t tet_count, const float* p, float k, float* out) {
  for (uint32_t t = 0; t < tet_count; ++t) {
    const uint32_t* id = tets + 4 * t;
    const float* b = B + 9 * t;
    const Deformation F = deformation(x, id, b);
    const Deformation dF = deformation(p, id, b);  // F is linear in x: the same map takes p to dF
    Vec3 c[3];
    cofactor(F, c);
    const float cof_dot = dot(c[0], dF.f[0]) + dot(c[1], dF.f[1]) + dot(c[2], dF.f[2]);
    const float v0k = rest_volume[t] * k;
    const Vec3 dP[3] = {(dF.f[0] * m.mu + c[0] * (m.lambda * cof_dot)) * v0k,
                        (dF.f[1] * m.mu + c[1] * (m.lambda * cof_dot)) * v0k,
                        (dF.f[2] * m.mu + c[2] * (m.lambda * cof_dot)) * v0k};
    Vec3 g[4];
    vertex_gradients(dP, b, g);
    for (int i = 0; i < 4; ++i) store3(out, id[i], load3(out, id[i]) - g[i]);
  }
}

void neo_hookean_stiffness_diagonal(const NeoHookean& m, const float* x, const uint32_t* tets, const float* B,
                                    const float* rest_volume, uint32_t tet_count, float k, float* diag) {
  for (uint32_t t = 0; t < tet_count; ++t) {
    const uint32_t* id = tets + 4 * t;
    const float* b = B + 9 * t;
    const Deformation F = deformation(x, id, b);
    Vec3 c[3];
    cofactor(F, c);
    for (int i = 0; i < 4; ++i) {
      // Block of vertex i: V0 (mu |b_i|^2 I + lambda q q^T), q = cof(F) b_i.
      const Vec3 row = corner_row(b, i);
      const Vec3 q = c[0] * row.x + c[1] * row.y + c[2] * row.z;
      const float base = m.mu * length_sq(row);
      const float s = rest_volume[t] * k;
      diag[id[i]] += s * (base + m.lambda * length_sq(q) / 3.0f);
    }
  }
}

}  // namespace sb
