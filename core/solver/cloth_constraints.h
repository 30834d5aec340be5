// Cloth: the stretch weights and the bending model of a triangle sheet, and the XPBD pass that bends.
//
// Stretch: a spring along every triangle edge (the body's edge pass, xpbd_constraints.h), with the
// sheet's in-plane stiffness Y (N/m) spread over them so the sheet, not the spring, has the asked
// stiffness: k_e = Y sum_t A_t / l_e^2 over the (one or two) triangles t of edge e (Van Gelder 1998).
// Why this is resolution independent: a uniform in-plane strain eps stores U_e = 1/2 k_e (eps l_e)^2
// = 1/2 Y eps^2 sum_t A_t per edge: the energy per area does not depend on l. On the equilateral
// lattice it is exactly the isotropic membrane of 2D Young's modulus Y and Poisson's ratio 1/3
// (Lame mu = lambda = sqrt(3)/4 k for springs k: E_2D = 2k/sqrt(3) with k = Y sqrt(3)/2); on other
// triangles a spring network cannot be isotropic, and Y is then the stiffness to within the shape's
// anisotropy (docs/physics.md). The body's edge compliance is 1/Y (m/N); edge e gets
// (1/Y) l_e^2 / sum_t A_t through the per-edge stiffness multiplier.
//
// Bending: the isometric quadratic bending energy of Bergou, Wardetzky, Harmon, Zorin, Grinspun 2006
// (and Wardetzky et al. 2007), per interior edge ("hinge": the edge x0 x1 and its opposite vertices
// x2, x3) C = sum_i K_i x_i, a vector that is zero on a flat hinge, linear in the positions, with
// cotangent weights K fixed at rest; U = 1/2 D w |C - R b|^2 with the bending stiffness D in N m.
// w = 1/(A0 + A1) (the hinge's two triangle areas): calibrated so that bending a sheet of equilateral
// triangles into a cylinder of curvature kappa stores 1/2 D kappa^2 per m^2 (Bergou's 3/(A0 + A1)
// gives 3x that, measured in every direction; the sum tends to the continuum as the 1 - 1/n of
// edge rows a free border leaves out). So D is the plate's bending stiffness E t^3 / (12 (1 - nu^2)),
// and the sheet bends the same at any resolution. b = K x at rest: a curved rest shape keeps its
// curvature; b is stored in the hinge's frame (edge, normal, edge x normal) and rotated with it
// (R: the frame of the current positions, taken as fixed in each projection), so a hat turned over
// stays a hat. A flat rest shape (b = 0) skips the frame: C is linear, and XPBD on a linear
// constraint is exactly implicit Euler's step of this energy.
// As an XPBD constraint (Macklin et al. 2016) C is a 3-vector with gradient K_i I per vertex, so its
// system is scalar: dlambda = (-C - alpha~ lambda) / (sum_i w_i K_i^2 + alpha~), x_i += w_i K_i dlambda,
// alpha~ = 1 / (D w h^2).
#pragma once
#include <cstdint>
#include <vector>

#include "solver/xpbd_partition.h"

namespace sb {

struct ClothModel {
  // Hinges in solve order (bend_plan): x0 x1 the edge, x2 opposite in the triangle that runs x0 -> x1
  // (its winding), x3 in the other one.
  std::vector<uint32_t> hinge_ids;  // 4 per hinge
  std::vector<float> hinge_k;       // 4 cotangent weights per hinge, dimensionless
  std::vector<float> hinge_area;    // A0 + A1 = 1 / w, m^2
  std::vector<float> hinge_rest;    // b in the hinge frame (edge, normal, edge x normal), m; empty when flat
  std::vector<float> hinge_lambda;  // XPBD multipliers, 3 per hinge, N s^2
  PassPlan bend_plan;
  std::vector<float> vertex_area;   // m^2: a third of each triangle's area; mass = areal density x this
  bool empty() const { return vertex_area.empty(); }
  uint32_t hinge_count() const { return uint32_t(hinge_area.size()); }
};

// The hinges, their weights and rest curvature and the vertex areas of a checked cloth mesh
// (check_cloth_mesh), hinges in mesh order (no plan yet).
ClothModel make_cloth_model(const float* positions, uint32_t vertex_count, const uint32_t* triangles,
                            uint32_t triangle_count);

// Orders the hinges for the passes (xpbd_partition.h) with the body's vertex groups.
void plan_hinges(ClothModel& m, uint32_t vertex_count, const std::vector<uint32_t>& vertex_bounds);

// Per edge stretch multiplier sum_t A_t / l_e^2 (dimensionless) for the edges given as pairs
// (the body's edges, in its order); 1 for an edge on no triangle.
std::vector<float> cloth_edge_weights(const float* positions, const uint32_t* triangles, uint32_t triangle_count,
                                      const uint32_t* edges, uint32_t edge_count);

// One Gauss-Seidel pass of the bending constraints [begin, end) over positions padded to xyzw
// (xpbd_constraints.h pack_positions).
struct BendPass {
  float* xw = nullptr;
  const uint32_t* ids = nullptr;
  const float* k = nullptr;
  const float* area = nullptr;
  const float* rest = nullptr;  // null when the rest shape is flat
  float alpha_per_area = 0.0f;  // 1 / (D h^2), 1/(kg m^2): alpha~ of a hinge = this x (A0 + A1)
  float* lambda = nullptr;      // may be null (one pass whose multipliers nobody reads)
  // PBD (no multipliers, no compliance in the projection): each pass moves a hinge by the share
  // 1 - (1 - f)^(1 / passes) of its full correction, f = W / (W + alpha~) the share XPBD's first
  // pass takes (W = sum_i w_i K_i^2), times `scale` (the body's PBD stiffness). A lone hinge then
  // ends its `passes` passes where XPBD's leaves it (its constraint is linear), whatever the count
  // (Mueller et al. 2007, section 3.3: the per-pass factor that makes the stiffness independent
  // of the iteration count). 0: XPBD.
  int pbd_passes = 0;
  float scale = 1.0f;
};
void solve_bend_span(const BendPass& p, uint32_t begin, uint32_t end);

// U = sum 1/2 D |C - R b|^2 / (A0 + A1), J (D in N m).
double cloth_bending_energy(const ClothModel& m, float bending_stiffness, const float* positions);

// Area-weighted vertex normals of the triangles (unit; 0 for a vertex of no triangle), into normals.
void vertex_normals(const float* positions, uint32_t vertex_count, const uint32_t* triangles, uint32_t triangle_count,
                    float* normals);

}  // namespace sb
