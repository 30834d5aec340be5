#include "solver/integrators.h"

#include <algorithm>
#include <cmath>

namespace sb {

void IntegratorScratch::resize(uint32_t particles) {
  const size_t n3 = 3 * size_t(particles);
  for (auto* b : {&x0, &v0, &xt, &vt, &f, &sum_x, &sum_v, &r, &p, &ap, &z, &dv, &x_prev, &verlet_v}) b->assign(n3, 0.0f);
  diag_inv.assign(particles, 0.0f);
  hold_y.assign(particles, 0);
  hold_vy.assign(particles, 0.0f);
  hold_impulse.assign(particles, 0.0f);
  verlet_started = false;
}

namespace {

size_t n3(const ForceModel& m) { return 3 * size_t(m.particle_count); }

// a = f / m into acc (0 for pinned particles), from forces at (x, v).
void accelerations(const ForceModel& m, const float* x, const float* v, IntegratorScratch& s, float* acc) {
  compute_forces(m, x, v, s.f.data());
  for (uint32_t i = 0; i < m.particle_count; ++i)
    for (int k = 0; k < 3; ++k) acc[3 * i + k] = s.f[3 * i + k] * m.inv_mass[i];
}

// Pinned particles keep position and velocity: derivatives of x are zeroed for them too.
void pin_rates(const ForceModel& m, float* dxdt) {
  for (uint32_t i = 0; i < m.particle_count; ++i)
    if (m.inv_mass[i] == 0.0f) dxdt[3 * i] = dxdt[3 * i + 1] = dxdt[3 * i + 2] = 0.0f;
}

float dot_n(const float* a, const float* b, size_t n) {
  double s = 0.0;
  for (size_t i = 0; i < n; ++i) s += double(a[i]) * b[i];
  return float(s);
}

}  // namespace

void explicit_euler(const ForceModel& m, float* x, float* v, float h, IntegratorScratch& s) {
  float* a = s.vt.data();
  accelerations(m, x, v, s, a);
  std::copy(v, v + n3(m), s.xt.begin());
  pin_rates(m, s.xt.data());
  for (size_t i = 0; i < n3(m); ++i) {
    x[i] += h * s.xt[i];  // old velocity
    v[i] += h * a[i];
  }
}

void semi_implicit_euler(const ForceModel& m, float* x, float* v, float h, IntegratorScratch& s) {
  float* a = s.vt.data();
  accelerations(m, x, v, s, a);
  for (size_t i = 0; i < n3(m); ++i) v[i] += h * a[i];
  for (uint32_t i = 0; i < m.particle_count; ++i)
    if (m.inv_mass[i] != 0.0f)
      for (int k = 0; k < 3; ++k) x[3 * i + k] += h * v[3 * i + k];  // new velocity
}

void position_verlet(const ForceModel& m, float* x, float* v, float h, IntegratorScratch& s) {
  float* a = s.vt.data();
  accelerations(m, x, v, s, a);
  if (!s.verlet_started) {  // x_prev = x0 - h v0 + h^2/2 a0: Taylor start keeps 2nd order
    for (size_t i = 0; i < n3(m); ++i) s.x_prev[i] = x[i] - h * v[i] + 0.5f * h * h * a[i];
    s.verlet_started = true;
  } else {
    // Verlet carries its velocity in x - x_prev. Where v was changed since its last step (contacts,
    // drag, grabbing, the caller), rebuild x_prev from v so the change is not lost.
    for (size_t i = 0; i < n3(m); ++i)
      if (v[i] != s.verlet_v[i]) s.x_prev[i] = x[i] - h * v[i];
  }
  for (uint32_t i = 0; i < m.particle_count; ++i) {
    if (m.inv_mass[i] == 0.0f) continue;
    for (int k = 0; k < 3; ++k) {
      const size_t j = 3 * size_t(i) + k;
      const float next = 2.0f * x[j] - s.x_prev[j] + a[j] * h * h;
      s.x_prev[j] = x[j];
      v[j] = (next - x[j]) / h;
      x[j] = next;
    }
  }
  std::copy(v, v + n3(m), s.verlet_v.begin());
}

void midpoint(const ForceModel& m, float* x, float* v, float h, IntegratorScratch& s) {
  float* a = s.vt.data();
  accelerations(m, x, v, s, a);
  for (size_t i = 0; i < n3(m); ++i) {
    s.x0[i] = x[i] + 0.5f * h * v[i];  // half-step state
    s.v0[i] = v[i] + 0.5f * h * a[i];
  }
  pin_rates(m, s.v0.data());
  accelerations(m, s.x0.data(), s.v0.data(), s, a);
  for (size_t i = 0; i < n3(m); ++i) {
    x[i] += h * s.v0[i];
    v[i] += h * a[i];
  }
}

void heun(const ForceModel& m, float* x, float* v, float h, IntegratorScratch& s) {
  float* a0 = s.sum_v.data();
  float* a1 = s.vt.data();
  accelerations(m, x, v, s, a0);
  std::copy(v, v + n3(m), s.sum_x.begin());
  pin_rates(m, s.sum_x.data());
  for (size_t i = 0; i < n3(m); ++i) {  // Euler predictor
    s.x0[i] = x[i] + h * s.sum_x[i];
    s.v0[i] = v[i] + h * a0[i];
  }
  pin_rates(m, s.v0.data());
  accelerations(m, s.x0.data(), s.v0.data(), s, a1);
  for (size_t i = 0; i < n3(m); ++i) {  // trapezoidal corrector
    x[i] += 0.5f * h * (s.sum_x[i] + s.v0[i]);
    v[i] += 0.5f * h * (a0[i] + a1[i]);
  }
}

void rk4(const ForceModel& m, float* x, float* v, float h, IntegratorScratch& s) {
  const size_t n = n3(m);
  float* a = s.vt.data();
  std::copy(x, x + n, s.x0.begin());
  std::copy(v, v + n, s.v0.begin());
  std::fill(s.sum_x.begin(), s.sum_x.end(), 0.0f);
  std::fill(s.sum_v.begin(), s.sum_v.end(), 0.0f);
  // Stage k evaluates at (xt, v_stage) = state0 + c_k h * previous derivative; weights 1, 2, 2, 1.
  static const float kC[4] = {0.0f, 0.5f, 0.5f, 1.0f};
  static const float kW[4] = {1.0f, 2.0f, 2.0f, 1.0f};
  std::copy(x, x + n, s.xt.begin());
  std::copy(v, v + n, s.p.begin());  // p holds the stage velocity
  for (int stage = 0; stage < 4; ++stage) {
    pin_rates(m, s.p.data());
    accelerations(m, s.xt.data(), s.p.data(), s, a);
    for (size_t i = 0; i < n; ++i) {
      s.sum_x[i] += kW[stage] * s.p[i];
      s.sum_v[i] += kW[stage] * a[i];
    }
    if (stage == 3) break;
    const float c = kC[stage + 1] * h;
    for (size_t i = 0; i < n; ++i) {
      const float stage_v = s.p[i];
      s.xt[i] = s.x0[i] + c * stage_v;
      s.p[i] = s.v0[i] + c * a[i];
    }
  }
  for (size_t i = 0; i < n; ++i) {
    x[i] = s.x0[i] + h / 6.0f * s.sum_x[i];
    v[i] = s.v0[i] + h / 6.0f * s.sum_v[i];
  }
}

CgReport implicit_euler(const ForceModel& m, float* x, float* v, float h, IntegratorScratch& s) {
  const size_t n = n3(m);
  const float h2 = h * h;
  // b = h f0 + h^2 (df/dx) v0, filtered so pinned particles get dv = 0.
  compute_forces(m, x, v, s.f.data());
  force_jacobian_product(m, x, v, h2, 0.0f, s.ap.data());
  for (size_t i = 0; i < n; ++i) s.r[i] = h * s.f[i] + s.ap[i];
  system_diagonal(m, x, h2, h, s.diag_inv.data());
  bool holds = false;
  for (size_t i = 0; i < s.hold_y.size() && !holds; ++i) holds = s.hold_y[i] != 0 && m.inv_mass[i] != 0.0f;
  auto held = [&](size_t j) { return holds && j % 3 == 1 && s.hold_y[j / 3] != 0; };  // a held y component
  // A p = M p - h (df/dv) p - h^2 (df/dx) p, filtered like b (pinned particles and held components out).
  auto product = [&](const float* in, float* out) {
    force_jacobian_product(m, x, in, h2, h, out);
    for (uint32_t i = 0; i < m.particle_count; ++i)
      for (int k = 0; k < 3; ++k) {
        const size_t j = 3 * size_t(i) + k;
        out[j] = m.inv_mass[i] == 0.0f ? 0.0f : m.mass[i] * in[j] - out[j];
      }
  };
  auto apply = [&](const float* in, float* out) {
    product(in, out);
    if (holds)
      for (size_t j = 1; j < n; j += 3)
        if (held(j)) out[j] = 0.0f;
  };
  // Start from dv = z: the held components at their prescribed change, the rest 0; r = b - A z.
  std::fill(s.dv.begin(), s.dv.end(), 0.0f);
  if (holds) {
    for (uint32_t i = 0; i < m.particle_count; ++i)
      if (s.hold_y[i] && m.inv_mass[i] != 0.0f) s.dv[3 * i + 1] = s.hold_vy[i] - v[3 * i + 1];
    std::copy(s.r.begin(), s.r.end(), s.sum_x.begin());  // b, for the held impulses afterwards
    product(s.dv.data(), s.ap.data());
    for (size_t j = 0; j < n; ++j) s.r[j] -= s.ap[j];
  }
  for (uint32_t i = 0; i < m.particle_count; ++i) {
    const bool pinned = m.inv_mass[i] == 0.0f;
    s.diag_inv[i] = pinned ? 0.0f : 1.0f / s.diag_inv[i];
    if (pinned) s.r[3 * i] = s.r[3 * i + 1] = s.r[3 * i + 2] = 0.0f;
    if (held(3 * i + 1)) s.r[3 * i + 1] = 0.0f;
  }
  const float b_norm = std::sqrt(dot_n(s.r.data(), s.r.data(), n));
  CgReport report;
  if (b_norm > 0.0f) {
    for (size_t i = 0; i < n; ++i) s.z[i] = s.diag_inv[i / 3] * s.r[i];
    std::copy(s.z.begin(), s.z.end(), s.p.begin());
    float rz = dot_n(s.r.data(), s.z.data(), n);
    float r_norm = b_norm;
    while (r_norm > kCgTolerance * b_norm && report.iterations < kCgMaxIterations) {
      apply(s.p.data(), s.ap.data());
      const float pap = dot_n(s.p.data(), s.ap.data(), n);
      if (!(pap > 0.0f)) break;  // lost positive definiteness (should not happen with the clamps)
      const float alpha = rz / pap;
      for (size_t i = 0; i < n; ++i) {
        s.dv[i] += alpha * s.p[i];
        s.r[i] -= alpha * s.ap[i];
      }
      for (size_t i = 0; i < n; ++i) s.z[i] = s.diag_inv[i / 3] * s.r[i];
      const float rz_next = dot_n(s.r.data(), s.z.data(), n);
      const float beta = rz_next / rz;
      rz = rz_next;
      for (size_t i = 0; i < n; ++i) s.p[i] = s.z[i] + beta * s.p[i];
      r_norm = std::sqrt(dot_n(s.r.data(), s.r.data(), n));
      ++report.iterations;
    }
    report.relative_residual = r_norm / b_norm;
    report.converged = r_norm <= kCgTolerance * b_norm;
  }
  if (holds) {
    // The plane's impulse on each held particle: what the filter kept out of its y equation.
    product(s.dv.data(), s.ap.data());
    for (uint32_t i = 0; i < m.particle_count; ++i)
      s.hold_impulse[i] = s.hold_y[i] && m.inv_mass[i] != 0.0f ? s.ap[3 * i + 1] - s.sum_x[3 * i + 1] : 0.0f;
  } else {
    std::fill(s.hold_impulse.begin(), s.hold_impulse.end(), 0.0f);
  }
  for (uint32_t i = 0; i < m.particle_count; ++i) {
    if (m.inv_mass[i] == 0.0f) continue;
    for (int k = 0; k < 3; ++k) {
      const size_t j = 3 * size_t(i) + k;
      v[j] += s.dv[j];
      x[j] += h * v[j];
    }
  }
  return report;
}

}  // namespace sb
