// SoftBody's cloth parts (soft_body.h, cloth_constraints.h): building a cloth body on the particles,
// springs and solve order every body has, and keeping its normals.
#include <algorithm>
#include <utility>

#include "solver/soft_body.h"

namespace sb {

namespace {

// The most colliders a cloth body grows copies of without allocating (a world holds fewer: 511 slots).
constexpr uint32_t kMaxColliders = 512;

// The springs and surface of a cloth mesh, for the tet-mesh constructor to build particles, edges and
// the solve order from; the cloth model is added after.
TetMesh cloth_springs(const ClothMesh& c) {
  TetMesh m;
  m.positions = c.positions;
  m.surface = c.triangles;
  for (size_t t = 0; t < c.triangles.size(); t += 3)
    for (int k = 0; k < 3; ++k) {
      const uint32_t a = c.triangles[t + k], b = c.triangles[t + (k + 1) % 3];
      m.springs.push_back(std::min(a, b));
      m.springs.push_back(std::max(a, b));
    }
  std::vector<std::pair<uint32_t, uint32_t>> pairs(m.springs.size() / 2);
  for (size_t e = 0; e < pairs.size(); ++e) pairs[e] = {m.springs[2 * e], m.springs[2 * e + 1]};
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  m.springs.clear();
  for (const auto& p : pairs) m.springs.insert(m.springs.end(), {p.first, p.second});
  return m;
}

}  // namespace

SoftBody::SoftBody(const ClothMesh& mesh, const BodyParams& params, uint32_t group_min_vertices)
    : SoftBody(cloth_springs(mesh), params, group_min_vertices) {
  const uint32_t n = vertex_count();
  cloth_ = make_cloth_model(rest_pos_.data(), n, surface_.data(), surface_triangle_count());
  plan_hinges(cloth_, n, vertex_bounds_);
  const PassPlan& plan = cloth_.bend_plan;
  for (uint32_t p = 0; p < plan.phases(); ++p) {
    most_units_ = std::max(most_units_, plan.phase_starts[p + 1] - plan.phase_starts[p]);
    if (plan.splittable(p)) largest_split_ = std::max(largest_split_, plan.units[plan.phase_starts[p]].end - plan.units[plan.phase_starts[p]].begin);
  }
  cloth_edge_weight_ = cloth_edge_weights(rest_pos_.data(), surface_.data(), surface_triangle_count(), edge_ids_.data(), edge_count());
  padded_colliders_.reserve(kMaxColliders);  // filled per substep without allocating
  normals_.assign(pos_.size(), 0.0f);
  aero_dv_.assign(pos_.size(), 0.0f);
  apply_vertex_scales();  // the masses from the areas, the edges' stretch weights
  shape_changed();
}

// Half the thickness on every side of a shape: spheres and capsules by their radius, boxes by their
// half extents (square edges: within t/2 of the rounded offset surface), planes moved along their
// normal. Mesh colliders keep their own shell (not grown: their pseudonormal contact has no offset).
static void grow(Collider& c, float d) {
  switch (c.kind) {
    case ShapeKind::kSphere: c.size[0] += d; break;
    case ShapeKind::kCapsule: c.size[0] += d; break;
    case ShapeKind::kBox: for (float& s : c.size) s += d; break;
    case ShapeKind::kPlane:
      for (Pose* p : {&c.pose, &c.previous}) p->position = to_world(*p, Vec3{0.0f, d, 0.0f});
      break;
    case ShapeKind::kMesh: break;
  }
}

const Collider* SoftBody::contact_colliders(const StepSettings& s) {
  if (!is_cloth() || !(params_.thickness > 0.0f) || s.collider_count == 0 || s.collider_count > kMaxColliders) return s.colliders;
  padded_colliders_.assign(s.colliders, s.colliders + s.collider_count);  // within the reserved capacity
  for (Collider& c : padded_colliders_) grow(c, 0.5f * params_.thickness);
  return padded_colliders_.data();
}

void SoftBody::shape_changed() {
  if (!visual_.empty()) visual_.update(pos_.data());
  if (!normals_.empty()) vertex_normals(pos_.data(), vertex_count(), surface_.data(), surface_triangle_count(), normals_.data());
}

}  // namespace sb
