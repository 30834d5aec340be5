// Geometric predicates that are exact in sign: orientation of four points and the in-sphere test of
// five. A floating-point evaluation with a forward error bound answers almost every call; only when
// the bound cannot certify the sign is the determinant recomputed exactly with floating-point
// expansions (Shewchuk, "Adaptive Precision Floating-Point Arithmetic and Fast Robust Geometric
// Predicates", 1997: the error bounds and the expansion technique; this code is our own).
#pragma once
#include <cstdint>

namespace sb {

// Sign of ((b - a) x (c - a)) . (d - a): +1 when a, b, c, d is a positively oriented tet (the same
// convention as tet_volume6), -1 when mirrored, 0 when the four points are coplanar. Exact.
int orient3d(const double* a, const double* b, const double* c, const double* d);

// +1 when e lies strictly inside the sphere through a, b, c, d, 0 on it, -1 outside, for a
// positively oriented a, b, c, d (the sign flips for a mirrored one). Exact.
int insphere(const double* a, const double* b, const double* c, const double* d, const double* e);

// insphere with a deterministic tie-break (symbolic perturbation): never returns 0 when a, b, c, d
// is not flat. Point i's lifted coordinate |p|^2 is raised by eps^(rank), where points with larger
// `ids` are perturbed more. So cospherical points (a grid!) still get a consistent, unique answer,
// the same for any order the five points are passed in.
int insphere_sos(const double* a, const double* b, const double* c, const double* d, const double* e,
                 const int64_t ids[5]);
// The tie-break alone, for a caller that already knows insphere(a, b, c, d, e) == 0 (so the ids
// need building only then).
int insphere_tie_break(const double* a, const double* b, const double* c, const double* d, const double* e,
                       const int64_t ids[5]);

// An in-sphere test prepared once for a tet and then run against many points: the filter stage
// of insphere at the cost of a dot product (Marot, Pellerin, Remacle 2019 keep such
// sub-determinants per tet). With u, v, w = b - a, c - a, d - a and q = p - a, p is inside the
// circumsphere of the positive tet a, b, c, d iff D |q|^2 - N . q < 0, where
// N = |u|^2 (v x w) + |v|^2 (w x u) + |w|^2 (u x v) and D = u . (v x w) > 0 (the centre is a + N / 2D).
struct PreparedSphere {
  double n[3], d;  // N and D
  double g, h;     // the error bound is G (|q|^2 + H); see prepare_sphere
};
void prepare_sphere(const double* a, const double* b, const double* c, const double* d, PreparedSphere& s);
// The filter's value and its error bound for point p (a: the tet's first vertex, as prepared):
// p is certainly inside when value < -bound, certainly outside when value > bound; otherwise only
// insphere can tell. Branch-free, so callers can classify many tets without mispredictions.
inline void prepared_insphere(const PreparedSphere& s, const double* a, const double* p, double& value,
                              double& bound) {
  const double qx = p[0] - a[0], qy = p[1] - a[1], qz = p[2] - a[2];
  const double q2 = qx * qx + qy * qy + qz * qz;
  value = s.d * q2 - (s.n[0] * qx + s.n[1] * qy + s.n[2] * qz);
  bound = s.g * (q2 + s.h);
}

// How often the exact stage ran, for tests and the benchmark (not thread-safe, just counters).
struct PredicateCounters {
  uint64_t orient_exact = 0;
  uint64_t insphere_exact = 0;
};
PredicateCounters& predicate_counters();

}  // namespace sb
