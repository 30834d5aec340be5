// Vertex groups (SoftBody::set_vertex_scales, sb_body_set_vertex_scales): per-vertex mass and
// stiffness multipliers that every solver and both materials honour.
#include <doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "cantilever.h"
#include "shapes/shapes.h"
#include "softbody.h"
#include "solver/soft_body.h"

using namespace sb;
using testing_cantilever::settled;
using testing_cantilever::tip_sag;

namespace {

std::vector<uint32_t> all_vertices(const SoftBody& b) {
  std::vector<uint32_t> v(b.vertex_count());
  for (uint32_t i = 0; i < b.vertex_count(); ++i) v[i] = i;
  return v;
}

// The cantilever settled with every vertex's stiffness scaled by `scale`.
double scaled_sag(BodyParams p, int cells, Solver solver, int frames, float scale) {
  const int across = std::max(1, cells / 10);
  SoftBody body(make_box(cells, across, across, 1.0f, 0.1f, 0.1f, 0.5f, 1.0f, 0.0f), p);
  REQUIRE(body.set_solver(solver));
  for (uint32_t i = 0; i < body.vertex_count(); ++i)
    if (body.rest_positions()[3 * i] < 1e-5f) body.set_pinned(i, true);
  const std::vector<uint32_t> v = all_vertices(body);
  body.set_vertex_scales(v.data(), uint32_t(v.size()), 1.0f, scale);
  StepSettings s;
  s.ground = false;
  for (int f = 0; f < frames; ++f) REQUIRE(body.step(1.0f / 60, s));
  return tip_sag(body);
}

}  // namespace

TEST_CASE("Vertex groups: a mass scale adds exactly its mass and moves the centre of mass toward it") {
  BodyParams p;
  SoftBody body(make_box(4, 4, 4, 1, 1, 1, 0, 1, 0), p);
  const double mass = body.stats().mass;  // 1000 kg
  std::vector<uint32_t> right;
  double right_mass = 0;
  for (uint32_t i = 0; i < body.vertex_count(); ++i)
    if (body.rest_positions()[3 * i] > 0.1f) right.push_back(i);
  for (uint32_t i : right) right_mass += 1.0 / body.inverse_masses()[i];
  body.set_vertex_scales(right.data(), uint32_t(right.size()), 3.0f, 1.0f);
  const BodyStats st = body.stats();
  CHECK(st.mass == doctest::Approx(mass + 2 * right_mass).epsilon(1e-5));
  CHECK(st.center[0] > 0.1);  // the heavy side pulls it over
  CHECK(body.vertex_mass_scale(right[0]) == 3.0f);
  // 1 and 1 undo it.
  body.set_vertex_scales(right.data(), uint32_t(right.size()), 1.0f, 1.0f);
  CHECK(body.stats().mass == doctest::Approx(mass).epsilon(1e-6));
}

TEST_CASE("Vertex groups: scaling every vertex's stiffness is the same body as a stiffer material, under each solver") {
  // Small deflections: sag is linear in 1/stiffness. Scaling all stiffness by 4 must equal the
  // material made 4x stiffer (compliance / 4, or E x 4); the two bodies' arithmetic differs only in
  // where the factor is applied, so they agree to float rounding (1e-3 of the sag is generous).
  BodyParams simple;
  simple.edge_compliance = 1e-5f;
  simple.volume_compliance = 1e-3f;
  simple.damping = 10.0f;
  BodyParams stiffer = simple;
  stiffer.edge_compliance /= 4;
  stiffer.volume_compliance /= 4;
  for (Solver solver : {Solver::Xpbd, Solver::ImplicitEuler, Solver::Vbd}) {
    CAPTURE(int(solver));
    const double scaled = scaled_sag(simple, 10, solver, 60, 4.0f);
    const double reference = testing_cantilever::tip_sag(*settled(stiffer, 10, solver, 60));
    CHECK(std::fabs(scaled / reference - 1) < 1e-3);  // relative: doctest::Approx adds a scale of 1 (m)
  }
  BodyParams nh;
  nh.material = Material::NeoHookean;
  nh.youngs_modulus = 1e6f;
  nh.poisson_ratio = 0.3f;
  nh.damping = 10.0f;
  BodyParams nh4 = nh;
  nh4.youngs_modulus *= 4;
  for (Solver solver : {Solver::ImplicitEuler, Solver::Vbd}) {
    CAPTURE(int(solver));
    const double scaled = scaled_sag(nh, 10, solver, 60, 4.0f);
    const double reference = testing_cantilever::tip_sag(*settled(nh4, 10, solver, 60));
    CHECK(std::fabs(scaled / reference - 1) < 1e-3);  // relative: doctest::Approx adds a scale of 1 (m)
  }
}

TEST_CASE("Vertex groups: a stiffened root makes a cantilever sag less, a softened one more") {
  // Implicit Euler (each step solved), simple model: the root half carries most of the bending, so
  // scaling its stiffness moves the tip most. Stiffer x10: less sag; softer x0.5: more; the free half
  // scaled instead moves it much less than the root half does.
  BodyParams p;
  p.edge_compliance = 1e-5f;
  p.volume_compliance = 1e-3f;
  p.damping = 10.0f;
  auto sag_with = [&](float scale, bool root) {
    SoftBody body(make_box(10, 1, 1, 1.0f, 0.1f, 0.1f, 0.5f, 1.0f, 0.0f), p);
    REQUIRE(body.set_solver(Solver::ImplicitEuler));
    std::vector<uint32_t> group;
    for (uint32_t i = 0; i < body.vertex_count(); ++i) {
      const float x = body.rest_positions()[3 * i];
      if (x < 1e-5f) body.set_pinned(i, true);
      if ((x < 0.5f) == root) group.push_back(i);
    }
    body.set_vertex_scales(group.data(), uint32_t(group.size()), 1.0f, scale);
    StepSettings s;
    s.ground = false;
    for (int f = 0; f < 90; ++f) REQUIRE(body.step(1.0f / 60, s));
    return tip_sag(body);
  };
  const double plain = sag_with(1.0f, true);
  const double stiff_root = sag_with(10.0f, true), soft_root = sag_with(0.5f, true), stiff_tip = sag_with(10.0f, false);
  MESSAGE("tip sag: plain " << plain * 1000 << " mm, root x10 " << stiff_root * 1000 << ", root x0.5 " << soft_root * 1000
                            << ", free half x10 " << stiff_tip * 1000);
  CHECK(stiff_root < 0.5 * plain);
  CHECK(soft_root > 1.3 * plain);
  CHECK(stiff_tip < plain);
  CHECK(plain - stiff_tip < 0.5 * (plain - stiff_root));
}

TEST_CASE("Vertex groups through the C API: checked first, nothing changed on refusal") {
  sb_world w = sb_world_create();
  sb_body b = sb_body_create_box(w, 2, 2, 2, 1, 1, 1, 0, 1, 0);
  REQUIRE(b > 0);
  const uint32_t ok[] = {0, 1, 2};
  CHECK(sb_body_set_vertex_scales(w, b, ok, 3, 2.0f, 5.0f) == SB_OK);
  float m = 0, k = 0;
  CHECK(sb_body_get_vertex_scales(w, b, 1, &m, &k) == SB_OK);
  CHECK(m == 2.0f);
  CHECK(k == 5.0f);
  CHECK(sb_body_get_vertex_scales(w, b, 3, &m, nullptr) == SB_OK);
  CHECK(m == 1.0f);
  const uint32_t bad_index[] = {0, 27};  // 3^3 = 27 vertices
  const struct {
    const uint32_t* v;
    int32_t count;
    float mass, stiffness;
    int32_t code;
  } bad[] = {{bad_index, 2, 3.0f, 3.0f, SB_ERR_INDEX_OUT_OF_RANGE}, {nullptr, 2, 3.0f, 3.0f, SB_ERR_NULL_POINTER},
             {ok, 0, 3.0f, 3.0f, SB_ERR_BAD_COUNT},                  {ok, -1, 3.0f, 3.0f, SB_ERR_BAD_COUNT},
             {ok, 3, NAN, 3.0f, SB_ERR_NOT_FINITE},                  {ok, 3, 3.0f, INFINITY, SB_ERR_NOT_FINITE},
             {ok, 3, 0.0f, 3.0f, SB_ERR_OUT_OF_RANGE},               {ok, 3, 3.0f, 2e3f, SB_ERR_OUT_OF_RANGE}};
  for (const auto& c : bad) {
    CAPTURE(c.code);
    CHECK(sb_body_set_vertex_scales(w, b, c.v, c.count, c.mass, c.stiffness) == c.code);
    CHECK(std::string(sb_last_error()).size() > 10);
  }
  // Vertex 0 kept its values through every refusal (the bad index came second in its list).
  CHECK(sb_body_get_vertex_scales(w, b, 0, &m, &k) == SB_OK);
  CHECK(m == 2.0f);
  CHECK(k == 5.0f);
  CHECK(sb_body_get_vertex_scales(w, b, 27, &m, &k) == SB_ERR_INDEX_OUT_OF_RANGE);
  CHECK(sb_body_get_vertex_scales(w, b + 1, 0, &m, &k) == SB_ERR_INVALID_BODY);
  // Reset keeps them, like pins.
  CHECK(sb_body_reset(w, b) == SB_OK);
  CHECK(sb_body_get_vertex_scales(w, b, 2, &m, &k) == SB_OK);
  CHECK(k == 5.0f);
  CHECK(sb_world_step(w, 1.0f / 60) == SB_OK);
  sb_world_destroy(w);
}
