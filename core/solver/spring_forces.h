// The elastic model every force-based integrator simulates, and which XPBD solves with compliance
// alpha = 1/k: a spring per edge, U = k/2 (l - l0)^2, a volume term per tet, U = kV/2 (6V - 6V0)^2,
// spring damping along each edge, f = -c ((va - vb) . n) n, gravity, and for closed surfaces an
// ideal gas inside: p = nRT / V pushes every face outward with p x area (seed 003's pressure body),
// U = -nRT ln(V / V0).
// Works on the same structure-of-arrays buffers as the XPBD solver.
#pragma once
#include <cstdint>

#include "materials/neo_hookean.h"
#include "math/vec3.h"
#include "solver/cloth_forces.h"

namespace sb {

struct ForceModel {
  uint32_t particle_count = 0;
  const float* mass = nullptr;      // kg per particle
  const float* inv_mass = nullptr;  // 1/kg, 0 = pinned (forces on it are ignored)
  const uint32_t* edges = nullptr;  // 2 ids per spring
  const float* edge_rest = nullptr; // m
  uint32_t edge_count = 0;
  float edge_stiffness = 0.0f;      // k, N/m (0 = no springs)
  float edge_damping = 0.0f;        // c, N s/m along each spring
  const uint32_t* tets = nullptr;   // 4 ids per tet, positively oriented
  const float* tet_rest6 = nullptr; // 6 V0, m^3
  uint32_t tet_count = 0;
  float volume_stiffness = 0.0f;    // kV, N/m^5 (0 = no volume term)
  const uint32_t* surface = nullptr;  // outward triangles, 3 ids each
  uint32_t surface_count = 0;
  float pressure_nrt = 0.0f;        // nRT of the enclosed gas, J (0 = no pressure)
  double rest_volume = 0.0;         // V0 enclosed by the surface, m^3
  float gravity[3] = {0, 0, 0};     // m/s^2
  // Stable Neo-Hookean tets (materials/neo_hookean.h) instead of springs and volume terms, when set.
  const NeoHookean* neo_hookean = nullptr;
  const float* tet_inverse_rest = nullptr;  // B = Dm^-1 per tet, 9 floats, 1/m
  const float* tet_rest_volume = nullptr;   // V0 per tet times its stiffness scale, m^3 (the energy's weight)
  // Vertex groups: per edge and per tet multipliers of edge_stiffness and volume_stiffness (the mean
  // of their vertices' stiffness scales). Null = 1.
  const float* edge_scale = nullptr;
  const float* tet_scale = nullptr;
  // Node-smoothed strain (strain_smoothing.h), Neo-Hookean only: the share a of the energy taken by
  // the particles' smoothing domains, [0, 1] (0 = plain linear tets), and the float kernels'
  // workspace (kSmoothingWork doubles per particle, owned by the body; written by every evaluation).
  float strain_smoothing = 0.0f;
  double* smoothing_work = nullptr;
  // Cloth's bending (cloth_forces.h); inactive for other bodies. Its stretch is the springs above.
  BendingForces bending;
};
inline float scale_at(const float* scale, uint32_t i) { return scale ? scale[i] : 1.0f; }

// A tet's volume term: g[k] = d(6V)/dx_k (the cross products of the opposite faces' edges), 6V.
struct TetGradients {
  Vec3 g[4];
  float vol6;
};
inline TetGradients tet_gradients(const float* x, const uint32_t* id) {
  const Vec3 x0 = load3(x, id[0]);
  const Vec3 e1 = load3(x, id[1]) - x0, e2 = load3(x, id[2]) - x0, e3 = load3(x, id[3]) - x0;
  TetGradients t;
  t.g[1] = cross(e2, e3);
  t.g[2] = cross(e3, e1);
  t.g[3] = cross(e1, e2);
  t.g[0] = (t.g[1] + t.g[2] + t.g[3]) * -1.0f;
  t.vol6 = dot(t.g[3], e3);
  return t;
}

// f = m g + spring + damping + volume forces, N, written into f (3 per particle).
void compute_forces(const ForceModel& m, const float* x, const float* v, float* f);

// Products with the force Jacobians, for implicit Euler's matrix-free CG:
// out = (df/dx) p_x + (df/dv) p_v scaled as out = kx * (df/dx) p + kv * (df/dv) p.
// df/dx of a spring is -k [n n^T + max(0, 1 - l0/l)(I - n n^T)]: the transverse term is clamped at 0
// for compressed springs so the system stays positive definite (Baraff & Witkin 1998, Choi & Ko 2002).
// The volume term uses the Gauss-Newton part -kV g g^T (the C * Hessian(C) term is dropped, same reason).
void force_jacobian_product(const ForceModel& m, const float* x, const float* p, float kx, float kv, float* out);

// Jacobi preconditioner: diagonal of M - kv df/dv - kx df/dx (with the same approximations), kg.
void system_diagonal(const ForceModel& m, const float* x, float kx, float kv, float* diag);

// Adds the gas pressure's force on each surface vertex, N, to f (the caller's buffer).
void add_pressure_forces(const ForceModel& m, const float* x, float* f);

// Elastic energy of springs, volume terms and gas, J (gravity not included). The pressure force
// is treated explicitly by every solver (it is left out of implicit Euler's Jacobian).
double elastic_energy(const ForceModel& m, const float* x);

}  // namespace sb
