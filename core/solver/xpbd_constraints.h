// The XPBD constraint projections, one loop per constraint kind, over flat buffers (the edge and
// volume passes over positions padded to xyzw, below). Each runs one Gauss-Seidel pass: corrections are applied at once, so later constraints see them.
// XPBD (Macklin, Mueller, Chentanez 2016): lambda (one per constraint, `lambda` below) starts at 0 each
// substep and each pass adds delta_lambda = (-C - alpha~ lambda) / (sum w|grad C|^2 + alpha~),
// alpha~ = compliance / h^2. One pass per substep is the "small steps" default (Macklin et al. 2019);
// more passes converge each substep's implicit step further (BodyParams::iterations). `lambda` may be
// null: then it is taken as 0 and not stored (a single pass whose multipliers nobody reads).
#pragma once
#include <cmath>
#include <cstdint>

namespace sb {


// The passes run on positions padded to xyzw with the inverse mass in w (4 floats per vertex, see
// pack_positions): a vertex is one 16-byte load and store, its mass in the same cache line. Within
// each colour (a run of constraints that share no vertex, xpbd_partition.h) they take four constraints at a time, one per SIMD lane: the vertices are
// loaded as xyzw rows and transposed to x, y, z, w columns. Each lane does the one-at-a-time loop's
// arithmetic in the same order, so the results do not depend on the batching, to the bit.

// Distance constraint per edge: C = |x_a - x_b| - l0, gradients +-(x_a - x_b)/|x_a - x_b|.
struct EdgePass {
  float* xw = nullptr;          // x, y, z (m), 1/m (1/kg) per vertex
  const float* prev = nullptr;  // xyz at the substep's start (m); read only when gamma != 0 or scale != 1
  float origin[3] = {0, 0, 0};  // m: xw holds x - origin (pack_positions), prev is in world coordinates
  const uint32_t* ids = nullptr;
  const float* rest = nullptr;  // l0 per edge, m
  uint32_t count = 0;
  float alpha = 0.0f;  // alpha~ = edge compliance (m/N) / h^2
  // gamma = compliance * damping / h adds constraint damping (XPBD paper eq. 26), the force model's
  // -c dC/dt spring damping with c in N s/m, measured against prev; scale multiplies every
  // correction: PBD's stiffness in [0, 1] (with alpha 0). Both stay out of the plain loop (gamma 0,
  // scale 1), where they cost ~10 %.
  float gamma = 0.0f, scale = 1.0f;
  float* lambda = nullptr;  // may be null: multipliers taken as 0 and not stored
  // Per edge stiffness multiplier (vertex groups): its compliance is alpha / stiffness[e]. Null = 1.
  const float* stiffness = nullptr;
};
// Constraints [begin, end) of one colour (in_colour: four at a time, see above) or of an overflow
// set (one at a time, in order); the pass's order of colours and sets is xpbd_partition.h's.
void solve_edge_span(const EdgePass& p, uint32_t begin, uint32_t end, bool in_colour);

// Volume constraint per tet: C = 6(V - V0), V = ((x1-x0) x (x2-x0)) . (x3-x0) / 6,
// gradients: g1 = (x2-x0) x (x3-x0), g2 = (x3-x0) x (x1-x0), g3 = (x1-x0) x (x2-x0), g0 = -(g1+g2+g3).
struct VolumePass {
  float* xw = nullptr;
  const uint32_t* ids = nullptr;  // 4 per tet
  const float* rest6 = nullptr;   // 6 V0 per tet, m^3
  uint32_t count = 0;
  float alpha = 0.0f;  // alpha~ = volume compliance (m^5/N, since C is in m^3) / h^2
  float scale = 1.0f;  // PBD's stiffness
  float* lambda = nullptr;
  const float* stiffness = nullptr;  // per tet multiplier (vertex groups): compliance alpha / stiffness[t]
  // Per tet (may be null): set to 1 when the pass finds the tet inverted (6V <= 0 before its
  // projection), for the repair after the passes (inverted_tets.h). Only written, never cleared here.
  uint8_t* inverted = nullptr;
};
void solve_volume_span(const VolumePass& p, uint32_t begin, uint32_t end, bool in_colour);

// xw = (x - origin, 1/m) per vertex from pos (xyz, m) and inv_mass: the passes run relative to a
// point of the body (origin, m), so float spacing is that of the body's size, not of its distance
// from the world's origin. A pass's corrections are a small fraction of a coordinate (the weight's
// h^2 g is 1.7e-6 m at 40 substeps, 14-28 float steps of a coordinate of 1 m), and those below half
// a step were lost one by one: the stiff cantilever at y = 1 m settled 2 % too soft at 40 substeps
// and still crept (test_xpbd_statics.cpp). unpack adds what the passes moved, xw - (pos - origin),
// to pos: one rounding per substep, and nothing at all for a vertex they did not move.
void pack_positions(const float* pos, const float* inv_mass, uint32_t count, float* xw, const float origin[3]);
void unpack_positions(const float* xw, uint32_t count, float* pos, const float origin[3]);

// The largest |C + alpha~ lambda| of the edges (over l0) and tets (over 6 V0) after the last pass:
// how far the substep's equations are from solved, as a strain. 0 = converged.
float simple_residual(const float* pos, const uint32_t* edge_ids, const float* rest_length, uint32_t edge_count,
                      float edge_alpha_tilde, const float* edge_lambda, const uint32_t* tet_ids,
                      const float* rest_volume6, uint32_t tet_count, float volume_alpha_tilde,
                      const float* volume_lambda, const float* edge_stiffness = nullptr,
                      const float* tet_stiffness = nullptr);

// Ground plane y = 0, an inequality constraint y >= 0 with zero compliance, plus Coulomb friction at
// position level (Macklin et al. 2014, "Unified particle physics", sec. 6.1): the tangential motion of
// this substep is cancelled up to friction * penetration depth, so particles stick inside the friction
// cone and slide with friction force mu*N outside it.
// Returns the deepest penetration it corrected (m); *contacts (may be null) gets how many particles.
// floor_y (m) raises the plane for particles that keep a distance from it (cloth: half its thickness).
float solve_ground(float* pos, const float* prev, const float* inv_mass, uint32_t particle_count,
                   float friction, uint32_t* contacts = nullptr, float floor_y = 0.0f);

// That friction for one particle on the ground: its sliding over the substep (x - prev in x and z) is
// undone when within limit (m, friction x the normal push), else shortened by limit. Also VBD's (vbd.h).
inline void ground_friction(float* x, const float* prev, float limit) {
  const float dx = x[0] - prev[0], dz = x[2] - prev[2];
  const float slide_sq = dx * dx + dz * dz;
  if (slide_sq <= limit * limit) {  // static: inside the friction cone, undo the sliding
    x[0] = prev[0];
    x[2] = prev[2];
  } else {  // kinetic: remove limit of the sliding distance
    const float k = limit / std::sqrt(slide_sq);
    x[0] -= dx * k;
    x[2] -= dz * k;
  }
}

// A frictionless ceiling y <= plate_y (the press plate of SoftBody::press), zero compliance: particles
// above it are put back on it and keep their sideways motion, so the body spreads freely under it.
void solve_plate(float* pos, const float* inv_mass, uint32_t particle_count, float plate_y);

}  // namespace sb
