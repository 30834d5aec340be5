// Stable Neo-Hookean under XPBD: each tet is ONE block constraint, its deformation gradient.
//
// Why not the constraint pair of Macklin & Mueller 2021 (C_D = |F|, C_H = det F - gamma): at rest the
// gradient of |F| is I / sqrt(3), a purely volumetric direction, so XPBD's Gauss-Newton step (which
// keeps grad C grad C^T / alpha and drops lambda d^2C/dx^2) sees no shear stiffness at all near rest;
// the tet's shear stiffness mu lives entirely in the dropped lambda d^2|F| term, which makes the
// pair an explicit method in shear: it crushed tets once k h^2 / m per tet passed ~10 (docs).
//
// Here the nine entries of F are the constraints: C(x) = F(x) = Ds(x) B, which is LINEAR in the
// positions, so its gradient is constant and XPBD's dropped terms vanish (and the primal equation
// M (x - x~) = sum G^T Lambda holds exactly, up to rounding: neo_hookean_positions). All the nonlinearity is moved into the constraint's "compliance", the material law: the
// block's multiplier Lambda (3x3, the tet's force impulse: Lambda = -h^2 V0 P(F), P the first
// Piola-Kirchhoff stress) is solved for with F by Newton's method on the tet's own 9-dimensional
// problem each time the tet is visited,
//
//   F = argmin 1/(2 h^2 V0) tr((F - Fy) W^-1 (F - Fy)^T) + Psi(F),   W = sum_i w_i b_i b_i^T,
//   Fy = F(x) - Lambda_old W,
//
// which is the tet's own implicit Euler step (its inertia through the inverse masses w_i, b_i the rows
// of Dm^-1) with the other tets held: XPBD's constraint projection solved exactly for a nonlinear
// compliance. The energy is exactly Psi (no split, no rest multipliers: P(I) = 0), so the converged
// passes are implicit Euler on the same energy VBD, the integrators and the static solver use.
// The vertices move by dx_i = w_i dLambda b_i: equal and opposite impulses (sum b_i = 0), momentum kept.
#pragma once
#include <cmath>
#include <cstdint>

#include "materials/neo_hookean.h"

namespace sb {

struct NeoHookeanPass {
  float* pos = nullptr;              // xyz per vertex, m
  const float* inv_mass = nullptr;   // 1/kg per vertex (0: pinned or held)
  const uint32_t* tets = nullptr;    // 4 per tet
  const float* B = nullptr;          // Dm^-1 per tet, 9 floats row-major, 1/m
  const float* rest_volume = nullptr;  // V0 x stiffness scale per tet, m^3 (the energy's weight)
  uint32_t tet_count = 0;
  NeoHookean material;
  float h2 = 0.0f;  // substep squared, s^2
  // Per tet 9 floats (F's layout: column j, row r at 3 j + r), Lambda = -h^2 V0 P (kg m^2: s^2 m^3 Pa),
  // summed over the substep's passes; null for a single pass whose multipliers nobody reads.
  float* lambda = nullptr;
  int newton_iterations = 4;  // at most, per visit: the next pass or substep goes on from where it stopped
  // Contact inside the passes with the ground (y >= floor_y) and the press plate (y <= ceiling_y), in
  // the pass's coordinates, when plane is not null. A tet visit that would push a vertex through a
  // plane re-solves with that vertex immovable along y (its w_y = 0: the tet's other vertices take
  // the correction), so the planes hold inside the solve instead of undoing part of it afterwards.
  // plane[i]: 2 for a vertex static friction holds on the ground (immovable on every axis unless a
  // visit pulls it up), 1 for one the substep put on the ground, 0 otherwise. What the planes
  // supplied in the passes, kg m: plane_impulse[i] along +y, plane_tangent[2 i] along x and z.
  const int8_t* plane = nullptr;
  float floor_y = -INFINITY, ceiling_y = INFINITY;  // m
  float* plane_impulse = nullptr;
  float* plane_tangent = nullptr;
  const float* plane_push = nullptr;  // m per vertex: the substep's clamp onto the ground
};

// Positions from the multipliers: x_i = target_i + w_i sum over its tets of Lambda_t b_i (+ moved_i,
// what the edge dashpots moved it, if not null), summed in double (sum: 3 doubles per vertex of
// scratch). Why: each projection rounds x to float, and over many
// passes those roundings add up (a 1 m coordinate's ulp over h^2 = 1/600^2 s^2 is a force of ~0.02 of
// a vertex's weight, per rounding), so positions and multipliers drift apart and the passes converge
// to a state ~1 % off the implicit step's (measured on the 10 MPa cantilever); rebuilding x after each
// pass keeps them one rounding apart. target: the substep's inertial prediction.
// With planes, what they supplied is added (w_i times plane_impulse_i along y, plane_tangent_i along x
// and z): so a held vertex's blocked impulses cancel and a clamp stays.
void neo_hookean_positions(const NeoHookeanPass& p, const float* target, double* sum, uint32_t vertex_count,
                           const double* moved = nullptr);

// The stiffness number of a tet, S = (lambda + mu) h^2 V0 sum_i w_i |b_i|^2: its P-wave stiffness over
// its vertices' inertia in a substep of h (the pair's k h^2 / m of the docs). Each tet's own solve is
// exact at any S, but the Gauss-Seidel coupling of neighbours is not: measured on the demo's box
// dropped on the ground (docs, "Materials in pascals"), every run with S <= 1000 came to rest whole,
// and runs from S = 1140 on collapsed some; a tetrahedralized bunny, whose largest S is ~170 times its
// median, jittered from a largest S of ~38,000 (median 217). XPBD with Neo-Hookean is supported up to
// kXpbdNeoHookeanMaxStiffness, half of the lowest failure, for the body's largest S.
// Returns the largest over the tets per h^2, 1/s^2.
constexpr double kXpbdNeoHookeanMaxStiffness = 500.0;
// One tet's tr W = sum_i w_i |b_i|^2 (1/(kg m^2)) for its inverse rest shape B (9 floats); a tet's S
// is (lambda + mu) h^2 V0 tr W.
double tet_inertia_trace(const float* inv_mass, const uint32_t* tet, const float* B);
double neo_hookean_stiffness_per_h2(const NeoHookean& m, const float* inv_mass, const uint32_t* tets, const float* B,
                                    const float* rest_volume, uint32_t tet_count);

// One Gauss-Seidel pass over the tets in order (single-threaded, deterministic).
void solve_neo_hookean_blocks(const NeoHookeanPass& p);

// Spring damping (f = -c dl/dt along every edge) beside the block pass, which has no edges of its own:
// a pure dashpot per edge, C = |x_a - x_b| - |p_a - p_b| (p: the substep's start, m), compliance h / c
// (the dashpot's c C^2 / (2h) over the substep), so the converged projection is implicit Euler of the
// dashpot: force -c C / h along the edge, VBD's to first order (VBD takes the displacement along the
// edge). C is a change of length, so a rigid rotation or translation feels nothing; the ends get equal
// and opposite impulses along the edge, so momentum and angular momentum are kept.
struct EdgeDashpotPass {
  float* pos = nullptr;              // xyz per vertex, m
  const float* prev = nullptr;       // xyz at the substep's start, m (any origin: only lengths are read)
  const float* inv_mass = nullptr;   // 1/kg per vertex
  const uint32_t* edges = nullptr;   // 2 per edge
  uint32_t edge_count = 0, vertex_count = 0;
  double* x = nullptr;       // scratch, 3 doubles per vertex: the pass runs on a double copy, rounded once
  double alpha_tilde = 0.0;  // compliance / h^2 = 1 / (c h), 1/kg
  float* lambda = nullptr;   // per edge, summed over the passes (kg m); null: a single pass, taken as 0
  double* moved = nullptr;   // per vertex xyz, what the pass moved summed (m), for neo_hookean_positions; may be null
};
// One Gauss-Seidel pass over the edges in order (single-threaded, deterministic), as the block pass.
void solve_edge_dashpots(const EdgeDashpotPass& p);

// The largest |P(F) + Lambda / (h^2 V0)| / (lambda + mu) over the tets (a strain): how far the last
// pass left the substep's equations unsolved. 0 = converged. Needs the multipliers.
float neo_hookean_block_residual(const NeoHookeanPass& p);

}  // namespace sb
