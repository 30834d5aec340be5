#include "solver/soft_body.h"

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
  tet_rest6_.resize(tet_count);
  tet_energy_volume_.resize(tet_count);
  tet_inverse_rest_.assign(9 * size_t(tet_count), 0.0f);
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
  std::vector<uint32_t>().swap(edge_plan_.order);
  std::vector<uint32_t>().swap(tet_plan_.order);
  edge_rest_.resize(edge_count);
  edge_lambda_.assign(edge_count, 0.0f);
  shape_rest_data();

  surface_ = mesh.surface.empty() ? boundary_triangles(mesh.tets.data(), tet_count) : mesh.surface;
  // Bodies without tets measure their volume through the closed surface (ropes have neither).
  if (tet_count == 0) rest_volume_ = enclosed_volume(pos_.data(), surface_.data(), surface_triangle_count());
  surface_vertices_ = surface_;
  std::sort(surface_vertices_.begin(), surface_vertices_.end());
  surface_vertices_.erase(std::unique(surface_vertices_.begin(), surface_vertices_.end()), surface_vertices_.end());
  compute_masses();
  if (params_.plastic_creep > 0.0f && tet_count > 0)
    plastic_ = make_plastic_state(rest_pos_.data(), tet_ids_.data(), tet_count, edge_ids_.data(), edge_count);
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
  if (params_.material == Material::NeoHookean && tet_count() > 0 && nh_target_.size() != pos_.size()) {
    nh_target_.assign(pos_.size(), 0.0f);
    nh_sum_.assign(pos_.size(), 0.0);
  }
  if (params_.material == Material::NeoHookean && tet_count() > 0 && nh_relative_.size() != pos_.size())
    nh_relative_.assign(pos_.size(), 0.0f);
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
  if (needs_force_form(solver_) && !has_force_form(params, tet_count())) return false;
  const bool remass = params.density != params_.density || params.areal_density != params_.areal_density || (params.grab_compliance == 0.0f) != (params_.grab_compliance == 0.0f);
  params_ = params;
  neo_hookean_ = neo_hookean_from(params_.youngs_modulus, params_.poisson_ratio);
  if (remass) compute_masses();
  else update_stiffness_number();
  // The plastic state outlives switching creep off and on again: a permanent set stays until reset.
  if (params_.plastic_creep > 0.0f && plastic_.empty() && tet_count() > 0)
    plastic_ = make_plastic_state(rest_pos_.data(), tet_ids_.data(), tet_count(), edge_ids_.data(), edge_count());
  return true;
}

bool SoftBody::set_solver(Solver solver) {
  if (is_cloth() && solver != Solver::Xpbd) return false;  // bending is an XPBD constraint only so far
  if (needs_force_form(solver) && !has_force_form(params_, tet_count())) return false;
  if (solver == Solver::Vbd && adjacency_.tet_start.empty()) {
    adjacency_ = vertex_adjacency(tet_ids_.data(), tet_count(), edge_ids_.data(), edge_count(), vertex_count());
    vbd_target_.assign(pos_.size(), 0.0f);
    vbd_supported_.assign(vertex_count(), 0);
    vbd_support_.assign(vertex_count(), 0.0f);
    vbd_old_.assign(pos_.size(), 0.0f);
    vbd_older_.assign(pos_.size(), 0.0f);
    vbd_start_.assign(pos_.size(), 0.0f);
    vbd_previous_.assign(pos_.size(), 0.0f);
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
  }
  m.edge_scale = edge_stiffness_scale_.empty() ? nullptr : edge_stiffness_scale_.data();
  m.tet_scale = tet_stiffness_scale_.empty() ? nullptr : tet_stiffness_scale_.data();
  for (int k = 0; k < 3; ++k) m.gravity[k] = gravity[k];
  m.surface = surface_.data();
  m.surface_count = surface_triangle_count();
  m.pressure_nrt = params_.pressure;
  m.rest_volume = rest_volume_;
  return m;
}

void SoftBody::set_vertex_scales(const uint32_t* vertices, uint32_t count, float mass_scale, float stiffness_scale) {
  for (uint32_t k = 0; k < count; ++k) {
    vertex_mass_scale_[vertices[k]] = mass_scale;
    vertex_stiffness_scale_[vertices[k]] = stiffness_scale;
  }
  apply_vertex_scales();
}

void SoftBody::set_vertex_scales_each(const uint32_t* vertices, uint32_t count, const float* mass_scales,
                                      const float* stiffness_scales) {
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
  pinned_[vertex] = pinned ? 1 : 0;
  compute_masses();
  if (pinned) store3(vel_.data(), vertex, {0, 0, 0});
}

// The edge rest lengths and the tets' inverse rest shapes of the creation shape rest_pos_.
void SoftBody::shape_rest_data() {
  for (uint32_t e = 0; e < edge_count(); ++e)
    edge_rest_[e] = length(load3(rest_pos_.data(), edge_ids_[2 * e]) - load3(rest_pos_.data(), edge_ids_[2 * e + 1]));
  for (uint32_t t = 0; t < tet_count(); ++t)  // a checked mesh: never flat
    rest_shape_inverse(rest_pos_.data(), &tet_ids_[4 * t], &tet_inverse_rest_[9 * size_t(t)]);
}

StaticReport SoftBody::settle_static(const float gravity[3], const StaticSettings& settings) {
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
  restore_rest_shape();
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

void SoftBody::grab_begin(uint32_t vertex, const float target[3]) {
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
  compute_masses();  // a kinematic grab makes the held vertices immovable for the constraints
}

void SoftBody::grab_move(const float target[3]) { std::copy(target, target + 3, grab_to_); }

void SoftBody::grab_end(const float release_velocity[3]) {
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

void SoftBody::pre_solve(float h, const float gravity[3], float damping_factor, float grab_t, bool ground) {
  predict(0, vertex_count(), h, gravity, damping_factor);
  float* x = pos_.data();
  float* p = prev_.data();
  if (params_.grab_compliance != 0.0f) return;
  // Kinematic grab: the held vertices move along the pointer's path, never into the ground.
  const Vec3 target = grab_target(grab_t);
  for (size_t k = 0; k < grab_set_.size(); ++k) {
    const uint32_t g = grab_set_[k];
    if (pinned_[g]) continue;  // pinned after the grab began: the pin wins
    Vec3 to = target + grab_offset_[k];
    if (ground && to.y < 0.0f) to.y = 0.0f;
    store3(p, g, load3(x, g));
    store3(x, g, to);
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
  const Vec3 target = grab_target(grab_t);
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
struct SoftBody::VertexWork {
  SoftBody* body = nullptr;
  float h = 0.0f, damping_factor = 1.0f, rest_threshold = 0.0f;
  const float* gravity = nullptr;
  bool ground = false;
  bool velocities = false;  // post_solve too (the body steps alone: nothing comes between)
};

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
  const bool pbd = solver_ == Solver::Pbd;
  // PBD ignores compliance: hard constraints scaled by a per-iteration stiffness, so its effective
  // stiffness depends on the substep count. XPBD's alpha~ = alpha / h^2 removes that dependence.
  const float edge_alpha = pbd ? 0.0f : params_.edge_compliance / (h * h);
  const float volume_alpha = pbd ? 0.0f : params_.volume_compliance / (h * h);
  const float scale = pbd ? params_.pbd_stiffness : 1.0f;
  const float gamma = pbd ? 0.0f : params_.edge_compliance * params_.spring_damping / h;
  const float grab_t = float(sub + 1) / float(s.substeps);
  // Each frame's collider candidates, from the positions and velocities at its start.
  const Collider* colliders = contact_colliders(s);  // cloth: grown by half its thickness
  if (sub == 0 && s.collider_count > 0)
    collider_candidates_.begin_frame(pos_.data(), vel_.data(), inv_mass_.data(), vertex_count(), colliders,
                                     s.collider_count, h * float(s.substeps), s.substeps);
  if (params_.pressure > 0.0f) apply_pressure(h);
  // The per-vertex passes run inside the XPBD job (on its threads) when nothing else touches the
  // vertices between them: no grab, press plate or collider, and (for the velocities) no contact
  // with other bodies between this and substep_finish.
  const bool fuse = solver_ != Solver::Vbd && (pbd || !neo_hookean()) && grab_set_.empty() && !plate_.active &&
                    s.collider_count == 0;
  VertexWork work;
  work.body = this;
  work.h = h;
  work.damping_factor = std::exp(-params_.damping * h);
  work.gravity = s.gravity;
  work.ground = s.ground;
  work.velocities = fuse && stepping_alone_;
  work.rest_threshold = 2.0f * length(Vec3{s.gravity[0], s.gravity[1], s.gravity[2]}) * h;  // as substep_finish
  if (solver_ == Solver::Vbd) vbd_energy_start_ = mechanical_energy(s.gravity);
  if (!fuse) pre_solve(h, s.gravity, work.damping_factor, grab_t, s.ground);
  last_inv_h2_ = 1.0f / (h * h);
  if (solver_ == Solver::Vbd) {
    vbd_solve(s.ground, length(Vec3{s.gravity[0], s.gravity[1], s.gravity[2]}));
  } else {
    xpbd_solve(pbd, edge_alpha, volume_alpha, scale, gamma, sub == s.substeps - 1, s.pool, s.split_min,
               fuse ? &work : nullptr, s.ground);
  }
  // Regions of inverted tets back on their rest shape, ahead of the contacts (inverted_tets.h). When
  // the ground was fused into the passes, it is applied again to the vertices the repair moved.
  // Not while another body or a collider presses on this one, nor for kRepairFreeSubsteps after (a
  // resting contact comes and goes with the gap): in the page's pile, snapping the regions its
  // neighbours flatten back to their rest shape, against them, made bunnies tremble for good
  // (0.03-1.2 J after 10 s, where the pile rests under 5 mJ without; tests/bridge/scenes.test.mjs), and
  // left as many tets inverted. A body on the ground and under the press plate is repaired.
  if (solver_ == Solver::Xpbd && s.collider_count > 0 && !pressed_by_other_)
    for (uint32_t i = 0; i < vertex_count() && !pressed_by_other_; ++i) pressed_by_other_ = contact_restitution_[i] >= 0.0f;
  substeps_free_ = pressed_by_other_ ? 0 : std::min(substeps_free_ + 1, kRepairFreeSubsteps);
  const bool tangled = solver_ == Solver::Xpbd && !neo_hookean() && params_.volume_compliance <= kRepairMaxVolumeCompliance &&
                       substeps_free_ >= kRepairFreeSubsteps &&
                       inverted_repair_.flagged() >= std::max(1.0f, kRepairTangledFraction * float(tet_count()));
  const bool repaired =
      tangled && inverted_repair_.repair(pos_.data(), rest_pos_.data(), mass_.data(), inv_mass_.data(), tet_ids_.data()) > 0;
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
                          WorkerPool* pool, uint32_t split_min, VertexWork* work, bool ground) {
  // PBD has no compliance, so no material: its constraints are the simple model's, made hard.
  const bool nh = !pbd && neo_hookean();
  // Multipliers are summed over several passes, and kept in the frame's last substep for the
  // residual; a single pass in any other substep needs none.
  const bool keep = params_.iterations > 1 || last;
  float* edge_lambda = keep ? edge_lambda_.data() : nullptr;
  float* volume_lambda = keep ? volume_lambda_.data() : nullptr;
  if (nh) {
    if (keep) std::fill(tet_lambda_.begin(), tet_lambda_.end(), 0.0f);
    NeoHookeanPass pass = neo_hookean_pass();
    pass.lambda = keep ? tet_lambda_.data() : nullptr;
    const bool resync = params_.iterations > 1;  // keep positions and multipliers one rounding apart
    // Spring damping: the edge dashpots after the blocks in each pass (only when c > 0: no cost, and
    // the same bits, otherwise). After, not interleaved: the block pass stays as it is, and the order
    // changes only how fast the passes converge, not to what.
    const bool dashpots = params_.spring_damping > 0.0f && edge_count() > 0;
    // Away from the world's origin the passes run on a copy relative to the body's middle
    // (pass_origin), put back as unpack_positions does, as the simple model's do: each block visit
    // rounds the positions to float, and in world coordinates those roundings were a drag on the
    // motion (a block spinning at 3 rad/s 4 m from the origin, 40 substeps, one pass, kept 91 % of its
    // spin in 1 s, 99 % at the origin), which the dashpots then damped too (c = 200 N s/m: 51 %).
    float origin[3] = {0.0f, 0.0f, 0.0f};
    pass_origin(origin);
    const bool relative = origin[0] != 0.0f || origin[1] != 0.0f || origin[2] != 0.0f;
    neo_hookean_planes_begin(ground, &pass, origin);
    if (relative) {
      for (size_t j = 0; j < pos_.size(); ++j) nh_relative_[j] = pos_[j] - origin[j % 3];
      pass.pos = nh_relative_.data();
    }
    if (resync) std::copy(pass.pos, pass.pos + pos_.size(), nh_target_.begin());
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
        std::fill(edge_lambda_.begin(), edge_lambda_.end(), 0.0f);  // unused otherwise by a Neo-Hookean body
        std::fill(dashpot_moved_.begin(), dashpot_moved_.end(), 0.0);
        damp.lambda = edge_lambda_.data();
        damp.moved = dashpot_moved_.data();
      }
    }
    for (int k = 0; k < params_.iterations; ++k) {
      solve_neo_hookean_blocks(pass);
      if (dashpots) solve_edge_dashpots(damp);
      if (resync) neo_hookean_positions(pass, nh_target_.data(), nh_sum_.data(), vertex_count(), damp.moved);
    }
    if (relative)
      for (size_t j = 0; j < pos_.size(); ++j) pos_[j] += nh_relative_[j] - (pos_[j] - origin[j % 3]);
    neo_hookean_planes_end();
    return;
  }
  if (keep) {
    std::fill(edge_lambda_.begin(), edge_lambda_.end(), 0.0f);
    std::fill(volume_lambda_.begin(), volume_lambda_.end(), 0.0f);
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
  job.iterations = params_.iterations;
  job.pos = pos_.data();
  job.inv_mass = inv_mass_.data();
  job.vertices = vertex_count();
  job.split_min = split_min;
  job.edge_plan = &edge_plan_;
  job.tet_plan = &tet_plan_;
  // Cloth bending (cloth_constraints.h): alpha~ = (A0 + A1) / (D h^2) per hinge. PBD has no bending.
  if (is_cloth() && !pbd && params_.bending_stiffness > 0.0f && cloth_.hinge_count() > 0) {
    BendPass& bends = job.bends;
    bends.xw = packed_.data();
    bends.ids = cloth_.hinge_ids.data();
    bends.k = cloth_.hinge_k.data();
    bends.area = cloth_.hinge_area.data();
    bends.rest = cloth_.hinge_rest.empty() ? nullptr : cloth_.hinge_rest.data();
    bends.alpha_per_area = last_inv_h2_ / params_.bending_stiffness;
    if (keep) std::fill(cloth_.hinge_lambda.begin(), cloth_.hinge_lambda.end(), 0.0f);
    bends.lambda = keep ? cloth_.hinge_lambda.data() : nullptr;
    job.bend_plan = &cloth_.bend_plan;
  }
  job.vertex_bounds = copy_bounds_.data();
  job.vertex_ranges = uint32_t(copy_bounds_.size()) - 1;
  job.copies_per_group = vertex_bounds_.size() > 2;
  if (work) {
    job.before = fused_before;
    job.after = fused_after;
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

// VBD: `iterations` sweeps of per-vertex Newton steps on the incremental potential from the
// prediction pre_solve made (the inertial target y, which is also the first guess).
void SoftBody::vbd_solve(bool ground, float gravity) {
  // Supported: predicted into the ground, or touching a collider in the last substep (its record is
  // cleared only after this solve).
  for (uint32_t i = 0; i < vertex_count(); ++i)
    vbd_supported_[i] = (ground && pos_[3 * i + 1] <= 0.0f) || contact_restitution_[i] >= 0.0f;
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
  if (params_.spring_damping > 0.0f)
    for (size_t j = 0; j < pos_.size(); ++j) vbd_previous_[j] = prev_[j] - origin[j % 3];
  VbdModel m;
  m.vertex_count = vertex_count();
  m.mass = mass_.data();
  m.inv_mass = inv_mass_.data();
  m.target = vbd_target_.data();
  m.inv_h2 = last_inv_h2_;
  m.supported = vbd_supported_.data();
  m.gravity = gravity;
  // The ground and the press plate inside the sweeps (vbd.h), in the sweeps' coordinates.
  m.floor_y = ground ? -origin[1] : -INFINITY;
  m.ceiling_y = plate_.active ? plate_.height - origin[1] : INFINITY;
  std::fill(vbd_support_.begin(), vbd_support_.end(), 0.0f);
  m.support = vbd_support_.data();
  m.tets = tet_ids_.data();
  m.tet_count = tet_count();
  m.edges = edge_ids_.data();
  m.edge_damping = params_.spring_damping;
  m.previous = vbd_previous_.data();
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
  // pairs 48) and the many sweeps leave w small.
  const bool pairs = params_.iterations < kVbdForwardSweeps;
  const int rounds = pairs ? (std::max(params_.iterations, 1) + 1) / 2 : params_.iterations;
  const int start = 2;  // the round Chebyshev starts at (none with fewer rounds)
  const float rho2 = kVbdChebyshevRho * kVbdChebyshevRho;
  float omega = 1.0f;
  std::copy(pos_.begin(), pos_.end(), vbd_older_.begin());  // x_{n-2}
  for (int round = 0; round < rounds; ++round) {
    std::copy(pos_.begin(), pos_.end(), vbd_old_.begin());  // x_{n-1}
    vbd_imbalance_ = vbd_sweep(m, adjacency_, pos_.data(), false);
    if (pairs) vbd_imbalance_ = vbd_sweep(m, adjacency_, pos_.data(), true);
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
  vbd_plane_support(m, adjacency_, pos_.data());
  vbd_remove_net_impulse(m, pos_.data());
  // Back to world coordinates: the start plus what the sweeps moved (start - origin is recomputed as
  // it was rounded), one rounding, none for a vertex they left where it was.
  for (size_t j = 0; j < pos_.size(); ++j) pos_[j] = vbd_start_[j] + (pos_[j] - (vbd_start_[j] - origin[j % 3]));
  float deepest = 0.0f;
  const uint32_t touching = vbd_contact_friction(m, prev_.data(), params_.friction, pos_.data(), &deepest);
  add_contacts(touching, deepest);
}

double SoftBody::mechanical_energy(const float gravity[3]) const {
  double e = elastic_energy(force_model(gravity), pos_.data());
  for (uint32_t i = 0; i < vertex_count(); ++i) {
    const double m = mass_[i];
    for (int k = 0; k < 3; ++k) e += m * (0.5 * double(vel_[3 * i + k]) * vel_[3 * i + k] - double(gravity[k]) * pos_[3 * i + k]);
  }
  return e;
}

// A VBD substep with nothing driving the body (no grab, collider or other body in contact; the
// ground and pins do no work, and the press plate only rises, so the body works on it) ends with
// at most the energy it began with: implicit
// Euler's step only dissipates, and what unconverged sweeps add is taken out of the motion relative
// to the centre of mass (vbd_remove_kinetic_energy). So no sweep count can make a body gain energy
// of its own, and a body's energy is bounded by what was put in.
void SoftBody::vbd_limit_energy(const float gravity[3]) {
  if (!grab_set_.empty() || pressed_by_other_) return;
  for (uint32_t i = 0; i < vertex_count(); ++i)
    if (contact_restitution_[i] >= 0.0f) return;
  const double excess = mechanical_energy(gravity) - vbd_energy_start_;
  vbd_remove_kinetic_energy(mass_.data(), inv_mass_.data(), vertex_count(), excess, vel_.data());
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
  for (uint32_t i = 0; i < n; ++i) {
    if (inv_mass_[i] == 0.0f) continue;
    for (int k = 0; k < 3; ++k) v[3 * i + k] *= air;
    if (!s.ground || x[3 * i + 1] >= 0.0f) continue;
    // Ground contact at velocity level: project onto y = 0, reflect the approach speed by the
    // restitution (resting below 2|g|h, as in the XPBD loop), and let Coulomb friction remove up to
    // friction * (normal velocity change) of the sliding velocity.
    x[3 * i + 1] = 0.0f;
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
  for (uint32_t c = 0; c < s.collider_count; ++c)
    collide_velocity_level(x, v, inv_mass_.data(), n, s.colliders[c], float(sub) / float(s.substeps),
                           float(sub + 1) / float(s.substeps), h, 2.0f * g * h);
  // Grabbed particles are kinematic here: they jump to the pointer's path with its velocity.
  const Vec3 target = grab_target(float(sub + 1) / float(s.substeps));
  for (size_t k = 0; k < grab_set_.size(); ++k) {
    const uint32_t i = grab_set_[k];
    if (pinned_[i]) continue;
    Vec3 to = target + grab_offset_[k];
    if (s.ground && to.y < 0.0f) to.y = 0.0f;
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
    if (ground && y <= 0.0f && vy <= 0.0f && !(was_held && s.hold_impulse[i] < 0.0f)) {
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
  max_penetration_ = 0.0f;
  frame_seconds_ = 0.0f;
}

void SoftBody::substep_solve(float h, const StepSettings& s, int sub) {
  if (diverged_) return;
  substep_contacts_ = 0;
  if (plate_.active) advance_plate(h);
  if (is_force_based(solver_)) force_based_substep(h, s, sub);
  else position_based_substep(h, s, sub);
}

void SoftBody::resolve_ground(const StepSettings& s) {
  if (diverged_ || is_force_based(solver_) || !s.ground) return;
  uint32_t touching = 0;
  const float depth = solve_ground(pos_.data(), prev_.data(), inv_mass_.data(), vertex_count(), params_.friction, &touching, ground_y());
  add_contacts(0, depth);
}

void SoftBody::substep_finish(float h, const StepSettings& s) {
  if (diverged_) return;
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
  if (diverged_) {  // already reported; frozen until reset
    hold_frozen_shape();
    return true;
  }
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
  if (is_cloth()) st.elastic_energy += cloth_bending_energy(cloth_, params_.bending_stiffness, pos_.data());
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
