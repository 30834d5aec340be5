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

// Two in-sphere filters side by side, for two tets and the same point e, in 2-lane SIMD: each lane
// runs exactly the operations of insphere's filter. sign[i] is insphere(a[i], b[i], c[i], d[i], e)
// where the filter certifies it, 0 where it cannot (the caller then asks insphere itself).
void insphere_filter_pair(const double* const a[2], const double* const b[2], const double* const c[2],
                          const double* const d[2], const double* e, int sign[2]);

// How often the exact stage ran, for tests and the benchmark (not thread-safe, just counters).
struct PredicateCounters {
  uint64_t orient_exact = 0;
  uint64_t insphere_exact = 0;
};
PredicateCounters& predicate_counters();

}  // namespace sb
