#include "solver/strain_smoothing.h"

#include <algorithm>

#include "solver/static_math.h"

namespace sb {

using namespace static_math;

namespace {

// The workspace, as arrays over the particles (split, so that CG's products stream through dFn alone):
// Fn (9 each), dFn or a stress (9), 1 / V_n (1/m^3), a W_n / V_n (the blend's weight of a domain's
// energy per unit of its volume), then for the float kernels x, p and the result as doubles (3 each).
struct Work {
  double *F, *D, *inv_volume, *scale, *x, *p, *out;
};
static_assert(9 + 9 + 1 + 1 + 3 + 3 + 3 == kSmoothingWork, "kSmoothingWork: the arrays below");
Work split(const ForceModel& m, double* work) {
  const size_t n = m.particle_count;
  return {work, work + 9 * n, work + 18 * n, work + 19 * n, work + 20 * n, work + 23 * n, work + 26 * n};
}

Mat3 load_mat(const double* w) { return {{{w[0], w[1], w[2]}, {w[3], w[4], w[5]}, {w[6], w[7], w[8]}}}; }
void add_mat(double* w, const Mat3& A, double s) {
  for (int j = 0; j < 3; ++j) {
    w[3 * j] += A.c[j].x * s;
    w[3 * j + 1] += A.c[j].y * s;
    w[3 * j + 2] += A.c[j].z * s;
  }
}
void store_mat(double* w, const Mat3& A, double s) {
  for (int j = 0; j < 3; ++j) {
    w[3 * j] = A.c[j].x * s;
    w[3 * j + 1] = A.c[j].y * s;
    w[3 * j + 2] = A.c[j].z * s;
  }
}

// Each particle's 1 / V_n, a W_n / V_n and Fn at x. With g, also adds the plain tets' share
// (1 - a) W_t P(F_t) of the gradient while each F_t is at hand (one pass over the tets, not two).
void prepare(const ForceModel& m, const StaticState& x, const Work& w, double* g) {
  const size_t n = m.particle_count;
  std::fill(w.F, w.F + 9 * n, 0.0);
  std::fill(w.inv_volume, w.inv_volume + n, 0.0);  // V_n while summing
  std::fill(w.scale, w.scale + n, 0.0);            // W_n while summing
  const double tets_share = 1.0 - m.strain_smoothing;
  for (uint32_t t = 0; t < m.tet_count; ++t) {
    const uint32_t* id = m.tets + 4 * t;
    const float* B = m.tet_inverse_rest + 9 * size_t(t);
    const double quarter = double(m.tet_rest6[t]) / 24.0;  // V_t / 4, m^3
    const Mat3 F = deformation(x, id, B);
    if (g && tets_share > 0.0) scatter(neo_hookean_stress(*m.neo_hookean, F), B, id, tets_share * m.tet_rest_volume[t], g);
    for (int c = 0; c < 4; ++c) {
      add_mat(w.F + 9 * size_t(id[c]), F, quarter);
      w.inv_volume[id[c]] += quarter;
      w.scale[id[c]] += 0.25 * double(m.tet_rest_volume[t]);
    }
  }
  for (size_t i = 0; i < n; ++i) {
    const double volume = w.inv_volume[i];
    if (!(volume > 0.0)) continue;  // a particle in no tet: no domain (its slots stay 0)
    w.inv_volume[i] = 1.0 / volume;
    w.scale[i] = m.strain_smoothing * w.scale[i] / volume;
    for (int k = 0; k < 9; ++k) w.F[9 * i + k] /= volume;
  }
}

// out += sum_t (V_t / 4) sum_{corners n} S_n pushed through F_t = Ds B, where S_n (w.D) is the
// F-gradient of particle n's term per unit of its domain's volume: dE/dF_t = sum_n (V_t / 4) S_n.
void scatter_domains(const ForceModel& m, const Work& w, double* out) {
  for (uint32_t t = 0; t < m.tet_count; ++t) {
    const uint32_t* id = m.tets + 4 * t;
    Mat3 S{};
    for (int c = 0; c < 4; ++c) {
      const Mat3 Sn = load_mat(w.D + 9 * size_t(id[c]));
      for (int j = 0; j < 3; ++j) S.c[j] = S.c[j] + Sn.c[j];
    }
    scatter(S, m.tet_inverse_rest + 9 * size_t(t), id, double(m.tet_rest6[t]) / 24.0, out);
  }
}

const double* to_double(const ForceModel& m, const float* a, double* d) {
  std::copy(a, a + 3 * size_t(m.particle_count), d);
  return d;
}

}  // namespace

void smoothing_prepare(const ForceModel& m, const StaticState& x, double* work) { prepare(m, x, split(m, work), nullptr); }

double smoothing_energy(const ForceModel& m, const StaticState& x, double* work) {
  const Work w = split(m, work);
  prepare(m, x, w, nullptr);
  double e = 0.0;
  for (uint32_t i = 0; i < m.particle_count; ++i)  // a W_n Psi(Fn) = (a W_n / V_n) V_n Psi(Fn)
    if (w.inv_volume[i] > 0.0) e += w.scale[i] / w.inv_volume[i] * neo_hookean_psi(*m.neo_hookean, load_mat(w.F + 9 * size_t(i)));
  return e;
}

void smoothing_gradient(const ForceModel& m, const StaticState& x, bool with_tets, double* work, double* g) {
  const Work w = split(m, work);
  prepare(m, x, w, with_tets ? g : nullptr);
  for (uint32_t i = 0; i < m.particle_count; ++i)
    store_mat(w.D + 9 * size_t(i), neo_hookean_stress(*m.neo_hookean, load_mat(w.F + 9 * size_t(i))), w.scale[i]);
  scatter_domains(m, w, g);
}

void smoothing_hessian_product(const ForceModel& m, const StaticState& x, const double* p, bool gauss_newton,
                               bool with_tets, double* work, double* out) {
  // The domains' dFn (w.D), and with_tets the plain tets' share of the product on the way.
  const Work w = split(m, work);
  std::fill(w.D, w.D + 9 * size_t(m.particle_count), 0.0);
  const double tets_share = 1.0 - m.strain_smoothing;
  const StaticState dir{p, nullptr};
  for (uint32_t t = 0; t < m.tet_count; ++t) {
    const uint32_t* id = m.tets + 4 * t;
    const float* B = m.tet_inverse_rest + 9 * size_t(t);
    const Mat3 dF = deformation(dir, id, B);  // F is linear in x: the same map takes p to dF
    if (with_tets && tets_share > 0.0) {
      const Mat3 dP = neo_hookean_stress_change(*m.neo_hookean, deformation(x, id, B), dF, gauss_newton);
      scatter(dP, B, id, tets_share * m.tet_rest_volume[t], out);
    }
    const double quarter = double(m.tet_rest6[t]) / 24.0;
    for (int c = 0; c < 4; ++c) add_mat(w.D + 9 * size_t(id[c]), dF, quarter);
  }
  for (uint32_t i = 0; i < m.particle_count; ++i) {
    double* d = w.D + 9 * size_t(i);
    Mat3 dFn = load_mat(d);
    for (auto& c : dFn.c) c = c * w.inv_volume[i];
    store_mat(d, neo_hookean_stress_change(*m.neo_hookean, load_mat(w.F + 9 * size_t(i)), dFn, gauss_newton), w.scale[i]);
  }
  scatter_domains(m, w, out);
}

void add_smoothing_forces(const ForceModel& m, const float* x, float* f) {
  const Work w = split(m, m.smoothing_work);
  std::fill(w.out, w.out + 3 * size_t(m.particle_count), 0.0);
  smoothing_gradient(m, StaticState{to_double(m, x, w.x), nullptr}, /*with_tets=*/true, m.smoothing_work, w.out);
  for (size_t i = 0; i < 3 * size_t(m.particle_count); ++i) f[i] -= float(w.out[i]);
}

void smoothing_jacobian_product(const ForceModel& m, const float* x, const float* p, float k, float* out) {
  const Work w = split(m, m.smoothing_work);
  // Implicit Euler evaluates the forces at x and then runs all its products there: the domains' Fn
  // are still in the workspace when its copy of x is this x (the workspace starts as NaN: no match).
  bool same = true;
  for (size_t i = 0; i < 3 * size_t(m.particle_count) && same; ++i) same = w.x[i] == double(x[i]);
  if (!same) prepare(m, StaticState{to_double(m, x, w.x), nullptr}, w, nullptr);
  std::fill(w.out, w.out + 3 * size_t(m.particle_count), 0.0);
  smoothing_hessian_product(m, StaticState{w.x, nullptr}, to_double(m, p, w.p), /*gauss_newton=*/true,
                            /*with_tets=*/true, m.smoothing_work, w.out);
  for (size_t i = 0; i < 3 * size_t(m.particle_count); ++i) out[i] -= k * float(w.out[i]);  // df/dx = -H
}

double smoothing_energy(const ForceModel& m, const float* x) {
  const Work w = split(m, m.smoothing_work);
  return smoothing_energy(m, StaticState{to_double(m, x, w.x), nullptr}, m.smoothing_work);
}

}  // namespace sb
