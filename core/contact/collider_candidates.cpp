// Per-frame candidates of collider contact: clear radii, mesh faces per particle (collider_candidates.h).
#include "contact/collider_candidates.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>

#include "contact/mesh_shape.h"

namespace sb {

namespace {

constexpr float kStray = 0.01f;       // m: how far past its predicted path a particle may go and keep its faces
// m: added to twice the predicted path per substep for D: a corner pressed into a curved wall by its
// own tets moves 5 mm per substep with no velocity to predict it from (measured)
constexpr float kQueryStray = 0.01f;
constexpr float kBoxPad = 1e-4f;      // m: rounding of the local transforms, far above it

// Below the clear radius a particle's substep path stays this far outside the collider, more than
// first_hit's touch (max(1 um, 1e-3 x path)) for any path within the sphere, so it finds no contact.
float margin(float d) { return 1e-5f + 3e-3f * std::fabs(d); }

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

// Euclidean distance from p to the box [lo, hi]; 0 inside.
float box_distance(Vec3 p, Vec3 lo, Vec3 hi) {
  const float dx = std::max({lo.x - p.x, 0.0f, p.x - hi.x});
  const float dy = std::max({lo.y - p.y, 0.0f, p.y - hi.y});
  const float dz = std::max({lo.z - p.z, 0.0f, p.z - hi.z});
  return std::sqrt(dx * dx + dy * dy + dz * dz);
}

// The rotation angle from a to b, rad, rounded up: 2 asin(|vector part of b a*|), which unlike acos of
// the dot product keeps its precision for the small turns of one frame.
float turn_angle(Quat a, Quat b) {
  const Quat r{b.w * -a.x + b.x * a.w + b.y * -a.z - b.z * -a.y, b.w * -a.y - b.x * -a.z + b.y * a.w + b.z * -a.x,
               b.w * -a.z + b.x * -a.y - b.y * -a.x + b.z * a.w, 0.0f};
  const float s = std::sqrt(r.x * r.x + r.y * r.y + r.z * r.z);
  if (s == 0.0f) return 0.0f;
  return 2.0f * std::asin(std::min(1.0f, s)) * 1.001f + 1e-6f;
}

}  // namespace

void ColliderCandidates::begin_frame(const float* pos, const float* vel, const float* inv_mass, uint32_t count,
                                     const Collider* colliders, uint32_t collider_count, float dt, int substeps) {
  const Clock::time_point began = Clock::now();
  stats_ = ColliderCandidateStats{};
  count_ = count;
  colliders_ = collider_count;
  start_.assign(pos, pos + 3 * size_t(count));
  clear_.assign(size_t(count) * collider_count, 0.0f);
  entry_.assign(size_t(count) * collider_count, ~0u);
  centre_.clear();
  radius_.clear();
  reach_.clear();
  face_start_.assign(1, 0);
  faces_.clear();
  for (uint32_t ci = 0; ci < collider_count; ++ci) {
    const Collider& c = colliders[ci];
    const bool mesh = c.kind == ShapeKind::kMesh;
    const float half = mesh && !c.mesh->closed() ? 0.5f * c.mesh->thickness() : 0.0f;  // m, a shell's half thickness
    // How far the collider moves over the frame: translation, and rotation by `turn` about its position.
    const float shift = length(c.pose.position - c.previous.position);                  // m
    const float turn = turn_angle(c.previous.rotation, c.pose.rotation);                // rad
    const float far = bounding_radius(c);                                               // m
    Vec3 box_lo, box_hi;
    world_box(c, c.previous, &box_lo, &box_hi);
    float* clear = clear_.data() + size_t(ci) * count;
    uint32_t* entry = entry_.data() + size_t(ci) * count;
    for (uint32_t i = 0; i < count; ++i) {
      if (inv_mass[i] == 0.0f) continue;  // never moved by a collider
      const Vec3 x0 = load3(pos, i);
      const float ell = length(load3(vel, i)) * dt;  // m, the predicted path over the frame
      const float wanted = 2.0f * (ell + kStray);   // m, the clear radius that saves all of its substeps
      // The farthest any point of interest (the collider, or within ~2 wanted of x0) moves: a rotating
      // plane has no bound, and then every particle is tested every substep, as before.
      const float arm = std::max(far, length(x0 - c.previous.position) + shift + 2.0f * wanted + kStray);  // m
      const float moves = shift + (turn > 0.0f ? turn * arm : 0.0f);  // m
      // Outside the collider's box by more than it needs: clear, with no exact distance.
      const float bd = box_distance(x0, box_lo, box_hi);
      if (bd - 2.0f * moves - margin(bd) >= wanted) {
        clear[i] = wanted;
        continue;
      }
      if (!mesh) {
        // The analytic shapes' distances cost a few flops: the exact one now, the full test when not clear.
        Vec3 n;
        const float d0 = signed_distance(c, c.previous, x0, &n);
        clear[i] = std::min(wanted, d0 - 2.0f * moves - margin(d0));
        continue;
      }
      // A mesh: the faces about the particle's frame start in the mesh's frame, and its clear radius.
      const Vec3 a = to_local(c.previous, x0);
      const Vec3 b = to_local(c.pose, x0 + load3(vel, i) * dt);
      const float rel = length(b - a);                                  // m, predicted path relative to the mesh
      const float radius = rel + kStray;                                // R
      const float reach = 2.0f * rel / float(substeps) + kQueryStray;  // D
      const float g = radius + reach + half + kBoxPad;                  // half size of the box searched, m
      const uint32_t first = uint32_t(faces_.size());
      c.mesh->faces_in_box(a - Vec3{g, g, g}, a + Vec3{g, g, g}, &faces_);
      const uint32_t listed = uint32_t(faces_.size()) - first;
      // No face within g: at least g - half outside (a shell) or g from the surface (a closed mesh,
      // on an unknown side). Else the exact distance over the listed faces, up to that limit.
      const float limit = g - kBoxPad - half;
      Vec3 n;
      const float d0 = listed == 0 ? limit : c.mesh->signed_distance_faces(a, limit, &n, faces_.data() + first, listed);
      // A closed mesh's limit may be deep inside; solve_collider then searches only as far as its path,
      // so the particle is clear while its path's ends stay a third of the distance from its start.
      const bool sided = !c.mesh->closed() || d0 < limit;
      float r = d0 - 2.0f * moves - margin(d0);
      if (!sided) r /= 3.0f;
      clear[i] = std::min(wanted, r);
      if (clear[i] >= radius) {  // its whole region is clear: the faces would never be read
        faces_.resize(first);
        continue;
      }
      entry[i] = uint32_t(radius_.size());
      centre_.insert(centre_.end(), {a.x, a.y, a.z});
      radius_.push_back(radius);
      reach_.push_back(reach);
      face_start_.push_back(uint32_t(faces_.size()));
      ++stats_.particles;
      stats_.faces += listed;
    }
  }
  stats_.gather_ms = ms_since(began);
}

uint32_t ColliderCandidates::solve(uint32_t index, float* pos, const float* prev, const float* inv_mass, uint32_t count,
                                   const Collider& c, float t0, float t1, float h, ContactRecord* record) {
  if (index >= colliders_ || count != count_) return solve_collider(pos, prev, inv_mass, count, c, t0, t1, h, record);
  const Clock::time_point began = Clock::now();
  const Pose before = interpolate(c.previous, c.pose, t0);
  ColliderQuery full;
  full.collider = &c;
  full.pose = interpolate(c.previous, c.pose, t1);
  const Pose& after = full.pose;
  ColliderQuery listed = full;
  listed.faces_only = true;
  const float inv_h = 1.0f / h;
  const bool moving = std::memcmp(&c.previous, &c.pose, sizeof(Pose)) != 0;
  const bool mesh = c.kind == ShapeKind::kMesh;
  Vec3 box_lo, box_hi;
  world_box(c, after, &box_lo, &box_hi);
  const float* clear = clear_.data() + size_t(index) * count;
  const uint32_t* entry = entry_.data() + size_t(index) * count;
  uint32_t contacts = 0;
  for (uint32_t i = 0; i < count; ++i) {
    if (inv_mass[i] == 0.0f) continue;
    Vec3 x = load3(pos, i);
    const Vec3 p = load3(prev, i);
    // Both ends of the substep's path within the clear radius: nothing to find (begin_frame).
    const float r = clear[i];
    const Vec3 s0 = load3(start_.data(), i);
    if (r > 0.0f && length_sq(x - s0) < r * r && length_sq(p - s0) < r * r) continue;
    ++stats_.tested;
    const Vec3 start = moving ? to_world(after, to_local(before, p)) : p;
    const float path = length(x - start);
    const ColliderQuery* query = &full;
    const uint32_t e = entry[i];
    if (e != ~0u) {
      // Its faces answer every query of contact_particle if both ends lie within R of its frame start
      // in the mesh's frame (the traced points lie between them) and no query is longer than D.
      const Vec3 centre = load3(centre_.data(), e);
      const float radius2 = radius_[e] * radius_[e];
      const float longest = path + std::max(1e-5f, 1e-3f * path);  // contact_particle's reach, m
      if (longest <= reach_[e] && length_sq(to_local(after, x) - centre) <= radius2 &&
          length_sq(to_local(after, start) - centre) <= radius2) {
        listed.faces = faces_.data() + face_start_[e];
        listed.face_count = face_start_[e + 1] - face_start_[e];
        query = &listed;
      } else {
        ++stats_.fallbacks;
      }
    } else {
      if (x.x < box_lo.x - path || x.x > box_hi.x + path || x.y < box_lo.y - path || x.y > box_hi.y + path ||
          x.z < box_lo.z - path || x.z > box_hi.z + path)
        continue;
      if (mesh) ++stats_.fallbacks;
    }
    ParticleContact contact;
    if (!contact_particle(&x, start, p, *query, before, &contact)) continue;
    store3(pos, i, x);
    ++contacts;
    record_contact(record, i, contact, c.restitution, inv_h);
  }
  stats_.solve_ms += ms_since(began);
  return contacts;
}

}  // namespace sb
