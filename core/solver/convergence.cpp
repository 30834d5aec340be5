// Convergence by target: the force-balance measure (convergence.h).
#include "solver/convergence.h"

#include <algorithm>
#include <cmath>

#include "math/rotation.h"

namespace sb {

void DeformationFrame::displacement(const float* x, const float* X, double u[3]) const {
  const double p[3] = {double(X[0]) - c0[0], double(X[1]) - c0[1], double(X[2]) - c0[2]};
  for (int k = 0; k < 3; ++k) u[k] = double(x[k]) - c[k] - (R[k][0] * p[0] + R[k][1] * p[1] + R[k][2] * p[2]);
}

DeformationFrame deformation_frame(const float* x, const float* rest, const float* mass, const float* inv_mass,
                                   uint32_t n, const float origin[3]) {
  DeformationFrame fr;
  for (int k = 0; k < 3; ++k) fr.c[k] = -double(origin[k]);
  for (uint32_t i = 0; i < n; ++i)
    if (inv_mass[i] == 0.0f) return fr;  // pinned or held: they fix the frame
  double m = 0.0;
  for (int k = 0; k < 3; ++k) fr.c[k] = 0.0;
  for (uint32_t i = 0; i < n; ++i) {
    m += mass[i];
    for (int k = 0; k < 3; ++k) fr.c[k] += double(mass[i]) * x[3 * i + k], fr.c0[k] += double(mass[i]) * rest[3 * i + k];
  }
  if (!(m > 0.0)) return fr;
  for (int k = 0; k < 3; ++k) fr.c[k] /= m, fr.c0[k] /= m;
  // Shape matching (Mueller et al. 2005): R the rotation of A = sum m (x - c)(X - c0)^T.
  double A[3][3] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
  for (uint32_t i = 0; i < n; ++i)
    for (int a = 0; a < 3; ++a)
      for (int b = 0; b < 3; ++b)
        A[a][b] += double(mass[i]) * (x[3 * i + a] - fr.c[a]) * (rest[3 * i + b] - fr.c0[b]);
  closest_rotation(A, fr.R);
  fr.rigid = true;
  return fr;
}

void ForceBalance::add(uint32_t i, const float* x, const double r[3], const double f[3], double weight) {
  double u[3];
  frame->displacement(x, rest + 3 * size_t(i), u);
  ur += u[0] * r[0] + u[1] * r[1] + u[2] * r[2];
  uf += u[0] * f[0] + u[1] * f[1] + u[2] * f[2];
  floor += weight * 1e-4;  // J: a 0.1 mm sag
}

double ForceBalance::stiffness_reached() const {
  const double scale = std::max(std::fabs(uf), floor);
  if (!(scale > 0.0)) return 1.0;
  const double q = 1.0 - std::fabs(ur) / scale;
  return q != q ? 0.0 : std::sqrt(std::min(1.0, std::max(0.0, q)));  // NaN (a diverging state) reads as 0
}

void neo_hookean_force_balance(ForceBalance* balance, const NeoHookean& material, const float* x, const float* y, const float* mass,
                                       const float* inv_mass, const int8_t* supported, uint32_t vertex_count,
                                       const uint32_t* tets, const float* B, const float* rest_volume,
                                       uint32_t tet_count, float inv_h2, float gravity, float* force) {
  std::fill(force, force + 3 * size_t(vertex_count), 0.0f);
  add_neo_hookean_forces(material, x, tets, B, rest_volume, tet_count, force);
  const double g = std::max(1.0f, gravity);  // m/s^2: as VBD's residual, a weight scale even without gravity
  for (uint32_t i = 0; i < vertex_count; ++i) {
    if (inv_mass[i] == 0.0f || (supported && supported[i] != 0)) continue;
    const double inertia = double(mass[i]) * inv_h2;  // kg/s^2
    double f[3], r[3];
    for (int k = 0; k < 3; ++k) {
      f[k] = force[3 * i + k];
      r[k] = f[k] - inertia * (double(x[3 * i + k]) - y[3 * i + k]);
    }
    balance->add(i, x + 3 * size_t(i), r, f, double(mass[i]) * g);
  }
}

}  // namespace sb
