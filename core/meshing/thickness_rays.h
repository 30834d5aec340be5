// The local thickness of a solid at a point of its surface: how far a ray along the inward normal
// runs before it leaves the solid through its *other side* (issue 26). Only that side counts:
//   - a side whose outward normal is not roughly along the ray (within kOpposedCosine) is a wall
//     met at a sharp edge or corner, not the far side of a thin part: a box face's ray that leaves
//     through the next face 1 mm away near their common edge measures the corner, not a plate;
//   - a face sharing a vertex with the ray's own face is its neighbourhood: near a sharp edge or
//     a fold (a needle face, a vertex pulled close to its neighbour) the ray meets the face across
//     the edge at once however thick the solid is. (Counting such hits when the wedge is wide,
//     t >= 1.5 x for x the distance from the ray's origin to the shared edge, brought back 8,000-
//     9,500 tets instead of 5,000 on boxes with a vertex pulled within 7.6 mm of a neighbour: the
//     needle faces there make 56 degree wedges a few mm wide.) Except a rod whose cross-section is
//     one triangle of long faces (each side shares the rod's edges with the two others): a face at
//     least kRodSideLength times as long as the hit's distance, whose hit face's own inward ray leaves
//     through the third side, close by and sharing a corner with the first but not a corner of both
//     (closed_section);
//   - where pieces overlap (a soup: several pieces or open edges) a crossing into another piece,
//     or out of it while still inside the first (winding number > 1/2 beyond), is no way out: a
//     union of spheres is thick along its creases.
// A ray whose first way out is a wall or a neighbour measures no thickness (+infinity).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace sb {

class SurfaceQuery;

// cos(66 deg): a wedge sharper than this (an equilateral triangle rod's 60 degrees included) is a
// thin part; a box's 90 degree edges are not.
constexpr double kOpposedCosine = 0.4;
// A neighbour hit counts when a second ray, from it along the hit face's inward normal, leaves within
// this many times the first's length through a third side: one whose normal is within
// acos(kSameSideCosine) = 25 degrees of neither face's (ThicknessRays::closed_section).
constexpr double kClosedSectionReach = 1.5;
constexpr double kSameSideCosine = 0.9;
// A rod's side is this many times longer than the section is thick: measured, a 1 m rod of 1-8 cm
// sides 23 or more; the bunny's ear tips, whose faces pass the section test, 1.4-2.5 (counting those
// changed its mesh, 5,538 -> 5,600 tets, and with it how it tipped over on landing in test_landing).
constexpr double kRodSideLength = 4.0;

class ThicknessRays {
 public:
  // positions (grid units) and outward triangles of a cleaned surface; query over the same surface
  // (both must outlive this object).
  ThicknessRays(const std::vector<double>& positions, const std::vector<uint32_t>& triangles, const SurfaceQuery& query);

  // Distance from o (on `face`) along -normal(face) to the other side, if under `reach`; else +inf.
  // *closed (if given) is set when the other side is a rod's neighbouring side (closed_section).
  double thickness(const double o[3], uint32_t face, double reach, bool* closed = nullptr) const;
  const double* normal(uint32_t face) const { return &normal_[3 * size_t(face)]; }  // unit outward, or 0
  bool soup() const { return soup_; }
  // Whether the solid continues beyond the face (winding number > 1/2 just outside it): an inner
  // sheet of overlapping pieces, or a face shared by two touching ones. Not part of the boundary, so
  // not sampled (the three overlapping spheres of the tests had 1,312 surface points at 10 cells
  // with their inner sheets, 960 without). Always false for a single closed piece.
  bool buried(uint32_t face) const { return !buried_.empty() && buried_[face] == kBuried; }
  // ... at a point x of the face: faces along a crease of a union (a neighbour across an edge is
  // buried and the face not, or the other way round) are tested per sample there.
  bool buried_at(const double x[3], uint32_t face) const;
  // Whether the face is tested per sample (buried_at): it crosses into another piece, or meets one.
  bool mixed(uint32_t face) const { return !buried_.empty() && buried_[face] == kMixed; }

 private:
  const std::vector<double>& p_;
  const std::vector<uint32_t>& t_;
  const SurfaceQuery& query_;
  std::vector<double> normal_;
  bool soup_ = false;  // several connected pieces or open edges: exits are checked by winding number
  // Per face, for soups: buried at its centroid, not, or either (a neighbour across an edge differs).
  static constexpr uint8_t kClear = 0, kBuried = 1, kMixed = 2;
  std::vector<uint8_t> buried_;
  bool outside_is_inside(const double x[3], uint32_t face) const;
  bool winding_above_half(const double y[3]) const;
  double longest_edge(uint32_t face) const;
  bool closed_section(const double o[3], uint32_t face, double hit, uint32_t hit_face) const;
};

}  // namespace sb
