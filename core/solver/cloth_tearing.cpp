// SoftBody's cloth tearing (soft_body.h tear_strain; the mesh edit is shapes/cloth_tear.h).
//
// At the end of a verified frame, the edges stretched past the body's tear strain break, the most
// strained first and at most kMaxTearsPerFrame of them (so a frame's extra work is bounded and a
// crack runs over several frames, as the load moves to the next edges). Each opens a crack across
// the edge (tear_across_edge), and the body is rebuilt on the torn mesh: its springs, hinges,
// solve order, long-range attachments and contact surface all come from the new triangles exactly
// as for a new body, and the state (positions, velocities, pins, groups, grab, filters) is carried
// over by vertex. A copy of a vertex gets the mass of its own triangles (areal density x a third
// of their rest area), so the sheet's mass is kept to rounding.
#include <algorithm>
#include <utility>

#include "shapes/cloth_tear.h"
#include "solver/soft_body.h"

namespace sb {

namespace {

// Edges broken per frame at most (each costs a scan of the triangles and the rebuild is shared).
constexpr int kMaxTearsPerFrame = 4;

}  // namespace

void SoftBody::tear_overstretched() {
  if (!is_cloth() || !(params_.tear_strain > 0.0f) || diverged_ || vertex_count() >= tear_vertex_capacity()) return;
  // The most strained edges past the threshold, in a fixed array: no allocation while none breaks.
  struct Strained {
    float strain;
    uint32_t edge;
  } worst[kMaxTearsPerFrame];
  int found = 0;
  for (uint32_t e = 0; e < edge_count(); ++e) {
    const float l = length(load3(pos_.data(), edge_ids_[2 * e]) - load3(pos_.data(), edge_ids_[2 * e + 1]));
    const float strain = l / edge_rest_[e] - 1.0f;
    if (!(strain > params_.tear_strain)) continue;
    // Insert in order (most strained first; ties by edge index, so the choice is deterministic).
    int k = found < kMaxTearsPerFrame ? found++ : kMaxTearsPerFrame;
    if (k == kMaxTearsPerFrame && !(strain > worst[k - 1].strain)) continue;
    if (k == kMaxTearsPerFrame) --k;
    while (k > 0 && strain > worst[k - 1].strain) {
      worst[k] = worst[k - 1];
      --k;
    }
    worst[k] = {strain, e};
  }
  if (found == 0) return;

  TearingMesh m;
  m.positions = pos_;
  m.triangles = surface_;
  m.source.resize(vertex_count());
  for (uint32_t i = 0; i < vertex_count(); ++i) m.source[i] = i;
  uint32_t broken = 0;
  for (int k = 0; k < found && m.vertex_count() < tear_vertex_capacity(); ++k)
    broken += tear_across_edge(m, edge_ids_[2 * worst[k].edge], edge_ids_[2 * worst[k].edge + 1]) ? 1 : 0;
  if (broken == 0) return;

  ClothMesh torn;
  torn.positions.resize(3 * size_t(m.vertex_count()));
  for (uint32_t i = 0; i < m.vertex_count(); ++i)
    for (int k = 0; k < 3; ++k) torn.positions[3 * size_t(i) + k] = rest_pos_[3 * size_t(m.source[i]) + k];
  torn.triangles = std::move(m.triangles);
  if (untorn_triangles_.empty()) {
    untorn_positions_ = rest_pos_;
    untorn_triangles_ = surface_;
  }
  const uint32_t torn_before = torn_edges_;
  become(SoftBody(torn, params_, group_min_vertices_), m.source);
  torn_edges_ = torn_before + broken;
}

void SoftBody::become(SoftBody&& next, const std::vector<uint32_t>& source) {
  const uint32_t n = vertex_count(), count = next.vertex_count();
  for (uint32_t i = 0; i < count; ++i) {
    const uint32_t s = source[i];
    for (int k = 0; k < 3; ++k) {
      const size_t to = 3 * size_t(i) + k, from = 3 * size_t(s) + k;
      next.pos_[to] = pos_[from];
      next.prev_[to] = prev_[from];
      next.vel_[to] = vel_[from];
      next.last_good_pos_[to] = last_good_pos_[from];
    }
    next.pinned_[i] = pinned_[s];
    next.vertex_mass_scale_[i] = vertex_mass_scale_[s];
    next.vertex_stiffness_scale_[i] = vertex_stiffness_scale_[s];
    next.grabbed_[i] = i < n && i == s ? grabbed_[i] : 0;  // a copy hangs from its own triangles
  }
  // The grab goes on with the vertices that kept their index (the originals).
  next.grab_vertex_ = grab_vertex_ >= 0 && uint32_t(grab_vertex_) < count ? grab_vertex_ : -1;
  std::copy(grab_from_, grab_from_ + 3, next.grab_from_);
  std::copy(grab_to_, grab_to_ + 3, next.grab_to_);
  if (next.grab_vertex_ >= 0)
    for (size_t k = 0; k < grab_set_.size(); ++k)
      if (grab_set_[k] < count) {
        next.grab_set_.push_back(grab_set_[k]);
        next.grab_offset_.push_back(grab_offset_[k]);
      }
  if (solver_ != next.solver_) next.set_solver(solver_);
  next.collision_group_ = collision_group_;
  next.collision_mask_ = collision_mask_;
  next.self_collision_ = self_collision_;
  next.self_thickness_ = self_thickness_;
  next.convergence_ = convergence_;
  next.last_contacts_ = last_contacts_;
  next.last_inv_h2_ = last_inv_h2_;
  next.group_min_vertices_ = group_min_vertices_;
  next.creation_vertices_ = creation_vertices_;
  next.untorn_positions_ = std::move(untorn_positions_);
  next.untorn_triangles_ = std::move(untorn_triangles_);
  next.topology_version_ = topology_version_ + 1;
  next.torn_edges_ = torn_edges_;
  next.apply_vertex_scales();  // masses from the copied pins, grab and groups
  next.shape_changed();
  *this = std::move(next);
}

void SoftBody::mend() {
  if (untorn_triangles_.empty()) return;
  ClothMesh whole;
  whole.positions = untorn_positions_;
  whole.triangles = untorn_triangles_;
  std::vector<uint32_t> source(whole.positions.size() / 3);
  for (uint32_t i = 0; i < source.size(); ++i) source[i] = i;  // the originals kept their index
  become(SoftBody(whole, params_, group_min_vertices_), source);
  untorn_positions_.clear();
  untorn_triangles_.clear();
  torn_edges_ = 0;
}

}  // namespace sb
