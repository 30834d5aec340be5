#include "solver/static_solver.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <vector>

#include "solver/static_matrix.h"
#include "solver/strain_smoothing.h"
#include "solver/static_model.h"

namespace sb {

namespace {

double dot_n(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0.0;
  for (size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

// Inverse of a symmetric 3x3 block (xx yy zz xy xz yz) into 6 doubles; false if not safely positive
// definite.
bool invert_block(const double* H, double* inv) {
  const double c00 = H[1] * H[2] - H[5] * H[5], c01 = H[4] * H[5] - H[3] * H[2], c02 = H[3] * H[5] - H[4] * H[1];
  const double det = H[0] * c00 + H[3] * c01 + H[4] * c02;
  if (!(det > 1e-12 * H[0] * H[1] * H[2]) || !(H[0] > 0) || !(H[1] > 0) || !(H[2] > 0)) return false;
  const double c11 = H[0] * H[2] - H[4] * H[4], c12 = H[3] * H[4] - H[0] * H[5], c22 = H[0] * H[1] - H[3] * H[3];
  const double s = 1.0 / det;
  inv[0] = c00 * s, inv[1] = c11 * s, inv[2] = c22 * s, inv[3] = c01 * s, inv[4] = c02 * s, inv[5] = c12 * s;
  return true;
}

// Root of i's part, halving the path on the way (union-find).
uint32_t part_of(std::vector<uint32_t>& parent, uint32_t i) {
  while (parent[i] != i) i = parent[i] = parent[parent[i]];
  return i;
}

// Whether every connected part (particles joined by edges or tets) that carries load holds on to a
// held particle. A part with none has no equilibrium: moving it along g lowers Phi without bound, so
// Newton would spend all its iterations following it as it falls (60 of them, ~0.1 s on a
// 5-cell ball natively and 2 s under the sanitizers, for a certain refusal).
bool every_loaded_part_held(const ForceModel& m, const std::vector<uint8_t>& held) {
  const uint32_t n = m.particle_count;
  std::vector<uint32_t> parent(n);
  for (uint32_t i = 0; i < n; ++i) parent[i] = i;
  auto join = [&](uint32_t a, uint32_t b) { parent[part_of(parent, a)] = part_of(parent, b); };
  for (uint32_t s = 0; s < m.edge_count; ++s) join(m.edges[2 * s], m.edges[2 * s + 1]);
  for (uint32_t t = 0; t < m.tet_count; ++t)
    for (int k = 1; k < 4; ++k) join(m.tets[4 * t], m.tets[4 * t + k]);
  std::vector<uint8_t> part_held(n, 0), part_loaded(n, 0);
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t root = part_of(parent, i);
    if (held[i]) part_held[root] = 1;
    else if (m.mass[i] > 0.0f) part_loaded[root] = 1;
  }
  for (uint32_t i = 0; i < n; ++i)
    if (part_loaded[i] && !part_held[i]) return false;
  return true;
}

}  // namespace

// Newton from x_out at the model's full load (the solver described in static_solver.h).
static StaticReport newton_static(const ForceModel& m, float* x_out, const StaticSettings& settings) {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point started = Clock::now();
  StaticReport report;
  const uint32_t n = m.particle_count;
  const size_t n3 = 3 * size_t(n);
  const bool stiff = m.neo_hookean || m.edge_stiffness > 0.0f || m.volume_stiffness > 0.0f;
  if (m.pressure_nrt > 0.0f || !stiff) {
    report.status = StaticStatus::Unsupported;
    return report;
  }
  std::vector<uint8_t> held(n);
  const double g2 = double(m.gravity[0]) * m.gravity[0] + double(m.gravity[1]) * m.gravity[1] +
                    double(m.gravity[2]) * m.gravity[2];  // |g|^2, m^2/s^4
  double load = 0.0;  // |m g| over the free particles, N
  for (uint32_t i = 0; i < n; ++i) {
    held[i] = m.inv_mass[i] == 0.0f;
    if (!held[i]) load += double(m.mass[i]) * m.mass[i] * g2;
  }
  load = std::sqrt(load);
  if (!(load > 0.0)) {
    report.status = StaticStatus::NoLoad;
    return report;
  }
  if (!every_loaded_part_held(m, held)) {
    report.status = StaticStatus::Unheld;
    return report;
  }
  const std::vector<double> X(x_out, x_out + n3);  // the start; the iterate is X + u
  std::vector<double> u(n3, 0.0), u_try(n3), g(n3), r(n3), d(n3), res(n3), z(n3), p(n3), hp(n3);
  std::vector<double> inv(6 * size_t(n));
  BlockSparse K = static_matrix_pattern(m);
  // Strain smoothing's part of H couples particles beyond a tet's corners: applied matrix-free beside
  // K (which then holds the plain tets' share 1 - a), and for the preconditioner K's diagonal blocks
  // are taken at the tets' full weight (strain_smoothing.h).
  const bool smoothing = m.neo_hookean && m.strain_smoothing > 0.0f;
  std::vector<double> smoothing_work(smoothing ? kSmoothingWork * size_t(n) : 0);
  const double diagonal_scale = smoothing ? 1.0 / (1.0 - double(m.strain_smoothing)) : 1.0;
  // r = -dPhi/dx on the free particles (0 on held ones); returns |r|.
  auto unbalanced = [&](const std::vector<double>& at, std::vector<double>& out) {
    static_gradient(m, StaticState{X.data(), at.data()}, out.data());
    for (uint32_t i = 0; i < n; ++i)
      for (int k = 0; k < 3; ++k) out[3 * size_t(i) + k] = held[i] ? 0.0 : -out[3 * size_t(i) + k];
    return std::sqrt(dot_n(out, out));
  };
  auto precondition = [&](const std::vector<double>& in, std::vector<double>& out) {
    for (uint32_t i = 0; i < n; ++i) {
      const double* b = &inv[6 * size_t(i)];
      const double* v = &in[3 * size_t(i)];
      double* o = &out[3 * size_t(i)];
      o[0] = b[0] * v[0] + b[3] * v[1] + b[4] * v[2];
      o[1] = b[3] * v[0] + b[1] * v[1] + b[5] * v[2];
      o[2] = b[4] * v[0] + b[5] * v[1] + b[2] * v[2];
    }
  };
  double phi = 0.0;  // Phi(X + u) - Phi(X), J
  // The size of Phi's terms, J, for telling a real decrease from rounding: the elastic energy at the
  // start (a body solved again from its equilibrium holds it all) plus the load's work so far.
  const double start_energy = std::fabs(static_energy(m, StaticState{X.data(), nullptr}));
  double r_norm = unbalanced(u, r);
  report.relative_residual = r_norm / load;
  while (report.relative_residual > settings.tolerance) {
    if (report.newton_iterations >= settings.max_newton) break;
    ++report.newton_iterations;
    // H at this iterate, and the block-Jacobi preconditioner from its diagonal blocks; a block that
    // is not positive definite (a vertex among badly inverted tets, compressed springs) falls back to
    // its positive diagonal entries, else identity.
    static_matrix_assemble(m, StaticState{X.data(), u.data()}, K);
    if (smoothing) smoothing_prepare(m, StaticState{X.data(), u.data()}, smoothing_work.data());
    for (uint32_t i = 0; i < n; ++i) {
      double* o = &inv[6 * size_t(i)];
      std::fill(o, o + 6, 0.0);
      if (held[i]) continue;
      const double* b = &K.value[9 * size_t(K.diagonal[i])];
      double block[6] = {b[0], b[4], b[8], 0.5 * (b[1] + b[3]), 0.5 * (b[2] + b[6]), 0.5 * (b[5] + b[7])};
      for (double& e : block) e *= diagonal_scale;
      if (!invert_block(block, o))
        for (int k = 0; k < 3; ++k) o[k] = block[k] > 0.0 ? 1.0 / block[k] : 1.0;
    }
    // CG on H d = r, to |H d - r| <= eta |r| (but no tighter than the Newton tolerance asks).
    const double eta = std::max(std::min(0.1, report.relative_residual), 0.3 * settings.tolerance / report.relative_residual);
    std::fill(d.begin(), d.end(), 0.0);
    res = r;
    precondition(res, z);
    p = z;
    double rz = dot_n(res, z);
    for (int it = 0; it < settings.max_cg; ++it) {
      static_matrix_product(K, p.data(), hp.data());
      if (smoothing)
        smoothing_hessian_product(m, StaticState{X.data(), u.data()}, p.data(), /*gauss_newton=*/false,
                                  /*with_tets=*/false, smoothing_work.data(), hp.data());
      for (uint32_t i = 0; i < n; ++i)
        if (held[i]) hp[3 * size_t(i)] = hp[3 * size_t(i) + 1] = hp[3 * size_t(i) + 2] = 0.0;
      const double php = dot_n(p, hp);
      ++report.cg_iterations;
      if (!(php > 0.0)) {  // negative curvature: keep what we have (Steihaug)
        if (it == 0) d = z;
        break;
      }
      const double alpha = rz / php;
      for (size_t j = 0; j < n3; ++j) {
        d[j] += alpha * p[j];
        res[j] -= alpha * hp[j];
      }
      if (std::sqrt(dot_n(res, res)) <= eta * r_norm) break;
      precondition(res, z);
      const double rz_next = dot_n(res, z);
      const double beta = rz_next / rz;
      rz = rz_next;
      for (size_t j = 0; j < n3; ++j) p[j] = z[j] + beta * p[j];
    }
    // Backtracking line search on Phi from the full Newton step.
    const double descent = dot_n(r, d);  // -dPhi/dalpha at alpha = 0, J; > 0 for a descent direction
    if (!(descent > 0.0)) break;
    double step = 1.0;
    bool accepted = false;
    for (int halving = 0; halving < 40 && !accepted; ++halving, step *= 0.5) {
      for (size_t j = 0; j < n3; ++j) u_try[j] = u[j] + step * d[j];
      const double phi_try = static_energy(m, StaticState{X.data(), u_try.data()});
      if (phi_try <= phi - 1e-4 * step * descent) {
        accepted = true;
        phi = phi_try;
      } else if (step * descent < 1e-10 * (start_energy + std::fabs(phi))) {
        // The expected decrease is below Phi's rounding: judge the step by the force it leaves.
        if (unbalanced(u_try, g) < r_norm) {
          accepted = true;
          phi = phi_try;
        }
      }
      if (accepted) u.swap(u_try);
    }
    if (!accepted) break;
    r_norm = unbalanced(u, r);
    report.relative_residual = r_norm / load;
    if (!std::isfinite(report.relative_residual)) break;
  }
  report.status = report.relative_residual <= settings.tolerance ? StaticStatus::Converged : StaticStatus::NotConverged;
  report.energy = phi;
  double probe = 0.0;  // x - x: 0 for finite x, NaN otherwise
  for (double v : u) probe += v - v;
  if (probe != 0.0) std::fill(u.begin(), u.end(), 0.0);  // never hand back a non-finite shape
  for (size_t j = 0; j < n3; ++j) x_out[j] = float(X[j] + u[j]);
  report.seconds = std::chrono::duration<double>(Clock::now() - started).count();
  return report;
}

StaticReport solve_static(const ForceModel& m, float* x, const StaticSettings& settings) {
  const size_t n3 = 3 * size_t(m.particle_count);
  const std::vector<float> start(x, x + n3);
  StaticReport full = newton_static(m, x, settings);
  if (full.status != StaticStatus::NotConverged) return full;
  // Load stepping: from the start shape, gravity raised in fractions, each solved from the last
  // fraction's answer (to 1e-3 of its load, the final one to the tolerance asked); a fraction that
  // fails is halved. Far from rest the full-load Newton step can leave the basin a smaller load
  // step stays in.
  std::vector<float> at(start), trial(n3);
  StaticReport total = full, last;
  double done = 0.0, step = 0.25;  // fractions of the load
  while (done < 1.0 && step >= 1.0 / 1024.0) {
    const double next = std::min(1.0, done + step);
    ForceModel part = m;
    for (int k = 0; k < 3; ++k) part.gravity[k] = float(double(m.gravity[k]) * next);
    StaticSettings s = settings;
    if (next < 1.0) s.tolerance = std::max(settings.tolerance, 1e-3);
    trial = at;
    last = newton_static(part, trial.data(), s);
    total.newton_iterations += last.newton_iterations;
    total.cg_iterations += last.cg_iterations;
    total.seconds += last.seconds;
    ++total.load_steps;
    if (last.status == StaticStatus::Converged) {
      at.swap(trial);
      done = next;
      step = std::min(0.5, 2.0 * step);
    } else {
      step *= 0.5;
    }
  }
  if (!(done >= 1.0)) {  // no better than the full-load attempt: hand that back
    total.status = full.status;
    total.relative_residual = full.relative_residual;
    total.energy = full.energy;
    return total;
  }
  std::copy(at.begin(), at.end(), x);
  total.status = StaticStatus::Converged;
  total.relative_residual = last.relative_residual;
  total.energy = last.energy;
  return total;
}

}  // namespace sb
