// Point queries against a triangle surface, over a bounding-volume hierarchy:
// - the generalized winding number (Jacobson et al. 2013): the signed solid angle of the surface
//   seen from the point over 4 pi. 1 inside a closed outward surface, 0 outside, and a smooth,
//   sensible value near holes, seams, self-intersections and overlapping parts; "inside" is > 0.5.
//   Far clusters use their dipole (Barill et al. 2018, "Fast winding numbers"): the sum of the
//   area-weighted normals at the area centroid, so a query costs O(log n) instead of O(n).
// - whether any triangle lies within a distance of the point;
// - where a ray first meets the surface (for the thickness of thin parts).
#pragma once
#include <cstdint>
#include <vector>

namespace sb {

class SurfaceQuery {
 public:
  // positions: xyz doubles; triangles outward (counter-clockwise from outside). Both are copied.
  SurfaceQuery(const std::vector<double>& positions, const std::vector<uint32_t>& triangles);

  double winding_number(const double q[3]) const;
  // With clusters beyond far_ratio radii taken as dipoles (the default is 2; smaller is faster and
  // coarser).
  double winding_number(const double q[3], double far_ratio) const;
  double winding_number_exact(const double q[3]) const;  // every triangle, for tests
  bool any_within(const double q[3], double distance) const;
  // Distance along the ray o + t d (d unit length) to the nearest triangle other than `skip` with
  // t_min < t < t_max, or +infinity when it meets none (a short ray visits few nodes); the triangle
  // met goes to *hit_triangle when given (-1 for none).
  double ray_hit(const double o[3], const double d[3], int32_t skip, double t_min, double t_max = 1e300,
                 int32_t* hit_triangle = nullptr) const;
  const std::vector<uint32_t>& triangles() const { return tri_; }
  int32_t triangle_count() const { return int32_t(tri_.size() / 3); }

 private:
  struct Node {
    double lo[3], hi[3];  // bounding box
    double center[3];     // area-weighted centroid of its triangles
    double dipole[3];     // sum of area vectors (1/2 cross products), m^2
    double area;          // m^2
    double radius;        // from center to the farthest box corner
    int32_t left, right;  // children, or -1 for a leaf
    int32_t begin, end;   // its triangles in order_
  };
  int32_t build(int32_t begin, int32_t end);
  double triangle_solid_angle(int32_t t, const double q[3]) const;

  std::vector<double> pos_;
  std::vector<uint32_t> tri_;
  std::vector<int32_t> order_;  // triangle ids, grouped by leaf
  std::vector<Node> nodes_;
};

// Squared distance from p to the triangle a, b, c.
double point_triangle_distance2(const double p[3], const double a[3], const double b[3], const double c[3]);

}  // namespace sb
