// Stable Neo-Hookean (Smith, de Goes, Kim 2018) on linear tets, in pascals: the one elastic energy
// every solver uses when a body's material is given by Young's modulus E and Poisson's ratio nu.
//
//   Psi(F) = mu/2 (tr(F^T F) - 3) + lambda/2 (det F - gamma)^2,   gamma = 1 + mu / lambda   (J/m^3)
//
// F = Ds B is the deformation gradient of a tet (Ds = [x1-x0, x2-x0, x3-x0], B = Dm^-1 of the rest
// shape). gamma makes the rest shape stress-free; the energy stays finite and smooth through
// inversion (det F < 0), so an inverted tet is pushed back instead of exploding. Without Smith et
// al.'s log term, matching linear elasticity at small strain takes mu = mu_L and
// lambda = lambda_L + mu_L (the Lame parameters of E and nu), derived in neo_hookean.cpp and checked by
// a uniaxial stretch test.
//
// XPBD runs the same energy as one block constraint per tet (neo_hookean_xpbd.h), weighted by V0 like
// every other solver's, so the same E and nu mean the same body at any resolution.
#pragma once
#include <cstdint>

#include "math/vec3.h"

namespace sb {

// A tet's deformation gradient F = Ds B (B row-major, 9 floats), as its three columns.
struct Deformation {
  Vec3 f[3];
};

inline Deformation deformation(const float* x, const uint32_t* id, const float* B) {
  const Vec3 x0 = load3(x, id[0]);
  const Vec3 d[3] = {load3(x, id[1]) - x0, load3(x, id[2]) - x0, load3(x, id[3]) - x0};
  Deformation F;
  for (int j = 0; j < 3; ++j) F.f[j] = d[0] * B[j] + d[1] * B[3 + j] + d[2] * B[6 + j];
  return F;
}

// dJ/dF = cof(F), by columns.
inline void cofactor(const Deformation& F, Vec3 c[3]) {
  c[0] = cross(F.f[1], F.f[2]);
  c[1] = cross(F.f[2], F.f[0]);
  c[2] = cross(F.f[0], F.f[1]);
}

// dF/dx of a corner maps a vector v to v b^T: b is row corner - 1 of B, and corner 0 minus their sum.
inline Vec3 corner_row(const float* B, int corner) {
  if (corner == 0) return {-(B[0] + B[3] + B[6]), -(B[1] + B[4] + B[7]), -(B[2] + B[5] + B[8])};
  return {B[3 * (corner - 1)], B[3 * (corner - 1) + 1], B[3 * (corner - 1) + 2]};
}

// Model parameters from engineering constants (E in Pa, nu in [0, 0.5)): mu and lambda in Pa, as the
// energy above uses them (lambda already includes the + mu of the note above).
struct NeoHookean {
  float mu = 0.0f;      // Pa
  float lambda = 0.0f;  // Pa
  float gamma = 1.0f;   // 1 + mu / lambda
};
NeoHookean neo_hookean_from(float youngs_modulus_pa, float poisson_ratio);

// B = Dm^-1 (row-major 3x3, 1/m) of tet a, b, c, d in `rest` (xyz); false if the tet is degenerate.
bool rest_shape_inverse(const float* rest, const uint32_t* tet, float B[9]);

// Energy of all tets, J (0 at the rest shape). B: 9 floats per tet; rest_volume: V0 per tet, m^3.
double neo_hookean_energy(const NeoHookean& m, const float* x, const uint32_t* tets, const float* B,
                          const float* rest_volume, uint32_t tet_count);

// Adds the elastic forces f_i = -dE/dx_i, N, to f (3 per particle).
void add_neo_hookean_forces(const NeoHookean& m, const float* x, const uint32_t* tets, const float* B,
                            const float* rest_volume, uint32_t tet_count, float* f);

// out += k * (d f / d x) p, N: the force Jacobian's product with p, with the Hessian's indefinite
// lambda (J - gamma) d^2J/dF^2 part dropped (Gauss-Newton: mu I + lambda g g^T with g = dJ/dF stays
// positive semi-definite, so implicit Euler's CG sees a positive definite system).
void neo_hookean_jacobian_product(const NeoHookean& m, const float* x, const uint32_t* tets, const float* B,
                                  const float* rest_volume, uint32_t tet_count, const float* p, float k, float* out);

// diag (one per particle) += k * trace / 3 of each particle's 3x3 block of -d f / d x with the same
// approximation, N/m: implicit Euler's Jacobi preconditioner, like system_diagonal's.
void neo_hookean_stiffness_diagonal(const NeoHookean& m, const float* x, const uint32_t* tets, const float* B,
                                    const float* rest_volume, uint32_t tet_count, float k, float* diag);

}  // namespace sb
