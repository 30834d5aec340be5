// Collider contact with a per-frame candidate set (issue 25): solve_collider's rule (collider.h),
// with the expensive part found once per frame instead of once per substep.
//
// Once per frame (begin_frame, from each particle's position and velocity at the frame start):
// - a clear radius per particle and collider: while the particle's substep start and end both stay
//   within that distance of where it began the frame, no pose of the collider in this frame can come
//   near it (the distance at the frame start, less twice the farthest the collider moves, less a
//   margin above sphere tracing's touch tolerance), so the substep skips it with one distance test;
// - for a particle near a mesh, its candidate faces: every face whose box meets the box about its
//   frame start (in the mesh's frame) of half size R + D + half the thickness, R = its predicted
//   path's length over the frame + 1 cm, D = twice its path per substep + 1 cm. One tree walk.
// Every substep, a particle whose start and end (in the mesh's frame) lie within R of its frame
// start, and whose path needs no query longer than D, is tested against those faces only; they hold
// every face within D of any such point, so the nearest point, the sign and the sphere tracing are
// exactly the full tree's (ties included: both take the lowest face). Any other particle, one pushed
// farther than predicted, takes the full query of solve_collider: the result never depends on the
// prediction, only the cost does (stats().fallbacks counts those).
#pragma once
#include <cstdint>
#include <vector>

#include "contact/collider.h"

namespace sb {

struct ColliderCandidateStats {
  uint32_t particles = 0;   // (particle, mesh collider) pairs with a candidate list, this frame
  uint32_t faces = 0;       // faces listed over those pairs
  uint32_t fallbacks = 0;   // particle substeps near a mesh that took the full query (left their region)
  uint32_t tested = 0;      // particle substeps that were not skipped as clear (any collider)
  double gather_ms = 0.0;   // wall time of begin_frame
  double solve_ms = 0.0;    // wall time of the frame's solve calls
};

class ColliderCandidates {
 public:
  // Before the frame's first substep: count particles (xyz interleaved, m and m/s), `collider_count`
  // colliders sweeping from .previous to .pose over the frame of dt seconds in `substeps` substeps.
  void begin_frame(const float* pos, const float* vel, const float* inv_mass, uint32_t count,
                   const Collider* colliders, uint32_t collider_count, float dt, int substeps);
  // solve_collider (collider.h) for the frame's collider number `index` (== c), with the same
  // arguments and results. Falls back to solve_collider when begin_frame saw another set.
  uint32_t solve(uint32_t index, float* pos, const float* prev, const float* inv_mass, uint32_t count,
                 const Collider& c, float t0, float t1, float h, ContactRecord* record);
  const ColliderCandidateStats& stats() const { return stats_; }

 private:
  uint32_t count_ = 0, colliders_ = 0;
  std::vector<float> start_;     // xyz per particle at the frame start, m
  std::vector<float> clear_;     // [collider * count + particle]: clear radius about start_, m (<= 0: none)
  std::vector<uint32_t> entry_;  // [collider * count + particle]: its candidate entry, or ~0u
  // Candidate entries (particles near a mesh), structure of arrays.
  std::vector<float> centre_;        // xyz: the particle's frame start in the mesh's frame at the frame start, m
  std::vector<float> radius_;        // R, m
  std::vector<float> reach_;         // D, m: the longest query the listed faces answer exactly
  std::vector<uint32_t> face_start_;  // entry e's faces: faces_[face_start_[e] .. face_start_[e + 1])
  std::vector<uint32_t> faces_;
  ColliderCandidateStats stats_;
};

}  // namespace sb
