// Vertex Block Descent (Chen, Liu, Yang, Yuksel, "Vertex Block Descent", SIGGRAPH 2024): implicit
// Euler as the minimisation of the incremental potential
//
//   G(x) = sum_i m_i / (2 h^2) |x_i - y_i|^2 + E(x),   y = x_prev + h v + h^2 g   (the inertial target)
//
// by Gauss-Seidel over vertices: each vertex in turn takes one Newton step on G with the others held,
// dx_i = H_i^-1 f_i, where f_i = -dG/dx_i and H_i = m_i/h^2 I + d^2E/dx_i^2 is its 3x3 block. It
// minimises the same energy as the force-based solvers (spring_forces.h, materials/neo_hookean.h), so
// more sweeps converge to implicit Euler's step, and it needs no compliance trick: any finite stiffness.
// For both energies the block is exact and positive semi-definite without projection: a tet's volume
// and det F are linear in each single vertex, so their own second derivative there vanishes, leaving
// V0 (mu |b|^2 I + lambda q q^T) (Neo-Hookean) or kV g g^T (volume term); a spring's block is clamped
// like implicit Euler's (compressed springs drop their transverse part).
#pragma once
#include <cmath>
#include <cstdint>
#include <vector>

#include "materials/neo_hookean.h"
#include "solver/cloth_forces.h"

namespace sb {

// Which tets and edges touch each vertex (compressed rows, built once per body).
struct VertexAdjacency {
  std::vector<uint32_t> tet_start, tet_refs;    // refs: 4 * tet + corner
  std::vector<uint32_t> edge_start, edge_refs;  // refs: 2 * edge + end
};
VertexAdjacency vertex_adjacency(const uint32_t* tets, uint32_t tet_count, const uint32_t* edges, uint32_t edge_count,
                                 uint32_t vertex_count);

struct VbdModel {
  uint32_t vertex_count = 0;
  const float* mass = nullptr;      // kg
  const float* inv_mass = nullptr;  // 1/kg; 0 = held (not moved)
  const float* target = nullptr;    // y, m (3 per vertex)
  float inv_h2 = 0.0f;              // 1/h^2, 1/s^2
  const uint32_t* tets = nullptr;
  uint32_t tet_count = 0;
  // Neo-Hookean tets when set, else the simple model's springs and volume terms.
  const NeoHookean* neo_hookean = nullptr;
  const float* tet_inverse_rest = nullptr;  // B per tet, 9 floats
  const float* tet_rest_volume = nullptr;   // V0, m^3
  const float* tet_rest6 = nullptr;         // 6 V0, m^3 (simple model)
  float volume_stiffness = 0.0f;            // kV, N/m^5 (simple model)
  const uint32_t* edges = nullptr;
  uint32_t edge_count = 0;                  // for vbd_incremental_potential (the sweep uses the adjacency)
  const float* edge_rest = nullptr;         // m
  float edge_stiffness = 0.0f;              // k, N/m (simple model)
  const float* edge_scale = nullptr;        // vertex groups: per edge multiplier of k (null = 1)
  const float* tet_scale = nullptr;         // vertex groups: per tet multiplier of kV (null = 1)
  // Cloth's bending (cloth_forces.h): a vertex's force from each hinge it is in, and its block
  // D/A K_i^2 I (the Gauss-Newton block: PSD, exact for a flat rest shape). hinges: per vertex.
  BendingForces bending;
  const HingeAdjacency* hinges = nullptr;
  // Spring damping (either material: the force model's dashpot along every edge, f = -c (dl/dt)).
  // With v = (x - x_prev) / h over the substep, vertex i of edge (i, j) feels
  //   f_i = -(c / h) n n^T ((x_i - x_prev,i) - (x_j - x_prev,j)),   H_i += (c / h) n n^T,
  // Chen et al. 2024's Rayleigh term k_d H / h with k_d k = c and H the spring's longitudinal block,
  // but driven by the edge's relative displacement (as implicit Euler's dashpot is), so a body moving
  // rigidly is not slowed. Needs `previous` when c > 0.
  float edge_damping = 0.0f;                // c, N s/m
  const float* previous = nullptr;          // x at the substep's start, m (3 per vertex)
  // Vertices held up by a contact the sweep does not see (the ground, a collider): moved as the
  // others, but left out of the residual, whose weight they would otherwise count as unbalanced.
  const uint8_t* supported = nullptr;       // 1 per vertex, or null
  float gravity = 9.81f;                    // |g|, m/s^2: sets the residual's smallest force scale
  // Contact inside the sweep: the ground (y >= floor_y) and the press plate (y <= ceiling_y), in the
  // coordinates the sweep runs in (m). A vertex whose Newton step would cross one takes the step that
  // minimises its quadratic model on the plane instead (its y held there, x and z solved), so the
  // elastic solve sees the contact: solved after the sweeps, the projection undid part of each
  // sweep's correction every substep and the layers on the plates stayed crushed (a block pressed to
  // 65 % at nu = 0.49 lost 3-4 % of its volume at 10 substeps, 1.2 % at 40). support: per vertex,
  // the normal force the plane applied in the last sweep, N, + up (0 when free); it sets the next
  // substep's friction (friction_load), and what vbd_remove_net_impulse may take out.
  float floor_y = -INFINITY;
  // The ground's friction inside the sweep, as a dissipation potential of the vertex's sliding over
  // the substep u = (x - previous) in x and z: D = mu lambda f0(|u|), with f0(s) = s beyond
  // friction_eps and -s^3/(3 eps^2) + s^2/eps + eps/3 below it (Li et al. 2020's smoothed Coulomb
  // friction), its force capped at mu lambda. mu lambda is lagged (the plane's push in the last
  // substep), so D is fixed over the substep and convex, and the whole check (G + D at the result
  // against G + D at x_n, where u = 0) bounds the step as without friction. Friction applied after
  // the sweeps as a projection restored what the sweeps released: a gelatin bunny stretched 9 m along
  // the ground gained ~1 kJ a substep with its velocities already zero.
  const float* friction_load = nullptr;     // mu lambda per vertex, N (0 = none), or null
  float friction_eps = 0.0f;                // m: sliding below this is the smoothed (sticking) part
  float ceiling_y = INFINITY;
  float* support = nullptr;                 // 1 per vertex, N; may be null when both planes are absent
  // Whether block steps are line-searched (below). SoftBody::vbd_solve's first try from y goes
  // without: its result is checked as a whole.
  bool line_search = true;
  // Counts of the line search (below), summed over sweeps; null = not counted.
  struct VbdStepStats* stats = nullptr;
};

// Block steps that never raise G. Friction's D is majorised at the step's start by the quadratic
// with weight mu lambda f0'(s0)/s0 (f0(sqrt(t)) is concave in t, so its tangent bounds it), which
// the block minimises: the step cannot raise the vertex's share either. The Neo-Hookean and volume
// terms are quadratic in one vertex, so with tets alone the full step (on a plane too) is the exact
// minimiser of the vertex's share of G, in exact arithmetic: its force comes from float F, and on a
// tet stretched tens of times its size the cancellations in J - gamma can make it rise. Springs,
// dashpots and hinges make the block a model. With line_search (the redo) every step is searched on
// the vertex's share (vbd_vertex_energy, in double), taken if it does not raise it, else halved up
// to kVbdHalvings times, else not taken. A vertex that starts a step on the wrong side of a plane is
// first put on it: that projection is outside the guarantee, as are the contacts, grabs and
// colliders applied after the sweeps.
constexpr int kVbdHalvings = 8;
struct VbdStepStats {
  uint64_t steps = 0;        // block steps tried (searched or exact)
  uint64_t halved = 0;       // taken at a fraction of the Newton step
  uint64_t rejected = 0;     // not taken: no fraction lowered the vertex's energy
  double largest_rise = 0;   // J, the largest rise of a vertex's energy over a searched step (0 by construction)
  uint64_t substeps = 0;     // substeps solved (SoftBody::vbd_solve)
  uint64_t fallbacks = 0;    // of them, redone from the safe start because the sweeps from y ended above G(x_n)
  double largest_substep_rise = 0;  // J, the largest rise G(x_end) - G(x_n) of a substep's result (0: none, by construction)
};

// Vertex i's share of G at x: its inertia term and every tet, edge (spring, dashpot) and hinge it is
// in, J. The dashpot's share is its dissipation potential c/(2h) (n . relative displacement)^2.
double vbd_vertex_energy(const VbdModel& m, const VertexAdjacency& adjacency, const float* x, uint32_t i);
// G(x) itself, J (needs m.edge_count when edges carry springs or dashpots).
double vbd_incremental_potential(const VbdModel& m, const float* x);

// One Gauss-Seidel sweep over the vertices in index order, or in reverse (backward): a forward
// sweep followed by a backward one is symmetric Gauss-Seidel (SoftBody::vbd_solve). Returns the relative force imbalance met:
// sum over vertices of |net force| / sum of the magnitudes of the forces acting (inertia included),
// taken when each vertex is reached (supported ones left out), with each vertex's weight m max(|g|,
// 1 m/s^2) added to what acts, so a body falling freely and undeformed reads 0, not rounding over
// rounding; 0 = solved.
// balance (may be null): the stiffness-reached sums of convergence.h, from the same forces.
struct ForceBalance;
float vbd_sweep(const VbdModel& m, const VertexAdjacency& adjacency, float* x, bool backward = false,
                ForceBalance* balance = nullptr);

// Takes out of the sweeps' result x the net force and torque their elastic and damping terms left.
// Converged, m_i (x_i - y_i) / h^2 = f_i(x) are internal forces, which sum to zero and have no net
// torque; a few Gauss-Seidel sweeps stop short of that, each vertex moving alone, and with a fixed
// sweep order the error has a fixed sign: a block at rest on a frictionless ground was pushed
// sideways by it until it slid at metres per second. So the mass-weighted mean of x - y is removed
// (exact: linear momentum is then kept to rounding) and the small rotation I^-1 sum m r x (x - y)
// about the centre of mass (to first order: angular momentum). Only when every vertex is free: a
// pinned or held vertex is an external force. While the ground or the plate holds a vertex inside the
// sweep (support != 0), their vertical push is external too: then only the horizontal mean and the
// rotation about y are removed; while the ground's friction acts in the sweep (friction_load), an
// external horizontal force too, nothing is. Colliders and other bodies act after the sweeps. Returns the
// correction's largest displacement, m.
float vbd_remove_net_impulse(const VbdModel& m, float* x);

// The planes' force on each vertex they held in the last sweep, re-evaluated at the sweeps' result x
// (all neighbours moved): during a sweep a vertex sees neighbours not yet moved, and on a stiff body
// the force it then needs from the plane is several times its share (measured: one sweep on a 1 MPa
// box slid 22 % short of Coulomb's stopping distance). A plane that would have to pull gives 0.
void vbd_plane_support(const VbdModel& m, const VertexAdjacency& adjacency, const float* x);

// The in-sweep contacts: returns the vertices the planes held (support != 0) and raises *deepest (m)
// to the ground's largest push, support h^2 / m (the displacement its force is worth in a substep).
// Their friction is inside the sweep (friction_load).
uint32_t vbd_plane_contacts(const VbdModel& m, float* deepest);

// Takes `excess` J of kinetic energy out of the motion relative to the centre of mass (velocities
// v, m/s; held vertices, inv_mass 0, untouched), by scaling it: linear momentum is kept. What is
// left of the excess then comes out of the centre of mass's motion (bodies no pin holds), all of it at most. The bound a step of VBD keeps (SoftBody::vbd_limit_energy): unconverged sweeps under-
// correct the velocity, so a stiff body compressed on landing stores more elastic energy than it
// brought (a rubber teapot-like mesh at 1 sweep: 10 kJ from 1.1 kJ), and an inexact step gives no
// bound of its own. Returns the energy taken, J.
// held: a vertex is pinned (the common motion is then kept).
double vbd_remove_kinetic_energy(const float* mass, const float* inv_mass, uint32_t vertex_count, double excess, float* v,
                                 bool held);

}  // namespace sb
