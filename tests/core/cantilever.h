// The cantilever for the material and solver suites: 1 m x 0.1 m x 0.1 m along x, clamped at
// x = 0 (its vertices pinned), no ground, settled for some frames of 1/60 s (10 substeps unless asked).
#pragma once
#include <doctest.h>

#include <algorithm>
#include <cstdint>
#include <memory>

#include "shapes/shapes.h"
#include "solver/soft_body.h"

namespace testing_cantilever {

// The beam's Neo-Hookean material: E as given, nu = 0.3, damping 10/s (about the first mode's angular
// frequency: the dynamic solvers settle in ~1 s).
inline sb::BodyParams neo_hookean_params(float youngs_modulus_pa) {
  sb::BodyParams p;
  p.material = sb::Material::NeoHookean;
  p.youngs_modulus = youngs_modulus_pa;
  p.poisson_ratio = 0.3f;
  p.damping = 10.0f;
  return p;
}

// The beam at rest, clamped: `cells` along the length and cells / 10 (at least 1) across.
inline std::unique_ptr<sb::SoftBody> clamped(const sb::BodyParams& params, int cells) {
  const int across = std::max(1, cells / 10);
  auto body = std::make_unique<sb::SoftBody>(sb::make_box(cells, across, across, 1.0f, 0.1f, 0.1f, 0.5f, 1.0f, 0.0f), params);
  for (uint32_t i = 0; i < body->vertex_count(); ++i)
    if (body->rest_positions()[3 * i] < 1e-5f) body->set_pinned(i, true);
  return body;
}

inline std::unique_ptr<sb::SoftBody> settled(const sb::BodyParams& params, int cells, sb::Solver solver, int frames,
                                             int substeps = 10) {
  auto body = clamped(params, cells);
  REQUIRE(body->set_solver(solver));
  sb::StepSettings s;
  s.ground = false;
  s.substeps = substeps;
  for (int f = 0; f < frames; ++f) REQUIRE(body->step(1.0f / 60, s));
  return body;
}

// The largest sag of any vertex, m.
inline double lowest_sag(const sb::SoftBody& b) {
  double sag = 0;
  for (uint32_t i = 0; i < b.vertex_count(); ++i)
    sag = std::max(sag, double(b.rest_positions()[3 * i + 1] - b.positions()[3 * i + 1]));
  return sag;
}

// The mean sag of the free end's vertices (x = 1 m), m.
inline double tip_sag(const sb::SoftBody& b) {
  double sum = 0;
  int count = 0;
  for (uint32_t i = 0; i < b.vertex_count(); ++i)
    if (b.rest_positions()[3 * i] > 1 - 1e-5f) {
      sum += b.rest_positions()[3 * i + 1] - b.positions()[3 * i + 1];
      ++count;
    }
  return sum / count;
}

// Euler-Bernoulli's tip deflection of this beam (1 m, 0.1 m square section) under its own weight in
// gravity g: w L^4 / (8 E I) with w = rho g b h and I = b h^3 / 12, so 1.5 rho g L^4 / (E h^2), m.
inline double beam_theory_sag(double density, double gravity, double youngs_modulus) {
  return 1.5 * density * gravity / (youngs_modulus * 0.1 * 0.1);
}

}  // namespace testing_cantilever
