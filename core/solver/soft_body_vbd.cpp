// VBD's first guess (SoftBody::vbd_solve). The sweeps only descend G (vbd.h), so they end at most at
// G of the point they start from. The inertial target y, the usual start, is exact for free fall but
// can sit high on G: a stiff body held by pins or resting on the ground is predicted to sag h^2 g
// everywhere but at its supports, and a short sweep leaves that stored energy in the step (the 10 MPa
// cantilever at one sweep crept to five times its static sag). The substep's start x_n is feasible,
// and G(x_n) is the kinetic energy of the predicted motion plus E(x_n) up to a constant, so a start
// no higher than G(x_n) bounds the step's potential energy by the energy the substep began with.
// Starting at x_n itself makes a short sweep sluggish (the cantilever at one sweep had sagged 4 mm
// of its 89 at 1.5 s), so the start is the lowest point found on the segment from x_n to y: its ends,
// its middle and the minimum of the parabola through the three (3-4 evaluations of G, each about an
// eighth of a sweep pair). Free fall's G is that parabola, with its minimum at y. Taking y whenever
// G(y) <= G(x_n) (2 evaluations) left a 10 x 1 x 1 cantilever at 1 sweep at 71 mm against implicit
// Euler's 43.2; the lowest point on the segment settles it at 43.3 (test_vbd.cpp).
#include <algorithm>

#include "solver/soft_body.h"

namespace sb {

void SoftBody::vbd_first_guess(const VbdModel& m) {
  ++vbd_stats_.substeps;
  const uint32_t n = vertex_count();
  // y on the planes first: a start inside the ground is not a point G is defined on.
  for (uint32_t i = 0; i < n; ++i) {
    if (inv_mass_[i] == 0.0f) continue;
    float& y = pos_[3 * i + 1];
    y = std::min(std::max(y, m.floor_y), m.ceiling_y);
  }
  // x_n: prev_ relative to the sweeps' origin (vbd_previous_), on the planes too (the plate may have
  // come down past it). Held vertices stay where they are driven to, on the whole segment.
  for (uint32_t i = 0; i < n; ++i)
    for (int k = 0; k < 3; ++k) {
      const size_t j = 3 * size_t(i) + size_t(k);
      vbd_older_[j] = inv_mass_[i] == 0.0f ? pos_[j] : vbd_previous_[j];
      if (k == 1 && inv_mass_[i] != 0.0f) vbd_older_[j] = std::min(std::max(vbd_older_[j], m.floor_y), m.ceiling_y);
    }
  // G at x_n + a (y - x_n), written into vbd_old_; both ends are inside the planes, so all of it is.
  auto at = [&](float a) {
    for (size_t j = 0; j < pos_.size(); ++j) vbd_old_[j] = vbd_older_[j] + a * (pos_[j] - vbd_older_[j]);
    return vbd_incremental_potential(m, vbd_old_.data());
  };
  const double g0 = at(0.0f), g1 = vbd_incremental_potential(m, pos_.data()), gh = at(0.5f);  // J
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
  at(best);
  std::copy(vbd_old_.begin(), vbd_old_.end(), pos_.begin());  // not a swap: the renderer holds pos_'s buffer
  ++vbd_stats_.from_start;
}

}  // namespace sb
