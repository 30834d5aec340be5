// Plasticity: where a tet is strained past its yield, its rest shape flows toward the shape it has
// now, keeping its rest volume, so clay stays squashed and a bar stays bent.
//
// A tet's rest shape is kept as its metric G = Dm^T Dm in its own edge basis (Dm = [X1-X0, X2-X0,
// X3-X0]): six numbers that hold its six edge lengths (|Xi-X0|^2 = G_ii, |Xi-Xj|^2 = G_ii + G_jj -
// 2 G_ij) and nothing of its orientation, so a body moved rigidly never flows. The deformed metric
// g = Ds^T Ds is in the same basis, and C = F^T F (F = Ds Dm^-1) has the eigenvalues of G^-1 g.
//
// Yield is decided on the isochoric part: g is scaled to det g = det G before the strain is measured,
// so squeezing a compressible tet does not flow. Flow (once per frame of dt seconds):
//   eps = sqrt(tr((G^-1 g - I)^2) / 6)          equivalent (von Mises) Green strain: a uniaxial
//                                                 stretch by a small e gives eps = e
//   if eps > yield:  G <- G + f (g - G),  f = min(1, creep dt) f*, where the blend at f* would leave
//                    exactly the yield strain (found by a few steps of regula falsi)
//   then G scaled back to its old determinant: the rest volume (sqrt(det G) / 6) never changes.
// creep (1/s) sets how fast the rest shape follows; creep dt >= 1 makes the flow take all of the
// excess at once (a perfectly plastic material). The total flow from the creation shape is capped at
// kMaxPlasticStrain (a tet that long has a badly conditioned stiffness; it then stays elastic).
#pragma once
#include <cstdint>
#include <vector>

namespace sb {

constexpr double kMaxPlasticStrain = 2.0;  // equivalent Green strain of the rest shape vs the creation shape

// The symmetric metric of tet `id` in `x` (xyz): G00 G11 G22 G01 G02 G12, m^2.
void tet_metric(const float* x, const uint32_t* id, double G[6]);

// sqrt(tr((G^-1 g - I)^2) / 6): the equivalent Green strain of shape g against rest shape G.
double equivalent_strain(const double G[6], const double g[6]);

// One frame's flow of rest metric G toward deformed metric g (see above). G0 is the creation shape's
// metric (for the cap). Returns true if G changed.
bool plastic_flow(const double G0[6], double G[6], const double g_deformed[6], double yield, double creep_dt);

// The squared length of the tet's local edge k (0..5: 01 02 03 12 13 23) under metric G, m^2.
double metric_edge_sq(const double G[6], int k);

// B = U^-1 (row-major, 1/m) where U^T U = G (Cholesky): an inverse rest shape that gives the same
// F^T F, so the same energy, forces and Hessian as the rest shape of metric G in any orientation.
// False if G is not positive definite.
bool metric_inverse_rest(const double G[6], float B[9]);

// The plastic state of a body: per tet its rest metric (and the creation shape's), and where each of
// its six edges sits in the body's edge list, so edge rest lengths follow the tets.
struct PlasticState {
  std::vector<double> metric, original_metric;  // 6 per tet, m^2
  std::vector<uint32_t> tet_edge;               // 6 per tet: index into the edge list (local order 01 02 03 12 13 23)
  std::vector<uint32_t> edge_tets;              // per edge: how many tets share it (0: a spring of no tet)
  std::vector<double> edge_sum;                 // scratch per edge, m
  // Per tet G^-1 (6, 1/m^2) and det G (m^6) in float: the per-frame yield test, which most tets pass
  // without the double-precision flow. In double it cost 45 % of a resting 10k-tet XPBD frame
  // natively; in float, behind a bound that needs no cube root, 6-15 % (noisy, 7 rounds).
  std::vector<float> check;
  bool empty() const { return metric.empty(); }
};

// Builds the state for tets (in `rest` positions) and the edge list `edges` (2 ids per edge, which
// holds every tet edge). Allocates: call when plasticity is switched on, not in the step.
PlasticState make_plastic_state(const float* rest, const uint32_t* tets, uint32_t tet_count,
                                const uint32_t* edges, uint32_t edge_count);

// Back to the creation shape's metrics.
void reset_plastic_state(PlasticState& s);

// A bound a flowed tet's new rest shape must keep: tr W · V0 (W = sum_i w_i b_i b_i^T,
// neo_hookean_xpbd.h; V0 in m^3) at most max_trace_volume, else the tet keeps its old rest shape this
// frame. XPBD's Neo-Hookean limit is on the body's largest tr W · V0, and a tet flattened by flow
// raises its own: unbounded, flow could carry the body past the limit, and every later step would be
// refused. max_trace_volume 0: no bound.
struct FlowBound {
  const float* inv_mass = nullptr;     // per vertex, 1/kg
  const float* rest_volume = nullptr;  // per tet, m^3
  double max_trace_volume = 0.0;       // m/kg
};

// One frame: flows every tet of `tets` at positions x, then rewrites the rest data the solvers read:
// edge_rest (m; each tet edge the mean over its tets) and B (9 per tet). Returns the number of tets
// that flowed. No allocation.
uint32_t apply_plastic_flow(PlasticState& s, const float* x, const uint32_t* tets, uint32_t tet_count,
                            double yield, double creep_dt, float* edge_rest, float* B, const FlowBound& bound = {});

}  // namespace sb
