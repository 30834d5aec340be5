// Node-smoothed strain (solver/strain_smoothing.h, SB_PARAM_STRAIN_SMOOTHING): linear tets' bending
// locking on coarse cantilevers against Timoshenko beam theory, the patch test, rigid motions, the
// C API's validation and determinism.
#include <doctest.h>

#include <cmath>
#include <memory>
#include <vector>

#include "shapes/shapes.h"
#include "solver/soft_body.h"
#include "solver/static_solver.h"

using namespace sb;

namespace {

constexpr double kNu = 0.3, kE = 1e6, kDensity = 1000.0;  // -, Pa, kg/m^3

// A cantilever of length `slender` x h along x with a square h x h section (h = 0.1 m), `across`
// cells through the thickness and cubic-ish cells, clamped at x = 0 (its vertices pinned).
std::unique_ptr<SoftBody> beam(int slender, int across, float smoothing) {
  BodyParams p;
  p.material = Material::NeoHookean;
  p.youngs_modulus = float(kE);
  p.poisson_ratio = float(kNu);
  p.density = float(kDensity);
  p.strain_smoothing = smoothing;
  const float h = 0.1f;
  auto b = std::make_unique<SoftBody>(make_box(slender * across, across, across, slender * h, h, h, 0.5f * slender * h, 1.0f, 0.0f), p);
  for (uint32_t i = 0; i < b->vertex_count(); ++i)
    if (b->rest_positions()[3 * i] < 1e-5f) b->set_pinned(i, true);
  return b;
}

// Timoshenko's tip deflection of that beam under its own weight in gravity g, m: bending
// w L^4 / (8 E I) plus shear w L^2 / (2 kappa G A), w = rho g A, kappa = 10 (1 + nu) / (12 + 11 nu)
// (Cowper's for a rectangle).
double timoshenko_sag(int slender, double g) {
  const double h = 0.1, L = slender * h, A = h * h, I = h * h * h * h / 12, w = kDensity * g * A;
  const double G = kE / (2 * (1 + kNu)), kappa = 10 * (1 + kNu) / (12 + 11 * kNu);
  return w * L * L * L * L / (8 * kE * I) + w * L * L / (2 * kappa * G * A);
}

// The static tip sag as a fraction of Timoshenko's, under the gravity that makes that 1 % of L
// (small deflection: the geometric nonlinearity stays ~1e-4).
double tip_ratio(int slender, int across, float smoothing) {
  auto b = beam(slender, across, smoothing);
  const double g = 0.01 * slender * 0.1 / timoshenko_sag(slender, 1.0);
  const float gravity[3] = {0.0f, float(-g), 0.0f};
  const StaticReport r = b->settle_static(gravity);
  REQUIRE(r.status == StaticStatus::Converged);
  double sum = 0;
  int count = 0;
  const float L = slender * 0.1f;
  for (uint32_t i = 0; i < b->vertex_count(); ++i)
    if (b->rest_positions()[3 * i] > L - 1e-5f) {
      sum += b->rest_positions()[3 * i + 1] - b->positions()[3 * i + 1];
      ++count;
    }
  return sum / count / timoshenko_sag(slender, g);
}

}  // namespace

TEST_CASE("Study: strain smoothing's cantilever tips against Timoshenko" * doctest::skip()) {
  for (int slender : {5, 10, 20})
    for (int across : {2, 3, 4})
      for (float a : {0.0f, 0.3f, 0.5f, 0.6f, 0.7f, 0.8f, 1.0f})
        MESSAGE("L/h " << slender << ", " << across << " cells across, a " << a << ": " << tip_ratio(slender, across, a));
}
