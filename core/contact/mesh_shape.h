// A triangle mesh used as a rigid obstacle (a bowl, stairs, a funnel: any surface the page can
// import), in its own frame. Distances are exact (nearest point over a bounding-volume hierarchy),
// which is what the contact's sphere tracing needs (collider.h).
// - A closed mesh is a solid: the sign comes from the angle-weighted pseudonormal of the nearest
//   feature (Baerentzen & Aanaes 2005, "Signed distance computation using the angle weighted
//   pseudonormal"), exact for a closed, consistently outward mesh, and O(1) once the nearest point is known.
// - An open mesh (a sheet, a bowl) is a two-sided shell of a given thickness: distance to the sheet
//   minus half the thickness, so nothing passes through it from either side.
#pragma once
#include <cstdint>
#include <vector>

#include "math/vec3.h"

namespace sb {

class MeshShape {
 public:
  // positions: xyz per vertex, m; triangles: 3 per face, welded and consistently oriented, outward
  // when closed (surface_cleanup.h's clean_surface makes both). thickness: m, the shell's full
  // thickness when the mesh is open (ignored when closed).
  MeshShape(const std::vector<double>& positions, const std::vector<uint32_t>& triangles, bool closed,
            float thickness);

  bool closed() const { return closed_; }
  float thickness() const { return thickness_; }
  uint32_t triangle_count() const { return uint32_t(tri_.size() / 3); }
  uint32_t vertex_count() const { return uint32_t(v_.size()); }
  Vec3 bounds_lo() const { return nodes_[0].lo; }
  Vec3 bounds_hi() const { return nodes_[0].hi; }

  // Signed distance (m, negative inside the solid or the shell) from p, and the outward unit normal
  // there. When no part of the surface lies within `limit` of p, returns `limit` (taken as outside)
  // without visiting the far parts of the tree: the contact only needs distances shorter than a
  // particle's path.
  float signed_distance(Vec3 p, float limit, Vec3* normal) const;
  // The same over the listed faces only (a frame's candidates, collider_candidates.h): equal to
  // signed_distance whenever every face within limit (+ half the thickness, for a shell) of p is
  // listed. Ties between equally near faces may go to another face of the same feature.
  float signed_distance_faces(Vec3 p, float limit, Vec3* normal, const uint32_t* faces, uint32_t face_count) const;
  // Appends to *out the faces whose bounding box meets the box [lo, hi] (m, mesh frame), in the
  // tree's order (deterministic). One tree walk: the per-frame gathering of candidates.
  void faces_in_box(Vec3 lo, Vec3 hi, std::vector<uint32_t>* out) const;

 private:
  struct Node {
    Vec3 lo, hi;          // bounding box of its triangles, m
    int32_t left, right;  // children, or -1 for a leaf
    int32_t begin, end;   // its triangles in order_
  };
  int32_t build(int32_t begin, int32_t end);
  // The signed distance and normal from the nearest point found (face, which feature of it, point,
  // squared distance); limit when none was found.
  float finish(Vec3 p, float limit, int32_t face, int feature, Vec3 point, float dist2, Vec3* normal) const;

  std::vector<Vec3> v_;
  std::vector<uint32_t> tri_;
  std::vector<Vec3> face_normal_;    // unit, per face
  std::vector<Vec3> vertex_normal_;  // angle-weighted pseudonormal, per vertex
  std::vector<Vec3> edge_normal_;    // per face edge k (from vertex k to k+1): the two faces' normals summed
  std::vector<uint32_t> order_;      // face ids grouped by leaf
  std::vector<Node> nodes_;
  float normal_eps_ = 0.0f;  // m: closer than this to an edge or vertex, its pseudonormal is the normal
  bool closed_ = false;
  float thickness_ = 0.0f;
};

}  // namespace sb
