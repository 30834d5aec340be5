#include "solver/strain_smoothing.h"

#include <algorithm>

#include "solver/static_math.h"

namespace sb {

using namespace static_math;

namespace {

// The workspace: per particle a block of kBlock doubles (Fn, dFn or a stress, V_n, W_n), then for
// the float kernels three dense arrays of 3 per particle (x, p, the result) as doubles.
constexpr size_t kBlock = 20, kF = 0, kD = 9, kVol = 18, kWeight = 19;
static_assert(kBlock + 9 == kSmoothingWork, "kSmoothingWork is the block plus x, p and the result");

Mat3 load_mat(const double* w) { return {{{w[0], w[1], w[2]}, {w[3], w[4], w[5]}, {w[6], w[7], w[8]}}}; }
void add_mat(double* w, const Mat3& A, double s) {
  for (int j = 0; j < 3; ++j) {
    w[3 * j] += A.c[j].x * s;
    w[3 * j + 1] += A.c[j].y * s;
    w[3 * j + 2] += A.c[j].z * s;
  }
}
void store_mat(double* w, const Mat3& A, double s) {
  std::fill(w, w + 9, 0.0);
  add_mat(w, A, s);
}

// Each particle's V_n, W_n and Fn at x. With g, also adds the plain tets' share (1 - a) W_t P(F_t)
// of the gradient while each F_t is at hand (one pass over the tets instead of two).
void prepare(const ForceModel& m, const StaticState& x, double* work, double* g) {
  for (uint32_t i = 0; i < m.particle_count; ++i) {
    double* w = work + kBlock * i;
    std::fill(w, w + kBlock, 0.0);
  }
  const double tets_share = 1.0 - m.strain_smoothing;
  for (uint32_t t = 0; t < m.tet_count; ++t) {
    const uint32_t* id = m.tets + 4 * t;
    const float* B = m.tet_inverse_rest + 9 * size_t(t);
    const double quarter = double(m.tet_rest6[t]) / 24.0;  // V_t / 4, m^3
    const Mat3 F = deformation(x, id, B);
    if (g && tets_share > 0.0) scatter(neo_hookean_stress(*m.neo_hookean, F), B, id, tets_share * m.tet_rest_volume[t], g);
    for (int c = 0; c < 4; ++c) {
      double* w = work + kBlock * id[c];
      add_mat(w + kF, F, quarter);
      w[kVol] += quarter;
      w[kWeight] += 0.25 * double(m.tet_rest_volume[t]);
    }
  }
  for (uint32_t i = 0; i < m.particle_count; ++i) {
    double* w = work + kBlock * i;
    if (!(w[kVol] > 0.0)) continue;
    const double inv = 1.0 / w[kVol];
    for (int k = 0; k < 9; ++k) w[kF + k] *= inv;
  }
}

// out += sum_t (V_t / 4) sum_{corners n} S_n pushed through F_t = Ds B, where S_n (slot kD) is the
// F-gradient of particle n's term per unit of its domain's volume: dE/dF_t = sum_n (V_t / 4) S_n.
void scatter_domains(const ForceModel& m, const double* work, double* out) {
  for (uint32_t t = 0; t < m.tet_count; ++t) {
    const uint32_t* id = m.tets + 4 * t;
    Mat3 S{};
    for (int c = 0; c < 4; ++c) {
      const Mat3 Sn = load_mat(work + kBlock * id[c] + kD);
      for (int j = 0; j < 3; ++j) S.c[j] = S.c[j] + Sn.c[j];
    }
    scatter(S, m.tet_inverse_rest + 9 * size_t(t), id, double(m.tet_rest6[t]) / 24.0, out);
  }
}

// a W_n / V_n: the blend's weight of a domain's energy per unit of its volume.
double domain_scale(const ForceModel& m, const double* w) { return w[kVol] > 0.0 ? m.strain_smoothing * w[kWeight] / w[kVol] : 0.0; }

// The float kernels' dense double arrays in the workspace: x, p and the result, 3 per particle.
double* dense(const ForceModel& m, double* work, int k) { return work + kBlock * m.particle_count + 3 * size_t(m.particle_count) * k; }
const double* to_double(const ForceModel& m, const float* a, double* work, int k) {
  double* d = dense(m, work, k);
  std::copy(a, a + 3 * size_t(m.particle_count), d);
  return d;
}

}  // namespace

void smoothing_prepare(const ForceModel& m, const StaticState& x, double* work) { prepare(m, x, work, nullptr); }

double smoothing_energy(const ForceModel& m, const StaticState& x, double* work) {
  prepare(m, x, work, nullptr);
  double e = 0.0;
  for (uint32_t i = 0; i < m.particle_count; ++i) {
    const double* w = work + kBlock * i;
    if (w[kVol] > 0.0) e += m.strain_smoothing * w[kWeight] * neo_hookean_psi(*m.neo_hookean, load_mat(w + kF));
  }
  return e;
}

void smoothing_gradient(const ForceModel& m, const StaticState& x, bool with_tets, double* work, double* g) {
  prepare(m, x, work, with_tets ? g : nullptr);
  for (uint32_t i = 0; i < m.particle_count; ++i) {
    double* w = work + kBlock * i;
    store_mat(w + kD, neo_hookean_stress(*m.neo_hookean, load_mat(w + kF)), domain_scale(m, w));
  }
  scatter_domains(m, work, g);
}

void smoothing_hessian_product(const ForceModel& m, const StaticState& x, const double* p, bool gauss_newton,
                               bool with_tets, double* work, double* out) {
  // The domains' dFn (slot kD), and with_tets the plain tets' share of the product on the way.
  for (uint32_t i = 0; i < m.particle_count; ++i) std::fill(work + kBlock * i + kD, work + kBlock * i + kD + 9, 0.0);
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
    for (int c = 0; c < 4; ++c) add_mat(work + kBlock * id[c] + kD, dF, quarter);
  }
  for (uint32_t i = 0; i < m.particle_count; ++i) {
    double* w = work + kBlock * i;
    if (!(w[kVol] > 0.0)) continue;
    Mat3 dFn = load_mat(w + kD);
    for (auto& c : dFn.c) c = c * (1.0 / w[kVol]);
    store_mat(w + kD, neo_hookean_stress_change(*m.neo_hookean, load_mat(w + kF), dFn, gauss_newton), domain_scale(m, w));
  }
  scatter_domains(m, work, out);
}

void add_smoothing_forces(const ForceModel& m, const float* x, float* f) {
  double* work = m.smoothing_work;
  double* g = dense(m, work, 2);
  std::fill(g, g + 3 * size_t(m.particle_count), 0.0);
  smoothing_gradient(m, StaticState{to_double(m, x, work, 0), nullptr}, /*with_tets=*/true, work, g);
  for (size_t i = 0; i < 3 * size_t(m.particle_count); ++i) f[i] -= float(g[i]);
}

void smoothing_jacobian_product(const ForceModel& m, const float* x, const float* p, float k, float* out) {
  double* work = m.smoothing_work;
  // Implicit Euler evaluates the forces at x and then runs all its products there: the domains' Fn
  // are still in the workspace when its copy of x is this x (the workspace starts as NaN: no match).
  double* xd = dense(m, work, 0);
  bool same = true;
  for (size_t i = 0; i < 3 * size_t(m.particle_count) && same; ++i) same = xd[i] == double(x[i]);
  if (!same) prepare(m, StaticState{to_double(m, x, work, 0), nullptr}, work, nullptr);
  double* hp = dense(m, work, 2);
  std::fill(hp, hp + 3 * size_t(m.particle_count), 0.0);
  smoothing_hessian_product(m, StaticState{xd, nullptr}, to_double(m, p, work, 1), /*gauss_newton=*/true,
                            /*with_tets=*/true, work, hp);
  for (size_t i = 0; i < 3 * size_t(m.particle_count); ++i) out[i] -= k * float(hp[i]);  // df/dx = -H
}

double smoothing_energy(const ForceModel& m, const float* x) {
  return smoothing_energy(m, StaticState{to_double(m, x, m.smoothing_work, 0), nullptr}, m.smoothing_work);
}

}  // namespace sb
