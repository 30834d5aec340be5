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
#include <cstdint>
#include <vector>

#include "materials/neo_hookean.h"

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
  const float* edge_rest = nullptr;         // m
  float edge_stiffness = 0.0f;              // k, N/m (simple model)
  const float* edge_scale = nullptr;        // vertex groups: per edge multiplier of k (null = 1)
  const float* tet_scale = nullptr;         // vertex groups: per tet multiplier of kV (null = 1)
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
};

// One Gauss-Seidel sweep over the vertices in index order. Returns the relative force imbalance met:
// sum over vertices of |net force| / sum of the magnitudes of the forces acting (inertia included),
// taken when each vertex is reached (supported ones left out), with each vertex's weight m max(|g|,
// 1 m/s^2) added to what acts, so a body falling freely and undeformed reads 0, not rounding over
// rounding; 0 = solved.
float vbd_sweep(const VbdModel& m, const VertexAdjacency& adjacency, float* x);

}  // namespace sb
