// VBD's substep (SoftBody::vbd_solve): the sweeps from the inertial target y, checked as a whole
// against the substep's start, and redone from a safe start when they end higher.
//
// The incremental potential G(x) = sum m/(2h^2) |x - y|^2 + E(x) (vbd.h) at the substep's start x_n
// is the kinetic energy of the predicted motion plus E(x_n), up to a constant, so a result with
// G(x_end) <= G(x_n) bounds the step's potential energy by the energy the substep began with; the
// energy limit (vbd_limit_energy) then takes any kinetic excess out of the motion. Sweeps from y
// move a body as implicit Euler would, but a short sweep can end above G(x_n): a stiff body held by
// pins or resting on the ground is predicted to sag h^2 g everywhere but at its supports, and the
// stored energy stays in the step (the 10 MPa cantilever at one sweep crept to five times its
// static sag; rubber drops gained 8-263 % of their energy). So G(x_end) is compared with G(x_n)
// (two evaluations of G, each a fraction of a sweep), and only when it is higher are the sweeps
// redone from the lowest point found on the segment x_n -> y, line-searched and unaccelerated:
// block coordinate descent from there cannot end above G(x_n). Starting every substep there made a
// short sweep sluggish (the 20x2x2 cantilever at 4 sweeps had sagged 31.5 mm of its 89 at 1.5 s).
#include <algorithm>
#include <cmath>

#include "solver/soft_body.h"

namespace sb {

// VBD: `iterations` sweeps of per-vertex Newton steps on the incremental potential from the
// prediction pre_solve made (the inertial target y, which is also the first guess).
void SoftBody::vbd_solve(bool ground, float gravity) {
  // Supported: predicted into the ground, or touching a collider in the last substep (its record is
  // cleared only after this solve).
  for (uint32_t i = 0; i < vertex_count(); ++i)
    vbd_supported_[i] = (ground && pos_[3 * i + 1] <= ground_y()) || contact_restitution_[i] >= 0.0f;
  // The sweeps run relative to the body's middle, as XPBD's passes (pack_positions, pass_origin):
  // in world coordinates the stiff cantilever at y = 1 m settled 1.2 % too soft at 64 and at 256
  // sweeps, and 0.04-0.08 % near the origin (test_xpbd_statics.cpp). The target y is the start x.
  float origin[3];
  pass_origin(origin);
  std::copy(pos_.begin(), pos_.end(), vbd_start_.begin());
  for (size_t j = 0; j < pos_.size(); ++j) {
    pos_[j] -= origin[j % 3];
    vbd_target_[j] = pos_[j];
  }
  for (size_t j = 0; j < pos_.size(); ++j) vbd_previous_[j] = prev_[j] - origin[j % 3];
  VbdModel m;
  m.vertex_count = vertex_count();
  m.mass = mass_.data();
  m.inv_mass = inv_mass_.data();
  m.target = vbd_target_.data();
  m.inv_h2 = last_inv_h2_;
  m.supported = vbd_supported_.data();
  m.stats = &vbd_stats_;
  m.gravity = gravity;
  // The ground and the press plate inside the sweeps (vbd.h), in the sweeps' coordinates.
  m.floor_y = ground ? ground_y() - origin[1] : -INFINITY;  // cloth rests half its thickness up
  m.ceiling_y = plate_.active ? plate_.height - origin[1] : INFINITY;
  // Friction from the ground's push in the last substep, on the vertices predicted into it now:
  // fixed over the substep, so the potential it adds is too (vbd.h).
  for (uint32_t i = 0; i < vertex_count(); ++i)
    vbd_friction_[i] = pos_[3 * i + 1] <= m.floor_y ? params_.friction * std::max(vbd_support_[i], 0.0f) : 0.0f;  // N
  m.friction_load = vbd_friction_.data();
  m.friction_eps = kVbdStickSpeed / std::sqrt(last_inv_h2_);  // m
  std::fill(vbd_support_.begin(), vbd_support_.end(), 0.0f);
  m.support = vbd_support_.data();
  m.tets = tet_ids_.data();
  m.tet_count = tet_count();
  m.edges = edge_ids_.data();
  m.edge_count = edge_count();
  m.edge_damping = params_.spring_damping;
  m.previous = vbd_previous_.data();
  m.bending = bending_forces(cloth_, params_.bending_stiffness);
  m.hinges = &hinge_adjacency_;
  if (neo_hookean()) {
    m.neo_hookean = &neo_hookean_;
    m.tet_inverse_rest = tet_inverse_rest_.data();
    m.tet_rest_volume = tet_energy_volume_.data();
  } else {
    m.tet_rest6 = tet_rest6_.data();
    m.volume_stiffness = params_.volume_compliance > 0.0f ? 1.0f / params_.volume_compliance : 0.0f;
    m.edge_rest = edge_rest_.data();
    m.edge_stiffness = params_.edge_compliance > 0.0f ? 1.0f / params_.edge_compliance : 0.0f;
    m.edge_scale = edge_stiffness_scale_.empty() ? nullptr : edge_stiffness_scale_.data();
    m.tet_scale = tet_stiffness_scale_.empty() ? nullptr : tet_stiffness_scale_.data();
  }
  ++vbd_stats_.substeps;
  const DeformationFrame frame = deformation_frame(pos_.data(), rest_pos_.data(), mass_.data(), inv_mass_.data(),
                                                   vertex_count(), origin);  // convergence.h, from the prediction
  ForceBalance balance;
  bool met = false;
  // y on the planes first: the check compares points on them, and a start inside the ground leaves
  // the sweep's first steps outside what G measures (rubber drops gained 8-263 % from there).
  for (uint32_t i = 0; i < vertex_count(); ++i)
    if (inv_mass_[i] != 0.0f) pos_[3 * i + 1] = std::min(std::max(pos_[3 * i + 1], m.floor_y), m.ceiling_y);
  m.line_search = false;  // the result is checked whole below
  int sweeps = vbd_sweeps(m, true, frame, &balance, &met);
  // G at the result (on the planes) and at the substep's start (vbd_older_ after this).
  const double g_end = vbd_incremental_potential(m, pos_.data());
  const double g_start = vbd_substep_start_potential(m);
  double rise = g_end - g_start;  // J
  if (rise > 0.0) {
    ++vbd_stats_.fallbacks;
    vbd_safe_start(m, g_start);
    std::fill(vbd_support_.begin(), vbd_support_.end(), 0.0f);
    m.line_search = true;
    met = false;
    sweeps = vbd_sweeps(m, false, frame, &balance, &met);  // the budget is reported as spent once
    // By construction G(x_end) <= G(start) <= G(x_n); measured for the record only where it ran.
    rise = vbd_incremental_potential(m, pos_.data()) - g_start;
  }
  vbd_stats_.largest_substep_rise = std::max(vbd_stats_.largest_substep_rise, rise);
  const bool target = params_.stiffness_target > 0.0f;
  count_passes(sweeps, balance.stiffness_reached(), target, met);
  vbd_plane_support(m, adjacency_, pos_.data());
  vbd_remove_net_impulse(m, pos_.data());
  // Back to world coordinates: the start plus what the sweeps moved (start - origin is recomputed as
  // it was rounded), one rounding, none for a vertex they left where it was.
  for (size_t j = 0; j < pos_.size(); ++j) pos_[j] = vbd_start_[j] + (pos_[j] - (vbd_start_[j] - origin[j % 3]));
  float deepest = 0.0f;
  const uint32_t touching = vbd_plane_contacts(m, &deepest);
  add_contacts(touching, deepest);
}

// The substep's sweeps from pos_, ending on the planes. Returns the sweeps run.
// Below kVbdForwardSweeps sweeps go in pairs, forward then backward over the vertices (symmetric
// Gauss-Seidel), an odd count rounded up. A few forward sweeps alone map the inertial target y to
// x by a non-symmetric operator whose complex eigenvalues make the step's velocity grow: a 1 m
// rubber box squashed to 70 % and released at 1 sweep doubled its energy in 3 s and kept growing
// (test_vbd_stable.cpp). A pair's operator is symmetric with eigenvalues in [0, 1), like implicit
// Euler's, so it can only damp. Chebyshev semi-iterative acceleration (Wang 2015, as VBD uses it),
// x_n = omega_n (x_n' - x_{n-2}) + x_{n-2}, omega_S = 2 / (2 - rho^2), omega_n = 4 / (4 - rho^2
// omega_{n-1}), leaves a stiff mode -w of its inertial offset, and the step is stable only for
// w < 1/3 (x_{n+1} = -w (2 x_n - x_{n-1}) grows past it): over pairs from the third, w <= 0.24
// (eigenvalues in [0, 1), rho = 0.9); from the second, 0.68, and a squashed rubber box blew up.
// From kVbdForwardSweeps on, forward sweeps accelerated from the third (rho = 0.9) converge twice
// as fast per sweep as pairs do (a stiff cantilever within 1 % of implicit Euler at 24 sweeps,
// pairs 48) and the many sweeps leave w small. Without `accelerate` (the safe redo) every sweep
// descends G.
// With a stiffness target (convergence.h) the sweeps go in pairs whatever the budget: they may stop
// after any pair, and only pairs are stable stopped early; the budget counts sweeps.
int SoftBody::vbd_sweeps(const VbdModel& m, bool accelerate, const DeformationFrame& frame, ForceBalance* balance,
                         bool* met) {
  const bool target = params_.stiffness_target > 0.0f;
  const int budget = target ? params_.max_iterations : params_.iterations;
  const bool pairs = target || budget < kVbdForwardSweeps;
  const int rounds = pairs ? (std::max(budget, 1) + 1) / 2 : budget;
  int sweeps = 0;
  const int start = accelerate ? 2 : rounds;  // the round Chebyshev starts at (none with fewer rounds)
  const float rho2 = kVbdChebyshevRho * kVbdChebyshevRho;
  float omega = 1.0f;
  std::copy(pos_.begin(), pos_.end(), vbd_older_.begin());  // x_{n-2}
  for (int round = 0; round < rounds; ++round) {
    std::copy(pos_.begin(), pos_.end(), vbd_old_.begin());  // x_{n-1}
    *balance = ForceBalance{};
    balance->frame = &frame;
    balance->rest = rest_pos_.data();
    vbd_imbalance_ = vbd_sweep(m, adjacency_, pos_.data(), false, pairs ? nullptr : balance);
    if (pairs) vbd_imbalance_ = vbd_sweep(m, adjacency_, pos_.data(), true, balance);
    sweeps += pairs ? 2 : 1;
    if (target && balance->stiffness_reached() >= params_.stiffness_target) {
      *met = true;
      break;
    }
    if (round >= start) {
      omega = round == start ? 2.0f / (2.0f - rho2) : 4.0f / (4.0f - rho2 * omega);
      for (uint32_t i = 0; i < vertex_count(); ++i) {
        if (inv_mass_[i] == 0.0f) continue;
        for (int k = 0; k < 3; ++k) {
          const size_t j = 3 * size_t(i) + size_t(k);
          pos_[j] = omega * (pos_[j] - vbd_older_[j]) + vbd_older_[j];
        }
      }
    }
    vbd_older_.swap(vbd_old_);
  }
  // The acceleration may carry a vertex past a plane the sweep held it on.
  for (uint32_t i = 0; i < vertex_count(); ++i) {
    if (inv_mass_[i] == 0.0f) continue;
    float& y = pos_[3 * i + 1];
    y = std::min(std::max(y, m.floor_y), m.ceiling_y);
  }
  return sweeps;
}

// G at the substep's start x_n (prev_ relative to the sweeps' origin, on the planes: the plate may
// have come down past it), written into vbd_older_. Held vertices are where they are driven to.
double SoftBody::vbd_substep_start_potential(const VbdModel& m) {
  for (uint32_t i = 0; i < vertex_count(); ++i) {
    const size_t j = 3 * size_t(i);
    if (inv_mass_[i] == 0.0f) {
      for (int k = 0; k < 3; ++k) vbd_older_[j + k] = vbd_target_[j + k];
      continue;
    }
    for (int k = 0; k < 3; ++k) vbd_older_[j + k] = vbd_previous_[j + k];
    vbd_older_[j + 1] = std::min(std::max(vbd_older_[j + 1], m.floor_y), m.ceiling_y);
  }
  return vbd_incremental_potential(m, vbd_older_.data());
}

// The safe start, into pos_: the lowest point found on the segment from x_n (vbd_older_, G = g_start)
// to y on the planes: its ends, its middle and the minimum of the parabola through the three. Free
// fall's G is that parabola, with its minimum at y; x_n alone made the redo sluggish.
void SoftBody::vbd_safe_start(const VbdModel& m, double g_start) {
  for (uint32_t i = 0; i < vertex_count(); ++i) {
    const size_t j = 3 * size_t(i);
    for (int k = 0; k < 3; ++k) pos_[j + k] = vbd_target_[j + k];
    if (inv_mass_[i] != 0.0f) pos_[j + 1] = std::min(std::max(pos_[j + 1], m.floor_y), m.ceiling_y);
  }
  // G at x_n + a (y - x_n), written into vbd_old_; both ends are inside the planes, so all of it is.
  auto at = [&](float a) {
    for (size_t j = 0; j < pos_.size(); ++j) vbd_old_[j] = vbd_older_[j] + a * (pos_[j] - vbd_older_[j]);
    return vbd_incremental_potential(m, vbd_old_.data());
  };
  const double g0 = g_start, g1 = vbd_incremental_potential(m, pos_.data()), gh = at(0.5f);  // J
  float best = 1.0f;
  double lowest = g1;
  if (gh < lowest) best = 0.5f, lowest = gh;
  if (g0 < lowest) best = 0.0f, lowest = g0;
  const double a = 2.0 * (g1 - 2.0 * gh + g0), b = g1 - g0 - a;  // G ~ a s^2 + b s + g0
  if (a > 0.0) {
    const float s = float(std::min(1.0, std::max(0.0, -b / (2.0 * a))));
    if (s != 0.0f && s != 0.5f && s != 1.0f) {
      const double gs = at(s);
      if (gs < lowest) best = s, lowest = gs;
    }
  }
  if (best == 1.0f) return;
  if (best == 0.0f) {
    std::copy(vbd_older_.begin(), vbd_older_.end(), pos_.begin());
    return;
  }
  at(best);
  std::copy(vbd_old_.begin(), vbd_old_.end(), pos_.begin());  // not a swap: the renderer holds pos_'s buffer
}

}  // namespace sb
