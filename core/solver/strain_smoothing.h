// Node-smoothed strain: an option against linear tets' locking in bending (SB_PARAM_STRAIN_SMOOTHING).
//
// A linear tet has one constant F, so a tet that must bend also stretches and shears: the discrete
// body is stiffer in bending than the continuum, the more so the fewer tets through the thickness
// (locking). Node-based smoothing (NS-FEM, Liu et al. 2009) gives each particle n a smoothing domain
// (a quarter of each tet around it) whose deformation gradient is the volume-weighted mean of its
// tets' (a strain constant over the domain, as S-FEM's smoothed strain for F linear in x):
//
//   Fn = sum_{t around n} (V_t / 4) F_t / V_n,     V_n = sum_{t around n} V_t / 4      (V: rest volumes)
//
// The node-smoothed energy sum_n W_n Psi(Fn) is softer than the continuum (an upper bound on
// displacement, where the tets' energy is a lower bound), so the energy every solver that supports it
// uses is the blend (the alpha-FEM idea: Liu, Nguyen-Thoi, Lam 2008)
//
//   E = (1 - a) sum_t W_t Psi(F_t) + a sum_n W_n Psi(Fn),       a = strain_smoothing in [0, 1]
//
// (W: the energy weights, V0 times the vertex groups' stiffness scale; W_n = sum W_t / 4). Why it
// does not just soften everything: a uniform F gives Fn = F, so homogeneous strains (stretch, shear,
// squeeze: the patch test) and rigid motions (Fn a rotation, Psi = 0) cost exactly what they do
// with plain tets; only the tet-to-tet jumps of F that bending forces on linear tets are averaged
// out. a = 0.7 takes a cantilever 2 cells thick from 0.60 to 0.95-0.97 of Timoshenko (docs/physics.md).
// Cost: each tet's F also goes to its 4 corners and each particle evaluates one stress (a particle
// per ~5 tets): 1.7x the plain tets' forces and Jacobian product per tet (docs/benchmarks.md). The
// coupling reaches across a particle's
// neighbours' neighbours, so the static solver applies this part matrix-free beside its assembled
// tets (static_matrix.h). XPBD and VBD solve per tet and per vertex and do not have it (the C API
// refuses the option under them).
#pragma once
#include <cstddef>

#include "solver/spring_forces.h"
#include "solver/static_model.h"

namespace sb {

// Doubles of workspace per particle the functions below need (the caller's buffer).
constexpr size_t kSmoothingWork = 29;

// Fills the workspace's per-particle V_n, W_n and Fn at x: what the Hessian product below reads.
void smoothing_prepare(const ForceModel& m, const StaticState& x, double* work);

// a sum_n W_n Psi(Fn), J (prepares the workspace at x).
double smoothing_energy(const ForceModel& m, const StaticState& x, double* work);

// g += d/dx of the above, N (3 per particle); with_tets also adds the plain tets' share
// (1 - a) sum_t W_t Psi(F_t)'s gradient in the same pass. Prepares the workspace at x.
void smoothing_gradient(const ForceModel& m, const StaticState& x, bool with_tets, double* work, double* g);

// out += (d^2/dx^2 of the above) p, for a workspace prepared at x (smoothing_prepare or the
// gradient: Fn is not recomputed, so CG's products at one x cost only the direction's part).
// gauss_newton drops Psi's indefinite lambda (J - gamma) d^2J/dF^2 term (implicit Euler's positive
// definite system), otherwise exact (the static solver's Newton); with_tets as above.
void smoothing_hessian_product(const ForceModel& m, const StaticState& x, const double* p, bool gauss_newton,
                               bool with_tets, double* work, double* out);

// The float kernels of the force-based solvers, on m.smoothing_work (kSmoothingWork doubles per
// particle, the body's, initialised to NaN; in double because x is copied there anyway), the plain
// tets' share included: f += the forces, N; out += k (df/dx) p with the Gauss-Newton Jacobian
// (reusing the forces' Fn when x is the same); the smoothed part of the energy, J.
void add_smoothing_forces(const ForceModel& m, const float* x, float* f);
void smoothing_jacobian_product(const ForceModel& m, const float* x, const float* p, float k, float* out);
double smoothing_energy(const ForceModel& m, const float* x);

}  // namespace sb
