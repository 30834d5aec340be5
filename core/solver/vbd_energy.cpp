// The incremental potential VBD descends (vbd.h), evaluated: per vertex for the line search of each
// block step, and whole for the choice of the sweeps' first guess. In double, from the float
// positions the sweep stores, so a step is judged at exactly the point it would leave.
#include <cmath>

#include "math/vec3.h"
#include "solver/spring_forces.h"
#include "solver/vbd.h"

namespace sb {

namespace {

// A Neo-Hookean tet's energy V0 (mu/2 (|F|^2 - 3) + lambda/2 (J - gamma)^2), J (neo_hookean.h).
double tet_neo_hookean(const VbdModel& m, const float* x, uint32_t t) {
  const uint32_t* id = m.tets + 4 * size_t(t);
  const float* B = m.tet_inverse_rest + 9 * size_t(t);
  double d[3][3];  // Ds columns, m
  for (int c = 0; c < 3; ++c)
    for (int k = 0; k < 3; ++k) d[c][k] = double(x[3 * id[c + 1] + k]) - x[3 * id[0] + k];
  double F[3][3];  // F[column][row] = sum_c d[c] B[c][column]
  for (int j = 0; j < 3; ++j)
    for (int k = 0; k < 3; ++k) F[j][k] = d[0][k] * B[j] + d[1][k] * B[3 + j] + d[2][k] * B[6 + j];
  double ff = 0.0;
  for (int j = 0; j < 3; ++j) ff += F[j][0] * F[j][0] + F[j][1] * F[j][1] + F[j][2] * F[j][2];
  const double J = F[0][0] * (F[1][1] * F[2][2] - F[1][2] * F[2][1]) - F[1][0] * (F[0][1] * F[2][2] - F[0][2] * F[2][1]) +
                   F[2][0] * (F[0][1] * F[1][2] - F[0][2] * F[1][1]);
  const NeoHookean& nh = *m.neo_hookean;
  const double s = J - double(nh.gamma);
  return double(m.tet_rest_volume[t]) * (0.5 * double(nh.mu) * (ff - 3.0) + 0.5 * double(nh.lambda) * s * s);
}

// The simple model's volume term kV/2 (6V - 6V0)^2, J.
double tet_volume(const VbdModel& m, const float* x, uint32_t t) {
  const uint32_t* id = m.tets + 4 * size_t(t);
  double e[3][3];
  for (int c = 0; c < 3; ++c)
    for (int k = 0; k < 3; ++k) e[c][k] = double(x[3 * id[c + 1] + k]) - x[3 * id[0] + k];
  const double vol6 = e[0][0] * (e[1][1] * e[2][2] - e[1][2] * e[2][1]) - e[0][1] * (e[1][0] * e[2][2] - e[1][2] * e[2][0]) +
                      e[0][2] * (e[1][0] * e[2][1] - e[1][1] * e[2][0]);
  const double C = vol6 - m.tet_rest6[t];
  return 0.5 * double(m.volume_stiffness) * scale_at(m.tet_scale, t) * C * C;
}

double tet_energy(const VbdModel& m, const float* x, uint32_t t) {
  if (m.neo_hookean) return tet_neo_hookean(m, x, t);
  if (m.volume_stiffness > 0.0f) return tet_volume(m, x, t);
  return 0.0;
}

// An edge's spring k/2 (l - l0)^2 and dashpot c/(2h) (n . ((x_i - x_prev,i) - (x_j - x_prev,j)))^2, J.
// The dashpot's is its dissipation potential with n taken where it is evaluated: its gradient at
// fixed n is the force vbd_sweep uses.
double edge_energy(const VbdModel& m, const float* x, uint32_t e) {
  const uint32_t a = m.edges[2 * size_t(e)], b = m.edges[2 * size_t(e) + 1];
  double d[3], len2 = 0.0;
  for (int k = 0; k < 3; ++k) d[k] = double(x[3 * a + k]) - x[3 * b + k], len2 += d[k] * d[k];
  const double len = std::sqrt(len2);
  double u = 0.0;
  if (!m.neo_hookean && m.edge_stiffness > 0.0f) {
    const double stretch = len - m.edge_rest[e];
    u += 0.5 * double(m.edge_stiffness) * scale_at(m.edge_scale, e) * stretch * stretch;
  }
  if (m.edge_damping > 0.0f && len > 0.0) {
    double closing = 0.0;
    for (int k = 0; k < 3; ++k)
      closing += d[k] / len * ((double(x[3 * a + k]) - m.previous[3 * a + k]) - (double(x[3 * b + k]) - m.previous[3 * b + k]));
    u += 0.5 * double(m.edge_damping) * std::sqrt(double(m.inv_h2)) * closing * closing;
  }
  return u;
}

double inertia_energy(const VbdModel& m, const float* x, uint32_t i) {
  double u = 0.0;
  for (int k = 0; k < 3; ++k) {
    const double o = double(x[3 * i + k]) - m.target[3 * i + k];
    u += o * o;
  }
  return 0.5 * double(m.mass[i]) * m.inv_h2 * u;
}

// The ground's friction potential mu lambda f0(|u|) of vertex i (vbd.h), J.
double friction_energy(const VbdModel& m, const float* x, uint32_t i) {
  if (!m.friction_load || !(m.friction_load[i] > 0.0f)) return 0.0;
  const double eps = m.friction_eps;
  const double ux = double(x[3 * i]) - m.previous[3 * i], uz = double(x[3 * i + 2]) - m.previous[3 * i + 2];
  const double s = std::sqrt(ux * ux + uz * uz);
  const double f0 = s < eps ? s * s / eps - s * s * s / (3.0 * eps * eps) + eps / 3.0 : s;  // m
  return double(m.friction_load[i]) * f0;
}

}  // namespace

double vbd_vertex_energy(const VbdModel& m, const VertexAdjacency& adj, const float* x, uint32_t i) {
  double u = inertia_energy(m, x, i) + friction_energy(m, x, i);
  if (m.neo_hookean || m.volume_stiffness > 0.0f)
    for (uint32_t r = adj.tet_start[i]; r < adj.tet_start[i + 1]; ++r) u += tet_energy(m, x, adj.tet_refs[r] >> 2);
  if ((!m.neo_hookean && m.edge_stiffness > 0.0f) || m.edge_damping > 0.0f)
    for (uint32_t r = adj.edge_start[i]; r < adj.edge_start[i + 1]; ++r) u += edge_energy(m, x, adj.edge_refs[r] >> 1);
  if (m.hinges && m.bending.active())
    for (uint32_t r = m.hinges->start[i]; r < m.hinges->start[i + 1]; ++r) u += hinge_energy(m.bending, x, m.hinges->refs[r] >> 2);
  return u;
}

double vbd_incremental_potential(const VbdModel& m, const float* x) {
  double u = 0.0;
  for (uint32_t i = 0; i < m.vertex_count; ++i) u += inertia_energy(m, x, i) + friction_energy(m, x, i);
  if (m.neo_hookean || m.volume_stiffness > 0.0f)
    for (uint32_t t = 0; t < m.tet_count; ++t) u += tet_energy(m, x, t);
  if ((!m.neo_hookean && m.edge_stiffness > 0.0f) || m.edge_damping > 0.0f)
    for (uint32_t e = 0; e < m.edge_count; ++e) u += edge_energy(m, x, e);
  if (m.hinges && m.bending.active())
    for (uint32_t h = 0; h < m.bending.count; ++h) u += hinge_energy(m.bending, x, h);
  return u;
}

}  // namespace sb
