// Cloth's bending energy as forces, for the force-based integrators (integrators.h), implicit Euler's
// solve and VBD (vbd.h): the energy XPBD's bending constraint is the compliance form of
// (cloth_constraints.h), per hinge
//
//   U_h = D / (2 A) |r|^2,   r = C - R b,   C = sum_i K_i x_i,
//
// D the bending stiffness (N m), A = A0 + A1 (m^2), K the rest cotangent weights, b the rest
// curvature vector in the hinge's frame R (zero for a flat rest shape). Cloth's stretch and shear need
// nothing here: they are the body's edge springs with each edge's stiffness times its area weight
// (ForceModel::edge_scale), the energy XPBD's edge pass has at compliance 1/(Y weight).
//
// Forces are -dU/dx exactly, the frame's rotation included (a curved rest shape: d(R b)/dx, below).
// Hessian: the linear part D/A K_i K_j I, positive semi-definite as it is a Gram matrix; for a flat
// rest shape it is the whole Hessian, for a curved one the frame's second derivative is dropped
// (Gauss-Newton), which keeps implicit Euler's system and VBD's blocks positive definite.
#pragma once
#include <cstdint>
#include <vector>

#include "math/vec3.h"
#include "solver/cloth_constraints.h"

namespace sb {

struct BendingForces {
  const uint32_t* ids = nullptr;  // 4 per hinge: the edge x0 x1, then its opposite vertices x2 x3
  const float* k = nullptr;       // 4 cotangent weights per hinge, dimensionless
  const float* area = nullptr;    // A0 + A1 per hinge, m^2
  const float* rest = nullptr;    // b in the hinge frame, 3 per hinge, m; null when the rest shape is flat
  uint32_t count = 0;
  float stiffness = 0.0f;         // D, N m (0 = no bending)
  bool active() const { return count > 0 && stiffness > 0.0f; }
};

// The bending of a cloth model at stiffness D (N m); inactive for a body that is not cloth.
BendingForces bending_forces(const ClothModel& m, float bending_stiffness);

// dU_h/dx_i for the four corners of hinge h (N), at positions x (3 per vertex).
void hinge_energy_gradient(const BendingForces& b, const float* x, uint32_t h, Vec3 grad[4]);

// f -= dU/dx for every hinge (N; f holds 3 per vertex).
void add_bending_forces(const BendingForces& b, const float* x, float* f);

// out += kx (d f / d x) p with the Hessian above: out_i -= kx D/A K_i sum_j K_j p_j.
void add_bending_jacobian_product(const BendingForces& b, const float* p, float kx, float* out);

// diag_i += kx D/A K_i^2 (kg when kx = h^2): the diagonal of the Hessian above, exact per 3x3 block.
void add_bending_diagonal(const BendingForces& b, float kx, float* diag);

// U = sum_h D / (2 A) |C - R b|^2, J.
double bending_energy(const BendingForces& b, const float* x);
// One hinge's share of it, J (VBD's per-vertex line search, vbd.h).
double hinge_energy(const BendingForces& b, const float* x, uint32_t h);

// Which hinges touch each vertex, for VBD: compressed rows, refs 4 * hinge + corner.
struct HingeAdjacency {
  std::vector<uint32_t> start, refs;
};
HingeAdjacency hinge_adjacency(const uint32_t* ids, uint32_t hinge_count, uint32_t vertex_count);

}  // namespace sb
