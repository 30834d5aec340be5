#include "solver/soft_body.h"
#include "solver/strain_smoothing.h"

#include <algorithm>
#include <cmath>

#include "solver/constraint_order.h"
#include "solver/worker_pool.h"
#include "solver/xpbd_constraints.h"
#include "solver/xpbd_partition.h"
#include "solver/xpbd_schedule.h"

namespace sb {

template <typename T>
static std::vector<T> permute(const std::vector<T>& src, const std::vector<uint32_t>& order, int arity) {
  std::vector<T> out(src.size());
  for (size_t i = 0; i < order.size(); ++i)
    for (int k = 0; k < arity; ++k) out[arity * i + k] = src[size_t(arity) * order[i] + k];
  return out;
}

// Where XPBD's passes put their origin (pack_positions): the middle of the rest shape's bounding box
// is remembered as an offset from the vertex nearest it, which is followed as the body moves.
static void pass_origin_frame(const float* xyz, uint32_t count, uint32_t* vertex, float offset[3], float half_extent[3]) {
  Vec3 low = {INFINITY, INFINITY, INFINITY}, high = {-INFINITY, -INFINITY, -INFINITY};
  for (uint32_t i = 0; i < count; ++i) {
    const Vec3 p = load3(xyz, i);
    low = {std::min(low.x, p.x), std::min(low.y, p.y), std::min(low.z, p.z)};
    high = {std::max(high.x, p.x), std::max(high.y, p.y), std::max(high.z, p.z)};
  }
  const Vec3 middle = (low + high) * 0.5f, half = (high - low) * 0.5f;
  float best_d = INFINITY;
  for (uint32_t i = 0; i < count; ++i) {
    const float d = length_sq(load3(xyz, i) - middle);
    if (d < best_d) best_d = d, *vertex = i;
  }
  if (count == 0) return;
  const Vec3 to_middle = middle - load3(xyz, *vertex);
  offset[0] = to_middle.x, offset[1] = to_middle.y, offset[2] = to_middle.z;
  half_extent[0] = half.x, half_extent[1] = half.y, half_extent[2] = half.z;
}

SoftBody::SoftBody(const TetMesh& mesh, const BodyParams& params, uint32_t group_min_vertices) : params_(params) {
  const uint32_t n = uint32_t(mesh.positions.size() / 3);
  const uint32_t tet_count = uint32_t(mesh.tets.size() / 4);
  pos_ = mesh.positions;
  prev_ = pos_;
  rest_pos_ = pos_;
  last_good_pos_ = pos_;
  vel_.assign(pos_.size(), 0.0f);
  scratch_force_.assign(pos_.size(), 0.0f);
  contact_normal_.assign(pos_.size(), 0.0f);
  contact_surface_velocity_.assign(pos_.size(), 0.0f);
  contact_restitution_.assign(pos_.size() / 3, -1.0f);
  inv_mass_.assign(n, 0.0f);
  packed_.assign(4 * size_t(n), 0.0f);
  group_min_vertices_ = group_min_vertices;
  creation_vertices_ = n;
  pass_origin_frame(pos_.data(), n, &origin_vertex_, origin_offset_, half_extent_);
  rest_diagonal_ = 2.0f * length(Vec3{half_extent_[0], half_extent_[1], half_extent_[2]});
  mass_.assign(n, 0.0f);
  pinned_.assign(n, 0);
  grabbed_.assign(n, 0);
  vertex_mass_scale_.assign(n, 1.0f);
  vertex_stiffness_scale_.assign(n, 1.0f);

  std::vector<uint32_t> edges = unique_edges(mesh.tets.data(), tet_count);
  edges.insert(edges.end(), mesh.springs.begin(), mesh.springs.end());
  const uint32_t edge_count = uint32_t(edges.size() / 2);
  plan_solve_order(edges, mesh.tets, group_min_vertices);
  tet_ids_ = permute(mesh.tets, tet_plan_.order, 4);
  inverted_repair_.resize(n, tet_count);
  in_inverted_.assign(n, 0);
  sweep_streak_.assign(n, 0);
  in_inverted_list_.clear();
  in_inverted_list_.reserve(n);
  tet_rest6_.resize(tet_count);
  tet_energy_volume_.resize(tet_count);
  for (uint32_t t = 0; t < tet_count; ++t) {
    const double volume6 = tet_volume6(pos_.data(), &tet_ids_[4 * t]);
    tet_rest6_[t] = float(volume6);
    tet_energy_volume_[t] = float(volume6 / 6.0);
    rest_volume_ += tet_rest6_[t] / 6.0;
  }
  volume_lambda_.assign(tet_count, 0.0f);
  neo_hookean_ = neo_hookean_from(params_.youngs_modulus, params_.poisson_ratio);

  point_volume_ = mesh.point_volumes;
  point_volume_.resize(n, 0.0f);
  edge_ids_ = permute(edges, edge_plan_.order, 2);
  std::vector<uint32_t>().swap(edges);  // before the surface's scratch below: 8 B per edge off the peak
  std::vector<uint32_t>().swap(edge_plan_.order);
  std::vector<uint32_t>().swap(tet_plan_.order);
  edge_rest_.resize(edge_count);
  edge_lambda_.assign(edge_count, 0.0f);
  shape_rest_data();
  if (params_.strain_smoothing > 0.0f) smoothing_work_.assign(kSmoothingWork * size_t(n), std::nan(""));

  surface_ = mesh.surface.empty() ? boundary_triangles(mesh.tets.data(), tet_count) : mesh.surface;
  // Bodies without tets measure their volume through the closed surface (ropes have neither).
  if (tet_count == 0) rest_volume_ = enclosed_volume(pos_.data(), surface_.data(), surface_triangle_count());
  surface_vertices_ = surface_;
  std::sort(surface_vertices_.begin(), surface_vertices_.end());
  surface_vertices_.erase(std::unique(surface_vertices_.begin(), surface_vertices_.end()), surface_vertices_.end());
  compute_masses();
  if (params_.plastic_creep > 0.0f && tet_count > 0) {
    ensure_inverse_rest();  // plastic flow moves the rest shapes B too
    plastic_ = make_plastic_state(rest_pos_.data(), tet_ids_.data(), tet_count, edge_ids_.data(), edge_count);
  }
}

// The XPBD solve order (xpbd_partition.h): vertex groups, each kind's units and phases, and the
// vertex ranges of the xyzw copies (the groups, or blocks of 4096 for a body of one group).
void SoftBody::plan_solve_order(const std::vector<uint32_t>& edges, const std::vector<uint32_t>& tets,
                                uint32_t group_min_vertices) {
  const uint32_t n = uint32_t(pos_.size() / 3);
  const uint32_t edge_count = uint32_t(edges.size() / 2), tet_count = uint32_t(tets.size() / 4);
  vertex_bounds_ = choose_vertex_groups(edges.data(), edge_count, tets.data(), tet_count, n, group_min_vertices);
  edge_plan_ = plan_constraints(edges.data(), edge_count, 2, n, vertex_bounds_);
  tet_plan_ = plan_constraints(tets.data(), tet_count, 4, n, vertex_bounds_);
  if (vertex_bounds_.size() > 2) {
    copy_bounds_ = vertex_bounds_;
  } else {
    // Blocks of 4096 vertices, at most 64 (a thread's lane holds at most 255 units, worker_pool.h).
    const uint32_t blocks = std::clamp(n / 4096u, 1u, 64u);
    for (uint32_t b = 0; b <= blocks; ++b) copy_bounds_.push_back(uint32_t(uint64_t(n) * b / blocks));
  }
  most_units_ = uint32_t(copy_bounds_.size()) - 1;
  unit_depth_.assign(most_units_, 0.0f);
  unit_touching_.assign(most_units_, 0);
  for (const PassPlan* plan : {&edge_plan_, &tet_plan_})
    for (uint32_t p = 0; p < plan->phases(); ++p) {
      most_units_ = std::max(most_units_, plan->phase_starts[p + 1] - plan->phase_starts[p]);
      if (plan->splittable(p)) {
        const PassUnit& u = plan->units[plan->phase_starts[p]];
        largest_split_ = std::max(largest_split_, u.end - u.begin);
      }
    }
}

void SoftBody::compute_masses() {
  for (size_t i = 0; i < mass_.size(); ++i)
    mass_[i] = is_cloth() ? params_.areal_density * cloth_.vertex_area[i] : params_.density * point_volume_[i];
  for (size_t t = 0; t < tet_rest6_.size(); ++t) {
    const float quarter = params_.density * tet_rest6_[t] / 6.0f / 4.0f;  // kg
    for (int k = 0; k < 4; ++k) mass_[tet_ids_[4 * t + k]] += quarter;
  }
  for (size_t i = 0; i < mass_.size(); ++i) {
    mass_[i] *= vertex_mass_scale_[i];  // vertex groups
    // Force-based solvers hold grabbed particles kinematically whatever the grab compliance.
    const bool kinematic = grabbed_[i] && (params_.grab_compliance == 0.0f || is_force_based(solver_));
    inv_mass_[i] = (pinned_[i] || kinematic) ? 0.0f : 1.0f / mass_[i];
  }
  update_stiffness_number();
}

// Kept current wherever masses, the material or the rest shapes change, so a check per step is O(1).
// Also sizes the Neo-Hookean XPBD scratch (outside the step loop).
void SoftBody::update_stiffness_number() {
  if (neo_hookean()) ensure_inverse_rest();
  if (params_.material == Material::NeoHookean && tet_count() > 0 && nh_target_.size() != pos_.size()) {
    nh_target_.assign(pos_.size(), 0.0f);
    nh_sum_.assign(pos_.size(), 0.0);
  }
  if (params_.material == Material::NeoHookean && tet_count() > 0 && nh_relative_.size() != pos_.size())
    nh_relative_.assign(pos_.size(), 0.0f);
  if (params_.material == Material::NeoHookean && tet_count() > 0 && nh_between_.size() != pos_.size())
    nh_between_.assign(pos_.size(), 0.0f);
  if (params_.material == Material::NeoHookean && tet_count() > 0 && nh_plane_.size() != vertex_count()) {
    nh_plane_.assign(vertex_count(), 0);
    nh_stuck_.assign(vertex_count(), 0);
    nh_plane_push_.assign(vertex_count(), 0.0f);
    nh_plane_impulse_.assign(vertex_count(), 0.0f);
    nh_plane_tangent_.assign(2 * size_t(vertex_count()), 0.0f);
  }
  // Its multipliers, 9 per tet (36 bytes: a quarter of a large body's memory), only when it is used.
  if (neo_hookean() && tet_lambda_.size() < 9 * size_t(tet_count())) tet_lambda_.assign(9 * size_t(tet_count()), 0.0f);
  if (params_.material == Material::NeoHookean && params_.spring_damping > 0.0f && tet_count() > 0 &&
      dashpot_moved_.size() != pos_.size()) {
    dashpot_moved_.assign(pos_.size(), 0.0);
    dashpot_x_.assign(pos_.size(), 0.0);
  }
  stiffness_per_h2_ = params_.material == Material::NeoHookean && tet_count() > 0
                          ? neo_hookean_stiffness_per_h2(neo_hookean_, inv_mass_.data(), tet_ids_.data(),
                                                         tet_inverse_rest_.data(), tet_energy_volume_.data(), tet_count())
                          : 0.0;
}

const ParallelBatches& SoftBody::parallel_batches(int kind) {
  ParallelBatches& b = kind == 0 ? edge_batches_ : tet_batches_;
  if (b.starts.empty())
    b = kind == 0 ? level_batches(edge_ids_.data(), edge_count(), 2, vertex_count())
                  : level_batches(tet_ids_.data(), tet_count(), 4, vertex_count());
  return b;
}

int32_t SoftBody::xpbd_min_substeps(float dt) const {
  if (!(stiffness_per_h2_ > 0.0)) return 1;
  // S = stiffness_per_h2 (dt / n)^2 <= limit  <=>  n >= dt sqrt(stiffness_per_h2 / limit); capped so
  // absurd stiffness (E = 1e12 Pa on micrometre tets) still converts to an int.
  const double n = std::ceil(double(dt) * std::sqrt(stiffness_per_h2_ / kXpbdNeoHookeanMaxStiffness) * (1.0 + 1e-9));
  return int32_t(std::min(n, 1e9));
}

// Force-based solvers integrate forces k = 1/compliance: the simple model needs both compliances > 0
// (a Neo-Hookean body's tets are always finitely stiff; its edges carry no springs).
static bool has_force_form(const BodyParams& p, uint32_t tets) {
  if (p.material == Material::NeoHookean && tets > 0) return true;
  return p.edge_compliance != 0.0f && (tets == 0 || p.volume_compliance != 0.0f);
}

bool SoftBody::set_params(const BodyParams& params) {
  wake();
  nh_warm_h2_ = 0.0f;  // the multipliers no longer belong to this body's state
  if (needs_force_form(solver_) && !has_force_form(params, tet_count())) return false;
  const bool remass = params.density != params_.density || params.areal_density != params_.areal_density || (params.grab_compliance == 0.0f) != (params_.grab_compliance == 0.0f);
  params_ = params;
  neo_hookean_ = neo_hookean_from(params_.youngs_modulus, params_.poisson_ratio);
  if (remass) compute_masses();
  else update_stiffness_number();
  if (params_.strain_smoothing > 0.0f && smoothing_work_.empty()) smoothing_work_.assign(kSmoothingWork * size_t(vertex_count()), std::nan(""));
  // The plastic state outlives switching creep off and on again: a permanent set stays until reset.
  if (params_.plastic_creep > 0.0f && plastic_.empty() && tet_count() > 0) {
    ensure_inverse_rest();
    plastic_ = make_plastic_state(rest_pos_.data(), tet_ids_.data(), tet_count(), edge_ids_.data(), edge_count());
  }
  return true;
}

bool SoftBody::set_solver(Solver solver) {
  wake();
  nh_warm_h2_ = 0.0f;  // the multipliers no longer belong to this body's state
  if (needs_force_form(solver) && !has_force_form(params_, tet_count())) return false;
  if (solver == Solver::Vbd && adjacency_.tet_start.empty()) {
    adjacency_ = vertex_adjacency(tet_ids_.data(), tet_count(), edge_ids_.data(), edge_count(), vertex_count());
    vbd_target_.assign(pos_.size(), 0.0f);
    vbd_supported_.assign(vertex_count(), 0);
    vbd_support_.assign(vertex_count(), 0.0f);
    vbd_friction_.assign(vertex_count(), 0.0f);
    vbd_old_.assign(pos_.size(), 0.0f);
    vbd_older_.assign(pos_.size(), 0.0f);
    vbd_start_.assign(pos_.size(), 0.0f);
    vbd_previous_.assign(pos_.size(), 0.0f);
    if (is_cloth()) hinge_adjacency_ = hinge_adjacency(cloth_.hinge_ids.data(), cloth_.hinge_count(), vertex_count());
  }
  solver_ = solver;
  if (is_force_based(solver)) scratch_.resize(vertex_count());  // also restarts Verlet's history
  else scratch_ = IntegratorScratch{};
  last_cg_ = CgReport{};
  compute_masses();  // grabs are kinematic under force-based solvers
  return true;
}

ForceModel SoftBody::force_model(const float gravity[3]) const {
  ForceModel m;
  m.particle_count = vertex_count();
  m.mass = mass_.data();
  m.inv_mass = inv_mass_.data();
  m.edges = edge_ids_.data();
  m.edge_rest = edge_rest_.data();
  m.edge_count = edge_count();
  const bool nh = neo_hookean();
  m.edge_stiffness = !nh && params_.edge_compliance > 0.0f ? 1.0f / params_.edge_compliance : 0.0f;
  m.edge_damping = params_.spring_damping;
  m.tets = tet_ids_.data();
  m.tet_rest6 = tet_rest6_.data();
  m.tet_count = tet_count();
  m.volume_stiffness = !nh && params_.volume_compliance > 0.0f ? 1.0f / params_.volume_compliance : 0.0f;
  if (nh) {
    m.neo_hookean = &neo_hookean_;
    m.tet_inverse_rest = tet_inverse_rest_.data();
    m.tet_rest_volume = tet_energy_volume_.data();
    if (params_.strain_smoothing > 0.0f && !smoothing_work_.empty()) {
      m.strain_smoothing = params_.strain_smoothing;
      m.smoothing_work = smoothing_work_.data();
    }
  }
  m.edge_scale = edge_stiffness_scale_.empty() ? nullptr : edge_stiffness_scale_.data();
  m.tet_scale = tet_stiffness_scale_.empty() ? nullptr : tet_stiffness_scale_.data();
  for (int k = 0; k < 3; ++k) m.gravity[k] = gravity[k];
  m.surface = surface_.data();
  m.surface_count = surface_triangle_count();
  m.pressure_nrt = params_.pressure;
  m.rest_volume = rest_volume_;
  m.bending = bending_forces(cloth_, params_.bending_stiffness);
  return m;
}

void SoftBody::set_vertex_scales(const uint32_t* vertices, uint32_t count, float mass_scale, float stiffness_scale) {
  wake();
  for (uint32_t k = 0; k < count; ++k) {
    vertex_mass_scale_[vertices[k]] = mass_scale;
    vertex_stiffness_scale_[vertices[k]] = stiffness_scale;
  }
  apply_vertex_scales();
}

void SoftBody::set_vertex_scales_each(const uint32_t* vertices, uint32_t count, const float* mass_scales,
                                      const float* stiffness_scales) {
  wake();
  for (uint32_t k = 0; k < count; ++k) {
    vertex_mass_scale_[vertices[k]] = mass_scales[k];
    vertex_stiffness_scale_[vertices[k]] = stiffness_scales[k];
  }
  apply_vertex_scales();
}

// Masses and the per-constraint stiffness multipliers from the per-vertex scales.
void SoftBody::apply_vertex_scales() {
  compute_masses();
  const bool uniform = std::all_of(vertex_stiffness_scale_.begin(), vertex_stiffness_scale_.end(), [](float v) { return v == 1.0f; });
  if (uniform && cloth_edge_weight_.empty()) {
    edge_stiffness_scale_.clear();
    tet_stiffness_scale_.clear();
  } else {
    // Cloth: each edge's stretch weight (cloth_constraints.h) times its vertex groups' mean.
    const float* vs = vertex_stiffness_scale_.data();
    edge_stiffness_scale_.resize(edge_count());
    for (uint32_t e = 0; e < edge_count(); ++e)
      edge_stiffness_scale_[e] = 0.5f * (vs[edge_ids_[2 * e]] + vs[edge_ids_[2 * e + 1]]) *
                                 (cloth_edge_weight_.empty() ? 1.0f : cloth_edge_weight_[e]);
    tet_stiffness_scale_.resize(tet_count());
    for (uint32_t t = 0; t < tet_count(); ++t) {
      const uint32_t* id = &tet_ids_[4 * t];
      tet_stiffness_scale_[t] = 0.25f * (vs[id[0]] + vs[id[1]] + vs[id[2]] + vs[id[3]]);
    }
  }
  for (uint32_t t = 0; t < tet_count(); ++t)
    tet_energy_volume_[t] = tet_rest6_[t] / 6.0f * (uniform ? 1.0f : tet_stiffness_scale_[t]);
  update_stiffness_number();
}

void SoftBody::set_pinned(uint32_t vertex, bool pinned) {
  wake();
  pinned_[vertex] = pinned ? 1 : 0;
  lra_dirty_ = true;
  compute_masses();
  if (pinned) store3(vel_.data(), vertex, {0, 0, 0});
}

// The edge rest lengths and the tets' inverse rest shapes of the creation shape rest_pos_.
void SoftBody::shape_rest_data() {
  for (uint32_t e = 0; e < edge_count(); ++e)
    edge_rest_[e] = length(load3(rest_pos_.data(), edge_ids_[2 * e]) - load3(rest_pos_.data(), edge_ids_[2 * e + 1]));
  if (!tet_inverse_rest_.empty())
    for (uint32_t t = 0; t < tet_count(); ++t)  // a checked mesh: never flat
      rest_shape_inverse(rest_pos_.data(), &tet_ids_[4 * t], &tet_inverse_rest_[9 * size_t(t)]);
}

void SoftBody::ensure_inverse_rest() {
  if (tet_count() == 0 || !tet_inverse_rest_.empty()) return;
  tet_inverse_rest_.assign(9 * size_t(tet_count()), 0.0f);
  for (uint32_t t = 0; t < tet_count(); ++t)
    rest_shape_inverse(rest_pos_.data(), &tet_ids_[4 * t], &tet_inverse_rest_[9 * size_t(t)]);
}

StaticReport SoftBody::settle_static(const float gravity[3], const StaticSettings& settings) {
  wake();
  // Solved on a copy (not the step loop: allocating is fine), so a solve that does not converge
  // leaves the body as it was.
  std::vector<float> x = pos_;
  const StaticReport report = solve_static(force_model(gravity), x.data(), settings);
  if (report.status != StaticStatus::Converged) return report;
  std::copy(x.begin(), x.end(), pos_.begin());  // in place: callers hold views of pos_
  std::fill(vel_.begin(), vel_.end(), 0.0f);
  prev_ = pos_;
  last_good_pos_ = pos_;
  shape_changed();
  return report;
}

// Back to the creation shape's rest data after plastic flow changed it.
void SoftBody::restore_rest_shape() {
  if (plastic_.empty()) return;
  reset_plastic_state(plastic_);
  shape_rest_data();
  update_stiffness_number();
}

void SoftBody::reset() {
  wake();
  mend();  // a torn cloth goes back to the mesh it was made from
  nh_warm_h2_ = 0.0f;  // the multipliers no longer belong to this body's state
  restore_rest_shape();
  convergence_ = ConvergenceReport{};
  pos_ = rest_pos_;
  last_good_pos_ = rest_pos_;
  scratch_.verlet_started = false;
  prev_ = rest_pos_;
  std::fill(vel_.begin(), vel_.end(), 0.0f);
  diverged_ = false;
  substep_contacts_ = last_contacts_ = 0;
  max_penetration_ = 0.0f;
  grab_vertex_ = -1;
  for (uint32_t i : grab_set_) grabbed_[i] = 0;
  grab_set_.clear();
  grab_offset_.clear();
  compute_masses();
  plate_ = Plate{};
  shape_changed();
}

bool SoftBody::squash(float factor) {
  wake();
  nh_warm_h2_ = 0.0f;  // the multipliers no longer belong to this body's state
  // Volume-preserving: heights shrink by factor about the lowest point, widths grow by 1/sqrt(factor)
  // about the centroid, so an incompressible body is squashed without an infinite-energy state.
  const uint32_t n = vertex_count();
  float min_y = pos_[1];
  double cx = 0.0, cz = 0.0;
  for (uint32_t i = 0; i < n; ++i) {
    min_y = std::min(min_y, pos_[3 * i + 1]);
    cx += pos_[3 * i];
    cz += pos_[3 * i + 2];
  }
  cx /= n;
  cz /= n;
  const float widen = 1.0f / std::sqrt(factor);
  // Into a copy first, so a non-finite result is refused with the state untouched (not the step loop:
  // allocating here is fine).
  std::vector<float> next(pos_.size());
  float probe = 0.0f;  // x - x: 0 for finite x, NaN for NaN or infinity (as in step)
  for (uint32_t i = 0; i < n; ++i) {
    next[3 * i] = float(cx + (pos_[3 * i] - cx) * widen);
    next[3 * i + 1] = min_y + (pos_[3 * i + 1] - min_y) * factor;
    next[3 * i + 2] = float(cz + (pos_[3 * i + 2] - cz) * widen);
    for (int k = 0; k < 3; ++k) probe += next[3 * i + k] - next[3 * i + k];
  }
  if (probe != 0.0f) return false;
  std::copy(next.begin(), next.end(), pos_.begin());  // in place: callers hold views of pos_
  prev_ = pos_;
  last_good_pos_ = pos_;
  std::fill(vel_.begin(), vel_.end(), 0.0f);
  plate_ = Plate{};
  shape_changed();
  return true;
}

bool SoftBody::press(float factor, float release_seconds) {
  wake();
  const uint32_t n = vertex_count();
  float top = -INFINITY;  // m, before the squash: where the plate lets go
  for (uint32_t i = 0; i < n; ++i) top = std::max(top, pos_[3 * i + 1]);
  if (!squash(factor)) return false;
  if (release_seconds <= 0.0f || n == 0) return true;
  float squashed_top = -INFINITY;
  for (uint32_t i = 0; i < n; ++i) squashed_top = std::max(squashed_top, pos_[3 * i + 1]);
  plate_.active = true;
  plate_.from = plate_.height = squashed_top;
  plate_.to = top;
  plate_.elapsed = 0.0;
  plate_.duration = release_seconds;
  plate_.speed = float((top - squashed_top) / double(release_seconds));
  return true;
}

// Moves the plate to where it is at the end of the coming substep of h seconds; the constraint of that
// substep then holds the body below it.
void SoftBody::advance_plate(float h) {
  plate_.elapsed += h;
  const double t = std::min(1.0, plate_.elapsed / plate_.duration);
  plate_.height = float(plate_.from + (double(plate_.to) - plate_.from) * t);
}

Vec3 SoftBody::grab_target(float t) const {
  return {grab_from_[0] + (grab_to_[0] - grab_from_[0]) * t, grab_from_[1] + (grab_to_[1] - grab_from_[1]) * t,
          grab_from_[2] + (grab_to_[2] - grab_from_[2]) * t};
}

Vec3 SoftBody::grab_hand(float t, float h) {
  const Vec3 target = grab_target(t);
  if (solver_ != Solver::Vbd) return grab_hand_ = target;  // kept, should the solver change mid-grab
  const Vec3 gap = target - grab_hand_;
  const float len = length(gap), reach = kVbdGrabSpeed * h;  // m
  grab_hand_ = len <= reach ? target : grab_hand_ + gap * (reach / len);
  return grab_hand_;
}

void SoftBody::grab_begin(uint32_t vertex, const float target[3]) {
  wake();
  if (grab_vertex_ >= 0) grab_end(&vel_[3 * grab_vertex_]);
  plate_ = Plate{};  // a hand on the body takes over from the press (and may lift it above the plate)
  grab_vertex_ = int32_t(vertex);
  // Hold every unpinned vertex within grab_radius of the picked one, as a rigid handle: each keeps
  // its offset to the target. One vertex alone pulls a spike out of a soft, heavy body.
  const Vec3 center = load3(pos_.data(), vertex);
  const float r2 = params_.grab_radius * params_.grab_radius;
  grab_set_.clear();
  grab_offset_.clear();
  for (uint32_t i = 0; i < vertex_count(); ++i) {
    const Vec3 d = load3(pos_.data(), i) - center;
    if ((i == vertex || length_sq(d) <= r2) && !pinned_[i]) {
      grab_set_.push_back(i);
      grab_offset_.push_back(d);
      grabbed_[i] = 1;
    }
  }
  std::copy(target, target + 3, grab_to_);
  std::copy(target, target + 3, grab_from_);
  grab_hand_ = center;  // the hand starts at the picked vertex, not at the pointer
  grab_saved_.assign(6 * grab_set_.size(), 0.0f);
  compute_masses();  // a kinematic grab makes the held vertices immovable for the constraints
}

void SoftBody::grab_move(const float target[3]) {
  wake();
  std::copy(target, target + 3, grab_to_);
}

void SoftBody::grab_end(const float release_velocity[3]) {
  wake();
  if (grab_vertex_ < 0) return;
  const Vec3 release = {release_velocity[0], release_velocity[1], release_velocity[2]};
  for (uint32_t i : grab_set_) {
    grabbed_[i] = 0;
    if (!pinned_[i]) store3(vel_.data(), i, release);
  }
  grab_set_.clear();
  grab_offset_.clear();
  grab_vertex_ = -1;
  compute_masses();
}

uint32_t SoftBody::nearest_vertex(const float point[3]) const {
  const Vec3 p = {point[0], point[1], point[2]};
  uint32_t best = 0;
  float best_d = INFINITY;
  for (uint32_t i = 0; i < vertex_count(); ++i) {
    const float d = length_sq(load3(pos_.data(), i) - p);
    if (d < best_d) best_d = d, best = i;
  }
  return best;
}

// A frozen body is not stepped, so nothing else would notice NaN written into its shared buffer (a
// fuzzed program did): it shows its last finite shape again, as frozen bodies promise.
void SoftBody::hold_frozen_shape() {
  float probe = 0.0f;
  for (float x : pos_) probe += x - x;
  if (probe == 0.0f) return;
  std::copy(last_good_pos_.begin(), last_good_pos_.end(), pos_.begin());
  prev_ = pos_;
  shape_changed();
}

bool SoftBody::step(float dt, const StepSettings& s) {
  if (diverged_) {  // already reported; frozen until reset
    hold_frozen_shape();
    return true;
  }
  if (asleep_) return true;
  const float h = dt / float(s.substeps);
  frame_begin();
  stepping_alone_ = true;  // nothing between a substep's solve and finish: its velocities may be fused
  for (int sub = 0; sub < s.substeps; ++sub) {
    substep_solve(h, s, sub);
    substep_finish(h, s);
  }
  stepping_alone_ = false;
  return frame_end();
}

void SoftBody::frame_begin() {
  // The attachments follow the pins (allocates, only in the frame after pins changed).
  if (lra_dirty_ && is_cloth() && params_.long_range_stretch > 0.0f) {
    build_long_range_attachments(lra_, vertex_count(), edge_ids_.data(), edge_rest_.data(), edge_count(), pinned_.data(),
                                 rest_pos_.data(), cloth_.hinge_rest.empty());
    lra_dirty_ = false;
  }
  max_penetration_ = 0.0f;
  frame_seconds_ = 0.0f;
  frame_convergence_ = ConvergenceReport{};
}

void SoftBody::substep_solve(float h, const StepSettings& s, int sub) {
  if (frozen()) return;
  substep_contacts_ = 0;
  if (plate_.active) advance_plate(h);
  if (is_force_based(solver_)) force_based_substep(h, s, sub);
  else position_based_substep(h, s, sub);
}

void SoftBody::substep_begin(float h, const StepSettings& s, int sub) {
  split_substep_ = !frozen() && !is_force_based(solver_);
  if (!split_substep_) {
    substep_solve(h, s, sub);  // in one piece
    return;
  }
  substep_contacts_ = 0;
  if (plate_.active) advance_plate(h);
  position_based_begin(h, s, sub);
}

void SoftBody::substep_passes(int first, int count) {
  if (split_substep_) position_based_passes(first, count);
}

void SoftBody::substep_end() {
  if (split_substep_) position_based_end();
  split_substep_ = false;
}

int SoftBody::passes_per_substep() const {
  return solver_ == Solver::Xpbd || solver_ == Solver::Pbd ? std::max(xpbd_budget(), 1) : 1;
}

bool SoftBody::substep_passes_done() const {
  return !split_substep_ || solver_ == Solver::Vbd || pb_.finished;
}

void SoftBody::resolve_ground(const StepSettings& s) {
  if (frozen() || is_force_based(solver_) || !s.ground) return;
  uint32_t touching = 0;
  const float depth = solve_ground(pos_.data(), prev_.data(), inv_mass_.data(), vertex_count(), params_.friction, &touching, ground_y());
  add_contacts(0, depth);
}

void SoftBody::substep_finish(float h, const StepSettings& s) {
  if (frozen()) return;
  if (!is_force_based(solver_)) {
    const float g = length(Vec3{s.gravity[0], s.gravity[1], s.gravity[2]});
    if (!velocities_done_) post_solve(h, s.ground, 2.0f * g * h);
    velocities_done_ = false;
    if (solver_ == Solver::Vbd) vbd_limit_energy(s.gravity);
    inverted_repair_.settle_velocities(vel_.data(), mass_.data(), inv_mass_.data());  // no kick from a repair
  }
  if (plate_.active && plate_.elapsed >= plate_.duration) plate_ = Plate{};  // fully released
  last_contacts_ = substep_contacts_;
  frame_seconds_ += h;
}

bool SoftBody::frame_end() {
  convergence_ = frame_convergence_;
  if (diverged_) {  // already reported; frozen until reset
    hold_frozen_shape();
    return true;
  }
  if (asleep_) return true;
  std::copy(grab_to_, grab_to_ + 3, grab_from_);

  // x - x is 0 for every finite x and NaN for NaN or infinity, so one sum checks the whole state.
  float probe = 0.0f;
  for (size_t i = 0; i < pos_.size(); ++i) probe += (pos_[i] - pos_[i]) + (vel_[i] - vel_[i]);
  if (probe == 0.0f && !blown_up()) {
    // Kept from the end of the last verified step (not its start), so even positions corrupted
    // between steps through the shared buffer never become the shape we fall back to; and only
    // with no tet inverted, so a body frozen while tangled shows a shape it really had whole.
    if (count_inverted_tets() == 0) std::copy(pos_.begin(), pos_.end(), last_good_pos_.begin());
    shape_changed();
    // Plastic flow once per frame, on a verified state: the rest shapes the next frame solves against.
    if (params_.plastic_creep > 0.0f && !plastic_.empty()) {
      // Under XPBD a Neo-Hookean body's flow stays within its stiffness limit at this substep.
      FlowBound bound;
      if (solver_ == Solver::Xpbd && params_.material == Material::NeoHookean && last_inv_h2_ > 0.0f) {
        bound.inv_mass = inv_mass_.data();
        bound.rest_volume = tet_energy_volume_.data();
        bound.max_trace_volume = kXpbdNeoHookeanMaxStiffness * double(last_inv_h2_) / (double(neo_hookean_.lambda) + neo_hookean_.mu);
      }
      last_plastic_tets_ = apply_plastic_flow(plastic_, pos_.data(), tet_ids_.data(), tet_count(), params_.plastic_yield,
                                              double(params_.plastic_creep) * frame_seconds_, edge_rest_.data(),
                                              tet_inverse_rest_.data(), bound);
      if (last_plastic_tets_ > 0) update_stiffness_number();  // the rest shapes changed
    } else {
      last_plastic_tets_ = 0;
    }
    tear_overstretched();
    return true;
  }
  diverged_ = true;
  std::copy(last_good_pos_.begin(), last_good_pos_.end(), pos_.begin());
  prev_ = pos_;
  std::fill(vel_.begin(), vel_.end(), 0.0f);
  shape_changed();
  return false;
}

// Finite but absurd: the bounding box's diagonal past kBlownUpExtent times the rest shape's, now or
// where the velocities would take it in another frame like this one (constraints that pulled a
// spike back into shape leave it its speed). Both are unchanged by moving the body as a whole.
void SoftBody::fall_asleep() {
  asleep_ = true;
  std::fill(vel_.begin(), vel_.end(), 0.0f);
  prev_ = pos_;
}

void SoftBody::note_quiet(float dt, float speed) {
  double mv2 = 0.0, m = 0.0;  // kg m^2/s^2, kg
  for (uint32_t i = 0; i < vertex_count(); ++i) {
    mv2 += double(mass_[i]) * double(length_sq(load3(vel_.data(), i)));
    m += mass_[i];
  }
  const bool quiet = grab_vertex_ < 0 && !plate_.active && m > 0.0 && mv2 < double(speed) * speed * m;
  quiet_seconds_ = quiet ? quiet_seconds_ + dt : 0.0f;
}

bool SoftBody::blown_up() const {
  const uint32_t n = vertex_count();
  if (n < 2) return false;
  const double limit = double(kBlownUpExtent) * rest_diagonal_, t = frame_seconds_;  // m, s
  double low[2][3], high[2][3];  // [now, a frame on][axis], in double: a blown-up extent can overflow a float's square
  for (int k = 0; k < 3; ++k) {
    low[0][k] = low[1][k] = INFINITY;
    high[0][k] = high[1][k] = -INFINITY;
  }
  for (uint32_t i = 0; i < n; ++i)
    for (int k = 0; k < 3; ++k) {
      const double x = pos_[3 * i + k], ahead = x + t * vel_[3 * i + k];
      low[0][k] = std::min(low[0][k], x), high[0][k] = std::max(high[0][k], x);
      low[1][k] = std::min(low[1][k], ahead), high[1][k] = std::max(high[1][k], ahead);
    }
  for (int when = 0; when < 2; ++when) {
    const double dx = high[when][0] - low[when][0], dy = high[when][1] - low[when][1], dz = high[when][2] - low[when][2];
    if (dx * dx + dy * dy + dz * dz > limit * limit) return true;
  }
  return false;
}

uint32_t SoftBody::count_inverted_tets() const {
  uint32_t inverted = 0;
  for (uint32_t t = 0; t < tet_count(); ++t) inverted += tet_volume6(pos_.data(), &tet_ids_[4 * t]) <= 0.0 ? 1u : 0u;
  return inverted;
}

uint32_t SoftBody::set_visual(const float* xyz, uint32_t count, const uint32_t* triangles, uint32_t triangle_count) {
  // Bound to the tets in their original vertex order (tet_ids_ is the same set, reordered).
  visual_ = VisualSkin(rest_pos_.data(), vertex_count(), tet_ids_.data(), tet_count(), xyz, count, triangles,
                       triangle_count);
  visual_.update(pos_.data());
  return visual_.outside_count();
}

BodyStats SoftBody::stats(const float gravity[3]) const {
  BodyStats st;
  st.finite = !diverged_;
  st.asleep = asleep_;
  st.contacts = last_contacts_;
  st.max_penetration = max_penetration_;
  const uint32_t n = vertex_count();
  st.min_y = n ? pos_[1] : 0.0;
  for (uint32_t i = 0; i < n; ++i) {
    const double m = mass_[i];
    const Vec3 x = load3(pos_.data(), i), v = load3(vel_.data(), i);
    st.mass += m;
    // In double throughout: float products (v^2, g x) overflow for states that are still finite.
    const double vx = v.x, vy = v.y, vz = v.z;
    st.kinetic_energy += 0.5 * m * (vx * vx + vy * vy + vz * vz);
    st.min_y = std::min(st.min_y, double(x.y));
    st.center[0] += m * x.x, st.center[1] += m * x.y, st.center[2] += m * x.z;
    st.momentum[0] += m * v.x, st.momentum[1] += m * v.y, st.momentum[2] += m * v.z;
    st.potential_energy -=
        m * (double(gravity[0]) * x.x + double(gravity[1]) * x.y + double(gravity[2]) * x.z);
  }
  st.elastic_energy = elastic_energy(force_model(gravity), pos_.data());
  if (st.mass > 0)
    for (double& c : st.center) c /= st.mass;
  double volume = 0.0;
  for (uint32_t t = 0; t < tet_count(); ++t) {
    const double v6 = tet_volume6(pos_.data(), &tet_ids_[4 * t]);
    volume += v6 / 6.0;
    st.inverted_tets += v6 <= 0.0 ? 1u : 0u;
  }
  if (tet_count() == 0) volume = enclosed_volume(pos_.data(), surface_.data(), surface_triangle_count());
  st.volume_ratio = rest_volume_ > 0 ? volume / rest_volume_ : 1.0;
  for (uint32_t e = 0; e < edge_count(); ++e) {
    const float len = length(load3(pos_.data(), edge_ids_[2 * e]) - load3(pos_.data(), edge_ids_[2 * e + 1]));
    st.max_edge_strain = std::max(st.max_edge_strain, std::fabs(double(len) / edge_rest_[e] - 1.0));
  }
  if (solver_ == Solver::Vbd) st.residual = vbd_imbalance_;
  if (solver_ == Solver::Xpbd && last_inv_h2_ > 0.0f) st.stiffness_number = xpbd_stiffness_number(1.0f / std::sqrt(last_inv_h2_));
  if (solver_ == Solver::Xpbd && last_inv_h2_ > 0.0f) {
    if (neo_hookean()) {
      NeoHookeanPass pass = neo_hookean_pass();
      pass.pos = const_cast<float*>(pos_.data());  // read only
      pass.lambda = const_cast<float*>(tet_lambda_.data());
      st.residual = neo_hookean_block_residual(pass);
    }
    else
      st.residual = simple_residual(pos_.data(), edge_ids_.data(), edge_rest_.data(), edge_count(),
                                    params_.edge_compliance * last_inv_h2_, edge_lambda_.data(), tet_ids_.data(),
                                    tet_rest6_.data(), tet_count(), params_.volume_compliance * last_inv_h2_,
                                    volume_lambda_.data(), edge_stiffness_scale_.empty() ? nullptr : edge_stiffness_scale_.data(),
                                    tet_stiffness_scale_.empty() ? nullptr : tet_stiffness_scale_.data());
  }
  return st;
}

}  // namespace sb
