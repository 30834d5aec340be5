// Double-precision small vectors and a tet's deformation gradient on x = X + u, shared by the static
// solver's energy (static_model.cpp) and the node-smoothed strain (strain_smoothing.cpp), so both
// evaluate F with the same rounding (edge vectors as (X_i - X_0) + (u_i - u_0): see static_model.h).
#pragma once
#include <cstddef>
#include <cstdint>

#include "materials/neo_hookean.h"
#include "solver/static_model.h"

namespace sb {
namespace static_math {

struct D3 {
  double x, y, z;
};
inline D3 operator+(D3 a, D3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
inline D3 operator-(D3 a, D3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
inline D3 operator*(D3 a, double s) { return {a.x * s, a.y * s, a.z * s}; }
inline double dot(D3 a, D3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
inline D3 cross(D3 a, D3 b) { return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }
inline D3 load(const double* a, uint32_t i) { return {a[3 * size_t(i)], a[3 * size_t(i) + 1], a[3 * size_t(i) + 2]}; }
inline void add(double* a, uint32_t i, D3 v) {
  a[3 * size_t(i)] += v.x;
  a[3 * size_t(i) + 1] += v.y;
  a[3 * size_t(i) + 2] += v.z;
}

// F = Ds B by columns (B row-major, as materials/neo_hookean.h stores it).
struct Mat3 {
  D3 c[3];
};
inline D3 edge(const StaticState& s, uint32_t a, uint32_t b) {
  if (!s.u) return load(s.X, a) - load(s.X, b);
  return (load(s.X, a) - load(s.X, b)) + (load(s.u, a) - load(s.u, b));
}
inline Mat3 deformation(const StaticState& s, const uint32_t* id, const float* B) {
  const D3 d[3] = {edge(s, id[1], id[0]), edge(s, id[2], id[0]), edge(s, id[3], id[0])};
  Mat3 F;
  for (int j = 0; j < 3; ++j) F.c[j] = d[0] * B[j] + d[1] * B[3 + j] + d[2] * B[6 + j];
  return F;
}
inline Mat3 cofactor(const Mat3& F) { return {{cross(F.c[1], F.c[2]), cross(F.c[2], F.c[0]), cross(F.c[0], F.c[1])}}; }

// Adds scale * (P b_i) to corner i = 1..3 and minus their sum to corner 0: the chain rule through
// F = Ds B for an F-gradient P (columns).
inline void scatter(const Mat3& P, const float* B, const uint32_t* id, double scale, double* out) {
  D3 sum = {0, 0, 0};
  for (int i = 0; i < 3; ++i) {
    const D3 g = (P.c[0] * B[3 * i] + P.c[1] * B[3 * i + 1] + P.c[2] * B[3 * i + 2]) * scale;
    add(out, id[i + 1], g);
    sum = sum + g;
  }
  add(out, id[0], sum * -1.0);
}

// Psi(F) of stable Neo-Hookean, J/m^3 (0 at F = I).
inline double neo_hookean_psi(const NeoHookean& nh, const Mat3& F) {
  const double rest = 0.5 * double(nh.lambda) * (1.0 - nh.gamma) * (1.0 - nh.gamma);
  const double ic = dot(F.c[0], F.c[0]) + dot(F.c[1], F.c[1]) + dot(F.c[2], F.c[2]);
  const double J = dot(F.c[0], cross(F.c[1], F.c[2]));
  return 0.5 * nh.mu * (ic - 3.0) + 0.5 * nh.lambda * (J - nh.gamma) * (J - nh.gamma) - rest;
}

// First Piola-Kirchhoff stress P = mu F + lambda (J - gamma) cof F, Pa.
inline Mat3 neo_hookean_stress(const NeoHookean& nh, const Mat3& F) {
  const Mat3 c = cofactor(F);
  const double s = nh.lambda * (dot(F.c[0], c.c[0]) - nh.gamma);
  return {{F.c[0] * nh.mu + c.c[0] * s, F.c[1] * nh.mu + c.c[1] * s, F.c[2] * nh.mu + c.c[2] * s}};
}

// dP in the direction dF: mu dF + lambda (cof F : dF) cof F + lambda (J - gamma) d cof F. With
// gauss_newton the last (indefinite) term is dropped, as implicit Euler's float kernels do.
inline Mat3 neo_hookean_stress_change(const NeoHookean& nh, const Mat3& F, const Mat3& dF, bool gauss_newton) {
  const Mat3 c = cofactor(F);
  const double J = dot(F.c[0], c.c[0]);
  const double cof_dF = dot(c.c[0], dF.c[0]) + dot(c.c[1], dF.c[1]) + dot(c.c[2], dF.c[2]);  // dJ
  Mat3 dP;
  for (int j = 0; j < 3; ++j) dP.c[j] = dF.c[j] * nh.mu + c.c[j] * (nh.lambda * cof_dF);
  if (gauss_newton) return dP;
  // d cof F in the direction dF, column by column from cof's cross products.
  const D3 dc[3] = {cross(dF.c[1], F.c[2]) + cross(F.c[1], dF.c[2]), cross(dF.c[2], F.c[0]) + cross(F.c[2], dF.c[0]),
                    cross(dF.c[0], F.c[1]) + cross(F.c[0], dF.c[1])};
  const double s = nh.lambda * (J - nh.gamma);
  for (int j = 0; j < 3; ++j) dP.c[j] = dP.c[j] + dc[j] * s;
  return dP;
}

}  // namespace static_math
}  // namespace sb
