// Plasticity (materials/plasticity.h): yield, flow toward the deformed shape, rest volume kept.
#include <doctest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "materials/plasticity.h"
#include "shapes/shapes.h"
#include "softbody.h"
#include "solver/soft_body.h"

using namespace sb;

namespace {

double det6(const double G[6]) {
  return G[0] * (G[1] * G[2] - G[5] * G[5]) - G[3] * (G[3] * G[2] - G[5] * G[4]) + G[4] * (G[3] * G[5] - G[1] * G[4]);
}

// A right-corner tet stretched by (sx, sy, sz) along the axes, after a rotation `turn` (rad) about z.
std::vector<float> corner_tet(double sx, double sy, double sz, double turn) {
  const double p[4][3] = {{0, 0, 0}, {0.1 * sx, 0, 0}, {0, 0.1 * sy, 0}, {0, 0, 0.1 * sz}};
  std::vector<float> x;
  for (const auto& q : p) {
    x.push_back(float(std::cos(turn) * q[0] - std::sin(turn) * q[1] + 2.0));
    x.push_back(float(std::sin(turn) * q[0] + std::cos(turn) * q[1] - 1.0));
    x.push_back(float(q[2] + 0.5));
  }
  return x;
}

// A soft plastic Neo-Hookean material (E = 200 kPa, nu = 0.45, damping 2/s, yield 5 %, creep 60/s):
// the box the Neo-Hookean plasticity tests press.
BodyParams plastic_neo_hookean() {
  BodyParams p;
  p.material = Material::NeoHookean;
  p.youngs_modulus = 2e5f;
  p.poisson_ratio = 0.45f;
  p.damping = 2.0f;
  p.plastic_yield = 0.05f;
  p.plastic_creep = 60.0f;
  return p;
}

// Height of a body: highest minus lowest vertex, m.
double height(const SoftBody& b) {
  float lo = INFINITY, hi = -INFINITY;
  for (uint32_t i = 0; i < b.vertex_count(); ++i) {
    lo = std::min(lo, b.positions()[3 * i + 1]);
    hi = std::max(hi, b.positions()[3 * i + 1]);
  }
  return double(hi - lo);
}

// A 0.4 m clay cube (4^3 cells) on the ground, pressed to `factor` of its height and released over
// 0.5 s, then left for 2.5 s: its height afterwards, m.
double height_after_press(BodyParams p, Solver solver, float factor) {
  SoftBody body(make_box(4, 4, 4, 0.4f, 0.4f, 0.4f, 0, 0.2f, 0), p);
  REQUIRE(body.set_solver(solver));
  StepSettings s;
  for (int f = 0; f < 30; ++f) REQUIRE(body.step(1.0f / 60, s));  // settle on the ground first
  REQUIRE(body.press(factor, 0.5f));
  for (int f = 0; f < 180; ++f) REQUIRE(body.step(1.0f / 60, s));
  return height(body);
}

}  // namespace

TEST_CASE("Plasticity: rigid motion never yields; the strain measure is the uniaxial strain") {
  const uint32_t id[4] = {0, 1, 2, 3};
  double G[6], g[6];
  tet_metric(corner_tet(1, 1, 1, 0).data(), id, G);
  // Rotated by 70 degrees and moved: the metric holds only lengths and angles.
  tet_metric(corner_tet(1, 1, 1, 1.2).data(), id, g);
  CHECK(equivalent_strain(G, g) < 1e-6);
  double G0[6];
  std::copy(G, G + 6, G0);
  CHECK_FALSE(plastic_flow(G0, G, g, 1e-5, 1.0));  // not even at a yield of 1e-5 (float rounding: ~1e-7)
  // An isochoric uniaxial stretch by e: C = diag((1+e)^2, 1/(1+e), 1/(1+e)); the equivalent Green
  // strain is e (1 + O(e)): within 0.2 % at e = 1e-3 (float positions: 1e-7 of 0.1 m).
  const double e = 1e-3;
  tet_metric(corner_tet(1 + e, 1 / std::sqrt(1 + e), 1 / std::sqrt(1 + e), 0.3).data(), id, g);
  // .scale(0): doctest's epsilon is then a fraction of the larger side alone; by default it adds an
  // absolute epsilon too, which swamps quantities well below 1 (m, m^3).
  CHECK(equivalent_strain(G, g) == doctest::Approx(e).epsilon(0.002).scale(0));
}

TEST_CASE("Plasticity: the flow leaves exactly the yield strain, keeps the rest volume, and creep sets the pace") {
  const uint32_t id[4] = {0, 1, 2, 3};
  double G0[6], g[6];
  tet_metric(corner_tet(1, 1, 1, 0).data(), id, G0);
  // Stretched 30 % along x and squeezed 20 % in volume: the volume part must not flow.
  tet_metric(corner_tet(1.3, 0.8 / std::sqrt(1.3), 1.0 / std::sqrt(1.3), 0.4).data(), id, g);
  const double yield = 0.05;
  double G[6];
  std::copy(G0, G0 + 6, G);
  REQUIRE(plastic_flow(G0, G, g, yield, 1.0));
  // The deformed shape's isochoric part against the new rest shape strains by the yield (the regula
  // falsi stops within 1e-4 of it), and det G (the rest volume squared) is unchanged to rounding.
  double iso[6];
  const double scale = std::cbrt(det6(G0) / det6(g));
  for (int k = 0; k < 6; ++k) iso[k] = g[k] * scale;
  CHECK(std::fabs(equivalent_strain(G, iso) - yield) < 1e-4);
  CHECK(det6(G) == doctest::Approx(det6(G0)).epsilon(1e-9));
  // Slower creep moves part of the way: strain left between the yield and the original strain.
  double H[6];
  std::copy(G0, G0 + 6, H);
  REQUIRE(plastic_flow(G0, H, g, yield, 0.25));
  const double left = equivalent_strain(H, iso), before = equivalent_strain(G0, iso);
  CHECK(left > 2 * yield);
  CHECK(left < before);
  CHECK(det6(H) == doctest::Approx(det6(G0)).epsilon(1e-9));
  // Below the yield nothing moves.
  std::copy(G0, G0 + 6, H);
  CHECK_FALSE(plastic_flow(G0, H, g, before * 1.01, 1.0));
  for (int k = 0; k < 6; ++k) CHECK(H[k] == G0[k]);
}

TEST_CASE("Plasticity: the Cholesky rest shape gives the same deformation as the real one") {
  // F^T F = B^T g B must equal Dm^-T g Dm^-1 for B from the metric (any rotation of the rest shape).
  const uint32_t id[4] = {0, 1, 2, 3};
  const std::vector<float> rest = corner_tet(1.0, 0.7, 1.4, 0.9), now = corner_tet(1.2, 0.6, 1.1, -0.3);
  double G[6];
  tet_metric(rest.data(), id, G);
  float B_metric[9], B_real[9];
  REQUIRE(metric_inverse_rest(G, B_metric));
  REQUIRE(rest_shape_inverse(rest.data(), id, B_real));
  auto cauchy_green = [&](const float* B, double C[3][3]) {
    const Deformation F = deformation(now.data(), id, B);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) C[i][j] = dot(F.f[i], F.f[j]);
  };
  double Cm[3][3], Cr[3][3];
  cauchy_green(B_metric, Cm);
  cauchy_green(B_real, Cr);
  // Similar matrices (C' = Q C Q^T): equal traces, traces of squares and determinants (float: 1e-5).
  double tr_m = 0, tr_r = 0, tr2_m = 0, tr2_r = 0;
  for (int i = 0; i < 3; ++i) {
    tr_m += Cm[i][i], tr_r += Cr[i][i];
    for (int j = 0; j < 3; ++j) tr2_m += Cm[i][j] * Cm[j][i], tr2_r += Cr[i][j] * Cr[j][i];
  }
  CHECK(tr_m == doctest::Approx(tr_r).epsilon(1e-5));
  CHECK(tr2_m == doctest::Approx(tr2_r).epsilon(1e-5));
  const Deformation Fm = deformation(now.data(), id, B_metric), Fr = deformation(now.data(), id, B_real);
  CHECK(dot(Fm.f[0], cross(Fm.f[1], Fm.f[2])) == doctest::Approx(dot(Fr.f[0], cross(Fr.f[1], Fr.f[2]))).epsilon(1e-5));
}

TEST_CASE("Plasticity: clay stays squashed, more for a harder press; below the yield it recovers") {
  // XPBD's simple model (the demo's default) with stiff edges: the cube's strain under a press by
  // factor s is about 1 - s. Yield 0.05, creep 60/s (creep dt = 1: perfectly plastic).
  BodyParams clay;
  clay.edge_compliance = 1e-6f;
  clay.damping = 2.0f;
  clay.plastic_yield = 0.05f;
  clay.plastic_creep = 60.0f;
  BodyParams elastic = clay;
  elastic.plastic_creep = 0.0f;
  const double h0 = 0.4;
  const double elastic_h = height_after_press(elastic, Solver::Xpbd, 0.6f);
  CHECK(elastic_h == doctest::Approx(h0).epsilon(0.01).scale(0));  // springs back within 1 % (its own sag)
  // Below the yield (a 3 % press): back to the elastic body's height within 0.2 % (4 mm x 0.2).
  CHECK(height_after_press(clay, Solver::Xpbd, 0.97f) == doctest::Approx(height_after_press(elastic, Solver::Xpbd, 0.97f)).epsilon(0.002).scale(0));
  // Above it the permanent set grows with the overload.
  double last_set = 0.0;
  for (float factor : {0.85f, 0.7f, 0.55f}) {
    CAPTURE(factor);
    const double set = (h0 - height_after_press(clay, Solver::Xpbd, factor)) / h0;  // fraction of the height lost
    MESSAGE("press " << factor << ": permanent set " << set);
    CHECK(set > last_set + 0.05);
    // It keeps much of the press beyond the yield, (1 - factor - yield): measured 55, 74 and 85 %. Not
    // all: within the first frame the held body's columns share the squash unevenly (corners and
    // edges shorten less), and the least strained tets stay under the yield. 40 % is the bound.
    CHECK(set > 0.4 * (1.0 - factor - 0.05));
    CHECK(set < 1.0 - factor + 0.01);  // and never more than the press
    last_set = set;
  }
}

TEST_CASE("Plasticity: rest volume kept; a Neo-Hookean body under VBD keeps its volume within 1 % through a set") {
  // Neo-Hookean at nu = 0.45 is compressible: if the flow changed rest volumes the body would follow.
  BodyParams p = plastic_neo_hookean();
  p.iterations = 8;
  SoftBody body(make_box(4, 4, 4, 0.4f, 0.4f, 0.4f, 0, 0.2f, 0), p);
  REQUIRE(body.set_solver(Solver::Vbd));
  StepSettings s;
  REQUIRE(body.press(0.6f, 0.5f));
  uint32_t flowed = 0;
  for (int f = 0; f < 180; ++f) {
    REQUIRE(body.step(1.0f / 60, s));
    flowed = std::max(flowed, body.plastic_tets_last_frame());
  }
  CHECK(flowed > body.tet_count() / 2);
  const double set = (0.4 - height(body)) / 0.4;
  MESSAGE("Neo-Hookean clay pressed to 0.6: permanent set " << set << ", volume ratio " << body.stats().volume_ratio);
  CHECK(set > 0.15);
  // Its own weight at E = 200 kPa compresses it ~1e-3 (rho g h / E with nu = 0.45); 1 % covers that
  // and the flow's rounding.
  CHECK(body.stats().volume_ratio == doctest::Approx(1.0).epsilon(0.01));
}

TEST_CASE("Plasticity: a soft-metal bar bent by hand stays bent; reset gives back the straight bar") {
  // A 1 m bar clamped at x = 0, no gravity: its tip is pulled 0.2 m down for 1 s and let go. Elastic,
  // it springs back straight; plastic (yield 1 %), it keeps most of the bend.
  auto tip_after_bend = [](float creep, SoftBody** keep) {
    BodyParams p;
    p.edge_compliance = 1e-6f;
    p.damping = 3.0f;
    p.plastic_yield = 0.01f;
    p.plastic_creep = creep;
    auto* body = new SoftBody(make_box(20, 2, 2, 1.0f, 0.1f, 0.1f, 0.5f, 1.0f, 0.0f), p);
    for (uint32_t i = 0; i < body->vertex_count(); ++i)
      if (body->rest_positions()[3 * i] < 1e-5f) body->set_pinned(i, true);
    StepSettings s;
    s.ground = false;
    s.gravity[1] = 0.0f;
    float tip[3] = {1.0f, 1.05f, 0.05f};
    const uint32_t v = body->nearest_vertex(tip);
    float target[3] = {tip[0], tip[1], tip[2]};
    body->grab_begin(v, target);
    for (int f = 0; f < 60; ++f) {
      target[1] = 1.05f - 0.2f * std::min(1.0f, f / 30.0f);
      body->grab_move(target);
      REQUIRE(body->step(1.0f / 60, s));
    }
    const float still[3] = {0, 0, 0};
    body->grab_end(still);
    for (int f = 0; f < 180; ++f) REQUIRE(body->step(1.0f / 60, s));
    const double drop = 1.05 - body->positions()[3 * v + 1];
    if (keep) *keep = body;
    else delete body;
    return drop;
  };
  const double elastic = tip_after_bend(0.0f, nullptr);
  SoftBody* bar = nullptr;
  const double plastic = tip_after_bend(100.0f, &bar);
  std::unique_ptr<SoftBody> own(bar);
  MESSAGE("tip 3 s after a 0.2 m bend: elastic " << elastic << " m, plastic " << plastic << " m");
  CHECK(std::fabs(elastic) < 0.005);  // straight again within 5 mm
  CHECK(plastic > 0.1);               // keeps over half of the bend
  // Reset restores the creation shape's rest lengths exactly and the bar stays straight.
  bar->reset();
  std::vector<float> fresh_rest;
  {
    BodyParams p;
    SoftBody fresh(make_box(20, 2, 2, 1.0f, 0.1f, 0.1f, 0.5f, 1.0f, 0.0f), p);
    fresh_rest.assign(fresh.edge_rest_lengths(), fresh.edge_rest_lengths() + fresh.edge_count());
  }
  REQUIRE(fresh_rest.size() == bar->edge_count());
  for (uint32_t e = 0; e < bar->edge_count(); ++e) REQUIRE(bar->edge_rest_lengths()[e] == fresh_rest[e]);
  StepSettings s;
  s.ground = false;
  s.gravity[1] = 0.0f;
  for (int f = 0; f < 60; ++f) REQUIRE(bar->step(1.0f / 60, s));
  double moved = 0;
  for (uint32_t i = 0; i < bar->vertex_count(); ++i)
    for (int k = 0; k < 3; ++k) moved = std::max(moved, double(std::fabs(bar->positions()[3 * i + k] - bar->rest_positions()[3 * i + k])));
  CHECK(moved < 1e-4);
}

TEST_CASE("Plasticity through the C API: ranges checked, tets required, nothing changed on refusal") {
  sb_world w = sb_world_create();
  sb_body box = sb_body_create_box(w, 2, 2, 2, 0.5f, 0.5f, 0.5f, 0, 0.5f, 0);
  sb_body rope = sb_body_create_rope(w, 8, 1.0f, 0, 1, 0);
  REQUIRE(box > 0);
  REQUIRE(rope > 0);
  CHECK(sb_body_get_param(w, box, SB_PARAM_PLASTIC_YIELD) == doctest::Approx(0.1));
  CHECK(sb_body_get_param(w, box, SB_PARAM_PLASTIC_CREEP) == 0.0f);
  CHECK(sb_body_set_param(w, box, SB_PARAM_PLASTIC_YIELD, 0.02f) == SB_OK);
  CHECK(sb_body_set_param(w, box, SB_PARAM_PLASTIC_CREEP, 5.0f) == SB_OK);
  const struct {
    int32_t param;
    float value;
    int32_t code;
  } bad[] = {{SB_PARAM_PLASTIC_YIELD, -0.01f, SB_ERR_OUT_OF_RANGE}, {SB_PARAM_PLASTIC_YIELD, NAN, SB_ERR_NOT_FINITE},
             {SB_PARAM_PLASTIC_YIELD, 11.0f, SB_ERR_OUT_OF_RANGE},  {SB_PARAM_PLASTIC_CREEP, -1.0f, SB_ERR_OUT_OF_RANGE},
             {SB_PARAM_PLASTIC_CREEP, INFINITY, SB_ERR_NOT_FINITE}, {SB_PARAM_PLASTIC_CREEP, 2000.0f, SB_ERR_OUT_OF_RANGE}};
  for (const auto& b : bad) {
    CAPTURE(b.param);
    CAPTURE(b.value);
    CHECK(sb_body_set_param(w, box, b.param, b.value) == b.code);
    CHECK(std::string(sb_last_error()).size() > 10);
  }
  CHECK(sb_body_get_param(w, box, SB_PARAM_PLASTIC_YIELD) == 0.02f);
  CHECK(sb_body_get_param(w, box, SB_PARAM_PLASTIC_CREEP) == 5.0f);
  // A rope has no tets to flow.
  CHECK(sb_body_set_param(w, rope, SB_PARAM_PLASTIC_CREEP, 5.0f) == SB_ERR_OUT_OF_RANGE);
  CHECK(std::string(sb_last_error()).find("tets") != std::string::npos);
  CHECK(sb_body_get_param(w, rope, SB_PARAM_PLASTIC_CREEP) == 0.0f);
  CHECK(sb_body_set_param(w, rope, SB_PARAM_PLASTIC_CREEP, 0.0f) == SB_OK);
  CHECK(sb_world_step(w, 1.0f / 60) == SB_OK);
  sb_world_destroy(w);
}

TEST_CASE("Plasticity: a Neo-Hookean body's flow under XPBD stays within XPBD's stiffness limit") {
  // Flow that flattens tets raises their stiffness number S = (lambda + mu) h^2 V0 tr W; past
  // kXpbdNeoHookeanMaxStiffness the world refuses every XPBD step, so the flow of a tet that would pass
  // it waits (FlowBound). The body is made stiff enough to start at 90 % of the limit and pressed to
  // 0.6 of its height: under VBD (no bound: VBD has no such limit) the same press carries its S past
  // the limit, under XPBD it stays within it while the body still takes a set.
  const float h = 1.0f / 600;  // 10 substeps of 1/60 s
  BodyParams p = plastic_neo_hookean();
  {
    SoftBody probe(make_box(4, 4, 4, 0.4f, 0.4f, 0.4f, 0, 0.2f, 0), p);
    p.youngs_modulus *= float(0.9 * kXpbdNeoHookeanMaxStiffness / probe.xpbd_stiffness_number(h));
  }
  auto pressed = [&](Solver solver, double* worst_S, uint32_t* most_flowed) {
    auto body = std::make_unique<SoftBody>(make_box(4, 4, 4, 0.4f, 0.4f, 0.4f, 0, 0.2f, 0), p);
    REQUIRE(body->set_solver(solver));
    CHECK(body->xpbd_stiffness_number(h) == doctest::Approx(0.9 * kXpbdNeoHookeanMaxStiffness).epsilon(1e-4));
    StepSettings s;
    REQUIRE(body->press(0.6f, 0.5f));
    *worst_S = 0.0;
    *most_flowed = 0;
    for (int f = 0; f < 120; ++f) {
      REQUIRE(body->step(1.0f / 60, s));
      *worst_S = std::max(*worst_S, body->xpbd_stiffness_number(h));
      *most_flowed = std::max(*most_flowed, body->plastic_tets_last_frame());
    }
    return body;
  };
  double S_vbd = 0.0, S_xpbd = 0.0;
  uint32_t flowed_vbd = 0, flowed_xpbd = 0;
  pressed(Solver::Vbd, &S_vbd, &flowed_vbd);
  const auto xpbd = pressed(Solver::Xpbd, &S_xpbd, &flowed_xpbd);
  const double set = (0.4 - height(*xpbd)) / 0.4;
  MESSAGE("largest S: VBD " << S_vbd << ", XPBD " << S_xpbd << " (limit " << kXpbdNeoHookeanMaxStiffness
                            << "); tets flowed in a frame, most: " << flowed_vbd << " / " << flowed_xpbd << "; XPBD set " << set);
  CHECK(S_vbd > kXpbdNeoHookeanMaxStiffness);   // unbounded flow would pass the limit
  CHECK(S_xpbd <= kXpbdNeoHookeanMaxStiffness);  // bounded, it does not
  CHECK(flowed_xpbd > xpbd->tet_count() / 4);    // and the body still flows
  CHECK(set > 0.05);
}
