// The force model's (spring_forces.h) elastic energy with gravity as the load, in double precision,
// with its gradient and its exact Hessian: what the static solver (static_solver.h) minimises.
//
//   Phi(x) = E_elastic(x) - sum_i m_i g . u_i,   x = X + u     (J; X: the state the solve started from)
//
// E_elastic is the same energy the dynamic solvers integrate: stable Neo-Hookean tets (materials/
// neo_hookean.h; blended with node-smoothed strain when the body asks, strain_smoothing.h) or the simple model's springs U = k/2 (l - l0)^2 and volume terms U = kV/2 (6V - 6V0)^2,
// with the vertex groups' per-edge and per-tet scales. Why double and not the float kernels: a static
// solve is judged by its force residual, and at a fine mesh under a small load the float kernels' own
// rounding is larger than the load. Positions of ~1 m round to 6e-8 m, a strain of 1e-5 on a 6 mm
// edge, which at E = 10 MPa is a force per vertex ~25x a vertex's share of a load that bends a
// 1 m beam by 1 cm. Positions are carried as X + u (the start and the displacement from it) and each
// edge vector as (X_i - X_j) + (u_i - u_j), so rounding is relative to the displacement, not to the
// body's distance from the origin: in plain double, x = 1 m still left a force floor of ~1e-8 of the
// load on an 80 x 8 x 8 beam (measured: Newton stalled at 2e-8). The rest data (B, V0, l0, 6 V0)
// stay the body's floats: the same discrete body.
//
// The Hessian is exact (no Gauss-Newton drop, no clamp): near the rest shape Neo-Hookean's dropped
// term lambda (J - gamma) d^2J/dF^2 = -mu d^2J/dF^2 is as large as the kept ones, so Newton with the
// Gauss-Newton matrix would converge only linearly. It can be indefinite far from rest; the solver's
// CG stops at negative curvature (Steihaug) and its line search keeps each step downhill.
// Gas pressure and spring damping are not part of it (no statics for either).
#pragma once
#include <cstdint>

#include "solver/spring_forces.h"

namespace sb {

// A configuration x = X + u, 3 doubles per particle each, m. u null: x = X.
struct StaticState {
  const double* X;
  const double* u;
};

// Phi at x, J (the gravity potential's zero at u = 0).
double static_energy(const ForceModel& m, const StaticState& x);

// g = dPhi/dx, N (3 per particle; pinned particles included, the solver masks them).
void static_gradient(const ForceModel& m, const StaticState& x, double* g);

// out = (d^2 Phi / dx^2) p, N (3 per particle). Gravity is linear in x: only the elastic part.
void static_hessian_product(const ForceModel& m, const StaticState& x, const double* p, double* out);

// The exact Hessian of one element's energy, dense and row-major over its corners (3 per corner):
// tet t's Neo-Hookean or volume term (12 x 12), spring s (6 x 6; 0 without springs). Built by
// applying the element's product to unit directions, so it is the product above, entry for entry,
// except for strain smoothing (strain_smoothing.h): a tet's matrix is then its plain share (1 - a),
// and the smoothed part, which couples particles beyond a tet's corners, is only in the product.
void static_tet_hessian(const ForceModel& m, const StaticState& x, uint32_t t, double* H);
void static_edge_hessian(const ForceModel& m, const StaticState& x, uint32_t s, double* H);

}  // namespace sb
