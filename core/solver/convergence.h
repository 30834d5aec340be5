// Convergence by target: how stiff the unconverged passes left a body, and the per-frame report.
//
// "Stiffness reached" s of a substep is measured on implicit Euler's step, the equation every
// position-based solver here iterates towards. With f_i(x) the body's internal force on vertex i
// (elastic; VBD's edge dashpots too), y the inertial prediction (gravity included) and
//
//   r_i = f_i(x) - m_i (x_i - y_i) / h^2          (N: what the passes left unbalanced)
//   u_i = the body's deformation at vertex i      (m: x_i - X_i with pinned vertices, else with the
//                                                  best-fit rigid motion of x onto the rest shape X
//                                                  taken out)
//   q   = 1 - |sum_i u_i . r_i| / max(|sum_i u_i . f_i|, sum_i m_i |g| 1e-4 m),   s = sqrt(q)
//
// over the free vertices that nothing but the body supports (pinned, held and ground-contact vertices
// are left out: their reactions are not in f). q is the share of the internal force along the body's
// own shape that the passes balanced. Were the error shaped like the static answer u* (u = u* / s),
// q would be s; it is not: what passes leave is spread into stiffer, shorter-wave shapes, and measured
// on the bench's cantilever (convergence_bench.mjs: XPBD 1 and 4 passes, VBD 1 and 8 sweeps, sags of
// 1.3-7.3 times the static answer) q came out within 0.05 of (static sag / sag)^2, so s = sqrt(q) is
// what reads as a stiffness: a body that reports 0.6 sags about 1/0.6 of the static answer
// (docs/solvers.md). Projected on u because the unbalanced force of a few Gauss-Seidel passes is
// mostly element-scale imbalance that sums to nothing over the body's shape: the plain sum of |r_i|
// over the sum of |f_i| read ~0 on a beam that sagged 1.06 of the static answer. The floor (a 0.1 mm
// sag under the body's own weight)
// keeps an undeformed body in free fall from reading as unconverged.
#pragma once
#include <cstdint>

#include "materials/neo_hookean.h"

namespace sb {

// The frame u is measured in: pinned (u = x + origin - X) or with the rigid motion taken out.
struct DeformationFrame {
  bool rigid = false;                 // the best-fit rigid motion is taken out
  double c[3] = {0, 0, 0};            // m: centre of mass of x (x's coordinates) or, pinned, -origin
  double c0[3] = {0, 0, 0};           // m: centre of mass of X (pinned: 0)
  double R[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  void displacement(const float* x, const float* X, double u[3]) const;  // one vertex, m
};
// x: positions in coordinates offset by origin (world = x + origin), X: the rest shape (world).
DeformationFrame deformation_frame(const float* x, const float* rest, const float* mass, const float* inv_mass,
                                   uint32_t vertex_count, const float origin[3]);

// Sums of the measure above, over the vertices one pass reached.
struct ForceBalance {
  const DeformationFrame* frame = nullptr;
  const float* rest = nullptr;  // X, m (3 per vertex)
  double ur = 0.0;     // J, sum u . r
  double uf = 0.0;     // J, sum u . f
  double floor = 0.0;  // J, sum m |g| 1e-4 m
  // Vertex i at x (the frame's coordinates): r and f in N, weight m |g| in N.
  void add(uint32_t i, const float* x, const double r[3], const double f[3], double weight);
  // s in [0, 1] (1 when nothing was measured).
  double stiffness_reached() const;
};

// XPBD with the Neo-Hookean material: the balance at positions x (after a pass, in the passes'
// coordinates) against the prediction y (same coordinates), with the stress of the current shape.
// force: scratch, 3 floats per vertex (overwritten). supported: per vertex, nonzero = left out (null: none).
// balance: its frame and rest set; the sums are added to it.
void neo_hookean_force_balance(ForceBalance* balance, const NeoHookean& material, const float* x, const float* y, const float* mass,
                                       const float* inv_mass, const int8_t* supported, uint32_t vertex_count,
                                       const uint32_t* tets, const float* B, const float* rest_volume,
                                       uint32_t tet_count, float inv_h2, float gravity, float* force);

// What a body's last frame did about its target (SoftBody::convergence()).
enum class ConvergenceStatus : int32_t {
  NotMeasured = 0,  // the simple model under XPBD, PBD or a force-based solver: no measure
  Fixed = 1,        // no target: `iterations` passes ran; stiffness_reached says what they gave
  Met = 2,          // every substep reached the target within the budget
  BudgetSpent = 3,  // at least one substep spent its budget short of the target
};
struct ConvergenceReport {
  ConvergenceStatus status = ConvergenceStatus::NotMeasured;
  double stiffness_reached = 1.0;  // the lowest s of the frame's measured substeps, 0..1
  int32_t passes = 0;              // passes (XPBD) or sweeps (VBD) the frame ran, all substeps
  int32_t substeps = 0;
};

}  // namespace sb
