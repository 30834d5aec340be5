// Closest points between simple shapes (for contact): a point and a triangle, two segments, a
// segment and a triangle. Single precision, as the solver's positions.
#pragma once
#include "math/vec3.h"

namespace sb {

// Closest point to p on triangle abc with its barycentric weights w (of a, b, c) and whether it lies
// inside the face (not on an edge or a vertex): the Voronoi-region case analysis (Ericson,
// "Real-Time Collision Detection", sec. 5.1.5). Outside the face, the weights of the vertices not on
// the nearest feature are exactly 0.
Vec3 closest_on_triangle(Vec3 p, Vec3 a, Vec3 b, Vec3 c, float w[3], bool* in_face);

// Closest points of segments p0-p1 and q0-q1: returns |gap|^2 and the parameters s, t in [0, 1]
// of the points p0 + s (p1 - p0) and q0 + t (q1 - q0) (Ericson, sec. 5.1.9).
float closest_between_segments(Vec3 p0, Vec3 p1, Vec3 q0, Vec3 q1, float* s, float* t);

// Closest points of segment a0-a1 and triangle p0 p1 p2 when they do not intersect: the point on the
// segment (*on_segment), the barycentric weights w of the point on the triangle; returns the
// distance squared, or 0 when the segment pierces the triangle (then nothing else is set).
float closest_segment_triangle(Vec3 a0, Vec3 a1, Vec3 p0, Vec3 p1, Vec3 p2, Vec3* on_segment, float w[3]);

}  // namespace sb
