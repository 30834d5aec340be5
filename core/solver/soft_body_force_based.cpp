// SoftBody's force-based substep (the integrators of the comparison view) and how it holds
// particles on the ground and the press plate (soft_body.h).
#include "solver/soft_body.h"

#include <algorithm>
#include <cmath>

#include "solver/constraint_order.h"
#include "solver/worker_pool.h"
#include "solver/xpbd_constraints.h"
#include "solver/xpbd_partition.h"
#include "solver/xpbd_schedule.h"

namespace sb {

// Coulomb friction at velocity level on the ground: the sliding velocity v (x and z, m/s) loses up to
// dv (m/s: friction x the normal velocity change the ground made), stopping at 0.
static void brake_sliding(float* v, float dv) {
  const float vt = std::sqrt(v[0] * v[0] + v[2] * v[2]);
  if (!(vt > 0.0f)) return;
  const float keep = std::max(0.0f, 1.0f - dv / vt);
  v[0] *= keep;
  v[2] *= keep;
}

void SoftBody::force_based_substep(float h, const StepSettings& s, int sub) {
  const ForceModel m = force_model(s.gravity);
  float* x = pos_.data();
  float* v = vel_.data();
  if (aero_active()) {  // cloth in the air: its velocity change over the substep, ahead of the forces
    AeroSettings air;
    std::copy(s.wind, s.wind + 3, air.wind);
    air.air_density = s.air_density;
    air.drag = params_.drag_coefficient;
    air.lift = params_.lift_coefficient;
    apply_aerodynamics(air, x, v, inv_mass_.data(), vertex_count(), surface_.data(), surface_triangle_count(), h,
                       aero_dv_.data());
  }
  switch (solver_) {
    case Solver::ExplicitEuler: explicit_euler(m, x, v, h, scratch_); break;
    case Solver::SemiImplicitEuler: semi_implicit_euler(m, x, v, h, scratch_); break;
    case Solver::Verlet: position_verlet(m, x, v, h, scratch_); break;
    case Solver::Midpoint: midpoint(m, x, v, h, scratch_); break;
    case Solver::Heun: heun(m, x, v, h, scratch_); break;
    case Solver::Rk4: rk4(m, x, v, h, scratch_); break;
    case Solver::ImplicitEuler:
      hold_on_planes(h, s.ground);
      last_cg_ = implicit_euler(m, x, v, h, scratch_);
      hold_friction();
      break;
    default: break;
  }
  const uint32_t n = vertex_count();
  const float air = std::exp(-params_.damping * h);
  const float g = length(Vec3{s.gravity[0], s.gravity[1], s.gravity[2]});
  const float floor = ground_y();  // m
  for (uint32_t i = 0; i < n; ++i) {
    if (inv_mass_[i] == 0.0f) continue;
    for (int k = 0; k < 3; ++k) v[3 * i + k] *= air;
    if (!s.ground || x[3 * i + 1] >= floor) continue;
    // Ground contact at velocity level: project onto the floor (y = 0; cloth half its thickness up),
    // reflect the approach speed by the restitution (resting below 2|g|h, as in the XPBD loop), and
    // let Coulomb friction remove up to friction * (normal velocity change) of the sliding velocity.
    x[3 * i + 1] = floor;
    const float vn = v[3 * i + 1];
    if (vn >= 0.0f) continue;
    const float after = vn < -2.0f * g * h ? -params_.restitution * vn : 0.0f;
    v[3 * i + 1] = after;
    brake_sliding(v + 3 * i, params_.friction * (after - vn));
  }
  // The press plate, like the ground at velocity level but inelastic and frictionless: project onto
  // the plate and keep no upward speed beyond the plate's own (the XPBD loop gets the same from
  // v = (x - prev) / h after its position projection).
  if (plate_.active) {
    for (uint32_t i = 0; i < n; ++i) {
      if (inv_mass_[i] == 0.0f || x[3 * i + 1] <= plate_.height) continue;
      x[3 * i + 1] = plate_.height;
      v[3 * i + 1] = std::min(v[3 * i + 1], plate_.speed);
    }
  }
  // Obstacles at velocity level, the same rule as the ground: out along the normal, no approach
  // speed relative to the (moving) surface, Coulomb friction on the relative sliding velocity.
  const Collider* colliders = contact_colliders(s);  // cloth: grown by half its thickness
  for (uint32_t c = 0; c < s.collider_count; ++c)
    collide_velocity_level(x, v, inv_mass_.data(), n, colliders[c], float(sub) / float(s.substeps),
                           float(sub + 1) / float(s.substeps), h, 2.0f * g * h);
  // Grabbed particles are kinematic here: they jump to the pointer's path with its velocity.
  const Vec3 target = grab_target(float(sub + 1) / float(s.substeps));
  for (size_t k = 0; k < grab_set_.size(); ++k) {
    const uint32_t i = grab_set_[k];
    if (pinned_[i]) continue;
    Vec3 to = target + grab_offset_[k];
    if (s.ground && to.y < floor) to.y = floor;
    store3(v, i, (to - load3(x, i)) * (1.0f / h));
    store3(x, i, to);
  }
}

// Implicit Euler's contact inside the solve (integrators.h): a particle resting on the ground (at or
// below it and not moving up) has its y velocity held at 0 through the solve, one under the press plate
// (at or above where the plate was, not falling away from it faster than it rises) at the plate's
// speed; unless the plane had to pull it in the last substep (a negative impulse: it is leaving).
void SoftBody::hold_on_planes(float h, bool ground) {
  IntegratorScratch& s = scratch_;
  const float plate_before = plate_.height - plate_.speed * h;  // m, where the last substep left the plate
  for (uint32_t i = 0; i < vertex_count(); ++i) {
    const float y = pos_[3 * i + 1], vy = vel_[3 * i + 1];
    const bool was_held = s.hold_y[i] != 0;
    s.hold_y[i] = 0;
    if (inv_mass_[i] == 0.0f) continue;
    if (ground && y <= ground_y() && vy <= 0.0f && !(was_held && s.hold_impulse[i] < 0.0f)) {
      s.hold_y[i] = 1;
      s.hold_vy[i] = 0.0f;
    } else if (plate_.active && y >= plate_before && vy >= plate_.speed && !(was_held && s.hold_impulse[i] > 0.0f)) {
      s.hold_y[i] = 1;
      s.hold_vy[i] = plate_.speed;
    }
  }
}

// Coulomb friction of the particles the ground held: the sliding velocity loses up to friction x the
// ground's impulse over the mass (the press plate is frictionless).
void SoftBody::hold_friction() {
  const IntegratorScratch& s = scratch_;
  float* v = vel_.data();
  for (uint32_t i = 0; i < vertex_count(); ++i) {
    if (!s.hold_y[i] || !(s.hold_impulse[i] > 0.0f) || s.hold_vy[i] != 0.0f) continue;
    brake_sliding(v + 3 * i, params_.friction * s.hold_impulse[i] * inv_mass_[i]);
  }
}

}  // namespace sb
