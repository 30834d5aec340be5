// SoftBody's position-based substep (XPBD, PBD, VBD): prediction, the solve, contact inside it for
// the Neo-Hookean passes, velocities (soft_body.h).
#include "solver/soft_body.h"

#include <algorithm>
#include <cmath>

#include "solver/constraint_order.h"
#include "solver/worker_pool.h"
#include "solver/xpbd_constraints.h"
#include "solver/xpbd_partition.h"
#include "solver/xpbd_schedule.h"

namespace sb {

void SoftBody::pre_solve(float h, const float gravity[3], float damping_factor, float grab_t, bool ground) {
  float* x = pos_.data();
  float* p = prev_.data();
  const bool kinematic = !grab_set_.empty() && params_.grab_compliance == 0.0f;
  if (!grab_set_.empty()) grab_substep_target_ = grab_hand(grab_t, h);  // once per substep: the hand moves
  // Where the kinematic grab puts the held vertices, never into the ground.
  auto held_at = [&](size_t k) {
    Vec3 to = grab_substep_target_ + grab_offset_[k];
    if (ground && to.y < 0.0f) to.y = 0.0f;
    return to;
  };
  if (kinematic && solver_ == Solver::Vbd) {
    // VBD's energy limit counts what the hand gives: the body's energy with the held vertices
    // moved to where the hand puts them (at its speed) and the rest not yet, the reference its
    // step may not exceed (vbd_limit_energy). Without it a held body gained energy while the hand
    // stood still (a rubber rod held by one end after a 2 m jump: 4 kJ to 1e7 J in 4 s).
    for (size_t k = 0; k < grab_set_.size(); ++k) {
      const uint32_t g = grab_set_[k];
      if (pinned_[g]) continue;
      const Vec3 to = held_at(k);
      store3(grab_saved_.data(), uint32_t(2 * k), load3(x, g));
      store3(grab_saved_.data(), uint32_t(2 * k + 1), load3(vel_.data(), g));
      store3(vel_.data(), g, (to - load3(x, g)) * (1.0f / h));
      store3(x, g, to);
    }
    vbd_energy_start_ = mechanical_energy(gravity);
    for (size_t k = 0; k < grab_set_.size(); ++k) {
      const uint32_t g = grab_set_[k];
      if (pinned_[g]) continue;
      store3(x, g, load3(grab_saved_.data(), uint32_t(2 * k)));
      store3(vel_.data(), g, load3(grab_saved_.data(), uint32_t(2 * k + 1)));
    }
  }
  predict(0, vertex_count(), h, gravity, damping_factor);
  if (!kinematic) return;
  for (size_t k = 0; k < grab_set_.size(); ++k) {
    const uint32_t g = grab_set_[k];
    if (pinned_[g]) continue;  // pinned after the grab began: the pin wins
    store3(p, g, load3(x, g));
    store3(x, g, held_at(k));
  }
}

// Vertices [begin, end): v damped, v += g h; prev = x; x += v h.
// The damping acts on the velocity the last substep left, before gravity's increment: damped after
// it, a body at rest (v = 0 after every substep) would be predicted to fall only g h^2 e^(-damping h)
// per substep, and its constraints would balance that reduced weight: the settled stiff cantilever
// sat 1.6 % (10 substeps) and 0.4 % (40) too high at damping 10/s (test_xpbd_statics.cpp).
void SoftBody::predict(uint32_t begin, uint32_t end, float h, const float gravity[3], float damping_factor) {
  float* x = pos_.data();
  float* p = prev_.data();
  float* v = vel_.data();
  const float gx = gravity[0] * h, gy = gravity[1] * h, gz = gravity[2] * h;
  for (uint32_t i = begin; i < end; ++i) {
    p[3 * i] = x[3 * i];
    p[3 * i + 1] = x[3 * i + 1];
    p[3 * i + 2] = x[3 * i + 2];
    // A pinned (or held) vertex does not move in the substep, so prev is where it is: left at the
    // substep it was pinned in, x - prev was a phantom motion every dashpot pulled on for good.
    if (inv_mass_[i] == 0.0f) continue;
    v[3 * i] = v[3 * i] * damping_factor + gx;
    v[3 * i + 1] = v[3 * i + 1] * damping_factor + gy;
    v[3 * i + 2] = v[3 * i + 2] * damping_factor + gz;
    x[3 * i] += v[3 * i] * h;
    x[3 * i + 1] += v[3 * i + 1] * h;
    x[3 * i + 2] += v[3 * i + 2] * h;
  }
}

void SoftBody::solve_grab(float h, float grab_t) {
  if (params_.grab_compliance == 0.0f) return;  // kinematic: placed in pre_solve
  // Zero-length spring from each held vertex to its target, C = |x - target|: x moves by
  // w / (w + alpha~) of the gap.
  const float alpha_tilde = params_.grab_compliance / (h * h);
  const Vec3 target = grab_set_.empty() ? grab_target(grab_t) : grab_substep_target_;
  for (size_t k = 0; k < grab_set_.size(); ++k) {
    const uint32_t g = grab_set_[k];
    const float w = inv_mass_[g];
    const Vec3 x = load3(pos_.data(), g);
    store3(pos_.data(), g, x + (target + grab_offset_[k] - x) * (w / (w + alpha_tilde)));
  }
}

void SoftBody::post_solve(float h, bool ground, float rest_threshold) {
  update_velocities(0, vertex_count(), h, ground, rest_threshold);
  const float inv_h = 1.0f / h;
  if (params_.grab_compliance == 0.0f)
    for (uint32_t g : grab_set_) store3(vel_.data(), g, (load3(pos_.data(), g) - load3(prev_.data(), g)) * inv_h);  // the pointer's velocity
}

// Vertices [begin, end): the velocities from this substep's motion, with the ground's and the
// colliders' restitution.
void SoftBody::update_velocities(uint32_t begin, uint32_t end, float h, bool ground, float rest_threshold) {
  const float inv_h = 1.0f / h;
  const float* x = pos_.data();
  const float* p = prev_.data();
  float* v = vel_.data();
  const float floor_y = ground_y();
  for (uint32_t i = begin; i < end; ++i) {
    if (inv_mass_[i] == 0.0f) {
      v[3 * i] = v[3 * i + 1] = v[3 * i + 2] = 0.0f;
      continue;
    }
    const float pre_vy = v[3 * i + 1];  // normal velocity before this substep's corrections
    const Vec3 v_before = load3(v, i);
    // v = (x - prev) / h, written as v + (x - x_predicted) / h with x_predicted recomputed exactly as
    // pre_solve rounded it: the rounding of x (ulp(x) / h, large for small h) then never feeds back
    // into v, so free motion keeps its velocity exactly however many substeps there are.
    for (int k = 0; k < 3; ++k) {
      const float predicted = p[3 * i + k] + v[3 * i + k] * h;
      v[3 * i + k] += (x[3 * i + k] - predicted) * inv_h;
    }
    if (ground && x[3 * i + 1] <= floor_y) {
      // In contact (the ground projection put it at exactly 0). Restitution as in seed 000 and
      // Mueller et al. 2020 (sec. 3.6): reflect the approach speed, but rest below 2|g|h so gravity
      // alone does not make resting particles jitter.
      v[3 * i + 1] = pre_vy < -rest_threshold ? -params_.restitution * pre_vy : 0.0f;
    }
    if (contact_restitution_[i] >= 0.0f) {
      store3(v, i, restitution_velocity(load3(v, i), v_before, load3(contact_normal_.data(), i),
                                        load3(contact_surface_velocity_.data(), i), contact_restitution_[i],
                                        rest_threshold));
    }
  }
}

// The per-vertex passes of a substep fused into the XPBD job's copies (xpbd_schedule.h), run on
// each vertex range by whichever thread packs or unpacks it: each vertex gets the same operations
// in the same order as in the serial passes, so the bits do not change.
void SoftBody::fused_before(void* ctx, uint32_t, uint32_t begin, uint32_t end) {
  const VertexWork& w = *static_cast<const VertexWork*>(ctx);
  w.body->predict(begin, end, w.h, w.gravity, w.damping_factor);
}

void SoftBody::fused_after(void* ctx, uint32_t unit, uint32_t begin, uint32_t end) {
  const VertexWork& w = *static_cast<const VertexWork*>(ctx);
  SoftBody& b = *w.body;
  if (w.ground) {
    uint32_t touching = 0;
    b.unit_depth_[unit] = solve_ground(b.pos_.data() + 3 * size_t(begin), b.prev_.data() + 3 * size_t(begin),
                                       b.inv_mass_.data() + begin, end - begin, b.params_.friction, &touching, b.ground_y());
    b.unit_touching_[unit] = touching;
  }
  std::fill(b.contact_restitution_.begin() + begin, b.contact_restitution_.begin() + end, -1.0f);
  if (w.velocities) b.update_velocities(begin, end, w.h, w.ground, w.rest_threshold);
}

void SoftBody::position_based_substep(float h, const StepSettings& s, int sub) {
  position_based_begin(h, s, sub);
  position_based_passes(0, xpbd_budget());
  position_based_end();
}

// A substep in three parts, so a world can solve the contacts between bodies between the passes.
void SoftBody::position_based_begin(float h, const StepSettings& s, int sub) {
  PositionBasedSubstep& pb = pb_;
  pb.s = &s;
  pb.sub = sub;
  pb.h = h;
  pb.pbd = solver_ == Solver::Pbd;
  const bool pbd = pb.pbd;
  // PBD ignores compliance: hard constraints scaled by a per-iteration stiffness, so its effective
  // stiffness depends on the substep count. XPBD's alpha~ = alpha / h^2 removes that dependence.
  pb.edge_alpha = pbd ? 0.0f : params_.edge_compliance / (h * h);
  pb.volume_alpha = pbd ? 0.0f : params_.volume_compliance / (h * h);
  pb.scale = pbd ? params_.pbd_stiffness : 1.0f;
  pb.gamma = pbd ? 0.0f : params_.edge_compliance * params_.spring_damping / h;
  const float grab_t = float(sub + 1) / float(s.substeps);
  // Each frame's collider candidates, from the positions and velocities at its start.
  const Collider* colliders = pb.colliders = contact_colliders(s);  // cloth: grown by half its thickness
  if (sub == 0 && s.collider_count > 0)
    collider_candidates_.begin_frame(pos_.data(), vel_.data(), inv_mass_.data(), vertex_count(), colliders,
                                     s.collider_count, h * float(s.substeps), s.substeps);
  if (params_.pressure > 0.0f) apply_pressure(h);
  // The per-vertex passes run inside the XPBD job (on its threads) when nothing else touches the
  // vertices between them: no grab, press plate or collider, and (for the velocities) no contact
  // with other bodies between this and substep_finish.
  pb.fuse = solver_ != Solver::Vbd && (pbd || !neo_hookean()) && grab_set_.empty() && !plate_.active &&
            s.collider_count == 0 && !lra_active() && !aero_active();
  VertexWork& work = pb.work;
  work = VertexWork{};
  work.body = this;
  work.h = h;
  work.damping_factor = std::exp(-params_.damping * h);
  work.gravity = s.gravity;
  work.ground = s.ground;
  work.velocities = pb.fuse && stepping_alone_;
  work.rest_threshold = 2.0f * length(Vec3{s.gravity[0], s.gravity[1], s.gravity[2]}) * h;  // as substep_finish
  if (solver_ == Solver::Vbd) vbd_energy_start_ = mechanical_energy(s.gravity);
  if (aero_active()) {
    AeroSettings air;
    std::copy(s.wind, s.wind + 3, air.wind);
    air.air_density = s.air_density;
    air.drag = params_.drag_coefficient;
    air.lift = params_.lift_coefficient;
    apply_aerodynamics(air, pos_.data(), vel_.data(), inv_mass_.data(), vertex_count(), surface_.data(), surface_triangle_count(), h,
                       aero_dv_.data());
  }
  if (!pb.fuse) pre_solve(h, s.gravity, work.damping_factor, grab_t, s.ground);
  last_inv_h2_ = 1.0f / (h * h);
  pb.passes = 0;
  pb.reached = -1.0;
  pb.met = pb.finished = false;
}

int SoftBody::xpbd_budget() const {
  const bool target = solver_ == Solver::Xpbd && neo_hookean() && params_.stiffness_target > 0.0f;  // convergence.h
  return target ? params_.max_iterations : params_.iterations;
}

// Passes [first, first + count) of the substep (VBD: all its sweeps in the first call); none once
// its budget is spent or its stiffness target met.
void SoftBody::position_based_passes(int first, int count) {
  const PositionBasedSubstep& pb = pb_;
  const StepSettings& s = *pb.s;
  const float gravity = length(Vec3{s.gravity[0], s.gravity[1], s.gravity[2]});  // m/s^2
  if (solver_ == Solver::Vbd) {
    if (first == 0) vbd_solve(s.ground, gravity);
    return;
  }
  if (pb.finished) return;
  count = std::min(count, xpbd_budget() - first);
  if (count <= 0) return;
  xpbd_solve(pb.pbd, pb.edge_alpha, pb.volume_alpha, pb.scale, pb.gamma, pb.sub == s.substeps - 1, s.pool, s.split_min,
             pb.fuse ? &pb_.work : nullptr, s.ground, gravity, first, count);
}

void SoftBody::position_based_end() {
  const PositionBasedSubstep& pb = pb_;
  const StepSettings& s = *pb.s;
  const float h = pb.h;
  const int sub = pb.sub;
  const bool fuse = pb.fuse;
  const VertexWork& work = pb.work;
  const float grab_t = float(sub + 1) / float(s.substeps);
  const Collider* colliders = pb.colliders;
  // Regions of inverted tets back on their rest shape, ahead of the contacts (inverted_tets.h). When
  // the ground was fused into the passes, it is applied again to the vertices the repair moved.
  // Not while another body or a collider presses on this one, nor for kRepairFreeSubsteps after (a
  // resting contact comes and goes with the gap): in the page's pile, snapping the regions its
  // neighbours flatten back to their rest shape, against them, made bunnies tremble for good
  // (0.03-1.2 J after 10 s, where the pile rests under 5 mJ without; tests/bridge/scenes.test.mjs), and
  // left as many tets inverted. A body on the ground and under the press plate is repaired.
  if (solver_ == Solver::Xpbd && s.collider_count > 0 && !pressed_by_other_)
    for (uint32_t i = 0; i < vertex_count() && !pressed_by_other_; ++i) pressed_by_other_ = contact_restitution_[i] >= 0.0f;
  substeps_free_ = pressed_by_other_ ? 0 : std::min(substeps_free_ + 1, kRepairAnyFreeSubsteps);
  const float flagged = float(inverted_repair_.flagged());
  const bool tangled = solver_ == Solver::Xpbd && !neo_hookean() && params_.volume_compliance <= kRepairMaxVolumeCompliance &&
                       ((substeps_free_ >= kRepairFreeSubsteps && flagged >= std::max(1.0f, kRepairTangledFraction * float(tet_count()))) ||
                        (substeps_free_ >= kRepairAnyFreeSubsteps && flagged >= 1.0f));
  const bool repaired =
      tangled && inverted_repair_.repair(pos_.data(), rest_pos_.data(), mass_.data(), inv_mass_.data(), tet_ids_.data()) > 0;
  // The vertices of the tets left inverted (body contact's swept test leaves them to the nearest face:
  // body_contact_sweep.cpp). Last substep's marks first cleared.
  for (uint32_t i : in_inverted_list_) in_inverted_[i] = 0;
  in_inverted_list_.clear();
  if (!tangled && flagged > 0.0f) {
    const uint8_t* flags = inverted_repair_.flags();
    for (uint32_t t = 0; t < tet_count(); ++t) {
      if (!flags[t]) continue;
      for (int c = 0; c < 4; ++c) {
        const uint32_t i = tet_ids_[4 * size_t(t) + c];
        if (in_inverted_[i]) continue;
        in_inverted_[i] = 1;
        in_inverted_list_.push_back(i);
      }
    }
  }
  if (!tangled) inverted_repair_.forget();  // the flags the pass set, unused
  pressed_by_other_ = false;  // this substep's contacts say it again
  if (fuse) {
    velocities_done_ = work.velocities;
    if (!s.ground) return;
    if (repaired)
      for (uint32_t i : inverted_repair_.members()) pos_[3 * i + 1] = std::max(pos_[3 * i + 1], 0.0f);
    float depth = 0.0f;
    uint32_t touching = 0;
    for (size_t k = 0; k < unit_depth_.size(); ++k) depth = std::max(depth, unit_depth_[k]), touching += unit_touching_[k];
    add_contacts(touching, depth);
    return;
  }
  if (lra_active()) apply_long_range_attachments(lra_, params_.long_range_stretch, pos_.data());
  solve_grab(h, grab_t);
  if (s.ground) {
    uint32_t touching = 0;
    const float depth = solve_ground(pos_.data(), prev_.data(), inv_mass_.data(), vertex_count(), params_.friction, &touching, ground_y());
    add_contacts(touching, depth);
  }
  if (plate_.active) solve_plate(pos_.data(), inv_mass_.data(), vertex_count(), plate_.height);
  // Obstacles, each at its pose swept over this substep; what they touched gets their restitution
  // in post_solve.
  const float t0 = float(sub) / float(s.substeps);
  const float t1 = float(sub + 1) / float(s.substeps);
  std::fill(contact_restitution_.begin(), contact_restitution_.end(), -1.0f);
  if (s.collider_count > 0) {
    ContactRecord record;
    record.normal = contact_normal_.data();
    record.surface_velocity = contact_surface_velocity_.data();
    record.restitution = contact_restitution_.data();
    uint32_t touching = 0;
    for (uint32_t c = 0; c < s.collider_count; ++c) {
      touching += collider_candidates_.solve(c, pos_.data(), prev_.data(), inv_mass_.data(), vertex_count(), colliders[c],
                                             t0, t1, h, &record);
      // Spheres and capsules thinner than the particle spacing, between a triangle's vertices.
      solve_collider_faces(pos_.data(), prev_.data(), inv_mass_.data(), surface_.data(), surface_triangle_count(),
                           colliders[c], t0, t1, &record.max_depth);
    }
    add_contacts(touching, record.max_depth);
  }
}

// XPBD/PBD: `iterations` Gauss-Seidel passes over the constraints, multipliers summed over the passes.
void SoftBody::xpbd_solve(bool pbd, float edge_alpha, float volume_alpha, float scale, float gamma, bool last,
                          WorkerPool* pool, uint32_t split_min, VertexWork* work, bool ground, float gravity, int first,
                          int count) {
  // PBD has no compliance, so no material: its constraints are the simple model's, made hard.
  const bool nh = !pbd && neo_hookean();
  // With a stiffness target (Neo-Hookean only, convergence.h) passes run until it is met, at most
  // max_iterations; otherwise `iterations` of them.
  const bool target = nh && params_.stiffness_target > 0.0f;
  const int budget = xpbd_budget();
  // Of the substep's passes: this call runs [first, first + count), the first or the last of them.
  const bool begin = first == 0;
  bool end = first + count >= budget;
  // Multipliers are summed over several passes, and kept in the frame's last substep for the
  // residual; a single pass in any other substep needs none.
  const bool keep = budget > 1 || last;
  float* edge_lambda = keep ? edge_lambda_.data() : nullptr;
  float* volume_lambda = keep ? volume_lambda_.data() : nullptr;
  if (nh) {
    NeoHookeanPass pass = neo_hookean_pass();
    pass.lambda = keep ? tet_lambda_.data() : nullptr;
    const bool resync = budget > 1;  // keep positions and multipliers one rounding apart
    // The stiffness reached is measured after every pass with a target, else after the frame's last
    // substep's passes (for the report): it needs the prediction y, kept in nh_target_.
    const bool measure = target || last;
    // Spring damping: the edge dashpots after the blocks in each pass (only when c > 0: no cost, and
    // the same bits, otherwise). After, not interleaved: the block pass stays as it is, and the order
    // changes only how fast the passes converge, not to what.
    const bool dashpots = params_.spring_damping > 0.0f && edge_count() > 0;
    // Away from the world's origin the passes run on a copy relative to the body's middle
    // (pass_origin), put back as unpack_positions does, as the simple model's do: each block visit
    // rounds the positions to float, and in world coordinates those roundings were a drag on the
    // motion (a block spinning at 3 rad/s 4 m from the origin, 40 substeps, one pass, kept 91 % of its
    // spin in 1 s, 99 % at the origin), which the dashpots then damped too (c = 200 N s/m: 51 %).
    // (The same origin for every call of a substep: the target below is in its coordinates.)
    float* origin = pb_.nh_origin;
    if (begin) pass_origin(origin);
    const bool relative = origin[0] != 0.0f || origin[1] != 0.0f || origin[2] != 0.0f;
    if (begin) neo_hookean_planes_begin(ground, &pass, origin);
    else neo_hookean_planes_attach(ground, &pass, origin);
    if (relative) {
      for (size_t j = 0; j < pos_.size(); ++j) nh_relative_[j] = pos_[j] - origin[j % 3];
      pass.pos = nh_relative_.data();
    }
    if (begin) {
      if (resync || measure) std::copy(pass.pos, pass.pos + pos_.size(), nh_target_.begin());
      // Warm start (BodyParams::warm_start, under a target): the passes begin from the last substep's multipliers, scaled
      // to this h (Lambda = -h^2 V0 P), positions rebuilt from them, instead of from Lambda = 0 at the
      // prediction. Any multipliers with their positions rebuilt are a consistent start (the primal
      // equation holds), so only the speed changes. Not with the ground or the plate in the passes: their
      // impulses start from 0 each substep and the rebuilt positions would cross them.
      const bool warm = params_.warm_start && target && resync && !nh_planes_ && nh_warm_h2_ > 0.0f;
      if (warm) {
        const float ratio = (1.0f / last_inv_h2_) / nh_warm_h2_;
        if (ratio != 1.0f)
          for (float& l : tet_lambda_) l *= ratio;
        neo_hookean_positions(pass, nh_target_.data(), nh_sum_.data(), vertex_count());
      } else if (keep) {
        std::fill(tet_lambda_.begin(), tet_lambda_.end(), 0.0f);
      }
      // The frame the deformation is measured in (convergence.h), from the prediction: its rigid
      // motion changes little over the passes.
      if (measure) pb_.frame = deformation_frame(pass.pos, rest_pos_.data(), mass_.data(), inv_mass_.data(), vertex_count(), origin);
    } else if (resync) {
      // Split into calls (contact between bodies solved between them): what moved the positions
      // since the last call is kept in the target the passes rebuild them from.
      for (size_t j = 0; j < pos_.size(); ++j) nh_target_[j] += pos_[j] - nh_between_[j];
    }
    EdgeDashpotPass damp;
    if (dashpots) {
      damp.pos = pass.pos;
      damp.prev = prev_.data();
      damp.inv_mass = inv_mass_.data();
      damp.edges = edge_ids_.data();
      damp.edge_count = edge_count();
      damp.vertex_count = vertex_count();
      damp.x = dashpot_x_.data();
      const double h = std::sqrt(1.0 / double(last_inv_h2_));  // s
      damp.alpha_tilde = 1.0 / (double(params_.spring_damping) * h);  // (h / c) / h^2, 1/kg
      if (resync) {
        if (begin) {
          std::fill(edge_lambda_.begin(), edge_lambda_.end(), 0.0f);  // unused otherwise by a Neo-Hookean body
          std::fill(dashpot_moved_.begin(), dashpot_moved_.end(), 0.0);
        }
        damp.lambda = edge_lambda_.data();
        damp.moved = dashpot_moved_.data();
      }
    }
    for (int k = 0; k < count; ++k) {
      solve_neo_hookean_blocks(pass);
      if (dashpots) solve_edge_dashpots(damp);
      if (resync) neo_hookean_positions(pass, nh_target_.data(), nh_sum_.data(), vertex_count(), damp.moved);
      ++pb_.passes;
      if (target || (measure && first + k == budget - 1)) {
        // scratch_force_ is free here (the pressure used it before the prediction).
        ForceBalance balance;
        balance.frame = &pb_.frame;
        balance.rest = rest_pos_.data();
        neo_hookean_force_balance(&balance, neo_hookean_, pass.pos, nh_target_.data(), mass_.data(), inv_mass_.data(),
                                  nh_planes_ ? nh_plane_.data() : nullptr, vertex_count(), tet_ids_.data(),
                                  tet_inverse_rest_.data(), tet_energy_volume_.data(), tet_count(), last_inv_h2_,
                                  gravity, scratch_force_.data());
        pb_.reached = balance.stiffness_reached();
        if (target && pb_.reached >= params_.stiffness_target) {
          pb_.met = end = true;
          break;
        }
      }
    }
    if (end) {
      // Only a substep that met its target hands its multipliers on: warm starts after passes that
      // stop short ring (the cantilever at a fixed 4 passes, warm, still swung by 0.3 of its static
      // sag after 2 s, cold it rests).
      nh_warm_h2_ = pb_.met && resync ? 1.0f / last_inv_h2_ : 0.0f;
      count_passes(pb_.passes, pb_.reached, target, pb_.met);
      pb_.finished = true;
    }
    if (relative)
      for (size_t j = 0; j < pos_.size(); ++j) pos_[j] += nh_relative_[j] - (pos_[j] - origin[j % 3]);
    if (end) neo_hookean_planes_end();
    else if (resync) std::copy(pos_.begin(), pos_.end(), nh_between_.begin());
    return;
  }
  if (keep && begin) {
    std::fill(edge_lambda_.begin(), edge_lambda_.end(), 0.0f);
    std::fill(volume_lambda_.begin(), volume_lambda_.end(), 0.0f);
  }
  if (end) {
    count_passes(budget, -1.0, false, false);  // the simple model has no force measure here
    pb_.finished = true;
  }
  // The passes run on positions padded to xyzw with the inverse mass in w, copied in and out around
  // them (pos_ stays the public xyz buffer).
  XpbdPasses job;
  EdgePass& edges = job.edges;
  edges.xw = packed_.data();
  edges.prev = prev_.data();
  edges.ids = edge_ids_.data();
  edges.rest = edge_rest_.data();
  edges.count = edge_count();
  edges.alpha = edge_alpha;
  edges.gamma = gamma;
  edges.scale = scale;
  edges.lambda = edge_lambda;
  edges.stiffness = edge_stiffness_scale_.empty() ? nullptr : edge_stiffness_scale_.data();
  VolumePass& volumes = job.volumes;
  volumes.xw = packed_.data();
  volumes.ids = tet_ids_.data();
  volumes.rest6 = tet_rest6_.data();
  volumes.count = tet_count();
  volumes.alpha = volume_alpha;
  volumes.scale = scale;
  volumes.lambda = volume_lambda;
  volumes.stiffness = tet_stiffness_scale_.empty() ? nullptr : tet_stiffness_scale_.data();
  volumes.inverted = pbd ? nullptr : inverted_repair_.flags();  // XPBD: repaired after the passes
  pass_origin(job.origin);
  std::copy(job.origin, job.origin + 3, edges.origin);
  job.iterations = count;
  job.pos = pos_.data();
  job.inv_mass = inv_mass_.data();
  job.vertices = vertex_count();
  job.split_min = split_min;
  job.edge_plan = &edge_plan_;
  job.tet_plan = &tet_plan_;
  // Cloth bending (cloth_constraints.h): alpha~ = (A0 + A1) / (D h^2) per hinge; under PBD the
  // per-pass share of the full correction that alpha~ gives over the substep's passes.
  if (is_cloth() && params_.bending_stiffness > 0.0f && cloth_.hinge_count() > 0) {
    BendPass& bends = job.bends;
    bends.xw = packed_.data();
    bends.ids = cloth_.hinge_ids.data();
    bends.k = cloth_.hinge_k.data();
    bends.area = cloth_.hinge_area.data();
    bends.rest = cloth_.hinge_rest.empty() ? nullptr : cloth_.hinge_rest.data();
    bends.alpha_per_area = last_inv_h2_ / params_.bending_stiffness;
    if (keep && begin) std::fill(cloth_.hinge_lambda.begin(), cloth_.hinge_lambda.end(), 0.0f);
    bends.lambda = keep && !pbd ? cloth_.hinge_lambda.data() : nullptr;
    bends.pbd_passes = pbd ? budget : 0;
    bends.scale = scale;
    job.bend_plan = &cloth_.bend_plan;
  }
  job.vertex_bounds = copy_bounds_.data();
  job.vertex_ranges = uint32_t(copy_bounds_.size()) - 1;
  job.copies_per_group = vertex_bounds_.size() > 2;
  if (work) {  // (split into calls: the prediction in the first, the ground and velocities in the last)
    job.before = begin ? fused_before : nullptr;
    job.after = end ? fused_after : nullptr;
    job.vertex_ctx = work;
  }
  // A body with one unit per phase and its colours below the split size gains nothing from the team.
  run_xpbd_passes(job, most_units_ > 1 || largest_split_ >= split_min ? pool : nullptr);
}

// The ground and the press plate inside the Neo-Hookean passes (issue 25): solved after them, the
// planes undid part of each substep's correction and the layers touching them stayed crushed (a block
// pressed to 65 % at nu = 0.49 lost 2-3.5 % of its volume at 10 substeps). Vertices the prediction
// carried onto or through a plane are put on it; the passes hold them there along y while the tets
// push them into it (neo_hookean_xpbd.h). Static friction is inside too: a vertex that stuck in the
// last substep stays where it was, on every axis, unless the tets pull it up; released after the
// passes (and left free for the next substep) when what held it exceeds mu times the normal push.
// With friction after the passes instead, the base slid out under the Poisson push each substep and
// was put back, and a standing block sagged ~5 % more than the static solver with its base held.
void SoftBody::neo_hookean_planes_begin(bool ground, NeoHookeanPass* pass, const float origin[3]) {
  nh_planes_ = ground || plate_.active;
  if (!nh_planes_) {
    std::fill(nh_stuck_.begin(), nh_stuck_.end(), 0);
    return;
  }
  const float floor_y = ground ? 0.0f : -INFINITY, ceiling_y = plate_.active ? plate_.height : INFINITY;  // m
  for (uint32_t i = 0; i < vertex_count(); ++i) {
    float* x = &pos_[3 * i];
    int8_t side = 0;
    float push = 0.0f, tx = 0.0f, tz = 0.0f;
    if (inv_mass_[i] != 0.0f && x[1] <= floor_y) {
      push = floor_y - x[1], x[1] = floor_y, side = 1;
      if (nh_stuck_[i]) {  // back where it stuck: the friction's impulse so far
        tx = (prev_[3 * i] - x[0]) * mass_[i], tz = (prev_[3 * i + 2] - x[2]) * mass_[i];
        x[0] = prev_[3 * i], x[2] = prev_[3 * i + 2], side = 2;
      }
    } else if (inv_mass_[i] != 0.0f && x[1] >= ceiling_y) {
      x[1] = ceiling_y;
    }
    nh_plane_[i] = side;
    nh_plane_push_[i] = push;
    nh_plane_impulse_[i] = 0.0f;
    nh_plane_tangent_[2 * i] = tx;
    nh_plane_tangent_[2 * i + 1] = tz;
  }
  neo_hookean_planes_attach(ground, pass, origin);
}

// The planes' state planes_begin set up, handed to a pass of the same substep.
void SoftBody::neo_hookean_planes_attach(bool ground, NeoHookeanPass* pass, const float origin[3]) {
  if (!nh_planes_) return;
  const float floor_y = ground ? 0.0f : -INFINITY, ceiling_y = plate_.active ? plate_.height : INFINITY;  // m
  pass->plane = nh_plane_.data();
  pass->plane_impulse = nh_plane_impulse_.data();
  pass->plane_tangent = nh_plane_tangent_.data();
  pass->plane_push = nh_plane_push_.data();
  // In the passes' coordinates, rounded as the positions' copy is (pos - origin), so a vertex on a
  // plane is exactly on it there too.
  pass->floor_y = ground ? floor_y - origin[1] : -INFINITY;
  pass->ceiling_y = plate_.active ? ceiling_y - origin[1] : INFINITY;
}

// Friction of the vertices the passes kept on the ground, from the normal push the ground gave them
// in this substep (the clamp onto it plus the impulses it held, over the mass, m): a stuck one stays
// stuck while what held it is within the cone; a sliding one slides on, or sticks from the next
// substep when the cone holds it.
void SoftBody::neo_hookean_planes_end() {
  constexpr float kOnPlane = 1e-6f;  // m
  if (!nh_planes_) return;
  uint32_t touching = 0;
  float deepest = 0.0f;
  for (uint32_t i = 0; i < vertex_count(); ++i) {
    float* x = &pos_[3 * i];
    // With several passes the positions are rebuilt from the multipliers (neo_hookean_positions),
    // which puts a held vertex back on the ground only to rounding: within a micrometre is on it.
    const bool on_ground = nh_plane_[i] > 0 && x[1] <= kOnPlane;
    uint8_t stuck = 0;
    if (on_ground) {
      x[1] = 0.0f;
      const float w = inv_mass_[i];
      const float push = nh_plane_push_[i] + nh_plane_impulse_[i] * w;  // m
      const float limit = params_.friction * push;  // m
      ++touching;
      deepest = std::max(deepest, nh_plane_push_[i]);
      if (nh_plane_[i] == 2) {
        const float held = w * std::hypot(nh_plane_tangent_[2 * i], nh_plane_tangent_[2 * i + 1]);  // m
        stuck = held <= limit;
      } else if (push > 0.0f) {
        const float dx = x[0] - prev_[3 * i], dz = x[2] - prev_[3 * i + 2];
        stuck = dx * dx + dz * dz <= limit * limit;
        ground_friction(x, &prev_[3 * i], limit);
      }
    }
    nh_stuck_[i] = stuck;
  }
  add_contacts(touching, deepest);
}

// The passes' origin (pack_positions), per axis: the body's middle where it is now (its vertex
// nearest the middle plus the rest offset), or the world's origin while that is within half the
// body's extent of it (world coordinates are then as fine as body ones: the oscillator of
// test_integrators.cpp moves about 0). Read before the XPBD job (the fused prediction moves the
// vertex inside it); a vertex written non-finite through the shared buffer leaves the world's origin.
void SoftBody::pass_origin(float origin[3]) const {
  for (int k = 0; k < 3; ++k) origin[k] = 0.0f;
  if (vertex_count() == 0) return;
  const float* at = pos_.data() + 3 * size_t(origin_vertex_);
  for (int k = 0; k < 3; ++k) {
    const float middle = at[k] + origin_offset_[k];
    if (std::isfinite(middle) && std::fabs(middle) > half_extent_[k]) origin[k] = middle;
  }
}

// The Neo-Hookean XPBD pass over this body's tets at the last substep's h (multipliers not set).
NeoHookeanPass SoftBody::neo_hookean_pass() const {
  NeoHookeanPass p;
  p.pos = const_cast<float*>(pos_.data());
  p.inv_mass = inv_mass_.data();
  p.tets = tet_ids_.data();
  p.B = tet_inverse_rest_.data();
  p.rest_volume = tet_energy_volume_.data();
  p.tet_count = tet_count();
  p.material = neo_hookean_;
  p.h2 = 1.0f / last_inv_h2_;
  return p;
}

double SoftBody::mechanical_energy(const float gravity[3]) const {
  double e = elastic_energy(force_model(gravity), pos_.data());
  for (uint32_t i = 0; i < vertex_count(); ++i) {
    const double m = mass_[i];
    for (int k = 0; k < 3; ++k) e += m * (0.5 * double(vel_[3 * i + k]) * vel_[3 * i + k] - double(gravity[k]) * pos_[3 * i + k]);
  }
  return e;
}

// A VBD substep with nothing driving the body (no collider or other body in contact; the ground
// and pins do no work, and the press plate only rises, so the body works on it) ends with at most
// the energy it began with, and one held by a kinematic grab with at most the energy it had with the
// held vertices moved by the hand (pre_solve): implicit
// Euler's step only dissipates, and what unconverged sweeps add is taken out of the motion relative
// to the centre of mass (vbd_remove_kinetic_energy). So no sweep count can make a body gain energy
// of its own, and a body's energy is bounded by what was put in.
void SoftBody::vbd_limit_energy(const float gravity[3]) {
  // A kinematic grab's energy is in the reference (pre_solve); a compliant one acts after the sweeps.
  if ((!grab_set_.empty() && params_.grab_compliance != 0.0f) || pressed_by_other_) return;
  for (uint32_t i = 0; i < vertex_count(); ++i)
    if (contact_restitution_[i] >= 0.0f) return;
  const double excess = mechanical_energy(gravity) - vbd_energy_start_;
  bool pinned = false;
  for (uint32_t i = 0; i < vertex_count() && !pinned; ++i) pinned = pinned_[i] != 0;
  vbd_remove_kinetic_energy(mass_.data(), inv_mass_.data(), vertex_count(), excess, vel_.data(), pinned);
}

// Gas pressure is not a constraint: XPBD applies it as an external force, v += h f / m, before the
// prediction (Mueller's "pressure" of balloons is a volume constraint instead; a force keeps the model
// identical to the force-based integrators').
void SoftBody::apply_pressure(float h) {
  const float none[3] = {0, 0, 0};
  const ForceModel m = force_model(none);
  std::fill(scratch_force_.begin(), scratch_force_.end(), 0.0f);
  add_pressure_forces(m, pos_.data(), scratch_force_.data());
  for (uint32_t i = 0; i < vertex_count(); ++i)
    for (int k = 0; k < 3; ++k) vel_[3 * i + k] += h * inv_mass_[i] * scratch_force_[3 * i + k];
}

}  // namespace sb
